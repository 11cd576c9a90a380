"""Empires of Dust through the Flask client: every eod-* action type, the designer and saved fleets,
bad input (400 with one sentence next to the control, nothing stored), moves the rules forbid at
the wrong moment, and the log always folding to the cached state.  Real D20s are entered wherever
the rules roll, so every outcome below is fixed (seed 001 numbers in the comments).
"""
from __future__ import annotations

import html
import io
import json

import pytest
from companion import actions, store
from companion.said import english
from tests.table_actions import seat_token, sit

ENGINES = ("sqlite", "postgresql")  # the tests here run on both (tests/conftest.py, issue 39)


def armour(reflective, reinforced, reactive):
    return {"reflective": reflective, "reinforced": reinforced, "reactive": reactive}


def weapon(name, kind, rng, pen, dmg, *augs):
    return {"name": name, "type": kind, "range": rng, "penetration": pen, "damage": dmg, "augmenters": list(augs)}


# Legal designs (armour + speed + stealth + detection + 5 per equipment = the class total).
GHOST = {"name": "Ghost", "class": "frigate", "armour": armour(5, 5, 0), "speed": 20, "stealth": 10,
         "detection": 10, "equipment": ["cloaking-device", "ecm", "ftl-jump-drive", "tractor-beam-pull"],
         "weapons": [weapon("Needle", "beam", 30, 10, 10), weapon("Dart", "missile", 10, 10, 10)]}
BURNER = {"name": "Burner", "class": "destroyer", "armour": armour(5, 5, 5), "speed": 20, "stealth": 10,
          "detection": 10, "equipment": ["overloader"],
          "weapons": [weapon("Torch", "beam", 25, 10, 5, "burning", "emp"),
                      weapon("Ram", "projectile", 15, 10, 10, "surge"),
                      weapon("Mender", "missile", 5, 10, 10, "transference")]}
STATION = {"name": "Dock Nine", "class": "station", "armour": armour(10, 10, 5),
           "weapons": [weapon("Spire", "beam", 30, 10, 10)]}


def text(resp) -> str:
    return html.unescape(resp.get_data(as_text=True))


class Game:
    """An Empires of Dust table driven like a phone does (form fields, buttons' do values)."""

    def __init__(self, app, table):
        self.app, self.table, self.client = app, table, table.client

    def create(self):
        self.table.create(system="empires-of-dust", name="Tests", side="Fleet 1")
        return self

    @property
    def code(self):
        return self.table.code

    def act(self, control="eod-test", **fields):
        return self.table.act(_control=control, **fields)

    def ok(self, **fields):
        resp = self.act(**fields)
        assert resp.status_code == 200, text(resp)[:400]
        self.folds()
        return resp

    def refused(self, sentence, control="eod-test", status=400, **fields):
        before = self.state()
        resp = self.act(control=control, **fields)
        assert resp.status_code == status, text(resp)[:300]
        if status == 400:
            assert resp.headers["HX-Retarget"] == f"#{control}-err"
        assert sentence in text(resp), text(resp)[:600]
        assert self.state() == before  # nothing stored
        return resp

    def api(self, **payload):
        """An API call as this phone's own seat (its token: issue 37)."""
        return self.client.post(f"/api/tables/{self.code}/actions", json=payload,
                                headers={"Authorization": f"Bearer {seat_token(self.client, self.code)}"})

    def post(self, path, **form):
        return self.client.post(f"/t/{self.code}/eod/{path}", data={"csrf_token": self.table.csrf, **form},
                                headers={"HX-Request": "true"})

    def state(self):
        return self.table.state()

    def log(self):
        db = store.open_db(self.app.config["DATABASE"])
        try:
            return [{"seq": e["seq"], "type": e["type"], "payload": e["payload"]} for e in store.events(db, self.code)]
        finally:
            db.close()

    def folds(self):
        assert actions.fold(self.log()) == self.state()

    def uid(self, name, side=None):
        return next(u["id"] for u in self.state()["units"].values()
                    if u["name"] == name and (side is None or u["side"] == side))

    def hp(self, uid):
        return self.state()["units"][uid]["trackers"]["hp"]["value"]

    def average(self, side):
        return self.ok(type="eod-deploy", preset="average-fleet", side=side)

    def deploy(self, side, *ships, name="Test fleet"):
        resp = self.api(type="eod-deploy", side=side, name=name, ships=list(ships))
        assert resp.status_code == 200, resp.get_json()
        self.folds()
        return resp

    def end_phase(self):
        return self.ok(type="eod-end-phase")

    def to_combat(self):
        assert self.state()["phases"][self.state()["phase"]] == "Movement"
        self.end_phase()

    def fire(self, attacker, target, distance=10, weapon=0, **extra):
        return self.ok(type="eod-attack", attacker=attacker, target=target, distance=distance, weapon=weapon, **extra)


@pytest.fixture
def game(app, table):
    return Game(app, table).create()


@pytest.fixture
def fleets(game):
    """Both players with the appendix's average fleet: Fleet 1 is u1-u4, Fleet 2 is u5-u8."""
    game.average("Fleet 1")
    game.average("Fleet 2")
    return game


# --- eod-deploy --------------------------------------------------------------------------------

def test_the_average_fleet_goes_on_the_table_with_its_seed_deviation_as_a_warning(fleets):
    units = fleets.state()["units"]
    assert [u["name"] for u in units.values()] == ["Avg. F.", "Avg. D.", "Avg. C.", "Avg. B."] * 2
    assert [fleets.hp(f"u{i}") for i in range(1, 5)] == [20, 30, 50, 80]  # seed 001, Ship Stats and Design
    battleship = units["u4"]
    assert battleship["design"]["class"] == "battleship" and len(battleship["warnings"]) == 3
    assert "stat total is 40" in battleship["warnings"][0]
    assert units["u1"]["stats"] == {"hp": 20, "reflective": 5, "reinforced": 5, "reactive": 5, "speed": 25,
                                    "stealth": 15, "detection": 15, "weapon_slots": 2}
    board = text(fleets.client.get(f"/t/{fleets.code}?open=*"))
    assert "Breaks the design rules (used as printed)" in board and "Avg. B. (battleship): armour 30" in board
    assert "seed deviation" not in board.lower() and "seed 001" not in board  # players' words on screen


def test_a_fleet_that_breaks_the_stat_total_is_refused_with_the_rule(game):
    bad = {**GHOST, "stealth": 20}
    resp = game.api(type="eod-deploy", side="Fleet 1", name="Bad", ships=[bad])
    assert resp.status_code == 400
    assert "Ghost (frigate): armour 10 + speed 20 + stealth 20" in resp.get_json()["error"]
    assert "a frigate's stat total is 70" in resp.get_json()["error"]
    game.refused("preset must be one of average-fleet.", type="eod-deploy", preset="best-fleet")
    game.refused("side must be one of Fleet 1, Fleet 2.", type="eod-deploy", preset="average-fleet", side="Pirates")
    assert game.state()["units"] == {}


def test_a_unique_ship_may_break_the_guidelines_with_a_warning(game):
    game.deploy("Fleet 1", {**GHOST, "stealth": 20, "unique": True})
    assert "stat total is 70" in game.state()["units"]["u1"]["warnings"][0]


def test_designed_ships_get_trackers_for_what_they_carry(game):
    game.deploy("Fleet 1", GHOST, BURNER, STATION)
    ghost, burner, station = (game.state()["units"][u] for u in ("u1", "u2", "u3"))
    assert set(ghost["trackers"]) == {"hp", "ftl", "conditions"}
    assert set(burner["trackers"]) == {"hp", "overloader", "surge-1", "conditions"}
    assert burner["trackers"]["surge-1"]["label"] == "Surge: Ram"
    assert station["template"] == "base" and station["trackers"]["hp"]["value"] == 80  # seed 001, Bases
    assert ghost["trackers"]["conditions"]["options"] == ["EMP", "Afterburner", "Designated"]


# --- initiative --------------------------------------------------------------------------------

def test_initiative_by_d20_uses_the_real_dice_and_shows_who_goes_next(fleets):
    fleets.ok(type="eod-initiative", mode="roll", **{"d20.Fleet 1": 5, "d20.Fleet 2": 17})
    ini = fleets.state()["game"]["initiative"]
    assert [s["side"] for s in ini["steps"]] == ["Fleet 2", "Fleet 1"] and ini["next"] == 0
    assert "Fleet 2 moves" in text(fleets.client.get(f"/t/{fleets.code}?open=*"))
    fleets.refused("Initiative for this movement phase is already settled", control="eod-initiative",
                   type="eod-initiative", mode="roll")
    fleets.ok(type="eod-initiative-done", expect=0)
    fleets.refused("Someone already moved the order on", control="eod-initiative", status=409,
                   type="eod-initiative-done", expect=0)
    fleets.ok(type="eod-initiative-done")
    fleets.refused("Every fleet has had its go this phase: end the phase.", type="eod-initiative-done")
    fleets.end_phase()  # a new phase needs a new roll
    assert fleets.state()["game"]["initiative"]["steps"] is None
    assert "Roll initiative for this combat phase (roll)." in [english(r) for r in fleets.state()["reminders"]]
    fleets.refused("No initiative order for this phase yet", type="eod-initiative-done")
    fleets.refused("D20 for Fleet 1 must be from 1 to 20; got 21.", type="eod-initiative", **{"d20.Fleet 1": 21})


def test_rotating_initiative_moves_the_first_fleet_to_the_back_each_turn(fleets):
    fleets.ok(type="eod-initiative", mode="rotating", first="Fleet 2")
    order = lambda: [s["side"] for s in fleets.state()["game"]["initiative"]["steps"]]  # noqa: E731
    assert order() == ["Fleet 2", "Fleet 1"]
    fleets.end_phase()
    assert order() == ["Fleet 2", "Fleet 1"]  # combat of turn 1
    fleets.end_phase()
    assert order() == ["Fleet 1", "Fleet 2"]  # seed 001, Turns: turn 2 starts with fleet 2 of turn 1


def test_initiative_by_ship_class_goes_from_battleships_to_frigates(fleets):
    fleets.ok(type="eod-initiative", mode="class")
    steps = fleets.state()["game"]["initiative"]["steps"]
    assert [s["class"] for s in steps] == ["battleship"] * 2 + ["cruiser"] * 2 + ["destroyer"] * 2 + ["frigate"] * 2
    fleets.refused("Initiative mode must be roll", control="eod-initiative", type="eod-initiative", mode="chaos")


def test_initiative_needs_two_fleets_on_the_table(game):
    game.average("Fleet 1")
    game.refused("Initiative needs at least two fleets", type="eod-initiative", mode="roll")


# --- eod-attack --------------------------------------------------------------------------------

def test_firing_in_the_movement_phase_is_refused(fleets):
    fleets.refused("Firing happens in the Combat phase; it is now the Movement phase.", control="eod-attack",
                   type="eod-attack", attacker="u2", target="u5", distance=20)


def test_a_beam_attack_reads_the_penetration_table_and_its_blast_hits_a_second_ship(fleets):
    fleets.to_combat()
    # Avg. F.: armour 5 reflective vs penetration 10 -> D20 > 6; Avg. D. (7 reflective) in the
    # blast: penetration and damage halved to 5 -> D20 > 12 (seed 001, Armour Penetration, Blast)
    resp = fleets.fire("u2", "u5", distance=20, rolled="15", **{"hits.u6": "blast", "hit_dice.u6": "13",
                                                               "hits.u7": "touching", "hit_dice.u7": "20"})
    assert fleets.hp("u5") == 10 and fleets.hp("u6") == 25
    assert fleets.hp("u7") == 45  # touching: penetration 0 vs 9 -> D20 > 16; damage 10 / 2 = 5
    payload = fleets.log()[-1]["payload"]
    assert [h["result"]["needed"] for h in payload["hits"]] == [6, 12, 16]
    assert payload["luck"]["actual"] == 20 and payload["luck"]["what"] == "damage"
    assert 0 < payload["luck"]["expected"] < 20
    assert "D20 > 6, rolled 15: 10 damage" in text(resp)


def test_each_ship_fires_one_weapon_per_combat_phase(fleets):
    fleets.to_combat()
    fleets.fire("u2", "u5", distance=20, rolled="1")
    fleets.refused("Avg. D. has already fired this combat phase", control="eod-attack", type="eod-attack",
                   attacker="u2", target="u6", distance=20, weapon=1)


def test_detection_and_range_are_checked_before_the_dice(fleets):
    fleets.to_combat()
    # 30 - stealth 15 + detection 10 = 25 (seed 001, Detecting Targets)
    fleets.refused("distance 26 vs detection 30 - 15 + 10 = 25, range 30: not detected", control="eod-attack",
                   type="eod-attack", attacker="u2", target="u5", distance=26)
    fleets.refused("out of range (21 > 20)", control="eod-attack", type="eod-attack", attacker="u2",
                   target="u5", distance=21, weapon=1)
    fleets.refused("Enter the distance to the target", control="eod-attack", type="eod-attack",
                   attacker="u2", target="u5")
    fleets.refused("Blast damage does not damage the attacking or allied ships", control="eod-attack",
                   type="eod-attack", attacker="u2", target="u5", distance=20, **{"hits.u3": "blast"})
    fleets.refused("Medium Fighter is a drone launcher", control="eod-attack", type="eod-attack",
                   attacker="u4", target="u5", distance=5, weapon=3)
    fleets.refused("Each die must be a whole number from 1 to 20; got 0.", control="eod-attack",
                   type="eod-attack", attacker="u2", target="u5", distance=20, rolled="0")


def test_the_detection_base_follows_the_formula_or_the_prose(fleets):
    fleets.to_combat()
    fleets.ok(type="eod-detection-base", base=25)
    fleets.refused("distance 21 vs detection 25 - 15 + 10 = 20, range 30: not detected", control="eod-attack",
                   type="eod-attack", attacker="u2", target="u5", distance=21)
    fleets.refused("The detection base is already 25.", type="eod-detection-base", base=25)
    fleets.refused("base must be from 0 to 100; got 500.", type="eod-detection-base", base=500)


def test_a_spectator_sees_the_game_but_has_no_controls(fleets):
    _, spectator = fleets.table.secrets()
    watcher = type(fleets.table)(fleets.app.test_client())
    sit(watcher.client, fleets.code, spectator, "Sam")
    body = text(watcher.client.get(f"/t/{fleets.code}?open=*"))
    assert "Avg. B." in body and "Who goes next" in body
    assert "Attack helper" not in body and "Fleet designer" not in body  # the tools are for players
    end = body.split('id="eod-end"')[1].split("</button>")[0]
    assert "disabled" in end and "Set initiative" not in body


def test_a_ship_at_zero_still_fires_and_is_removed_and_scored_when_the_phase_ends(fleets):
    fleets.to_combat()
    fleets.ok(type="adjust", unit="u5", tracker="hp", by=-10)
    fleets.fire("u2", "u5", distance=20, rolled="15")  # 10 damage: 10 -> 0
    assert fleets.hp("u5") == 0 and not fleets.state()["units"]["u5"]["removed"]
    board = text(fleets.client.get(f"/t/{fleets.code}?open=*"))
    assert "Destroyed at end of combat phase" in board and "Fleet 1 +2" in board
    fleets.fire("u5", "u1", distance=10, weapon=1, rolled="20")  # combat is simultaneous
    assert fleets.hp("u1") == 10
    resp = fleets.end_phase()
    assert "Avg. F. destroyed (Fleet 1 +2)" in text(resp)
    state = fleets.state()
    assert state["units"]["u5"]["removed"] and not state["units"]["u1"]["removed"]
    assert state["game"]["destroyed"][0] == {"unit": "u5", "name": "Avg. F.", "class": "frigate",
                                             "side": "Fleet 2", "by": "Fleet 1", "round": 2, "reason": "destroyed"}
    assert 'data-points-of="Fleet 1">2<' in text(fleets.client.get(f"/t/{fleets.code}?open=*"))


def test_the_core_next_phase_button_runs_the_same_end_of_phase(fleets):
    fleets.to_combat()
    fleets.ok(type="adjust", unit="u5", tracker="hp", by=-20)
    fleets.ok(type="next-phase")
    assert fleets.state()["units"]["u5"]["removed"]
    assert fleets.state()["game"]["destroyed"][0]["by"] == "Fleet 1"  # two fleets: the other one scored


def test_transference_repairs_an_ally_at_zero_so_it_survives_the_phase(game):
    game.deploy("Fleet 1", BURNER, GHOST)
    game.average("Fleet 2")
    game.to_combat()
    game.ok(type="adjust", unit="u2", tracker="hp", by=-20)
    assert game.hp("u2") == 0
    # Mender 10/10 (missile) vs Ghost: reactive 0, reflective 5 quartered -> 2 -> D20 > 4;
    # repairs 10, the shooter loses 5 (seed 001, Armour, Transference)
    resp = game.fire("u1", "u2", distance=5, weapon=2, rolled="5")
    assert game.hp("u2") == 10 and game.hp("u1") == 25
    assert "repairs 10" in text(resp)
    game.end_phase()
    assert not game.state()["units"]["u2"]["removed"]
    game.to_combat()
    game.refused("A transference weapon cannot be used against an enemy", control="eod-attack",
                 type="eod-attack", attacker="u1", target="u3", distance=5, weapon=2)


def test_burning_stacks_and_burns_for_two_turns_as_the_combat_phase_starts(game):
    game.deploy("Fleet 1", BURNER)
    game.average("Fleet 2")  # u2-u5
    game.to_combat()
    # Torch 10/5 with burning and EMP at Avg. D. (7 reflective): D20 > 9; EMP roll > 10
    game.fire("u1", "u3", distance=20, rolled="12 11")
    state = game.state()
    assert game.hp("u3") == 25
    assert state["game"]["burns"]["u3"] == [{"per_turn": 2, "turns_left": 2, "by": "Fleet 1"}]  # 5 / 4 -> 2
    assert "EMP" in state["units"]["u3"]["trackers"]["conditions"]["active"]
    game.end_phase()
    assert "EMP" in game.state()["units"]["u3"]["trackers"]["conditions"]["active"]
    resp = game.end_phase()  # the EMP counter comes off after the move; fires burn as combat starts
    assert "Avg. D.: EMP counter removed" in text(resp) and "Avg. D. burns for 2 (HP 25 → 23)" in text(resp)
    assert "EMP" not in game.state()["units"]["u3"]["trackers"]["conditions"]["active"]
    game.fire("u1", "u3", distance=20, rolled="12 1")  # a second fire stacks
    assert game.hp("u3") == 18
    game.end_phase()
    game.end_phase()
    assert game.hp("u3") == 14  # 2 (last turn of the first fire) + 2
    game.end_phase()
    game.end_phase()
    assert game.hp("u3") == 12 and "u3" not in game.state()["game"]["burns"]


def test_the_surge_ladder_climbs_on_the_same_target_and_resets(game):
    game.deploy("Fleet 1", BURNER)
    game.average("Fleet 2")
    surge = lambda: game.state()["units"]["u1"]["trackers"]["surge-1"]["index"]  # noqa: E731
    game.to_combat()
    game.fire("u1", "u4", distance=15, weapon=1, rolled="20")  # Ram 10/10 at Avg. C. (8 reinforced)
    assert (surge(), game.hp("u4")) == (1, 40)
    game.end_phase()
    game.end_phase()
    game.fire("u1", "u4", distance=15, weapon=1, rolled="20")  # + base quartered: 10 + 3
    assert (surge(), game.hp("u4")) == (2, 27)
    game.end_phase()
    game.end_phase()
    game.fire("u1", "u3", distance=15, weapon=1, rolled="20")  # a new target starts again
    assert surge() == 1
    game.end_phase()
    game.end_phase()
    game.end_phase()  # a turn without attacking resets it (seed 001, Surge)
    assert surge() == 0


def test_the_overloader_adds_ten_damage_and_comes_back_three_turns_later(game):
    game.deploy("Fleet 1", BURNER)
    game.average("Fleet 2")
    game.to_combat()
    game.fire("u1", "u2", distance=20, rolled="20 1", overloader=1)  # Torch 5 + 10
    assert game.hp("u2") == 5
    assert game.state()["units"]["u1"]["trackers"]["overloader"]["ready_at"] == 4
    for _ in range(2):
        game.end_phase()
    game.refused("Overloader (+10 damage) is cooling down: ready again in turn 4", control="eod-attack",
                 type="eod-attack", attacker="u1", target="u3", distance=20, overloader=1)
    for _ in range(4):
        game.end_phase()
    assert game.state()["round"] == 4
    game.fire("u1", "u3", distance=20, rolled="1", overloader=1)
    assert game.state()["units"]["u2"]["removed"]  # its fire burnt for (5 + 10) / 4 -> 4 a turn
    game.refused("Avg. D. has no Overloader.", control="eod-attack", type="eod-attack", attacker="u3",
                 target="u1", distance=10, overloader=1)


# --- equipment, movement, drones, docking ----------------------------------------------------------

def test_cloak_and_ecm_switch_at_the_start_of_the_combat_phase(game):
    game.deploy("Fleet 1", GHOST)
    game.average("Fleet 2")
    game.refused("Switching a cloak or ECM happens in the Combat phase", type="eod-device", unit="u1", device="cloak", on=1)
    game.to_combat()
    game.ok(type="eod-device", unit="u1", device="ecm", on=1)
    game.refused("ECM) is already on.", type="eod-device", unit="u1", device="ecm", on=1)
    game.refused("A ship with active ECM cannot attack", control="eod-attack", type="eod-attack",
                 attacker="u1", target="u2", distance=10)
    game.fire("u3", "u1", distance=10, rolled="3")  # ECM lock D20 > 5 fails: no other target
    assert game.state()["game"]["ecm_blocked"] == {"u3": True} and game.hp("u1") == 20
    game.refused("failed an ECM target lock this phase", control="eod-attack", type="eod-attack",
                 attacker="u3", target="u1", distance=10)
    game.refused("before the first attack", type="eod-device", unit="u1", device="ecm", on=0)
    game.refused("device must be cloak or ecm.", type="eod-device", unit="u1", device="shield", on=1)
    game.refused("Avg. F. has no Cloaking Device.", type="eod-device", unit="u2", device="cloak", on=1)


def test_a_cloaked_ship_is_harder_to_detect_and_cannot_attack(game):
    game.deploy("Fleet 1", GHOST)
    game.average("Fleet 2")
    game.to_combat()
    game.ok(type="eod-device", unit="u1", device="cloak", on=1)
    game.refused("cannot attack unless the weapon has suppression", control="eod-attack", type="eod-attack",
                 attacker="u1", target="u2", distance=10)
    # stealth 10 + 10 while cloaked: Avg. D. detects at 30 - 20 + 10 = 20
    game.refused("not detected", control="eod-attack", type="eod-attack", attacker="u3", target="u1", distance=21)


def test_the_afterburner_means_no_attack_that_turn(fleets):
    fleets.ok(type="eod-afterburner", unit="u1")
    assert "Afterburner" in fleets.state()["units"]["u1"]["trackers"]["conditions"]["active"]
    fleets.refused("already has its afterburner on", type="eod-afterburner", unit="u1")
    fleets.to_combat()
    fleets.refused("used its afterburner", control="eod-attack", type="eod-attack", attacker="u1",
                   target="u5", distance=10)
    fleets.refused("Firing an afterburner happens in the Movement phase", type="eod-afterburner", unit="u2")
    fleets.end_phase()
    assert "Afterburner" not in fleets.state()["units"]["u1"]["trackers"]["conditions"]["active"]


def test_the_ftl_jump_rolls_over_five_and_cools_down(game):
    game.deploy("Fleet 1", GHOST)
    resp = game.ok(type="eod-ftl-jump", unit="u1", rolled="3")
    assert "rolled 3 (> 5): no jump; ready again in turn 4" in text(resp)
    game.refused("FTL jump drive is cooling down", type="eod-ftl-jump", unit="u1")
    game.end_phase()
    game.refused("An FTL jump happens in the Movement phase", type="eod-ftl-jump", unit="u1")
    for _ in range(5):
        game.end_phase()
    assert "jumps 15 units" in text(game.ok(type="eod-ftl-jump", unit="u1", rolled="6"))
    game.average("Fleet 2")
    game.refused("Avg. F. has no FTL jump drive.", type="eod-ftl-jump", unit="u2")


def test_the_tractor_beam_reaches_twenty_units(game):
    game.deploy("Fleet 1", GHOST)
    game.average("Fleet 2")
    game.refused("Tractor beams have a range of 20; Avg. F. is 25 away", type="eod-tractor-beam", unit="u1",
                 target="u2", distance=25)
    assert "pulls 10 units" in text(game.ok(type="eod-tractor-beam", unit="u1", target="u2", distance=20,
                                            rolled="11"))
    assert "pulls 5 units" in text(game.ok(type="eod-tractor-beam", unit="u1", target="u2", distance=5,
                                           rolled="10"))
    game.refused("Avg. F. has no tractor beam.", type="eod-tractor-beam", unit="u2", target="u1", distance=5)


def test_a_ship_off_the_edge_returns_on_more_than_ten(fleets):
    assert "returns where it left" in text(fleets.ok(type="eod-off-the-edge", unit="u1", rolled="11"))
    assert "Avg. F. is lost off the edge" in text(fleets.ok(type="eod-off-the-edge", unit="u1", rolled="10"))
    assert fleets.state()["units"]["u1"]["removed"]
    fleets.refused("Avg. F. is off the table.", type="eod-off-the-edge", unit="u1")


def test_a_launcher_has_one_drone_in_flight(fleets):
    fleets.ok(type="eod-launch-drone", unit="u4", launcher=3)
    drone = fleets.state()["units"]["u9"]
    assert drone["name"] == "Medium Fighter (Avg. B.)" and drone["template"] == "drone"
    assert drone["trackers"]["hp"]["value"] == 10 and drone["side"] == "Fleet 1"
    fleets.refused("Medium Fighter already has a drone in flight", type="eod-launch-drone", unit="u4", launcher=3)
    fleets.refused("Mediocre Laser is not a drone launcher.", type="eod-launch-drone", unit="u4", launcher=0)
    fleets.to_combat()
    fleets.refused("Launching a drone happens in the Movement phase", type="eod-launch-drone", unit="u4", launcher=3)
    fleets.ok(type="adjust", unit="u9", tracker="hp", by=-10)
    fleets.end_phase()
    assert fleets.state()["units"]["u9"]["removed"]
    fleets.ok(type="eod-launch-drone", unit="u4", launcher=3)  # the launcher is free again


def test_docking_keeps_a_ship_out_of_the_fight(game):
    game.deploy("Fleet 1", STATION, GHOST)
    game.average("Fleet 2")  # u3-u6
    game.refused("A battleship cannot dock at a station", type="eod-dock", unit="u6", base="u1")
    game.ok(type="eod-dock", unit="u2", base="u1")
    game.refused("Ghost is already docked.", type="eod-dock", unit="u2", base="u1")
    game.to_combat()
    game.refused("docked ships cannot be targeted", control="eod-attack", type="eod-attack",
                 attacker="u4", target="u2", distance=5)
    game.refused("Launching a docked ship happens in the Movement phase", type="eod-undock", unit="u2")
    game.end_phase()
    game.ok(type="eod-undock", unit="u2")
    game.refused("Ghost is not docked.", type="eod-undock", unit="u2")


def test_a_station_attacks_twice_at_different_targets(game):
    game.deploy("Fleet 1", STATION)
    game.average("Fleet 2")
    game.to_combat()
    game.fire("u1", "u2", distance=20, rolled="1")
    game.refused("attacks must be at different targets", control="eod-attack", type="eod-attack",
                 attacker="u1", target="u2", distance=20)


# --- victory -----------------------------------------------------------------------------------

def test_checkmate_withdraws_a_fleet_without_its_battleship_at_the_end_of_the_turn(fleets):
    fleets.ok(type="eod-victory", checkmate=1, points=1, turns=6)
    fleets.to_combat()
    fleets.ok(type="adjust", unit="u8", tracker="hp", by=-80)
    resp = fleets.end_phase()
    assert "Checkmate: Fleet 1 wins" in text(resp)
    state = fleets.state()
    assert all(state["units"][f"u{i}"]["removed"] for i in range(5, 9))
    assert state["game"]["victory"]["turns"] == 6
    assert {d["reason"] for d in state["game"]["destroyed"]} == {"destroyed", "withdrawn: no admiral"}
    fleets.refused("Pick at least one win condition", type="eod-victory")
    # one reader of yes/no (issue 29): "no" and "false" are no here too (this game once took them for yes)
    fleets.refused("Pick at least one win condition", type="eod-victory", points="no", capture="false")


def test_capture_the_ship_and_roles(fleets):
    fleets.ok(type="eod-victory", capture=1)
    fleets.ok(type="eod-role", unit="u5", role="prize")
    fleets.refused("Avg. F. is already a prize ship.", type="eod-role", unit="u5", role="prize")
    fleets.to_combat()
    fleets.ok(type="adjust", unit="u5", tracker="hp", by=-10)
    fleets.fire("u2", "u5", distance=20, rolled="20")
    fleets.end_phase()
    prize = fleets.state()["units"]["u5"]
    assert prize["side"] == "Fleet 1" and prize["trackers"]["hp"]["value"] == 20 and not prize["removed"]
    assert "most captured: Fleet 1" in text(fleets.client.get(f"/t/{fleets.code}?open=*"))
    fleets.ok(type="eod-capture", unit="u5", fleet="Fleet 2")
    assert fleets.state()["units"]["u5"]["side"] == "Fleet 2"
    fleets.refused("Avg. F. already flies for Fleet 2.", type="eod-capture", unit="u5", fleet="Fleet 2")
    fleets.refused("role must be convoy, prize or none.", type="eod-role", unit="u1", role="bait")


def test_interdiction_scores_convoy_ships_destroyed_and_surviving(fleets):
    fleets.ok(type="eod-victory", interdiction=1)
    for uid in ("u5", "u6"):
        fleets.ok(type="eod-role", unit=uid, role="convoy")
    fleets.to_combat()
    fleets.ok(type="adjust", unit="u5", tracker="hp", by=-20)
    fleets.end_phase()
    assert "Interdiction: Fleet 1 1, Fleet 2 1" in text(fleets.client.get(f"/t/{fleets.code}?open=*"))


def test_gladiator_names_the_last_ship_flying(game):
    game.deploy("Fleet 1", GHOST)
    game.deploy("Fleet 2", BURNER)
    game.ok(type="eod-victory", gladiator=1)
    game.to_combat()
    game.ok(type="adjust", unit="u2", tracker="hp", by=-30)
    assert "Gladiator: Fleet 1 wins" in text(game.end_phase())


def test_undo_takes_an_attack_back_and_the_log_still_folds(fleets):
    fleets.to_combat()
    fleets.fire("u2", "u5", distance=20, rolled="15")
    assert fleets.table.undo().status_code == 200
    assert fleets.hp("u5") == 20 and fleets.state()["game"]["fired"] == {}
    fleets.folds()


# --- the designer and saved fleets --------------------------------------------------------------

def designer_form(**ship):
    base = {"fleet_name": "Strike group", "s0.name": "Hammer", "s0.class": "frigate", "s0.speed": "25",
            "s0.stealth": "10", "s0.detection": "15", "s0.armour.reflective": "5", "s0.armour.reinforced": "5",
            "s0.armour.reactive": "5", "s0.equipment": "overloader",
            "s0.w0.name": "Laser", "s0.w0.type": "beam", "s0.w0.range": "30", "s0.w0.penetration": "10",
            "s0.w0.damage": "10"}
    return {**base, **ship}


def test_the_designer_names_each_broken_rule_as_it_is_typed(game):
    resp = game.post("designer/check", **designer_form())
    assert "Every ship follows the design rules" in text(resp)
    resp = game.post("designer/check", **designer_form(**{"s0.stealth": "20", "s0.w0.aug1": "critical-hit"}))
    body = text(resp)
    assert "2 rules broken" in body
    assert "Hammer (frigate): armour 15 + speed 25 + stealth 20 + detection 15 + equipment 5 + auras 0 = 80" in body
    assert "Laser (beam): range 30 + penetration 10 + damage 10 + augmenters 5 = 55, but it must equal 50" in body
    body = text(game.post("designer/check", **designer_form(**{"s0.speed": "fast"})))
    assert "Hammer's speed must be a whole number from 0 to 99." in body


def test_the_designer_adds_ships_loads_the_average_fleet_and_fills_a_preset(game):
    body = text(game.post("designer", op="add-ship:cruiser"))
    assert 'value="Cruiser 1"' in body and "Every ship follows the design rules" in body
    body = text(game.post("designer", op="load:average-fleet"))
    assert 'value="Avg. B."' in body and "3 warnings" in body and "rule broken" not in body
    body = text(game.post("designer", op="fill", size="patrol", **designer_form()))
    assert body.count('name="s5.name"') == 1 and "patrol: frigate 3/3" in body


def test_a_designed_fleet_is_saved_exported_imported_and_put_on_the_table(game):
    resp = game.post("designer/save", **designer_form())
    assert "Saved 'Strike group': 1 ships." in text(resp) and resp.headers["HX-Trigger"] == "eod-fleets"
    fleets = text(game.client.get(f"/t/{game.code}/eod/fleets"))
    assert "Strike group" in fleets
    db = store.open_db(game.app.config["DATABASE"])
    saved = store.library_items(db, "empires-of-dust", "fleet")[0]
    db.close()
    doc = game.client.get(f"/t/{game.code}/eod/fleets/{saved['id']}.json").get_json()
    assert doc["format"] == "empires-of-dust-fleet" and doc["ships"][0]["equipment"] == ["overloader"]
    resp = game.post(f"fleets/{saved['id']}/deploy", side="Fleet 2", _control=f"eod-fleet-{saved['id']}")
    assert resp.status_code == 200
    hammer = game.state()["units"]["u1"]
    assert hammer["side"] == "Fleet 2" and set(hammer["trackers"]) == {"hp", "overloader", "conditions"}
    game.folds()
    doc["name"] = "Imported group"
    resp = game.client.post(f"/t/{game.code}/eod/fleets/import", headers={"HX-Request": "true"},
                            data={"csrf_token": game.table.csrf,
                                  "file": (io.BytesIO(json.dumps(doc).encode()), "fleet.json")})
    assert resp.status_code == 200 and "Imported group" in text(resp)
    doc["ships"][0]["speed"] = 30
    resp = game.client.post(f"/t/{game.code}/eod/fleets/import", headers={"HX-Request": "true"},
                            data={"csrf_token": game.table.csrf,
                                  "file": (io.BytesIO(json.dumps(doc).encode()), "fleet.json")})
    assert resp.status_code == 400 and "a frigate's stat total is 70" in text(resp)
    resp = game.client.post(f"/t/{game.code}/eod/fleets/import", headers={"HX-Request": "true"},
                            data={"csrf_token": game.table.csrf, "file": (io.BytesIO(b"{}"), "x.json")})
    assert resp.status_code == 400 and "This is not an exported fleet" in text(resp)


def test_the_designer_refuses_to_save_a_broken_fleet(game):
    resp = game.post("designer/save", **designer_form(**{"s0.stealth": "20"}))
    assert "stat total is 70" in text(resp)
    db = store.open_db(game.app.config["DATABASE"])
    assert store.library_items(db, "empires-of-dust", "fleet") == []
    db.close()
    resp = game.post("designer/deploy", side="Fleet 1", **designer_form())
    assert resp.headers["HX-Trigger"] == "eod-board" and game.state()["units"]["u1"]["name"] == "Hammer"


def test_the_attack_preview_shows_the_d20_needed_and_the_odds(fleets):
    fleets.to_combat()
    resp = fleets.client.get(f"/t/{fleets.code}/eod/attack/preview",
                             query_string={"attacker": "u2", "target": "u5", "distance": "20", "weapon": "0",
                                           "hits.u6": "blast"})
    body = text(resp)
    assert "D20 > 6" in body and "D20 > 12" in body and "70%" in body  # P(D20 > 6) = 14/20
    assert "Detected when distance ≤ 30 − stealth + detection" in body and "seed" not in body
    body = text(fleets.client.get(f"/t/{fleets.code}/eod/attack", query_string={"attacker": "u4"}))
    assert "Medium Fighter" not in body.split('name="weapon"')[1].split("</select>")[0]


# --- real D20s over the JSON API (issue 24) ---------------------------------------------------------

RENDER = {**BURNER, "name": "Render",
          "weapons": [weapon("Ripper", "beam", 25, 10, 5, "rending", "critical-hit")] + BURNER["weapons"][1:]}


def test_an_attack_takes_every_real_d20_it_asks_for_over_the_api(game):
    """Issue 24 (a regression): the attack declared one D20, so the second was refused before the game
    saw it.  Seed 001, Augmenters: Rending is rolled before the armour penetration roll (D20 > 10:
    automatic penetration) and Critical Hit after it (D20 > 10: + the base damage)."""
    game.deploy("Fleet 1", RENDER)
    game.average("Fleet 2")  # u2-u5
    game.to_combat()
    resp = game.api(type="eod-attack", attacker="u1", target="u3", weapon=0, distance=20, rolled=[11, 11])
    assert resp.status_code == 200, resp.get_json()
    game.folds()
    assert game.hp("u3") == 30 - 10  # Avg. D. HP 30; rending passes, critical adds the base 5: 5 + 5
    hit = game.log()[-1]["payload"]["hits"][0]
    assert [(r["roll"], r["value"]) for r in hit["result"]["rolls"]] == [("rending", 11), ("critical", 11)]
    assert hit["real"] is True


def test_an_attack_refuses_more_d20s_than_it_asks_for_and_more_than_any_attack_can(game):
    game.deploy("Fleet 1", RENDER)
    game.average("Fleet 2")
    game.to_combat()
    before = game.state()
    resp = game.api(type="eod-attack", attacker="u1", target="u3", weapon=0, distance=20, rolled=[11, 11, 11])
    assert resp.status_code == 400 and resp.get_json() == {"error": "This attack used 2 D20s; 3 were entered.",
                                                           "field": "rolled"}
    resp = game.api(type="eod-attack", attacker="u1", target="u3", weapon=0, distance=20, rolled=[11] * 9)
    assert resp.status_code == 400, resp.get_json()
    assert resp.get_json() == {"error": "rolled takes at most 8 dice, each a whole number from 1 to 20; got 9.",
                               "field": "rolled"}
    assert game.state() == before
