"""The OpenAPI document says what the API really does (issue 30, smaller): the bounds it checks
are declared, and every answer the API gives to the requests below is one the document declares
for that operation (schemathesis found 27 places where it said less)."""
from __future__ import annotations

import pytest

from companion import dice
from companion.validate import MAX_INT

jsonschema = pytest.importorskip("jsonschema")


@pytest.fixture
def doc(client):
    return client.get("/api/openapi.json").get_json()


def _body_schema(doc, path, method="post"):
    return doc["paths"][path][method]["requestBody"]["content"]["application/json"]["schema"]


def _valid(schema, body) -> bool:
    return jsonschema.Draft202012Validator(schema).is_valid(body)


def test_the_bounds_the_api_checks_are_declared(client, doc):
    odds, roll = _body_schema(doc, "/api/odds"), _body_schema(doc, "/api/roll")
    for body in ({"dice": 0, "target": 4}, {"dice": dice.MAX_POOL + 1, "target": 4}, {"dice": 3, "target": 1},
                 {"dice": 3, "target": 4, "sides": 7}, {"dice": 3, "target": 4, "save": 21}):
        assert not _valid(odds, body), body
        assert client.post("/api/odds", json=body).status_code == 400, body
    assert _valid(odds, {"dice": dice.MAX_POOL, "target": 20, "save": 2, "sides": 20})
    assert client.post("/api/odds", json={"dice": dice.MAX_POOL, "target": 20, "save": 2, "sides": 20}).status_code == 200
    for expr in ("", "d" * (dice.MAX_EXPR + 1)):
        assert not _valid(roll, {"expr": expr})
        assert client.post("/api/roll", json={"expr": expr}).status_code == 400
    # schemathesis (tests/test_schemathesis.py) drew take-back targets past the largest number the API
    # takes: refused, so declared
    take_back = _body_schema(doc, "/api/tables/{code}/take-back")
    assert not _valid(take_back, {"targets": [MAX_INT + 1]}) and _valid(take_back, {"targets": [MAX_INT]})
    made = client.post("/api/tables", json={"system": "freeform", "name": "Bounds"}).get_json()
    player = {"Authorization": f"Bearer {made['seat_token']}"}
    answer = client.post(f"/api/tables/{made['code']}/take-back", json={"targets": [MAX_INT + 1]}, headers=player)
    assert answer.status_code == 400 and "too large" in answer.get_json()["error"]
    # a plain value (a card's name or number: companion.schema.Scalar) has the same bound
    reveal = doc["components"]["schemas"]["action-reveal"]
    assert not _valid(reveal, {"type": "reveal", "id": MAX_INT + 1}) and _valid(reveal, {"type": "reveal", "id": 2.5})
    answer = client.post(f"/api/tables/{made['code']}/actions", json={"type": "reveal", "id": MAX_INT + 1},
                         headers=player)
    assert answer.status_code == 400 and "too large" in answer.get_json()["error"]


def test_every_answer_given_is_declared(client, doc):
    created = client.post("/api/tables", json={"system": "freeform", "name": "Truth"},
                          headers={"Authorization": "Bearer none"}).get_json()
    code = created["code"]
    player = {"Authorization": f"Bearer {created['seat_token']}"}
    spectator = {"Authorization": f"Bearer {created['spectator_url'].rsplit('/', 1)[1]}"}
    asked = [  # (method, path template, path, body, headers): a missing or wrong secret, nothing to undo ...
        ("get", "/api/tables/{code}", f"/api/tables/{code}", None, {}),
        ("get", "/api/tables/{code}/events", f"/api/tables/{code}/events", None, {"Authorization": "Bearer x"}),
        ("get", "/api/tables/{code}/export", f"/api/tables/{code}/export", None, {}),
        ("post", "/api/tables/{code}/undo", f"/api/tables/{code}/undo", {}, player),
        ("post", "/api/tables/{code}/redo", f"/api/tables/{code}/redo", {}, player),
        ("post", "/api/tables/{code}/undo", f"/api/tables/{code}/undo", {"target": 99}, player),
        ("post", "/api/tables/{code}/undo", f"/api/tables/{code}/undo", {}, spectator),
        ("post", "/api/tables/{code}/actions", f"/api/tables/{code}/actions", {"type": "note", "text": "x"}, {}),
        ("post", "/api/tables/{code}/actions", f"/api/tables/{code}/actions",
         {"type": "note", "text": "x", "seq": 0}, player),
        ("post", "/api/tables/{code}/actions", f"/api/tables/{code}/actions", {"type": "note", "text": "x"}, spectator),
        ("post", "/api/tables/import", "/api/tables/import", {"format": "x"}, {}),
        ("get", "/api/systems/{slug}/tables", "/api/systems/nothing/tables", None, {}),
    ]
    for method, template, path, body, headers in asked:
        resp = client.open(path, method=method.upper(), json=body, headers=headers)
        declared = doc["paths"][template][method]["responses"]
        assert str(resp.status_code) in declared, (method, path, resp.status_code, sorted(declared))
        assert resp.status_code >= 400 and resp.get_json()["error"]
    resp = client.put(f"/api/tables/{code}/actions", json={}, headers=player)
    assert "405" in doc["paths"]["/api/tables/{code}/actions"]["post"]["responses"]
    assert resp.status_code == 405 and resp.headers["Allow"]
