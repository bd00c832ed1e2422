"""Card notation, the rules object and move notation (the public contract (docs/))."""

import pytest

import canasta
from canasta.canasta.cards import JOKER, parse_card, rank_of
from canasta.canasta.moves import Move


@pytest.mark.parametrize(("text", "want"), [
    ("AS", "AS"), ("10H", "TH"), ("th", "TH"), ("JK", "JK"), ("jk", "JK"), ("A♠", "AS"), ("3d", "3D"),
    ("q♣", "QC"), ("2♦", "2D"),
])
def test_card_notation(text: str, want: str) -> None:
    (card,) = canasta.parse_cards(text)
    assert str(card) == want
    assert canasta.parse_cards(str(card)) == (card,)


@pytest.mark.parametrize("bad", ["1H", "KX", "QQ", "11S", "J", "S"])
def test_bad_card_quotes_token(bad: str) -> None:
    with pytest.raises(ValueError, match=repr(bad)):
        canasta.parse_cards(f"AS {bad}")


def test_card_list_and_kinds() -> None:
    cards = canasta.parse_cards("AS, 10h 2C JK")
    assert [str(c) for c in cards] == ["AS", "TH", "2C", "JK"]
    assert rank_of(parse_card("JK")) == 0 and parse_card("JK") == JOKER
    assert repr(cards[0]) == "Card.parse('AS')"


def test_rules_presets_and_overrides() -> None:
    assert "classic" in canasta.variant_names()
    r = canasta.rules("classic", target=10000, wild_rule="max2")
    assert r.target == 10000 and r.wild_rule == "max2"
    assert r.to_dict() == {"variant": "classic", "options": {"target": 10000, "wild_rule": "max2"}}
    assert canasta.rules("standard") == canasta.rules()
    assert canasta.rules(one_card_pile_rule="false").one_card_pile_rule is False


@pytest.mark.parametrize(("name", "opts", "needle"), [
    ("no-such-variant", {}, "valid variants: .*classic"),
    ("classic", {"no_such_option": 1}, "valid options:"),
    ("classic", {"wild_rule": "max9"}, "max3"),
    ("classic", {"target": "lots"}, "target"),
    ("classic", {"players": 5}, "teams"),
])
def test_rules_rejects_unknown(name: str, opts: dict[str, object], needle: str) -> None:
    with pytest.raises(ValueError, match=needle):
        canasta.rules(name, **opts)


@pytest.mark.parametrize(("score", "need"), [(-1000, 15), (-5, 15), (0, 50), (1495, 50), (1500, 90),
                                             (2995, 90), (3000, 120), (9995, 120)])
def test_minimum_count_table(score: int, need: int) -> None:
    """GOLDEN GC-I06: where the thresholds change."""
    assert canasta.rules().minimum_count(score) == need


@pytest.mark.parametrize("move", [
    Move("draw"), Move("take", 9, 2), Move("take", 9, 1, 1), Move("take", 9, 1, 0, 1), Move("take", 13),
    Move("meld", 9, 3), Move("meld", 9, 2, 1, 1), Move("meld", 9, 0, 1), Move("meld", 3, 3),
    Move("discard", 0), Move("discard", 2), Move("discard", 14), Move("ask"), Move("yes"), Move("no"),
    Move("withdraw"), Move("pass"),
])
def test_move_notation_round_trips(move: Move) -> None:
    state = canasta.positions.build_position(hands={0: "9S 9H"}, pile="KD")
    assert canasta.parse_move(state, str(move)) == move


@pytest.mark.parametrize(("text", "want"), [
    ("meld 9h 9s 2c", "meld 9 9 2"), ("MELD 10H 10D 10C", "meld T T T"), ("meld jk on 9", "meld JK on 9"),
    ("discard Q♠", "discard Q"), ("x 5", "discard 5"), ("d", "draw"), ("take KH KS", "take K K"),
])
def test_move_parser_accepts_variants(text: str, want: str) -> None:
    state = canasta.positions.build_position(hands={0: "9S 9H"}, pile="KD")
    assert str(canasta.parse_move(state, text)) == want


@pytest.mark.parametrize(("text", "needle"), [
    ("", "empty move"), ("fly", "unknown move"), ("meld 9 8 8", "one rank"),
    ("discard", "discard one card"), ("draw 5", "takes no cards"), ("meld 9 9 ZZ", "'ZZ'"),
])
def test_move_parser_errors(text: str, needle: str) -> None:
    state = canasta.positions.build_position(hands={0: "9S 9H"}, pile="KD")
    with pytest.raises(ValueError, match=needle):
        canasta.parse_move(state, text)


def test_illegal_move_is_value_error_with_code() -> None:
    state = canasta.new_game(canasta.rules(), seed=7)
    with pytest.raises(canasta.IllegalMove) as info:
        canasta.apply(state, "discard 5")
    assert isinstance(info.value, ValueError)
    assert info.value.code == "MUST_DRAW_FIRST"
    assert "draw" in info.value.message


def test_new_game_seed_reproducible_and_secure_default() -> None:
    r = canasta.rules()
    assert canasta.new_game(r, seed=3).to_json() == canasta.new_game(r, seed=3).to_json()
    assert canasta.new_game(r, seed=3).to_json() != canasta.new_game(r, seed=4).to_json()
    assert canasta.new_game(r).deal != canasta.new_game(r).deal
    for wrong in ("x", 2.0, True):
        with pytest.raises(TypeError):
            canasta.new_game(r, seed=wrong)  # type: ignore[arg-type]


def test_state_is_immutable() -> None:
    state = canasta.new_game(canasta.rules(), seed=1)
    with pytest.raises(AttributeError):
        state.phase = "over"  # type: ignore[misc]


def test_from_json_rejects_bad_positions() -> None:
    state = canasta.new_game(canasta.rules(), seed=1)
    with pytest.raises(ValueError, match="not valid JSON"):
        canasta.State.from_json("{")
    broken = state.to_json().replace('"stock":["', '"stock":["AS","', 1)
    with pytest.raises(ValueError, match="pack"):
        canasta.State.from_json(broken)


def test_wild_meld_is_illegal_in_classic_but_parses() -> None:
    state = canasta.positions.build_position(hands={0: "2S 2H JK 9S 9H"}, phase="play")
    move = canasta.parse_move(state, "meld 2 2 JK")
    assert str(move) == "meld 2 2 JK"
    err = canasta.why_illegal(state, move)
    assert err is not None and err.code == "WILD_MELD_NOT_ALLOWED"


def test_game_result_on_plain_scores() -> None:
    """The test the engine applies after each hand, on plain data (docs/sources.md §3.10)."""
    classic = canasta.rules("classic")
    assert canasta.game_result(classic, [4990, 3000], 5) is None  # nobody at the target
    assert canasta.game_result(classic, [5010, 3000], 5) == {"scores": [5010, 3000], "winner": 0, "hands": 5}
    assert canasta.game_result(classic, [5100, 5200], 6)["winner"] == 1  # the higher score wins
    assert canasta.game_result(classic, [5100, 5100], 6) is None  # a tie at the top: play another hand
    assert canasta.game_result(canasta.rules("classic", tie="draw"), [5100, 5100], 6)["winner"] is None
    seven = canasta.rules("classic", canastas_to_win=7)
    assert canasta.game_result(seven, [900, 1200], 2, canastas=[7, 2])["winner"] == 0
    assert canasta.game_result(seven, [900, 1200], 2) is None  # canastas not counted (a hand ended by Acaba)
    feet = canasta.rules("hand-and-foot")
    assert canasta.game_result(feet, [9000, 100], feet.hands_per_game - 1) is None  # the target plays no part
    assert canasta.game_result(feet, [100, 200], feet.hands_per_game)["winner"] == 1


def test_engine_shuffle_deals_as_random_shuffle() -> None:
    # The engine's own shuffle (a native loop when compiled) must make random.Random.shuffle's deal exactly:
    # seeded games depend on it.
    import random

    from canasta.canasta.engine.deal import shuffle

    for seed in ("canasta:0:1", "canasta:7:3", 12345):
        deck = list(range(108))
        expected = list(deck)
        random.Random(seed).shuffle(expected)
        shuffle(random.Random(seed), deck)
        assert deck == expected
    for size, seed in [(size, seed) for size in range(40) for seed in range(20)] + [(162, 1), (270, 2), (1000, 3)]:
        deck = list(range(size))
        expected = list(deck)
        random.Random(seed).shuffle(expected)
        shuffle(random.Random(seed), deck)
        assert deck == expected


def test_meld_kind_in_one_pass_is_its_definition() -> None:
    # melds.meld_kind reads suits and ranks as bit sets in one pass; it must name every card list as the plain
    # definition does: a run (is_run), wild cards only (twos as a rank with at least two twos), natural, mixed.
    import itertools
    import random

    from canasta.canasta.kinds import TWO, is_wild, rank_of
    from canasta.canasta.melds import is_run, meld_kind

    def plain(cards: list[int], twos_as_rank: bool) -> str:
        if is_run(cards):
            return "sequence"
        if all(is_wild(c) for c in cards):
            return "twos" if twos_as_rank and sum(1 for c in cards if rank_of(c) == TWO) >= 2 else "wild"
        return "natural" if not any(is_wild(c) for c in cards) else "mixed"

    lists = [list(t) for size in range(3) for t in itertools.product(range(53), repeat=size)]
    rng = random.Random(5)
    for _ in range(20000):
        size, suit, low = rng.randint(2, 12), rng.randrange(4), rng.randint(2, 12)
        cards = [(r - 2) * 4 + suit for r in range(low, min(15, low + size))]  # runs, some broken below
        if rng.random() < 0.5:
            cards[rng.randrange(len(cards))] = rng.randrange(53)
        lists.append(cards)
        lists.append([rng.choice([0, 1, 2, 3, 52]) for _ in range(rng.randint(0, 8))])
        lists.append([rng.randrange(53) for _ in range(rng.randint(0, 10))])
    for cards in lists:
        for twos_as_rank in (False, True):
            assert meld_kind(cards, twos_as_rank) == plain(cards, twos_as_rank), cards
            assert meld_kind(tuple(cards), twos_as_rank) == plain(cards, twos_as_rank), cards


def test_meld_counts_of_a_sorted_meld_are_the_plain_counts() -> None:
    import random

    from canasta.canasta.engine.core import meld_counts
    from canasta.canasta.kinds import is_wild

    rng = random.Random(8)
    for _ in range(3000):
        meld = tuple(sorted(rng.choice([0, 1, 2, 3, 52, rng.randrange(53)]) for _ in range(rng.randrange(0, 25))))
        wilds = sum(1 for c in meld if is_wild(c))
        assert meld_counts(meld) == (len(meld) - wilds, wilds)


def test_turn_with_and_new_stage_build_what_the_namedtuple_builds() -> None:
    # The engine changes Turn and Stage with these helpers (tuples built directly, no _replace): each must make
    # exactly the NamedTuple that _replace / the constructor makes, with the public type.
    from canasta.canasta.state import Stage, Turn, new_stage, turn_with

    turn = Turn(source="stock", permission="asked", melded=True, new_ranks=(7, 9), no_discard=True)
    changes = [{"permission": "yes"}, {"source": "pile", "new_ranks": (), "touched_old": True},
               {"withdrew": True}, {"must_go_out": True}, {"opened_now": True, "melded": False}, {}]
    for change in changes:
        made = turn_with(turn, **change)
        assert made == turn._replace(**change) and type(made) is Turn
        assert made.source == turn._replace(**change).source
    stage = new_stage((0,) * 53, {7: (24, 25, 26)}, turn, 50, 70, (5, 9))
    assert stage == Stage((0,) * 53, {7: (24, 25, 26)}, turn, 50, 70, (5, 9)) and type(stage) is Stage
    assert stage.points == 70 and stage.pending == (5, 9)


def test_meld_moves_are_made_once_and_equal_the_public_move() -> None:
    from canasta.canasta.engine.generate import group_move, meld_move
    from canasta.canasta.melds import SEQUENCE_BASE

    for key, k, a, b in [(7, 3, 0, 0), (9, 2, 1, 0), (14, 0, 0, 1), (23, 1, 1, 1), (300, 2, 0, 0), (8, 40, 0, 0),
                         (3, 3, 0, 0)]:
        move = meld_move(key, k, a, b)
        assert move == Move("meld", key, k, a, b) and type(move) is Move
        take = group_move(True, key, k, a, b)
        assert take == Move("take", key, k, a, b) and type(take) is Move
        if key < SEQUENCE_BASE and k < 32:  # kept in the table: the same object the next time
            assert meld_move(key, k, a, b) is move and group_move(True, key, k, a, b) is take
            assert group_move(False, key, k, a, b) is move


def test_state_moved_makes_what_replace_makes() -> None:
    # The ordinary moves make their state with State.moved (typed positional fields, the rest kept): it must equal
    # replace with the same fields, keep every other field of the state, and start with no cached counts or moves.
    import random

    state = canasta.new_game(canasta.rules("hand-and-foot"), seed=3)
    rng = random.Random(3)
    for _ in range(60):
        state = canasta.apply(state, rng.choice(canasta.legal_moves(state)))
    other = canasta.new_game(canasta.rules("hand-and-foot"), seed=4)
    fields = dict(hands=other.hands, stock=other.stock, pile=other.pile, pile_frozen=not state.pile_frozen,
                  melds=other.melds, has_melded=other.has_melded, turn_seat=(state.turn_seat + 1) % 4, to_move=2,
                  phase="play", turn=other.turn, stage=None, log=other.log)
    made = state.moved(*fields.values())
    assert made.to_json() == state.replace(**fields).to_json()
    assert made.feet == state.feet and made.scores == state.scores and made.seat_sides == state.seat_sides
    assert made.legal_cache is None and made.counts is None
    assert type(made) is canasta.State
