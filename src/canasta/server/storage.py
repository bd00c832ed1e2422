"""The server's database: tables, seats, moves and chat, through SQLAlchemy Core.

SQLite (the default, one file) and PostgreSQL share one schema, created and upgraded by the Alembic
migrations in ``migrations/``. Every call here is synchronous and short; the server runs them on database
threads (``Store.threads``: one for SQLite, a few for PostgreSQL) so that the event loop never waits on a
disk or a socket.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    Engine,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    bindparam,
    create_engine,
    event,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.engine import Connection

metadata = MetaData()

game_tables = Table(
    "game_tables", metadata,
    Column("id", String(32), primary_key=True),
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False),
    Column("rules", JSON, nullable=False),        # Rules.to_dict()
    Column("settings", JSON, nullable=False),     # delay, turn_seconds, rematch_of, rematch
    Column("status", String(16), nullable=False),  # waiting, playing, over
    Column("version", Integer, nullable=False),
    Column("state", Text, nullable=False),        # State.to_json(): the whole position, stock included
    Column("deals", JSON, nullable=False),        # each hand's deck, for the game record
    Column("pad", JSON, nullable=False),          # each finished hand's breakdown
    Column("result", JSON, nullable=True),        # canasta.outcome once over
)

seats = Table(
    "seats", metadata,
    Column("table_id", String(32), ForeignKey("game_tables.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(8), nullable=False),    # human, bot
    Column("level", String(16), nullable=True),
    Column("token_hash", String(64), nullable=True),  # SHA-256 of the seat's token; the token itself is never kept
    Column("name", String(64), nullable=True),
    Column("player", String(64), nullable=True, index=True),
    Column("joined", Boolean, nullable=False),
)

moves = Table(
    "moves", metadata,
    Column("table_id", String(32), ForeignKey("game_tables.id", ondelete="CASCADE"), primary_key=True),
    Column("version", Integer, primary_key=True),  # the table's version after this move
    Column("seat", Integer, nullable=False),
    Column("move", Text, nullable=False),
    Column("client_id", String(64), nullable=True),
    Column("actor", String(16), nullable=False),   # human, bot, stand-in, timer
    Column("history", JSON, nullable=False),       # the public history entries the move added
    Column("card", String(4), nullable=True),      # a discard's card (the notation may name only the rank)
    Column("created", Float, nullable=False),
)

chat = Table(
    "chat", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_id", String(32), ForeignKey("game_tables.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("seat", Integer, nullable=True),
    Column("name", String(64), nullable=False),
    Column("text", Text, nullable=False),
    Column("created", Float, nullable=False),
)

score_pads = Table(
    "score_pads", metadata,
    Column("id", String(32), primary_key=True),   # the owner's handle (with the player id)
    Column("share", String(32), nullable=False, unique=True),  # the read-only link's
    Column("player", String(64), nullable=False, index=True),
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False),
    Column("pad", JSON, nullable=False),          # canasta.pad.Pad.to_dict()
)

# Several server processes on one PostgreSQL database: the process that runs a table's computer players and
# timers, until ``expires`` (seconds since the epoch, on the database's clock). See ``Store.take_leases``.
table_leases = Table(
    "table_leases", metadata,
    Column("table_id", String(32), ForeignKey("game_tables.id", ondelete="CASCADE"), primary_key=True),
    Column("owner", String(96), nullable=False),
    Column("expires", Float, nullable=False),
)

MIGRATIONS = Path(__file__).with_name("migrations")


def database_url(url: str) -> str:
    """A user's URL as SQLAlchemy wants it: plain ``postgresql://`` means the psycopg 3 driver, a bare
    path means an SQLite file."""
    if url.startswith(("postgresql://", "postgres://")):
        return "postgresql+psycopg://" + url.split("://", 1)[1]
    if "://" not in url:
        return f"sqlite:///{url}"
    return url


PASSWORD_IN_URL = re.compile(r"(://[^:/@\s]*:)[^\s/]*@")


def redact(text: str) -> str:
    """``text`` with the password of every URL in it replaced by ``***`` (for banners, errors and logs)."""
    return PASSWORD_IN_URL.sub(r"\1***@", text)


def migrate(engine: Engine) -> None:
    """Bring the schema to the newest migration (creating it in an empty database)."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


@dataclass
class SeatRow:
    seat: int
    kind: str
    level: str | None
    token_hash: str | None
    name: str | None = None
    player: str | None = None
    joined: bool = False


@dataclass
class TableRow:
    id: str
    rules: dict[str, Any]
    settings: dict[str, Any]
    status: str
    version: int
    state: str
    deals: list[list[str]]
    pad: list[Any]
    result: dict[str, Any] | None
    seats: list[SeatRow] = field(default_factory=list)


@dataclass
class MoveRow:
    version: int
    seat: int
    move: str
    client_id: str | None
    actor: str
    history: list[str]
    card: str | None = None


class StaleWrite(RuntimeError):
    """The table's version in the database is not the one the write was made on."""


# A move's write, built once: most moves change only the version and the position.
MOVE_UPDATE = update(game_tables).where(game_tables.c.id == bindparam("table_id"),
                                        game_tables.c.version == bindparam("before")).values(
    version=bindparam("after"), state=bindparam("state"), updated=bindparam("now"))
MOVE_INSERT = insert(moves)
# PostgreSQL: the version check, the position and the move in one statement (one round trip; two statements
# cost the server twice the CPU): no row is inserted unless the table was at the version the move was made on
MOVE_COMMIT = text("""
    WITH moved AS (UPDATE game_tables SET version = :after, state = :state, updated = :now
                   WHERE id = :table_id AND version = :before RETURNING id)
    INSERT INTO moves (table_id, version, seat, move, client_id, actor, history, card, created)
    SELECT id, :after, :seat, :move, :client_id, :actor, :history, :card, :now FROM moved
""").bindparams(bindparam("history", type_=JSON))


DB_NOW = "extract(epoch from clock_timestamp())"
LEASE_TAKE = text(f"""
    INSERT INTO table_leases (table_id, owner, expires)
    SELECT id, :owner, {DB_NOW} + :seconds FROM game_tables WHERE id = ANY(:ids)
    ON CONFLICT (table_id) DO UPDATE SET owner = excluded.owner, expires = excluded.expires
    WHERE table_leases.owner = excluded.owner OR table_leases.expires < {DB_NOW}
    RETURNING table_id""")
ORPHANS = text(f"""
    SELECT l.table_id FROM table_leases l JOIN game_tables t ON t.id = l.table_id
    WHERE l.expires < {DB_NOW} AND t.status IN ('waiting', 'playing') AND t.updated >= :since""")


# PostgreSQL: database threads per process. A commit waits for the disk's flush (7.6 ms on the development VM);
# commits from several connections share one flush, so a few threads multiply the moves a process can store.
POSTGRES_THREADS = 8

SAFETY_CHECKPOINT_PAGES = 20_000  # about 80 MB of log
CHECKPOINT_SECONDS = 1.0


class Checkpointer:
    """Copies SQLite's write-ahead log into the database every second on its own thread and connection.
    A passive checkpoint never blocks the writer, so no move waits for the disk's fsync."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._run, name="sqlite-checkpoint", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        with self.engine.connect() as c:
            while not self.stopping.wait(CHECKPOINT_SECONDS):
                c.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")

    def stop(self) -> None:
        self.stopping.set()
        self.thread.join()


class Store:
    """The database behind the server. Each thread that calls it gets a connection of its own, kept open
    (a connection taken from the pool for each write cost five times the write). ``threads``: how many
    threads the server calls it from (``Lobby.db``): SQLite has one writer, so one; PostgreSQL commits
    several tables' moves at once."""

    def __init__(self, url: str, threads: int = POSTGRES_THREADS) -> None:
        self.url = database_url(url)
        sqlite = self.sqlite = self.url.startswith("sqlite")
        self.threads = 1 if sqlite else threads
        # hide_parameters: an SQL error's text (and SQLAlchemy's own log lines) never hold the values written,
        # a position and its deck among them
        self.engine = create_engine(self.url, connect_args={"check_same_thread": False} if sqlite else {},
                                    pool_pre_ping=not sqlite, hide_parameters=True,
                                    **({} if sqlite else {"pool_size": max(5, self.threads)}))
        if sqlite:
            event.listen(self.engine, "connect", _sqlite_pragmas)
        migrate(self.engine)
        self._conns: dict[int, Connection] = {}  # thread id -> its kept connection
        self.checkpointer = Checkpointer(self.engine) if sqlite else None

    def close(self) -> None:
        """Close every connection; call it once no thread uses the store any more."""
        if self.checkpointer is not None:
            self.checkpointer.stop()
        for conn in list(self._conns.values()):
            conn.close()
        self.engine.dispose()

    @contextmanager
    def _begin(self) -> Iterator[Connection]:
        """A transaction on this thread's kept connection (opened again if the database dropped it)."""
        thread = threading.get_ident()
        conn = self._conns.get(thread)
        if conn is None or conn.closed or conn.invalidated:
            if conn is not None:
                conn.close()
            conn = self._conns[thread] = self.engine.connect()
        with conn.begin():
            yield conn

    # --- tables ---------------------------------------------------------------------------------

    def create_table(self, row: TableRow) -> None:
        now = time.time()
        with self._begin() as c:
            c.execute(insert(game_tables).values(
                id=row.id, created=now, updated=now, rules=row.rules, settings=row.settings, status=row.status,
                version=row.version, state=row.state, deals=row.deals, pad=row.pad, result=row.result))
            c.execute(insert(seats), [{"table_id": row.id, "seat": s.seat, "kind": s.kind, "level": s.level,
                                       "token_hash": s.token_hash, "name": s.name, "player": s.player,
                                       "joined": s.joined} for s in row.seats])

    def load_table(self, table_id: str) -> TableRow | None:
        with self._begin() as c:
            found = c.execute(select(game_tables).where(game_tables.c.id == table_id)).mappings().first()
            if found is None:
                return None
            return self._row(c, dict(found))

    def active_table_ids(self, since: float = 0.0) -> list[str]:
        """The tables waiting or being played that changed at or after ``since`` (seconds since the epoch)."""
        with self._begin() as c:
            rows = c.execute(select(game_tables.c.id).where(game_tables.c.status.in_(("waiting", "playing")),
                                                            game_tables.c.updated >= since))
            return [r[0] for r in rows]

    def _row(self, c: Connection, found: dict[str, Any]) -> TableRow:
        seat_rows = c.execute(select(seats).where(seats.c.table_id == found["id"]).order_by(seats.c.seat)).mappings()
        return TableRow(id=found["id"], rules=found["rules"], settings=found["settings"], status=found["status"],
                        version=found["version"], state=found["state"], deals=found["deals"], pad=found["pad"],
                        result=found["result"],
                        seats=[SeatRow(seat=s["seat"], kind=s["kind"], level=s["level"], token_hash=s["token_hash"],
                                       name=s["name"], player=s["player"], joined=s["joined"]) for s in seat_rows])

    def commit_move(self, table_id: str, move: MoveRow, state: str, **changed: Any) -> None:
        """The move and the position after it, in one transaction; refused (``StaleWrite``) unless the
        table is still at the version the move was made on. ``changed``: other columns of the table that
        the move changed (``status``, ``deals``, ``pad``, ``result``), left out when they did not."""
        now = time.time()
        row = {"table_id": table_id, "version": move.version, "seat": move.seat, "move": move.move,
               "client_id": move.client_id, "actor": move.actor, "history": move.history, "card": move.card,
               "created": now}
        with self._begin() as c:
            if not changed and not self.sqlite:
                if c.execute(MOVE_COMMIT, {**row, "before": move.version - 1, "after": move.version, "state": state,
                                           "now": now}).rowcount != 1:
                    raise StaleWrite(f"table {table_id} is not at version {move.version - 1}")
                return
            if changed:
                done = c.execute(update(game_tables).where(game_tables.c.id == table_id,
                                                           game_tables.c.version == move.version - 1).values(
                    version=move.version, state=state, updated=now, **changed))
            else:
                done = c.execute(MOVE_UPDATE, {"table_id": table_id, "before": move.version - 1,
                                               "after": move.version, "state": state, "now": now})
            if done.rowcount != 1:
                raise StaleWrite(f"table {table_id} is not at version {move.version - 1}")
            c.execute(MOVE_INSERT, row)

    def set_table(self, table_id: str, **values: Any) -> None:
        with self._begin() as c:
            c.execute(update(game_tables).where(game_tables.c.id == table_id).values(updated=time.time(), **values))

    def set_seat(self, table_id: str, seat: int, **values: Any) -> None:
        with self._begin() as c:
            c.execute(update(seats).where(seats.c.table_id == table_id, seats.c.seat == seat).values(**values))

    def moves(self, table_id: str, after: int = 0) -> list[MoveRow]:
        with self._begin() as c:
            rows = c.execute(select(moves).where(moves.c.table_id == table_id, moves.c.version > after)
                             .order_by(moves.c.version)).mappings()
            return [MoveRow(version=r["version"], seat=r["seat"], move=r["move"], client_id=r["client_id"],
                            actor=r["actor"], history=r["history"], card=r["card"]) for r in rows]

    # --- chat -----------------------------------------------------------------------------------

    def add_chat(self, table_id: str, seat: int | None, name: str, text: str, created: float) -> None:
        with self._begin() as c:
            c.execute(insert(chat).values(table_id=table_id, seat=seat, name=name, text=text, created=created))

    def recent_chat(self, table_id: str, limit: int = 50) -> list[dict[str, Any]]:
        with self._begin() as c:
            rows = c.execute(select(chat).where(chat.c.table_id == table_id).order_by(chat.c.id.desc())
                             .limit(limit)).mappings()
            return [{"seat": r["seat"], "name": r["name"], "text": r["text"], "time": r["created"]}
                    for r in reversed(list(rows))]

    # --- several processes: health and table leases (PostgreSQL) ------------------------------

    def ping(self) -> None:
        """Raise unless the database answers."""
        with self._begin() as c:
            c.execute(text("SELECT 1"))

    def take_leases(self, table_ids: list[str], owner: str, seconds: float) -> list[str]:
        """Of ``table_ids``, those ``owner`` holds for ``seconds`` more after this call: each lease is
        taken when free or expired, renewed when ``owner``'s. One statement, atomic per row: two processes
        racing for a table never both get it (the row lock of ``ON CONFLICT DO UPDATE`` orders them and the
        second sees the first's fresh expiry). Expiry is on the database's clock, not the processes'."""
        if not table_ids:
            return []
        with self._begin() as c:
            rows = c.execute(LEASE_TAKE, {"ids": table_ids, "owner": owner, "seconds": seconds})
            return [r[0] for r in rows]

    def release_leases(self, table_ids: list[str], owner: str) -> None:
        """Give ``owner``'s leases of ``table_ids`` up: expired at once, so any process may take them and
        those nobody holds in memory are loaded by the next process that looks for orphans."""
        if table_ids:
            with self._begin() as c:
                c.execute(table_leases.update().where(table_leases.c.table_id.in_(table_ids),
                                                      table_leases.c.owner == owner).values(expires=0.0))

    def orphaned_tables(self, since: float) -> list[str]:
        """Tables waiting or being played, changed at or after ``since``, whose lease has expired: their
        owner died or stopped without handing them over."""
        with self._begin() as c:
            rows = c.execute(ORPHANS, {"since": since})
            return [r[0] for r in rows]

    # --- statistics -----------------------------------------------------------------------------

    def player_games(self, player: str) -> list[dict[str, Any]]:
        """Every table where ``player`` held a seat: its rules, status, result, pad, settings and the seat."""
        with self._begin() as c:
            rows = c.execute(select(seats.c.seat, game_tables.c.rules, game_tables.c.status, game_tables.c.result,
                                    game_tables.c.pad, game_tables.c.version, game_tables.c.settings)
                             .join(game_tables, game_tables.c.id == seats.c.table_id)
                             .where(seats.c.player == player)).mappings()
            return [dict(r) for r in rows]

    # --- score pads (canasta.server.pads) -------------------------------------------------------

    def save_pad(self, pad_id: str, share: str, player: str, pad: dict[str, Any]) -> float:
        """Create or replace a score pad (its owner and share link never change); the time it was saved."""
        now = time.time()
        with self._begin() as c:
            found = c.execute(select(score_pads.c.id).where(score_pads.c.id == pad_id)).first()
            if found is None:
                c.execute(insert(score_pads).values(id=pad_id, share=share, player=player, created=now,
                                                    updated=now, pad=pad))
            else:
                c.execute(update(score_pads).where(score_pads.c.id == pad_id).values(updated=now, pad=pad))
        return now

    def load_pad(self, pad_id: str | None = None, share: str | None = None) -> dict[str, Any] | None:
        """A pad's row (id, share, player, created, updated, pad) by its id or by its share link."""
        where = score_pads.c.id == pad_id if pad_id is not None else score_pads.c.share == share
        with self._begin() as c:
            row = c.execute(select(score_pads).where(where)).mappings().first()
            return dict(row) if row is not None else None

    def player_pads(self, player: str, limit: int) -> list[dict[str, Any]]:
        """A player's pads, the latest changed first."""
        with self._begin() as c:
            rows = c.execute(select(score_pads).where(score_pads.c.player == player)
                             .order_by(score_pads.c.updated.desc()).limit(limit)).mappings()
            return [dict(r) for r in rows]

    def delete_pad(self, pad_id: str) -> None:
        with self._begin() as c:
            c.execute(score_pads.delete().where(score_pads.c.id == pad_id))


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    # WAL: readers never wait for the writer; NORMAL: a commit survives a killed process (not a power cut).
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    # Checkpoints (copying the log into the database, with an fsync) run on a thread of their own (see
    # Checkpointer): in a commit they stalled every move queued behind it. This is only a safety net.
    cursor.execute(f"PRAGMA wal_autocheckpoint={SAFETY_CHECKPOINT_PAGES}")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()

