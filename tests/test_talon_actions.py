"""Talon at the table through the Flask client: every talon-* action type, bad input (a 400 sentence
next to the control, nothing stored), moves the rules forbid at the wrong moment, and the log always
folding to the cached state.  Real dice are entered wherever the rules roll."""
from __future__ import annotations

import html

import pytest

from companion import actions, store
from companion.said import english
from tests.table_actions import seat_token

ENGINES = ("sqlite", "postgresql")  # the tests here run on both (tests/conftest.py, issue 39)


class Game:
    def __init__(self, app, table):
        self.app, self.table = app, table

    def create(self):
        self.table.create(system="talon", name="Tests", side="Terran")
        return self

    def ok(self, control="talon-test", **fields):
        resp = self.table.act(_control=control, **fields)
        assert resp.status_code == 200, text(resp)[:400]
        return resp

    def refused(self, sentence, control="talon-test", **fields):
        before = self.state()
        resp = self.table.act(_control=control, **fields)
        assert resp.status_code == 400, text(resp)[:300]
        assert resp.headers["HX-Retarget"] == f"#{control}-err"
        assert sentence in text(resp), text(resp)
        assert self.state() == before
        return resp

    def state(self):
        return self.table.state()

    def folds(self):
        db = store.open_db(self.app.config["DATABASE"])
        log = [{"seq": e["seq"], "type": e["type"], "payload": e["payload"]} for e in store.events(db, self.table.code)]
        assert actions.fold(log) == self.state()

    def ship(self, name):
        return next(u for u in self.state()["units"].values() if u["name"] == name)["talon"]

    def uid(self, name):
        return next(u["id"] for u in self.state()["units"].values() if u["name"] == name)

    def phase(self):
        s = self.state()
        return s["phases"][s["phase"]]

    def to_phase(self, name):
        for _ in range(30):
            if self.phase() == name:
                return
            self.ok(type="next-phase")
        raise AssertionError(name)

    def fleet(self):
        self.ok(type="talon-ship", cls="terran-ca", name="Zhukov")
        self.ok(type="talon-ship", cls="talon-ca", name="Justice")
        return self


def text(resp) -> str:
    return html.unescape(resp.get_data(as_text=True))


@pytest.fixture
def game(app, table):
    return Game(app, table).create().fleet()


def test_ships_join_their_sides_with_their_counters(game):
    state = game.state()
    assert [(u["name"], u["side"]) for u in state["units"].values()] == [("Zhukov", "Terran"), ("Justice", "Talon")]
    assert game.ship("Zhukov")["curve"][game.ship("Zhukov")["row"]] == [3, 3, 2]
    assert state["game"]["initiative"] == "Talon" and state["active_side"] == "Talon"
    assert state["game"]["weapons"]["disruptor"]["damage"]["2"] == [0, 2, 2, 2, 2, 2]
    game.refused("Choose a ship class", type="talon-ship", cls="nope", name="X")
    game.refused("already a ship called Zhukov", type="talon-ship", cls="terran-dd", name="Zhukov")
    game.refused("Name the ship", type="talon-ship", cls="terran-dd", name="")
    game.ok(type="talon-ship", cls="custom", name="Homebrew", side="Terran", curve="1-4-2, 2-3-1*",
            shields="3 2 2 2", hull="0 0c -1", groups="phaser 1 1 1 F", hull_class="DD", sp="40")
    assert game.ship("Homebrew")["hull"][1]["crit"] and game.ship("Homebrew")["sp"] == 40
    game.refused("Shields are four numbers", type="talon-ship", cls="custom", name="Bad", side="Terran",
                 curve="1-4-2*", shields="3 2", hull="0", hull_class="DD")
    game.folds()


def test_round_turns_initiative_and_reinforcement_expiry(game):
    zhukov, justice = game.uid("Zhukov"), game.uid("Justice")
    # A: Talon's turn first (initiative). Justice 3-3-1 gets AP in B, D, F (TALON.md 1)
    game.refused("gets no AP in impulse A", type="talon-ap", unit=justice, use="reinforce", arc="F")
    game.refused("it is Talon's turn in impulse A", type="talon-ap", unit=zhukov, use="yellow", group=1)
    game.to_phase("B · initiative player")
    game.ok(type="talon-ap", unit=justice, use="reinforce", arc="F")
    assert game.ship("Justice")["reinforced"]["F"]["letter"] == "B"
    game.refused("already spent its AP this impulse", type="talon-ap", unit=justice, use="yellow", group=1)
    game.ok(type="next-phase")
    assert game.state()["active_side"] == "Terran"
    game.ok(type="talon-ap", unit=zhukov, use="change")  # Zhukov 3-3-2: AP in B
    game.to_phase("C · initiative player")
    assert game.state()["game"]["initiative"] == "Terran"  # 1 Change over 0 Defend
    assert any("Initiative changes" in english(r) for r in game.state()["reminders"])
    game.to_phase("B · initiative player")  # round 2: Terran moves first now
    assert game.state()["round"] == 2 and game.state()["active_side"] == "Terran"
    assert "F" in game.ship("Justice")["reinforced"]  # removed at the start of Talon's own turn
    game.ok(type="next-phase")
    assert "F" not in game.ship("Justice")["reinforced"]
    assert any("Shield Reinforcement expires" in english(r) for r in game.state()["reminders"])
    game.ok(type="talon-initiative", side="Talon")
    game.refused("already has the initiative", type="talon-initiative", side="Talon")
    game.folds()


def test_ap_uses_battery_and_limits(game):
    zhukov = game.uid("Zhukov")
    game.ok(type="talon-initiative", side="Terran")
    game.to_phase("B · initiative player")
    game.ok(type="talon-ap", unit=zhukov, use="battery")
    assert game.ship("Zhukov")["battery_on"] == 1
    game.to_phase("C · initiative player")  # 3-3-2: no AP in C; spend the battery
    game.refused("gets no AP in impulse C", type="talon-ap", unit=zhukov, use="yellow", group=2)
    game.ok(type="talon-ap", unit=zhukov, use="yellow", group=2, pay="battery")
    s = game.ship("Zhukov")
    assert s["battery_on"] == 0 and s["groups"][1]["yellow_on"] == 1
    game.to_phase("D · initiative player")
    game.refused("free to turn already", type="talon-ap", unit=zhukov, use="turn")
    game.refused("use must be one of", type="talon-ap", unit=zhukov, use="teleport")
    game.refused("group must be a whole number from 1 to 3", type="talon-ap", unit=zhukov, use="yellow", group=9)
    game.ok(type="talon-ap", unit=zhukov, use="sideslip")
    game.refused("already spent its AP", type="talon-ap", unit=zhukov, use="change")
    game.folds()


def test_movement_turn_radius_sideslip_and_afterburner(game):
    zhukov, justice = game.uid("Zhukov"), game.uid("Justice")
    game.ok(type="talon-initiative", side="Terran")
    game.to_phase("B · initiative player")
    game.ok(type="talon-move", unit=zhukov, how="turn")
    assert game.ship("Zhukov")["turn_wait"] == 2
    game.refused("already moved this impulse", type="talon-move", unit=zhukov, how="straight")
    game.ok(type="talon-ap", unit=zhukov, use="turn")  # power through: 2 -> 1
    assert game.ship("Zhukov")["turn_wait"] == 1
    game.ok(type="next-phase")
    game.ok(type="talon-move", unit=justice, how="straight")
    game.to_phase("C · initiative player")
    game.refused("does not move in impulse C", type="talon-move", unit=zhukov, how="straight")
    game.ok(type="next-phase")
    game.to_phase("E · other player")  # Justice speed 3: no move in E
    game.ok(type="talon-move", unit=justice, how="straight", afterburner=1)
    assert game.ship("Justice")["afterburners_used"] == 1
    game.ok(type="talon-afterburners", unit=justice)
    assert game.ship("Justice")["afterburners_used"] == 0
    game.refused("has all its afterburners", type="talon-afterburners", unit=justice)
    game.to_phase("D · initiative player")
    game.refused("must move 1 more hex straight", type="talon-move", unit=zhukov, how="turn")
    game.ok(type="talon-move", unit=zhukov, how="straight")
    game.refused("how must be straight, turn or sideslip", type="talon-move", unit=zhukov, how="warp")
    game.ok(type="next-phase")
    game.refused("no afterburner needed", type="talon-move", unit=justice, how="straight", afterburner=1)
    game.refused("does not have the initiative to defend", type="talon-ap", unit=justice, use="defend")
    game.folds()


def ready_group(game, name, index):
    """Fill a group's bar the quick way: Power Phase reds (hook) and passive yellows."""
    game.to_phase("Power Phase")
    ship = game.ship(name)
    group = ship["groups"][index - 1]
    for _ in range(group["yellow"] - group["yellow_on"]):
        game.ok(type="talon-passive", unit=game.uid(name), group=index)


def test_fire_with_entered_dice_and_damage_to_the_arc(game):
    zhukov, justice = game.uid("Zhukov"), game.uid("Justice")
    ready_group(game, "Justice", 1)
    assert game.ship("Justice")["groups"][0]["red_on"] == 1  # the Power Phase charged the red box
    game.ok(type="next-phase")  # round 2, A: Talon first
    game.refused("not charged", type="talon-fire", unit=justice, group=2, target=zhukov, range=2, in_arc="F", arc="F")
    game.refused("fires at range 1-4", type="talon-fire", unit=justice, group=1, target=zhukov, range=5, in_arc="F", arc="F",
                 dice="6 6")
    game.refused("Expected 2 dice", type="talon-fire", unit=justice, group=1, target=zhukov, range=2, in_arc="F", arc="F", dice="6")
    game.refused("on your side", type="talon-fire", unit=justice, group=1, target=justice, range=2, in_arc="F", arc="F", dice="6 6")
    game.ok(type="talon-fire", unit=justice, group=1, target=zhukov, range=2, in_arc="F", arc="R", dice="5 1")
    z = game.ship("Zhukov")
    assert z["shield_hits"]["R"] == 2 and z["hull_hits"] == 0
    assert game.ship("Justice")["groups"][0]["red_on"] == 0  # both reset
    game.folds()


def test_a_group_fires_only_at_a_target_in_its_firing_arc(game):
    """Seed 003 5.3.1: "Weapons may only fire at targets within their Firing Arc"; the Talon CA's
    group 1 has the forward and left arrows (content/talon/data/ships.toml), so a target on its
    right is refused, and the firer's arc is asked for every shot."""
    zhukov, justice = game.uid("Zhukov"), game.uid("Justice")
    ready_group(game, "Justice", 1)
    game.ok(type="next-phase")
    shot = dict(type="talon-fire", unit=justice, group=1, target=zhukov, range=2, arc="F", dice="5 1")
    # (the screen drops the rule's citation: companion.words)
    game.refused("Group 1 fires only into Justice's forward or left arcs; Zhukov is in its right arc.",
                 **shot, in_arc="R")
    game.refused("Say which of your arcs the target is in: Fwd, Right, Rear or Left.", **shot)
    game.refused("in_arc must be one of F, R, Rear, L.", **shot, in_arc="Up")
    game.ok(**shot, in_arc="L")
    assert game.ship("Zhukov")["shield_hits"]["F"] == 2
    game.folds()


def test_the_firing_arc_over_the_api(game):
    """The same rule (seed 003 5.3.1) for a JSON client; the field is in the published request."""
    zhukov, justice = game.uid("Zhukov"), game.uid("Justice")
    ready_group(game, "Justice", 1)
    game.ok(type="next-phase")
    player = seat_token(game.table.client, game.table.code)  # Anna's own seat (issue 37)
    client = game.table.client

    def fire(**extra):
        return client.post(f"/api/tables/{game.table.code}/actions", headers={"Authorization": f"Bearer {player}"},
                           json={"type": "talon-fire", "unit": justice, "group": 1, "target": zhukov, "range": 2,
                                 "arc": "F", "dice": [5, 1], **extra})
    before = game.state()
    refused = fire(in_arc="R")
    assert refused.status_code == 400 and refused.get_json()["field"] == "in_arc"
    assert "fires only into Justice's forward or left arcs" in refused.get_json()["error"]
    assert fire().get_json()["field"] == "in_arc" and game.state() == before
    assert fire(in_arc="F").status_code == 200
    doc = client.get("/api/openapi.json").get_json()
    assert doc["components"]["schemas"]["action-talon-fire"]["properties"]["in_arc"]["enum"] == ["F", "R", "Rear", "L"]
    game.folds()


def test_a_shot_logged_before_firing_arcs_were_asked_still_replays(game):
    """Logs from before issue 24 hold talon-fire events without in_arc: they fold as they did."""
    zhukov, justice = game.uid("Zhukov"), game.uid("Justice")
    ready_group(game, "Justice", 1)
    game.ok(type="next-phase")
    game.ok(type="talon-fire", unit=justice, group=1, target=zhukov, range=2, in_arc="F", arc="F", dice="5 1")
    db = store.open_db(game.app.config["DATABASE"])
    log = [{"seq": e["seq"], "type": e["type"], "payload": e["payload"]} for e in store.events(db, game.table.code)]
    del log[-1]["payload"]["in_arc"]
    assert actions.fold(log) == game.state()


def test_damage_missiles_criticals_and_repair(game):
    zhukov, justice = game.uid("Zhukov"), game.uid("Justice")
    game.ok(type="talon-damage", unit=zhukov, arc="Rear", amount=8)  # 4 shields, hull boxes 1-4 (4th critical)
    z = game.ship("Zhukov")
    assert z["hull_hits"] == 4 and z["pending"] == 1
    game.refused("amount must be a whole number", type="talon-damage", unit=zhukov, arc="F", amount=0)
    game.refused("Each die must be a whole number from 1 to 6; got 'x'.", type="talon-critical", unit=zhukov, crit_dice="x y")
    game.refused("Each die must be a whole number from 1 to 6", type="talon-critical", unit=zhukov, crit_dice="7 1")
    game.ok(type="talon-critical", unit=zhukov, crit_dice="1 2")  # 3: shields down
    assert game.ship("Zhukov")["crits"]["shields_down"] == "1A"
    game.refused("no critical hull box waiting", type="talon-critical", unit=zhukov, crit_dice="3 3")
    game.ok(type="talon-initiative", side="Terran")
    game.refused("impulse after the damage", type="talon-repair", unit=zhukov, what="shields_down", repair_dice="6")
    game.to_phase("B · initiative player")
    game.ok(type="talon-repair", unit=zhukov, what="shields_down", repair_dice="4")
    assert game.ship("Zhukov")["crits"]["shields_down"] == "1A"
    game.refused("One repair attempt per damage per impulse", type="talon-repair", unit=zhukov,
                 what="shields_down", repair_dice="6")
    game.to_phase("C · initiative player")
    game.ok(type="talon-repair", unit=zhukov, what="shields_down", repair_dice="6")
    assert game.ship("Zhukov")["crits"]["shields_down"] is None
    # missiles: a Talon DD's launcher (2 red, 0 yellow) fills in two Power Phases
    game.ok(type="talon-ship", cls="talon-dd", name="Hunter")
    hunter = game.uid("Hunter")
    game.to_phase("Power Phase")
    game.ok(type="next-phase")
    game.to_phase("Power Phase")
    game.ok(type="talon-initiative", side="Talon")
    game.ok(type="next-phase")
    game.ok(type="talon-fire", unit=hunter, group=2, target=zhukov, range=3, in_arc="F", arc="F")
    token = game.state()["game"]["missiles"][0]
    game.ok(type="talon-missile", missile=token["id"], op="hit")
    assert game.ship("Zhukov")["shield_hits"]["F"] == 2
    game.refused("Choose a missile token", type="talon-missile", missile=99, op="hit")
    game.folds()


def test_random_weapon_group_critical_with_entered_group_dice(game):
    justice = game.uid("Justice")
    game.ok(type="talon-damage", unit=justice, arc="hull", amount=3)  # 3rd box critical
    game.refused("roll again for weapon groups 1, 2", type="talon-critical", unit=justice, crit_dice="4 5",
                 group_dice="3 3")
    game.ok(type="talon-critical", unit=justice, crit_dice="4 5", group_dice="3 3 / 2 5")
    assert [g["destroyed"] for g in game.ship("Justice")["groups"]] == [False, True]
    game.folds()


def test_power_phase_curve_once_and_never_negative(game):
    zhukov = game.uid("Zhukov")
    game.refused("happens in the Power Phase", type="talon-curve", unit=zhukov, row=3)
    game.to_phase("Power Phase")
    game.refused("one row", type="talon-curve", unit=zhukov, row=0)
    game.ok(type="talon-curve", unit=zhukov, row=3)
    assert game.ship("Zhukov")["row"] == 3
    game.refused("already changed its power curve", type="talon-curve", unit=zhukov, row=2)
    game.ok(type="talon-damage", unit=zhukov, arc="hull", amount=6)
    game.folds()


def test_rules_numbers_points_corrections_and_losses(game):
    zhukov, justice = game.uid("Zhukov"), game.uid("Justice")
    game.ok(type="talon-rules", what="reinforce", value="2")
    game.ok(type="talon-rules", what="repair_on", value="5")
    game.ok(type="talon-rules", what="weapon", weapon="phaser", range=3, value="0 0 0 1 1 1")
    state = game.state()
    assert state["game"]["rules"] == {"reinforce": 2, "repair_on": 5}
    assert state["game"]["weapons"]["phaser"]["damage"]["3"] == [0, 0, 0, 1, 1, 1]
    game.refused("six damages", type="talon-rules", what="weapon", weapon="phaser", range=3, value="1 2")
    game.ok(type="talon-correct", unit=zhukov, what="shields", value="6 5 5 4")
    assert game.ship("Zhukov")["shields"]["Rear"] == 5
    game.ok(type="talon-correct", unit=zhukov, what="curve", value="1-5-3, 2-4-2, 3-3-2*, 4-2-1, 5-1-1")
    game.ok(type="talon-correct", unit=zhukov, what="hull", value="0 0 -1 -1c -1 -2")
    game.ok(type="talon-correct", unit=zhukov, what="sp", value="115")
    game.refused("Mark the current row", type="talon-correct", unit=zhukov, what="curve", value="1-5-3")
    game.ok(type="talon-points", side="Terran", points=20, why="objective")
    game.refused("points must not be 0", type="talon-points", side="Terran", points=0)
    game.ok(type="talon-lost", unit=justice, reason="overheat")
    assert game.ship("Justice")["destroyed"] == "overheats and breaks apart"
    game.refused("is destroyed", type="talon-lost", unit=justice, reason="retreat")
    game.folds()


def test_a_corrected_ship_saved_as_a_class_comes_back_next_game(game):
    zhukov = game.uid("Zhukov")
    game.ok(type="talon-correct", unit=zhukov, what="hull", value="0 0 -1c -1 -1 -2")
    client, csrf = game.table.client, game.table.csrf
    resp = client.post(f"/t/{game.table.code}/talon/classes", data={"csrf_token": csrf, "unit": zhukov,
                       "class_name": "Our Terran CA", "_control": "unit-" + zhukov}, headers={"HX-Request": "true"})
    assert resp.status_code == 200 and "Our Terran CA saved" in text(resp)
    game.table.create(system="talon", name="Next game", side="Terran")
    item = store.library_items(store.open_db(game.app.config["DATABASE"]), "talon", "class")[0]
    resp = client.post(f"/t/{game.table.code}/talon/classes/add", data={"csrf_token": csrf, "item": item["id"],
                       "name": "Patton", "_control": "tl-fleet"}, headers={"HX-Request": "true"})
    assert resp.status_code == 200, text(resp)
    patton = game.ship("Patton")
    assert [b["crit"] for b in patton["hull"]] == [False, False, True, False, False, False]
    assert patton["curve"][patton["row"]] == [3, 3, 2] and patton["groups"][1]["weapon"] == "torpedo"
    before = game.state()
    resp = client.post(f"/t/{game.table.code}/talon/classes/add", data={"csrf_token": csrf, "item": item["id"],
                       "name": "", "_control": "tl-fleet"}, headers={"HX-Request": "true"})
    assert resp.status_code == 400 and "Name the ship" in text(resp) and game.state() == before
    game.folds()


def test_every_talon_action_has_a_doc_line_and_undo_restores_a_shot(game):
    types = [t for t in actions.available("talon") if t.startswith("talon-")]
    assert len(types) >= 15 and all(actions.available("talon")[t].doc for t in types)
    zhukov, justice = game.uid("Zhukov"), game.uid("Justice")
    ready_group(game, "Justice", 2)
    game.ok(type="next-phase")
    game.ok(type="talon-fire", unit=justice, group=2, target=zhukov, range=2, in_arc="F", arc="L", dice="2 2")
    assert game.ship("Zhukov")["shield_hits"]["L"] == 4
    assert game.table.undo().status_code == 200
    assert game.ship("Zhukov")["shield_hits"]["L"] == 0 and game.ship("Justice")["groups"][1]["red_on"] == 1
    assert game.table.undo(redo=True).status_code == 200
    assert game.ship("Zhukov")["shield_hits"]["L"] == 4
    game.folds()


# --- AP uses our sources name without their details (TALON.md 2 and 11; issue 24) --------------------

def board(game) -> str:
    return html.unescape(game.table.client.get(f"/t/{game.table.code}?open=*").data.decode())


def test_redirect_missile_spends_the_ships_ap_and_turns_its_token_to_a_new_target(game):
    """TALON.md 2 (AP uses, FAN PowerOption: "Redirect Missile (ships with missiles)", rule 13.7): one of
    the ship's AP uses, so its 1 AP of the impulse (TT#18).  How far a missile may turn is not in our
    sources (TALON.md 11, item 8): the form says the players check it at their table."""
    zhukov = game.uid("Zhukov")
    game.ok(type="talon-ship", cls="terran-ca", name="Nimitz")
    game.ok(type="talon-ship", cls="talon-dd", name="Hunter")
    hunter, nimitz = game.uid("Hunter"), game.uid("Nimitz")
    game.to_phase("Power Phase")
    game.ok(type="next-phase")
    game.to_phase("Power Phase")  # the DD's launcher has 2 red boxes: two Power Phases
    game.ok(type="next-phase")
    game.ok(type="talon-fire", unit=hunter, group=2, target=zhukov, range=3, in_arc="F", arc="F")
    token = game.state()["game"]["missiles"][0]["id"]
    game.to_phase("F · initiative player")  # Hunter's curve 1-3-0: Power 1, AP in impulse F only
    page = board(game)
    assert "Redirect a missile (13.7):" in page
    assert "The rules we have give no range or turn limit for a redirect: check it at your table." in page
    redirect = dict(type="talon-ap", unit=hunter, use="redirect", missile=token, new_target=nimitz)
    game.refused("Say which of Nimitz's arcs faces the missile: Fwd, Right, Rear or Left.", **redirect)
    game.refused("Choose a missile token in flight to redirect.", **{**redirect, "missile": 99}, new_arc="L")
    game.refused("Missile 1 is already flying at Zhukov.", **{**redirect, "new_target": zhukov}, new_arc="L")
    resp = game.ok(**redirect, new_arc="L")
    assert "Hunter redirects missile #1 from Zhukov to Nimitz (left arc) (1 AP)" in text(resp)
    assert game.state()["game"]["missiles"][0] | {"redirected": 3} == {
        "id": 1, "by": hunter, "target": nimitz, "arc": "L", "round": 3, "redirected": 3}
    game.refused("already spent its AP this impulse", type="talon-ap", unit=hunter, use="change")
    game.ok(type="talon-missile", missile=token, op="hit")
    assert game.ship("Nimitz")["shield_hits"]["L"] == 2 and game.ship("Zhukov")["shield_hits"]["F"] == 0
    game.folds()


def test_only_a_ship_with_missiles_redirects_one_of_its_sides_missiles(game):
    justice = game.uid("Justice")
    game.to_phase("F · initiative player")
    game.refused("Justice carries no missiles: Redirect Missile is for ships with missiles (rule 13.7).",
                 type="talon-ap", unit=justice, use="redirect", missile=1, new_target=game.uid("Zhukov"), new_arc="F")


def test_transmit_power_to_fighters_is_a_base_or_carriers_ap_use(game):
    """TALON.md 2 (FAN PowerOption: "Transmit Power to Fighters (Bases, CVs)", rule 12.2.2): it spends the
    carrier's AP; what the power does for the squadron is not in our sources (TALON.md 11, item 9), so
    the log and the form send the players to their rulebook."""
    game.ok(type="talon-ship", cls="terran-cv", name="Hornet")
    game.ok(type="talon-ship", cls="terran-ftr", name="Viper")
    hornet, viper, zhukov = game.uid("Hornet"), game.uid("Viper"), game.uid("Zhukov")
    game.to_phase("D · other player")  # Terran's turn; Power 5 (the CV) and 3 (the CA) get AP in D
    page = board(game)
    assert "Power to Viper" in page
    assert "The rules we have give no effect for the power sent: apply it from your rulebook." in page
    game.refused("Zhukov is a CA: only Bases and Carriers (CV) transmit power to fighters (rule 12.2.2).",
                 type="talon-ap", unit=zhukov, use="fighters", fighters=viper)
    game.refused("Choose one of Terran's fighter squadrons (FTR) to send the power to.",
                 type="talon-ap", unit=hornet, use="fighters", fighters=zhukov)
    resp = game.ok(type="talon-ap", unit=hornet, use="fighters", fighters=viper)
    assert "Hornet transmits power to Viper (its effect: from your rulebook, 12.2.2) (1 AP)" in text(resp)
    assert game.ship("Hornet")["ap_used"] == "1D"
    game.refused("already spent its AP this impulse", type="talon-ap", unit=hornet, use="fighters", fighters=viper)
    game.folds()


def test_the_two_ap_uses_over_the_api(game):
    """The same uses for a JSON client: published in the request of talon-ap, refused with the field named."""
    game.ok(type="talon-ship", cls="terran-cv", name="Hornet")
    game.ok(type="talon-ship", cls="terran-ftr", name="Viper")
    game.to_phase("A · other player")
    player = seat_token(game.table.client, game.table.code)  # Anna's own seat (issue 37)
    client = game.table.client

    def ap(**payload):
        return client.post(f"/api/tables/{game.table.code}/actions", headers={"Authorization": f"Bearer {player}"},
                           json={"type": "talon-ap", "unit": game.uid("Hornet"), **payload})
    refused = ap(use="fighters")
    assert refused.status_code == 400 and refused.get_json()["field"] == "fighters"
    refused = ap(use="redirect", missile=1, new_target=game.uid("Justice"), new_arc="F").get_json()
    assert refused == {"error": "Hornet carries no missiles: Redirect Missile is for ships with missiles (rule 13.7).",
                       "field": "use"}
    assert ap(use="redirect", new_arc="Up").get_json()["field"] == "new_arc"  # the declaration's choices
    assert ap(use="fighters", fighters=game.uid("Viper")).status_code == 200
    request = client.get("/api/openapi.json").get_json()["components"]["schemas"]["action-talon-ap"]["properties"]
    assert {"missile", "new_target", "new_arc", "fighters"} <= set(request)
    assert request["new_arc"]["enum"] == ["F", "R", "Rear", "L"]
    game.folds()
