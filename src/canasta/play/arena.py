"""Matches between computer players, measured honestly (``canasta tournament``; docs/arena.md), for every
family of games: the players come from the game's family (``canasta.play.family.play_family``), the
seatings from its rules' players and sides.

* **Duplicate deals.** Deal ``i`` (0-based) of every pairing uses seed ``seed + i`` for the decks, and
  is played once per *seating*: with two sides, once with each player on each side (a game pair),
  so both players get the same cards; with three sides, in all six ways of giving the sides to the
  two players (``A B B``, ``B A B``, ... ``B A A``), so each player holds each side equally often.
  Every hand ``k`` of those games is dealt from the same deck by the same dealer.
* **Bot seeds.** The bot in seat ``s`` of seating ``j`` of a deal with seed ``d`` uses the seed
  ``(d * 64 + j) * 16 + s``: different per seat and per seating (so a player against itself does not
  replay one game twice), and the same whatever ``jobs`` is.
* **Pairings.** Two players: one head-to-head match; more: a round robin of every pair, all on the
  same deals.
* **Statistics** (all 95 %): Wilson score intervals for game and hand win rates (draws and tied hands
  count half; a stalemate, which the rummy family's Basic Rummy has, is lost by both players and left
  out of the Elo fit); a normal interval on the per-deal paired differences for points per hand; Elo ratings
  from a Bradley-Terry maximum-likelihood fit of the game results, with intervals from its Fisher
  information. ``docs/arena.md`` gives the formulas and the caveats.

Everything runs on the standard library; ``plot`` imports matplotlib and ``run_tournament(ray=...)``
imports Ray only when called.
"""

from __future__ import annotations

import csv
import importlib
import itertools
import json
import math
import multiprocessing
import os
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from ..dispatch import family_of
from ..players import Player, refuse_unsupported
from ..presets import game_rules
from .family import play_family
from .record import play_game
from .simulate import MAX_MOVES, GameRules, Progress, start_method

FORMAT = "canasta-tournament/1"
CONFIDENCE = 0.95
Z = statistics.NormalDist().inv_cdf(0.5 + CONFIDENCE / 2)  # 1.959963984540054
ELO_MEAN = 1500.0
ELO_PER_NAT = 400.0 / math.log(10.0)  # Elo points per unit of natural-log strength
ELO_PRIOR_GAMES = 1.0  # virtual drawn games added to every pairing (keeps ratings finite)


class MissingLibrary(RuntimeError):
    """An optional library (matplotlib, Ray) is needed but not installed."""


# --- statistics ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Estimate:
    """A value with its 95 % interval (``low``/``high`` are None when there is too little data)."""

    value: float
    low: float | None
    high: float | None

    def to_dict(self, digits: int = 4) -> dict[str, float | None]:
        def r(x: float | None) -> float | None:
            return None if x is None else round(x, digits)

        return {"value": r(self.value), "low": r(self.low), "high": r(self.high)}


def wilson(successes: float, n: float, z: float = Z) -> Estimate:
    """The rate ``successes / n`` with its Wilson score interval (``successes`` may be fractional:
    draws count half). ``n == 0`` gives 0.5 in [0, 1].

    >>> e = wilson(7, 10)
    >>> round(e.value, 2), round(e.low, 4), round(e.high, 4)
    (0.7, 0.3968, 0.8922)
    """
    if n <= 0:
        return Estimate(0.5, 0.0, 1.0)
    if not 0 <= successes <= n:
        raise ValueError(f"successes must be between 0 and n={n}, got {successes}")
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return Estimate(p, max(0.0, centre - half), min(1.0, centre + half))


def mean_interval(values: Sequence[float], z: float = Z) -> Estimate:
    """The mean with a normal interval ``mean ± z·s/√n`` (``s`` the sample standard deviation);
    fewer than two values give no interval."""
    n = len(values)
    if n == 0:
        return Estimate(0.0, None, None)
    mean = math.fsum(values) / n
    if n < 2:
        return Estimate(mean, None, None)
    half = z * statistics.stdev(values) / math.sqrt(n)
    return Estimate(mean, mean - half, mean + half)


def _invert(matrix: list[list[float]]) -> list[list[float]]:
    """The inverse of a small non-singular matrix (Gauss-Jordan with partial pivoting)."""
    k = len(matrix)
    a = [[*row, *(1.0 if i == j else 0.0 for j in range(k))] for i, row in enumerate(matrix)]
    for col in range(k):
        pivot = max(range(col, k), key=lambda r: abs(a[r][col]))
        if abs(a[pivot][col]) < 1e-300:
            raise ValueError("singular matrix")
        a[col], a[pivot] = a[pivot], a[col]
        p = a[col][col]
        a[col] = [x / p for x in a[col]]
        for r in range(k):
            if r != col and a[r][col] != 0.0:
                f = a[r][col]
                a[r] = [x - f * y for x, y in zip(a[r], a[col], strict=True)]
    return [row[k:] for row in a]


@dataclass(frozen=True)
class Ratings:
    """Elo ratings (mean ``ELO_MEAN``) and their covariance in Elo points squared."""

    players: tuple[str, ...]
    elo: tuple[float, ...]
    covariance: tuple[tuple[float, ...], ...]

    def estimate(self, player: str, z: float = Z) -> Estimate:
        i = self.players.index(player)
        return _around(self.elo[i], z * math.sqrt(max(0.0, self.covariance[i][i])))

    def difference(self, a: str, b: str, z: float = Z) -> Estimate:
        i, j = self.players.index(a), self.players.index(b)
        c = self.covariance
        return _around(self.elo[i] - self.elo[j], z * math.sqrt(max(0.0, c[i][i] + c[j][j] - 2 * c[i][j])))


def _around(value: float, half: float) -> Estimate:
    return Estimate(value, value - half, value + half) if math.isfinite(half) else Estimate(value, None, None)


def elo_ratings(players: Sequence[str], results: Sequence[tuple[str, str, float, float]],
                prior_games: float = ELO_PRIOR_GAMES, tolerance: float = 1e-12,
                max_iterations: int = 100_000) -> Ratings:
    """Bradley-Terry maximum-likelihood Elo ratings from game results.

    ``results``: ``(a, b, points_a, games)`` per pairing, where ``points_a`` counts a's wins plus half
    its draws. Each pairing also gets ``prior_games`` virtual drawn games, so a player who wins every
    game has a finite rating. Fitted by Hunter's MM iteration; the covariance is the pseudo-inverse of
    the Fisher information (ratings constrained to average ``ELO_MEAN``).

    >>> r = elo_ratings(["a", "b"], [("a", "b", 30, 40)])
    >>> round(r.elo[0] - r.elo[1], 1)  # 400·log10(30.5 / 10.5)
    185.2
    """
    names = list(players)
    k = len(names)
    index = {name: i for i, name in enumerate(names)}
    if len(index) != k:
        raise ValueError(f"player names must be distinct: {names}")
    wins = [[0.0] * k for _ in range(k)]  # wins[i][j]: points of i against j
    games = [[0.0] * k for _ in range(k)]
    for a, b, points, n in results:
        i, j = index[a], index[b]
        if i == j or not 0 <= points <= n:
            raise ValueError(f"bad result {a} vs {b}: {points} points in {n} games")
        wins[i][j] += points
        wins[j][i] += n - points
        games[i][j] += n
        games[j][i] += n
    for i, j in itertools.combinations(range(k), 2):
        if games[i][j] > 0 and prior_games > 0:
            for x, y in ((i, j), (j, i)):
                wins[x][y] += prior_games / 2
                games[x][y] += prior_games
    gamma = [1.0] * k
    total = [sum(row) for row in wins]
    for _ in range(max_iterations):
        new = []
        for i in range(k):
            denominator = sum(games[i][j] / (gamma[i] + gamma[j]) for j in range(k) if games[i][j] > 0)
            new.append(total[i] / denominator if denominator > 0 else gamma[i])
        new = [max(g, 1e-300) for g in new]
        scale = math.exp(math.fsum(math.log(g) for g in new) / k)
        new = [g / scale for g in new]
        change = max(abs(math.log(x) - math.log(y)) for x, y in zip(new, gamma, strict=True))
        gamma = new
        if change < tolerance:
            break
    theta = [math.log(g) for g in gamma]
    mean = math.fsum(theta) / k if k else 0.0
    elo = tuple(ELO_MEAN + ELO_PER_NAT * (t - mean) for t in theta)
    # Fisher information (a graph Laplacian); its pseudo-inverse is (I + J/k)^-1 - J/k.
    info = [[0.0] * k for _ in range(k)]
    for i, j in itertools.permutations(range(k), 2):
        if games[i][j] > 0:
            p = gamma[i] / (gamma[i] + gamma[j])
            w = games[i][j] * p * (1 - p)
            info[i][j] -= w
            info[i][i] += w
    try:
        inverse = _invert([[info[i][j] + 1 / k for j in range(k)] for i in range(k)]) if k else []
        cov = tuple(tuple(ELO_PER_NAT ** 2 * (inverse[i][j] - 1 / k) for j in range(k)) for i in range(k))
    except ValueError:  # players not connected by any game: no interval
        cov = tuple(tuple(math.inf if i == j else 0.0 for j in range(k)) for i in range(k))
    return Ratings(tuple(names), elo, cov)


# --- playing the games --------------------------------------------------------------------------

def seatings(rules: GameRules) -> list[tuple[int, ...]]:
    """Every way of giving the score columns (sides) to two players, 0 and 1, both taking part:
    ``[(0, 1), (1, 0)]`` for two sides, six for three. The order is fixed."""
    return [s for s in itertools.product((0, 1), repeat=rules.teams) if 0 in s and 1 in s]


def seat_names(rules: GameRules, seating: Sequence[int], pair: Sequence[str]) -> list[str]:
    """The bot name in each seat for one seating of ``pair``."""
    return [pair[seating[rules.side_of(seat)]] for seat in range(rules.players)]


def bot_seed(deal_seed: int, seating_index: int, seat: int) -> int:
    return (deal_seed * 64 + seating_index) * 16 + seat


class _HandLimit(Exception):
    """Raised inside a game once it has played the hands asked for."""


class _Log:
    """The per-column score of every finished hand: the change in the cumulative scores the seats'
    views show when a new hand starts."""

    def __init__(self, limit: int, columns: int) -> None:
        self.limit = limit
        self.hand = 1
        self.scores = [0] * columns
        self.hands: list[list[int]] = []

    def end_hand(self, scores: Sequence[int]) -> None:
        self.hands.append([int(new) - old for new, old in zip(scores, self.scores, strict=True)])
        self.scores = [int(x) for x in scores]

    def see(self, view: dict[str, Any]) -> None:
        if view["hand_number"] != self.hand:
            self.end_hand(view["scores"])
            self.hand = view["hand_number"]
            if self.limit and len(self.hands) >= self.limit:
                raise _HandLimit


class _Watched(Player):
    """A bot whose views are also shown to the game's log (the bot itself is unchanged)."""

    def __init__(self, inner: Player, log: _Log) -> None:
        self.inner, self.log, self.name = inner, log, inner.name

    def choose(self, view: dict[str, Any], legal: list[Any]) -> Any:
        self.log.see(view)
        return self.inner.choose(view, legal)

    def __getattr__(self, name: str) -> Any:  # anything else a bot offers is the bot's own
        if name == "inner":
            raise AttributeError(name)
        return getattr(self.inner, name)


def play_seated(rules: GameRules, names: Sequence[str], deal_seed: int, seating_index: int,
                hands: int = 0) -> dict[str, Any]:
    """Play one game with the family's player ``names[s]`` in seat ``s`` (its seed ``bot_seed``), dealt
    from ``deal_seed``; stop after ``hands`` hands if that is not 0 (``play_players``)."""
    make = play_family(rules).make_player
    players = [make(name, bot_seed(deal_seed, seating_index, seat)) for seat, name in enumerate(names)]
    return play_players(rules, players, deal_seed, hands)


def play_players(rules: GameRules, players: Sequence[Player], deal_seed: int, hands: int = 0,
                 max_moves: int = MAX_MOVES) -> dict[str, Any]:
    """Play one game (``record.play_game``) with ``players[s]`` in seat ``s``, dealt from ``deal_seed``;
    stop after ``hands`` hands if that is not 0 (``MoveCapReached`` after ``max_moves`` moves).

    Returns ``{"hands": [[score per column] per hand], "scores": [...], "winner": column or None,
    "finished": the game ended by the rules}``, and ``"stalemate": True`` for a game that ended in a
    stalemate (lost by every side); after a cut-off the higher total wins."""
    log = _Log(hands, rules.teams)
    try:
        final, _record = play_game([_Watched(p, log) for p in players], rules, seed=deal_seed, max_moves=max_moves)
    except _HandLimit:
        best = max(log.scores)
        leaders = [c for c, t in enumerate(log.scores) if t == best]
        return {"hands": log.hands, "scores": log.scores, "winner": leaders[0] if len(leaders) == 1 else None,
                "finished": False}
    result = final.result
    assert result is not None
    log.end_hand(result["scores"])
    game = {"hands": log.hands, "scores": list(result["scores"]), "winner": result["winner"], "finished": True}
    return {**game, "stalemate": True} if result.get("stalemate") else game


@dataclass(frozen=True)
class DealTask:
    """One deal of one pairing, to be played in every seating (one process or Ray task)."""

    rules: GameRules
    pair_index: int
    pair: tuple[str, str]
    deal_index: int
    deal_seed: int
    hands: int


def play_deal(task: DealTask) -> dict[str, Any]:
    """Play one deal in every seating; returns ``{"pair", "deal", "seed", "games": [...]}``, each game
    ``play_seated``'s result plus its ``"seating"``."""
    r = task.rules
    games = []
    for j, seating in enumerate(seatings(r)):
        game = play_seated(r, seat_names(r, seating, task.pair), task.deal_seed, j, task.hands)
        games.append({"seating": list(seating), **game})
    return {"pair": task.pair_index, "deal": task.deal_index, "seed": task.deal_seed, "games": games}


# --- measuring ----------------------------------------------------------------------------------

def _score(x: float, y: float) -> float:
    return 1.0 if x > y else 0.5 if x == y else 0.0


def game_view(game: dict[str, Any], me: int) -> tuple[float, list[float], list[float]]:
    """One game from player ``me``'s (0 or 1) side: (game score 1/½/0, a stalemate 0 for both, per-hand
    scores 1/½/0, per-hand point differences). A hand is won when my best column outscores the other's
    best; the point difference is my columns' mean minus theirs (with two sides: my score minus theirs)."""
    seating = game["seating"]
    mine = [c for c, who in enumerate(seating) if who == me]
    theirs = [c for c, who in enumerate(seating) if who != me]
    winner = game["winner"]
    result = 0.0 if game.get("stalemate") else 0.5 if winner is None else 1.0 if seating[winner] == me else 0.0
    wins, diffs = [], []
    for hand in game["hands"]:
        wins.append(_score(max(hand[c] for c in mine), max(hand[c] for c in theirs)))
        diffs.append(statistics.fmean(hand[c] for c in mine) - statistics.fmean(hand[c] for c in theirs))
    return result, wins, diffs


def deal_difference(deal: dict[str, Any], me: int = 0) -> float:
    """The paired difference of one deal: the points per hand ``me`` scored more than the opponent,
    over all the deal's games together (total difference / total hands)."""
    total, hands = 0.0, 0
    for game in deal["games"]:
        _, _, diffs = game_view(game, me)
        total += math.fsum(diffs)
        hands += len(diffs)
    return total / hands if hands else 0.0


@dataclass
class _Tally:
    deals: int = 0
    games: int = 0
    hands: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0  # stalemates among them
    stalemates: int = 0
    hand_wins: int = 0
    hand_ties: int = 0
    hand_losses: int = 0

    def add(self, deal: dict[str, Any], me: int) -> float:
        self.deals += 1
        for game in deal["games"]:
            result, wins, _ = game_view(game, me)
            self.games += 1
            self.wins += result == 1.0
            self.draws += result == 0.5
            self.losses += result == 0.0
            self.stalemates += bool(game.get("stalemate"))
            self.hands += len(wins)
            self.hand_wins += sum(1 for w in wins if w == 1.0)
            self.hand_ties += sum(1 for w in wins if w == 0.5)
            self.hand_losses += sum(1 for w in wins if w == 0.0)
        return deal_difference(deal, me)

    def counts(self) -> dict[str, Any]:
        return {"deals": self.deals, "games": self.games, "hands": self.hands, "wins": self.wins,
                "draws": self.draws, "losses": self.losses, "stalemates": self.stalemates, "hand_wins": self.hand_wins,
                "hand_ties": self.hand_ties, "hand_losses": self.hand_losses}

    def rates(self) -> tuple[Estimate, Estimate]:
        return (wilson(self.wins + self.draws / 2, self.games),
                wilson(self.hand_wins + self.hand_ties / 2, self.hands))


def summarize(rules: GameRules, entrants: Sequence[str], pairs: Sequence[tuple[str, str]],
              deals: Sequence[dict[str, Any]], *, seed: int, games: int, hands: int, jobs: int,
              elapsed: float, ray: str | None = None) -> dict[str, Any]:
    """The tournament's results (the JSON of ``--json``) from every played deal, in task order."""
    pair_tallies = [_Tally() for _ in pairs]
    pair_diffs: list[list[float]] = [[] for _ in pairs]
    player_tallies = {name: _Tally() for name in entrants}
    player_diffs: dict[str, list[float]] = {name: [] for name in entrants}
    for deal in deals:
        p = deal["pair"]
        a, b = pairs[p]
        pair_diffs[p].append(pair_tallies[p].add(deal, 0))
        player_diffs[a].append(player_tallies[a].add(deal, 0))
        player_diffs[b].append(player_tallies[b].add(deal, 1))
    # a stalemate, lost by both, says nothing of who is the stronger: left out of the ratings
    ratings = elo_ratings(entrants, [(a, b, t.wins + t.draws / 2, t.games - t.stalemates)
                                     for (a, b), t in zip(pairs, pair_tallies, strict=True)
                                     if t.games > t.stalemates])
    pair_rows = []
    for (a, b), tally, diffs in zip(pairs, pair_tallies, pair_diffs, strict=True):
        game_rate, hand_rate = tally.rates()
        pph = mean_interval(diffs)
        pair_rows.append({
            "players": [a, b], **tally.counts(),
            "game_win_rate": game_rate.to_dict(), "hand_win_rate": hand_rate.to_dict(),
            "points_per_hand": {**pph.to_dict(1), "sd": round(statistics.stdev(diffs), 1) if len(diffs) > 1 else None},
            "elo_difference": ratings.difference(a, b).to_dict(1),
            "deal_differences": [round(d, 2) for d in diffs],
        })
    standings = []
    for name in entrants:
        tally = player_tallies[name]
        game_rate, hand_rate = tally.rates()
        standings.append({
            "player": name, "elo": ratings.estimate(name).to_dict(1), **tally.counts(),
            "game_win_rate": game_rate.to_dict(), "hand_win_rate": hand_rate.to_dict(),
            "points_per_hand": mean_interval(player_diffs[name]).to_dict(1),
        })
    standings.sort(key=lambda row: (-row["elo"]["value"], row["player"]))
    return {
        "format": FORMAT, "family": family_of(rules).FAMILY.lower(), "variant": rules.name,
        "options": rules.to_dict()["options"], "seed": seed,
        "deals_per_pair": games, "hands_per_game": hands, "seatings": [list(s) for s in seatings(rules)],
        "players": list(entrants), "pairs": pair_rows, "standings": standings,
        "games": sum(t.games for t in pair_tallies), "hands": sum(t.hands for t in pair_tallies),
        "confidence": CONFIDENCE,
        "methods": {
            "game_win_rate": "wins plus half the draws over games (a stalemate is lost by both); Wilson score "
                             "interval",
            "hand_win_rate": "hands won (best own side outscores the other's best) plus half the ties, "
                             "over hands; Wilson score interval",
            "points_per_hand": "mean over deals of the per-deal paired difference (own minus opponent's "
                               "points, all the deal's games together, per hand); normal interval",
            "elo": f"Bradley-Terry maximum likelihood on game results (draws half, stalemates left out), "
                   f"{ELO_PRIOR_GAMES:g} virtual drawn game per pairing, mean {ELO_MEAN:g}; interval from the "
                   f"Fisher information",
        },
        "jobs": None if ray is not None else jobs, "ray": ray, "elapsed": round(elapsed, 3),
    }


# --- running ------------------------------------------------------------------------------------

def entrant_labels(names: Sequence[str]) -> list[str]:
    """Labels for the entrants: a name given twice becomes ``greedy``, ``greedy#2`` (self-play)."""
    labels: list[str] = []
    for name in names:
        base = name.strip().lower()
        label, n = base, 1
        while label in labels:
            n += 1
            label = f"{base}#{n}"
        labels.append(label)
    return labels


def bot_name(label: str) -> str:
    return label.partition("#")[0]


def require(module: str, extra: str, what: str) -> Any:
    """Import an optional library, or raise ``MissingLibrary`` saying how to install it."""
    try:
        return importlib.import_module(module)
    except ImportError:
        raise MissingLibrary(f"{what} needs {module.partition('.')[0]}, which is not installed: "
                             f"pip install 'canasta[{extra}]'") from None


def _play_local(tasks: list[DealTask], jobs: int, tick: Callable[[], None]) -> list[dict[str, Any]]:
    deals: list[dict[str, Any]] = []
    if jobs <= 1 or len(tasks) <= 1:
        for task in tasks:
            deals.append(play_deal(task))
            tick()
        return deals
    with multiprocessing.get_context(start_method()).Pool(min(jobs, len(tasks))) as pool:
        for deal in pool.imap(play_deal, tasks, chunksize=max(1, len(tasks) // (jobs * 16))):
            deals.append(deal)
            tick()
    return deals


def _play_ray(tasks: list[DealTask], address: str, tick: Callable[[], None]) -> list[dict[str, Any]]:
    ray = require("ray", "ray", "--ray")
    ray.init(address=address, ignore_reinit_error=True)
    remote = ray.remote(play_deal)
    refs = [remote.remote(task) for task in tasks]
    pending = list(refs)
    while pending:
        ready, pending = ray.wait(pending, num_returns=1)
        for _ in ready:
            tick()
    deals: list[dict[str, Any]] = ray.get(refs)  # in task order, whatever order they finished in
    return deals


def run_tournament(players: Sequence[str], games: int, seed: int = 0, *, rules: GameRules | None = None,
                   variant: str = "classic", options: dict[str, Any] | None = None, hands: int = 0,
                   jobs: int = 0, ray: str | None = None, progress: bool | str = True,
                   stream: TextIO | None = None) -> dict[str, Any]:
    """Play a head-to-head match (two players) or a round robin (more), ``games`` duplicate deals per
    pairing, and return the results (see ``summarize``; ``format_table`` prints them).

    ``players``: player names of the rules' family (``play_family(rules).player_names()``, or a level);
    a name given twice plays itself. ``rules`` wins over ``variant``/``options`` (any family's preset).
    ``hands``: stop every game after that many hands (0: play whole games). ``jobs``: worker
    processes (0: one per CPU). ``ray``: a Ray address (``"auto"``, ``"local"``, ``"ray://..."``): one
    Ray task per deal instead of local processes. ``progress``: a bar on ``stream`` (stderr) when it is
    a terminal; ``"always"`` shows it anyway, False never. The same arguments give the same results,
    whatever ``jobs`` is and with or without Ray."""
    if games < 0 or hands < 0 or jobs < 0:
        raise ValueError(f"games, hands and jobs must be 0 or more, got {games}, {hands}, {jobs}")
    entrants = entrant_labels(players)
    if len(entrants) < 2:
        raise ValueError(f"a tournament needs at least two players, got {len(entrants)}: {', '.join(entrants)}")
    r: GameRules = rules or game_rules(variant, **(options or {}))
    # unknown names, and players that do not play these rules, fail before anything starts
    make = play_family(r).make_player
    refuse_unsupported({bot_name(label): make(bot_name(label), None) for label in entrants}, r)
    pairs = list(itertools.combinations(entrants, 2))
    tasks = [DealTask(r, p, (bot_name(a), bot_name(b)), i, seed + i, hands)
             for p, (a, b) in enumerate(pairs) for i in range(games)]
    jobs = jobs or os.cpu_count() or 1
    per_deal = len(seatings(r))
    out = stream or sys.stderr
    show = progress == "always" or (progress is True and out.isatty())
    bar = Progress(len(tasks) * per_deal, out) if show else None
    done = 0

    def tick() -> None:
        nonlocal done
        done += per_deal
        if bar:
            bar.update(done)

    start = time.perf_counter()
    if bar:
        bar.update(0)
    deals = _play_ray(tasks, ray, tick) if ray is not None else _play_local(tasks, jobs, tick)
    elapsed = time.perf_counter() - start
    if bar:
        bar.close()
    return summarize(r, entrants, pairs, deals, seed=seed, games=games, hands=hands,
                     jobs=jobs, elapsed=elapsed, ray=ray)


# --- output -------------------------------------------------------------------------------------

def _pct(e: dict[str, Any]) -> str:
    if e["low"] is None:
        return f"{100 * e['value']:5.1f}"
    return f"{100 * e['value']:5.1f} [{100 * e['low']:4.1f}, {100 * e['high']:4.1f}]"


def _pts(e: dict[str, Any], sign: bool = True) -> str:
    f = "+.0f" if sign else ".0f"
    if e["low"] is None:
        return f"{e['value']:{f}}"
    return f"{e['value']:{f}} [{e['low']:{f}}, {e['high']:{f}}]"


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    widths = [max(len(h), *(len(row[i]) for row in rows)) for i, h in enumerate(header)]
    lines = []
    for row in [header, *rows]:
        cells = [c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths, strict=True))]
        lines.append("  ".join(cells).rstrip())
    return lines


def format_table(summary: dict[str, Any]) -> str:
    """The results as text: a line about the run, one row per pairing, then the standings."""
    s = summary
    n_seat = len(s["seatings"])
    where = f"Ray at {s['ray']}" if s.get("ray") else f"{s['jobs']} job{'s' if s['jobs'] != 1 else ''}"
    cut = f", {s['hands_per_game']} hand{'s' if s['hands_per_game'] != 1 else ''} per game" \
        if s["hands_per_game"] else ""
    lines = [f"{s['variant']}" + (f" {s['options']}" if s["options"] else "")
             + f": {len(s['pairs'])} pairing{'s' if len(s['pairs']) != 1 else ''}, {s['deals_per_pair']} deals each, "
             f"each deal played {n_seat} ways{cut}; {s['games']} games, {s['hands']} hands "
             f"(seed {s['seed']}, {where}, {s['elapsed']:.1f} s)",
             f"95% intervals: Wilson for rates, normal on per-deal paired differences for points, "
             f"Bradley-Terry for Elo (mean {ELO_MEAN:g})", ""]
    rows = [[f"{p['players'][0]} vs {p['players'][1]}", str(p["games"]), f"{p['wins']}-{p['draws']}-{p['losses']}",
             _pct(p["game_win_rate"]), _pct(p["hand_win_rate"]), _pts(p["points_per_hand"]),
             _pts(p["elo_difference"])] for p in s["pairs"]]
    lines += _table(["pairing", "games", "W-D-L", "game win %", "hand win %", "points/hand", "Elo diff"], rows)
    stalemates = sum(p.get("stalemates", 0) for p in s["pairs"])
    if stalemates:
        lines.append(f"({stalemates} stalemate{'s' if stalemates != 1 else ''} among the losses: lost by both "
                     f"players, left out of the Elo ratings)")
    lines.append("")
    rows = [[p["player"], _pts(p["elo"], sign=False), str(p["games"]), f"{p['wins']}-{p['draws']}-{p['losses']}",
             _pct(p["game_win_rate"]), _pct(p["hand_win_rate"]), _pts(p["points_per_hand"])]
            for p in s["standings"]]
    lines += _table(["player", "Elo", "games", "W-D-L", "game win %", "hand win %", "points/hand"], rows)
    return "\n".join(lines)


CSV_FIELDS = ["kind", "player", "opponent", "deals", "games", "hands", "wins", "draws", "losses",
              "game_win_rate", "game_win_low", "game_win_high", "hand_wins", "hand_ties", "hand_losses",
              "hand_win_rate", "hand_win_low", "hand_win_high", "points_per_hand", "points_per_hand_low",
              "points_per_hand_high", "elo", "elo_low", "elo_high"]


def csv_rows(summary: dict[str, Any]) -> list[dict[str, Any]]:
    """One row per pairing (``kind`` "pair": the first player's view, ``elo`` the Elo difference) and
    one per player (``kind`` "player", against all its opponents)."""
    def row(kind: str, player: str, opponent: str, d: dict[str, Any], elo: dict[str, Any]) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": kind, "player": player, "opponent": opponent}
        for key in ("deals", "games", "hands", "wins", "draws", "losses", "hand_wins", "hand_ties", "hand_losses"):
            out[key] = d[key]
        for prefix, key, e in (("game_win", "game_win_rate", d["game_win_rate"]),
                               ("hand_win", "hand_win_rate", d["hand_win_rate"]),
                               ("points_per_hand", "points_per_hand", d["points_per_hand"]),
                               ("elo", "elo", elo)):
            out[key] = e["value"]
            out[f"{prefix}_low"], out[f"{prefix}_high"] = e["low"], e["high"]
        return out

    rows = [row("pair", p["players"][0], p["players"][1], p, p["elo_difference"]) for p in summary["pairs"]]
    rows += [row("player", p["player"], "", p, p["elo"]) for p in summary["standings"]]
    return rows


def write_json(summary: dict[str, Any], path: str | Path) -> None:
    Path(path).write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")


def write_csv(summary: dict[str, Any], path: str | Path) -> None:
    with Path(path).open("w", encoding="utf-8", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=CSV_FIELDS)
        writer.writeheader()
        for row in csv_rows(summary):
            writer.writerow({k: "" if v is None else v for k, v in row.items()})


def plot(summary: dict[str, Any], folder: str | Path) -> list[Path]:
    """Write ``ratings.png`` (Elo with 95 % intervals) and ``score-differences.png`` (histogram of the
    per-deal points-per-hand differences of each pairing) to ``folder``; returns the paths.
    Needs matplotlib (``pip install 'canasta[plot]'``)."""
    matplotlib = require("matplotlib", "plot", "--plot")
    matplotlib.use("Agg")
    plt = importlib.import_module("matplotlib.pyplot")
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    title = f"{summary['variant']}, {summary['deals_per_pair']} deals per pairing, seed {summary['seed']}"

    rows = summary["standings"]
    names = [r["player"] for r in rows]
    values = [r["elo"]["value"] for r in rows]
    below = [0.0 if r["elo"]["low"] is None else r["elo"]["value"] - r["elo"]["low"] for r in rows]
    above = [0.0 if r["elo"]["high"] is None else r["elo"]["high"] - r["elo"]["value"] for r in rows]
    fig, ax = plt.subplots(figsize=(max(4.0, 1.2 * len(names) + 2), 4))
    ax.bar(names, [v - ELO_MEAN for v in values], bottom=ELO_MEAN, yerr=[below, above], capsize=6,
           color="#4477aa")
    ax.axhline(ELO_MEAN, color="grey", linewidth=0.8)
    ax.set_ylabel("Elo (95% interval)")
    ax.set_title(f"Ratings: {title}", fontsize=9)
    fig.tight_layout()
    ratings_path = out / "ratings.png"
    fig.savefig(ratings_path, dpi=120)
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(7, 4))
    everything = [d for pair in summary["pairs"] for d in pair["deal_differences"]]
    lo, hi = (min(everything), max(everything)) if everything else (-1.0, 1.0)
    lo, hi = (lo - 1, hi + 1) if hi - lo < 2 else (lo, hi)
    count = min(60, max(10, 2 * math.ceil(math.sqrt(len(everything)))))
    edges = [lo + (hi - lo) * i / count for i in range(count + 1)]  # the same bins for every pairing
    for pair in summary["pairs"]:
        diffs = pair["deal_differences"]
        if diffs:
            ax.hist(diffs, bins=edges, alpha=0.6,
                    label=f"{pair['players'][0]} − {pair['players'][1]} (mean {pair['points_per_hand']['value']:+.0f})")
    ax.axvline(0, color="grey", linewidth=0.8)
    ax.set_xlabel("points per hand, first player minus second (one value per deal)")
    ax.set_ylabel("deals")
    ax.set_title(f"Score differences: {title}", fontsize=9)
    if everything:
        ax.legend(fontsize=8)
    fig.tight_layout()
    hist_path = out / "score-differences.png"
    fig.savefig(hist_path, dpi=120)
    plt.close(fig)
    return [ratings_path, hist_path]


__all__ = [
    "CONFIDENCE", "FORMAT", "DealTask", "Estimate", "MissingLibrary", "Ratings", "csv_rows", "deal_difference",
    "elo_ratings", "format_table", "game_view", "mean_interval", "play_deal", "play_players", "play_seated", "plot",
    "require", "run_tournament", "seat_names", "seatings", "summarize", "wilson", "write_csv", "write_json",
]
