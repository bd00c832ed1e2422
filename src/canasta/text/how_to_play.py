"""How to play a preset, in plain words: ``how_to_play(rules)`` is Markdown for a player who has never played
it (the aim, the deal, a turn, melds, the pile, going out, the score, the end), written from the rules object
itself, so that a preset with options reads as it is played. Every face shows the same text: the terminal
app's help (``?``) puts it before the keys and the parameters, and the browser's rules page can too.

The parameter pages (``canasta.text.variant_docs.variant_page``) stay the reference with sources; this is the
tutorial in front of them.
"""

from __future__ import annotations

from ..canasta.rules import Rules
from ..rummy import RummyRules
from .names import plural, variant_title


def how_to_play(rules: Rules | RummyRules) -> str:
    """The plain-language rules of ``rules`` (either family), as Markdown."""
    body = _rummy(rules) if isinstance(rules, RummyRules) else _canasta(rules)
    return "\n".join([f"# How to play {variant_title(rules.name)}", "", *body]) + "\n"


def _who(players: int, teams: int) -> str:
    if players > teams:
        each = players // teams
        return (f"{players} players in {teams} partnerships of {each}; partners sit "
                + ("opposite each other" if players == 4 and teams == 2 else "alternately round the table")
                + " and score together")
    return f"{players} players, each for himself"


def _canasta(r: Rules) -> list[str]:
    jokers = f" and {plural(r.jokers, 'joker')}" if r.jokers else ""
    wild = "twos and jokers" if r.jokers else "twos"
    lines = [
        "## The aim",
        "",
        f"{_who(r.players, r.teams).capitalize()}. Score points by laying down melds, above all canastas "
        "(melds of seven cards or more), and by going out; "
        + (f"the game is {plural(r.hands_per_game, 'hand')}, the highest total wins."
           if r.hands_per_game else f"the first side to reach {r.target} at the end of a hand wins."),
        "",
        "## The deal",
        "",
        f"{plural(r.decks, 'pack')} of 52 cards{jokers} are shuffled together; each player gets "
        f"{plural(r.hand_size, 'card')}"
        + (f" and a second packet of {r.foot_size}, the foot, played once the hand is used up" if r.foot_size else "")
        + ". The rest is the stock, face down"
        + ("; its top card is turned up to start the pile." if r.upcard else "; the pile starts empty."),
        "",
        "## Your turn",
        "",
        f"1. Draw {plural(r.draw_count, 'card')} from the stock, or take the whole discard pile (see below).",
        "2. Meld if you can and want to: put down sets of cards of one rank"
        + (", or sequences of one suit" if r.sequences else "") + ", or add cards to your side's melds.",
        "3. Discard one card on the pile. That ends your turn.",
        "",
        "## Melds and wild cards",
        "",
        f"A meld is at least three cards of one rank with at least {plural(r.min_naturals, 'natural card')}; "
        f"the {wild} are wild and stand for any rank"
        + ("" if r.wild_rule != "max3" else ", at most three in a meld")
        + (". A meld of wild cards alone is allowed too." if r.wild_melds else ". ")
        + ("Several melds of one rank may lie side by side. " if r.several_melds_per_rank else "")
        + "A meld of seven cards or more is a canasta: natural (no wild card) scores more than mixed.",
        "",
        "Your side's first melds of a hand (the opening) must count enough points together: "
        + _opening(r) + ". Cards count: jokers 50, twos and aces 20, kings to eights 10, sevens to fours 5.",
        "",
        "## Threes",
        "",
        {"red": "Red threes are laid out as soon as you get them and replaced from the stock; they score for "
                "your side if it has melded, against it if not. A black three discarded stops the next player "
                "from taking the pile.",
         "all": "Threes of both colours are laid out as soon as you get them and replaced from the stock; they "
                "score for your side if it has melded, against it if not.",
         "none": "Threes are not laid out: they stay in your hand, may be discarded (a three discarded stops the "
                 "next player from taking the pile) and count against you if left in your hand."}[r.threes_laid_out],
        "",
        "## The pile",
        "",
        "To take the pile, you must use its top card at once in a meld with cards from your hand (or, once your "
        "side has melded, on one of its melds); then "
        + (f"only the pile's top {plural(r.pile_take_limit, 'card')} join your hand. " if r.pile_take_limit else
           "the whole pile joins your hand. ")
        + ("The pile is always frozen: only a natural pair from your hand takes its top card."
           if r.pile_always_frozen else
           "While a wild card lies in it, or before your side has melded, the pile is frozen: only a natural pair "
           "from your hand takes its top card."),
        "",
        "## Going out",
        "",
        f"You may go out, by melding or discarding your last card, once your side has "
        f"{plural(max(r.canastas_to_go_out, 0), 'canasta')}"
        + (" (a partner may be asked first: 'may I go out?')" if r.partnerships and r.permission != "none" else "")
        + ". The hand ends; going out scores a bonus.",
        "",
        "## The score",
        "",
        "Each side adds the points of the cards it melded and its bonuses (canastas, red threes, going out) and "
        "subtracts the points of the cards left in its hands. The totals carry over from hand to hand.",
    ]
    return lines


def _opening(r: Rules) -> str:
    if r.initial_meld_by_hand:
        counts = ", ".join(str(n) for n in r.initial_meld_by_hand)
        return f"{counts} points in hands 1, 2, 3 … (by the hand's number)"
    steps = list(r.initial_meld)
    if len(steps) == 1:
        return f"{steps[0][1]} points"
    parts = [f"{steps[0][1]} points while your side's total is below {steps[1][0]}"]
    parts += [f"{need} from {low}" for low, need in steps[1:]]
    return ", ".join(parts)


def _rummy(r: RummyRules) -> list[str]:
    target = r.game_target()
    jokers = f" with {plural(r.jokers, 'joker')}" if r.jokers else ""
    pile = ("The discard pile is spread so that every card shows: you may take any card of it with all the cards "
            "above it, and must meld or lay off the card you chose at once"
            if r.pile_take != "top" else "You may take the top card of the discard pile instead of drawing")
    ace = {"both": "high or low", "low": "low only", "high": "high only"}.get(r.ace, r.ace)
    lines = [
        "## The aim",
        "",
        f"{_who(r.players, r.teams).capitalize()}. Lay down your cards in melds before the others do; "
        + (f"the first to reach {target} points wins." if target else
           f"the game is {plural(r.hands_per_game, 'hand')}, the highest total wins."),
        "",
        "## The deal",
        "",
        f"{plural(r.packs, 'pack')} of 52 cards{jokers}; each player gets {plural(r.hand_size, 'card')}. The rest "
        "is the stock, face down; one card turned up starts the discard pile.",
        "",
        "## Your turn",
        "",
        f"1. Draw {plural(r.draw_count, 'card')} from the stock. {pile}.",
        "2. Meld if you can: three or four cards of one rank (a set), or three or more cards in sequence of one "
        f"suit (a run; the ace plays {ace}). You may also lay off single cards on melds already on the table.",
        "3. Discard one card. That ends your turn.",
        "",
        "## Going out and the score",
        "",
        "The hand ends when a player has no cards left"
        + (" after a final discard" if r.go_out_needs_discard else "") + ". "
        + ("Each player scores the cards he laid down and loses the cards left in his hand"
           if r.scoring == "table_minus_hand" else
           "The player who went out scores the cards left in the others' hands")
        + f"; aces count {r.ace_high_value} (or {r.ace_low_value} used low), pictures 10, the others their "
        "number" + (f", jokers {r.joker_value}" if r.jokers else "") + ".",
    ]
    return lines


__all__ = ["how_to_play"]
