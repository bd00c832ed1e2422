"""The rummy engine's entry points, the same as Canasta's: ``legal_moves`` (cached on the state), ``apply``
(checked against that list), ``why_illegal``, ``parse_move``, ``is_over``, ``outcome``."""

from __future__ import annotations

from typing import Any

from ..errors import IllegalMove
from .explain import diagnose
from .generate import generate_moves, opened
from .melds import labels, lay_off_end, meld_kind
from .moves import DEALER_JOKER, RummyMove, parse_cards_text, parse_words
from .play import apply_move
from .state import OVER, PLAY, RummyState


def legal_moves(state: RummyState) -> list[RummyMove]:
    cached = state.legal_cache
    if cached is None:
        cached = state.legal_cache = generate_moves(state)
    return list(cached)


def parse_move(state: RummyState, text: str) -> RummyMove:
    """Parse rummy notation in the context of ``state`` (syntax; legality is ``apply``'s job)."""
    action, words, target = parse_words(text)
    cards = parse_cards_text(words, text)
    if action in (DEALER_JOKER, "block", "split"):
        return RummyMove(action, cards)
    if action == "nominate":
        return RummyMove(action, (), target or "")
    if action in ("take", "rum") and not cards:
        if not state.pile:
            raise ValueError(f"{text!r}: the discard pile is empty")
        cards = (state.pile[-1],)
    if action == "meld":
        kind = meld_kind(state.rules, cards)
        cards = kind[2] if kind is not None else tuple(sorted(cards))
    on = ""
    if action in ("lay", "rum"):
        on = _meld_named(state, cards[0], target, text)
    return RummyMove(action, cards, on)


def _meld_named(state: RummyState, card: int, target: str | None, text: str) -> str:
    melds = state.melds
    names = labels(melds)
    if target is None:
        fits = [n for m, n in zip(melds, names, strict=True) if lay_off_end(state.rules, m, card)]
        if len(fits) > 1:
            raise ValueError(f"{text!r}: the card fits {' and '.join(fits)}; say which, e.g. "
                             f"'lay ... on {fits[0]}'")
        return fits[0] if fits else "?"
    wanted = target.strip()
    for n in names:
        if n.upper() == wanted.upper():
            return n
    try:
        named = parse_cards_text(wanted.split(), text)
    except ValueError:
        return wanted  # no such meld: why_illegal says NO_SUCH_MELD
    for m, n in zip(melds, names, strict=True):
        if all(c in m.cards for c in named):
            return n
    return wanted


def apply(state: RummyState, move: RummyMove | str) -> RummyState:
    if not isinstance(move, RummyMove):
        if not isinstance(move, str):
            raise TypeError(f"apply wants a move or move notation, got {type(move).__name__}")
        move = parse_move(state, move)
    if move not in legal_moves(state):
        raise why_illegal(state, move) or IllegalMove("NOT_ALLOWED_NOW", f"{move} is not allowed now")
    return apply_move(state, move)


def why_illegal(state: RummyState, move: RummyMove | str) -> IllegalMove | None:
    if not isinstance(move, RummyMove):
        move = parse_move(state, move)
    if move in legal_moves(state):
        return None
    code, message = diagnose(state, move)
    return IllegalMove(code, message, move=str(move))


def is_over(state: RummyState) -> bool:
    return state.phase == OVER


def outcome(state: RummyState) -> dict[str, Any] | None:
    return state.result


def minimum_needed(state: RummyState, seat: int) -> int:
    """The points ``seat``'s first meld must still be worth this hand (``first_meld``; 0 once he has melded)."""
    return 0 if opened(state, seat) else state.rules.first_meld


def can_go_out(state: RummyState) -> bool:
    """Can the player whose turn it is go out this turn, from here (after drawing)? An exact search over his
    melds and lay-offs, each position of his hand and the table looked at once."""
    return state.phase == PLAY and _goes_out(state, set())


def _goes_out(s: RummyState, seen: set[tuple[Any, ...]]) -> bool:
    hand = s.hands[s.turn_seat]
    key = (hand, s.must_use, tuple(m.cards for m in s.melds))
    if key in seen:
        return False
    seen.add(key)
    for move in legal_moves(s):
        if move.action == "discard" and len(hand) == 1:
            return True
        if move.action in ("meld", "lay") and (len(move.cards) == len(hand) or _goes_out(apply_move(s, move), seen)):
            return True
    return False
