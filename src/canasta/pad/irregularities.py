"""The table's irregularities (docs/sources.md §7 X1-X13) as a score pad knows them.

Penalties are entered as minus points for the offending side only, never credited to the opponents (§7,
[Sp] and [S1]). Each one that costs points reads its value from a rules parameter, so a variant states it
(or leaves it 0: not a rule of that variant) and a house rule can change it; the others are rulings the pad
shows for reference.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..canasta.rules import Rules


@dataclass(frozen=True)
class Irregularity:
    code: str  # X1 .. X13, or "other"
    title: str
    ruling: str
    source: str
    parameter: str = ""  # the rules parameter with its points (or the minimum's rise), "" for a ruling only
    line: str = ""  # the line it adds to the side's score
    sign: int = -1  # -1 a penalty, +1 a bonus (X13)

    def points(self, rules: Rules) -> int:
        """What one occurrence adds to the side's score under these rules (0: not a rule of the variant)."""
        return self.sign * int(getattr(rules, self.parameter)) if self.parameter else 0

    def to_dict(self, rules: Rules) -> dict[str, Any]:
        return {"code": self.code, "title": self.title, "ruling": self.ruling, "source": self.source,
                "parameter": self.parameter, "line": self.line,
                "points": self.points(rules) if self.line else 0,
                "raise": rules.withdrawn_opening_raise if self.code == "X5" else 0}


IRREGULARITIES: tuple[Irregularity, ...] = (
    Irregularity("X1", "Drew too many cards", "On later turns he discards without drawing until his hand is the "
                 "right size.", "§7 X1 [S1]"),
    Irregularity("X2", "Discarded without drawing", "Noticed before the next player draws: he takes the top card "
                 "of the stock.", "§7 X2 [S1]"),
    Irregularity("X3", "Exposed stock cards while drawing", "Shown to all and put back; the next player takes the "
                 "top card as it is or shuffles the stock first.", "§7 X3 [S1]"),
    Irregularity("X4", "Exposed cards from the hand", "They stay face up and are discarded one a turn, or melded "
                 "when a legal meld becomes possible.", "§7 X4 [S1, Sp]"),
    Irregularity("X5", "Opening below the minimum, taken back", "The side adds cards to reach the minimum, or "
                 "takes the meld back and its minimum rises for the rest of the hand.", "§7 X5 [S1, D]",
                 "withdrawn_opening_raise"),
    Irregularity("X6", "Red three not declared", "Each red three still in a hand at the end costs the side; enter "
                 "it as a red three left in hand.", "§7 X6 [S1]", "undeclared_red_three_penalty",
                 "undeclared_red_threes"),
    Irregularity("X7", "Meld with too many wild cards", "The extra wild cards go to another legal meld, are "
                 "discarded, or go back to the hand with a penalty.", "§7 X7 [S1]", "wild_excess_penalty",
                 "excess_wild_cards"),
    Irregularity("X8", "Asked to go out, then did not", "After asking permission (and a yes) the player could "
                 "not go out.", "§7 X8 [Sp]", "failed_permission_penalty", "failed_permission"),
    Irregularity("X9", "Drew from the stock out of turn", "The card goes back; if it was the next player, the "
                 "draw stands (he may not take the pile).", "§7 X9 [Sp]"),
    Irregularity("X10", "Two-hand game", "Penalties for exposed cards and short openings do not apply.",
                 "§7 X10 [R, H]"),
    Irregularity("X11", "Wrong dealer", "Noticed before the first play: the deal stands and the right player "
                 "leads; later: everything stands.", "§7 X11 [Sp]"),
    Irregularity("X12", "Forgot to take the pile", "He may not take it later (Modern American house rule).",
                 "§7 X12 [HBC]"),
    Irregularity("X13", "Cut exactly the cards of the deal", "House rule: a bonus for the player who cuts exactly "
                 "the cards needed.", "§7 X13 [HF-x]", "exact_cut_bonus", "exact_cut", sign=1),
)
OTHER = Irregularity("other", "Other penalty", "Points the table agreed on, entered as they are.", "the table",
                     line="other_penalties")
BY_CODE = {x.code: x for x in (*IRREGULARITIES, OTHER)}
# The penalties the pad records in a hand's ``penalties`` (X6 is the side's red threes left in hand instead).
ENTERED = ("X5", "X7", "X8", "X13", "other")


def available(rules: Rules) -> list[Irregularity]:
    """The irregularities these rules give points (or a minimum's rise) for: what the pad offers to enter."""
    out = []
    for x in IRREGULARITIES:
        if x.code in ENTERED and x.parameter and getattr(rules, x.parameter):
            out.append(x)
    return [*out, OTHER]
