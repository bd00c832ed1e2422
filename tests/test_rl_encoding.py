"""The rl encodings (docs/rl.md): actions, masks, observations, information states, returns.

These need only the standard library; the OpenSpiel, PettingZoo and Gymnasium layers are tested in
tests/test_rl_envs.py."""

from __future__ import annotations

import random
import subprocess
import sys
from functools import cache

import pytest

import canasta
from canasta.canasta.sampling import determinize, known_in_hands
from canasta.canasta.state import State
from canasta.rl.actions import ActionSpace, LegalTree
from canasta.rl.known import advance, known_ranks, start
from canasta.rl.observation import Layout, encode_state, encode_view
from canasta.rl.table import Table

VARIANTS = canasta.variant_names("canasta")
QUIT = ("acaba", "ask-acaba")


@cache
def positions(variant: str, games: int = 2, moves: int = 240, every: int = 3) -> tuple[State, ...]:
    """Every ``every``-th position of ``games`` random games (the first hand, at most ``moves`` moves)."""
    rules = canasta.rules(variant)
    out = []
    for g in range(games):
        rng = random.Random(f"{variant}:{g}")
        state = canasta.new_game(rules, seed=1000 + g)
        for i in range(moves):
            if canasta.is_over(state) or state.hand_number != 1:
                break
            if i % every == 0:
                out.append(state)
            legal = canasta.legal_moves(state)
            # Acaba ends the hand at once (British): leave it out so the positions reach melds
            state = canasta.apply(state, rng.choice([m for m in legal if m.action not in QUIT] or legal))
    return tuple(out)


def _all_sequences(tree: LegalTree) -> list[canasta.Move]:
    """Every move reachable by following the mask atom by atom from an empty partial move."""
    found, todo = [], [()]
    while todo:
        prefix = todo.pop()
        for atom in tree.legal(prefix):
            longer, move = tree.step(prefix, atom)
            if move is None:
                todo.append(longer)
            else:
                found.append(move)
    return found


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_legal_move_round_trips_and_the_mask_is_the_legal_moves(variant: str) -> None:
    space = ActionSpace.for_rules(canasta.rules(variant))
    assert positions(variant)
    melds = 0
    for state in positions(variant):
        legal = canasta.legal_moves(state)
        tree = LegalTree(space, legal)
        for move in legal:
            full = space.atoms(move)
            assert space.move(full) == move
            atoms = tree.encode(move)
            assert atoms == full[: len(atoms)] and all(0 <= a < space.size for a in atoms)
            prefix, played = (), None
            for atom in atoms:
                assert played is None
                prefix, played = tree.step(prefix, atom)
            assert played == move and prefix == ()
            melds += len(atoms) > 1
        reached = _all_sequences(tree)
        assert sorted(reached) == sorted(legal) and len(reached) == len(set(reached))
        # the first atoms: sorted, each once (whether the moves gave them in order or not), and a copy
        first = tree.legal()
        assert first == sorted({space.atoms(m)[0] for m in legal})
        first.append(-1)
        assert tree.legal() == first[:-1]
    assert melds, "the positions include moves of several atoms"


def test_an_atom_the_mask_forbids_is_refused() -> None:
    state = canasta.new_game(canasta.rules(), seed=3)
    tree = LegalTree(ActionSpace.for_rules(state.rules), canasta.legal_moves(state))
    forbidden = next(a for a in range(ActionSpace.for_rules(state.rules).size) if a not in tree.legal())
    with pytest.raises(ValueError, match="not legal"):
        tree.step((), forbidden)


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_observation_is_the_views_and_ignores_hidden_cards(variant: str) -> None:
    rules = canasta.rules(variant)
    layout = Layout.for_rules(rules)
    rng = random.Random(variant)
    for state in positions(variant)[::4]:
        k = known_ranks(advance(start(state), state), state)
        for seat in range(rules.players):
            seen = canasta.view(state, seat)
            expected = encode_view(layout, seen)
            assert len(expected) == layout.size
            assert encode_state(layout, state, seat) == expected
            assert encode_state(layout, state, seat, known=k) == expected
            assert k == {s: {r: n for r, n in c.items() if n} for s, c in known_in_hands(seen).items()}
            other = determinize(seen, rng)  # the cards this seat cannot see, dealt again
            assert encode_state(layout, other, seat) == expected


def test_the_partial_move_is_in_the_observation_of_the_seat_building_it() -> None:
    for state in positions("samba"):
        tree = LegalTree(ActionSpace.for_rules(state.rules), canasta.legal_moves(state))
        head = next((a for a in tree.legal() if tree.step((), a)[1] is None), None)
        if head is None:
            continue
        layout = Layout.for_rules(state.rules)
        seat = state.to_move
        building = encode_state(layout, state, seat, (head,))
        assert building == encode_view(layout, canasta.view(state, seat), (head,))
        assert building != encode_state(layout, state, seat)
        return
    pytest.fail("no position with a move of several atoms")


def _play(table: Table, rng: random.Random, steps: int) -> list[int]:
    played = []
    for _ in range(steps):
        if table.terminal:
            break
        atom = rng.choice(table.legal_actions())
        table.apply_action(atom)
        played.append(atom)
    return played


@pytest.mark.parametrize("variant", ["classic", "samba", "hand-and-foot", "modern-american"])
def test_the_same_seeds_give_the_same_trajectory(variant: str) -> None:
    rules = canasta.rules(variant)
    a, b = Table(rules, 11), Table(rules, 11)
    assert _play(a, random.Random(5), 400) == _play(b, random.Random(5), 400)
    assert a.state == b.state and a.returns() == b.returns()
    assert [a.observation(s) for s in range(rules.players)] == [b.observation(s) for s in range(rules.players)]
    assert a.information_state(0) == b.information_state(0)
    assert Table(rules, 12).state.hands != Table(rules, 11).state.hands  # and another seed, another deal


@pytest.mark.parametrize("variant", ["classic", "cutthroat", "six-player-three-teams", "hand-and-foot"])
def test_returns_are_the_hands_scores(variant: str) -> None:
    rules = canasta.rules(variant)
    table = Table(rules, 4)
    _play(table, random.Random(1), 20_000)
    assert table.terminal
    last = table.state.last_hand
    assert last is not None
    for seat, value in enumerate(table.returns()):
        column = seat if rules.cutthroat else table.state.side_of(seat)
        assert value == last[column]["total"]


def test_whole_game_returns_are_the_final_scores() -> None:
    rules = canasta.rules("classic", hands_per_game=2)
    table = Table(rules, 8, whole_game=True)
    _play(table, random.Random(2), 50_000)
    assert table.terminal and canasta.is_over(table.state) and table.state.hand_number == 2
    assert table.returns() == [float(table.state.scores[table.state.side_of(s)]) for s in range(4)]


@pytest.mark.parametrize("variant", ["classic", "samba", "hand-and-foot"])
def test_the_information_state_has_perfect_recall_and_only_what_the_seat_saw(variant: str) -> None:
    rules = canasta.rules(variant)
    table = Table(rules, 21)
    rng = random.Random(3)
    earlier = [table.information_state(s).splitlines()[:-1] for s in range(rules.players)]
    for _ in range(150):
        if table.terminal:
            break
        table.apply_action(rng.choice(table.legal_actions()))
        for seat in range(rules.players):
            lines = table.information_state(seat).splitlines()
            assert lines[: len(earlier[seat])] == earlier[seat]  # nothing is forgotten
            held = "\n".join(lines).rsplit("hand: ", 1)[1].split("\n")[0]
            assert held == " ".join(canasta.view(table.state, seat)["hand"])  # its hand as its view shows it
            earlier[seat] = lines[:-1]
        seat = table.to_move
        again = table.resample(seat, rng)  # hidden cards dealt again: the seat cannot tell
        assert again.information_state(seat) == table.information_state(seat)
        assert again.observation(seat) == table.observation(seat)
        assert again.legal_actions() == table.legal_actions()


def test_importing_canasta_imports_no_numpy_and_no_rl_library() -> None:
    code = ("import sys, canasta, canasta.players, canasta.sampling; "
            "print(sorted(m for m in ('numpy', 'pyspiel', 'pettingzoo', 'gymnasium', 'canasta.rl') "
            "if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


@pytest.mark.parametrize("variant", ["classic", "samba", "hand-and-foot"])
def test_the_tables_observations_along_a_game_are_the_views(variant: str) -> None:
    """The environments reuse encoded parts between positions: the result is still the view's, every step."""
    rules = canasta.rules(variant)
    layout = Layout.for_rules(rules)
    table = Table(rules, 31)
    rng = random.Random(6)
    for _ in range(120):
        if table.terminal:
            break
        for seat in range(rules.players):
            prefix = table.prefix if seat == table.to_move else ()
            assert table.observation(seat) == encode_view(layout, canasta.view(table.state, seat), prefix)
        table.apply_action(rng.choice(table.legal_actions()))


def test_the_moves_seen_table_answers_by_object_and_refills_when_half_full() -> None:
    from canasta.canasta.moves import Move
    from canasta.rl.actions import _SEEN_SLOTS, _SeenMoves

    space = ActionSpace.for_rules(canasta.rules("classic"))
    seen = _SeenMoves()
    draw, twin = Move("draw"), Move("draw")
    seen.add(draw, space.atoms(draw))
    assert seen.get(draw) == space.atoms(draw)
    assert seen.get(twin) is None  # an equal move, another object: asked by value elsewhere (ActionSpace.atoms)
    moves = [Move("meld", 9, n % 9, n % 5, n % 3) for n in range(_SEEN_SLOTS // 2 + 10)]  # distinct objects
    for m in moves:
        seen.add(m, space.atoms(m))
    assert seen.used == 11  # refilled once half full, then holding the last 11 added
    assert seen.get(draw) is None  # gone with the refill
    assert all(seen.get(m) == space.atoms(m) for m in moves[len(moves) - seen.used:])  # those added since: found


@pytest.mark.parametrize("variant, options", [("classic", {}), ("classic", {"recycle_pile": True}),
                                              ("hand-and-foot", {}), ("samba", {})])
def test_the_pile_check_step_by_step_answers_as_the_whole_check(variant: str, options: dict[str, object]) -> None:
    from canasta.rl.known import pile_matches, pile_still_matches

    rules = canasta.rules(variant, **options)
    answers = set()
    for seed in range(3):
        state, rng = canasta.new_game(rules, seed=seed), random.Random(seed)
        k = start(state)
        last = None  # (pile, history's pile, hidden) the check last held for
        while not canasta.is_over(state) and state.hand_number == 1:
            state = canasta.apply(state, rng.choice(canasta.legal_moves(state)))
            k = advance(k, state)
            whole = pile_matches(k, state)
            if last is not None:
                assert pile_still_matches(k, state, *last) == whole
            last = (state.pile, k.pile, state.pile_hidden) if whole else None
            answers.add(whole)
    assert answers == ({True, False} if options else {True})  # a recycled pile no longer matches the history
