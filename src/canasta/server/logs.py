"""The server's log lines: plain text for a terminal, or one JSON object a line for a log collector
(``canasta serve --log-format json``; docs/deploy.md, "Logs").

Either way a line holds the message and, for an error, the exception's class only: never its text or
traceback (a database error's text holds its SQL parameters, i.e. a position and its deck; an engine
error's can hold a hand), and every URL's password is replaced by ``***`` (docs/security.md, "What is
logged"). Standard library only.
"""

from __future__ import annotations

import json
import logging
import re
import time

FORMATS = ("text", "json")
LEVELS = ("debug", "info", "warning", "error")
PASSWORD_IN_URL = re.compile(r"(://[^:/@\s]*:)[^\s/]*@")  # as storage.redact (this module needs no server extra)


def _redact(text: str) -> str:
    return PASSWORD_IN_URL.sub(r"\1***@", text)


def _error_class(record: logging.LogRecord) -> str | None:
    return record.exc_info[0].__name__ if record.exc_info and record.exc_info[0] is not None else None


class TextFormatter(logging.Formatter):
    """``2026-12-06T17:01:02Z WARNING canasta.server: message [ErrorClass]``, in UTC."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s: %(message)s", "%Y-%m-%dT%H:%M:%SZ")

    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:
        return time.strftime(datefmt or "%Y-%m-%dT%H:%M:%SZ", time.gmtime(record.created))

    def format(self, record: logging.LogRecord) -> str:  # no exception text or traceback: its class only
        record.message = record.getMessage()
        record.asctime = self.formatTime(record, self.datefmt)
        line = _redact(self.formatMessage(record))
        error = _error_class(record)
        return f"{line} [{error}]" if error else line


class JsonFormatter(logging.Formatter):
    """``{"time": "2026-12-06T17:01:02.345Z", "level": "warning", "logger": "canasta.server", "message": …,
    "error": "ErrorClass"}``: one object a line, ``error`` only when an exception is attached."""

    def format(self, record: logging.LogRecord) -> str:
        stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
        line: dict[str, object] = {"time": f"{stamp}.{int(record.msecs):03d}Z", "level": record.levelname.lower(),
                                   "logger": record.name, "message": _redact(record.getMessage())}
        error = _error_class(record)
        if error:
            line["error"] = error
        return json.dumps(line, ensure_ascii=False)


def configure(log_format: str = "text", level: str = "warning") -> logging.Handler:
    """Send every logger's lines (the server's, uvicorn's) at ``level`` and above to standard error in
    ``log_format``; returns the handler installed on the root logger."""
    if log_format not in FORMATS or level not in LEVELS:
        raise ValueError(f"log format is one of {FORMATS}, level one of {LEVELS}")
    handler = logging.StreamHandler()
    handler.setFormatter(JsonFormatter() if log_format == "json" else TextFormatter())
    root = logging.getLogger()
    for old in [h for h in root.handlers if getattr(h, "canasta", False)]:
        root.removeHandler(old)
    handler.canasta = True  # type: ignore[attr-defined]
    root.addHandler(handler)
    root.setLevel(level.upper())
    return handler
