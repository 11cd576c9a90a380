"""The battle report built on from kept totals (companion/report_cache.py) is exactly the report of
the whole replay (report.build), after any mix of actions, undo and redo, in every game (issue 30 §9)."""
from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import report, report_cache, store
from property_steps import start
from test_property_games import GAMES, book


def _same(play) -> None:
    row = store.table(play.db, play.code)
    kept = report_cache.report_of(play.db, row)
    whole = report.build(row["state"], store.events(play.db, play.code))
    assert json.dumps(kept) == json.dumps(whole)  # key order too: the page is drawn from it


@pytest.mark.parametrize("slug", GAMES + ["freeform"])
@settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_the_kept_report_is_the_whole_replays(slug, data, monkeypatch):
    monkeypatch.setattr(report_cache, "CHECKPOINT_EVERY", 3)  # checkpoints within a short game
    phrases, openings = book(slug) if slug != "freeform" else ({}, [])
    opening = data.draw(st.sampled_from([None] + openings))
    play = start(slug, phrases, opening, lambda options: data.draw(st.sampled_from(options)),
                 data.draw(st.integers(0, 2 ** 16)))
    kinds = [t for t in play.types() if t not in ("finish", "create-table")] + ["undo", "redo"] * 4 + ["take-back"] * 2
    _same(play)
    for _ in range(data.draw(st.integers(5, 30))):
        kind = data.draw(st.sampled_from(kinds))
        if kind == "take-back":  # a take-back in force, then maybe undone: the kept totals below it
            play.take_back()     # hold again only once it is gone (companion/report_cache.py)
        else:
            play.step(kind, check_fold=False)
        if data.draw(st.booleans()):  # sometimes several changes between two reports
            _same(play)
    _same(play)


def test_a_long_game_with_undos_folds_only_what_changed(tmp_path, monkeypatch):
    """After a report, one more action folds one event; the same top again folds none; an undo
    folds at most a checkpoint's worth; and each report is the whole replay's."""
    from companion.actions import Ctx
    from companion.content import default_systems
    system = default_systems()["freeform"]
    ctx = Ctx(system=system, rng=random.Random(3), seat="Anna", side="Side A")
    db = store.open_db(tmp_path / "long.sqlite")
    code = store.create(db, system, {"name": "Long"}, ctx)["code"]
    store.act(db, code, {"type": "add-unit", "name": "Victory", "side": "Side B", "hp": 999}, ctx)
    for n in range(300):
        store.act(db, code, {"type": "adjust", "unit": "u1", "tracker": "hp", "by": 1 if n % 3 == 2 else -1}, ctx)
    folded = []
    real = report.Totals.add
    monkeypatch.setattr(report.Totals, "add", lambda self, ev: folded.append(ev["seq"]) or real(self, ev))

    def folds() -> int:
        folded.clear()
        row = store.table(db, code)
        assert json.dumps(report_cache.report_of(db, row)) == \
            json.dumps(real_build(row["state"], store.events(db, code)))
        return len(folded)

    def real_build(state, events):
        monkeypatch.setattr(report.Totals, "add", real)
        try:
            return report.build(state, events)
        finally:
            monkeypatch.setattr(report.Totals, "add", lambda self, ev: folded.append(ev["seq"]) or real(self, ev))
    assert folds() == 302  # the first report in this process: the whole chain
    store.act(db, code, {"type": "adjust", "unit": "u1", "tracker": "hp", "by": -1}, ctx)
    assert folds() == 1
    assert folds() == 0  # the same top again
    for _ in range(5):
        store.undo(db, code, ctx)
    assert 0 < folds() <= report_cache.CHECKPOINT_EVERY
    store.undo(db, code, ctx, redo=True)
    assert folds() == 1
    store.act(db, code, {"type": "note", "text": "on"}, ctx)
    assert folds() == 1
