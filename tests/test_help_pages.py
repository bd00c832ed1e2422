"""The help the server gives the browser: the rules pages (the same pieces as ``canasta rules``), the help
and walk-through pages, and the walk-through's steps (``POST /api/learn``), which show seat 0 only."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import canasta

testclient = pytest.importorskip("fastapi.testclient", reason="the server extra")

from canasta.server.app import create_app  # noqa: E402
from canasta.server.help_pages import SCRIPT  # noqa: E402
from canasta.server.pages import WEB  # noqa: E402
from canasta.text.variant_docs import variant_page  # noqa: E402

LESSON = [move for seat, move, _tip in SCRIPT if seat == 0]


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    database = tmp_path_factory.mktemp("help") / "db.sqlite"
    with testclient.TestClient(create_app(f"sqlite:///{database}", workers=0)) as c:
        yield c


@pytest.mark.parametrize("path", ["/rules", "/rules/classic", "/rules/Persian-Rummy", "/help", "/learn"])
def test_the_help_pages_answer(client: Any, path: str) -> None:
    answer = client.get(path)
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/html")


def test_every_page_has_the_shared_head_and_answers_304_to_its_etag(client: Any) -> None:
    head = (WEB / "head.html").read_text(encoding="utf-8")
    for path in ("/", "/stats", "/replay/x", "/rules", "/help", "/learn", "/pad", "/t/x"):
        answer = client.get(path)
        assert answer.text.startswith(head) and "<!--#" not in answer.text, path
        assert answer.headers["cache-control"] == "no-cache"
        again = client.get(path, headers={"If-None-Match": answer.headers["etag"]})
        assert again.status_code == 304 and again.content == b"", path
    assert client.get("/", headers={"If-None-Match": '"stale"'}).status_code == 200


def test_the_pages_sources_are_not_served_as_static_files(client: Any) -> None:
    assert client.get("/static/table.html").status_code == 404  # its include lines are filled in at /t/ID
    assert client.get("/static/head.html").status_code == 404
    assert client.get("/static/style.css").status_code == 200


def test_an_unknown_variant_page_is_a_404_page(client: Any) -> None:
    answer = client.get("/rules/no-such-game")
    assert answer.status_code == 404 and answer.headers["content-type"].startswith("text/html")
    assert client.get("/api/rules/no-such-game").json()["error"] == "UNKNOWN_VARIANT"
    assert client.get("/api/rules/" + "x" * 65).status_code == 404


@pytest.mark.parametrize("name", ["classic", "samba", "four-player", "500-rum", "basic-rummy"])
def test_the_rules_data_is_the_rules_command_page(client: Any, name: str) -> None:
    record = client.get(f"/api/rules/{name}").json()
    rules = canasta.rules(name)
    assert record["name"] == rules.name
    assert [p["name"] for p in record["parameters"]] == [row[0] for row in rules.describe()]
    page = variant_page(rules)
    assert record["title"] in page and record["summary"] in page
    for row in record["changed"]:
        assert f"| `{row['name']}` |" in page
    for row in record["parameters"]:  # each with its valid values, as the page shows them
        assert f"| `{row['name']}` | `" in page and f"| {row['allowed']['text']} | {row['meaning']} |" in page
    assert record["base"] in ("classic", "500-rum")


def test_the_walk_through_goes_to_its_end_showing_seat_0_only(client: Any) -> None:
    for done in range(len(LESSON) + 1):
        step = client.post("/api/learn", json={"moves": LESSON[:done]}).json()
        assert step["step"] == done and step["steps"] == len(LESSON)
        view = step["view"]
        assert view["seat"] == 0 and "hands" not in view and "stock" not in view
        assert len(view["hand"]) == view["hand_sizes"][0]
        if done < len(LESSON):
            assert step["expect"]["move"] == LESSON[done]
            assert step["tip"].startswith("learn.tip.")
        else:
            assert step["expect"] is None and step["tip"] == "learn.tip.end"
    last = step["view"]
    assert any(meld["canasta"] for meld in last["sides"][0]["melds"])  # the lesson's canasta of kings
    after_discard = client.post("/api/learn", json={"moves": LESSON[:3]}).json()
    assert [o["card"] for o in after_discard["others"] if o["move"] == "discard"] == ["9H", "KS", "7S"]


@pytest.mark.parametrize("body", [{"moves": ["discard 4"]}, {"moves": [*LESSON, "draw"]}, {"moves": ["x" * 65]},
                                  {"moves": "draw"}, {"moves": [1]}])
def test_the_walk_through_refuses_other_moves(client: Any, body: dict[str, Any]) -> None:
    answer = client.post("/api/learn", json=body)
    assert answer.status_code == 422
    assert answer.json()["error"] in ("NOT_THE_LESSON", "BAD_REQUEST")


def test_every_tip_the_server_names_is_in_the_catalog() -> None:
    import json

    catalog = json.loads((Path(canasta.__file__).parent / "server" / "web" / "i18n" / "en.json").read_text())
    assert all(tip in catalog for _seat, _move, tip in SCRIPT if tip) and "learn.tip.end" in catalog
