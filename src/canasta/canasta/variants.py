"""Named presets and their aliases: the one place where variants differ (§4, §9)."""

from __future__ import annotations

from typing import Any

from .rules import CLASSIC_THRESHOLDS, Rules, check_option, make_rules

SIX_PLAYER_THRESHOLDS = (*CLASSIC_THRESHOLDS, (7500, 150))  # §4A [R]
SIX_PLAYER_RED_THREES = (0, 100, 200, 300, 400, 1000, 1200)  # 5: 1,000; 6: 1,200 [R]

SAMBA_THRESHOLDS = (*CLASSIC_THRESHOLDS, (7000, 160))  # §4B [H,HSW]; 150 [W,Br] (D13)
ITALIAN_THRESHOLDS = (*CLASSIC_THRESHOLDS[:3], (3000, 120), (5000, 160), (7500, 180), (10000, 200))  # [R]
SAMBA: dict[str, Any] = dict(
    decks=3, jokers=6, hand_size=15, draw_count=2, wild_rule="max2", sequences=True, several_melds_per_rank=True,
    wilds_onto_canasta=False, unfrozen_take_with_natural_plus_wild=False, take_onto_canasta=False,
    canastas_to_go_out=2, going_out_bonus=200, concealed_going_out_bonus=200,
    red_three_scale=(0, 100, 200, 300, 400, 500, 1000), red_three_positive_if="two_canastas",
    initial_meld=SAMBA_THRESHOLDS, target=10000, failed_permission_penalty=100)  # X8 [Sp]
BOLIVIA: dict[str, Any] = {
    **SAMBA, "wild_melds": True, "wild_canasta_bonus": 2500, "go_out_needs_sequence": True,
    "black_three_in_hand": 100, "initial_meld": (*CLASSIC_THRESHOLDS, (7000, 150)), "target": 15000}

# §4C Modern American, pagat's profile (D20): see docs/variants/modern-american.md for every value's source.
AMERICAN_THRESHOLDS = ((-(10**9), 125), (3000, 155), (5000, 180))  # negative scores too [CLA,P,NVSO]
MODERN_AMERICAN: dict[str, Any] = dict(
    hand_size=13, upcard=False, threes_laid_out="all", wild_rule="max2", max_meld_size=7, wild_melds=True,
    rule_of_five=5, pure_ranks=(7,), pure_after_opening_ranks=(14,), wild_meld_blocks_wilds=True, dead_ranks=True,
    initial_meld=AMERICAN_THRESHOLDS, top_card_counts=False, opening_needs_meld="natural_or_wild", splash=True,
    bonus_cards=(4, 3), bonus_cards_stock=9, special_hands=(("straight", 3000), ("pairs", 2500),
                                                            ("pairs_twos_sevens_aces", 2000), ("garbage", 2000)),
    pile_always_frozen=True, canastas_to_go_out=2, go_out_needs_discard=True, permission_once=True,
    rank_canasta_bonus=((7, 2500), (14, 2500)), wild_canasta_bonus=2000,
    wild_canasta_bonus_by_jokers=((0, 3000), (4, 2500)), concealed_going_out_bonus=100,
    red_three_scale=(0, 100, 300, 500, 1000), red_three_positive_if="by_canastas", last_card_red_three="end_in_hand",
    unfinished_penalties=((14, 2500), (7, 2500), (0, 2000)), four_jokers_wild_meld_penalty=2500,
    hand_penalties=((14, 3, 1500), (7, 3, 1500)), melds_minus_without_canasta=True, undeclared_red_three_penalty=5,
    wild_excess_penalty=0, target=8500)  # X7 is Classic's [S1]; the American sources state no such penalty

PRESETS: dict[str, dict[str, Any]] = {
    # §3: pagat Classic, with the §6 recommended readings.
    "classic": {},
    # §4A: 15 cards, draw 2 discard 1, two canastas to go out [P,H,R]; the last single stock card counts
    # as a full draw and a red three among the last cards is not replaced [P,R].
    "two-player": dict(players=2, teams=2, hand_size=15, draw_count=2, canastas_to_go_out=2,
                       permission="none", last_card_red_three="no_replace"),
    # §4A: 13 cards, each for himself [W,R,loverummy].
    "three-player": dict(players=3, teams=3, hand_size=13, permission="none"),
    # §4A Cutthroat [R; Bicycle]: 13 cards, draw 2, two canastas, game 7,500; the first to take the pile
    # plays alone against the other two; play ends with the discard of whoever drew the last stock card.
    "cutthroat": dict(players=3, teams=3, hand_size=13, draw_count=2, canastas_to_go_out=2, target=7500,
                      permission="none", cutthroat=True, end_of_stock="end_at_once"),
    # §4A: two teams of three, 162 cards, 13 each, two canastas, red threes 5: 1,000 and 6: 1,200,
    # 150 from 7,500, game 10,000 [R]; partners seated alternately.
    "six-player": dict(players=6, teams=2, decks=3, jokers=6, hand_size=13, canastas_to_go_out=2,
                       red_three_scale=SIX_PLAYER_RED_THREES, initial_meld=SIX_PLAYER_THRESHOLDS, target=10000),
    # §4A: three teams of two, game 7,500 [R].
    "six-player-three-teams": dict(players=6, teams=3, decks=3, jokers=6, hand_size=13, canastas_to_go_out=2,
                                   red_three_scale=SIX_PLAYER_RED_THREES, initial_meld=SIX_PLAYER_THRESHOLDS,
                                   target=7500),
    # §4A: Classic plus Acaba [W].
    "british": dict(acaba=True),
    # §4B, D23: wild-card melds of 3-7 wilds, wild canasta 2,000, the pile always frozen [Sc,R].
    "uruguayan": dict(wild_melds=True, wild_canasta_bonus=2000, pile_always_frozen=True),
    # §4B: 13 cards, pile always frozen, canastas capped at 7, wild canastas 2,000 / 3,000 (4 jokers +
    # 3 twos) / 4,000 (7 twos), red threes 100/300/500/1,000 plus only with a canasta, black threes not
    # discarded in the first round and laid aside from taken piles (5 each, 100 for four), 150 from
    # 5,000, game 7,500, going out 100 with no concealed bonus [R,W].
    "cuban": dict(hand_size=13, pile_always_frozen=True, max_meld_size=7, wild_melds=True, wild_canasta_bonus=2000,
                  wild_canasta_bonus_by_jokers=((0, 4000), (4, 3000)), red_three_scale=(0, 100, 300, 500, 1000),
                  red_three_positive_if="canasta", black_three_first_round_discard=False,
                  pile_black_threes="bonus", initial_meld=(*CLASSIC_THRESHOLDS, (5000, 150)), target=7500,
                  concealed_going_out_bonus=100),
    # §4B Samba [H,R,W,Br,HSW]: three packs, 15 cards, draw 2; sequences; two wilds at most in a group and
    # none onto a finished canasta; several melds of a rank; the pile with a natural pair, or by adding
    # its top card to a meld smaller than a canasta; two canastas to go out; 160 from 7,000 (D13).
    "samba": dict(SAMBA),
    # §4B Bolivia [H,Sc,R,W]: Samba plus melds of 3-7 wild cards (a bolivia: 2,500), one of the two
    # canastas to go out must be an escalera, black threes left in hand -100, 150 from 7,000, game 15,000.
    "bolivia": dict(BOLIVIA),
    # §4B Brazilian [H,R,W]: Bolivia with any two canastas to go out, the late-game openings (a canasta
    # from 7,000; a canasta and 200 from 8,000 (R's reading); a natural canasta from 9,000), the pile never
    # taken for the opening, sequences under 5 cards -1,000, wild canasta 2,000, red threes 5: 1,000 and
    # 6: 1,200 plus with a canasta, compulsory permission, game 10,000.
    "brazilian": {**BOLIVIA, "go_out_needs_sequence": False, "pile_needs_opened_side": True,
                  "sequence_extends_going_out": True,
                  "initial_meld": (*SAMBA_THRESHOLDS[:4], (7000, 0), (8000, 200), (9000, 0)),
                  "opening_canasta": ((7000, "canasta"), (9000, "natural")), "short_sequence_penalty": 1000,
                  "wild_canasta_bonus": 2000, "red_three_scale": SIX_PLAYER_RED_THREES,
                  "red_three_positive_if": "canasta", "permission": "compulsory", "black_three_in_hand": 100,
                  "target": 10000},
    # §4B Chilean ("Tranca") [R,W]: the sources give only "three or four packs, sequences, wild melds";
    # everything else is Bolivia's (docs/variants/chilean.md names the gaps). Four packs: decks=4 jokers=8.
    "chilean": dict(BOLIVIA),
    # §4B Italian [R,W,HSW]: Samba-based; the pile always frozen; twos melded as a rank; natural openings
    # with the Italian thresholds; a wild canasta does not count for going out; going out 300; red threes
    # 100 each to 3, 200 each from 4; extra bonuses; the upcard's number of cards face down under it.
    "italian": {**SAMBA, "pile_always_frozen": True, "twos_as_rank": True, "natural_opening": True,
                "initial_meld": ITALIAN_THRESHOLDS, "wild_canastas_count_to_go_out": False,
                "going_out_bonus": 300, "concealed_going_out_bonus": 300,
                "red_three_scale": (0, 100, 200, 300, 800, 1000, 1200), "twos_canasta_bonus": 3000,
                "mixed_twos_canasta_bonus": 2000,
                "canasta_set_bonuses": (("pure", 5, 5, 2000), ("pure", 4, 5, 1000), ("many", 0, 10, 2000)),
                "upcard_buries": True, "target": 12000},
    # §4C Modern American in pagat's profile: 13 cards, no upcard, bonus cards, the rule of five, dead ranks,
    # all threes laid out, two canastas and a discard to go out, the penalties, special hands, game 8,500.
    "modern-american": dict(MODERN_AMERICAN),
    # The Canasta League of America's profile where it differs from pagat's (D20): the opening needs a clean
    # triple, no Splash, garbage 3,000, an unfinished wild meld -2,000 whatever its jokers, SWAD.
    "modern-american-cla": {**MODERN_AMERICAN, "opening_needs_meld": "natural", "splash": False,
                            "special_hands": (("garbage", 3000),), "four_jokers_wild_meld_penalty": 0,
                            "permission_once": False, "swad": True},
    # §4C Hand and Foot, Wikipedia's baseline (D21): decks = players + 1 with their jokers, an 11-card hand and
    # an 11-card foot, draw 2, the pile with a natural pair and only its top 5 cards, 3 natural + 4 mixed
    # canastas to go out (1 + 2 alone), red threes -300 in hand, openings 50/90/120/150 by hand, four hands.
    "hand-and-foot": dict(players=4, teams=2, decks=5, jokers=10, hand_size=11, foot_size=11, draw_count=2,
                          threes_laid_out="none", black_threes_meldable=False, pile_always_frozen=True,
                          pile_take_limit=5, canastas_to_go_out=7, natural_canastas_to_go_out=3,
                          permission="compulsory", undeclared_red_three_penalty=300,
                          initial_meld_by_hand=(50, 90, 120, 150), hands_per_game=4, concealed_going_out_bonus=100,
                          red_three_scale=(0, 0), wild_excess_penalty=0),
}

ALIASES: dict[str, str] = {
    "partnership": "classic",
    "standard": "classic",
    "four-player": "classic",
    "two-hand": "two-player",
    "2p": "two-player",
    "three-hand": "three-player",
    "cut-throat": "cutthroat",
    "3p": "three-player",
    "six-hand": "six-player",
    "6p": "six-player",
    "acaba": "british",
    "uruguay": "uruguayan",
    "cuba": "cuban",
    "tranca": "chilean",
    "chile": "chilean",
    "brazil": "brazilian",
    "italy": "italian",
    "american": "modern-american",
    "modern": "modern-american",
    "cla": "modern-american-cla",
    "hand-foot": "hand-and-foot",
    "handandfoot": "hand-and-foot",
}

# Named in the sources but not playable, with the reason (shown by `canasta rules` and the docs).
UNSUPPORTED: dict[str, str] = {
    "boat": "Boat Canasta (Slovak) is named in the sources with no rules anywhere (§4A); "
            "inventing them would not be Boat Canasta",
    "five-player": "no published source gives complete five-player rules (§5: 2 against 3 with one "
                   "of the three sitting out each hand, from one fragment only)",
}


def knows(name: str) -> bool:
    """Is ``name`` one of Canasta's presets, an alias of one, or a variant named but not supported?"""
    key = name.strip().lower().replace("_", "-").replace(" ", "-")
    return ALIASES.get(key, key) in PRESETS or key in UNSUPPORTED


def valid_names() -> list[str]:
    """The presets and their aliases, as an unknown name's message lists them."""
    return sorted(PRESETS) + sorted(f"{a} (= {t})" for a, t in ALIASES.items())


def canonical_name(name: str) -> str:
    if not isinstance(name, str):
        raise TypeError(f"a variant name is text such as 'classic', got {type(name).__name__}")
    key = name.strip().lower().replace("_", "-").replace(" ", "-")
    key = ALIASES.get(key, key)
    if key in UNSUPPORTED:
        raise ValueError(f"variant {name!r} is not supported: {UNSUPPORTED[key]}")
    if key not in PRESETS:
        raise ValueError(f"unknown variant {name!r}; valid variants: {', '.join(valid_names())}")
    return key


# Rules made so far, by variant and overrides (plain values only): a Rules object is immutable, and the engine
# keeps what it works out about a ruleset per object (legal-move tables, flags), so asking for the same rules
# again (every environment, table or game that names a variant) shares that work instead of redoing it.
_MADE: dict[tuple[str, tuple[tuple[str, type, Any], ...]], Rules] = {}
_PLAIN: frozenset[type] = frozenset((str, int, bool, float, type(None)))


def rules(name: str = "classic", /, **overrides: Any) -> Rules:
    """The rules of a named variant with overrides, e.g. ``rules("classic", target=10000)`` (the same object for
    the same arguments: a Rules object cannot change)."""
    key = canonical_name(name)
    made_key = None
    if all(type(v) in _PLAIN for v in overrides.values()):  # (the type too: 1, 1.0 and True are equal keys)
        made_key = (key, tuple(sorted((k, type(v), v) for k, v in overrides.items())))
        made = _MADE.get(made_key)
        if made is not None:
            return made
    base = PRESETS[key]
    if key == "hand-and-foot" and "players" in overrides:
        # decks = players + 1, jokers in (§4C [W]); alone (1 + 2 canastas) unless teams are given
        base = _hand_and_foot_for(check_option("players", overrides["players"]), overrides)
    made = make_rules(key, base, overrides)
    if made_key is not None:
        if len(_MADE) >= 1024:
            _MADE.clear()
        _MADE[made_key] = made
    return made


def player_counts(name: str) -> tuple[int, ...]:
    """How many players a preset can be played with (``rules(name, players=N)`` for each but the first)."""
    key = canonical_name(name)
    if key == "hand-and-foot":
        return tuple(range(2, 8))  # §4C [W]: the pack grows with the players
    return (int(PRESETS[key].get("players", 4)),)


def _hand_and_foot_for(players: int, overrides: dict[str, Any]) -> dict[str, Any]:
    base = dict(PRESETS["hand-and-foot"], players=players, decks=players + 1, jokers=2 * (players + 1))
    teams = check_option("teams", overrides.get("teams", 2 if players in (4, 6) else players))
    base["teams"] = teams
    if teams == players:  # each for himself: 1 natural + 2 mixed, nobody to ask
        base.update(canastas_to_go_out=3, natural_canastas_to_go_out=1, permission="none")
    return base
