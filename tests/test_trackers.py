"""Generic trackers, without Flask: each operation, its limits and its message."""
from __future__ import annotations

import pytest

from companion import trackers
from companion.errors import RuleError
from companion.trackers import Clock


def make(spec, stats=None):
    return trackers.create({"id": spec.get("id", "t"), **spec}, stats or {})


def op(t, op_name, clock=Clock(), **args):
    return trackers.operate(t, op_name, args, clock)


@pytest.mark.parametrize("start, by, after", [(10, -3, 7), (2, -5, 0), (9, 4, 10), (0, 1, 1)])
def test_counter_adjusts_within_min_and_max(start, by, after):
    t = make({"kind": "counter", "min": 0, "max": 10, "start": start})
    op(t, "adjust", by=by)
    assert t["value"] == after


def test_counter_at_its_limit_refuses_and_changes_nothing():
    t = make({"kind": "counter", "min": 0, "max": 10, "start": 10, "label": "HP"})
    with pytest.raises(RuleError, match="HP is already at its maximum"):
        op(t, "adjust", by=1)
    assert t["value"] == 10


def test_counter_takes_its_maximum_from_a_stat():
    t = make({"kind": "counter", "max_stat": "hull", "start_stat": "hull"}, {"hull": 6})
    assert (t["value"], t["max"]) == (6, 6)


@pytest.mark.parametrize("bad", ["x", 1.5, None, True, 10 ** 9])
def test_counter_rejects_bad_amounts(bad):
    t = make({"kind": "counter", "max": 10, "start": 5})
    with pytest.raises(RuleError):
        op(t, "adjust", by=bad)


def test_boxes_mark_unmark_and_flag_critical():
    t = make({"kind": "boxes", "count": 6, "flagged": [5], "label": "Hull"})
    assert "critical" in op(t, "mark", box=5)
    with pytest.raises(RuleError, match="already marked"):
        op(t, "mark", box=5)
    op(t, "unmark", box=5)
    assert t["marked"] == [False] * 6
    with pytest.raises(RuleError):
        op(t, "mark", box=6)


def test_boxes_hit_marks_in_order_and_reports_overflow():
    t = make({"kind": "boxes", "count": 3, "flagged": [2]})
    text = op(t, "hit", n=5)
    assert t["marked"] == [True, True, True]
    assert "2 more did not fit" in text and "1 critical" in text


def test_arc_shields_each_arc_its_own_boxes():
    t = make({"kind": "arcs", "arcs": [{"name": "Fore", "boxes": 2}, {"name": "Aft", "boxes": 1}]})
    text = op(t, "hit", arc=0, n=3)
    assert t["arcs"][0]["marked"] == [True, True] and t["arcs"][1]["marked"] == [False]
    assert "1 overflow" in text


def test_charge_bar_fires_only_when_full_and_then_resets():
    t = make({"kind": "charge", "red": 1, "yellow": 2})
    op(t, "charge", colour="red")
    op(t, "charge", colour="yellow")
    with pytest.raises(RuleError, match="fires only when"):
        op(t, "fire")
    assert "READY" in op(t, "charge", colour="yellow")
    op(t, "fire")
    assert t["red"] == [False] and t["yellow"] == [False, False]


def test_cooldown_ready_again_after_every_rounds():
    t = make({"kind": "cooldown", "every": 2, "label": "FTL"})
    op(t, "use", clock=Clock(round=3))
    with pytest.raises(RuleError, match="ready again at round 5"):
        op(t, "use", clock=Clock(round=4))
    assert trackers.reminders(t, Clock(round=5)) == ["FTL is ready again"]
    op(t, "use", clock=Clock(round=5))


def test_cooldown_per_phase_counts_ticks():
    t = make({"kind": "cooldown", "every": 3, "per": "phase"})
    op(t, "use", clock=Clock(round=1, tick=0))
    with pytest.raises(RuleError):
        op(t, "use", clock=Clock(round=2, tick=2))
    op(t, "use", clock=Clock(round=2, tick=3))


def test_conditions_expire_when_their_last_round_is_over():
    t = make({"kind": "conditions", "options": ["Burning"]})
    op(t, "add", clock=Clock(round=3), name="Burning", count=2, rounds=2)
    assert t["active"]["Burning"] == {"count": 2, "until": 4}
    trackers.on_new_round(t, Clock(round=4))
    assert "Burning" in t["active"]
    assert trackers.reminders(t, Clock(round=4)) == ["Burning ends after this round"]
    trackers.on_new_round(t, Clock(round=5))
    assert t["active"] == {}


def test_condition_count_to_zero_removes_it():
    t = make({"kind": "conditions"})
    op(t, "add", name="Stunned", count=1)
    op(t, "adjust", name="Stunned", by=-1)
    assert t["active"] == {}


def test_gauge_ring_wraps_and_ladder_stops():
    ring = make({"kind": "gauge", "positions": [11, 12, 13], "start": 13, "ring": True})
    op(ring, "move", by=1)
    assert ring["positions"][ring["index"]] == 11
    ladder = make({"kind": "gauge", "min": 0, "max": 8, "start": 8})
    with pytest.raises(RuleError, match="runs from 0 to 8"):
        op(ladder, "move", by=1)
    op(ladder, "set", to=3)
    assert ladder["positions"][ladder["index"]] == 3


def test_unknown_operation_is_named():
    t = make({"kind": "counter", "max": 3})
    with pytest.raises(RuleError, match="no operation 'mark'"):
        op(t, "mark")


def test_trackers_import_neither_flask_nor_the_database():
    import pathlib
    for path in list(pathlib.Path("companion/trackers").glob("*.py")) + [pathlib.Path("companion/errors.py")] \
            + [pathlib.Path("companion/dice.py"), pathlib.Path("companion/report.py")]:
        text = path.read_text()
        assert "import flask" not in text and "from flask" not in text, path
        assert "sqlite" not in text, path
