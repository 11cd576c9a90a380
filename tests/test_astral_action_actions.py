"""Astral Action at the table through the Flask client: every aa-* action type, the ship designer,
bad input (400, one sentence next to the control, nothing stored), and the log always folding to the
cached state.  Real dice are entered wherever the rules roll, so every outcome below is fixed.
"""
from __future__ import annotations

import html
import json
import re

import pytest

from companion import actions, store
from companion.said import english
from companion.words import for_players
from tests.test_hidden_information import Phone
from tests.table_actions import seat_token

ENGINES = ("sqlite", "postgresql")  # the tests here run on both (tests/conftest.py, issue 39)

KINETIC = {"slot": "primary", "item": "kinetic", "arcs": ["F", "P"]}


def text(resp) -> str:
    return html.unescape(resp.get_data(as_text=True))


class Astral:
    """An Astral Action table driven like phones do: Anna plays Player 1, Ben Player 2."""

    def __init__(self, app, table, sides=("Player 1", "Player 2")):
        self.app, self.table, self.client = app, table, table.client
        table.create(system="astral-action", seat="Anna", side=sides[0],
                     sides="" if sides == ("Player 1", "Player 2") else ", ".join(sides))
        player, _ = table.secrets()
        self.ben = Phone(app.test_client()).join(table.code, player, "Ben", sides[1])

    @property
    def code(self):
        return self.table.code

    def db(self):
        return store.open_db(self.app.config["DATABASE"])

    def row(self):
        return store.table(self.db(), self.code)

    def state(self):
        return self.row()["state"]

    def folds(self):
        log = [{"seq": e["seq"], "type": e["type"], "payload": e["payload"]} for e in store.events(self.db(), self.code)]
        assert actions.fold(log) == self.state()

    def ok(self, phone=None, control="aa-test", **fields):
        resp = (phone or self.table).act(_control=control, **fields)
        assert resp.status_code == 200, text(resp)[:400]
        return resp

    def refused(self, sentence, phone=None, control="aa-test", **fields):
        before = self.row()
        resp = (phone or self.table).act(_control=control, **fields)
        assert resp.status_code == 400, text(resp)[:300]
        assert resp.headers["HX-Retarget"] == f"#{control}-err"
        assert for_players(sentence) in text(resp), text(resp)  # the screen drops our line notes
        after = self.row()
        assert after["state"] == before["state"] and after["seq"] == before["seq"]  # nothing stored
        return resp

    def design(self, name, size, equipment=(KINETIC,), miss=2, glance=4, movement="2:3/2 3:2/1", **extra):
        form = {"csrf_token": self.table.csrf, "_control": "aa-designer", "name": name, "size": str(size),
                "chart.miss": str(miss), "chart.glance": str(glance), "movement": movement, **extra}
        for n, e in enumerate(equipment):
            form.update({f"eq.{n}.slot": e["slot"], f"eq.{n}.item": e["item"], f"eq.{n}.variant": e.get("variant", ""),
                         f"eq.{n}.linked": str(e.get("linked", "")), f"eq.{n}.arcs": e.get("arcs", [])})
        return self.client.post(f"/t/{self.code}/astral-action/cards", data=form, headers={"HX-Request": "true"})

    def ship(self, name, size, side="Player 1", equipment=(KINETIC,), carrier=None, **extra):
        resp = self.design(name, size, equipment, **extra)
        assert resp.status_code == 200, text(resp)
        item = next(i["id"] for i in store.library_items(self.db(), "astral-action", "sic") if i["name"] == name)
        resp = self.client.post(f"/t/{self.code}/astral-action/cards/{item}/launch",
                                data={"csrf_token": self.table.csrf, "side": side, "carrier": carrier or "",
                                      "_control": f"aa-card-{item}"}, headers={"HX-Request": "true"})
        assert resp.status_code == 200, text(resp)
        return next(u["id"] for u in self.state()["units"].values() if u["name"] == name)

    def ship_state(self, uid):
        return self.state()["game"]["ships"][uid]

    def to_phase(self, name):
        while self.state()["phases"][self.state()["phase"]] != name:
            self.ok(type="next-phase")


@pytest.fixture
def aa(app, table):
    return Astral(app, table)


# --- ship cards ---------------------------------------------------------------------------------

def test_designer_saves_a_card_with_its_points_and_it_enters_play(aa):
    kit = [KINETIC, {"slot": "secondary", "item": "shields"},
           {"slot": "primary", "item": "beam", "variant": "oversized", "arcs": ["F"]}]
    resp = aa.design("Falcon", 2, kit)
    assert resp.status_code == 200 and "Falcon" in text(resp) and "Put on the table" in text(resp)
    saved = aa.client.get(f"/t/{aa.code}/astral-action/cards.json").get_json()["cards"][0]
    assert saved["points"]["total"] == 60 + 20 + 10 + 26  # L399-L401, Oversized 20 +30% round up (L157)
    assert saved["rows"] == [10, 10] and saved["movement"] == [[2, 3, 2], [3, 2, 1]]
    uid = aa.ship("Falcon", 2, equipment=kit)
    ship = aa.ship_state(uid)
    assert ship["tracks"] == [{"eq": 1, "kind": "shields", "size": 5, "filled": 0}]  # half of a 10-box row, L195
    assert ship["velocity"] == 2 and aa.state()["units"][uid]["stats"]["points"] == 116
    board = aa.client.get(f"/t/{aa.code}?open=*").data.decode()
    assert "Health 2" in board and "Velocity <b>2</b>" in board
    aa.folds()


def test_the_designer_takes_the_movement_table_as_a_grid_in_the_rulebooks_words(aa):
    """Issue 28 §5: Velocity, Maneuver and Heading a row (no "2:3/2" code to learn); blank rows skipped."""
    page = aa.client.get(f"/t/{aa.code}/tools/game").data.decode()
    assert "velocity:maneuver/heading" not in page
    assert all(f'name="mv.0.{k}"' in page for k in ("velocity", "maneuver", "heading"))
    grid = {"mv.0.velocity": "3", "mv.0.maneuver": "2", "mv.0.heading": "1",
            "mv.2.velocity": "2", "mv.2.maneuver": "3", "mv.2.heading": "2"}
    assert aa.design("Kite", 1, movement="", **grid).status_code == 200
    saved = aa.client.get(f"/t/{aa.code}/astral-action/cards.json").get_json()["cards"][0]
    assert saved["movement"] == [[2, 3, 2], [3, 2, 1]]
    resp = aa.design("Kite", 1, movement="", **{**grid, "mv.1.velocity": "4"})
    assert "Movement Table row 2: enter its Velocity, Maneuver and Heading (all three)." in text(resp)


@pytest.mark.parametrize("equipment, extra, sentence", [
    ([KINETIC], {"chart.miss": ""}, "Enter the Miss/Glance/Hit chart from your card"),
    ([KINETIC], {"movement": ""}, "Enter the Movement Table from your card"),
    ([{"slot": "secondary", "item": "kinetic", "variant": "oversized", "arcs": ["F"]}], {}, "Oversized may only be applied to Primary Weapons (L157)."),
    ([{"slot": "primary", "item": "beam", "variant": "structural", "arcs": ["F", "A"]}], {}, "Structurally Mounted allows only one Firing Arc (L158)."),
    ([{"slot": "primary", "item": "rockets", "variant": "linked", "arcs": ["F"]}], {}, "Rockets may not be a Variant (L170-L176)."),
    ([{"slot": "primary", "item": "hangar"}], {}, "A Fighter Hangar needs a Fighter Launch Hangar on the same ship (L212)."),
    ([{"slot": "primary", "item": "kinetic"}], {}, "a weapon fires through at least one arc"),
    ([{"slot": "secondary", "item": "boosters"}], {}, "Boosters is a primary component (L200-L202)."),
    ([KINETIC], {"rows": "10 10 10"}, "A Size 2 ship has 2 health rows (one per Size); you entered 3."),
])
def test_the_designer_refuses_a_broken_card_with_a_sentence(aa, equipment, extra, sentence):
    resp = aa.design("Broken", 2, equipment, **extra)
    assert resp.status_code == 400 and resp.headers["HX-Retarget"] == "#aa-designer-err"
    assert for_players(sentence) in text(resp)
    assert store.library_items(aa.db(), "astral-action", "sic") == []


def test_fighters_need_a_carrier_and_follow_fighter_rules(aa):
    resp = aa.design("Wasp", 0, [{"slot": "secondary", "item": "kinetic", "arcs": ["F"]}], weapon_size="1")
    assert resp.status_code == 400 and for_players("A Fighter may not take a Weapon as a secondary slot (L221).") in text(resp)
    assert aa.design("Wasp", 0, [KINETIC, {"slot": "secondary", "item": "interceptor"}], weapon_size="1").status_code == 200
    item = next(i["id"] for i in store.library_items(aa.db(), "astral-action", "sic") if i["name"] == "Wasp")
    resp = aa.client.post(f"/t/{aa.code}/astral-action/cards/{item}/launch",
                          data={"csrf_token": aa.table.csrf, "side": "Player 1", "_control": f"aa-card-{item}"},
                          headers={"HX-Request": "true"})
    assert resp.status_code == 400 and for_players("Assign the fighter to its carrier ship (L217).") in text(resp)
    carrier = aa.ship("Mother", 3, equipment=[KINETIC, {"slot": "primary", "item": "launch"}])
    wasp = aa.ship("Wasp", 0, equipment=[KINETIC, {"slot": "secondary", "item": "interceptor"}], carrier=carrier,
                   weapon_size="1")
    ship = aa.ship_state(wasp)
    assert ship["rows"] == [{"size": 6, "filled": 0}] and ship["card"]["points"]["total"] == 30  # L231, L241
    assert "moves 10" in aa.client.get(f"/t/{aa.code}?open=*").data.decode()  # Interceptor Boosters, L238
    aa.folds()


# --- command phase: orders, sealed orders, tokens, commands ---------------------------------------

def test_orders_open_and_sealed_and_the_one_order_rule(aa):
    falcon = aa.ship("Falcon", 2)
    raven = aa.ship("Raven", 1, side="Player 2")
    aa.ok(type="aa-order", unit=falcon, order="Evasive Actions", control="aa-orders-" + falcon)
    assert aa.state()["game"]["turn"]["orders"][falcon] == ["Evasive Actions"]
    aa.refused("Evasive Actions was already given to this ship this turn (L248).", type="aa-order", unit=falcon,
               order="Evasive Actions", control="aa-orders-" + falcon)
    aa.refused("This ship has all the Orders it may have this turn.", type="aa-order", unit=falcon,
               order="Mark Target", control="aa-orders-" + falcon)
    aa.ok(phone=aa.ben, type="aa-order", unit=raven, order="Brace for Impact", hidden="1", control="aa-orders-" + raven)
    state = aa.state()
    part = state["sealed"]["s1"]
    assert part["side"] == "Player 2" and part["secret"]["order"] == "Brace for Impact" and not part["revealed"]
    anna_board = aa.client.get(f"/t/{aa.code}?open=*").data.decode()
    assert "Brace for Impact</b>" not in anna_board and "Sealed order" in anna_board
    assert "Brace for Impact" in aa.ben.client.get(f"/t/{aa.code}?open=*").data.decode()
    aa.refused("Raven has Orders this turn: Orders or a Token, not both (L125-L130).", phone=aa.ben,
               type="aa-token", unit=raven)
    aa.refused("Only Player 2 gives Orders to Raven.", type="aa-order", unit=raven, order="Evasive Actions",
               hidden="1", control="aa-orders-" + raven)
    aa.to_phase("Activation")
    aa.refused("Writing Orders happens in the Command phase; it is now the Activation phase.", type="aa-order",
               unit=falcon, order="Mark Target")
    aa.folds()


def test_command_token_and_commands_by_token_or_by_discarding_a_sealed_order(aa):
    falcon = aa.ship("Falcon", 2)
    raven = aa.ship("Raven", 1, side="Player 2")
    aa.ok(type="aa-token", unit=falcon)
    aa.refused("Falcon already has its Command Token this turn.", type="aa-token", unit=falcon)
    aa.ok(type="aa-command", unit=falcon, command="Change Velocity", via="token")
    assert aa.state()["game"]["turn"]["tokens"][falcon] == "spent"
    aa.refused("Falcon has no unspent Command Token this turn.", type="aa-command", unit=falcon, command="Dodge", via="token")
    aa.ok(phone=aa.ben, type="aa-order", unit=raven, order="Offensive Focus", hidden="1")
    resp = aa.ok(phone=aa.ben, type="aa-command", unit=raven, command="Dodge", via="s1")
    part = aa.state()["sealed"]["s1"]
    assert part["discarded"] and not part["revealed"]
    log = aa.client.get(f"/t/{aa.code}/log").data.decode()
    assert "Raven discards an unrevealed Order: [Navigate] Dodge" in log and "Offensive Focus" not in log
    aa.refused("Only an unrevealed Order of Raven from this turn can be discarded for a Command (L127).", phone=aa.ben,
               type="aa-command", unit=raven, command="Enhance Sensors", via="s1")
    aa.folds()


def undo_label(aa) -> str:
    return store.history(aa.db(), aa.code)["undo"]


def test_a_sealed_order_names_the_sealing_seat_once(aa):
    raven = aa.ship("Raven", 1, side="Player 2")
    aa.ok(phone=aa.ben, type="aa-order", unit=raven, order="Brace for Impact", hidden="1")
    # the undo button and the log put the seat's name before the label
    assert undo_label(aa) == "Ben: sealed an order for Raven"
    log = html.unescape(aa.client.get(f"/t/{aa.code}/log").data.decode())
    assert "Ben</small> <span>sealed an order for Raven" in log and "Brace for Impact" not in log


def test_a_side_that_passes_is_named_once_when_its_seat_bears_its_name(app, table):
    aa = Astral(app, table, sides=("Anna", "Ben"))
    aa.ship("Scout", 1, side="Anna")
    aa.ship("Raven", 1, side="Ben")
    aa.ship("Hawk", 2, side="Ben")
    aa.to_phase("Activation")
    aa.ok(type="aa-pass", side="Anna")
    assert undo_label(aa) == "Anna: passes at Size 1"
    aa.folds()


def test_a_side_passed_for_by_another_seat_is_named(aa):
    aa.ship("Scout", 1)
    aa.ship("Raven", 1, side="Player 2")
    aa.ship("Hawk", 2, side="Player 2")
    aa.to_phase("Activation")
    aa.ok(type="aa-pass", side="Player 1")
    assert undo_label(aa) == "Anna: Player 1 passes at Size 1"


# --- activation by size ------------------------------------------------------------------------

def test_activation_goes_up_by_size_alternating_then_back_down(aa):
    a1 = aa.ship("Scout", 1)
    a1b = aa.ship("Probe", 1)
    a2 = aa.ship("Falcon", 2)
    b1 = aa.ship("Raven", 1, side="Player 2")
    aa.refused("Activating a ship happens in the Activation phase; it is now the Command phase.", type="aa-activate", unit=a1)
    aa.to_phase("Activation")
    aa.refused("Size 1 ships activate now (ascending); this one is Size 2 (L132-L135).", type="aa-activate", unit=a2)
    aa.ok(type="aa-activate", unit=a1)
    aa.refused("It is Player 2's activation: players alternate (L132).", type="aa-activate", unit=a1b)
    aa.ok(phone=aa.ben, type="aa-activate", unit=b1)
    aa.ok(type="aa-activate", unit=a1b)
    assert "Player 1</b> activates · Size <b>2</b>" in aa.client.get(f"/t/{aa.code}?open=*").data.decode()
    aa.refused("Nobody may pass at Size 2: at the largest Size every ship must activate (L133).", type="aa-pass",
               side="Player 1")
    aa.ok(type="aa-activate", unit=a2)
    aa.refused("Every ship has activated this turn.", phone=aa.ben, type="aa-activate", unit=b1)
    aa.folds()


def test_a_passed_size_comes_back_on_the_way_down(aa):
    a1 = aa.ship("Scout", 1)
    aa.ship("Raven", 1, side="Player 2")
    b2 = aa.ship("Hawk", 2, side="Player 2")
    aa.to_phase("Activation")
    aa.ok(type="aa-pass", side="Player 1")
    assert aa.state()["game"]["turn"]["passed"] == {"1": ["Player 1"]}
    aa.refused("Player 1 has no ship waiting at this step.", type="aa-pass", side="Player 1")
    raven = next(u for u, x in aa.state()["units"].items() if x["name"] == "Raven")
    aa.ok(phone=aa.ben, type="aa-activate", unit=raven)
    aa.ok(phone=aa.ben, type="aa-activate", unit=b2)  # the largest Size
    aa.ok(type="aa-activate", unit=a1)  # back down: the Size 1 ship that passed
    aa.folds()


# --- attacks, damage, conditions -----------------------------------------------------------------

def attack_setup(aa, target_equipment=({"slot": "secondary", "item": "shields"},)):
    falcon = aa.ship("Falcon", 2)
    raven = aa.ship("Raven", 2, side="Player 2", equipment=[KINETIC, *target_equipment])
    aa.to_phase("Activation")
    aa.ok(type="aa-activate", unit=falcon)
    return falcon, raven


def test_attack_with_entered_dice_then_apply_through_shields_and_health(aa):
    falcon, raven = attack_setup(aa, [{"slot": "secondary", "item": "shields"}, {"slot": "primary", "item": "armor"}])
    aa.ok(type="aa-attack", shot=f"{falcon}:0", target=raven, band=0, dice="5 6", control="aa-attack")
    pending = aa.state()["game"]["attack"]
    assert pending["result"] == {"accuracy_die": 5, "accuracy": 5, "result": "hit", "damage_dice": [6], "damage": 6,
                                 "applied": 6}
    event = [e for e in store.events(aa.db(), aa.code) if e["type"] == "aa-attack"][-1]
    assert event["payload"]["odds"]["exact"] == {"miss": "1/3", "glance": "1/3", "hit": "1/3"}
    aa.refused("Apply the attack being resolved first.", type="aa-attack", shot=f"{falcon}:0", target=raven, dice="1 1")
    aa.ok(type="aa-apply-attack", control="aa-panel")
    ship = aa.ship_state(raven)
    # Kinetic: Accuracy roll 5 > the 5 undamaged Shield boxes? no (5 is not greater): shields take 5, armor 1
    assert [t["filled"] for t in ship["tracks"]] == [5, 1] and ship["rows"][0]["filled"] == 0
    aa.refused("Primary Kinetic F/P has already attacked this turn (L77).", type="aa-attack", shot=f"{falcon}:0",
               target=raven, dice="4 4")
    aa.folds()


def test_kinetic_bypasses_a_damaged_shield_and_a_glance_is_half_rounded_up(aa):
    falcon, raven = attack_setup(aa)
    aa.ok(type="aa-damage", unit=raven, amount=2, why="PWS exchange")  # shields 2/5: 3 undamaged
    aa.ok(type="aa-attack", shot=f"{falcon}:0", target=raven, dice="4 5")  # 4 glance; 5 → 3
    aa.ok(type="aa-apply-attack")
    ship = aa.ship_state(raven)
    assert ship["tracks"][0]["filled"] == 2 and ship["rows"][0]["filled"] == 3  # 4 > 3: shields ignored (L163, L196)
    aa.folds()


def test_reroll_dodge_and_the_bad_reasons(aa):
    falcon, raven = attack_setup(aa)
    aa.ok(type="aa-attack", shot=f"{falcon}:0", target=raven, dice="5 2")
    aa.refused("The attacker has no Offensive Focus Order in effect", type="aa-reroll", why="focus", die=1, value="6")
    aa.ok(type="aa-reroll", why="veteran", die=1, value="6")
    assert aa.state()["game"]["attack"]["result"]["damage"] == 6
    aa.refused("This attack was already rerolled for Veteran crew", type="aa-reroll", why="veteran", die=0, value="1")
    aa.refused("Raven has no unspent Command Token this turn.", phone=aa.ben, type="aa-dodge", via="token")
    aa.to_phase("Resolution")
    aa.to_phase("Command")
    # a new turn: the pending attack is still there (it must be applied); Raven gets a token and dodges
    aa.ok(phone=aa.ben, type="aa-token", unit=raven)
    aa.ok(phone=aa.ben, type="aa-dodge", via="token")
    assert aa.state()["game"]["attack"]["result"]["result"] == "glance"  # 5 - 1 = 4: glance (L268)
    aa.ok(type="aa-apply-attack")
    assert aa.ship_state(raven)["tracks"][0]["filled"] == 3
    aa.folds()


def test_filling_a_row_rolls_a_condition_and_weapons_damage_deactivates(aa):
    falcon, raven = attack_setup(aa, [])
    aa.refused("Raven has no Condition to generate (a health row fills first, L93).", type="aa-condition",
               unit=raven, dice="4 4")
    aa.ok(type="aa-damage", unit=raven, amount=10, why="test")
    assert aa.ship_state(raven)["pending"] == 1
    aa.refused("Enter 2 d6 results from 1 to 6.", type="aa-condition", unit=raven, dice="4")
    aa.ok(type="aa-condition", unit=raven, dice="4 4")  # 8: Weapons Damage
    assert aa.ship_state(raven)["determined"] == {"options": [{"roll": 8, "name": "Weapons Damage"}]}
    aa.refused("Choose one Primary weapon or two Secondary weapons to deactivate (L101-L103).",
               type="aa-apply-condition", unit=raven, pick=0)
    aa.ok(type="aa-apply-condition", unit=raven, pick=0, **{"items.0": "1"})  # the card's checkbox
    ship = aa.ship_state(raven)
    assert ship["conditions"] == ["Weapons Damage"] and ship["inactive"] == [0] and ship["pending"] == 0
    aa.refused("Raven may no longer use [Offensive] Commands", phone=aa.ben, type="aa-command", unit=raven,
               command="Reroll a die", via="token")
    aa.folds()


def test_structural_adds_one_and_a_result_with_no_effect_is_refused(aa):
    raven = aa.ship("Raven", 3, side="Player 2")
    aa.ok(type="aa-damage", unit=raven, amount=10)
    aa.ok(type="aa-condition", unit=raven, dice="2 2")  # 4: Structural Damage
    aa.ok(type="aa-apply-condition", unit=raven)
    aa.ok(type="aa-damage", unit=raven, amount=9)  # +1 Structural (L99): the second row fills
    assert aa.ship_state(raven)["rows"][1]["filled"] == 10
    aa.refused("4: Structural Damage can have no functional effect on this ship: reroll it (L96).",
               type="aa-condition", unit=raven, dice="1 3")
    aa.ok(type="aa-condition", unit=raven, dice="6 6")  # 12: No Condition Generated
    aa.ok(type="aa-apply-condition", unit=raven)
    assert aa.ship_state(raven)["conditions"] == ["Structural Damage"]
    aa.folds()


def test_brace_for_impact_disregards_overflow_and_offers_two_conditions(aa):
    raven = aa.ship("Raven", 2, side="Player 2")
    aa.ok(phone=aa.ben, type="aa-order", unit=raven, order="Brace for Impact")
    aa.ok(type="aa-damage", unit=raven, amount=14)  # fills row 1; the 4 past it are disregarded (L258)
    ship = aa.ship_state(raven)
    assert [r["filled"] for r in ship["rows"]] == [10, 0]
    aa.refused("Enter 4 d6 results from 1 to 6.", type="aa-condition", unit=raven, dice="3 4")
    aa.ok(type="aa-condition", unit=raven, dice="3 4 6 5")
    options = aa.ship_state(raven)["determined"]["options"]
    assert [o["name"] for o in options] == ["Serious Damage", "Propulsion Damage"]
    aa.refused("Choose (a) no [Hyperspace] Commands or (b) no Velocity change", type="aa-apply-condition",
               unit=raven, pick=1)
    aa.ok(type="aa-apply-condition", unit=raven, pick=1, option="b")
    aa.refused("Raven may not change its Velocity (Propulsion Damage, L110).", phone=aa.ben, type="aa-velocity",
               unit=raven, by=1)
    aa.folds()


def test_defensive_command_replaces_a_condition_and_catastrophic_destroys(aa):
    falcon, raven = attack_setup(aa, [])
    aa.ok(type="aa-damage", unit=raven, amount=10)
    aa.ok(type="aa-condition", unit=raven, dice="1 1")  # 2: Catastrophic
    aa.refused("Raven has no unspent Command Token this turn.", phone=aa.ben, type="aa-replace-condition",
               unit=raven, via="token", dice="3 3")
    aa.ok(type="aa-apply-condition", unit=raven)
    assert aa.state()["units"][raven]["removed"] and aa.ship_state(raven)["destroyed"]
    aa.folds()


def test_replace_condition_spends_the_token(aa):
    raven = aa.ship("Raven", 2, side="Player 2")
    aa.ok(phone=aa.ben, type="aa-token", unit=raven)
    aa.ok(type="aa-damage", unit=raven, amount=10)
    aa.ok(type="aa-condition", unit=raven, dice="1 1")
    aa.ok(phone=aa.ben, type="aa-replace-condition", unit=raven, via="token", dice="6 6")
    assert aa.ship_state(raven)["determined"]["options"] == [{"roll": 12, "name": "No Condition Generated"}]
    aa.ok(type="aa-apply-condition", unit=raven)
    assert not aa.state()["units"][raven]["removed"]
    aa.folds()


# --- movement, terrain, settings, fighters, end of game ------------------------------------------

def test_velocity_follows_the_movement_table(aa):
    falcon = aa.ship("Falcon", 2)
    aa.ok(type="aa-velocity", unit=falcon, by=1)
    assert aa.ship_state(falcon)["velocity"] == 3
    aa.refused("Velocity 4 is not on Falcon's Movement Table (2, 3).", type="aa-velocity", unit=falcon, by=1)
    aa.refused("by must be from -1 to 1; got 2.", type="aa-velocity", unit=falcon, by=2)
    aa.folds()


def test_terrain_damage_per_size_and_settings(aa):
    falcon = aa.ship("Falcon", 2, equipment=[KINETIC, {"slot": "secondary", "item": "shields"},
                                            {"slot": "primary", "item": "armor"}])
    aa.ok(type="aa-setting", setting="damage_order", value=1)
    aa.ok(type="aa-damage", unit=falcon, per_size=2, why="Dangerous")  # 2 x Size 2 = 4 (L296): armor first
    ship = aa.ship_state(falcon)
    assert [(t["kind"], t["filled"]) for t in ship["tracks"]] == [("shields", 0), ("armor", 4)]
    aa.refused("setting must be one of", type="aa-setting", setting="speed", value=1)
    aa.refused("amount must be from 1 to 99; got 0.", type="aa-damage", unit=falcon, amount=0)
    aa.folds()


def test_fighter_fires_once_then_resupplies(aa):
    carrier = aa.ship("Mother", 3, equipment=[KINETIC, {"slot": "primary", "item": "launch"}])
    wasp = aa.ship("Wasp", 0, carrier=carrier, weapon_size="1")
    raven = aa.ship("Raven", 2, side="Player 2")
    aa.to_phase("Activation")
    aa.ok(type="aa-activate", unit=wasp)  # fighters: Size 0 "for ... turn order" (L218), before Size 1
    aa.refused("Fighters cannot attack, or be attacked, at Extended Range (L218, L226).", type="aa-attack",
               shot=f"{wasp}:0", target=raven, band=1, dice="3 3")
    aa.refused("Wasp has not fired since it last resupplied.", type="aa-resupply", unit=wasp)
    aa.ok(type="aa-attack", shot=f"{wasp}:0", target=raven, dice="1 1")
    aa.ok(type="aa-apply-attack")
    aa.to_phase("Resolution")
    aa.to_phase("Activation")
    aa.ok(type="aa-activate", unit=wasp)
    aa.refused("Wasp must resupply on its carrier before attacking again (L227-L230).", type="aa-attack",
               shot=f"{wasp}:0", target=raven, dice="3 3")
    aa.ok(type="aa-resupply", unit=wasp)
    assert aa.ship_state(wasp)["shots"] == 0
    aa.folds()


def test_game_length_roll_and_victory_conditions(aa):
    falcon = aa.ship("Falcon", 2)
    raven = aa.ship("Raven", 2, side="Player 2")
    aa.ok(type="aa-damage", unit=raven, amount=10)
    aa.ok(type="aa-condition", unit=raven, dice="2 2")
    aa.ok(type="aa-apply-condition", unit=raven)
    aa.to_phase("Resolution")
    aa.refused("The end-of-game roll starts at the end of turn 5 (L342).", type="aa-end-roll", dice="6")
    for _ in range(4):
        aa.ok(type="next-phase")
        aa.to_phase("Resolution")
    aa.ok(type="aa-end-roll", dice="3")
    assert aa.state()["game"]["end"] is None
    aa.refused("The end-of-game roll for turn 5 was already made (3).", type="aa-end-roll", dice="5")
    aa.ok(type="next-phase")
    aa.to_phase("Resolution")
    aa.ok(type="aa-end-roll", dice="4")
    assert aa.state()["game"]["end"] == {"turn": 6, "roll": 4}
    aa.refused("Enter 2 different victory condition numbers from 1 to 4.", type="aa-victory", count=2, drawn="2 2")
    aa.ok(type="aa-victory", count=2, drawn="2 4")
    results = aa.state()["game"]["victory"]["results"]
    assert results[1]["scores"] == {"Player 1": 0, "Player 2": 1} and results[1]["winner"] == "Player 1"
    by = english(results[0]["text"]).split()[1]
    expected = {"Player 1": float(aa.ship_state(falcon)["card"][by] if by == "size" else
                                  aa.ship_state(falcon)["card"]["points"]["total"])}
    assert results[0]["scores"]["Player 1"] == expected["Player 1"]  # no Condition: full value (L346)
    assert "Player 1" in aa.client.get(f"/t/{aa.code}?open=*").data.decode()
    aa.folds()


def test_phase_hook_reinforces_shields_in_resolution(aa):
    falcon = aa.ship("Falcon", 2, equipment=[KINETIC, {"slot": "primary", "item": "shields"}])
    aa.ok(type="aa-order", unit=falcon, order="Reinforce Shields")
    aa.ok(type="aa-damage", unit=falcon, amount=6)
    aa.to_phase("Resolution")
    assert aa.ship_state(falcon)["tracks"][0]["filled"] == 3  # removes Size 2 + 1 Shield = 3 (L259)
    assert any("Reinforce Shields removes 3" in english(r) for r in aa.state()["reminders"])
    aa.folds()


def test_odds_fragment_and_card_export_import(aa):
    falcon = aa.ship("Falcon", 2)
    raven = aa.ship("Raven", 2, side="Player 2")
    page = text(aa.client.get(f"/t/{aa.code}/astral-action/odds?shot={falcon}:0&target={raven}&band=1"))
    assert "Miss 50%" in page and "Glance 33%" in page and "Hit 17%" in page  # d6 - 1 vs miss ≤2, glance ≤4
    doc = aa.client.get(f"/t/{aa.code}/astral-action/cards.json").get_json()
    for item in store.library_items(aa.db(), "astral-action", "sic"):
        store.library_delete(aa.db(), item["id"], host=True)  # the host clears the library
    resp = aa.client.post(f"/t/{aa.code}/astral-action/cards/import",
                          data={"csrf_token": aa.table.csrf, "text": json.dumps(doc), "_control": "aa-import"},
                          headers={"HX-Request": "true"})
    assert resp.status_code == 200 and len(store.library_items(aa.db(), "astral-action", "sic")) == 2
    doc["cards"][0]["size"] = 9
    resp = aa.client.post(f"/t/{aa.code}/astral-action/cards/import",
                          data={"csrf_token": aa.table.csrf, "text": json.dumps(doc), "_control": "aa-import"},
                          headers={"HX-Request": "true"})
    assert resp.status_code == 400 and "Card 1: Ship Size (0 for a Fighter) must be from 0 to 6; got 9." in text(resp)
    assert re.search(r"aa-pick", text(aa.client.get(f"/t/{aa.code}/astral-action/pick")))


def test_aa_ship_through_the_api_checks_the_card_and_stores_nothing_on_bad_input(aa):
    headers = {"Authorization": f"Bearer {seat_token(aa.ben.client, aa.code)}"}  # Ben's seat: Player 2
    card = {"name": "Lancer", "size": 1, "chart": {"miss": 1, "glance": 3}, "movement": "3:1/2",
            "equipment": [{"slot": "primary", "item": "missiles", "arcs": ["F"]}, {"slot": "secondary", "item": "pws"}]}
    before = aa.row()
    resp = aa.client.post(f"/api/tables/{aa.code}/actions", json={"type": "aa-ship", "card": {**card, "chart": {}}},
                          headers=headers)
    assert resp.status_code == 400 and resp.get_json()["field"] == "chart"
    assert aa.row()["seq"] == before["seq"]
    resp = aa.client.post(f"/api/tables/{aa.code}/actions", json={"type": "aa-ship", "card": card}, headers=headers)
    assert resp.status_code == 200, resp.get_json()
    assert resp.get_json()["label"] == "Lancer (Size 1, 60 points) joins Player 2"  # 30 + 20 + 10 (L399)
    assert aa.state()["units"]["u1"]["side"] == "Player 2"
    aa.folds()


def test_missile_token_resolves_in_the_resolution_phase(aa):
    launcher = aa.ship("Lancer", 2, equipment=[{"slot": "primary", "item": "missiles", "arcs": ["F"]}])
    raven = aa.ship("Raven", 2, side="Player 2", equipment=[KINETIC, {"slot": "secondary", "item": "pws"}])
    aa.refused("Only Missiles place a Missile token (L182).", phone=aa.ben, type="aa-missile-token",
               shot=f"{raven}:0", target=launcher)
    aa.to_phase("Activation")
    aa.ok(type="aa-activate", unit=launcher)
    aa.ok(type="aa-missile-token", shot=f"{launcher}:0", target=raven, control="aa-attack")
    assert aa.state()["game"]["missiles"] == [{"id": "m1", "attacker": launcher, "weapon": 0, "target": raven}]
    aa.refused("Missile tokens resolve at the beginning of the Resolution phase (L182).", type="aa-attack", token="m1",
               dice="6 6")
    aa.to_phase("Resolution")
    assert any("1 missile token(s) resolve now" in english(r) for r in aa.state()["reminders"])
    aa.ok(type="aa-attack", token="m1", dice="6 6")
    pending = aa.state()["game"]["attack"]
    assert pending["result"]["damage"] == 6 - 1 and aa.state()["game"]["missiles"] == []  # -1 PWS (L153)
    aa.ok(type="aa-apply-attack")
    assert aa.ship_state(raven)["rows"][0]["filled"] == 5
    aa.folds()


def test_aws_removes_a_missile_token(aa):
    launcher = aa.ship("Lancer", 2, equipment=[{"slot": "primary", "item": "missiles", "arcs": ["F"]}])
    raven = aa.ship("Raven", 2, side="Player 2")
    aa.to_phase("Activation")
    aa.ok(type="aa-activate", unit=launcher)
    aa.ok(type="aa-missile-token", shot=f"{launcher}:0", target=raven)
    aa.refused("Primary Missiles F has already attacked this turn (L77).", type="aa-missile-token",
               shot=f"{launcher}:0", target=raven)
    aa.ok(phone=aa.ben, type="aa-missile-token", remove="m1")
    assert aa.state()["game"]["missiles"] == []
    aa.refused("No such Missile token on the table.", type="aa-missile-token", remove="m1")
    aa.folds()


def test_a_hit_goes_to_an_escort_recalculated_with_its_size(aa):
    falcon = aa.ship("Falcon", 2)
    raven = aa.ship("Raven", 3, side="Player 2")
    guard = aa.ship("Guard", 1, side="Player 2")
    aa.to_phase("Activation")
    aa.ok(phone=aa.ben, type="aa-activate", unit=guard)  # Size 1 first (L132)
    aa.ok(type="aa-activate", unit=falcon)
    aa.ok(type="aa-attack", shot=f"{falcon}:0", target=raven, dice="3 4")  # 3 + (3 - 2) = 4 glance vs Raven
    aa.refused("Raven and Guard are not in one Formation.", phone=aa.ben, type="aa-redirect", to=guard,
               why="formation")
    aa.refused("Choose another ship of Player 2.", phone=aa.ben, type="aa-redirect", to=falcon, why="escort")
    aa.ok(phone=aa.ben, type="aa-redirect", to=guard, why="escort")
    result = aa.state()["game"]["attack"]["result"]
    assert result["accuracy"] == 3 + (1 - 2) and result["result"] == "miss"  # Guard's Size 1 (L395)
    aa.refused("This attack was already moved once.", phone=aa.ben, type="aa-redirect", to=raven, why="escort")
    aa.ok(type="aa-apply-attack")
    aa.folds()


def test_an_export_by_the_other_side_reimports_the_sealed_orders_exactly(aa):
    raven = aa.ship("Raven", 2, side="Player 2")
    aa.ok(phone=aa.ben, type="aa-order", unit=raven, order="Brace for Impact", hidden="1")
    doc = json.loads(aa.client.get(f"/t/{aa.code}/export").data)  # Anna's export: Ben's order boxed
    assert "Brace for Impact" not in json.dumps(doc)
    resp = aa.client.post("/api/tables/import", json=doc)
    assert resp.status_code == 201
    assert store.table(aa.db(), resp.get_json()["code"])["state"] == aa.state()


def test_terrain_pieces_with_their_attributes(aa):
    aa.ok(type="aa-terrain", name="Minefield", control="aa-terrain")
    piece = aa.state()["game"]["terrain"][0]
    assert piece["attributes"] == [{"name": "Dangerous", "x": 2, "random": False},
                                   {"name": "Hazardous", "x": 1, "random": False}]  # L327
    aa.ok(type="aa-terrain", name="Our cloud", attributes="Obscuring 2, Movement 1", control="aa-terrain")
    assert [a["name"] for a in aa.state()["game"]["terrain"][1]["attributes"]] == ["Obscuring", "Mobile"]
    aa.refused("'Sticky 2' is not a terrain attribute", control="aa-terrain", type="aa-terrain", name="Goo",
               attributes="Sticky 2")
    aa.to_phase("Resolution")
    assert "Minefield: ships inside take 2 damage per Size." in [english(r) for r in aa.state()["reminders"]]
    aa.ok(type="aa-terrain", remove="t1")
    assert [t["name"] for t in aa.state()["game"]["terrain"]] == ["Our cloud"]
    aa.folds()


def test_patrol_tokens_need_a_scanning_order_and_count_at_the_end(aa):
    falcon = aa.ship("Falcon", 2)
    aa.ship("Raven", 2, side="Player 2")  # a ship without a token: its side scores 0
    aa.ok(type="aa-order", unit=falcon, order="Mark Target", hidden="1")
    aa.refused("Taking a Patrol objective token happens in the Resolution phase; it is now the Command phase.",
               type="aa-patrol", unit=falcon)
    aa.to_phase("Resolution")
    aa.refused("Falcon needs a [Scanning] Order in effect (revealed, if it was sealed) (L352).", type="aa-patrol",
               unit=falcon)
    aa.ok(type="reveal", id="s1")
    aa.ok(type="aa-patrol", unit=falcon)
    aa.refused("Falcon already has its objective token: a Ship may only have one (L352).", type="aa-patrol",
               unit=falcon)
    aa.ok(type="aa-victory", count=1, drawn="4")
    patrol = aa.state()["game"]["victory"]["results"][0]
    assert patrol["scores"] == {"Player 1": 1, "Player 2": 0} and patrol["winner"] == "Player 1"
    aa.folds()


def test_jump_to_hyperspace_is_revealed_then_the_ship_leaves_when_activated(aa):
    falcon = aa.ship("Falcon", 2)
    aa.ship("Raven", 2, side="Player 2")  # the other side keeps playing
    aa.ok(type="aa-order", unit=falcon, order="Jump to Hyperspace", hidden="1")
    aa.to_phase("Resolution")
    aa.ok(type="next-phase")  # the end of the Resolution phase: the order is revealed (L286)
    state = aa.state()
    assert state["sealed"]["s1"]["revealed"] and state["game"]["ships"][falcon]["jumping"] == 2
    assert any("Falcon jumps to Hyperspace" in english(r) for r in state["reminders"])
    aa.refused("Falcon is jumping to Hyperspace: no Orders or Command Tokens this turn (L286).", type="aa-token",
               unit=falcon)
    aa.to_phase("Activation")
    aa.ok(type="aa-activate", unit=falcon)
    assert aa.state()["units"][falcon]["removed"] and aa.ship_state(falcon)["fled"]
    aa.ok(type="aa-victory", count=1, drawn="3")
    lost = aa.state()["game"]["victory"]["results"][0]["scores"]
    card = aa.ship_state(falcon)["card"]
    assert lost["Player 1"] in (card["size"] / 2, card["points"]["total"] / 2)  # fled: half (L347)
    aa.folds()


def test_table_readings_change_points_and_track_sizes_of_ships_put_on_the_table_afterwards(aa):
    kit = [KINETIC, {"slot": "primary", "item": "armor"}, {"slot": "primary", "item": "aws"},
           {"slot": "secondary", "item": "shields"}]
    aa.ok(type="aa-setting", setting="surcharge_per_item", value=1)
    aa.ok(type="aa-setting", setting="whole_track", value=1)
    kit.append({"slot": "primary", "item": "pws"})
    uid = aa.ship("Heavy", 2, equipment=kit)
    # 60 + 4 x 20 + 10 = 150; four Primary for Size 2: +10% for each of the two over (per-item reading) = 180
    assert aa.state()["units"][uid]["stats"]["points"] == 180
    assert [t["size"] for t in aa.ship_state(uid)["tracks"]] == [20, 10]  # the whole track: both rows of 10
    aa.folds()


def test_area_control_and_contested_objective_are_entered_and_the_verdict_follows(aa):
    aa.ship("Falcon", 2)
    aa.ship("Raven", 2, side="Player 2")
    aa.refused("Draw the victory conditions first.", type="aa-victory-result", name="Area control", winner="Player 1")
    aa.ok(type="aa-victory", count=2, drawn="1 4")
    v = aa.state()["game"]["victory"]
    assert v["results"][0]["areas"] in range(1, 7) and v["results"][0]["axis"] in ("X", "Y")  # L345
    assert english(v["verdict"]) == "Enter the conditions the app cannot count (positions on the table)."
    aa.refused("winner must be one of Player 1, Player 2 or tie.", type="aa-victory-result", name="Area control",
               winner="Nobody")
    aa.ok(type="aa-victory-result", name="Area control", winner="Player 1")
    # Conditions Inflicted is a tie (0 and 0); one condition more than the opponent wins (L349)
    assert english(aa.state()["game"]["victory"]["verdict"]) == "Player 1 wins."
    aa.ok(type="aa-victory-result", name="Contested Objective (scenario)", winner="Player 1")
    assert english(aa.state()["game"]["victory"]["verdict"]) == "Player 1 wins decisively."  # two more (L349)
    aa.folds()


def test_a_formation_activates_at_its_largest_size_and_moves_with_the_lowest_profile(aa):
    falcon = aa.ship("Falcon", 2)
    raven = aa.ship("Raven", 3, side="Player 2", movement="2:3/1 3:2/1")
    guard = aa.ship("Guard", 1, side="Player 2", movement="2:1/3")
    aa.refused("A Formation is two or more Ships (L374): add a member.", phone=aa.ben, type="aa-formation",
               lead=raven, members="", kind="defensive")
    aa.refused("Falcon is not one of Player 2's ships.", phone=aa.ben, type="aa-formation", lead=raven,
               members=f"{guard} {falcon}", kind="defensive")
    aa.ok(phone=aa.ben, type="aa-formation", lead=raven, kind="defensive", **{f"members.{guard}": "1"})
    board = aa.ben.client.get(f"/t/{aa.code}?open=*").data.decode()
    assert "Defensive Formation led by Raven: Maneuver <b>1</b> · Heading <b>1</b>" in board  # lowest (L381)
    aa.to_phase("Activation")
    aa.ok(type="aa-activate", unit=falcon)  # Size 1 step: only Guard, in a Size 3 formation: Falcon's Size 2 first
    aa.ok(phone=aa.ben, type="aa-activate", unit=guard)
    units = aa.state()["units"]
    assert units[raven]["activated"] and units[guard]["activated"]  # one activation for the Formation (L380)
    aa.to_phase("Resolution")
    aa.to_phase("Activation")
    aa.ok(type="aa-activate", unit=falcon)
    aa.ok(type="aa-attack", shot=f"{falcon}:0", target=raven, dice="6 4")  # 6 + 1 = 7: hit
    aa.ok(phone=aa.ben, type="aa-redirect", to=guard, why="formation")
    assert aa.state()["game"]["attack"]["target"] == guard
    aa.ok(phone=aa.ben, type="aa-formation", dissolve=raven)
    assert aa.state()["game"]["formations"] == {}
    aa.folds()


# --- refusals never depend on a sealed Order (issue 30 item 4) ------------------------------------

def api_act(aa, side, **action):
    """An API call as the seat playing ``side`` (its own token: Anna's or Ben's), or with only the player
    invitation's secret (``side`` None: a caller of no side)."""
    if side is None:
        token = aa.table.secrets()[0]
    else:
        phone = aa.client if side == aa.state()["sides"][0] else aa.ben.client
        token = seat_token(phone, aa.code)
    return aa.client.post(f"/api/tables/{aa.code}/actions", json=action, headers={"Authorization": f"Bearer {token}"})


def test_the_other_side_probing_orders_on_a_ship_with_a_sealed_order_learns_nothing(aa):
    """Side B sends every Order name to side A's ship, which holds a sealed "Brace for Impact": each
    name gets the same sentence, and nothing is stored (L126-L128: hidden Orders stay hidden)."""
    from companion.games.astral_action.rules.turn import ORDERS
    falcon = aa.ship("Falcon", 2)
    aa.ok(type="aa-order", unit=falcon, order="Brace for Impact", hidden="1")
    before = aa.row()
    answers = set()
    for name in ORDERS:
        for hidden in (False, True):
            resp = api_act(aa, "Player 2", type="aa-order", unit=falcon, order=name, **({"hidden": True} if hidden else {}))
            assert resp.status_code == 400, resp.get_json()
            answers.add((resp.get_json()["error"], resp.get_json()["field"]))
    assert answers == {("Only Player 1 gives Orders to Falcon.", "order")}
    after = aa.row()
    assert after["state"] == before["state"] and after["seq"] == before["seq"]
    # nor Command Tokens and Commands: a Command could discard the other side's sealed Order (L127)
    assert api_act(aa, "Player 2", type="aa-token", unit=falcon).get_json()["error"] == \
        "Only Player 1 gives Command Tokens to Falcon."
    resp = api_act(aa, "Player 2", type="aa-command", unit=falcon, command="Dodge", via="s1")
    assert resp.get_json()["error"] == "Only Player 1 gives Commands to Falcon."
    assert aa.row()["seq"] == before["seq"] and not aa.state()["sealed"]["s1"]["discarded"]
    # the board form on Ben's phone: the same sentence next to the control, nothing stored
    for name in ("Brace for Impact", "Evasive Actions"):
        aa.refused("Only Player 1 gives Orders to Falcon.", phone=aa.ben, type="aa-order", unit=falcon, order=name,
                   control="aa-orders-" + falcon)


def test_a_seat_without_a_side_cannot_probe_a_sealed_order_either(aa):
    """A caller who reads no side's secrets (a script with the player invitation's secret alone) gets one
    sentence for every Order on a ship holding a sealed one: the refusal depends only on what that caller
    can read."""
    from companion.games.astral_action.rules.turn import ORDERS
    falcon = aa.ship("Falcon", 2, equipment=[KINETIC, {"slot": "primary", "item": "boosters"}])
    aa.ok(type="aa-order", unit=falcon, order="Evasive Actions", hidden="1")
    before = aa.row()
    answers = {api_act(aa, None, type="aa-order", unit=falcon, order=name).get_json()["error"] for name in ORDERS}
    assert answers == {"Falcon has a sealed Order this turn: only Player 1 can give it more Orders."}
    assert aa.row()["seq"] == before["seq"]
    # its own side still gets the rules' own answers (it can read the sealed Order)
    resp = api_act(aa, "Player 1", type="aa-order", unit=falcon, order="Evasive Actions")
    assert resp.get_json()["error"] == "Evasive Actions was already given to this ship this turn (L248)."
    assert api_act(aa, "Player 1", type="aa-order", unit=falcon, order="Change Velocity").status_code == 200


# --- a ship attacks in its own activation (issue 24 item 2; seed 004 L75, L132, L140-L143) --------

def test_no_attack_in_the_command_phase_through_the_api_and_the_form(aa):
    """L75 "During the Activation of a Ship, it has the opportunity to fire its weapons"; a new table
    starts in the Command phase (L121), so the issue's exact request is refused, and nothing stored."""
    aa.ship("Falcon", 2)
    aa.ship("Raven", 2, side="Player 2")
    before = aa.row()
    resp = api_act(aa, "Player 1", type="aa-attack", attacker="u1", target="u2", weapon=0, dice=[6, 6])
    assert resp.status_code == 400
    assert resp.get_json()["error"] == ("Falcon attacks only in its own activation (L75, L141); "
                                        "this is the Command phase: no ship is activating.")
    assert aa.row()["seq"] == before["seq"]
    aa.refused("Falcon attacks only in its own activation (L75, L141); this is the Command phase: no ship is activating.",
               type="aa-attack", shot="u1:0", target="u2", dice="6 6", control="aa-attack")
    lancer = aa.ship("Lancer", 2, equipment=[{"slot": "primary", "item": "missiles", "arcs": ["F"]}])
    aa.refused("Lancer attacks only in its own activation (L75, L141); this is the Command phase: no ship is activating.",
               type="aa-missile-token", shot=f"{lancer}:0", target="u2", control="aa-attack")


def test_a_size_3_ship_waits_for_its_activation_and_its_activation_ends_with_the_next(aa):
    """L132: Size 1 ships activate first, players alternating; L141-L143: a ship attacks in its own
    activation, which is over once the next ship activates (or the side passes)."""
    big = aa.ship("Dread", 3)
    scout = aa.ship("Scout", 1)
    raven = aa.ship("Raven", 1, side="Player 2")
    aa.to_phase("Activation")
    sentence = "Dread attacks only in its own activation (L75, L141); Player 1 activates a Size 1 ship next (L132)."
    resp = api_act(aa, "Player 1", type="aa-attack", attacker=big, target=raven, weapon=0, dice=[6, 6])
    assert (resp.status_code, resp.get_json()["error"]) == (400, sentence)
    aa.refused(sentence, type="aa-attack", shot=f"{big}:0", target=raven, dice="6 6", control="aa-attack")
    aa.ok(type="aa-activate", unit=scout)
    assert "<b>Scout</b> is activating: attack first, then move." in aa.client.get(f"/t/{aa.code}?open=*").data.decode()
    aa.refused("Dread attacks only in its own activation (L75, L141); now it is Scout's activation (Player 1, Size 1).",
               type="aa-attack", shot=f"{big}:0", target=raven, dice="6 6", control="aa-attack")
    aa.ok(type="aa-attack", shot=f"{scout}:0", target=raven, dice="1 1", control="aa-attack")  # its own: taken
    aa.ok(type="aa-apply-attack")
    aa.ok(phone=aa.ben, type="aa-activate", unit=raven)
    aa.refused("Scout attacks only in its own activation (L75, L141); now it is Raven's activation (Player 2, Size 1).",
               type="aa-attack", shot=f"{scout}:0", target=raven, dice="1 1", control="aa-attack")
    resp = api_act(aa, "Player 2", type="aa-attack", attacker=raven, target=scout, weapon=0, dice=[1, 1])
    assert resp.status_code == 200, resp.get_json()
    aa.ok(type="aa-apply-attack")
    # the activation is state changed by events: undoing Raven's activation ends it
    anna = seat_token(aa.client, aa.code)
    for _ in range(3):  # the attack's damage, the attack, Raven's activation
        assert aa.client.post(f"/api/tables/{aa.code}/undo", headers={"Authorization": f"Bearer {anna}"}).status_code == 200
    assert aa.state()["game"]["turn"]["current"] == [scout]
    aa.folds()


def test_contingent_attack_fires_after_its_activation_and_an_offensive_command_outside_it(aa):
    """L251 Contingent Attack: "may fire Weapons at any point during or after its activation";
    L256 [Offensive] Command: "Immediately make an Attack with one Weapon that has not yet been used
    this turn (this may be done outside the Ship's normal Activation)"."""
    two = [KINETIC, {"slot": "secondary", "item": "kinetic", "arcs": ["A"]}]
    scout = aa.ship("Scout", 1, equipment=two)
    raven = aa.ship("Raven", 1, side="Player 2", equipment=two)
    aa.ok(type="aa-order", unit=scout, order="Contingent Attack")
    aa.ok(phone=aa.ben, type="aa-token", unit=raven)
    aa.to_phase("Activation")
    aa.refused("Scout attacks only in its own activation (L75, L141); Player 1 activates a Size 1 ship next (L132).",
               type="aa-attack", shot=f"{scout}:0", target=raven, dice="1 1")  # not before its activation
    aa.ok(type="aa-activate", unit=scout)
    aa.ok(phone=aa.ben, type="aa-activate", unit=raven)
    aa.ok(type="aa-attack", shot=f"{scout}:0", target=raven, dice="1 1")  # after its activation (L251)
    aa.ok(type="aa-apply-attack")
    aa.to_phase("Resolution")
    aa.ok(type="aa-attack", shot=f"{scout}:1", target=raven, dice="1 1")  # still "after" (L251)
    aa.ok(type="aa-apply-attack")
    # Raven's activation is over; its [Offensive] Command attacks once with an unused weapon (L256)
    aa.refused("Raven attacks only in its own activation (L75, L141); this is the Resolution phase: no ship is activating.",
               phone=aa.ben, type="aa-attack", shot=f"{raven}:1", target=scout, dice="1 1")
    aa.ok(phone=aa.ben, type="aa-command", unit=raven, command="Attack with an unused weapon", via="token")
    aa.ok(phone=aa.ben, type="aa-attack", shot=f"{raven}:1", target=scout, dice="1 1")
    aa.ok(phone=aa.ben, type="aa-apply-attack")
    aa.folds()


# --- range from a measured distance (issue 24 item 3; seed 004 L151-L152, L160-L182) ------------

def ranged_setup(aa, weapon, variant=""):
    gun = {"slot": "primary", "item": weapon, "arcs": ["F"], "variant": variant}
    falcon = aa.ship("Falcon", 2, equipment=[gun])
    raven = aa.ship("Raven", 2, side="Player 2")
    aa.to_phase("Activation")
    aa.ok(type="aa-activate", unit=falcon)
    return falcon, raven


@pytest.mark.parametrize("weapon, distance, band", [
    ("kinetic", 10, "normal"), ("kinetic", 10.5, "extended 1"), ("kinetic", 18, "extended 1"),  # L161-L162
    ("beam", 12, "normal"), ("beam", 20, "extended 1"),  # L166-L167
    ("rockets", 6, "normal"), ("rockets", 12, "extended 1"), ("rockets", 13, "extended 2"), ("rockets", 18, "extended 2"),  # L171-L173
    ("missiles", 10, "normal"),  # L179, L182: within 10 the missile attacks now
])
def test_the_measured_distance_gives_the_range_band(aa, weapon, distance, band):
    falcon, raven = ranged_setup(aa, weapon)
    dice = [4, 4, 4] if weapon == "rockets" and band != "extended 2" else [4, 4]  # L176: 2d6 / best of 2d6 / 1d6
    resp = api_act(aa, "Player 1", type="aa-attack", attacker=falcon, target=raven, weapon=0, distance=distance,
                   dice=dice)
    assert resp.status_code == 200, resp.get_json()
    pending = aa.state()["game"]["attack"]
    from companion.games.astral_action.rules.equipment import bands
    assert bands({"item": weapon})[pending["band"]]["name"] == band and pending["distance"] == distance
    # L152 Extended Range (Y): accuracy -(Y); L176 rockets: 2d6, best of 2d6, 1d6
    y = {"normal": 0, "extended 1": 1, "extended 2": 2}[band]
    assert pending["result"]["accuracy"] == 4 - y
    aa.folds()


def test_a_distance_beyond_the_longest_range_and_a_missile_beyond_10_are_refused_with_a_sentence(aa):
    falcon, raven = ranged_setup(aa, "kinetic")
    aa.refused("Primary Kinetic F reaches 18 (L161-L162): 18.5 is out of range.", type="aa-attack",
               shot=f"{falcon}:0", target=raven, distance="18.5", dice="3 3", control="aa-attack")
    aa.refused("distance must be a number from 0 to 1000.", type="aa-attack", shot=f"{falcon}:0", target=raven,
               distance="far", control="aa-attack")
    aa.refused("A distance of 14 is Extended 1 for Primary Kinetic F, not normal range: choose one or the other.",
               type="aa-attack", shot=f"{falcon}:0", target=raven, distance="14", band="0", dice="3 3", control="aa-attack")
    # the form: the distance alone (the band select left on "from the distance")
    aa.ok(type="aa-attack", shot=f"{falcon}:0", target=raven, distance="14", band="", dice="3 3", control="aa-attack")
    assert aa.state()["game"]["attack"]["band"] == 1 and aa.state()["game"]["attack"]["result"]["accuracy"] == 2


def test_a_missile_beyond_10_places_its_token_and_within_10_attacks_now(aa):
    """L182: "If the target is farther than 10, place a Missile token within 10 of the attacking
    Ship"; L179: Missiles reach 24."""
    falcon, raven = ranged_setup(aa, "missiles")
    aa.refused("Missiles farther than 10 place a Missile token (L182): tap \u201cMissiles beyond 10: place a token\u201d.",
               type="aa-attack", shot=f"{falcon}:0", target=raven, distance="14", dice="3 3", control="aa-attack")
    aa.refused("Within 10, Missiles attack now (L182): tap Attack.", type="aa-missile-token", shot=f"{falcon}:0",
               target=raven, distance="10", control="aa-attack")
    aa.refused("Primary Missiles F reaches 24 (L179): 25 is out of range.", type="aa-missile-token",
               shot=f"{falcon}:0", target=raven, distance="25", control="aa-attack")
    aa.ok(type="aa-missile-token", shot=f"{falcon}:0", target=raven, distance="14", control="aa-attack")
    assert aa.state()["game"]["missiles"][0]["distance"] == 14
    aa.folds()


def test_a_marked_target_spent_for_range_adds_4_to_the_largest_range(aa):
    """L278 "This Ship may add 4 Distance to the largest Range/Extended range values of its Weapons for
    this Attack Phase": a Kinetic reaches 22 (18 + 4, L162), a Beam 24, Missiles 28 (L179); the normal
    Range stays 10 (only the largest value moves)."""
    falcon, raven = ranged_setup(aa, "kinetic")
    aa.refused("Primary Kinetic F reaches 18 (L161-L162): 22 is out of range.", type="aa-attack",
               shot=f"{falcon}:0", target=raven, distance="22", dice="3 3", control="aa-attack")
    aa.ok(type="aa-attack", shot=f"{falcon}:0", target=raven, distance="22", marked_range="1", dice="3 3",
          control="aa-attack")
    pending = aa.state()["game"]["attack"]
    assert pending["band"] == 1 and pending["result"]["accuracy"] == 2 and pending["mods"] == {"marked_range": True}
    aa.ok(type="aa-apply-attack")
    page = text(aa.client.get(f"/t/{aa.code}/astral-action/odds?shot={falcon}:0&target={raven}&distance=11&marked_range=1"))
    assert "Range 22 (extended 1)" in page  # 11 is beyond the normal 10, marked or not
    aa.folds()


def test_a_marked_missile_token_reaches_28(aa):
    falcon, raven = ranged_setup(aa, "missiles")
    aa.refused("Primary Missiles F reaches 24 (L179): 28 is out of range.", type="aa-missile-token",
               shot=f"{falcon}:0", target=raven, distance="28", control="aa-attack")
    aa.ok(type="aa-missile-token", shot=f"{falcon}:0", target=raven, distance="28", marked_range="on",
          control="aa-attack")
    assert aa.state()["game"]["missiles"][0]["distance"] == 28
    aa.folds()


def test_a_marked_target_spent_to_ignore_terrain_drops_obscuring_and_the_blocking_reroll(aa):
    """L277 "Ignore the effects of Terrain when making Attacks against the Marked Ship": no Obscuring (X)
    penalty (L295) and no Blocking terrain reroll for the defender (L298)."""
    falcon, raven = attack_setup(aa)
    aa.ok(type="aa-attack", shot=f"{falcon}:0", target=raven, obscuring=2, marked_terrain="1", dice="5 2")
    pending = aa.state()["game"]["attack"]
    assert pending["result"]["accuracy"] == 5  # not 5 - 2
    aa.refused("The attacker ignores terrain against this Marked ship (L277): no Blocking terrain reroll.",
               phone=aa.ben, type="aa-reroll", why="blocking", die=0, value="1")
    aa.ok(type="aa-apply-attack")
    aa.folds()


def test_without_the_mark_obscuring_counts_and_the_defender_may_reroll_for_blocking(aa):
    falcon, raven = attack_setup(aa)
    aa.ok(type="aa-attack", shot=f"{falcon}:0", target=raven, obscuring=2, marked_terrain="no", dice="5 2")
    assert aa.state()["game"]["attack"]["result"]["accuracy"] == 3  # 5 - 2 (L295)
    aa.ok(phone=aa.ben, type="aa-reroll", why="blocking", die=0, value="1")
    aa.folds()


def test_a_beam_specialist_side_reaches_2_farther_at_normal_range_and_fires_beams_only(aa):
    """L362: a faction "that adds 2 to the Range (but not Extended Range) at the expense of being
    restricted to Beam Weapons only" (an optional rule: a table setting, 1 = the first side)."""
    gun = {"slot": "primary", "item": "beam", "arcs": ["F"]}
    falcon = aa.ship("Falcon", 2, equipment=[gun, {"slot": "secondary", "item": "kinetic", "arcs": ["F"]}])
    raven = aa.ship("Raven", 2, side="Player 2")
    aa.to_phase("Activation")
    aa.ok(type="aa-activate", unit=falcon)
    aa.refused("value must be from 0 to 3; got 4.", type="aa-setting", setting="beam_specialists", value=4)
    aa.ok(type="aa-setting", setting="beam_specialists", value=1)
    aa.ok(type="aa-attack", shot=f"{falcon}:0", target=raven, distance="14", dice="3 3", control="aa-attack")
    assert aa.state()["game"]["attack"]["band"] == 0  # 14 is within 12 + 2: normal range, no -1
    aa.ok(type="aa-apply-attack")
    aa.refused("Player 1 plays the Beam-specialist faction: Beam weapons only (L362).", type="aa-attack",
               shot=f"{falcon}:1", target=raven, dice="3 3", control="aa-attack")
    page = text(aa.client.get(f"/t/{aa.code}/astral-action/odds?shot={falcon}:0&target={raven}&distance=21"))
    assert "21 is out of range" in page  # the Extended Range stays 20
    assert "Beam-specialist faction (+2 Range, Beam weapons only): Player 1." in text(aa.client.get(f"/t/{aa.code}"))
    aa.folds()


def test_the_odds_follow_the_distance(aa):
    falcon, raven = ranged_setup(aa, "kinetic")
    page = text(aa.client.get(f"/t/{aa.code}/astral-action/odds?shot={falcon}:0&target={raven}&distance=14"))
    assert "Miss 50%" in page and "Range 18 (extended 1)" in page  # d6 - 1 vs miss ≤2, glance ≤4
    page = text(aa.client.get(f"/t/{aa.code}/astral-action/odds?shot={falcon}:0&target={raven}&distance=30"))
    assert "18.5" not in page and "30 is out of range" in page


# --- AWS active against a fighter (issue 24 item 3; seed 004 L189) ------------------------------

AWS = {"slot": "primary", "item": "aws"}


def aws_setup(aa):
    guard = aa.ship("Guard", 2, equipment=[KINETIC, AWS])
    mother = aa.ship("Mother", 3, side="Player 2", equipment=[KINETIC, {"slot": "primary", "item": "launch"}])
    wasp = aa.ship("Wasp", 0, side="Player 2", carrier=mother, weapon_size="1")
    return guard, mother, wasp


def test_an_aws_deals_d6_to_a_fighter_within_size_x_2_in_its_own_activation(aa):
    """L189 "Active: During this Ship's Activation, the controlling player may choose one missile,
    token or Fighter within (Ship Size x 2) distance of this Ship per AWS equipped ... If a Fighter is
    selected, it takes d6 damage." """
    guard, mother, wasp = aws_setup(aa)
    resp = api_act(aa, "Player 1", type="aa-aws", unit=guard, aim=wasp, dice=[5])
    assert (resp.status_code, resp.get_json()["error"]) == (
        400, "Guard's AWS acts during its own activation (L189); this is the Command phase: no ship is activating.")
    aa.to_phase("Activation")
    aa.ok(phone=aa.ben, type="aa-activate", unit=wasp)  # Size 0 first
    assert 'id="aa-aws-' + guard + '-err"' not in aa.client.get(f"/t/{aa.code}?open=*").data.decode()
    aa.ok(type="aa-activate", unit=guard)
    page = aa.client.get(f"/t/{aa.code}?open=*").data.decode()  # the AWS row on Guard's card, its own side
    assert f'form="aa-aws-{guard}"' in page and f'<option value="{wasp}">Wasp: d6</option>' in page
    assert f'form="aa-aws-{guard}"' not in aa.ben.client.get(f"/t/{aa.code}?open=*").data.decode()
    aa.refused("5 is beyond Guard's AWS: Size x 2 = 4 (L189).", type="aa-aws", unit=guard, aim=wasp, distance="5",
               dice="5", control="aa-aws-" + guard)
    aa.refused("An AWS aims at a Missile token or a Fighter (L189).", type="aa-aws", unit=guard, aim=mother,
               dice="5", control="aa-aws-" + guard)
    aa.refused("Mother has no working Area Weapons System (L186-L189).", phone=aa.ben, type="aa-aws", unit=mother,
               aim=wasp, dice="5")
    aa.ok(type="aa-aws", unit=guard, aim=wasp, distance="4", dice="5", control="aa-aws-" + guard)
    assert aa.ship_state(wasp)["rows"][0]["filled"] == 5  # 6 Health by default (L231): 1 left
    aa.refused("Guard has used its AWS this turn: one Missile token or Fighter per AWS (L189).", type="aa-aws",
               unit=guard, aim=wasp, dice="1", control="aa-aws-" + guard)
    aa.folds()


def test_an_aws_removes_a_missile_token_in_its_own_activation(aa):
    guard = aa.ship("Guard", 2, side="Player 2", equipment=[KINETIC, AWS])
    lancer = aa.ship("Lancer", 2, equipment=[{"slot": "primary", "item": "missiles", "arcs": ["F"]}])
    aa.to_phase("Activation")
    aa.ok(type="aa-activate", unit=lancer)
    aa.ok(type="aa-missile-token", shot=f"{lancer}:0", target=guard, distance="20")
    aa.ok(phone=aa.ben, type="aa-activate", unit=guard)
    aa.ok(phone=aa.ben, type="aa-aws", unit=guard, aim="m1")
    assert aa.state()["game"]["missiles"] == []
    aa.folds()


# --- the "lucky ship" Condition reroll (issue 24 item 3; seed 004 L369) -------------------------

def test_a_lucky_ship_rerolls_its_condition_roll_once_unless_the_table_says_otherwise(aa):
    """L369 "A Ship that is considered "lucky" or especially well-built may be allowed to reroll on
    any Condition rolls"; how often is not said: the table's reading (once per roll by default)."""
    raven = aa.ship("Raven", 2, side="Player 2")
    aa.ok(type="aa-damage", unit=raven, amount=10)
    aa.ok(type="aa-condition", unit=raven, dice="1 1")  # 2: Catastrophic Damage (L97)
    aa.refused("Raven is not marked as a lucky ship (an optional rule, L369).", phone=aa.ben, type="aa-lucky-reroll",
               unit=raven, pick=0, dice="6 6", control="unit-" + raven)
    resp = api_act(aa, "Player 2", type="aa-lucky", unit=raven, lucky=True)
    assert resp.status_code == 200 and resp.get_json()["label"] == "Raven is a lucky ship (optional rule)"
    page = aa.ben.client.get(f"/t/{aa.code}?open=*").data.decode()
    assert "Reroll (lucky ship)" in page and "Lucky ship" in page
    aa.ok(phone=aa.ben, type="aa-lucky-reroll", unit=raven, pick=0, dice="3 4", control="unit-" + raven)
    assert aa.ship_state(raven)["determined"]["options"] == [{"roll": 7, "name": "Serious Damage", "rerolls": 1}]
    aa.refused("This Condition roll was already rerolled: one reroll per roll, as the table reads it.", phone=aa.ben,
               type="aa-lucky-reroll", unit=raven, pick=0, dice="6 6", control="unit-" + raven)
    aa.ok(type="aa-setting", setting="lucky_rerolls", value=1)
    assert "as often as" in aa.client.get(f"/t/{aa.code}?open=*").data.decode()  # the reading, in words
    aa.ok(phone=aa.ben, type="aa-lucky-reroll", unit=raven, pick=0, dice="6 6")
    assert aa.ship_state(raven)["determined"]["options"][0]["name"] == "No Condition Generated"
    aa.ok(phone=aa.ben, type="aa-apply-condition", unit=raven)
    assert not aa.state()["units"][raven]["removed"]
    aa.folds()


# --- Stealth: a hidden Ship Information Card (issue 24 item 3; seed 004 L359-L361) --------------

SHADOW = {"name": "Nightshade", "size": 2, "chart": {"miss": 1, "glance": 5}, "movement": "4:1/1",
          "equipment": [{"slot": "primary", "item": "beam", "arcs": ["F"], "variant": "oversized"},
                        {"slot": "secondary", "item": "shields"}]}


def test_a_hidden_card_stays_hidden_from_the_other_side_on_every_path_until_revealed(app, aa):
    """L359 "keep the SICs of each player hidden until a predetermined action causes the Ship to be
    revealed"; L360 "the Size may also be displayed" (activation goes by Size, L132)."""
    from tests.test_hidden_information import bodies, every_get_route
    resp = api_act(aa, "Player 1", type="aa-ship", card=SHADOW, hidden=True)
    assert resp.status_code == 200, resp.get_json()
    assert resp.get_json()["label"] == "Contact 1 (Size 2) joins Player 1, its card hidden (Stealth)"
    raven = aa.ship("Raven", 2, side="Player 2")
    ben = aa.ben
    seen = bodies(ben)
    for path in every_get_route(app, aa.code):
        seen[path + " (plain)"] = ben.client.get(path).data.decode()
    ben_token = seat_token(ben.client, aa.code)
    for path in (f"/api/tables/{aa.code}", f"/api/tables/{aa.code}/events", f"/api/tables/{aa.code}/export"):
        seen[path + " (api, Player 2)"] = aa.client.get(path, headers={"Authorization": f"Bearer {ben_token}"
                                                                       }).data.decode()
    leaks = [path for path, body in seen.items() if "Nightshade" in body]
    assert leaks == []
    state = json.loads(seen[f"/api/tables/{aa.code}/api, Player 2".replace("/api, ", " (api, ") + ")"])["state"]
    assert "u1" not in state["game"]["ships"] and state["game"]["contacts"] == {"u1": 2}  # no card, no track
    assert state["units"]["u1"]["stats"] == {"size": 2}
    board = seen[f"/t/{aa.code}"]
    assert "Contact 1" in board and "Hidden ship" in board
    assert "Nightshade" in aa.client.get(f"/t/{aa.code}?open=*").data.decode()  # its own side reads it
    # nothing names the card: attacks on it and damage to it wait until it is revealed
    aa.ok(type="next-phase")
    aa.ok(type="aa-activate", unit="u1")  # it activates at its Size, like any ship (L132)
    aa.ok(phone=ben, type="aa-activate", unit=raven)
    aa.refused("Contact 1's card is hidden (Stealth): its side reveals it first (L359).", phone=ben, type="aa-attack",
               shot=f"{raven}:0", target="u1", dice="6 6", control="aa-attack")
    aa.refused("Contact 1's card is hidden (Stealth): its side reveals it first (L359).", phone=ben, type="aa-damage",
               unit="u1", amount=3)
    aa.refused("Only Player 1 can open what Player 1 sealed.", phone=ben, type="reveal", id="s1")
    aa.refused("Only a sealed order can be discarded; that card can be revealed.", type="discard-sealed", id="s1")
    aa.ok(type="reveal", id="s1")  # e.g. its side used Enhance Scanners, "Reveal this Ship" (L271)
    assert "Nightshade" in ben.client.get(f"/t/{aa.code}?open=*").data.decode()
    aa.folds()
    # the other side's export boxes the card; it imports on this server to the same state
    doc = json.loads(ben.client.get(f"/t/{aa.code}/export").data)
    resp = aa.client.post("/api/tables/import", json=doc)
    assert resp.status_code == 201, resp.get_json()
    assert store.table(aa.db(), resp.get_json()["code"])["state"] == aa.state()


# --- what a player types is read by the fields the actions declare (issue 29) ----------------------

def test_no_means_no_for_a_sealed_order_a_marked_target_and_a_lucky_ship(aa):
    """A yes/no is read as every game reads it (schema.Flag): "no" and "off" once counted as yes
    here (any text was true), sealing an Order, adding Marked +2 and marking a lucky ship."""
    falcon, raven = attack_setup(aa)
    aa.to_phase("Command")
    aa.ok(type="aa-order", unit=falcon, order="Evasive Actions", hidden="no", control="aa-orders-" + falcon)
    assert aa.state()["game"]["turn"]["orders"][falcon] == ["Evasive Actions"] and not aa.state().get("sealed")
    aa.to_phase("Activation")
    aa.ok(type="aa-activate", unit=falcon)
    resp = api_act(aa, "Player 1", type="aa-attack", attacker=falcon, target=raven, weapon=0, dice=[3, 4], marked="off")
    assert resp.status_code == 200, resp.get_data(as_text=True)
    assert "+2" not in resp.get_json()["label"] and aa.state()["game"]["attack"]["result"]["accuracy"] == 3
    aa.ok(type="aa-lucky", unit=raven, lucky="no", phone=aa.ben)
    assert aa.ship_state(raven)["lucky"] is False
    aa.refused("marked must be yes or no (yes/no, true/false, on/off or 1/0); got 'maybe'.", type="aa-attack",
               shot=f"{falcon}:1", target=raven, dice="3 4", marked="maybe")
    aa.folds()


def test_the_dice_an_attack_needs_are_counted_and_a_bad_modifier_is_refused_before_it_runs(aa):
    falcon, raven = attack_setup(aa)
    aa.refused("Enter 2 d6 results from 1 to 6.", type="aa-attack", shot=f"{falcon}:0", target=raven, dice="4")
    aa.refused("obscuring must be from -9 to 9; got 12.", type="aa-attack", shot=f"{falcon}:0", target=raven,
               dice="4 4", obscuring="12")
    aa.refused("band must be a whole number from 0 to 2.", type="aa-attack", shot=f"{falcon}:0", target=raven,
               dice="4 4", band="far")
    aa.ok(type="aa-attack", shot=f"{falcon}:0", target=raven, dice="4 4", obscuring="-0", band="0")


def test_astral_action_keeps_no_phase_guard_or_input_reader_of_its_own():
    """Issue 29: the phase guard is ``@action(phase=...)`` and typed input is read by the declared
    fields (``actions.entered_*``); the Astral Action helpers that did either are gone."""
    from companion.games.astral_action import rules, state
    from companion.games.astral_action.actions import combat
    from companion.games.astral_action.rules import design
    assert not hasattr(state, "need_phase") and not hasattr(state, "phase") and not hasattr(state, "dice_list")
    assert not hasattr(combat, "distance_of") and not hasattr(design, "_int") and rules
