"""A long import never holds the host's one write lock for long, and a read never waits for a
write (issue 30 item 6): an import of 20,000 events held the lock ~2 s, and every other table's
taps and polls (a poll keeps the board it drew) waited behind it."""
from __future__ import annotations

import contextlib
import fcntl
import os
import random
import threading

import pytest

from companion import replay, store
from companion.actions import Ctx
from companion.content import default_systems

ENGINES = ("sqlite", "postgresql")  # the tests here run on both (tests/conftest.py, issue 39)

FREEFORM = default_systems()["freeform"]


def _long_game(db, moves: int) -> str:
    ctx = Ctx(system=FREEFORM, rng=random.Random(5), seat="Anna", side="Side A")
    code = store.create(db, FREEFORM, {"name": "Long"}, ctx)["code"]
    store.act(db, code, {"type": "add-unit", "name": "Victory", "side": "Side A", "hp": 999}, ctx)
    for n in range(moves):
        store.act(db, code, {"type": "adjust", "unit": "u1", "tracker": "hp", "by": 1 if n % 2 else -1}, ctx)
    return code


def _counts(db) -> tuple:
    return tuple(db.execute(f"select count(*) from {t}").fetchone()[0] for t in ("tables", "events", "snapshots"))


def test_an_import_replays_in_slices_each_its_own_short_transaction(tmp_path, monkeypatch):
    db = store.open_db(tmp_path / "i.sqlite")
    original = _long_game(db, 700)
    doc = replay.export(db, original)
    per_transaction, depth = [], []
    real_lock, real_event = replay.write_lock, replay._replay_event

    @contextlib.contextmanager
    def counted(db_, *a, **kw):
        with real_lock(db_, *a, **kw):
            depth.append(0)
            yield
            per_transaction.append(depth.pop())

    def event(*a, **kw):
        depth[-1] += 1
        return real_event(*a, **kw)
    monkeypatch.setattr(replay, "write_lock", counted)
    monkeypatch.setattr(replay, "_replay_event", event)
    copy = replay.import_table(db, doc, default_systems())
    assert sum(per_transaction) == len(doc["events"]) == 702
    assert max(per_transaction) <= replay.IMPORT_SLICE < len(doc["events"])
    assert store.table(db, copy["code"])["state"] == store.table(db, original)["state"]


def test_an_import_refused_in_a_later_slice_leaves_nothing_stored(tmp_path):
    db = store.open_db(tmp_path / "r.sqlite")
    doc = replay.export(db, _long_game(db, 600))
    doc["events"][550]["payload"]["by"] = "lots"  # a slice or two in: the slices before are committed
    before = _counts(db)
    try:
        replay.import_table(db, doc, default_systems())
    except replay.RuleError as exc:
        assert "does not replay" in exc.message or "by" in exc.message
    else:
        raise AssertionError("a damaged import was taken")
    assert _counts(db) == before


@pytest.mark.sqlite_only  # (holds SQLite's flock as another worker would)
def test_a_page_drawn_for_the_first_time_does_not_wait_for_another_writer(app, table, client):
    """The test holds the write lock as another worker would; a page drawn for the first time at
    this seq (the battle report, kept for the next phones like a board) is answered all the same,
    without being kept."""
    code = table.create()
    table.act(type="add-unit", name="Victory", hp="5")
    lock = os.open(app.config["DATABASE"] + ".lock", os.O_RDWR | os.O_CREAT, 0o600)
    fcntl.flock(lock, fcntl.LOCK_EX)
    answered = {}

    def poll():
        resp = client.get(f"/t/{code}/report")
        answered["status"], answered["board"] = resp.status_code, b"Victory" in resp.data
    try:
        waiting = threading.Thread(target=poll, daemon=True)
        waiting.start()
        waiting.join(20)  # a read that waited for the lock would still be waiting
        assert answered == {"status": 200, "board": True}
    finally:
        fcntl.flock(lock, fcntl.LOCK_UN)
        os.close(lock)
