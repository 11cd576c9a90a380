"""One store, two engines (issue 39): the same migrations give the same schema on SQLite and
PostgreSQL, a table exported from one imports into the other, writes at different tables do not
queue behind each other on PostgreSQL, a commit is announced with NOTIFY, and no SQL lives outside
companion/store/."""
from __future__ import annotations

import random
import re
import threading
import time
from pathlib import Path

import psycopg
import pytest

from companion import replay, store
from companion.actions import Ctx
from companion.content import default_systems

SYSTEMS = default_systems()
FREEFORM = SYSTEMS["freeform"]
ROOT = Path(__file__).resolve().parent.parent


def ctx(seat="Anna"):
    return Ctx(system=FREEFORM, rng=random.Random(1), seat=seat, side="Side A")


ENGINES = ("postgresql",)  # db_target: a PostgreSQL database of the test's own (tests/conftest.py)


def _sqlite_schema(db) -> dict:
    out = {}
    for (name,) in db.execute("select name from sqlite_master where type = 'table' and name not like '\\_%' escape '\\' "
                              "and name not like 'sqlite%'").fetchall():
        cols = db.execute(f"pragma table_info({name})").fetchall()
        out[name] = {c[1]: (c[2].lower(), bool(c[3]), c[5] > 0) for c in cols}
    indexes = {r[0] for r in db.execute("select name from sqlite_master where type = 'index' "
                                        "and name not like 'sqlite_autoindex%' and tbl_name not like '\\_%' escape '\\'").fetchall()}
    return {"tables": out, "indexes": indexes}


def _postgres_schema(db) -> dict:
    out: dict = {}
    keys = {(r[0], r[1]) for r in db.execute(
        "select tc.table_name, kcu.column_name from information_schema.table_constraints tc "
        "join information_schema.key_column_usage kcu on kcu.constraint_name = tc.constraint_name "
        "where tc.constraint_type = 'PRIMARY KEY' and tc.table_schema = 'public'").fetchall()}
    for table, col, kind, nullable in db.execute(
            "select table_name, column_name, data_type, is_nullable from information_schema.columns "
            "where table_schema = 'public' and table_name != 'companion_migrations' order by ordinal_position").fetchall():
        out.setdefault(table, {})[col] = (kind, nullable == "NO", (table, col) in keys)
    indexes = {r[0] for r in db.execute("select indexname from pg_indexes where schemaname = 'public' "
                                        "and indexname not like '%pkey'").fetchall()}
    return {"tables": out, "indexes": indexes}


def test_the_same_migrations_give_the_same_schema_on_both_engines(db_target, tmp_path):
    lite = _sqlite_schema(store.open_db(tmp_path / "schema.sqlite"))
    post = _postgres_schema(store.open_db(db_target))
    assert set(lite["tables"]) == set(post["tables"])
    for name, cols in lite["tables"].items():
        assert list(cols) == list(post["tables"][name]), name  # the same columns, in the same order
        for col, (kind, not_null, key) in cols.items():
            pg_kind, pg_not_null, pg_key = post["tables"][name][col]
            assert {"integer": "integer", "text": "text"}[kind] == pg_kind, (name, col)
            # (a key's column holds no NULL on either: SQLite does not say so of a composite key's columns)
            assert (not_null or key, key) == (pg_not_null, pg_key), (name, col)
    assert lite["indexes"] == post["indexes"]


def _play(db) -> str:
    code = store.create(db, FREEFORM, {"name": "Across engines"}, ctx())["code"]
    store.act(db, code, {"type": "add-unit", "name": "Victory", "hp": 50}, ctx())
    for by in (-3, -2, 4):
        store.act(db, code, {"type": "adjust", "unit": "u1", "tracker": "hp", "by": by}, ctx("Ben"))
    store.undo(db, code, ctx())
    store.take_back(db, code, [3], ctx())
    return code


@pytest.mark.parametrize("first", ["sqlite", "postgresql"])
def test_a_table_exported_from_one_engine_imports_into_the_other(db_target, tmp_path, first):
    lite, post = store.open_db(tmp_path / "across.sqlite"), store.open_db(db_target)
    source, target = (lite, post) if first == "sqlite" else (post, lite)
    code = _play(source)
    doc = replay.export(source, code)
    copy = replay.import_table(target, doc, SYSTEMS)["code"]
    assert store.table(target, copy)["state"] == store.table(source, code)["state"]
    keep = ("seq", "seat", "type", "label", "payload", "withdrawn")
    assert [{k: e[k] for k in keep} for e in store.events(target, copy)] == \
        [{k: e[k] for k in keep} for e in store.events(source, code)]
    for db, c in ((source, code), (target, copy)):  # undo goes on the same on both
        store.undo(db, c, ctx())
    assert store.table(target, copy)["state"] == store.table(source, code)["state"]


def test_a_move_at_one_table_does_not_wait_for_a_write_at_another(db_target):
    """On PostgreSQL a move holds its own table's lock, not the database's."""
    db = store.open_db(db_target)
    held, other = _play(db), _play(db)
    holding, release = threading.Event(), threading.Event()

    def writer():
        with store.write_lock(db, code=held):
            holding.set()
            release.wait(10)

    t = threading.Thread(target=writer)
    t.start()
    assert holding.wait(5)
    started = time.monotonic()
    store.act(db, other, {"type": "adjust", "unit": "u1", "tracker": "hp", "by": -1}, ctx())
    assert time.monotonic() - started < 1.0  # the other table's move went through at once
    late: list[float] = []
    waiter = threading.Thread(target=lambda: (store.act(db, held, {"type": "adjust", "unit": "u1", "tracker": "hp",
                                                                    "by": -1}, ctx()), late.append(time.monotonic())))
    waiter.start()
    time.sleep(0.5)
    assert late == []  # the held table's move waits for the write in progress ...
    released = time.monotonic()
    release.set()
    waiter.join(10)
    t.join(10)
    assert late and late[0] >= released  # ... and goes through right after it


def test_a_committed_move_is_announced_with_its_table_and_seq(db_target):
    db = store.open_db(db_target)
    code = _play(db)
    with psycopg.connect(db_target, autocommit=True) as listener:
        listener.execute("listen companion")
        done = store.act(db, code, {"type": "adjust", "unit": "u1", "tracker": "hp", "by": -1}, ctx())
        heard = [n.payload for n in listener.notifies(timeout=2, stop_after=1)]
        assert heard == [f"{code} {done['seq']}"]
        with pytest.raises(RuntimeError):
            with store.write_lock(db, code=code):  # a write that does not commit is not announced
                store.act(db, code, {"type": "adjust", "unit": "u1", "tracker": "hp", "by": -1}, ctx())
                raise RuntimeError
        store.delete_table(db, code)
        heard = [n.payload for n in listener.notifies(timeout=2, stop_after=1)]
        assert heard == [f"{code} -1"]


def test_a_write_notifies_nothing_inside_its_transaction(db_target):
    """A NOTIFY inside a write takes one lock of the whole database at its commit and holds it until the
    commit is on disk, so the moves of every table would commit one at a time (schema m016): the
    database announces nothing by itself, only the store's write does, once it has committed."""
    db = store.open_db(db_target)
    code = _play(db)
    with psycopg.connect(db_target, autocommit=True) as listener:
        assert listener.execute("select tgname from pg_trigger where tgrelid = 'tables'::regclass "
                                "and not tgisinternal").fetchall() == []
        listener.execute("listen companion")
        with psycopg.connect(db_target, autocommit=True) as writer:  # a seq moved by no write of the store's
            writer.execute("update tables set seq = seq + 1 where code = %s", [code])
        assert [n.payload for n in listener.notifies(timeout=0.5, stop_after=1)] == []
        done = store.act(db, code, {"type": "adjust", "unit": "u1", "tracker": "hp", "by": -1}, ctx())
        assert [n.payload for n in listener.notifies(timeout=2, stop_after=1)] == [f"{code} {done['seq']}"]


def test_a_change_whose_announcement_was_lost_is_read_within_a_second(db_target):
    """An app server killed between a move's commit and its announcement: the other servers read every
    watched table's seq each ``WHOLE_EVERY`` and so hear of the move all the same."""
    from companion.store import push
    db = store.open_db(db_target)
    code = _play(db)
    changes = push.changes_of(db_target)
    try:
        seq = changes.seqs([code], [code])[code]  # (listening from now on; the seq read once)
        with psycopg.connect(db_target, autocommit=True) as writer:  # committed, never announced
            writer.execute("update tables set seq = seq + 1 where code = %s", [code])
        seen, deadline = None, time.monotonic() + push.WHOLE_EVERY + 2
        while not seen and time.monotonic() < deadline:
            seen = changes.seqs([code], [])
            time.sleep(0.05)
        assert seen == {code: seq + 1}
    finally:
        changes.close()


SQL_CALL = re.compile(r"\.(execute|executemany|executescript|query)\(|\bimport (sqlite3|psycopg)|\bfrom (sqlite3|psycopg)")


def test_no_sql_outside_the_store():
    """Every SQL statement of the app is in companion/store/ (issue 39): a game, the board, undo and
    take-back call the store's functions."""
    found = []
    for path in sorted((ROOT / "companion").rglob("*.py")):
        if "store" in path.relative_to(ROOT / "companion").parts[:1]:
            continue
        for n, line in enumerate(path.read_text().splitlines(), 1):
            if SQL_CALL.search(line):
                found.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    assert found == []


def test_the_terminal_never_shows_the_database_password():
    from companion.cli import _shown
    assert _shown("postgresql://club:s3cr%40t@db.internal:5432/companion") == "postgresql://club:***@db.internal:5432/companion"
    assert _shown("postgresql://club@db.internal/companion") == "postgresql://club@db.internal/companion"
    assert _shown("/srv/companion.sqlite") == "/srv/companion.sqlite"
