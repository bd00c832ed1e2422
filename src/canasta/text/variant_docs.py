"""Each preset's page: how it differs from Classic, every parameter with its source, and the choices
made where sources disagree. ``canasta rules NAME`` prints it; docs/variants/NAME.md is the same text
(a test keeps them equal; regenerate with ``canasta rules NAME > docs/variants/NAME.md``)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ..canasta.pages import NOTES
from ..canasta.rules import PARAMETERS, Rules
from ..canasta.variants import ALIASES as CANASTA_ALIASES
from ..canasta.variants import PRESETS as CANASTA_PRESETS
from ..canasta.variants import UNSUPPORTED as CANASTA_UNSUPPORTED
from ..canasta.variants import rules as make_rules
from ..play.family import play_family
from ..rummy.pages import NOTES as RUMMY_NOTES
from ..rummy.presets import ALIASES as RUMMY_ALIASES
from ..rummy.presets import PRESETS as RUMMY_PRESETS
from ..rummy.presets import UNSUPPORTED as RUMMY_UNSUPPORTED
from ..rummy.rules import RummyRules
from .doc_tables import parameter_table, shown


def variant_parts(rules: Rules | RummyRules) -> dict[str, Any]:
    """The pieces of a preset's page, as ``variant_page`` prints them and the browser's rules page shows them:
    title, summary, aliases, options given, the base preset and the parameters that differ from it (with
    their sources), the choices where sources disagree, and every parameter as ``rules.describe()`` with
    the family's ``PARAMETERS`` (``bounds``: each one's allowed values)."""
    parts = play_family(rules).page_parts(rules)
    base, overrides = parts.pop("base"), dict(rules.overrides)
    source = parts.pop("source")
    changed = [(name, value, "option" if name in overrides else source(name, described))
               for name, value, _meaning, described in rules.describe() if getattr(base, name) != value]
    return {**parts, "name": rules.name, "overrides": overrides, "base": base.name, "changed": changed,
            "parameters": rules.describe()}


def variant_page(rules: Rules | RummyRules) -> str:
    """The page for a preset (with any overrides shown as changed), in Markdown."""
    parts = variant_parts(rules)
    aliases = parts["aliases"]
    lines = [f"# {parts['title']}", "", f"Preset `{parts['name']}`" + (
        f" (also {', '.join(f'`{a}`' for a in aliases)})" if aliases else "") + ".", "", parts["summary"], ""]
    if parts["overrides"]:
        lines += ["With options: " + ", ".join(f"`{k}={shown(v)}`" for k, v in parts["overrides"].items()), ""]
    if parts["changed"]:
        lines += [f"## How it differs from {parts['base_title']}", "", "| parameter | value | source |",
                  "|---|---|---|"]
        lines += [f"| `{name}` | `{shown(value)}` | {source} |" for name, value, source in parts["changed"]]
        lines.append("")
    if parts["choices"]:
        lines += ["## Choices where sources disagree or are silent", ""] + [f"- {c}" for c in parts["choices"]] + [""]
    lines += parameter_table(parts["parameters"], parts["bounds"], parts["source_header"])
    lines += ["", parts["footer"]]
    return "\n".join(lines) + "\n"


def _index_rows(presets: Iterable[str], aliases: Mapping[str, str], notes: Mapping[str, tuple[Any, ...]]) -> list[str]:
    """A family's rows of the variants index: each preset, its aliases and its page's title."""
    return [f"| [`{name}`]({name}.md) | {', '.join(sorted(a for a, t in aliases.items() if t == name))} | "
            f"{notes[name][0] if name in notes else '(no page yet)'} |" for name in sorted(presets)]


def variants_index() -> str:
    header = ["| preset | aliases | what it is |", "|---|---|---|"]
    lines = ["# Variants", "", *header, *_index_rows(CANASTA_PRESETS, CANASTA_ALIASES, NOTES)]
    lines += ["", "## The rummy family", "", *header, *_index_rows(RUMMY_PRESETS, RUMMY_ALIASES, RUMMY_NOTES)]
    unsupported = sorted({**CANASTA_UNSUPPORTED, **RUMMY_UNSUPPORTED}.items())
    lines += ["", "Not supported, and why:", "", *(f"- `{name}`: {why}." for name, why in unsupported)]
    lines += ["", "Any preset takes the house rules of §5 as options (`--option KEY=VALUE`, or keyword "
              "arguments to `canasta.rules`): see `canasta rules classic` for every parameter."]
    return "\n".join(lines) + "\n"


# docs/rules/classic.md: rule-by-rule prose written by hand, then this section generated from the rules
# object, so that the page lists every parameter with the value, choices and source the code has.
PARAMETERS_HEADING = "## Parameters of the `Rules` object"


def classic_parameters() -> str:
    """The generated end of docs/rules/classic.md: every parameter of the rules object."""
    rules = make_rules("classic")
    lines = [PARAMETERS_HEADING, "",
             "Every parameter of `canasta.rules(\"classic\", **overrides)`, with its Classic value, generated "
             "from the rules object (`canasta.rules().describe()` gives the same list). Any preset takes any of "
             "them as an option (`--option KEY=VALUE` on the command line); the variant pages show each preset's "
             "values. Every value is checked against its allowed values, then the parameters together: teams "
             "divide the players, at most players + 1 decks and 3 jokers a deck, a pack large enough for the "
             "deal, ...", "",
             "| parameter | Classic | allowed values | meaning | source |", "|---|---|---|---|---|"]
    for name, value, meaning, source in rules.describe():
        lines.append(f"| `{name}` | `{shown(value)}` | {PARAMETERS[name][2].describe()} | {meaning} | {source} |")
    lines += ["", "Option values may also be given as text (`\"true\"`, `\"10000\"`, `\"[[0, 50]]\"`), as a command "
              "line or a JSON record does; an unknown option or a value outside its allowed values raises `ValueError` "
              "naming both (`option jokers=1000000: must be an integer from 0 to 24`).",
              "", "The real-table irregularities of §7 are parameters too: the engine plays a withdrawn opening's "
              "rise of the minimum (`withdrawn_opening_raise`) and the penalty for asking to go out and not going "
              "out (`failed_permission_penalty`) when they are set; the others (`wild_excess_penalty`, "
              "`undeclared_red_three_penalty`, `exact_cut_bonus`) are lines a score pad enters (docs/pad.md), as an "
              "illegal meld never reaches the engine's table.",
              "", "Source tags, sections (§) and decisions (D) are explained in [sources.md](../sources.md)."]
    return "\n".join(lines) + "\n"


def classic_page(current: str) -> str:
    """docs/rules/classic.md as it should be: its hand-written part (everything before the parameters
    heading) followed by the generated parameter section."""
    prose = current.split(PARAMETERS_HEADING, 1)[0].rstrip("\n")
    return prose + "\n\n" + classic_parameters()


__all__ = ["NOTES", "classic_page", "classic_parameters", "variant_page", "variant_parts", "variants_index"]
