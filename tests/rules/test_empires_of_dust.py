"""Empires of Dust rules (seed 001): pure procedures and the content pack, no Flask."""
from __future__ import annotations

import random
import tomllib
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.content import lookup_table, load_systems
from companion.errors import RuleError
from companion.games.empires_of_dust import rules as eod

PACK = Path(__file__).resolve().parents[2] / "content" / "empires-of-dust"

# The table exactly as seed 001 prints it (Combat Phase: Armour Penetration); the letters are the
# vertical "ARMOUR RATING" label of the first column.
SEED_TABLE = """\
A 0	10	5	5	5	5	5	5	5	4	4	3	3	3	2	2	2	1	1	1	1	0
R 1	15	10	7	7	6	6	6	5	5	4	4	3	3	3	2	2	2	1	1	1	1
M 2	15	13	10	9	8	7	6	6	5	5	4	4	3	3	3	2	2	2	1	1	1
O 3	15	13	11	10	9	8	7	6	6	5	5	4	4	3	3	3	2	2	2	1	1
U 4	15	14	12	11	10	9	8	7	6	6	5	5	4	4	3	3	3	2	2	2	1
R 5	15	14	13	12	11	10	9	8	7	6	6	5	5	4	4	3	3	3	2	2	2
6	15	14	14	13	12	11	10	9	8	7	6	6	5	5	4	4	3	3	3	2	2
R 7	15	15	14	14	13	12	11	10	9	8	7	6	6	5	5	4	4	3	3	3	2
A 8	16	15	15	14	14	13	12	11	10	9	8	7	6	6	5	5	4	4	3	3	3
T 9	16	16	15	15	14	14	13	12	11	10	9	8	7	6	6	5	5	4	4	3	3
I 10	17	16	16	15	15	14	14	13	12	11	10	9	8	7	6	6	5	5	4	4	3
N 11	17	17	16	16	15	15	14	14	13	12	11	10	9	8	7	6	6	5	5	4	4
G 12	17	17	17	16	16	15	15	14	14	13	12	11	10	9	8	7	6	6	5	5	4
13	18	17	17	17	16	16	15	15	14	14	13	12	11	10	9	8	7	6	6	5	5
14	18	18	17	17	17	16	16	15	15	14	14	13	12	11	10	9	8	7	6	6	5
15	18	18	18	17	17	17	16	16	15	15	14	14	13	12	11	10	9	8	7	6	6
16	19	18	18	18	17	17	17	16	16	15	15	14	14	13	12	11	10	9	8	7	6
17	19	19	18	18	18	17	17	17	16	16	15	15	14	14	13	12	11	10	9	8	7
18	19	19	19	18	18	18	17	17	17	16	16	15	15	14	14	13	12	11	10	9	8
19	19	19	19	19	18	18	18	17	17	17	16	16	15	15	14	14	13	12	11	10	9
20	20	19	19	19	19	18	18	18	17	17	17	16	16	15	15	14	14	13	12	11	10
"""


def seed_rows() -> list[list[int]]:
    return [[int(c) for c in line.split("\t")[1:]] for line in SEED_TABLE.splitlines()]


class Dice:
    """A fake RNG that hands out fixed D20 results."""

    def __init__(self, *values):
        self.values = list(values)

    def randint(self, a, b):
        return self.values.pop(0)


def ship(cls, armour, speed, stealth, detection, **extra):
    if isinstance(armour, int):
        armour = {"reflective": min(armour, 20), "reinforced": max(0, armour - 20)}
    return {"name": "Test", "class": cls, "armour": armour, "speed": speed, "stealth": stealth,
            "detection": detection, **extra}


def weapon(kind, rng, pen, dmg, augs=(), name="Gun", **extra):
    return {"name": name, "type": kind, "range": rng, "penetration": pen, "damage": dmg,
            "augmenters": list(augs), **extra}


# --- content ---------------------------------------------------------------------------------------

def test_content_loads_with_every_table():
    system = load_systems()["empires-of-dust"]
    for table in ("penetration", "ship-classes", "bases", "weapon-types", "armour-vs-weapon",
                  "celestial-bodies", "nebulae", "fleet-sizes", "specialisations", "augmenters",
                  "equipment", "victory-points"):
        assert table in system.tables
    assert system.phases == ["Movement", "Combat"] and system.round_label == "Turn"
    assert {"ship", "base", "drone"} <= set(system.templates)


@pytest.mark.parametrize("path", sorted((PACK / "tables").glob("*.toml")), ids=lambda p: p.stem)
def test_every_table_cites_seed_001(path):
    raw = tomllib.loads(path.read_text())
    assert raw["source"].startswith("seed 001, ")


def test_detection_setting_and_cooldown_trackers_match_the_rules():
    system = load_systems()["empires-of-dust"]
    assert system.settings["detection_base"]["default"] == eod.DEFAULT_DETECTION_BASE == 30
    assert "25" in system.settings["detection_base"]["help"]
    cooldowns = [t for t in system.templates["ship"]["trackers"] if t["kind"] == "cooldown"]
    assert {t["id"] for t in cooldowns} == {"ftl", "overloader", "assassins_touch", "fine_tuned_detector"}
    assert all(t["every"] == eod.equipment()["overloader"]["cooldown"] == 3 for t in cooldowns)


def test_movement_table_agrees_with_the_constants():
    values = {row[0]: row[1] for row in lookup_table("empires-of-dust", "movement")["rows"]}
    assert values["Minimum move"] == eod.MIN_MOVE
    assert values["Drone move"] == eod.ship_classes()["drone"]["speed"][0]
    assert values["Afterburner"] == eod.AFTERBURNER_SPEED
    assert values["Off the edge"] == eod.OFF_THE_EDGE
    assert values["FTL jump"] == eod.FTL_JUMP
    assert (values["Tractor beam (pass)"], values["Tractor beam (fail)"]) == (eod.TRACTOR_PASS, eod.TRACTOR_FAIL)
    assert values["Knockback"] == eod.KNOCKBACK


def test_seed_tables_copied():
    classes = eod.ship_classes()
    assert [classes[c]["hp"] for c in ("drone", "frigate", "destroyer", "cruiser", "battleship")] == [10, 20, 30, 50, 80]
    assert [classes[c]["stat_total"] for c in ("drone", "frigate", "destroyer", "cruiser", "battleship")] == [None, 70, 60, 50, 40]
    assert classes["frigate"]["armour"] == (10, 20) and classes["battleship"]["speed"] == (15, 15)
    assert eod.base_classes()["star-port"] == {"name": "Star-port", "diameter": 13, "hp": 130, "weapon_slots": 5,
                                               "armour_slots": 30, "stealth": 0, "detection": 20, "docks": 3, "attacks": 3}
    assert {k: v["total"] for k, v in eod.weapon_types().items()} == {"beam": 50, "projectile": 40, "missile": 30}
    assert eod.preferred_armour() == {"beam": "reflective", "projectile": "reinforced", "missile": "reactive"}
    assert eod.fleet_preset("Armada") == {"frigate": 54, "destroyer": 21, "cruiser": 13, "battleship": 3}
    assert eod.fleet_preset("battalion") == {"frigate": 8, "destroyer": 5, "cruiser": 3, "battleship": 1}
    assert len(eod.augmenters()) == 16 and len(eod.auras()) == 12 and len(eod.specialisations()) == 9
    assert {k for k, v in eod.augmenters().items() if v["roll"] == 10} == {
        "critical-hit", "rending", "immolation", "vampirism", "emp"}
    assert eod.equipment()["ftl-jump-drive"]["roll"] == 5 and eod.equipment()["tractor-beam"]["roll"] == 10


# --- penetration table -------------------------------------------------------------------------------

def test_penetration_table_is_the_seeds_21_by_21():
    table = eod.penetration_table()
    assert len(table) == 21 and all(len(row) == 21 for row in table)
    assert [list(r) for r in table] == seed_rows()
    raw = lookup_table("empires-of-dust", "penetration")
    assert [row[0] for row in raw["rows"]] == list(range(21))
    assert raw["columns"][1:] == [str(i) for i in range(21)]


@pytest.mark.parametrize("armour,pen,needed", [
    (0, 0, 10), (0, 1, 5), (0, 20, 0), (1, 2, 7), (2, 1, 13), (5, 5, 10), (8, 0, 16), (12, 10, 12),
    (12, 5, 15), (17, 3, 18), (3, 14, 3), (20, 0, 20), (20, 20, 10), (10, 13, 7), (15, 19, 6),
])
def test_penetration_spot_values(armour, pen, needed):
    assert eod.penetration_needed(armour, pen) == needed == seed_rows()[armour][pen]


def test_penetration_diagonal_is_ten():
    assert all(eod.penetration_needed(i, i) == 10 for i in range(21))


def test_penetration_outside_the_table():
    assert eod.penetration_needed(10, 25) == eod.penetration_needed(10, 20)
    assert eod.penetration_needed(10, -3) == eod.penetration_needed(10, 0)
    with pytest.raises(RuleError):
        eod.penetration_needed(21, 5)


# --- armour -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("armour,kind,expected", [
    ({"reflective": 12}, "beam", 12),
    ({"reflective": 12}, "projectile", 3),
    ({"reflective": 13}, "missile", 4),          # 13 / 4 = 3.25 -> 4
    ({"reflective": 1}, "projectile", 1),        # 1 / 4 -> 1
    ({"reflective": 5, "reinforced": 5, "reactive": 5}, "beam", 5),
    ({"reflective": 20, "reinforced": 6}, "projectile", 6),
    ({"reflective": 20, "reinforced": 4}, "projectile", 5),   # quartered 20 beats 4 reinforced
    ({"reactive": 9, "reinforced": 8}, "beam", 3),
    ({}, "missile", 0),
])
def test_effective_armour(armour, kind, expected):
    assert eod.effective_armour(armour, kind) == expected


def test_armour_ratings_and_bad_input():
    assert eod.armour_ratings({"reflective": 7, "reinforced": 7, "reactive": 6}, "missile") == {
        "reflective": 2, "reinforced": 2, "reactive": 6}
    with pytest.raises(RuleError):
        eod.effective_armour({"ablative": 3}, "beam")
    with pytest.raises(RuleError):
        eod.effective_armour({"reflective": 3}, "laser")


# --- detection --------------------------------------------------------------------------------------

@pytest.mark.parametrize("distance,stealth,detection,base,ok", [
    (30, 10, 10, 30, True),
    (30, 10, 10, 25, False),     # the seed's prose (25) vs its formula (30)
    (25, 10, 10, 25, True),
    (31, 10, 10, 30, False),
    (20, 15, 5, 30, True),
    (21, 15, 5, 30, False),
])
def test_detection(distance, stealth, detection, base, ok):
    assert eod.detection_ok(distance, stealth, detection, base) is ok


def test_detection_default_is_30():
    assert eod.detection_ok(30, 10, 10) and not eod.detection_ok(31, 10, 10)
    assert eod.detection_range(15, 15) == 30


def test_detection_modifiers():
    assert eod.target_stealth(10, cloaked=True) == 20
    assert eod.target_stealth(10, nebula="sparse") == 20
    assert eod.target_stealth(10, star="gravity-well") == 0
    assert eod.target_stealth(10, star="star") == -10
    assert eod.attacker_detection(10, nebula="dense") == 0
    assert eod.attacker_detection(10, fine_tuned=True) == 30


def test_targeting_with_designator_and_docking():
    out = eod.targeting(35, 40, 10, 10)
    assert out["in_range"] and not out["detected"] and not out["can_fire"]
    assert eod.targeting(35, 40, 10, 10, designated=True)["can_fire"]
    assert not eod.targeting(35, 30, 10, 10, designated=True)["can_fire"]
    assert not eod.targeting(5, 30, 10, 10, docked=True)["can_fire"]


# --- fleet designer ----------------------------------------------------------------------------------

LEGAL_AT_LIMITS = [
    ("frigate", 10, 30, 20, 10), ("frigate", 20, 20, 20, 10), ("frigate", 20, 30, 10, 10),
    ("destroyer", 15, 25, 15, 5), ("destroyer", 25, 15, 5, 15),
    ("cruiser", 20, 20, 10, 0), ("cruiser", 30, 10, 0, 10),
    ("battleship", 25, 15, 0, 0),
]


@pytest.mark.parametrize("cls,armour,speed,stealth,detection", LEGAL_AT_LIMITS)
def test_designer_legal_at_the_limits(cls, armour, speed, stealth, detection):
    assert eod.design_violations(ship(cls, armour, speed, stealth, detection)) == []


@pytest.mark.parametrize("cls,armour,speed,stealth,detection,stat,value", [
    ("frigate", 10, 31, 20, 10, "speed", 31),
    ("frigate", 21, 20, 20, 10, "armour", 21),
    ("destroyer", 15, 25, 16, 5, "stealth", 16),
    ("cruiser", 20, 10, 10, 11, "detection", 11),
    ("cruiser", 31, 10, 0, 10, "armour", 31),
    ("battleship", 26, 15, 0, 0, None, None),      # within its range: only the total is over
    ("battleship", 25, 16, 0, 0, "speed", 16),
])
def test_designer_one_over_is_named(cls, armour, speed, stealth, detection, stat, value):
    found = eod.design_violations(ship(cls, armour, speed, stealth, detection))
    total = eod.ship_classes()[cls]["stat_total"]
    if stat is not None:
        assert any(f"{stat} {value} is outside the {cls} range" in v for v in found)
    assert len(found) == (1 if stat is None else 2)
    assert any(f"= {total + 1}, but a {cls}'s stat total is {total}." in v for v in found)


def test_designer_under_total_is_named():
    found = eod.design_violations(ship("frigate", 10, 20, 10, 10))
    assert found == ["Test (frigate): armour 10 + speed 20 + stealth 10 + detection 10 + equipment 0 + "
                     "auras 0 = 50, but a frigate's stat total is 70."]


def test_equipment_and_auras_cost():
    legal = ship("frigate", 10, 20, 15, 10, equipment=["cloaking-device"], auras=["damage-bane"])
    assert eod.design_violations(legal) == []   # 10 + 20 + 15 + 10 + 5 + 10 = 70
    tractor = ship("frigate", 10, 25, 15, 15, equipment=["tractor-beam"])
    assert any("push or pull" in v for v in eod.design_violations(tractor))
    assert eod.design_violations({**tractor, "equipment": ["tractor-beam-pull"]}) == []
    assert any("unknown equipment" in v for v in eod.design_violations({**tractor, "equipment": ["laser-eyes"]}))


def test_armour_of_one_type_at_most_20():
    found = eod.design_violations(ship("cruiser", {"reflective": 21, "reinforced": 4}, 15, 5, 5))
    assert found == ["Test (cruiser): reflective armour 21 is over 20, the most of one type."]


@pytest.mark.parametrize("host,w,target", [
    ("frigate", weapon("beam", 30, 10, 10), None),
    ("frigate", weapon("beam", 35, 5, 10), None),
    ("frigate", weapon("projectile", 20, 10, 10), None),
    ("frigate", weapon("missile", 10, 10, 10), None),
    ("frigate", weapon("missile", 10, 5, 5, ["critical-hit", "burning"]), None),
    ("frigate", weapon("beam", 30, 10, 11), "= 51, but it must equal 50 (beam)"),
    ("frigate", weapon("projectile", 15, 15, 15), "= 45, but it must equal 40 (projectile)"),
    ("frigate", weapon("missile", 16, 7, 7), "range 16 is outside the missile range 5-15"),
    ("battleship", weapon("beam", 35, 15, 10), None),
    ("battleship", weapon("missile", 14, 13, 13), None),
    ("battleship", weapon("beam", 30, 10, 10), "= 50, but it must equal 60 (beam 50, +10 for a battleship)"),
    ("drone", weapon("beam", 30, 5, 5), None),
    ("drone", weapon("projectile", 15, 7, 8), None),
    ("drone", weapon("missile", 5, 5, 10), None),
    ("drone", weapon("missile", 10, 10, 10), "= 30, but it must equal 20 (missile 30, -10 for a drone)"),
])
def test_weapon_totals_per_type(host, w, target):
    found = eod.weapon_violations(w, modifier=eod.ship_classes()[host]["weapon_modifier"], host=host)
    if target is None:
        assert found == []
    else:
        assert any(target in v for v in found), found


def test_drone_launcher_weapon_uses_the_drone_modifier():
    launcher = weapon("projectile", 15, 7, 8, name="Fighter", drone={"armour": {"reinforced": 5}})
    assert eod.weapon_violations(launcher, modifier=10, host="battleship") == []
    mixed = {**launcher, "drone": {"armour": {"reinforced": 3, "reactive": 2}}}
    assert any("of one type" in v for v in eod.weapon_violations(mixed, host="battleship"))


@pytest.mark.parametrize("augs,host,message", [
    (["critical-hit", "rending", "emp"], "frigate", "at most 2 augmenters per weapon; it has 3"),
    (["critical-hit", "critical-hit"], "frigate", "augmenters must be different"),
    (["warp-shot"], "frigate", "unknown augmenter 'warp-shot'"),
    (["critical-hit"], "drone", "drone weapons cannot be augmented"),
])
def test_augmenter_limits(augs, host, message):
    w = weapon("beam", 25, 5, 5, augs)
    found = eod.weapon_violations(w, host=host)
    assert any(message in v for v in found), found


def test_weapon_slots_berserker_and_engineer():
    gun = weapon("missile", 10, 10, 10)
    frigate = ship("frigate", 15, 25, 15, 15, weapons=[gun, gun, gun])
    assert any("has 2 weapon slots but carries 3 weapons" in v for v in eod.design_violations(frigate))
    berserker = ship("destroyer", 20, 20, 10, 10, specialisations=["Berserker"], weapons=[gun] * 4)
    assert eod.design_violations(berserker) == []
    launcher = weapon("missile", 5, 5, 10, drone={"armour": {"reactive": 5}})
    engineer = ship("cruiser", 25, 15, 5, 5, specialisations=["Engineer"], weapons=[gun, gun, gun, launcher])
    assert eod.design_violations(engineer) == []
    assert eod.design_violations({**engineer, "weapons": [gun] * 4}) != []


@pytest.mark.parametrize("cls,specs,message", [
    ("frigate", ["Sniper"], "Sniper is a destroyer specialisation; a frigate can take Speed Demon or Seer or Scout"),
    ("destroyer", ["Sniper", "Psy-Ops"], "at most one specialisation"),
    ("battleship", ["Seer", "Seer"], "must be different"),
    ("battleship", ["Seer", "Sniper", "Engineer"], "at most two specialisations"),
    ("cruiser", ["Warlord"], "unknown specialisation"),
])
def test_specialisation_rules(cls, specs, message):
    base = dict(zip(("armour", "speed", "stealth", "detection"),
                    {"frigate": (15, 25, 15, 15), "destroyer": (20, 20, 10, 10),
                     "cruiser": (25, 15, 5, 5), "battleship": (25, 15, 0, 0)}[cls]))
    found = eod.design_violations(ship(cls, **base, specialisations=specs))
    assert any(message in v for v in found), found


def test_battleship_any_two_different_specialisations():
    assert eod.design_violations(ship("battleship", 25, 15, 0, 0, specialisations=["Seer", "Juggernaut"])) == []


def test_psy_ops_aura_is_free_and_juggernaut_armour_is_extra():
    psy = ship("destroyer", 20, 20, 10, 10, specialisations=["Psy-Ops"], auras=["speed-boon"])
    assert eod.design_violations(psy) == []
    assert eod.design_violations({**psy, "specialisations": []}) != []
    jug = ship("cruiser", 25, 15, 5, 5, specialisations=["Juggernaut"], extra_armour={"reinforced": 10})
    assert eod.design_violations(jug) == []
    assert eod.ship_stats(jug)["armour"]["reinforced"] == 15
    assert any("Juggernaut" in v for v in eod.design_violations({**jug, "specialisations": []}))
    assert any("at most 10" in v for v in eod.design_violations({**jug, "extra_armour": {"reinforced": 11}}))


def test_ship_stats_apply_specialisations():
    demon = eod.ship_stats(ship("frigate", 15, 25, 15, 15, specialisations=["Speed Demon"]))
    assert demon["speed"] == 35 and demon["stealth"] == 15
    flagship = eod.ship_stats(ship("battleship", 25, 15, 0, 0, specialisations=["Scout", "Engineer"]))
    assert flagship["detection"] == 10 and flagship["drone_launches_per_turn"] == 2
    assert eod.weapon_range(weapon("beam", 30, 10, 10), specialisations=["Sniper"]) == 40


def test_drone_and_base_design():
    drone = {"name": "Wasp", "class": "drone", "armour": {"reactive": 5},
             "weapons": [weapon("missile", 10, 5, 5)]}
    assert eod.design_violations(drone) == []
    assert any("one type" in v for v in eod.design_violations({**drone, "armour": {"reactive": 3, "reflective": 2}}))
    assert any("cannot have equipment" in v for v in eod.design_violations({**drone, "equipment": ["ecm"]}))
    outpost = {"name": "Rock", "class": "Outpost", "armour": {"reinforced": 15, "reflective": 5},
               "weapons": [weapon("beam", 30, 10, 10), weapon("missile", 5, 5, 10, drone={"armour": {"reactive": 5}})]}
    assert eod.design_violations(outpost) == []
    heavy = {**outpost, "armour": {"reinforced": 15, "reflective": 6}}
    assert eod.design_violations(heavy) == ["Rock (outpost): armour 21 is more than the 20 armour slots of a outpost."]
    with pytest.raises(RuleError):
        eod.design_violations({"class": "dreadnought"})


def test_average_fleet_is_the_seeds_and_legal_but_for_its_noted_deviations():
    fleet = eod.average_fleet()
    assert [s["name"] for s in fleet] == ["Avg. F.", "Avg. D.", "Avg. C.", "Avg. B."]
    assert [s["hp"] for s in fleet] == [20, 30, 50, 80]
    for s in fleet:
        assert eod.design_violations(s) == s["seed_deviations"]
    assert [s["name"] for s in fleet if s["seed_deviations"]] == ["Avg. B."]
    battleship = fleet[3]
    assert [(w["range"], w["penetration"], w["damage"]) for w in battleship["weapons"]] == [
        (34, 13, 13), (24, 13, 13), (14, 13, 13), (11, 7, 7)]
    assert battleship["weapons"][3]["drone"] == {"armour": {"reflective": 5}}


def test_fleet_composition():
    out = eod.fleet_composition(eod.average_fleet(), "patrol")
    assert out["have"] == {"frigate": 1, "destroyer": 1, "cruiser": 1, "battleship": 1}
    assert out["difference"]["frigate"] == -2 and not out["matches"]
    with pytest.raises(RuleError):
        eod.fleet_preset("flotilla")


# --- attack ------------------------------------------------------------------------------------------

LANCE = weapon("beam", 30, 10, 13, name="Lance")
WARDEN = {"name": "Warden", "class": "destroyer", "armour": {"reflective": 12, "reinforced": 4}, "hp": 30}


def test_attack_hit_and_summary():
    out = eod.attack(LANCE, WARDEN, dice=[14])
    assert out["needed"] == 12 and out["penetrated"] and out["damage"] == 13 and out["target_hp"] == 17
    assert out["summary"].startswith("Lance (beam) vs Warden: armour 12 reflective, penetration 10 -> needs D20 > 12")
    assert "hit, 13 damage" in out["summary"]
    miss = eod.attack(LANCE, WARDEN, dice=[12])
    assert not miss["penetrated"] and miss["damage"] == 0 and "no penetration" in miss["summary"]


@pytest.mark.parametrize("position,pen,dmg", [
    ("direct", 13, 13), ("blast", 7, 7), ("touching", 0, 7),
])
def test_blast_halving_rounds_up(position, pen, dmg):
    w = weapon("beam", 34, 13, 13)
    out = eod.attack(w, {"armour": {}}, position=position, dice=[20])
    assert out["penetration"] == pen and out["damage"] == dmg
    assert out["needed"] == eod.penetration_needed(0, pen)


@pytest.mark.parametrize("augs,position,base,dice,damage,self_damage", [
    # seed's own example: in the blast, half damage plus an additional half -> three quarters
    (["immolation"], "blast", 8, [11, 20], 6, 2),
    # 7 in the blast = 3.5 + 1.75 = 5.25 -> 6 (rounding once, on the final value)
    (["immolation"], "blast", 7, [11, 20], 6, 2),
    # critical in the blast: 2.5 + 2.5 = 5, not 3 + 3
    (["critical-hit"], "blast", 5, [20, 11], 5, 0),
    (["critical-hit"], "direct", 5, [20, 11], 10, 0),
    # scatter-shot: "A pass on each roll deals damage at half of the base damage, rounding up"
    # (seed 001, Scatter-Shot): each pass is its own hit, 3 + 3 = 6; one pass -> 3 (issue 9, item 10)
    (["scatter-shot"], "direct", 5, [20, 20], 6, 0),
    (["scatter-shot"], "direct", 5, [20, 1], 3, 0),
    # immolation burns the attacker even when the shot fails to penetrate
    (["immolation"], "direct", 9, [11, 1], 0, 5),
])
def test_augmenters_round_on_final_values(augs, position, base, dice, damage, self_damage):
    w = weapon("missile", 10, 20, base, augs)
    out = eod.attack(w, {"armour": {"reactive": 10}}, position=position, dice=dice)
    assert out["needed"] == (3 if position == "direct" else 10)
    assert (out["damage"], out["self_damage"]) == (damage, self_damage)


def test_rending_bypasses_the_penetration_roll():
    w = weapon("beam", 30, 5, 10, ["rending"])
    hard = {"armour": {"reflective": 20}}
    out = eod.attack(w, hard, dice=[11])
    assert out["penetrated"] and [r["roll"] for r in out["rolls"]] == ["rending"]
    out = eod.attack(w, hard, dice=[10, 20])
    assert [r["roll"] for r in out["rolls"]] == ["rending", "penetration"] and out["penetrated"]


def test_vampirism_emp_burning_knockback():
    w = weapon("projectile", 15, 15, 9, ["vampirism", "emp"])
    attacker = {"name": "Leech", "hp": 10, "max_hp": 30}
    out = eod.attack(w, {"armour": {}}, attacker=attacker, dice=[20, 11, 11])
    assert out["damage"] == 9 and out["attacker_heal"] == 5 and out["attacker_hp"] == 15 and out["emp"]
    full = eod.attack(w, {"armour": {}}, attacker={**attacker, "hp": 28}, dice=[20, 11, 2])
    assert full["attacker_hp"] == 30 and not full["emp"]   # never above initial hit points
    fire = eod.attack(weapon("missile", 10, 5, 13, ["burning", "knockback"]), {"armour": {}},
                      position="blast", dice=[20])
    assert fire["burn"] == {"per_turn": 2, "turns": 2}     # 13 / 2 / 4 = 1.625 -> 2
    assert fire["knockback"] == {"target_pushed": 5, "attacker_pushed": 5}
    missed = eod.attack(weapon("missile", 10, 5, 13, ["knockback"]), {"armour": {"reactive": 20}}, dice=[1])
    assert missed["knockback"] == {"target_pushed": 0, "attacker_pushed": 5}


@pytest.mark.parametrize("count,damage,new", [(0, 10, 1), (1, 13, 2), (2, 15, 3), (3, 15, 3)])
def test_surge_ladder_in_attacks(count, damage, new):
    out = eod.attack(weapon("beam", 30, 0, 10, ["surge"]), {"armour": {}}, surge_count=count, dice=[20])
    assert out["damage"] == damage and out["surge_count"] == new   # 10/4 = 2.5 -> +3, 10/2 -> +5


def test_surge_step_resets():
    assert eod.surge_step(2, False)["count"] == 0
    assert eod.surge_step(3, True, same_target=False)["count"] == 1
    assert eod.surge_step(2, True, attacked=False)["count"] == 0
    assert eod.surge_step(1, True)["bonus"] == "1/4"


def test_transference_repairs_allies_only_capped_at_initial_hp():
    mender = weapon("beam", 30, 5, 10, ["transference"], name="Mender")
    ally = {"name": "Hulk", "class": "frigate", "armour": {"reflective": 5}, "hp": 0}
    out = eod.attack(mender, ally, attacker={"name": "Medic", "hp": 30, "class": "destroyer"}, ally=True, dice=[20])
    assert out["target_heal"] == 10 and out["target_hp"] == 10 and not out["target_destroyed_at_end_of_phase"]
    assert out["self_damage"] == 5 and out["attacker_hp"] == 25
    capped = eod.attack(mender, {**ally, "hp": 15}, ally=True, dice=[20])
    assert capped["target_hp"] == 20
    recon = eod.attack(mender, ally, attacker={"hp": 50, "class": "cruiser", "specialisations": ["Re-constructor"]},
                       ally=True, dice=[20])
    assert recon["target_heal"] == 15 and recon["self_damage"] == 0
    with pytest.raises(RuleError):
        eod.attack(mender, WARDEN, dice=[20])
    with pytest.raises(RuleError):
        eod.attack(LANCE, ally, ally=True, dice=[20])
    with pytest.raises(RuleError):
        eod.attack(mender, ally, ally=True, position="blast", dice=[20])


@pytest.mark.parametrize("kwargs,damage", [
    ({"shot": "chain", "jump": 1}, 7),
    ({"shot": "furtherance"}, 13),
    ({"designating": True}, 7),
    ({"cloaked": True}, 7),
])
def test_shots_that_halve_damage(kwargs, damage):
    w = weapon("beam", 30, 10, 13, ["chain-hit", "furtherance"] if "shot" in kwargs else
               (["target-designator"] if "designating" in kwargs else ["suppression"]))
    out = eod.attack(w, {"armour": {}}, dice=[20], **kwargs)
    assert out["damage"] == damage


def test_point_defence_and_berserker_and_chain_limits():
    pd = weapon("projectile", 20, 10, 9, ["point-defence"])
    drone = {"class": "drone", "armour": {"reflective": 5}}
    out = eod.attack(pd, drone, shot="point-defence", dice=[20])
    assert out["penetration"] == 5 and out["damage"] == 5
    with pytest.raises(RuleError):
        eod.attack(pd, WARDEN, shot="point-defence", dice=[20])
    second = eod.attack(LANCE, {"armour": {}}, attacker={"specialisations": ["Berserker"]},
                        berserker_second=True, dice=[20])
    assert second["damage"] == 7
    with pytest.raises(RuleError):
        eod.attack(LANCE, {"armour": {}}, berserker_second=True, dice=[20])
    with pytest.raises(RuleError):
        eod.attack(weapon("beam", 30, 10, 10, ["chain-hit"]), {"armour": {}}, shot="chain", jump=3, dice=[20])


def test_overloader_and_assassins_touch():
    out = eod.attack(LANCE, WARDEN, overloader=True, assassins_touch=True, dice=[5])
    assert out["penetration"] == 20 and out["needed"] == 4 and out["damage"] == 23


def test_forbidden_attackers():
    for conditions in (["Cloaked"], ["ECM active"], ["Afterburner"]):
        with pytest.raises(RuleError):
            eod.attack(LANCE, WARDEN, attacker={"conditions": conditions}, dice=[20])
    with pytest.raises(RuleError):
        eod.attack(LANCE, {**WARDEN, "docked": True}, dice=[20])
    assert eod.can_attack(["EMP"])["can_attack"]
    assert not eod.can_attack(["Cloaked"], LANCE)["can_attack"]
    assert eod.can_attack(["Cloaked"], weapon("beam", 30, 5, 10, ["suppression"]))["can_attack"]


def test_ecm_target():
    blocked = eod.attack(LANCE, WARDEN, target_ecm=True, dice=[5])
    assert blocked["ecm_blocked"] and blocked["damage"] == 0 and len(blocked["rolls"]) == 1
    locked = eod.attack(LANCE, WARDEN, target_ecm=True, dice=[6, 20])
    assert locked["penetrated"]


def test_dice_by_name_rng_and_errors():
    w = weapon("beam", 30, 5, 10, ["critical-hit", "emp"])
    by_name = eod.attack(w, {"armour": {}}, dice={"penetration": 20, "critical": 11, "emp": 3})
    assert by_name["damage"] == 20 and not by_name["emp"]
    rolled = eod.attack(w, {"armour": {}}, rng=Dice(20, 11, 11))
    assert rolled["damage"] == 20 and rolled["emp"]
    with pytest.raises(RuleError) as err:
        eod.attack(w, {"armour": {}}, dice=[20])
    assert err.value.field == "dice.critical"
    with pytest.raises(RuleError):
        eod.attack(LANCE, WARDEN, dice=[20, 5])
    with pytest.raises(RuleError):
        eod.attack(LANCE, WARDEN, dice={"penetration": 20, "critical": 5})
    with pytest.raises(RuleError):
        eod.attack(LANCE, WARDEN, dice=[21])
    assert eod.attack(LANCE, WARDEN, rng=random.Random(3))["needed"] == 12


# --- odds ----------------------------------------------------------------------------------------------

def test_attack_odds_plain():
    odds = eod.attack_odds(LANCE, WARDEN)
    assert odds["needed"] == 12 and odds["p_penetrate_fraction"] == "2/5"
    assert Fraction(odds["expected_fraction"]) == Fraction(2, 5) * 13
    assert odds["distribution"] == {"0": 0.6, "13": 0.4}


def test_attack_odds_with_augmenters():
    w = weapon("beam", 30, 10, 10, ["rending", "critical-hit"])
    odds = eod.attack_odds(w, {"armour": {"reflective": 10}})      # needs > 10: 1/2
    p = Fraction(1, 2) + Fraction(1, 2) * Fraction(1, 2)
    assert Fraction(odds["p_penetrate_fraction"]) == p
    assert Fraction(odds["expected_fraction"]) == p * (10 + Fraction(1, 2) * 10)
    scatter = eod.attack_odds(weapon("beam", 30, 10, 5, ["scatter-shot"]), {"armour": {"reflective": 10}})
    assert Fraction(scatter["p_penetrate_fraction"]) == Fraction(3, 4)
    # both pass (1/4): 3 + 3 = 6 (each half rounded up, seed 001, Scatter-Shot); one passes (1/2): 3; none: 0
    assert Fraction(scatter["expected_fraction"]) == Fraction(1, 4) * 6 + Fraction(1, 2) * 3


@settings(max_examples=60, deadline=None)
@given(armour=st.integers(0, 20), pen=st.integers(0, 20), dmg=st.integers(1, 20),
       kind=st.sampled_from(["beam", "projectile", "missile"]))
def test_odds_match_every_d20_face(armour, pen, dmg, kind):
    w = weapon(kind, 10, pen, dmg)
    target = {"armour": {"reflective": armour}}
    hits = sum(eod.attack(w, target, dice=[face])["penetrated"] for face in range(1, 21))
    odds = eod.attack_odds(w, target)
    assert Fraction(odds["p_penetrate_fraction"]) == Fraction(hits, 20)
    assert Fraction(odds["expected_fraction"]) == Fraction(hits * dmg, 20)


# --- per-ship state ---------------------------------------------------------------------------------------

def test_burn_stacking_and_rounding():
    burns = eod.add_burn([], 13)                     # 13 / 4 = 3.25 -> 4
    assert burns == [{"per_turn": 4, "turns_left": 2}]
    burns = eod.add_burn(burns, Fraction(13, 2))     # blast: 6.5 / 4 = 1.625 -> 2
    first = eod.burn_tick(burns)
    assert first["damage"] == 6 and first["burns"] == [{"per_turn": 4, "turns_left": 1}, {"per_turn": 2, "turns_left": 1}]
    burns = eod.add_burn(first["burns"], 4)          # a new fire stacks on the old ones
    second = eod.burn_tick(burns)
    assert second["damage"] == 7 and second["burns"] == [{"per_turn": 1, "turns_left": 1}]
    third = eod.burn_tick(second["burns"])
    assert third["damage"] == 1 and third["burns"] == []


@pytest.mark.parametrize("item", ["ftl-jump-drive", "overloader", "Assassin's Touch", "fine_tuned_detector"])
def test_cooldown_every_third_phase(item):
    assert eod.cooldown_ready_at(1, item) == 4
    assert not eod.cooldown_ready(1, 2, item) and not eod.cooldown_ready(1, 3, item)
    assert eod.cooldown_ready(1, 4, item) and eod.cooldown_ready(None, 1, item)
    assert eod.use_equipment(item, 4, last_used=1)["ready_at"] == 7
    with pytest.raises(RuleError):
        eod.use_equipment(item, 3, last_used=1)


def test_cooldown_only_for_cooling_equipment():
    with pytest.raises(RuleError):
        eod.cooldown_ready_at(1, "cloaking-device")


@pytest.mark.parametrize("roll,jumped", [(5, False), (6, True)])
def test_ftl_jump(roll, jumped):
    out = eod.ftl_jump(2, dice=[roll])
    assert out["jumped"] is jumped and out["distance"] == (15 if jumped else 0) and out["ready_at"] == 5
    with pytest.raises(RuleError):
        eod.ftl_jump(3, last_used=2, dice=[20])


@pytest.mark.parametrize("fn,roll,key,value", [
    (lambda d: eod.tractor_beam("pull", 20, dice=d), [11], "moved", 10),
    (lambda d: eod.tractor_beam("push", 12, dice=d), [10], "moved", 5),
    (lambda d: eod.off_the_edge(dice=d), [11], "returns", True),
    (lambda d: eod.off_the_edge(dice=d), [10], "returns", False),
    (lambda d: eod.ecm_targeting(dice=d), [6], "locked", True),
    (lambda d: eod.ecm_targeting(dice=d), [5], "locked", False),
])
def test_equipment_rolls(fn, roll, key, value):
    assert fn(roll)[key] == value


def test_tractor_beam_range():
    with pytest.raises(RuleError):
        eod.tractor_beam("pull", 21, dice=[20])


def test_hp_damage_repair_and_end_of_phase():
    hit = eod.apply_damage({"name": "A", "hp": 5}, 9)
    assert hit["hp"] == 0 and hit["destroyed_at_end_of_phase"]
    assert eod.repair({"name": "A", "class": "frigate", "hp": 15}, 10)["hp"] == 20
    saved = eod.repair({"name": "B", "class": "frigate", "hp": 0}, 3)
    assert saved["hp"] == 3 and "saved" in saved["summary"]
    ships = [{"name": "A", "hp": 0, "conditions": ["Burning"]}, {"name": "B", "hp": 3, "conditions": ["Designated", "EMP"]}]
    end = eod.end_of_phase(ships, "Combat")
    assert end["destroyed"] == ["A"] and [s["name"] for s in end["ships"]] == ["B"]
    assert end["ships"][0]["conditions"] == ["EMP"]
    moved = eod.end_of_phase(end["ships"], "Movement")
    assert moved["destroyed"] == [] and moved["ships"][0]["conditions"] == []


@pytest.mark.parametrize("kwargs,low,high,can_attack", [
    ({"speed": 25}, 5, 25, True),
    ({"speed": 25, "afterburner": True}, 5, 30, False),
    ({"speed": 25, "emp": True}, 5, 5, True),
    ({"speed": 15, "half_speed": True}, 5, 8, True),
    ({"speed": 30, "drone": True}, 0, 30, True),
])
def test_movement_allowance(kwargs, low, high, can_attack):
    out = eod.movement_allowance(**kwargs)
    assert (out["min"], out["max"], out["can_attack"]) == (low, high, can_attack)


def test_devices_and_emp():
    on = eod.switch_device(["EMP"], "cloak", True, equipment_fitted=["cloaking-device"])
    assert on["conditions"] == ["EMP", "Cloaked"]
    assert eod.switch_device(on["conditions"], "cloak", False)["conditions"] == ["EMP"]
    with pytest.raises(RuleError):
        eod.switch_device([], "ecm", True, equipment_fitted=["cloaking-device"])
    with pytest.raises(RuleError):
        eod.switch_device([], "ecm", True, combat_phase_start=False)
    assert eod.apply_emp(["EMP"])["conditions"] == ["EMP"]
    assert eod.apply_emp([])["conditions"] == ["EMP"]


def test_docked_ships_and_base_transference():
    docked = {"name": "Resting", "class": "frigate", "armour": {}, "hp": 5, "docked": True}
    mender = weapon("beam", 30, 5, 10, ["transference"])
    assert eod.attack(mender, docked, attacker={"class": "station"}, ally=True, dice=[20])["target_hp"] == 15
    with pytest.raises(RuleError):
        eod.attack(mender, docked, attacker={"class": "cruiser"}, ally=True, dice=[20])
    with pytest.raises(RuleError):
        eod.attack(LANCE, WARDEN, attacker={"docked": True}, dice=[20])


def test_burn_from_an_attack_result():
    out = eod.attack(weapon("missile", 10, 5, 13, ["burning"]), {"armour": {}}, dice=[20])
    assert eod.add_burn([], per_turn=out["burn"]["per_turn"]) == [{"per_turn": 4, "turns_left": 2}]


def test_drone_launching():
    out = eod.launch_drone("Bay 1", [], 0)
    assert out["active"] == ["Bay 1"]
    with pytest.raises(RuleError):
        eod.launch_drone("Bay 1", ["Bay 1"], 0)
    with pytest.raises(RuleError):
        eod.launch_drone("Bay 2", ["Bay 1"], 1)
    assert eod.launch_drone("Bay 2", ["Bay 1"], 1, engineer=True)["launched_this_turn"] == 2


@pytest.mark.parametrize("ship_class,base_class,docked,ok", [
    ("frigate", "outpost", 0, True), ("destroyer", "outpost", 0, True), ("cruiser", "outpost", 0, False),
    ("cruiser", "station", 1, True), ("battleship", "station", 0, False), ("battleship", "star-port", 2, True),
    ("frigate", "outpost", 1, False), ("drone", "star-port", 0, False),
])
def test_docking(ship_class, base_class, docked, ok):
    if ok:
        assert eod.dock(ship_class, base_class, docked)["docked"] == docked + 1
    else:
        with pytest.raises(RuleError):
            eod.dock(ship_class, base_class, docked)


def test_base_attacks():
    assert eod.base_attacks("station", [{"weapon": "a", "target": "x"}, {"weapon": "b", "target": "y"}])["allowed"] == 2
    with pytest.raises(RuleError):
        eod.base_attacks("outpost", [{"weapon": "a", "target": "x"}, {"weapon": "b", "target": "y"}])
    with pytest.raises(RuleError):
        eod.base_attacks("star-port", [{"weapon": "a", "target": "x"}, {"weapon": "b", "target": "x"}])


# --- initiative ----------------------------------------------------------------------------------------------

def test_initiative_roll_with_tie_breaks():
    out = eod.initiative_order("roll", ["Fleet 1", "Fleet 2", "Fleet 3"],
                               {"Fleet 1": [12, 4], "Fleet 2": 7, "Fleet 3": [12, 9]})
    assert out["order"] == ["Fleet 3", "Fleet 1", "Fleet 2"]
    with pytest.raises(RuleError):
        eod.initiative_order("roll", ["Fleet 1", "Fleet 2"], {"Fleet 1": 5, "Fleet 2": 5})
    assert eod.initiative_order("roll", ["A", "B"], rng=Dice(3, 18))["order"] == ["B", "A"]


def test_initiative_by_ship_class():
    fleets = {"Fleet 1": ["battleship", "frigate"], "Fleet 2": [{"class": "frigate"}, {"class": "cruiser"}]}
    out = eod.initiative_order("class", fleets, {"frigate": {"Fleet 1": 3, "Fleet 2": 17}}, phase="Combat")
    assert out["steps"] == [{"class": "battleship", "order": ["Fleet 1"]},
                            {"class": "cruiser", "order": ["Fleet 2"]},
                            {"class": "frigate", "order": ["Fleet 2", "Fleet 1"]}]
    assert "Bases attack last" in out["summary"]


@pytest.mark.parametrize("turn,order", [
    (1, ["Fleet 1", "Fleet 2", "Fleet 3"]), (2, ["Fleet 2", "Fleet 3", "Fleet 1"]),
    (3, ["Fleet 3", "Fleet 1", "Fleet 2"]), (4, ["Fleet 1", "Fleet 2", "Fleet 3"]),
])
def test_initiative_rotating_as_in_the_seed(turn, order):
    assert eod.initiative_order("rotating", ["Fleet 1", "Fleet 2", "Fleet 3"], turn=turn)["order"] == order


def test_initiative_unknown_mode():
    with pytest.raises(RuleError):
        eod.initiative_order("chaos", ["A"])


# --- victory ---------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("ships,points", [
    (["drone"], 0), (["frigate"], 2), (["destroyer"], 3), (["cruiser"], 5), (["battleship"], 8),
    (["frigate", "frigate", {"class": "Battleship"}, "drone", "cruiser"], 17), ([], 0),
])
def test_fleet_points(ships, points):
    assert eod.fleet_points(ships) == points


def test_points_tally_and_bases():
    out = eod.points_tally({"Fleet 1": ["cruiser", "frigate"], "Fleet 2": ["battleship"]})
    assert out["points"] == {"Fleet 1": 7, "Fleet 2": 8} and out["leaders"] == ["Fleet 2"]
    with pytest.raises(RuleError):
        eod.fleet_points(["outpost"])


def test_checkmate():
    alive = {"class": "battleship", "hp": 10}
    dead = {"class": "battleship", "hp": 0}
    assert eod.checkmate({"A": [alive], "B": [dead]})["winner"] == "A"
    draw = eod.checkmate({"A": [dead], "B": [dead]}, in_play=["A", "B"])
    assert draw["draw"] == ["A", "B"] and draw["winner"] is None
    going = eod.checkmate({"A": [alive], "B": [alive], "C": [dead]})
    assert going["in_play"] == ["A", "B"] and going["eliminated"] == ["C"]
    with pytest.raises(RuleError):
        eod.checkmate({"A": [{"class": "frigate", "hp": 3}], "B": [alive]})


def test_capture_gladiator_interdiction():
    captured = eod.capture_ship({"name": "Prize", "class": "cruiser", "hp": 0}, "Fleet 2")
    assert captured["hp"] == 50 and captured["owner"] == "Fleet 2"
    assert eod.capture_tally({"Fleet 1": 1, "Fleet 2": 2})["leaders"] == ["Fleet 2"]
    assert eod.gladiator({"A": [{"hp": 4}], "B": [{"hp": 0}]})["winner"] == "A"
    with pytest.raises(RuleError):
        eod.gladiator({"A": [{"hp": 4}, {"hp": 4}]})
    result = eod.interdiction([{"attacker": "A", "defender": "B", "destroyed": 3, "survived": 2},
                               {"attacker": "B", "defender": "A", "destroyed": 1, "survived": 4}])
    assert result["scores"] == {"A": 7, "B": 3} and result["winners"] == ["A"]


def test_results_are_json_ready():
    import json
    json.dumps(eod.attack(weapon("beam", 30, 10, 13, ["burning", "surge", "knockback"]), WARDEN, dice=[20]))
    json.dumps(eod.attack_odds(LANCE, WARDEN))
    json.dumps(eod.initiative_order("class", {"A": ["frigate"]}, phase="Movement"))
