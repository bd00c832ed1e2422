"""The state of a rummy game: one immutable value per position, with an exact JSON form.

A position's JSON carries ``"family": "rummy"``; ``canasta.positions.load_state`` reads either family by it
(docs/position-schema.md).
"""

from __future__ import annotations

from typing import Any

from ..canasta.cards import JOKER, card_str, parse_card
from ..jsonform import describe, dumps, loads
from .melds import Meld
from .rules import JOKER_EFFECTS, RummyRules

DRAW = "draw"
PLAY = "play"
CLAIM = "claim"  # call_rum: the seat to move may call "Rum" on the discard or pass
NOMINATE = "nominate"  # Dealer's Gambit: the dealer names the jokers' effect before play
OVER = "over"
PHASES = (DRAW, PLAY, CLAIM, NOMINATE, OVER)


class RummyState:
    """One position. Fields are read-only by convention; ``replace`` makes a changed copy."""

    __slots__ = (
        "aside",
        "claim_from",
        "deal",
        "dealer",
        "hand_number",
        "hands",
        "history",
        "last_hand",
        "legal_cache",
        "melded",
        "melds",
        "must_use",
        "phase",
        "pile",
        "removed",
        "reshuffles",
        "result",
        "rules",
        "scores",
        "seed",
        "stock",
        "taken",
        "turn_melded",
        "turn_seat",
    )

    def __init__(self, *, rules: RummyRules, seed: int | None, hand_number: int, dealer: int,
                 scores: tuple[int, ...], hands: tuple[tuple[int, ...], ...], stock: tuple[int, ...],
                 pile: tuple[int, ...], melds: tuple[Meld, ...], turn_seat: int, phase: str, must_use: int,
                 taken: tuple[int, ...], melded: tuple[bool, ...], turn_melded: bool, reshuffles: int,
                 deal: tuple[int, ...], history: tuple[str, ...], last_hand: dict[str, Any] | None,
                 result: dict[str, Any] | None, aside: tuple[int, ...] = (), claim_from: int = -1,
                 removed: tuple[int, ...] = ()) -> None:
        self.rules = rules
        self.removed = removed  # Dealer's Gambit: cards out of the game for the rest of the hand (a split)
        self.claim_from = claim_from
        self.aside = aside
        self.seed = seed
        self.hand_number = hand_number
        self.dealer = dealer
        self.scores = scores
        self.hands = hands
        self.stock = stock
        self.pile = pile
        self.melds = melds
        self.turn_seat = turn_seat
        self.phase = phase
        self.must_use = must_use
        self.taken = taken
        self.melded = melded
        self.turn_melded = turn_melded
        self.reshuffles = reshuffles
        self.deal = deal
        self.history = history
        self.last_hand = last_hand
        self.result = result
        self.legal_cache: list[Any] | None = None

    def replace(self, **changes: Any) -> RummyState:
        fields = {k: getattr(self, k) for k in self.__slots__ if k != "legal_cache"}
        fields.update(changes)
        return RummyState(**fields)

    @property
    def to_move(self) -> int:
        return self.turn_seat

    @property
    def side_to_move(self) -> int:
        return self.rules.side_of(self.turn_seat)

    def side_of(self, seat: int) -> int:
        return self.rules.side_of(seat)

    def seats_of(self, side: int) -> tuple[int, ...]:
        return self.rules.seats_of(side)

    def hand_cards(self, seat: int) -> list[int]:
        return list(self.hands[seat])

    def __eq__(self, other: object) -> bool:
        return isinstance(other, RummyState) and self.to_json() == other.to_json()

    def __hash__(self) -> int:
        return hash(self.to_json())

    def __repr__(self) -> str:
        return describe("RummyState", self.rules.name, self.hand_number, self.turn_seat, self.phase, self.scores)

    def to_dict(self) -> dict[str, Any]:
        def cs(cards: tuple[int, ...]) -> list[str]:
            return [card_str(c) for c in cards]

        return {
            "family": "rummy",
            "rules": self.rules.to_dict(),
            "seed": self.seed,
            "hand_number": self.hand_number,
            "dealer": self.dealer,
            "scores": list(self.scores),
            "hands": [cs(h) for h in self.hands],
            "stock": cs(self.stock),
            "pile": cs(self.pile),
            "melds": [{"kind": m.kind, "cards": cs(m.cards), "seats": list(m.seats), "points": list(m.points),
                       "start": m.start} for m in self.melds],
            "turn_seat": self.turn_seat,
            "phase": self.phase,
            "must_use": card_str(self.must_use) if self.must_use >= 0 else None,
            "taken": cs(self.taken),
            "melded": list(self.melded),
            "turn_melded": self.turn_melded,
            "reshuffles": self.reshuffles,
            "deal": cs(self.deal),
            "history": list(self.history),
            "last_hand": self.last_hand,
            "result": self.result,
            "aside": cs(self.aside),
            "claim_from": self.claim_from if self.claim_from >= 0 else None,
            "joker_effect": self.rules.joker_effect,
            "removed": cs(self.removed),
        }

    def to_json(self) -> str:
        return dumps(self.to_dict())

    @classmethod
    def from_dict(cls, data: Any) -> RummyState:
        """Read a state from ``to_dict()``'s form; ``ValueError`` names the field that is wrong."""
        return _from_dict(data)

    @classmethod
    def from_json(cls, text: str | bytes) -> RummyState:
        """Read a state written by ``to_json``; raises ``ValueError`` naming what is wrong."""
        return _from_dict(loads(text, "RummyState.from_json"))


def _int(d: dict[str, Any], key: str, low: int | None = None, high: int | None = None) -> int:
    v = d.get(key)
    if isinstance(v, bool) or not isinstance(v, int):
        raise ValueError(f"position field {key!r} must be an integer, got {v!r}")
    if (low is not None and v < low) or (high is not None and v > high):
        raise ValueError(f"position field {key!r} must be in {low}..{high}, got {v}")
    return v


def _cards(value: Any, what: str) -> tuple[int, ...]:
    if not isinstance(value, list):
        raise ValueError(f"position field {what!r} must be a list of cards")
    try:
        return tuple(int(parse_card(c)) for c in value)
    except (ValueError, AttributeError, TypeError) as exc:
        raise ValueError(f"position field {what!r}: {exc}") from None


def _ints(value: Any, what: str, n: int) -> tuple[int, ...]:
    if not isinstance(value, list) or len(value) != n or any(isinstance(v, bool) or not isinstance(v, int)
                                                             for v in value):
        raise ValueError(f"position field {what!r} must be a list of {n} integers")
    return tuple(value)


def _from_dict(d: Any) -> RummyState:
    from .presets import rummy_key, rummy_rules

    if not isinstance(d, dict):
        raise ValueError("a position is a JSON object")
    spec = d.get("rules")
    if not isinstance(spec, dict) or not isinstance(spec.get("variant"), str) or not isinstance(
            spec.get("options", {}), dict):
        raise ValueError('position field "rules" must be {"variant": NAME, "options": {...}}')
    key = rummy_key(spec["variant"])
    if key is None:
        raise ValueError(f"position: {spec['variant']!r} is not a rummy variant")
    r = rummy_rules(key, spec.get("options") or {})
    effect = d.get("joker_effect", "")
    if effect not in ("", *JOKER_EFFECTS) or (effect and not r.dealers_joker):
        raise ValueError(f"position field 'joker_effect' must be one of {', '.join(JOKER_EFFECTS)} (Dealer's "
                         f"Gambit) or empty, got {effect!r}")
    r = r.for_hand(effect)
    n = r.players
    seed = d.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise ValueError(f"position field 'seed' must be an integer or null, got {seed!r}")
    hands_raw = d.get("hands")
    if not isinstance(hands_raw, list) or len(hands_raw) != n:
        raise ValueError(f"position field 'hands' must list {n} hands")
    hands = tuple(tuple(sorted(_cards(h, f"hands[{i}]"))) for i, h in enumerate(hands_raw))
    melds_raw = d.get("melds")
    if not isinstance(melds_raw, list):
        raise ValueError("position field 'melds' must be a list")
    melds = []
    for i, m in enumerate(melds_raw):
        if not isinstance(m, dict) or m.get("kind") not in ("set", "run", "jokers"):
            raise ValueError(f"position field melds[{i}] must be an object with kind set, run or jokers")
        cards = _cards(m.get("cards"), f"melds[{i}].cards")
        seats = _ints(m.get("seats"), f"melds[{i}].seats", len(cards))
        points = _ints(m.get("points"), f"melds[{i}].points", len(cards))
        if any(not 0 <= s < n for s in seats):
            raise ValueError(f"position field melds[{i}].seats: seats are 0..{n - 1}")
        melds.append(Meld(m["kind"], cards, seats, points, _int(m, "start", 0, 14)))
    phase = d.get("phase")
    if phase not in PHASES:
        raise ValueError(f"position field 'phase' must be one of {', '.join(PHASES)}, got {phase!r}")
    must = d.get("must_use")
    must_use = -1 if must is None else _cards([must], "must_use")[0]
    history = d.get("history", [])
    if not isinstance(history, list) or not all(isinstance(h, str) for h in history):
        raise ValueError("position field 'history' must be a list of texts")
    for key_name in ("last_hand", "result"):
        if d.get(key_name) is not None and not isinstance(d.get(key_name), dict):
            raise ValueError(f"position field {key_name!r} must be an object or null")
    melded = d.get("melded")
    if not isinstance(melded, list) or len(melded) != n or not all(isinstance(b, bool) for b in melded):
        raise ValueError(f"position field 'melded' must be a list of {n} true/false")
    if not isinstance(d.get("turn_melded"), bool):
        raise ValueError("position field 'turn_melded' must be true or false")
    state = RummyState(
        rules=r, seed=seed, hand_number=_int(d, "hand_number", 1), dealer=_int(d, "dealer", 0, n - 1),
        scores=_ints(d.get("scores"), "scores", r.teams), hands=hands, stock=_cards(d.get("stock"), "stock"),
        pile=_cards(d.get("pile"), "pile"), melds=tuple(melds), turn_seat=_int(d, "turn_seat", 0, n - 1),
        phase=phase, must_use=must_use, taken=_cards(d.get("taken", []), "taken"), melded=tuple(melded),
        turn_melded=d["turn_melded"], reshuffles=_int(d, "reshuffles", 0, 1),
        deal=_cards(d.get("deal", []), "deal"), history=tuple(history), last_hand=d.get("last_hand"),
        result=d.get("result"), aside=_cards(d.get("aside", []), "aside"),
        claim_from=-1 if d.get("claim_from") is None else _int(d, "claim_from", 0, n - 1),
        removed=_cards(d.get("removed", []), "removed"))
    if (state.phase == CLAIM) != (state.claim_from >= 0) or (state.phase == CLAIM and not state.pile):
        raise ValueError("position field 'claim_from' names the discarder exactly when the phase is 'claim'")
    if any(c != JOKER for c in state.aside) or len(state.aside) > 2 * int(r.dealers_joker):
        raise ValueError("position field 'aside' holds at most the dealer's joker and the joker blocking it (with "
                         "dealers_joker)")
    if r.dealers_joker and (state.phase == NOMINATE) != (effect == ""):
        raise ValueError("position field 'joker_effect' is empty exactly while the dealer is to nominate it")
    if state.removed and not r.splitting_jokers:
        raise ValueError("position field 'removed' holds cards only after a split (Dealer's Gambit)")
    _check_cards(state)
    return state


def _check_cards(s: RummyState) -> None:
    """Every card of the pack exactly once (jokers as often as the rules have them)."""
    seen: dict[int, int] = {}
    every = [*s.stock, *s.pile, *s.aside, *s.removed, *(c for h in s.hands for c in h),
             *(c for m in s.melds for c in m.cards)]
    for c in every:
        seen[c] = seen.get(c, 0) + 1
    want = {c: s.rules.packs for c in range(52)}
    if s.rules.jokers:
        want[JOKER] = s.rules.jokers
    if seen != want:
        extra = sorted(card_str(c) for c in seen if seen[c] > want.get(c, 0))
        missing = sorted(card_str(c) for c in want if seen.get(c, 0) < want[c])
        raise ValueError(f"position does not hold the pack exactly once (extra: {' '.join(extra) or '-'}; "
                         f"missing: {' '.join(missing) or '-'})")
