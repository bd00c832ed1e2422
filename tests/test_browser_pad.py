"""The score pad page in Debian's Chromium on a 390×844 phone: the rules reference's worked hand (N-S 1,630,
E-W 575) entered by taps, a refused entry, a correction, undo, the read-only link and the printed sheet."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

import canasta
from browser_helpers import goto, serious_violations
from canasta.canasta.scoring import acaba_score
from server_helpers import LiveServer


@pytest.fixture(scope="module")
def page(browser: Any, server: LiveServer) -> Iterator[Any]:
    """One phone tab for the module."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    tab = context.new_page()
    tab.base = server.base
    yield tab
    context.close()


def start_pad(page: Any, variant: str) -> None:
    page.get_by_test_id("pad-variant").select_option(variant)
    page.get_by_test_id("pad-start").tap()
    page.wait_for_selector('[data-testid="pad-form"]')


def tap_more(page: Any, stepper: str, times: int) -> None:
    for _ in range(times):
        page.locator(f"#{stepper}").locator("xpath=..").get_by_role("button", name="one more").tap()


def test_worked_example_by_taps_on_a_phone(page: Any) -> None:
    goto(page, page.base + "/")
    page.get_by_test_id("pad-link").tap()
    page.wait_for_selector("#language", state="attached")
    start_pad(page, "classic")
    # no sideways scrolling on the phone
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    # N-S: points and counts; E-W: the cards as the reference lists them
    enter_hand(page, {"s0-melds": "305", "s0-hand": "75",
                      "s1-melds": "4H 4D 2D | 7S 7H 7D 7C 7S 2C JK | TC TS JK | AD AC AS AH AD",
                      "s1-hand": "2H 5D 6D TH JS JH 4C 4C TD QH QD KH KD"},
               {"s0-k-natural": 1, "s0-k-mixed": 2, "s0-red": 2, "s1-red": 1}, out=0)
    board = page.get_by_test_id("pad-board")
    board.get_by_text("1,630").wait_for()
    assert "575" in board.inner_text() and "next minimum 90" in board.inner_text()
    detail = page.get_by_test_id("pad-detail").inner_text()
    assert "Mixed canastas" in detail and "600" in detail

    # a refused entry keeps the form and changes nothing
    page.fill("#s0-melds", "KH KD ZZ")
    page.get_by_test_id("pad-add").tap()
    notice = page.get_by_test_id("pad-notice")
    notice.wait_for(state="visible")
    assert "ZZ" in notice.inner_text() and page.input_value("#s0-melds") == "KH KD ZZ"
    assert page.locator('[data-testid="pad-sheet"] tbody tr').count() == 1

    # correct hand 1 (an X7 penalty for N-S), then undo
    page.get_by_test_id("pad-correct").tap()
    assert page.input_value("#s0-melds") == "305"
    tap_more(page, "s0-x-X7", 1)
    page.get_by_test_id("pad-add").tap()
    board.get_by_text("1,530").wait_for()
    page.get_by_test_id("pad-undo").tap()
    board.get_by_text("1,630").wait_for()

    # the read-only link shows the sheet and no form; the printed sheet hides the form
    link = page.get_by_test_id("pad-share").get_attribute("href")
    page.emulate_media(media="print")
    assert not page.get_by_test_id("pad-form").is_visible() and page.get_by_test_id("pad-sheet").is_visible()
    page.emulate_media(media="screen")
    page.goto(link)
    page.get_by_test_id("pad-board").get_by_text("1,630").wait_for()
    assert not page.get_by_test_id("pad-form").is_visible()


def test_the_page_in_spanish_and_axe(page: Any) -> None:
    """Every text from the catalogs (no key left showing) in Spanish; axe-core finds no serious or critical
    WCAG 2.1 A/AA violation on the start page and on a pad with a hand."""
    page.goto(page.base + "/pad?lang=es")
    page.wait_for_selector('[data-testid="pad-start"]')
    assert page.locator("h1").inner_text() == "Planilla de puntos"
    assert serious_violations(page) == []
    page.get_by_test_id("pad-start").tap()
    page.wait_for_selector('[data-testid="pad-form"]')
    page.fill("#s0-melds", "120")
    page.get_by_test_id("pad-add").tap()
    page.get_by_test_id("pad-board").get_by_text("próxima bajada mínima 50").first.wait_for()
    text = page.locator("body").inner_text()
    assert not re.search(r"\bpad\.[a-z_]+", text) and "Cartas bajadas" in text
    assert serious_violations(page) == []
    page.goto(page.base + "/pad?lang=en")


def test_a_whole_hand_and_foot_game_to_its_end(page: Any) -> None:
    """Four hands by taps; the minimum follows the hand's number (90, 120, 150) and the game ends after four."""
    new_pad(page, "hand-and-foot")
    board = page.get_by_test_id("pad-board")
    for number, minimum in ((1, 90), (2, 120), (3, 150), (4, None)):
        # A: 1,500 + 3 natural + 4 mixed + out 100 = 4,300; B: 900 + 1 natural + 2 mixed - 200 = 1,800
        enter_hand(page, {"s0-melds": "1500", "s1-melds": "900", "s1-hand": "200"},
                   {"s0-k-natural": 3, "s0-k-mixed": 4, "s1-k-natural": 1, "s1-k-mixed": 2}, out=0)
        board.get_by_text(f"{4300 * number:,}").wait_for()
        assert f"{1800 * number:,}" in board.inner_text()
        if minimum:
            assert f"next minimum {minimum}" in board.inner_text()
    result = page.get_by_test_id("pad-result")
    assert result.inner_text() == "Game over: N-S won after 4 hands."
    assert not page.get_by_test_id("pad-form").is_visible()


def new_pad(page: Any, variant: str) -> None:
    goto(page, page.base + "/pad")
    start_pad(page, variant)


def enter_hand(page: Any, fills: dict[str, str], taps: dict[str, int], out: int | None = None) -> None:
    """A hand's lines entered as a player does (typed fields, then taps on the steppers; the side that went
    out), then added."""
    for field, text in fills.items():
        page.fill(f"#{field}", text)
    for stepper, times in taps.items():
        tap_more(page, stepper, times)
    if out is not None:
        page.locator(f'input[name="s{out}-out"][value="out"]').check()
    page.get_by_test_id("pad-add").tap()


def board_totals(page: Any) -> list[int]:
    page.locator('[data-testid="pad-sheet"] tbody tr').first.wait_for()
    return [int(s.replace(",", "")) for s in page.locator(".side-total .score").all_inner_texts()]


def assert_engine_totals(page: Any, rules: Any, sides: list[dict[str, Any]]) -> None:
    """The board shows the engine's totals for ``sides`` under ``rules``."""
    assert board_totals(page) == [s["total"] for s in canasta.score_hand(rules, sides)]


def test_the_lines_only_some_rules_have(page: Any) -> None:
    """Modern American's unfinished melds and three-aces penalty, Brazilian's short sequences and black threes
    in hand and British Acaba, entered by taps where (and only where) the rules have them; the totals are the
    engine's."""
    new_pad(page, "modern-american")
    assert page.locator("#s0-black-hand").count() == 0 and page.locator('input[name="acaba"]').count() == 0
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # the longer labels still fit the phone
    enter_hand(page, {"s0-melds": "600", "s1-melds": "300", "s1-hand": "40"},
               {"s0-k-natural": 2, "s0-u-A": 1, "s1-u-7": 1, "s1-u-JK": 1, "s1-hp-A": 1}, out=0)
    assert_engine_totals(page, canasta.rules("modern-american"),
                         [{"melded_points": 600, "canastas": {"natural": 2}, "unfinished_melds": ["A"],
                           "went_out": True},
                          {"melded_points": 300, "unfinished_melds": ["7", "JK"], "hand_points": 40,
                           "hand_penalties": ["A"]}])
    assert "Unfinished melds" in page.get_by_test_id("pad-detail").inner_text()
    page.get_by_test_id("pad-correct").tap()  # the correction form holds the counts again
    assert page.locator("#s1-u-JK").inner_text() == "1" and page.locator("#s1-hp-A").inner_text() == "1"

    new_pad(page, "brazilian")  # black threes in hand as in Bolivia, and short sequences
    assert page.locator("#s0-u-A").count() == 0 and page.locator("#s0-hp-A").count() == 0
    enter_hand(page, {"s0-melds": "500", "s1-melds": "150", "s1-hand": "30"},
               {"s0-k-natural": 1, "s0-k-sequence": 1, "s1-short": 1, "s1-black-hand": 1}, out=0)
    assert_engine_totals(page, canasta.rules("brazilian"),
                         [{"melded_points": 500, "canastas": {"natural": 1, "sequence": 1}, "went_out": True},
                          {"melded_points": 150, "short_sequences": 1, "hand_points": 30,
                           "black_threes_in_hand": 1}])

    new_pad(page, "british")
    page.locator('input[name="acaba"][value="1"]').check()
    page.get_by_test_id("pad-add").tap()
    british = canasta.rules("british")
    assert board_totals(page) == [acaba_score(british, opponent)["total"] for opponent in (True, False)]
    assert "Acaba called" in page.get_by_test_id("pad-detail").inner_text()

    # a house rule's line too: the bonus for a canasta laid down whole, asked only when the options give it
    assert page.locator("#s0-concealed").count() == 0
    made = page.evaluate("""async () => {
      const { playerId } = await import("/static/common.js");
      const res = await fetch("/api/pads", { method: "POST", headers: { "Content-Type": "application/json",
        "X-Canasta-Player": playerId() }, body: JSON.stringify({ variant: "classic",
        options: { concealed_canasta_bonus: 100 } }) });
      return (await res.json()).pad;
    }""")
    page.goto(f"{page.base}/pad?id={made}")
    page.wait_for_selector('[data-testid="pad-form"]')
    enter_hand(page, {"s0-melds": "300"}, {"s0-k-natural": 1, "s0-concealed": 1})
    assert_engine_totals(page, canasta.rules("classic", concealed_canasta_bonus=100),
                         [{"melded_points": 300, "canastas": {"natural": 1}, "concealed_canastas": 1}, {}])
