"""Dreadfleet at the table through the Flask client: every action type, the fleet editor and deck
lists, bad input (400, one sentence next to the control, nothing stored), moves the rules forbid at
the wrong moment, and the log always folding to the cached state.  Real dice are entered wherever
the rules roll, so every outcome below is fixed.
"""
from __future__ import annotations

import html
import json
import re

import pytest

from companion import actions, store
from companion.said import english
from tests.table_actions import csrf_of, sit

ENGINES = ("sqlite", "postgresql")  # the tests here run on both (tests/conftest.py, issue 39)

STATS = {"speed": 6, "handling": 3, "broadside": 4, "armour": 5, "hull": 6, "crew": 4, "command": 4,
         "swashbuckling": 3}
AUX = {"speed": 5, "broadside": 2, "armour": 5, "hull": 2, "crew": 2}
HULL_DECK = "Hull hit; Hull; 1; x20"  # every Damage card alike: a drawn card's effect is known


class Game:
    """A Dreadfleet table driven like a phone does (forms, buttons' do values)."""

    def __init__(self, app, table):
        self.app, self.table, self.client = app, table, table.client

    def create(self):
        self.table.create(system="dreadfleet", name="Tests", side="Grand Alliance")
        return self

    @property
    def code(self):
        return self.table.code

    def act(self, control="df-test", **fields):
        return self.table.act(_control=control, **fields)

    def ok(self, **fields):
        resp = self.act(**fields)
        assert resp.status_code == 200, text(resp)[:400]
        return resp

    def refused(self, sentence, control="df-test", **fields):
        before = self.state()
        resp = self.act(control=control, **fields)
        assert resp.status_code == 400, text(resp)[:300]
        assert resp.headers["HX-Retarget"] == f"#{control}-err"
        assert sentence in text(resp), text(resp)
        assert self.state() == before  # nothing stored
        return resp

    def post(self, path, **form):
        return self.client.post(f"/t/{self.code}/dreadfleet/{path}", data={"csrf_token": self.table.csrf, **form},
                                headers={"HX-Request": "true"})

    def state(self):
        return self.table.state()

    def log(self):
        db = store.open_db(self.app.config["DATABASE"])
        return [{"seq": e["seq"], "type": e["type"], "payload": e["payload"]} for e in store.events(db, self.code)]

    def folds(self):
        assert actions.fold(self.log()) == self.state()

    def unit(self, name):
        return next(u for u in self.state()["units"].values() if u["name"] == name)

    def counter(self, name, tracker):
        return self.unit(name)["trackers"][tracker]["value"]

    # set-up --------------------------------------------------------------------------------------
    def warship(self, name, aux=True, sail=1, **stats):
        fields = {f"stats.{k}": v for k, v in {**STATS, **stats}.items()}
        if aux:
            fields.update({f"aux.{k}": v for k, v in AUX.items()})
        return self.ok(type="df-warship", name=name, sail=sail, **fields)

    def deck(self, deck="damage", text=HULL_DECK, name="Mine"):
        resp = self.post("decks", deck=deck, name=name, cards=text, _control="df-deckdef")
        assert resp.status_code == 200, text(resp)
        item = next(i for i in store.library_items(store.open_db(self.app.config["DATABASE"]), "dreadfleet", "deck")
                    if i["name"] == name)
        resp = self.post(f"decks/{item['id']}/load", _control="df-decks")
        assert resp.status_code == 200, text(resp)

    def to_phase(self, name):
        while self.state()["phases"][self.state()["phase"]] != name:
            self.ok(type="next-phase")

    def ready(self):
        """Two warships a side, decks, wind, initiative to the Grand Alliance; the Action phase."""
        self.warship("Heldenhammer")
        self.warship("Seadrake")
        self.warship("Bloody Reaver")
        self.warship("Shadewraith", aux=False)
        self.deck()
        self.ok(type="deck-load", deck="fate", definition="example-fate")
        self.ok(type="df-wind-place", dice="3 4")
        self.ok(type="df-initiative", dice="5 2")
        self.ok(type="df-first", first="Grand Alliance")
        return self

    def action_phase(self):
        self.ready()
        self.to_phase("Fate")
        self.ok(type="df-fate", side="Grand Alliance")
        self.ok(type="df-fate", side="Dreadfleet")
        self.to_phase("Action")
        return self


@pytest.fixture
def game(app, table):
    return Game(app, table).create()


def text(resp) -> str:
    return html.unescape(resp.get_data(as_text=True))


def ids(game):
    return {u["name"]: u["id"] for u in game.state()["units"].values()}


# --- set-up: fleet editor, warships, decks, wind --------------------------------------------------

def test_fleet_editor_saves_a_card_that_puts_to_sea_with_its_auxiliaries_docked(game):
    fields = {f"stats.{k}": v for k, v in STATS.items()} | {f"aux.{k}": v for k, v in AUX.items()}
    resp = game.post("warships", name="Seadrake", sail="1", _control="df-editor", **{**fields, "stats.armour": "5+"})
    assert resp.status_code == 200 and "Seadrake" in text(resp) and "Put to sea" in text(resp)
    saved = game.client.get(f"/t/{game.code}/dreadfleet/warships.json").get_json()
    card = saved["cards"][0]
    assert card["armour"] == 5 and card["sail"] is True and card["aux"] == {**AUX, "name": "Dragon", "count": 2}
    game.ok(type="df-warship", name="Seadrake", sail=1, **fields)
    state = game.state()
    assert [u["name"] for u in state["units"].values()] == ["Seadrake", "Dragon 1 (Seadrake)", "Dragon 2 (Seadrake)"]
    assert state["game"]["docked"] == {"u2": "u1", "u3": "u1"}
    assert state["units"]["u2"]["stats"]["flying"] == 1 and state["units"]["u1"]["stats"]["sail"] == 1
    assert "At sea" in text(game.client.get(f"/t/{game.code}/dreadfleet/warships"))
    game.refused("The Seadrake is already at sea.", type="df-warship", name="Seadrake", sail=1, **fields)
    game.folds()


@pytest.mark.parametrize("change, sentence", [
    ({"stats.command": ""}, "Command is missing: enter it from your card."),
    ({"stats.armour": "eight"}, "Armour must be a whole number"),
    ({"stats.hull": "0"}, "Hull must be from 1 to 20; got 0."),
    ({"name": "Flying Dutchman"}, "Choose one of the ten warships"),
    ({"aux.crew": ""}, "Dragon card: Crew is missing"),
])
def test_fleet_editor_names_the_bad_characteristic_and_saves_nothing(app, game, change, sentence):
    fields = {"name": "Seadrake", "sail": "1", **{f"stats.{k}": v for k, v in STATS.items()},
              **{f"aux.{k}": v for k, v in AUX.items()}, **change}
    resp = game.post("warships", _control="df-editor", **fields)
    assert resp.status_code == 400 and sentence in text(resp)
    assert resp.headers["HX-Retarget"] == "#df-editor-err"
    assert store.library_items(store.open_db(app.config["DATABASE"]), "dreadfleet", "warship") == []


def test_warship_cards_export_and_import_on_another_table(app, game, table):
    game.post("warships", name="Skabrus", **{f"stats.{k}": v for k, v in STATS.items()}, _control="df-editor")
    exported = text(game.client.get(f"/t/{game.code}/dreadfleet/warships.json"))
    db = store.open_db(app.config["DATABASE"])
    store.library_delete(db, store.library_items(db, "dreadfleet", "warship")[0]["id"], host=True)  # the host clears the library
    resp = game.post("warships/import", text=exported, _control="df-import")
    assert resp.status_code == 200 and "Skabrus" in text(resp)
    bad = json.loads(exported)
    bad["cards"][0]["crew"] = 99
    resp = game.post("warships/import", text=json.dumps(bad), _control="df-import")
    assert resp.status_code == 400 and "Card 1 (Skabrus): Crew must be from 1 to 20; got 99." in text(resp)


def test_a_deck_list_is_checked_line_by_line_then_loaded_and_shuffled(app, game):
    resp = game.post("decks", deck="damage", name="Bad", cards="Holed; Hull; 2\nSplinters; Wood; 1",
                     _control="df-deckdef")
    assert resp.status_code == 400 and "Line 2 (Splinters; Wood; 1): 'Wood' is not a field" in text(resp)
    resp = game.post("decks", deck="fate", name="Fates", _control="df-deckdef",
                     cards="Squall; 3; 2 clockwise; Status; BR\nCalm; 1; 2D6; immediate; x2")
    assert resp.status_code == 200
    saved = store.library_items(store.open_db(app.config["DATABASE"]), "dreadfleet", "deck")[0]
    assert saved["data"]["cards"][0] == {"name": "Squall", "wind": 3, "markers": 2, "direction": "clockwise",
                                         "kind": "Status", "br": True}
    assert "Squall; 3; 2 clockwise; Status; BR" in text(game.client.get(
        f"/t/{game.code}/dreadfleet/decks/{saved['id']}/edit"))
    game.deck()
    fate = game.post(f"decks/{saved['id']}/load", _control="df-decks")
    assert fate.status_code == 200
    decks = game.state()["decks"]
    assert len(decks["damage"]["draw"]) == 20 and len(decks["fate"]["draw"]) == 3
    game.folds()


def test_wind_gauge_is_placed_by_a_red_and_a_white_die_once(game):
    game.refused("Each die must be a whole number from 1 to 6; got 7.", type="df-wind-place", dice="7 1")
    game.ok(type="df-wind-place", dice="3 4")
    state = game.state()
    assert state["trackers"]["wind"]["positions"][state["trackers"]["wind"]["index"]] == 34
    game.refused("The wind gauge is already placed", type="df-wind-place")
    assert 'data-pos="34"' in text(game.client.get(f"/t/{game.code}?open=*"))


# --- the turn: initiative, status, fate ------------------------------------------------------------

def test_initiative_roll_off_a_tie_rolls_again_and_the_winner_chooses(game):
    game.refused("Roll off for the initiative first.", type="df-first", first="Dreadfleet")
    game.ok(type="df-initiative", dice="4 4")
    assert game.state()["game"]["turn"]["initiative"]["winner"] is None
    game.ok(type="df-initiative", dice="2 6")
    game.refused("Dreadfleet already has the initiative this turn.", type="df-initiative")
    game.ok(type="df-first", first="Grand Alliance")
    state = game.state()
    assert state["game"]["turn"]["first"] == "Grand Alliance" and state["active_side"] == "Grand Alliance"
    game.to_phase("Status")
    game.refused("The initiative roll-off happens in the Initiative phase; it is now the Status phase.",
                 type="df-initiative")
    game.folds()


def test_fate_cards_are_drawn_first_player_first_and_move_the_wind(game):
    game.ready()
    game.ok(type="deck-load", deck="fate", definition="example-fate")
    game.refused("Drawing a Fate card happens in the Fate phase", type="df-fate")
    game.to_phase("Fate")
    game.refused("Grand Alliance draws the next Fate card.", type="df-fate", side="Dreadfleet")
    before = game.state()["trackers"]["wind"]["index"]
    game.ok(type="df-fate", side="Grand Alliance", wind_dice="6 6")
    state = game.state()
    cid = state["game"]["turn"]["drawn"]["Grand Alliance"]
    card = state["decks"]["fate"]["cards"][cid]
    ring = state["trackers"]["wind"]["positions"]
    if card["markers"] == "2D6":
        expected = ring.index(66)
    else:
        step = 1 if card.get("direction", "clockwise") == "clockwise" else -1
        expected = (before + step * card["markers"]) % len(ring)
    assert state["trackers"]["wind"]["index"] == expected
    assert state["decks"]["fate"]["discard"] == [cid]
    game.ok(type="df-fate")
    game.refused("Both players have drawn their Fate card this turn.", type="df-fate")
    game.folds()


def test_wind_strength_is_the_top_fate_discard_and_a_status_card_stays_on_a_ship(game):
    game.ready()
    game.deck("fate", "Squall; 3; 1 clockwise; Status\nRain; 2; 0; immediate", name="Two")
    game.to_phase("Fate")
    game.ok(type="df-fate", side="Grand Alliance")
    state = game.state()
    drawn = state["game"]["turn"]["drawn"]["Grand Alliance"]
    card = state["decks"]["fate"]["cards"][drawn]
    if card["kind"] == "immediate":
        game.refused("Rain is an immediate card: it is resolved and discarded.", type="df-place-card",
                     card=drawn, unit="u1")
        game.ok(type="df-fate")
        drawn = game.state()["game"]["turn"]["drawn"]["Dreadfleet"]
    assert "wind strength" in text(game.client.get(f"/t/{game.code}?open=*"))
    game.ok(type="df-place-card", card=drawn, unit="u1")
    state = game.state()
    assert state["decks"]["fate"]["attached"]["u1"] == [drawn]
    game.to_phase("End")
    game.to_phase("Status")
    assert any("Heldenhammer (Grand Alliance): Squall" in english(r) for r in game.state()["reminders"])
    game.folds()


def test_a_physical_fate_deck_records_the_card_and_a_2d6_card_replaces_the_gauge(game):
    game.ready()
    game.ok(type="deck-mode", deck="fate", mode="physical")
    game.to_phase("Fate")
    game.refused("Wind is missing", type="df-fate", **{"card.name": "Storm", "card.kind": "immediate"})
    game.ok(type="df-fate", wind_dice="2 5", **{"card.name": "Storm", "card.wind": "4", "card.markers": "2D6",
                                                "card.kind": "immediate", "card.br": "1"})
    state = game.state()
    assert state["trackers"]["wind"]["positions"][state["trackers"]["wind"]["index"]] == 25
    board = text(game.client.get(f"/t/{game.code}?open=*"))
    assert "data-wind-strength>4<" in board and "brief respite" in board
    game.folds()


# --- activations, orders, movement -----------------------------------------------------------------

def test_players_alternate_activations_from_the_first_player(game):
    game.ready()
    game.refused("Activating a warship happens in the Action phase", type="df-activate", unit="u1")
    game.to_phase("Action")
    units = ids(game)
    game.refused("It is Grand Alliance's turn to activate a ship.", type="df-activate", unit=units["Bloody Reaver"])
    game.refused("docked with the Heldenhammer: deploy it first.",
                 type="df-activate", unit=units["Grand Alliance Cog (Heldenhammer)"])
    game.ok(type="df-activate", unit=units["Heldenhammer"])
    game.refused("The Heldenhammer has already been activated this turn.", type="df-activate",
                 unit=units["Heldenhammer"])
    game.refused("It is Dreadfleet's turn to activate a ship.", type="df-activate", unit=units["Seadrake"])
    game.ok(type="df-activate", unit=units["Bloody Reaver"])
    game.ok(type="df-activate", unit=units["Seadrake"])
    game.ok(type="df-activate", unit=units["Shadewraith"])
    assert game.state()["game"]["turn"]["to_go"] is None
    game.folds()


def test_an_order_takes_a_command_check_one_per_activation_and_before_moving(game):
    game.action_phase()
    game.refused("Issuing an order is part of a warship's activation: activate the Heldenhammer first.",
                 type="df-order", unit="u1", order="Repair", order_dice="6")
    game.ok(type="df-activate", unit="u1")
    game.refused("Unknown order 'Broadside'", type="df-order", unit="u1", order="Broadside")
    game.refused("Each die must be a whole number from 1 to 6", type="df-order", unit="u1", order="Repair",
                 order_dice="9")
    game.ok(type="df-order", unit="u1", order="Fire As She Bears", order_dice="1")  # a 1 always fails
    state = game.state()
    assert state["game"]["turn"]["ordered"]["u1"] == {"order": "Fire As She Bears", "issued": False}
    assert state["game"]["orders"].get("Grand Alliance", {}) == {}
    game.refused("The Heldenhammer has already had its order this activation.", type="df-order", unit="u1",
                 order="Repair", order_dice="6")
    game.folds()


def test_fire_as_she_bears_stays_on_the_ship_until_used(game):
    game.action_phase()
    units = ids(game)
    game.ok(type="df-activate", unit=units["Heldenhammer"])
    game.ok(type="df-order", unit=units["Heldenhammer"], order="Fire As She Bears", order_dice="4")
    game.ok(type="df-activate", unit=units["Bloody Reaver"])
    game.ok(type="df-activate", unit=units["Seadrake"])
    game.refused("Fire As She Bears is not in Grand Alliance's hand: it is on the Heldenhammer.",
                 type="df-order", unit=units["Seadrake"], order="Fire As She Bears", order_dice="6")
    board = text(game.client.get(f"/t/{game.code}?open=*"))
    assert "Fire As She Bears → Heldenhammer" in board
    game.ok(type="df-broadside", firer=units["Heldenhammer"], target=units["Bloody Reaver"], distance="6",
            fasb="1", dice="1 1 1 1")
    assert game.state()["game"]["orders"]["Grand Alliance"] == {}
    game.refused("The Heldenhammer has no Fire As She Bears order in play.", control="df-shot",
                 type="df-broadside", firer=units["Heldenhammer"], target=units["Bloody Reaver"], distance="6",
                 fasb="1", dice="1 1 1 1")
    game.folds()


def test_sail_class_moves_with_the_wind_and_in_irons_takes_a_command_check(game):
    game.action_phase()
    strength = game.state()["decks"]["fate"]["cards"][game.state()["decks"]["fate"]["discard"][-1]]["wind"]
    game.ok(type="df-activate", unit="u1")
    game.ok(type="df-sail", unit="u1", relation="astern")
    assert game.state()["game"]["turn"]["sail"]["u1"] == {"relation": "astern", "min": strength,
                                                          "max": STATS["speed"] + strength}
    game.refused("already judged", type="df-sail", unit="u1", relation="side")
    game.refused("Issuing an order comes in the Orders sub-phase; the Heldenhammer is already in Movement.",
                 type="df-order", unit="u1", order="Repair", order_dice="6")
    game.ok(type="df-activate", unit=ids(game)["Bloody Reaver"])
    game.ok(type="df-sail", unit=ids(game)["Bloody Reaver"], relation="in irons", sail_dice="1")
    assert game.state()["game"]["turn"]["sail"][ids(game)["Bloody Reaver"]]["max"] == max(0, 6 - strength)
    game.folds()


def test_full_speed_ahead_rolls_2d6_only_with_its_order(game):
    game.action_phase()
    game.ok(type="df-activate", unit="u1")
    game.refused("The Heldenhammer has no Full Speed Ahead order this activation.", type="df-full-speed", unit="u1")
    game.ok(type="df-order", unit="u1", order="Full Speed Ahead", order_dice="5")
    game.ok(type="df-full-speed", unit="u1", fsa_dice="3 4")
    assert game.log()[-1]["payload"]["inches"] == 7
    game.refused("no Full Speed Ahead order", type="df-full-speed", unit="u1", fsa_dice="3 4")
    game.folds()


def test_repair_discards_a_repairable_card_and_lowers_the_damage(game):
    game.ready()
    game.deck("damage", "Holed; Hull; 2\nRudder; Speed; 1; irreparable", name="Two")
    game.to_phase("Fate")
    game.ok(type="deck-load", deck="fate", definition="example-fate")
    game.ok(type="df-fate")
    game.ok(type="df-fate")
    game.to_phase("Action")
    game.ok(type="df-damage", unit="u1", mode="card", count="2")
    assert (game.counter("Heldenhammer", "hull_damage"), game.counter("Heldenhammer", "speed_damage")) == (2, 1)
    game.ok(type="df-activate", unit="u1")
    game.ok(type="df-order", unit="u1", order="Repair", order_dice="6")
    cards = game.state()["decks"]["damage"]
    rudder = next(c for c in cards["attached"]["u1"] if cards["cards"][c]["name"] == "Rudder")
    holed = next(c for c in cards["attached"]["u1"] if cards["cards"][c]["name"] == "Holed")
    game.refused("Rudder is Irreparable: it cannot be repaired or removed by any means.", type="df-repair",
                 unit="u1", card=f"damage:{rudder}")
    game.ok(type="df-repair", unit="u1", card=f"damage:{holed}")
    assert game.counter("Heldenhammer", "hull_damage") == 0
    assert game.state()["decks"]["damage"]["attached"]["u1"] == [rudder]
    game.refused("The Heldenhammer has no Repair order this activation.", type="df-repair", unit="u1",
                 card=f"damage:{rudder}")
    game.folds()


def test_anchor_within_two_inches_and_not_dropped_and_weighed_in_one_turn(game):
    game.action_phase()
    game.ok(type="df-activate", unit="u1")
    game.refused('A warship drops anchor only within 2" of an island or shipwreck.', type="df-anchor",
                 unit="u1", op="drop", distance="3")
    game.ok(type="df-anchor", unit="u1", op="drop", distance="1.5")
    assert "At Anchor" in game.unit("Heldenhammer")["trackers"]["status"]["active"]
    game.refused("You cannot drop and weigh anchor in the same turn.", type="df-anchor", unit="u1", op="weigh")
    game.refused("A warship at anchor may not escape jeopardy.", type="df-escape", unit="u1", escape_dice="6")
    game.folds()


def test_escape_jeopardy_is_a_command_check_at_minus_one_per_enemy(game):
    game.action_phase()
    game.ok(type="df-activate", unit="u1")
    game.refused("Passed: now enter the D3 rolled for the escape move.", type="df-escape", unit="u1",
                 enemies="1", escape_dice="5")
    game.ok(type="df-escape", unit="u1", enemies="1", escape_dice="5", move_dice="2")
    payload = game.log()[-1]["payload"]
    assert payload["escaped"] and payload["move_inches"] == 3 and payload["check"]["modifier"] == -1
    game.refused("this ship has already moved", type="df-escape", unit="u1", escape_dice="6", move_dice="1")
    game.folds()


# --- broadsides and damage -----------------------------------------------------------------------------

def test_a_broadside_rolls_saves_and_draws_a_damage_card_per_unsaved_hit(game):
    game.action_phase()
    units = ids(game)
    reaver = units["Bloody Reaver"]
    game.refused("The Heldenhammer fires in its own activation", control="df-shot", type="df-broadside",
                 firer="u1", target=reaver, distance="5", dice="6 6 6 6", save_dice="1 1 1 1")
    game.ok(type="df-activate", unit="u1")
    game.refused('19" is beyond the maximum range of 18": no broadside.', control="df-shot",
                 type="df-broadside", firer="u1", target=reaver, distance="19")
    # the range is read by its declared field, in the game's words (issue 29: one number parser)
    game.refused("The range must be a distance in inches, e.g. 7 or 7.5.", control="df-shot",
                 type="df-broadside", firer="u1", target=reaver, distance="far")
    game.refused("The range must be from 0 to 1000 inches.", control="df-shot",
                 type="df-broadside", firer="u1", target=reaver, distance="1001")
    game.refused("Enter the range.", control="df-shot", type="df-broadside", firer="u1", target=reaver)
    game.refused("3 hits: now enter the 3 armour saves rolled for the Bloody Reaver (Armour 5+).",
                 control="df-shot", type="df-broadside", firer="u1", target=reaver, distance="5", dice="6 5 3 1")
    # Short range 4+, first broadside +1: 3+ hits (a 1 always misses); saves on 5+
    game.ok(type="df-broadside", firer="u1", target=reaver, distance="5", dice="6 5 3 1", save_dice="5 2 1")
    payload = game.log()[-1]["payload"]
    assert payload["first"] and payload["shot"]["hits_on"] == 3 and payload["shot"]["unsaved"] == 2
    assert payload["luck"]["what"] == "Damage cards" and payload["dice"] == [6, 5, 3, 1]
    state = game.state()
    assert len(state["decks"]["damage"]["attached"][reaver]) == 2
    assert game.counter("Bloody Reaver", "hull_damage") == 2
    assert game.unit("Heldenhammer")["trackers"]["first_broadside"]["marked"] == [True]
    game.refused("The Heldenhammer has already fired its broadside this activation.", control="df-shot",
                 type="df-broadside", firer="u1", target=reaver, distance="5")
    game.refused("Issuing an order comes in the Orders sub-phase; the Heldenhammer is already in Broadsides.",
                 type="df-order", unit="u1", order="Repair", order_dice="6")
    game.folds()


def test_undoing_a_broadside_takes_back_the_damage_cards(game):
    game.action_phase()
    reaver = ids(game)["Bloody Reaver"]
    game.ok(type="df-activate", unit="u1")
    before = game.state()
    game.ok(type="df-broadside", firer="u1", target=reaver, distance="7", dice="6 6 2 1", save_dice="1 1")
    assert game.counter("Bloody Reaver", "hull_damage") == 2
    assert game.table.undo().status_code == 200
    assert game.state()["decks"] == before["decks"] and game.counter("Bloody Reaver", "hull_damage") == 0
    assert game.unit("Heldenhammer")["trackers"]["first_broadside"]["marked"] == [False]
    withdrawn = [e for e in store.events(store.open_db(game.app.config["DATABASE"]), game.code) if e["withdrawn"]]
    assert [e["type"] for e in withdrawn] == ["df-broadside"]
    # the next broadside is still the first: +1 to hit at Medium range, 5+ -> 4+
    game.ok(type="df-broadside", firer="u1", target=reaver, distance="7", dice="4 4 3 3", save_dice="1 6")
    assert game.log()[-1]["payload"]["shot"]["hits"] == 2 and game.counter("Bloody Reaver", "hull_damage") == 1
    report = game.client.get(f"/t/{game.code}/report")
    assert report.status_code == 200 and "Anna" in text(report)  # the broadside's luck is Anna's
    game.folds()


def test_a_ship_whose_hull_damage_reaches_its_hull_is_removed_and_its_cards_discarded(game):
    game.action_phase()
    reaver = ids(game)["Bloody Reaver"]
    game.ok(type="df-activate", unit="u1")
    game.ok(type="df-broadside", firer="u1", target=reaver, distance="2",
            dice="6 6 6 6", save_dice="1 1 1 1")
    game.ok(type="df-damage", unit=reaver, mode="card", count="3")
    state = game.state()
    assert state["units"][reaver]["removed"] and reaver not in state["decks"]["damage"]["attached"]
    assert len(state["decks"]["damage"]["discard"]) == 6
    assert "the Bloody Reaver is destroyed" in text(game.client.get(f"/t/{game.code}/log"))
    game.refused("Bloody Reaver is no longer in play.", type="df-damage", unit=reaver)
    game.folds()


def test_running_aground_draws_until_a_hull_card_and_the_rest_are_discarded(game):
    game.ready()
    game.deck("damage", "Crew loss; Crew; 1; x3\nHoled; Hull; 2", name="Mixed")
    game.ok(type="df-damage", unit="u1", mode="aground")
    state = game.state()
    kept = state["decks"]["damage"]["attached"]["u1"]
    assert [state["decks"]["damage"]["cards"][c]["name"] for c in kept] == ["Holed"]
    assert game.counter("Heldenhammer", "hull_damage") == 2
    assert "Run Aground" in state["units"]["u1"]["trackers"]["status"]["active"]
    game.ok(type="df-sea-monster", name="Sea Giant", nearest="Dreadfleet", **{f"stats.{k}": v for k, v in AUX.items()})
    game.refused("Auxiliaries do not run aground", type="df-damage", unit=ids(game)["Sea Giant"], mode="aground")
    game.ok(type="df-damage", unit="u1", mode="type", value="Speed")  # none: the last card drawn applies
    assert len(game.state()["decks"]["damage"]["attached"]["u1"]) == 2
    game.folds()


def test_a_physical_damage_deck_owes_cards_that_are_then_recorded(game):
    game.action_phase()
    game.ok(type="deck-mode", deck="damage", mode="physical")
    reaver = ids(game)["Bloody Reaver"]
    game.ok(type="df-activate", unit="u1")
    game.ok(type="df-broadside", firer="u1", target=reaver, distance="3", dice="6 6 1 1", save_dice="1 1")
    assert game.state()["game"]["owed"] == {reaver: 2}
    assert "Draws 2 Damage cards from the real deck" in text(game.client.get(f"/t/{game.code}?open=*"))
    game.refused("Type is missing", type="df-damage", unit=reaver, **{"card.name": "Holed"})
    game.ok(type="df-damage", unit=reaver, **{"card.name": "Holed", "card.type": "Hull", "card.value": "2"})
    assert game.state()["game"]["owed"] == {reaver: 1} and game.counter("Bloody Reaver", "hull_damage") == 2
    game.folds()


# --- captains' duels and boarding actions ---------------------------------------------------------

def test_the_duel_comes_first_then_the_boarding_action_loser_draws_the_difference(game):
    game.action_phase()
    reaver = ids(game)["Bloody Reaver"]
    ships = {"ships.u1": "1", f"ships.{reaver}": "1"}
    game.refused("Tick the ships in base contact, at least one of each side.", control="df-board",
                 type="df-duel", **{"ships.u1": "1"})
    game.ok(type="df-activate", unit="u1")
    game.refused("Fight the captains' duel first", control="df-board", type="df-boarding", **ships)
    game.ok(type="df-duel", dice="5 6 1 / 2 2 2", **ships)
    assert game.unit("Bloody Reaver")["trackers"]["wounds"]["index"] == 1
    game.refused("These captains have already duelled", control="df-board", type="df-duel", **ships)
    game.refused("Expected 8 boarding action dice (D6), got 3.", control="df-board", type="df-boarding",
                 dice="5 5 5", **ships)
    game.ok(type="df-boarding", dice="5 6 5 1 / 2 2 6 1", **ships)  # 3 victories against 1: draw 2
    assert game.counter("Bloody Reaver", "hull_damage") == 2 and game.counter("Heldenhammer", "hull_damage") == 0
    payload = game.log()[-1]["payload"]
    assert payload["result"]["result"] == 2 and payload["luck"]["actual"] == 3
    game.folds()


def test_a_multiple_boarding_action_sums_victories_and_a_tie_draws_one_each(game):
    game.action_phase()
    units = ids(game)
    ships = {f"ships.{units[n]}": "1" for n in ("Heldenhammer", "Seadrake", "Bloody Reaver")}
    game.ok(type="df-activate", unit="u1")
    game.ok(type="df-duel", dice="1 1 1 / 1 1 1 / 1 1 1", **ships)  # a tie: every captain wounded
    assert all(game.unit(n)["trackers"]["wounds"]["index"] == 1 for n in ("Heldenhammer", "Seadrake", "Bloody Reaver"))
    game.ok(type="df-boarding", dice="5 1 1 1 / 1 1 1 1 / 6 1 1 1", **ships)
    assert [game.counter(n, "hull_damage") for n in ("Heldenhammer", "Seadrake", "Bloody Reaver")] == [1, 1, 1]
    game.folds()


# --- auxiliaries, treasure, sea monsters, scenario -------------------------------------------------

def test_deploying_a_cog_takes_a_capsize_test_and_flyers_take_none(game):
    game.action_phase()
    units = ids(game)
    game.ok(type="df-activate", unit=units["Heldenhammer"])
    game.ok(type="df-deploy", unit=units["Grand Alliance Cog (Heldenhammer)"], capsize_dice="3")
    assert game.unit("Grand Alliance Cog (Heldenhammer)")["removed"]
    game.ok(type="df-activate", unit=units["Bloody Reaver"])
    game.ok(type="df-activate", unit=units["Seadrake"])
    game.ok(type="df-deploy", unit=units["Dragon 1 (Seadrake)"])
    assert game.log()[-1]["payload"]["result"]["needed"] is False
    state = game.state()
    assert units["Dragon 1 (Seadrake)"] not in state["game"]["docked"]
    game.ok(type="df-sail", unit=units["Seadrake"], relation="side")
    game.refused("A warship deploys its auxiliary before it moves.", type="df-deploy",
                 unit=units["Dragon 2 (Seadrake)"])
    game.folds()


def test_docking_repairs_the_auxiliary_and_hands_over_its_treasure(game):
    game.action_phase()
    units = ids(game)
    cog = units["Grand Alliance Cog (Heldenhammer)"]
    game.ok(type="df-activate", unit="u1")
    game.ok(type="df-deploy", unit=cog, capsize_dice="6")
    game.ok(type="df-damage", unit=cog)
    game.ok(type="df-treasure", unit=cog, op="collect")
    game.refused("already collected a treasure token this turn", type="df-treasure", unit=cog, op="collect")
    game.refused("Unlike auxiliaries, warships cannot collect treasure tokens.", type="df-treasure", unit="u1",
                 op="collect")
    game.ok(type="df-dock", unit=cog, to="u1")
    assert game.counter("Grand Alliance Cog (Heldenhammer)", "hull_damage") == 0
    assert game.counter("Heldenhammer", "treasure") == 1
    assert game.state()["game"]["docked"][cog] == "u1"
    game.ok(type="df-activate", unit=units["Bloody Reaver"])
    game.ok(type="df-activate", unit=units["Seadrake"])
    game.ok(type="df-deploy", unit=units["Dragon 1 (Seadrake)"])
    game.refused("Dwarf Dirigibles and Dragons may only dock with their parent warships.", type="df-dock",
                 unit=units["Dragon 1 (Seadrake)"], to="u1")
    game.folds()


def test_a_sea_monster_is_controlled_by_the_nearest_warships_opponent_and_acts_last(game):
    game.action_phase()
    game.refused("Choose one of the sea monsters", control="df-monster", type="df-sea-monster", name="Kraken",
                 nearest="Grand Alliance", **{f"stats.{k}": v for k, v in AUX.items()})
    game.ok(type="df-sea-monster", name="Bone Hydra", nearest="Grand Alliance",
            **{f"stats.{k}": v for k, v in AUX.items()})
    hydra = ids(game)["Bone Hydra"]
    assert game.unit("Bone Hydra")["side"] == "Dreadfleet"
    game.refused("Sea monsters act after every warship has been activated.", type="df-activate", unit=hydra)
    for name in ("Heldenhammer", "Bloody Reaver", "Seadrake", "Shadewraith"):
        game.ok(type="df-activate", unit=ids(game)[name])
    game.refused("First say who controls the Bone Hydra", type="df-activate", unit=hydra)
    game.ok(type="df-monster-control", unit=hydra, nearest="Dreadfleet")
    assert game.unit("Bone Hydra")["side"] == "Grand Alliance"
    game.ok(type="df-activate", unit=hydra)
    game.ok(type="df-treasure", unit=hydra, op="collect")
    game.refused("Sea monsters may claim treasure tokens but not hand them over.", type="df-treasure",
                 unit=hydra, op="hand", to="u2")
    game.folds()


def test_the_scenario_sets_the_turn_limit_the_end_phase_reminds_of(game):
    game.refused("Name the scenario (1 to 60 characters).", type="df-scenario", turns="6")
    game.refused("turns must be from 1 to 99; got 0.", type="df-scenario", name="Raid", turns="0")
    game.ok(type="df-scenario", name="Raid", turns="1", victory="Sink the Reaver")
    game.to_phase("End")
    state = game.state()
    assert "Turn 1 of 1: the scenario's turns have run out - the game ends." in [english(r) for r in state["reminders"]]
    assert "Victory: Sink the Reaver" in text(game.client.get(f"/t/{game.code}?open=*"))
    game.ok(type="finish", result="Grand Alliance wins")
    assert game.state()["finished"]


# --- odds before rolling, pickers, the board ------------------------------------------------------

def test_the_broadside_preview_gives_the_odds_and_the_hits_of_typed_dice(game):
    game.action_phase()
    reaver = ids(game)["Bloody Reaver"]
    url = f"/t/{game.code}/dreadfleet/odds/shot"
    page = text(game.client.get(url, query_string={"firer": "u1", "target": reaver, "distance": "5"}))
    assert "4 dice hit on 3+" in page and "first broadside +1" in page and 'data-df-mean>1.78<' in page
    page = text(game.client.get(url, query_string={"firer": "u1", "target": reaver, "distance": "5",
                                              "dice": "6 5 3 1"}))
    assert "3 hits" in page and "now enter 3 armour saves" in page
    page = text(game.client.get(url, query_string={"firer": "u1", "target": reaver, "distance": "30"}))
    assert "beyond the maximum range" in page
    page = text(game.client.get(f"/t/{game.code}/dreadfleet/odds/board",
                           query_string={"ships.u1": "1", f"ships.{reaver}": "1"}))
    assert "Boarding: Grand Alliance 4 Crew dice, Dreadfleet 4" in page


def test_the_pickers_keep_the_choice_when_redrawn(game):
    game.action_phase()
    page = text(game.client.get(f"/t/{game.code}/dreadfleet/pick/shot", query_string={"target": "u6"}))
    assert '<option value="u6" selected>' in page
    page = text(game.client.get(f"/t/{game.code}/dreadfleet/pick/board", query_string={"ships.u1": "1"}))
    assert 'name="ships.u1" value="1" checked' in page
    roster = re.search(r'data-roster="([^"]+)"', page).group(1)
    board = text(game.client.get(f"/t/{game.code}?open=*"))
    assert f'id="df-roster" data-roster="{roster}"' in board  # equal: no redraw until a ship comes or goes
    game.ok(type="df-activate", unit="u1")
    game.ok(type="df-deploy", unit="u2", capsize_dice="6")
    assert f'id="df-roster" data-roster="{roster}"' not in text(game.client.get(f"/t/{game.code}?open=*"))


def test_every_dreadfleet_action_is_documented_and_scoped_to_the_game():
    types = {t for t in actions.available("dreadfleet") if t.startswith("df-")}
    assert len(types) == 23
    assert not {t for t in actions.available("freeform") if t.startswith("df-")}
    assert all(actions.available("dreadfleet")[t].doc for t in types)


def test_a_br_fate_card_allows_a_brief_respite_a_free_repair_once(game):
    game.ready()
    game.ok(type="df-damage", unit="u1", mode="card")
    hit = game.state()["decks"]["damage"]["attached"]["u1"][0]
    game.ok(type="deck-mode", deck="fate", mode="physical")
    game.to_phase("Fate")
    game.refused("Grand Alliance has not drawn a (BR) Fate card this turn.", type="df-repair", unit="u1",
                 card=f"damage:{hit}", respite="1")
    game.ok(type="df-fate", **{"card.name": "Lull", "card.wind": "1", "card.markers": "0", "card.kind": "immediate",
                               "card.br": "1"})
    game.refused("Choose one of the cards on the Heldenhammer to repair.", type="df-repair", unit="u1",
                 card="damage:c99", respite="1")
    game.ok(type="df-repair", unit="u1", card=f"damage:{hit}", respite="1")
    assert game.counter("Heldenhammer", "hull_damage") == 0
    game.refused("Grand Alliance has already taken its brief respite this turn.", type="df-repair", unit="u1",
                 card=f"damage:{hit}", respite="1")
    game.folds()


def test_who_controls_a_sea_monster_is_decided_in_the_action_phase(game):
    game.ready()
    game.ok(type="df-sea-monster", name="Leech Wyrm", noctilus="1", **{f"stats.{k}": v for k, v in AUX.items()})
    wyrm = ids(game)["Leech Wyrm"]
    assert game.unit("Leech Wyrm")["side"] == "Dreadfleet"
    assert "Controlled by Count Noctilus" in game.unit("Leech Wyrm")["trackers"]["status"]["active"]
    game.refused("Deciding who controls a sea monster happens in the Action phase", type="df-monster-control",
                 unit=wyrm, nearest="Dreadfleet")
    game.to_phase("Action")
    game.refused("The Heldenhammer is not a sea monster.", type="df-monster-control", unit="u1",
                 nearest="Dreadfleet")
    game.refused("Say whose warship is nearest: Grand Alliance or Dreadfleet.", type="df-monster-control",
                 unit=wyrm, nearest="Nobody")
    game.ok(type="df-monster-control", unit=wyrm, nearest="Dreadfleet")
    assert "Controlled by Count Noctilus" not in game.unit("Leech Wyrm")["trackers"]["status"]["active"]
    game.folds()


def test_a_spectator_sees_the_wind_and_the_ships_but_no_dreadfleet_controls(app, game):
    game.action_phase()
    _, spectator = game.table.secrets()
    watcher = app.test_client()
    sit(watcher, game.code, spectator, "Sam")
    token = csrf_of(watcher)
    board = text(watcher.get(f"/t/{game.code}?open=*"))
    assert 'class="df-sea"' in board and "Heldenhammer" in board and "games/dreadfleet.css" in board
    assert "df-activate" not in board and 'id="df-shot"' not in board and 'id="df-editor"' not in board
    assert watcher.post(f"/t/{game.code}/dreadfleet/warships", data={"csrf_token": token}).status_code == 403


def test_an_auxiliary_deployed_in_the_last_activation_still_gets_its_own(game):
    game.action_phase()
    units = ids(game)
    for name in ("Heldenhammer", "Bloody Reaver", "Seadrake"):
        game.ok(type="df-activate", unit=units[name])
    game.ok(type="df-deploy", unit=units["Dragon 1 (Seadrake)"])
    game.ok(type="df-activate", unit=units["Shadewraith"])
    game.refused("The Shadewraith has already been activated this turn.", type="df-activate",
                 unit=units["Shadewraith"])
    game.ok(type="df-activate", unit=units["Dragon 1 (Seadrake)"])  # the Dreadfleet is out of ships
    assert game.state()["active_side"] is None
    game.folds()


def random_move(state: dict, rng) -> dict:
    """A plausible next move for the table as it stands (some are still refused: the rules decide)."""
    phase = state["phases"][state["phase"]]
    now = state["game"].get("turn") or {}
    now = now if now.get("round") == state["round"] else {}
    units = [u for u in state["units"].values() if not u["removed"]]
    if not units or rng.random() < 0.06:
        return {"type": "next-phase"}
    other = rng.choice(units)["id"]
    if phase == "Initiative":
        if not (now.get("initiative") or {}).get("winner"):
            return {"type": "df-initiative"}
        return {"type": "df-first", "first": rng.choice(state["sides"])} if not now.get("first") else {"type": "next-phase"}
    if phase == "Fate" and len(now.get("fate", [])) < 2:
        return {"type": "df-fate"}
    if phase != "Action":
        return {"type": "next-phase"}
    cur = now.get("current")
    if not cur or rng.random() < 0.15:
        waiting = [u["id"] for u in units if not u["activated"]]
        return {"type": "df-activate", "unit": rng.choice(waiting)} if waiting else {"type": "next-phase"}
    docked = [a for a, c in state["game"].get("docked", {}).items() if c == cur]
    enemies = [u["id"] for u in units if u["side"] != state["units"][cur]["side"]] or [other]
    other = rng.choice(enemies)
    return rng.choice([
        {"type": "df-broadside", "firer": cur, "target": other, "distance": rng.randint(0, 18)},
        {"type": "df-order", "unit": cur, "order": rng.choice(["Repair", "Full Speed Ahead", "Fire As She Bears"])},
        {"type": "df-sail", "unit": cur, "relation": rng.choice(["astern", "side", "in irons"])},
        {"type": "df-full-speed", "unit": cur},
        {"type": "df-broadside", "firer": cur, "target": other, "distance": rng.randint(0, 19)},
        {"type": "df-broadside", "firer": rng.choice(units)["id"], "target": cur, "distance": 6, "fasb": 1},
        {"type": "df-duel", "ships": {cur: 1, other: 1}}, {"type": "df-boarding", "ships": {cur: 1, other: 1}},
        {"type": "df-damage", "unit": other, "mode": rng.choice(["card", "aground", "type"]), "value": "Crew"},
        {"type": "df-deploy", "unit": rng.choice(docked or [cur])},
        {"type": "df-dock", "unit": other, "to": cur},
        {"type": "df-anchor", "unit": cur, "op": rng.choice(["drop", "weigh"]), "distance": 1},
        {"type": "df-escape", "unit": cur, "enemies": 1},
        {"type": "df-repair", "unit": cur, "card": "damage:c1"},
    ])


@pytest.mark.parametrize("seed", range(4))
def test_random_play_with_undo_and_redo_always_folds_to_the_cached_state(tmp_path, seed):
    import random

    from companion.actions import Ctx
    from companion.content import default_systems
    from companion.errors import RuleError

    system = default_systems()["dreadfleet"]
    rng = random.Random(seed)
    db = store.open_db(tmp_path / "random.sqlite")
    ctx = Ctx(system=system, rng=rng, seat="Anna")
    code = store.create(db, system, {"name": "Random"}, ctx)["code"]
    for name in ("Heldenhammer", "Seadrake", "Bloody Reaver", "Skabrus"):
        store.act(db, code, {"type": "df-warship", "name": name, "sail": 1, "stats": STATS, "aux": AUX}, ctx)
    store.act(db, code, {"type": "deck-load", "deck": "fate", "definition": "example-fate"}, ctx)
    store.act(db, code, {"type": "deck-load", "deck": "damage", "definition": "example-damage"}, ctx)
    store.act(db, code, {"type": "df-wind-place"}, ctx)
    played = set()
    for _ in range(250):
        try:
            if rng.random() < 0.05:
                store.undo(db, code, ctx, redo=rng.random() < 0.4)
            else:
                played.add(store.act(db, code, random_move(store.table(db, code)["state"], rng), ctx)["payload"]["type"])
        except RuleError:
            continue
        log = [{"seq": e["seq"], "type": e["type"], "payload": e["payload"]} for e in store.events(db, code)]
        assert actions.fold(log) == store.table(db, code)["state"]
    assert {"df-fate", "df-activate", "df-broadside"} <= played, played
