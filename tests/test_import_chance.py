"""An import re-derives each game's chance (issue 15): an export whose dice no die shows, or whose
hits, saves, victories or order do not follow from its dice, is refused with a sentence naming the
first bad event, and nothing is stored.  One forged export per game, from a table played here."""
from __future__ import annotations

import copy

import pytest

from companion import actions, import_check, replay, store
from companion.db import get_db, systems
from companion.errors import RuleError
from test_dreadfleet_actions import Game, ids

ENGINES = ("sqlite", "postgresql")  # the tests here run on both (tests/conftest.py, issue 39)


def test_every_chance_action_of_every_game_re_derives_its_dice_on_import():
    actions._load_all()
    # a game's chance action declares its check; the core's are checked by import_check itself
    # (VERIFY), or decided again from their own payload (roll-real: real dice, the total recomputed)
    unchecked = [t for t, a in actions.REGISTRY.items()
                 if a.chance and a.dice is None and t not in import_check.VERIFY
                 and not (a.systems is None and a.decide)]
    assert not unchecked, f"chance actions an import takes on trust: {unchecked}"


def refused(app, doc: dict) -> str:
    with app.app_context():
        tables = len(list(get_db().query("select code from tables")))
        with pytest.raises(RuleError) as exc:
            replay.import_table(get_db(), doc, systems())
        assert len(list(get_db().query("select code from tables"))) == tables  # nothing stored
        assert exc.value.message.startswith("The export does not replay: ")
        return exc.value.message.removeprefix("The export does not replay: ")


def imports(app, doc: dict) -> None:
    with app.app_context():
        replay.import_table(get_db(), doc, systems())


def export(app, code: str) -> dict:
    with app.app_context():
        return replay.export(get_db(), code)


def event(doc: dict, type_: str) -> dict:
    return next(e for e in doc["events"] if e["type"] == type_)


def forged(doc: dict, type_: str, change) -> dict:
    doc = copy.deepcopy(doc)
    change(event(doc, type_)["payload"])
    return doc


def api_table(client, system: str, **extra) -> tuple[str, dict]:
    made = client.post("/api/tables", json={"system": system, "name": "Forged", **extra},
                       headers={"Authorization": "Bearer x"}).get_json()
    return made["code"], {"Authorization": f"Bearer {made['seat_token']}", "X-Seat": "Bot"}


def act(client, code: str, player: dict, **args) -> None:
    resp = client.post(f"/api/tables/{code}/actions", json=args, headers=player)
    assert resp.status_code == 200, resp.get_json()


# --- Dreadfleet: a broadside's dice, hits and saves; the initiative roll-off ----------------------

def test_dreadfleet_a_forged_broadside_or_roll_off_is_refused(app, table):
    game = Game(app, table).create()
    game.action_phase()
    game.ok(type="df-activate", unit="u1")
    game.ok(type="df-broadside", firer="u1", target=ids(game)["Bloody Reaver"], distance="5", dice="6 5 3 1",
            save_dice="5 2 1")
    doc = export(app, game.code)
    imports(app, doc)  # the honest export comes back
    seq = event(doc, "df-broadside")["seq"]

    def die_99(p):
        p["shot"]["hit_dice"][0] = p["dice"][0] = 99
    assert refused(app, forged(doc, "df-broadside", die_99)) == \
        f"Event {seq} (df-broadside): it records 99 for its hit dice, which no D6 shows."

    def more_hits(p):
        p["shot"]["hits"] = 4
    assert refused(app, forged(doc, "df-broadside", more_hits)) == \
        f"Event {seq} (df-broadside): its hits is 4, but its dice give 3."

    def all_saved(p):
        p["shot"]["saved"], p["shot"]["unsaved"] = 3, 0
    assert "its saves is 3, but its dice give 1." in refused(app, forged(doc, "df-broadside", all_saved))

    def extra_die(p):
        p["shot"]["hit_dice"].append(6)
        p["dice"].append(6)
    assert "it records 5 hit dice where the rules roll 4." in refused(app, forged(doc, "df-broadside", extra_die))

    def loaded(p):
        p["dice"] = [7, 2]
    assert refused(app, forged(doc, "df-initiative", loaded)).endswith("it records 7 for its dice, which no D6 shows.")


def test_dreadfleet_rolls_with_no_total_share_one_d6_check_that_refuses_a_7(app, table):
    from companion.games.dreadfleet.actions.imported_dice import D6_ONLY
    actions._load_all()
    assert len({actions.REGISTRY[t].dice for t in D6_ONLY}) == 1  # one check, not a twin per action
    game = Game(app, table).create()
    game.action_phase()  # df-wind-place, df-initiative, df-fate
    units = ids(game)
    game.ok(type="df-activate", unit=units["Heldenhammer"])
    game.ok(type="df-order", unit=units["Heldenhammer"], order="Full Speed Ahead", order_dice="5")
    game.ok(type="df-deploy", unit=units["Grand Alliance Cog (Heldenhammer)"], capsize_dice="3")
    game.ok(type="df-full-speed", unit=units["Heldenhammer"], fsa_dice="3 4")
    game.ok(type="df-activate", unit=units["Bloody Reaver"])
    game.ok(type="df-sail", unit=units["Bloody Reaver"], relation="in irons", sail_dice="1")
    game.ok(type="df-activate", unit=units["Seadrake"])
    game.ok(type="df-escape", unit=units["Seadrake"], enemies="1", escape_dice="5", move_dice="2")
    game.ok(type="df-damage", unit=units["Seadrake"], mode="card", count="1")
    doc = export(app, game.code)
    imports(app, doc)

    def seven(p):  # the first die it records becomes a 7 (a card draw records none: one is added)
        p["dice"] = [7, *p["dice"][1:]] if p.get("dice") else [7]
    for type_ in D6_ONLY:
        seq = event(doc, type_)["seq"]
        assert refused(app, forged(doc, type_, seven)) == \
            f"Event {seq} ({type_}): it records 7 for its dice, which no D6 shows."


# --- Empires of Dust: the initiative D20s and the order they give ---------------------------------

def test_empires_of_dust_a_forged_initiative_roll_is_refused(app, client):
    code, player = api_table(client, "empires-of-dust")
    for side in ("Fleet 1", "Fleet 2"):
        act(client, code, player, type="eod-deploy", preset="average-fleet", side=side)
    act(client, code, player, type="eod-initiative", mode="roll", d20={"Fleet 1": 3, "Fleet 2": 15})
    doc = export(app, code)
    imports(app, doc)
    assert event(doc, "eod-initiative")["payload"]["rolls"] == {"Fleet 1": [3], "Fleet 2": [15]}

    def d20_shows_21(p):
        p["rolls"]["Fleet 2"] = [21]
    assert refused(app, forged(doc, "eod-initiative", d20_shows_21)) == \
        "Event 4 (eod-initiative): it records 21 for its rolls, which no D20 shows."

    def fleet_1_first(p):
        p["steps"].reverse()
    assert refused(app, forged(doc, "eod-initiative", fleet_1_first)).startswith(
        "Event 4 (eod-initiative): its initiative order is ['Fleet 1', 'Fleet 2'], but its dice give")


# --- Dreadnaught: the die that picks the Attacker -----------------------------------------------

def test_dreadnaught_a_forged_first_player_die_is_refused(app, client):
    code, player = api_table(client, "dreadnaught", sides=["Anna", "Ben"])
    act(client, code, player, type="dn-setup")
    doc = export(app, code)
    imports(app, doc)
    rolled = event(doc, "dn-setup")["payload"]["rolled"][0]

    def three_sided(p):
        p["rolled"] = [3]
    assert refused(app, forged(doc, "dn-setup", three_sided)) == "Event 2 (dn-setup): it records 3 for its first-player die, which no D2 shows."

    def other_attacker(p):
        p["attacker"] = "Ben" if rolled == 1 else "Anna"
    assert "its player the die chose is" in refused(app, forged(doc, "dn-setup", other_attacker))


# --- Astral Action: the Victory Conditions drawn and their rolls ----------------------------------

def test_astral_action_forged_victory_conditions_are_refused(app, client):
    code, player = api_table(client, "astral-action")
    act(client, code, player, type="aa-victory", count=2, drawn=[1, 3])
    doc = export(app, code)
    imports(app, doc)

    def fifth_condition(p):
        p["drawn"][1] = 5
    assert refused(app, forged(doc, "aa-victory", fifth_condition)) == \
        "Event 2 (aa-victory): it records 5 for its conditions drawn, which no D4 shows."

    def one_roll_for_area_control(p):
        p["rolls"][0] = [4]
    assert "it records 1 condition rolls where the rules roll 2." in \
        refused(app, forged(doc, "aa-victory", one_roll_for_area_control))


# --- Talon: a repair die ------------------------------------------------------------------------

def test_talon_a_forged_repair_die_is_refused(app, client):
    code, player = api_table(client, "talon")
    act(client, code, player, type="talon-ship", cls="terran-dd", name="Zhukov")
    doc = export(app, code)
    imports(app, doc)
    doc["events"].append({**doc["events"][-1], "seq": 3, "type": "talon-repair", "label": "forged",
                          "payload": {"type": "talon-repair", "unit": "u1", "what": "shields", "dice": [9]}})
    assert refused(app, doc) == "Event 3 (talon-repair): it records 9 for its dice, which no D6 shows."


# --- any game: its numbers within what its fields declare (issue 41) -------------------------------

def test_a_forged_number_outside_its_declared_field_is_refused(app, table):
    """An action now reads its arguments as given (they were read by its fields before it was stored);
    so an import checks every typed field of every game's event against its declaration: a Damage of
    500 where the field says 1 to 99 never reaches the ship."""
    from test_dreadnaught_actions import DUEL, Dreadnaught
    duel = Dreadnaught(app, table).create()
    duel.ok("dn-setup", **DUEL)
    duel.ok("dn-damage", ship="Anna", amount=5)
    doc = export(app, duel.table.code)
    imports(app, doc)  # the honest export comes back
    seq = event(doc, "dn-damage")["seq"]
    assert event(doc, "dn-damage")["payload"]["amount"] == 5  # stored as read: a number, not "5"

    def five_hundred(p):
        p["amount"] = 500
    assert refused(app, forged(doc, "dn-damage", five_hundred)) == \
        f"Event {seq} (dn-damage): The Damage must be from 1 to 99; got 500."
