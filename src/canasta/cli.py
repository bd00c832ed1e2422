"""The ``canasta`` command: play, simulate, score, explain, moves, replay, rules, pad.

``main(argv)`` returns the exit status: 0 success; 1 bad input, meaning anything wrong in a file or
on standard input (unreadable, not UTF-8, not JSON, the wrong shape, an unknown variant or option
named in the file, a record that does not replay, a hand that cannot be scored); 2 a usage error,
meaning anything wrong on the command line (unknown variant, option, player or seat; argparse's own
errors). Every error is one line on standard error, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from . import __version__, is_compiled, is_over, legal_moves, parse_move, tui, why_illegal
from .canasta.rules import Rules
from .canasta.state import State
from .canasta.variants import ALIASES
from .canasta.view import seat_name
from .line.common import render_breakdown, render_result
from .line.game import table_text
from .play import autosave
from .play.family import play_family
from .play.seated import parse_seat_names
from .play.session import HUMAN, Session, default_save_path
from .players import player_names, refuse_unsupported
from .players.rummy import rummy_player_names
from .positions import load_state
from .presets import game_rules as make_rules
from .presets import variant_names
from .rummy import ALIASES as RUMMY_ALIASES
from .rummy import RummyRules, RummyState
from .text.names import move_label, plural, side_name
from .text.variant_docs import variant_page, variants_index


class CliError(Exception):
    """A message for standard error and the exit status."""

    def __init__(self, message: str, status: int = 1) -> None:
        super().__init__(message)
        self.status = status


def _out(text: str = "", end: str = "\n") -> None:
    sys.stdout.write(text + end)


def _parse_options(items: list[str] | None) -> dict[str, str]:
    options: dict[str, str] = {}
    for item in items or []:
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise CliError(f"--option wants KEY=VALUE, got {item!r} (e.g. --option target=10000)", 2)
        options[key.strip()] = value.strip()
    return options


def _rules(variant: str, options: list[str] | None) -> Rules | RummyRules:
    try:
        return make_rules(variant, **_parse_options(options))
    except ValueError as exc:
        raise CliError(str(exc), 2) from None


def _read(path: str, what: str) -> str:
    try:
        if path == "-":
            stdin = getattr(sys.stdin, "buffer", None)  # the bytes, so that the encoding is ours to check
            data: str | bytes = sys.stdin.read() if stdin is None else stdin.read()
        else:
            data = Path(path).read_bytes()
        return data if isinstance(data, str) else data.decode("utf-8")
    except OSError as exc:
        raise CliError(f"cannot read {what} {path!r}: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise CliError(f"{what} {path!r} is not UTF-8 text (byte {exc.start + 1} is {exc.object[exc.start]:#04x})"
                       ) from None


def _read_object(path: str, what: str) -> dict[str, Any]:
    """A file (or ``-``) holding one JSON object."""
    try:
        data = json.loads(_read(path, what))
    except json.JSONDecodeError as exc:
        raise CliError(f"{what} {path!r} is not valid JSON: {exc}") from None
    if not isinstance(data, dict):
        kind = {list: "a list", str: "a string", type(None): "null"}.get(type(data), "a " + type(data).__name__)
        raise CliError(f"{what} {path!r} must hold a JSON object {{...}}, not {kind}")
    return data


def _read_position(path: str) -> State | RummyState:
    try:
        return load_state(_read_object(path, "position"))
    except ValueError as exc:
        raise CliError(f"cannot read position {path!r}: {exc}") from None


# --- play ---------------------------------------------------------------------------------------

def _new_game(args: argparse.Namespace, save: Path) -> Session:
    """A new game with the command line's variant and seats, of either family; nothing is saved before its first
    move."""
    rules = _rules(args.variant or "classic", args.option)
    if args.seats is not None:
        text = args.seats
    else:
        if not 0 <= args.seat < rules.players:
            raise CliError(f"--seat must be 0..{rules.players - 1} for {rules.players} players, got {args.seat}", 2)
        text = ",".join(HUMAN if s == args.seat else args.opponents for s in range(rules.players))
    family = play_family(rules)
    try:
        seats = parse_seat_names(text, rules.players, family.seat_choices())
        # before the deal, not at a move
        refuse_unsupported({n: family.make_player(n, None) for n in seats if n != HUMAN}, rules)
    except ValueError as exc:
        raise CliError(str(exc), 2) from None
    return Session.start(rules, seats, args.seed, save)


def _resumed(args: argparse.Namespace, save: Path | None) -> Session:
    seats = [n.strip() for n in args.seats.split(",")] if args.seats is not None else None
    try:
        return autosave.resume(Path(args.resume), seats, save)
    except ValueError as exc:
        raise CliError(f"cannot resume: {exc}") from None


def _keep_saved(saved: str, path: Path) -> bool | None:
    """The line mode's question before a new game would replace a saved one: True to continue the saved
    game, False to start a new one, None at the end of the input."""
    _out(f"A game in progress is saved in {path} ({saved}).")
    for _ in range(5):
        _out("Continue the saved game (c) or start a new one, replacing it (n)? ", end="")
        sys.stdout.flush()
        line = sys.stdin.readline()
        if not line:
            _out()
            return None
        answer = line.strip().lower()
        if not sys.stdin.isatty():
            _out(answer)
        if answer in ("c", "continue"):
            return True
        if answer in ("n", "new"):
            return False
    return None


def cmd_play(args: argparse.Namespace) -> int:
    from .players.levels import LEVELS

    if args.hint_level not in LEVELS:
        raise CliError(f"unknown --hint-level {args.hint_level!r}; valid levels: {', '.join(LEVELS)}", 2)
    if args.seats is not None and not args.seats.strip():
        raise CliError("--seats is empty: give one name per seat, e.g. human,hard,expert,medium", 2)
    save = Path(args.save) if args.save else None
    if save is not None and save.is_dir():
        raise CliError(f"--save wants a file, and {args.save!r} is a directory", 2)
    app = not args.plain and sys.stdin.isatty() and sys.stdout.isatty() and tui.available()
    game: Session | None
    if args.resume:
        game = _resumed(args, save)
        path = game.save_path or Path(args.resume)
    else:
        path = save or default_save_path()
        chosen = args.seats is not None or args.option or args.variant is not None
        game = _new_game(args, path) if chosen or not app else None  # None: the app's start screen
    try:
        autosave.claim(path)  # a second program saving to the same file stops here, before anything is written
    except ValueError as exc:
        raise CliError(str(exc)) from None
    except OSError as exc:
        raise CliError(f"cannot save the game in {path}: {exc.strerror or exc}") from None
    resuming_here = args.resume and Path(args.resume).resolve() == path.resolve()
    saved = None if resuming_here else autosave.saved_game(path)
    if app:
        return _play_app(args, game, path, saved)
    if saved is not None:
        keep = _keep_saved(saved, path)
        if keep is None:
            _out(f"Nothing changed: the saved game is still in {path}.")
            return 0
        if keep:
            try:
                game = autosave.resume(path, None, path)
            except ValueError as exc:
                raise CliError(f"cannot resume: {exc}") from None
    assert game is not None  # without the app a game was made above
    return _play_line(args, game)


def _play_line(args: argparse.Namespace, game: Session) -> int:
    """The line mode, the same for every family."""
    from .line.game import LineGame

    interactive = sys.stdin.isatty()
    pause = interactive if args.pause is None else args.pause
    line = LineGame(game, game.humans[0], sys.stdin, sys.stdout, pause=pause, offer_again=interactive,
                    hint_level=args.hint_level)
    try:
        return line.run()
    except KeyboardInterrupt:
        sys.stdout.write("\n")  # after the terminal's ^C, not on its line
        line.leave("Interrupted")
        return 130
    except OSError as exc:
        raise CliError(f"cannot save the game in {exc.filename}: {exc.strerror or exc}") from None


def _play_app(args: argparse.Namespace, game: Any, path: Path, saved: str | None) -> int:
    """The Textual app for a ``Session`` of either family, or its start screen (``game`` None)."""
    from .tui.app import CanastaApp

    app = CanastaApp(game, save_path=path, seed=args.seed, hint_level=args.hint_level, saved=saved)
    app.run()
    if app.return_code:
        return app.return_code
    if app.session is not None and app.session.in_progress():
        _out(f"The game is saved; carry on with: canasta play --resume {path}")
    return 0


# --- simulate -----------------------------------------------------------------------------------

def cmd_simulate(args: argparse.Namespace) -> int:
    from .play.simulate import format_summary, simulate

    rules = _rules(args.variant, args.option)
    names = [n.strip() for n in args.players.split(",") if n.strip()]
    if args.games < 0 or args.jobs < 0:
        raise CliError("--games and --jobs must be 0 or more", 2)
    progress: bool | str = "always" if args.progress else args.progress is None
    try:
        summary = simulate(args.games, seed=args.seed, jobs=args.jobs, players=names, rules=rules,
                           records_dir=args.records, progress=progress, max_moves=args.max_moves)
    except ValueError as exc:
        raise CliError(str(exc), 2) from None
    except OSError as exc:
        raise CliError(f"cannot write a record: {exc.strerror or exc}") from None
    if args.json:
        summary.pop("results")
        _out(json.dumps(summary, indent=2))
    else:
        _out(format_summary(summary))
        if args.records:
            _out(f"records: {args.records}/game-00001.json ... ({args.games} files)")
    return 0


# --- tournament ---------------------------------------------------------------------------------

def cmd_tournament(args: argparse.Namespace) -> int:
    from .play import arena

    rules = _rules(args.variant, args.option)
    names = [n.strip() for n in args.players.split(",") if n.strip()]
    if args.games < 0 or args.hands < 0 or (args.jobs is not None and args.jobs < 0):
        raise CliError("--games, --hands and --jobs must be 0 or more", 2)
    try:  # the optional libraries are checked before any game is played
        if args.plot:
            arena.require("matplotlib", "plot", "--plot")
        if args.ray:
            arena.require("ray", "ray", "--ray")
    except arena.MissingLibrary as exc:
        raise CliError(str(exc)) from None
    progress: bool | str = "always" if args.progress else args.progress is None
    try:
        summary = arena.run_tournament(names, args.games, args.seed, rules=rules, hands=args.hands,
                                       jobs=args.jobs or 0, ray=args.ray, progress=progress)
    except ValueError as exc:
        raise CliError(str(exc), 2) from None
    written = []
    try:
        if args.json and args.json != "-":
            arena.write_json(summary, args.json)
            written.append(args.json)
        if args.csv:
            arena.write_csv(summary, args.csv)
            written.append(args.csv)
        if args.plot:
            written += [str(path) for path in arena.plot(summary, args.plot)]
    except OSError as exc:
        raise CliError(f"cannot write {exc.filename or 'the results'}: {exc.strerror or exc}") from None
    if args.json == "-":
        _out(json.dumps(summary, indent=2))
        return 0
    _out(arena.format_table(summary))
    if written:
        _out("written: " + ", ".join(written))
    return 0


# --- score, explain, moves ----------------------------------------------------------------------

def cmd_score(args: argparse.Namespace) -> int:
    if args.variant is not None or args.option:  # the command line's own mistakes are usage errors (2)
        _rules(args.variant or "classic", args.option)
    data = _read_object(args.file, "input")
    if not isinstance(data.get("sides"), list):
        raise CliError('input must be an object with a "sides" list (see canasta score --help)')
    options = data.get("options") or {}
    variant = data.get("variant", "classic")
    if not isinstance(options, dict) or not isinstance(variant, str):
        raise CliError('"variant" must be a name and "options" an object')
    try:
        rules = make_rules(args.variant or variant, **{**options, **_parse_options(args.option)})
    except ValueError as exc:
        raise CliError(f"the input's rules: {exc}") from None
    try:
        sides = play_family(rules).engine.score_hand(rules, data["sides"])
    except ValueError as exc:
        raise CliError(f"cannot score: {exc}") from None
    if args.json:
        _out(json.dumps({"sides": sides}))
    else:
        names = [f"side {i + 1}" for i in range(len(sides))]
        _out(f"{rules.name}:")
        _out("\n".join(render_breakdown(sides, names)))
    return 0


def cmd_explain(args: argparse.Namespace) -> int:
    state = _read_position(args.position)
    try:
        move = parse_move(state, args.move)
    except ValueError as exc:
        _out(f"illegal BAD_NOTATION: {exc}")
        return 0
    problem = why_illegal(state, move)
    _out("legal" if problem is None else f"illegal {problem.code}: {problem.message}")
    return 0


def cmd_moves(args: argparse.Namespace) -> int:
    state = _read_position(args.position)
    for move in legal_moves(state):
        _out(str(move))
    return 0


# --- replay -------------------------------------------------------------------------------------

def cmd_replay(args: argparse.Namespace) -> int:
    from .play.record import replay

    data = _read_object(args.record, "record")

    def show(number: int, before: Any, move: Any, after: Any) -> None:
        rules = before.rules
        _out(f"{number:6d}. {seat_name(rules.players, before.to_move):<6} {move_label(str(move), symbols=False)}")
        if after.hand_number != before.hand_number or is_over(after):
            assert after.last_hand is not None
            _out(table_text(play_family(rules)).hand_end(after.last_hand, before.hand_number, rules))

    try:
        final = replay(data, on_move=show if args.verbose else None)
    except ValueError as exc:
        raise CliError(f"replay failed: {exc}") from None
    moves = len(data["moves"])
    r = final.rules
    result = final.result
    if result is None:
        scores = ", ".join(f"{side_name(r.players, r.teams, i)} {s}" for i, s in enumerate(final.scores))
        _out(f"ok: {plural(moves, 'move')} replayed and checked; the game is not finished "
             f"(hand {final.hand_number}; {scores})")
    else:
        _out(f"ok: {plural(moves, 'move')} replayed and checked. {render_result(result, r.players)}")
    return 0


# --- rules --------------------------------------------------------------------------------------

def cmd_serve(args: argparse.Namespace) -> int:
    from .play.arena import MissingLibrary, require

    try:
        for module in ("fastapi", "uvicorn", "sqlalchemy", "alembic"):
            require(module, "server", "canasta serve")
        if args.database.startswith(("postgresql", "postgres:")):
            require("psycopg", "server", "a PostgreSQL database")
        if args.broker:
            require("redis", "server", "several processes (--broker)")
    except MissingLibrary as exc:
        raise CliError(str(exc)) from None
    from .server.app import create_app, serve
    from .server.config import Limits, limit_options
    from .server.logs import configure
    from .server.metrics import split_address
    from .server.storage import Store, redact

    try:
        if args.env_problem:
            raise ValueError(args.env_problem)
        limits = Limits(**{name: getattr(args, name) for name, *_ in limit_options()})
        if args.metrics:
            split_address(args.metrics)
        if args.drain_seconds < 0:
            raise ValueError(f"--drain-seconds must be 0 or more, got {args.drain_seconds}")
        configure(args.log_format, args.log_level)
    except ValueError as exc:
        raise CliError(str(exc), 2) from None
    shown = redact(args.database)  # never print the database's password
    if args.broker and not args.database.startswith(("postgresql", "postgres:")):
        raise CliError("--broker (several processes on one database) needs a PostgreSQL --database", 2)
    try:  # open (and create or upgrade) the database first: a bad URL is one line here, not a traceback later
        Store(args.database).close()
    except Exception as exc:
        # the driver's first line only: the rest of an SQL error holds its statement
        raise CliError(f"cannot use the database {shown!r}: {type(exc).__name__}: "
                       f"{_first_line(getattr(exc, 'orig', None) or exc)}") from None
    host = "localhost" if args.host in ("127.0.0.1", "::1") else args.host
    address = f"http://{host}:{args.port}/"

    def ready() -> None:
        _out(f"Canasta is ready: open {address} in a browser (Ctrl-C stops the server; games are kept in "
             f"{shown}).")
        sys.stdout.flush()

    try:
        serve(create_app(args.database, workers=args.workers, grace=args.grace, limits=limits,
                         allow_origins=args.allow_origin or (), api_docs=args.api_docs, broker=args.broker,
                         broker_prefix=args.broker_prefix, metrics=args.metrics),
              args.host, args.port, ready, args.drain_seconds)
    except Exception as exc:  # an unusable database URL, a port in use: one line, not a traceback
        raise CliError(f"{type(exc).__name__}: {_first_line(exc)}") from None
    return 0


def _first_line(exc: BaseException) -> str:
    """An error's first line, any URL's password in it redacted."""
    from .server.storage import redact

    lines = str(exc).strip().splitlines()
    return redact(lines[0]) if lines else ""


def cmd_rules(args: argparse.Namespace) -> int:
    if args.name is None:
        if args.option:
            raise CliError("--option needs a variant name, e.g. canasta rules classic --option target=10000", 2)
        if args.json:
            families = {family: variant_names(family) for family in ("canasta", "rummy")}
            aliases = dict(sorted({**ALIASES, **RUMMY_ALIASES}.items()))
            _out(json.dumps({"variants": variant_names(), "families": families, "aliases": aliases}))
            return 0
        _out(variants_index().rstrip("\n"))
        return 0
    rules = _rules(args.name, args.option)
    rows = rules.describe()
    if args.json:
        bounds = play_family(rules).parameters
        _out(json.dumps({**rules.to_dict(), "parameters": [
            {"name": n, "value": json.loads(json.dumps(v)), "allowed": bounds[n][2].record(), "meaning": m,
             "source": s} for n, v, m, s in rows]}, indent=2))
        return 0
    _out(variant_page(rules).rstrip("\n"))
    return 0


# --- the parser ---------------------------------------------------------------------------------

PLAY_HELP = """\
Play one seat against computer players (your partner included), typing moves:
  draw              draw from the stock
  take K K          take the pile, melding its top card with K K from your hand
  take              take the pile by adding its top card to your side's meld
  meld 9 9 9 2      meld (or add to your side's 9s) naturals, then 2s and JKs
  meld 2 on 9       add wild cards to your side's 9s
  discard 5         discard (ends your turn; your last card goes out)
  ask               ask your partner "may I go out?"; answer his question with yes / no
  withdraw          take back melds staged this turn (opening)
  pass              decline the discard when the stock is empty
  help              the legal moves now, explained; show: the table again
  hint              what a computer player (--hint-level) would play here, and why
  quit              leave; the game is saved after every move: resume it with --resume FILE
Only the moves of the chosen variant exist in it: the welcome line lists them.
"""


def _add_rules_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--variant", default="classic", help="the rules preset (default: classic; see 'canasta rules')")
    _add_option_arg(p)


def _add_option_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument("--option", "-o", action="append", metavar="KEY=VALUE",
                   help="override one rules parameter, e.g. --option target=10000 (repeatable)")


ENV_PREFIX = "CANASTA_"
TRUE, FALSE = ("1", "true", "yes", "on"), ("0", "false", "no", "off", "")


def env_name(flag: str) -> str:
    """The environment variable of an option: ``--max-tables`` is ``CANASTA_MAX_TABLES``."""
    return ENV_PREFIX + flag.lstrip("-").upper().replace("-", "_")


def environment_defaults(parser: argparse.ArgumentParser, options: list[tuple[argparse.Action, str | None]]) -> None:
    """Take each option's default from its environment variable, when set (a container's configuration).
    ``options``: (the option, its ``action``). argparse converts and checks a default given as text as it
    would the option itself; a switch is 1/true/yes/on or 0/false/no/off, a repeatable option a
    comma-separated list. A value that is none of those is refused when the command runs (``env_problem``),
    not here: the other commands do not care."""
    problems = []
    for action, kind in options:
        name = env_name(action.option_strings[0])
        value = os.environ.get(name)
        if value is not None:
            if kind == "store_true":
                if value.strip().lower() not in TRUE + FALSE:
                    problems.append(f"{name} is one of {', '.join(TRUE + FALSE[:-1])}, got {value[:40]!r}")
                action.default = value.strip().lower() in TRUE
            elif kind == "append":
                action.default = [part.strip() for part in value.split(",") if part.strip()]
            else:
                action.default = value
        action.help = f"{action.help} [{name}]"
    parser.set_defaults(env_problem="; ".join(problems) or None)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="canasta", description="Canasta: an exact rules engine, computer players and a terminal game.")
    kind = "compiled" if is_compiled() else "pure Python"
    parser.add_argument("--version", action="version", version=f"canasta {__version__} ({kind})")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    raw = argparse.RawDescriptionHelpFormatter

    p = sub.add_parser("play", help="a game in the terminal against computer players",
                       description=PLAY_HELP, formatter_class=raw)
    p.add_argument("--seats", metavar="NAMES",
                   help="one name per seat from North round the table: human, a level (easy, medium, hard, "
                        "expert) or a player (greedy, heuristic, random, search), e.g. human,hard,expert,medium")
    p.add_argument("--seat", type=int, default=0, help="your seat without --seats: 0 North (default), 1 East, ...")
    p.add_argument("--opponents", default="greedy",
                   help="every computer seat without --seats: a level or a player (default greedy)")
    p.add_argument("--seed", type=int, help="a reproducible deal (and computer players)")
    p.add_argument("--resume", metavar="FILE", help="carry on the game saved in FILE (a game record)")
    p.add_argument("--save", metavar="FILE",
                   help="save the game there after every move (default: $XDG_STATE_HOME/canasta/autosave.json, "
                        "or the --resume file)")
    p.add_argument("--hint-level", default="medium", metavar="LEVEL", help="whose move 'hint' shows (default medium)")
    p.add_argument("--pause", action=argparse.BooleanOptionalAction, default=None,
                   help="wait for Enter after the computer players' turns and the score sheet "
                        "(default: on at a terminal)")
    p.add_argument("--plain", action="store_true", help="the line mode: type moves at a prompt")
    _add_rules_args(p)
    p.set_defaults(func=cmd_play, variant=None)  # no --variant: the app's start screen

    p = sub.add_parser("simulate", help="bots against bots, with a progress bar and a summary",
                       description="Play many bot games (game i uses seed SEED+i) and print a summary.")
    p.add_argument("--games", "-n", type=int, default=100, help="how many games (default 100)")
    p.add_argument("--seed", type=int, default=0, help="seed of the first game (default 0)")
    p.add_argument("--jobs", "-j", type=int, default=1, help="worker processes (default 1; 0 = one per CPU)")
    p.add_argument("--players", default="greedy",
                   help=f"one name, one per side or one per seat, comma-separated ({', '.join(player_names())}; "
                        f"the rummy family: {', '.join(rummy_player_names())}); default greedy in every seat")
    p.add_argument("--max-moves", type=int, default=200_000, metavar="N",
                   help="stop a game after N moves and report it unfinished (default 200000)")
    p.add_argument("--records", metavar="DIR", help="write every game's record to DIR/game-00001.json ...")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                   help="force the progress bar on stderr on or off (default: on when stderr is a terminal)")
    _add_rules_args(p)
    p.set_defaults(func=cmd_simulate)

    p = sub.add_parser("tournament", help="matches between computer players: duplicate deals, win rates, Elo",
                       description="Play every pair of --players on the same seeded deals, each deal once per "
                                   "seating (both ways round with two sides; six ways with three), and print "
                                   "game and hand win rates, points per hand and Elo ratings with 95% "
                                   "intervals (docs/arena.md).")
    p.add_argument("--players", default="greedy,random",
                   help=f"two names for a match, more for a round robin, comma-separated "
                        f"({', '.join(player_names())}, or a level: easy, medium, hard, expert; the rummy family: "
                        f"{', '.join(rummy_player_names())}); "
                        "a name given twice plays itself; default greedy,random")
    p.add_argument("--games", "-n", type=int, default=100,
                   help="duplicate deals per pairing (default 100); deal i uses seed SEED+i, and each is "
                        "played once per seating")
    p.add_argument("--hands", type=int, default=0,
                   help="stop every game after N hands, the higher total winning (default 0: whole games; "
                        "1: single hands)")
    p.add_argument("--seed", type=int, default=0, help="seed of the first deal (default 0)")
    p.add_argument("--jobs", "-j", type=int, default=None, help="worker processes (default: one per CPU)")
    p.add_argument("--json", metavar="FILE", help="write the results as JSON (- prints JSON instead of the table)")
    p.add_argument("--csv", metavar="FILE", help="write one row per pairing and per player as CSV")
    p.add_argument("--plot", metavar="DIR", help="write ratings.png and score-differences.png (needs matplotlib)")
    p.add_argument("--ray", metavar="ADDRESS",
                   help="play the deals as Ray tasks on this cluster (auto, local, ray://HOST:PORT; needs Ray)")
    p.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                   help="force the progress bar on stderr on or off (default: on when stderr is a terminal)")
    _add_rules_args(p)
    p.set_defaults(func=cmd_tournament)

    p = sub.add_parser("score", help="score one hand from JSON (format: docs/index.md)",
                       description='Read {"variant": ..., "options": {...}, "sides": [{"melds": [...], "hand": ..., '
                                   '"red_threes": ..., "went_out": false, "concealed": false}, ...]} and print '
                                   'the breakdown as a table, or with --json '
                                   '{"sides": [{"lines": {...}, "total": N}, ...]}. Exit status 1: '
                                   'anything wrong in the input; 2: on the command line. A side may give "hands" (one '
                                   'card text per player) instead of "hand", for penalties charged per player; '
                                   'in Modern American "red_threes" (or "threes") holds threes of both colours, '
                                   'and "special_hand": NAME marks a side that laid down a special hand (it '
                                   'scores only that). The rummy family (500-rum, basic-rummy ...): each side '
                                   'gives "melds" (the card groups it laid down), "hand", "went_out", and in Basic '
                                   'Rummy "rummy"; see docs/rummy.md.')
    p.add_argument("file", metavar="FILE", help="the JSON file, or - for standard input")
    p.add_argument("--variant", metavar="NAME", help="score under this variant (overrides the file's)")
    p.add_argument("--json", action="store_true", help='print {"sides": [{"lines": {...}, "total": N}, ...]}')
    _add_option_arg(p)
    p.set_defaults(func=cmd_score)

    p = sub.add_parser("explain", help="is a move legal in a position, and if not, why",
                       description="Print 'legal' or 'illegal CODE: message' (exit 0 either way).")
    p.add_argument("position", metavar="POSITION_FILE", help="a position (state.to_json()), or - for standard input")
    p.add_argument("move", metavar="MOVE", help='a move in notation, e.g. "take K K"')
    p.set_defaults(func=cmd_explain)

    p = sub.add_parser("moves", help="every legal move in a position, one per line")
    p.add_argument("position", metavar="POSITION_FILE", help="a position (state.to_json()), or - for standard input")
    p.set_defaults(func=cmd_moves)

    p = sub.add_parser("replay", help="replay a game record, checking every move",
                       description="Replay a record; a record that does not replay exits 1 naming the move "
                                   "number and the reason.")
    p.add_argument("record", metavar="RECORD", help="the record file, or - for standard input")
    p.add_argument("--verbose", "-v", action="store_true", help="print every move and each hand's scores")
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("serve", help="the online server: play in the browser, alone or with friends",
                       description="Start the server (needs the extra: pip install 'canasta[server]') and print the "
                                   "address to open in a browser. Games are kept in the database: a server "
                                   "stopped and started again carries on every table (docs/protocol.md). Every "
                                   "option can also be set in the environment: --max-tables as "
                                   "CANASTA_MAX_TABLES, and so on (the command line wins; docs/deploy.md).")
    options: list[tuple[argparse.Action, str | None]] = []  # each option and its action's kind (for the environment)

    def option(*flags: str, **kwargs: Any) -> None:
        options.append((p.add_argument(*flags, **kwargs), kwargs.get("action")))

    option("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1; 0.0.0.0 for a LAN)")
    option("--port", type=int, default=8000, help="port (default 8000)")
    option("--database", default="sqlite:///canasta.db", metavar="URL",
           help="sqlite:///FILE (default sqlite:///canasta.db) or postgresql://USER:PASSWORD@HOST/DB")
    option("--grace", type=float, default=60.0,
           help="seconds before a computer player moves for a player who lost the connection (default 60)")
    option("--workers", type=int, default=None,
           help="processes in which computer players think (default: one per CPU; 0 = a thread)")
    option("--allow-origin", action="append", metavar="ORIGIN",
           help="a web origin besides the server's own whose pages may open its websockets, e.g. "
                "https://cards.example.org (repeatable)")
    option("--broker", metavar="URL",
           help="redis://HOST:PORT/DB: run as one of several processes on one PostgreSQL database, any of "
                "them serving any table (docs/deploy.md); default none: one process")
    option("--broker-prefix", default="canasta", metavar="NAME",
           help="the start of this site's channel names on the broker (default canasta; give each site "
                "sharing a Redis server its own)")
    option("--api-docs", action="store_true",
           help="serve the OpenAPI schema and its page at /api/openapi.json and /api/docs (default off)")
    option("--metrics", metavar="HOST:PORT",
           help="serve Prometheus metrics at http://HOST:PORT/metrics, a port of their own that the reverse "
                "proxy does not pass on (default: none)")
    option("--drain-seconds", type=float, default=5.0, metavar="S",
           help="on SIGTERM: seconds between /readyz failing (no new tables, tables handed to other "
                "processes) and the connections being told to reconnect elsewhere (default 5)")
    from .server.logs import FORMATS, LEVELS

    option("--log-format", choices=FORMATS, default="text",
           help="log lines as text or one JSON object a line (default text)")
    option("--log-level", choices=LEVELS, default="warning", help="the least level logged (default warning)")
    from .server.config import limit_options
    from .server.protocol import MAX_FRAME_BYTES, RATE_BURST, RATE_PER_SECOND

    group = p.add_argument_group("limits", f"what one client, and all of them, may use (docs/security.md); besides "
                                 f"these, a websocket frame is at most {MAX_FRAME_BYTES:,} bytes (UTF-8) and a "
                                 f"connection sends at most {RATE_PER_SECOND:g} frames a second (bursts of "
                                 f"{RATE_BURST:g}, malformed frames included)")
    for dest, flag, of_type, default, meaning in limit_options():
        options.append((group.add_argument(flag, dest=dest, type=of_type, default=default, metavar="N",
                                           help=f"{meaning} (default {default:g})"), None))
    p.set_defaults(func=cmd_serve)
    environment_defaults(p, options)

    from .pad.command import add_parser as add_pad_parser

    add_pad_parser(sub)

    p = sub.add_parser("rules", help="a variant's parameters with meaning and source, or the list of variants")
    p.add_argument("name", metavar="NAME", nargs="?", help="a variant (omit for the list)")
    _add_option_arg(p)
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=cmd_rules)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help(sys.stderr)
        return 2
    try:
        status: int = args.func(args)
    except CliError as exc:
        sys.stdout.flush()
        print(f"canasta {args.command}: {exc}", file=sys.stderr)
        return exc.status
    except BrokenPipeError:
        return 1
    return status


if __name__ == "__main__":
    raise SystemExit(main())
