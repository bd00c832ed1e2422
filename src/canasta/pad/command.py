"""``canasta pad``: the command's arguments and what it does (the parser is registered by ``canasta.cli``)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from .game import Pad, PadError, load_pad, new_pad
from .line import render, run, save
from .sheet import from_csv, to_csv

DEFAULT_FILE = "canasta-pad.json"
MAX_FILE = 4_000_000  # bytes: a pad of 200 hands is far smaller


def add_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("pad", help="a score pad for a game played with real cards",
                       description="Keep the score of a game played at a real table: enter each hand as the "
                                   "table counts it (cards, or points and canastas) and get every line, the "
                                   "totals, the minimum count for the next hand and the end of the game. The "
                                   "game is kept in FILE and carried on the next time (docs/pad.md). Opens the "
                                   "Textual app where it is installed, else a line mode.")
    p.add_argument("file", metavar="FILE", nargs="?", default=DEFAULT_FILE,
                   help=f"the pad's file (default {DEFAULT_FILE}); created for a new game")
    p.add_argument("--variant", metavar="NAME", help="a new game's variant (default classic)")
    p.add_argument("--option", "-o", action="append", metavar="KEY=VALUE",
                   help="a new game's rules option or house rule, e.g. withdrawn_opening_raise=10 (repeatable)")
    p.add_argument("--names", metavar="A,B", help="a new game's side names, comma-separated")
    p.add_argument("--import", dest="source", metavar="FILE", help="start from a pad exported as JSON or CSV")
    p.add_argument("--show", action="store_true", help="print the score sheet and leave")
    p.add_argument("--csv", metavar="OUT", help="write the score sheet as CSV and leave (- for standard output)")
    p.add_argument("--line", action="store_true", help="line mode even where the Textual app is installed")
    p.set_defaults(func=cmd_pad)


def _options(items: list[str] | None) -> dict[str, str]:
    out = {}
    for item in items or []:
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise PadError(f"--option wants KEY=VALUE, got {item!r}")
        out[key.strip()] = value.strip()
    return out


def _read(path: str) -> Pad:
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise PadError(f"cannot read {path!r}: {exc.strerror or exc}") from None
    if len(data) > MAX_FILE:
        raise PadError(f"{path!r} is larger than a pad can be ({MAX_FILE} bytes)")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise PadError(f"{path!r} is not UTF-8 text") from None
    try:
        return load_pad(json.loads(text)) if text.lstrip().startswith("{") else from_csv(text)
    except PadError as exc:
        raise PadError(f"{path!r}: {exc}") from None
    except (json.JSONDecodeError, RecursionError) as exc:
        raise PadError(f"{path!r} is not valid JSON: {exc}") from None


def open_pad(args: argparse.Namespace) -> Pad:
    path = Path(args.file)
    new_game = args.variant is not None or args.option or args.names
    if args.source:
        pad = _read(args.source)
    elif path.exists():
        if new_game:
            raise PadError(f"{args.file} already holds a game; --variant, --option and --names start a new one "
                           "(name another file)")
        return _read(args.file)
    else:
        names = [n.strip() for n in args.names.split(",")] if args.names else None
        pad = new_pad(args.variant or "classic", _options(args.option), names)
    save(pad, path)
    return pad


def cmd_pad(args: argparse.Namespace) -> int:
    try:
        pad = open_pad(args)
    except (PadError, OSError) as exc:
        print(f"canasta pad: {exc}", file=sys.stderr)
        return 1
    if args.csv:
        if args.csv == "-":
            sys.stdout.write(to_csv(pad))
        else:
            Path(args.csv).write_text(to_csv(pad), encoding="utf-8")
        return 0
    if args.show:
        print("\n".join(render(pad)))
        return 0
    from .. import tui

    if not args.line and tui.available() and sys.stdin.isatty() and sys.stdout.isatty():
        from ..tui.pad import PadApp

        PadApp(pad, Path(args.file)).run()
        return 0
    return run(pad, Path(args.file))
