"""The rummy table in Debian's Chromium, driven by Playwright: a person plays 500 Rum by clicks (a card deep
in the spread pile, a meld, a lay-off on another player's meld, a discard), a refused move shows its reason
code, and the hand can be sorted. Screenshots go to ``test-artifacts/`` (or $CANASTA_ARTIFACTS)."""

from __future__ import annotations

from typing import Any

import pytest

import canasta
from browser_helpers import goto, shot
from canasta.canasta.cards import parse_card
from canasta.rummy import RummyState
from canasta.rummy.melds import meld_kind, new_meld
from server_helpers import LiveServer

sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright for Python is in the test extra")

# Seat 0's hand, the pile (bottom to top) and seat 1's run: taking 7C from under two cards lets seat 0 meld
# three sevens at once (the chosen card must be used), lay JS off on seat 1's run, and discard.
HAND = "7H 7D 2C 3C 4C JS QD"
PILE = "7C 9D KS"
RUN = "8S 9S TS"


def cards(text: str) -> tuple[int, ...]:
    return tuple(int(parse_card(c)) for c in text.split())


def arranged(state: RummyState) -> RummyState:
    """A 500 Rum position with seat 0 to draw: ``HAND``, ``PILE`` and seat 1's ``RUN`` on the table; every
    other card dealt to seats 1 and 2 (7 each) and the stock."""
    r = state.rules
    hand, pile, run = cards(HAND), cards(PILE), cards(RUN)
    rest = [c for c in range(52) if c not in (*hand, *pile, *run)]
    kind = meld_kind(r, run)
    assert kind is not None
    meld = new_meld(r, kind[0], kind[1], kind[2], 1)
    return state.replace(hands=(tuple(sorted(hand)), tuple(sorted(rest[:4])), tuple(sorted(rest[4:11]))),
                         pile=pile, stock=tuple(rest[11:]), melds=(meld,), turn_seat=0, phase="draw",
                         must_use=-1, taken=(), melded=(False, True, False), turn_melded=False,
                         history=("2 upcard KS",))


def wait_version(page: Any, version: int) -> None:
    page.wait_for_function(f"() => Number(document.body.dataset.version) >= {version}", timeout=30_000)


def hand_codes(page: Any) -> list[str]:
    return [c.get_attribute("data-card") for c in page.locator('[data-testid="hand"] .card').all()]


def test_500_rum_by_clicks(browser: Any, server: LiveServer) -> None:
    made = server.create(variant="500-rum", seats=["human", "bot:easy", "bot:easy"], delay=0, turn_seconds=900)
    room = server.server.config.app.state.lobby.rooms[made["table"]]
    # a known position instead of the random deal (the room's state before anyone joins: a test's hook)
    room.state = arranged(room.state)
    assert canasta.legal_moves(room.state)  # the arranged position is playable
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(server.base + made["seats"][0]["url"])
    page.wait_for_function("() => document.body.dataset.status === 'playing'", timeout=30_000)
    assert sorted(hand_codes(page)) == sorted(HAND.split())
    assert page.locator('[data-testid="pile"] .card').count() == 3
    assert page.locator('[data-testid="stock-size"]').inner_text() == f"{52 - 7 - 3 - 3 - 4 - 7} cards"
    assert page.locator('[data-testid="meld-8S-TS"] .card').count() == 3
    assert page.locator('[data-testid="seat-0"] [data-testid="timer"]').inner_text().startswith("⏱")

    # sorting: by suit (clubs together) and by rank (the sevens together)
    page.locator('[data-testid="sort-rank"]').click()
    by_one = hand_codes(page)
    page.locator('[data-testid="sort-suit"]').click()
    by_other = hand_codes(page)
    assert by_one != by_other and sorted(by_one) == sorted(by_other)

    # a refused move typed in the notation box shows the engine's reason; nothing changes
    page.locator('[data-testid="notation"]').fill("discard 2C")
    page.locator('[data-testid="notation-send"]').click()
    code = canasta.why_illegal(room.state, "discard 2C")
    assert code is not None
    page.wait_for_selector('[data-testid="notice"]:not(.hidden)')
    assert "Not allowed:" in page.locator('[data-testid="notice"]').inner_text()
    assert page.evaluate("document.body.dataset.version") == "0"

    # take 7C from under two cards: it and every card above come to the hand; 7C must be used now
    page.locator('[data-testid="pile-card-7C"]').click()
    wait_version(page, 1)
    assert sorted(hand_codes(page)) == sorted([*HAND.split(), *PILE.split()])
    assert "7♣" in page.locator('[data-testid="must-use"]').inner_text()
    assert page.locator('[data-testid="pile"] .card').count() == 0
    shot(page, "rummy-must-use")

    # select three sevens and meld them
    for code in ("7H", "7C", "7D"):
        page.locator(f'[data-testid="hand"] [data-card="{code}"]').click()
    page.locator('[data-testid="meld"]').click()
    wait_version(page, 2)
    assert page.locator('[data-testid="meld-7-set"] .card').count() == 3
    assert page.locator('[data-testid="must-use"]').is_hidden()

    # lay JS off on seat 1's run by clicking that meld; the card is shown as laid by seat 1 (us)
    page.locator('[data-testid="hand"] [data-card="JS"]').click()
    page.locator('[data-testid="meld-8S-TS"]').click()
    wait_version(page, 3)
    run = page.locator('[data-testid="meld-8S-JS"]')
    assert run.locator(".card").count() == 4
    assert run.locator(".by").all_inner_texts() == ["2", "2", "2", "1"]

    # discard QD; the computer players move on and the log shows every move
    page.locator('[data-testid="hand"] [data-card="QD"]').click()
    page.locator('[data-testid="discard"]').click()
    wait_version(page, 5)
    shot(page, "rummy-after-turn")
    log = page.locator('[data-testid="log"]').inner_text()
    # every card named with its suit, melds by what they hold; no notation
    assert "took 7♣ from the pile" in log and "melded 7" in log and "discarded Q♦" in log
    assert "laid J♠ on the 8♠–10♠ run" in log and "QD" not in log and "7C" not in log
    record = room.record()
    assert [record["moves"][i] for i in (0, 2, 3)] == ["0 take 7C", "0 lay JS on 8S-TS", "0 discard QD"]
    assert record["moves"][1].startswith("0 meld ") and sorted(record["moves"][1].split()[2:]) == ["7C", "7D", "7H"]
    mine = hand_codes(page)
    page.close()
    # the invite link again (a reload, another tab): the same seat, the same hand, the melds as they are
    again = browser.new_page(viewport={"width": 1280, "height": 900})
    again.goto(server.base + made["seats"][0]["url"])
    wait_version(again, 5)
    assert sorted(hand_codes(again)) == sorted(mine)
    assert again.locator('[data-testid="meld-8S-JS"] .by').all_inner_texts() == ["2", "2", "2", "1"]
    again.close()


def test_finished_rummy_game_page_and_replay(browser: Any, server: LiveServer) -> None:
    """Computer players finish a game of Basic Rummy; a spectator's table page shows the result, the score
    pad and the last hand's breakdown; the replay page steps through it with every hand face up."""
    import time

    made = server.create(variant="basic-rummy", seats=["bot:easy", "bot:medium"], delay=0)
    deadline = time.monotonic() + 120
    while server.get(f"/api/tables/{made['table']}").json()["status"] != "over":
        assert time.monotonic() < deadline, "the computer players did not finish"
        time.sleep(0.2)
    public = server.get(f"/api/tables/{made['table']}").json()
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(server.base + made["watch_url"])
    page.wait_for_selector('[data-testid="game-over"]')
    assert page.locator('[data-testid="score-pad"] tbody tr').count() == len(public["pad"]) + 1  # and a total
    last = public["view"]["last_hand"]
    assert f"Hand {last['hand']}" in page.locator('[data-testid="breakdown"]').inner_text()
    assert "You are watching this table." in page.locator('[data-testid="hand"]').inner_text()
    shot(page, "rummy-game-over")
    page.goto(server.base + f"/replay/{made['table']}")
    page.wait_for_selector('[data-testid="seat-1"]')
    assert page.locator('[data-testid="seat-0"] .card').count() == 10  # the deal, face up
    page.locator('[data-testid="replay-last"]').click()
    page.wait_for_function("() => document.body.dataset.move !== '0'", timeout=30_000)
    assert "Game over" in page.locator("#board").inner_text()
    shot(page, "rummy-replay")
    page.close()


def test_create_form_starts_a_four_player_500_rum_table(browser: Any, server: LiveServer) -> None:
    """The home page's form lists the rummy presets; 500 Rum for four (each for himself) starts a rummy
    table with 7 cards in the hand."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    goto(page, server.base + "/")  # the button works once the page's script has run (the flaky case)
    page.locator('[data-testid="choose-game"]').click()
    sync_api.expect(page.locator("#choose")).to_be_visible()
    for name in canasta.variant_names("rummy"):
        # the list is filled once the server's catalog has arrived: wait for each entry (count() does not;
        # a slow run once found none)
        sync_api.expect(page.locator(f'[data-testid="variant-{name}"]')).to_have_count(1)
    page.locator('[data-testid="variant-500-rum"]').check()
    assert page.locator('[data-testid="players"] option').all_inner_texts() == ["2", "3", "4"]
    page.locator('[data-testid="players"]').select_option("4")
    assert page.locator('[data-testid="seat-row-3"]').count() == 1
    assert "partner" not in page.locator('[data-testid="seat-row-2"]').inner_text()  # each for himself
    page.locator('[data-testid="create-table"]').click()
    page.wait_for_url("**/t/*")
    page.wait_for_function("() => document.body.dataset.status === 'playing'", timeout=30_000)
    assert page.locator('[data-testid="hand"] .card').count() == 7
    assert page.locator('[data-testid="seats"] .seat').count() == 4
    shot(page, "rummy-from-form")
    page.close()


def test_dealers_joker_by_a_button(browser: Any, server: LiveServer) -> None:
    """Dealer's Gambit: the dealer nominates the jokers' effect with a button, then sees the joker laid aside and
    takes it with its own button."""
    made = server.create(variant="dealers-gambit", seats=["bot:easy", "bot:easy", "human"], delay=0,
                         turn_seconds=900)
    room = server.server.config.app.state.lobby.rooms[made["table"]]
    assert room.state.phase == "nominate" and room.state.turn_seat == 2  # seat 2 deals the first hand
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(server.base + made["seats"][0]["url"])  # the one human seat, seat 2
    page.wait_for_selector('[data-testid="special-nominate"]', timeout=30_000)
    page.locator('[data-testid="special-nominate"]', has_text="wild").click()
    page.wait_for_selector('[data-testid="special-take"]', timeout=30_000)
    assert "Your dealer's joker lies aside" in page.locator('[data-testid="dealers-joker"]').inner_text()
    assert "2 nominate wild" in room.record()["moves"]
    jokers = hand_codes(page).count("JK")
    page.locator('[data-testid="special-take"]').click()
    page.wait_for_function(
        f"() => document.querySelectorAll('[data-testid=\"hand\"] .card[data-card=\"JK\"]').length > {jokers}",
        timeout=30_000)
    assert page.locator('[data-testid="dealers-joker"]').count() == 0
    assert "2 take dealer JK" in room.record()["moves"]
    page.close()


def test_the_hand_is_a_listbox_for_the_keyboard(browser: Any, server: LiveServer) -> None:
    """As on the Canasta page: one tab stop for the hand, arrow keys and Home/End from card to card, Space to
    choose, Escape to clear; the keyboard keeps its place when the hand is drawn again."""
    made = server.create(variant="basic-rummy", seats=["human", "bot:easy"], delay=0, turn_seconds=900)
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(server.base + made["seats"][0]["url"])
    page.wait_for_function("() => document.body.dataset.status === 'playing'", timeout=30_000)
    hand = page.locator('[data-testid="hand"]')
    assert hand.get_attribute("role") == "listbox"
    assert hand.locator('[role="option"][tabindex="0"]').count() == 1
    codes = hand_codes(page)
    hand.locator('[role="option"][tabindex="0"]').focus()
    focused = lambda: page.evaluate("document.activeElement.dataset.card")  # noqa: E731
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert focused() == codes[2]
    page.keyboard.press("Space")  # chosen; the hand is drawn again and the focus stays on the card
    assert hand.locator('[aria-selected="true"]').evaluate_all("cs => cs.map(c => c.dataset.card)") == [codes[2]]
    assert focused() == codes[2]
    page.keyboard.press("End")
    assert focused() == codes[-1]
    page.keyboard.press("ArrowRight")  # round to the first
    assert focused() == codes[0]
    page.keyboard.press("Escape")
    assert hand.locator('[aria-selected="true"]').count() == 0
    assert hand.locator('[role="option"][tabindex="0"]').count() == 1
    page.close()
