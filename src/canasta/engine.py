"""The rules engine: new_game, legal_moves, apply, why_illegal, outcome (RULES.md §3).

``legal_moves`` is the single source of truth: ``apply`` accepts exactly the moves it lists (the list
is cached on the immutable state), and ``why_illegal`` explains any other move with a stable code.

The opening (RULES.md §3.4, DESIGN.md A "the hard part"): a side that has not opened *stages* its
melds in the opening turn; they count towards the minimum, ``withdraw`` takes them back, and the
turn cannot end until they reach it. A pile taken by such a side stays *pending* beside the table
until the top card plus cards from the hand reach the minimum, so buried pile cards never count
(pagat; GOLDEN GC-I05). The take itself is legal only if the hand can still reach the minimum.
"""

from __future__ import annotations

import random
import secrets
from bisect import bisect_left
from collections.abc import Callable, Sequence
from typing import Any

from .cards import (
    BLACK_THREES,
    JOKER,
    JOKER_RANK,
    RANK_VALUE,
    RED_THREES,
    THREE,
    TWO,
    VALUE,
    card_str,
    cards_of,
    is_wild,
    pack,
    rank_of,
)
from .errors import IllegalMove
from .melds import (
    SEQUENCE_BASE,
    SEQUENCE_LOW,
    SEQUENCE_MAX,
    SLOTS,
    is_sequence_key,
    key_rank,
    key_suit,
    sequence_key,
    sequence_span,
)
from .moves import ACABA, ASK, ASK_ACABA, DRAW, LAYOUT, NO, PASS, SPECIAL_HAND_NAMES, WITHDRAW, YES, Move
from .rules import Rules
from .scoring import acaba_score, score_side, score_special_hand
from .special_hands import SPECIAL_HAND_SIZE, special_hand_of
from .state import ANSWER_PHASE, DRAW_PHASE, GAME_OVER, PLAY_PHASE, Melds, Stage, State, Turn

RV = [RANK_VALUE.get(r, 0) for r in range(15)]  # value of one card of each rank code
NATURAL_RANKS = range(4, 15)
# The kinds of each rank code, in the order the engine takes them from a hand.
RANK_KINDS: list[tuple[int, ...]] = [
    (JOKER,), RED_THREES, (0, 1, 2, 3), BLACK_THREES,
    *(tuple((r - 2) * 4 + s for s in range(4)) for r in NATURAL_RANKS),
]
DISCARD_RANKS = (JOKER_RANK, TWO, THREE, *NATURAL_RANKS)
DISCARDS = [(x, Move("discard", x)) for x in DISCARD_RANKS]
_new_move = tuple.__new__


def rank_counts(h: tuple[int, ...]) -> list[int]:
    """Counts per rank code: [jokers, red threes, twos, black threes, 4s, ..., aces] (unrolled: hot)."""
    return [h[52], h[5] + h[6], h[0] + h[1] + h[2] + h[3], h[4] + h[7],
            h[8] + h[9] + h[10] + h[11], h[12] + h[13] + h[14] + h[15], h[16] + h[17] + h[18] + h[19],
            h[20] + h[21] + h[22] + h[23], h[24] + h[25] + h[26] + h[27], h[28] + h[29] + h[30] + h[31],
            h[32] + h[33] + h[34] + h[35], h[36] + h[37] + h[38] + h[39], h[40] + h[41] + h[42] + h[43],
            h[44] + h[45] + h[46] + h[47], h[48] + h[49] + h[50] + h[51]]


def meld_counts(meld: tuple[int, ...]) -> tuple[int, int]:
    """(naturals, wilds) of a meld. Melds are sorted, so twos (kinds 0-3) lead and jokers trail."""
    wilds = bisect_left(meld, 4) + len(meld) - bisect_left(meld, JOKER)
    return len(meld) - wilds, wilds


def canasta_count(melds: Melds) -> int:
    return sum(1 for m in melds.values() if len(m) >= 7)


def _wild_key(rules: Rules, key: int) -> bool:
    """Is this meld a wild-card meld (for Italian: a meld of twos too, RULES.md §4B)?"""
    rank = key_rank(key)
    return rank == JOKER_RANK or (rank == TWO and rules.twos_as_rank)


def out_canastas(rules: Rules, sizes: dict[int, int]) -> int:
    """Canastas that count towards going out, from meld sizes by key (RULES.md §3.7, §4B): wild canastas
    do not count where wild_canastas_count_to_go_out is off (Italian), and where a sequence is required
    (Bolivia) the count stops one short of the target until there is one."""
    n = 0
    sequence = False
    for key, size in sizes.items():
        if size >= 7:
            if not rules.wild_canastas_count_to_go_out and _wild_key(rules, key):
                continue
            n += 1
            sequence = sequence or is_sequence_key(key)
    if rules.go_out_needs_sequence and not sequence:
        n = min(n, rules.canastas_to_go_out - 1)
    return n


def _canastas(rules: Rules, melds: Melds) -> int:
    if rules.plain_canasta_count:
        return canasta_count(melds)
    return out_canastas(rules, {k: len(m) for k, m in melds.items()})


def _canastas_after(rules: Rules, melds: Melds, canastas: int, key: int, size0: int, size: int) -> int:
    """The going-out canasta count once the meld at ``key`` grows from ``size0`` to ``size`` cards."""
    if rules.plain_canasta_count:
        return canastas + (size >= 7 > size0)
    sizes = {k: len(m) for k, m in melds.items()}
    sizes[key] = size
    return out_canastas(rules, sizes)


def group_keys(melds: Melds, rank: int) -> list[int]:
    """The keys of a side's melds of one rank, first slot first."""
    return [k for k in range(rank, SEQUENCE_BASE, SLOTS) if k in melds]


def free_key(melds: Melds, first: int) -> int | None:
    """The first unused key of a kind (``first`` is its slot-0 key); None when every slot is used."""
    key = first
    while key in melds:
        key += 1 if is_sequence_key(first) else SLOTS
    if is_sequence_key(first) != is_sequence_key(key) or (is_sequence_key(first) and key_suit(key) != key_suit(first)):
        return None
    return key


# --- dealing ----------------------------------------------------------------------------------

def shuffled_deck(rules: Rules, seed: int | None, hand_number: int) -> list[int]:
    """The deck for one hand; the last card is the top. ``seed=None`` uses the OS's secure RNG."""
    deck = pack(rules.decks, rules.jokers)
    rng: random.Random = secrets.SystemRandom() if seed is None else random.Random(f"canasta:{seed}:{hand_number}")
    rng.shuffle(deck)
    return deck


def new_game(rules: Rules, seed: int | None = None) -> State:
    """A new game; the first hand is dealt. An integer seed makes every deal reproducible."""
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise ValueError(f"seed must be an integer or None, got {seed!r}")
    dealer = rules.players - 1
    return start_hand(rules, seed, 1, dealer, (0,) * rules.teams, None, shuffled_deck(rules, seed, 1))


def start_hand(rules: Rules, seed: int | None, hand_number: int, dealer: int, scores: tuple[int, ...],
               last_hand: tuple[dict[str, Any], ...] | None, deck: list[int]) -> State:
    """Deal one hand from ``deck`` (RULES.md §3.1): cards one at a time from the dealer's left,
    the upcard (covered while it is a wild card or a red three), red threes laid out and replaced."""
    stock = list(deck)
    n = rules.players
    hands = [[0] * 53 for _ in range(n)]
    first = (dealer + 1) % n
    for _ in range(rules.hand_size):
        for i in range(n):
            hands[(first + i) % n][stock.pop()] += 1
    feet = [[0] * 53 for _ in range(n)]
    for _ in range(rules.foot_size):  # Hand and Foot: each player's foot, dealt after the hands
        for i in range(n):
            feet[(first + i) % n][stock.pop()] += 1
    pile: list[int] = []
    frozen = False
    while rules.upcard:  # Modern American starts with an empty pile (RULES.md §4C [P])
        c = stock.pop()
        pile.append(c)
        black = c in BLACK_THREES
        if is_wild(c) or c in RED_THREES or (black and rules.black_three_freezes):
            frozen = True
        if is_wild(c) or c in RED_THREES or (black and rules.black_three_upcard == "covered"):
            continue
        break
    red: list[list[int]] = [[] for _ in range(rules.teams)]
    upcards = list(pile)
    if rules.upcard_buries and pile:  # Italian: the upcard's number of cards face down under it (RULES.md §4B)
        pile = [stock.pop() for _ in range(min(_upcard_number(pile[-1]), len(stock) - 1))] + pile
    laid = laid_out_threes(rules)
    keep = 1 if rules.keeps_a_three else 0  # a three kept for a Straight (Modern American, pagat)
    for i in range(n):
        seat = (first + i) % n
        h = hands[seat]
        while sum(h[k] for k in laid) > keep:
            k = next(k for k in laid if h[k])
            h[k] -= 1
            red[rules.side_of(seat)].append(k)
            h[stock.pop()] += 1
    return State(
        rules=rules, seed=seed, hand_number=hand_number, dealer=dealer, scores=scores,
        hands=tuple(tuple(h) for h in hands), stock=tuple(stock), pile=tuple(pile), pile_frozen=frozen,
        melds=tuple({} for _ in range(rules.teams)), red_threes=tuple(tuple(r) for r in red),
        opened=(False,) * rules.teams, has_melded=(False,) * n, turn_seat=first, to_move=first,
        phase=DRAW_PHASE, turn=Turn(), stage=None, last_hand=last_hand, deal=tuple(deck),
        history=(" ".join((str(dealer), "upcard", *(card_str(c) for c in upcards))),),
        result=None, black_threes=((),) * rules.teams, concealed_canastas=((),) * rules.teams, recycled=False,
        seat_sides=tuple(rules.side_of(s) for s in range(n)), pile_hidden=len(pile) - len(upcards),
        feet=tuple(tuple(f) for f in feet),
    )


def laid_out_threes(rules: Rules) -> tuple[int, ...]:
    """The threes a player lays out and replaces when dealt or drawn (RULES.md §3.6; §4C: all threes in
    Modern American, none in Hand and Foot)."""
    return {"red": RED_THREES, "all": (*RED_THREES, *BLACK_THREES), "none": ()}[rules.threes_laid_out]


def _upcard_number(card: int) -> int:
    """The number a card shows for Italian's start of hand: A 1, 2-10, J 11, Q 12, K 13 (a joker 0)."""
    rank = rank_of(card)
    return 1 if rank == 14 else rank


# --- questions about a position -------------------------------------------------------------

def is_over(state: State) -> bool:
    return state.phase == GAME_OVER


def outcome(state: State) -> dict[str, Any] | None:
    """Final scores per side and the winning side (None for a draw); None while play goes on."""
    return state.result


def minimum_needed(state: State, side: int, seat: int | None = None) -> int:
    """The minimum count the side still has to meet this hand (0 once it has opened). In Cutthroat each
    player's own score sets his minimum (RULES.md §4A), so name the ``seat`` there."""
    seats = state.seats_of(side)
    if state.opened[side] or not seats:  # a Cutthroat side left empty when its player joined a partner
        return 0
    if state.rules.cutthroat:
        return state.rules.minimum_count(state.scores[seats[0] if seat is None else seat], state.hand_number)
    return state.rules.minimum_count(state.scores[side], state.hand_number)


def _need(state: State) -> int:
    """The minimum the player whose turn it is must still meet (none after a Splash, RULES.md §4C [P]:
    a complete natural or wild canasta laid down from the hand in a turn begun from the stock)."""
    if state.rules.splash and state.stage is not None and state.turn.source == "stock" and any(
            len(m) >= 7 and (not any(is_wild(c) for c in m) or all(is_wild(c) for c in m))
            for m in state.melds[state.side_of(state.turn_seat)].values()):
        return 0
    return minimum_needed(state, state.side_of(state.turn_seat), state.turn_seat)


def dead_ranks(state: State) -> frozenset[int]:
    """Ranks nobody may meld any more: a canasta of them is finished (RULES.md §4C Modern American)."""
    if not state.rules.dead_ranks:
        return frozenset()
    return frozenset(key_rank(k) for melds in state.melds for k, m in melds.items()
                     if len(m) >= 7 and key_rank(k) >= 4 and not is_sequence_key(k))


def after_opening_turn(state: State) -> bool:
    """Has the side of the player to move opened in an earlier turn? (Modern American's rule of five and
    aces: wild cards join melds freely only in the side's opening turn, RULES.md §4C.)"""
    return state.opened[state.side_of(state.turn_seat)] and state.stage is None and not state.turn.opened_now


def _unfinished_wild_meld(rules: Rules, melds: Melds) -> bool:
    """Modern American: the side has a meld of wild cards short of a canasta, so its wild cards may go
    nowhere else (RULES.md §4C [CLA,P]) and it may not go out."""
    return rules.wild_meld_blocks_wilds and any(len(melds[k]) < 7 for k in group_keys(melds, JOKER_RANK))


def group_wilds(state: State, rank: int, twos: int, jokers: int) -> tuple[int, int]:
    """The twos and jokers a meld of ``rank`` may take this turn (sevens never, aces only in the opening
    turn, nothing while a wild meld is unfinished: RULES.md §4C)."""
    r = state.rules
    if rank in r.pure_ranks or (rank in r.pure_after_opening_ranks and after_opening_turn(state)):
        return 0, 0
    return twos, jokers


def pile_frozen_for(state: State, side: int) -> bool:
    r = state.rules
    return state.pile_frozen or r.pile_always_frozen or not state.opened[side]


def _take_blocked(state: State) -> str | None:
    """Why nobody may take the pile now, or None."""
    pile = state.pile
    if not pile:
        return "PILE_EMPTY"
    top = pile[-1]
    if is_wild(top):
        return "PILE_TOP_WILD"
    if top in BLACK_THREES:
        return "PILE_TOP_BLACK_THREE"
    if top in RED_THREES:
        return "PILE_TOP_RED_THREE"
    return None


def _max_opening_points(rules: Rules, rc: list[int], melds: dict[int, tuple[int, int]]) -> tuple[int, int]:
    """The most points melds from these hand counts can add, and how many cards that leaves.

    Greedy and exact for the card values of Classic: every meldable natural is melded, pairs are
    completed with one wild (best pairs first), and as many wilds as fit are added (jokers first).
    Black threes are never melded in an opening that does not go out."""
    pts = used = cap = 0
    pairs: list[tuple[int, int, int]] = []
    size_cap = rules.max_meld_size or 10**9
    for r in NATURAL_RANKS:
        n = rc[r]
        if r in melds:  # an existing meld takes more naturals and, even with none, more wild cards
            nat, wild = melds[r]
            room = max(0, size_cap - nat - wild)
            n = min(n, room)
            pts += n * RV[r]
            used += n
            cap += max(0, min(rules.max_wilds(nat + n) - wild, room - n))
            continue
        n = min(n, size_cap)
        if not n:
            continue
        if n >= rules.min_naturals and n >= 3:
            pts += n * RV[r]
            used += n
            cap += rules.max_wilds(n)
        elif n >= rules.min_naturals and rules.max_wilds(n) >= 3 - n:
            pairs.append((n * RV[r], rules.max_wilds(n) - (3 - n), n))
    wild_values = [50] * rc[0] + [20] * rc[2]
    pairs.sort(reverse=True)
    spare = len(wild_values)
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
    placed = len(wild_values) - spare + min(spare, cap)
    pts += sum(wild_values[:placed])
    used += placed
    return pts, sum(rc) - used


def _opening_reachable(rules: Rules, rc: list[int], melds: dict[int, tuple[int, int]], need: int,
                       keep: int) -> bool:
    """Can melds from these hand counts add ``need`` points while leaving ``keep`` cards?"""
    pts, left = _max_opening_points(rules, rc, melds)
    if pts < need:
        return False
    if left >= keep:
        return True
    # Exact for keep <= 2: some optimal opening leaves these cards out, so try each choice.
    ranks = [r for r in DISCARD_RANKS if rc[r]]
    for i, a in enumerate(ranks):
        rc[a] -= 1
        if keep == 1:
            ok = _max_opening_points(rules, rc, melds)[0] >= need
        else:
            ok = any(_try_without(rules, rc, melds, need, b) for b in ranks[i:])
        rc[a] += 1
        if ok:
            return True
    return False


def _try_without(rules: Rules, rc: list[int], melds: dict[int, tuple[int, int]], need: int, b: int) -> bool:
    if not rc[b]:
        return False
    rc[b] -= 1
    ok = _max_opening_points(rules, rc, melds)[0] >= need
    rc[b] += 1
    return ok


def _out_ok(state: State, canastas: int, points: int, melds: Melds | None = None,
            naturals: int | None = None) -> str | None:
    """Why the player may not go out now, or None (RULES.md §3.4 exception, §3.7).

    ``canastas`` and ``points`` (counted towards the minimum) are as they would be after the move, and
    so are ``melds`` where given (else the side's melds now). A side that has not opened has no older
    melds, so its going out is concealed whenever it has a canasta; D2 decides whether that waives the
    minimum. ``naturals`` is the count of natural canastas after the move (else counted in ``melds``)."""
    r = state.rules
    if canastas < r.canastas_to_go_out:
        return "NEED_CANASTA_TO_GO_OUT"
    if r.natural_canastas_to_go_out and (natural_canastas(
            state.melds[state.side_of(state.turn_seat)] if melds is None else melds)
            if naturals is None else naturals) < r.natural_canastas_to_go_out:
        return "NEED_NATURAL_CANASTAS"
    if state.turn.permission == "no":
        return "PERMISSION_REFUSED"
    if r.permission == "compulsory" and state.turn.permission != "yes":
        return "PERMISSION_REQUIRED"
    table = state.melds[state.side_of(state.turn_seat)] if melds is None else melds
    if _unfinished_wild_meld(r, table):
        return "WILD_MELD_UNFINISHED"
    opening = _opening_problem(state, table)
    if opening:
        return opening
    if points >= _need(state):
        return None
    source = state.turn.source
    waived = (r.concealed_waives_minimum == "always" and (source == "stock" or r.concealed_allows_pile)) or (
        r.concealed_waives_minimum == "stock_only" and source == "stock")
    return None if waived and canastas >= 1 else "BELOW_MINIMUM"


def _opening_canasta_ok(state: State, melds: Melds) -> bool:
    """Does an opening with these melds include what the rules ask of it? (See ``_opening_problem``.)"""
    return _opening_problem(state, melds) is None


def _opening_problem(state: State, melds: Melds) -> str | None:
    """What an opening with these melds lacks, or None: the canasta Brazilian asks for at this score
    (RULES.md §4B, GC-I14; a sequence canasta is natural), or the natural meld of three or more (or a meld
    of wild cards) Modern American asks for (RULES.md §4C, GC-I11)."""
    r = state.rules
    side = state.side_of(state.turn_seat)
    if state.opened[side]:
        return None
    if r.opening_canasta:
        kind = r.opening_canasta_needed(state.scores[state.turn_seat if r.cutthroat else side])
        if kind is not None and not any(len(m) >= 7 and (kind == "canasta" or not any(is_wild(c) for c in m))
                                        for m in melds.values()):
            return "OPENING_NEEDS_CANASTA"
    if r.opening_needs_meld != "none" and not any(
            (len(m) >= 3 and not any(is_wild(c) for c in m))
            or (r.opening_needs_meld == "natural_or_wild" and all(is_wild(c) for c in m))
            for m in melds.values()):
        return "OPENING_NEEDS_NATURAL_MELD"
    return None


def _twos_counts(meld: tuple[int, ...]) -> tuple[int, int]:
    """(naturals, wilds) of a meld of twos as a rank: the twos, and the jokers (Italian)."""
    jokers = meld.count(JOKER)
    return len(meld) - jokers, jokers


def _twos_meld_open(melds: Melds) -> bool:
    """Italian: the side has a meld of twos that is not yet a canasta (RULES.md §4B, GC-M19)."""
    return any(len(melds[k]) < 7 for k in group_keys(melds, TWO))


# --- Hand and Foot (RULES.md §4C): the foot, threes kept in the hand, natural canastas to go out ------------

def has_foot(state: State, seat: int) -> bool:
    """Has the seat a foot still to pick up? Emptying the hand then is not going out: the foot is picked up."""
    return bool(state.rules.foot_size) and any(state.feet[seat])


def natural_canastas(melds: Melds) -> int:
    """Canastas with no wild card (natural_canastas_to_go_out; a sequence is natural)."""
    return sum(1 for m in melds.values() if len(m) >= 7 and meld_counts(m)[1] == 0)


def _pick_up_foot(state: State, seat: int) -> State:
    """The seat's foot becomes its hand (the hand is empty); the pickup is public."""
    hands = list(state.hands)
    feet = list(state.feet)
    hands[seat], feet[seat] = feet[seat], (0,) * len(feet[seat])
    return state.replace(hands=tuple(hands), feet=tuple(feet), history=(*state.history, f"{seat} foot"))


def _hand_emptied(state: State, seat: int) -> State:
    """The seat's hand is empty after a meld or a take: he picks up his foot and plays on, or has gone out."""
    if has_foot(state, seat):
        return _pick_up_foot(state, seat)
    return _end_hand(state, seat)


# --- legal moves ------------------------------------------------------------------------------

def legal_moves(state: State) -> list[Move]:
    """Every legal move for ``state.to_move``, in a fixed order."""
    cached = state._legal
    if cached is None:
        cached = _generate(state)
        state.__dict__["_legal"] = cached
    return list(cached)


def _generate(state: State) -> list[Move]:
    phase = state.phase
    if phase == GAME_OVER:
        return []
    if phase == ANSWER_PHASE:
        return [YES, NO]
    if phase == DRAW_PHASE:
        if state.turn.permission == "acaba-yes":
            return [ACABA]
        moves = _take_moves(state)
        if state.stock:
            return [DRAW, *moves, *_acaba_moves(state)]
        if _take_forced(state, moves):
            return moves
        return [*moves, PASS, *_acaba_moves(state)]
    moves = _play_moves(state)
    if state.turn.permission == "acaba-yes":
        return [ACABA]
    if state.turn.permission == "yes" or state.turn.must_go_out:
        moves = _must_go_out(state, moves)
    return moves


def _take_forced(state: State, takes: list[Move]) -> bool:
    """Stock empty: must the player take the discard (RULES.md §3.8, D26)?"""
    if not takes:
        return False
    rule = state.rules.forced_take_after_stock
    if rule == "whenever_able":
        return True
    if rule == "never":
        return False
    side = state.side_of(state.turn_seat)
    return not pile_frozen_for(state, side) and any(m.naturals == 0 and m.twos == 0 and m.jokers == 0
                                                     for m in takes)


def _take_moves(state: State) -> list[Move]:
    if _take_blocked(state) is not None:
        return []
    r = state.rules
    p = state.turn_seat
    side = state.side_of(p)
    pile = state.pile
    hand = state.hands[p]
    hsize = sum(hand)
    if r.one_card_pile_rule and len(pile) == 1 and hsize == 1:
        return []
    top = pile[-1]
    rank = rank_of(top)
    if r.dead_ranks and rank in dead_ranks(state):
        return []
    rc = rank_counts(hand)
    n = rc[rank]
    melds = state.melds[side]
    opened = state.opened[side]
    if r.pile_needs_opened_side and not opened:
        return []
    if r.several_melds_per_rank:
        keys = group_keys(melds, rank)
    else:
        keys = [rank] if rank in melds else []
        if r.pile_blocked_for_canastas and keys and len(melds[rank]) >= 7:
            return []
    frozen = pile_frozen_for(state, side)
    pair: list[tuple[int, int, int]] = []
    if n >= 2:
        pair.append((2, 0, 0))
    if not frozen and n >= 1 and r.unfrozen_take_with_natural_plus_wild and not (r.natural_opening and not opened):
        if rc[TWO] and not (r.twos_as_rank and _twos_meld_open(melds)):
            pair.append((1, 1, 0))
        if rc[JOKER_RANK]:
            pair.append((1, 0, 1))
    adding = not frozen and r.unfrozen_take_by_adding
    # (meld key, the meld or None, naturals, twos, jokers from the hand)
    options: list[tuple[int, tuple[int, ...] | None, int, int, int]] = []
    for key in keys:
        cards = melds[key]
        options.extend((key, cards, *o) for o in pair)
        if adding and (r.take_onto_canasta or len(cards) < 7):
            options.append((key, cards, 0, 0, 0))
    if not keys or r.several_melds_per_rank:
        new = free_key(melds, rank)
        if new is not None:
            options.extend((new, None, *o) for o in pair)
    sequences: list[tuple[int, tuple[int, ...]]] = []
    if adding and r.sequences and rank >= SEQUENCE_LOW:
        first = sequence_key(top & 3)
        for key in range(first, first + SLOTS):
            run = melds.get(key)
            if run is None:
                break
            lo, hi = sequence_span(run)
            if len(run) < SEQUENCE_MAX and rank in (lo - 1, hi + 1):
                sequences.append((key, run))
    if not options and not sequences:
        return []
    canastas = _canastas(r, melds)
    need = _need(state)
    incoming = _incoming(r, pile)
    foot = has_foot(state, p)  # emptying the hand picks up the foot: no going out, no card to keep
    moves = []
    candidates: list[tuple[Move, tuple[int, ...] | None, int, int]] = [
        (Move("take", key, k, a, b), old, *(meld_counts(old) if old else (0, 0))) for key, old, k, a, b in options]
    candidates += [(Move("take", key, 0, 0, 0, rank), run, len(run), 0) for key, run in sequences]
    for move, meld, nat0, wild0 in candidates:
        k, a, b = move.naturals, move.twos, move.jokers
        nat, wild = nat0 + 1 + k, wild0 + a + b
        size0 = len(meld) if meld is not None else 0
        size = size0 + 1 + k + a + b
        if not move.low and (not r.meld_ok(nat, wild) or size < 3 or (r.max_meld_size and size > r.max_meld_size)):
            continue
        base = RV[rank] * (k + r.top_card_counts) + 20 * a + 50 * b
        after = hsize - k - a - b + incoming
        c2 = _canastas_after(r, melds, canastas, move.rank, size0, size)
        if not opened and base < need:
            rc2 = list(rc)
            rc2[rank] -= k
            rc2[TWO] -= a
            rc2[JOKER_RANK] -= b
            keep = 0 if foot else max(0, 2 - incoming)
            melds_nw = {} if move.low else {rank: (nat, wild)}
            if not _reachable(state, move, rc2, melds_nw, need - base, keep) and not (
                    # ... or the opening goes out at once (rare: a pile of one or two cards)
                    keep and _opening_reachable(r, rc2, melds_nw, need - base, 0)
                    and _opening_path(_take(state, move, ()), state.hand_number, {})) and not (
                    _concealed_take_waived(r) and can_go_out(_take(state, move, (), True))):
                continue
        elif not foot and after <= 1 and not _take_goes_out(state, move, after, c2, base):
            continue
        moves.append(move)
    return moves


def _take_goes_out(state: State, move: Move, after: int, canastas: int, points: int) -> bool:
    """A take that leaves ``after`` (0 or 1) cards in the hand must let the player go out: with none left
    (not where going out needs a discard), or by melding or discarding the one left."""
    r = state.rules
    if after == 1:
        return can_go_out(_take(state, move, ()))
    melds = _melds_after(state, move) if r.natural_canastas_to_go_out else None
    return not r.go_out_needs_discard and _out_ok(state, canastas, points, melds) is None


def _reachable(state: State, move: Move, rc: list[int], melds: dict[int, tuple[int, int]], need: int,
               keep: int) -> bool:
    """After an unopened side's take: can the hand still reach the minimum?"""
    hand = list(state.hands[state.turn_seat])
    _move_cards(hand, move)  # the cards the take shows leave the hand
    return _reachable_from(state.rules, lambda: _take(state, move, ()), hand, rc, melds, need, keep,
                           _required_canasta(state))


def _reachable_from(r: Rules, after: Callable[[], State], hand: list[int] | tuple[int, ...], rc: list[int],
                    melds: dict[int, tuple[int, int]], need: int, keep: int, canasta: str | None = None,
                    seen: dict[Any, bool] | None = None) -> bool:
    """Can melds from this hand add ``need`` points keeping ``keep`` cards (and show the ``canasta`` a
    Brazilian opening needs)? The greedy bound decides for groups; where sequences, Italian's natural
    openings or an opening canasta give other ways or conditions, a search over the meld moves of the
    position ``after()`` decides what quick bounds cannot."""
    if r.natural_opening:
        rc = list(rc)
        rc[TWO] = rc[JOKER_RANK] = 0
    # Modern American's limits (pure sevens, a wild meld that blocks wild cards, a natural meld required)
    # make the greedy count only a bound: the search decides.
    restricted = bool(r.pure_ranks or r.wild_meld_blocks_wilds or r.opening_needs_meld != "none")
    if canasta is None and not restricted and _opening_reachable(r, rc, melds, need, keep):
        return True
    if not (r.sequences or r.twos_as_rank or canasta or restricted):
        return False
    bound = (_max_opening_points(r, rc, melds)[0] + 20 * rc[TWO] * r.twos_as_rank
             + _sequence_points_bound(hand, {key_suit(k) for k in melds if is_sequence_key(k)})
             # a second (third ...) meld of a rank can take wild cards the quick count does not place
             + (20 * rc[TWO] + 50 * rc[JOKER_RANK]) * r.several_melds_per_rank)
    if bound < need or (canasta and not _canasta_possible(r, hand, melds, canasta == "natural")):
        return False
    position = after()
    return _opening_path(position, position.hand_number, {} if seen is None else seen)


def _required_canasta(state: State) -> str | None:
    """The kind of canasta ("canasta" or "natural") the turn's side must still show to open, or None."""
    r = state.rules
    side = state.side_of(state.turn_seat)
    if not r.opening_canasta or state.opened[side]:
        return None
    return r.opening_canasta_needed(state.scores[state.turn_seat if r.cutthroat else side])


def _canasta_possible(r: Rules, hand: list[int] | tuple[int, ...], melds: dict[int, tuple[int, int]],
                      natural: bool) -> bool:
    """Could this hand make a canasta at all (a quick necessary condition for Brazilian openings)?"""
    rc = rank_counts(tuple(hand))
    wilds = 0 if natural else rc[TWO] + rc[JOKER_RANK]
    for rank in NATURAL_RANKS:
        nat, wild = melds.get(rank, (0, 0))
        if nat + wild + rc[rank] + min(wilds, max(0, r.max_wilds(nat + rc[rank]) - wild)) >= 7 and (
                not natural or not wild):
            return True
    if not natural and r.wild_melds and wilds + melds.get(JOKER_RANK, (0, 0))[1] >= 7:
        return True
    if r.sequences:
        for suit in range(4):
            run = 0
            for rank in range(SEQUENCE_LOW, 15):
                run = run + 1 if hand[(rank - 2) * 4 + suit] else 0
                if run >= SEQUENCE_MAX:
                    return True
    return False


def _sequence_points_bound(hand: list[int] | tuple[int, ...], table_suits: set[int] | frozenset[int] = frozenset()
                           ) -> int:
    """At most how many points sequences could add from this hand: the cards with a suited neighbour in the
    hand, and every card of a suit in which the side already has a sequence (it may extend it)."""
    total = 0
    for suit in range(4):
        for rank in range(SEQUENCE_LOW, 15):
            below = rank > SEQUENCE_LOW and hand[(rank - 3) * 4 + suit]
            above = rank < 14 and hand[(rank - 1) * 4 + suit]
            if hand[(rank - 2) * 4 + suit] and (below or above or suit in table_suits):
                total += RV[rank]
    return total


SEARCH_LIMIT = 2000  # positions an opening search may visit before it gives up (and says no)


def _opening_path(state: State, hand_number: int, seen: dict[Any, bool]) -> bool:
    """Can meld moves from here complete the opening (the minimum, and any canasta the rules ask for) or
    go out? An exhaustive search, used only where the greedy bound cannot decide. It follows the meld
    moves without the after-withdraw filter (that filter is this very question), and gives up with "no"
    after SEARCH_LIMIT positions: a move is then refused rather than risk a turn with no way to end."""
    if state.hand_number != hand_number or state.phase == GAME_OVER or state.stage is None:
        return True
    stage = state.stage
    side = state.side_of(state.turn_seat)
    melds = state.melds[side]
    if stage.pending is None and stage.points >= _need(state) and _opening_canasta_ok(state, melds):
        return True
    key = (state.hands[state.turn_seat], tuple(sorted((k, len(m)) for k, m in melds.items())))
    if key not in seen:
        if len(seen) >= SEARCH_LIMIT:
            return False
        seen[key] = False
        seen[key] = any(_opening_path(_apply(state, m), hand_number, seen)
                        for m in _play_moves(state, reachable_only=False) if m.action == "meld")
    return seen[key]


def _pile_split(rules: Rules, pile: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(the cards a taker gets, top card last; the cards left as the pile) under pile_take_limit."""
    limit = rules.pile_take_limit
    if limit and len(pile) > limit:
        return pile[-limit:], pile[:-limit]
    return pile, ()


def _incoming(rules: Rules, pile: tuple[int, ...]) -> int:
    """How many cards taking the pile puts into the hand (the top card is melded; red threes, and
    black threes under pile_black_threes="bonus", are laid out instead)."""
    taken = _pile_split(rules, pile)[0][:-1]
    reds = laid_out_threes(rules)
    aside = reds if rules.pile_black_threes == "hand" else (*reds, *BLACK_THREES)
    return sum(1 for c in taken if c not in aside)


def _freezes(rules: Rules, card: int) -> bool:
    return is_wild(card) or card in RED_THREES or (rules.black_three_freezes and card in BLACK_THREES)


def _play_moves(state: State, reachable_only: bool = True) -> list[Move]:
    r = state.rules
    p = state.turn_seat
    side = state.side_of(p)
    rc = rank_counts(state.hands[p])
    hsize = sum(rc)
    melds = state.melds[side]
    turn = state.turn
    stage = state.stage
    pending = stage.pending if stage is not None else None
    opened = state.opened[side]
    need = _need(state)
    pts = stage.points if stage is not None else 0
    canastas = _canastas(r, melds)
    caps = r.wild_caps
    min_nat = r.min_naturals
    size_cap = r.max_meld_size or 10**9
    twos, jokers = rc[TWO], rc[JOKER_RANK]
    if r.natural_opening and not opened:  # Italian: the opening holds no wild cards (RULES.md §4B)
        twos = jokers = 0
    elif r.twos_as_rank and _twos_meld_open(melds):  # twos are a rank of their own while that meld grows
        twos = 0
    if _unfinished_wild_meld(r, melds):  # wild cards go only to the wild meld (Modern American)
        twos = jokers = 0
    has_wilds = twos or jokers
    several = r.several_melds_per_rank
    no_wild_on_canasta = not r.wilds_onto_canasta
    five = r.rule_of_five if r.rule_of_five and after_opening_turn(state) else 0
    dead = dead_ranks(state) if r.dead_ranks else ()
    special = bool(r.pure_ranks or r.pure_after_opening_ranks)
    foot = has_foot(state, p)
    moves: list[Move] = []
    add = moves.append

    def end_ok(after: int, pts2: int, c2: int, move: Move) -> bool:
        """May the turn go on (or end by going out) with ``after`` cards left in hand?"""
        if pending is not None:
            if pts2 < need:
                return True  # still opening: withdraw rescues any dead end
            after += len(pending)
        if after >= 2 or (after == 1 and turn.no_discard):
            return True
        if foot:  # into the foot, not out: the opening must stand first (a withdraw rescues one card left)
            return opened or pts2 >= need or (after == 1 and not turn.withdrew)
        if after == 0:
            if r.go_out_needs_discard:  # going out needs a final discard (Modern American, GC-G07)
                return False
            return _out_ok(state, c2, pts2, _melds_after(state, move) if r.opening_canasta
                           or r.natural_canastas_to_go_out else None) is None
        # One card left: he must go out with it, by discarding it or by melding it (which may finish
        # the canasta he still needs).
        return can_go_out(_apply(state, move))

    def group_moves(key: int, rank: int, meld: tuple[int, ...] | None, n: int, twos: int, jokers: int) -> None:
        if meld is None:
            nat0 = wild0 = size0 = 0
            k_lo = min_nat
        else:
            nat0, wild0 = meld_counts(meld) if rank != TWO else _twos_counts(meld)
            size0 = len(meld)
            k_lo = 0
            if size0 >= 7 and no_wild_on_canasta:
                twos = jokers = 0
        value = RV[rank]
        for k in range(k_lo, n + 1):
            cap = caps[nat0 + k] - wild0
            if nat0 + k < five or cap < 0:  # the rule of five (Modern American, RULES.md §4C)
                cap = 0
            for a in range((twos if twos < cap else cap) + 1):
                room = cap - a
                for b in range((jokers if jokers < room else room) + 1):
                    cnt = k + a + b
                    size = size0 + cnt
                    if cnt == 0 or size < 3 or size > size_cap:
                        continue
                    after = hsize - cnt
                    if after >= 2 and pending is None:
                        add(_new_move(Move, ("meld", key, k, a, b, 0, -1)))
                    else:
                        move = _new_move(Move, ("meld", key, k, a, b, 0, -1))
                        pts2 = pts + k * value + 20 * a + 50 * b
                        if end_ok(after, pts2, _canastas_after(r, melds, canastas, key, size0, size), move):
                            add(move)

    for rank in NATURAL_RANKS:
        n = rc[rank]
        if not several:
            meld = melds.get(rank)
            if (meld is None and n < min_nat) or (meld is not None and not n and not has_wilds) or rank in dead:
                continue
            if special:
                group_moves(rank, rank, meld, n, *group_wilds(state, rank, twos, jokers))
            else:
                group_moves(rank, rank, meld, n, twos, jokers)
            continue
        if not n and not has_wilds:
            continue
        for key in group_keys(melds, rank):
            group_moves(key, rank, melds[key], n, twos, jokers)
        new = free_key(melds, rank)
        if n >= min_nat and new is not None:
            group_moves(new, rank, None, n, twos, jokers)
    if r.twos_as_rank and rc[TWO]:  # Italian: twos melded as a rank, jokers as their wild cards
        keys = group_keys(melds, TWO) if several else [TWO] if TWO in melds else []
        new = free_key(melds, TWO) if several or not keys else None
        for key in keys:
            group_moves(key, TWO, melds[key], rc[TWO], 0, jokers)
        if new is not None and rc[TWO] >= min_nat:
            group_moves(new, TWO, None, rc[TWO], 0, jokers)
    if r.sequences:
        _sequence_moves(state, melds, pts, canastas, hsize, end_ok, add)
    if several and pending is None:
        moves.extend(_combine_moves(r, melds))
    if r.wild_melds and (rc[TWO] or rc[JOKER_RANK]):
        twos, jokers = rc[TWO], rc[JOKER_RANK]
        if r.natural_opening and not opened:
            twos = jokers = 0
        if r.twos_as_rank:
            twos = 0
        keys = group_keys(melds, JOKER_RANK)
        new = free_key(melds, JOKER_RANK) if several or not keys else None
        for key in [*keys, *([new] if new is not None else [])]:
            size0 = len(melds.get(key, ()))
            smallest = 1 if size0 else 3
            for a in range(twos + 1):
                for b in range(jokers + 1):
                    size = size0 + a + b
                    if a + b < smallest or size > r.wild_meld_max:
                        continue
                    move = _new_move(Move, ("meld", key, 0, a, b, 0, -1))
                    c2 = _canastas_after(r, melds, canastas, key, size0, size)
                    if end_ok(hsize - a - b, pts + 20 * a + 50 * b, c2, move):
                        add(move)
    if rc[THREE] >= 3 and THREE not in melds and pending is None and r.black_threes_meldable and not foot:
        for k in range(3, rc[THREE] + 1):  # only as part of going out (RULES.md §3.3)
            move = Move("meld", THREE, k)
            if (hsize - k == 0 and _out_ok(state, canastas, pts + 5 * k) is None) or (
                    hsize - k == 1 and can_go_out(_apply(state, move))):
                moves.append(move)
    if turn.withdrew and not opened and reachable_only:
        shared: dict[Any, bool] = {}  # one search budget for all the candidates: quick, and a "yes" is sure
        kept = [m for m in moves if m.action != "meld" or _still_reachable(state, m, shared)]
        if not any(m.action == "meld" for m in kept) and stage is not None and not (
                pts >= need and _opening_canasta_ok(state, melds)):
            # Nothing admitted and the turn cannot end: the shared budget may have hidden the way on that
            # admitted the last meld, so each candidate gets a budget of its own and that way is found again.
            kept = [m for m in moves if m.action != "meld" or _still_reachable(state, m, {})]
        moves = kept
    if pending is None:
        staged_ok = opened or stage is None or (pts >= need and _opening_canasta_ok(state, melds))
        if turn.no_discard:
            if staged_ok:
                moves.append(PASS)
        elif hsize >= 2 or foot:  # with a foot the last card's discard picks the foot up
            if staged_ok:
                moves.extend(_discards(state, rc, hsize))
        elif _out_ok(state, canastas, pts) is None:  # the last card: going out, maybe concealed
            moves.extend(_discards(state, rc, hsize))
        elif not state.stock and not any(m.action == "meld" for m in moves):
            # The last stock card was a red three, not replaced (last_card_red_three=no_replace), and the
            # one card held may not go out: nothing is left to play, so the hand ends (sources silent).
            moves.append(PASS)
    if r.partnerships and turn.permission is None and hsize >= 2 and not foot and (
            (r.permission == "optional_binding" and not turn.melded and stage is None)
            or (r.permission == "compulsory" and pending is None)) and not (
            r.permission_once and f"{p} ask" in state.history):  # once a hand (Modern American [P])
        # With one card left a "no" would leave no legal move: he could only go out. Where asking is
        # compulsory (Brazilian) it may come after melding: going out needs the "yes".
        moves.append(ASK)
    if stage is not None and stage.points > stage.base and not turn.withdrew:
        moves.append(WITHDRAW)
    if r.keeps_a_three and stage is None and (rc[1] or rc[THREE]) and (state.stock or hsize > 1):
        moves.append(LAYOUT)  # the kept three, laid out when the player likes (not amid a staged opening)
    if r.special_hands and hsize == SPECIAL_HAND_SIZE and not opened and stage is None and turn.source == "stock":
        name = special_hand_of(r, cards_of(state.hands[p]))  # Modern American (RULES.md §4C, GC-S20)
        if name is not None:
            moves.append(Move("declare", SPECIAL_HAND_NAMES.index(name)))
    if pending is None:
        moves.extend(_acaba_moves(state))
    return moves


def _combine_moves(r: Rules, melds: Melds) -> list[Move]:
    """Two melds of one rank may be combined (RULES.md §4B Samba [H]): a later one into an earlier one,
    when the result keeps the wild-card limits (and, where wild cards may not join a canasta, no wild
    card meets a finished canasta)."""
    moves = []
    for rank in (JOKER_RANK, TWO, *NATURAL_RANKS):
        keys = group_keys(melds, rank)
        for i, target in enumerate(keys):
            for source in keys[i + 1:]:
                a, b = melds[target], melds[source]
                (n1, w1), (n2, w2) = (_twos_counts(a), _twos_counts(b)) if rank == TWO else (
                    meld_counts(a), meld_counts(b))
                size = len(a) + len(b)
                if rank == JOKER_RANK:
                    ok = size <= r.wild_meld_max
                else:
                    ok = r.meld_ok(n1 + n2, w1 + w2) and not (r.max_meld_size and size > r.max_meld_size)
                if not r.wilds_onto_canasta and ((len(a) >= 7 and w2) or (len(b) >= 7 and w1)):
                    ok = False
                if ok:
                    moves.append(Move("combine", target, low=source))
    return moves


def _sequence_moves(state: State, melds: Melds, pts: int, canastas: int, hsize: int,
                    end_ok: Callable[[int, int, int, Move], bool], add: Callable[[Move], None]) -> None:
    """Sequence melds (RULES.md §4B Samba): a new sequence of 3 to 7 consecutive cards of one suit from 4
    to the ace, or a block of consecutive cards added at one end of a sequence shorter than 7."""
    r = state.rules
    hand = state.hands[state.turn_seat]
    for suit in range(4):
        have = [False] * 16
        for rank in range(SEQUENCE_LOW, 15):
            have[rank] = hand[(rank - 2) * 4 + suit] > 0
        if not any(have):
            continue
        first = sequence_key(suit)
        for key in range(first, first + SLOTS):
            if key not in melds:
                break
            meld = melds[key]
            size0 = len(meld)
            past = size0 >= SEQUENCE_MAX  # only when going out (Brazilian), else nothing more
            if past and not r.sequence_extends_going_out:
                continue
            room = 14 if past else SEQUENCE_MAX - size0
            lo, hi = sequence_span(meld)
            blocks = []
            for k in range(1, room + 1):
                if lo - k < SEQUENCE_LOW or not have[lo - k]:
                    break
                blocks.append((lo - k, k))
            for k in range(1, room + 1):
                if hi + k > 14 or not have[hi + k]:
                    break
                blocks.append((hi + 1, k))
            for low, k in blocks:
                if past:
                    move = Move("meld", key, k, 0, 0, low)
                    after = _apply(state, move)
                    if after.hand_number != state.hand_number or after.phase == GAME_OVER or can_go_out(after):
                        add(move)
                else:
                    _sequence_move(r, melds, key, low, k, size0, pts, canastas, hsize, end_ok, add)
        new = free_key(melds, first)
        if new is None:
            continue
        for low in range(SEQUENCE_LOW, 13):
            for k in range(1, SEQUENCE_MAX + 1):
                if low + k - 1 > 14 or not have[low + k - 1]:
                    break
                if k >= 3:
                    _sequence_move(r, melds, new, low, k, 0, pts, canastas, hsize, end_ok, add)


def _sequence_move(r: Rules, melds: Melds, key: int, low: int, k: int, size0: int, pts: int, canastas: int,
                   hsize: int, end_ok: Callable[[int, int, int, Move], bool], add: Callable[[Move], None]) -> None:
    move = Move("meld", key, k, 0, 0, low)
    pts2 = pts + sum(RV[x] for x in range(low, low + k))
    if end_ok(hsize - k, pts2, _canastas_after(r, melds, canastas, key, size0, size0 + k), move):
        add(move)


def _move_cards(hand: list[int], m: Move) -> list[int]:
    """Take from ``hand`` (changed in place) the cards a meld or take move shows; returned in order."""
    cards: list[int] = []
    key = m.rank
    if is_sequence_key(key):
        if m.action == "meld":
            suit = key_suit(key)
            for rank in range(m.low, m.low + m.naturals):
                kind = (rank - 2) * 4 + suit
                if not hand[kind]:
                    raise AssertionError("engine took cards the hand does not hold")
                hand[kind] -= 1
                cards.append(kind)
        return cards
    _take_cards(hand, key_rank(key), m.naturals, cards)
    _take_cards(hand, TWO, m.twos, cards)
    _take_cards(hand, JOKER_RANK, m.jokers, cards)
    return cards


def _melds_after(state: State, m: Move) -> Melds:
    """The side's melds after a meld move (without applying the rest of it)."""
    melds = dict(state.melds[state.side_of(state.turn_seat)])
    cards = _move_cards(list(state.hands[state.turn_seat]), m)
    if m.action == "take":
        cards.append(state.pile[-1])
    melds[m.rank] = tuple(sorted((*melds.get(m.rank, ()), *cards)))
    return melds


def _still_reachable(state: State, move: Move, seen: dict[Any, bool]) -> bool:
    """After a withdraw there is no second one: a staged meld must leave the minimum reachable (while
    keeping a card to discard and one to hold, counting a pending pile), or go out outright."""
    after = _apply(state, move)
    if after.hand_number != state.hand_number or after.phase == GAME_OVER:
        return True
    stage = after.stage
    if stage is None:  # a pending pile was picked up: the side has opened
        return True
    need = _need(after) - stage.points
    side = after.side_of(after.turn_seat)
    if need <= 0 and _opening_canasta_ok(after, after.melds[side]):
        return True
    melds = {x: meld_counts(m) for x, m in after.melds[side].items()}
    hand = after.hands[after.turn_seat]
    rc = rank_counts(hand)
    keep = 2 if stage.pending is None else max(0, 2 - len(stage.pending))
    return _reachable_from(after.rules, lambda: after, hand, rc, melds, need, keep, _required_canasta(after), seen) or (
        stage.pending is not None and keep > 0 and _opening_path(after, after.hand_number, seen))


def _discards(state: State, rc: list[int], hsize: int) -> list[Move]:
    """The discards allowed from these counts: a card a rule forbids may still go when nothing else can."""
    r = state.rules
    banned = set()
    if not r.jokers_discardable:
        banned.add(JOKER_RANK)
    if r.swad and not state.pile:  # CLA: no seven, wild card, ace or dead card onto an empty pile
        banned.update((7, 14, TWO, JOKER_RANK, *dead_ranks(state)))
    if r.threes_laid_out == "all":  # threes are never discarded (Modern American): a kept one is laid out
        moves = [m for x, m in DISCARDS if rc[x] and x != THREE and x not in banned]
        return moves or [m for x, m in DISCARDS if rc[x] and x != THREE]
    if not r.black_three_first_round_discard and sum(
            1 for h in state.history if " discard " in h) < r.players:
        banned.add(THREE)
    if r.sequences:  # suits matter: a natural is discarded as a card of one suit
        hand = state.hands[state.turn_seat]
        allowed = [Move("discard", x, suit=s) if x >= 4 else m for x, m in DISCARDS if rc[x] and x not in banned
                   for s in (range(4) if x >= 4 else (-1,)) if x < 4 or hand[(x - 2) * 4 + s]]
        return (allowed or [m for x, m in DISCARDS if rc[x]]) + _red_three_discards(state, rc)
    moves = [m for x, m in DISCARDS if rc[x] and x not in banned]
    return (moves or [m for x, m in DISCARDS if rc[x]]) + _red_three_discards(state, rc)


def _red_three_discards(state: State, rc: list[int]) -> list[Move]:
    """Red threes held (threes_laid_out="none") are discarded as the card itself: ``discard 3H``."""
    if not rc[1]:
        return []
    hand = state.hands[state.turn_seat]
    return [Move("discard", 1, suit=k & 3) for k in RED_THREES if hand[k]]


def _acaba_moves(state: State) -> list[Move]:
    """Acaba (RULES.md §4A): call it in one's own turn, asking the partner first if one likes."""
    r = state.rules
    if not r.acaba:
        return []
    answer = state.turn.permission
    if answer == "acaba-yes":
        return [ACABA]
    moves = [] if answer == "acaba-no" else [ACABA]
    if answer is None and r.partnerships:
        moves.append(ASK_ACABA)
    return moves


def can_go_out(state: State) -> bool:
    """Can the player whose turn it is go out this turn from here (after drawing)?

    Exact for Classic: for each choice of final discard (or none), every natural rank must be
    meldable, the wild cards must fit the melds' wild limits, enough canastas must be possible, and
    the opening (if any) must be met or waived. Exact too for Hand and Foot's natural canastas among
    groups (``_out_with``); with sequences they are not counted here (no preset combines the two). A
    player who still has a foot cannot go out: emptying his hand picks the foot up."""
    if state.phase != PLAY_PHASE or state.turn.permission == "no" or state.turn.no_discard:
        return False
    stage = state.stage
    if stage is not None and stage.pending is not None:
        return False
    p = state.turn_seat
    if has_foot(state, p):  # emptying the hand only picks up the foot
        return False
    side = state.side_of(p)
    r = state.rules
    hand = state.hands[p]
    rc = rank_counts(hand)
    if r.natural_opening and not state.opened[side] and rc[TWO] + rc[JOKER_RANK] > 1:
        return False  # the opening holds no wild cards, and only one card can be discarded
    melds = state.melds[side]
    if not state.opened[side] and _opening_problem(state, melds) == "OPENING_NEEDS_NATURAL_MELD":
        return False  # Modern American: an estimate on the safe side (going out while opening is rare)
    info = {x: (*meld_counts(m), len(m)) for x, m in melds.items()}
    sizes = None if r.plain_canasta_count else {x: len(m) for x, m in melds.items()}
    base = canasta_count(melds)
    pts0 = stage.points if stage is not None else 0
    if r.twos_as_rank and _twos_meld_open(melds):  # the twos can only join the meld of twos
        pts0 += 20 * rc[TWO]
        hand = tuple(0 if k < 4 else n for k, n in enumerate(hand))
        rc[TWO] = 0
    if rc[1] or (rc[THREE] and r.threes_laid_out == "all"):
        # A kept three (Modern American) is never discarded: it must be laid out first. A red three held
        # (Hand and Foot) can only be the final discard, so just one may be left.
        if r.threes_laid_out == "all" or rc[1] > 1:
            return False
        rc[1] = 0
        return _out_with(state, rc, info, sizes, base, pts0)
    if r.sequences:  # the discard is a card of a suit: try each kind
        all_sizes = {x: len(m) for x, m in melds.items()}
        for kind in (None, *(k for k in range(53) if hand[k])):
            rest = list(hand)
            if kind is not None:
                rest[kind] -= 1
            if _out_with_sequences(state, tuple(rest), rank_counts(tuple(rest)), info, all_sizes, pts0):
                return True
        return False
    for d in (None, *(x for x in DISCARD_RANKS if rc[x])):
        if d is None and r.go_out_needs_discard:
            continue
        if d is not None:
            rc[d] -= 1
        ok = _out_with(state, rc, info, sizes, base, pts0)
        if d is not None:
            rc[d] += 1
        if ok:
            return True
    return False


def _out_with_sequences(state: State, hand: tuple[int, ...], rc: list[int],
                        info: dict[int, tuple[int, int, int]], sizes: dict[int, int], pts0: int) -> bool:
    """``_out_with`` where naturals may also go into sequences: try each way of placing the hand's suited
    runs (a new sequence per suit, blocks added to the side's sequences), then place the rest in groups."""
    melds = state.melds[state.side_of(state.turn_seat)]
    per_suit = []
    for suit in range(4):
        runs = [(key, *sequence_span(m), len(m)) for key, m in melds.items()
                if is_sequence_key(key) and key_suit(key) == suit]
        per_suit.append(_suit_placements(hand, suit, runs))
    rest = list(rc)

    def place(suit: int, sizes2: dict[int, int], pts: int) -> bool:
        if suit == 4:
            return all(x >= 0 for x in rest) and _out_with(state, rest, info, sizes2, 0, pts)
        for used, grown, points in per_suit[suit]:
            for rank in used:
                rest[rank] -= 1
            ok = place(suit + 1, {**sizes2, **grown} if grown else sizes2, pts + points)
            for rank in used:
                rest[rank] += 1
            if ok:
                return True
        return False

    return place(0, sizes, pts0)


def _suit_placements(hand: tuple[int, ...], suit: int, runs: list[tuple[int, int, int, int]]
                     ) -> list[tuple[list[int], dict[int, int], int]]:
    """Ways to place one suit's cards in sequences: (ranks used, meld sizes by key, points). Each of the
    side's sequences may grow at either end, and one new sequence may be started."""
    have = [0] * 16
    for rank in range(SEQUENCE_LOW, 15):
        have[rank] = hand[(rank - 2) * 4 + suit]
    options: list[tuple[list[int], dict[int, int], int]] = [([], {}, 0)]
    for key, lo, hi, size in runs:
        grown = []
        for down in range(SEQUENCE_MAX - size + 1):
            if down and (lo - down < SEQUENCE_LOW or not have[lo - down]):
                break
            for up in range(SEQUENCE_MAX - size - down + 1):
                if up and (hi + up > 14 or not have[hi + up]):
                    break
                if down or up:
                    used = [*range(lo - down, lo), *range(hi + 1, hi + up + 1)]
                    grown.append((used, {key: size + down + up}, sum(RV[x] for x in used)))
        options += [(u1 + u2, {**g1, **g2}, p1 + p2) for u1, g1, p1 in options for u2, g2, p2 in grown]
    new_key = sequence_key(suit, len(runs))
    starts = []
    for low in range(SEQUENCE_LOW, 13):
        for k in range(1, SEQUENCE_MAX + 1):
            if low + k - 1 > 14 or not have[low + k - 1]:
                break
            if k >= 3:
                used = list(range(low, low + k))
                starts.append((used, {new_key: k}, sum(RV[x] for x in used)))
    options += [(u1 + u2, {**g1, **g2}, p1 + p2) for u1, g1, p1 in options for u2, g2, p2 in starts]
    return options


def _out_with(state: State, rc: list[int], info: dict[int, tuple[int, int, int]], sizes: dict[int, int] | None,
              base_canastas: int, pts0: int) -> bool:
    """Can these hand counts all be melded in groups onto the side's melds ``info``, leaving enough
    canastas and the minimum met? ``sizes`` (meld sizes by key) is given where the kind of canasta
    matters for going out (``out_canastas``); else ``base_canastas`` counts the side's canastas."""
    r = state.rules
    blacks = rc[THREE]
    if blacks and (blacks < 3 or THREE in info or not r.black_threes_meldable):
        return False
    if r.dead_ranks and any(rc[x] for x in dead_ranks(state)):
        return False
    five = r.rule_of_five if r.rule_of_five and after_opening_turn(state) else 0
    size_cap = r.max_meld_size or 10**9
    need_w = cap_w = 0
    growth: list[tuple[int, int]] = []  # (cards still short of a canasta, spare wild capacity)
    canastas = base_canastas
    if sizes is not None:
        sizes = dict(sizes)
    want_nat = r.natural_canastas_to_go_out
    nat_caps: list[int] = []  # wild room of the melds that end as natural canastas if no wild joins them
    points = pts0 + 5 * blacks + 20 * rc[TWO] + 50 * rc[JOKER_RANK]
    for x in NATURAL_RANKS:
        n = rc[x]
        if x in info:
            nat, wild, size = info[x]
            need, cap = 0, r.max_wilds(nat + n) - wild
            was_canasta = size >= 7
            if was_canasta and not r.wilds_onto_canasta:
                cap = 0
        elif not n:
            continue
        elif n < r.min_naturals:
            return False
        else:
            nat, wild, size = 0, 0, 0
            need, cap = max(0, 3 - n), r.max_wilds(n)
            was_canasta = False
        if (nat + n < five or x in r.pure_ranks
                or (x in r.pure_after_opening_ranks and after_opening_turn(state))):
            cap = 0  # Modern American: no wild cards here (RULES.md §4C)
        size += n
        if size + need > size_cap or cap < need:
            return False
        cap = min(cap, size_cap - size)
        points += n * RV[x]
        need_w += need
        if want_nat and wild == 0 and need == 0 and size >= 7:
            nat_caps.append(cap)  # room counted below, only in the natural canastas the side can spare
        else:
            cap_w += cap
        if sizes is not None:
            sizes[x] = size + need  # the meld of that rank (a new one takes the first slot, x)
        if was_canasta:
            continue
        short = 7 - size - need
        if short <= 0:
            canastas += 1
        else:
            growth.append((short, cap - need))
    spare = rc[TWO] + rc[JOKER_RANK] - need_w
    if spare < 0:
        return False
    if want_nat:  # exact: the spared natural canastas (most room first) take wild cards and stay canastas
        if len(nat_caps) < want_nat:
            return False
        cap_w += sum(sorted(nat_caps, reverse=True)[want_nat:])
    if sizes is not None:
        canastas = out_canastas(r, sizes)
    # Wild cards the natural melds cannot hold may form (or join) a meld of wild cards.
    options = [0]
    if r.wild_melds:
        wild_size = info[JOKER_RANK][2] if JOKER_RANK in info else 0
        lo = 1 if wild_size else 3
        options += [x for x in range(lo, r.wild_meld_max - wild_size + 1) if x <= spare]
        if r.wild_meld_blocks_wilds:  # a wild meld must be finished to go out, before wilds go elsewhere
            options = [x for x in options if wild_size + x in (0, 7)]
    else:
        wild_size = 0
    best = -1
    for x in options:
        rest = spare - x
        if rest > cap_w:
            continue
        count = canastas
        if wild_size < 7 <= wild_size + x:
            count = out_canastas(r, {**sizes, JOKER_RANK: wild_size + x}) if sizes is not None else count + 1
        for short, room in sorted(growth):
            if short <= room and short <= rest:
                rest -= short
                count += 1
        if sizes is not None and r.go_out_needs_sequence and not any(
                v >= 7 and is_sequence_key(k) for k, v in sizes.items()):
            count = min(count, r.canastas_to_go_out - 1)  # groups growing are no sequence
        best = max(best, count)
    if best < r.canastas_to_go_out:
        return False
    return _out_ok(state, best, points, naturals=want_nat) is None


def _must_go_out(state: State, moves: list[Move]) -> list[Move]:
    """After the partner said yes the player must go out (RULES.md §3.7). If he cannot (the
    sources are silent on this), the obligation lapses and he plays on."""
    if not can_go_out(state):
        return moves
    hsize = sum(state.hands[state.turn_seat])
    keep = []
    for m in moves:
        if m.action == "discard":
            if hsize == 1:
                keep.append(m)
        elif m.action == "meld":
            after = _apply(state, m)
            if after.hand_number != state.hand_number or after.phase == GAME_OVER or can_go_out(after):
                keep.append(m)
    # can_go_out is exact for groups; where sequences or twos melds make it an estimate and no move
    # keeps the way out open, the obligation lapses as above rather than leave no move at all.
    return keep or moves


# --- applying moves ---------------------------------------------------------------------------

def apply(state: State, move: Move | str) -> State:
    """The state after ``move`` (a Move or its notation); raises ``IllegalMove`` (with a code) if the
    move is not legal here, ``ValueError`` if the notation does not parse."""
    if not isinstance(move, Move):
        if not isinstance(move, str):
            raise TypeError(f"apply wants a Move or move notation, got {type(move).__name__}")
        from . import parse_move

        move = parse_move(state, move)
    legal = state._legal_set
    if legal is None:
        legal = frozenset(legal_moves(state))
        state.__dict__["_legal_set"] = legal
    if move not in legal:
        raise why_illegal(state, move) or IllegalMove("NOT_ALLOWED_NOW", f"{move} is not allowed now")
    return _apply(state, move)


def _take_cards(hand: list[int], rank: int, count: int, out: list[int]) -> None:
    for kind in RANK_KINDS[rank]:
        while count and hand[kind]:
            hand[kind] -= 1
            out.append(kind)
            count -= 1
    if count:
        raise AssertionError("engine took cards the hand does not hold")


def _apply(state: State, m: Move) -> State:
    a = m.action
    p = state.turn_seat
    side = state.side_of(p)
    history = (*state.history, f"{state.to_move} {m}")
    if a == "draw":
        return _draw(state, history)
    if a == "take":
        return _take(state, m, history)
    if a == "meld":
        return _meld(state, m, history)
    if a == "combine":
        melds = list(state.melds)
        table = dict(melds[side])
        table[m.rank] = tuple(sorted((*table[m.rank], *table.pop(m.low))))
        melds[side] = table
        turn = state.turn._replace(melded=True, touched_old=True)
        return state.replace(melds=tuple(melds), turn=turn, history=history)
    if a == "discard":
        return _discard(state, m, history)
    if a in ("ask", "ask-acaba"):
        seats = state.seats_of(side)
        partner = seats[(seats.index(p) + 1) % len(seats)]
        asked = "asked" if a == "ask" else "acaba-asked"
        return state.replace(phase=ANSWER_PHASE, to_move=partner, turn=state.turn._replace(permission=asked),
                             history=history)
    if a in ("yes", "no"):
        answer = a if state.turn.permission == "asked" else f"acaba-{a}"
        phase = PLAY_PHASE if state.turn.source else DRAW_PHASE
        return state.replace(phase=phase, to_move=p, turn=state.turn._replace(permission=answer), history=history)
    if a == "acaba":
        return _end_hand(state.replace(history=history), None, acaba_by=p)
    if a == "declare":
        return _end_hand(state.replace(history=history), None, special=(side, SPECIAL_HAND_NAMES[m.rank]))
    if a == "layout":
        owner = _red_three_slot(state, p)
        laid = laid_out_threes(state.rules)
        stock, hand, reds, history = _lay_out_kept_three(p, list(state.stock), list(state.hands[p]),
                                                         list(state.red_threes[owner]), history, laid)
        hands = list(state.hands)
        hands[p] = tuple(hand)
        threes = list(state.red_threes)
        threes[owner] = tuple(reds)
        return state.replace(stock=tuple(stock), hands=tuple(hands), red_threes=tuple(threes), history=history)
    if a == "withdraw":
        stage = state.stage
        assert stage is not None
        melds = list(state.melds)
        melds[side] = stage.melds
        hands = list(state.hands)
        hands[p] = stage.hand
        whole = list(state.concealed_canastas)
        whole[side] = tuple(x for x in whole[side] if x in stage.melds)
        new_stage = None if stage.pending is None else stage._replace(points=stage.base)
        return state.replace(hands=tuple(hands), melds=tuple(melds), turn=stage.turn._replace(withdrew=True),
                             stage=new_stage, concealed_canastas=tuple(whole), history=history)
    if a == "pass":
        if state.phase == DRAW_PHASE:
            return _end_hand(state.replace(history=history), None)
        return _end_hand(_confirm_opening(state.replace(history=history)), None)
    raise AssertionError(a)


def _draw(state: State, history: tuple[str, ...]) -> State:
    r = state.rules
    p = state.turn_seat
    stock = list(state.stock)
    hand = list(state.hands[p])
    owner = _red_three_slot(state, p)
    reds = list(state.red_threes[owner])
    laid = laid_out_threes(r)
    no_discard = False
    ended = False
    keeping = r.keeps_a_three and not state.opened[state.side_of(p)]
    if r.keeps_a_three and not keeping and any(hand[k] for k in laid):  # the side has opened: out it goes
        stock, hand, reds, history = _lay_out_kept_three(p, stock, hand, reds, history, laid)
    for _ in range(r.draw_count):
        if not stock:
            break
        c = stock.pop()
        # A three is laid out and replaced, unless kept for a Straight: then it is simply the card drawn.
        while c in laid and not (keeping and stock and not any(hand[k] for k in laid)):
            if not stock and r.last_card_red_three == "end_in_hand":
                hand[c] += 1  # the last card is a three: play stops, it stays in hand (GC-E04)
                ended = True
                break
            reds.append(c)
            history = (*history, f"{p} {'red-three' if c in RED_THREES else 'three'} {card_str(c)}")
            if not stock:
                # The last stock card was a red three (RULES.md §3.8, D8).
                if r.last_card_red_three == "end_no_meld":
                    ended = True
                elif r.last_card_red_three == "meld_no_discard":
                    no_discard = True
                break
            c = stock.pop()
        else:
            hand[c] += 1
            continue
        break
    red_threes = list(state.red_threes)
    red_threes[owner] = tuple(reds)
    hands = list(state.hands)
    hands[p] = tuple(hand)
    new = state.replace(stock=tuple(stock), hands=tuple(hands), red_threes=tuple(red_threes), phase=PLAY_PHASE,
                        turn=state.turn._replace(source="stock", no_discard=no_discard), history=history)
    if ended:
        return _end_hand(new, None)
    return new


def _lay_out_kept_three(p: int, stock: list[int], hand: list[int], reds: list[int], history: tuple[str, ...],
                        laid: tuple[int, ...]) -> tuple[list[int], list[int], list[int], tuple[str, ...]]:
    """The three a player kept for a Straight is laid out and replaced (by ``layout``, or at his draw once
    his side has opened); a three drawn as the replacement is laid out too (Modern American, pagat)."""
    k = next(k for k in laid if hand[k])
    while True:
        hand[k] -= 1
        reds.append(k)
        history = (*history, f"{p} {'red-three' if k in RED_THREES else 'three'} {card_str(k)}")
        if not stock:
            return stock, hand, reds, history
        c = stock.pop()
        hand[c] += 1
        if c not in laid:
            return stock, hand, reds, history
        k = c


def _concealed_take_waived(rules: Rules) -> bool:
    """D2 (b): a concealed going-out needs no minimum even when the player took the pile."""
    return rules.concealed_waives_minimum == "always" and rules.concealed_allows_pile


def _red_three_slot(state: State, seat: int) -> int:
    """Where a seat's red threes are kept: with its side, but with the player himself in Cutthroat."""
    return seat if state.rules.cutthroat else state.side_of(seat)


def _form_cutthroat_sides(state: State, lone: int) -> State:
    """Cutthroat (RULES.md §4A): ``lone`` plays alone; the other two become partners for the rest of the
    hand and combine their melds (a merged meld may exceed the wild-card limit; no source covers it)."""
    if not state.rules.cutthroat or len(set(state.seat_sides)) < state.rules.players:
        return state
    keep, gone = sorted(s for s in range(state.rules.players) if s != lone)
    melds = list(state.melds)
    merged = dict(melds[keep])
    for rank, cards in melds[gone].items():
        merged[rank] = tuple(sorted((*merged.get(rank, ()), *cards)))
    melds[keep], melds[gone] = merged, {}
    opened = list(state.opened)
    opened[keep], opened[gone] = opened[keep] or opened[gone], False
    black = list(state.black_threes)
    black[keep], black[gone] = (*black[keep], *black[gone]), ()
    whole = list(state.concealed_canastas)
    whole[keep], whole[gone] = (*whole[keep], *whole[gone]), ()
    sides = list(state.seat_sides)
    sides[gone] = keep
    return state.replace(melds=tuple(melds), opened=tuple(opened), black_threes=tuple(black),
                         concealed_canastas=tuple(whole), seat_sides=tuple(sides))


def _take(state: State, m: Move, history: tuple[str, ...], concealed_out: bool = False) -> State:
    """Take the pile. An unopened side's pile stays pending (see the module docstring), unless the
    minimum is out of reach and the player takes it to go out concealed at once (``concealed_out``)."""
    state = _form_cutthroat_sides(state, state.turn_seat)
    r = state.rules
    p = state.turn_seat
    side = state.side_of(p)
    hand = list(state.hands[p])
    cards = [state.pile[-1], *_move_cards(hand, m)]
    melds = dict(state.melds[side])
    old = melds.get(m.rank)
    melds[m.rank] = tuple(sorted((*old, *cards))) if old else tuple(sorted(cards))
    taken, left = _pile_split(r, state.pile)
    rest = taken[:-1]
    laid = laid_out_threes(r)
    reds = tuple(c for c in rest if c in laid)
    rest = tuple(c for c in rest if c not in laid)
    red_threes = list(state.red_threes)
    owner = _red_three_slot(state, p)
    red_threes[owner] = (*red_threes[owner], *reds)
    black_threes = list(state.black_threes)
    if r.pile_black_threes == "bonus":
        black_threes[side] = (*black_threes[side], *(c for c in rest if c in BLACK_THREES))
        rest = tuple(c for c in rest if c not in BLACK_THREES)
    turn = state.turn._replace(source="pile", new_ranks=() if old else (m.rank,), touched_old=old is not None)
    all_melds = list(state.melds)
    all_melds[side] = melds
    hands = list(state.hands)
    hands[p] = tuple(hand)
    new = state.replace(hands=tuple(hands), melds=tuple(all_melds), red_threes=tuple(red_threes),
                        black_threes=tuple(black_threes), pile=left, pile_hidden=min(state.pile_hidden, len(left)),
                        pile_frozen=any(_freezes(r, c) for c in left), phase=PLAY_PHASE, turn=turn, history=history)
    if state.opened[side]:
        return _pick_up(new, rest)
    base = sum(VALUE[c] for c in cards[not r.top_card_counts:])  # cards[0] is the top card
    if not concealed_out and _concealed_take_waived(r):
        need = _need(state)
        rc = rank_counts(tuple(hand))
        nw = {} if is_sequence_key(m.rank) else {key_rank(m.rank): meld_counts(melds[m.rank])}
        concealed_out = not _opening_reachable(r, rc, nw, need - base,
                                               max(0, 2 - len(rest)))
    if concealed_out:
        picked = _pick_up(new, rest)
        turn = turn._replace(must_go_out=True)
        stage = Stage(hand=picked.hands[p], melds=melds, turn=turn, base=base, points=base, pending=None)
        return picked.replace(stage=stage, turn=turn)
    stage = Stage(hand=tuple(hand), melds=melds, turn=turn, base=base, points=base, pending=rest)
    return _maybe_pick_up(new.replace(stage=stage))


def _pick_up(state: State, cards: tuple[int, ...]) -> State:
    """The rest of the pile joins the hand; a hand left empty has gone out."""
    p = state.turn_seat
    hand = list(state.hands[p])
    for c in cards:
        hand[c] += 1
    hands = list(state.hands)
    hands[p] = tuple(hand)
    new = state.replace(hands=tuple(hands))
    if not cards and not any(hand):
        return _hand_emptied(new, p)
    return new


def _maybe_pick_up(state: State) -> State:
    stage = state.stage
    assert stage is not None and stage.pending is not None
    side = state.side_of(state.turn_seat)
    if stage.points < _need(state):
        return state
    opened = list(state.opened)
    opened[side] = True
    turn = state.turn._replace(opened_now=True)
    return _pick_up(state.replace(stage=None, opened=tuple(opened), turn=turn), stage.pending)


def _meld(state: State, m: Move, history: tuple[str, ...]) -> State:
    p = state.turn_seat
    side = state.side_of(p)
    hand = list(state.hands[p])
    cards = _move_cards(hand, m)
    melds = dict(state.melds[side])
    old = melds.get(m.rank)
    melds[m.rank] = tuple(sorted((*old, *cards))) if old else tuple(sorted(cards))
    turn = state.turn
    turn = turn._replace(melded=True, new_ranks=turn.new_ranks if old else (*turn.new_ranks, m.rank),
                         touched_old=turn.touched_old or (old is not None and m.rank not in turn.new_ranks),
                         # a sequence past seven is allowed only in the turn its player goes out (Brazilian)
                         must_go_out=turn.must_go_out or (old is not None and is_sequence_key(m.rank)
                                                          and len(old) >= SEQUENCE_MAX))
    stage = state.stage
    if not state.opened[side]:
        if stage is None:
            stage = Stage(state.hands[p], state.melds[side], state.turn, 0, 0, None)
        stage = stage._replace(points=stage.points + sum(VALUE[c] for c in cards))
    all_melds = list(state.melds)
    all_melds[side] = melds
    hands = list(state.hands)
    hands[p] = tuple(hand)
    new = state.replace(hands=tuple(hands), melds=tuple(all_melds), turn=turn, stage=stage, history=history)
    if old is None and len(cards) >= 7:  # laid down whole from the hand (concealed_canasta_bonus)
        whole = list(state.concealed_canastas)
        whole[side] = (*whole[side], m.rank)
        new = new.replace(concealed_canastas=tuple(whole))
    if stage is not None and stage.pending is not None:
        return _maybe_pick_up(new)
    if not any(hand):
        return _hand_emptied(_confirm_opening(new), p)
    return new


def _confirm_opening(state: State) -> State:
    """End of the opening turn: staged melds stand and the side has opened."""
    side = state.side_of(state.turn_seat)
    if state.stage is None:
        return state
    opened = list(state.opened)
    opened[side] = True
    return state.replace(stage=None, opened=tuple(opened))


def _discard(state: State, m: Move, history: tuple[str, ...]) -> State:
    r = state.rules
    p = state.turn_seat
    hand = list(state.hands[p])
    out: list[int] = []
    if m.suit >= 0:
        out.append(4 + m.suit if m.rank == 1 else (m.rank - 2) * 4 + m.suit)  # rank 1: a red three
        hand[out[0]] -= 1
    else:
        _take_cards(hand, m.rank, 1, out)
    c = out[0]
    frozen = state.pile_frozen or is_wild(c) or (c in BLACK_THREES and r.black_three_freezes)
    hands = list(state.hands)
    hands[p] = tuple(hand)
    new = _confirm_opening(state.replace(hands=tuple(hands), pile=(*state.pile, c), pile_frozen=frozen,
                                         history=history))
    if not any(hand):
        if not has_foot(new, p):
            return _end_hand(new, p)
        new = _pick_up_foot(new, p)  # playable from his next turn
    if r.bonus_cards and state.stage is not None and state.turn.source == "stock":
        new = _deal_bonus_cards(new, p)
    if state.turn.melded or state.turn.source == "pile":
        has = list(new.has_melded)
        has[p] = True
        new = new.replace(has_melded=tuple(has))
    return _next_turn(new)


def _deal_bonus_cards(state: State, p: int) -> State:
    """Modern American (RULES.md §4C [CLA,P,WCA]): the player who has just opened from his hand gets the
    bonus cards of his side's place in the order of opening (4, then 3), from the stock, to use from his next
    turn; none once the turn card is gone (the stock under bonus_cards_stock cards). Threes among them are
    laid out and replaced."""
    r = state.rules
    place = sum(state.opened) - 1
    if place >= len(r.bonus_cards) or len(state.stock) < r.bonus_cards_stock:
        return state
    stock = list(state.stock)
    hand = list(state.hands[p])
    side = state.side_of(p)
    threes = list(state.red_threes[side])
    laid = laid_out_threes(r)
    history = state.history
    for _ in range(r.bonus_cards[place]):
        while stock:
            c = stock.pop()
            if c not in laid or not stock:
                hand[c] += 1
                break
            threes.append(c)
            history = (*history, f"{p} {'red-three' if c in RED_THREES else 'three'} {card_str(c)}")
    hands = list(state.hands)
    hands[p] = tuple(hand)
    all_threes = list(state.red_threes)
    all_threes[side] = tuple(threes)
    return state.replace(stock=tuple(stock), hands=tuple(hands), red_threes=tuple(all_threes),
                         history=(*history, f"{p} bonus-cards {sum(hand) - sum(state.hands[p])}"))


def _next_turn(state: State) -> State:
    r = state.rules
    seat = (state.turn_seat + 1) % r.players
    new = state.replace(turn_seat=seat, to_move=seat, phase=DRAW_PHASE, turn=Turn(), stage=None)
    if not new.stock and r.recycle_pile and not new.recycled and len(new.pile) > 1:
        # The pile under its top card is turned over as a new stock (RULES.md §3.8 variant, §5).
        top = new.pile[-1]
        new = new.replace(stock=tuple(reversed(new.pile[:-1])), pile=(top,), pile_frozen=_freezes(r, top),
                          pile_hidden=0, recycled=True)
    # The stock is gone (RULES.md §3.8): play on only while discards can be taken.
    if not new.stock and (r.end_of_stock == "end_at_once" or not _take_moves(new)):
        return _end_hand(new, None)
    return new


def _end_hand(state: State, went_out: int | None, acaba_by: int | None = None,
              special: tuple[int, str] | None = None) -> State:
    """Score the hand and deal the next (or end the game). ``special``: (side, name) of a special hand laid
    down, which that side scores alone while the others score their hands as usual (GC-S20)."""
    r = state.rules
    if went_out is not None:  # Cutthroat: going out before the pile was taken makes the lone hand
        state = _form_cutthroat_sides(state, went_out)
    out_side = None if went_out is None else state.side_of(went_out)
    concealed = False
    if went_out is not None:
        melds = state.melds[state.side_of(went_out)]
        concealed = (not state.has_melded[went_out] and not state.turn.touched_old
                     and (r.concealed_allows_pile or state.turn.source != "pile")
                     and any(len(melds[x]) >= 7 for x in state.turn.new_ranks if x in melds))
    results = []
    # One score column per side; in Cutthroat one per player: partners share their side's score, and
    # each adds his own red threes (RULES.md §4A [R, Bicycle]).
    for column in range(r.teams):
        side = state.side_of(column) if r.cutthroat else column
        if acaba_by is not None:  # Acaba: only the opponents score, acaba_bonus each (RULES.md §4A)
            results.append(acaba_score(r, side != state.side_of(acaba_by)))
            continue
        if special is not None and special[0] == side:
            results.append(score_special_hand(r, special[1]))
            continue
        # cards left in a hand or a foot count minus (Hand and Foot)
        hands = [[*cards_of(state.hands[seat]), *cards_of(state.feet[seat])] for seat in state.seats_of(side)]
        melds_list = list(state.melds[side].values())
        whole = sum(1 for x in state.concealed_canastas[side] if len(state.melds[side].get(x, ())) >= 7)
        results.append(score_side(r, melds_list, [c for h in hands for c in h], state.red_threes[column],
                                  went_out=side == out_side, concealed=concealed and side == out_side,
                                  black_threes=state.black_threes[side], concealed_canastas=whole,
                                  player_hands=hands))
    scores = tuple(s + res["total"] for s, res in zip(state.scores, results, strict=True))
    column_sides = [state.side_of(c) if r.cutthroat else c for c in range(r.teams)]
    summary = tuple({**res, "cumulative": total, "went_out": side == out_side,
                     "concealed": concealed and side == out_side}
                    for res, total, side in zip(results, scores, column_sides, strict=True))
    # In a hand ended by Acaba the melds count for nothing, canastas included.
    canastas = None if acaba_by is not None else [canasta_count(m) for m in state.melds]
    result = game_result(r, scores, state.hand_number, canastas)
    if result is not None:
        return state.replace(scores=scores, last_hand=summary, phase=GAME_OVER, result=result,
                             to_move=state.turn_seat)
    dealer = (state.dealer + 1) % r.players
    deck = shuffled_deck(r, state.seed, state.hand_number + 1)
    return start_hand(r, state.seed, state.hand_number + 1, dealer, scores, summary, deck)


def game_result(rules: Rules, scores: Sequence[int], hand_number: int,
                canastas: Sequence[int] | None = None) -> dict[str, Any] | None:
    """The game's result if hand ``hand_number`` ends with these cumulative ``scores``, one per side,
    else None (RULES.md §3.10; ``canastas_to_win``, §5). ``canastas``: each side's canastas on the
    table at the end of the hand (None: they count for nothing). Plain data, so that a player can ask
    it of a guessed end of the hand."""
    r = rules
    if r.canastas_to_win and canastas is not None:
        sides = [i for i, n in enumerate(canastas) if n >= r.canastas_to_win]
        if sides:
            winner = max(sides, key=lambda i: scores[i])
            return {"scores": list(scores), "winner": winner, "hands": hand_number,
                    "by": f"{r.canastas_to_win} canastas"}
    best = max(scores)
    if r.hands_per_game:  # a fixed number of hands (Hand and Foot): the target plays no part
        if hand_number < r.hands_per_game:
            return None
    elif best < r.target:
        return None
    leaders = [i for i, s in enumerate(scores) if s == best]
    if len(leaders) > 1 and r.tie != "draw":
        return None
    result: dict[str, Any] = {"scores": list(scores), "winner": leaders[0] if len(leaders) == 1 else None,
                              "hands": hand_number}
    if r.hands_per_game:
        result["by"] = f"{r.hands_per_game} hands"
    return result


def redeal(state: State, deck: list[int]) -> State:
    """The same position at the start of its hand, but dealt from ``deck`` (replaying records)."""
    return start_hand(state.rules, state.seed, state.hand_number, state.dealer, state.scores, state.last_hand, deck)


# --- explaining illegal moves -----------------------------------------------------------------

def why_illegal(state: State, move: Move | str) -> IllegalMove | None:
    """None if ``move`` (a Move or its notation) is legal, else an ``IllegalMove`` with a stable code
    and a message. Notation that does not parse raises ``ValueError``."""
    if not isinstance(move, Move):
        from . import parse_move

        move = parse_move(state, move)
    if move in (state._legal_set or legal_moves(state)):
        return None
    from .explain import diagnose

    code, message = diagnose(state, move)
    return IllegalMove(code, message, move=str(move))


__all__ = [
    "apply", "can_go_out", "game_result", "is_over", "legal_moves", "meld_counts", "minimum_needed", "new_game",
    "outcome", "rank_counts", "redeal", "why_illegal",
]
