"""The contract of the declared schemas (issue 15): every action type, the core's and every game's,
declares its request's fields; /api/openapi.json describes each type's request from that
declaration; and a value the declaration refuses is a 400 naming the field, with nothing stored."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

from companion import actions
from companion import schema
from companion.schema import Dice, Either, Flag, Int, List, Num, Obj, Scalar, Text
from companion.errors import InputError, RuleError


def registry() -> dict:
    actions._load_all()
    return actions.REGISTRY


def test_every_registered_action_type_declares_its_fields():
    missing = [t for t, a in registry().items() if a.fields is None]
    assert not missing, f"action types without a declared schema: {missing}"
    for t, a in registry().items():
        for key, field in a.fields.items():
            assert isinstance(field, schema.Field), (t, key)
    assert len(registry()) >= 120  # the core's and the five games' types are all loaded


def test_the_openapi_request_of_each_type_is_its_declaration(client):
    doc = client.get("/api/openapi.json").get_json()
    body = doc["paths"]["/api/tables/{code}/actions"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    types = sorted(t for t in registry() if t != "create-table")
    assert body["properties"]["type"]["enum"] == types
    assert [ref["$ref"] for ref in body["oneOf"]] == [f"#/components/schemas/action-{t}" for t in types]
    assert body["discriminator"]["propertyName"] == "type"
    for t in types:
        described = doc["components"]["schemas"][f"action-{t}"]
        assert described["properties"]["type"] == {"type": "string", "enum": [t]}
        fields = registry()[t].fields
        assert {k: v for k, v in described["properties"].items() if k not in ("type", "seq")} == \
            {k: f.schema() for k, f in fields.items()}, t
        assert described["required"] == ["type"] + [k for k, f in fields.items() if f.required]


def test_each_kind_refuses_its_own_bad_value_and_takes_what_forms_send():
    cases = [
        (Int(1, 99), [1, 99, "7", " 12 "], [0, 100, "x", 1.5, True, [1], "1e3"]),
        (Num(0, 1000), [0, 7.5, "7.5", '7"'], [-1, 1001, "far", float("nan"), False, {}]),
        (Text(5), ["", "abcde", 12], ["abcdef", ["a"], {"a": 1}, True]),
        (Text(10, choices=["a", "b"]), ["a", "b"], ["c", 1, ["a"]]),
        (Flag(), [True, 0, "on", "no", "OFF", " Yes ", "false"], [["x"], {"a": 1}, "x" * 11, "maybe", 2, "y"]),
        (Dice(6, 3), [[1, 6], "5 6 2", 4, ["3"]], [[7], [0], [1, 2, 3, 4], {"a": 1}, [True], ["x"]]),
        (Scalar(10), ["ok", 3, 2.5, True], [[1], {"a": 1}, "x" * 11, 2 ** 60]),
        (List(Int(0, 9), 2, text_too=20), [[1, 2], "1, 2"], [[1, 2, 3], [10], {"a": 1}, "x" * 21]),
        (Obj({"n": Int(0, 3)}), [{}, {"n": 2, "other": "free"}], [{"n": 4}, [], "x"]),
        (Either(List(Text(5), 3), Obj(), Text(20)), [["a"], {"a": 1}, "a b", 1.5], [True, [["x"]], "x" * 21]),
    ]
    for field, good, bad in cases:
        for value in good:
            field.check(value, "f")
        for value in bad + [field.bad()]:
            with pytest.raises(InputError) as refused:
                field.check(value, "f")
            assert refused.value.field == "f" and refused.value.message.endswith(".")


def test_a_flag_reads_one_set_of_words_the_same_in_every_game():
    """Issue 29: four helpers disagreed on "off"/"no"/"false"; Flag.parse is the one reader."""
    for word in (True, 1, "1", "on", "yes", "true", "YES"):
        assert Flag().parse(word, "f") is True
    for word in (False, 0, "0", "off", "no", "false", "Off", None, ""):
        assert Flag().parse(word, "f") is False
    assert Flag().parse("", "f", default=True) is True  # left empty: the action's default
    with pytest.raises(InputError) as refused:
        Flag().parse("maybe", "advance")
    assert refused.value.message == "advance must be yes or no (yes/no, true/false, on/off or 1/0); got 'maybe'."
    assert refused.value.field == "advance"
    for t, a in registry().items():  # every game reads its flags through the field it declared
        for key, field in (a.fields or {}).items():
            if isinstance(field, Flag):
                assert actions.entered_flag({"type": t, key: "off"}, key) is False, (t, key)
                assert actions.entered_flag({"type": t, key: "on"}, key) is True, (t, key)


def test_a_number_is_read_once_in_the_words_its_action_declared():
    """Issue 29: Int.parse is the one reading of a typed whole number (the games' own number()
    and need_int helpers are gone); bounds the table narrows and a game's words go through it."""
    damage = Int(1, 99, what="the Damage")
    assert damage.parse(" 7 ", "amount") == 7 and damage.parse("", "amount") is None
    for value, sentence in (("x", "The Damage must be a whole number; got 'x'."),
                            (0, "The Damage must be from 1 to 99; got 0.")):
        with pytest.raises(InputError) as refused:
            damage.parse(value, "amount")
        assert refused.value.message == sentence and refused.value.field == "amount"
    with pytest.raises(InputError) as refused:  # a ship of three weapon groups: 1 to 3, Talon's words
        Int(1, 99, plain=True).parse(4, "group", hi=3)
    assert refused.value.message == "group must be a whole number from 1 to 3."
    with pytest.raises(InputError) as refused:
        actions.entered_int({"type": "dn-damage"}, "amount")
    assert refused.value.message == "Enter the Damage."
    assert actions.entered_int({"type": "dn-power"}, "cards", 0) == 0


def test_every_declared_field_refuses_its_bad_value():
    for t, a in registry().items():
        for key, field in a.fields.items():
            with pytest.raises(InputError):
                schema.check(a.fields, {"type": t, key: field.bad()})


# --- through the API: a 400 naming the field, nothing stored --------------------------------------

def _new_table(client, system: str) -> tuple[str, dict]:
    made = client.post("/api/tables", json={"system": system, "name": "Schema"},
                       headers={"Authorization": "Bearer x"})
    assert made.status_code == 201, made.get_json()
    body = made.get_json()
    return body["code"], {"Authorization": f"Bearer {body['seat_token']}", "X-Seat": "Bot"}


def test_a_payload_violating_a_types_schema_is_a_400_naming_the_field_and_stores_nothing(client):
    systems = [s["slug"] for s in client.get("/api/systems").get_json()]
    tables = {s: _new_table(client, s) for s in systems}
    sent = 0
    for t, a in sorted(registry().items()):
        if t == "create-table":
            continue
        slug = sorted(a.systems)[0] if a.systems else "freeform"
        code, player = tables[slug]
        before = client.get(f"/api/tables/{code}/events", headers=player).get_json()
        for key, field in a.fields.items():
            resp = client.post(f"/api/tables/{code}/actions", json={"type": t, key: field.bad()}, headers=player)
            body = resp.get_json()
            assert resp.status_code == 400, (t, key, resp.status_code, body)
            assert body["field"] == key, (t, key, body)
            assert body["error"].endswith("."), body
            sent += 1
        assert client.get(f"/api/tables/{code}/events", headers=player).get_json() == before, t
    assert sent >= 300  # every declared field of every type was tried


def test_a_form_post_is_checked_by_the_same_declaration(table):
    """The HTML form path (/t/<code>/act) meets the same gate, and says so next to the control."""
    table.create()
    before = table.state()
    resp = table.act(type="adjust", unit="table", tracker="x", by="100001")
    assert resp.status_code == 400 and "by must be from -100000 to 100000; got 100001." in resp.data.decode()
    resp = table.act(type="roll", expr="2d6", why="x" * 61)
    assert resp.status_code == 400 and "why must be at most 60 characters." in resp.data.decode()
    assert table.state() == before


def test_the_document_with_every_declared_request_is_valid_openapi(client):
    import jsonschema  # both are test extras (pyproject.toml): never skipped
    import openapi_spec_validator as validator
    doc = client.get("/api/openapi.json").get_json()
    validator.validate(doc)
    for described in doc["components"]["schemas"].values():
        jsonschema.Draft202012Validator.check_schema(described)


# --- dice: the declaration is the one reading (issue 24) -------------------------------------------

def _dice_fields():
    return [(t, key, field) for t, a in sorted(registry().items()) for key, field in a.fields.items()
            if isinstance(field, Dice)]


def test_every_dice_field_takes_its_declared_count_and_refuses_one_more_as_list_and_as_text(client):
    """Issue 24: eod-attack declared 1 D20 while its game read up to 8, so a JSON client's second die
    was refused and a form's was not.  Each Dice field is now the one reading of entered dice (the
    schema check and the game's decide step both call ``Dice.parse``): its most dice pass the
    declaration whether sent as a list or typed (the answer, if any refusal, is the game's own), and
    one more is refused with the same sentence either way, naming the field, storing nothing."""
    systems = [s["slug"] for s in client.get("/api/systems").get_json()]
    tables = {s: _new_table(client, s) for s in systems}
    checked = 0
    for t, key, field in _dice_fields():
        slug = sorted(registry()[t].systems)[0] if registry()[t].systems else "freeform"
        code, player = tables[slug]
        schema_refusal = f"{key} takes at most"
        for sent in ([1] * field.most, " ".join(["1"] * field.most)):
            body = client.post(f"/api/tables/{code}/actions", json={"type": t, key: sent}, headers=player).get_json()
            assert schema_refusal not in str(body.get("error")), (t, key, body)
        before = client.get(f"/api/tables/{code}/events", headers=player).get_json()
        answers = []
        for sent in ([1] * (field.most + 1), " ".join(["1"] * (field.most + 1))):
            resp = client.post(f"/api/tables/{code}/actions", json={"type": t, key: sent}, headers=player)
            assert resp.status_code == 400 and resp.get_json()["field"] == key, (t, key, resp.get_json())
            answers.append(resp.get_json()["error"])
        assert answers[0] == answers[1] and answers[0].startswith(schema_refusal), (t, key, answers)
        assert client.get(f"/api/tables/{code}/events", headers=player).get_json() == before, t
        checked += 1
    assert checked >= 30


def test_a_dice_field_reads_lists_numbers_and_typed_text_alike():
    d6 = Dice(6, 4)
    assert d6.parse([5, "6"], "f") == d6.parse("5 6", "f") == d6.parse("5,6", "f") == [5, 6]
    assert d6.parse(3, "f") == [3] and d6.parse("", "f") is None and d6.parse([], "f") is None
    grouped = Dice(6, 4, groups=True)
    assert grouped.parse("5 6 / 2", "f") == grouped.parse([[5, 6], [2]], "f") == [[5, 6], [2]]
    for bad, sentence in (("5 / 6", "Each die must be a whole number from 1 to 6; got '/'."),
                          ("5 7", "Each die must be a whole number from 1 to 6; got 7."),
                          ([1, 1, 1, 1, 1], "f takes at most 4 dice, each a whole number from 1 to 6; got 5."),
                          ("1 1 1 1 1", "f takes at most 4 dice, each a whole number from 1 to 6; got 5.")):
        with pytest.raises(InputError) as refused:
            d6.parse(bad, "f")
        assert refused.value.message == sentence and refused.value.field == "f"
    with pytest.raises(InputError, match="f takes at most 4 dice"):
        grouped.parse("1 1 1 / 1 1", "f")


# --- one registry: a type registered twice stops the start (issue 29) ------------------------------

def test_a_second_game_registering_the_same_action_type_is_refused_naming_both():
    registry()
    first = actions.REGISTRY["df-broadside"]

    def impostor(state, payload):
        return "overwritten"
    impostor.__module__ = "companion.games.talon.actions.combat"
    with pytest.raises(actions.DuplicateAction) as refused:
        actions.action("df-broadside", systems={"talon"}, fields={})(impostor)
    message = str(refused.value)
    assert "'df-broadside'" in message
    assert "the game 'dreadfleet' (companion.games.dreadfleet.actions.broadsides)" in message
    assert "the game 'talon' (companion.games.talon.actions.combat)" in message
    assert actions.REGISTRY["df-broadside"] is first  # the first stays; nothing overwritten
    with pytest.raises(actions.DuplicateAction, match="the core"):
        actions.action("next-phase", systems={"talon"}, fields={})(impostor)


# --- one phase guard: @action(..., phase=...) (issue 29) -------------------------------------------

def test_a_declared_phase_is_one_of_its_games_phases():
    from companion.content import load_systems
    systems = load_systems()
    phased = {t: a for t, a in registry().items() if a.phase}
    assert len(phased) >= 25  # Dreadnaught's, Dreadfleet's, Empires of Dust's and Talon's guards
    for t, a in phased.items():
        assert a.doing, t
        for slug in a.systems:
            assert set(a.phase) <= set(systems[slug].phases), (t, a.phase, slug)


def test_a_move_outside_its_phase_is_refused_before_its_dice_are_rolled():
    """The guard runs before the decide step: no roll is made for a move the table refuses."""
    state = {"system": "dreadfleet", "phases": ["Initiative", "Status", "Fate", "Action", "End"], "phase": 1}

    class NoDice:
        def __getattr__(self, name):
            raise AssertionError("a die was rolled for a refused move")
    with pytest.raises(RuleError) as refused:
        actions.prepare(state, {"type": "df-initiative"}, actions.Ctx(system=SimpleNamespace(slug="dreadfleet"), rng=NoDice()))
    assert refused.value.message == ("The initiative roll-off happens in the Initiative phase; "
                                     "it is now the Status phase.")
    assert refused.value.field == "phase"
    state = {"system": "talon", "phases": ["A · initiative player", "Power Phase"], "phase": 0}
    with pytest.raises(RuleError) as refused:
        actions.apply(state, {"type": "talon-curve", "unit": "u1", "row": 2})
    assert refused.value.message == ("Changing the power curve happens in the Power Phase; "
                                     "it is now the A · initiative player phase.")


def test_one_whole_number_guard_for_every_games_rules():
    """Issue 29: the games' pure rules check their whole-number arguments with one core guard
    (schema.whole_argument), one sentence for one refusal; the three games' own copies are gone."""
    from companion.schema import whole_argument
    from companion.games.dreadfleet.rules import basics
    from companion.games.dreadnaught.rules import numbers
    from companion.games.empires_of_dust.rules import seed_numbers
    assert not hasattr(basics, "_whole") and not hasattr(numbers, "_whole") and not hasattr(seed_numbers, "_int")
    assert whole_argument(3, "hull", 1, 20) == 3
    for value, lo, hi, sentence in ((0, 1, 20, "Hull must be from 1 to 20; got 0."),
                                    (-1, 0, None, "Hull must be at least 0; got -1."),
                                    (9, None, 8, "Hull must be at most 8; got 9."),
                                    ("3", 1, 20, "Hull must be a whole number; got '3'."),
                                    (True, 1, 20, "Hull must be a whole number; got True.")):
        with pytest.raises(RuleError) as refused:
            whole_argument(value, "hull", lo, hi, what="Hull")
        assert (refused.value.message, refused.value.field) == (sentence, "hull")


def test_entered_dice_are_rolled_or_taken_by_the_core_naming_their_control():
    """Issue 29: Talon's and Dreadfleet's wrappers that re-raised roll_or_take's refusal under the
    control's name are gone; roll_or_take names the control itself (``field``)."""
    from companion.dice import roll_or_take
    from companion.games.dreadfleet.actions import entries
    from companion.games.dreadfleet.rules import basics
    from companion.games.talon.actions import combat as combat_actions
    assert not hasattr(combat_actions, "dice_arg") and not hasattr(basics, "_take")
    assert not hasattr(entries, "dice_arg")  # it only called actions.entered_dice
    with pytest.raises(RuleError) as refused:
        roll_or_take(2, 6, [6], None, "2D6", field="crit_dice")
    assert (refused.value.message, refused.value.field) == ("Expected 2 2D6 (D6), got 1.", "crit_dice")
