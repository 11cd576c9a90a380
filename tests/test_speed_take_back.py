"""Issue 38: taking back a move 50 moves ago applies the 50 moves above it again, and those between the
snapshot below it and it: with a snapshot every 8 moves (was 64) at most 58, wherever the move sits."""
from __future__ import annotations

import random

from companion import actions, store
from companion.actions import Ctx
from companion.content import default_systems


def test_a_take_back_50_moves_ago_applies_at_most_58_moves_wherever_it_sits(app, monkeypatch):
    db = store.open_db(app.config["DATABASE"])
    ctx = Ctx(system=default_systems()["freeform"], rng=random.Random(1), seat="Anna")
    code = store.create(db, default_systems()["freeform"], {"name": "Long"}, ctx)["code"]
    for i in range(6):
        store.act(db, code, {"type": "add-unit", "name": f"Ship {i}", "hp": 999}, ctx)
    for n in range(150):
        store.act(db, code, {"type": "adjust", "unit": f"u{n % 6 + 1}", "tracker": "hp", "by": -1}, ctx)
    applied = []
    plain = actions.apply
    monkeypatch.setattr(actions, "apply", lambda *a, **k: applied.append(1) or plain(*a, **k))
    most = []
    for _ in range(20):  # the table's top moved on by one move each time: every place between two snapshots
        store.act(db, code, {"type": "adjust", "unit": "u1", "tracker": "hp", "by": -1}, ctx)
        row = store.table(db, code)
        target = row["done_top"]
        for _ in range(50):  # 50 moves below the top, down the chain of moves in force
            target = db.execute("select link from events where table_id = ? and seq = ?", [row["id"], target]).fetchone()[0]
        applied.clear()
        store.take_back(db, code, [target], ctx)
        most.append(len(applied))
        store.undo(db, code, ctx)
        assert store.table(db, code)["state"] == row["state"]
    assert max(most) <= 58, most
    db.close()
