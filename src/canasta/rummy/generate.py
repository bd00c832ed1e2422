"""Rummy legal-move generation: the single source of truth that ``apply`` checks against.

Moves are over physical cards (a 52-card pack holds each card once; Persian Rummy's jokers are alike, so a
joker set is one move per size). Order: draw/take/pass in the draw phase; melds, lay-offs, discards after.
"""

from __future__ import annotations

from itertools import combinations

from ..canasta.cards import JOKER, rank_of
from .melds import ACE, card_at, labels, lay_off_end, meld_kind, new_meld, position_range, suit_of, table_after
from .moves import DEALER_JOKER, RummyMove
from .rules import JOKER_EFFECTS, RummyRules
from .state import CLAIM, DRAW, NOMINATE, PLAY, RummyState


def generate_moves(state: RummyState) -> list[RummyMove]:
    if state.phase == DRAW:
        return draw_moves(state) + split_moves(state) + dealer_joker_moves(state)
    if state.phase == PLAY:
        return play_moves(state) + dealer_joker_moves(state)
    if state.phase == NOMINATE:
        return [RummyMove("nominate", (), effect) for effect in JOKER_EFFECTS]
    if state.phase == CLAIM:
        return [*rum_moves(state, state.turn_seat), *between_plays(state), RummyMove("pass")]
    return []


def between_plays(s: RummyState) -> list[RummyMove]:
    """What the player asked in a claim window may play from his hand: melds with ``melds_between_turns``,
    lay-offs with ``lay_offs_between_turns``."""
    r = s.rules
    kinds = ("meld",) * r.melds_between_turns + ("lay",) * r.lay_offs_between_turns
    return [m for m in _meld_and_lay(s, s.hands[s.turn_seat]) if m.action in kinds] if kinds else []


def rum_moves(s: RummyState, seat: int) -> list[RummyMove]:
    """``seat`` calling "Rum" on the top discard: one move per meld it fits that he may lay off on."""
    if not s.pile or not opened(s, seat):
        return []
    card = s.pile[-1]
    return [RummyMove("rum", (card,), name) for meld, name in zip(s.melds, labels(s.melds), strict=True)
            if may_lay_on(s, seat, meld.seats[0]) and lay_off_end(s.rules, meld, card)]


def next_claimant(s: RummyState, after: int, discarder: int) -> int | None:
    """The next player after ``after`` (in turn order, before coming back to the discarder) who could call
    "Rum" on the top discard (or, with ``melds_between_turns`` or ``lay_offs_between_turns``, play from his
    hand), None when nobody can."""
    r = s.rules
    n = r.players
    seat = (after + 1) % n
    while seat != discarder:
        if rum_moves(s, seat) or ((r.melds_between_turns or r.lay_offs_between_turns)
                                  and between_plays(s.replace(turn_seat=seat))):
            return seat
        seat = (seat + 1) % n
    return None


def dealers_joker_blocked(s: RummyState) -> bool:
    """Another joker lies face down over the dealer's: "it may not be used by the dealer for the remainder of
    that hand" [S2]."""
    return len(s.aside) > 1


def dealer_joker_moves(s: RummyState) -> list[RummyMove]:
    """The dealer taking his joker, or another player blocking it with a joker from his hand (keeping a card)."""
    if len(s.aside) != 1:  # taken, or blocked
        return []
    if s.turn_seat == s.dealer:
        return [RummyMove(DEALER_JOKER, (JOKER,))]
    hand = s.hands[s.turn_seat]
    return [RummyMove("block", (JOKER,))] if s.must_use < 0 and JOKER in hand and len(hand) >= 2 else []


def split_moves(s: RummyState) -> list[RummyMove]:
    """"Split": a joker from the hand splits the discard pile around the card chosen from it (``split X to Y``).
    The chosen card X and the cards above Y come into the hand; the cards above X up to Y ("inside the split")
    leave the game for the hand, with the joker; X must be used at once where the rules say so. ``split X``:
    everything above X is inside. Only a card with something above it may be split for."""
    r = s.rules
    hand = s.hands[s.turn_seat]
    if not r.splitting_jokers or JOKER not in hand or r.pile_take != "any":
        return []
    rest = list(hand)
    rest.remove(JOKER)
    out: list[RummyMove] = []
    chosen: set[int] = set()
    for i in range(len(s.pile) - 2, -1, -1):
        card = s.pile[i]
        if card in chosen or card in s.pile[i + 1:]:
            continue  # a card twice in the pile: the topmost copy, as for a take
        chosen.add(card)
        ends: set[int] = set()
        for j in range(len(s.pile) - 1, i, -1):
            end = s.pile[j]
            if end in ends:
                continue  # the topmost copy
            ends.add(end)
            after = tuple(sorted((*rest, card, *s.pile[j + 1:])))
            if r.taken_card == "keep" or take_uses(s, after, card):
                out.append(RummyMove("split", (card,) if j == len(s.pile) - 1 else (card, end)))
    return out


def draw_moves(s: RummyState) -> list[RummyMove]:
    r = s.rules
    out: list[RummyMove] = []
    if s.stock:
        out.append(RummyMove("draw"))
    hand = s.hands[s.turn_seat]
    seen: set[int] = set()
    starts = range(len(s.pile) - 1, -1, -1) if r.pile_take == "any" else range(len(s.pile) - 1, len(s.pile) - 2, -1)
    for i in starts:  # top first; a card twice in the pile (jokers): the topmost copy
        if i < 0:
            break
        card = s.pile[i]
        if card in seen:
            continue
        seen.add(card)
        if r.taken_card == "keep" or take_uses(s, tuple(sorted(hand + s.pile[i:])), card):
            out.append(RummyMove("take", (card,)))
    if not s.stock and r.empty_stock == "play_from_pile":
        out.append(RummyMove("pass"))
    return out


def opened(s: RummyState, seat: int) -> bool:
    return s.melded[seat] or (s.turn_melded and seat == s.turn_seat) or s.rules.first_meld == 0


def may_lay_on(s: RummyState, seat: int, meld_seat: int) -> bool:
    return s.rules.lay_off_on == "any" or s.rules.side_of(meld_seat) == s.rules.side_of(seat)


def meld_candidates(r: RummyRules, hand: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every new meld (cards in canonical order) that can be made from ``hand``."""
    out: list[tuple[int, ...]] = []
    by_rank: dict[int, list[int]] = {}
    jokers = 0
    by_suit: dict[int, set[int]] = {}
    for c in hand:
        if c == JOKER:
            jokers += 1
            continue
        by_rank.setdefault(rank_of(c), []).append(c)
        by_suit.setdefault(suit_of(c), set()).add(c)
    wild = jokers if r.wild_jokers else 0
    for rank in sorted(by_rank):
        cards = sorted(set(by_rank[rank]))  # two packs: a set holds each suit once
        for n in range(2 if wild else 3, 5):
            for combo in combinations(cards, n):
                for j in range(max(0, 3 - n), min(wild, 4 - n) + 1):
                    out.append((*combo, *([JOKER] * j)))
                if jokers and n >= 3 and r.doubling_jokers:
                    out.append((*combo, JOKER))  # the joker laid over the set: doubled and sealed
    if r.joker_sets:
        for n in (3, 4):
            if jokers >= n:
                out.append((JOKER,) * n)
    seen: set[tuple[int, ...]] = set()
    for suit in sorted(by_suit):
        suited = by_suit[suit]
        positions = sorted({rank_of(c) for c in suited if rank_of(c) != ACE})
        has_ace = card_at(14, suit) in suited
        if r.ace == "around":
            present = set(positions) | ({1} if has_ace else set())
            for start in range(1, 14):
                run: list[int] = []
                for k in range(min(13, len(present))):
                    p = (start - 1 + k) % 13 + 1
                    if p not in present:
                        break
                    run.append(card_at(p, suit))
                    if len(run) >= 3:
                        _add_run(r, tuple(run), seen, out)
            continue
        if wild:
            _wild_runs(r, suited, wild, seen, out)
            continue
        pos = set(positions)
        if has_ace and r.ace in ("low", "both"):
            pos.add(1)
        if has_ace and r.ace in ("high", "both"):
            pos.add(14)
        for start in sorted(pos):
            run = []
            p = start
            while p in pos:
                run.append(card_at(p, suit))
                p += 1
                if len(run) >= 3:
                    _add_run(r, tuple(run), seen, out)
    return out


def _wild_runs(r: RummyRules, suited: set[int], jokers: int, seen: set[tuple[int, ...]],
               out: list[tuple[int, ...]]) -> None:
    """Every run of one suit from its naturals and up to ``jokers`` wild jokers: each window of positions,
    each choice of the places the jokers take (a held card may be left out for a joker)."""
    lo, hi = position_range(r)
    suit = suit_of(next(iter(suited)))
    for start in range(lo, hi - 1):
        for end in range(start + 2, min(hi, start + 12) + 1):
            places = range(start, end + 1)
            missing = [p for p in places if card_at(p, suit) not in suited]
            if len(missing) > jokers or len(places) - len(missing) < 2:
                continue
            held = [p for p in places if p not in missing]
            for extra in range(0, jokers - len(missing) + 1):
                for spare in combinations(held, extra):
                    if len(held) - extra < 2:
                        continue
                    wild = set(missing) | set(spare)
                    cards = tuple(JOKER if p in wild else card_at(p, suit) for p in places)
                    if cards not in seen:
                        seen.add(cards)
                        out.append(cards)


def _add_run(r: RummyRules, cards: tuple[int, ...], seen: set[tuple[int, ...]], out: list[tuple[int, ...]]) -> None:
    kind = meld_kind(r, cards)
    if kind is None or kind[0] != "run":
        return
    key = tuple(sorted(kind[2]))
    if key not in seen:
        seen.add(key)
        out.append(kind[2])


def meld_value(r: RummyRules, cards: tuple[int, ...], seat: int = 0) -> int:
    kind = meld_kind(r, cards)
    return 0 if kind is None else sum(new_meld(r, kind[0], kind[1], kind[2], seat).points)


def take_uses(s: RummyState, hand: tuple[int, ...], card: int) -> list[RummyMove]:
    """The moves that may use the card chosen from the pile (only new melds without "picking up to hit")."""
    moves = uses_of(s, hand, card)
    if s.rules.take_only_for_new_meld:
        moves = [m for m in moves if m.action == "meld"]
    return moves


def uses_of(s: RummyState, hand: tuple[int, ...], card: int) -> list[RummyMove]:
    """The melds and lay-offs that use ``card`` from ``hand`` (the card chosen from the pile)."""
    return [m for m in _meld_and_lay(s, hand) if card in m.cards]


def _meld_and_lay(s: RummyState, hand: tuple[int, ...]) -> list[RummyMove]:
    r = s.rules
    seat = s.turn_seat
    keep_one = r.go_out_needs_discard
    out: list[RummyMove] = []
    is_open = opened(s, seat)
    for cards in meld_candidates(r, hand):
        if keep_one and len(cards) >= len(hand):
            continue
        if not is_open and meld_value(r, cards, seat) < r.first_meld:
            continue
        out.append(RummyMove("meld", cards))
    if is_open and not (keep_one and len(hand) <= 1):
        for meld, name in zip(s.melds, labels(s.melds), strict=True):
            if not may_lay_on(s, seat, meld.seats[0]):
                continue
            for c in sorted(set(hand)):
                if lay_off_end(r, meld, c):
                    out.append(RummyMove("lay", (c,), name))
    return out


def play_moves(s: RummyState) -> list[RummyMove]:
    r = s.rules
    hand = s.hands[s.turn_seat]
    if s.must_use >= 0:
        return take_uses(s, hand, s.must_use)
    out = _meld_and_lay(s, hand)
    discards = sorted(set(hand))
    if not r.discard_taken_same_turn:  # "you can not discard that card in the same round" [S1-rummy], no exception
        discards = [c for c in discards if c not in s.taken]
        if s.taken:
            out = [m for m in out if not strands(s, m)]
    out.extend(RummyMove("discard", (c,)) for c in discards)
    return out


def after_play(s: RummyState, move: RummyMove) -> RummyState:
    """The position after a meld or lay-off in the mover's own turn, the hand not finished (for look-ahead
    inside move generation; ``play.apply_move`` is the real transition)."""
    seat = s.turn_seat
    left = list(s.hands[seat])
    for c in move.cards:
        left.remove(c)
    hands = list(s.hands)
    hands[seat] = tuple(left)
    melds = table_after(s.rules, s.melds, seat, move.cards, move.on if move.action == "lay" else "")
    return s.replace(hands=tuple(hands), melds=melds, turn_melded=True,
                     must_use=-1 if s.must_use in move.cards else s.must_use)


def strands(s: RummyState, move: RummyMove) -> bool:
    """Would this meld or lay-off leave the player holding only cards taken from the pile this turn, which he
    may not discard, with no meld or lay-off to finish them? (Such a move would leave him no legal move.)"""
    left = list(s.hands[s.turn_seat])
    for c in move.cards:
        left.remove(c)
    taken = list(s.taken)
    for c in left:
        if c not in taken:
            return False  # he keeps a card he may discard
        taken.remove(c)
    return bool(left) and not play_moves(after_play(s, move))
