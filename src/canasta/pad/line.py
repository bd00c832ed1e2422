"""``canasta pad`` in line mode: the score pad in any terminal, kept in a file (docs/pad.md).

Commands: ``add`` (or an empty line) asks each side's questions; ``fix N`` corrects hand N; ``undo``;
``sheet``; ``csv FILE`` and ``json FILE`` export; ``help``; ``quit``. Every change is saved at once.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path

from ..line.common import render_breakdown
from .entry import answers_of, hand_entry, prompt, questions
from .game import Pad, PadError
from .sheet import to_csv

HELP = """commands:
  add (or Enter)  enter the next hand, side by side
  fix N           correct hand N (Enter keeps an answer)
  undo            take back the last change
  sheet           every hand's totals; 'sheet N' shows hand N line by line
  csv FILE        write the score sheet as CSV; json FILE: the pad's JSON
  quit            leave (the pad is saved after every change)"""


def save(pad: Pad, path: Path) -> None:
    """Write the pad's JSON so that a crash mid-write leaves the old file whole."""
    fd, tmp = tempfile.mkstemp(dir=path.parent or Path("."), prefix=f".{path.name}.", suffix=".tmp")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(pad.to_json())
    os.replace(tmp, path)


def render(pad: Pad, hand: int | None = None) -> list[str]:
    """The pad as text: each hand's totals, one hand line by line (the last by default), minimums, result."""
    names = list(pad.names)
    out = [f"{pad.rules.name} score pad" + (f" ({', '.join(f'{k}={v}' for k, v in pad.options.items())})"
                                             if pad.options else "")]
    width = max(10, *(len(n) + 2 for n in names))
    out.append(f"{'hand':<6}" + "".join(f"{n:>{width}}" for n in names))
    for scored in pad.sheet:
        out.append(f"{scored['number']:<6}" + "".join(f"{s['cumulative']:>{width}}" for s in scored["sides"])
                   + "   (" + ", ".join(f"{s['total']:+}" for s in scored["sides"]) + ")")
    if pad.hands:
        number = len(pad.hands) if hand is None else hand
        scored = pad.sheet[number - 1]
        out += ["", f"hand {number}:", *render_breakdown(scored["sides"], names, ["cumulative"])]
        raised = scored["raised"]
        if any(raised):
            out.append("minimum raised that hand (X5): " + ", ".join(
                f"{n} +{r}" for n, r in zip(names, raised, strict=True) if r))
    if pad.result is not None:
        winner = pad.result["winner"]
        out.append("")
        out.append("game over: " + ("a draw" if winner is None else f"{names[winner]} wins") + " ("
                   + ", ".join(f"{n} {s}" for n, s in zip(names, pad.result["scores"], strict=True)) + ")")
    elif any(pad.minimums()):
        out.append("minimum count next hand: " + ", ".join(
            f"{n} {m}" for n, m in zip(names, pad.minimums(), strict=True)))
    return out


def ask_hand(pad: Pad, read: Callable[[str], str], write: Callable[[str], None],
             before: list[dict[str, str]] | None = None) -> dict[str, object] | None:
    """Ask each side's questions; None when the user leaves with 'cancel'."""
    answers = []
    for i, name in enumerate(pad.names):
        write(f"-- {name}")
        side: dict[str, str] = {}
        for key in questions(pad.rules):
            if key == "canastas":
                melds = side.get("melds", "").replace(",", "").strip()
                if not melds.lstrip("-").isdigit():
                    continue  # melds given as cards: the canastas are read from them
            old = before[i].get(key, "") if before else ""
            text = read(f"   {prompt(pad.rules, key)}" + (f" [{old}]" if old else "") + ": ")
            if text.strip().lower() == "cancel":
                return None
            side[key] = text if text.strip() or not old else old
        answers.append(side)
    return hand_entry(pad.rules, answers)


def run(pad: Pad, path: Path, read: Callable[[str], str] = input, write: Callable[[str], None] = print) -> int:
    """The line-mode loop; returns the exit status."""
    write("\n".join(render(pad)))
    write("Type 'help' for the commands; 'cancel' at any question leaves that hand.")
    while True:
        try:
            line = read("pad> ").strip()
        except (EOFError, KeyboardInterrupt):
            write("")
            return 0
        verb, _, rest = line.partition(" ")
        verb = verb.lower() or "add"
        try:
            if verb in ("quit", "q", "exit"):
                return 0
            if verb == "help":
                write(HELP)
            elif verb == "sheet":
                write("\n".join(render(pad, _hand_number(pad, rest) if rest.strip() else None)))
            elif verb in ("add", "fix"):
                number = _hand_number(pad, rest) if verb == "fix" else None
                if number is None and pad.closed():
                    raise PadError(str(pad.closed()))
                before = answers_of(pad.rules, pad.hands[number - 1]) if number else None
                hand = ask_hand(pad, read, write, before)
                if hand is None:
                    write("cancelled; nothing changed")
                    continue
                pad = pad.correct(number, hand) if number else pad.add(hand)
                save(pad, path)
                write("\n".join(render(pad, number)))
            elif verb == "undo":
                pad = pad.undo()
                save(pad, path)
                write("\n".join(render(pad)))
            elif verb in ("csv", "json"):
                if not rest.strip():
                    raise PadError(f"{verb} wants a file name")
                Path(rest.strip()).write_text(to_csv(pad) if verb == "csv" else pad.to_json(), encoding="utf-8")
                write(f"written: {rest.strip()}")
            else:
                write(f"unknown command {verb!r}; type 'help'")
        except (PadError, ValueError) as exc:
            write(f"refused: {exc} (nothing changed)")
        except OSError as exc:
            write(f"cannot write: {exc.strerror or exc}")


def _hand_number(pad: Pad, text: str) -> int:
    t = text.strip()
    if not t.isdigit() or not 1 <= int(t) <= len(pad.hands):
        raise PadError(f"want a hand number from 1 to {len(pad.hands)}, got {t!r}" if pad.hands else "no hands yet")
    return int(t)
