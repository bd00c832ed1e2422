"""The HTTP error body every API route answers with, declared once for the OpenAPI schema (docs/protocol.md)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel


class ErrorBody(BaseModel):
    """Every HTTP error's body."""

    error: str
    message: str


# the errors any API route may answer (declared so the OpenAPI schema is the whole truth)
ERRORS: dict[int | str, dict[str, Any]] = {status: {"model": ErrorBody} for status in (413, 422, 429, 500, 503)}
TABLE_ERRORS: dict[int | str, dict[str, Any]] = {**ERRORS, 404: {"model": ErrorBody}, 409: {"model": ErrorBody}}
