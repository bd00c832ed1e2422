"""Dealing a hand (docs/sources.md §3.1): the shuffled deck, the upcard, threes laid out and replaced, and
Modern American's bonus cards for the first sides to open (docs/sources.md §4C).
"""

from __future__ import annotations

import random
import secrets
from typing import Any, Final

from ..kinds import BLACK_THREES, RED_THREES, card_str, is_wild, pack, rank_of
from ..rules import Rules
from ..state import DRAW_PHASE, NEW_TURN, Log, State, log_add
from .core import PICKED_UP, laid_out_threes

# The unshuffled pack of each (decks, jokers), made once: a new hand copies it.
_PACKS: Final[dict[tuple[int, int], list[int]]] = {}


def shuffled_deck(rules: Rules, seed: int | None, hand_number: int) -> list[int]:
    """The deck for one hand; the last card is the top. ``seed=None`` uses the OS's secure RNG."""
    shape = (rules.decks, rules.jokers)
    unshuffled = _PACKS.get(shape)
    if unshuffled is None:
        unshuffled = pack(rules.decks, rules.jokers)
        _PACKS[shape] = unshuffled
    deck = list(unshuffled)
    if seed is None:
        secrets.SystemRandom().shuffle(deck)
    else:
        shuffle(random.Random(f"canasta:{seed}:{hand_number}"), deck)
    return deck


# _BITS[n] is n.bit_length(), grown to the largest deck shuffled so far. Its items are ``Any``: compiled, one is
# read and passed to ``getrandbits`` as the object it is, without unboxing it and boxing it again.
_BITS: Final[list[Any]] = [0]


def shuffle(rng: random.Random, deck: list[int]) -> None:
    """``rng.shuffle(deck)``, draw for draw (the same calls of ``getrandbits`` as ``random.Random.shuffle`` and
    its ``_randbelow`` make, so the same deal), written out so that the compiled engine runs it as a native
    loop: interpreted, ``random.shuffle`` was about a third of the cost of dealing a hand."""
    getrandbits = rng.getrandbits
    top = len(deck) - 1
    bits = _BITS
    while len(bits) <= top + 1:
        bits.append(len(bits).bit_length())
    cards: list[Any] = deck  # compiled, the cards change places as objects (no unboxing and boxing them again)
    for i in range(top, 0, -1):
        k = bits[i + 1]
        j: int = getrandbits(k)
        while j > i:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]


def new_game(rules: Rules, seed: int | None = None) -> State:
    """A new game; the first hand is dealt. An integer seed makes every deal reproducible."""
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        # TypeError, as the compiled engine raises for a seed that is not an int at all.
        raise TypeError(f"seed must be an integer or None, got {seed!r}")
    dealer = rules.players - 1
    return start_hand(rules, seed, 1, dealer, (0,) * rules.teams, None, shuffled_deck(rules, seed, 1))


def start_hand(rules: Rules, seed: int | None, hand_number: int, dealer: int, scores: tuple[int, ...],
               last_hand: tuple[dict[str, Any], ...] | None, deck: list[int]) -> State:
    """Deal one hand from ``deck`` (docs/sources.md §3.1): cards one at a time from the dealer's left,
    the upcard (covered while it is a wild card or a red three), red threes laid out and replaced."""
    n = rules.players
    first = (dealer + 1) % n
    hands = _dealt(deck, len(deck), n, first, rules.hand_size)
    left = len(deck) - n * rules.hand_size
    # Hand and Foot: each player's foot, after the hands; without feet, the shared empty foot (end_hand skips it)
    feet = [tuple(f) for f in _dealt(deck, left, n, first, rules.foot_size)] if rules.foot_size else [PICKED_UP] * n
    stock = deck[:left - n * rules.foot_size]
    pile: list[int] = []
    frozen = False
    while rules.upcard:  # Modern American starts with an empty pile (docs/sources.md §4C [P])
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
    if rules.upcard_buries and pile:  # Italian: the upcard's number of cards face down under it (docs/sources.md §4B)
        pile = [stock.pop() for _ in range(min(_upcard_number(pile[-1]), len(stock) - 1))] + pile
    laid = laid_out_threes(rules)
    keep = 1 if rules.keeps_a_three else 0  # a three kept for a Straight (Modern American, pagat)
    for i in range(n):
        seat = (first + i) % n
        h = hands[seat]
        while _held(h, laid) > keep:
            k = next(k for k in laid if h[k])
            h[k] = h[k] - 1
            red[rules.side_of(seat)].append(k)
            c = stock.pop()
            h[c] = h[c] + 1
    return State(
        rules=rules, seed=seed, hand_number=hand_number, dealer=dealer, scores=scores,
        hands=tuple(tuple(h) for h in hands), stock=tuple(stock), pile=tuple(pile), pile_frozen=frozen,
        melds=tuple({} for _ in range(rules.teams)), red_threes=tuple(tuple(r) for r in red),
        opened=(False,) * rules.teams, has_melded=(False,) * n, turn_seat=first, to_move=first,
        phase=DRAW_PHASE, turn=NEW_TURN, stage=None, last_hand=last_hand, deal=tuple(deck),
        history=(" ".join((str(dealer), "upcard", *(card_str(c) for c in upcards))),),
        result=None, black_threes=((),) * rules.teams, concealed_canastas=((),) * rules.teams, recycled=False,
        seat_sides=tuple(rules.side_of(s) for s in range(n)), pile_hidden=len(pile) - len(upcards),
        feet=tuple(feet),
    )


def _dealt(deck: list[int], top: int, n: int, first: int, size: int) -> list[list[int]]:
    """The counts of ``size`` cards each dealt to ``n`` seats one at a time, from the dealer's left (``first``),
    off the top of ``deck[:top]`` (the top card last): the card ``q`` from the top goes to seat ``first + q``
    (modulo ``n``). Slices, one per seat: a loop that pops each card is twice the cost, interpreted."""
    if n * size > top:
        raise IndexError("the deck is too small to deal")
    held = [[0] * 53 for _ in range(n)]
    cards = deck[top - n * size:top]
    cards.reverse()  # the top card first
    for i in range(n):
        hand = held[(first + i) % n]
        for c in cards[i::n]:
            hand[c] = hand[c] + 1
    return held


def _held(hand: list[int], kinds: tuple[int, ...]) -> int:
    """How many cards of these kinds the hand holds (a loop: compiled, ``sum`` over a generator is a call into
    the interpreter)."""
    n = 0
    for k in kinds:
        n = n + hand[k]
    return n


def _upcard_number(card: int) -> int:
    """The number a card shows for Italian's start of hand: A 1, 2-10, J 11, Q 12, K 13 (a joker 0)."""
    rank = rank_of(card)
    return 1 if rank == 14 else rank


def deal_bonus_cards(state: State, p: int) -> State:
    """Modern American (docs/sources.md §4C [CLA,P,WCA]): the player who has just opened from his hand gets the
    bonus cards of his side's place in the order of opening (4, then 3), from the stock, to use from his next
    turn; none once the turn card is gone (the stock under bonus_cards_stock cards). Threes among them are
    laid out and replaced."""
    r = state.rules
    place = sum(state.opened) - 1
    if place >= len(r.bonus_cards) or len(state.stock) < r.bonus_cards_stock:
        return state
    stock = list(state.stock)
    hand = list(state.hands[p])
    side = state.seat_sides[p]
    threes = list(state.red_threes[side])
    laid = laid_out_threes(r)
    history: Log = state.log
    for _ in range(r.bonus_cards[place]):
        while stock:
            c = stock.pop()
            if c not in laid or not stock:
                hand[c] = hand[c] + 1
                break
            threes.append(c)
            history = log_add(history, p, f"{'red-three' if c in RED_THREES else 'three'} {card_str(c)}")
    hands = list(state.hands)
    hands[p] = tuple(hand)
    all_threes = list(state.red_threes)
    all_threes[side] = tuple(threes)
    return state.replace(stock=tuple(stock), hands=tuple(hands), red_threes=tuple(all_threes),
                         log=log_add(history, p, f"bonus-cards {sum(hand) - sum(state.hands[p])}"))


def redeal(state: State, deck: list[int]) -> State:
    """The same position at the start of its hand, but dealt from ``deck`` (replaying records)."""
    return start_hand(state.rules, state.seed, state.hand_number, state.dealer, state.scores, state.last_hand, deck)
