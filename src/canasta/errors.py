"""Errors with stable reason codes (the public contract (docs/); the codes are listed in docs/reason-codes.md)."""

from __future__ import annotations


class IllegalMove(ValueError):
    """A move the rules do not allow here. ``code`` is a stable upper-case reason."""

    def __init__(self, code: str, message: str, move: str | None = None) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.move = move
