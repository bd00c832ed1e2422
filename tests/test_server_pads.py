"""The score pad's routes: kept for the browser's player id, shared read-only, every input bounded and checked."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from server_helpers import POSTGRES_URL, LiveServer, fresh_postgres

ME = {"X-Canasta-Player": "a" * 48}
OTHER = {"X-Canasta-Player": "b" * 48}
HAND = {"sides": [{"melded_points": 305, "canastas": {"natural": 1, "mixed": 2}, "hand_points": 75,
                   "red_threes": 2, "went_out": True},
                  {"melded_points": 295, "canastas": {"mixed": 1}, "hand_points": 120, "red_threes": 1}]}


def databases() -> list[str]:
    return ["sqlite", "postgresql"] if POSTGRES_URL else ["sqlite"]


@pytest.fixture(scope="module", params=databases())
def base(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    if request.param == "postgresql":
        with fresh_postgres() as url, LiveServer(url) as live:
            yield live.base
    else:
        with LiveServer(f"sqlite:///{tmp_path_factory.mktemp('pads') / 'db.sqlite'}") as live:
            yield live.base


def test_a_pad_kept_for_its_browser_and_shared_read_only(base: str) -> None:
    with httpx.Client(base_url=base) as c:
        made = c.post("/api/pads", json={"variant": "classic", "names": ["Us", "Them"]}, headers=ME).json()
        pid, share = made["pad"], made["share"]
        view = c.post(f"/api/pads/{pid}/hands", json=HAND, headers=ME).json()
        assert view["totals"] == [1630, 575] and view["minimums"] == [90, 50]
        assert [p["pad"] for p in c.get("/api/pads", headers=ME).json()] == [pid]
        assert c.get("/api/pads", headers=OTHER).json() == []
        refused = c.get(f"/api/pads/{pid}", headers=OTHER)
        assert refused.status_code == 404 and refused.json()["error"] == "NO_PAD"
        assert c.post(f"/api/pads/{pid}/undo", headers=OTHER).status_code == 404
        shared = c.get(f"/api/shared/pads/{share}").json()
        assert shared["totals"] == [1630, 575] and "pad" not in shared and shared["can_undo"] is False
        assert c.get(f"/pad/view/{share}").status_code == 200 and c.get("/pad").status_code == 200
        # correction, undo, export and import
        fixed = c.put(f"/api/pads/{pid}/hands/1", json={**HAND, "penalties": [{"side": 0, "code": "X7"}]},
                      headers=ME).json()
        assert fixed["totals"] == [1530, 575]
        assert c.post(f"/api/pads/{pid}/undo", headers=ME).json()["totals"] == [1630, 575]
        sheet = c.get(f"/api/pads/{pid}/export", params={"format": "csv"}, headers=ME)
        assert sheet.headers["content-type"].startswith("text/csv")
        copy = c.post("/api/pads", json={"import": sheet.text}, headers=ME).json()
        assert copy["totals"] == [1630, 575] and copy["pad"] != pid and copy["names"] == ["Us", "Them"]
        assert c.delete(f"/api/pads/{copy['pad']}", headers=ME).json() == {"deleted": copy["pad"]}


@pytest.mark.parametrize("method, path, body, headers, status, code", [
    ("post", "/api/pads", {"variant": "classic"}, {}, 422, "BAD_PLAYER"),
    ("post", "/api/pads", {"variant": "nope"}, ME, 422, "BAD_PAD"),
    ("post", "/api/pads", {"variant": "classic", "seats": 4}, ME, 422, "BAD_REQUEST"),
    ("post", "/api/pads", {"import": "not a pad"}, ME, 422, "BAD_PAD"),
    ("post", "/api/pads", {"import": "x" * 300_000}, ME, 413, "TOO_LARGE"),
    ("get", "/api/pads/../../etc", None, ME, 404, None),
    ("get", "/api/pads/nosuchpad123", None, ME, 404, "NO_PAD"),
    ("get", "/api/shared/pads/nosuchpad123", None, {}, 404, "NO_PAD"),
])
def test_bad_requests_get_the_error_shape(base: str, method: str, path: str, body: object, headers: dict[str, str],
                                          status: int, code: str | None) -> None:
    with httpx.Client(base_url=base) as c:
        r = c.request(method.upper(), path, json=body, headers=headers)
        assert r.status_code == status
        if code:
            assert r.json()["error"] == code and r.json()["message"]


def test_a_bad_hand_is_refused_and_changes_nothing(base: str) -> None:
    with httpx.Client(base_url=base) as c:
        pid = c.post("/api/pads", json={"variant": "samba"}, headers=ME).json()["pad"]
        bad = c.post(f"/api/pads/{pid}/hands", json={"sides": [{"red_threes": 7}, {}]}, headers=ME)
        assert bad.status_code == 422 and bad.json()["error"] == "BAD_PAD"
        assert "red_threes is 7, more than 6" in bad.json()["message"]
        assert c.post(f"/api/pads/{pid}/hands", content=b"[1,2", headers=ME).json()["error"] == "BAD_REQUEST"
        deep = b"[" * 6_000 + b"]" * 6_000
        assert c.post(f"/api/pads/{pid}/hands", content=deep, headers=ME).json()["error"] == "BAD_REQUEST"
        assert c.get(f"/api/pads/{pid}", headers=ME).json()["hands"] == []


def test_page_has_no_inline_script() -> None:
    page = (Path(__file__).resolve().parent.parent / "src/canasta/server/web/pad.html").read_text()
    assert "<script>" not in page and "style=" not in page and " on" + "click=" not in page


def test_an_import_nested_too_deep_is_refused(base: str) -> None:
    with httpx.Client(base_url=base) as c:
        r = c.post("/api/pads", json={"import": "{\"a\":" + "[" * 6_000 + "]" * 6_000 + "}"}, headers=ME)
        assert r.status_code == 422 and r.json()["error"] == "BAD_PAD"
