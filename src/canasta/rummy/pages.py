"""The pieces of a rummy preset's generated page (``canasta rules NAME`` == docs/variants/NAME.md)."""

from __future__ import annotations

from typing import Any

from .presets import ALIASES, PRESETS, UNSUPPORTED, rummy_rules
from .rules import PARAMETERS, RummyRules

# title, summary, choices where sources disagree or are silent
NOTES: dict[str, tuple[str, str, list[str]]] = {
    "500-rum": (
        "500 Rum", "The rummy game Canasta grew from (docs/sources.md §8.1 [S2, BcR]): each player scores the "
        "cards he shows on the table less the cards left in his hand; the whole discard pile is spread and "
        "any card of it may be taken with every card above it, if the chosen card is melded or laid off at "
        "once. Three players by default (`players=2` deals 13 cards each, 4 players 7 each).",
        ["D19, card values: Wikipedia's sentence \"A-9 are 5\" against its own Persian example and the "
         "Bicycle text: number cards count their face value, the ace 15 (1 when low in A-2-3); "
         "`low_cards_five=true` gives the other reading.",
         "D19, a tie at 500: the player who went out wins [S2] (`tie=went_out`, the default) against the "
         "highest score [BcR] (`tie=highest`); equal highest scores play another hand.",
         "The empty stock: the sources are silent in the main text; by default play goes on from the pile "
         "and the hand ends when the player to draw takes nothing (`pass`); `empty_stock=end` ends the hand "
         "at once.",
         "A joker in the pile more than once (Persian Rummy): `take JK` takes the topmost one.",
         "Wild jokers (`jokers=1` or `2`: 53-54 cards, each 15 [S2]; the sources give no more): every meld "
         "holds at least two natural cards, which make it a set or a run; a set holds at most four cards, "
         "jokers included. A joker stands for the card at its place in a run, fixed when it is melded: "
         "`meld 5H JK 7H`, `meld JK 5H 6H` (cards written in run order keep their places; otherwise the "
         "naturals are sorted, jokers fill the gaps and then extend the run upward). A joker laid off on a "
         "run goes on its high end (the low end when the run already ends at the top); the card a joker "
         "stands for cannot be laid off on that run. A joker counts 15 on the table and in the hand; a set "
         "of three aces and a joker is not four aces. Not with `ace=around`.",
         "5-8 players (`players=5` to `8`, `packs=2`: 104 cards, 7 each; [S2] gives the pack size only): "
         "every card is there twice. A set still holds each suit once (3 or 4 cards of a rank), so a set is "
         "what it is with one pack and a second copy of a card starts a second set of that rank; a run holds "
         "each card once. Two melds of the same name are told apart by their labels: `7-set`, `7-set#2`.",
         "Calling \"Rum\" (`call_rum=true`; [S2] names the option): only a discard that could be laid off "
         "opens a claim window; the other players who could lay it off are asked in turn order from the "
         "discarder's left (`rum` or `pass`), so the next in turn wins when several could; the caller lays "
         "it off and scores it, and play goes on from the discarder's left.",
         "The Rummy Master's Hand (`masters_hand=500`; [S2]: \"7-card straight +500\"): seven natural cards "
         "of one suit in sequence, shown with `master ...` before the player's first move of the hand (so as "
         "dealt); the hand ends at once, his side scores 500 and nobody anything else.",
         "Melds laid down between turns (`melds_between_turns=true`, with `call_rum`; [S2] names the option): "
         "the claim window opens after a discard for the players who could call \"Rum\" or meld from the "
         "hand, asked in turn order; the one asked may meld (as often as he can), call or pass. Lay-offs "
         "stay for one's own turn.",
         "Dealer's Gambit is its own preset, `dealers-gambit`.",
         "The computer players play every option legally but without a plan for it (no search player for "
         "rummy yet)."]),
    "500-rum-partnership": (
        "Partnership 500 Rum", "500 Rum for four in two partnerships, partners opposite (§8.1 [S2]): partners "
        "may lay off on each other's melds (as on anyone's) and their scores add up; game 500.",
        ["As 500 Rum (D19 and the empty stock)."]),
    "persian-rummy": (
        "Persian Rummy", "500 Rum for four in partnerships with 56 cards (§8.1 [S2]): four jokers worth 20, "
        "melded only as sets of 3 or 4 jokers (not wild); a meld of four laid down at once counts double "
        "(GC-R03: four jokers 160, three 60 and the fourth 20 later); going out +25; the game is two deals "
        "and the side with the better total scores 50 more.",
        ["\"Winner collects the difference\" is a matter of stakes, not of the score: the result gives both "
         "totals."]),
    "dealers-gambit": (
        "Dealer's Gambit", "500 Rum with 54 cards and a joker for the dealer. Wikipedia's 500 Rum page only names "
        "the game (§8.1 [S2]); its rules here come from one secondary page, a blog post on 500 Rum variations "
        "[RD]: two jokers, wild; at each deal one of them is taken out and laid face up beside the stock after "
        "the deal, the *dealer's joker*, which only the dealer may use, at any time; the other is shuffled in "
        "and dealt. The dealer takes it into his hand with `take dealer JK`, in his turn, before or after he "
        "draws; his turn goes on. Everything else is 500 Rum with wild jokers.",
        ["\"It can be blocked by another player's joker\" (the source's text is garbled there): read as, once "
         "another player has melded a joker (in a meld or laid off), the dealer's joker can no longer be "
         "taken. A dealer's joker still beside the stock at the end of the hand scores for nobody; a new one "
         "is laid aside at the next deal, for the next dealer.",
         "The source deals anticlockwise. The engine has one seat order: the deal goes round from the dealer's "
         "next seat, and play follows the deal, with the dealer last.",
         "Some play with 56 cards and four jokers: `jokers=4` (one laid aside, three dealt).",
         "Wild jokers as in 500 Rum with `jokers=2` (see its page): a meld holds at least two natural cards, "
         "a joker stands for the card at its written place, 15 points on the table and in the hand."]),
    "basic-rummy": (
        "Basic Rummy", "The plain game (§8.2 [S1-rummy]): 10 cards each for two players, 7 for three or four; "
        "draw from the stock or take the top discard (never discarded again in the same turn); ace low only; "
        "the winner scores the cards left in the other hands (A 1, 2-10 face value, J Q K 10), doubled for "
        "going rummy; the stock is re-used once and the second time the hand is a stalemate worth nothing; "
        "game 100, 150 or 200 by the number of players.",
        ["The discard pile is turned over to make the new stock, not shuffled: the turned pile keeps its "
         "order, so a record replays without a second shuffle.",
         "Going out: by melding or laying off the last card, or by discarding it."]),
}


def rummy_parts(rules: RummyRules) -> dict[str, Any]:
    """The pieces of a rummy preset's page (``canasta.variant_docs.variant_parts``): the parameters that
    differ are those that differ from 500 Rum."""
    title, summary, choices = NOTES[rules.name]
    base = rummy_rules("500-rum", {})
    overrides = dict(rules.overrides)
    changed = [] if rules.name == "500-rum" else [
        (name, value, "option" if name in overrides else source)
        for name, value, _meaning, source in rules.describe() if getattr(base, name) != value]
    return {"name": rules.name, "family": "rummy", "title": title, "summary": summary,
            "aliases": sorted(a for a, t in ALIASES.items() if t == rules.name), "overrides": overrides,
            "base": "500-rum", "base_title": "500 Rum", "changed": changed, "choices": choices,
            "parameters": rules.describe(), "bounds": PARAMETERS, "source_header": "source",
            "footer": "Moves, notation and scoring of the rummy family: docs/rummy.md. Source tags ([S2], [BcR], "
                      "[S1-rummy]), sections (§) and decisions (D) are explained in docs/sources.md."}


def index_rows() -> list[str]:
    rows = []
    for name in sorted(PRESETS):
        aliases = ", ".join(sorted(a for a, t in ALIASES.items() if t == name))
        rows.append(f"| [`{name}`]({name}.md) | {aliases} | {NOTES[name][0]} |")
    return rows


def unsupported_rows() -> list[str]:
    return [f"- `{name}`: {why}." for name, why in sorted(UNSUPPORTED.items())]
