"""Take back one past move (issue 27): from the log page, the JSON API and the store; conflicts in
words; Correct; the report counts the corrected game.  (Random play of every game takes moves back
too: tests/property_steps.py; the two-phone test is tests/browser/test_take_back_browser.py.)"""
from __future__ import annotations

import random
import re

from tests.table_actions import seat_token, token_on
from companion import report, store
from companion.actions import Ctx
from companion.content import default_systems

ENGINES = ("sqlite", "postgresql")  # the tests here run on both (tests/conftest.py, issue 39)

FREEFORM = default_systems()["freeform"]


def fleet(table):
    """Nimitz (10) and Zhukov (10) on the table; a hit on the wrong ship, then two more moves."""
    code = table.create(side="Side A")
    table.act(type="add-unit", name="Nimitz", side="Side B", **{"stats.hp": "10"})   # #2
    table.act(type="add-unit", name="Zhukov", side="Side B", **{"stats.hp": "10"})   # #3
    table.act(do="adjust unit=u1 tracker=hp by=-3", _control="unit-u1")             # #4: meant for Zhukov
    table.act(type="roll", expr="2d6")                                              # #5
    table.act(do="adjust unit=u2 tracker=hp by=-1", _control="unit-u2")             # #6
    return code


def hulls(table):
    units = table.state()["units"]
    return units["u1"]["trackers"]["hp"]["value"], units["u2"]["trackers"]["hp"]["value"]


def test_a_move_taken_back_from_the_log_leaves_the_later_moves_in_place(table, client):
    code = fleet(table)
    page = client.get(f"/t/{code}/log").data.decode()
    assert page.count("Take back this move") == 5  # every move in force but the set-up
    resp = client.post(f"/t/{code}/take-back", data={"csrf_token": table.csrf, "targets": "4", "_control": "tb-4"})
    assert resp.status_code == 303 and resp.headers["Location"].endswith(f"/t/{code}/log#e7")
    assert hulls(table) == (10, 9)  # the hit on Nimitz gone, the later hit on Zhukov still there
    page = client.get(f"/t/{code}/log").data.decode()
    assert "took back #4: Nimitz HP -3 (10 → 7)" in page and "(taken back: #7)" in page
    assert page.count("Take back this move") == 5  # #4 no longer (taken back), the take-back itself now
    board = client.get(f"/t/{code}").data.decode()
    assert "Anna: took back #4: Nimitz HP -3 (10 → 7)" in board  # the Undo button names it, on every phone
    table.undo()
    assert hulls(table) == (7, 9)  # undo of the take-back: the hit is back
    table.undo(redo=True)
    assert hulls(table) == (10, 9)


def test_a_later_move_that_no_longer_applies_is_named_and_nothing_changes(table, client):
    code = table.create(side="Side A")
    table.act(type="add-unit", name="Nimitz", side="Side B", **{"stats.hp": "10"})   # #2
    table.act(type="add-tracker", unit="u1", **{"spec.kind": "counter", "spec.label": "Flak", "spec.start": "3"})  # #3
    table.act(type="roll", expr="2d6")                                              # #4
    table.act(do="adjust unit=u1 tracker=flak by=-1", _control="unit-u1")           # #5
    before = table.state()
    resp = client.post(f"/t/{code}/take-back", data={"csrf_token": table.csrf, "targets": "3", "_control": "tb-3"})
    assert resp.status_code == 409
    page = resp.data.decode()
    assert "#5 Nimitz Flak -1 (3 → 2) no longer applies without #3: Nimitz has no tracker" in page
    assert re.search(r'name="targets" value="3 5">\s*<button class="btn">Take back #3 and #5</button>', page)
    assert table.state() == before
    resp = client.post(f"/t/{code}/take-back", data={"csrf_token": table.csrf, "targets": "3 5", "_control": "tb-3"})
    assert resp.status_code == 303
    assert "flak" not in table.state()["units"]["u1"]["trackers"]
    assert "took back #3: Nimitz gets Flak (counter) and #5: Nimitz Flak -1 (3 → 2)" in \
        client.get(f"/t/{code}/log").data.decode()


def test_correct_puts_the_same_hit_on_the_right_ship_as_one_event(table, client):
    code = fleet(table)
    page = client.get(f"/t/{code}/log").data.decode()
    assert page.count(">Correct</button>") == 2  # the two hits (not the roll, not the units)
    resp = client.post(f"/t/{code}/take-back", data={"csrf_token": table.csrf, "targets": "4", "_control": "tb-4",
                                                     "instead.unit": "u2", "instead.by": "-3"})
    assert resp.status_code == 303
    assert hulls(table) == (10, 6)  # -3 on Zhukov in its place, the later -1 on Zhukov still counted
    assert "corrected #4 to Zhukov HP -3 (10 → 7) (was Nimitz HP -3 (10 → 7))" in \
        client.get(f"/t/{code}/log").data.decode()
    resp = client.post(f"/t/{code}/take-back", data={"csrf_token": table.csrf, "targets": "6", "_control": "tb-6",
                                                     "instead.by": "0"})
    assert resp.status_code == 400 and "not 0" in resp.data.decode() and hulls(table) == (10, 6)


def test_the_json_api_takes_back_refuses_with_the_move_that_fails_and_corrects(table, client):
    code = fleet(table)
    player, spectator = table.secrets()
    auth = {"Authorization": f"Bearer {seat_token(table.client, code)}"}  # Anna's seat, as a script (issue 37)
    done = client.post(f"/api/tables/{code}/take-back", json={"targets": [6], "instead": {"by": -2}}, headers=auth)
    assert done.status_code == 200, done.get_json()
    assert done.get_json() == {"seq": 7, "label": "corrected #6 to Zhukov HP -2 (10 → 8) (was Zhukov HP -1 (10 → 9))",
                               "targets": [6]}
    assert hulls(table) == (7, 8)
    conflict = client.post(f"/api/tables/{code}/take-back", json={"targets": [2]}, headers=auth)
    assert conflict.status_code == 409  # Nimitz's arrival taken back: the hit on it cannot stand
    assert conflict.get_json() == {"error": "#3 Zhukov joins Side B no longer applies without #2: it was entered "
                                            "on the table as #2 left it.", "field": "take-back",
                                   "failed": 3, "offer": [2, 3]}
    for body, status, words in (({"targets": [1]}, 400, "set-up"), ({"targets": [99]}, 400, "#99 is not a move"),
                                ({"targets": "x"}, 400, "by their number"), ({"targets": [4], "seq": 3}, 409, "changed"),
                                ({"targets": [5], "instead": {"by": 2}}, 400, "not a tracker change"),
                                ({"targets": [4], "colour": 1}, 400, "targets, instead and seq")):
        resp = client.post(f"/api/tables/{code}/take-back", json=body, headers=auth)
        assert resp.status_code == status and words in resp.get_json()["error"], (body, resp.get_json())
    assert client.post(f"/api/tables/{code}/take-back", json={"targets": [4]},
                       headers={"Authorization": f"Bearer {spectator}"}).status_code == 403
    assert hulls(table) == (7, 8)  # none of the refusals changed anything
    events = client.get(f"/api/tables/{code}/events", headers=auth).get_json()
    assert events[5]["withdrawn"] and events[5]["taken_back"] == 7


def test_a_conflict_names_the_first_later_move_and_offers_both(table, client):
    code = table.create(side="Side A")
    auth = {"Authorization": f"Bearer {seat_token(table.client, code)}"}
    table.act(type="add-unit", name="Nimitz", **{"stats.hp": "10"})                  # #2
    table.act(type="add-tracker", unit="u1", **{"spec.kind": "counter", "spec.label": "Flak", "spec.start": "3"})  # #3
    table.act(do="adjust unit=u1 tracker=flak by=-1", _control="unit-u1")           # #4
    table.act(do="adjust unit=u1 tracker=flak by=-1", _control="unit-u1")           # #5
    resp = client.post(f"/api/tables/{code}/take-back", json={"targets": [3]}, headers=auth)
    assert resp.status_code == 409
    assert resp.get_json() == {"error": "#4 Nimitz Flak -1 (3 → 2) no longer applies without #3: "
                                        "Nimitz has no tracker 'flak'.", "field": "take-back",
                               "failed": 4, "offer": [3, 4]}
    resp = client.post(f"/api/tables/{code}/take-back", json={"targets": [3, 4]}, headers=auth)
    assert resp.status_code == 409 and resp.get_json()["offer"] == [3, 4, 5]
    assert client.post(f"/api/tables/{code}/take-back", json={"targets": [3, 4, 5]}, headers=auth).status_code == 200


def test_the_report_counts_the_corrected_game_and_lists_corrections(tmp_path):
    anna = Ctx(system=FREEFORM, rng=random.Random(1), seat="Anna", side="Side A")
    db = store.open_db(tmp_path / "r.sqlite")
    code = store.create(db, FREEFORM, {"name": "Strait"}, anna)["code"]
    store.act(db, code, {"type": "add-unit", "name": "Victory", "side": "Side A", "hp": 10}, anna)
    store.act(db, code, {"type": "add-unit", "name": "Raider", "side": "Side B", "hp": 8}, anna)
    store.act(db, code, {"type": "add-unit", "name": "Corsair", "side": "Side B", "hp": 8}, anna)
    store.act(db, code, {"type": "adjust", "unit": "u2", "tracker": "hp", "by": -3}, anna)  # #5: taken back
    store.act(db, code, {"type": "adjust", "unit": "u3", "tracker": "hp", "by": -4}, anna)  # #6: corrected to -1
    store.act(db, code, {"type": "adjust", "unit": "u2", "tracker": "hp", "by": -2}, anna)  # #7
    store.take_back(db, code, [5], anna)
    store.take_back(db, code, [6], anna, instead={"by": -1})
    r = report.build(store.table(db, code)["state"], store.events(db, code))
    assert r["sides"]["Side A"]["dealt"] == 3  # 2 + 1: the withdrawn 3 and the mistaken 4 are not damage dealt
    assert [c["seq"] for c in r["corrections"]] == [8, 9]
    assert r["corrections"][1]["label"] == "corrected #6 to Corsair HP -1 (8 → 7) (was Corsair HP -4 (8 → 4))"
    assert r["withdrawn"] == 0  # nothing undone: the two are counted as corrections
    store.undo(db, code, anna)  # the correction undone: the -4 counts again
    r = report.build(store.table(db, code)["state"], store.events(db, code))
    assert r["sides"]["Side A"]["dealt"] == 6 and [c["seq"] for c in r["corrections"]] == [8]


def test_the_report_page_lists_the_corrections(table, client):
    code = fleet(table)
    client.post(f"/t/{code}/take-back", data={"csrf_token": table.csrf, "targets": "4"})
    page = client.get(f"/t/{code}/report").data.decode()
    assert "<h2>Corrections</h2>" in page and "took back #4: Nimitz HP -3 (10 → 7)" in page
    assert re.search(r"Damage dealt</dt><dd>1</dd>", page)  # Anna (Side A) hit Zhukov once; the -3 is gone


def test_a_sealed_order_is_named_by_number_and_type_never_by_its_text(tmp_path):
    anna = Ctx(system=FREEFORM, rng=random.Random(1), seat="Anna", side="Side A")
    db = store.open_db(tmp_path / "s.sqlite")
    code = store.create(db, FREEFORM, {"name": "Fog"}, anna)["code"]
    store.act(db, code, {"type": "add-unit", "name": "Falcon", "side": "Side A", "hp": 5}, anna)
    store.act(db, code, {"type": "seal", "unit": "u1", "text": "Ram the flagship"}, anna)   # #3
    store.act(db, code, {"type": "reveal", "id": "s1"}, anna)                               # #4
    done = store.take_back(db, code, [4], anna)  # the reveal taken back: the text is sealed again
    # a reveal's own label names the part, never its text (issue 30 item 2), so it can be quoted
    assert "Ram the flagship" not in done["label"] and done["label"] == "took back #4: Falcon: sealed order revealed"
    done = store.take_back(db, code, [3], anna)
    assert done["label"] == "took back #3: (seal)"


def test_the_same_hit_tapped_on_two_phones_is_asked_about_and_taken_back_in_one_tap(app, table, client):
    """Issue 28 item 3: Anna and Ben both take 1 HP from the Nimitz within a second; Ben's answer
    asks "Anna also took 1 HP from Nimitz just now. Same hit?"; "Take mine back" leaves one hit."""
    from tests.test_hidden_information import Phone
    code = table.create(seat="Anna", side="Side A")
    table.act(type="add-unit", name="Nimitz", side="Side B", **{"stats.hp": "8"})
    player, _ = table.secrets()
    ben = Phone(app.test_client()).join(code, player, "Ben", "Side B")  # #3: Ben's join
    assert "Same hit?" not in table.act(do="adjust unit=u1 tracker=hp by=-1", _control="unit-u1").data.decode()
    answer = ben.act(do="adjust unit=u1 tracker=hp by=-1", _control="unit-u1").data.decode()
    assert "Anna also took 1 HP from Nimitz just now. Same hit?" in answer
    assert re.search(r'name="targets" value="5"><input type="hidden" name="_same_as" value="4">\s*'
                     r'<button class="btn primary">Take mine back</button>', answer)
    assert 'id="same-hit" class="same-hit" hx-swap-oob="true"' in answer and "Keep both" in answer
    assert table.state()["units"]["u1"]["trackers"]["hp"]["value"] == 6  # both counted until Ben says
    assert "Same hit?" not in ben.act(do="adjust unit=u1 tracker=hp by=-2", _control="unit-u1").data.decode()
    ben.undo()
    back = ben.client.post(f"/t/{code}/take-back", data={"csrf_token": ben.csrf, "targets": "5", "_control": "same-hit",
                                                         "_from": "board", "_same_as": "4"}, headers={"HX-Request": "true"})
    assert back.status_code == 200
    assert re.search(r'<div id="same-hit" class="same-hit" hx-swap-oob="true" aria-live="polite"></div>',
                     back.data.decode())  # the question goes
    assert table.state()["units"]["u1"]["trackers"]["hp"]["value"] == 7  # the hit counted once
    # through the API too: the answer says so
    auth = {"Authorization": f"Bearer {token_on(app, code, 'Side B', 'Cy')}"}  # a third seat's script
    done = client.post(f"/api/tables/{code}/actions", json={"type": "adjust", "unit": "u1", "tracker": "hp", "by": -1},
                       headers=auth).get_json()
    assert done["same_as"]["seat"] == "Anna" and done["same_as"]["seq"] == 4  # (Ben's was taken back)
    assert done["same_as"]["question"] == "Anna also took 1 HP from Nimitz just now. Same hit?"


def test_a_correction_that_no_longer_applies_is_named_as_the_correction(tmp_path):
    anna = Ctx(system=FREEFORM, rng=random.Random(1), seat="Anna", side="Side A")
    db = store.open_db(tmp_path / "c.sqlite")
    code = store.create(db, FREEFORM, {"name": "Flak"}, anna)["code"]
    store.act(db, code, {"type": "add-unit", "name": "Nimitz", "hp": 5}, anna)                       # #2
    store.act(db, code, {"type": "add-tracker", "unit": "u1",
                         "spec": {"id": "flak", "kind": "counter", "label": "Flak", "start": 3}}, anna)  # #3
    store.act(db, code, {"type": "adjust", "unit": "u1", "tracker": "flak", "by": -1}, anna)         # #4
    store.take_back(db, code, [4], anna, instead={"by": -2})                                          # #5
    before = store.table(db, code)
    try:
        store.take_back(db, code, [3], anna)
    except Exception as exc:  # noqa: BLE001 (the refusal is what is tested)
        refused = exc
    assert refused.failed == 5 and refused.message == (
        "#5 corrected #4 to Nimitz Flak -2 (3 → 1) (was Nimitz Flak -1 (3 → 2)) no longer applies without #3: "
        "Nimitz has no tracker 'flak'.")
    assert store.table(db, code) == before
    try:  # "take back both": the correction taken back, the mistaken #4 counts again, and fails
        store.take_back(db, code, [3, 5], anna)
    except Exception as exc:  # noqa: BLE001
        refused = exc
    assert refused.failed == 4 and refused.offer == [3, 4, 5]
    store.take_back(db, code, [3, 4, 5], anna)
    state = store.table(db, code)["state"]
    assert "flak" not in state["units"]["u1"]["trackers"]


def test_the_openapi_document_declares_the_take_back_request_the_endpoint_takes(client):
    doc = client.get("/api/openapi.json").get_json()
    post = doc["paths"]["/api/tables/{code}/take-back"]["post"]
    body = post["requestBody"]["content"]["application/json"]["schema"]
    assert set(body["properties"]) == {"targets", "instead", "seq"} and body["required"] == ["targets"]
    assert set(body["properties"]["instead"]["properties"]) == {"unit", "by"}
    assert {"failed", "offer"} <= set(post["responses"]["409"]["content"]["application/json"]["schema"]["properties"])


def test_spectators_and_finished_tables_get_no_take_back(app, table, client):
    from tests.test_hidden_information import Phone
    code = fleet(table)
    _, spectator = table.secrets()
    watcher = Phone(app.test_client()).join(code, spectator, "Sam")
    assert "Take back this move" not in watcher.client.get(f"/t/{code}/log").data.decode()
    assert watcher.client.post(f"/t/{code}/take-back", data={"csrf_token": watcher.csrf, "targets": "4"}).status_code == 403
    table.act(type="finish", result="Draw")
    assert "Take back this move" not in client.get(f"/t/{code}/log").data.decode()
    resp = client.post(f"/t/{code}/take-back", data={"csrf_token": table.csrf, "targets": "4"})
    assert resp.status_code == 409 and "finished" in resp.data.decode() and hulls(table) == (7, 9)



def test_take_mine_back_is_refused_once_the_other_hit_was_taken_back(app, table):
    """Both phones asked "Same hit?" can each take theirs back: the second is refused, so the hit
    still counts once."""
    from tests.test_hidden_information import Phone
    code = table.create(seat="Anna", side="Side A")
    table.act(type="add-unit", name="Nimitz", side="Side B", **{"stats.hp": "8"})
    player, _ = table.secrets()
    ben = Phone(app.test_client()).join(code, player, "Ben", "Side B")                   # #3: Ben's join
    table.act(do="adjust unit=u1 tracker=hp by=-1", _control="unit-u1")                   # #4
    ben.act(do="adjust unit=u1 tracker=hp by=-1", _control="unit-u1")                     # #5, asked
    table.client.post(f"/t/{code}/take-back", data={"csrf_token": table.csrf, "targets": "4"})  # Anna took hers back
    back = ben.client.post(f"/t/{code}/take-back", data={"csrf_token": ben.csrf, "targets": "5", "_control": "same-hit",
                                                         "_from": "board", "_same_as": "4"}, headers={"HX-Request": "true"})
    assert back.status_code == 400 and "yours is the one that counts now" in back.data.decode()
    assert back.headers["HX-Retarget"] == "#same-hit-err"
    assert table.state()["units"]["u1"]["trackers"]["hp"]["value"] == 7


def test_a_take_back_reaches_at_most_max_replay_moves_back(tmp_path, monkeypatch):
    from companion import take_back
    monkeypatch.setattr(take_back, "MAX_REPLAY", 5)
    anna = Ctx(system=FREEFORM, rng=random.Random(1), seat="Anna", side="Side A")
    db = store.open_db(tmp_path / "far.sqlite")
    code = store.create(db, FREEFORM, {"name": "Far"}, anna)["code"]
    store.act(db, code, {"type": "add-unit", "name": "Nimitz", "hp": 50}, anna)          # #2
    for _ in range(6):
        store.act(db, code, {"type": "adjust", "unit": "u1", "tracker": "hp", "by": -1}, anna)  # #3-#8
    before = store.table(db, code)
    try:
        store.take_back(db, code, [3], anna)
    except Exception as exc:  # noqa: BLE001
        refused = exc
    assert refused.message == "#3 is more than 5 moves back: a take-back reaches that far at most " \
                              "(undo step by step to go further)."
    assert store.table(db, code) == before
    assert store.take_back(db, code, [4], anna)["state"]["units"]["u1"]["trackers"]["hp"]["value"] == 45
