"""How a SQLite server hears that a table moved (companion/store/push.py): a look after a move reads the
events written since the last look, so it names only the tables that moved; every watched table's seq is
read when that cannot tell (a deleted table, a commit that wrote no event, an event's rowid taken again)."""
from __future__ import annotations

import random

from companion import store
from companion.actions import Ctx
from companion.content import default_systems
from companion.store import push

SYSTEM = default_systems()["freeform"]


def ctx():
    return Ctx(system=SYSTEM, rng=random.Random(), seat="Anna", side="Side A")


def _table(db) -> str:
    code = store.create(db, SYSTEM, {"name": "Push"}, ctx())["code"]
    store.act(db, code, {"type": "add-unit", "name": "Victory", "hp": 500}, ctx())
    return code


def _hit(db, code: str) -> int:
    return store.act(db, code, {"type": "adjust", "unit": "u1", "tracker": "hp", "by": -1}, ctx())["seq"]


def _seq(db, code: str) -> int:
    return store.table_head(db, code)[1]


def test_a_look_after_a_move_names_only_the_tables_that_moved(tmp_path):
    db = store.open_db(str(tmp_path / "c.sqlite"))
    codes = [_table(db) for _ in range(4)]
    changes = push.SQLiteChanges(str(tmp_path / "c.sqlite"))
    assert changes.seqs(codes, codes) == {code: _seq(db, code) for code in codes}  # the first look: all of them
    assert changes.seqs(codes, []) is None  # nothing committed since
    moved = _hit(db, codes[2])
    _hit(db, codes[2])
    other = _hit(db, codes[0])
    assert changes.seqs(codes, []) == {codes[2]: moved + 1, codes[0]: other}
    assert changes.seqs(codes, []) is None


def test_a_deleted_table_is_gone_at_the_next_look(tmp_path):
    db = store.open_db(str(tmp_path / "c.sqlite"))
    codes = [_table(db) for _ in range(3)]
    changes = push.SQLiteChanges(str(tmp_path / "c.sqlite"))
    changes.seqs(codes, codes)
    store.delete_table(db, codes[1])  # (no event written: every seq is read)
    found = changes.seqs(codes, [])
    assert found[codes[1]] == push.GONE and found[codes[0]] == _seq(db, codes[0])


def test_a_move_after_the_newest_events_were_deleted_is_heard(tmp_path):
    """The events' rowids are taken again once the newest are deleted (their table gone): a move then
    writes an event below the last look's mark, and is heard all the same."""
    db = store.open_db(str(tmp_path / "c.sqlite"))
    first, newest = _table(db), _table(db)
    for _ in range(5):
        _hit(db, newest)
    changes = push.SQLiteChanges(str(tmp_path / "c.sqlite"))
    changes.seqs([first, newest], [first, newest])
    store.delete_table(db, newest)
    assert changes.seqs([first], []) == {first: _seq(db, first)}  # (the deletion: every seq read)
    for _ in range(3):  # each event below the old mark
        seq = _hit(db, first)
        assert changes.seqs([first], []) == {first: seq}


def test_a_commit_that_moves_a_seq_without_an_event_is_heard(tmp_path):
    db = store.open_db(str(tmp_path / "c.sqlite"))
    code = _table(db)
    changes = push.SQLiteChanges(str(tmp_path / "c.sqlite"))
    changes.seqs([code], [code])
    with store.write_lock(db):
        db.conn.execute("update tables set seq = seq + 1 where code = ?", [code])
    assert changes.seqs([code], []) == {code: _seq(db, code)}


def test_every_watched_seq_is_read_again_at_least_every_whole_every(tmp_path, monkeypatch):
    """A table deleted in the same moment as another's move (the events' read alone finds the move) is
    told gone within WHOLE_EVERY all the same."""
    db = store.open_db(str(tmp_path / "c.sqlite"))
    codes = [_table(db) for _ in range(2)]
    changes = push.SQLiteChanges(str(tmp_path / "c.sqlite"))
    changes.seqs(codes, codes)
    store.delete_table(db, codes[0])  # (the older table: its events are not the newest)
    moved = _hit(db, codes[1])
    found = changes.seqs(codes, [])
    assert found == {codes[1]: moved}  # the events' read: the deletion not seen yet
    assert changes.seqs(codes, []) is None
    now = push.time.monotonic()
    monkeypatch.setattr(push.time, "monotonic", lambda: now + push.WHOLE_EVERY)
    _hit(db, codes[1])
    assert changes.seqs(codes, [])[codes[0]] == push.GONE
