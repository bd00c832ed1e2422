"""The browser client in Debian's Chromium, driven by Playwright: a person plays a whole hand by clicks; Play
now from the home page; an invite link seats a second browser at the same table. Screenshots go to
``test-artifacts/`` (or $CANASTA_ARTIFACTS)."""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from server_helpers import LiveServer

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARTIFACTS = Path(os.environ.get("CANASTA_ARTIFACTS", Path(__file__).resolve().parent.parent / "test-artifacts"))
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run", "--disable-quic"]

sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright for Python is in the test extra")
pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(),
                                reason="no Chromium: apt-get install chromium (.ci/run does)")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with LiveServer(f"sqlite:///{tmp_path_factory.mktemp('browser') / 'db.sqlite'}") as live:
        yield live


def shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def take_turn(page: Any) -> None:
    """One decision by clicks, as a beginner would: draw; else discard the first card that can be
    discarded; else the first move button offered."""
    draw = page.locator('[data-testid="action-draw"]')
    if draw.count():
        draw.first.click()
        return
    cards = page.locator('[data-testid="hand"] [data-testid="card"]')
    for i in range(cards.count()):
        cards.nth(i).click()
        discard = page.locator('[data-testid="action-discard"]')
        if discard.count():
            discard.first.click()
            return
        cards.nth(i).click()  # not discardable alone: put it back
    page.locator("button[data-move]").first.click()


def play_until_over(page: Any, limit: float = 240) -> int:
    deadline = time.monotonic() + limit
    turns = 0
    while page.evaluate("document.body.dataset.status") != "over":
        assert time.monotonic() < deadline, "the hand did not end"
        if page.evaluate("document.body.dataset.toMove") == "true":
            version = page.evaluate("document.body.dataset.version")
            take_turn(page)
            turns += 1
            page.wait_for_function(f"() => document.body.dataset.version !== '{version}'", timeout=30_000)
        else:
            page.wait_for_timeout(30)
    return turns


def test_a_person_plays_a_whole_hand_by_clicks(browser: Any, server: LiveServer) -> None:
    made = server.create(variant="classic", options={"hands_per_game": 1}, seats=["human", "bot:easy", "bot:medium",
                         "bot:easy"], delay=0)
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(server.base + made["seats"][0]["url"])
    page.wait_for_selector('[data-testid="hand"] [data-testid="card"]')
    assert page.locator('[data-testid="hand"] [data-testid="card"]').count() == 11
    shot(page, "table-start")
    turns = play_until_over(page)
    assert turns >= 2
    page.wait_for_selector('[data-testid="game-over"]')
    assert page.locator('[data-testid="score-pad"]').inner_text().strip()
    shot(page, "table-game-over")
    record = server.get(f"/api/tables/{made['table']}/record").json()
    mine = [m for m in record["moves"] if m.startswith("0 ")]
    assert len(mine) >= turns and record["result"] is not None
    page.close()


def test_play_now_from_the_home_page_on_a_phone(browser: Any, server: LiveServer) -> None:
    page = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page.goto(server.base + "/")
    page.locator('[data-testid="play-now"]').click()
    page.wait_for_url("**/t/*")
    page.wait_for_function("() => document.body.dataset.status === 'playing'", timeout=30_000)
    page.wait_for_selector('[data-testid="hand"] [data-testid="card"]')
    assert page.locator('[data-testid="hand"] [data-testid="card"]').count() == 11
    labels = page.locator('[data-testid="hand"] [data-testid="card"]').all_inner_texts()
    assert not any("T" in label.split() for label in labels)  # 10, never T
    shot(page, "play-now-phone")
    page.close()


def test_invite_link_seats_a_second_browser(browser: Any, server: LiveServer) -> None:
    made = server.create(variant="classic", seats=["human", "human", "bot:easy", "bot:easy"], delay=0)
    host_context, guest_context = browser.new_context(), browser.new_context()
    host, guest = host_context.new_page(), guest_context.new_page()
    refused: list[str] = []  # anything the Content-Security-Policy blocked
    for page in (host, guest):
        page.on("console", lambda m: refused.append(m.text) if "Content Security Policy" in m.text else None)
    host.goto(server.base + made["seats"][0]["url"])
    host.wait_for_selector('[data-testid="waiting-room"]')
    shot(host, "waiting-room")
    guest.goto(server.base + made["seats"][1]["url"])
    for page in (host, guest):
        page.wait_for_function("() => document.body.dataset.status === 'playing'", timeout=30_000)
    take_turn(host)  # seat 0 draws ...
    host.wait_for_function("() => document.body.dataset.version === '1'")
    take_turn(host)  # ... and discards
    for page in (host, guest):
        page.wait_for_function("() => Number(document.body.dataset.version) >= 2", timeout=30_000)
    # the guest sees the host's public moves, and never the host's cards
    guest.wait_for_function("() => document.querySelector('[data-testid=log]').innerText.length > 0")
    for attribute in ("data-top", "data-size", "data-frozen"):
        assert guest.get_attribute('[data-testid="pile"]', attribute) == \
            host.get_attribute('[data-testid="pile"]', attribute)
    host_cards = host.locator('[data-testid="hand"] [data-testid="card"]').evaluate_all(
        "cards => cards.map(c => c.dataset.card)")
    guest_cards = guest.locator('[data-testid="hand"] [data-testid="card"]').evaluate_all(
        "cards => cards.map(c => c.dataset.card)")
    assert len(host_cards) == 11 and len(guest_cards) == 11 and host_cards != guest_cards
    shot(guest, "guest-table")
    # the invite's token left the address bar; a reload keeps the seat (the tab kept the token)
    assert "token" not in guest.url and guest.url.endswith(f"/t/{made['table']}")
    guest.reload()
    guest.wait_for_function("() => document.body.dataset.status === 'playing'", timeout=30_000)
    assert guest.locator('[data-testid="hand"] [data-testid="card"]').count() == 11
    assert not refused, refused
    host_context.close()
    guest_context.close()
