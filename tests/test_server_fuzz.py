"""The HTTP API fuzzed from its own OpenAPI schema (issue 40): whatever a client sends, no answer is a
server error, every answer conforms to the schema (status, content type, body), and every error has the
documented {"error", "message"} shape. Bounded: a couple of dozen generated requests per operation."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable

from server_helpers import LiveServer

schemathesis = pytest.importorskip("schemathesis")
# A request the schema allows may still be refused (422): which options a variant takes, how many seats
# it has, is the rules' business, not the schema's.
from schemathesis.checks import positive_data_acceptance  # noqa: E402


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with LiveServer(f"sqlite:///{tmp_path_factory.mktemp('fuzz') / 'db.sqlite'}", api_docs=True) as live:
        yield live


def test_no_request_breaks_the_api(server: LiveServer) -> None:
    schema = schemathesis.openapi.from_url(f"{server.base}/api/openapi.json")
    schema.config.update(base_url=server.base)
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 6
    for operation, mode in itertools.product(operations, schemathesis.GenerationMode):  # valid and invalid requests

        @settings(max_examples=15, deadline=None, derandomize=True, database=None,
                  suppress_health_check=list(HealthCheck))
        @given(case=operation.as_strategy(generation_mode=mode))
        def fuzz(case: Any) -> None:
            response = case.call(timeout=30)
            # no 5xx, and status, content type and body as the schema says
            case.validate_response(response, excluded_checks=[positive_data_acceptance])
            if response.status_code >= 400:
                assert set(response.json()) == {"error", "message"}, response.text

        try:
            fuzz()
        except Unsatisfiable:  # no invalid request exists (a path of strings only): nothing to try
            assert mode is schemathesis.GenerationMode.NEGATIVE
