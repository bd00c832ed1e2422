"""Scoring a hand, line by line (docs/sources.md §3.6, §3.9; the public contract (docs/) "Scoring a hand")."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from .cards import parse_cards
from .kinds import (
    BLACK_THREES,
    JOKER,
    JOKER_RANK,
    RED_THREES,
    SUITS,
    THREE,
    TWO,
    VALUE,
    card_str,
    counts_of,
    is_wild,
    pack,
    rank_of,
    rank_str,
)
from .melds import SEQUENCE_MAX, meld_kind
from .rules import Rules
from .special_hands import SPECIAL_HAND_SIZE, SPECIAL_HANDS, forms

LINE_NAMES = (
    "melded_cards", "cards_in_hand", "natural_canastas", "mixed_canastas", "red_threes",
    "going_out", "undeclared_red_threes", "wild_canastas", "black_threes", "concealed_canastas", "acaba",
    "sequence_canastas", "twos_canastas", "canasta_sets", "short_sequences", "black_threes_in_hand",
    "rank_canastas", "black_threes_laid_out", "unfinished_melds", "hand_penalties", "special_hand",
)


def _cards_text(cards: Iterable[int]) -> str:
    return " ".join(card_str(c) for c in cards)


def sequence_problem(cards: Sequence[int], longest: int = SEQUENCE_MAX) -> str | None:
    """Why these cards are not a sequence (docs/sources.md §4B Samba: 3 to 7 cards of one suit in consecutive
    ranks from 4 up to the ace, with no wild cards, twos or threes), or None."""
    wild = [c for c in cards if is_wild(c)]
    if wild:
        return f"a sequence holds no wild cards or twos ({_cards_text(wild)})"
    threes = [c for c in cards if rank_of(c) == THREE]
    if threes:
        return f"a sequence runs from 4 up to the ace; threes are not part of it ({_cards_text(threes)})"
    suits = sorted({SUITS[c & 3] for c in cards}, key=SUITS.index)
    if len(suits) > 1:
        return f"a sequence is all of one suit, this mixes {', '.join(suits)}"
    ranks = sorted(rank_of(c) for c in cards)
    if ranks != list(range(ranks[0], ranks[0] + len(ranks))):
        return (f"a sequence needs consecutive ranks with no repeats (the ace is high only), this has "
                f"{' '.join(rank_str(r) for r in ranks)}")
    if len(cards) > longest:
        return f"a sequence stops at {longest} cards, this has {len(cards)}"
    return None


def meld_problem(rules: Rules, cards: Sequence[int]) -> str | None:
    """Why these cards are not a legal meld on the table, or None (docs/sources.md §3.3, §4B).

    Besides groups of one rank: sequences where ``rules.sequences`` (cards of more than one natural rank
    are read as a sequence), melds of wild cards only where ``rules.wild_melds``, and melds of twos as a
    rank of their own where ``rules.twos_as_rank`` (at least 2 twos as its naturals, jokers as its wild
    cards within the wild-card limit). Ranks in ``rules.pure_ranks`` never take wild cards, and where all
    threes are laid out (Modern American, GC-M17) no three is melded."""
    if any(c in RED_THREES for c in cards):
        return "red threes are never melded; they are laid out as bonus cards"
    naturals = [rank_of(c) for c in cards if not is_wild(c)]
    wilds = len(cards) - len(naturals)
    if len(cards) < 3:
        return f"a meld needs at least 3 cards, this has {len(cards)}"
    if rules.max_meld_size and len(cards) > rules.max_meld_size:
        return f"a meld may hold at most {rules.max_meld_size} cards, this has {len(cards)}"
    if len(set(naturals)) > 1:
        mixed = ", ".join(rank_str(r) for r in sorted(set(naturals)))
        if not rules.sequences:
            return f"a meld holds one rank, this mixes {mixed}"
        problem = sequence_problem(cards, 11 if rules.sequence_extends_going_out else SEQUENCE_MAX)
        return None if problem is None else f"neither a group of one rank (it mixes {mixed}) nor a sequence: {problem}"
    if not naturals:
        twos = sum(1 for c in cards if rank_of(c) == TWO)
        if rules.twos_as_rank and twos >= 2:
            jokers = len(cards) - twos
            if jokers <= rules.max_wilds(twos):
                return None
            if not rules.wild_melds:
                return (f"{jokers} jokers with {twos} twos breaks the wild-card limit ({rules.wild_rule}) "
                        "of a meld of twos")
        if not rules.wild_melds:
            if rules.twos_as_rank:
                return (f"a meld of wild cards only is not allowed, and a meld of twos needs at least 2 twos "
                        f"(jokers are its wild cards), this has {twos}")
            return "a meld of wild cards only is not allowed"
        if len(cards) > rules.wild_meld_max:
            return f"a meld of wild cards holds at most {rules.wild_meld_max}, this has {len(cards)}"
        return None
    if naturals[0] == THREE:
        if rules.threes_laid_out == "all":
            return "threes are laid out as bonus cards, never melded"
        return "black threes may not be melded with wild cards" if wilds else None
    if wilds and naturals[0] in rules.pure_ranks:
        return f"a meld of {rank_str(naturals[0])}s never holds wild cards"
    if len(naturals) < rules.min_naturals:
        return f"only {len(naturals)} natural card; a meld needs at least {rules.min_naturals}"
    if wilds > rules.max_wilds(len(naturals)):
        return (f"{wilds} wild cards with {len(naturals)} naturals breaks the wild-card limit "
                f"({rules.wild_rule})")
    return None


def is_canasta(meld: Sequence[int]) -> bool:
    return len(meld) >= 7


def is_natural(meld: Sequence[int]) -> bool:
    return not any(is_wild(c) for c in meld)


def is_wild_meld(meld: Sequence[int]) -> bool:
    return all(is_wild(c) for c in meld)


def kind_of(rules: Rules, meld: Sequence[int]) -> str:
    """``sequence``, ``wild``, ``twos``, ``natural`` or ``mixed`` under these rules (melds.meld_kind)."""
    kind = meld_kind(meld, rules.twos_as_rank)
    if kind == "twos":
        twos = sum(1 for c in meld if rank_of(c) == TWO)
        if len(meld) - twos > rules.max_wilds(twos):
            return "wild"  # too many jokers for a meld of twos: legal only as a meld of wild cards
    return kind


def red_threes_positive(rules: Rules, melds: Sequence[Sequence[int]]) -> bool:
    """Do the side's red threes count plus (D7)? Every canasta counts here, whatever its kind."""
    return _red_threes_positive(rules, len(melds) > 0, sum(1 for m in melds if is_canasta(m)))


def threes_sign(rules: Rules, melds: Sequence[Sequence[int]]) -> int:
    """1, 0 or -1: how the side's laid-out threes count (D7). Under ``by_canastas`` (Modern American,
    GC-S10) minus with no canasta, nothing with one, plus with two or more; otherwise plus or minus as
    ``red_threes_positive``."""
    return _threes_sign(rules, len(melds) > 0, sum(1 for m in melds if is_canasta(m)))


def _red_threes_positive(rules: Rules, has_melds: bool, canastas: int) -> bool:
    if rules.red_three_positive_if == "meld":
        return has_melds
    if rules.red_three_positive_if == "canasta":
        return canastas >= 1
    return canastas >= 2


def _threes_sign(rules: Rules, has_melds: bool, canastas: int) -> int:
    """``threes_sign`` from the side's counts: whether it has melds, and its canastas of any kind."""
    if rules.red_three_positive_if == "by_canastas":
        return -1 if canastas == 0 else 0 if canastas == 1 else 1
    return 1 if _red_threes_positive(rules, has_melds, canastas) else -1


def unfinished_penalty(rules: Rules, meld: Sequence[int]) -> int:
    """What this meld costs if it is still unfinished (under 7 cards) at the end of the hand (Modern
    American, docs/sources.md §4C, GC-S08): the ``unfinished_penalties`` entry of its rank (0 for a meld of wild
    cards), or ``four_jokers_wild_meld_penalty`` for a meld of wild cards holding all four jokers where
    that is set. A meld of aces with wild cards (made in the opening) counts as a meld of aces."""
    if is_canasta(meld) or not rules.unfinished_penalties:
        return 0
    kind = kind_of(rules, meld)
    if kind == "wild":
        if rules.four_jokers_wild_meld_penalty and sum(1 for c in meld if c == JOKER) >= 4:
            return rules.four_jokers_wild_meld_penalty
        rank = JOKER_RANK
    elif kind in ("natural", "mixed"):
        rank = next(rank_of(c) for c in meld if not is_wild(c))
    else:
        return 0
    return dict(rules.unfinished_penalties).get(rank, 0)


def hand_penalty(rules: Rules, cards: Iterable[int]) -> int:
    """What one player's cards left in hand cost besides their values (Modern American ``hand_penalties``:
    at least 3 aces 1,500, at least 3 sevens 1,500; GC-S08, GC-S09)."""
    ranks = [rank_of(c) for c in cards]
    return sum(penalty for rank, count, penalty in rules.hand_penalties if ranks.count(rank) >= count)


def canastas_to_go_out(rules: Rules, melds: Sequence[Sequence[int]]) -> tuple[int, bool]:
    """(canastas that count towards going out, whether one of them is a sequence) (docs/sources.md §3.7, §4B).

    Where ``wild_canastas_count_to_go_out`` is off (Italian) neither a canasta of wild cards nor a canasta
    of twos melded as a rank counts, as in the engine's ``out_canastas``."""
    n, sequence = 0, False
    for m in melds:
        if not is_canasta(m):
            continue
        kind = kind_of(rules, m)
        if not rules.wild_canastas_count_to_go_out and kind in ("wild", "twos"):
            continue
        n += 1
        sequence = sequence or kind == "sequence"
    return n, sequence


def set_bonus(rules: Rules, pure: int, canastas: int) -> int:
    """The canasta-set bonuses (Italian): for each group, the best entry whose counts the side reaches."""
    best: dict[str, int] = {}
    for group, need_pure, need_all, bonus in rules.canasta_set_bonuses:
        if pure >= need_pure and canastas >= need_all:
            best[group] = max(best.get(group, 0), bonus)
    return sum(best.values())


def acaba_score(rules: Rules, opponent: bool) -> dict[str, Any]:
    """A hand ended by Acaba: the caller's side scores nothing, each opposing side acaba_bonus."""
    lines = {name: 0 for name in LINE_NAMES[:7]}
    lines["acaba"] = rules.acaba_bonus if opponent else 0
    return {"lines": lines, "total": lines["acaba"]}


@dataclass
class Tally:
    """What a scorer at the table counts of one side's hand: the numbers every line is computed from.

    ``tally_cards`` counts them from the cards; a score pad may give them as counts instead
    (``score_hand``'s count fields). ``natural`` excludes the canastas of ranks in ``rank_canasta_bonus``,
    which ``rank_bonuses`` scores; ``canastas`` counts every canasta of any kind (red threes' sign,
    ``melds_minus_without_canasta``), ``pure`` and ``all_canastas`` those that count for canasta sets."""

    melded: int = 0
    has_melds: bool = False
    canastas: int = 0
    natural: int = 0
    rank_bonuses: int = 0
    mixed: int = 0
    sequence: int = 0
    wild_bonus: int = 0
    twos_bonus: int = 0
    pure: int = 0
    all_canastas: int = 0
    short_sequences: int = 0
    unfinished: int = 0
    in_hand: int = 0
    undeclared: int = 0
    blacks_in_hand: int = 0
    hand_penalty: int = 0
    threes: bool = False
    reds: int = 0
    blacks_out: int = 0
    black_bonus: int = 0
    concealed_canastas: int = 0
    went_out: bool = False
    concealed: bool = False


def score_side(rules: Rules, melds: Sequence[Sequence[int]], hand: Iterable[int],
               red_threes: Sequence[int], went_out: bool = False, concealed: bool = False,
               black_threes: Sequence[int] = (), concealed_canastas: int = 0, *,
               player_hands: Sequence[Sequence[int]] = ()) -> dict[str, Any]:
    """One side's score for a hand: ``{"lines": {...}, "total": N}`` with lines summing to total.

    Each canasta scores by its kind (``melds.meld_kind``): natural and mixed groups as Classic (a natural
    canasta of a rank in ``rank_canasta_bonus`` scores that bonus instead); a sequence of seven
    ``sequence_bonus``; wild cards only ``wild_canasta_value``; twos melded as a rank
    ``twos_canasta_bonus`` (no jokers) or ``mixed_twos_canasta_bonus``, for the side going out only.
    Lines that only some rules have (wild canastas, black threes laid aside, concealed canastas, sequence
    canastas, canastas of twos, canasta sets, short sequences, black threes in hand at a cost other than
    their card value, and Modern American's canastas of 7s and aces, black threes laid out, unfinished
    melds and hand penalties) appear only under those rules.

    ``hand`` is every card left in the side's hands. ``player_hands`` splits them by player, for the
    penalties charged to each player separately (``hand_penalties``); it must hold the same cards as
    ``hand``, or ``hand`` may be empty and is then taken from it. Without it ``hand`` counts as one
    player's. Where ``threes_laid_out`` is ``all``, ``red_threes`` holds the side's laid-out threes of both
    colours, and each colour is scored apart on ``red_three_scale`` (GC-S10)."""
    return side_lines(rules, tally_cards(rules, melds, hand, red_threes, went_out, concealed, black_threes,
                                         concealed_canastas, player_hands=player_hands))


def tally_cards(rules: Rules, melds: Sequence[Sequence[int]], hand: Iterable[int],
                red_threes: Sequence[int], went_out: bool = False, concealed: bool = False,
                black_threes: Sequence[int] = (), concealed_canastas: int = 0, *,
                player_hands: Sequence[Sequence[int]] = ()) -> Tally:
    """The ``Tally`` of a side's cards (the arguments as ``score_side``'s)."""
    hand = list(hand)
    if player_hands:
        everything = [c for h in player_hands for c in h]
        if not hand:
            hand = everything
        elif sorted(hand) != sorted(everything):
            raise ValueError("player_hands do not hold the same cards as hand")
    # Plain loops and counters here, one pass each over the hand and the melds: compiled, ``sum`` over a
    # generator, ``dict.fromkeys`` and ``sum(lines.values())`` are calls through the interpreter's C API (the
    # end of a Classic hand scored its two sides for about 64,000 instructions).
    own_line = rules.black_three_in_hand != VALUE[BLACK_THREES[0]]
    undeclared = blacks_in_hand = in_hand = 0
    for c in hand:
        if c in RED_THREES:
            undeclared += 1
        if c in BLACK_THREES:
            blacks_in_hand += 1
            if own_line:
                continue  # black threes left in hand cost their own line (Bolivia 100), not their card value
        in_hand += VALUE[c]
    natural = mixed = sequence = canastas = 0
    wild_bonus = twos_bonus = 0
    pure = all_canastas = 0  # for canasta_set_bonuses; a sequence canasta is pure (natural)
    rank_bonuses = 0
    rank_bonus = dict(rules.rank_canasta_bonus) if rules.rank_canasta_bonus else None
    melded = 0
    # compiled, a tuple's items are read natively (the engine's melds are tuples already: no copies)
    for meld in [tuple(m) for m in melds]:
        for c in meld:
            melded += VALUE[c]
        if not is_canasta(meld):
            continue
        canastas += 1
        kind = kind_of(rules, meld)
        if kind == "natural":
            if rank_bonus is not None and rank_of(meld[0]) in rank_bonus:
                rank_bonuses += rank_bonus[rank_of(meld[0])]  # natural 7s or aces (Modern American)
            else:
                natural += 1
        elif kind == "mixed":
            mixed += 1
        elif kind == "sequence":
            sequence += 1
        elif kind == "wild":
            wild_bonus += rules.wild_canasta_value(sum(1 for c in meld if c == JOKER))
        elif kind == "twos":
            if not went_out:
                continue  # only card values for a side not going out, and no part in canasta sets
            natural_twos = all(rank_of(c) == TWO for c in meld)
            twos_bonus += rules.twos_canasta_bonus if natural_twos else rules.mixed_twos_canasta_bonus
            pure += natural_twos
            all_canastas += 1
            continue
        pure += kind in ("natural", "sequence")
        all_canastas += 1
    all_threes = rules.threes_laid_out == "all"  # each colour scored apart (GC-S10)
    reds = sum(1 for c in red_threes if c in RED_THREES) if all_threes else len(red_threes)
    short = 0
    if rules.sequences and rules.short_sequence_penalty:
        short = sum(1 for m in melds if len(m) < rules.short_sequence_under and kind_of(rules, m) == "sequence")
    return Tally(
        melded=melded, has_melds=len(melds) > 0, canastas=canastas, natural=natural, rank_bonuses=rank_bonuses,
        mixed=mixed, sequence=sequence, wild_bonus=wild_bonus, twos_bonus=twos_bonus, pure=pure,
        all_canastas=all_canastas, short_sequences=short,
        unfinished=sum(unfinished_penalty(rules, m) for m in melds) if rules.unfinished_penalties else 0,
        in_hand=in_hand, undeclared=undeclared, blacks_in_hand=blacks_in_hand,
        hand_penalty=sum(hand_penalty(rules, h) for h in (player_hands or [hand])) if rules.hand_penalties else 0,
        threes=len(red_threes) > 0, reds=reds, blacks_out=len(red_threes) - reds if all_threes else 0,
        black_bonus=len(black_threes), concealed_canastas=concealed_canastas, went_out=went_out,
        concealed=concealed)


def side_lines(rules: Rules, t: Tally) -> dict[str, Any]:
    """One side's ``{"lines": {...}, "total": N}`` from what was counted: the one place the lines are made."""
    three_scale = rules.red_three_scale
    sign = _threes_sign(rules, t.has_melds, t.canastas) if t.threes else 0
    going_out = 0
    if t.went_out:
        going_out = rules.concealed_going_out_bonus if t.concealed else rules.going_out_bonus
    melded = t.melded
    if rules.melds_minus_without_canasta and not t.canastas:
        melded = -melded  # GC-S11
    lines = {
        "melded_cards": melded,
        "cards_in_hand": -t.in_hand,
        "natural_canastas": t.natural * rules.natural_canasta_bonus,
        "mixed_canastas": t.mixed * rules.mixed_canasta_bonus,
        "red_threes": sign * three_scale[min(t.reds, len(three_scale) - 1)],
        "going_out": going_out,
        "undeclared_red_threes": -t.undeclared * rules.undeclared_red_three_penalty,
    }
    if rules.pile_black_threes == "bonus":
        scale = rules.black_three_bonus_scale
        lines["black_threes"] = scale[min(t.black_bonus, len(scale) - 1)]
    if rules.concealed_canasta_bonus:
        lines["concealed_canastas"] = t.concealed_canastas * rules.concealed_canasta_bonus
    if rules.wild_melds:  # a line only where the rules have wild canastas
        lines["wild_canastas"] = t.wild_bonus
    if rules.sequences:
        lines["sequence_canastas"] = t.sequence * rules.sequence_bonus
    if rules.twos_as_rank:
        lines["twos_canastas"] = t.twos_bonus
    if rules.canasta_set_bonuses:
        lines["canasta_sets"] = set_bonus(rules, t.pure, t.all_canastas)
    if rules.sequences and rules.short_sequence_penalty:
        lines["short_sequences"] = -t.short_sequences * rules.short_sequence_penalty
    if rules.black_three_in_hand != VALUE[BLACK_THREES[0]]:
        lines["black_threes_in_hand"] = -t.blacks_in_hand * rules.black_three_in_hand
    if rules.rank_canasta_bonus:
        lines["rank_canastas"] = t.rank_bonuses
    if rules.threes_laid_out == "all":
        lines["black_threes_laid_out"] = sign * three_scale[min(t.blacks_out, len(three_scale) - 1)]
    if rules.unfinished_penalties:
        lines["unfinished_melds"] = -t.unfinished
    if rules.hand_penalties:
        lines["hand_penalties"] = -t.hand_penalty
    total = 0
    for value in lines.values():
        total += value
    return {"lines": lines, "total": total}


def score_special_hand(rules: Rules, name: str) -> dict[str, Any]:
    """The score of a side that laid down a special hand (Modern American, docs/sources.md §4C, GC-S20): only the
    hand's value from ``rules.special_hands``, in one line ``special_hand``; nothing else of the side's
    counts that hand. Raises ``ValueError`` for a name these rules do not have."""
    values = dict(rules.special_hands)
    if name not in values:
        have = ", ".join(values) or "none"
        raise ValueError(f"{name!r} is not a special hand of {rules.name} (these rules have: {have})")
    return {"lines": {"special_hand": values[name]}, "total": values[name]}


def _card_list(value: Any, where: str) -> list[int]:
    if value is None:
        return []
    if isinstance(value, str):
        try:
            return [int(c) for c in parse_cards(value)]
        except ValueError as exc:
            raise ValueError(f"{where}: {exc}") from None
    if isinstance(value, list):
        return [c for item in value for c in _card_list(item, where)]
    raise ValueError(f"{where}: want cards as text such as '4C 5D', got {value!r}")


def meld_slot(rules: Rules, cards: Sequence[int]) -> tuple[str, int]:
    """What a legal meld is filed under: ("sequence", suit), ("wild", 0), ("twos", 2) or ("group", rank)."""
    kind = kind_of(rules, cards)
    if kind == "sequence":
        return kind, cards[0] & 3
    if kind == "wild":
        return kind, JOKER_RANK
    if kind == "twos":
        return kind, TWO
    return "group", next(rank_of(c) for c in cards if not is_wild(c))


def score_hand(rules: Rules, sides: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Score a hand given each side's melds, cards in hand and red threes (the public contract (docs/)).

    Each side is a dict with ``melds`` (a list of card texts), ``hand``, ``red_threes``, the flags
    ``went_out`` and ``concealed``, and, where black threes from taken piles are laid aside (Cuban),
    ``black_threes``. Melds may be groups, sequences, melds of wild cards or of twos as the rules allow;
    several melds of one rank only where ``several_melds_per_rank``.

    ``hands`` (a list with one card text per player of the side) may replace ``hand``, for the penalties
    charged to each player (Modern American ``hand_penalties``); a plain ``hand`` counts as one player's.
    Where all threes are laid out (Modern American) ``red_threes`` holds the side's threes of both colours
    and may be called ``threes``. Where the rules have special hands, ``special_hand`` names the one a
    side laid down: that side then scores only its value (it has no melds and did not go out; its
    ``hand``, if given, must form the special hand). Raises ``ValueError`` naming the side and the problem.
    """
    if len(sides) != rules.teams:
        raise ValueError(f"{rules.name} has {rules.teams} sides, the input has {len(sides)}")
    all_threes = rules.threes_laid_out == "all"
    known = {"melds", "hand", "hands", "red_threes", "went_out", "concealed", *count_fields(rules)}
    if rules.pile_black_threes == "bonus" or all_threes:
        known.add("black_threes")
    if all_threes:
        known.add("threes")
    if rules.special_hands:
        known.add("special_hand")
    per_side = rules.players // rules.teams
    total_counts = [0] * 53
    budget: dict[str, int] = {}
    out = []
    outs = specials = 0
    for i, side in enumerate(sides):
        name = f"side {i + 1}"
        if not isinstance(side, dict):
            raise ValueError(f"{name}: want an object with melds, hand and red_threes")
        extra = set(side) - known
        if extra:
            raise ValueError(f"{name}: unknown field(s) {', '.join(sorted(extra))}; valid: {', '.join(sorted(known))}")
        counted = {k: v for k, v in side.items() if _counted(k, v)}
        cards = {k: v for k, v in side.items() if k not in counted}
        raw_melds = cards.get("melds") or []
        if not isinstance(raw_melds, list):
            raise ValueError(f"{name}: melds must be a list of card texts")
        melds = [_card_list(m, f"{name} meld {j + 1}") for j, m in enumerate(raw_melds)]
        hand, player_hands = _side_hands(cards, name, per_side)
        if "threes" in side and "red_threes" in side:
            raise ValueError(f"{name}: give the laid-out threes once, as threes or as red_threes")
        threes = _card_list(cards.get("threes", cards.get("red_threes")), f"{name} threes" if all_threes
                            else f"{name} red threes")
        blacks = _card_list(cards.get("black_threes"), f"{name} black threes")
        if all_threes and blacks:
            raise ValueError(f"{name}: give the laid-out black threes with the red ones, in threes")
        went_out, concealed = side.get("went_out", False), side.get("concealed", False)
        if not isinstance(went_out, bool) or not isinstance(concealed, bool):
            raise ValueError(f"{name}: went_out and concealed must be true or false")
        if concealed and not went_out:
            raise ValueError(f"{name}: concealed is set but went_out is not")
        outs += went_out
        groups: set[tuple[str, int]] = set()
        for j, m in enumerate(melds):
            problem = meld_problem(rules, m)
            if problem:
                raise ValueError(f"{name} meld {j + 1} ({_cards_text(m)}): {problem}")
            kind, r = meld_slot(rules, m)
            if kind == "group" and r == THREE and not went_out:
                raise ValueError(f"{name}: black threes may be melded only by a side going out")
            if kind == "sequence":
                continue  # a side may hold several sequences of one suit
            if (kind, r) in groups and not rules.several_melds_per_rank:
                what = "melds of wild cards" if kind == "wild" else f"melds of {rank_str(r)}s"
                raise ValueError(f"{name}: two {what}; a side has one meld per rank (they merge)")
            groups.add((kind, r))
        if went_out and "melded_points" not in counted:
            problem = _going_out_problem(rules, melds)
            if problem:
                raise ValueError(f"{name}: went out {problem}")
        for c in threes:
            if all_threes and c not in RED_THREES and c not in BLACK_THREES:
                raise ValueError(f"{name}: {card_str(c)} is not a three")
            if not all_threes and c not in RED_THREES:
                raise ValueError(f"{name}: {card_str(c)} is not a red three")
        for c in blacks:
            if c not in BLACK_THREES:
                raise ValueError(f"{name}: {card_str(c)} is not a black three")
        for c in [*hand, *threes, *blacks, *(c for m in melds for c in m)]:
            total_counts[c] = total_counts[c] + 1
        if counted:
            if side.get("special_hand") is not None:
                raise ValueError(f"{name}: a special hand is given by its name alone, without counts")
            tally = _count_tally(rules, name, counted, tally_cards(
                rules, melds, hand, threes, went_out, concealed, black_threes=blacks, player_hands=player_hands),
                cards)
            _budget(rules, budget, tally, counted, name)
            if went_out and "melded_points" in counted:
                problem = _counted_going_out_problem(rules, counted.get("canastas") or {})
                if problem:
                    raise ValueError(f"{name}: went out {problem}")
            out.append(side_lines(rules, tally))
            continue
        special = side.get("special_hand")
        if special is not None:
            specials += 1
            _check_special_hand(rules, name, special, melds, went_out, player_hands if "hands" in side
                                else [hand] if "hand" in side else [])
            out.append(score_special_hand(rules, special))
            continue
        out.append(score_side(rules, melds, hand, threes, went_out, concealed, black_threes=blacks,
                              player_hands=player_hands))
    if outs > 1:
        raise ValueError("more than one side went out")
    if specials > 1:
        raise ValueError("more than one side laid down a special hand; the first one ends the hand")
    if specials and outs:
        raise ValueError("a special hand ends the hand, so no side can also have gone out")
    limit = counts_of(pack(rules.decks, rules.jokers))
    for c in range(53):
        if total_counts[c] > limit[c]:
            raise ValueError(f"{total_counts[c]} × {card_str(c)} but the pack of {rules.pack_size} "
                             f"holds only {limit[c]}")
    threes_given = sum(total_counts[c] for c in RED_THREES) + budget.get("red threes", 0)
    if threes_given > 2 * rules.decks:
        raise ValueError(f"{threes_given} red threes in all, but the pack of {rules.pack_size} holds only "
                         f"{2 * rules.decks}")
    if budget:
        _check_budget(rules, budget)
    return out


# --- a hand given as counts (a score pad): the fields, read into a Tally ------------------------------------

def count_fields(rules: Rules) -> tuple[str, ...]:
    """The count fields a side may give under these rules instead of cards (docs/position-schema.md)."""
    fields = ["melded_points", "canastas", "hand_points", "undeclared_red_threes"]
    if rules.black_three_in_hand != VALUE[BLACK_THREES[0]]:
        fields.append("black_threes_in_hand")
    if rules.sequences and rules.short_sequence_penalty:
        fields.append("short_sequences")
    if rules.unfinished_penalties:
        fields.append("unfinished_melds")
    if rules.hand_penalties:
        fields.append("hand_penalties")
    if rules.concealed_canasta_bonus:
        fields.append("concealed_canastas")
    return tuple(fields)


def unfinished_ranks(rules: Rules) -> dict[str, int]:
    """The ranks ``unfinished_melds`` takes (``"A"``, ``"7"``, ``"JK"`` wild cards, ``"JK4"`` four jokers),
    each with what one unfinished meld of it costs."""
    penalties = {("JK" if r == JOKER_RANK else rank_str(r)): p for r, p in rules.unfinished_penalties}
    if rules.four_jokers_wild_meld_penalty:
        penalties["JK4"] = rules.four_jokers_wild_meld_penalty
    return penalties


def hand_penalty_ranks(rules: Rules) -> tuple[tuple[str, int, int], ...]:
    """The ranks ``hand_penalties`` takes: (rank, cards a player holds of it at least, what that costs)."""
    return tuple((rank_str(r), count, p) for r, count, p in rules.hand_penalties)


def canasta_kinds(rules: Rules) -> tuple[str, ...]:
    """The kinds of canasta a side may count under these rules (the keys of ``canastas``)."""
    kinds = ["natural", "mixed"]
    kinds += [f"natural_{rank_str(r)}" for r, _ in rules.rank_canasta_bonus]
    if rules.sequences:
        kinds.append("sequence")
    if rules.wild_melds:
        kinds.append("wild")
    if rules.twos_as_rank:
        kinds += ["twos", "twos_mixed"]
    return tuple(kinds)


COUNT_LIMIT = 10_000  # no count or point total of one side's hand comes near this (a pack of 3 holds 162 cards)


def _counted(key: str, value: Any) -> bool:
    """Is this field of a side a count (rather than cards)? Threes may be either: a number is a count."""
    if key in ("red_threes", "black_threes", "threes"):
        return isinstance(value, int) and not isinstance(value, bool)
    return key in ("melded_points", "canastas", "hand_points", "undeclared_red_threes", "black_threes_in_hand",
                   "short_sequences", "unfinished_melds", "hand_penalties", "concealed_canastas")


def _whole(value: Any, where: str, most: int = COUNT_LIMIT) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{where} must be a whole number, got {value!r}")
    if value < 0:
        raise ValueError(f"{where} cannot be negative, got {value}")
    if value > most:
        raise ValueError(f"{where} is {value}, more than {most}")
    return value


def _ranks(value: Any, where: str, allowed: dict[str, int]) -> list[int]:
    """A list of rank texts (``["A", "7"]``) to the values ``allowed`` gives them."""
    if not isinstance(value, list) or len(value) > 64:
        raise ValueError(f"{where} must be a list of ranks such as [\"A\", \"7\"]")
    out = []
    for item in value:
        key = str(item).strip().upper()
        if key not in allowed:
            raise ValueError(f"{where}: {item!r} is not one of {', '.join(allowed)}")
        out.append(allowed[key])
    return out


def _count_tally(rules: Rules, name: str, counted: dict[str, Any], t: Tally, cards: dict[str, Any]) -> Tally:
    """``t`` (the Tally of the side's cards, if any) with the parts given as counts put in their place."""
    for one, other in (("melded_points", "melds"), ("canastas", "melds"), ("hand_points", "hand"),
                       ("hand_points", "hands")):
        if one in counted and other in cards:
            raise ValueError(f"{name}: give {other} as cards or {one} as a count, not both")
    for key in ("undeclared_red_threes", "black_threes_in_hand", "hand_penalties"):
        if key in counted and "hand_points" not in counted:
            raise ValueError(f"{name}: {key} goes with hand_points (with the hand as cards it is read from them)")
    for key in ("short_sequences", "unfinished_melds"):
        if key in counted and "melded_points" not in counted:
            raise ValueError(f"{name}: {key} goes with melded_points (with the melds as cards it is read from them)")
    if "canastas" in counted and "melded_points" not in counted:
        raise ValueError(f"{name}: canastas go with melded_points, the points of every melded card")
    if "melded_points" in counted:
        _counted_melds(rules, name, counted, t)
    most = 2 * rules.decks  # threes of one colour in the pack
    if "hand_points" in counted:
        t.in_hand = _whole(counted["hand_points"], f"{name} hand_points")
        t.undeclared = _whole(counted.get("undeclared_red_threes", 0), f"{name} undeclared_red_threes", most)
        t.blacks_in_hand = _whole(counted.get("black_threes_in_hand", 0), f"{name} black_threes_in_hand", most)
        if "hand_penalties" in counted:
            per_rank = {rank: p for rank, _, p in hand_penalty_ranks(rules)}
            t.hand_penalty = sum(_ranks(counted["hand_penalties"], f"{name} hand_penalties", per_rank))
    for key in ("red_threes", "threes"):
        if key in counted:
            t.reds = _whole(counted[key], f"{name} {key}", most)
    if "black_threes" in counted:
        blacks = _whole(counted["black_threes"], f"{name} black_threes", most)
        if rules.threes_laid_out == "all":
            t.blacks_out = blacks
        else:
            t.black_bonus = blacks
    if any(key in counted for key in ("red_threes", "threes", "black_threes")):
        t.threes = t.reds + t.blacks_out > 0
    if "concealed_canastas" in counted:
        t.concealed_canastas = _whole(counted["concealed_canastas"], f"{name} concealed_canastas", 100)
    return t


def _counted_melds(rules: Rules, name: str, counted: dict[str, Any], t: Tally) -> None:
    """Put the melds' part of a Tally from ``melded_points``, ``canastas`` and their companions into ``t``."""
    melded = _whole(counted["melded_points"], f"{name} melded_points")
    raw = counted.get("canastas") or {}
    if not isinstance(raw, dict):
        raise ValueError(f"{name} canastas must be an object such as {{\"natural\": 1, \"mixed\": 2}}")
    kinds = canasta_kinds(rules)
    unknown = sorted(set(raw) - set(kinds))
    if unknown:
        raise ValueError(f"{name} canastas: {', '.join(map(repr, unknown))} is not a kind of canasta in "
                         f"{rules.name} (kinds: {', '.join(kinds)})")
    n = {k: 0 for k in kinds}
    wild_bonus = 0
    for kind, value in raw.items():
        if kind == "wild" and isinstance(value, list):  # the jokers in each wild canasta (Cuban's bonuses)
            jokers = [_whole(j, f"{name} canastas wild (jokers)", rules.jokers) for j in value]
            n[kind] = len(jokers)
            wild_bonus = sum(rules.wild_canasta_value(j) for j in jokers)
        else:
            n[kind] = _whole(value, f"{name} canastas {kind}", rules.pack_size // 7)
            if kind == "wild":
                wild_bonus = n[kind] * rules.wild_canasta_bonus
    canastas = sum(n.values())
    if melded < 35 * canastas:
        raise ValueError(f"{name}: {canastas} canastas hold at least {35 * canastas} points of cards (7 cards of "
                         f"at least 5), but melded_points is {melded}")
    rank_bonus = dict(rules.rank_canasta_bonus)
    naturals = n["natural"] + sum(n[f"natural_{rank_str(r)}"] for r in rank_bonus)
    twos, twos_mixed = (n.get("twos", 0), n.get("twos_mixed", 0)) if t.went_out else (0, 0)
    t.melded = melded
    t.has_melds = melded > 0 or canastas > 0
    t.canastas = canastas
    t.natural = n["natural"]
    t.rank_bonuses = sum(n[f"natural_{rank_str(r)}"] * rank_bonus[r] for r in rank_bonus)
    t.mixed = n["mixed"]
    t.sequence = n.get("sequence", 0)
    t.wild_bonus = wild_bonus
    t.twos_bonus = twos * rules.twos_canasta_bonus + twos_mixed * rules.mixed_twos_canasta_bonus
    t.pure = naturals + n.get("sequence", 0) + twos
    t.all_canastas = canastas - n.get("twos", 0) - n.get("twos_mixed", 0) + twos + twos_mixed
    if "short_sequences" in counted:
        t.short_sequences = _whole(counted["short_sequences"], f"{name} short_sequences", 64)
    if "unfinished_melds" in counted:
        t.unfinished = sum(_ranks(counted["unfinished_melds"], f"{name} unfinished_melds", unfinished_ranks(rules)))


def _budget(rules: Rules, budget: dict[str, int], tally: Tally, counted: dict[str, Any], name: str) -> None:
    """Add a counted side's canastas and threes to what the whole hand asks of the pack."""
    raw = counted.get("canastas") or {}
    for kind, value in raw.items():
        budget[kind] = budget.get(kind, 0) + (len(value) if isinstance(value, list) else value)
    if "red_threes" in counted or "threes" in counted:
        budget["red threes"] = budget.get("red threes", 0) + tally.reds
    if "hand_points" in counted:
        budget["red threes"] = budget.get("red threes", 0) + tally.undeclared
    _check_budget(rules, {k: (len(v) if isinstance(v, list) else v) for k, v in raw.items()}, name)


def _check_budget(rules: Rules, need: dict[str, int], name: str = "the sides together") -> None:
    """More canastas than the pack's cards allow? Each canasta is 7 cards; a natural one or a sequence needs
    7 natural cards, a mixed one at least the naturals the wild-card limit leaves, a wild one 7 wild cards."""
    wilds = rules.decks * 4 + rules.jokers
    naturals = rules.decks * 4 * 11  # fours up to aces
    least = next(k for k in range(1, 8) if k + rules.max_wilds(k) >= 7)
    mixed = need.get("mixed", 0)
    natural = sum(v for k, v in need.items() if k.startswith("natural")) + need.get("sequence", 0)
    wild = need.get("wild", 0)
    canastas = sum(v for k, v in need.items() if k != "red threes")
    problem = None
    if natural > 11 * (4 * rules.decks // 7) and not rules.sequences:
        problem = f"{natural} natural canastas, but each rank has only {4 * rules.decks} natural cards"
    elif 7 * canastas > rules.pack_size - 4 * rules.decks:
        problem = f"{canastas} canastas need {7 * canastas} cards"
    elif 7 * wild + mixed > wilds:
        problem = f"{wild} wild and {mixed} mixed canastas need {7 * wild + mixed} wild cards, the pack has {wilds}"
    elif 7 * natural + least * mixed > naturals:
        problem = f"{natural} natural and {mixed} mixed canastas need {7 * natural + least * mixed} natural cards"
    if problem:
        raise ValueError(f"{name}: more canastas than the pack of {rules.pack_size} allows ({problem})")


def _counted_going_out_problem(rules: Rules, raw: dict[str, Any]) -> str | None:
    """``_going_out_problem`` for canastas given as counts."""
    n = {k: (len(v) if isinstance(v, list) else v) for k, v in raw.items()}
    if not rules.wild_canastas_count_to_go_out:
        for kind in ("wild", "twos", "twos_mixed"):
            n.pop(kind, None)
    need = rules.canastas_to_go_out
    if sum(n.values()) < need:
        not_counted = "" if rules.wild_canastas_count_to_go_out else " (canastas of wild cards or twos do not count)"
        return f"without the {need} canasta(s) needed{not_counted}"
    if rules.go_out_needs_sequence and need and not n.get("sequence"):
        return f"without a sequence canasta among the {need} canastas needed"
    return None


def _side_hands(side: dict[str, Any], name: str, per_side: int) -> tuple[list[int], list[list[int]]]:
    """A side's cards in hand and, from ``hands``, the same split by player (empty without ``hands``)."""
    if "hands" not in side:
        return _card_list(side.get("hand"), f"{name} hand"), []
    if "hand" in side:
        raise ValueError(f"{name}: give the cards in hand once, as hand (all together) or as hands (per player)")
    raw = side["hands"]
    if not isinstance(raw, list):
        raise ValueError(f"{name}: hands must be a list with one card text per player, e.g. [\"AS AH AD\", \"7S\"]")
    if len(raw) > per_side:
        raise ValueError(f"{name}: hands has {len(raw)} entries but a side has {per_side} player(s)")
    player_hands = [_card_list(h, f"{name} hand of player {j + 1}") for j, h in enumerate(raw)]
    return [c for h in player_hands for c in h], player_hands


def _check_special_hand(rules: Rules, name: str, special: Any, melds: Sequence[Sequence[int]], went_out: bool,
                        hands: Sequence[Sequence[int]]) -> None:
    """Why a side's ``special_hand`` entry cannot stand (raised as ``ValueError``)."""
    values = dict(rules.special_hands)
    if not isinstance(special, str) or special not in values:
        raise ValueError(f"{name}: special_hand {special!r} is not one of {rules.name}'s special hands: "
                         f"{', '.join(values)}")
    if melds:
        raise ValueError(f"{name}: a special hand is laid down by an unopened side, but this side has melds")
    if went_out:
        raise ValueError(f"{name}: a special hand ends the hand; the side did not also go out")
    if hands and not any(forms(special, h) for h in hands):
        if all(len(h) != SPECIAL_HAND_SIZE for h in hands):
            sizes = ", ".join(str(len(h)) for h in hands)
            raise ValueError(f"{name}: a special hand is {SPECIAL_HAND_SIZE} cards; the hand(s) given hold {sizes}")
        what = SPECIAL_HANDS.get(special, "a hand this program does not define")
        raise ValueError(f"{name}: the hand given does not form {special} ({what})")


def _going_out_problem(rules: Rules, melds: Sequence[Sequence[int]]) -> str | None:
    """Why a side with these melds could not have gone out (docs/sources.md §3.7, §4B), or None."""
    n, sequence = canastas_to_go_out(rules, melds)
    need = rules.canastas_to_go_out
    if n < need:
        not_counted = "" if rules.wild_canastas_count_to_go_out else " (canastas of wild cards or twos do not count)"
        return f"without the {need} canasta(s) needed{not_counted}"
    if rules.go_out_needs_sequence and need and not sequence:
        return f"without a sequence canasta among the {need} canastas needed"
    return None
