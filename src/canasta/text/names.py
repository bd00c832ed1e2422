"""What every face (the command line, the line modes, the Textual app) calls things: cards, moves, seats,
sides, levels, variants, and counted words. One place, so that ``replay`` and ``simulate`` number sides
alike and the log and the list of moves write ``discard 10`` alike."""

from __future__ import annotations

from ..canasta.view import seat_name
from ..players.levels import LEVELS

SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
_RANKS = set("23456789TJQKA")


def plural(count: int, word: str, many: str | None = None) -> str:
    """``1 card``, ``2 cards``; ``many`` for an irregular plural."""
    return f"{count} {word if count == 1 else many or word + 's'}"


def rank_label(rank: str) -> str:
    """A rank as people write it: ``T`` -> ``10``."""
    return "10" if rank == "T" else rank


def card_label(card: str, symbols: bool = True) -> str:
    """``TH`` -> ``10♥`` (``10H`` without ``symbols``), ``JK`` -> ``JK``."""
    if card == "JK":
        return "JK"
    return rank_label(card[:-1]) + (SYMBOLS[card[-1]] if symbols else card[-1])


def move_label(notation: str, symbols: bool = True) -> str:
    """Move notation as players read it: ``discard TH`` -> ``discard 10♥``, ``meld T T`` -> ``meld 10 10``;
    what players type back (``discard 10``) means the same move."""
    words = []
    for word in notation.split():
        if word == "T" or word.startswith(("T/", "T-")):
            word = "10" + word[1:]
        elif len(word) == 2 and word[0] in _RANKS and word[1] in SYMBOLS:
            word = card_label(word, symbols)
        words.append(word)
    return " ".join(words)


def seat_mark(players: int, seat: int) -> str:
    """A seat in one or two characters, to mark a card it laid in another's meld: ``N`` ... ``W`` at four,
    else its number from 1 (never an initial that several seats share)."""
    return seat_name(players, seat)[0] if players == 4 else str(seat + 1)


def side_name(players: int, teams: int, side: int) -> str:
    """``N-S`` / ``E-W`` for the four-player partnership game, else ``side 1`` ... (numbered from 1
    everywhere players read them)."""
    if players == 4 and teams == 2:
        return ("N-S", "E-W")[side]
    return f"side {side + 1}"


def level_names() -> list[str]:
    """The levels a computer seat may be given by name (``easy`` ... ``expert``)."""
    return list(LEVELS)


def variant_title(name: str) -> str:
    """A preset's title (``classic`` -> ``Classic``), whichever family it is of."""
    from ..rummy.pages import NOTES as RUMMY_NOTES
    from .variant_docs import NOTES

    if name in NOTES:
        return NOTES[name][0]
    if name in RUMMY_NOTES:
        return RUMMY_NOTES[name][0]
    return name


__all__ = ["SYMBOLS", "card_label", "level_names", "move_label", "plural", "rank_label", "seat_mark", "seat_name",
           "side_name", "variant_title"]
