"""A slow, separately written reference for the legal moves of a Classic ``canasta.State``.

Written from docs/sources.md §2–§3 and §6 (recommended defaults) and from the move model documented in
``canasta/engine.py`` and ``canasta/moves.py``; it does not call or copy the engine's move generator.
It reads only the State's fields and uses ``rank_of``/``is_wild``/``JOKER`` from ``canasta.canasta.cards`` and
``canasta.canasta.moves.Move``.

How it decides: every candidate move is enumerated by brute force (every ``(rank, naturals, twos,
jokers)`` the hand can supply, every discard rank, every simple action) and each one is checked by
simulating the rules on a small model of the turn (``Pos``): meld validity, one meld per rank, the
pile rules, the opening minimum, and "the player can still end the turn legally", which is decided by
exhaustive search over meld configurations (``can_go_out``, ``unopened_take_ok`` with
``_hand_meld_points`` and ``_all_meld_configs``).

The move model (the engine's documented choices where the rules leave the modelling open):

* Moves are atomic and name ranks and counts. ``take`` names only the cards that take the pile: a
  natural pair, or (unfrozen pile) one natural and one wild, or nothing (adding the top card to the
  side's meld); more cards are melded with later ``meld`` moves.
* Opening: a side that has not opened stages its melds; ``withdraw`` takes them back. A pile taken by
  such a side stays *pending* until the top card plus hand cards reach the minimum; melds in that phase
  that do not reach the minimum are allowed whatever cards they leave (withdraw rescues).
* Black threes are melded (3 or 4, no wilds) only as the going-out meld: they must leave at most one
  card, and the player must be able to go out from there.
* A meld or take that leaves one card is legal when the player can still go out with that card,
  by discarding it or by melding it (which may finish the canasta he needs); none is a going-out.
* ``ask`` is possible after drawing (or taking the pile) and before any meld move, with no staged
  melds and at least two cards in hand. After ``yes`` the player must go out if he can (exhaustive
  search); ``withdraw`` is then not offered. If he cannot go out the obligation lapses.
* D2 ``concealed_waives_minimum="always"`` with ``concealed_allows_pile``: an unopened side may take
  the pile below the minimum when it can then go out concealed at once, and must (``must_go_out``).
* Stock empty: ``pass`` declines the discard; the take is compulsory when the pile is not frozen for
  the side and its top card fits one of the side's melds (``forced_take_after_stock``), i.e. when the
  bare ``take`` (adding the top card to that meld) is legal.

Only Classic and the options of docs/sources.md §6 are modelled: ``legal_moves`` raises NotImplementedError
for the variant options in ``CLASSIC_ONLY``.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any

from canasta.canasta.cards import JOKER, is_wild, rank_of
from canasta.canasta.moves import Move

# Rank codes: 0 joker, 1 red three (never melded), 2 two, 3 black three, 4..14 naturals (4..A).
JK, RED3, TWO, BLACK3 = 0, 1, 2, 3
NATURALS = tuple(range(4, 15))
DISCARDABLE = (JK, TWO, BLACK3, *NATURALS)
# docs/sources.md §2: joker 50, 2 and A 20, K..8 10, 7..4 and black 3 5; red three no card value.
POINTS = {JK: 50, RED3: 0, TWO: 20, BLACK3: 5, **{r: 20 if r == 14 else 10 if r >= 8 else 5 for r in NATURALS}}

SIMPLE_ACTIONS = ("draw", "ask", "yes", "no", "withdraw", "pass")


def code_of(card: int) -> int:
    """The rank code of one physical card kind."""
    r = rank_of(card)
    if card == JOKER:
        return JK
    if r == 3:
        # Suit order S H D C (cards.py): hearts and diamonds are the red threes.
        return RED3 if card % 4 in (1, 2) else BLACK3
    return r


def counts_by_code(kinds: Any) -> list[int]:
    """53 counts per card kind -> 15 counts per rank code."""
    out = [0] * 15
    for card, n in enumerate(kinds):
        if n:
            out[code_of(card)] += n
    return out


def codes_of_cards(cards: Any) -> list[int]:
    out = [0] * 15
    for c in cards:
        out[code_of(c)] += 1
    return out


def meld_shape(cards: Any) -> tuple[int, int, int]:
    """(naturals, wilds, size) of a meld on the table."""
    wild = sum(1 for c in cards if is_wild(c))
    return len(cards) - wild, wild, len(cards)


def wild_cap(rules: Any, naturals: int) -> int:
    """docs/sources.md §3.3 and D10: how many wild cards a meld with this many naturals may hold."""
    rule = rules.wild_rule
    if rule == "max3":
        return 3
    if rule == "max2":
        return 2
    if rule == "le_naturals":
        return naturals
    if rule == "lt_naturals":
        return naturals - 1
    raise ValueError(rule)


def meld_valid(rules: Any, nat: int, wild: int, size: int) -> bool:
    """At least 3 cards, enough naturals, not too many wilds (§3.3)."""
    return size >= 3 and nat >= rules.min_naturals and wild <= wild_cap(rules, nat)


def minimum_for(rules: Any, score: int) -> int:
    """§3.4: the minimum count for a side's cumulative score (lower bounds, highest that applies)."""
    need = None
    for lower, value in sorted(rules.initial_meld):
        if score >= lower or need is None:
            need = value
    assert need is not None
    return need


def frozen_by_contents(rules: Any, pile: Any) -> bool:
    """§3.5: the pile is frozen for everyone while it holds a wild card or a red three (and, under
    Bicycle's D4 reading, a black three)."""
    for c in pile:
        code = code_of(c)
        if is_wild(c) or code == RED3 or (code == BLACK3 and rules.black_three_freezes):
            return True
    return False


@dataclass
class Pos:
    """The current player's part of the position, enough to simulate the rest of his turn."""

    rules: Any
    hand: list[int]  # counts per rank code
    melds: dict[int, tuple[int, int, int]]  # the side's melds: rank -> (naturals, wilds, size)
    opened: bool  # the side has opened (before or during this turn)
    need: int  # the minimum count, while not opened
    points: int  # points counted towards the minimum this turn
    pending: list[int] | None  # a pile taken before opening, not yet in the hand (rank codes)
    source: str | None
    permission: str | None
    no_discard: bool = False
    obliged: bool = False  # must go out if he can: partner said yes, or a concealed take (D2 "always")
    withdrew: bool = False  # staged melds were withdrawn this turn (the engine allows that once)

    def copy(self) -> Pos:
        return Pos(self.rules, list(self.hand), dict(self.melds), self.opened, self.need, self.points,
                   None if self.pending is None else list(self.pending), self.source, self.permission,
                   self.no_discard, self.obliged, self.withdrew)

    @property
    def size(self) -> int:
        return sum(self.hand)

    def canastas(self) -> int:
        return sum(1 for rank, (_, _, size) in self.melds.items() if rank != BLACK3 and size >= 7)


def pos_of(state: Any) -> Pos:
    r = state.rules
    seat = state.turn_seat
    side = r.side_of(seat)
    hand = counts_by_code(state.hands[seat])
    melds = {rank: meld_shape(cards) for rank, cards in state.melds[side].items()}
    opened = bool(state.opened[side])
    stage = state.stage
    points = stage.points if (stage is not None and not opened) else 0
    pending = None
    if stage is not None and stage.pending is not None:
        pending = codes_of_cards(stage.pending)
    turn = state.turn
    obliged = turn.permission == "yes" or bool(getattr(turn, "must_go_out", False))
    return Pos(r, hand, melds, opened, 0 if opened else minimum_for(r, state.scores[side]), points, pending,
               turn.source, turn.permission, bool(turn.no_discard), obliged, bool(getattr(turn, "withdrew", False)))


# --- going out -------------------------------------------------------------------------------

def opening_met(p: Pos) -> bool:
    return p.opened or p.points >= p.need


def out_ok(p: Pos) -> bool:
    """May the player end the hand now with an empty hand (§3.4 exception, §3.7)?"""
    return out_allowed(p, p.canastas(), p.points)


def out_allowed(p: Pos, canastas: int, points: int) -> bool:
    """Going out with this many canastas and this many points counted towards the minimum."""
    r = p.rules
    if canastas < r.canastas_to_go_out or p.permission == "no":
        return False
    if p.opened or points >= p.need:
        return True
    # Going out concealed in the opening turn (an unopened side has no older melds): D2.
    return canastas >= 1 and (pile_waiver(r) if p.source == "pile" else stock_waiver(r))


def stock_waiver(rules: Any) -> bool:
    """D2 (a)/(b): going out concealed after a stock draw needs no minimum."""
    return rules.concealed_waives_minimum in ("stock_only", "always")


def pile_waiver(rules: Any) -> bool:
    """D2 (b) with the pile allowed in a concealed going-out: no minimum even after taking the pile."""
    return rules.concealed_waives_minimum == "always" and rules.concealed_allows_pile


def _max_canastas(rules: Any, items: tuple[tuple[int, int, int], ...], wilds: int) -> int:
    """Place exactly ``wilds`` wild cards on these melds (naturals, wilds, size): the most
    canastas that can result, or -1 if no placement keeps every meld legal."""

    @cache
    def go(i: int, left: int) -> int:
        if i == len(items):
            return 0 if left == 0 else -1
        nat, wild, size = items[i]
        best = -1
        for w in range(left + 1):
            if wild + w > wild_cap(rules, nat):
                break
            if not meld_valid(rules, nat, wild + w, size + w):
                continue
            rest = go(i + 1, left - w)
            if rest >= 0:
                best = max(best, rest + (1 if size + w >= 7 else 0))
        return best

    return go(0, wilds)


def final_canastas(p: Pos, hand: list[int]) -> int | None:
    """Meld every card of ``hand`` onto ``p``'s melds (new melds where needed): the most canastas the
    side can then hold, or None if the cards cannot all be melded legally."""
    r = p.rules
    items: list[tuple[int, int, int]] = []
    if hand[RED3]:
        return None
    b3 = hand[BLACK3]
    if b3 and (b3 < 3 or b3 > 4 or BLACK3 in p.melds):
        return None
    for rank in NATURALS:
        n = hand[rank]
        if rank in p.melds:
            nat, wild, size = p.melds[rank]
            items.append((nat + n, wild, size + n))
        elif n:
            if n < r.min_naturals:
                return None
            items.append((n, 0, n))
    best = _max_canastas(r, tuple(items), hand[TWO] + hand[JK])
    return None if best < 0 else best


def can_go_out(p: Pos) -> bool:
    """Exhaustive: can the player go out from here, melding every card or all but one discard?"""
    if p.pending is not None or p.permission == "no":
        return False
    for d in (None, *(x for x in DISCARDABLE if p.hand[x])):
        if d is not None and p.no_discard:
            continue
        hand = list(p.hand)
        if d is not None:
            hand[d] -= 1
        best = final_canastas(p, hand)
        if best is None:
            continue
        if out_allowed(p, best, p.points + sum(POINTS[x] * hand[x] for x in range(15))):
            return True
    return False


def turn_can_end(p: Pos) -> bool:
    """With no pending pile: a hand of two or more cards can always discard and keep one; one card
    must go out (by a discard or a last meld); an empty hand has gone out."""
    n = p.size
    if n >= 2 or (n == 1 and p.no_discard):
        return True  # discard one and keep one; or (last stock card a red three) meld, then pass
    if n == 1:
        return can_go_out(p)
    return out_ok(p)


# --- simulating moves inside the turn ---------------------------------------------------------

def add_meld(p: Pos, rank: int, k: int, a: int, b: int) -> Pos:
    q = p.copy()
    q.hand[rank] -= k
    q.hand[TWO] -= a
    q.hand[JK] -= b
    nat, wild, size = q.melds.get(rank, (0, 0, 0))
    q.melds[rank] = (nat + k, wild + a + b, size + k + a + b)
    if not q.opened:
        q.points += POINTS[rank] * k + POINTS[TWO] * a + POINTS[JK] * b
    return q


def pick_up_if_open(p: Pos) -> Pos:
    """A pending pile joins the hand once the minimum is reached (the side has opened)."""
    if p.pending is not None and p.points >= p.need:
        q = p.copy()
        assert q.pending is not None
        q.hand = [x + y for x, y in zip(q.hand, q.pending, strict=True)]
        q.pending = None
        q.opened = True
        return q
    return p


def meld_ok_here(p: Pos, rank: int, k: int, a: int, b: int) -> bool:
    """Is ``meld`` legal ignoring the permission obligation?"""
    r = p.rules
    if k > p.hand[rank] or a > p.hand[TWO] or b > p.hand[JK] or k + a + b == 0:
        return False
    if rank == BLACK3:
        # §3.3: 3 or 4 black threes, no wilds, only in the going-out turn (as the last meld).
        if a or b or k < 3 or BLACK3 in p.melds:
            return False
        q = pick_up_if_open(add_meld(p, rank, k, 0, 0))
        if q.pending is not None or q.size > 1:
            return False
        return can_go_out(q) if q.size == 1 else out_ok(q)
    if rank not in NATURALS:
        return False
    nat, wild, size = p.melds.get(rank, (0, 0, 0))
    if not meld_valid(r, nat + k, wild + a + b, size + k + a + b):
        return False
    q = add_meld(p, rank, k, a, b)
    if p.pending is not None:
        if q.points < q.need:
            return True  # still below the minimum: withdraw rescues whatever is left
        q = pick_up_if_open(q)
    return turn_can_end(q)


# --- the opening with the pile ----------------------------------------------------------------

def _hand_meld_points(rules: Any, hand: list[int], melds: dict[int, tuple[int, int, int]]) -> dict[int, int]:
    """Exhaustive over melds from ``hand`` (no black threes): cards used -> the most points."""
    ranks = [x for x in NATURALS if hand[x] or x in melds]

    @cache
    def go(i: int, twos: int, jokers: int) -> tuple[tuple[int, int], ...]:
        if i == len(ranks):
            return ((0, 0),)
        rank = ranks[i]
        nat0, wild0, size0 = melds.get(rank, (0, 0, 0))
        best: dict[int, int] = {}
        for k in range(hand[rank] + 1):
            room = max(0, wild_cap(rules, nat0 + k) - wild0)  # more wilds than this never make a meld
            for a in range(min(twos, room) + 1):
                for b in range(min(jokers, room - a) + 1):
                    if k + a + b and not meld_valid(rules, nat0 + k, wild0 + a + b, size0 + k + a + b):
                        continue
                    pts = POINTS[rank] * k + POINTS[TWO] * a + POINTS[JK] * b
                    for used, more in go(i + 1, twos - a, jokers - b):
                        u = used + k + a + b
                        if best.get(u, -1) < pts + more:
                            best[u] = pts + more
        return tuple(best.items())

    return dict(go(0, hand[TWO], hand[JK]))


def _all_meld_configs(rules: Any, hand: list[int], melds: dict[int, tuple[int, int, int]]
                      ) -> Iterator[dict[int, tuple[int, int, int]]]:
    """Every way to meld *all* of ``hand`` onto ``melds`` (black threes as their own 3-4 meld)."""
    if hand[RED3]:
        return
    base = dict(melds)
    b3 = hand[BLACK3]
    if b3:
        if b3 < 3 or b3 > 4 or BLACK3 in base:
            return
        base[BLACK3] = (b3, 0, b3)
    ranks = []
    for rank in NATURALS:
        n = hand[rank]
        if rank in base:
            nat, wild, size = base[rank]
            base[rank] = (nat + n, wild, size + n)
            ranks.append(rank)
        elif n:
            if n < rules.min_naturals:
                return
            base[rank] = (n, 0, n)
            ranks.append(rank)

    def go(i: int, left: int, cur: dict[int, tuple[int, int, int]]) -> Iterator[dict[int, tuple[int, int, int]]]:
        if i == len(ranks):
            if left == 0 and all(meld_valid(rules, *cur[x]) for x in ranks):
                yield dict(cur)
            return
        rank = ranks[i]
        nat, wild, size = cur[rank]
        for w in range(min(left, max(0, wild_cap(rules, nat) - wild)) + 1):
            cur[rank] = (nat, wild + w, size + w)
            yield from go(i + 1, left - w, cur)
        cur[rank] = (nat, wild, size)

    yield from go(0, hand[TWO] + hand[JK], base)


def unopened_take_ok(p: Pos) -> bool:
    """``p`` is the position just after an unopened side took the pile with the top card's meld,
    still below the minimum: can melds from the hand reach the minimum and leave a legal end of turn?

    After the minimum is reached the pending pile joins the hand; two or more cards can always end
    the turn, fewer must go out."""
    assert p.pending is not None
    pend = sum(p.pending)
    short = p.need - p.points
    best = _hand_meld_points(p.rules, p.hand, p.melds)
    if any(pts >= short and p.size - used + pend >= 2 for used, pts in best.items()):
        return True
    if pend > 1:
        return False
    # Going out in this turn: meld every hand card (all but one when nothing is pending), reaching
    # the minimum with hand cards, then meld or discard what is left.
    options: list[int | None] = [None]
    if pend == 0:
        options += [x for x in DISCARDABLE if p.hand[x]]
    for d in options:
        hand = list(p.hand)
        if d is not None:
            hand[d] -= 1
        gained = sum(POINTS[x] * hand[x] for x in range(15))
        if gained < short:
            continue
        for melds in _all_meld_configs(p.rules, hand, p.melds):
            q = p.copy()
            q.melds = melds
            q.points = p.points + gained
            q.hand = [0] * 15
            if d is not None:
                q.hand[d] = 1
            q = pick_up_if_open(q)
            if turn_can_end(q) and q.size <= 1:
                return True
    return False


# --- the moves --------------------------------------------------------------------------------

def take_candidates(state: Any) -> list[Move]:
    if not state.pile:
        return [Move("take")]
    hand = counts_by_code(state.hands[state.turn_seat])
    rank = rank_of(state.pile[-1])
    out = []
    for k in range(max(hand[code_of(state.pile[-1])], 2) + 1):
        for a in range(hand[TWO] + 1):
            for b in range(hand[JK] + 1):
                out.append(Move("take", rank, k, a, b))
    return out


def take_ok(state: Any, m: Move) -> bool:
    r = state.rules
    pile = state.pile
    if not pile:
        return False
    top = pile[-1]
    rank = code_of(top)
    # §3.5: never when the top card is a wild card or a black three (nor a red three).
    if rank not in NATURALS or m.rank != rank:
        return False
    p = pos_of(state)
    k, a, b = m.naturals, m.twos, m.jokers
    if k > p.hand[rank] or a > p.hand[TWO] or b > p.hand[JK]:
        return False
    # D6: a one-card pile may not be taken by a player holding one card.
    if r.one_card_pile_rule and len(pile) == 1 and p.size == 1:
        return False
    side = r.side_of(state.turn_seat)
    frozen = frozen_by_contents(r, pile) or r.pile_always_frozen or not state.opened[side]
    forms = {(2, 0, 0)}
    if not frozen:
        if r.unfrozen_take_with_natural_plus_wild:
            forms |= {(1, 1, 0), (1, 0, 1)}
        if r.unfrozen_take_by_adding and rank in p.melds:
            forms.add((0, 0, 0))
    if (k, a, b) not in forms:
        return False
    nat, wild, size = p.melds.get(rank, (0, 0, 0))
    if not meld_valid(r, nat + 1 + k, wild + a + b, size + 1 + k + a + b):
        return False
    q = p.copy()
    q.hand[rank] -= k
    q.hand[TWO] -= a
    q.hand[JK] -= b
    q.melds[rank] = (nat + 1 + k, wild + a + b, size + 1 + k + a + b)
    q.source = "pile"
    rest = codes_of_cards(pile[:-1])
    rest[RED3] = 0  # red threes in the pile are laid out, not replaced (§3.5)
    if not q.opened:
        q.points = POINTS[rank] * (1 + k) + POINTS[TWO] * a + POINTS[JK] * b
        q.pending = rest
        if q.points < q.need:
            if unopened_take_ok(q):
                return True
            # D2 (b) with concealed_allows_pile: no minimum for a concealed going-out, even with the
            # pile; the whole pile joins the hand and he must go out at once.
            w = q.copy()
            w.hand = [x + y for x, y in zip(q.hand, rest, strict=True)]
            w.pending = None
            return pile_waiver(r) and can_go_out(w)
        q = pick_up_if_open(q)
    else:
        q.hand = [x + y for x, y in zip(q.hand, rest, strict=True)]
    return turn_can_end(q)


def draw_phase_moves(state: Any) -> set[Move]:
    r = state.rules
    takes = {m for m in take_candidates(state) if take_ok(state, m)}
    if state.stock:
        return {Move("draw"), *takes}
    # §3.8 / D26: stock empty.
    forced = False
    if takes:
        rule = r.forced_take_after_stock
        if rule == "whenever_able":
            forced = True
        elif rule == "matches_own_meld_unfrozen":
            # The pile is not frozen for the side and its top card fits the side's meld: taking it
            # by adding it to that meld is compulsory (the only take that needs an unfrozen pile
            # and a meld of that rank).
            forced = Move("take", code_of(state.pile[-1])) in takes
    return takes if forced else {*takes, Move("pass")}


def play_candidates(state: Any) -> list[Move]:
    hand = counts_by_code(state.hands[state.turn_seat])
    out = [Move(a) for a in (*SIMPLE_ACTIONS, "take")]
    out += [Move("discard", x) for x in range(15)]
    for rank in (BLACK3, *NATURALS):
        for k in range(hand[rank] + 1):
            for a in range(hand[TWO] + 1):
                for b in range(hand[JK] + 1):
                    if k + a + b:
                        out.append(Move("meld", rank, k, a, b))
    return out


def play_move_ok(state: Any, p: Pos, m: Move) -> bool:
    """Legality in the play phase, before the permission obligation."""
    r = state.rules
    stage = state.stage
    side = r.side_of(state.turn_seat)
    if m.action == "meld":
        if not meld_ok_here(p, m.rank, m.naturals, m.twos, m.jokers):
            return False
        if p.withdrew and not p.opened:
            return reachable_after_withdraw(add_meld(p, m.rank, m.naturals, m.twos, m.jokers))
        return True
    if m.action == "discard":
        if m.rank not in DISCARDABLE or not p.hand[m.rank] or p.pending is not None or p.no_discard:
            return False
        if p.size == 1:
            return out_ok(p)  # the last card: going out (maybe concealed, D2)
        # Staged melds short of the minimum: meld more or withdraw.
        return stage is None or opening_met(p)
    if m.action == "pass":
        return p.no_discard and p.pending is None and (stage is None or opening_met(p))
    if m.action == "withdraw":  # once a turn (engine's choice, so that every turn ends)
        return (stage is not None and not state.opened[side] and dict(stage.melds) != dict(state.melds[side])
                and not p.withdrew)
    if m.action == "ask":
        return (r.permission == "optional_binding" and r.players > r.teams and p.permission is None
                and not state.turn.melded and stage is None and p.size >= 2)
    return False


def reachable_after_withdraw(q: Pos) -> bool:
    """After the one withdraw of a turn, a staged meld must go out at once or leave the minimum
    reachable from the hand while keeping two cards (one to discard, one to hold)."""
    short = q.need - q.points
    if q.size == 0 or short <= 0:
        return True
    if q.pending is not None:  # a taken pile waits: the same test as for the take itself
        return unopened_take_ok(q)
    return any(pts >= short and q.size - used >= 2
               for used, pts in _hand_meld_points(q.rules, q.hand, q.melds).items())


def obliged_ok(p: Pos, m: Move) -> bool:
    """After 'yes' (or a concealed take), when the player can go out, only moves that keep him able
    to go out remain; the obligation lapses if he cannot go out at all (the engine's documented
    choice, the sources are silent)."""
    if m.action == "discard":
        return p.size == 1
    if m.action == "meld":
        q = add_meld(p, m.rank, m.naturals, m.twos, m.jokers)
        return q.size == 0 or can_go_out(q)
    return False


def play_phase_moves(state: Any) -> set[Move]:
    p = pos_of(state)
    moves = {m for m in play_candidates(state) if play_move_ok(state, p, m)}
    if p.obliged and can_go_out(p):
        moves = {m for m in moves if obliged_ok(p, m)}
    return moves


# Rules options the reference does not model, with the Classic value it assumes (docs/sources.md §5/§9 and
# the variant presets add these; the reference covers Classic and the options of §6).
CLASSIC_ONLY = {
    "wild_melds": False, "max_meld_size": 0, "cutthroat": False, "acaba": False,
    "pile_blocked_for_canastas": False, "jokers_discardable": True, "pile_needs_opened_side": False,
    "recycle_pile": False, "pile_take_limit": 0, "black_three_first_round_discard": True,
    "pile_black_threes": "hand",
}


def supported(rules: Any) -> bool:
    return all(getattr(rules, name, value) == value for name, value in CLASSIC_ONLY.items())


def legal_moves(state: Any) -> set[Move]:
    """The set of legal moves of ``state`` for ``state.to_move``."""
    if not supported(state.rules):
        bad = [n for n, v in CLASSIC_ONLY.items() if getattr(state.rules, n, v) != v]
        raise NotImplementedError(f"the reference does not model {', '.join(bad)}")
    phase = state.phase
    if phase == "over":
        return set()
    if phase == "answer":
        return {Move("yes"), Move("no")}
    if phase == "draw":
        return draw_phase_moves(state)
    if phase == "play":
        return play_phase_moves(state)
    raise ValueError(f"unknown phase {phase!r}")


def all_candidates(state: Any) -> list[Move]:
    """Every move the brute force looks at in this position (legal or not)."""
    return [*take_candidates(state), *play_candidates(state)]
