"""Talon's pure rules against TALON.md's numbers: the impulse chart, ship classes, weapon tables, damage,
the Critical Damage Table, curve changes and the AP/charge limits."""
from __future__ import annotations

import random

import pytest

from companion import content
from companion.errors import RuleError
from companion.games.talon.actions.fleet import classes, custom_spec, parse_groups, weapon_tables
from companion.games.talon.rules import chart, counter, criticals, damage, weapons


def ship(cls="terran-ca", name="Zhukov"):
    return counter.build(classes()[cls], name)


# --- impulse chart (TALON.md section 1) ----------------------------------------------------------

@pytest.mark.parametrize("impulse, box", [("A", {4, 5, 6}), ("B", {3, 5, 6}), ("C", {2, 4, 5, 6}),
                                          ("D", {3, 4, 5, 6}), ("E", {6}), ("F", {1, 2, 3, 4, 5, 6})])
def test_impulse_chart_cells(impulse, box):
    for n in range(0, 7):
        assert chart.moves(n, impulse) == (n in box)
        assert chart.gets_ap(n, impulse) == (n in box)


def test_value_n_appears_in_exactly_n_impulses():
    for n in range(1, 7):
        assert sum(chart.moves(n, i) for i in chart.IMPULSES) == n


def test_chart_matches_the_lookup_table():
    rows = content.lookup_table("talon", "impulse-chart")["rows"]
    assert {r[0]: tuple(int(x) for x in r[1].split()) for r in rows} == chart.IMPULSE_CHART


@pytest.mark.parametrize("curve, expect", [  # TALON.md section 1, PBF 1 cross-check
    ("3-2-1", {"B": "ap", "C": "move", "D": "ap", "F": "ap+move"}),           # Napoleon
    ("4-2-1", {"A": "ap", "C": "ap+move", "D": "ap", "F": "ap+move"}),        # Zhukov
    ("3-3-1", {"B": "ap+move", "D": "ap+move", "F": "ap+move"}),              # Justice
    ("2-4-2", {"A": "move", "C": "ap+move", "D": "move", "F": "ap+move"}),    # Unity
])
def test_pbf_schedules(curve, expect):
    power, speed, _ = chart.parse_row(curve)
    got = {}
    for cell in chart.schedule(power, speed):
        tag = "+".join(t for t, on in (("ap", cell["ap"]), ("move", cell["move"])) if on)
        if tag:
            got[cell["impulse"]] = tag
    assert got == expect


def test_phases_and_where():
    names = chart.phase_names()
    assert names == content.default_systems()["talon"].phases
    assert chart.where("C · other player") == ("C", 1)
    assert chart.where("A · initiative player") == ("A", 0)
    assert chart.where("Power Phase") == (None, None)


def test_curve_rows_parse_and_step():
    assert chart.parse_row("3-3-2") == (3, 3, 2)
    assert chart.parse_row("6-2-n/a") == (6, 2, None)
    with pytest.raises(RuleError, match="Power-Speed-Turn"):
        chart.parse_row("3-x-2")
    chart.curve_step(2, 3, 5)
    chart.curve_step(2, 1, 5)
    with pytest.raises(RuleError, match="one row"):
        chart.curve_step(2, 4, 5)
    with pytest.raises(RuleError, match="not on the ship's power curve"):
        chart.curve_step(4, 5, 5)


# --- ship classes (TALON.md section 6) -----------------------------------------------------------

def test_nineteen_classes_with_table_numbers():
    all_ = classes()
    assert len(all_) == 19
    assert sum(c["side"] == "Terran" for c in all_.values()) == 10
    ca = ship("terran-ca")
    assert chart.row_text(counter.row(ca)) == "3-3-2"  # seed 003 5.4.1
    assert [chart.row_text(r) for r in ca["curve"]] == ["1-5-3", "2-4-2", "3-3-2", "4-2-1", "5-1-1"]
    assert ca["shields"] == {"F": 6, "R": 5, "Rear": 4, "L": 5}
    assert [(g["weapon"], g["count"], g["red"], g["yellow"], g["arcs"]) for g in ca["groups"]] == [
        ("phaser", 1, 1, 1, ["F", "L"]), ("torpedo", 1, 2, 2, ["F"]), ("phaser", 1, 1, 1, ["F", "R"])]
    assert len(ca["hull"]) == 6 and [i for i, b in enumerate(ca["hull"]) if b["crit"]] == [3]
    assert ca["battery"] == 1 and ca["afterburners"] == 0
    tca = ship("talon-ca", "Justice")
    assert chart.row_text(counter.row(tca)) == "3-3-1"
    assert tca["shields"] == {"F": 7, "R": 4, "Rear": 3, "L": 4}
    assert [(g["count"], g["red"], g["yellow"]) for g in tca["groups"]] == [(2, 1, 4), (2, 1, 4)]
    assert [i for i, b in enumerate(tca["hull"]) if b["crit"]] == [2, 4] and tca["afterburners"] == 2
    dn = classes()["talon-dn"]
    assert dn["sp"] == 218 and classes()["talon-ff"]["sp"] == 44  # TT#31


def test_every_class_builds_and_matches_its_hull_count():
    for cls in classes().values():
        built = counter.build(cls, "x")
        assert len(built["hull"]) == len(cls["hull"]) and built["sp"] == cls["sp"]


def test_custom_ship_from_the_form():
    spec = custom_spec({"curve": "1-5-3, 2-4-2, 3-3-2*", "shields": "6 5 4 5", "hull": "0 0 -1c",
                        "groups": "phaser 1 1 1 F L; torpedo 1 2 2 F", "hull_class": "CA", "sp": "90"})
    built = counter.build(spec, "Mine")
    assert built["row"] == 2 and built["sp"] == 90 and built["hull"][2] == {"power": -1, "crit": True}
    with pytest.raises(RuleError, match="starting curve row"):
        custom_spec({"curve": "1-5-3, 2-4-2", "shields": "1 1 1 1"})
    with pytest.raises(RuleError, match="weapon, count, red, yellow"):
        parse_groups("phaser F")
    with pytest.raises(RuleError, match="arcs are some of"):
        counter.build({**spec, "groups": [{"weapon": "phaser", "count": 1, "red": 1, "yellow": 1, "arcs": ["X"]}]}, "x")


def test_hull_damage_lowers_power_by_fan_box_values():
    ca = ship()
    assert counter.power(ca) == 3
    damage.mark_hull(ca, 2)
    assert counter.power(ca) == 3  # boxes 0 0
    damage.mark_hull(ca, 1)
    assert counter.power(ca) == 2  # third box -1 (FAN)
    ca["crits"]["relay"] = 1
    assert counter.power(ca) == 1
    assert counter.safe_rows(ca) == [1, 2, 3, 4]  # row 1-5-3 would be Power -1
    ca["crits"]["relay"] = 3
    assert counter.power(ca) == -1 and counter.safe_rows(ca) == [3, 4]


# --- weapons (TALON.md section 4) ------------------------------------------------------------------

TABLES = weapon_tables()


@pytest.mark.parametrize("weapon, rng, roll, dmg", [
    ("disruptor", 1, 4, 0), ("disruptor", 1, 5, 2), ("disruptor", 2, 1, 0), ("disruptor", 2, 2, 2),
    ("disruptor", 3, 2, 0), ("disruptor", 3, 3, 2), ("disruptor", 4, 4, 0), ("disruptor", 4, 5, 2),
    ("torpedo", 2, 2, 4), ("torpedo", 3, 2, 0), ("torpedo", 4, 5, 4), ("torpedo", 4, 4, 0),
    ("wave", 2, 1, 0), ("wave", 4, 3, 10),
    ("phaser", 1, 1, 1), ("phaser", 1, 2, 2), ("phaser", 2, 3, 1), ("phaser", 2, 4, 2), ("phaser", 3, 4, 0),
    ("phaser", 3, 5, 1), ("fusion", 1, 2, 7), ("fusion", 1, 3, 9), ("fusion", 2, 6, 8), ("fusion", 3, 1, 0),
    ("fusion", 3, 4, 2),
])
def test_weapon_table_cells(weapon, rng, roll, dmg):
    assert weapons.damage(TABLES, weapon, rng, roll) == dmg


def test_weapon_ranges_and_missiles():
    with pytest.raises(RuleError, match="range 2-4"):
        weapons.damage(TABLES, "torpedo", 1, 6)  # no range-1 shot in FAN
    with pytest.raises(RuleError, match="range 1-3"):
        weapons.check_range(TABLES, "phaser", 4)
    assert TABLES["missile"]["speed"] == 6 and TABLES["missile"]["arrival_damage"] == 2
    weapons.check_range(TABLES, "missile", 4)


def test_odds_are_exact():
    odds = weapons.odds(TABLES, "disruptor", 2, 2)
    assert dict((k, round(p, 4)) for k, p in odds["dist"]) == {0: round(1 / 36, 4), 2: round(10 / 36, 4),
                                                               4: round(25 / 36, 4)}
    assert odds["mean"] == round(2 * 2 * 5 / 6, 2)


def test_charge_bar_ready_and_reset():
    group = ship()["groups"][1]  # torpedo 2 red, 2 yellow
    assert not counter.ready(group)
    assert weapons.charge_red(group) and weapons.charge_red(group) and not weapons.charge_red(group)
    weapons.charge_yellow(group)
    weapons.charge_yellow(group)
    with pytest.raises(RuleError, match="already charged"):
        weapons.charge_yellow(group)
    assert counter.ready(group)
    weapons.discharge(group)
    assert (group["red_on"], group["yellow_on"]) == (0, 0)


# --- damage and criticals (TALON.md section 5) ----------------------------------------------------

def test_damage_shields_first_then_hull_and_criticals():
    ca = ship()
    out = damage.apply(ca, "R", 8, None)
    assert (out["shield"], out["hull"], out["crits"]) == (5, 3, 0)
    out = damage.apply(ca, "R", 1, None)
    assert out["hull"] == 1 and out["crits"] == 1 and ca["pending"] == 1  # 4th box is critical
    damage.apply(ca, "F", 20, None)
    assert ca["destroyed"] == "all hull boxes marked"


def test_reinforcement_absorbs_first_and_needs_its_points():
    ca = ship()
    ca["reinforced"]["F"] = {"letter": "B", "round": 1, "used": 0}
    with pytest.raises(RuleError, match="Shield Reinforcement absorbs"):
        damage.apply(ca, "F", 3, None)
    out = damage.apply(ca, "F", 3, 2)
    assert (out["reinforce"], out["shield"]) == (2, 1)
    out = damage.apply(ca, "F", 1, 2)
    assert out["reinforce"] == 0 and out["shield"] == 1


def test_critical_table_matches_the_lookup_table():
    rows = content.lookup_table("talon", "critical-damage")["rows"]
    for roll, text, _ in rows:
        assert criticals.TABLE[int(roll)].split(":")[0] in text


@pytest.mark.parametrize("roll, check", [
    (2, lambda s: s["hull_hits"] == 3),
    (3, lambda s: s["crits"]["shields_down"] == "1A" and counter.shields_left(s, "F") == 0),
    (4, lambda s: s["crits"]["helm_down"] == "1A"),
    (6, lambda s: counter.turn_radius(s) == 3),
    (7, lambda s: s["crits"] == counter.build(classes()["terran-ca"], "x")["crits"]),
    (8, lambda s: counter.power(s) == 2),
    (10, lambda s: s["hull_hits"] == 1 and s["crits"]["ftl_offline"]),
    (11, lambda s: s["crits"]["power_loss"] == "1A"),
    (12, lambda s: s["destroyed"] == "FTL core breach"),
])
def test_each_critical_result(roll, check):
    ca = ship()
    ca["pending"] = 1
    criticals.resolve(ca, roll, "1A")
    assert check(ca) and ca["pending"] == 0


def test_thrusters_stack_and_secondary_explosion_chains():
    ca = ship()
    ca["pending"] = 2
    criticals.resolve(ca, 6, "1A")
    criticals.resolve(ca, 6, "1A")
    assert counter.turn_radius(ca) == 4  # 3-3-2 plus +2
    ca = ship()
    damage.mark_hull(ca, 1)
    ca["pending"] = 1
    criticals.resolve(ca, 2, "1A")  # boxes 2, 3, 4: the 4th is critical
    assert ca["hull_hits"] == 4 and ca["pending"] == 1


def test_random_weapon_group_highest_die_ties_reroll():
    ca = ship()
    ca["pending"] = 1
    with pytest.raises(RuleError, match="tie: roll again for weapon groups 1, 3"):
        criticals.resolve(dict(ca, pending=1), 5, "1A", [[6, 2, 6]])
    criticals.resolve(ca, 9, "1A", [[6, 2, 6], [1, 4]])
    assert [g["destroyed"] for g in ca["groups"]] == [False, False, True]
    assert criticals.group_rounds_needed([0, 1], [[3, 3]]) == [0, 1]
    assert criticals.group_rounds_needed([0, 1], [[3, 3], [5, 1]]) is None


def test_repair_waits_an_impulse_and_needs_a_six():
    ca = ship()
    ca["pending"] = 1
    criticals.resolve(ca, 3, "1B")
    with pytest.raises(RuleError, match="impulse after"):
        criticals.repair(ca, "shields_down", 6, "1B")
    assert not criticals.repair(ca, "shields_down", 5, "1C")
    assert criticals.repair(ca, "shields_down", 6, "1C")
    assert counter.shields_left(ca, "F") == 6
    with pytest.raises(RuleError, match="no Helm Down"):
        criticals.repair(ca, "helm_down", 6, "1C")


def test_critical_needs_a_marked_box():
    with pytest.raises(RuleError, match="No critical hull box"):
        criticals.resolve(ship(), 7, "1A")


def test_random_rolls_always_pick_one_group():
    rng = random.Random(4)
    for _ in range(50):
        rounds, left = [], [0, 1, 2]
        while left:
            rounds.append([rng.randint(1, 6) for _ in left])
            left = criticals.group_rounds_needed([0, 1, 2], rounds)
        assert criticals.pick_group([0, 1, 2], rounds) in (0, 1, 2)


def test_ship_classes_table_matches_the_data():
    rows = {r[0]: r for r in content.lookup_table("talon", "ship-classes")["rows"]}
    for cls in classes().values():
        row = rows[cls["name"]]
        assert row[2] == cls["sp"]
        assert row[3].replace("*", "").split(", ") == cls["curve"]
        assert row[4] == "/".join(map(str, cls["shields"]))


def test_at_most_three_weapon_groups():
    spec = {**classes()["terran-ca"]}
    spec["groups"] = spec["groups"] + spec["groups"][:1]
    with pytest.raises(RuleError, match="at most 3 weapon groups"):
        counter.build(spec, "x")
