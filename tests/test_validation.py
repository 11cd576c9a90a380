"""The validation layer (companion.validate), dice that cannot be evaluated, and the headers (issue 15).

Each refusal is a 400 (or the 404 a wrong code gets) with one sentence naming the field, and the
table is left exactly as it was."""
from __future__ import annotations

import json
import re

import pytest

from companion import dice
from companion.errors import RuleError


@pytest.fixture
def api(client):
    """A freeform table made through the API: (code, headers with its player secret)."""
    resp = client.post("/api/tables", json={"system": "freeform", "name": "Checks"},
                       headers={"Authorization": "Bearer none"})
    assert resp.status_code == 201
    secret = resp.get_json()["seat_token"]
    return resp.get_json()["code"], {"Authorization": f"Bearer {secret}"}


def act(client, api, raw: bytes | None = None, **action):
    code, headers = api
    before = client.get(f"/api/tables/{code}", headers=headers).get_json()
    body = raw if raw is not None else json.dumps(action).encode()
    resp = client.post(f"/api/tables/{code}/actions", data=body, headers={**headers, "Content-Type": "application/json"})
    return resp, before


def refused(client, api, resp, before, field: str | None) -> str:
    """A 400 with one sentence naming ``field``, and nothing stored."""
    code, headers = api
    assert resp.status_code == 400, resp.data
    body = resp.get_json()
    assert body["error"].endswith(".") and len(body["error"]) < 200
    if field:
        assert body["field"] == field, body
    assert client.get(f"/api/tables/{code}", headers=headers).get_json() == before
    return body["error"]


@pytest.mark.parametrize("expr", ["1d6/0", "1d6%0", "(1d6-1d6)/0", "d20//0", "2d6 % (1-1)"])
def test_dice_that_divide_by_zero_are_a_sentence(client, api, expr):
    resp, before = act(client, api, type="roll", expr=expr)
    assert "zero" in refused(client, api, resp, before, "expr")
    resp = client.post("/api/roll", json={"expr": expr})
    assert resp.status_code == 400 and "zero" in resp.get_json()["error"]


def test_a_total_too_large_to_keep_is_refused():
    with pytest.raises(RuleError, match="larger than"):
        dice.roll("100d1000*1000000000*1000000000*1000000000")


@pytest.mark.parametrize("raw, field", [
    (b'{"type": "adjust", "unit": "u1", "tracker": "hp", "by": NaN}', "body"),
    (b'{"type": "adjust", "unit": "u1", "tracker": "hp", "by": Infinity}', "body"),
    (b'{"type": "adjust", "unit": "u1", "tracker": "hp", "by": 1e999}', "by"),
    (b'{"type": "adjust", "unit": "u1", "tracker": "hp", "by": 99999999999999999999999}', "by"),
    (b'{"type": "note", "text": "a\\ud800b"}', "text"),
    (b'{"type": "note", "text": "' + b"x" * 30_000 + b'"}', "text"),
    (b'{"type": "note", "text": ' + b"[" * 3000 + b"]" * 3000 + b"}", "body"),
    (b'{"type": "note", "text": ' + b"[" * 40 + b"]" * 40 + b"}", "text"),
    (b'{"type": "note", "text": ', "body"),
])
def test_the_gate_refuses_what_json_cannot_mean_here(client, api, raw, field):
    resp, before = act(client, api, raw=raw)
    refused(client, api, resp, before, field)


@pytest.mark.parametrize("action, field", [
    ({"type": "adjust", "unit": {"x": 1}, "tracker": "hp", "by": -1}, "unit"),
    ({"type": "roll", "expr": ["2d6"]}, "expr"),
    ({"type": "set-turn", "side": {"side": 1}}, "side"),
    ({"type": "add-unit", "name": "Anna", "side": ["Side A"]}, "side"),
])
def test_an_object_or_list_where_text_belongs_is_a_400_naming_it(client, api, action, field):
    resp, before = act(client, api, **action)
    refused(client, api, resp, before, field)


@pytest.mark.parametrize("spec, field_text", [
    ({"id": "b", "kind": "boxes", "count": -1}, "count"),
    ({"id": "c", "kind": "cooldown", "every": 0}, "every"),
    ({"id": "r", "kind": "charge", "red": -3}, "red"),
    ({"id": "r", "kind": "charge", "red": 0}, "red"),
    ({"id": "a", "kind": "arcs", "arcs": [{"name": "Fore", "boxes": 0}]}, "boxes"),
    ({"id": "g", "kind": "gauge", "min": 5, "max": 1}, "max"),
    ({"id": "x" * 100, "kind": "counter"}, "id"),
])
def test_impossible_trackers_are_refused(client, api, spec, field_text):
    resp, before = act(client, api, type="add-tracker", spec=spec)
    assert field_text in refused(client, api, resp, before, "spec")


def test_a_card_value_is_a_finite_number_and_the_state_stays_json(client, api):
    code, headers = api
    for raw in (b'{"type": "deck-record", "deck": "deck", "card": {"name": "A", "value": NaN}}',
                b'{"type": "deck-load", "deck": "deck", "cards": [{"name": "A", "value": Infinity}]}'):
        resp, before = act(client, api, raw=raw)
        refused(client, api, resp, before, None)
    resp, _ = act(client, api, type="deck-record", deck="deck", card={"name": "A", "value": 1e300})
    assert resp.status_code == 400
    text = client.get(f"/api/tables/{code}", headers=headers).get_data(as_text=True)
    json.loads(text, parse_constant=lambda word: pytest.fail(f"bare {word} in the state"))


def test_sides_must_be_a_list_as_the_document_says(client):
    resp = client.post("/api/tables", json={"system": "freeform", "name": "T", "sides": "Red,Blue"})
    assert resp.status_code == 400 and resp.get_json()["field"] == "sides"


def test_method_and_size_errors_under_api_are_json(client, app, api):
    code, headers = api
    resp = client.put(f"/api/tables/{code}/actions", json={}, headers=headers)
    assert resp.status_code == 405 and "PUT" in resp.get_json()["error"]
    assert "POST" in resp.headers["Allow"]  # RFC 9110: a 405 names the methods that are allowed
    assert "GET" in client.post(f"/api/tables/{code}/events", headers=headers).headers["Allow"]
    assert "POST" in client.get(f"/t/{code}/act").headers["Allow"]  # the HTML routes too
    app.config["MAX_CONTENT_LENGTH"] = 1000
    resp = client.post("/api/tables/import", data=b'{"x": "' + b"a" * 2000 + b'"}',
                       headers={"Content-Type": "application/json"})
    assert resp.status_code == 413 and "too large" in resp.get_json()["error"]
    assert client.get("/api/nothing/here").get_json() == {"error": "Not found."}


def test_non_ascii_secrets_and_tokens_are_refused_not_crashed(client, table):
    table.create()
    resp = client.post(f"/t/{table.code}/act", data={"csrf_token": "é", "type": "note", "text": "x"})
    assert resp.status_code == 400
    resp = client.get(f"/api/tables/{table.code}", headers={"Authorization": "Bearer é"})
    assert resp.status_code == 404
    assert client.get(f"/t/{table.code}/join/%C3%A9").status_code == 404
    assert client.get(f"/t/{table.code}/join/%ED%A0%80").status_code == 404


def test_an_id_too_large_for_sqlite_is_not_found(client, table):
    table.create()
    resp = client.post(f"/t/{table.code}/library/99999999999999999999999/add", data={"csrf_token": table.csrf})
    assert resp.status_code == 404


def test_a_control_name_that_is_no_element_id_is_not_echoed_into_a_header(client, table):
    table.create()
    resp = table.act(type="note", text="", _control="bad name ∆")
    assert resp.status_code == 400 and resp.headers["HX-Retarget"] == "#board-err"


def test_pages_carry_a_content_security_policy_htmx_can_live_with(client, table):
    table.create()
    csp = client.get(f"/t/{table.code}").headers["Content-Security-Policy"]
    directives = dict(d.strip().split(" ", 1) for d in csp.split(";"))
    assert directives["script-src"].startswith("'self' 'unsafe-eval'")  # hx-on handlers are compiled
    assert "'unsafe-inline'" not in directives["script-src"]
    assert "hash" not in directives["script-src"]  # no inline handler: the finish form asks by its data-ask
    assert re.search(r'id="finish" data-ask="Finish the game\?', client.get(f"/t/{table.code}").text)
    assert directives["object-src"] == "'none'" and directives["frame-ancestors"] == "'none'"
    assert "Content-Security-Policy" not in client.get("/api/systems").headers


def test_a_form_field_too_long_is_refused_before_anything_runs(client, table):
    table.create()
    resp = table.act(htmx=False, type="note", text="x" * 30_000)
    assert resp.status_code == 400 and b"too long" in resp.data


# --- stored rolls: d20 recomputes them from their dice -------------------------------------------

@pytest.mark.parametrize("expr", ["2d6+1", "4d6kh3", "d20", "3d6ro1", "2d6e6", "1d%", "8d6kl2+1d4-1"])
def test_a_stored_roll_replays_from_its_dice(expr):
    for _ in range(50):
        rolled = dice.roll(expr)
        again = dice.reroll(rolled["expr"], [d["value"] for d in rolled["dice"]])
        assert (again["total"], again["dice"]) == (rolled["total"], rolled["dice"])


def test_a_stored_roll_with_impossible_dice_is_refused():
    with pytest.raises(RuleError, match="d6 cannot show 99"):
        dice.reroll("1d6", [99])
    with pytest.raises(RuleError, match="more dice"):
        dice.reroll("1d6", [1, 2])
    with pytest.raises(RuleError, match="fewer dice"):
        dice.reroll("2d6", [1])
    assert dice.roll("1d6")["total"] in range(1, 7)  # and live rolls are random again afterwards


def test_an_htmx_form_refused_by_the_gate_shows_the_sentence_next_to_it(client, table):
    table.create()
    resp = table.act(type="add-tracker", _control="add-tracker", **{"spec.label": "x" * 30_000})
    assert resp.status_code == 400 and resp.headers["HX-Retarget"] == "#add-tracker-err"
    assert b"too long" in resp.data and b"<html" not in resp.data
