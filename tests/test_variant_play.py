"""Random play across every variant preset and every house-rule option, plus perft-style counts.

For every preset of ``canasta.variant_names("canasta")`` and for each house rule of docs/sources.md §5 (as an option on
Classic), seeded games of random legal moves must end within a bound, and along the way:

* the pack (``decks × 52 + jokers``) is accounted for at every ply: hands + stock + pile + melds + red
  threes + ``state.black_threes`` + a pending pile (``state.stage.pending``);
* the chosen move is legal, applies, and ``parse_move(s, str(m)) == m``;
* at sampled plies: every legal move applies and ``apply`` leaves its input unchanged (``to_json``
  before and after); ``State.from_json(s.to_json()).to_json() == s.to_json()``; ``view(s, seat)``
  shows no other seat's hand (it is unchanged when the other hands and the stock are reshuffled);
  random illegal candidate moves raise ``IllegalMove`` with a specific code (never the fallback
  ``NOT_ALLOWED_NOW``), the same code from ``why_illegal`` and ``apply``;
* at every hand's end: each ``last_hand`` entry's lines sum to its total, and the cumulative scores are
  the old scores plus the hand totals.

Perft: the number of move sequences of length 1 to 5 from three fixed positions per preset (the deal of
``new_game(rules, seed)`` and the positions 40 and 150 random plies later), stored as literals. To print
them after a deliberate change to dealing, to the move order of the walk or to the rules:
``python tests/test_variant_play.py`` (or ``... NAME ...`` for some presets or configurations only).
"""

from __future__ import annotations

import json
import random
import re
import sys
from typing import Any

import pytest

import canasta
from canasta.canasta.cards import RANK_CHARS, card_str, cards_of, counts_of, pack
from canasta.canasta.moves import Move

State = canasta.State
CODE_RE = re.compile(r"^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$")
MAX_MOVES_PER_GAME = 25_000
MAX_MOVES_PER_HAND = 4_000
SAMPLE_EVERY = 5  # full checks at every 5th ply (and at the first ply of every hand)

# House rules of docs/sources.md §5 (and the other options the issue names), each on Classic.
HOUSE_RULES: dict[str, dict[str, Any]] = {
    "pile_blocked_for_canastas": {"pile_blocked_for_canastas": True},
    "jokers_not_discardable": {"jokers_discardable": False},
    "pile_needs_opened_side": {"pile_needs_opened_side": True},
    "canastas_to_win": {"canastas_to_win": 3},
    "recycle_pile": {"recycle_pile": True},
    "pile_take_limit": {"pile_take_limit": 4},
    "concealed_canasta_bonus": {"concealed_canasta_bonus": 300},
    "hand_size_13": {"hand_size": 13},
    "hand_size_15": {"hand_size": 15},
    "draw_count_2": {"draw_count": 2},
    "wild_rule_max2": {"wild_rule": "max2"},
    "wild_rule_le_naturals": {"wild_rule": "le_naturals"},
    "wild_rule_lt_naturals": {"wild_rule": "lt_naturals"},
    "acaba": {"acaba": True},
    "black_threes_cuban": {"black_three_first_round_discard": False, "pile_black_threes": "bonus"},
    "recycle_and_take_limit_two_player": {"recycle_pile": True, "pile_take_limit": 3, "players": 2, "teams": 2,
                                          "hand_size": 15, "draw_count": 2, "permission": "none"},
}

# Player counts of Hand and Foot (decks = players + 1; docs/sources.md §4C): random play and perft, like a preset.
OPTION_CONFIGS: dict[str, tuple[str, dict[str, Any]]] = {
    "hand-and-foot+six": ("hand-and-foot", {"players": 6}),  # two teams of three
    "hand-and-foot+six-three-teams": ("hand-and-foot", {"players": 6, "teams": 3}),
    "hand-and-foot+five-alone": ("hand-and-foot", {"players": 5}),  # each for himself: 1 natural + 2
}

# Random players run up Modern American's penalties for unfinished melds of aces, sevens and wild cards
# (thousands a hand), so their games to 8,500 do not end: they play a fixed number of hands instead.
RANDOM_GAME_OPTIONS: dict[str, dict[str, Any]] = {
    "modern-american": {"hands_per_game": 3}, "modern-american-cla": {"hands_per_game": 3}}

CONFIGS: list[tuple[str, str, dict[str, Any]]] = [
    *((name, name, RANDOM_GAME_OPTIONS.get(name, {})) for name in canasta.variant_names("canasta")),
    *((f"classic+{key}", "classic", opts) for key, opts in HOUSE_RULES.items()),
    ("chilean+four_packs", "chilean", {"decks": 4, "jokers": 8}),  # 216 cards (docs/sources.md §4B Chilean)
    *((name, variant, opts) for name, (variant, opts) in OPTION_CONFIGS.items()),
]


# --- a seeded random player -----------------------------------------------------------------------

def choose(rng: random.Random, state: State) -> Move:
    """A random legal move. Melds and takes are preferred half the time (so hands end and games reach
    their target); Acaba is called rarely (else British hands would last a few moves); after a withdraw
    the player does not meld again in that turn (no endless meld/withdraw loop)."""
    legal = sorted(canasta.legal_moves(state))
    assert legal, f"no legal move for seat {state.to_move} in phase {state.phase}"
    pool = [m for m in legal if m.action not in ("acaba", "ask-acaba")]
    if not pool or rng.random() < 0.01:
        pool = legal
    if state.history and state.history[-1].endswith(" withdraw"):
        pool = [m for m in pool if m.action != "meld"] or pool
    active = [m for m in pool if m.action in ("meld", "take")]
    if active and rng.random() < 0.5:
        return rng.choice(active)
    return rng.choice(pool)


def walk(rules: canasta.Rules, seed: int, plies: int) -> State:
    """The position ``plies`` random moves after the deal of ``new_game(rules, seed)``."""
    rng = random.Random(seed)
    s = canasta.new_game(rules, seed)
    for _ in range(plies):
        if canasta.is_over(s):
            break
        s = canasta.apply(s, choose(rng, s))
    return s


# --- the checks -----------------------------------------------------------------------------------

def check_pack(s: State) -> None:
    counts = [0] * 53
    for h in (*s.hands, *s.feet):
        for kind, n in enumerate(h):
            counts[kind] += n
    loose = [*s.stock, *s.pile, *(c for r in s.red_threes for c in r), *(c for b in s.black_threes for c in b),
             *(c for side in s.melds for meld in side.values() for c in meld)]
    if s.stage is not None and s.stage.pending:
        loose.extend(s.stage.pending)
    for c in loose:
        counts[c] += 1
    want = counts_of(pack(s.rules.decks, s.rules.jokers))
    assert sum(want) == s.rules.decks * 52 + s.rules.jokers
    if counts != want:
        bad = [f"{card_str(c)}:{counts[c]}/{want[c]}" for c in range(53) if counts[c] != want[c]]
        raise AssertionError(f"the pack is not accounted for: {' '.join(bad)}")


def check_all_moves_apply(s: State) -> None:
    before = s.to_json()
    for m in canasta.legal_moves(s):
        after = canasta.apply(s, m)
        assert s.to_json() == before, f"apply({m}) changed its input"
        assert canasta.why_illegal(s, m) is None
        if after.phase != "over":
            check_pack(after)


def check_round_trip(s: State) -> None:
    text = s.to_json()
    again = State.from_json(text)
    assert again.to_json() == text
    assert sorted(canasta.legal_moves(again)) == sorted(canasta.legal_moves(s))


def _reshuffle_hidden(s: State, seat: int, rng: random.Random) -> State:
    """The same position for ``seat``: the other hands and every foot, the seat's own too (sizes kept),
    reshuffled among themselves, and the stock order reshuffled."""
    others = [p for p in range(s.rules.players) if p != seat]
    pool = [c for p in others for c in cards_of(s.hands[p])] + [c for f in s.feet for c in cards_of(f)]
    rng.shuffle(pool)
    hands = list(s.hands)
    for p in others:
        n = sum(s.hands[p])
        hands[p], pool = tuple(counts_of(pool[:n])), pool[n:]
    feet = list(s.feet)
    for p in range(s.rules.players):
        n = sum(s.feet[p])
        feet[p], pool = tuple(counts_of(pool[:n])), pool[n:]
    stock = list(s.stock)
    rng.shuffle(stock)
    return s.replace(hands=tuple(hands), stock=tuple(stock), feet=tuple(feet))


def check_views(s: State, rng: random.Random) -> None:
    for seat in range(s.rules.players):
        v = canasta.view(s, seat)
        assert v["hand"] == [card_str(c) for c in cards_of(s.hands[seat])]
        assert v["hand_sizes"] == [sum(h) for h in s.hands]
        assert v["foot_sizes"] == [sum(f) for f in s.feet]
        assert not {"hands", "stock", "deal", "seed"} & set(v)
        assert v == canasta.view(_reshuffle_hidden(s, seat, rng), seat), f"view({seat}) shows hidden cards"
        json.dumps(v)


RANKS = [*RANK_CHARS[1:], "JK"]  # 3 4 ... A JK (2 is the wild card, used below)


def candidates(rng: random.Random, s: State) -> list[str]:
    """Move texts of every kind, most of them illegal here."""
    r = rng.choice(RANKS[1:-1])  # a natural rank
    top = card_str(s.pile[-1])[0] if s.pile else "9"
    texts = ["draw", "take", f"take {top} {top}", f"take {top} 2", f"take {top} JK", f"take {r} {r}",
             f"take {top} {top} {top}", f"meld {r} {r} {r}", f"meld {r} {r}", f"meld {r}", f"meld {r} {r} 2 2 2 JK",
             f"meld 2 on {r}", "meld 2 2 JK", "meld 2", "meld JK JK JK JK JK JK JK JK", "meld 3 3 3", "meld 3 3 2",
             f"discard {rng.choice(RANKS)}", "discard 2", "discard 3", "discard JK", "ask", "yes", "no", "withdraw",
             "pass", "acaba", "ask acaba", "discard 3H", "declare garbage", "declare pairs", f"meld {r} {r} 2",
             "meld 7 7 7 2", "meld A A 2", "meld 2 on A", "meld 2 on 7", "layout", "declare straight"]
    if s.rules.sequences or s.rules.several_melds_per_rank:  # sequences, second melds, suited discards
        suit = rng.choice("SHDC")
        low = rng.randint(4, 11)
        run = " ".join(f"{RANK_CHARS[x - 2]}{suit}" for x in range(low, low + rng.randint(1, 4)))
        texts += [f"meld {run}", f"meld {run} on seq{suit}", f"meld {run} on seq{suit}/2", f"take on seq{suit}",
                  f"meld {r} {r} {r} on {r}/2", f"meld {r} {r} on {r}/3", f"take {top} {top} on {top}/2",
                  f"discard {r}{suit}", f"meld 2 on {r}/2", "meld 2 2 2", f"combine {r}/2 on {r}",
                  f"combine {r} on {r}/2"]
    return rng.sample(texts, 8)


def check_illegal_moves(s: State, rng: random.Random) -> None:
    legal = set(canasta.legal_moves(s))
    for text in candidates(rng, s):
        try:
            m = canasta.parse_move(s, text)
        except ValueError:
            assert text in ("take", "take on seqS", "take on seqH", "take on seqD", "take on seqC") and not s.pile
            continue
        if m in legal:
            continue
        err = canasta.why_illegal(s, m)
        assert err is not None, f"{text!r}: why_illegal says legal, legal_moves does not list it"
        assert CODE_RE.match(err.code) and err.code != "NOT_ALLOWED_NOW", \
            f"{text!r} in phase {s.phase}: unspecific code {err.code}: {err.message}"
        assert err.message and err.code not in err.message
        with pytest.raises(canasta.IllegalMove) as info:
            canasta.apply(s, m)
        assert info.value.code == err.code


def check_hand_end(before: State, after: State) -> None:
    assert after.last_hand is not None and len(after.last_hand) == after.rules.teams
    for old, entry, new in zip(before.scores, after.last_hand, after.scores, strict=True):
        assert sum(entry["lines"].values()) == entry["total"]
        assert entry["cumulative"] == old + entry["total"] == new
    assert sum(1 for e in after.last_hand if e["went_out"]) <= (2 if after.rules.cutthroat else 1)


CODE_ONLY = {"UNKNOWN_MOVE", "MALFORMED_MOVE"}  # docs/reason-codes.md: only for Move objects built in code


def code_problem(s: State, m: Move, code: str) -> str | None:
    """Why ``code`` does not fit ``m`` by docs/reason-codes.md's "When" lines, or None."""
    if code in CODE_ONLY:
        return f"{code} for a move the notation produced"
    held = cards_of(s.hands[s.turn_seat])
    if code == "JOKER_DISCARD_NOT_ALLOWED" and all(c == 52 for c in held):
        return f"{code} while the hand holds only jokers"
    if code == "BLACK_THREE_FIRST_ROUND":
        discards = sum(1 for h in s.history if " discard " in h)
        if discards >= s.rules.players:
            return f"{code} after the first round ({discards} discards this hand)"
        if all(c in (4, 7) for c in held):
            return f"{code} while the hand holds only black threes"
    return None


# --- random games -----------------------------------------------------------------------------------

def play_checked(rules: canasta.Rules, seed: int) -> State:
    rng = random.Random(seed * 7919 + 1)
    s = canasta.new_game(rules, seed)
    hand_moves = 0
    for ply in range(MAX_MOVES_PER_GAME):
        if canasta.is_over(s):
            assert canasta.legal_moves(s) == []
            result = canasta.outcome(s)
            assert result is not None and result["scores"] == list(s.scores)
            return s
        check_pack(s)
        if ply % SAMPLE_EVERY == 0 or hand_moves == 0:
            check_all_moves_apply(s)
            check_round_trip(s)
            check_views(s, rng)
            check_illegal_moves(s, rng)
        m = choose(rng, s)
        assert canasta.parse_move(s, str(m)) == m
        after = canasta.apply(s, m)
        if after.hand_number != s.hand_number or canasta.is_over(after):
            check_hand_end(s, after)
            hand_moves = 0
        else:
            hand_moves += 1
            assert hand_moves < MAX_MOVES_PER_HAND, f"hand {s.hand_number} did not end"
        s = after
    raise AssertionError(f"game did not end within {MAX_MOVES_PER_GAME} moves")


@pytest.mark.parametrize(("name", "variant", "options"), CONFIGS, ids=[c[0] for c in CONFIGS])
def test_random_games(name: str, variant: str, options: dict[str, Any]) -> None:
    rules = canasta.rules(variant, **options)
    for seed in (1, 2, 3):
        final = play_checked(rules, seed)
        assert max(final.scores) >= rules.target or canasta.outcome(final).get("by")


@pytest.mark.parametrize(("name", "variant", "options"), CONFIGS, ids=[c[0] for c in CONFIGS])
def test_reason_codes_fit_the_move(name: str, variant: str, options: dict[str, Any]) -> None:
    """At every ply of a random game, illegal candidate moves get a code whose documented condition
    holds (docs/reason-codes.md): never a code-only reason for notation, JOKER_DISCARD_NOT_ALLOWED only
    while another card is held, BLACK_THREE_FIRST_ROUND only in the first round."""
    rules = canasta.rules(variant, **options)
    rng = random.Random(99)
    s = canasta.new_game(rules, 3)
    problems: dict[str, str] = {}
    for _ in range(MAX_MOVES_PER_GAME):
        if canasta.is_over(s):
            break
        legal = set(canasta.legal_moves(s))
        for text in candidates(rng, s):
            try:
                m = canasta.parse_move(s, text)
            except ValueError:
                continue
            if m not in legal:
                err = canasta.why_illegal(s, m)
                assert err is not None
                problem = code_problem(s, m, err.code)
                if problem:
                    problems.setdefault(f"{err.code} {text}", f"{problem}; position: {s.to_json()}")
        s = canasta.apply(s, choose(rng, s))
    assert canasta.is_over(s)
    assert not problems, "\n".join(f"{k}: {v[:300]}" for k, v in sorted(problems.items())[:5])


# --- perft ------------------------------------------------------------------------------------------

def perft(s: State, depth: int) -> int:
    if depth == 0:
        return 1
    moves = canasta.legal_moves(s)
    if depth == 1:
        return len(moves)
    return sum(perft(canasta.apply(s, m), depth - 1) for m in moves)


PERFT_SEED = 7
PERFT_PLIES = (0, 40, 150)
PERFT_DEPTH = 5
# (preset, plies) -> [perft(1), ..., perft(5)], computed once by the engine (see the module docstring).
# Checked by hand against docs/sources.md (the position printed and its legal moves compared with the rules): every
# position at 0 and 40 plies, the children after the first draw of classic, six-player, cutthroat and
# uruguayan at 0 plies, and cuban, uruguayan and two-player at 150 plies. The Samba-family presets
# (samba, bolivia, brazilian, chilean, italian) were checked by hand at 40 plies (samba, italian).
PERFT: dict[tuple[str, int], list[int]] = {
    ("british", 0): [3, 20, 66, 422, 1988],
    ("british", 150): [3, 12, 100, 587, 2893],
    ("british", 40): [8, 25, 163, 741, 3709],
    ("classic", 0): [1, 13, 16, 226, 701],
    ("classic", 150): [2, 4, 59, 294, 1105],
    ("classic", 40): [6, 10, 95, 329, 1307],
    ("cuban", 0): [1, 14, 26, 297, 1367],
    ("cuban", 150): [3, 3, 27, 48, 273],
    ("cuban", 40): [7, 11, 35, 61, 294],
    ("cutthroat", 0): [1, 15, 51, 404, 4496],
    ("cutthroat", 150): [9, 25, 100, 284, 1423],
    ("cutthroat", 40): [2, 22, 69, 364, 1525],
    ("six-player", 0): [1, 26, 194, 1294, 8623],
    ("six-player", 150): [2, 3, 21, 48, 276],
    ("six-player", 40): [8, 21, 119, 498, 4676],
    ("six-player-three-teams", 0): [1, 26, 194, 1294, 8623],
    ("six-player-three-teams", 150): [4, 6, 36, 73, 277],
    ("six-player-three-teams", 40): [9, 18, 64, 123, 369],
    ("three-player", 0): [1, 14, 41, 366, 3956],
    ("three-player", 150): [4, 5, 31, 40, 219],
    ("three-player", 40): [5, 5, 15, 15, 150],
    ("two-player", 0): [2, 41, 324, 1919, 16147],
    ("two-player", 150): [2, 26, 97, 294, 1004],
    ("two-player", 40): [1, 9, 23, 63, 174],
    ("uruguayan", 0): [1, 13, 16, 226, 701],
    ("uruguayan", 150): [2, 25, 69, 209, 829],
    ("uruguayan", 40): [1, 7, 8, 48, 54],
    ('bolivia', 0): [1, 39, 442, 4405, 39619],
    ('bolivia', 150): [5, 8, 168, 2510, 28058],
    ('bolivia', 40): [16, 89, 449, 1871, 7872],
    ('brazilian', 0): [1, 39, 463, 4564, 40768],
    ('brazilian', 150): [8, 19, 74, 169, 758],
    ('brazilian', 40): [1, 6, 10, 130, 489],
    ('chilean', 0): [1, 39, 442, 4405, 39619],
    ('chilean', 150): [5, 8, 168, 2510, 28058],
    ('chilean', 40): [16, 89, 449, 1871, 7872],
    ('italian', 0): [1, 20, 41, 419, 1063],
    ('italian', 150): [9, 24, 326, 5285, 59286],
    ('italian', 40): [16, 78, 301, 832, 2365],
    ('samba', 0): [1, 39, 442, 4405, 39619],
    ('samba', 150): [18, 92, 489, 3252, 18861],
    ('samba', 40): [12, 48, 165, 433, 1411],
    # Hand and Foot, checked by hand at 0 plies (after the first draw: every meld of the 13 cards, each
    # discard, the red three 3D discarded as itself) and at 40 plies (no pair for the top 4: draw only).
    ('hand-and-foot', 0): [1, 28, 252, 1821, 12579],
    ('hand-and-foot', 40): [1, 5, 7, 31, 69],
    ('hand-and-foot', 150): [4, 5, 32, 54, 305],
    ('hand-and-foot+six', 0): [1, 8, 10, 120, 365],
    ('hand-and-foot+six', 40): [1, 7, 11, 65, 230],
    ('hand-and-foot+six', 150): [7, 12, 118, 924, 6355],
    ('hand-and-foot+six-three-teams', 0): [1, 8, 10, 120, 365],
    ('hand-and-foot+six-three-teams', 40): [1, 12, 21, 83, 183],
    ('hand-and-foot+six-three-teams', 150): [7, 11, 53, 172, 368],
    ('hand-and-foot+five-alone', 0): [2, 33, 231, 1180, 6724],
    ('hand-and-foot+five-alone', 40): [7, 11, 203, 2577, 22008],
    ('hand-and-foot+five-alone', 150): [1, 13, 53, 196, 517],
    # Modern American, checked by hand at 0 plies (after the draw: the 3C kept for a Straight may be laid
    # out but not discarded; A A 2 in the opening; no 7 7 2) and at 40 plies (ask, seven discards, eight
    # melds: 7 7 7 without wild cards, a meld of three twos). CLA, at 40 plies: a staged opening at 75 of 125.
    ('modern-american', 0): [1, 15, 32, 241, 676],
    ('modern-american', 40): [16, 52, 360, 1151, 5266],
    ('modern-american', 150): [4, 4, 28, 60, 108],
    ('modern-american-cla', 0): [1, 11, 13, 151, 211],
    ('modern-american-cla', 40): [6, 144, 2502, 28192, 237986],
    ('modern-american-cla', 150): [12, 13, 264, 825, 4499],
}


def perft_position(name: str, plies: int) -> State:
    variant, options = OPTION_CONFIGS.get(name, (name, {}))
    return walk(canasta.rules(variant, **options), PERFT_SEED, plies)


@pytest.mark.parametrize(("name", "plies"), sorted(PERFT), ids=[f"{n}-{p}" for n, p in sorted(PERFT)])
def test_perft(name: str, plies: int) -> None:
    s = perft_position(name, plies)
    want = PERFT[(name, plies)]
    assert [perft(s, d) for d in range(1, len(want) + 1)] == want


def test_perft_covers_every_preset() -> None:
    names = [*canasta.variant_names("canasta"), *OPTION_CONFIGS]
    assert set(PERFT) == {(name, n) for name in names for n in PERFT_PLIES}
    assert all(len(counts) == PERFT_DEPTH for counts in PERFT.values())


if __name__ == "__main__":  # print the PERFT table
    for variant in [*canasta.variant_names("canasta"), *OPTION_CONFIGS]:
        if sys.argv[1:] and variant not in sys.argv[1:]:
            continue
        for n in PERFT_PLIES:
            state = perft_position(variant, n)
            print(f"    ({variant!r}, {n}): {[perft(state, d) for d in range(1, PERFT_DEPTH + 1)]},")
