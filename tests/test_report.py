"""The battle report: the result first, each unit's main tracker over the game, when it was lost,
luck per seat against expectation and per-side totals, from the log alone."""
from __future__ import annotations

import random
import re

from companion import report


def played(tmp_path):
    """A short game played through the store by two seats, one hit undone; its final state and log."""
    from companion import store
    from companion.actions import Ctx
    from companion.content import default_systems
    system = default_systems()["freeform"]
    anna = Ctx(system=system, rng=random.Random(1), seat="Anna", side="Side A", host=True)  # (she finishes)
    ben = Ctx(system=system, rng=random.Random(2), seat="Ben", side="Side B")
    db = store.open_db(tmp_path / "report.sqlite")
    code = store.create(db, system, {"name": "Strait"}, anna)["code"]
    store.act(db, code, {"type": "add-unit", "name": "Victory", "side": "Side A", "hp": 10}, anna)
    store.act(db, code, {"type": "add-unit", "name": "Raider", "side": "Side B", "hp": 8}, ben)
    store.act(db, code, {"type": "adjust", "unit": "u2", "tracker": "hp", "by": -3}, anna)  # A hurts B: 3
    store.act(db, code, {"type": "adjust", "unit": "u1", "tracker": "hp", "by": -2}, ben)   # B hurts A: 2
    store.act(db, code, {"type": "adjust", "unit": "u2", "tracker": "hp", "by": -4}, anna)
    store.undo(db, code, anna)                                                               # withdrawn
    for _ in range(4):
        store.act(db, code, {"type": "next-phase"}, anna)                                    # round 2
    store.act(db, code, {"type": "adjust", "unit": "u2", "tracker": "hp", "by": -5}, anna)  # A hurts B: 5
    store.act(db, code, {"type": "remove-unit", "unit": "u2", "reason": "sunk"}, anna)
    store.act(db, code, {"type": "pool", "dice": 6, "target": 4}, ben)
    store.act(db, code, {"type": "finish", "result": "Side A holds the strait"}, anna)
    return store.table(db, code)["state"], store.events(db, code)


def test_the_report_leads_with_the_result_and_counts_damage_per_side(tmp_path):
    r = report.build(*played(tmp_path))
    assert r["result"] == "Side A holds the strait" and r["finished"]
    assert r["sides"]["Side A"]["dealt"] == 8 and r["sides"]["Side B"]["dealt"] == 2  # the undone -4 is not
    assert r["sides"]["Side B"]["lost"] == ["Raider"]
    raider = next(u for u in r["sides"]["Side B"]["units"] if u["name"] == "Raider")
    assert raider["lost_round"] == 2 and (raider["now"], raider["top"], raider["tracker"]) == (0, 8, "HP")


def test_a_units_chart_steps_down_with_each_hit_and_runs_to_the_end(tmp_path):
    raider = next(u for u in report.build(*played(tmp_path))["sides"]["Side B"]["units"])
    points = [tuple(map(float, p.split(","))) for p in raider["points"].split()]
    ys = [y for _, y in points]
    assert ys[0] < ys[-1]  # full at the start (top of the chart), empty at the end
    assert len(set(ys)) == 3  # 8, 5 and 0: the withdrawn hit left no step
    assert points[-1][0] == 300.0


def test_luck_bars_compare_what_each_seat_got_with_what_it_expected(tmp_path):
    r = report.build(*played(tmp_path))
    luck = r["luck"]["Ben"]
    assert luck["rolls"] == 1 and luck["expected"] == 3.0  # 6 dice at 4+: 3 successes expected
    assert luck["difference"] == luck["actual"] - 3.0
    assert max(luck["bar_actual"], luck["bar_expected"]) == 100.0  # the larger bar fills the row
    assert r["sides"]["Side B"]["rolls"] == 1 and r["sides"]["Side A"]["rolls"] == 0


def test_the_report_page_draws_charts_on_a_phone(table, client):
    code = table.create(side="Side A")
    table.act(type="add-unit", name="Victory", side="Side A", **{"stats.hp": "10"})
    table.act(type="add-unit", name="Raider", side="Side B", **{"stats.hp": "8"})
    table.act(do="adjust unit=u2 tracker=hp by=-3", _control="unit-u2")
    page = client.get(f"/t/{code}/report").data.decode()
    assert page.count("<polyline") == 2
    assert re.search(r"Damage dealt</dt><dd>3</dd>", page)  # Anna sits on Side A and hit the Raider
    assert "Still being played." in page
