"""Hidden information per side (core): a sealed order is readable by its side only, on every path.

Each test plays a real table through the HTML forms and the API, then searches the raw response
bodies of every output path for the secret text, as the other side and as a spectator.
"""
from __future__ import annotations

import html
import json
import re

import pytest

from companion import actions, create_app, hidden, store
from companion.content import default_systems
from companion.store import schema
from tests.conftest import TableActions
from tests.table_actions import seat_token, sit

SECRET = "Evasive-Actions-ZQX7"  # unusual enough that any occurrence is the leak


class Phone(TableActions):
    """One more phone at the table: joins by the player (or spectator) QR with a name and side."""

    def join(self, code, secret, name, side=""):
        """Seated from the store's secrets, as the join page seats (tests/test_lobby.py tests that page)."""
        self.code = code
        sit(self.client, code, secret, name, side or None)
        return self


@pytest.fixture
def sealed_table(app, table):
    """Red (Anna) seals an order for her ship; Blue (Ben) and a spectator have joined."""
    table.create(seat="Anna", side="Red", sides="Red,Blue")
    table.act(do="add-unit", name="Falcon", side="Red", hp=10)
    table.act(do="add-unit", name="Raven", side="Blue", hp=10)
    resp = table.act(do="seal unit=u1", text=SECRET, _control="seal-u1")
    assert resp.status_code == 200, resp.data
    player, spectator = table.secrets()
    blue = Phone(app.test_client()).join(table.code, player, "Ben", "Blue")
    watcher = Phone(app.test_client()).join(table.code, spectator, "Sam")
    return {"red": table, "blue": blue, "spectator": watcher, "player": player, "spectator_secret": spectator}


def bodies(phone: TableActions, bearer: str | None = None, side: str | None = None) -> dict[str, str]:
    """The raw body of every output path, as this phone (or as an API caller with a secret)."""
    code = phone.code
    headers = {"Authorization": f"Bearer {bearer}"} if bearer else {}
    if side:
        headers["X-Side"] = side
    paths = [f"/t/{code}", f"/t/{code}/poll?seq=0", f"/t/{code}/log", f"/t/{code}/report",
             f"/t/{code}/export", f"/t/{code}/tools/add", f"/t/{code}/tools/rosters", f"/t/{code}/tools/game",
             f"/api/tables/{code}", f"/api/tables/{code}/events", f"/api/tables/{code}/export",
             f"/t/{code}/card/u1"]
    out = {}
    for path in paths:
        # the board and the poll as a phone with every unit row open: each card is in them
        # (companion/board), and so is what a card shows of a sealed order
        resp = phone.client.get(path + ("?open=*" if path == f"/t/{code}" else ""),
                                headers={**headers, "HX-Request": "true", "X-Open-Units": "*"} if "poll" in path else headers)
        out[path] = resp.data.decode()
    return out


def every_get_route(app, code: str) -> list[str]:
    """Every GET page of a table that needs only its code: a new output path is searched too."""
    out = []
    for rule in app.url_map.iter_rules():
        if "GET" in rule.methods and set(rule.arguments) == {"code"}:
            out.append(rule.rule.replace("<code>", code))
    return out


def test_the_sealing_side_reads_its_order_everywhere(sealed_table):
    red = sealed_table["red"]
    seen = bodies(red)
    assert SECRET in seen[f"/t/{red.code}"]
    assert SECRET in seen[f"/api/tables/{red.code}/export"]
    assert SECRET in seen[f"/api/tables/{red.code}"]
    assert "Anna</small> <span>sealed an order for Falcon" in seen[f"/t/{red.code}/log"]


@pytest.mark.parametrize("who", ["blue", "spectator"])
def test_other_side_and_spectator_find_nothing_on_any_path(app, sealed_table, who):
    phone = sealed_table[who]
    seen = bodies(phone)
    for path in every_get_route(app, phone.code):
        seen[path + " (plain)"] = phone.client.get(path).data.decode()
    assert len(seen) >= 11
    leaks = [path for path, body in seen.items() if SECRET in body]
    assert leaks == []
    board = seen[f"/t/{phone.code}"]
    assert "Sealed order" in board and "Anna" in board  # that something was sealed, by whom
    assert "Anna</small> <span>sealed an order for Falcon" in seen[f"/t/{phone.code}/log"]  # and for which unit
    state = json.loads(seen[f"/api/tables/{phone.code}"])["state"]
    assert state["sealed"]["s1"] == {**state["sealed"]["s1"], "side": "Red", "unit": "u1", "secret": None,
                                     "redacted": True}


def test_api_secrets_see_only_their_own_side(app, sealed_table):
    red, player, spectator = sealed_table["red"], sealed_table["player"], sealed_table["spectator_secret"]
    caller = TableActions(app.test_client())  # no seat cookie: only the Bearer secret counts
    caller.code = red.code
    blue_token = seat_token(sealed_table["blue"].client, red.code)
    for bearer, side in ((player, None), (player, "Red"), (spectator, None), (spectator, "Red"), (blue_token, None),
                         (blue_token, "Red")):
        leaks = [path for path, body in bodies(caller, bearer, side).items()
                 if SECRET in body and not path.startswith("/t/")]
        assert leaks == [], (bearer == player, side)
    # issue 37: X-Side names no side (a side is the seat's); the seat's own token reads its side's
    named = caller.client.get(f"/api/tables/{red.code}/events", headers={"Authorization": f"Bearer {player}",
                                                                          "X-Side": "Red"})
    assert named.status_code == 403 and "X-Side is not read" in named.get_json()["error"]
    assert SECRET in caller.client.get(f"/api/tables/{red.code}/events", headers={
        "Authorization": f"Bearer {seat_token(red.client, red.code)}"}).data.decode()


def test_undo_and_redo_labels_never_hold_the_secret(sealed_table):
    red, blue = sealed_table["red"], sealed_table["blue"]
    assert red.undo().status_code == 200
    for phone in (red, blue):
        board = phone.client.get(f"/t/{phone.code}?open=*").data.decode()
        assert "Anna: sealed an order for Falcon" in board  # the redo label
        assert SECRET not in board
    assert red.undo(redo=True).status_code == 200
    log = blue.client.get(f"/t/{blue.code}/log").data.decode()
    assert "Anna</small> <span>undo: sealed an order for Falcon" in log and "Anna</small> <span>redo: sealed" in log
    assert SECRET not in log


def test_revealing_is_an_event_everybody_sees(sealed_table):
    red, blue, watcher = sealed_table["red"], sealed_table["blue"], sealed_table["spectator"]
    assert red.act(do="reveal id=s1", _control="seal-u1").status_code == 200
    for phone in (blue, watcher):
        assert SECRET in phone.client.get(f"/t/{phone.code}?open=*").data.decode()
        assert f"Falcon: sealed order revealed: {SECRET}" in phone.client.get(f"/t/{phone.code}/log").data.decode()
        assert json.loads(phone.client.get(f"/api/tables/{phone.code}").data)["state"]["sealed"]["s1"]["secret"] == \
            {"text": SECRET}
    # undoing the reveal seals the part again: the state, the reveal's log line (its label names the
    # part, the text came from the part) and the redo label hold no text (issue 30 §2)
    assert red.undo().status_code == 200
    assert SECRET not in blue.client.get(f"/t/{blue.code}/log").data.decode()
    board = blue.client.get(f"/t/{blue.code}?open=*").data.decode()
    part = re.search(r'<p class="sealed-part[^"]*" data-sealed="s1">.*?</p>', board, re.S).group(0)
    assert "Sealed order" in part and SECRET not in part
    assert json.loads(blue.client.get(f"/api/tables/{blue.code}").data)["state"]["sealed"]["s1"]["secret"] is None


def test_discarded_unread_stays_secret(sealed_table):
    red, blue = sealed_table["red"], sealed_table["blue"]
    assert red.act(do="discard-sealed id=s1", _control="seal-u1").status_code == 200
    assert "discarded unread" in blue.client.get(f"/t/{blue.code}?open=*").data.decode()
    assert not [p for p, b in bodies(blue).items() if SECRET in b]
    resp = red.act(do="reveal id=s1", _control="seal-u1")
    assert resp.status_code == 400 and "discarded unread" in resp.data.decode()


def test_another_side_cannot_seal_reveal_or_discard_for_a_side(sealed_table):
    red, blue, watcher = sealed_table["red"], sealed_table["blue"], sealed_table["spectator"]
    seq = store.table_seq(store.open_db(red.client.application.config["DATABASE"]), red.code)
    for fields, sentence in (({"do": "reveal id=s1"}, "Only Red can open what Red sealed."),
                             ({"do": "discard-sealed id=s1"}, "Only Red can open what Red sealed."),
                             ({"do": "seal unit=u1", "text": "mine now"}, "Only Red can seal orders for Falcon."),
                             ({"do": "seal unit=u2", "text": " "}, "text is required."),
                             ({"do": "reveal id=s9"}, "No sealed part 's9' at this table.")):
        resp = blue.act(_control="seal-u1", **fields)
        assert resp.status_code == 400 and html.unescape(resp.data.decode()).count(sentence) == 1, resp.data
    assert watcher.act(do="seal unit=u1", text="x").status_code == 403
    assert store.table_seq(store.open_db(red.client.application.config["DATABASE"]), red.code) == seq


def test_a_side_seals_for_its_own_units_and_reads_only_those(sealed_table):
    red, blue = sealed_table["red"], sealed_table["blue"]
    assert blue.act(do="seal unit=u2", text="Blue-Plan-K9", _control="seal-u2").status_code == 200
    assert "Blue-Plan-K9" in blue.client.get(f"/t/{blue.code}?open=*").data.decode()
    assert "Blue-Plan-K9" not in red.client.get(f"/t/{red.code}?open=*").data.decode()
    assert SECRET not in blue.client.get(f"/t/{blue.code}?open=*").data.decode()


def _import(phone, doc):
    return phone.client.post("/api/tables/import", json=doc)


def test_an_export_by_any_seat_reimports_exactly_on_this_server(app, sealed_table):
    red, blue, watcher = sealed_table["red"], sealed_table["blue"], sealed_table["spectator"]
    blue.act(do="seal unit=u2", text="Blue-Plan-K9", _control="seal-u2")
    db = store.open_db(app.config["DATABASE"])
    original = store.table(db, red.code)["state"]
    for phone in (red, blue, watcher):
        doc = json.loads(phone.client.get(f"/t/{phone.code}/export").data)
        resp = _import(phone, doc)
        assert resp.status_code == 201, resp.data
        copy = store.table(db, resp.get_json()["code"])
        assert copy["state"] == original  # every sealed text restored: the replay is exact
        log = [{"seq": e["seq"], "type": e["type"], "payload": e["payload"]} for e in store.events(db, copy["code"])]
        assert actions.fold(log) == original


def test_an_export_cannot_be_opened_elsewhere_or_altered(app, tmp_path, sealed_table):
    blue = sealed_table["blue"]
    doc = json.loads(blue.client.get(f"/t/{blue.code}/export").data)
    boxed = [e for e in doc["events"] if e["payload"].get("sealed")][0]["payload"]["sealed"]
    assert boxed["secret"] is None and boxed["box"] and SECRET not in json.dumps(doc)
    other = create_app({"TESTING": True, "DATABASE": str(tmp_path / "other.sqlite"), "SECRET_KEY": "another-key"})
    resp = other.test_client().post("/api/tables/import", json=doc)
    assert resp.status_code == 400 and "sealed by another companion server" in resp.get_json()["error"]
    box = boxed["box"]
    boxed["box"] = box[:30] + ("A" if box[30] != "A" else "B") + box[31:]
    resp = _import(blue, doc)
    assert resp.status_code == 400 and "altered" in resp.get_json()["error"]
    boxed.pop("box")
    assert _import(blue, doc).status_code == 400  # a redacted part without its box: no exact replay


def test_seal_reveal_and_discard_are_available_in_every_game():
    for slug in default_systems():
        available = actions.available(slug)
        assert {"seal", "reveal", "discard-sealed"} <= set(available), slug


def test_for_viewer_strips_only_what_the_viewer_may_not_read():
    state = {"sealed": {"s1": {"side": "Red", "secret": {"text": "a"}, "revealed": False},
                        "s2": {"side": "Blue", "secret": {"text": "b"}, "revealed": False},
                        "s3": {"side": "Blue", "secret": {"text": "c"}, "revealed": True}}}
    red = hidden.for_viewer(state, "Red")
    assert red["sealed"]["s1"]["secret"] == {"text": "a"} and red["sealed"]["s2"]["secret"] is None
    assert red["sealed"]["s3"]["secret"] == {"text": "c"}
    assert hidden.for_viewer(state, None)["sealed"]["s1"]["secret"] is None
    assert state["sealed"]["s2"]["secret"] == {"text": "b"}  # the input is not changed
    event = {"seq": 2, "payload": {"type": "seal", "sealed": {"side": "Red", "secret": {"text": "a"}}}}
    assert hidden.for_viewer([event], "Blue")[0]["payload"]["sealed"]["secret"] is None
    assert hidden.secrets_in(state) == ["a", "b"]


@pytest.mark.parametrize("slug", sorted(default_systems()))
def test_an_undone_reveal_leaves_the_text_in_no_label_on_any_path(app, client, slug):
    """seal, reveal, undo: the order is sealed again, and no label (the withdrawn reveal's, the
    undo's, the Redo button's) carries its text, in every game, on every read path (issue 30 §2)."""
    red = TableActions(client)
    red.create(system=slug, seat="Anna", side="Red", sides="Red,Blue")
    template = next(iter(default_systems()[slug].templates.values()), {})
    stats = {s["id"]: max(s["min"], 1) for s in template.get("stats", []) if "default" not in s}
    resp = client.post(f"/api/tables/{red.code}/actions", headers={"X-CSRF-Token": red.csrf}, json={
        "type": "add-unit", "name": "Falcon", "side": "Red", "stats": stats})
    assert resp.status_code == 200, resp.data
    unit = resp.get_json()["unit"]
    assert red.act(do=f"seal unit={unit}", text=SECRET, _control=f"seal-{unit}").status_code == 200
    assert red.act(do="reveal id=s1", _control=f"seal-{unit}").status_code == 200
    player, spectator = red.secrets()
    blue = Phone(app.test_client()).join(red.code, player, "Ben", "Blue")
    watcher = Phone(app.test_client()).join(red.code, spectator, "Sam")
    # while revealed, everybody reads it, in the log too (from the sealed part, not the label)
    assert SECRET in blue.client.get(f"/t/{red.code}/log").data.decode()
    assert red.undo().status_code == 200
    for phone in (blue, watcher):
        seen = bodies(phone)
        for path in every_get_route(app, phone.code):
            seen[path + " (plain)"] = phone.client.get(path).data.decode()
        assert [path for path, body in seen.items() if SECRET in body] == []
    redo = re.search(r'id="redo".*?title="([^"]*)"', blue.client.get(f"/t/{red.code}").data.decode(), re.S).group(1)
    assert html.unescape(redo) == "Anna: Falcon: sealed order revealed"
    db = store.open_db(app.config["DATABASE"])
    assert [e["label"] for e in store.events(db, red.code) if e["type"] != "join"][-2:] == \
        ["Falcon: sealed order revealed", "undo: Falcon: sealed order revealed"]


def test_reveal_labels_stored_with_the_text_lose_it_on_upgrade(app, sealed_table):
    """A database from before issue 30 §2 holds reveal labels with the text: the migration rewrites
    them (and the undo/redo labels copied from them) to name the part only."""
    red = sealed_table["red"]
    assert red.act(do="reveal id=s1", _control="seal-u1").status_code == 200
    assert red.undo().status_code == 200 and red.undo(redo=True).status_code == 200
    db = store.open_db(app.config["DATABASE"])
    old = f"Falcon: sealed order revealed: {SECRET}"
    with store.write_lock(db):
        db.conn.execute("update events set label = ? where type = 'reveal'", [old])
        db.conn.execute("update events set label = 'undo: ' || ? where type = 'undo'", [old])
        db.conn.execute("update events set label = 'redo: ' || ? where type = 'redo'", [old])
    schema.m007_reveal_labels_without_text(db)
    assert [e["label"] for e in store.events(db, red.code)][-3:] == [
        "Falcon: sealed order revealed", "undo: Falcon: sealed order revealed",
        "redo: Falcon: sealed order revealed"]


def _two_sealed_export(sealed_table):
    """Blue's export of a table where Red and then Blue sealed an order: Red's is boxed."""
    red, blue = sealed_table["red"], sealed_table["blue"]
    assert blue.act(do="seal unit=u2", text="Blue-Plan-K9", _control="seal-u2").status_code == 200
    doc = json.loads(blue.client.get(f"/t/{blue.code}/export").data)
    seals = [e for e in doc["events"] if e["payload"].get("sealed")]
    assert [bool(e["payload"]["sealed"].get("box")) for e in seals] == [True, False]
    return red, blue, doc, seals


def test_a_box_moved_into_another_event_is_refused(app, sealed_table):
    """Red's boxed order put into Blue's own seal event would import with Blue's order reading
    Red's text (issue 30 §3): each box is bound to its table, event and part."""
    red, blue, doc, (reds, blues) = _two_sealed_export(sealed_table)
    blues["payload"]["sealed"] = {**blues["payload"]["sealed"], "secret": None, "redacted": True,
                                  "box": reds["payload"]["sealed"]["box"]}
    db = store.open_db(app.config["DATABASE"])
    count = db.execute("select count(*) from tables").fetchone()[0]
    resp = _import(blue, doc)
    assert resp.status_code == 400 and "moved" in resp.get_json()["error"], resp.get_json()
    assert db.execute("select count(*) from tables").fetchone()[0] == count  # nothing stored


@pytest.mark.parametrize("spoil", ["table", "created", "seq", "side", "unit"])
def test_a_box_opens_only_where_it_was_sealed(app, sealed_table, spoil):
    red, blue, doc, (reds, _) = _two_sealed_export(sealed_table)
    assert _import(blue, json.loads(json.dumps(doc))).status_code == 201  # unchanged: imports
    if spoil in ("table", "created"):
        doc[spoil] = "ABCDEF" if spoil == "table" else "2020-01-01T00:00:00.000+00:00"
    elif spoil == "seq":  # the same box a step later in the log (a note before it)
        i = doc["events"].index(reds)
        doc["events"].insert(i, {**doc["events"][i - 1], "type": "note", "label": "x",
                                 "payload": {"type": "note", "text": "x"}})
        for n, ev in enumerate(doc["events"], start=1):
            ev["seq"] = n
    elif spoil == "side":
        reds["payload"]["sealed"]["side"] = "Blue"
    else:
        reds["payload"]["unit"] = "u2"
    resp = _import(blue, doc)
    assert resp.status_code == 400 and "moved" in resp.get_json()["error"], resp.get_json()


def test_an_export_from_before_bound_boxes_is_refused_with_a_sentence(app, sealed_table):
    red, blue, doc, (reds, _) = _two_sealed_export(sealed_table)
    part = reds["payload"]["sealed"]
    part["box"] = part["box"].removeprefix(hidden.BOX_VERSION)
    resp = _import(blue, doc)
    assert resp.status_code == 400 and "export the table again" in resp.get_json()["error"]
