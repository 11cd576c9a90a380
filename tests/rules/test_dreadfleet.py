"""Dreadfleet rules procedures against the numbers of seed 002 (no Flask, no database)."""
from __future__ import annotations

import itertools
import random

import pytest

from companion.content import load_systems
from companion.errors import RuleError
from companion.games.dreadfleet import rules as df


class Scripted:
    """An rng whose randint returns the given values in order (each checked against its range)."""

    def __init__(self, *values):
        self.values = list(values)

    def randint(self, a, b):
        value = self.values.pop(0)
        assert a <= value <= b, (value, a, b)
        return value


def rule_error(call, *args, **kwargs) -> RuleError:
    with pytest.raises(RuleError) as info:
        call(*args, **kwargs)
    return info.value


def hull(value=1, **extra):
    return {"name": f"Hull {value}", "type": "Hull", "value": value, **extra}


def crew(value=1, **extra):
    return {"name": f"Crew {value}", "type": "Crew", "value": value, **extra}


SPEED = {"name": "Speed 1", "type": "Speed", "value": 1}
SPECIAL = {"name": "Special", "type": "Special", "value": 1}


# --- range bands: seed 002, Broadsides step 4 ----------------------------------------------

@pytest.mark.parametrize("distance, band, needed", [
    (0, "Short", 4), (3, "Short", 4), (6, "Short", 4),
    (6.5, "Medium", 5), (12, "Medium", 5),
    (12.5, "Long", 6), (18, "Long", 6),
])
def test_range_band_includes_its_maximum(distance, band, needed):
    result = df.range_band(distance)
    assert (result["band"], result["needed"]) == (band, needed)


@pytest.mark.parametrize("distance", [18.5, 19, 40])
def test_beyond_18_inches_there_is_no_broadside(distance):
    error = rule_error(df.range_band, distance)
    assert error.field == "distance" and "18" in error.message


@pytest.mark.parametrize("distance", [-1, True, "6", float("nan")])
def test_range_must_be_inches(distance):
    assert rule_error(df.range_band, distance).field == "distance"


# --- broadside dice and to-hit --------------------------------------------------------------

@pytest.mark.parametrize("broadside, partial, dice", [
    (6, False, 6), (6, True, 3), (5, True, 3), (7, True, 4), (1, True, 1), (0, True, 0), (0, False, 0),
])
def test_partial_shot_halves_broadside_rounding_up(broadside, partial, dice):
    assert df.broadside_dice(broadside, partial) == dice


@pytest.mark.parametrize("needed, modifier, lowest", [
    (4, 0, 4), (5, 0, 5), (6, 0, 6),
    (6, 1, 5), (6, 2, 4), (4, 2, 2),
    (4, 3, 2),   # a 1 always misses, whatever the modifiers
    (6, -2, 6),  # a 6 always hits, whatever the modifiers
    (5, -1, 6),
])
def test_lowest_natural_roll_that_hits(needed, modifier, lowest):
    assert df.lowest_success(needed, modifier) == lowest


@pytest.mark.parametrize("distance, kwargs, dice, hits", [
    (6, {}, [1, 2, 3, 4, 5, 6], 3),
    (12, {}, [1, 2, 3, 4, 5, 6], 2),
    (18, {}, [1, 2, 3, 4, 5, 6], 1),
    (18, {"first_broadside": True}, [1, 2, 3, 4, 5, 6], 2),
    (18, {"first_broadside": True, "raking": True}, [1, 2, 3, 4, 5, 6], 3),
    (6, {"modifier": 5}, [1, 1, 2], 1),      # natural 1 misses even at +5
    (18, {"modifier": -3}, [6, 5, 5], 1),    # natural 6 hits even at -3
])
def test_hits_follow_band_modifiers_and_natural_rolls(distance, kwargs, dice, hits):
    result = df.broadside(len(dice), distance, 7, dice=dice, save_dice=[1] * hits, **kwargs)
    assert result["hits"] == hits


def test_raking_bonus_is_refused_against_an_auxiliary():
    error = rule_error(df.broadside, 4, 5, 4, raking=True, target_is_auxiliary=True, dice=[6] * 4)
    assert error.field == "raking"


@pytest.mark.parametrize("armour, saves, saved", [
    (4, [4, 3, 6], 2), (4, [1, 2, 3], 0), (6, [5, 6, 6], 2), (2, [2, 2, 1], 2),
])
def test_armour_save_cancels_a_hit_on_armour_or_more(armour, saves, saved):
    result = df.broadside(3, 2, armour, dice=[6, 6, 6], save_dice=saves, firer="Heldenhammer")
    assert (result["saved"], result["unsaved"], result["damage_cards"]) == (saved, 3 - saved, 3 - saved)
    assert result["summary"].startswith("Heldenhammer fires 3 dice at 4+: 3 hits")


def test_real_dice_in_two_stages():
    first = df.broadside(6, 10, 4, raking=True, dice=[1, 3, 4, 4, 6, 2])
    assert first["hits"] == 3 and first["awaiting"] == {
        "field": "save_dice", "count": 3, "sides": 6, "prompt": first["awaiting"]["prompt"]}
    assert first["unsaved"] is None
    second = df.broadside(6, 10, 4, raking=True, dice=[1, 3, 4, 4, 6, 2], save_dice=[4, 1, 2])
    assert second["awaiting"] is None and second["unsaved"] == 2
    assert second["summary"] == "Warship fires 6 dice at 5+ (+1 to hit): 3 hits, 1 saved -> draw 2 Damage cards"


def test_wrong_number_of_save_dice_names_the_save_field():
    error = rule_error(df.broadside, 2, 1, 4, dice=[6, 6], save_dice=[3])
    assert error.field == "save_dice"


def test_no_hits_needs_no_saves():
    result = df.broadside(3, 15, 4, dice=[1, 2, 5])
    assert result["awaiting"] is None and result["damage_cards"] == 0


def test_the_companion_rolls_both_stages():
    result = df.broadside(2, 4, 5, rng=Scripted(6, 2, 3))
    assert (result["hit_dice"], result["save_dice"], result["unsaved"]) == ([6, 2], [3], 1)


# --- odds: exact, against brute force ---------------------------------------------------------

def brute_force(dice, needed, modifier, armour):
    counts = {}
    for hit_roll in itertools.product(range(1, 7), repeat=dice):
        for save_roll in itertools.product(range(1, 7), repeat=dice):
            # each hitting die takes the save die in its own slot: same law, simpler enumeration
            unsaved = sum(1 for h, s in zip(hit_roll, save_roll)
                          if df._passes(h, needed, modifier) and s < armour)
            counts[unsaved] = counts.get(unsaved, 0) + 1
    total = 6 ** (2 * dice)
    return [counts.get(k, 0) / total for k in range(dice + 1)]


@pytest.mark.parametrize("broadside, distance, armour, kwargs", [
    (1, 6, 4, {}), (2, 12, 5, {}), (3, 18, 3, {"first_broadside": True}),
    (3, 7, 6, {"raking": True, "first_broadside": True}), (5, 2, 4, {"partial": True}),
    (2, 10, 1, {}), (2, 10, 7, {}), (0, 4, 4, {}),
])
def test_odds_match_brute_force_and_sum_to_one(broadside, distance, armour, kwargs):
    odds = df.broadside_odds(broadside, distance, armour, **kwargs)
    probabilities = [p for _, p in odds["distribution"]]
    assert [k for k, _ in odds["distribution"]] == list(range(odds["dice"] + 1))
    assert sum(probabilities) == pytest.approx(1)
    assert probabilities == pytest.approx(brute_force(odds["dice"], odds["needed"], odds["modifier"], armour))
    assert odds["mean"] == pytest.approx(sum(k * p for k, p in odds["distribution"]))


def test_large_pool_odds_sum_to_one():
    odds = df.broadside_odds(12, 5, 4, raking=True)
    assert sum(p for _, p in odds["distribution"]) == pytest.approx(1)
    assert odds["mean"] == pytest.approx(12 * (4 / 6) * (3 / 6))


@pytest.mark.parametrize("dice_a, dice_b", [(1, 1), (2, 1), (0, 2), (2, 2)])
def test_contest_odds_match_brute_force(dice_a, dice_b):
    odds = df.contest_odds(dice_a, dice_b)
    wins = ties = 0
    for rolls in itertools.product(range(1, 7), repeat=dice_a + dice_b):
        a, b = df._victories(list(rolls[:dice_a])), df._victories(list(rolls[dice_a:]))
        wins += a > b
        ties += a == b
    total = 6 ** (dice_a + dice_b)
    assert odds["p_side_a_wins"] == pytest.approx(wins / total)
    assert odds["p_tie"] == pytest.approx(ties / total)
    assert sum(p for _, p in odds["margin"]) == pytest.approx(1)


# --- command checks: seed 002, Basics ---------------------------------------------------------

@pytest.mark.parametrize("command, modifier, die, passed", [
    (4, 0, 4, True), (4, 0, 3, False),
    (2, 0, 1, False), (2, 3, 1, False),   # a 1 always fails
    (7, 0, 6, True), (6, -3, 6, True),    # a 6 always succeeds
    (4, -1, 4, False), (4, -1, 5, True),
    (1, -5, 2, True),                     # a score is never modified below 1
])
def test_command_check(command, modifier, die, passed):
    assert df.command_check(command, [die], modifier=modifier)["passed"] is passed


@pytest.mark.parametrize("die, passed", [(2, False), (5, False), (6, True)])
def test_first_mate_commands_on_6(die, passed):
    result = df.command_check(2, [die], first_mate=True)
    assert result["command"] == 6 and result["passed"] is passed


def test_failed_check_may_be_rerolled_once_when_allowed():
    result = df.command_check(4, [2, 5], reroll_allowed=True)
    assert result["passed"] and result["rerolled"] and result["rolls"] == [2, 5]
    assert df.command_check(4, [2], reroll_allowed=True)["can_reroll"]
    assert rule_error(df.command_check, 4, [2, 5]).field == "dice"
    assert "failed" in rule_error(df.command_check, 4, [5, 2], reroll_allowed=True).message
    assert rule_error(df.command_check, 4, [2, 3, 4], reroll_allowed=True).field == "dice"


def test_companion_rerolls_a_failed_check_at_most_once():
    assert df.command_check(4, rng=Scripted(1, 3), reroll_allowed=True)["rolls"] == [1, 3]
    assert df.command_check(4, rng=Scripted(5), reroll_allowed=True)["rolls"] == [5]


def test_command_odds():
    assert df.command_odds(4)["p_pass"] == pytest.approx(3 / 6)
    assert df.command_odds(4, reroll_allowed=True)["p_pass"] == pytest.approx(1 - 0.25)
    assert df.command_odds(2, first_mate=True)["p_pass"] == pytest.approx(1 / 6)


# --- orders, escape, Full Speed Ahead ---------------------------------------------------------

def test_repair_order_at_anchor_may_reroll():
    result = df.issue_order("Renai", 4, at_anchor=True, dice=[3, 4])
    assert result["order"] == "Repair" and result["issued"]
    assert rule_error(df.issue_order, "Repair", 4, dice=[3, 4]).field == "dice"


@pytest.mark.parametrize("kwargs", [
    {"current_speed": 0}, {"current_speed": 5, "in_irons": True}, {"current_speed": 5, "at_anchor": True},
    {},
])
def test_full_speed_ahead_restrictions(kwargs):
    with pytest.raises(RuleError):
        df.issue_order("Full Speed Ahead", 3, dice=[6], **kwargs)


def test_unknown_order():
    assert rule_error(df.issue_order, "Broadside!", 3, dice=[4]).field == "order"


def test_full_speed_ahead_moves_2d6():
    assert df.full_speed_ahead(4, dice=[3, 4])["inches"] == 7


@pytest.mark.parametrize("enemies, die, escaped", [(0, 4, True), (1, 4, False), (2, 5, False), (2, 6, True)])
def test_escape_jeopardy_minus_one_per_enemy(enemies, die, escaped):
    result = df.escape_jeopardy(4, enemies, dice=[die], move_dice=[2])
    assert result["escaped"] is escaped
    assert result["move_inches"] == (3 if escaped else 0)


def test_escape_awaits_the_d3_then_moves_d3_plus_1():
    assert df.escape_jeopardy(3, 0, dice=[5])["awaiting"]["field"] == "move_dice"
    assert df.escape_jeopardy(3, 0, rng=Scripted(5, 3))["move_inches"] == 4


@pytest.mark.parametrize("kwargs, field", [({"at_anchor": True}, "at_anchor"), ({"auxiliary": True}, "auxiliary")])
def test_who_may_not_escape_jeopardy(kwargs, field):
    assert rule_error(df.escape_jeopardy, 4, 1, dice=[6], **kwargs).field == field


# --- boarding actions: seed 002, Boarding Actions ----------------------------------------------

@pytest.mark.parametrize("side_a, side_b, dice, loser, cards_a, cards_b", [
    ([3], [2], [5, 6, 1, 5, 2], "side_b", [0], [1]),
    ([3], [3], [5, 6, 6, 1, 2, 3], "side_b", [0], [3]),
    ([2], [2], [5, 1, 6, 2], None, [1], [1]),          # tie: each draws one
    ([2], [2], [1, 2, 3, 4], None, [1], [1]),          # 0-0 is a tie too
    ([2, 2], [3], [5, 1, 1, 1, 6, 6, 1], "side_a", [1, 1], [0]),   # multiple: sums per side
    ([2, 2], [1, 1], [5, 5, 1, 5, 6, 1], "side_b", [0, 0], [2, 2]),
])
def test_boarding_action(side_a, side_b, dice, loser, cards_a, cards_b):
    result = df.boarding_action(side_a, side_b, dice=dice)
    assert result["loser"] == loser
    assert [s["damage_cards"] for s in result["side_a"]] == cards_a
    assert [s["damage_cards"] for s in result["side_b"]] == cards_b


def test_boarding_dice_may_be_given_per_ship_and_named():
    result = df.boarding_action([{"name": "Heldenhammer", "crew": 2}], [{"name": "Bloody Reaver", "crew": 1}],
                                dice=[[5, 5], [6]], labels=df.SIDES)
    assert result["victories"] == {"side_a": 2, "side_b": 1}
    assert result["summary"] == ("Boarding action: Grand Alliance 2, Dreadfleet 1 victories -> "
                                 "Bloody Reaver draws 1 Damage card")


def test_boarding_needs_crew():
    assert rule_error(df.boarding_action, [0], [2], dice=[5, 5]).field == "crew"
    assert rule_error(df.boarding_action, [], [2], dice=[5, 5]).field == "side_a"


# --- duels and wounds: seed 002, Duelling and Wound Cards -------------------------------------

@pytest.mark.parametrize("wounds, result, mortal", [
    (0, "Unwounded", False), (1, "Flesh Wound", False), (3, "Wound 3 (see your Wound card)", False),
    (4, "Mortal wound", True),
])
def test_wound_ladder(wounds, result, mortal):
    ladder = df.wound_result(wounds)
    assert (ladder["result"], ladder["mortal"], ladder["can_duel"]) == (result, mortal, not mortal)


def test_duel_loser_takes_a_wound():
    result = df.captains_duel({"name": "A", "swashbuckling": 2}, {"name": "B", "swashbuckling": 2}, dice=[5, 6, 1, 5])
    assert result["loser"] == "side_b"
    assert result["side_a"][0]["wounds"] == 0 and result["side_b"][0]["result"] == "Flesh Wound"


def test_duel_tie_wounds_both_captains():
    result = df.captains_duel({"swashbuckling": 1}, {"swashbuckling": 1}, dice=[2, 3])
    assert result["tie"] and [result[k][0]["wounds"] for k in ("side_a", "side_b")] == [1, 1]


def test_fourth_wound_is_mortal_and_the_first_mate_commands_on_6():
    result = df.captains_duel({"name": "A", "swashbuckling": 1, "wounds": 3}, {"swashbuckling": 1}, dice=[1, 6])
    captain = result["side_a"][0]
    assert captain["wounds"] == 4 and captain["mortal"] and captain["first_mate_commands"]
    assert captain["command"] == 6 and captain["result"] == "Mortal wound"


def test_mortally_wounded_captains_sit_out():
    result = df.captains_duel([{"name": "Dead", "swashbuckling": 5, "wounds": 4}, {"name": "Alive", "swashbuckling": 1}],
                              [{"swashbuckling": 2}], dice=[5, 1, 1])
    assert result["side_a"][0]["dice"] == [] and result["loser"] == "side_b"
    none_left = df.captains_duel({"swashbuckling": 3, "wounds": 4}, {"swashbuckling": 3})
    assert not none_left["fought"] and none_left["side_b"][0]["wounds"] == 0


def test_multiple_duel_wounds_every_captain_of_the_losing_side():
    result = df.captains_duel([{"swashbuckling": 1}, {"swashbuckling": 1}], [{"swashbuckling": 3}],
                              dice=[5, 5, 6, 1, 1])
    assert result["victories"] == {"side_a": 2, "side_b": 1}
    assert [c["wounds"] for c in result["side_b"]] == [1]
    assert [c["wounds"] for c in result["side_a"]] == [0, 0]


# --- wind: seed 002, Setup, Fate, Wind Strength ------------------------------------------------

def test_wind_ring_has_36_positions_11_to_66():
    assert len(df.WIND_RING) == 36 and df.WIND_RING[0] == 11 and df.WIND_RING[-1] == 66
    assert 17 not in df.WIND_RING and 60 not in df.WIND_RING


def test_place_wind_red_die_first():
    assert df.place_wind([3, 5])["position"] == 35
    assert df.place_wind(rng=Scripted(6, 1))["position"] == 61


@pytest.mark.parametrize("start, markers, direction, end", [
    (11, 1, "clockwise", 12), (16, 1, "clockwise", 21), (66, 1, "clockwise", 11),
    (11, 1, "anticlockwise", 66), (21, 2, "anti-clockwise", 15), (35, 0, "clockwise", 35),
    (44, 36, "clockwise", 44),
])
def test_move_wind_along_the_border_ring(start, markers, direction, end):
    assert df.move_wind(start, markers, direction)["position"] == end


@pytest.mark.parametrize("args, field", [
    ((17, 1, "clockwise"), "position"), ((70, 1, "clockwise"), "position"),
    ((11, 1, "north"), "direction"), ((11, -1, "clockwise"), "markers"),
])
def test_move_wind_refuses_bad_input(args, field):
    assert rule_error(df.move_wind, *args).field == field


def test_fate_card_moves_or_replaces_the_gauge():
    card = {"name": "F", "wind": 2, "markers": 2, "direction": "clockwise", "kind": "immediate"}
    assert df.apply_fate_wind(15, card)["position"] == 21
    replace = {**card, "markers": "2D6"}
    assert df.apply_fate_wind(15, replace, dice=[4, 2])["position"] == 42


@pytest.mark.parametrize("discard, strength", [
    ([], 1), ([{"name": "a", "wind": 3}], 3), ([{"name": "a", "wind": 3}, {"name": "b", "wind": 2}], 2),
])
def test_wind_strength_is_the_top_fate_discard(discard, strength):
    assert df.wind_strength(discard) == strength


@pytest.mark.parametrize("speed, strength, relation, kwargs, most, least", [
    (6, 2, "astern", {}, 8, 2),
    (6, 2, "aft arc", {}, 8, 2),
    (6, 2, "side", {}, 6, 2),
    (1, 3, "side", {}, 1, 1),                                  # unable to move the full strength
    (6, 2, "in irons", {"command": 4, "dice": [4]}, 6, 0),     # passed: moves as normal
    (6, 2, "fore arc", {"command": 4, "dice": [3]}, 4, 0),     # failed: Speed - strength
    (1, 3, "in irons", {"command": 4, "dice": [1]}, 0, 0),
    (6, 2, "astern", {"sail": False}, 6, 0),
    (6, 2, "astern", {"at_anchor": True}, 0, 0),
])
def test_sail_move_allowance(speed, strength, relation, kwargs, most, least):
    result = df.sail_move_allowance(speed, strength, relation, **kwargs)
    assert (result["max_inches"], result["min_inches"]) == (most, least)


def test_in_irons_forbids_full_speed_ahead_and_needs_command():
    assert not df.sail_move_allowance(6, 2, "in irons", command=4, dice=[6])["full_speed_ahead_allowed"]
    assert rule_error(df.sail_move_allowance, 6, 2, "in irons").field == "command"
    assert rule_error(df.sail_move_allowance, 6, 2, "upwind").field == "relation"


# --- auxiliaries, anchor, initiative ----------------------------------------------------------

@pytest.mark.parametrize("auxiliary, kwargs, needed, capsized", [
    ("Grand Alliance Cog", {"dice": [3]}, True, True),
    ("Grand Alliance Cog", {"dice": [1]}, True, True),
    ("Dreadfleet Cog", {"dice": [4]}, True, False),
    ("Dreadfleet Cog", {"dice": [6]}, True, False),
    ("Dragon", {}, False, False),
    ("Dwarf Dirigible", {}, False, False),
    ("Dreadfleet Cog", {"at_anchor": True}, False, False),
    ("Dreadfleet Cog", {"run_aground": True}, False, False),
])
def test_capsize_test(auxiliary, kwargs, needed, capsized):
    result = df.capsize_test(auxiliary, **kwargs)
    assert (result["needed"], result["capsized"]) == (needed, capsized)


def test_sea_monsters_are_not_deployed():
    assert rule_error(df.capsize_test, "Sea Giant", dice=[4]).field == "auxiliary"


def test_drop_and_weigh_anchor():
    dropped = df.drop_anchor([], 2)
    assert dropped["attached"] == [{"name": "At Anchor"}]
    assert rule_error(df.drop_anchor, [], 2.5).field == "distance"
    assert rule_error(df.drop_anchor, [], 1, weighed_this_turn=True).field == "anchor"
    assert "set ablaze" in rule_error(df.drop_anchor, [{"name": "Set Ablaze"}], 1).message
    assert df.weigh_anchor(dropped["attached"])["attached"] == []
    assert rule_error(df.weigh_anchor, dropped["attached"], dropped_this_turn=True).field == "anchor"


@pytest.mark.parametrize("dice, winner", [([5, 2], "Grand Alliance"), ([1, 6], "Dreadfleet"), ([4, 4], None)])
def test_initiative_roll_off(dice, winner):
    assert df.initiative_roll_off(dice)["winner"] == winner


def test_sea_monster_is_controlled_by_the_opponent_of_the_nearest_warship():
    assert df.sea_monster_controller("Grand Alliance") == "Dreadfleet"
    assert df.sea_monster_controller("Dreadfleet") == "Grand Alliance"


# --- decks: seed 002, Basics, Running Aground, Damage Cards -----------------------------------

def test_reshuffle_discards_when_the_deck_runs_out():
    result = df.draw_cards(["a"], ["b", "c", "d"], 2, rng=Scripted(0, 0))
    # Fisher-Yates on [b, c, d] with j = 0, 0: [d, c, b], then [c, d, b]
    assert result["drawn"] == ["a", "c"] and result["deck"] == ["d", "b"]
    assert result["discard"] == [] and result["reshuffled"] == 1


def test_shuffle_follows_a_given_order_or_the_rng():
    assert df.shuffle(["a", "b", "c"], order=[2, 0, 1]) == ["c", "a", "b"]
    assert df.shuffle(["a", "b", "c"], rng=Scripted(0, 0)) == ["b", "c", "a"]
    assert rule_error(df.shuffle, ["a", "b"], order=[0, 0]).field == "order"


def test_empty_deck_and_discard_cannot_draw():
    assert rule_error(df.draw_cards, [], [], 1, rng=random.Random(1)).field == "deck"


def test_draw_until_hull_discards_the_rest():
    deck = [crew(), SPEED, hull(2), crew()]
    result = df.draw_until_hull(deck, [])
    assert result["card"] == hull(2) and not result["fell_back"]
    assert result["discarded"] == [crew(), SPEED] and result["deck"] == [crew()]
    assert result["discard"] == [crew(), SPEED]


def test_draw_of_type_falls_back_to_the_last_card_at_the_end_of_the_deck():
    result = df.draw_of_type([crew(), SPEED], [hull()], "hull")
    assert result["fell_back"] and result["card"] == SPEED
    assert result["discarded"] == [crew()] and result["deck"] == []
    assert result["discard"] == [hull(), crew()]


def test_draw_of_type_reshuffles_an_empty_deck_first():
    result = df.draw_of_type([], [crew(), hull()], "Hull", rng=Scripted(0))
    assert result["reshuffled"] == 1 and result["card"] == hull()


def test_auxiliary_discards_special_cards_and_draws_again():
    result = df.draw_damage([SPECIAL, crew(), hull()], [], 1, auxiliary=True)
    assert result["drawn"] == [crew()] and result["replaced"] == [SPECIAL] and result["discard"] == [SPECIAL]
    assert df.draw_damage([SPECIAL, crew()], [], 1)["drawn"] == [SPECIAL]


def test_auxiliary_draw_reshuffles_past_special_cards_and_stops_when_only_specials_are_left():
    result = df.draw_damage([SPECIAL], [crew()], 1, auxiliary=True, rng=Scripted(0))
    assert result["drawn"] == [crew()] and result["reshuffled"] == 1
    assert rule_error(df.draw_damage, [SPECIAL], [SPECIAL], 1, auxiliary=True, rng=Scripted(0)).field == "deck"


# --- destruction, repair ----------------------------------------------------------------------

@pytest.mark.parametrize("hull_stat, crew_stat, cards, destroyed", [
    (3, 3, [hull(2), hull(1)], True),       # double + single = 3
    (4, 3, [hull(2), hull(1)], False),
    (5, 3, [crew(3)], True),                # one triple Crew card is 3 damage
    (5, 4, [crew(3)], False),
    (2, 2, [SPECIAL, SPECIAL, SPEED, {"name": "Set Ablaze"}], False),
    (2, 2, [hull(3)], True),
])
def test_warship_destroyed(hull_stat, crew_stat, cards, destroyed):
    assert df.warship_destroyed(hull_stat, crew_stat, cards)["destroyed"] is destroyed


def test_damage_totals_count_values_and_current_stats():
    cards = [hull(2), crew(), SPEED, SPEED, SPECIAL]
    assert df.damage_totals(cards) == {"Hull": 2, "Crew": 1, "Speed": 2, "Special": 1}
    assert df.current_stats({"hull": 5, "crew": 4, "speed": 1, "armour": 4}, cards) == {
        "hull": 3, "crew": 3, "speed": 0, "armour": 4}


@pytest.mark.parametrize("card", [0, "Set Ablaze", 2])
def test_repair_discards_one_repairable_card(card):
    attached = [hull(), {"name": "Set Ablaze"}, SPECIAL]
    result = df.repair(attached, card)
    assert len(result["attached"]) == 2 and result["repaired"] in attached


@pytest.mark.parametrize("attached, card, word", [
    ([hull(irreparable=True)], 0, "Irreparable"),
    ([{"name": "At Anchor"}], "At Anchor", "Set Ablaze"),
    ([hull()], 3, "Choose"),
    ([hull()], "Crew 1", "no card"),
])
def test_repair_refuses(attached, card, word):
    error = rule_error(df.repair, attached, card)
    assert error.field == "card" and word in error.message


# --- cards attached to a warship --------------------------------------------------------------

SHOT = {"name": "Chain Shot", "kind": "Shot"}


@pytest.mark.parametrize("card, attached, ship, allowed", [
    ({"name": "At Anchor"}, [], "Heldenhammer", True),
    ({"name": "At Anchor"}, [{"name": "At Anchor"}], "Heldenhammer", False),
    ({"name": "At Anchor"}, [{"name": "Set Ablaze"}], "Heldenhammer", False),
    ({"name": "Set Ablaze"}, [{"name": "Set Ablaze"}, {"name": "Set Ablaze"}], "Swordfysh", True),
    (SHOT, [], "Heldenhammer", True),
    (SHOT, [{"name": "Other Shot", "kind": "shot"}], "Heldenhammer", False),
    (SHOT, [], "Skabrus", False),
    (SHOT, [], "Curse of Zandri", False),
    (SHOT, [], "seadrake", False),
    (SHOT, [], "Black Kraken", True),
    ({"name": "Hex", "kind": "Spell"}, [SHOT], "Skabrus", True),
    ({"name": "Cannons", "kind": "Upgrade"}, [], "Grand Alliance Cog", True),
    ({"name": "Cannons", "kind": "Upgrade"}, [], "Dragon", False),
    (hull(), [hull(), hull()], "Skabrus", True),
])
def test_can_attach(card, attached, ship, allowed):
    assert df.can_attach(card, attached, ship) is allowed


def test_set_ablaze_flips_at_anchor():
    result = df.attach({"name": "Set Ablaze"}, [{"name": "At Anchor"}, hull()], "Heldenhammer")
    assert result["attached"] == [hull(), {"name": "Set Ablaze"}] and result["removed"] == [{"name": "At Anchor"}]
    assert rule_error(df.attach, SHOT, [], "Skabrus").field == "card"


# --- player-entered warship and card definitions ----------------------------------------------

WARSHIP = {"speed": 6, "handling": 2, "broadside": 6, "armour": 4, "hull": 6, "crew": 4,
           "command": 3, "swashbuckling": 3, "sail": True}


def test_a_complete_warship_card_is_accepted():
    card = df.validate_warship({**{k.capitalize(): v for k, v in WARSHIP.items()}, "name": "Heldenhammer"})
    assert card["armour"] == 4 and card["sail"] is True and card["name"] == "Heldenhammer"


@pytest.mark.parametrize("field", df.WARSHIP_STATS + ("sail",))
def test_missing_warship_field_is_named(field):
    stats = {k: v for k, v in WARSHIP.items() if k != field}
    error = rule_error(df.validate_warship, stats)
    assert error.field == field and field in error.message.casefold()


@pytest.mark.parametrize("field, value", [
    ("speed", -1), ("speed", 21), ("armour", 0), ("armour", 8), ("hull", 0), ("crew", "4"),
    ("command", 2.5), ("swashbuckling", True), ("sail", "yes"),
])
def test_bad_warship_value_is_named(field, value):
    error = rule_error(df.validate_warship, {**WARSHIP, field: value})
    assert error.field == field and field in error.message.casefold()


def test_auxiliary_card_has_no_handling_or_captain():
    stats = {k: WARSHIP[k] for k in df.AUXILIARY_STATS}
    assert df.validate_warship({**stats, "flying": 1}, auxiliary=True)["flying"] is True
    assert rule_error(df.validate_warship, {**WARSHIP, "spead": 3}).field == "spead"


DAMAGE_CARD = {"name": "Holed", "type": "Hull", "value": 2, "irreparable": False}
FATE_CARD = {"name": "Squall", "wind": 3, "markers": 2, "direction": "Anti-clockwise", "kind": "status", "br": True}


def test_good_cards_are_normalised():
    assert df.validate_card({"name": "Holed", "type": "hull"}, "damage") == {
        "name": "Holed", "type": "Hull", "value": 1, "irreparable": False}
    fate = df.validate_card(FATE_CARD, "fate")
    assert (fate["kind"], fate["direction"]) == ("Status", "anticlockwise")
    assert df.validate_card({**FATE_CARD, "markers": "2d6"}, "fate")["markers"] == "2D6"


@pytest.mark.parametrize("deck, card, field", [
    ("damage", {k: v for k, v in DAMAGE_CARD.items() if k != "name"}, "name"),
    ("damage", {**DAMAGE_CARD, "name": " "}, "name"),
    ("damage", {k: v for k, v in DAMAGE_CARD.items() if k != "type"}, "type"),
    ("damage", {**DAMAGE_CARD, "type": "Mast"}, "type"),
    ("damage", {**DAMAGE_CARD, "value": 4}, "value"),
    ("damage", {**DAMAGE_CARD, "value": 0}, "value"),
    ("damage", {**DAMAGE_CARD, "irreparable": "yes"}, "irreparable"),
    ("fate", {k: v for k, v in FATE_CARD.items() if k != "wind"}, "wind"),
    ("fate", {k: v for k, v in FATE_CARD.items() if k != "markers"}, "markers"),
    ("fate", {k: v for k, v in FATE_CARD.items() if k != "direction"}, "direction"),
    ("fate", {**FATE_CARD, "markers": "3D6"}, "markers"),
    ("fate", {**FATE_CARD, "markers": 0, "direction": "north"}, "direction"),
    ("fate", {**FATE_CARD, "kind": "Trap"}, "kind"),
    ("fate", {k: v for k, v in FATE_CARD.items() if k != "kind"}, "kind"),
    ("fate", {**FATE_CARD, "br": 1}, "br"),
    ("tarot", FATE_CARD, "deck"),
])
def test_bad_card_field_is_named(deck, card, field):
    error = rule_error(df.validate_card, card, deck)
    assert error.field == field and field in error.message.casefold()


# --- the content pack -------------------------------------------------------------------------

@pytest.fixture(scope="module")
def system():
    return load_systems()["dreadfleet"]


def test_system_shape(system):
    assert system.sides == list(df.SIDES) and system.phases == list(df.PHASES)
    assert system.round_label == "Turn"
    assert [s["id"] for s in system.templates["warship"]["stats"]][:8] == list(df.WARSHIP_STATS)
    for template in system.templates.values():
        for stat in template["stats"]:
            if stat["id"] in df.STAT_INPUT_LIMITS:
                assert (stat["min"], stat["max"]) == df.STAT_INPUT_LIMITS[stat["id"]]
            assert "default" not in stat  # players enter their own cards' numbers
    assert system.gauges["wind"]["positions"] == list(df.WIND_RING) and system.gauges["wind"]["ring"]
    assert set(system.decks) == {"fate", "damage"}


def test_every_table_cites_seed_002(system):
    for slug in ("broadside-to-hit", "turn-sequence", "orders", "boarding", "duel", "warships"):
        assert system.tables[slug]["source"].startswith("seed 002")


def test_to_hit_table_matches_the_rules_module(system):
    rows = system.tables["broadside-to-hit"]["rows"]
    assert [(row[0], row[2]) for row in rows] == [(band, f"{needed}+") for band, _, needed in df.RANGE_BANDS]


def test_orders_table_lists_the_five_orders(system):
    assert [row[0] for row in system.tables["orders"]["rows"]] == list(df.ORDERS)
    assert len(df.ORDERS) == df.HAND_OF_ORDERS


def test_warship_data_and_table_agree_with_the_seed(system):
    ships = df.check_warship_roster(system.data["warships"])
    assert len(ships) == 10
    assert [row[0] for row in system.tables["warships"]["rows"]] == [s["name"] for s in ships]
    assert system.data["warships"]["no_shot_cards"] == list(df.NO_SHOT_WARSHIPS)
    assert system.data["warships"]["sea_monsters"] == list(df.SEA_MONSTERS)


def test_example_decks_say_so_and_their_cards_validate(system):
    for deck_id, deck in system.decks.items():
        assert deck["definitions"], deck_id
        for definition in deck["definitions"].values():
            assert definition["example"] is True and definition["name"].startswith("Example")
            assert "replace" in definition["note"]
            for card in definition["cards"]:
                assert card["name"].startswith("Example")
                df.validate_card(card, deck_id)


def test_canonical_names_mend_the_ocr():
    assert df.canonical_name("Blake Kraken") == "Black Kraken"
    assert df.canonical_name(" skabrus ") == "Skabrus"
