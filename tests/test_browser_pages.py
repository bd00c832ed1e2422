"""The pages in Chromium: every language renders the home, rules, help, walk-through, statistics and replay
pages and the tables of both families (a hint shown) with no untranslated key (screenshots of each, and of
the table on a phone held either way, in ``test-artifacts/``: the session's header names it); the
language is the browser's by default and a switch is remembered; the "How to play" walk-through goes to its
end; axe-core finds no serious or critical WCAG 2.1 A/AA violation on home, the tables (Canasta and
rummy), rules, help, walk-through, statistics and replay pages. One server and one browser for the module."""

from __future__ import annotations

import json
import re
import time
from typing import Any

import pytest

from browser_helpers import serious_violations, shot
from server_helpers import LiveServer
from test_i18n import WEB

LANGUAGES = ("en", "es", "pt", "it")
# A catalog key left on a page: a namespace of the catalogs, a dot, a key (not a file's name: "docs/rummy.md").
KEY_SHOWN = re.compile(r"(?<![/.])\b(?:common|home|stats|replay|rules|help|keys|learn|card|variant|level|phase|i18n|"
                       r"param|table|rummy|move|reason|line)"
                       r"\.[a-z0-9_]+(?:\.[a-z0-9_]+)*\b")


@pytest.fixture(scope="module")
def finished(server: LiveServer) -> dict[str, str]:
    """Two games computer players finish at once (a two-hand Classic game, so that a replay crosses the end of a
    hand; Basic Rummy), for replays."""
    made = {"canasta": server.create(variant="classic", options={"hands_per_game": 2}, seats=["bot:easy"] * 4,
                                     delay=0),
            "rummy": server.create(variant="basic-rummy", seats=["bot:easy", "bot:easy"], delay=0)}
    deadline = time.monotonic() + 120
    for game in made.values():
        while server.get(f"/api/tables/{game['table']}").json()["status"] != "over":
            assert time.monotonic() < deadline, "the computer players did not finish"
            time.sleep(0.1)
    return {family: game["table"] for family, game in made.items()}


def shown_keys(page: Any) -> list[str]:
    """Catalog keys on the page: in its text, its title, or a label, placeholder or title attribute."""
    texts = page.evaluate("""() => [document.title, document.body.innerText,
        ...[...document.querySelectorAll('[aria-label],[placeholder],[title]')].flatMap(e =>
            ['aria-label', 'placeholder', 'title'].map(a => e.getAttribute(a) || ''))]""")
    return sorted({m for text in texts for m in KEY_SHOWN.findall(text)})


def pages(finished: dict[str, str]) -> dict[str, tuple[str, str]]:
    """name: (path, a selector that is there once the page has rendered)."""
    return {
        "home": ("/", "#variants .variant-option"),
        "rules": ("/rules", '[data-testid="rules-classic"]'),
        "rules-classic": ("/rules/classic", '[data-testid="glance"] li'),
        "rules-500-rum": ("/rules/500-rum", '[data-testid="glance"] li'),
        "help": ("/help", '[data-testid="shortcuts"] table'),
        "learn": ("/learn", '[data-testid="learn-card"]'),
        "stats": ("/stats", '[data-testid="stats"] :is(table, p)'),
        "replay": (f"/replay/{finished['canasta']}#1", '[data-testid="seat-0"]'),
        "replay-rummy": (f"/replay/{finished['rummy']}#1", '[data-testid="seat-0"]'),
        "watched-table": (f"/t/{finished['canasta']}", '[data-testid="game-over"]'),  # the game over
        "watched-rummy": (f"/t/{finished['rummy']}", '[data-testid="game-over"]'),
    }


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_page_in_each_language_with_no_untranslated_key(browser: Any, server: LiveServer,
                                                             finished: dict[str, str], lang: str) -> None:
    catalog = json.loads((WEB / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    context = browser.new_context(viewport={"width": 1100, "height": 800}, locale="en-US")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server.base}/?lang={lang}")  # the address's language is remembered for the other pages
    # a table of each family with this browser at seat 0, to move first
    playing = {"table": server.create(variant="classic", seats=["human", "bot:easy", "bot:easy", "bot:easy"]),
               "table-rummy": server.create(variant="500-rum", seats=["human", "bot:easy", "bot:easy"])}
    everything = {**pages(finished), **{name: (made["seats"][0]["url"], '[data-testid="hand"] .card')
                                        for name, made in playing.items()}}
    for name, (path, ready) in everything.items():
        page.goto(server.base + path)
        page.wait_for_selector(ready, state="attached")
        assert page.evaluate("document.documentElement.lang") == lang, name
        if name == "table":  # the hint and its reasons too
            page.get_by_test_id("hint").click()
            page.get_by_test_id("hint-text").wait_for()
        page.evaluate("() => document.querySelectorAll('details').forEach((d) => { d.open = true; })")
        assert shown_keys(page) == [], f"{name} in {lang}"
        assert page.locator("#language").input_value() == lang
        shot(page, f"page-{name}-{lang}")
    # the table on a phone held either way
    page.goto(server.base + playing["table"]["seats"][0]["url"])
    for width, height, held in ((390, 844, "portrait"), (844, 390, "landscape")):
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_selector('[data-testid="hand"] .card')
        shot(page, f"page-table-phone-{held}-{lang}")
    # the log tells the reader's own moves in the second person where the language's verbs say so
    page.get_by_test_id("action-draw").click()
    drew = catalog.get("table.log.drew.you", catalog["table.log.drew"])
    page.locator('[data-testid="log"] .entry', has_text=drew).wait_for()
    # the parameter reference and the house rules explained in the page's language
    for path, box, key in (("/rules/classic", '[data-testid="every-parameter"]', "param.canasta.hand_size"),
                           ("/rules/500-rum", '[data-testid="every-parameter"]', "param.rummy.pile_take"),
                           ("/", "#options .meaning", "param.canasta.going_out_bonus")):
        page.goto(server.base + path)
        page.locator(box).get_by_text(catalog[key], exact=True).wait_for(state="attached")
    assert errors == []
    context.close()


def test_the_browsers_language_by_default_and_a_switch_remembered(browser: Any, server: LiveServer) -> None:
    context = browser.new_context(locale="pt-BR")
    page = context.new_page()
    page.goto(server.base + "/")
    page.wait_for_selector("#variants .variant-option", state="attached")
    assert page.evaluate("document.documentElement.lang") == "pt"
    assert page.locator('[data-testid="play-now"]').inner_text() == "Jogar agora"
    with page.expect_navigation():
        page.locator("#language").select_option("it")
    page.wait_for_selector("#variants .variant-option", state="attached")
    assert page.locator('[data-testid="play-now"]').inner_text() == "Gioca ora"
    page.goto(server.base + "/help")
    page.wait_for_selector('[data-testid="shortcuts"] table')
    assert page.evaluate("document.documentElement.lang") == "it"
    assert page.locator("h1").inner_text() == "Aiuto"
    context.close()


def test_the_create_form_takes_each_number_within_its_bounds(browser: Any, server: LiveServer) -> None:
    """The house rules' number fields carry the server's bounds (GET /api/variants), so the browser flags a
    value the server would refuse."""
    page = browser.new_page()
    page.goto(server.base + "/?lang=en")
    field = page.wait_for_selector('[data-option="natural_canasta_bonus"]', state="attached")
    assert (field.get_attribute("min"), field.get_attribute("max")) == ("0", "100000")
    assert page.locator("#target").get_attribute("max") == "100000"
    page.close()


def test_the_walk_through_to_its_end(browser: Any, server: LiveServer) -> None:
    """A first-time player follows the tips (one wrong choice on the way), by clicks, to the end."""
    page = browser.new_page(viewport={"width": 1000, "height": 900})
    page.goto(server.base + "/learn?lang=en")
    page.wait_for_selector('[data-testid="learn-card"]')
    page.locator('[data-testid="learn-discard"]').click()  # not yet: the tip says draw
    assert "first draw" in page.locator('[data-testid="learn-feedback"]').inner_text()
    steps = [("draw", []), ("meld", ["KH", "KH", "KS", "KD", "KC", "JK"]), ("discard", ["4C"]),
             ("take", ["7C", "7D"]), ("meld", ["KS"]), ("discard", ["4C"])]
    for number, (action, cards) in enumerate(steps):
        assert page.evaluate("document.body.dataset.step") == str(number)
        assert page.locator('[data-testid="learn-tip"]').inner_text()
        for code in cards:  # the first card of that code not chosen yet
            page.locator(f'[data-testid="learn-card"][data-card="{code}"][aria-pressed="false"]').first.click()
        page.locator(f'[data-testid="learn-{action}"]').click()
        page.wait_for_function(f"() => document.body.dataset.step === '{number + 1}'")
        if number == 2:  # the others' turns are told: East's 7 is the one to take
            assert "7 of spades" in page.locator('[data-testid="learn-others"]').inner_text()
    assert page.locator('[data-testid="learn-done"]').is_visible()
    assert "canasta" in page.locator('[data-testid="learn-side-0"]').inner_text()
    shot(page, "learn-done-en")
    page.close()


def test_axe_finds_no_serious_violation(browser: Any, server: LiveServer, finished: dict[str, str]) -> None:
    tables = {"table": server.create(variant="classic", seats=["human", "bot:easy", "bot:easy", "bot:easy"]),
              "table-rummy": server.create(variant="basic-rummy", seats=["human", "bot:easy"])}
    checked = {name: path for name, (path, _ready) in pages(finished).items()}
    ready_of = {name: ready for name, (_path, ready) in pages(finished).items()}
    checked.update({name: made["seats"][0]["url"] for name, made in tables.items()})
    page = browser.new_page(viewport={"width": 1100, "height": 800})
    found = {}
    for name, path in checked.items():
        page.goto(server.base + path + ("" if "?" in path or "#" in path else "?lang=en"))
        page.wait_for_selector(ready_of.get(name, '[data-testid="hand"] .card'), state="attached")
        if name.startswith("table"):  # a hint shown too: its notice is part of the page to check
            page.wait_for_selector('[data-testid="hand"] .card')
            page.get_by_role("button", name="Hint").click()
            page.wait_for_selector(':is([data-testid="hint-text"], [data-testid="notice"]:not(.hidden))')
        found[name] = serious_violations(page)
    assert found == {name: [] for name in checked}
    page.close()


def replay_lines(page: Any, url: str, selector: str) -> list[str]:
    """The texts of ``selector`` at every step of a replay, stepped with the arrow key."""
    page.goto(url)
    page.wait_for_selector('[data-testid="seat-0"]')
    lines: list[str] = []
    for number in range(1, int(page.evaluate("document.getElementById('slider').max")) + 1):
        page.keyboard.press("ArrowRight")
        page.wait_for_function(f"() => document.body.dataset.move === '{number}'")
        lines += page.locator(selector).all_inner_texts()
    return lines


def test_the_replay_names_cards_with_their_suits(browser: Any, server: LiveServer, finished: dict[str, str]) -> None:
    """Every move of the replays in words: a Canasta meld's and take's cards with their suits (the cards that
    left the mover's hand), a discard's card; the rummy melds named by what they hold."""
    page = browser.new_page(viewport={"width": 1100, "height": 800})
    told = replay_lines(page, f"{server.base}/replay/{finished['canasta']}?lang=en", "#entry")
    cards = [line for line in told if re.search(r"melded|discarded|took the pile with", line)]
    assert any("melded" in line for line in cards) and all(re.search(r"[♠♥♦♣]|Joker", line) for line in cards), cards
    labels = replay_lines(page, f"{server.base}/replay/{finished['rummy']}?lang=en", ".rummy-melds .label")
    assert labels and all(re.fullmatch(r"(\w+s|Jokers|.+ run) · \d+ points?", label) for label in labels), labels
    page.close()
