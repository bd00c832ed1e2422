"""A table being played: the only place a move is applied.

A room holds the table's state, its connected clients and a pump task that moves for whoever is not a
connected person: computer seats, a stand-in for a player whose connection dropped longer than the grace
period, and the turn timer. Every move goes through ``Room.commit``: the engine applies it, the database
stores it, and only then is it acknowledged and shown, each client getting its own seat's view.

At the end of a hand the table pauses for its review: the finished hand's table (every side's melds, the
cards left in every hand, who went out) is shown with the breakdown, and nobody moves until every person
at the table has said Continue (an online table's review also ends when ``REVIEW_SECONDS`` have passed).
One live connection per seat: a second browser opening the seat takes it over and the first is told so,
whichever process each is connected to (the broker carries the word: ``seat_taken``).

With several server processes (``cluster.RedisCluster``) every process holding the table has a room for
it: any of them applies its own clients' moves (the database's version check orders them), tells the
others through the broker, and they play the move too (within a hand) or catch up from the database; only
the lease holder's pump moves for computer players, stand-ins and the timer.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import hmac
import json
import logging
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .. import apply, is_over, legal_moves, outcome, parse_move, why_illegal
from ..canasta.cards import card_str
from ..canasta.moves import Move
from ..errors import IllegalMove
from ..play.record import FORMAT, RecordError, replay
from ..players.levels import LEVELS
from ..presets import game_rules as make_rules
from ..rummy import RummyMove
from .cluster import PRESENCE_STALE
from .games import AnyState, final_table, hand_sides, load, move_effects, played, seat_view, seat_views
from .guard import TableLimit, Unavailable
from .patch import Memo, diff
from .protocol import MAX_CHAT, ProtocolError
from .spec import STAND_IN_LEVEL, TableSpec
from .storage import MoveRow, SeatRow, StaleWrite, TableRow

if TYPE_CHECKING:
    from .lobby import Lobby

log = logging.getLogger("canasta.server")

HINT_LEVEL = "medium"
CHAT_KEPT = 50
REVIEW_SECONDS = 60.0  # how long an online table (two or more people) waits at a hand's end at most
REPLACED = 4409  # the close code of a connection whose seat was opened by another connection
RECONNECT = 1012  # the close code of a connection sent away by a stopping server: reconnect now (elsewhere)


def encode(frame: dict[str, Any]) -> str:
    return json.dumps(frame, separators=(",", ":"))


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def rematch_token(old_token: str, new_table: str) -> str:
    """A seat's token at the rematch table: derived from its old token, so only its holder can claim it."""
    digest = hmac.new(old_token.encode(), f"rematch:{new_table}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:24]).decode()


def seat_url(table: str, token: str) -> str:
    return f"/t/{table}?token={token}"


def deck_text(state: AnyState) -> list[str]:
    return [card_str(c) for c in state.deal]


PROTOCOLS = (1, 2)  # docs/protocol.md: 2 sends a move's change to each seat's state instead of the whole state


class Client:
    """One websocket: the seat it holds (None: a spectator), its protocol version and a queue its writer task
    empties, so one slow connection never holds up a table. ``last`` is the state frame it was last given
    (version 2 sends the change from it; shared between clients given the same frame: never change it)."""

    def __init__(self, seat: int | None, token: str | None, name: str | None, player: str | None,
                 protocol: int = 1) -> None:
        self.seat, self.token, self.name, self.player = seat, token, name, player
        self.protocol = protocol
        self.last: dict[str, Any] | None = None
        self.opened = time.time()  # which of two connections to one seat is the newer, across processes
        self.queue: asyncio.Queue[str | None] = asyncio.Queue(maxsize=1000)
        self.close_code = 1013  # the websocket close code once the queue ends

    def send(self, frame: dict[str, Any]) -> None:
        self.send_text(encode(frame))

    def send_text(self, text: str) -> None:
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:  # a client this far behind resynchronises when it reconnects
            self.close()

    def close(self, code: int = 1013) -> None:
        self.close_code = code
        while True:
            try:
                self.queue.put_nowait(None)
                return
            except asyncio.QueueFull:
                self.queue.get_nowait()


@dataclass
class Seat:
    row: SeatRow
    connections: int = 0
    left_at: float | None = None  # monotonic time the last connection of a joined player closed
    stand_in: bool = False

    def public(self, connected: bool) -> dict[str, Any]:
        r = self.row
        return {"seat": r.seat, "kind": r.kind, "level": r.level, "name": r.name, "joined": r.joined,
                "connected": connected, "stand_in": self.stand_in}


@dataclass
class Review:
    """A finished hand shown to the table: ``table`` is its last position in public (``games.final_table``);
    ``waiting`` the seats whose person has not said Continue yet; ``deadline`` (epoch seconds) or None."""

    hand: int
    table: dict[str, Any]
    waiting: set[int]
    deadline: float | None

    def holds(self) -> bool:
        return bool(self.waiting) and (self.deadline is None or time.time() < self.deadline)

    def public(self) -> dict[str, Any]:
        return {"hand": self.hand, "table": self.table, "waiting": sorted(self.waiting), "deadline": self.deadline}


class Room:
    def __init__(self, lobby: Lobby, row: TableRow, history: list[MoveRow]) -> None:
        self.lobby = lobby
        self.id = row.id
        self.settings = row.settings
        self.rules = make_rules(row.rules["variant"], **row.rules["options"])
        self.state: AnyState = load(row.state)
        self.version = row.version
        self.status = row.status
        self.deals = row.deals
        self.pad = row.pad
        self.result = row.result
        now = time.monotonic()
        self.seats = [Seat(s, left_at=now if s.joined else None) for s in row.seats]
        self.events = [self._event(m) for m in history]
        self._hand_log: list[dict[str, Any]] | None = None  # None: built from the record when first asked
        # the views made of the position now and of the one before it, by seat (None: a spectator): each view of
        # a position is made once, for the frames and the hand log alike (a position never changes)
        self._seen: tuple[AnyState, dict[int | None, dict[str, Any]]] | None = None
        self._seen_before: tuple[AnyState, dict[int | None, dict[str, Any]]] | None = None
        self.used_ids = {(m.seat, m.client_id): m.version for m in history if m.client_id is not None}
        self.clients: set[Client] = set()
        self.lock = asyncio.Lock()
        self.wake = asyncio.Event()
        self.turn_started = time.time()
        self.task: asyncio.Task[None] | None = None
        self.review: Review | None = None  # the last hand's review, until the next move (not stored)
        self.quiet_since = now  # monotonic time since which no client has been connected
        # other processes' connections: process -> (connections per seat, monotonic time of its word)
        self.remote: dict[str, tuple[list[int], float]] = {}
        self.refreshing: set[asyncio.Task[None]] = set()
        self.remote_seen: dict[int, float] = {}  # seat -> last monotonic time another process had it connected

    # --- life -----------------------------------------------------------------------------------

    def start(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self._pump(), name=f"table {self.id}")
        self.lobby.cluster.watch(self.id, self.on_message)

    async def stop(self) -> None:
        self.lobby.cluster.unwatch(self.id)
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
        for client in list(self.clients):
            client.close()

    @property
    def delay(self) -> float:
        return float(self.settings.get("delay") or 0)

    @property
    def attended(self) -> bool:
        """A person holds a seat here now: the table's computer players think first and at its own pace."""
        return any(client.seat is not None for client in self.clients)

    def anyone_joined(self) -> bool:
        return any(s.row.joined for s in self.seats)

    @property
    def host(self) -> int | None:
        """The first human seat: it may start a waiting table."""
        return next((s.row.seat for s in self.seats if s.row.kind == "human"), None)

    def deadline(self) -> float | None:
        seconds = self.settings.get("turn_seconds")
        if not seconds or self.status != "playing" or self.seats[self.state.to_move].row.kind != "human" \
                or self.reviewing():
            return None
        return self.turn_started + float(seconds)

    def reviewing(self) -> bool:
        """Whether the table is paused for a finished hand's review."""
        return self.review is not None and self.review.holds()

    def _start_review(self, hand: int, table: dict[str, Any], over: bool) -> None:
        people = {s.row.seat for s in self.seats
                  if s.row.kind == "human" and self.connected(s.row.seat) and not s.stand_in}
        online = sum(1 for s in self.seats if s.row.kind == "human") > 1
        self.review = Review(hand, table, set() if over else people,
                             time.time() + REVIEW_SECONDS if online else None)

    def _end_review_if_done(self) -> None:
        if self.review is not None and self.review.waiting and not self.review.holds():
            self.review.waiting.clear()
        if self.review is not None and not self.review.waiting and self.status == "playing":
            self.turn_started = time.time()
            self.broadcast_state()
            self.wake.set()

    # --- frames ---------------------------------------------------------------------------------

    def seats_public(self) -> list[dict[str, Any]]:
        return [s.public(self.connected(s.row.seat)) for s in self.seats]

    def views(self, seats: set[int | None]) -> dict[int | None, dict[str, Any]]:
        """The views of the position now of ``seats`` (None: a spectator), each made once per position. Shared
        with every frame that carries them: read them, never change them."""
        state = self.state
        if self._seen is None or self._seen[0] is not state:
            self._seen_before, self._seen = self._seen, (state, {})
        known = self._seen[1]
        missing = seats - known.keys()
        if missing:
            known.update(seat_views(state, missing))
        return {seat: known[seat] for seat in seats}

    def _shown(self, state: AnyState) -> dict[str, Any]:
        """A view of ``state`` for the hand log, which reads only what every seat sees alike (the pile's size,
        each side's seats and melds): one already made if there is one; else, of the position now, the views
        of the seats here (shown next); else the view of a seat not to move (the spectator's lists the legal
        moves of the seat to move, the costliest part of a view, and leaves them out)."""
        for seen in (self._seen, self._seen_before):
            if seen is not None and seen[0] is state and seen[1]:
                return next(iter(seen[1].values()))
        idle = (state.to_move + 1) % state.rules.players
        if state is self.state:
            return next(iter(self.views({client.seat for client in self.clients} or {idle}).values()))
        return seat_view(state, idle)

    def state_frame(self, seat: int | None, seen: dict[str, Any] | None = None) -> dict[str, Any]:
        seen = seen if seen is not None else self.views({seat})[seat]
        deadline = self.deadline()
        return {"type": "state", "version": self.version, "seat": seat, "view": seen,
                "legal": seen["legal_moves"] if self.status == "playing" and not self.reviewing() else [],
                "status": self.status, "pad": self.pad, "seats": self.seats_public(),
                "timer": None if deadline is None else {"seat": self.state.to_move, "deadline": deadline},
                "review": None if self.review is None else self.review.public(), "hand_log": self.hand_log()}

    def public(self) -> dict[str, Any]:
        """``GET /api/tables/ID``: what anybody may know of the table."""
        return {"table": self.id, "rules": self.rules.to_dict(), "status": self.status, "version": self.version,
                "settings": self.settings, "seats": self.seats_public(), "pad": self.pad,
                "result": self.result, "view": self.views({None})[None]}

    def welcome(self, client: Client) -> dict[str, Any]:
        frame = {"type": "welcome", "table": self.id, "seat": client.seat, "host": self.host,
                 "settings": self.settings, "rules": self.rules.to_dict(), "seats": self.seats_public()}
        if client.protocol != 1:  # (version 1's frames stay as they were)
            frame["protocol"] = client.protocol
        return frame

    def hand_log(self) -> list[dict[str, Any]]:
        """This hand's moves as every seat saw them played: each move's event with what it put on the table,
        suited (``played``), so that a page opened mid-hand names the cards as the live log does. Kept up to
        date move by move; rebuilt by replaying the record after the room was loaded or caught up."""
        if self._hand_log is None:
            entries: list[dict[str, Any]] = []
            shown: list[Any] = [None, None]  # the last position replayed and its view
            hand = self.state.hand_number  # the earlier hands' moves are only replayed

            def on_move(number: int, before: Any, move: Any, after: Any) -> None:
                if after.hand_number != before.hand_number:
                    entries.clear()
                elif after.hand_number == hand:
                    was = shown[1] if shown[0] is before else self._shown(before)
                    shown[:] = after, self._shown(after)
                    entries.append(self._logged(self.events[number - 1], was, shown[1]))

            try:
                replay(self.record(), on_move)
            except RecordError as exc:  # (never expected: the room's own record) the pages fall back on ranks
                log.error("table %s: the record does not replay: %s", self.id, exc)
                entries.clear()
            self._hand_log = entries
        return self._hand_log

    @staticmethod
    def _logged(event: dict[str, Any], before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
        """A hand log entry: ``event`` with what it put on the table, from views of the positions before and
        after it."""
        return {**event, **played(before, after, event["move"], event["seat"])}

    def _log_move(self, event: dict[str, Any], before: AnyState, after: AnyState) -> None:
        """Add a move to the hand's log (a new list: the clients' last frames hold the old one, patches diff).
        ``after`` is the room's position now."""
        if self._hand_log is not None:
            same_hand = after.hand_number == before.hand_number
            self._hand_log = [*self._hand_log, self._logged(event, self._shown(before), self._shown(after))] \
                if same_hand else []

    @staticmethod
    def _event(m: MoveRow) -> dict[str, Any]:
        return {"type": "event", "version": m.version, "seat": m.seat, "move": m.move, "history": m.history,
                "by": m.actor, "card": m.card}

    def broadcast(self, frame: dict[str, Any]) -> None:
        text = encode(frame)
        for client in self.clients:
            client.send_text(text)

    def send_state(self, client: Client) -> None:
        """The whole state frame (on connecting and on ``sync``, both protocols)."""
        client.last = self.state_frame(client.seat)
        client.send(client.last)

    def broadcast_state(self, events: list[dict[str, Any]] | None = None) -> None:
        """Show every client the table as it is now, after ``events`` (the moves since the last call, if any).
        Version 1: each event, then the client's whole state frame. Version 2: the events, the last of them
        (or a ``patch`` frame when there is none) carrying the change from the client's last state frame.
        Each frame is encoded once for all the clients it goes to: once per seat, once for the spectators."""
        events = events or []
        views = self.views({client.seat for client in self.clients})
        frames = {seat: self.state_frame(seat, seen) for seat, seen in views.items()}
        texts = [encode(event) for event in events]
        whole: dict[int | None, str] = {}
        changes: dict[tuple[int | None, int], str | None] = {}  # (seat, id of the last frame) -> the frame
        memo: Memo = {}  # the seats' frames share most parts: each pair of parts compared once
        for client in self.clients:
            frame = frames[client.seat]
            if client.protocol == 1 or client.last is None:
                for text in texts:
                    client.send_text(text)
                if client.seat not in whole:
                    whole[client.seat] = encode(frame)
                client.send_text(whole[client.seat])
                client.last = frame
                continue
            for text in texts[:-1]:
                client.send_text(text)
            key = (client.seat, id(client.last))
            if key not in changes:
                patch = diff(client.last, frame, memo)
                changes[key] = encode({**events[-1], "patch": patch}) if events else \
                    encode({"type": "patch", "version": self.version, "patch": patch}) if patch else None
            change = changes[key]
            if change is not None:
                client.send_text(change)
            client.last = frame

    def broadcast_seats(self) -> None:
        self.broadcast({"type": "seats", "seats": self.seats_public()})

    # --- clients --------------------------------------------------------------------------------

    def seat_for(self, token: str) -> int | None:
        """The seat this token opens, or None."""
        digest = token_hash(token)
        for s in self.seats:
            if s.row.token_hash is not None and hmac.compare_digest(s.row.token_hash, digest):
                return s.row.seat
        return None

    async def join(self, client: Client, since: int | None = None) -> None:
        """Seat a new connection (taking the seat over from an older one): welcome, recent chat, the events
        after ``since`` (the last version a reconnecting client saw), then its state. Raises ``Unavailable``
        when the database cannot be reached (the caller then closes the connection)."""
        if client.seat is not None:
            for old in [c for c in self.clients if c.seat == client.seat]:
                self._replace(old)
            self.lobby.cluster.publish(self.id, {"kind": "seat_taken", "seat": client.seat, "opened": client.opened})
        self.clients.add(client)
        if client.seat is not None:  # before any wait: from now on nobody stands in for this seat
            seat = self.seats[client.seat]
            seat.connections += 1
            seat.left_at = None
            seat.stand_in = False
        client.send(self.welcome(client))
        for message in await self.lobby.table_db(self.id, self.lobby.store.recent_chat, CHAT_KEPT):
            client.send({"type": "chat", **message})
        if since is not None and 0 <= since <= self.version:
            for event in self.events[since:]:
                client.send(event)
        if client.seat is not None:
            changes: dict[str, Any] = {}
            if not seat.row.joined:
                changes["joined"] = seat.row.joined = True
            if client.name and client.name != seat.row.name:
                changes["name"] = seat.row.name = client.name
            if client.player and not seat.row.player:
                changes["player"] = seat.row.player = client.player
            if changes:
                await self.lobby.table_db(self.id, self.lobby.store.set_seat, client.seat, **changes)
                self.changed()
            await self._start_when_all_joined()
            if self.settings.get("rematch") and client.token:
                await self._offer_rematch(client)
        self.send_state(client)
        self.broadcast_seats()
        self.announce()
        self.wake.set()

    def _replace(self, old: Client) -> None:
        """Close ``old``: a newer connection (here or at another process) opened its seat."""
        assert old.seat is not None
        old.send({"type": "replaced", "seat": old.seat})
        old.close(REPLACED)
        self.clients.discard(old)
        seat = self.seats[old.seat]
        seat.connections -= 1
        if seat.connections == 0:
            seat.left_at = time.monotonic()

    def send_away(self) -> None:
        """The server is stopping: every connection is told to reconnect (to another process) and closed."""
        for client in list(self.clients):
            client.send({"type": "reconnect"})
            client.close(RECONNECT)

    async def _start_when_all_joined(self) -> None:
        if self.status == "waiting" and all(s.row.joined for s in self.seats if s.row.kind == "human"):
            await self._set_status("playing")

    async def leave(self, client: Client) -> None:
        if client not in self.clients:  # replaced by a newer connection: already counted out
            return
        self.clients.discard(client)
        if not self.clients:
            self.quiet_since = time.monotonic()
        if client.seat is not None:
            seat = self.seats[client.seat]
            seat.connections -= 1
            if seat.connections == 0:
                seat.left_at = time.monotonic()
                if self.review is not None and client.seat in self.review.waiting:  # nobody there to continue
                    self.review.waiting.discard(client.seat)
                    self._end_review_if_done()
            self.broadcast_seats()
            self.announce()
        self.wake.set()
        if self.status == "over" and not self.clients:
            await self.lobby.unload(self)

    async def expire(self) -> None:
        """Close a waiting table whose human seats nobody took (its tokens open nothing any more)."""
        await self.lobby.table_db(self.id, self.lobby.store.set_table, status="expired")
        self.status = "expired"

    async def _set_status(self, status: str) -> None:
        await self.lobby.table_db(self.id, self.lobby.store.set_table, status=status)
        self.status = status
        self.turn_started = time.time()
        self.changed()
        self.broadcast_state()

    async def handle(self, client: Client, frame: dict[str, Any]) -> None:
        """One client frame, already read by ``protocol.read_frame``; raises ``ProtocolError``."""
        kind, frame_id = frame["type"], frame.get("id")
        self._check_token(client, frame, frame_id)
        if kind == "sync":
            self._sync(client, frame["version"])
            return
        if client.seat is None:
            raise ProtocolError("SPECTATOR", "spectators watch: they cannot move, ask for hints or chat", frame_id)
        if kind == "move":
            await self._human_move(client, frame)
        elif kind == "hint":
            await self._hint(client, frame_id, frame.get("level") or HINT_LEVEL)
        elif kind == "chat":
            await self._chat(client, frame["text"])
        elif kind == "start":
            await self._start(client)
        elif kind == "rematch":
            await self._rematch(client)
        elif kind == "continue":
            self._continue(client, frame.get("hand"))
        elif kind == "explain":
            self._explain(client, frame_id, frame["move"])

    def _explain(self, client: Client, frame_id: Any, text: str) -> None:
        """Why the engine would refuse ``text`` now, without playing it: a selection of cards that makes no move."""
        answer: dict[str, Any] = {"type": "explain", "id": frame_id, "version": self.version, "move": text}
        if self.status != "playing" or self.state.to_move != client.seat or self.reviewing():
            # (asked of another seat's position, the engine would speak of that seat's hand)
            answer.update(legal=False, code="NOT_YOUR_TURN", message="it is not your turn")
        else:
            try:
                problem = why_illegal(self.state, parse_move(self.state, text))
            except ValueError as exc:
                answer.update(legal=False, code="BAD_NOTATION", message=str(exc))
            else:
                answer.update(legal=problem is None, code=problem and problem.code,
                              message=problem and problem.message)
        client.send(answer)

    def _continue(self, client: Client, hand: int | None) -> None:
        """The seat's person has seen the finished hand (``hand``, when given: a late continue for an earlier
        hand's review does not end this one)."""
        if client.seat is not None:
            self.lobby.cluster.publish(self.id, {"kind": "continue", "seat": client.seat, "hand": hand})
            self._seen_review(client.seat, hand)

    def _seen_review(self, seat: int, hand: int | None) -> None:
        if self.review is not None and seat in self.review.waiting and hand in (None, self.review.hand):
            self.review.waiting.discard(seat)
            if self.review.waiting:
                self.broadcast_state()  # the others see who is still looking
            else:
                self._end_review_if_done()

    def _check_token(self, client: Client, frame: dict[str, Any], frame_id: Any) -> None:
        """Every frame: the connection's token must still open its seat, and a token in the frame must be it."""
        token = frame.get("token")
        if token is not None and (client.token is None or not hmac.compare_digest(token, client.token)):
            raise ProtocolError("BAD_TOKEN", "the frame's token is not this connection's", frame_id)
        if client.seat is not None and (client.token is None or self.seat_for(client.token) != client.seat):
            raise ProtocolError("BAD_TOKEN", "this connection's token no longer opens its seat", frame_id)

    def _sync(self, client: Client, version: int) -> None:
        if 0 <= version <= self.version:
            for event in self.events[version:]:
                client.send(event)
        self.send_state(client)

    async def _human_move(self, client: Client, frame: dict[str, Any]) -> None:
        frame_id, seat = frame["id"], client.seat
        assert seat is not None
        if self.status == "waiting":
            raise ProtocolError("NOT_STARTED", "the game has not started: waiting for players", frame_id)
        async with self.lock:
            done = self.used_ids.get((seat, str(frame_id)))
            if done is not None:
                raise ProtocolError("DUPLICATE_MOVE", f"move id {frame_id!r} was already applied at version {done}",
                                    frame_id)
            if self.status == "over":
                raise ProtocolError("GAME_OVER", "the game is over", frame_id)
            if self.reviewing():
                raise ProtocolError("IN_REVIEW", "the table is looking at the hand just finished: send continue",
                                    frame_id)
            if frame["version"] != self.version:
                raise ProtocolError("STALE_VERSION", f"the move was made on version {frame['version']}; the table "
                                    f"is at version {self.version}: sync and try again", frame_id)
            if self.state.to_move != seat:
                raise ProtocolError("NOT_YOUR_TURN", f"it is seat {self.state.to_move}'s move, not yours", frame_id)
            try:
                move = parse_move(self.state, frame["move"])
            except ValueError as exc:
                raise ProtocolError("BAD_NOTATION", str(exc), frame_id) from None
            try:
                await self.commit(seat, move, "human", client_id=str(frame_id), mover=client)
            except IllegalMove as exc:
                raise ProtocolError("ILLEGAL_MOVE", exc.message, frame_id, reason=exc.code) from None

    async def commit(self, seat: int, move: Move | RummyMove, actor: str, client_id: str | None = None,
                     mover: Client | None = None) -> None:
        """Apply ``move`` (raising ``IllegalMove``), store it, then acknowledge and show it. Hold the lock."""
        before = self.state
        after: AnyState = apply(before, move)  # type: ignore[arg-type]
        same_hand = after.hand_number == before.hand_number
        added = list(after.history[len(before.history):] if same_hand else after.history)
        over = is_over(after)
        deals, pad = self.deals, self.pad
        if not same_hand and not over:
            deals = [*deals, deck_text(after)]
        if (not same_hand or over) and after.last_hand is not None:
            pad = [*pad, {"hand": before.hand_number, "sides": hand_sides(after)}]
        status, result = ("over", outcome(after)) if over else (self.status, None)
        settings = self.settings
        gone = [s.row.seat for s in self.seats if s.row.kind == "human" and s.stand_in]
        if over and gone:  # a game its people left to computer players: marked, and out of the statistics
            settings = {**settings, "abandoned": gone}
        ended = None if same_hand else final_table(before, move, seat)
        # a discard's card, suit and all, lies face up on the pile (the notation may name only its rank)
        card: str | None = None
        if move.action == "discard":
            card = card_str(after.pile[-1]) if same_hand and after.pile else (ended or {}).get("pile_top")
        row = MoveRow(version=self.version + 1, seat=seat, move=str(move), client_id=client_id, actor=actor,
                      history=added, card=card)
        changed = {name: value for name, value, old in (("status", status, self.status), ("deals", deals, self.deals),
                                                         ("pad", pad, self.pad), ("result", result, self.result),
                                                         ("settings", settings, self.settings))
                   if value is not old}
        try:
            await self.lobby.table_db(self.id, self.lobby.store.commit_move, row, after.to_json(), **changed)
        except StaleWrite:  # another server process wrote this table first
            if self.lobby.cluster.shared:
                await self._catch_up()
            else:  # with no broker, one process per database is supported
                log.error("table %s: the database is past version %d; another server shares it", self.id,
                          row.version)
            raise ProtocolError("STALE_VERSION", "the table changed elsewhere: sync and try again",
                                client_id) from None
        self.state, self.version, self.status, self.deals, self.pad, self.result, self.settings = \
            after, row.version, status, deals, pad, result, settings
        if client_id is not None:
            self.used_ids[(seat, client_id)] = row.version
        event = self._event(row)
        self.events.append(event)
        self._log_move(event, before, after)
        self.turn_started = time.time()
        self.review = None
        if ended is not None:
            self._start_review(before.hand_number, ended, over)
        self.lobby.metrics.moved(actor)
        if mover is not None:
            mover.send({"type": "ack", "id": client_id, "version": row.version})
        self.changed(row if same_hand and not over and not changed else None)
        self.broadcast_state([event])
        self.wake.set()

    async def _hint(self, client: Client, frame_id: Any, level: str) -> None:
        seat = client.seat
        if level not in LEVELS:
            raise ProtocolError("BAD_FRAME", f"'level' is one of {', '.join(LEVELS)}, got {level!r}", frame_id)
        if self.status != "playing" or self.state.to_move != seat or self.reviewing():
            raise ProtocolError("NOT_YOUR_TURN", "a hint is for the seat to move", frame_id)
        version, state = self.version, self.state
        move, reason, why = await self.lobby.pool.choose(level, seat_view(state, seat), legal_moves(state), urgent=True)
        client.send({"type": "hint", "id": frame_id, "version": version, "move": str(move), "reason": reason,
                     "level": level, "why": move_effects(state, move, seat) + why})

    async def _chat(self, client: Client, text: str) -> None:
        text = "".join(ch for ch in text if ch.isprintable()).strip()
        if not text or len(text) > MAX_CHAT:
            raise ProtocolError("BAD_FRAME", f"a chat message is 1 to {MAX_CHAT} characters")
        assert client.seat is not None
        name = self.seats[client.seat].row.name or f"Seat {client.seat + 1}"
        now = time.time()
        await self.lobby.table_db(self.id, self.lobby.store.add_chat, client.seat, name, text, now)
        frame = {"type": "chat", "seat": client.seat, "name": name, "text": text, "time": now}
        self.lobby.cluster.publish(self.id, {"kind": "chat", "frame": frame})
        self.broadcast(frame)

    async def _start(self, client: Client) -> None:
        if client.seat != self.host:
            raise ProtocolError("NOT_HOST", "only the first human seat starts the table")
        if self.status != "waiting":
            return
        for seat in self.seats:
            if seat.row.kind == "human" and not seat.row.joined:
                seat.row.kind, seat.row.level, seat.row.token_hash = "bot", STAND_IN_LEVEL, None
                await self.lobby.table_db(self.id, self.lobby.store.set_seat, seat.row.seat, kind="bot",
                                          level=STAND_IN_LEVEL, token_hash=None)
        await self._set_status("playing")
        self.broadcast_seats()
        self.wake.set()

    async def _rematch(self, client: Client) -> None:
        if self.status != "over":
            raise ProtocolError("NOT_OVER", "a rematch is for a finished game")
        if not self.settings.get("rematch"):
            spec = TableSpec(self.rules, [s.row.kind if s.row.kind == "human" else f"bot:{s.row.level}"
                                          for s in self.seats],
                             [s.row.name for s in self.seats], None, self.delay, self.settings.get("turn_seconds"))
            try:
                room, _ = await self.lobby.create(spec, rematch_of=self.id)
            except TableLimit as exc:
                raise ProtocolError(exc.code, exc.message) from None
            self.settings = {**self.settings, "rematch": room.id}
            await self.lobby.table_db(self.id, self.lobby.store.set_table, settings=self.settings)
            self.changed()
            for other in self.clients:
                if other.token:
                    await self._offer_rematch(other)
        else:
            await self._offer_rematch(client)

    async def _offer_rematch(self, client: Client) -> None:
        """Tell a seat its token at the rematch table (and let that table know the token's hash)."""
        new_id, seat = self.settings["rematch"], client.seat
        new_room = await self.lobby.room(new_id)
        if new_room is None or seat is None or client.token is None:
            return
        token = rematch_token(client.token, new_id)
        await new_room.claim(seat, token_hash(token), self.seats[seat].row.player)
        client.send({"type": "rematch", "table": new_id, "url": seat_url(new_id, token)})

    async def claim(self, seat: int, digest: str, player: str | None) -> None:
        row = self.seats[seat].row
        if row.kind == "human" and row.token_hash is None:
            row.token_hash, row.player = digest, player
            await self.lobby.table_db(self.id, self.lobby.store.set_seat, seat, token_hash=digest, player=player)
            self.changed()

    # --- the pump: computer players, stand-ins and the timer -----------------------------------

    async def _pump(self) -> None:
        while True:
            self.wake.clear()
            try:
                wait = await self._step()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # a table never stops because one decision (or the database) failed
                # the class only: an error's text or traceback can hold the position (docs/security.md)
                log.error("table %s: a computer player's move failed: %s", self.id, type(exc).__name__)
                wait = 1.0
            if wait == 0:
                continue
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.wake.wait(), wait)

    def _mover(self) -> tuple[str, str] | float | None:
        """Who moves now without a person: (actor, level); else seconds until that may change (None: never)."""
        seat = self.seats[self.state.to_move]
        if seat.row.kind == "bot":
            return "bot", seat.row.level or STAND_IN_LEVEL
        waits = []
        gone = self.absent_since(seat.row.seat)
        if gone is not None:
            left = gone + self.lobby.grace - time.monotonic()
            if left <= 0:
                return "stand-in", STAND_IN_LEVEL
            waits.append(left)
        deadline = self.deadline()
        if deadline is not None:
            left = deadline - time.time()
            if left <= 0:
                return "timer", STAND_IN_LEVEL
            waits.append(left)
        return min(waits) if waits else None

    async def _step(self) -> float | None:
        if self.status != "playing" or not self.lobby.cluster.owns(self.id):
            return None  # woken when that changes
        if self.review is not None and self.review.waiting:
            if self.reviewing():
                return None if self.review.deadline is None else self.review.deadline - time.time()
            self._end_review_if_done()  # the online table's review ran out of time
        mover = self._mover()
        if not isinstance(mover, tuple):
            return mover
        actor, level = mover
        version, seat = self.version, self.state.to_move
        if actor == "stand-in" and not self.seats[seat].stand_in:
            self.seats[seat].stand_in = True
            self.lobby.cluster.publish(self.id, {"kind": "stand_in", "seat": seat})
            self.broadcast_seats()
        attended = self.attended
        # a table nobody sits at paces itself: it never takes the workers from people's tables
        delay = max(self.delay if actor == "bot" else 0.0, 0.0 if attended else self.lobby.limits.bot_delay)
        if delay:
            await asyncio.sleep(delay)
        state = self.state
        move = (await self.lobby.pool.choose(level, seat_view(state, seat), legal_moves(state), urgent=attended))[0]
        async with self.lock:  # still the same position, and still nobody's to play it (the player may be back)
            if self.version == version and self.status == "playing" and not self.reviewing() \
                    and self._mover() == mover and self.lobby.cluster.owns(self.id):
                with contextlib.suppress(ProtocolError):  # another process moved first: caught up, think again
                    await self.commit(seat, move, actor)
        return 0

    # --- several processes (cluster.py) ---------------------------------------------------------

    def connected(self, seat: int) -> bool:
        """Somebody holds ``seat`` now, here or (by its latest word) at another process."""
        if self.seats[seat].connections > 0:
            return True
        now = time.monotonic()
        return any(counts[seat] > 0 and now - said < PRESENCE_STALE for counts, said in self.remote.values())

    def absent_since(self, seat: int) -> float | None:
        """Monotonic time since which a joined ``seat`` has had no connection anywhere (None: connected, or
        nobody ever took it)."""
        if self.connected(seat):
            return None
        times = [t for t in (self.seats[seat].left_at, self.remote_seen.get(seat)) if t is not None]
        return max(times) if times else None

    def changed(self, move: MoveRow | None = None) -> None:
        """Tell the other processes holding this table that the database has something new for it: with
        ``move`` when that move is all that changed (the others play it themselves: ``_follow``)."""
        message: dict[str, Any] = {"kind": "changed", "version": self.version}
        if move is not None:
            message["move"] = {**vars(move)}  # (a copy: ``dataclasses.asdict`` copies deeply, at 20 times the cost)
        self.lobby.cluster.publish(self.id, message)

    def announce(self) -> None:
        """Tell the other processes how many connections each seat has here, on every change (the cluster
        repeats it every second while somebody is connected here: ``presence``)."""
        if self.lobby.cluster.shared:
            self.lobby.cluster.publish(self.id, {"kind": "presence", "seats": [s.connections for s in self.seats]})

    def presence(self) -> list[int] | None:
        """How many connections each seat has here; None when nobody is connected here."""
        counts = [s.connections for s in self.seats]
        return counts if any(counts) else None

    def tick(self) -> None:
        """Every second with several processes: forget the word of a process that stopped giving it (it
        died): its seats count as left."""
        now = time.monotonic()
        lapsed = [name for name, (_, said) in self.remote.items() if now - said >= PRESENCE_STALE]
        for name in lapsed:
            del self.remote[name]
        if lapsed:
            self.broadcast_seats()
            self.wake.set()

    def on_message(self, message: dict[str, Any]) -> None:
        """A message from another process about this table (``cluster.RedisCluster`` delivers them)."""
        kind = message.get("kind")
        if kind == "chat":
            self.broadcast(message["frame"])
        elif kind == "presence":  # repeated every second: the clients hear of it only when it changes something
            counts, now = message["seats"], time.monotonic()
            before = self.seats_public()
            self.remote[message["from"]] = (counts, now)
            for seat, count in enumerate(counts):
                if count > 0:
                    self.remote_seen[seat] = now
                    self.seats[seat].stand_in = False
            if self.seats_public() != before:
                self.broadcast_seats()
                self.wake.set()
        elif kind == "continue":  # said at another process
            self._seen_review(message["seat"], message["hand"])
        elif kind == "seat_taken":  # the newer of two connections to one seat keeps it
            newer = (message["opened"], message["from"])
            replaced = [c for c in self.clients
                        if c.seat == message["seat"] and (c.opened, self.lobby.cluster.name) < newer]
            for old in replaced:
                self._replace(old)
            if replaced:
                self.broadcast_seats()
                self.announce()
        elif kind == "stand_in":
            self.seats[message["seat"]].stand_in = True
            self.broadcast_seats()
        elif kind == "changed":  # a move, or seats, status or settings at the same version
            move = message.get("move")
            if move is not None and not self.lock.locked():  # played at once, without a task: nothing else
                try:                                           # runs meanwhile (the lock is free, this never waits)
                    if self._follow(MoveRow(**move)):
                        return
                except Exception as exc:  # (a message this code does not read) never the broker listener's end
                    log.error("table %s: could not play a move made elsewhere: %s", self.id, type(exc).__name__)
                move = None  # not the next move here, or it ends the hand: catch up
            task = asyncio.get_running_loop().create_task(self.refresh(move))
            self.refreshing.add(task)  # kept until done (the loop holds tasks weakly)
            task.add_done_callback(self.refreshing.discard)

    async def refresh(self, move: dict[str, Any] | None = None) -> None:
        try:
            async with self.lock:
                if move is None or not self._follow(MoveRow(**move)):
                    await self._catch_up()
        except Unavailable:  # the next message, or the next move here, catches up
            log.error("table %s: could not catch up", self.id)

    def _follow(self, row: MoveRow) -> bool:
        """Play a move committed at another process, as the engine gives the same position from the same one
        (within a hand: a new hand's deal is random), instead of reading the table back from the database.
        False when it is not the next move here or it ends the hand: then catch up. Hold the lock, or call it
        while the lock is free (it never waits)."""
        before = self.state
        if row.version != self.version + 1:
            return False
        try:
            after: AnyState = apply(before, parse_move(before, row.move))  # type: ignore[arg-type]
        except (ValueError, IllegalMove):
            return False
        if after.hand_number != before.hand_number or is_over(after):
            return False
        self.state, self.version = after, row.version
        if row.client_id is not None:
            self.used_ids[(row.seat, row.client_id)] = row.version
        event = self._event(row)
        self.events.append(event)
        self._log_move(event, before, after)
        self.turn_started = time.time()
        self.review = None
        self.broadcast_state([event])
        self.wake.set()
        return True

    async def _catch_up(self) -> None:
        """Read what other processes wrote to this table since our version, show it here. Hold the lock."""
        row = await self.lobby.table_db(self.id, self.lobby.store.load_table)
        if row is None:
            return
        new = [m for m in await self.lobby.table_db(self.id, self.lobby.store.moves, self.version)
               if m.version <= row.version] if row.version > self.version else []
        for seat, fresh in zip(self.seats, row.seats, strict=True):
            seat.row = fresh
        rematch_made = row.settings.get("rematch") and not self.settings.get("rematch")
        self.settings = row.settings
        status_changed = row.status != self.status
        after = load(row.state) if new else self.state
        over = row.status == "over"
        if new:
            self.review = None
        if len(new) == 1 and (after.hand_number != self.state.hand_number or over != (self.status == "over")):
            before = self.state  # the hand's review, as the process that made the move shows it
            self._start_review(before.hand_number, final_table(before, parse_move(before, new[0].move), new[0].seat),
                               over)
        if new:
            self.state, self.version = after, row.version
            self.deals, self.pad, self.result = row.deals, row.pad, row.result
            self.turn_started = time.time()
        self.status = row.status
        events = [self._event(m) for m in new]
        for m in new:
            if m.client_id is not None:
                self.used_ids[(m.seat, m.client_id)] = m.version
        self.events.extend(events)
        if new:
            self._hand_log = None
        if new or status_changed:
            self.broadcast_state(events)
        await self._start_when_all_joined()  # the last seat may have been taken at another process just now
        if rematch_made:  # asked for at another process: this one's players get their seats too
            for client in list(self.clients):
                if client.token:
                    await self._offer_rematch(client)
        self.broadcast_seats()
        self.wake.set()

    # --- records --------------------------------------------------------------------------------

    def players(self) -> list[str]:
        return [s.row.name or ("human" if s.row.kind == "human" else f"bot:{s.row.level}") for s in self.seats]

    def record(self) -> dict[str, Any]:
        """The game record (``canasta replay`` reads it): the decks of every hand and every move."""
        return {"format": FORMAT, "rules": self.rules.to_dict(), "seed": None, "deals": self.deals,
                "players": self.players(), "moves": [f"{e['seat']} {e['move']}" for e in self.events],
                "result": self.result}

