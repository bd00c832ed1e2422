"""Computer players (layers: bots sit on top of the pure core).

A player sees only what its seat may see, ``canasta.view(state, seat)``, and the list of legal moves;
it never receives the ``State``. ``make_player(name, seed)`` builds one by name::

    >>> import canasta
    >>> from canasta.players import make_player
    >>> state = canasta.new_game(canasta.rules(), seed=1)
    >>> bot = make_player("greedy", seed=1)
    >>> move = bot.choose(canasta.view(state, state.to_move), canasta.legal_moves(state))
    >>> move in canasta.legal_moves(state)
    True
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable
from typing import Any

from ..canasta.moves import Move
from ..canasta.rules import Rules
from ..canasta.view import LeanView


class Player:
    """A computer player: picks one of the legal moves from its seat's view. Subclasses define ``choose``.

    A plain class, not an ABC: the players are compiled with mypyc where the install is, and a compiled
    subclass of an ABC shares the ABC's isinstance cache (after a check against a compiled player, other
    players were no longer instances of ``Player``)."""

    name: str = "player"
    # True for a player that reads its view only by key (``view[key]``, ``get``, ``in``; no iteration, no
    # copy): it may then be handed a ``canasta.view.LeanView``, which builds only the fields read. The
    # Gymnasium environment does so for its other seats: for a quick player, the whole view costs more than
    # the engine's move and the player's choice together.
    lean_views: bool = False
    # Why the last ``choose`` picked its move, as reason codes a hint shows in the reader's language:
    # (code, count) pairs, count 0 when the code has no number (docs/protocol.md, the hint frame's "why").
    last_why: tuple[tuple[str, int], ...] = ()

    def choose(self, view: dict[str, Any], legal: list[Move]) -> Move:
        """One move out of ``legal`` (never empty) for the seat ``view["seat"]``."""
        raise NotImplementedError(f"{type(self).__name__} does not define choose(view, legal)")

    def supports(self, rules: Rules) -> bool:
        """Does this player play ``rules``? True for every preset unless a player says otherwise (the
        ``learned`` player plays only what it was trained on). Tournaments and tables ask before the first
        deal (``refuse_unsupported``), so that a player is refused with a message, not at its first move."""
        return True

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"


_RULES_CACHE: dict[str, Rules] = {}
# (spec, rules, a copy of the spec): search play-outs pass the same spec object every move
_LAST_SPEC: list[Any] = [None, None, None]


def rules_of(view: dict[str, Any]) -> Rules:
    """The rules object a view describes (cached: players ask for it every move)."""
    if isinstance(view, LeanView):  # (its rules object, without its spec)
        return view.game_rules()
    spec = view["rules"]
    # A plain view holds a new, equal spec every move: comparing it with a copy of the last one is cheaper than
    # writing it out (the copy: the caller owns its view and may change it afterwards).
    if spec is _LAST_SPEC[0] or spec == _LAST_SPEC[2]:
        return _LAST_SPEC[1]  # type: ignore[no-any-return]
    key = json.dumps(spec, sort_keys=True)
    r = _RULES_CACHE.get(key)
    if r is None:
        from ..canasta.variants import rules as make_rules

        r = _RULES_CACHE[key] = make_rules(spec["variant"], **spec["options"])
    _LAST_SPEC[:] = [spec, r, json.loads(key)]
    return r


def _registry() -> dict[str, Callable[[int | None], Player]]:
    from .greedy import GreedyPlayer
    from .heuristic import HeuristicPlayer
    from .random_player import RandomPlayer
    from .search import SearchPlayer

    # The learned player needs numpy (the [rl] extra). Imported by name, so that compiling the core with
    # mypyc, which type-checks everything a compiled module imports, does not need numpy either.
    learned = importlib.import_module(".learned", __package__)
    return {"greedy": GreedyPlayer, "heuristic": HeuristicPlayer, "learned": learned.LearnedPlayer,
            "random": RandomPlayer, "search": SearchPlayer}


def player_names() -> list[str]:
    """The names ``make_player`` accepts."""
    return sorted(_registry())


def make_player(name: str, seed: int | None = None) -> Player:
    """A player by name (``"random"``, ``"greedy"``) or level (``"easy"`` ... ``"expert"``); ``seed`` makes its
    choices reproducible.

    An unknown name raises ``ValueError`` listing the valid ones."""
    from .levels import LEVELS, level_player  # the levels build on the players registered here

    key = name.strip().lower()
    factory = _registry().get(key)
    if factory is not None:
        return factory(seed)
    if key in LEVELS:  # the levels ``canasta play`` takes name players everywhere (tournament, simulate)
        return level_player(key, seed)
    raise ValueError(f"unknown player {name!r}; valid players: {', '.join(player_names())}; "
                     f"levels: {', '.join(LEVELS)}")


def refuse_unsupported(players: dict[str, Player], rules: Any) -> None:
    """``ValueError`` naming the first player (by its given name) that does not play ``rules`` (either family's)."""
    for name, player in players.items():
        if not player.supports(rules):
            options = ", ".join(f"{k}={v}" for k, v in sorted(rules.to_dict()["options"].items()))
            raise ValueError(f"the {name} player does not play {rules.name}"
                             f"{f' with {options}' if options else ''} (docs/players.md says what each player plays)")


__all__ = ["Player", "make_player", "player_names", "refuse_unsupported"]
