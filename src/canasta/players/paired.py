"""What both families' search players decide by: every candidate move is played on the same sampled deals, so
each alternative's gain over the heuristic's move is a paired difference per deal; an alternative is played only
when its mean gain is more than ``margin`` standard errors above zero (without evidence the heuristic's move
stands), the best such one when several are."""

from __future__ import annotations

import math
from collections.abc import Sequence


def standard_error(values: Sequence[float], mean: float) -> float:
    """The standard error of the mean of ``values`` (infinite for fewer than two)."""
    if len(values) < 2:
        return math.inf
    variance = sum((v - mean) ** 2 for v in values) / (len(values) - 1)
    return math.sqrt(variance / len(values))


def best_alternative(gains: Sequence[Sequence[float]], margin: float, least: int) -> tuple[int, float, float]:
    """Of the alternatives' gains (one list per alternative, one entry per sampled deal), the index of the one to
    play, its mean gain and the standard error: the highest mean among those more than ``margin`` standard errors
    above zero over at least ``least`` deals; ``(-1, 0.0, 0.0)`` when none is (keep the heuristic's move)."""
    best, best_mean, best_se = -1, 0.0, 0.0
    for i, diffs in enumerate(gains):
        if len(diffs) < least:
            continue
        mean = sum(diffs) / len(diffs)
        se = standard_error(diffs, mean)
        if mean > margin * se and mean > best_mean:
            best, best_mean, best_se = i, mean, se
    return best, best_mean, best_se
