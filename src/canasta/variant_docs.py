"""Each preset's page: how it differs from Classic, every parameter with its source, and the choices
made where sources disagree. ``canasta rules NAME`` prints it; docs/variants/NAME.md is the same text
(a test keeps them equal; regenerate with ``canasta rules NAME > docs/variants/NAME.md``)."""

from __future__ import annotations

import json
from typing import Any

from .rules import Rules
from .variants import ALIASES, PRESETS, UNSUPPORTED
from .variants import rules as make_rules

# name: (title, summary, {parameter: source of this preset's value}, choices where sources disagree)
NOTES: dict[str, tuple[str, str, dict[str, str], list[str]]] = {
    "classic": (
        "Classic Canasta (four players, two partnerships)",
        "The partnership game of RULES.md §3 in pagat's reading, with every disagreement between sources "
        "(RULES.md §6) an option whose default is the recommended reading. See docs/rules/classic.md for "
        "how each rule is implemented.",
        {},
        ["D1 concealed going out: 200 in all (`concealed_going_out_bonus`).",
         "D2 concealed going out waives the minimum only after a stock draw (`concealed_waives_minimum`).",
         "D4 black threes do not freeze the pile and stay as the upcard (`black_three_freezes`, "
         "`black_three_upcard`).",
         "D6 a one-card pile may not be taken with one card in hand (`one_card_pile_rule`).",
         "D7 red threes count minus for a side that never melded (`red_three_positive_if`).",
         "D8 a red three as the last stock card ends the hand at once (`last_card_red_three`).",
         "D10 at least 2 naturals and at most 3 wild cards per meld (`wild_rule`).",
         "D26 after the stock, the discard must be taken only when it fits the side's meld and the pile is "
         "not frozen (`forced_take_after_stock`)."],
    ),
    "two-player": (
        "Two-player Canasta",
        "Classic for two players, each on his own: 15 cards each, draw two and discard one, two canastas "
        "to go out. Scoring is unchanged (GOLDEN GC-S22).",
        {"players": "[P,H,R]", "teams": "each player alone [P,H,R]", "hand_size": "15 [P,H,R,W]",
         "draw_count": "2, discard 1 [P,H,R,W]", "canastas_to_go_out": "2 [P,H,R]; W: 'usually' (D12)",
         "permission": "no partner to ask",
         "last_card_red_three": "the last single card counts as a full draw; a red three among the last "
                                "cards is not replaced [P,R]"},
        ["D12 two canastas to go out (pagat, Hoyle, Rasa) rather than Wikipedia's 'usually'.",
         "The rulebooks' relief from penalties for exposed cards and insufficient melds (R) does not arise: "
         "the program never lets either happen."],
    ),
    "three-player": (
        "Three-player Canasta",
        "Classic for three players, each for himself, 13 cards each (Rasa; Wikipedia).",
        {"players": "[W,R]", "teams": "each for himself [R]", "hand_size": "13 [W,R,loverummy] (some deal 11)",
         "permission": "no partner to ask"},
        ["13 cards, the majority reading (loverummy mentions 11)."],
    ),
    "cutthroat": (
        "Cutthroat Canasta (three players)",
        "The first player to take the discard pile plays alone for the rest of the hand; the other two "
        "become partners, combine their melds and score together. A player who goes out before the pile was "
        "ever taken is the lone hand. Red threes count only for their owner (plus or minus by whether his "
        "side melded), each player's own score sets his minimum count, and each has his own score column. "
        "When the stock runs out, play ends with the discard of the player who drew the last card; if the "
        "pile was never taken, each scores alone.",
        {"players": "[R, Bicycle]", "teams": "three score columns, one per player [R, Bicycle]",
         "hand_size": "13 [R]", "draw_count": "2, discard 1 [R, Bicycle]", "canastas_to_go_out": "2 [R]",
         "target": "7,500 [R, Bicycle, loverummy]", "permission": "partners form mid-hand; no source has "
         "them ask", "cutthroat": "[R, Bicycle]", "end_of_stock": "play ends with the last card's discard "
         "[R, Bicycle]"},
        ["When partners combine melds of the same rank, the merged meld may hold more wild cards than the "
         "limit; no source covers this, and the engine lets such a meld stand (it takes no further wilds).",
         "The partner's minimum count: the one who melds first for the partnership meets his own minimum "
         "(R, loverummy)."],
    ),
    "six-player": (
        "Six-player Canasta (two teams of three)",
        "Three packs (162 cards), partners seated alternately, 13 cards each, two canastas to go out, a "
        "150 minimum from 7,500 and a 10,000-point game (Rasa).",
        {"players": "[R]", "decks": "3 × 52 [R]", "jokers": "6 [R]", "hand_size": "13 [R]",
         "canastas_to_go_out": "2 [R]", "red_three_scale": "1-4: 100 each; 5: 1,000; 6: 1,200 [R]",
         "initial_meld": "Classic plus 150 at 7,500 or more [R]", "target": "10,000 [R]"},
        ["D22 all six play with 162 cards (Rasa) rather than 108 cards with players sitting out in turn "
         "(Dummies); 13 cards rather than 11."],
    ),
    "six-player-three-teams": (
        "Six-player Canasta (three teams of two)",
        "As six-player, but three partnerships of two, partners seated opposite (seats 0 and 3, 1 and 4, "
        "2 and 5), and a 7,500-point game (Rasa; Spanish ochob).",
        {"players": "[R]", "teams": "3 partnerships [R; Sp ochob]", "decks": "3 × 52 [R]", "jokers": "6 [R]",
         "hand_size": "13 [R]", "canastas_to_go_out": "2 [R]",
         "red_three_scale": "1-4: 100 each; 5: 1,000; 6: 1,200 [R]",
         "initial_meld": "Classic plus 150 at 7,500 or more [R] (reached only as the game ends)",
         "target": "7,500 [R]"},
        ["D22 as for six-player."],
    ),
    "british": (
        "British Canasta (Classic with Acaba)",
        "Classic, plus Acaba: in his own turn a player may call 'Acaba'; the hand ends at once, the "
        "opponents score 1,500 and his side nothing (its melds and bonuses do not count). In partnership he "
        "may first ask his partner (`ask acaba`) and is bound by the answer (Wikipedia). `acaba=true` adds "
        "the same rule to any preset.",
        {"acaba": "[W]", "acaba_bonus": "1,500 [W] (GOLDEN GC-S17)"},
        ["Wikipedia is the only source; it does not say whether the opponents' own melds count in an Acaba "
         "hand. GC-S17's example has them add exactly 1,500, so they score nothing else."],
    ),
    "uruguayan": (
        "Uruguayan Canasta",
        "Classic plus melds of wild cards only (3 to 7 twos and jokers); seven wild cards make a wild "
        "canasta worth 2,000; the pile is always frozen (a natural pair is always needed) (Scarne; Rasa).",
        {"wild_melds": "[Sc,R]", "wild_canasta_bonus": "2,000 [Sc,R]", "pile_always_frozen": "[Sc,R]"},
        ["D23 Scarne and Rasa's Uruguayan (wild melds, always frozen) rather than Wikipedia's 'exactly like "
         "the original canasta'.",
         "The draw stays one card: an AI-written note reporting 'draw two' was not adopted (RULES.md §4B)."],
    ),
    "cuban": (
        "Cuban Canasta",
        "13 cards each; the pile is always frozen; no meld may pass 7 cards; melds of wild cards are "
        "allowed, and a wild canasta is worth 4,000 (seven twos), 3,000 (four jokers and three twos) or "
        "2,000; red threes score 100 / 300 / 500 / 1,000 for one to four, plus only for a side with a "
        "canasta; black threes may not be discarded in the first round, and those found in a taken pile are "
        "laid aside for the side (5 each, 100 for all four); the minimum is 150 from 5,000; going out scores "
        "100 with no concealed bonus; game 7,500 (Rasa; Wikipedia).",
        {"hand_size": "13 [R]", "pile_always_frozen": "[R,W]", "max_meld_size": "7 [R]",
         "wild_melds": "[R]", "wild_canasta_bonus": "2,000 [R]",
         "wild_canasta_bonus_by_jokers": "seven twos 4,000; four jokers and three twos 3,000 [R]",
         "red_three_scale": "1: 100, 2: 300, 3: 500, 4: 1,000 [R,W]",
         "red_three_positive_if": "a canasta [R,W]", "black_three_first_round_discard": "[R,W]",
         "pile_black_threes": "removed from play, 5 each, 100 for all four [R,W]",
         "initial_meld": "Classic plus 150 at 5,000 or more [R,W]", "target": "7,500 [R,W]",
         "concealed_going_out_bonus": "no concealed bonus: going out is 100 either way [R]"},
        ["Canastas to go out: no source says; one, as in Classic.",
         "'The first round' is read as each player's first turn of the hand."],
    ),
}


def _shown(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(json.loads(json.dumps(value)))


def variant_page(rules: Rules) -> str:
    """The page for a preset (with any overrides shown as changed), in Markdown."""
    title, summary, sources, choices = NOTES[rules.name]
    classic = make_rules("classic")
    aliases = sorted(a for a, t in ALIASES.items() if t == rules.name)
    lines = [f"# {title}", "", f"Preset `{rules.name}`" + (f" (also {', '.join(f'`{a}`' for a in aliases)})"
                                                           if aliases else "") + ".", "", summary, ""]
    overrides = dict(rules.overrides)
    if overrides:
        lines += ["With options: " + ", ".join(f"`{k}={_shown(v)}`" for k, v in overrides.items()), ""]
    changed = [row for row in rules.describe() if getattr(classic, row[0]) != row[1]]
    if changed:
        lines += ["## How it differs from Classic", "", "| parameter | value | source |", "|---|---|---|"]
        for name, value, _meaning, _source in changed:
            source = sources.get(name, "option" if name in overrides else "")
            lines.append(f"| `{name}` | `{_shown(value)}` | {source} |")
        lines.append("")
    if choices:
        lines += ["## Choices where sources disagree or are silent", ""] + [f"- {c}" for c in choices] + [""]
    lines += ["## Every parameter", "", "| parameter | value | meaning | source (Classic) |", "|---|---|---|---|"]
    for name, value, meaning, source in rules.describe():
        lines.append(f"| `{name}` | `{_shown(value)}` | {meaning} | {source} |")
    lines += ["", "Sources are the tags of `RULES.md` §1; sections are `RULES.md`'s."]
    return "\n".join(lines) + "\n"


def variants_index() -> str:
    lines = ["# Variants", "", "| preset | aliases | what it is |", "|---|---|---|"]
    for name in sorted(PRESETS):
        aliases = ", ".join(sorted(a for a, t in ALIASES.items() if t == name))
        lines.append(f"| [`{name}`]({name}.md) | {aliases} | {NOTES[name][0]} |")
    lines += ["", "Not supported, and why:", ""]
    lines += [f"- `{name}`: {why}." for name, why in sorted(UNSUPPORTED.items())]
    lines += ["", "Any preset takes the house rules of RULES.md §5 as options (`--option KEY=VALUE`, or keyword "
              "arguments to `canasta.rules`): see `canasta rules classic` for every parameter."]
    return "\n".join(lines) + "\n"
