"""A hand typed as short texts, one per question, read into the pad's JSON (the terminal pad's forms).

Each answer is either cards or a number: ``KH KD KS | 7H 7D 7S 2C`` (melds apart with ``|``) or ``305`` for
the melded cards; ``natural=1 mixed=2`` for the canastas; ``4C 5D`` or ``75`` for the cards in hand; ``3H 3D``
or ``2`` for the red threes; ``out``, ``concealed`` (Canasta) or ``out``, ``rummy``, ``master`` (rummy) for how
the hand ended for the side; ``X7``, ``X7*2``, ``other=-50`` for penalties.
"""

from __future__ import annotations

from typing import Any

from ..canasta.rules import Rules
from ..rummy import RummyRules

QUESTIONS = ("melds", "canastas", "hand", "threes", "out", "penalties")
RUMMY_QUESTIONS = ("melds", "hand", "out", "penalties")
PROMPTS = {
    "melds": "melded cards (cards, melds apart with |) or their points",
    "canastas": "canastas when the melds are points (natural=1 mixed=2 ...)",
    "hand": "cards left in hand, or their points",
    "threes": "red threes (cards or how many)",
    "out": "went out? (empty = no; out; concealed)",
    "penalties": "penalties (X7, X7*2, other=-50)",
}
RUMMY_PROMPTS = {**PROMPTS, "melds": "cards shown on the table (melds apart with |) or their points",
                 "out": "went out? (empty = no; out; rummy; master = the Master's Hand)"}


def questions(rules: Rules | RummyRules) -> tuple[str, ...]:
    return RUMMY_QUESTIONS if isinstance(rules, RummyRules) else QUESTIONS


def prompt(rules: Rules | RummyRules, key: str) -> str:
    if key == "out" and isinstance(rules, Rules) and rules.special_hands:
        return PROMPTS["out"][:-1] + "; or a special hand: " + ", ".join(n for n, _ in rules.special_hands) + ")"
    return (RUMMY_PROMPTS if isinstance(rules, RummyRules) else PROMPTS)[key]


def _number(text: str) -> int | None:
    t = text.strip().replace(",", "").replace("_", "")
    if t.lstrip("-").isdigit():
        return int(t)
    return None


def side_entry(rules: Rules | RummyRules, answers: dict[str, str]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """One side's part of the hand and its penalties (without the side number) from the answers; a
    ``ValueError`` for a form that cannot be read (the pad checks the rest when the hand is added)."""
    rummy = isinstance(rules, RummyRules)
    side: dict[str, Any] = {}
    melds = answers.get("melds", "").strip()
    if melds:
        n = _number(melds)
        if n is not None:
            side["table_points" if rummy else "melded_points"] = n
        else:
            side["melds"] = [m.strip() for m in melds.split("|") if m.strip()]
    canastas = answers.get("canastas", "").strip()
    if canastas and not rummy:
        counts: dict[str, Any] = {}
        for token in canastas.replace(",", " ").split():
            kind, eq, value = token.partition("=")
            n = _number(value) if eq else None
            if n is None:
                raise ValueError(f"canastas: want kind=count such as natural=1, got {token!r}")
            counts[kind.strip().lower()] = n
        side["canastas"] = counts
        side.setdefault("melded_points", 0)
    hand = answers.get("hand", "").strip()
    if hand:
        n = _number(hand)
        if n is not None:
            side["hand_points"] = n
        else:
            side["hand"] = hand
    threes = answers.get("threes", "").strip()
    if threes and not rummy:
        n = _number(threes)
        side["red_threes"] = n if n is not None else threes
    out = answers.get("out", "").strip().lower()
    words: dict[str, dict[str, Any]] = {"": {}, "no": {}, "n": {}, "out": {"went_out": True},
                                        "yes": {"went_out": True}, "y": {"went_out": True}}
    if isinstance(rules, RummyRules):
        words |= {"rummy": {"went_out": True, "rummy": True}, "master": {"masters_hand": True}}
    else:
        words |= {"concealed": {"went_out": True, "concealed": True}, "c": {"went_out": True, "concealed": True}}
        words |= {name: {"special_hand": name} for name, _ in rules.special_hands}  # Modern American
    if out not in words:
        raise ValueError(f"went out: answer {', '.join(w for w in words if w)} or nothing, got {out!r}")
    side.update(words[out])
    return side, penalties(answers.get("penalties", ""))


def penalties(text: str) -> list[dict[str, Any]]:
    """``X7 X8*2 other=-50`` as penalty entries (without the side)."""
    out: list[dict[str, Any]] = []
    for token in text.replace(",", " ").split():
        if token.lower().startswith("other="):
            n = _number(token.partition("=")[2])
            if n is None:
                raise ValueError(f"penalties: other=POINTS wants a whole number, got {token!r}")
            out.append({"code": "other", "points": n})
            continue
        code, star, times = token.upper().partition("*")
        n = _number(times) if star else 1
        if n is None or not code.startswith("X"):
            raise ValueError(f"penalties: want X7, X7*2 or other=-50, got {token!r}")
        out.append({"code": code, "count": n})
    return out


def hand_entry(rules: Rules | RummyRules, answers: list[dict[str, str]], note: str = "") -> dict[str, Any]:
    """A whole hand from each side's answers (side order as the pad's names)."""
    sides, pens = [], []
    for i, a in enumerate(answers):
        try:
            side, own = side_entry(rules, a)
        except ValueError as exc:
            raise ValueError(f"side {i + 1}: {exc}") from None
        sides.append(side)
        pens += [{"side": i, **p} for p in own]
    hand: dict[str, Any] = {"sides": sides}
    if pens:
        hand["penalties"] = pens
    if note.strip():
        hand["note"] = note.strip()
    return hand


def answers_of(rules: Rules | RummyRules, hand: dict[str, Any]) -> list[dict[str, str]]:
    """The answers that give back a stored hand (to correct it in a form)."""
    out = []
    for i, side in enumerate(hand.get("sides") or []):
        a: dict[str, str] = {}
        if "melds" in side:
            a["melds"] = " | ".join(side["melds"])
        for key in ("melded_points", "table_points"):
            if key in side:
                a["melds"] = str(side[key])
        if "canastas" in side:
            a["canastas"] = " ".join(f"{k}={v}" for k, v in side["canastas"].items())
        if "hand" in side:
            a["hand"] = side["hand"]
        if "hand_points" in side:
            a["hand"] = str(side["hand_points"])
        if "red_threes" in side:
            a["threes"] = str(side["red_threes"])
        a["out"] = (side["special_hand"] if side.get("special_hand") else "master" if side.get("masters_hand")
                    else "rummy" if side.get("rummy")
                    else "concealed" if side.get("concealed") else "out" if side.get("went_out") else "")
        a["penalties"] = " ".join(
            f"other={p['points']}" if p["code"] == "other" else p["code"] + (f"*{p['count']}" if p["count"] > 1 else "")
            for p in hand.get("penalties", []) if p["side"] == i)
        out.append(a)
    return out
