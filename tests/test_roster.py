"""Who sits at a table (issue 28 §4): a join is an event of its own, outside the undo chain; the
roster (store.seated) is read from the log; export and import carry it."""
from __future__ import annotations

import re

import pytest

from companion import replay, store
from companion.db import get_db, systems
from companion.errors import RuleError


def join(app, table, name, side=None, spectator=False):
    """A phone joins through the join page (its form, its cookie)."""
    player, watcher = table.secrets()
    phone = app.test_client()
    url = f"/t/{table.code}/join/{watcher if spectator else player}"
    token = re.search(r'name="csrf_token" value="([^"]+)"', phone.get(url).data.decode()).group(1)
    resp = phone.post(url, data={"csrf_token": token, "seat": name, "side": side or ""})
    assert resp.status_code == 303, resp.data
    return phone


def log(app, code):
    with app.app_context():
        return store.events(get_db(), code)


def seated(app, code):
    with app.app_context():
        return [(s["name"], s["side"], s["role"]) for s in store.seated(get_db(), code)]


def test_a_join_is_one_event_and_the_same_seat_again_writes_none(app, table):
    table.create(seat="Ann", side="Side A")
    before = log(app, table.code)
    join(app, table, "Ben", "Side B")
    after = log(app, table.code)
    assert len(after) == len(before) + 1
    ev = after[-1]
    assert (ev["type"], ev["seat"], ev["side"], ev["label"]) == ("join", "Ben", "Side B", "Ben joined (Side B)")
    assert ev["payload"] == {"type": "join", "name": "Ben", "side": "Side B", "role": "player"}
    # the table's seq moved: every phone's poll and live stream carry it
    with app.app_context():
        assert store.table_seq(get_db(), table.code) == ev["seq"]
        assert store.table(get_db(), table.code)["state"] == store.table(get_db(), table.code)["state"]
    # the same name from another phone asks for that seat back (issue 37): an ask, and no seat moves
    join(app, table, "Ben", "Side B")
    asked = log(app, table.code)
    assert len(asked) == len(after) + 1 and asked[-1]["label"] == "Ben asks to sit with Side B"
    assert ("Ben", "Side B", "player") in seated(app, table.code)
    # a phone already seated opens the join link again: it goes to its board, nothing written
    assert table.client.get(f"/t/{table.code}/join/{table.secrets()[0]}").status_code == 303
    assert len(log(app, table.code)) == len(asked)


def test_a_join_changes_no_state(app, table):
    table.create(seat="Ann")
    state = table.state()
    join(app, table, "Ben", "Side B")
    assert table.state() == state


def test_the_roster_is_one_seat_per_name_in_join_order_the_latest_join_winning(app, table):
    table.create(seat="Ann")  # no side chosen: the host sits on the first side, as the lobby seats her
    join(app, table, "Ben", "Side B")
    join(app, table, "Cleo", spectator=True)
    # Ben's name from another phone on the other side: names are unique per table (issue 37)
    player, _ = table.secrets()
    phone = app.test_client()
    url = f"/t/{table.code}/join/{player}"
    token = re.search(r'name="csrf_token" value="([^"]+)"', phone.get(url).data.decode()).group(1)
    resp = phone.post(url, data={"csrf_token": token, "seat": "ben", "side": "Side A"})
    assert resp.status_code == 400 and "already called Ben" in resp.data.decode()
    assert seated(app, table.code) == [("Ann", "Side A", "player"), ("Ben", "Side B", "player"),
                                       ("Cleo", None, "spectator")]
    types = [e["type"] for e in log(app, table.code)]
    assert types.count("join") == 2


def test_a_newcomer_is_offered_the_side_with_fewest_seats_joined(app, table):
    table.create(seat="Ann", side="Side A")
    table.act(**{"type": "note", "text": "Ann has acted"})
    join(app, table, "Ben", "Side B")
    join(app, table, "Cleo", "Side A")
    join(app, table, "Dan", "Side B")
    join(app, table, "Eve", "Side B")  # Ben, Dan and Eve joined Side B without acting yet
    player, _ = table.secrets()
    form = app.test_client().get(f"/t/{table.code}/join/{player}").data.decode()
    assert re.search(r'value="Side A"\s+checked', form), form


def test_undo_after_a_join_undoes_the_last_real_move_and_never_names_the_join(app, table):
    table.create(seat="Ann")
    table.act(type="add-unit", name="Nimitz", side="Side A", **{"stats.hp": "10"})
    join(app, table, "Ben", "Side B")
    with app.app_context():
        assert store.history(get_db(), table.code)["undo"] == "Ann: Nimitz joins Side A"
    board = table.client.get(f"/t/{table.code}").data.decode()
    assert "joined" not in re.search(r'<form[^>]*id="undo".*?</form>', board, re.S).group(0)
    assert table.undo().status_code == 200
    assert "u1" not in table.state()["units"]
    events = log(app, table.code)
    assert events[-1]["type"] == "undo" and events[-1]["label"] == "undo: Nimitz joins Side A"
    assert [e for e in events if e["type"] == "join"][0]["withdrawn"] is False
    # nothing left to undo: the join is not a move (and the table's set-up never is)
    with app.app_context():
        assert store.history(get_db(), table.code) == {"undo": None, "redo": "Ann: Nimitz joins Side A"}
        # a join between an undo and its redo leaves the redo there
        join(app, table, "Cleo", "Side B")
        assert store.history(get_db(), table.code)["redo"] == "Ann: Nimitz joins Side A"
    assert table.undo(redo=True).status_code == 200
    assert "u1" in table.state()["units"]


def test_a_join_cannot_be_taken_back(app, table):
    table.create(seat="Ann")
    join(app, table, "Ben", "Side B")
    seq = log(app, table.code)[-1]["seq"]
    resp = table.client.post(f"/t/{table.code}/take-back", data={"csrf_token": table.csrf, "targets": str(seq)})
    assert resp.status_code == 400 and "not a move in force" in resp.data.decode(), resp.data.decode()[-1500:]
    page = table.client.get(f"/t/{table.code}/log").data.decode()
    entry = re.search(rf'<li id="e{seq}".*?</li>', page, re.S).group(0)
    assert "Ben joined (Side B)" in entry and "Take back" not in entry


def test_the_report_timeline_leaves_joins_out(app, table):
    table.create(seat="Ann")
    table.act(**{"type": "note", "text": "Opening shots"})
    join(app, table, "Ben", "Side B")
    page = table.client.get(f"/t/{table.code}/report").data.decode()
    assert "Opening shots" in page and "joined" not in page


def test_export_and_import_carry_the_joins(app, table):
    table.create(seat="Ann")
    table.act(**{"type": "note", "text": "one"})
    join(app, table, "Ben", "Side B")
    join(app, table, "Cleo", spectator=True)
    table.act(**{"type": "note", "text": "two"})
    with app.app_context():
        db = get_db()
        doc = replay.export(db, table.code)
        assert [e["type"] for e in doc["events"]].count("join") == 2
        copy = replay.import_table(db, doc, systems())["code"]
        assert store.seated(db, copy) == store.seated(db, table.code)
        keep = ("seq", "seat", "side", "type", "label", "payload")
        assert [{k: e[k] for k in keep} for e in replay.export(db, copy)["events"]] == \
            [{k: e[k] for k in keep} for e in doc["events"]]
        # a hand-edited join is refused, naming the event
        bad = {**doc, "events": [dict(e) for e in doc["events"]]}
        at = next(i for i, e in enumerate(bad["events"]) if e["type"] == "join")
        bad["events"][at]["payload"] = {**bad["events"][at]["payload"], "side": "Side Q"}
        with pytest.raises(RuleError, match=rf"Event {at + 1} \(join\).*sides"):
            replay.import_table(db, bad, systems())


def test_a_table_without_joins_works_with_its_host_alone(app, table):
    """A table made before joins were recorded: the roster is its creator's seat."""
    table.create(seat="Ann")
    with app.app_context():
        db = get_db()
        assert [e["type"] for e in store.events(db, table.code)] == ["create-table"]
        assert store.seated(db, table.code) == [{"name": "Ann", "side": "Side A", "role": "player", "seq": 1}]


def test_a_finished_table_records_no_join(app, table):
    table.create(seat="Ann")
    table.act(**{"type": "finish", "result": "Side A wins"})
    before = len(log(app, table.code))
    player, _ = table.secrets()
    phone = app.test_client()
    url = f"/t/{table.code}/join/{player}"
    token = re.search(r'name="csrf_token" value="([^"]+)"', phone.get(url).data.decode()).group(1)
    resp = phone.post(url, data={"csrf_token": token, "seat": "Ben", "side": "Side B"})
    assert resp.status_code == 400 and "game is finished" in resp.data.decode()
    assert len(log(app, table.code)) == before


def test_the_feed_carries_a_join_and_the_same_hit_question_looks_past_it(app, table):
    from companion import feed, same_hit
    from companion.actions import Ctx
    table.create(seat="Ann")
    table.act(type="add-unit", name="Nimitz", side="Side B", **{"stats.hp": "10"})
    with app.app_context():
        db, system = get_db(), systems()["freeform"]
        anna = Ctx(system=system, rng=None, seat="Ann", side="Side A")
        ben = Ctx(system=system, rng=None, seat="Ben", side="Side B")
        store.act(db, table.code, {"type": "adjust", "unit": "u1", "tracker": "hp", "by": -1}, anna)
        store.join(db, table.code, "Ben", "Side B", "player")
        mine = store.act(db, table.code, {"type": "adjust", "unit": "u1", "tracker": "hp", "by": -1}, ben)
        other = same_hit.earlier_same(db, mine["row"]["id"], mine["seq"])
        assert other is not None and other["seat"] == "Ann"
        sent = "".join(feed.stream(app.config["DATABASE"], table.code, None, 0, keep_alive=0.05, lifetime=0.2))
    assert '"type":"join","label":"Ben joined (Side B)","seat":"Ben","side":"Side B"' in sent


def test_dreadnaught_set_up_names_every_seat_joined_on_a_side(app, table):
    import html
    table.create(system="dreadnaught", name="Planet 7", seat="Ann")
    join(app, table, "Ben", "Attacker")  # Ann holds the Attacker: Ben waits until she lets him in
    assert table.client.post(f"/t/{table.code}/asks", data={"csrf_token": table.csrf, "name": "Ben",
                                                              "answer": "allow"}).status_code == 303
    join(app, table, "Cleo", "Defender")
    join(app, table, "Dan", spectator=True)
    form = html.unescape(table.client.get(f"/t/{table.code}", headers={"HX-Request": "true"}).data.decode())
    assert 'name="names.Attacker" value="Ann & Ben"' in form
    assert 'name="names.Defender" value="Cleo"' in form
    assert '<h2>Defender <small class="seated">Cleo</small></h2>' in form  # the side heading too


def test_an_api_creator_named_with_extra_spaces_is_seated_without_an_error(client):
    resp = client.post("/api/tables", json={"system": "freeform", "name": "API table", "seat": "  Big   Bob "})
    assert resp.status_code == 201, resp.data
    code = resp.get_json()["code"]
    with client.application.app_context():
        assert [s["name"] for s in store.seated(get_db(), code)] == ["Big Bob"]
        assert [e["type"] for e in store.events(get_db(), code)] == ["create-table"]


def test_an_api_client_that_names_no_seat_sits_nobody_down(app):
    """A program that creates a table through the API naming no seat is not a player at the table:
    Dreadnaught's set-up must not name the Attacker "API" (seen in a screenshot)."""
    client = app.test_client()
    made = client.post("/api/tables", json={"system": "dreadnaught", "name": "Planet 7"}).get_json()
    db = store.open_db(app.config["DATABASE"])
    assert store.seated(db, made["code"]) == []
    named = client.post("/api/tables", json={"system": "freeform", "name": "Harbour", "seat": "Anna"}).get_json()
    assert [s["name"] for s in store.seated(db, named["code"])] == ["Anna"]
