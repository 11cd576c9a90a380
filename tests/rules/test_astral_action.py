"""Astral Action rules (seed 004_e85f9e131f7d896f.txt) against the seed's own numbers (Lnnn)."""
from __future__ import annotations

from fractions import Fraction

import pytest

from companion.content import default_systems
from companion.games.astral_action.rules import attack as atk
from companion.games.astral_action.rules import damage as dmg
from companion.games.astral_action.rules import design, equipment, turn, victory
from companion.errors import RuleError

K = {"slot": "primary", "item": "kinetic", "arcs": ["F"]}


def card(size=2, items=(K,), rows=None, **extra):
    raw = {"name": "Test", "size": size, "chart": {"miss": 2, "glance": 4}, "movement": "2:2/2",
           "equipment": list(items), "rows": rows, **extra}
    return design.validate(raw)


# --- weapons and variants (L147-L183) ----------------------------------------------------------

def test_weapon_ranges_and_extended_penalties():
    assert [(b[1], b[2]) for b in equipment.WEAPONS["kinetic"]["bands"]] == [(10, 0), (18, -1)]  # L161-L162
    assert [(b[1], b[2]) for b in equipment.WEAPONS["beam"]["bands"]] == [(12, 0), (20, -1)]  # L166-L167
    assert [(b[1], b[2], b[3]) for b in equipment.WEAPONS["rockets"]["bands"]] == \
        [(6, 0, "2d6"), (12, -1, "best2"), (18, -2, "d6")]  # L171-L176
    assert [b[1] for b in equipment.WEAPONS["missiles"]["bands"]] == [24]  # L179
    assert equipment.WEAPONS["rockets"]["pws"] and equipment.WEAPONS["missiles"]["pws"]  # L174, L180
    assert not equipment.WEAPONS["rockets"]["variant"] and not equipment.WEAPONS["missiles"]["variant"]


def test_variant_ranges_are_added_to_the_highest_value():
    assert [b["range"] for b in equipment.bands({"item": "kinetic", "variant": "oversized"})] == [10, 20]  # +2, L157
    assert [b["range"] for b in equipment.bands({"item": "beam", "variant": "structural"})] == [12, 24]  # +4, L158


def test_weapon_size_primary_secondary_and_fighter():
    assert equipment.weapon_size(4, "primary") == 4 and equipment.weapon_size(4, "secondary") == 3  # L150
    assert equipment.weapon_size(0, "primary", 2) == 2  # L225


def test_shield_and_armor_tracks():
    assert equipment.track_size("primary", 10) == 10 and equipment.track_size("secondary", 9) == 5  # L191-L195


# --- points (L396-L403, L240-L244) ------------------------------------------------------------

def test_points_of_a_plain_ship():
    c = card(2, [K, {"slot": "primary", "item": "armor"}, {"slot": "secondary", "item": "shields"},
                 {"slot": "secondary", "item": "pws"}])
    assert c["points"]["total"] == 60 + 40 + 20  # design doc section 10: 120


def test_surcharges_once_or_per_item():
    c = card(1, [K, {"slot": "primary", "item": "armor"}, {"slot": "primary", "item": "aws"},
                 {"slot": "secondary", "item": "shields"}, {"slot": "secondary", "item": "pws"}])
    subtotal = 30 + 60 + 20
    assert c["points"]["percent"] == 15 and c["points"]["total"] == -(-subtotal * 115 // 100)  # +10% +5%, L400-L401
    per_item = design.points(c, per_item=True)
    assert per_item["percent"] == 2 * 10 + 1 * 5 and per_item["total"] == -(-subtotal * 125 // 100)


def test_oversized_structural_hangars_and_arc_modifiers():
    over = card(3, [{"slot": "primary", "item": "beam", "variant": "oversized", "arcs": ["F", "P"]}],
                arc_points={"F": 3, "P": 2})
    assert over["points"]["total"] == 90 + 33  # (20 + 3 + 2) x 1.3 = 32.5, round up (L157)
    struct = card(1, [{"slot": "primary", "item": "kinetic", "variant": "structural", "arcs": ["F"]}])
    assert design.slots_used(struct["equipment"]) == (2, 0)  # two Primary slots (L158)
    assert struct["points"]["total"] == -(-(30 + 40) * 110 // 100)  # two Primary Components, +10% over Size
    hangars = card(2, [{"slot": "primary", "item": "launch"}, {"slot": "primary", "item": "hangar"}])
    assert hangars["points"]["total"] == 60 + 5 + 0  # L210, L212


def test_fighter_points_cumulative_secondaries():
    one = card(0, [K, {"slot": "secondary", "item": "interceptor"}], weapon_size=1)
    assert one["points"]["total"] == 30 and one["rows"] == [6]  # L241, L231
    no_primary = card(0, [{"slot": "secondary", "item": "ftl"}, {"slot": "secondary", "item": "payload"},
                          {"slot": "secondary", "item": "fpws"}, {"slot": "secondary", "item": "interceptor"}])
    # no Primary: a second Secondary costs 10; the third and fourth add 10% each, cumulatively (L243-L244)
    assert no_primary["points"]["percent"] == 20 and no_primary["points"]["total"] == 48


@pytest.mark.parametrize("items, sentence", [
    ([K, {"slot": "primary", "item": "beam", "arcs": ["A"]}], "A second Primary may not be added to a Fighter (L242)."),
    ([{"slot": "primary", "item": "aws"}], "A Fighter may not take the Area Weapons System (L222)."),
    ([{"slot": "secondary", "item": "pws"}], "A Fighter taking a Proximity Weapon System equips it as a Primary slot (L223)."),
])
def test_fighter_restrictions(items, sentence):
    with pytest.raises(RuleError, match=sentence.replace("(", r"\(").replace(")", r"\)")):
        card(0, items, weapon_size=1)


def test_no_defaults_for_the_players_own_tables():
    with pytest.raises(RuleError, match="Movement Table"):
        design.validate({"name": "X", "size": 1, "chart": {"miss": 1, "glance": 2}, "equipment": []})
    with pytest.raises(RuleError, match="Miss/Glance/Hit chart"):
        design.validate({"name": "X", "size": 1, "movement": "1:1/1", "equipment": []})
    assert card(3)["rows"] == [10, 10, 10]  # L92 "An average ship health track contains 10"
    assert design.damage_track(card(2, rows="8 12")) == 8 and design.damage_track(card(2, rows="8 12"), True) == 20


# --- attacks (L84-L90) -------------------------------------------------------------------------

def sides(a_size, t_size, t_items=(), a_items=(K,)):
    a = card(a_size, a_items)
    t = card(t_size, t_items or (K,))
    return {"size": a_size, "card": a}, {"size": t_size, "card": t, "pws": 0}


def test_formulas_with_the_target_or_the_attacker_size():
    attacker, target = sides(2, 4, a_items=({"slot": "secondary", "item": "kinetic", "arcs": ["F"]},))
    a_read = atk.plan(attacker, attacker["card"]["equipment"][0], target, 0, {}, reading=0)
    assert a_read["accuracy_mod"] == 4 - 1 and a_read["damage_mod"] == 1 - 4  # weapon Size 1 (secondary of 2)
    b_read = atk.plan(attacker, attacker["card"]["equipment"][0], target, 0, {}, reading=1)
    assert b_read["accuracy_mod"] == 2 - 1 and b_read["damage_mod"] == 1 - 2


def test_outcomes_and_glance_half_rounded_up():
    chart = {"miss": 2, "glance": 4}
    assert [atk.outcome(v, chart) for v in (2, 3, 4, 5)] == ["miss", "glance", "glance", "hit"]
    assert atk.outcome(5, chart, glance_bonus=1) == "glance"  # Avoidance (secondary), L199
    assert atk.applied(5, "glance") == 3 and atk.applied(5, "hit") == 5 and atk.applied(-2, "hit") == 0  # L81, L88


def test_modifiers_linked_oversized_avoidance_pws_marked():
    attacker, target = sides(3, 3)
    linked = {"slot": "primary", "item": "beam", "variant": "linked", "linked": 2, "arcs": ["F"]}
    p = atk.plan(attacker, linked, {**target, "avoidance": True}, 0, {"marked": 1, "obscuring": 1})
    assert p["accuracy_mod"] == 3 - 1 + 2 - 1 and p["damage_mod"] == -2  # +(X+1) -1 avoidance +2 marked -1 obscuring
    rockets = {"slot": "primary", "item": "rockets", "arcs": ["F"]}
    p = atk.plan(attacker, rockets, {**target, "pws": 2}, 1, {"extra_pws": 1})
    assert p["dice"] == "best2" and p["accuracy_mod"] == -1 and p["damage_mod"] == -3  # L153, L176


def test_exact_odds_and_expected_damage():
    p = {"accuracy_mod": 0, "chart": {"miss": 2, "glance": 4}, "glance_bonus": 0, "dice": "d6", "damage_mod": 0}
    odds = atk.odds(p)
    assert odds["exact"] == {"miss": "1/3", "glance": "1/3", "hit": "1/3"}
    assert Fraction(odds["expected"]).limit_denominator(100) == Fraction(1, 3) * Fraction(7, 2) + Fraction(1, 3) * 2
    two = atk.odds({**p, "dice": "2d6"})
    assert two["expected"] == pytest.approx(7 / 3 + (1 / 3) * sum(-(-(a + b) // 2) for a in range(1, 7) for b in range(1, 7)) / 36)
    assert atk.damage_roll("best2", [2, 5]) == 5 and atk.damage_roll("2d6", [2, 5]) == 7


# --- damage track and conditions (L91-L114) ---------------------------------------------------------

def ship_with(items=(), size=2):
    c = card(size, [K, *items])
    return dmg.new_track(c, 10), c


def test_shields_then_armor_then_health_and_beam_first():
    ship, _ = ship_with([{"slot": "secondary", "item": "shields"}, {"slot": "secondary", "item": "armor"}])
    out = dmg.take_damage(ship, 12)
    assert [t["filled"] for t in ship["tracks"]] == [5, 5] and ship["rows"][0]["filled"] == 2 and not out["rows_filled"]
    ship, _ = ship_with([{"slot": "secondary", "item": "shields"}, {"slot": "secondary", "item": "armor"}])
    dmg.take_damage(ship, 3, order=1)
    assert [t["filled"] for t in ship["tracks"]] == [0, 3]
    dmg.take_damage(ship, 3, order=1, beam=True)  # L168: Beam always hits Shields first
    assert [t["filled"] for t in ship["tracks"]] == [3, 3]


def test_bypass_rules():
    ship, _ = ship_with([{"slot": "secondary", "item": "shields"}, {"slot": "secondary", "item": "armor"}])
    dmg.take_damage(ship, 4, roll=6)  # 6 > 5 undamaged shield: ignored (L196); armor not (not kinetic)
    assert [t["filled"] for t in ship["tracks"]] == [0, 4]
    dmg.take_damage(ship, 4, roll=2, kinetic=True)  # 2 > 1 undamaged armor: ignored (L163)
    assert [t["filled"] for t in ship["tracks"]] == [4, 4]


def test_rows_fill_one_at_a_time_and_brace_disregards_overflow():
    ship, _ = ship_with()
    out = dmg.take_damage(ship, 13)
    assert [r["filled"] for r in ship["rows"]] == [10, 3] and out["rows_filled"] == 1 and ship["pending"] == 1
    ship, _ = ship_with(size=3)
    dmg.take_damage(ship, 15, brace=True)  # L258
    assert [r["filled"] for r in ship["rows"]] == [10, 0, 0]
    ship, _ = ship_with()
    assert dmg.take_damage(ship, 20)["destroyed"] and ship["pending"] == 0  # L94: no condition for a wreck


def test_condition_table_and_functional_effects():
    assert [dmg.condition_of(n) for n in (2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12)] == [
        "Catastrophic Damage", "Critical Damage", "Structural Damage", "Structural Damage", "Serious Damage",
        "Serious Damage", "Weapons Damage", "Component Damage", "Communications Damage", "Propulsion Damage",
        "No Condition Generated"]  # L97-L111
    ship, c = ship_with(size=3)
    assert dmg.apply_condition(ship, c, "Critical Damage") == ["roll two more times (L98)"] and ship["pending"] == 2
    dmg.apply_condition(ship, c, "Structural Damage")
    assert not dmg.has_effect(ship, c, "Structural Damage")  # L96: no functional effect the second time
    steps, _ = dmg.fill_health(ship, 3)
    assert ship["rows"][0]["filled"] == 4  # +1 Structural (L99)
    dmg.apply_condition(ship, c, "Serious Damage")
    assert ship["rows"][0]["filled"] == 4 + 3  # 2 damage +1 Structural (L100)
    assert dmg.has_effect(ship, c, "Component Damage")  # nothing to switch off, but the [Defensive] lock is new
    dmg.apply_condition(ship, c, "Component Damage")
    assert not dmg.has_effect(ship, c, "Component Damage")
    assert dmg.locked_types(ship) == {"Defensive"}
    dmg.apply_condition(ship, c, "Communications Damage")
    assert dmg.locked_types(ship) == {"Offensive", "Defensive", "Navigate", "Scanning"}  # L107


def test_reinforce_shields():
    ship, _ = ship_with([{"slot": "primary", "item": "shields"}])
    dmg.take_damage(ship, 7)
    assert dmg.reinforce(ship, 2, 1) == 3 and ship["tracks"][0]["filled"] == 4  # Size + Shields (L259)


# --- turn (L124-L136, L248, L342) ---------------------------------------------------------------

def ships(*spec):
    return [{"id": f"u{i}", "side": side, "size": size, "activated": act} for i, (side, size, act) in enumerate(spec)]


def test_activation_order_up_then_down():
    fleet = ships(("A", 1, False), ("B", 1, False), ("A", 3, False), ("B", 2, False))
    s = turn.activation(fleet, ["A", "B"], {}, None)
    assert (s["stage"], s["size"], s["next"], s["may_pass"]) == ("ascending", 1, "A", True)
    s = turn.activation(fleet, ["A", "B"], {"1": ["A"]}, "A")
    assert (s["size"], s["open"], s["next"]) == (1, ["B"], "B")
    fleet[1]["activated"] = True
    s = turn.activation(fleet, ["A", "B"], {"1": ["A"]}, "B")
    assert (s["size"], s["next"]) == (2, "B")  # A has no Size 2 ship: must pass (L132)
    fleet[3]["activated"] = True
    s = turn.activation(fleet, ["A", "B"], {"1": ["A"]}, "B")
    assert (s["size"], s["may_pass"]) == (3, False)  # the largest Size: nobody may pass (L133)
    fleet[2]["activated"] = True
    s = turn.activation(fleet, ["A", "B"], {"1": ["A"]}, "A")
    assert (s["stage"], s["size"], s["next"]) == ("descending", 1, "A")  # back down (L134-L135)
    fleet[0]["activated"] = True
    assert turn.activation(fleet, ["A", "B"], {"1": ["A"]}, "A")["stage"] == "done"


def test_fighters_take_a_size_zero_step_first():
    s = turn.activation(ships(("A", 1, False), ("B", 0, False)), ["A", "B"], {}, None)
    assert (s["size"], s["next"]) == (0, "B")


def test_orders_per_turn():
    slots = turn.order_slots(boosters=1, sensors=0)
    assert turn.check_order("Evasive Actions", [], set(), slots) == "Navigate"
    assert turn.check_order("Mark Target", ["Evasive Actions"], set(), slots) == "Scanning"  # Boosters' extra
    with pytest.raises(RuleError, match="L248"):
        turn.check_order("Evasive Actions", ["Evasive Actions"], set(), slots)
    with pytest.raises(RuleError, match="all the Orders"):
        turn.check_order("Mark Target", ["Evasive Actions", "Offensive Focus"], set(), slots)
    with pytest.raises(RuleError, match="Offensive"):
        turn.check_order("Offensive Focus", [], {"Offensive"}, slots)


def test_game_length():
    with pytest.raises(RuleError):
        turn.game_ends(4, 6)
    assert [turn.game_ends(5, r) for r in range(1, 7)] == [False, False, False, True, True, True]  # L342


def test_victory_scores():
    fleet = [{"side": "A", "size": 3, "points": 100, "destroyed": False, "fled": False, "conditions": ["Structural Damage"]},
             {"side": "A", "size": 1, "points": 40, "destroyed": True, "fled": False, "conditions": []},
             {"side": "B", "size": 2, "points": 90, "destroyed": False, "fled": True, "conditions": []}]
    assert victory.scores_remaining(fleet, ["A", "B"], "size") == {"A": 1.5, "B": 0}  # half with a Condition (L346)
    assert victory.scores_lost(fleet, ["A", "B"], "points") == {"A": 40, "B": 45}  # fled counts half (L347)
    assert victory.scores_conditions(fleet, ["A", "B"]) == {"A": 1, "B": 0}
    assert victory.winner({"A": 1, "B": 1}, True) is None
    assert victory.verdict({"A": 2, "B": 0}) == "A wins decisively." and victory.contested_objectives(1499) == 2


def test_content_tables_carry_the_same_numbers():
    tables = default_systems()["astral-action"].tables
    weapons = {r[0]: r for r in tables["weapons"]["rows"]}
    for key, spec in equipment.WEAPONS.items():
        assert weapons[spec["name"]][1] == spec["bands"][0][1]
    conditions = {str(r[0]): r[1] for r in tables["conditions"]["rows"]}
    assert conditions["2"] == dmg.CONDITIONS[2] and conditions["4-5"] == dmg.CONDITIONS[4]
    assert conditions["12"] == dmg.CONDITIONS[12]


def test_weapons_damage_takes_one_primary_or_two_secondaries():
    c = card(3, [K, {"slot": "secondary", "item": "beam", "arcs": ["F"]}, {"slot": "secondary", "item": "rockets", "arcs": ["A"]}])
    ship = dmg.new_track(c, 10)
    with pytest.raises(RuleError, match="one Primary weapon or two Secondary weapons"):
        dmg.apply_condition(ship, c, "Weapons Damage", [1])
    dmg.apply_condition(ship, c, "Weapons Damage", [1, 2])  # L103
    assert ship["inactive"] == [1, 2] and dmg.choices(ship, c, "weapon") == {"primary": [0], "secondary": []}
