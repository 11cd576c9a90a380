"""The cached state always equals the fold of the log: random actions with undo/redo (hypothesis);
the table exports and imports to the same state, events and undo/redo behaviour."""
from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import actions, replay, store
from companion.store import chain as undo_chain
from companion.actions import Ctx
from companion.content import default_systems
from companion.errors import RuleError

SYSTEM = default_systems()["freeform"]

STEPS = st.lists(st.one_of(
    st.tuples(st.just("add-unit"), st.integers(1, 20)),
    st.tuples(st.just("adjust"), st.integers(-5, 5)),
    st.tuples(st.just("boxes"), st.integers(0, 5)),
    st.tuples(st.just("condition"), st.sampled_from(["Burning", "Stunned"])),
    st.tuples(st.just("roll"), st.sampled_from(["2d6", "d20+3", "4d6kh3"])),
    st.tuples(st.just("deck"), st.sampled_from(["load", "draw", "draw-unit", "until", "shuffle"])),
    st.tuples(st.just("phase"), st.just(0)),
    st.tuples(st.just("undo"), st.just(0)),
    st.tuples(st.just("redo"), st.just(0)),
), min_size=1, max_size=25)


def request_for(kind, value, state):
    units = list(state["unit_order"])
    unit = units[sum(map(ord, str(value))) % len(units)] if units else "u1"
    if kind == "add-unit":
        return {"type": "add-unit", "name": f"Ship {value}", "hp": value}
    if kind == "adjust":
        return {"type": "adjust", "unit": unit, "tracker": "hp", "by": value or 1}
    if kind == "boxes":
        return {"type": "add-tracker", "unit": unit, "spec": {"id": f"hull{value}", "kind": "boxes", "count": 4}}
    if kind == "condition":
        if "cond" not in state["trackers"]:
            return {"type": "add-tracker", "unit": "table", "spec": {"id": "cond", "kind": "conditions"}}
        return {"type": "tracker", "unit": "table", "tracker": "cond", "op": "add", "name": value, "rounds": 1}
    if kind == "roll":
        return {"type": "roll", "expr": value}
    if kind == "phase":
        return {"type": "next-phase"}
    return {"load": {"type": "deck-load", "deck": "deck", "definition": "example"},
            "draw": {"type": "deck-draw", "deck": "deck"},
            "draw-unit": {"type": "deck-draw", "deck": "deck", "to": f"unit:{unit}"},
            "until": {"type": "deck-draw-until", "deck": "deck", "field": "type", "value": "C"},
            "shuffle": {"type": "deck-shuffle", "deck": "deck"}}[value]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=STEPS, seed=st.integers(0, 2 ** 16))
def test_cached_state_equals_fold_of_log_after_every_step(tmp_path, monkeypatch, steps, seed):
    monkeypatch.setattr(undo_chain, "SNAPSHOT_EVERY", 4)  # undo from a snapshot + tail == the full fold
    db = store.open_db(tmp_path / f"p{seed}-{len(steps)}.sqlite")
    ctx = Ctx(system=SYSTEM, rng=random.Random(seed), seat="Anna", side="Side A")
    code = store.create(db, SYSTEM, {"name": "Property"}, ctx)["code"]
    for kind, value in steps:
        before = store.table(db, code)
        try:
            if kind in ("undo", "redo"):
                store.undo(db, code, ctx, redo=kind == "redo")
            else:
                store.act(db, code, request_for(kind, value, before["state"]), ctx)
        except RuleError:
            after = store.table(db, code)
            assert (after["seq"], after["state"]) == (before["seq"], before["state"])  # nothing half-applied
            continue
        row = store.table(db, code)
        log = [{"seq": e["seq"], "type": e["type"], "payload": e["payload"]} for e in store.events(db, code)]
        assert row["seq"] == len(log)
        assert actions.fold(log) == row["state"]
    # export -> import: the same state and events, and undo/redo behave the same on both tables
    doc = replay.export(db, code)
    copy = replay.import_table(db, doc, {"freeform": SYSTEM})["code"]
    assert store.table(db, copy)["state"] == store.table(db, code)["state"]
    keep = ("seq", "seat", "side", "type", "label", "payload")
    assert [{k: e[k] for k in keep} for e in replay.export(db, copy)["events"]] == \
        [{k: e[k] for k in keep} for e in doc["events"]]
    for redo in (False, False, True):
        outcome = []
        for c in (code, copy):
            try:
                outcome.append(store.undo(db, c, ctx, redo=redo)["state"])
            except RuleError as exc:
                outcome.append(exc.message)
        assert outcome[0] == outcome[1]
    db.close()


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_taking_back_a_random_move_is_the_fold_of_the_log_without_it(data):
    """Issue 27, Freeform (every other game: tests/test_property_games.py, whose random play takes
    moves back too): random core play with many take-backs and corrections; each one is the fold of
    the log without the move (a correction: with the new move in its place) or refuses naming the
    first later move that fails, changing nothing; undo restores the table exactly; the round trip
    (export, import, undo and redo on both) keeps the take-backs."""
    from property_steps import random_play
    fleet = {"for": [], "steps": [{"type": "add-unit", "name": name, "hp": hp, "side": side}
                                  for name, hp, side in (("Nimitz", 8, "Side A"), ("Zhukov", 3, "Side B"),
                                                         ("Hood", 5, "Side B"))]}
    play = random_play("freeform", {}, [fleet], data, max_steps=30, take_backs=10)
    assert not play.shielded, play.why
