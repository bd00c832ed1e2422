"""The opening (docs/sources.md §3.4): quick bounds on what melds from a hand can add towards the minimum
(exact for Classic's card values; for sequences and required canastas, bounds that the search in
``search.py`` settles), and the end of an opening turn.
"""

from __future__ import annotations

from ..kinds import JOKER_RANK, TWO
from ..melds import SEQUENCE_LOW, SEQUENCE_MAX
from ..rules import Rules
from ..state import State
from .core import DISCARD_RANKS, RV, flags, rank_counts, total


def max_opening_points(rules: Rules, rc: list[int], melds: dict[int, tuple[int, int]]) -> tuple[int, int]:
    """The most points melds from these hand counts can add, and how many cards that leaves.

    Greedy and exact for the card values of Classic: every meldable natural is melded, pairs are
    completed with one wild (best pairs first), and as many wilds as fit are added (jokers first).
    Black threes are never melded in an opening that does not go out."""
    pts = used = cap = 0
    pairs: list[tuple[int, int, int]] = []
    size_cap = rules.max_meld_size or 10**9
    caps = flags(rules).caps  # ``rules.max_wilds`` as a table (compiled, each call is a method call)
    min_nat = rules.min_naturals
    # The side's group melds by rank, read once: a dict look-up per rank boxes the key (compiled: hot).
    by_rank: list[tuple[int, int] | None] = [None] * 15
    for key, counts in melds.items():
        if 4 <= key < 15:
            by_rank[key] = counts
    for r in range(4, 15):  # NATURAL_RANKS, written out: compiled, a native loop (not an iterator)
        n = rc[r]
        meld = by_rank[r]
        if meld is not None:  # an existing meld takes more naturals and, even with none, more wild cards
            nat, wild = meld
            room = max(0, size_cap - nat - wild)
            n = min(n, room)
            pts += n * RV[r]
            used += n
            cap += max(0, min(caps[nat + n] - wild, room - n))
            continue
        n = min(n, size_cap)
        if not n:
            continue
        if n >= min_nat and n >= 3:
            pts += n * RV[r]
            used += n
            cap += caps[n]
        elif n >= min_nat and caps[n] >= 3 - n:
            pairs.append((n * RV[r], caps[n] - (3 - n), n))
    jokers = rc[0]
    wilds = jokers + rc[2]
    if len(pairs) > 1:  # (compiled, ``sort`` is a method call through the C API even for one item)
        pairs.sort(reverse=True)
    spare = wilds
    for value, extra_cap, n in pairs:
        if spare < 3 - n:
            break
        spare -= 3 - n
        pts += value
        used += n
        cap += extra_cap
    if rules.wild_melds:  # wild cards may make (or join) a meld of their own, and the rest go to the melds
        wild_size = melds[JOKER_RANK][1] if JOKER_RANK in melds else 0
        if spare >= (1 if wild_size else 3):
            cap += rules.wild_meld_max - wild_size
    placed = wilds - spare + min(spare, cap)
    # the wild cards placed, jokers (50) first, then twos (20)
    pts += 50 * placed if placed <= jokers else 50 * jokers + 20 * (placed - jokers)
    used += placed
    return pts, total(rc) - used


def points_bound(rules: Rules, rc: list[int], naturals: list[int], wilds: list[int]) -> int:
    """At least the points any meld moves from a hand with the rank counts ``rc`` can add to the side's melds
    (``naturals`` and ``wilds``: its meld of each rank code as its counts, naturals -1 where it has none; the wild
    meld's cards at ``JOKER_RANK`` in ``wilds``), where melds are groups (no sequences, twos as a rank or second meld
    of a rank) and no black threes are melded, for the opening search to stop at (``Flags.bound_prunes``).
    ``max_opening_points`` chooses which pairs its wild cards complete and is exact for Classic, but is not a bound
    under every limit (three jokers in a wild meld may score more than a pair and two of them; naturals may leave a
    meld near its largest size no room for jokers); this one relaxes each choice instead: every natural a meld could
    take, the best pairs that one wild card each could complete, and as many wild cards as the melds that could be
    made have room for (jokers first)."""
    caps = flags(rules).caps
    size_cap = rules.max_meld_size or 10**9
    min_nat = rules.min_naturals
    pts = room_left = 0
    pairs: list[int] = []
    for rank in range(4, 15):  # NATURAL_RANKS, written out: compiled, a native loop
        n = rc[rank]
        nat = naturals[rank]
        if nat >= 0:
            wild = wilds[rank]
            room = size_cap - nat - wild
            if room < 0:
                room = 0
            if n > room:
                n = room
            pts += n * RV[rank]
            more = caps[nat + n] - wild  # (the room the naturals take counted for the wild cards too: a bound)
            if more > room:
                more = room
            if more > 0:
                room_left += more
        elif n >= min_nat and n >= 3:
            pts += n * RV[rank]
            room_left += caps[n]
        elif n and n >= min_nat and caps[n] >= 3 - n:  # a pair (or fewer) needs a wild card at least
            pairs.append(n * RV[rank])
            room_left += caps[n]
    jokers = rc[JOKER_RANK]
    held = jokers + rc[TWO]
    if len(pairs) > held:  # the best pairs the wild cards could complete
        pairs.sort(reverse=True)
        del pairs[held:]
    for value in pairs:
        pts += value
    if rules.wild_melds:
        wild_size = wilds[JOKER_RANK]
        if wild_size or held >= 3:
            room_left += rules.wild_meld_max - wild_size
    placed = held if held < room_left else room_left
    pts += 50 * placed if placed <= jokers else 50 * jokers + 20 * (placed - jokers)
    return pts


def opening_reachable(rules: Rules, rc: list[int], melds: dict[int, tuple[int, int]], need: int,
                      keep: int) -> bool:
    """Can melds from these hand counts add ``need`` points while leaving ``keep`` cards?"""
    pts, left = max_opening_points(rules, rc, melds)
    if pts < need:
        return False
    if left >= keep:
        return True
    # Exact for keep <= 2: some optimal opening leaves these cards out, so try each choice.
    ranks = [r for r in DISCARD_RANKS if rc[r]]
    for i, a in enumerate(ranks):
        rc[a] = rc[a] - 1
        if keep == 1:
            ok = max_opening_points(rules, rc, melds)[0] >= need
        else:
            ok = any(_try_without(rules, rc, melds, need, b) for b in ranks[i:])
        rc[a] = rc[a] + 1
        if ok:
            return True
    return False


def _try_without(rules: Rules, rc: list[int], melds: dict[int, tuple[int, int]], need: int, b: int) -> bool:
    if not rc[b]:
        return False
    rc[b] = rc[b] - 1
    ok = max_opening_points(rules, rc, melds)[0] >= need
    rc[b] = rc[b] + 1
    return ok


def required_canasta(state: State) -> str | None:
    """The kind of canasta ("canasta" or "natural") the turn's side must still show to open, or None."""
    r = state.rules
    side = state.seat_sides[state.turn_seat]
    if not r.opening_canasta or state.opened[side]:
        return None
    return r.opening_canasta_needed(state.scores[state.turn_seat if r.cutthroat else side])


def canasta_possible(r: Rules, hand: list[int] | tuple[int, ...], melds: dict[int, tuple[int, int]],
                     natural: bool, runs: tuple[tuple[int, int, int], ...] = ()) -> bool:
    """Could this hand make a canasta at all (a quick necessary condition for Brazilian openings)?
    ``runs``: the side's sequences on the table as (suit, lowest rank, highest rank)."""
    rc = rank_counts(tuple(hand))
    wilds = 0 if natural else rc[TWO] + rc[JOKER_RANK]
    for rank in range(4, 15):  # NATURAL_RANKS, written out: compiled, a native loop (not an iterator)
        nat, wild = melds.get(rank, (0, 0))
        if nat + wild + rc[rank] + min(wilds, max(0, r.max_wilds(nat + rc[rank]) - wild)) >= 7 and (
                not natural or not wild):
            return True
    if not natural and r.wild_melds and wilds + melds.get(JOKER_RANK, (0, 0))[1] >= 7:
        return True
    if r.sequences:
        # A sequence on the table grows at both ends with the hand's cards: without this a staged run that
        # later melds would finish was judged a dead end, every meld was refused and no move was left.
        for suit, lo, hi in runs:
            while lo > SEQUENCE_LOW and hand[(lo - 3) * 4 + suit]:
                lo -= 1
            while hi < 14 and hand[(hi - 1) * 4 + suit]:
                hi += 1
            if hi - lo + 1 >= SEQUENCE_MAX:
                return True
        for suit in range(4):
            run = 0
            for rank in range(SEQUENCE_LOW, 15):
                run = run + 1 if hand[(rank - 2) * 4 + suit] else 0
                if run >= SEQUENCE_MAX:
                    return True
    return False


def sequence_points_bound(hand: list[int] | tuple[int, ...],
                          table_suits: set[int] | frozenset[int] | list[int] = frozenset()) -> int:
    """At most how many points sequences could add from this hand: the cards with a suited neighbour in the
    hand, and every card of a suit in which the side already has a sequence (it may extend it)."""
    cards: tuple[int, ...] = tuple(hand) if isinstance(hand, list) else hand  # typed: native indexing compiled
    points = 0
    for suit in range(4):
        extends = suit in table_suits
        for rank in range(SEQUENCE_LOW, 15):
            kind = (rank - 2) * 4 + suit
            if cards[kind] and (extends or (rank > SEQUENCE_LOW and cards[kind - 4] > 0)
                                or (rank < 14 and cards[kind + 4] > 0)):
                points += RV[rank]
    return points


def confirm_opening(state: State) -> State:
    """End of the opening turn: staged melds stand and the side has opened."""
    side = state.seat_sides[state.turn_seat]
    if state.stage is None:
        return state
    opened = list(state.opened)
    opened[side] = True
    return state.replace(stage=None, opened=tuple(opened))
