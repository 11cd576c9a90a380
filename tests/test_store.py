"""The event store: one transaction per action, nothing lost across a restart or simultaneous taps."""
from __future__ import annotations

import random
import threading

import pytest

from companion import actions, replay, store
from companion.store import chain as undo_chain
from companion.actions import Ctx
from companion.content import default_systems
from companion.errors import RuleError, Stale
from tests.table_actions import TableActions

SYSTEM = default_systems()["freeform"]


def ctx(seat="Anna"):
    return Ctx(system=SYSTEM, rng=random.Random(), seat=seat, side="Side A")


ENGINES = ("sqlite", "postgresql")  # every test here runs on both (tests/conftest.py)


@pytest.fixture
def path(db_target):
    return db_target


def new_table(db):
    code = store.create(db, SYSTEM, {"name": "Store test"}, ctx())["code"]
    store.act(db, code, {"type": "add-unit", "name": "Victory", "hp": 500}, ctx())
    return code


def _before_the_undo_chain(db) -> None:
    """Make ``db`` an old database: no chain columns, no snapshots, migration 3 not applied (closed)."""
    for column in ("link", "withdrawn", "since_snap"):
        db.execute(f"alter table events drop column {column}")
    for column in ("done_top", "undone_event"):
        db.execute(f"alter table tables drop column {column}")
    db.execute("drop table snapshots")
    db.execute("delete from _sqlite_migrations where name = 'm003_undo_chain'")
    db.conn.commit()
    db.close()


def test_everything_acknowledged_survives_a_restart(path):
    db = store.open_db(path)
    code = new_table(db)
    store.act(db, code, {"type": "adjust", "unit": "u1", "tracker": "hp", "by": -3}, ctx())
    before = store.table(db, code)
    db.close()
    again = store.open_db(path)
    after = store.table(again, code)
    assert after["state"] == before["state"] and after["seq"] == 3
    assert after["state"]["units"]["u1"]["trackers"]["hp"]["value"] == 497


def test_simultaneous_taps_from_many_phones_all_count(path):
    db = store.open_db(path)
    code = new_table(db)
    db.close()
    errors = []

    def phone(n):
        conn = store.open_db(path)
        try:
            for _ in range(10):
                store.act(conn, code, {"type": "adjust", "unit": "u1", "tracker": "hp", "by": -1}, ctx(f"P{n}"))
        except Exception as exc:  # pragma: no cover - the assertion below reports it
            errors.append(exc)
        finally:
            conn.close()

    threads = [threading.Thread(target=phone, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    db = store.open_db(path)
    row = store.table(db, code)
    assert errors == []
    assert row["state"]["units"]["u1"]["trackers"]["hp"]["value"] == 500 - 80
    assert row["seq"] == 2 + 80


def test_a_refused_action_stores_nothing(path):
    db = store.open_db(path)
    code = new_table(db)
    with pytest.raises(RuleError, match="already at its maximum"):
        store.act(db, code, {"type": "adjust", "unit": "u1", "tracker": "hp", "by": 1}, ctx())
    assert store.table(db, code)["seq"] == 2
    assert len(store.events(db, code)) == 2


def test_undo_of_a_roll_keeps_it_in_the_log_as_withdrawn_and_redo_restores_it(path):
    db = store.open_db(path)
    code = new_table(db)
    rolled = store.act(db, code, {"type": "roll", "expr": "3d6"}, ctx())
    store.undo(db, code, ctx("Ben"))
    roll_event = [e for e in store.events(db, code) if e["type"] == "roll"][0]
    assert roll_event["withdrawn"] and roll_event["payload"]["total"] == rolled["payload"]["total"]
    assert store.history(db, code)["redo"] == f"Anna: {rolled['label']}"
    store.undo(db, code, ctx("Ben"), redo=True)
    assert not [e for e in store.events(db, code) if e["type"] == "roll"][0]["withdrawn"]


def test_a_new_action_clears_redo_and_the_table_setup_cannot_be_undone(path):
    db = store.open_db(path)
    code = new_table(db)
    store.undo(db, code, ctx())  # the unit
    store.act(db, code, {"type": "note", "text": "moved on"}, ctx())
    with pytest.raises(RuleError, match="Nothing to redo"):
        store.undo(db, code, ctx(), redo=True)
    store.undo(db, code, ctx())
    with pytest.raises(RuleError, match="Nothing to undo"):
        store.undo(db, code, ctx())


def test_stale_seq_is_refused_with_409_class(path):
    db = store.open_db(path)
    code = new_table(db)
    with pytest.raises(Stale):
        store.act(db, code, {"type": "note", "text": "x"}, ctx(), expect_seq=1)


def test_export_import_makes_an_identical_table(path):
    db = store.open_db(path)
    code = new_table(db)
    store.act(db, code, {"type": "deck-load", "deck": "deck", "definition": "example"}, ctx())
    store.act(db, code, {"type": "deck-draw", "deck": "deck", "to": "unit:u1"}, ctx())
    store.act(db, code, {"type": "roll", "expr": "2d6"}, ctx())
    store.undo(db, code, ctx())
    doc = replay.export(db, code)
    copy = replay.import_table(db, doc, {"freeform": SYSTEM})
    assert copy["code"] != code
    assert copy["state"] == store.table(db, code)["state"]
    assert [(e["type"], e["label"], e["withdrawn"]) for e in store.events(db, copy["code"])] == \
        [(e["type"], e["label"], e["withdrawn"]) for e in store.events(db, code)]


@pytest.mark.parametrize("damage, message", [
    (lambda d: d.update(format="x"), "not a companion table export"),
    (lambda d: d["events"][1].update(seq=9), "Event 2 of the export is damaged"),
    (lambda d: d["events"][2]["payload"].update(by="lots"), "does not replay"),
    (lambda d: d.update(system="chess"), "Unknown system"),
])
def test_a_damaged_export_is_refused_and_creates_nothing(path, damage, message):
    db = store.open_db(path)
    code = new_table(db)
    store.act(db, code, {"type": "adjust", "unit": "u1", "tracker": "hp", "by": -1}, ctx())
    doc = replay.export(db, code)
    damage(doc)
    with pytest.raises(RuleError, match=message):
        replay.import_table(db, doc, {"freeform": SYSTEM})
    assert db.execute("select count(*) from tables").fetchone()[0] == 1


def test_an_imported_table_with_an_added_tracker_undoes_and_exports_again(path):
    """Issue: a unit given a tracker during play broke undo on the imported table, and its export
    no longer imported ("Knight already has a tracker 'wounds'"): replay must not change the events."""
    db = store.open_db(path)
    code = store.create(db, SYSTEM, {"name": "Added trackers"}, ctx())["code"]
    store.act(db, code, {"type": "add-unit", "name": "Scout", "hp": 5}, ctx())
    store.act(db, code, {"type": "add-tracker", "unit": "u1",
                         "spec": {"id": "wounds", "kind": "boxes", "count": 3, "flagged": [2]}}, ctx())
    store.act(db, code, {"type": "tracker", "unit": "u1", "tracker": "wounds", "op": "mark", "box": 0}, ctx())
    store.act(db, code, {"type": "add-tracker", "unit": "table",
                         "spec": {"id": "cond", "kind": "conditions", "options": ["Burning"]}}, ctx())
    store.act(db, code, {"type": "tracker", "unit": "table", "tracker": "cond", "op": "add", "name": "Burning"}, ctx())
    doc = replay.export(db, code)
    copy = replay.import_table(db, doc, {"freeform": SYSTEM})
    again = replay.export(db, copy["code"])
    assert [e["payload"] for e in again["events"]] == [e["payload"] for e in doc["events"]]
    for _ in range(4):  # every undo works on the imported table, as on the original
        store.undo(db, code, ctx())
        store.undo(db, copy["code"], ctx())
        assert store.table(db, copy["code"])["state"] == store.table(db, code)["state"]
    replay.import_table(db, replay.export(db, copy["code"]), {"freeform": SYSTEM})  # and it imports again


def play_with_undos(db, code, rng, steps=120):
    """Random adjusts, undos and redos: enough to cross many snapshots and undo across them."""
    for _ in range(steps):
        r = rng.random()
        try:
            if r < 0.25:
                store.undo(db, code, ctx())
            elif r < 0.35:
                store.undo(db, code, ctx(), redo=True)
            else:
                store.act(db, code, {"type": "adjust", "unit": "u1", "tracker": "hp", "by": rng.randint(-5, 5) or 1},
                          ctx())
        except RuleError:
            pass


def full_fold(db, code):
    return actions.fold([{"seq": e["seq"], "type": e["type"], "payload": e["payload"]} for e in store.events(db, code)])


def test_undo_from_snapshots_equals_the_full_fold(path, monkeypatch):
    monkeypatch.setattr(undo_chain, "SNAPSHOT_EVERY", 3)  # many snapshots, undo runs across them
    db = store.open_db(path)
    code = new_table(db)
    rng = random.Random(7)
    for _ in range(40):
        play_with_undos(db, code, rng, steps=5)
        assert store.table(db, code)["state"] == full_fold(db, code)
    for _ in range(30):  # undo all the way down, each step from a snapshot plus a short chain
        try:
            store.undo(db, code, ctx())
        except RuleError:
            break
        assert store.table(db, code)["state"] == full_fold(db, code)
    assert db.execute("select count(*) from snapshots").fetchone()[0] > 10


def test_undo_reads_a_bounded_part_of_the_log(path, monkeypatch):
    """Undo applies at most SNAPSHOT_EVERY events, however long the log."""
    db = store.open_db(path)
    code = new_table(db)
    for i in range(300):
        store.act(db, code, {"type": "adjust", "unit": "u1", "tracker": "hp", "by": -1}, ctx())
    applied = []
    real = actions.apply
    monkeypatch.setattr(actions, "apply", lambda state, payload, **kw: applied.append(1) or real(state, payload, **kw))
    store.undo(db, code, ctx())
    assert 0 < len(applied) <= undo_chain.SNAPSHOT_EVERY
    assert store.table(db, code)["state"]["units"]["u1"]["trackers"]["hp"]["value"] == 500 - 299


@pytest.mark.sqlite_only  # (a SQLite file of before: its migrations table)
def test_a_log_written_before_the_undo_chain_is_linked_by_the_migration(path):
    db = store.open_db(path)
    code = new_table(db)
    play_with_undos(db, code, random.Random(3), steps=60)
    before = store.table(db, code)["state"], store.history(db, code), store.events(db, code)
    # make it an old database: no chain columns, no snapshots, migration 3 not applied
    _before_the_undo_chain(db)
    again = store.open_db(path)
    assert (store.table(again, code)["state"], store.history(again, code), store.events(again, code)) == before
    for redo in (False, False, True, False):
        try:
            store.undo(again, code, ctx(), redo=redo)
        except RuleError:
            continue
        assert store.table(again, code)["state"] == full_fold(again, code)


START_SCRIPT = """
import os, sys, time
from companion import replay, store
open(sys.argv[2] + "." + str(os.getpid()), "w").close()  # imported and ready
while not os.path.exists(sys.argv[2]):  # all open the file at the same moment
    time.sleep(0.001)
db = store.open_db(sys.argv[1])
db.execute("select count(*) from tables").fetchone()
"""


def test_workers_starting_at_once_on_a_fresh_file_never_fail(tmp_path):
    """Several server processes opening a new database together: WAL switch and migrations are
    taken under one lock, so none dies with "database is locked"."""
    import subprocess
    import sys
    import time
    for attempt in range(3):
        path, go = tmp_path / f"fresh{attempt}.sqlite", tmp_path / f"go{attempt}"
        procs = [subprocess.Popen([sys.executable, "-c", START_SCRIPT, str(path), str(go)], stderr=subprocess.PIPE)
                 for _ in range(4)]
        deadline = time.time() + 60
        while len(list(tmp_path.glob(f"go{attempt}.*"))) < len(procs) and time.time() < deadline:
            time.sleep(0.01)
        go.touch()
        for proc in procs:
            _, err = proc.communicate(timeout=60)
            assert proc.returncode == 0, err.decode()
        assert store.open_db(path).execute("pragma journal_mode").fetchone()[0] == "wal"


def test_an_action_on_a_row_read_before_another_write_reads_the_table_again(path):
    """store.act(known=row) takes the caller's row only while it is still the table: a write in
    between (another phone's tap) is never lost under a row read before it."""
    db = store.open_db(path)
    code = new_table(db)
    read_first = store.table(db, code)
    store.act(db, code, {"type": "adjust", "unit": "u1", "tracker": "hp", "by": -10}, ctx("Ben"))
    done = store.act(db, code, {"type": "adjust", "unit": "u1", "tracker": "hp", "by": -1}, ctx(), known=read_first)
    assert done["state"]["units"]["u1"]["trackers"]["hp"]["value"] == 489
    assert store.table(db, code)["state"] == done["row"]["state"] == full_fold(db, code)
    fresh = store.table(db, code)
    done = store.act(db, code, {"type": "adjust", "unit": "u1", "tracker": "hp", "by": -1}, ctx(), known=fresh)
    assert done["row"] is fresh and fresh["seq"] == store.table(db, code)["seq"]  # taken, brought up to date
    assert store.table(db, code)["state"] == fresh["state"]


@pytest.mark.sqlite_only  # (SQLite's synchronous pragma; a PostgreSQL server syncs each commit by its own settings)
def test_every_commit_is_synced_to_the_disk_by_default(path, monkeypatch):
    """synchronous=FULL: an acknowledged move survives a power cut, not only an app crash
    (issue 30 §10); NORMAL only when the host asks for it."""
    assert store.open_db(path).execute("pragma synchronous").fetchone()[0] == 2  # FULL
    monkeypatch.setenv("COMPANION_SYNCHRONOUS", "normal")
    assert store.open_db(path).execute("pragma synchronous").fetchone()[0] == 1  # NORMAL
    monkeypatch.setenv("COMPANION_SYNCHRONOUS", "off; drop table events")
    assert store.open_db(path).execute("pragma synchronous").fetchone()[0] == 2


@pytest.mark.sqlite_only  # (a SQLite file of before: its migrations table)
def test_the_migration_and_an_import_walk_the_undo_stack_with_actions_timeline(path, monkeypatch):
    """Issue 29: ``actions.timeline`` is the one walk of undo/redo; the undo-chain migration and an
    import's check of its undo targets go through it (they once each re-implemented it)."""
    db = store.open_db(path)
    code = new_table(db)
    play_with_undos(db, code, random.Random(5), steps=30)
    log = store.events(db, code)
    walked = []
    real = actions.timeline
    monkeypatch.setattr(actions, "timeline", lambda events, each=None: walked.append(len(events)) or real(events, each))
    _before_the_undo_chain(db)
    store.open_db(path)
    assert walked == [len(log)]
    replay._check_replay(log)
    assert walked == [len(log), len(log)]
    undo = next(ev for ev in log if ev["type"] == "undo")
    bad = [dict(ev, payload={**ev["payload"], "target": 1}) if ev is undo else ev for ev in log]
    with pytest.raises(RuleError, match=f"event {undo['seq']} undos the wrong event"):
        replay._check_replay(bad)


def test_a_deleted_tables_id_is_never_given_again(path):
    """What a server keeps of a table (its boards, their steps, a seq's reads) is keyed by its id:
    a table made after the newest one was deleted, even after a restart, gets an id of its own."""
    db = store.open_db(path)
    first, newest = new_table(db), new_table(db)
    ids = {code: store.table(db, code)["id"] for code in (first, newest)}
    store.delete_table(db, newest)
    db.close()
    db = store.open_db(path)
    after = store.table(db, new_table(db))["id"]
    assert after not in ids.values() and after > max(ids.values())


def test_a_table_made_after_a_deleted_one_shows_its_own_board(client):
    """The host deletes the table just made and makes another: the new board is the new table's,
    not the deleted one's kept by the server (drawn at the same seq)."""
    phone = TableActions(client)
    old = phone.create(name="Wrong game", seat="Anna")
    assert b"Wrong game" in client.get(f"/t/{old}").data
    resp = client.post(f"/t/{old}/delete", data={"csrf_token": phone.csrf, "confirm": old})
    assert resp.status_code == 303
    new = phone.create(name="Right game", seat="Anna")
    page = client.get(f"/t/{new}").data
    assert b"Right game" in page and b"Wrong game" not in page and old.encode() not in page


def test_the_boards_undo_and_redo_lines_are_one_read_each(path):
    """What Undo and Redo would act on, as every board at every change shows it: one statement each (on
    PostgreSQL each is a round trip that holds the worker), the label of the same moves as before."""
    db = store.open_db(path)
    code = new_table(db)
    for by in (-3, -2):
        store.act(db, code, {"type": "adjust", "unit": "u1", "tracker": "hp", "by": by}, ctx())
    store.undo(db, code, ctx("Ben"))
    row = store.table(db, code)
    statements = []
    real = db.execute
    db.execute = lambda sql, *a, **k: statements.append(sql) or real(sql, *a, **k)
    try:
        log = store.board_log(db, row["id"], None, rolls=0, row=row)
    finally:
        del db.execute
    assert len(statements) == 2
    assert (log["undo"], log["undo_seq"]) == ("Anna: Victory HP -3 (500 → 497)", 3)
    assert (log["redo"], log["redo_seq"]) == ("Anna: Victory HP -2 (497 → 495)", 4)
    store.undo(db, code, ctx("Ben"))
    store.undo(db, code, ctx("Ben"))  # (the add-unit: the set-up alone is left, never undone)
    log = store.board_log(db, row["id"], None, rolls=0, row=store.table(db, code))
    assert log["undo"] is None and log["redo"] == "Anna: Victory joins Side A"


def test_an_undo_and_a_redo_read_what_they_need_once(path):
    """An Undo (and a Redo) tapped on a phone takes the row its request read when nothing was written since
    (10-100 KB of state, not read again inside the write), and reads the move it acts on once: four reads
    for an undo, three for a redo (an Undo read eight before, each a round trip on PostgreSQL).  A row
    read before another phone's move is read again, and the newest move is the one undone."""
    db = store.open_db(path)
    code = new_table(db)
    for by in (-3, -2):
        store.act(db, code, {"type": "adjust", "unit": "u1", "tracker": "hp", "by": by}, ctx())
    statements = []
    real, real_query = db.execute, db.query
    db.execute = lambda sql, *a, **k: statements.append(sql) or real(sql, *a, **k)
    db.query = lambda sql, *a, **k: statements.append(sql) or real_query(sql, *a, **k)
    reads = {}
    try:
        for kind in ("undo", "redo", "undo again"):
            known = store.table(db, code)  # (the tap's request read it)
            statements.clear()
            done = store.undo(db, code, ctx("Ben"), redo=kind == "redo", expect=4, known=known)
            reads[kind] = [s for s in statements if s.lstrip().lower().startswith(("select", "with"))
                           and "pg_advisory" not in s]  # (PostgreSQL's lock on the table: the write's own)
    finally:
        del db.execute, db.query
    assert [len(reads[kind]) for kind in ("undo", "redo", "undo again")] == [4, 3, 4], reads
    assert not any("select *" in s for kind in reads for s in reads[kind])
    assert done["target"] == 4 and store.table(db, code)["state"]["units"]["u1"]["trackers"]["hp"]["value"] == 497
    stale = dict(store.table(db, code))
    store.act(db, code, {"type": "adjust", "unit": "u1", "tracker": "hp", "by": -5}, ctx("Cleo"))  # (another phone)
    done = store.undo(db, code, ctx("Ben"), known=stale)
    assert done["target"] == 8 and done["row"]["seq"] == 9  # (Cleo's move, not the one the row named)
    assert store.table(db, code)["state"]["units"]["u1"]["trackers"]["hp"]["value"] == 497
    assert store.history(db, code)["undo"] == "Anna: Victory HP -3 (500 → 497)"
