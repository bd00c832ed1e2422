"""The browser client's pages (``web/*.html``) as the server sends them. A page's first line
``<!--#include file="head.html" -->`` stands for the head every page shares (``web/head.html``: the character
set, the viewport, the stylesheet, the icon), and the table page's ``<!--#echo var="plugin" -->`` for the
script of its table's family's plug-in (``PlayFamily.web_plugin``): the two server-side-include directives the
pages use, and nothing else of a template. Each page is put together once (``load_pages``, at start) and kept
in memory with its ETag, so that a visit costs a dictionary lookup."""

from __future__ import annotations

import functools
import hashlib
import re
from pathlib import Path

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response

WEB = Path(__file__).with_name("web")
PAGES = ("index.html", "stats.html", "replay.html", "rules.html", "help.html", "learn.html", "pad.html")
TABLE_PAGE = "table.html"
_DIRECTIVE = re.compile(r'<!--#(include file|echo var)="([\w.-]+)" -->\n')


@functools.cache
def _assembled(name: str, plugin: str | None = None) -> tuple[bytes, str]:
    """The page ``name`` put together (with ``plugin``'s script, for the table page) and its ETag."""

    def directive(match: re.Match[str]) -> str:
        kind, value = match.groups()
        if kind == "include file":
            return (WEB / value).read_text(encoding="utf-8")
        if value == "plugin" and plugin is not None:
            return f'<script type="module" src="/static/{plugin}"></script>\n'
        raise ValueError(f"{name}: nothing to put in place of {match.group(0).strip()}")

    body = _DIRECTIVE.sub(directive, (WEB / name).read_text(encoding="utf-8")).encode()
    return body, f'"{hashlib.sha256(body).hexdigest()[:32]}"'


def load_pages(plugins: tuple[str, ...]) -> None:
    """Put every page together now (the table page once with each family's plug-in): a page that names a
    missing file fails the start, not a visit."""
    for name in PAGES:
        _assembled(name)
    for plugin in plugins:
        _assembled(TABLE_PAGE, plugin)


def page(request: Request, name: str, *, plugin: str | None = None, status: int = 200) -> Response:
    """The page ``name`` (``plugin``: the table page's family's script), to be checked again before each use
    (``Cache-Control: no-cache``): 304 without a body when the browser's copy is the same."""
    body, etag = _assembled(name, plugin)
    headers = {"Cache-Control": "no-cache", "ETag": etag}
    if status == 200 and etag in request.headers.get("if-none-match", ""):
        return Response(status_code=304, headers=headers)
    return HTMLResponse(body, status_code=status, headers=headers)
