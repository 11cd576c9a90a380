"""Empires of Dust against its rulebook (seed 001): the places issue 9 found where the app differed
(items 9-13), each test named for the rule it guards, with the seed's sentence in a comment.
Rules-level tests call ``rules`` directly; table-level tests go through the JSON API with real D20s.
"""
from __future__ import annotations

import pytest

from companion.games.empires_of_dust import rules as eod
from companion.errors import RuleError
from test_empires_of_dust_actions import Game, armour, text, weapon

# Legal designs (seed 001, Ship Stats and Design: armour + speed + stealth + detection = the class total).
SNIPER = {"name": "Long Eye", "class": "destroyer", "armour": armour(5, 5, 5), "speed": 15, "stealth": 15,
          "detection": 15, "specialisations": ["sniper"],
          "weapons": [weapon("Lance", "beam", 35, 10, 5)]}  # range 35 + Sniper 10 (Specialization System)
BLIND_BATTLESHIP = {"name": "Old Iron", "class": "battleship", "armour": armour(9, 8, 8), "speed": 15,
                    "stealth": 0, "detection": 0, "weapons": [weapon("Big Beam", "beam", 35, 15, 10)]}


@pytest.fixture
def game(app, table):
    return Game(app, table).create()


def refusal(resp) -> str:
    assert resp.status_code == 400, resp.get_json()
    return resp.get_json()["error"]


# --- item 9: stealth and detection have no floor ------------------------------------------------

def test_stealth_inside_a_star_goes_below_zero_for_detection(game):
    # seed 001, Celestial Bodies: "in the suns own diameter -20 stealth modifier"; Detecting Targets:
    # "Distance <= 30 - Stealth + Detection". The seed gives no floor: 30 - (15 - 20) + 15 = 50.
    game.deploy("Fleet 1", SNIPER)
    game.average("Fleet 2")  # u2 Avg. F.: stealth 15
    game.to_combat()
    resp = game.api(type="eod-attack", attacker="u1", target="u2", distance=48, target_in="star",
                    aura={"range": 5}, rolled="1")  # range 35 + 10 (Sniper) + 5 (range boon) = 50
    assert resp.status_code == 200, resp.get_json()
    assert "30 - (-5) + 15 = 50" in game.log()[-1]["payload"]["detection"]


def test_detection_in_a_nebula_goes_below_zero(game):
    # seed 001, Nebula: "Sparse nebula give ships within the nebula ... a -10 detection modifier":
    # a detection-0 battleship in it locks at 30 - 15 + (0 - 10) = 5, not 15.
    game.deploy("Fleet 1", BLIND_BATTLESHIP)
    game.average("Fleet 2")
    game.to_combat()
    error = refusal(game.api(type="eod-attack", attacker="u1", target="u2", distance=10,
                             attacker_in="sparse", rolled="20"))
    assert "distance 10 vs detection 30 - 15 + (-10) = 5" in error and "not detected" in error
    assert "eod-attack" not in [e["type"] for e in game.log()]
    game.ok(type="eod-attack", attacker="u1", target="u2", distance=5, attacker_in="sparse", rolled="20")


def test_detection_range_keeps_negative_stealth_and_detection():
    assert eod.detection_range(-5, 15) == 50  # seed 001, Detecting Targets
    assert eod.targeting(5, 35, 15, -10)["summary"].startswith("distance 5 vs detection 30 - 15 + (-10) = 5")


# --- item 10: scatter-shot rounds each hit ------------------------------------------------------

SCATTER = {"name": "Buckshot", "type": "projectile", "range": 15, "penetration": 10, "damage": 13,
           "augmenters": ["scatter-shot"]}
BARE = {"name": "Hulk", "class": "cruiser", "armour": {}, "hp": 50}


def test_scatter_shot_rounds_up_the_half_damage_of_each_passing_roll():
    # seed 001, Scatter-Shot: "A pass on each roll deals damage at half of the base damage, rounding
    # up": base 13 -> 7 + 7 = 14 (not 13 / 2 * 2 = 13).
    both = eod.attack(SCATTER, BARE, dice=[20, 20])
    assert both["passes"] == 2 and both["damage"] == 14 and both["target_hp"] == 36
    one = eod.attack(SCATTER, BARE, dice=[20, 1])
    assert one["passes"] == 1 and one["damage"] == 7
    # the odds enumerate the same rule: armour 0 vs penetration 10 -> D20 > 3, each roll 17/20
    odds = eod.attack_odds(SCATTER, BARE)
    assert set(odds["distribution"]) == {"0", "7", "14"}
    assert odds["expected"] == pytest.approx(0.85 * 14)


def test_scatter_shot_in_the_blast_halves_the_blast_base_per_hit():
    # seed 001, Augmenters: "The blast area ... damage values are used as the base stat": base 13 in
    # the blast is 6.5; each pass deals 6.5 / 2 = 3.25, rounding up, 4 -> 8 for two passes.
    assert eod.attack(SCATTER, BARE, position="blast", dice=[20, 20])["damage"] == 8


def test_scatter_shot_at_the_table_deals_seven_and_seven_and_the_helper_says_so(game):
    shotgun = {"name": "Shotgun", "class": "destroyer", "armour": armour(5, 5, 5), "speed": 15, "stealth": 15,
               "detection": 15, "weapons": [weapon("Buckshot", "projectile", 15, 7, 13, "scatter-shot")]}
    game.deploy("Fleet 1", shotgun)
    game.average("Fleet 2")
    game.to_combat()
    preview = text(game.client.get(f"/t/{game.code}/eod/attack/preview",
                                   query_string={"attacker": "u1", "target": "u2", "distance": 10}))
    assert "Scatter-Shot (each passing roll: half the base damage, rounded up on its own)" in preview
    # Avg. F.: reinforced 5 vs penetration 7 -> D20 > 8 (seed 001, Armour Penetration)
    game.fire("u1", "u2", rolled="20 9")
    assert game.hp("u2") == 20 - 14


# --- item 11: chain-hit makes up to two jumps ----------------------------------------------------

ARC = {"name": "Arc Ship", "class": "destroyer", "armour": armour(5, 5, 5), "speed": 15, "stealth": 15,
       "detection": 15, "weapons": [weapon("Arc", "beam", 30, 10, 5, "chain-hit")]}


def test_chain_hit_makes_up_to_two_jumps_after_the_main_hit(game):
    # seed 001, Chain-Hit: "Up to two jumps in addition to the main hit can be made."
    game.deploy("Fleet 1", ARC)
    game.average("Fleet 2")  # u2-u5: Avg. F., D., C., B.
    game.to_combat()
    fire = dict(type="eod-attack", attacker="u1", target="u2", distance=10, rolled="1")
    error = refusal(game.api(**fire, hits={"u3": "chain", "u4": "chain-2", "u5": "chain"}))
    assert "A chain-hit makes up to 2 jumps after the main hit (seed 001, Chain-Hit)" in error
    assert "chain-hit makes one jump from each ship" in refusal(game.api(**fire, hits={"u3": "chain", "u4": "chain"}))
    assert "mark the first jump chain" in refusal(game.api(**fire, hits={"u4": "chain-2"}))
    assert "eod-attack" not in [e["type"] for e in game.log()]
    game.ok(**fire, **{"hits.u3": "chain", "hits.u4": "chain-2", "hit_dice.u3": "1", "hit_dice.u4": "1"})
    assert [h["jump"] for h in game.log()[-1]["payload"]["hits"]] == [1, 1, 2]
    helper = text(game.client.get(f"/t/{game.code}/eod/attack", query_string={"attacker": "u1"}))
    assert "Chain-hit: up to two jumps, jump 2 from the ship of jump 1." in helper  # seed 001, Chain-Hit


# --- item 12: drones are not affected by auras ---------------------------------------------------

def test_drones_are_not_affected_by_auras(game):
    # seed 001, Aura Generators: "Drones are not affected by auras."
    game.average("Fleet 1")
    game.average("Fleet 2")
    game.ok(type="eod-launch-drone", unit="u4", launcher=3)  # Avg. B.'s Medium Fighter
    drone = game.uid("Medium Fighter (Avg. B.)")
    game.to_combat()
    for key in ("range", "penetration", "damage", "detection"):
        error = refusal(game.api(type="eod-attack", attacker=drone, target="u5", distance=5, rolled="20",
                                 aura={key: 5}))
        assert "Drones are not affected by auras (seed 001, Aura Generators)" in error and key in error
    error = refusal(game.api(type="eod-attack", attacker="u5", target=drone, distance=10, rolled="20",
                             aura={"stealth": -5}))
    assert "Drones are not affected by auras" in error and "stealth" in error
    assert "eod-attack" not in [e["type"] for e in game.log()]
    game.ok(type="eod-attack", attacker=drone, target="u5", distance=5, rolled="20")
    helper = text(game.client.get(f"/t/{game.code}/eod/attack", query_string={"attacker": drone}))
    assert "Drones are not affected by auras." in helper


# --- item 13: bases launch several drones a turn; real D20s for initiative roll-offs ---------------

def bay(n):  # a drone launcher: the drone's beam totals 50 - 10 (seed 001, Weapon Stats and Design)
    return {**weapon(f"Bay {n}", "beam", 25, 10, 5), "drone": {"armour": {"reflective": 5}}}


def test_a_base_launches_one_drone_from_each_launcher_up_to_its_attacks_per_turn(game):
    # seed 001, Bases: Combat: "Some bases may fire multiple weapons or launch multiple drones per
    # turn. Outpost may only attack once as normal. A station ... twice ... A star-port ... three times."
    game.deploy("Fleet 1", {"name": "Harbour", "class": "star-port", "armour": armour(10, 10, 10),
                            "weapons": [bay(1), bay(2), bay(3), bay(4)]},
                {"name": "Watch", "class": "outpost", "armour": armour(5, 5, 5), "weapons": [bay(1), bay(2)]})
    game.average("Fleet 2")
    for launcher in (0, 1, 2):  # a star-port with several launchers launches from each this turn
        game.ok(type="eod-launch-drone", unit="u1", launcher=launcher)
    assert len(game.state()["game"]["drones"]) == 3
    # the board shows the rulebook's section, not our seed number (companion/words.py)
    game.refused("A star-port launches at most 3 drones per turn, one from each launcher "
                 "(Bases: Combat).", type="eod-launch-drone", unit="u1", launcher=3)
    game.ok(type="eod-launch-drone", unit="u2", launcher=0)
    game.refused("An outpost launches at most 1 drone per turn", type="eod-launch-drone", unit="u2", launcher=1)
    board = text(game.client.get(f"/t/{game.code}?open=*"))
    assert "launches up to 3 drones a turn, one per launcher" in board
    game.end_phase()
    game.end_phase()  # next turn's movement phase: the count starts again
    game.ok(type="eod-launch-drone", unit="u1", launcher=3)


def test_a_base_launcher_launches_once_per_turn():
    # decision (seed 001, Bases: Combat + Drone Launchers "Only one drone may be active per launcher"):
    # each launcher of a base once per turn, even if its drone was lost in the same phase
    assert eod.launch_drone("Bay 1", [], 1, base="station")["launched_this_turn"] == 2
    with pytest.raises(RuleError, match="Bay 1 has already launched this turn"):
        eod.launch_drone("Bay 1", [], 1, base="station", launcher_used=True)
    with pytest.raises(RuleError, match="A station launches at most 2 drones per turn"):
        eod.launch_drone("Bay 3", [], 2, base="station")


@pytest.fixture
def fleets(game):
    game.average("Fleet 1")  # u1-u4: Avg. F., D., C., B.
    game.average("Fleet 2")  # u5-u8
    return game


def order(game):
    return [(s["class"], s["side"]) if s["class"] else s["side"] for s in game.state()["game"]["initiative"]["steps"]]


def test_initiative_ties_are_broken_with_the_real_d20s_entered(fleets):
    # seed 001, Initiative: Roll D20: "Tied rolls are broken with another roll."
    resp = fleets.api(type="eod-initiative", mode="roll", d20={"Fleet 1": [9, 15], "Fleet 2": [9, 4]})
    assert resp.status_code == 200, resp.get_json()
    assert order(fleets) == ["Fleet 1", "Fleet 2"]
    assert fleets.state()["game"]["initiative"]["rolls"] == {"Fleet 1": [9, 15], "Fleet 2": [9, 4]}
    fleets.end_phase()
    # from the panel's fields: each fleet's first D20, then its tie-break
    fleets.ok(type="eod-initiative", mode="roll", **{"d20.Fleet 1": "12 3", "d20.Fleet 2": "12, 18"})
    assert order(fleets) == ["Fleet 2", "Fleet 1"]
    fleets.end_phase()  # a phone's number pad has no space: 12.3 is 12 then 3
    panel = text(fleets.client.get(f"/t/{fleets.code}?open=*")).split('id="eod-panel"')[1]
    assert 'name="d20.Fleet 1" inputmode="decimal"' in panel and "or 12.7 on a number pad" in panel
    fleets.ok(type="eod-initiative", mode="roll", **{"d20.Fleet 1": "12.3", "d20.Fleet 2": "12.1"})
    assert order(fleets) == ["Fleet 1", "Fleet 2"]


def test_a_tie_without_its_tie_break_d20_is_refused_and_unused_d20s_too(fleets):
    fleets.refused("Fleet 1 and Fleet 2 tied on 9: enter each one's tie-break D20 after the first",
                   control="eod-initiative", type="eod-initiative", mode="roll",
                   **{"d20.Fleet 1": 9, "d20.Fleet 2": 9})
    fleets.refused("Fleet 1: 2 D20s entered but the roll-off used 1 (no tie to break).",
                   control="eod-initiative", type="eod-initiative", mode="roll",
                   **{"d20.Fleet 1": "9 15", "d20.Fleet 2": 4})
    fleets.refused("D20 for Fleet 2 must be from 1 to 20; got 25.", control="eod-initiative",
                   type="eod-initiative", mode="roll", **{"d20.Fleet 1": "9", "d20.Fleet 2": "3 25"})


def test_ship_class_roll_offs_take_real_d20s_per_class(fleets):
    # seed 001, Initiative: Ship Class: "For each hull class and phase the players roll a D20 for
    # initiative. Tied rolls are broken with another roll."
    resp = fleets.api(type="eod-initiative", mode="class",
                      d20={"battleship": {"Fleet 1": [5, 2], "Fleet 2": [5, 20]},
                           "cruiser": {"Fleet 1": 11, "Fleet 2": 10}, "destroyer": {"Fleet 1": 1, "Fleet 2": 2},
                           "frigate": {"Fleet 1": 17, "Fleet 2": 3}})
    assert resp.status_code == 200, resp.get_json()
    assert order(fleets) == [("battleship", "Fleet 2"), ("battleship", "Fleet 1"), ("cruiser", "Fleet 1"),
                             ("cruiser", "Fleet 2"), ("destroyer", "Fleet 2"), ("destroyer", "Fleet 1"),
                             ("frigate", "Fleet 1"), ("frigate", "Fleet 2")]
    assert fleets.state()["game"]["initiative"]["rolls"]["battleship"] == {"Fleet 1": [5, 2], "Fleet 2": [5, 20]}
    fleets.end_phase()
    board = text(fleets.client.get(f"/t/{fleets.code}?open=*"))
    assert 'name="d20.frigate.Fleet 2"' in board and "tie-break" in board
    fleets.ok(type="eod-initiative", **{"d20.battleship.Fleet 1": 4, "d20.battleship.Fleet 2": 8})
    assert order(fleets)[:2] == [("battleship", "Fleet 2"), ("battleship", "Fleet 1")]
    fleets.end_phase()
    fleets.refused("By ship class, enter the D20s by class (battleship, cruiser, destroyer, frigate, drone); "
                   "'Fleet 1' is not a ship class.", control="eod-initiative", type="eod-initiative",
                   **{"d20.Fleet 1": 4})
