"""A score pad: a game played with real cards, kept hand by hand (docs/pad.md).

Every hand is what a scorer at the table counts, in the ``canasta score`` input (cards, or counts where a
side's cards were not written down) plus the hand's own metadata: the irregularities entered against a side
(``penalties``) and a note. Each hand is scored by the engine's own scoring (``canasta.score_hand``, or the
rummy family's); the pad adds the running totals, each side's minimum count for the next hand and the end of
the game by the variant's rule. A ``Pad`` is a value: every change returns a new one, and a change that
cannot stand raises ``PadError`` and leaves the pad as it was.
"""

from __future__ import annotations

import json
import unicodedata
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from ..canasta.engine.end import game_result
from ..canasta.rules import Rules
from ..canasta.scoring import acaba_score, canasta_kinds, count_fields, hand_penalty_ranks, score_hand, unfinished_ranks
from ..presets import game_rules
from ..rummy import RummyRules
from ..rummy.scoring import game_result as rummy_game_result
from ..rummy.scoring import score_hand as rummy_score_hand
from .irregularities import BY_CODE, available

FORMAT = "canasta-pad"
VERSION = 1
MAX_HANDS = 200
MAX_UNDO = 50
MAX_NAME = 40
MAX_NOTE = 200
MAX_PENALTIES = 20
MAX_OTHER = 10_000  # the largest "other" penalty or bonus one entry may hold


class PadError(ValueError):
    """A change the pad refuses; the message says what was wrong and the pad is unchanged."""


@dataclass(frozen=True)
class Pad:
    variant: str
    options: dict[str, Any]
    names: tuple[str, ...]
    hands: tuple[dict[str, Any], ...] = ()
    undo_log: tuple[dict[str, Any], ...] = field(default=(), compare=False)

    @cached_property
    def rules(self) -> Rules | RummyRules:
        return game_rules(self.variant, **self.options)

    @property
    def rummy(self) -> bool:
        return isinstance(self.rules, RummyRules)

    # --- what the pad shows ---------------------------------------------------------------------------

    @cached_property
    def sheet(self) -> list[dict[str, Any]]:
        """Each hand scored: ``number``, ``sides`` (``lines``, ``total``, ``cumulative`` each) and ``raised``
        (per side, the minimum's rise entered for that hand, X5)."""
        out: list[dict[str, Any]] = []
        totals = [0] * len(self.names)
        for number, hand in enumerate(self.hands, 1):
            sides = score_entry(self.rules, hand)
            for i, side in enumerate(sides):
                totals[i] += side["total"]
                side["cumulative"] = totals[i]
            out.append({"number": number, "sides": sides, "raised": _raised(self.rules, hand, len(self.names))})
        return out

    @property
    def totals(self) -> list[int]:
        return [s["cumulative"] for s in self.sheet[-1]["sides"]] if self.hands else [0] * len(self.names)

    @cached_property
    def result(self) -> dict[str, Any] | None:
        """The game's end by the variant's rule after the last hand (``scores``, ``winner`` side or None
        for a draw, ``hands``), else None."""
        return _result(self.rules, self.hands, self.sheet)

    def minimums(self) -> list[int]:
        """Each side's minimum count for its first meld in the next hand (0: the family has none)."""
        r = self.rules
        if isinstance(r, RummyRules):
            return [r.first_meld] * len(self.names)
        nxt = len(self.hands) + 1
        return [r.minimum_count(score, nxt) for score in self.totals]

    def opening_canastas(self) -> list[str | None]:
        """Per side, the canasta its opening must include next hand ("canasta", "natural"), or None."""
        r = self.rules
        if isinstance(r, RummyRules):
            return [None] * len(self.names)
        return [r.opening_canasta_needed(score) for score in self.totals]

    def summary(self) -> dict[str, Any]:
        """Everything a face shows: the game, every hand's lines and totals, the minimums, the result."""
        r = self.rules
        return {"variant": self.variant, "options": dict(self.options), "names": list(self.names),
                "family": "rummy" if self.rummy else "canasta", "hands": self.sheet, "totals": self.totals,
                "minimums": self.minimums(), "opening_canastas": self.opening_canastas(), "result": self.result,
                "can_undo": bool(self.undo_log), "form": _form(r),
                "irregularities": [] if isinstance(r, RummyRules) else [x.to_dict(r) for x in available(r)]}

    # --- changes ----------------------------------------------------------------------------------------

    def add(self, entry: Any) -> Pad:
        """The pad with one more hand (``entry`` as the pad's JSON holds a hand, variant and options optional)."""
        closed = self.closed()
        if closed:
            raise PadError(closed)
        hand = self.check(entry, f"hand {len(self.hands) + 1}")
        return self._with((*self.hands, hand), {"op": "add"})

    def closed(self) -> str | None:
        """Why no hand can be added (the game is over, the pad is full), or None."""
        if self.result is not None:
            return f"the game is over ({_ended(self)}); correct or undo a hand to go on"
        if len(self.hands) >= MAX_HANDS:
            return f"a pad holds at most {MAX_HANDS} hands"
        return None

    def correct(self, number: int, entry: Any) -> Pad:
        """The pad with hand ``number`` (1 = the first) replaced; later totals follow."""
        if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= len(self.hands):
            raise PadError(f"there is no hand {number!r} to correct (hands 1 to {len(self.hands)})")
        hand = self.check(entry, f"hand {number}")
        hands = (*self.hands[:number - 1], hand, *self.hands[number:])
        after = self._with(hands, {"op": "correct", "hand": number, "before": self.hands[number - 1]})
        for k in range(number, len(hands)):
            if _result(after.rules, hands[:k], after.sheet[:k]) is not None:
                raise PadError(f"with this correction the game ends after hand {k}, but {len(hands)} hands are "
                               "entered: undo the later hands first")
        return after

    def undo(self) -> Pad:
        """The pad before its last change (a hand added or corrected)."""
        if not self.undo_log:
            raise PadError("nothing to undo")
        last, log = self.undo_log[-1], self.undo_log[:-1]
        if last["op"] == "add":
            return Pad(self.variant, self.options, self.names, self.hands[:-1], log)
        n = last["hand"]
        return Pad(self.variant, self.options, self.names, (*self.hands[:n - 1], last["before"], *self.hands[n:]),
                   log)

    def renamed(self, names: Any) -> Pad:
        return Pad(self.variant, self.options, _names(self.rules, names), self.hands, self.undo_log)

    def _with(self, hands: tuple[dict[str, Any], ...], op: dict[str, Any]) -> Pad:
        pad = Pad(self.variant, self.options, self.names, hands, (*self.undo_log, op)[-MAX_UNDO:])
        _ = pad.sheet  # every hand scores (a correction may not break a later one)
        return pad

    def check(self, entry: Any, where: str = "the hand") -> dict[str, Any]:
        """A hand as the pad stores it, checked by scoring it; ``PadError`` names what is wrong."""
        if not isinstance(entry, dict):
            raise PadError(f"{where}: want an object with sides (and penalties, note)")
        unknown = set(entry) - {"variant", "options", "sides", "penalties", "note", "acaba_by"}
        if unknown:
            raise PadError(f"{where}: unknown field(s) {', '.join(sorted(unknown))}; "
                           "valid: sides, penalties, note, acaba_by (and variant, options)")
        if entry.get("variant", self.variant) != self.variant or entry.get("options", self.options) != self.options:
            raise PadError(f"{where}: its variant and options must be the game's ({self.variant}, "
                           f"{json.dumps(self.options)})")
        hand: dict[str, Any] = {"variant": self.variant, "options": dict(self.options), "sides": entry.get("sides")}
        penalties = entry.get("penalties") or []
        if penalties:
            hand["penalties"] = _penalties(self.rules, penalties, len(self.names), where)
        note = entry.get("note") or ""
        if not isinstance(note, str) or len(note) > MAX_NOTE:
            raise PadError(f"{where}: the note is text of at most {MAX_NOTE} characters")
        if note:
            hand["note"] = _clean(note)
        if entry.get("acaba_by") is not None:
            hand["acaba_by"] = entry["acaba_by"]
        try:
            score_entry(self.rules, hand)
        except ValueError as exc:
            raise PadError(f"{where}: {exc}") from None
        copy: dict[str, Any] = json.loads(json.dumps(hand))  # plain JSON data, a copy the caller cannot change
        return copy

    # --- the pad's JSON -----------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {"format": FORMAT, "version": VERSION, "variant": self.variant, "options": dict(self.options),
                "names": list(self.names), "hands": list(self.hands), "undo": list(self.undo_log)}

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=1)


def new_pad(variant: str = "classic", options: dict[str, Any] | None = None, names: Any = None) -> Pad:
    """A new pad for a preset of either family, with its options and the sides' names."""
    if not isinstance(variant, str) or len(variant) > 64:
        raise PadError("variant: want a preset's name such as classic, samba or 500-rum")
    if options is not None and not isinstance(options, dict):
        raise PadError("options: want an object of rules options")
    try:
        rules = game_rules(variant, **(options or {}))
    except ValueError as exc:
        raise PadError(str(exc)) from None
    return Pad(rules.name, dict(rules.to_dict()["options"]), _names(rules, names))


def load_pad(data: Any) -> Pad:
    """A pad from its JSON (``Pad.to_dict``): every hand is scored again, so a file edited by hand that no
    longer scores is refused with the hand and the reason."""
    if isinstance(data, str):
        try:
            data = json.loads(data)
        except (json.JSONDecodeError, RecursionError) as exc:
            raise PadError(f"not a pad: not valid JSON ({exc})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise PadError(f'not a pad: want an object with "format": "{FORMAT}"')
    if data.get("version") != VERSION:
        raise PadError(f"pad version {data.get('version')!r} is not one this program reads ({VERSION})")
    hands = data.get("hands") or []
    if not isinstance(hands, list) or len(hands) > MAX_HANDS:
        raise PadError(f"hands: want a list of at most {MAX_HANDS} hands")
    pad = new_pad(data.get("variant", "classic"), data.get("options") or {}, data.get("names"))
    for hand in hands:
        pad = pad.add(hand)
    undo = data.get("undo")
    if undo is None:
        undo = [{"op": "add"}] * len(hands)
    if not isinstance(undo, list) or len(undo) > MAX_UNDO:
        raise PadError(f"undo: want a list of at most {MAX_UNDO} changes")
    for i, op in enumerate(undo):
        if not (isinstance(op, dict) and (op == {"op": "add"} or (
                op.get("op") == "correct" and isinstance(op.get("hand"), int) and 1 <= op["hand"] <= len(hands)
                and set(op) == {"op", "hand", "before"}))):
            raise PadError(f"undo entry {i + 1}: want {{\"op\": \"add\"}} or {{\"op\": \"correct\", \"hand\": N, "
                           "\"before\": HAND}}")
        if op["op"] == "correct":
            pad.check(op["before"], f"undo entry {i + 1}")
    adds = sum(1 for op in undo if op["op"] == "add")
    if adds > len(hands):
        raise PadError(f"undo: {adds} hands added, but the pad holds {len(hands)}")
    return Pad(pad.variant, pad.options, pad.names, pad.hands, tuple(undo))


# --- scoring one hand -----------------------------------------------------------------------------------

def score_entry(rules: Rules | RummyRules, hand: dict[str, Any]) -> list[dict[str, Any]]:
    """Per side ``{"lines", "total"}``: the engine's lines for the hand plus its penalty lines."""
    sides = hand.get("sides")
    if isinstance(rules, RummyRules):
        if hand.get("acaba_by") is not None:
            raise ValueError("Acaba is a Canasta option")
        result = rummy_score_hand(rules, sides)
    elif hand.get("acaba_by") is not None:
        by = hand["acaba_by"]
        if not rules.acaba:
            raise ValueError(f"Acaba is not played in {rules.name} (option acaba=true)")
        if isinstance(by, bool) or not isinstance(by, int) or not 0 <= by < rules.teams:
            raise ValueError(f"acaba_by: want the side that called Acaba, 0 to {rules.teams - 1}")
        result = [acaba_score(rules, side != by) for side in range(rules.teams)]
    else:
        result = score_hand(rules, sides if isinstance(sides, list) else [])
    for penalty in hand.get("penalties", []):
        x = BY_CODE[penalty["code"]]
        if not x.line:
            continue
        side = result[penalty["side"]]
        if x.code == "other":
            points = penalty["points"]
        else:  # the rummy family has "other" only
            points = x.points(rules) * penalty["count"] if isinstance(rules, Rules) else 0
        side["lines"][x.line] = side["lines"].get(x.line, 0) + points
        side["total"] += points
    return result


def _penalties(rules: Rules | RummyRules, raw: Any, sides: int, where: str) -> list[dict[str, Any]]:
    if not isinstance(raw, list) or len(raw) > MAX_PENALTIES:
        raise PadError(f"{where}: penalties: want a list of at most {MAX_PENALTIES}")
    offered = {"other"} if isinstance(rules, RummyRules) else {x.code for x in available(rules)}
    out = []
    for i, p in enumerate(raw):
        at = f"{where} penalty {i + 1}"
        if not isinstance(p, dict) or set(p) - {"side", "code", "count", "points", "note"}:
            raise PadError(f"{at}: want {{\"side\": N, \"code\": \"X7\", \"count\": 1}} or {{\"side\": N, "
                           "\"code\": \"other\", \"points\": -50, \"note\": \"...\"}}")
        side, code = p.get("side"), p.get("code")
        if isinstance(side, bool) or not isinstance(side, int) or not 0 <= side < sides:
            raise PadError(f"{at}: side is 0 to {sides - 1}, got {side!r}")
        if code not in offered:
            raise PadError(f"{at}: {code!r} is not an irregularity with points in {rules.name} "
                           f"(these are: {', '.join(sorted(offered))})")
        entry: dict[str, Any] = {"side": side, "code": code}
        if code == "other":
            points = p.get("points")
            if isinstance(points, bool) or not isinstance(points, int) or abs(points) > MAX_OTHER:
                raise PadError(f"{at}: points is a whole number from -{MAX_OTHER} to {MAX_OTHER}, got {points!r}")
            entry["points"] = points
        else:
            count = p.get("count", 1)
            if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= 20:
                raise PadError(f"{at}: count is 1 to 20, got {count!r}")
            entry["count"] = count
        note = p.get("note")
        if note is not None:
            if not isinstance(note, str) or len(note) > MAX_NOTE:
                raise PadError(f"{at}: the note is text of at most {MAX_NOTE} characters")
            entry["note"] = _clean(note)
        out.append(entry)
    return out


def _raised(rules: Rules | RummyRules, hand: dict[str, Any], sides: int) -> list[int]:
    """Per side, how far its minimum rose in this hand by withdrawn short openings (X5)."""
    raised = [0] * sides
    step = 0 if isinstance(rules, RummyRules) else rules.withdrawn_opening_raise
    for p in hand.get("penalties", []):
        if p["code"] == "X5":
            raised[p["side"]] += step * p["count"]
    return raised


def _canastas(hand: dict[str, Any]) -> list[int]:
    """Each side's canastas on the table at the end of the hand (``canastas_to_win``)."""
    out = []
    for side in hand.get("sides") or []:
        counted = side.get("canastas")
        if isinstance(counted, dict):
            out.append(sum(len(v) if isinstance(v, list) else int(v) for v in counted.values()))
        else:
            out.append(sum(1 for m in side.get("melds") or [] if len(str(m).split()) >= 7))
    return out


def _result(rules: Rules | RummyRules, hands: tuple[dict[str, Any], ...],
            sheet: list[dict[str, Any]]) -> dict[str, Any] | None:
    if not hands:
        return None
    scores = [s["cumulative"] for s in sheet[-1]["sides"]]
    last = hands[-1]
    if isinstance(rules, RummyRules):
        out_side = next((i for i, s in enumerate(last.get("sides") or []) if s.get("went_out")), None)
        return rummy_game_result(rules, scores, len(hands), None if out_side is None else rules.seats_of(out_side)[0])
    canastas = None if last.get("acaba_by") is not None else _canastas(last)
    return game_result(rules, scores, len(hands), canastas)


def _form(r: Rules | RummyRules) -> dict[str, Any]:
    """What a hand's form asks under these rules (the browser's pad page builds its form from it)."""
    if isinstance(r, RummyRules):
        return {"family": "rummy", "masters_hand": bool(r.masters_hand), "rummy": r.going_rummy_double}
    return {"family": "canasta", "kinds": list(canasta_kinds(r)), "red_threes": r.threes_laid_out != "none",
            "black_threes": r.threes_laid_out == "all" or r.pile_black_threes == "bonus",
            "counts": list(count_fields(r)), "special_hands": [name for name, _ in r.special_hands],
            "unfinished_melds": list(unfinished_ranks(r)),
            "hand_penalties": [{"rank": rank, "count": count} for rank, count, _ in hand_penalty_ranks(r)],
            "acaba": r.acaba}


def _ended(pad: Pad) -> str:
    result = pad.result or {}
    winner = result.get("winner")
    return "a draw" if winner is None else f"{pad.names[winner]} won"


def _clean(text: str) -> str:
    """Text with control characters removed (names and notes are shown on pages and in terminals)."""
    return "".join(ch for ch in text if unicodedata.category(ch)[0] != "C").strip()


def _names(rules: Rules | RummyRules, names: Any) -> tuple[str, ...]:
    count = rules.teams
    if names is None:
        if rules.partnerships and count == 2 and rules.players == 4:
            return ("N-S", "E-W")
        word = "Side" if rules.partnerships else "Player"
        return tuple(f"{word} {i + 1}" for i in range(count))
    if not isinstance(names, list | tuple) or len(names) != count:
        raise PadError(f"names: want {count} names, one per side")
    out = []
    for i, name in enumerate(names):
        if not isinstance(name, str) or not _clean(name) or len(name) > MAX_NAME:
            raise PadError(f"names: side {i + 1}'s name is text of 1 to {MAX_NAME} characters")
        out.append(_clean(name))
    return tuple(out)
