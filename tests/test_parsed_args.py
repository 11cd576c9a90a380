"""An action receives its arguments already read by the fields it declared (issue 41): "3" typed in a
form is 3, "5 6 2" is [5, 6, 2], "on" is True; stored so; and an event stored before (its values text)
reaches the action read the same way, so a game never calls a reader of its own."""
from __future__ import annotations

import random

import pytest

from companion import actions, schema
from companion.actions import Ctx
from companion.errors import InputError

FIELDS = {"dice": schema.Int(1, 6), "rolled": schema.Dice(6, 6), "advance": schema.Flag(),
          "name": schema.Text(20), "amount": schema.Num(0, 10)}
TYPED = schema.typed_fields(FIELDS)


def test_the_typed_fields_are_the_kinds_that_read_text():
    assert [k for k, _ in TYPED] == ["dice", "rolled", "advance", "amount"]


def test_parse_args_reads_each_typed_field_once_and_leaves_the_rest():
    args = {"dice": "3", "rolled": "5 6 2", "advance": "on", "name": "  Vow ", "amount": "", "other": "7"}
    assert schema.parse_args(TYPED, args) == {"dice": 3, "rolled": [5, 6, 2], "advance": True, "name": "  Vow ",
                                              "other": "7"}  # "amount" left empty: left out, p.get's default
    assert "dice" not in schema.parse_args(TYPED, {})  # left out stays left out: the action asks in its words
    assert schema.parse_args(TYPED, {"dice": None, "name": None}) == {"name": None}  # JSON's null: left empty too
    assert schema.parse_args(TYPED, {"dice": 3, "rolled": [5]}) == {"dice": 3, "rolled": [5]}  # idempotent


def test_text_only_reads_text_and_passes_what_is_already_read():
    stored = {"dice": 4, "rolled": [6, 6], "advance": True}
    assert schema.parse_args(TYPED, dict(stored), text_only=True) == stored
    assert schema.parse_args(TYPED, {"dice": "4", "advance": "no"}, text_only=True) == {"dice": 4, "advance": False}


def test_a_bad_value_is_refused_naming_its_field():
    with pytest.raises(InputError) as refused:
        schema.parse_args(TYPED, {"rolled": "5 9"})
    assert refused.value.field == "rolled"


@pytest.fixture
def probe():
    """An action type of a made-up system that records what it was handed (removed afterwards)."""
    seen = []

    @actions.action("probe-parsed", systems={"probe"}, chance=True, fields=FIELDS)
    def apply(state, p):
        """Record the arguments as the action reads them."""
        seen.append(("apply", dict(p)))
        return "probed"

    @apply.decider
    def decide(state, args, ctx):
        seen.append(("decide", dict(args)))
        return {**args, "result": sum(args["rolled"] or [])}
    yield seen
    del actions.REGISTRY["probe-parsed"]


def test_the_decider_and_the_apply_get_read_values_and_they_are_stored(probe):
    state = {"system": "probe", "units": {}, "phases": ["Any"], "phase": 0}
    ctx = Ctx(system=type("S", (), {"slug": "probe"})(), rng=random.Random(1))
    payload = actions.prepare(state, {"type": "probe-parsed", "dice": "2", "rolled": "6 5", "advance": "yes"}, ctx)
    assert payload == {"type": "probe-parsed", "dice": 2, "rolled": [6, 5], "advance": True, "result": 11}
    assert probe[0] == ("decide", {"type": "probe-parsed", "dice": 2, "rolled": [6, 5], "advance": True})
    actions.apply(state, payload)
    assert probe[-1][1]["rolled"] == [6, 5]


def test_an_event_stored_as_text_reaches_the_action_read(probe):
    """A table of before: its events hold what the form sent; replayed, the action reads them typed."""
    state = {"system": "probe", "units": {}}
    actions.apply(state, {"type": "probe-parsed", "dice": "2", "rolled": "6 5", "advance": "", "result": 11})
    assert probe[-1] == ("apply", {"type": "probe-parsed", "dice": 2, "rolled": [6, 5], "result": 11})


def test_needed_says_what_to_enter_in_the_fields_words(probe):
    from companion.actions import needed
    assert needed({"type": "probe-parsed", "dice": 2}, "dice") == 2
    fields = {**FIELDS, "dice": schema.Int(1, 6, what="the number of dice")}
    actions.REGISTRY["probe-parsed"].fields = fields
    with pytest.raises(InputError) as refused:
        needed({"type": "probe-parsed"}, "dice")
    assert (refused.value.message, refused.value.field) == ("Enter the number of dice.", "dice")
