"""A spectator (or a reloaded page) joining a rummy table mid-hand: the first state frame carries the hand's
public history, which the table page logs, so the move log is not empty (docs/protocol.md); the rummy page
logs it (a browser check where Chromium is installed)."""

from __future__ import annotations

from contextlib import ExitStack
from typing import Any

from server_helpers import LiveServer, WsClient


def play_some(server: LiveServer, made: dict[str, Any], stack: ExitStack, turns: int) -> WsClient:
    """Seat 0 (human) draws and discards ``turns`` times against the computer player; returns its client."""
    me: WsClient = stack.enter_context(server.client(made["table"], made["seats"][0]["token"]))
    me.until("state", status="playing")
    for _ in range(turns):
        while True:
            state = me.until("state")
            if state["legal"] and state["status"] == "playing":
                break
        legal = state["legal"]
        move = "draw" if "draw" in legal else next(m for m in legal if m.startswith("discard"))
        me.move(move)
    me.drain()
    return me


def test_a_late_spectator_gets_the_hand_so_far(server: LiveServer) -> None:
    made = server.create(variant="500-rum", options={"players": 2}, seats=["human", "bot:easy"], delay=0)
    with ExitStack() as stack:
        me = play_some(server, made, stack, 6)
        events = [f for f in me.frames if f["type"] == "event"]
        assert len(events) >= 6
        watcher: WsClient = stack.enter_context(server.client(made["table"]))
        first = watcher.until("state")
        view = first["view"]
        assert view["seat"] is None and view["hand"] == []
        # the hand's upcard, then every move of this hand in order, as the events gave them to the players
        assert view["history"][0].split()[1] == "upcard"
        moves = [f"{e['seat']} {e['move']}" for e in events if e["version"] <= first["version"]]
        history = view["history"][1:]
        assert history and moves[-len(history):] == history
        # a sync from version 0 replays every event, for a page that wants the whole game
        watcher.send({"type": "sync", "version": 0})
        replayed = [watcher.until("event", version=v) for v in range(1, first["version"] + 1)]
        assert [r["move"] for r in replayed] == [e["move"] for e in events if e["version"] <= first["version"]]


def test_the_rummy_page_logs_the_hand_for_a_late_spectator(server: LiveServer, browser: Any) -> None:
    made = server.create(variant="basic-rummy", seats=["human", "bot:easy"], delay=0)
    with ExitStack() as stack:
        play_some(server, made, stack, 4)
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(server.base + made["watch_url"])
        page.wait_for_function("() => document.querySelectorAll('[data-testid=\"log\"] .entry').length >= 4",
                               timeout=30_000)
        log = page.locator('[data-testid="log"]').inner_text()
        # the moves in words (cards with their suits), not notation
        assert "Upcard" in log and "You" not in log and "drew from the stock" in log and "discarded" in log
        page.close()
