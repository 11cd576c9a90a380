"""Lookup tables as HTML and JSON, and the JSON API as documented."""
from __future__ import annotations

import pytest
from markupsafe import escape


def test_every_table_of_every_system_renders_as_html_and_json(client):
    systems = client.get("/api/systems").get_json()
    assert {"slug": "freeform", "name": "Freeform"} in systems
    for system in systems:
        tables = client.get(f"/api/systems/{system['slug']}/tables").get_json()
        for t in tables:
            data = client.get(f"/api/systems/{system['slug']}/tables/{t['slug']}").get_json()
            assert set(data) >= {"slug", "title", "source", "columns", "rows"}
            assert all(len(row) == len(data["columns"]) for row in data["rows"])
            page = client.get(f"/systems/{system['slug']}/tables/{t['slug']}")
            assert page.status_code == 200 and str(escape(data["title"])) in page.data.decode()


def test_unknown_tables_are_404(client):
    assert client.get("/api/systems/chess/tables").status_code == 404
    assert client.get("/api/systems/freeform/tables/nope").status_code == 404


def test_roll_api(client):
    data = client.post("/api/roll", json={"expr": "2d6+1"}).get_json()
    assert data["expr"] == "2d6+1" and len(data["dice"]) == 2
    assert data["total"] == sum(d["value"] for d in data["dice"]) + 1
    resp = client.post("/api/roll", json={"expr": "2d6+"})
    assert resp.status_code == 400 and "not dice notation" in resp.get_json()["error"]


@pytest.fixture
def api_table(app):
    c = app.test_client()
    created = c.post("/api/tables", json={"system": "freeform", "name": "API", "seat": "Bot"},
                     headers={"Authorization": "Bearer x"})
    assert created.status_code == 201
    body = created.get_json()
    player = body["seat_token"]
    spectator = body["spectator_url"].rsplit("/", 1)[1]
    return app.test_client(), body["code"], {"Authorization": f"Bearer {player}", "X-Seat": "Bot"}, \
        {"Authorization": f"Bearer {spectator}"}


def test_api_actions_undo_events_and_export(api_table):
    c, code, player, spectator = api_table
    added = c.post(f"/api/tables/{code}/actions", json={"type": "add-unit", "name": "Victory", "hp": 10}, headers=player)
    assert added.status_code == 200 and added.get_json()["unit"] == "u1"
    hit = c.post(f"/api/tables/{code}/actions", json={"type": "adjust", "unit": "u1", "tracker": "hp", "by": -3},
                 headers=player).get_json()
    assert hit["seq"] == 3
    state = c.get(f"/api/tables/{code}", headers=spectator).get_json()
    assert state["state"]["units"]["u1"]["trackers"]["hp"]["value"] == 7 and state["seq"] == 3
    roll = c.post(f"/api/tables/{code}/actions", json={"type": "roll", "expr": "d20"}, headers=player).get_json()
    assert 1 <= roll["total"] <= 20
    assert c.post(f"/api/tables/{code}/undo", headers=player).get_json()["seq"] == 5
    events = c.get(f"/api/tables/{code}/events", headers=player).get_json()
    assert [e["withdrawn"] for e in events if e["type"] == "roll"] == [True]
    assert events[2]["label"] == "Victory HP -3 (10 → 7)" and events[2]["seat"] == "Bot"
    doc = c.get(f"/api/tables/{code}/export", headers=player).get_json()
    imported = c.post("/api/tables/import", json=doc, headers={"Authorization": "Bearer x"})
    assert imported.status_code == 201


def test_api_errors(api_table):
    c, code, player, spectator = api_table
    resp = c.post(f"/api/tables/{code}/actions", json={"type": "adjust", "unit": "u9", "tracker": "hp", "by": 1},
                  headers=player)
    assert resp.status_code == 400 and resp.get_json() == {"error": "No unit 'u9' at this table.", "field": "unit"}
    assert c.post(f"/api/tables/{code}/actions", json={"type": "note", "text": "x"}, headers=spectator).status_code == 403
    assert c.get(f"/api/tables/{code}", headers={"Authorization": "Bearer wrong"}).status_code == 404
    assert c.get(f"/api/tables/{code}").status_code == 404
    stale = c.post(f"/api/tables/{code}/actions", json={"type": "note", "text": "x", "seq": 0}, headers=player)
    assert stale.status_code == 409
    assert c.post(f"/api/tables/{code}/actions", data="nope", headers=player).status_code == 400
    assert c.post("/api/tables", json={"system": "chess", "name": "x"}).status_code == 400


def test_openapi_lists_every_path_and_action_type(client):
    doc = client.get("/api/openapi.json").get_json()
    assert doc["openapi"].startswith("3.")
    for path in ("/api/systems", "/api/roll", "/api/tables", "/api/tables/{code}/actions", "/api/tables/{code}/undo",
                 "/api/tables/{code}/redo", "/api/tables/{code}/events", "/api/tables/{code}/export"):
        assert path in doc["paths"]
    types = doc["paths"]["/api/tables/{code}/actions"]["post"]["requestBody"]["content"]["application/json"][
        "schema"]["properties"]["type"]["enum"]
    assert {"add-unit", "adjust", "tracker", "roll", "pool", "deck-draw", "next-phase"} <= set(types)
