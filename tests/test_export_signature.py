"""Signed exports (issue 30, smaller): an import says whether the file is this server's own export,
unchanged, or was edited / made elsewhere, and the table remembers it; neither is refused."""
from __future__ import annotations

import copy
import io
import json

import pytest

from companion import create_app, export_signature
from companion.db import get_db

OWN = "This is this server's own export, unchanged."
NOT_OWN = "Not signed by this server: the file was edited or made elsewhere; its dice are taken as they are written."


@pytest.fixture
def exported(client):
    """A Freeform game with a pool the server rolled (30 dice at 4+), exported through the API."""
    made = client.post("/api/tables", json={"system": "freeform", "name": "Signed"}).get_json()
    headers = {"Authorization": "Bearer " + made["seat_token"]}
    for action in ({"type": "pool", "dice": 30, "target": 4}, {"type": "roll", "expr": "2d6"}):
        assert client.post(f"/api/tables/{made['code']}/actions", json=action, headers=headers).status_code == 200
    return client.get(f"/api/tables/{made['code']}/export", headers=headers).get_json()


def _import(client, doc) -> dict:
    resp = client.post("/api/tables/import", json=doc)
    assert resp.status_code == 201, resp.get_json()  # never refused for its signature
    answer = resp.get_json()
    with client.application.app_context():
        answer["row"] = get_db().execute("select imported from tables where code = ?", [answer["code"]]).fetchone()[0]
    return answer


def _missed_die(doc) -> list:
    """The pool's dice and the index of one that missed (1-3 at 4+)."""
    pool = next(e for e in doc["events"] if e["type"] == "pool")["payload"]["result"]["dice"]
    return pool, next(i for i, v in enumerate(pool) if v <= 3)


def test_an_export_imported_again_is_this_servers_own(client, exported):
    assert exported["signature"]["alg"] == "HMAC-SHA256"
    answer = _import(client, exported)
    assert answer["signed"] is True and answer["import_note"] == OWN
    assert answer["row"] == export_signature.OWN


def test_a_one_character_edit_to_a_die_is_not_signed(client, exported):
    doc = copy.deepcopy(exported)
    dice, i = _missed_die(doc)
    dice[i] = 2 if dice[i] != 2 else 3  # still a miss: the replay finds nothing wrong with it
    before, after = json.dumps(exported), json.dumps(doc)
    assert len(before) == len(after) and sum(a != b for a, b in zip(before, after)) == 1
    answer = _import(client, doc)
    assert answer["signed"] is False and answer["import_note"] == NOT_OWN
    assert answer["row"] == export_signature.OTHER


def test_an_edited_file_stays_not_signed_when_exported_again(client, exported):
    """Import an edited file, export the new table (the server signs it), import that: the dice
    still came from the edited file, and the signed ``imported`` field says so."""
    doc = copy.deepcopy(exported)
    dice, i = _missed_die(doc)
    dice[i] = 2 if dice[i] != 2 else 3
    first = _import(client, doc)
    headers = {"Authorization": "Bearer " + first["seat_token"]}
    again = client.get(f"/api/tables/{first['code']}/export", headers=headers).get_json()
    assert again["imported"] == export_signature.OTHER
    assert _import(client, again)["signed"] is False
    assert _import(client, {**again, "imported": None})["signed"] is False  # and it cannot be dropped
    own = _import(client, exported)  # while this server's own export, exported again, stays its own
    headers = {"Authorization": "Bearer " + own["seat_token"]}
    assert _import(client, client.get(f"/api/tables/{own['code']}/export", headers=headers).get_json())["signed"]


def test_another_servers_export_is_not_signed(client, exported, tmp_path):
    other = create_app({"TESTING": True, "DATABASE": str(tmp_path / "other.sqlite"), "SECRET_KEY": "another-key"})
    answer = _import(other.test_client(), exported)
    assert answer["signed"] is False and answer["import_note"] == NOT_OWN


@pytest.mark.parametrize("spoil", [
    lambda s: s.update(value=s["value"][:-1] + ("0" if s["value"][-1] != "0" else "1")),
    lambda s: s.update(value=s["value"].upper()),
    lambda s: s.update(alg="HMAC-SHA1"),
    lambda s: s.update(value=None),
    lambda s: s.clear(),
], ids=["last-digit", "upper-case", "alg", "no-value", "empty"])
def test_a_tampered_signature_is_not_signed(client, exported, spoil):
    doc = copy.deepcopy(exported)
    spoil(doc["signature"])
    answer = _import(client, doc)
    assert answer["signed"] is False and answer["import_note"] == NOT_OWN


def test_no_signature_or_a_signature_moved_to_another_file_is_not_signed(client, exported):
    doc = {k: v for k, v in exported.items() if k != "signature"}
    assert _import(client, doc)["signed"] is False
    doc = copy.deepcopy(exported)
    doc["name"] = "Signed too"  # the same signature on another document
    assert _import(client, doc)["signed"] is False


def test_the_boards_file_signs_the_same_way_and_the_lobby_says_it(client, table):
    """The board's Export link (indented JSON, a file) and the lobby's upload: the answer's page
    and the table's own pages (board, log, battle report) say where the table came from."""
    table.create()
    table.act(type="roll", expr="3d6")
    text = client.get(f"/t/{table.code}/export").data
    for body, words in ((text, OWN), (text.replace(b'"name": "Test table"', b'"name": "Test tablf"'), NOT_OWN)):
        resp = client.post("/tables/import", data={"csrf_token": table.csrf, "seat": "Anna",
                                                    "file": (io.BytesIO(body), "t.json")},
                           content_type="multipart/form-data")
        assert resp.status_code == 303
        page = client.get(resp.headers["Location"]).data.decode()
        assert page.count(words.replace("'", "&#39;")) == 2  # the flash and the table's card
        code = resp.headers["Location"].split("?")[0].split("/")[2]
        for path in (f"/t/{code}/log", f"/t/{code}/report"):
            assert words.replace("'", "&#39;") in client.get(path).data.decode(), path
    assert "Imported" not in client.get(f"/t/{table.code}").data.decode()  # made here
