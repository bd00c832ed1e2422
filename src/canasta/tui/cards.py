"""Cards as people see them: suit symbols and colours, ``10`` not ``T``, a hand sorted and grouped.

Pure functions from card text (``"TH"``) to Rich ``Text``: no Textual here, so they test alone.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence

from rich.text import Text

from ..canasta.cards import JOKER_RANK, TWO, parse_card, rank_of
from ..text.names import SYMBOLS, card_label

_RANK_ORDER = [*range(14, 3, -1), 3]  # aces down to fours, then threes; wild cards after them


def label(card: str) -> str:
    """``TH`` -> ``10♥``, ``JK`` -> ``JK``."""
    return card_label(card)


# Suit colours: the usual two (red hearts and diamonds) or four (blue diamonds, green clubs), so that suits
# tell apart at a glance; jokers stand out in magenta either way.
TWO_COLOURS = {"S": "bold", "H": "bold red", "D": "bold red", "C": "bold"}
FOUR_COLOURS = {"S": "bold", "H": "bold red", "D": "bold bright_blue", "C": "bold green"}
_colours = dict(TWO_COLOURS)


def four_colours(on: bool) -> None:
    """Use the four-colour deck (``--four-colour``, or ``c`` at the table) or the usual two colours."""
    _colours.clear()
    _colours.update(FOUR_COLOURS if on else TWO_COLOURS)


def style(card: str) -> str:
    if card == "JK":
        return "bold magenta"
    return _colours[card[-1]]


TILE = 4  # columns a card takes in a fanned row: its left edge and three for the face ("10♥", "A♠ ")
BACK = "▒▒▒"


def tiles(cards: Sequence[str], *, gaps: Sequence[bool] = (), picked: Collection[int] = (), cursor: int | None = None,
          back: bool = False) -> list[Text]:
    """Cards as a fanned row of card shapes, three lines tall: each card shows its left edge and its face
    (rank and suit in the suit's colour), the last one whole. ``gaps[i]``: a space before card ``i`` (between
    groups); ``picked`` cards are lifted (reversed), the ``cursor`` card's edges are bold yellow; ``back``
    draws the cards face down."""
    top, middle, bottom = Text(), Text(), Text()
    for i, card in enumerate(cards):
        if i and i < len(gaps) and gaps[i]:
            for line in (top, middle, bottom):
                line.append(" ")
        edge = "bold yellow" if i == cursor else "dim" if back else ""
        top.append("╭───", style=edge)
        bottom.append("╰───", style=edge)
        middle.append("│", style=edge)
        face = Text(BACK, style="blue") if back else Text(f"{label(card):<3}", style=style(card))
        if i in picked:
            face.stylize("reverse")
        middle.append_text(face)
    if cards:
        last = "bold yellow" if cursor == len(cards) - 1 else "dim" if back else ""
        top.append("╮", style=last)
        middle.append("│", style=last)
        bottom.append("╯", style=last)
    return [top, middle, bottom]


def tile_width(count: int, gaps: int = 0) -> int:
    """Columns of ``tiles`` for ``count`` cards with ``gaps`` group gaps."""
    return count * TILE + gaps + (1 if count else 0)


def card_text(card: str) -> Text:
    return Text(label(card), style=style(card))


def sort_hand(cards: Iterable[str]) -> list[str]:
    """Ranks high to low, threes, then wild cards (twos, jokers); suits in a fixed order."""
    def key(card: str) -> tuple[int, int]:
        rank = rank_of(parse_card(card))
        if rank == JOKER_RANK:
            return (len(_RANK_ORDER) + 1, 0)
        if rank == TWO:
            return (len(_RANK_ORDER), "SHDC".find(card[-1]))
        return (_RANK_ORDER.index(rank), "SHDC".find(card[-1]))

    return sorted(cards, key=key)


def sort_by_suit(cards: Iterable[str], ace_low: bool = False) -> list[str]:
    """Suit by suit (♠ ♥ ♦ ♣), each low to high, so that runs lie together (the rummy family); aces first
    where they are low; jokers last."""
    order = "A23456789TJQK" if ace_low else "23456789TJQKA"

    def key(card: str) -> tuple[int, int]:
        if card == "JK":
            return (4, 0)
        return ("SHDC".find(card[-1]), order.find(card[0]))

    return sorted(cards, key=key)


def cards_line(cards: Sequence[str]) -> Text:
    """Cards separated by spaces, each in its colour."""
    return Text(" ").join(card_text(c) for c in cards)


__all__ = ["FOUR_COLOURS", "SYMBOLS", "TILE", "TWO_COLOURS", "card_text", "cards_line", "four_colours", "label",
           "sort_by_suit", "sort_hand", "style", "tile_width", "tiles"]
