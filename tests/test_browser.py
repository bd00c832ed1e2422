"""The browser client in Debian's Chromium, driven by Playwright: a person plays a whole hand by clicks; Play
now from the home page; an invite link seats a second browser at the same table. Screenshots go to
``test-artifacts/`` (or $CANASTA_ARTIFACTS)."""

from __future__ import annotations

import time
from typing import Any

import pytest

import canasta
from browser_helpers import goto, shot
from canasta.canasta.cards import card_str, parse_card
from canasta.canasta.state import log_add
from server_helpers import LiveServer

sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright for Python is in the test extra")


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
    goto(page, server.base + "/")
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


# --- the table players come back to: a hand's end, drag and drop, the keyboard, two browsers, phones ---------

SHORT_STOCK = 4  # cards left in the stock: one turn each and the hand is over (classic draws one card a turn)


def with_kings(state: Any) -> Any:
    """Seat 0 holds three kings (swapped with another seat's cards) and both sides are below zero, so that
    the kings open (15 points needed): a meld is there to be made."""
    hands, stock = [list(h) for h in state.hands], list(state.stock)
    kings = [k for k in range(52) if card_str(k).startswith("K")]  # any three kings, whatever their suits
    while sum(hands[0][k] for k in kings) < 3:
        spare = next(c for c in range(53) if hands[0][c] and c not in kings)
        hands[0][spare] -= 1
        i = next((i for i, c in enumerate(stock) if c in kings), None)  # a king from the stock, else a hand
        if i is not None:
            hands[0][stock[i]] += 1
            stock[i] = spare
            continue
        giver, k = next((g, k) for g in (1, 2, 3) for k in kings if hands[g][k])
        hands[giver][k] -= 1
        hands[giver][spare] += 1
        hands[0][k] += 1
    return state.replace(hands=tuple(tuple(h) for h in hands), stock=tuple(stock), scores=(-10, -10))


def short_hand_table(server: LiveServer, **body: Any) -> tuple[dict[str, Any], Any]:
    """A classic table of two hands, seat 0 a person to move first, able to meld three kings, and the stock
    nearly gone (the room's state before anyone joins: a test's hook)."""
    made = server.create(variant="classic", options={"hands_per_game": 2},
                         seats=["human", "bot:easy", "bot:easy", "bot:easy"], delay=0, **body)
    room = server.server.config.app.state.lobby.rooms[made["table"]]
    state = with_kings(room.state)
    room.state = state.replace(stock=state.stock[:SHORT_STOCK], turn_seat=0, to_move=0)
    return made, room


def bare_spot(page: Any, selector: str) -> dict[str, float]:
    """A point of ``selector``'s box that no meld covers (dropped on a meld, cards are added to it), relative
    to the box."""
    spot: dict[str, float] | None = page.evaluate("""(selector) => {
        const zone = document.querySelector(selector), r = zone.getBoundingClientRect();
        for (let y = r.height - 4; y > 0; y -= 8) for (let x = r.width - 4; x > 0; x -= 8)
          if (document.elementFromPoint(r.left + x, r.top + y) === zone) return { x, y };
        return null; }""", selector)
    assert spot is not None, "no room left for a new meld"
    return spot


def my_turn(page: Any) -> bool:
    return bool(page.evaluate("document.body.dataset.toMove === 'true'"))


def wait_turn_or_review(page: Any) -> None:
    page.wait_for_function("() => document.body.dataset.toMove === 'true' || !!document.querySelector("
                           "'[data-testid=\"hand-result\"]')", timeout=30_000)


def legal_moves_of(page: Any) -> list[str]:
    return list(page.evaluate("window.canastaTable.state.legal"))


def cards_of(move: str, hand: list[str]) -> list[int]:
    """The hand's indices of a move's cards: a token is a rank ("7", "JK"; "3" a black three) or a card."""
    chosen: list[int] = []
    for token in move.split()[1:]:
        chosen.append(next(i for i, card in enumerate(hand) if i not in chosen and (
            card == token or (card != "JK" and card[:-1] == token and (token != "3" or card[-1] in "SC")))))
    return chosen


def eventually(check: Any, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "never came true"
        time.sleep(0.02)


def log_lines(page: Any) -> list[str]:
    return list(page.locator('[data-testid="log"] .entry').all_inner_texts())


def test_a_hand_by_drag_and_drop_and_its_review(browser: Any, server: LiveServer) -> None:
    """Seat 0 plays a short hand with the mouse: the stock by a click, melds dragged onto its side, discards
    dragged onto the pile, and the hand arranged by dragging. At the hand's end the table stops: the final
    table (every hand's cards left, who went out) and the breakdown stay until Continue; the computer
    players wait; then the next hand is played."""
    made, room = short_hand_table(server)
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(server.base + made["seats"][0]["url"])
    cards = page.locator('[data-testid="hand"] [data-testid="card"]')
    page.wait_for_selector('[data-testid="action-draw"]')
    order = cards.evaluate_all("cs => cs.map(c => c.dataset.card)")
    cards.nth(0).drag_to(cards.nth(4))  # rearrange: the first card goes before the fifth
    moved = cards.evaluate_all("cs => cs.map(c => c.dataset.card)")
    assert moved == [*order[1:4], order[0], *order[4:]]
    assert page.locator('[data-testid="sort-own"]').get_attribute("aria-pressed") == "true"
    discards = melds_made = 0
    while not page.locator('[data-testid="hand-result"]').count():
        wait_turn_or_review(page)
        if not my_turn(page):
            continue
        version = page.evaluate("document.body.dataset.version")
        legal = legal_moves_of(page)
        melds = [m for m in legal if m.startswith("meld ") and " on " not in m]
        if "draw" in legal:
            page.locator('[data-testid="stock"] .card').click()
        elif melds:  # select the meld's cards, then drag one of them onto your side
            hand = cards.evaluate_all("cs => cs.map(c => c.dataset.card)")
            chosen = cards_of(melds[0], hand)
            for i in chosen:
                cards.nth(i).click()
            zone = '#my-side .melds'
            cards.nth(chosen[0]).drag_to(page.locator(zone), target_position=bare_spot(page, zone))
            melds_made += 1
        else:  # drag the last discardable card onto the pile
            hand = cards.evaluate_all("cs => cs.map(c => c.dataset.card)")
            index = next((i for i in reversed(range(len(hand))) if f"discard {hand[i][:-1]}" in legal
                          or f"discard {hand[i]}" in legal or (hand[i] == "JK" and "discard JK" in legal)), None)
            if index is None:  # no discard to make: the partner asked to go out (yes / no), a move by its button
                page.locator(f'[data-move="{legal[0]}"]').first.click()
            else:
                cards.nth(index).drag_to(page.locator('[data-testid="pile"]'))
                discards += 1
        try:
            page.wait_for_function(f"() => document.body.dataset.version !== '{version}'", timeout=30_000)
        except Exception as exc:  # say what was tried, and what the page said
            shot(page, "drag-and-drop-stalled")
            notice = page.locator('[data-testid="notice"]').all_inner_texts()
            raise AssertionError(f"no move made: legal {legal}, notice {notice}") from exc
    assert discards >= 1 and melds_made >= 1
    # the hand is over and the table holds: the final table and the breakdown, the next hand not begun
    review = page.locator('[data-testid="hand-result"]')
    assert review.locator('[data-testid="final-table"] [data-testid^="review-hand-"]').count() == 4
    assert "Cards left in hand" in review.inner_text() and "This hand" in review.inner_text()
    held = room.version
    assert room.reviewing() and room.review.waiting == {0} and room.state.hand_number == 2
    assert not my_turn(page) and page.locator('[data-testid="more-moves"] button').count() == 0
    # every discard in the log names its card with its suit
    assert all(any(s in line for s in "♠♥♦♣") or "Joker" in line for line in log_lines(page) if "discarded" in line)
    shot(page, "hand-review")
    page.wait_for_timeout(300)  # (a computer player to move would have moved by now)
    assert room.version == held
    review.locator('[data-testid="hand-result-close"]').click()
    page.wait_for_selector('[data-testid="hand-result"]', state="detached")
    eventually(lambda: not room.reviewing())  # the server has had the page's continue
    page.wait_for_function(f"() => Number(document.body.dataset.version) > {held} || "
                           "document.body.dataset.toMove === 'true'", timeout=30_000)
    page.close()


def touch_drag(page: Any, source: Any, target: Any) -> None:
    """A finger holds ``source`` (touch events through Chromium's DevTools protocol, as a phone's screen sends
    them), then slides to ``target`` and lifts."""
    cdp = page.context.new_cdp_session(page)
    a, b = source.bounding_box(), target.bounding_box()
    x0, y0 = a["x"] + a["width"] / 2, a["y"] + a["height"] / 2
    x1, y1 = b["x"] + b["width"] / 2, b["y"] + b["height"] / 2
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x0, "y": y0}]})
    page.wait_for_timeout(400)  # the hold that starts a drag (a quick swipe scrolls instead)
    for step in range(1, 6):
        x, y = x0 + (x1 - x0) * step / 5, y0 + (y1 - y0) * step / 5
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


def test_a_turn_by_touch_on_a_phone(browser: Any, server: LiveServer) -> None:
    """On a phone a held card is dragged by the finger: to rearrange the hand, onto the side's melds, onto the
    pile; a tap still selects."""
    made, room = short_hand_table(server)
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(server.base + made["seats"][0]["url"])
    cards = page.locator('[data-testid="hand"] [data-testid="card"]')
    page.wait_for_selector('[data-testid="action-draw"]')
    codes = lambda: cards.evaluate_all("cs => cs.map(c => c.dataset.card)")  # noqa: E731
    order = codes()
    touch_drag(page, cards.nth(0), cards.nth(4))
    assert codes() == [*order[1:4], order[0], *order[4:]]
    assert page.locator('[data-testid="card"].selected').count() == 0  # the drag was not a tap
    page.locator('[data-testid="stock"] .card').tap()
    page.wait_for_selector('[data-testid="hand"] [data-testid="card"] >> nth=11')
    meld = next(m for m in legal_moves_of(page) if m.startswith("meld K"))
    chosen = cards_of(meld, codes())
    for i in chosen:
        cards.nth(i).tap()
    assert page.locator('[data-testid="hand"] .selected').count() == len(chosen)
    version = page.evaluate("document.body.dataset.version")
    touch_drag(page, cards.nth(chosen[0]), page.locator("#my-side .melds"))
    page.wait_for_function(f"() => document.body.dataset.version !== '{version}'", timeout=30_000)
    assert any(m["rank"] == "K" for m in page.evaluate("window.canastaTable.state.view.sides[0].melds"))
    version = page.evaluate("document.body.dataset.version")
    touch_drag(page, cards.last, page.locator('[data-testid="pile"]'))
    page.wait_for_function(f"() => document.body.dataset.version !== '{version}'", timeout=30_000)
    assert room.record()["moves"][2].startswith("0 discard")
    context.close()


def focus_card(page: Any, index: int) -> None:
    """Keyboard only: Home, then the arrow key to the card."""
    page.keyboard.press("Home")
    for _ in range(index):
        page.keyboard.press("ArrowRight")


def test_a_hand_by_keyboard_alone_and_the_engines_reason(browser: Any, server: LiveServer) -> None:
    """The same short hand with the keyboard alone (Tab to the hand, arrows, Space to select, Enter for the
    move, Enter on Continue); a selection that makes no move shows the engine's own reason."""
    made, room = short_hand_table(server)
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(server.base + made["seats"][0]["url"])
    page.wait_for_selector('[data-testid="action-draw"]')
    for _ in range(40):
        if page.evaluate("document.activeElement && document.activeElement.dataset.testid === 'card'"):
            break
        page.keyboard.press("Tab")
    else:
        raise AssertionError("Tab never reached the hand")
    cards = page.locator('[data-testid="hand"] [data-testid="card"]')
    explained = False
    while not page.locator('[data-testid="hand-result"]').count():
        wait_turn_or_review(page)
        if not my_turn(page):
            continue
        version = page.evaluate("document.body.dataset.version")
        legal = legal_moves_of(page)
        hand = cards.evaluate_all("cs => cs.map(c => c.dataset.card)")
        melds = [m for m in legal if m.startswith("meld ") and " on " not in m]
        if "draw" in legal:
            page.keyboard.press("Enter")  # nothing selected: the primary move is the draw
        elif not explained:
            # two of the kings: no move (a meld needs three cards); the help line gives the engine's reason
            pair = [i for i, c in enumerate(hand) if c.startswith("K")][:2]
            for i in pair:
                focus_card(page, i)
                page.keyboard.press(" ")
            expected = canasta.why_illegal(room.state, canasta.parse_move(room.state, "meld K K"))
            assert expected is not None and expected.code == "MELD_TOO_SMALL"
            why = page.locator('[data-testid="why"]')
            sync_api.expect(why).to_have_text(f"Not possible: {expected.message}")
            page.keyboard.press("Escape")
            explained = True
            continue
        elif melds:
            for i in sorted(cards_of(melds[0], hand)):
                focus_card(page, i)
                page.keyboard.press(" ")
            page.keyboard.press("Enter")
        else:
            focus_card(page, len(hand) - 1)
            page.keyboard.press(" ")
            page.keyboard.press("Enter")
        page.wait_for_function(f"() => document.body.dataset.version !== '{version}'", timeout=30_000)
    assert explained
    page.wait_for_function("() => document.activeElement.dataset.testid === 'hand-result-close'")
    page.keyboard.press("Enter")
    page.wait_for_selector('[data-testid="hand-result"]', state="detached")
    eventually(lambda: not room.reviewing())  # the server has had the page's continue
    page.close()


def test_two_browsers_on_one_seat_and_a_reconnect(browser: Any, server: LiveServer) -> None:
    """The same invite link in a second browser takes the seat over and the first is told so (and may take it
    back); after a dropped connection the log has every move once, none missing, and the chat each line
    once; a page a stopping server sends away reconnects at once."""
    made = server.create(variant="classic", seats=["human", "bot:easy", "bot:easy", "bot:easy"], delay=0.15)
    room = server.server.config.app.state.lobby.rooms[made["table"]]
    url = server.base + made["seats"][0]["url"]
    first_context, second_context = browser.new_context(), browser.new_context()
    first, second = first_context.new_page(), second_context.new_page()
    first.goto(url)
    first.wait_for_selector('[data-testid="hand"] [data-testid="card"]')
    second.goto(url)
    first.wait_for_selector('[data-testid="replaced"]')
    second.wait_for_selector('[data-testid="hand"] [data-testid="card"]')
    assert room.seats[0].connections == 1
    second.locator('[data-testid="chat-input"]').fill("hello table")
    second.locator('[data-testid="chat-send"]').click()
    second.wait_for_selector('.chat-line:has-text("hello table")')
    # play one turn, then drop the connection while the computer players move
    second.wait_for_function("() => document.body.dataset.toMove === 'true'", timeout=30_000)
    for _ in range(2):  # draw, then discard
        version = int(second.evaluate("document.body.dataset.version"))
        take_turn(second)
        second.wait_for_function(f"() => Number(document.body.dataset.version) > {version}")
    # the connection drops, and comes back only after a while (the client's back-off, made long here)
    second.evaluate("window.canastaTable.retry = 3; window.canastaTable.ws.close()")
    away_at = room.version
    eventually(lambda: room.state.to_move == 0)  # the computer players move while the page is away
    assert room.version > away_at and second.evaluate("document.body.dataset.connected") == "false"
    second.wait_for_function("() => document.body.dataset.connected === 'true' && "
                             "document.body.dataset.toMove === 'true'", timeout=30_000)
    shown = second.locator('[data-testid="log"] .entry[data-version]:not(.sys)').evaluate_all(
        "es => es.map(e => Number(e.dataset.version))")
    assert shown == list(range(1, room.version + 1))  # every move once, in order
    assert second.locator('.chat-line').all_inner_texts() == [
        line for line in second.locator('.chat-line').all_inner_texts() if "hello table" in line]
    assert second.locator('.chat-line').count() == 1
    # the first browser takes the seat back
    first.locator('[data-testid="take-back"]').click()
    second.wait_for_selector('[data-testid="replaced"]')
    first.wait_for_selector('[data-testid="hand"] [data-testid="card"]')
    # a stopping server sends the page away (a reconnect frame, close code 1012): it is back at once, not
    # after its back-off (made 8 to 12 s here)
    first.wait_for_function("() => document.body.dataset.connected === 'true'")
    first.evaluate("window.oldWs = window.canastaTable.ws; window.canastaTable.retry = 6")
    assert room.task is not None
    room.task.get_loop().call_soon_threadsafe(room.send_away)
    first.wait_for_function("() => window.canastaTable.ws !== window.oldWs && "
                            "document.body.dataset.connected === 'true'", timeout=5_000)
    first_context.close()
    second_context.close()


def test_a_page_opened_mid_hand_logs_the_moves_as_the_live_page(browser: Any, server: LiveServer) -> None:
    """A reload mid-hand logs the hand's earlier moves as the live log did: discards and melds named with
    their suits (the server's public record of this hand), not by rank only."""
    made = server.create(variant="classic", seats=["human", "bot:easy", "bot:easy", "bot:easy"], delay=0)
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(server.base + made["seats"][0]["url"])

    def this_hand(lines: list[str]) -> list[str]:
        heads = [i for i, line in enumerate(lines) if line.startswith("— Hand ")]
        return lines[heads[-1] + 1:] if heads else lines

    for _ in range(40):  # a few turns of ours, until someone has melded
        page.wait_for_function("() => document.body.dataset.toMove === 'true'", timeout=30_000)
        if len(this_hand(log_lines(page))) > 12 and "melded" in " ".join(this_hand(log_lines(page))):
            break
        version = page.evaluate("document.body.dataset.version")
        take_turn(page)
        page.wait_for_function(f"() => document.body.dataset.version !== '{version}'", timeout=30_000)
    page.wait_for_function("() => document.body.dataset.toMove === 'true'", timeout=30_000)
    page.wait_for_timeout(300)  # the last event's pause
    live = this_hand(log_lines(page))
    assert any("melded" in line for line in live), live
    page.reload()
    page.wait_for_function("() => document.body.dataset.toMove === 'true'", timeout=30_000)
    again = this_hand(log_lines(page))
    assert again == live
    suits = "♠♥♦♣"
    assert all(any(s in line for s in suits) for line in again if "discarded" in line or "melded" in line), again
    page.close()


def test_red_threes_dealt_are_logged_for_their_side(browser: Any, server: LiveServer) -> None:
    """A side's red threes laid out at the deal are logged even when the other side lays out a three of the
    same suit later (two packs): the page opened then counts only the side's own later threes."""
    made = server.create(variant="classic", seats=["human", "bot:easy", "bot:easy", "bot:easy"], delay=0)
    room = server.server.config.app.state.lobby.rooms[made["table"]]
    three = parse_card("3D")
    # (a test's hook: the position as if we were dealt 3♦ and West then drew and laid out the other 3♦)
    room.state = room.state.replace(red_threes=((three,), (three,)), log=log_add(room.state.log, 1, "red-three 3D"))
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(server.base + made["seats"][0]["url"])
    page.wait_for_function("() => document.body.dataset.toMove === 'true'", timeout=30_000)
    lines = log_lines(page)
    assert lines[0] == "You & North: red threes laid out at the deal 3♦", lines
    page.close()


def test_bad_link_leads_home_and_to_watching(browser: Any, server: LiveServer) -> None:
    made = server.create(variant="classic", seats=["human", "bot:easy", "bot:easy", "bot:easy"], delay=0)
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(server.base + f"/t/{made['table']}?token=not-a-token")
    panel = page.locator('[data-testid="link-problem"]')
    panel.wait_for()
    assert panel.locator('[data-testid="watch-link"]').get_attribute("href") == f"/t/{made['table']}"
    assert panel.locator('[data-testid="home-link"]').get_attribute("href") == "/"
    page.goto(server.base + "/t/no-such-table")
    page.locator('[data-testid="link-problem"]').wait_for()
    assert page.locator('[data-testid="watch-link"]').count() == 0
    page.close()


@pytest.mark.parametrize(("width", "height"), [(390, 844), (844, 390)], ids=["portrait", "landscape"])
def test_phone_shows_the_hand_and_its_moves(browser: Any, server: LiveServer, width: int, height: int) -> None:
    """On a phone held either way the pile, the hand and the move buttons are on the screen without scrolling,
    and none is covered by another."""
    made = server.create(variant="classic", seats=["human", "bot:easy", "bot:easy", "bot:easy"], delay=0)
    context = browser.new_context(viewport={"width": width, "height": height}, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(server.base + made["seats"][0]["url"])
    page.wait_for_selector('[data-testid="hand"] [data-testid="card"]')
    page.wait_for_function("() => document.body.dataset.toMove === 'true'", timeout=30_000)
    # the pile, the hand's last card and the first move button: inside the screen, nothing over them (the
    # point a tap lands on is theirs), and the page itself not scrolled
    for locator in (page.locator('[data-testid="pile"] .top .card'),
                    page.locator('[data-testid="hand"] [data-testid="card"]').last,
                    page.locator('#actions button').first):
        box = locator.bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height, (width, height, box)
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, (width, height, box)
        assert locator.evaluate("(e) => { const r = e.getBoundingClientRect(); return e.contains("
                                "document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2)); }")
    assert page.evaluate("window.scrollY") == 0
    shot(page, f"table-phone-{'portrait' if height > width else 'landscape'}")
    context.close()
