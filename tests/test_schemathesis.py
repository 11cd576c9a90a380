"""Schemathesis against /api/openapi.json, through the Flask app (WSGI, no server): every operation's
requests are drawn from the document (valid ones, and ones the document says are invalid), and
every answer must be one the document declares for that operation: its status code, its content
type, its body's schema, and never a 5xx (issue 30, smaller).

Bounded and deterministic: EXAMPLES per operation and generation mode, derandomized (the same
cases every run), no example database.  Operations on one table get a real table's code and its
player's secret (otherwise every case would only meet the 404 of a missing credential, which
tests/test_openapi_truth.py already checks).
"""
from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (content_type_conformance, response_headers_conformance,
                                               response_schema_conformance, status_code_conformance)

from companion import create_app

EXAMPLES = 25  # per operation and mode: 24 runs, ~560 requests; 5-27 s on the shared 2-core box
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance,
          response_headers_conformance, response_schema_conformance]
MODES = (schemathesis.GenerationMode.POSITIVE, schemathesis.GenerationMode.NEGATIVE)


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """The app on a fresh database, its schema loaded from its own /api/openapi.json, and one
    Freeform table (code and player secret) for the operations that need one."""
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path_factory.mktemp("st") / "st.sqlite"),
                      "SECRET_KEY": "schemathesis-key", "FEED_SECONDS": 0.3})  # the event feed ends
    schema = schemathesis.openapi.from_wsgi("/api/openapi.json", app)
    made = app.test_client().post("/api/tables", json={"system": "freeform", "name": "Fuzzed"},
                                  headers={"Authorization": "Bearer none"}).get_json()
    return schema, made["code"], made["seat_token"]


def _cases():
    """(method, path, mode) for every operation: negative only where there is something to negate
    (a body, or a parameter other than the table code, which is always the real one)."""
    app = create_app({"TESTING": True, "DATABASE": ":memory:", "SECRET_KEY": "x"})
    with app.test_client() as c:
        doc = c.get("/api/openapi.json").get_json()
    out = []
    for path, ops in doc["paths"].items():
        for method, op in ops.items():
            negatable = "requestBody" in op or any(p["name"] != "code" for p in op.get("parameters", []))
            out += [(method.upper(), path, mode) for mode in MODES if negatable or mode is MODES[0]]
    return out


@pytest.mark.parametrize("method,path,mode", _cases(), ids=lambda v: getattr(v, "value", v))
def test_answers_are_declared(served, method, path, mode):
    schema, code, secret = served
    operation = schema[path][method]

    @settings(max_examples=EXAMPLES, derandomize=True, database=None, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(data=st.data())
    def run(data):
        case = data.draw(operation.as_strategy(generation_mode=mode))
        if "code" in (case.path_parameters or {}):
            case.path_parameters["code"] = code
            case.headers = {**(case.headers or {}), "Authorization": f"Bearer {secret}"}
        case.call_and_validate(checks=CHECKS)

    run()


def test_an_export_and_its_import_answer_as_declared(served):
    """Drawn cases never make a valid export; the table's own does (signed, then edited): both
    answers (the export, the import's 201 with ``signed`` and its sentence) match the document."""
    schema, code, secret = served
    bearer = {"Authorization": f"Bearer {secret}"}
    export = schema["/api/tables/{code}/export"]["GET"].Case(path_parameters={"code": code}, headers=bearer)
    doc = export.call_and_validate(checks=CHECKS).json()
    edited = {**doc, "name": doc["name"] + "!"}
    for body, signed in ((doc, True), (edited, False)):
        answer = schema["/api/tables/import"]["POST"].Case(body=body, media_type="application/json")
        resp = answer.call_and_validate(checks=CHECKS)
        assert resp.status_code == 201 and resp.json()["signed"] is signed
