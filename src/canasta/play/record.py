"""Game records: the rules, the deal (a seed, or every hand's deck), and every move in notation.

A record is JSON (the public contract (docs/) "Game records")::

    {"format": "canasta-record/1",
     "rules": {"variant": "classic", "options": {}},
     "seed": 7,                       # or null, and then "deals" is required
     "deals": [["4S", "JK", ...]],    # each hand's deck in State.deal order (last card = top); only when seed is null
     "players": ["greedy", ...],      # optional: who sat in each seat
     "moves": ["0 draw", "0 meld 9 9 9", "0 discard 5", "1 draw", ...],
     "result": {"scores": [5120, 3400], "winner": 0, "hands": 6}}   # canasta.outcome; null if unfinished

Each move is ``"SEAT MOVE"``; the seat may be left out (``"draw"``), since it is always the seat to
move. ``replay`` re-applies every move and checks it; a record that does not replay raises
``RecordError`` (a ``ValueError``) naming the 1-based move number and the reason.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, overload

from .. import apply, is_over, legal_moves, new_game, outcome
from ..canasta.cards import card_str, counts_of, parse_card
from ..canasta.moves import Move
from ..canasta.rules import Rules
from ..canasta.state import State
from ..errors import IllegalMove
from ..presets import game_rules as make_rules
from ..rummy import RummyMove, RummyRules, RummyState
from .family import play_family

# Records serve both families: the public entry points dispatch on the state's type (canasta/__init__.py).
AnyState = Any  # State | RummyState: kept loose here so that both families' callers type-check

FORMAT = "canasta-record/1"


class RecordError(ValueError):
    """A record that does not replay. ``move_number`` is 1-based (None: not about one move)."""

    def __init__(self, message: str, move_number: int | None = None) -> None:
        super().__init__(message if move_number is None else f"move {move_number}: {message}")
        self.move_number = move_number
        self.reason = message


class Recorder:
    """Plays moves on a state and writes them down: ``rec = Recorder(state); rec.apply(move)``.

    ``rec.state`` is the current state and ``rec.record()`` the record so far."""

    def __init__(self, state: AnyState, players: Sequence[str] | None = None) -> None:
        if state.hand_number != 1 or any(entry.split()[1:2] != ["upcard"] for entry in state.history):
            raise ValueError("a record starts at the beginning of a game (hand 1, no moves yet)")
        self.state = state
        self.players = list(players) if players is not None else None
        self.moves: list[str] = []
        # A seeded game re-deals itself; only an unseeded one needs its decks written down.
        self.deals: list[list[str]] = [_deck_text(state)] if state.seed is None else []

    @classmethod
    def resume(cls, record: dict[str, Any], on_move: Callable[[int, Any, Any, Any], None] | None = None) -> Recorder:
        """A recorder that carries on the game of ``record`` (replayed and checked: ``RecordError``;
        ``on_move`` as for ``replay``)."""
        state = replay(record, on_move)
        rec = cls.__new__(cls)
        rec.state = state
        players = record.get("players")
        rec.players = [str(p) for p in players] if isinstance(players, list) else None
        rec.moves = list(record["moves"])
        rec.deals = [list(d) for d in record.get("deals") or []] if state.seed is None else []
        return rec

    @overload
    def apply(self, move: Move) -> State: ...
    @overload
    def apply(self, move: RummyMove) -> RummyState: ...
    def apply(self, move: Move | RummyMove) -> AnyState:
        """Apply ``move`` (raising ``IllegalMove`` if it is not legal), record it, return the new state."""
        before = self.state
        after = apply(before, move)
        self.moves.append(f"{before.to_move} {move}")
        if after.hand_number != before.hand_number and not is_over(after) and after.seed is None:
            self.deals.append(_deck_text(after))
        self.state = after
        return after

    def record(self) -> dict[str, Any]:
        s = self.state
        out: dict[str, Any] = {"format": FORMAT, "rules": s.rules.to_dict(), "seed": s.seed}
        if s.seed is None:
            out["deals"] = [list(d) for d in self.deals]
        if self.players is not None:
            out["players"] = list(self.players)
        out["moves"] = list(self.moves)
        out["result"] = outcome(s)
        return out


def _deck_text(state: AnyState) -> list[str]:
    return [card_str(c) for c in state.deal]


class MoveCapReached(RuntimeError):
    """A game that did not end within ``max_moves``: ``state`` and ``record`` hold it as far as it went."""

    def __init__(self, state: AnyState, record: dict[str, Any], max_moves: int) -> None:
        super().__init__(f"game with seed {state.seed} did not end within {max_moves} moves")
        self.state = state
        self.record = record


def play_game(players: Sequence[Any], rules: Rules | RummyRules | None = None, seed: int | None = None,
              max_moves: int = 200_000) -> tuple[AnyState, dict[str, Any]]:
    """Play one game between ``players`` (one ``canasta.bots.Player`` per seat) and return
    ``(final_state, record)``. Each player sees only its seat's view and the legal moves. A game still
    going after ``max_moves`` moves raises ``MoveCapReached`` (a ``RuntimeError``) holding it."""
    from .. import view

    r = rules or make_rules()
    if len(players) != r.players:
        raise ValueError(f"{r.name} needs {r.players} players, got {len(players)}")
    rec = Recorder(new_game(r, seed), [getattr(p, "name", type(p).__name__) for p in players])
    while not is_over(rec.state):
        if len(rec.moves) >= max_moves:
            raise MoveCapReached(rec.state, rec.record(), max_moves)
        state = rec.state
        seat = state.to_move
        rec.apply(players[seat].choose(view(state, seat), legal_moves(state)))
    return rec.state, rec.record()


def _parse_entry(state: AnyState, entry: Any, number: int) -> Move | RummyMove:
    if not isinstance(entry, str):
        raise RecordError(f"want move text such as '0 draw', got {entry!r}", number)
    text = entry.strip()
    head, _, rest = text.partition(" ")
    if head.isdigit():
        if int(head) != state.to_move:
            raise RecordError(f"{entry!r}: seat {head} is not to move, seat {state.to_move} is", number)
        text = rest
    try:
        from .. import parse_move  # the position fills in what notation leaves open (sequences, suits)

        return parse_move(state, text)
    except ValueError as exc:
        raise RecordError(f"{entry!r}: BAD_NOTATION: {exc}", number) from None


def _deal(record: dict[str, Any], rules: Rules | RummyRules, index: int, number: int | None) -> list[int]:
    deals = record.get("deals")
    if not isinstance(deals, list) or index >= len(deals):
        where = "the first hand" if index == 0 else f"hand {index + 1}"
        raise RecordError(f"the record has no seed and no deal for {where}", number)
    raw = deals[index]
    if not isinstance(raw, list):
        raise RecordError(f"deal {index + 1} must be a list of cards", number)
    try:
        deck = [parse_card(c) for c in raw]
    except (ValueError, AttributeError) as exc:
        raise RecordError(f"deal {index + 1}: {exc}", number) from None
    whole = play_family(rules).dealt_pack(rules)
    if counts_of(deck) != counts_of(whole):
        raise RecordError(f"deal {index + 1} is not a whole pack of {rules.pack_size} cards", number)
    return deck


def rules_of(record: dict[str, Any]) -> Rules | RummyRules:
    """The Rules object a record names (``ValueError`` for an unknown variant or option)."""
    spec = record.get("rules")
    if not isinstance(spec, dict) or not isinstance(spec.get("variant"), str):
        raise RecordError("the record's 'rules' must be {\"variant\": NAME, \"options\": {...}}")
    options = spec.get("options") or {}
    if not isinstance(options, dict):
        raise RecordError("the record's rules options must be an object")
    try:
        return make_rules(spec["variant"], **options)
    except ValueError as exc:
        raise RecordError(f"rules: {exc}") from None


def replay(record: dict[str, Any] | str,
           on_move: Callable[[int, Any, Any, Any], None] | None = None) -> AnyState:
    """Re-apply every move of a record, checking each; returns the final state.

    ``record`` is the dict or its JSON text. ``on_move(number, before, move, after)`` is called after
    each move. Raises ``RecordError`` (a ``ValueError``) with the 1-based move number and the reason:
    the ``IllegalMove`` code and message, or the notation error."""
    if isinstance(record, str):
        try:
            record = json.loads(record)
        except json.JSONDecodeError as exc:
            raise RecordError(f"the record is not valid JSON: {exc}") from None
    if not isinstance(record, dict):
        raise RecordError("a record is a JSON object")
    if record.get("format") != FORMAT:
        raise RecordError(f"unknown record format {record.get('format')!r}; want {FORMAT!r}")
    rules = rules_of(record)
    seed = record.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise RecordError(f"seed must be an integer or null, got {seed!r}")
    moves = record.get("moves")
    if not isinstance(moves, list):
        raise RecordError("the record's 'moves' must be a list of move texts")
    state: AnyState = new_game(rules, seed)
    hand_index = 0
    if seed is None:
        state = play_family(rules).redeal(state, _deal(record, rules, 0, None))
    for number, entry in enumerate(moves, start=1):
        if is_over(state):
            raise RecordError(f"{entry!r}: the game is already over", number)
        move = _parse_entry(state, entry, number)
        try:
            after = apply(state, move)
        except IllegalMove as exc:
            raise RecordError(f"{entry!r}: {exc.code}: {exc.message}", number) from None
        if after.hand_number != state.hand_number and not is_over(after) and seed is None:
            hand_index += 1
            after = play_family(rules).redeal(after, _deal(record, rules, hand_index, number))
        if on_move is not None:
            on_move(number, state, move, after)
        state = after
    if seed is None and len(record.get("deals") or []) > hand_index + 1:
        raise RecordError(f"the record has {len(record['deals'])} deals but the moves play only {hand_index + 1} hands")
    if "result" in record and record["result"] != outcome(state):
        raise RecordError(f"the recorded result {record['result']!r} does not match the replay's "
                          f"{outcome(state)!r}")
    return state


def load(path: str | Path) -> dict[str, Any]:
    """Read a record file (``-`` is not handled here)."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise RecordError("a record is a JSON object")
    return data


def dumps(record: dict[str, Any]) -> str:
    """The record as JSON text, one move per line for readable diffs."""
    head = {k: v for k, v in record.items() if k != "moves"}
    lines = ["{"]
    items = list(head.items())
    for k, v in items:
        if k == "result":
            continue
        lines.append(f"  {json.dumps(k)}: {json.dumps(v)},")
    lines.append('  "moves": [')
    moves = record.get("moves", [])
    for i, m in enumerate(moves):
        lines.append(f"    {json.dumps(m)}{',' if i < len(moves) - 1 else ''}")
    lines.append("  ],")
    lines.append(f'  "result": {json.dumps(record.get("result"))}')
    lines.append("}")
    return "\n".join(lines) + "\n"


__all__ = ["FORMAT", "MoveCapReached", "RecordError", "Recorder", "dumps", "load", "play_game", "replay", "rules_of"]
