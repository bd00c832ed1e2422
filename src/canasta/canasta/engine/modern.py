"""Modern American's per-turn questions, answered without the interpreter's slow paths: whether a hand's rank
counts could form a special hand at all (a quick necessary condition asked before ``special_hands``' reading
of the cards), and whether a seat has asked permission this hand (``permission_once``).

Both are asked in every play phase of a Modern American turn, so they are written for the compiled build:
counts and a walk over the history's entries, no ``Counter``, no history text.
"""

from __future__ import annotations

from typing import Any, Final

from ..kinds import JOKER_RANK, TWO
from ..moves import Move
from ..rules import Rules
from ..state import Log

_RED_THREE, _BLACK_THREE = 1, 3  # rank codes of the threes in ``rank_counts``


def special_hand_possible(rules: Rules, rc: list[int]) -> bool:
    """Could a hand with these rank counts (``core.rank_counts``) form one of the rules' special hands? A
    necessary condition for each reading in ``special_hands`` (exact on counts, but the cards decide):
    ``False`` means none is formed, so the caller skips the reading of the cards. A name this function does
    not know answers ``True``."""
    jokers, twos, threes = rc[JOKER_RANK], rc[TWO], rc[_RED_THREE] + rc[_BLACK_THREE]
    for name, _value in rules.special_hands:
        if name == "garbage":  # two fours and two threes of a kind, natural ranks only
            if jokers or twos or threes:
                continue
            fours = trips = 0
            for rank in range(4, 15):
                n = rc[rank]
                if n == 4:
                    fours += 1
                elif n == 3:
                    trips += 1
                elif n:
                    fours = -99
            if fours == 2 and trips == 2:
                return True
        elif name in ("pairs", "pairs_twos_sevens_aces"):  # seven pairs, no jokers, no threes
            if jokers or threes or twos not in (0, 2):
                continue
            pairs = 1 if twos else 0
            for rank in range(4, 15):
                n = rc[rank]
                if n == 2:
                    pairs += 1
                elif n:
                    pairs = -99
            if pairs == 7:
                return True
        elif name == "straight":  # a three, one of each rank 4 to ace, two wild cards
            if jokers + twos != 2 or threes != 1:
                continue
            ok = True
            for rank in range(4, 15):
                if rc[rank] != 1:
                    ok = False
            if ok:
                return True
        else:
            return True
    return False


def asked_this_hand(log: Log, seat: int) -> bool:
    """Has ``seat`` asked permission to go out this hand? The same answer as ``state.log_contains(log, f"{seat}
    ask")``, from a walk over the entries (no history text made): a move entry of that seat whose action is
    ``ask``, or an entry read from text that says so. The walk stops at the entry last asked about for that
    seat (the history only grows from it, so its answer stands): in a game, only the newest entries are read."""
    text = f"{seat} ask"
    last = _LAST_ASKED.get(seat)
    node = log
    answer = False
    while node is not None:
        if last is not None and node is last[0]:
            answer = bool(last[1])
            break
        who = node[1]
        event = node[2]
        if who == seat:
            if isinstance(event, Move):
                if event.action == "ask":
                    answer = True
                    break
            elif str(event) == "ask":
                answer = True
                break
        elif who < 0 and str(event) == text:
            answer = True
            break
        node = node[0]
    if log is not None:
        if len(_LAST_ASKED) >= 64:  # seats are few; a bound all the same
            _LAST_ASKED.clear()
        _LAST_ASKED[seat] = (log, answer)
    return answer


# seat -> (the log node last asked about, its answer). The node is kept (not its id), so it cannot be mistaken
# for another; a history is immutable, so the answer for a node never changes.
_LAST_ASKED: Final[dict[int, tuple[list[Any], bool]]] = {}
