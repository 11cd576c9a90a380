"""Dreadnaught rules (seed 000): tables of cases straight from the seed, no Flask."""
from __future__ import annotations

import random

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.content import CONTENT_DIR, load_systems
from companion.errors import RuleError
from companion.games.dreadnaught import rules as dn


def names(result):
    return [row["card"] for row in result["order"]]


# --- range bands (seed 000, Range & Line of Fire) ---------------------------------------------

@pytest.mark.parametrize("hexes, band, in_range", [
    (0, "Close", True), (3, "Close", True), (4, "Medium", True), (6, "Medium", True),
    (7, "Long", True), (10, "Long", True), (11, "Extreme", True), (15, "Extreme", True),
    (16, None, False), (40, None, False),
])
def test_range_band_edges(hexes, band, in_range):
    result = dn.range_band(hexes)
    assert (result["band"], result["in_range"]) == (band, in_range)


@pytest.mark.parametrize("hexes, widens", [(6, False), (7, True), (15, True), (16, False)])
def test_narrow_arc_widens_at_long_and_extreme(hexes, widens):
    assert dn.range_band(hexes)["narrow_arc_widens"] is widens


@pytest.mark.parametrize("bad", [-1, 2.5, "3", True])
def test_range_band_rejects_bad_input(bad):
    with pytest.raises(RuleError) as err:
        dn.range_band(bad)
    assert err.value.field == "hexes"


# --- initiative order (seed 000, Initiative Order, Priority) ----------------------------------

FIVE_TIED_AT_3 = [
    {"name": "Broadside", "owner": "Bea", "type": "Offense", "steps": [3]},
    {"name": "Shields", "owner": "Bea", "type": "Defense", "steps": [3]},
    {"name": "Flare", "owner": "Al", "type": "Event", "steps": [3]},
    {"name": "Asteroid", "owner": "Al", "type": "Terrain", "steps": [3], "speed": 2},
    {"name": "Reactor", "owner": "Bea", "type": "Upgrade", "steps": [3], "power_level": 1},
]


def test_five_cards_tied_follow_the_priority_list():
    result = dn.initiative_order(FIVE_TIED_AT_3, "Al")
    assert names(result) == ["Reactor", "Asteroid", "Flare", "Shields", "Broadside"]
    assert [r["reason"] for r in result["order"][1:]] == [
        "priority: Upgrade before Terrain", "priority: Terrain before Event",
        "priority: Event before Defense", "priority: Defense before Offense"]
    assert not result["attacker_choices"]


@pytest.mark.parametrize("cards, expected, chooses", [
    # Upgrade: higher power level breaks the tie
    ([{"name": "U1", "type": "Upgrade", "steps": [2], "power_level": 1},
      {"name": "U3", "type": "Upgrade", "steps": [2], "power_level": 3}], ["U3", "U1"], [False, False]),
    # Terrain: higher speed breaks the tie
    ([{"name": "Slow", "type": "Terrain", "steps": [4], "speed": 1},
      {"name": "Fast", "type": "Terrain", "steps": [4], "speed": 3}], ["Fast", "Slow"], [False, False]),
    # equal power level / speed, and same-type Event, Defense, Offense: the Attacker chooses
    ([{"name": "U1", "type": "Upgrade", "steps": [2], "power_level": 2},
      {"name": "U2", "type": "Upgrade", "steps": [2], "power_level": 2}], ["U1", "U2"], [True, True]),
    ([{"name": "T1", "type": "Terrain", "steps": [1], "speed": 2},
      {"name": "T2", "type": "Terrain", "steps": [1], "speed": 2}], ["T1", "T2"], [True, True]),
    ([{"name": "E1", "type": "Event", "steps": [5.9]},
      {"name": "E2", "type": "Event", "steps": [5.9]}], ["E1", "E2"], [True, True]),
    ([{"name": "D1", "type": "Defense", "steps": [0]},
      {"name": "D2", "type": "Defense", "steps": [0]}], ["D1", "D2"], [True, True]),
    ([{"name": "O1", "type": "Offense", "steps": [3.5]},
      {"name": "O2", "type": "Offense", "steps": [3.5]}], ["O1", "O2"], [True, True]),
    # a higher initiative always goes first, whatever the type
    ([{"name": "Up", "type": "Upgrade", "steps": [1], "power_level": 9},
      {"name": "Gun", "type": "Offense", "steps": [1.1]}], ["Gun", "Up"], [False, False]),
])
def test_tie_break_at_each_priority_level(cards, expected, chooses):
    result = dn.initiative_order(cards, "Al")
    assert names(result) == expected
    assert [r["attacker_chooses"] for r in result["order"]] == chooses


def test_attacker_choice_is_named():
    result = dn.initiative_order([
        {"name": "O1", "owner": "Al", "type": "Offense", "steps": [3]},
        {"name": "O2", "owner": "Bea", "type": "Offense", "steps": [3]},
        {"name": "D1", "owner": "Bea", "type": "Defense", "steps": [3]},
    ], "Al")
    assert result["attacker_choices"] == [
        {"tie_group": 2, "initiative": "3", "type": "Offense", "cards": ["O1", "O2"], "chooser": "Al"}]
    assert "Al" in result["summary"]


@pytest.mark.parametrize("steps, expected", [
    (["X", 5.9, 5.8, 4, 1, 0], ["X", "5.9", "5.8", "4", "1", "0"]),
    ([0, "x", "2.5"], ["X", "2.5", "0"]),
])
def test_initiative_runs_from_x_down_to_zero(steps, expected):
    cards = [{"name": f"C{i}", "type": "Offense", "steps": [s]} for i, s in enumerate(steps)]
    result = dn.initiative_order(cards)
    assert [r["initiative"] for r in result["order"]] == expected


def test_one_card_with_several_steps_appears_at_each():
    result = dn.initiative_order([
        {"name": "Railgun", "type": "Offense", "steps": [0, "X", 3]},
        {"name": "Point Defense", "type": "Defense", "steps": [3]},
    ])
    assert [(r["card"], r["initiative"], r["step_of"]) for r in result["order"]] == [
        ("Railgun", "X", "1 of 3"), ("Point Defense", "3", "1 of 1"),
        ("Railgun", "3", "2 of 3"), ("Railgun", "0", "3 of 3")]
    assert [s["initiative"] for s in result["steps"]] == ["X", "3", "0"]


@pytest.mark.parametrize("card, field", [
    ({"name": "A", "type": "Offense", "steps": [6]}, "steps"),
    ({"name": "A", "type": "Offense", "steps": [5.95]}, "steps"),
    ({"name": "A", "type": "Offense", "steps": [-1]}, "steps"),
    ({"name": "A", "type": "Offense", "steps": ["soon"]}, "steps"),
    ({"name": "A", "type": "Offense", "steps": []}, "steps"),
    ({"name": "A", "type": "Offense", "steps": [3, 3.0]}, "steps"),
    ({"name": "A", "type": "Weapon", "steps": [3]}, "type"),
    ({"type": "Offense", "steps": [3]}, "name"),
])
def test_initiative_order_rejects_bad_cards(card, field):
    with pytest.raises(RuleError) as err:
        dn.initiative_order([card])
    assert err.value.field == field


def test_tied_upgrades_need_their_power_levels():
    with pytest.raises(RuleError) as err:
        dn.initiative_order([{"name": "U1", "type": "Upgrade", "steps": [2]},
                             {"name": "U2", "type": "Upgrade", "steps": [2], "power_level": 1}])
    assert err.value.field == "power_level"
    # alone at its step an Upgrade needs no power level
    assert names(dn.initiative_order([{"name": "U1", "type": "Upgrade", "steps": [2]}])) == ["U1"]


def test_tied_terrain_needs_speed():
    with pytest.raises(RuleError) as err:
        dn.initiative_order([{"name": "T1", "type": "Terrain", "steps": [2]},
                             {"name": "T2", "type": "Terrain", "steps": [2]}])
    assert err.value.field == "speed"


# --- Card Burn (seed 000, Damage Push & Burn; Primary Cards; Indestructible-X) ----------------

@pytest.mark.parametrize("amount, choices, revealed, hand, deck, discard_added, excess, still", [
    (2, [{"from": "hand"}, {"from": "hand"}], [], 4, 10, 2, 0, 0),            # two plain cards
    (2, [{"from": "hand", "primary": True}], [], 5, 10, 1, 0, 0),             # one Primary counts 2
    (1, [{"from": "hand", "primary": True}], [], 5, 10, 1, 1, 0),             # Primary overshoots by 1
    (3, [], ["card", "primary"], 6, 8, 2, 0, 0),                              # from the deck, revealed
    (3, [{"from": "hand"}], ["primary"], 5, 9, 2, 0, 0),                      # hand and deck
    (4, [{"from": "hand"}], ["card"], 5, 9, 2, 0, 2),                         # more to reveal
    (2, [{"from": "token"}, {"from": "hand"}], [], 5, 10, 1, 0, 0),           # a token counts 1
    (2, [{"from": "remains_in_play", "name": "Mines", "primary": True}], [], 6, 10, 1, 0, 0),
])
def test_card_burn_counting(amount, choices, revealed, hand, deck, discard_added, excess, still):
    result = dn.card_burn(amount, 6, 10, choices=choices, revealed=revealed, tokens=2)
    assert (result["hand"], result["deck"], result["discard_added"]) == (hand, deck, discard_added)
    assert (result["excess"], result["still_to_burn"]) == (excess, still)


@pytest.mark.parametrize("choices, words", [
    ([{"from": "remains_in_play", "name": "Mines", "primary": True}], "1 Remains in Play card"),
    ([{"from": "remains_in_play"}, {"from": "remains_in_play"}], "2 Remains in Play cards"),
    ([{"from": "remains_in_play"}, {"from": "hand"}], "1 from hand, 1 Remains in Play card"),
])
def test_card_burn_summary_names_remains_in_play_discards(choices, words):
    # seed 000, Resolving Card Burn: Remains in Play cards "may be discarded as part of resolving Card Burn"
    result = dn.card_burn(2, 6, 10, choices=choices)
    assert result["from_play"] == sum(1 for c in choices if c["from"] == "remains_in_play")
    assert words in result["summary"] and "nothing discarded" not in result["summary"]


@pytest.mark.parametrize("burn, x, on_card, removed, placed, x_left, left", [
    (5, 3, 0, True, 0, 0, 2),     # enough burn: the card goes, counting X
    (3, 3, 0, True, 0, 0, 0),
    (2, 3, 0, False, 2, 1, 0),    # partial: 2 tokens, X reduced to 1
    (1, 4, 2, False, 1, 1, 0),    # already 2 tokens on an Indestructible-4: X left 2, then 1
    (2, 4, 2, True, 0, 0, 0),     # the last 2 remove it
])
def test_indestructible_x_partial_burn(burn, x, on_card, removed, placed, x_left, left):
    result = dn.card_burn(burn, 6, 10, choices=[{"from": "indestructible", "name": "Bulwark", "x": x,
                                                  "tokens": on_card}])
    item = result["indestructible"][0]
    assert (item["removed"], item["tokens_placed"], item["x_left"]) == (removed, placed, x_left)
    assert result["still_to_burn"] == left
    assert result["discard_added"] == (1 if removed else 0)


def test_burn_empties_hand_and_deck_eliminates():
    result = dn.card_burn(6, 1, 2, choices=[{"from": "hand"}], revealed=["card", "card"])
    assert result["eliminated"] and result["unabsorbed"] == 3 and result["still_to_burn"] == 0
    assert result["deck_emptied"]


@pytest.mark.parametrize("kwargs, field", [
    ({"choices": [{"from": "ready"}]}, "choices"),                        # Ready cards are safe
    ({"choices": [{"from": "hand", "primary": True}, {"from": "hand"}]}, "choices"),  # burn met already
    ({"revealed": ["card", "card", "card"]}, "revealed"),                 # revealed past the burn
    ({"revealed": ["ace"]}, "revealed"),
    ({"choices": [{"from": "token"}]}, "choices"),                        # no tokens to give
    ({"choices": [{"from": "graveyard"}]}, "choices"),
    ({"choices": [{"from": "indestructible", "x": 0}]}, "choices"),
])
def test_card_burn_rejects(kwargs, field):
    with pytest.raises(RuleError) as err:
        dn.card_burn(2, 3, 5, **kwargs)
    assert err.value.field == field


@given(st.integers(0, 12), st.integers(0, 8), st.integers(0, 20),
       st.lists(st.sampled_from(["card", "primary"]), max_size=20))
def test_card_burn_from_deck_never_overshoots_by_more_than_one(amount, hand, deck, tops):
    revealed, need = [], amount
    for top in tops[:deck]:
        if need <= 0:
            break
        revealed.append(top)
        need -= 2 if top == "primary" else 1
    result = dn.card_burn(amount, hand, deck, revealed=revealed)
    assert result["deck"] == deck - len(revealed)
    assert result["excess"] in (0, 1)
    assert result["absorbed"] - result["excess"] + result["still_to_burn"] + result["unabsorbed"] == amount


# --- HP ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("hp, start, amount, new, wasted", [
    (20, 24, 3, 23, 0), (20, 24, 4, 24, 0), (20, 24, 9, 24, 5), (27, 27, 2, 27, 2), (-2, 24, 5, 3, 0),
])
def test_heal_never_above_starting_hp(hp, start, amount, new, wasted):
    result = dn.heal(hp, start, amount)
    assert (result["hp"], result["wasted"]) == (new, wasted)


def test_heal_rejects_hp_above_start():
    with pytest.raises(RuleError):
        dn.heal(25, 24, 1)


@pytest.mark.parametrize("hp, amount, new, out", [(24, 5, 19, False), (5, 5, 0, True), (3, 8, -5, True)])
def test_damage_to_zero_or_less_eliminates(hp, amount, new, out):
    result = dn.damage(hp, amount, damage_this_turn=2)
    assert (result["hp"], result["eliminated"], result["damage_this_turn"]) == (new, out, amount + 2)


# --- Unstoppable (seed 000, Special Keywords) -------------------------------------------------

@pytest.mark.parametrize("value, amount, negate, unstoppable, unbreakable, result", [
    (5, 2, False, False, False, 3),   # plain reduction
    (5, 9, False, False, False, 0),   # minimum 0
    (5, 0, True, False, False, 0),    # negated
    (5, 2, False, True, False, 5),    # Unstoppable: immune to reduction
    (7, 0, True, True, False, 3),     # negate -> half, rounding down
    (6, 0, True, True, False, 3),
    (1, 0, True, True, False, 0),
    (7, 7, False, True, False, 3),    # a reduction that would negate it -> half
    (7, 2, False, True, True, 5),     # Unbreakable ignores Unstoppable
])
def test_unstoppable_against_reduction(value, amount, negate, unstoppable, unbreakable, result):
    got = dn.reduction(value, amount, negate=negate, unstoppable=unstoppable, unbreakable=unbreakable)
    assert got["result"] == result
    if unstoppable:
        assert dn.unstoppable(value, amount, negate=negate, unbreakable=unbreakable)["result"] == result


# --- Power Management (seed 000, Power Management) --------------------------------------------

@pytest.mark.parametrize("cards, offense, options", [
    (3, 2, []),
    (2, 2, ["smaller_move", "flip_one_upgrade"]),
    (1, 0, ["larger_move", "flip_two_upgrades", "flip_one_upgrade_and_smaller_move"]),
    (0, 0, []),
])
def test_power_management_options(cards, offense, options):
    assert [o["id"] for o in dn.power_management_options(cards, offense)["options"]] == options


@pytest.mark.parametrize("args, kwargs, field", [
    ((4, 1), {}, "cards_played"),
    ((3, 3), {}, "offense_count"),
    ((1, 2), {}, "offense_count"),
    ((2, 1), {"ready_played": 2}, "ready_played"),
    ((0, 0), {"ready_played": 1}, "ready_played"),
    ((2, 1), {"terrain_played": 2}, "terrain_played"),
    ((3, 1), {"hand": 2}, "hand"),
])
def test_power_management_limits(args, kwargs, field):
    with pytest.raises(RuleError) as err:
        dn.power_management_options(*args, **kwargs)
    assert err.value.field == field


def test_terrain_and_events_do_not_count_but_leave_the_hand():
    result = dn.power_management_options(3, 2, ready_played=1, terrain_played=1, event_played=2, hand=6)
    assert result["options"] == [] and result["hand"] == 6 - 2 - 1 - 2


# --- Draw, Always Dangerous, Return -----------------------------------------------------------

@pytest.mark.parametrize("hand, deck, new_hand, new_deck, emptied, out", [
    (2, 20, 6, 16, False, False), (6, 5, 6, 5, False, False), (3, 2, 5, 0, True, False),
    (0, 0, 0, 0, False, True), (7, 3, 7, 3, False, False),
])
def test_draw_tops_up_to_six(hand, deck, new_hand, new_deck, emptied, out):
    result = dn.draw(hand, deck)
    assert (result["hand"], result["deck"], result["deck_emptied"], result["eliminated"]) == (
        new_hand, new_deck, emptied, out)


def test_draw_reminds_always_dangerous():
    assert "Always Dangerous" in dn.draw(4, 10, hand_has_attack=False)["summary"]
    assert "always_dangerous" not in dn.draw(4, 10, hand_has_attack=True)


@pytest.mark.parametrize("taken, discard, ok", [(0, 0, True), (2, 5, True), (3, 5, False), (2, 1, False)])
def test_always_dangerous_takes_up_to_two(taken, discard, ok):
    if ok:
        assert dn.always_dangerous(6, discard, taken)["hand"] == 6
    else:
        with pytest.raises(RuleError):
            dn.always_dangerous(6, discard, taken)
    with pytest.raises(RuleError):
        dn.always_dangerous(6, 5, 1, hand_has_attack=True)


@pytest.mark.parametrize("count, ok", [(0, True), (2, True), (3, False)])
def test_return_up_to_two_cards(count, ok):
    if ok:
        result = dn.return_to_deck(4, 10, count)
        assert (result["hand"], result["deck"]) == (4 - count, 10 + count)
    else:
        with pytest.raises(RuleError):
            dn.return_to_deck(4, 10, count)


def test_recover_cards_limited_by_discard():
    result = dn.recover_cards(2, 1, 3)
    assert (result["hand"], result["discard"], result["returned"]) == (3, 0, 1)


# --- Ready / Upgrade slots (seed 000, Readying Cards, Upgrade) --------------------------------

def test_ready_covers_and_playing_uncovers():
    slots = dn.upgrade_slots(["Targeting", "Armour"])["slots"]
    slots = dn.flip_upgrade(slots, 2, face_up=False)["slots"]          # Armour used
    readied = dn.ready_cards(slots, [{"name": "Nova Lance", "slot": 2}, {"name": "Torpedo", "slot": 3}])
    assert readied["covered"] == ["Armour"]
    with pytest.raises(RuleError):                                     # covered: cannot flip
        dn.flip_upgrade(readied["slots"], 2, face_up=True)
    played = dn.play_ready(readied["slots"], 2)
    assert played["played"] == "Nova Lance"
    assert dn.flip_upgrade(played["slots"], 2, face_up=True)["slots"][1][-1]["face_up"] is True


@pytest.mark.parametrize("call", [
    lambda s: dn.ready_cards(s, [{"name": "A", "slot": 1}, {"name": "B", "slot": 2}, {"name": "C", "slot": 3}]),
    lambda s: dn.ready_cards(s, [{"name": "A", "slot": 5}]),
    lambda s: dn.play_ready(s, 1),
    lambda s: dn.flip_upgrade(s, 1, face_up=True),
    lambda s: dn.flip_upgrade(s, 4, face_up=False),
    lambda s: dn.upgrade_slots(["a", "b", "c", "d", "e"]),
])
def test_slot_rules(call):
    slots = dn.upgrade_slots(["Targeting"])["slots"]
    with pytest.raises(RuleError):
        call(slots)


# --- elimination and the grace window (seed 000, Victory & Defeat) ----------------------------

@pytest.mark.parametrize("ship, reasons", [
    ({"hp": 1, "hand": 1, "deck": 0}, []),
    ({"hp": 0, "hand": 3, "deck": 9}, ["destroyed"]),
    ({"hp": -4, "hand": 3, "deck": 9}, ["destroyed"]),
    ({"hp": 8, "hand": 0, "deck": 0}, ["disabled"]),
    ({"hp": 8, "hand": 0, "deck": 1}, []),
    ({"hp": 8, "hand": 2, "deck": 3, "pushed_off_danger_zone": True}, ["denied"]),
    ({"hp": 0, "hand": 0, "deck": 0}, ["destroyed", "disabled"]),
])
def test_elimination_checks(ship, reasons):
    result = dn.eliminated(ship)
    assert result["reasons"] == reasons and result["eliminated"] is bool(reasons)


@pytest.mark.parametrize("elim, step, resolves", [
    (3, 3, True), (3, 2.5, True), (3, 2, True), (3, 1.9, False), (3.5, 2.5, True), (3.5, 2.4, False),
    (0.5, 0, True), (2, 4, True), (2, "X", True), ("X", "X", True), ("X", 5.9, None),
])
def test_grace_window_edges(elim, step, resolves):
    assert dn.grace_window(elim, step)["resolves"] is resolves


# --- victory points and running battles -------------------------------------------------------

@pytest.mark.parametrize("result, points", [
    ("major", 5), ("Minor Victory", 3), ("pyrrhic", 1), ("defeat", 0)])
def test_victory_points(result, points):
    assert dn.victory_points(result)["points"] == points


def test_victory_points_rejects_unknown():
    with pytest.raises(RuleError):
        dn.victory_points("draw")


@pytest.mark.parametrize("out, results", [
    ({"Al": True, "Bea": False}, {"Al": "defeat", "Bea": "major"}),
    ({"Al": True, "Bea": True}, {"Al": "minor", "Bea": "minor"}),
])
def test_duel_result(out, results):
    assert dn.duel_result(out)["results"] == results


@pytest.mark.parametrize("games, best_of, winner, complete, decided", [
    ([{"Al": "major", "Bea": "defeat"}], 3, None, False, False),
    ([{"Al": "major", "Bea": "defeat"}, {"Al": "major", "Bea": "defeat"}], 3, "Al", False, True),
    ([{"Al": "major", "Bea": "defeat"}, {"Al": "defeat", "Bea": "major"}, {"Al": "minor", "Bea": "minor"}],
     3, None, True, False),
    ([{"Al": "major", "Bea": "defeat"}, {"Al": "defeat", "Bea": "major"}, {"Al": "major", "Bea": "defeat"}],
     3, "Al", True, True),
])
def test_running_battle(games, best_of, winner, complete, decided):
    result = dn.running_battle(games, best_of)
    assert (result["winner"], result["complete"], result["decided"]) == (winner, complete, decided)


def test_running_battle_tied_on_points_has_no_winner():
    games = [{"Al": "major", "Bea": "defeat"}, {"Al": "minor", "Bea": "minor"}, {"Al": "defeat", "Bea": "major"}]
    result = dn.running_battle(games, 3)
    assert result["totals"] == {"Al": 8, "Bea": 8} and result["winner"] is None


@pytest.mark.parametrize("games, best_of", [([], 2), ([{"Al": "major"}] * 4, 3), ([{"Al": "win"}], 3)])
def test_running_battle_rejects(games, best_of):
    with pytest.raises(RuleError):
        dn.running_battle(games, best_of)


# --- set-up (seed 000, Setup; Multiplayer) ----------------------------------------------------

def test_setup_two_players():
    result = dn.setup(["Al", "Bea"], deck_size=36, system_bonus={"Al": 2, "Bea": 0}, dice=[2])
    al, bea = result["ships"]
    assert result["attacker"] == "Bea" and (al["role"], bea["role"]) == ("Defender", "Attacker")
    assert (al["hp"], al["start_hp"], al["hand"], al["deck"]) == (26, 26, 6, 30)
    assert (bea["hp"], bea["deck"]) == (24, 30)


def test_setup_random_attacker_from_rng():
    assert dn.setup(["Al", "Bea"], rng=random.Random(1))["attacker"] in ("Al", "Bea")


@pytest.mark.parametrize("players, distance", [(3, 6), (4, 5), (5, 4), (6, 4)])
def test_setup_multiplayer_placement(players, distance):
    result = dn.setup([f"P{i}" for i in range(players)], deck_size=26, attacker="P0")
    assert result["placement_distance"] == distance and result["first_player"] == "P0"
    assert result["ships"][0]["deck"] == 20


def test_setup_eight_players_in_teams():
    players = [f"P{i}" for i in range(8)]
    result = dn.setup(players, teams={p: "Red" if i % 2 else "Blue" for i, p in enumerate(players)}, attacker="P0")
    assert result["ships"][1]["team"] == "Red"


@pytest.mark.parametrize("players, kwargs, field", [
    (["Al"], {}, "players"),
    ([f"P{i}" for i in range(9)], {}, "players"),
    ([f"P{i}" for i in range(7)], {}, "teams"),
    (["Al", "Al"], {}, "players"),
    (["Al", "Bea"], {"deck_size": 30}, "deck_size"),
    (["Al", "Bea"], {"system_bonus": -1}, "system_bonus"),
    (["Al", "Bea"], {"teams": {"Al": "A", "Bea": "B"}}, "teams"),
    (["Al", "Bea", "Cy"], {"teams": {"Al": "A", "Bea": "A", "Cy": "A"}}, "teams"),
    (["Al", "Bea"], {"attacker": "Cy"}, "attacker"),
    (["Al", "Bea"], {"dice": [3]}, "dice"),
])
def test_setup_rejects(players, kwargs, field):
    with pytest.raises(RuleError) as err:
        dn.setup(players, **kwargs)
    assert err.value.field == field


def test_mulligan_once():
    ship = dn.setup(["Al", "Bea"], attacker="Al")["ships"][0]
    after = dn.mulligan(ship)
    assert after["hand"] == 6 and after["deck"] == 30 and not after["mulligan_available"]
    with pytest.raises(RuleError):
        dn.mulligan(after)


@pytest.mark.parametrize("levels, limit, ok", [([1, 2, 3], 6, True), ([2, 2, 2, 1], 6, False),
                                               ([1, 1, 1, 1, 1], 9, False)])
def test_upgrade_power_levels(levels, limit, ok):
    if ok:
        assert dn.upgrade_power_check(levels, limit)["spare"] == 0
    else:
        with pytest.raises(RuleError):
            dn.upgrade_power_check(levels, limit)


# --- fleet arrival timer (seed 000, Multiplayer Rules) ----------------------------------------

def test_fleet_arrival_from_start_to_arrival():
    timer = dn.fleet_arrival_start(["Al", "Bea", "Cy"])
    assert timer["tokens"] == {"Al": 8, "Bea": 8, "Cy": 8}
    timer = dn.fleet_arrival_advance(timer, "deck_empty")
    assert timer["tokens"] == {"Al": 7, "Bea": 7, "Cy": 7}
    timer = dn.fleet_arrival_advance(timer, "pushed_to_edge")
    timer = dn.fleet_arrival_advance(timer, "elimination", fleet="Al", fleet_lost="Cy")
    assert timer["tokens"] == {"Al": 4, "Bea": 6, "Cy": 6} and timer["lost"] == ["Cy"]
    for _ in range(3):
        timer = dn.fleet_arrival_advance(timer, "event_card", fleet="Al")
    assert timer["tokens"]["Al"] == 1 and not timer["ends_this_turn"]
    timer = dn.fleet_arrival_advance(timer, "elimination", fleet="Al")
    assert timer["tokens"]["Al"] == 0 and timer["ends_this_turn"]
    effects = dn.fleet_arrival_effects(timer, {"Al": {"Bea": 4, "Dee": 5}})
    assert effects["hits"] == [{"fleet": "Al", "ship": "Bea", "hexes": 4, "damage": 6, "card_burn": 4}]
    assert effects["game_ends"]


def test_fleet_of_an_eliminated_ship_arrives_harmlessly():
    timer = dn.fleet_arrival_start(["Al", "Bea"])
    timer = dn.fleet_arrival_advance(timer, "elimination", fleet="Bea", fleet_lost="Al")
    timer["tokens"]["Al"] = 0
    assert dn.fleet_arrival_effects(timer, {"Al": {"Bea": 1}})["hits"] == []


def test_fleet_timer_only_after_first_elimination():
    with pytest.raises(RuleError) as err:
        dn.fleet_arrival_advance({"started": False}, "deck_empty")
    assert err.value.field == "timer"


def test_team_event_advance_one_player_per_turn():
    timer = dn.fleet_arrival_start(["Red", "Blue"], teams=True)
    timer = dn.fleet_arrival_advance(timer, "event_card", fleet="Red", player="Al")
    timer = dn.fleet_arrival_advance(timer, "event_card", fleet="Red", player="Al")
    with pytest.raises(RuleError) as err:
        dn.fleet_arrival_advance(timer, "event_card", fleet="Red", player="Bea")
    assert err.value.field == "player"
    timer = dn.fleet_arrival_new_turn(timer)
    assert dn.fleet_arrival_advance(timer, "event_card", fleet="Red", player="Bea")["tokens"]["Red"] == 5


@pytest.mark.parametrize("kwargs, field", [
    ({"trigger": "boredom"}, "trigger"),
    ({"trigger": "elimination"}, "fleet"),
    ({"trigger": "event_card", "fleet": "Zed"}, "fleet"),
])
def test_fleet_arrival_rejects(kwargs, field):
    with pytest.raises(RuleError) as err:
        dn.fleet_arrival_advance(dn.fleet_arrival_start(["Al", "Bea"]), **kwargs)
    assert err.value.field == field


@pytest.mark.parametrize("counts, winner", [({"Al": 2, "Bea": 1}, "Al"), ({"Al": 1, "Bea": 1}, None)])
def test_most_eliminations_wins(counts, winner):
    assert dn.most_eliminations(counts)["winner"] == winner


# --- wreck terrain, Combined Fire, Shared Defense ---------------------------------------------

@pytest.mark.parametrize("damage, burn, cause, terrain", [
    (8, 0, "damage", "Debris"), (7, 0, "damage", "Wreckage"), (12, 0, "damage", "Debris"),
    (0, 6, "card_burn", "Derelict Hull"), (0, 5, "card_burn", "Drifting Hulk"), (9, 9, "push", None),
])
def test_wreck_terrain_thresholds(damage, burn, cause, terrain):
    assert dn.wreck_terrain(damage, burn, cause)["terrain"] == terrain


def test_wreck_terrain_needs_the_cause():
    with pytest.raises(RuleError):
        dn.wreck_terrain(8, 0)


@pytest.mark.parametrize("effect, bonus", [("damage", 2), ("push", 1), ("card_burn", 2)])
def test_combined_fire(effect, bonus):
    assert dn.combined_fire(["Al", "Bea"], {"Al": "Red", "Bea": "Red"}, effect)["bonus"] == bonus


@pytest.mark.parametrize("attackers, teams, applied", [
    (["Al"], {"Al": "Red"}, False), (["Al", "Cy"], {"Al": "Red", "Cy": "Blue"}, False),
    (["Al", "Bea"], {"Al": "Red", "Bea": "Red"}, True),
])
def test_combined_fire_rejects(attackers, teams, applied):
    with pytest.raises(RuleError):
        dn.combined_fire(attackers, teams, "damage", applied_this_step=applied)


@pytest.mark.parametrize("hexes, allowed", [(0, True), (3, True), (4, False)])
def test_shared_defense_within_close_range(hexes, allowed):
    assert dn.shared_defense(hexes)["allowed"] is allowed


def test_rules_module_is_pure():
    modules = sorted(Path(dn.__file__).parent.glob("*.py"))
    assert len(modules) > 1  # the package and its topic modules
    for module in modules:
        source = module.read_text()
        for word in ("flask", "sqlite", "werkzeug", "import requests"):
            assert word not in source.lower(), f"{module.name} mentions {word}"


# --- the content pack agrees with the module --------------------------------------------------

@pytest.fixture(scope="module")
def system(tmp_path_factory):
    root = tmp_path_factory.mktemp("content")
    (root / "dreadnaught").symlink_to(CONTENT_DIR / "dreadnaught")
    return load_systems([root])["dreadnaught"]


def test_pack_loads_with_its_tables(system):
    assert system.phases == ["Draw", "Power Management", "Ready", "Reveal", "Resolve", "React", "Discard",
                             "Return"]
    assert system.sides == ["Attacker", "Defender"] and system.round_label == "Turn"
    assert {"range-bands", "priority-order", "power-management", "victory-points", "turn-sequence",
            "fleet-arrival", "wreck-terrain", "card-burn"} <= set(system.tables)
    for table in system.tables.values():
        assert table["source"].startswith("seed 000")


def test_range_table_matches_module(system):
    rows = system.tables["range-bands"]["rows"]
    assert [(r[0], r[2], r[3]) for r in rows[:4]] == list(dn.RANGE_BANDS)


def test_priority_table_matches_module(system):
    assert [r[1].split()[0] for r in system.tables["priority-order"]["rows"]] == list(dn.PRIORITY)


def test_victory_table_matches_module(system):
    rows = system.tables["victory-points"]["rows"]
    assert {r[0].split()[0].lower(): r[1] for r in rows} == dn.VICTORY_POINTS


def test_power_management_table_matches_module(system):
    assert [r[0] for r in system.tables["power-management"]["rows"]] == sorted(dn.POWER_MANAGEMENT, reverse=True)


def test_ship_template_hp_is_capped_by_starting_hp(system):
    ship = system.templates["ship"]
    hp = next(t for t in ship["trackers"] if t["id"] == "hp")
    start = next(s for s in ship["stats"] if s["id"] == "start_hp")
    assert hp["max_stat"] == "start_hp" and start["default"] == dn.BASE_HP
    # one Fleet Token per remaining ship or team: the battle state keeps the timer, not a single gauge
    assert not system.table_trackers
    assert f"on {dn.FLEET_START}" in system.tables["fleet-arrival"]["rows"][0][1]
