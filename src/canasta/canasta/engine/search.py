"""The opening and post-withdraw searches: whether a take or a staged meld still leaves a way to meet
the minimum this turn, settled by the bounds in ``opening.py`` where they decide and otherwise by a
bounded search over meld moves (``SEARCH_LIMIT`` positions, memoised per turn).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from ..kinds import JOKER_RANK, THREE, TWO, VALUE
from ..melds import is_sequence_key, key_rank, key_suit, sequence_span
from ..moves import Move
from ..rules import Rules
from ..state import GAME_OVER, Melds, State
from .core import (
    COUNT_RANK,
    RV,
    flags,
    meld_counts,
    minimum_to_meet,
    move_cards,
    opening_canasta_ok,
    total,
    turn_counts,
)
from .generate import play_moves
from .meld import apply_meld
from .opening import (
    canasta_possible,
    max_opening_points,
    opening_reachable,
    points_bound,
    required_canasta,
    sequence_points_bound,
)
from .pile import take_pile
from .search_step import (
    counts_key,
    grown_meld,
    grown_sizes,
    hand_after,
    hand_int,
    meld_cards,
    meld_child,
    meld_sizes,
)


def reachable(state: State, move: Move, rc: list[int], melds: dict[int, tuple[int, int]], need: int,
              keep: int) -> bool:
    """After an unopened side's take: can the hand still reach the minimum?"""
    hand = list(state.hands[state.turn_seat])
    move_cards(hand, move)  # the cards the take shows leave the hand
    return reachable_from(state.rules, lambda: take_pile(state, move, None), hand, rc, melds, need, keep,
                           required_canasta(state))


def reachable_from(r: Rules, after: Callable[[], State], hand: list[int] | tuple[int, ...], rc: list[int],
                   melds: dict[int, tuple[int, int]], need: int, keep: int, canasta: str | None = None,
                   seen: dict[Any, bool] | None = None, runs: tuple[tuple[int, int, int], ...] = (),
                   hand_key: int = -1, sizes: bytes | None = None, minimum: int = -1) -> bool:
    """Can melds from this hand add ``need`` points keeping ``keep`` cards (and show the ``canasta`` a
    Brazilian opening needs)? The greedy bound decides for groups; where sequences, Italian's natural
    openings or an opening canasta give other ways or conditions, a search over the meld moves of the
    position ``after()`` decides what quick bounds cannot. ``runs``: the side's sequences on the table
    as (suit, lowest rank, highest rank), which the hand may lengthen into a canasta. ``hand_key``, ``sizes`` and
    ``minimum``: the position's search key and minimum, for ``opening_path``, when the caller made them."""
    if r.natural_opening:
        rc = list(rc)
        rc[TWO] = rc[JOKER_RANK] = 0
    asks = flags(r)
    if canasta is None and not asks.restricted and opening_reachable(r, rc, melds, need, keep):
        return True
    if not (asks.may_search or canasta):
        return False
    bound = (max_opening_points(r, rc, melds)[0] + 20 * rc[TWO] * r.twos_as_rank
             # a second (third ...) meld of a rank can take wild cards the quick count does not place
             + (20 * rc[TWO] + 50 * rc[JOKER_RANK]) * r.several_melds_per_rank)
    if bound < need:  # what sequences could add (never negative), counted only when it can decide
        bound += sequence_points_bound(hand, [key_suit(k) for k in melds if is_sequence_key(k)])
    if bound < need or (canasta and not canasta_possible(r, hand, melds, canasta == "natural", runs)):
        return False
    position = after()
    return opening_path(position, position.hand_number, {} if seen is None else seen, hand_key, sizes, minimum)


SEARCH_LIMIT: Final = 2000  # positions an opening search may visit before it gives up (and says no)


def opening_path(state: State, hand_number: int, seen: dict[Any, bool], hand_key: int = -1,
                 sizes: bytes | None = None, need: int = -1) -> bool:
    """Can meld moves from here complete the opening (the minimum, and any canasta the rules ask for) or
    go out? An exhaustive search, used only where the greedy bound cannot decide. It follows the meld
    moves without the after-withdraw filter (that filter is this very question), and gives up with "no"
    after SEARCH_LIMIT positions: a move is then refused rather than risk a turn with no way to end.
    ``hand_key``, ``sizes`` and ``need``: this position's hand as ``hand_int``, its melds as ``meld_sizes`` and
    its ``minimum_to_meet``, when the caller made them from its own (a child made by ``search_step``)."""
    if state.hand_number != hand_number or state.phase == GAME_OVER or state.stage is None:
        return True
    stage = state.stage
    p = state.turn_seat
    side = state.seat_sides[p]
    melds = state.melds[side]
    quick = stage.pending is None
    if quick:
        if need < 0:
            need = minimum_to_meet(state)
        if stage.points >= need and opening_canasta_ok(state, melds):
            return True
    else:
        need = 0
    hand = state.hands[p]
    asks = flags(state.rules)
    compact = asks.compact_keys
    if hand_key < 0:
        hand_key = counts_key(turn_counts(state)) if compact else hand_int(hand)
    if sizes is None:
        sizes = meld_sizes(melds)
    key = (hand_key, sizes)  # position_key(hand, melds)
    known = seen.get(key)
    if known is not None:
        return bool(known)
    if len(seen) >= SEARCH_LIMIT:
        return False
    seen[key] = False
    if quick and asks.bound_prunes and _opening_falls_short(state, melds, need - stage.points):
        return False  # what every way on from here would find, with none of them followed
    found = False
    # A child the search has met before is answered from ``seen`` without making it, where the counts show it
    # cannot end the search itself (the checks above): no pending pile, a card left in the hand, its points short
    # of the minimum, and (Splash) no meld reaching seven cards, so that the minimum stays this position's. With
    # no pending pile and a card left, the child is made from what is counted here (``search_step``), its key
    # from this one's.
    splash = state.rules.splash
    hsize = total(turn_counts(state)) if quick else 0
    for m in play_moves(state, True):
        if m.action != "meld":
            continue
        if quick:
            cards = meld_cards(hand, m)
            if hsize > len(cards):
                grown = len(melds.get(m.rank, ())) + len(cards)
                points = stage.points
                for c in cards:
                    points += VALUE[c]
                child_hand = hand_after(hand_key, cards, compact)
                child_sizes = grown_sizes(sizes, m.rank, grown)
                if points < need and not (splash and grown >= 7):
                    known = seen.get((child_hand, child_sizes))
                    if known is not None:
                        if known:
                            found = True
                            break
                        continue
                # The child's minimum is this one's (the same melds but the grown one, the same turn and stage),
                # unless the meld grown to seven may be a Splash
                if opening_path(meld_child(state, m, cards, points), hand_number, seen, child_hand, child_sizes,
                                -1 if splash and grown >= 7 else need):
                    found = True
                    break
                continue
            if opening_path(apply_meld(state, m), hand_number, seen):  # the hand empties: going out, or the foot
                found = True
                break
            continue
        # A pending pile: the child is made by ``apply_move`` (which picks the pile up once the minimum is met, and
        # the search ends there), its key from this one's (until then its hand is this one's less the meld's cards).
        cards = meld_cards(hand, m)
        if opening_path(apply_meld(state, m), hand_number, seen, hand_after(hand_key, cards, compact),
                        grown_sizes(sizes, m.rank, len(melds.get(m.rank, ())) + len(cards))):
            found = True
            break
    seen[key] = found
    return found


def points_fall_short(r: Rules, from_stock: bool, rc: list[int], naturals: list[int], wilds: list[int],
                      short: int) -> bool:
    """Where ``Flags.bound_prunes``: can no meld moves from a position (no pending pile, the hand's rank counts
    ``rc``, the side's melds' counts as ``opening.points_bound`` reads them) add the ``short`` points its opening
    lacks? Never said where three black threes are held (their meld may go out), or where a Splash could still
    waive the minimum (a meld of seven natural or wild cards the hand and the table might make, in a turn begun
    from the stock)."""
    if rc[THREE] >= 3:
        return False
    if r.splash and from_stock:
        if rc[JOKER_RANK] + rc[TWO] + wilds[JOKER_RANK] >= 7:
            return False
        for rank in range(4, 15):
            nat = naturals[rank]
            if rc[rank] + (nat + wilds[rank] if nat >= 0 else 0) >= 7:
                return False
    return points_bound(r, rc, naturals, wilds) < short


def _opening_falls_short(state: State, melds: Melds, short: int) -> bool:
    """``points_fall_short`` of a position of the opening search, whose side has these ``melds``."""
    naturals = [-1] * 15
    wilds = [0] * 15
    for key, meld in melds.items():  # (group keys are rank codes where the bound applies)
        naturals[key], wilds[key] = meld_counts(meld)
    return points_fall_short(state.rules, state.turn.source == "stock", turn_counts(state), naturals, wilds, short)


def position_key(hand: tuple[int, ...], melds: Melds) -> tuple[int, bytes]:
    """What the opening search remembers a position by: the hand as one int (``hand_int``: a child's is its
    parent's less a few powers of two, where bytes would be rebuilt or copied) and the size of each of the side's
    melds as bytes (key and size per meld, by key). Two positions get the same key exactly when their hands and
    meld sizes are the same (hands are always 53 counts, all values below 256). (``opening_path`` builds the
    same key from its parts, a child's from its parent's; where ``Flags.compact_keys`` allows, it takes the
    hand's rank counts, ``counts_key``, for its hand, which tell the hands of one search apart as well.)"""
    return hand_int(hand), meld_sizes(melds)


def child_key(hand: list[int], melds: Melds, grown_key: int, grown: int) -> tuple[int, bytes]:
    """``position_key`` of the position after a meld, without making it: ``hand`` is the hand after the meld,
    and the meld at ``grown_key`` (new or not) has ``grown`` cards."""
    return hand_int(tuple(hand)), grown_sizes(meld_sizes(melds), grown_key, grown)


class MeldCounts:
    """What ``_meld_still_reachable`` reads of a position, counted once for all of its meld moves: the hand's rank
    counts and size, the side's melds as (naturals, wild cards) by key, the staged points and the minimum; and the
    parts of ``bound_after``, a cheap upper bound of what the hand left after a meld could add."""

    __slots__ = ("canasta", "caps", "compact", "counts_decide", "hand", "hand_key", "hsize", "melds", "min_naturals",
                 "minimum_stays", "natural_parts", "naturals", "need", "pair_max", "pair_parts", "pairs", "points",
                 "rc", "rules", "sizes", "slot_parts", "slots", "table")

    rc: list[int]
    hsize: int
    melds: dict[int, tuple[int, int]]
    points: int
    need: int
    rules: Rules
    min_naturals: int
    natural_parts: list[int]  # per rank code: the points its naturals may add (0 outside 4..14)
    slot_parts: list[int]  # per rank code: the wild cards a meld of it may take
    pair_parts: list[int]  # per rank code: the points of a pair that a wild card would complete, else 0
    naturals: int  # the sums of the three lists
    slots: int
    pairs: int
    pair_max: int  # the largest of pair_parts
    hand: tuple[int, ...]
    table: Melds  # the side's melds
    hand_key: int  # the search's key of the position (``hand_int`` or ``counts_key``, ``meld_sizes``), made when
    sizes: bytes | None  # first asked
    caps: tuple[int, ...]
    compact: bool  # ``Flags.compact_keys``: the hand's key is ``counts_key``
    counts_decide: bool  # ``Flags.counts_decide``: a group meld's check is the greedy count alone
    canasta: str | None  # ``required_canasta``: the kind of canasta the opening must still show
    # A meld that leaves its meld short of seven cards leaves ``need`` as it is: no Splash rule, or no meld of seven
    # cards or more on the table (the minimum after a meld is 0 only when a meld of seven or more qualifies).
    minimum_stays: bool

    def __init__(self, state: State) -> None:
        p = state.turn_seat
        r = state.rules
        self.rules = r
        asks = flags(r)
        self.compact = asks.compact_keys
        self.caps = caps = asks.caps  # ``r.max_wilds`` as a table
        self.counts_decide = asks.counts_decide
        self.hand = state.hands[p]
        self.table = state.melds[state.seat_sides[p]]
        self.hand_key = -1
        self.sizes = None
        self.rc = rc = turn_counts(state)  # shared with the state: read, never changed here
        self.hsize = total(rc)
        self.melds = melds = {x: meld_counts(m) for x, m in self.table.items()}
        self.points = state.stage.points if state.stage is not None else 0
        self.need = minimum_to_meet(state)
        self.canasta = required_canasta(state)
        stays = True
        if r.splash:
            for m in self.table.values():
                if len(m) >= 7:
                    stays = False
        self.minimum_stays = stays
        # The parts of ``max_opening_points``' greedy count, each taken at its most: a rank on the table or held
        # three times melds all its naturals and takes every wild card it may; a pair (fewer than three, enough
        # for the rules) adds its points only if a wild card completes it; wild cards go where there is room.
        mn = self.min_naturals = r.min_naturals
        natural_parts = [0] * 15
        slot_parts = [0] * 15
        pair_parts = [0] * 15
        naturals = slots = pairs = pair_max = 0
        for rank in range(4, 15):  # NATURAL_RANKS, written out: compiled, a native loop
            n = rc[rank]
            if rank in melds:
                nat, wild = melds[rank]
                room = caps[nat + n] - wild
                slot_parts[rank] = room if room > 0 else 0
                natural_parts[rank] = n * RV[rank]
            elif n >= mn and n >= 3:
                slot_parts[rank] = caps[n]
                natural_parts[rank] = n * RV[rank]
            elif n and n >= mn and caps[n] >= 3 - n:
                slot_parts[rank] = caps[n]
                value = n * RV[rank]
                pair_parts[rank] = value
                pairs += value
                if value > pair_max:
                    pair_max = value
            naturals += natural_parts[rank]
            slots += slot_parts[rank]
        if r.wild_melds:
            slots += r.wild_meld_max
        self.natural_parts = natural_parts
        self.slot_parts = slot_parts
        self.pair_parts = pair_parts
        self.naturals = naturals
        self.slots = slots
        self.pairs = pairs
        self.pair_max = pair_max

    def key(self) -> tuple[int, bytes]:
        """The position's hand as ``hand_int`` (or ``counts_key``) and melds as ``meld_sizes``, made once for all
        its moves."""
        if self.sizes is None:
            self.hand_key = counts_key(self.rc) if self.compact else hand_int(self.hand)
            self.sizes = meld_sizes(self.table)
        return self.hand_key, self.sizes

    def bound_after(self, rank: int, k: int, a: int, b: int) -> int:
        """At least ``opening.max_opening_points`` of the hand and melds after a meld of ``k`` naturals of the rank
        code ``rank`` (its own meld key), ``a`` twos and ``b`` jokers: the parts above with that rank's changed
        (now on the table, it keeps all it has left and the room the meld leaves) and the wild cards taken off."""
        naturals = self.naturals
        slots = self.slots
        pairs = self.pairs
        if 4 <= rank <= 14:
            held = self.rc[rank]
            nat, wild = self.melds.get(rank, (0, 0))
            room = self.caps[nat + held] - wild - a - b
            naturals += (held - k) * RV[rank] - self.natural_parts[rank]
            slots += (room if room > 0 else 0) - self.slot_parts[rank]
            pairs -= self.pair_parts[rank]  # (the largest pair stays an upper bound of those left)
        jokers = self.rc[JOKER_RANK] - b
        twos = self.rc[TWO] - a
        completed = (jokers + twos) * self.pair_max  # each completed pair takes a wild card
        if completed < pairs:
            pairs = completed
        placed_jokers = jokers if jokers < slots else slots
        placed_twos = slots - placed_jokers
        if twos < placed_twos:
            placed_twos = twos
        return naturals + pairs + 50 * placed_jokers + 20 * placed_twos


def still_reachable(state: State, move: Move, seen: dict[Any, bool], counts: MeldCounts | None = None) -> bool:
    """After a withdraw there is no second one: a staged meld must leave the minimum reachable (while
    keeping a card to discard and one to hold, counting a pending pile), or go out outright. ``counts``:
    the position's ``MeldCounts``, when the caller asks about several moves of one position."""
    if state.stage is None or state.stage.pending is None:
        quick = _meld_still_reachable(state, move, counts)
        if quick is not None:
            return quick
    after: State | None = None
    hand_key = -1
    sizes: bytes | None = None
    if counts is not None and move.action == "meld" and (state.stage is None or state.stage.pending is None):
        # The common meld (no pending pile, a card left): the position and its search key made from this one's
        # parts, as the search makes its children (``search_step``), not by ``apply_move`` and a recount.
        cards = meld_cards(counts.hand, move)
        if counts.hsize > len(cards):
            points = counts.points
            for c in cards:
                points += VALUE[c]
            parent_key, parent_sizes = counts.key()
            hand_key = hand_after(parent_key, cards, counts.compact)
            grown = grown_meld(counts.table.get(move.rank), cards)
            sizes = grown_sizes(parent_sizes, move.rank, len(grown))
            if counts.need > points and counts.minimum_stays and len(grown) < 7 and counts.canasta is None:
                return _reachable_after_meld(state, move, seen, counts, cards, points, grown, hand_key, sizes)
            after = meld_child(state, move, cards, points, grown)
    if after is None:
        after = apply_meld(state, move)
    if after.hand_number != state.hand_number or after.phase == GAME_OVER:
        return True
    stage = after.stage
    if stage is None:  # a pending pile was picked up: the side has opened
        return True
    minimum = minimum_to_meet(after)
    need = minimum - stage.points
    side = after.seat_sides[after.turn_seat]
    if need <= 0 and opening_canasta_ok(after, after.melds[side]):
        return True
    melds = {x: meld_counts(m) for x, m in after.melds[side].items()}
    hand = after.hands[after.turn_seat]
    rc = list(turn_counts(after))  # kept on the position (passed on by the meld): no recount of the hand
    keep = 2 if stage.pending is None else max(0, 2 - len(stage.pending))
    canasta = required_canasta(after)
    runs = tuple((key_suit(x), *sequence_span(m)) for x, m in after.melds[side].items()
                 if is_sequence_key(x)) if canasta is not None and after.rules.sequences else ()
    return reachable_from(after.rules, lambda: after, hand, rc, melds, need, keep, canasta, seen, runs,
                          hand_key, sizes, minimum if stage.pending is None else -1) or (
        stage.pending is not None and keep > 0 and opening_path(after, after.hand_number, seen))


def _reachable_after_meld(state: State, move: Move, seen: dict[Any, bool], counts: MeldCounts, cards: list[int],
                          points: int, grown: tuple[int, ...], hand_key: int, sizes: bytes) -> bool:
    """``still_reachable``'s answer for the common meld (no pending pile, a card left) whose points fall short of a
    minimum the meld leaves as it is (``MeldCounts.minimum_stays``, the grown meld short of seven cards) and no
    canasta required: what the check reads of the position after the meld (its counts, melds, hand and minimum)
    taken from this one's parts, and the position made only if the bounds leave the search to decide (most
    answers after a withdraw come from the bounds)."""
    rc = list(counts.rc)
    hand = list(counts.hand)
    for c in cards:
        x = COUNT_RANK[c]
        rc[x] = rc[x] - 1
        hand[c] = hand[c] - 1
    melds = dict(counts.melds)
    melds[move.rank] = meld_counts(grown)
    child = _MeldChild(state, move, cards, points, grown)
    return reachable_from(counts.rules, child.make, hand, rc, melds, counts.need - points, 2, None, seen, (),
                          hand_key, sizes, counts.need)


class _MeldChild:
    """The position after a common meld, made when the search asks for it (``make``: a bound method, not a
    closure, which compiled would form a reference cycle per call)."""

    __slots__ = ("cards", "grown", "move", "points", "state")

    def __init__(self, state: State, move: Move, cards: list[int], points: int, grown: tuple[int, ...]) -> None:
        self.state = state
        self.move = move
        self.cards = cards
        self.points = points
        self.grown = grown

    def make(self) -> State:
        return meld_child(self.state, self.move, self.cards, self.points, self.grown)


def _meld_still_reachable(state: State, move: Move, counts: MeldCounts | None) -> bool | None:
    """``still_reachable`` without making the position, where the rules make it a question of counts: a
    meld of a group that leaves a card in the hand and no pending pile, in rules whose opening is the greedy
    count alone (no sequences, twos as a rank, natural openings, required canastas or meld, Splash). The
    answer is the one the full check gives (the same counts, the same bound); None where it does not apply."""
    r = state.rules
    if not (counts.counts_decide if counts is not None else flags(r).counts_decide) or (
            move.action != "meld" or is_sequence_key(move.rank)):
        return None
    if counts is None:
        counts = MeldCounts(state)
    k, a, b = move.naturals, move.twos, move.jokers
    if counts.hsize - k - a - b < 1:  # the hand empties: going out or the foot, the full check
        return None
    rank = key_rank(move.rank)
    gain = RV[rank] * k + 20 * a + 50 * b
    # A necessary condition first (after a withdraw most answers are no, and this bound finds nearly all of them):
    # the staged points with this meld's, and at most what the hand left could add.
    if move.rank == rank and counts.points + gain + counts.bound_after(rank, k, a, b) < counts.need:
        return False
    rc = list(counts.rc)
    rc[rank] = rc[rank] - k
    rc[TWO] = rc[TWO] - a
    rc[JOKER_RANK] = rc[JOKER_RANK] - b
    melds = dict(counts.melds)
    nat0, wild0 = melds.get(move.rank, (0, 0))
    melds[move.rank] = (nat0 + k, wild0 + a + b)
    need = counts.need - (counts.points + gain)
    if need <= 0:
        return True
    return opening_reachable(r, rc, melds, need, 2)
