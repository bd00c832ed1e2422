"""Types of the Cython module ``canasta.rl.native`` (native.pyx)."""

from ..canasta.state import State
from .actions import Atoms
from .observation import Layout

class NativeEncoder:
    layout: Layout
    size: int
    buffers: list[bytearray]
    def __init__(self, layout: Layout) -> None: ...
    def encode(self, state: State, seat: int, prefix: Atoms, known: dict[int, dict[int, int]]) -> bytearray: ...

class NativeMaskWriter:
    mask: bytearray
    def __init__(self, size: int) -> None: ...
    def write(self, atoms: list[int]) -> bytearray: ...
