"""Types of the Cython module ``canasta.rl.arrays`` (arrays.pyx)."""

from typing import Any

import numpy as np

def copies(observation: bytearray, mask: bytearray) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]: ...
def observation_dict(observation: bytearray, mask: bytearray) -> dict[str, np.ndarray[Any, Any]]: ...
