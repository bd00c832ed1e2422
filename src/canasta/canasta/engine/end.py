"""The end of a hand (docs/sources.md §3.9, §3.10): scoring each side, the next deal or the game's result,
and Cutthroat's sides formed by the player who takes the pile or goes out (docs/sources.md §4A).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..kinds import cards_of
from ..rules import Rules
from ..scoring import acaba_score, score_side, score_special_hand
from ..state import GAME_OVER, Hand, State, log_text
from .core import COMPILED, PICKED_UP, canasta_count
from .deal import shuffled_deck, start_hand


def form_cutthroat_sides(state: State, lone: int) -> State:
    """Cutthroat (docs/sources.md §4A): ``lone`` plays alone; the other two become partners for the rest of the
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


def end_hand(state: State, went_out: int | None, acaba_by: int | None = None,
             special: tuple[int, str] | None = None) -> State:
    """Score the hand and deal the next (or end the game). ``special``: (side, name) of a special hand laid
    down, which that side scores alone while the others score their hands as usual (GC-S20)."""
    r = state.rules
    if went_out is not None:  # Cutthroat: going out before the pile was taken makes the lone hand
        state = form_cutthroat_sides(state, went_out)
    out_side = None if went_out is None else state.seat_sides[went_out]
    concealed = False
    if went_out is not None:
        melds = state.melds[state.seat_sides[went_out]]
        concealed = (not state.has_melded[went_out] and not state.turn.touched_old
                     and (r.concealed_allows_pile or state.turn.source != "pile")
                     and any(len(melds[x]) >= 7 for x in state.turn.new_ranks if x in melds))
    results = []
    # One score column per side; in Cutthroat one per player: partners share their side's score, and
    # each adds his own red threes (docs/sources.md §4A [R, Bicycle]).
    for column in range(r.teams):
        side = state.seat_sides[column] if r.cutthroat else column
        if acaba_by is not None:  # Acaba: only the opponents score, acaba_bonus each (docs/sources.md §4A)
            results.append(acaba_score(r, side != state.seat_sides[acaba_by]))
            continue
        if special is not None and special[0] == side:
            results.append(score_special_hand(r, special[1]))
            continue
        # cards left in a hand or a foot count minus (Hand and Foot)
        hands: list[list[int]] = []
        for seat in range(r.players):
            if state.seat_sides[seat] == side:
                held = held_cards(state.hands[seat])
                foot = state.feet[seat]
                # a foot not picked up (Hand and Foot); compiled, cards_of is quicker than any(). A game without
                # feet deals the shared empty foot, which needs no look.
                if foot is not PICKED_UP and (COMPILED or any(foot)):
                    held.extend(held_cards(foot))
                hands.append(held)
        melds_list = list(state.melds[side].values())
        whole = sum(1 for x in state.concealed_canastas[side] if len(state.melds[side].get(x, ())) >= 7)
        # (``hand`` left empty: score_side takes it from ``player_hands``, without checking that both hold the same)
        scored = score_side(r, melds_list, [], state.red_threes[column],
                            went_out=side == out_side, concealed=concealed and side == out_side,
                            black_threes=state.black_threes[side], concealed_canastas=whole, player_hands=hands)
        if r.failed_permission_penalty:  # docs/sources.md §7 X8: asked, got yes, did not go out
            penalty = -r.failed_permission_penalty * failed_permissions(state, went_out, side)
            scored["lines"]["failed_permission"] = penalty
            scored["total"] += penalty
        results.append(scored)
    # (indexed, not zipped: compiled, ``zip(..., strict=True)`` is a generic call, about 2,500 instructions)
    scores = tuple([state.scores[c] + results[c]["total"] for c in range(r.teams)])
    column_sides = [state.seat_sides[c] if r.cutthroat else c for c in range(r.teams)]
    summary = tuple([{**results[c], "cumulative": scores[c], "went_out": column_sides[c] == out_side,
                      "concealed": concealed and column_sides[c] == out_side} for c in range(r.teams)])
    # In a hand ended by Acaba the melds count for nothing, canastas included.
    canastas = None if acaba_by is not None else [canasta_count(m) for m in state.melds]
    result = game_result(r, scores, state.hand_number, canastas)
    if result is not None:
        return state.replace(scores=scores, last_hand=summary, phase=GAME_OVER, result=result,
                             to_move=state.turn_seat)
    dealer = (state.dealer + 1) % r.players
    deck = shuffled_deck(r, state.seed, state.hand_number + 1)
    return start_hand(r, state.seed, state.hand_number + 1, dealer, scores, summary, deck)


def failed_permissions(state: State, went_out: int | None, side: int) -> int:
    """How many times this hand a player of ``side`` asked permission to go out, was told yes, and ended his
    turn without going out (his discard was not the hand's last move)."""
    entries = log_text(state.log)
    yes: set[int] = set()
    asker = -1
    failed = 0
    for i, entry in enumerate(entries):
        seat_text, _, event = entry.partition(" ")
        if not seat_text.isdigit():
            continue
        seat = int(seat_text)
        if event == "ask":
            asker = seat
        elif event == "yes" and asker >= 0:
            yes.add(asker)
        elif event.startswith("discard") and seat in yes:
            yes.discard(seat)
            last = i == len(entries) - 1 and went_out == seat
            failed += not last and state.seat_sides[seat] == side
    return failed


def held_cards(hand: Hand) -> list[int]:
    """``cards_of(hand)``: the cards a hand's 53 counts hold, in order. Interpreted, a comprehension that skips the
    kinds not held is about twice as quick as ``cards_of``'s loop (a hand holds few of the 53 kinds); compiled,
    ``cards_of`` reads the tuple natively."""
    if COMPILED:
        return cards_of(hand)
    return [c for c in range(53) if hand[c] for _ in range(hand[c])]


def game_result(rules: Rules, scores: Sequence[int], hand_number: int,
                canastas: Sequence[int] | None = None) -> dict[str, Any] | None:
    """The game's result if hand ``hand_number`` ends with these cumulative ``scores``, one per side,
    else None (docs/sources.md §3.10; ``canastas_to_win``, §5). ``canastas``: each side's canastas on the
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
