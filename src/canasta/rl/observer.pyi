"""Types of the Cython module ``canasta.rl.observer`` (observer.pyx)."""

from collections.abc import Callable
from typing import Any

import numpy as np

from .encoder import Encoder
from .table import Table

class TensorFiller:
    tensor: np.ndarray[Any, Any]
    def __init__(self, tensor: np.ndarray[Any, Any], encoder_for: Callable[[Table], Encoder]) -> None: ...
    def set_from(self, state: Any, player: int) -> None: ...
