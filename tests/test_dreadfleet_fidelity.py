"""Dreadfleet rules fidelity (issue 9, items 1-8): each test is named for the rule of seed 002 it
guards and drives the table the way a phone does (forms, real dice), with the helpers of
test_dreadfleet_actions.
"""
from __future__ import annotations

import pytest

from test_dreadfleet_actions import AUX, Game, ids, text


@pytest.fixture
def game(app, table):
    return Game(app, table).create()


def next_turn(game, first="Grand Alliance"):
    """On to the next turn's Action phase: the initiative to ``first`` (Fate cards are not needed here)."""
    game.to_phase("End")
    game.to_phase("Initiative")
    game.ok(type="df-initiative", dice="5 2" if first == "Grand Alliance" else "2 5")
    game.ok(type="df-first", first=first)
    game.to_phase("Action")


# --- 1: Escaping Jeopardy replaces the Movement sub-phase ------------------------------------------

def test_a_failed_escape_means_the_ship_may_not_move_at_all_that_turn(game):
    # seed 002, Escaping Jeopardy: "If the check is failed, it may not move at all that turn."
    game.action_phase()
    game.ok(type="df-activate", unit="u1")
    game.ok(type="df-order", unit="u1", order="Full Speed Ahead", order_dice="6")
    game.ok(type="df-escape", unit="u1", enemies="1", escape_dice="1")
    assert game.log()[-1]["payload"]["escaped"] is False
    game.refused("failed to escape jeopardy: it may not move at all this turn", type="df-sail", unit="u1",
                 relation="side")
    game.refused("failed to escape jeopardy: it may not move at all this turn", type="df-full-speed", unit="u1",
                 fsa_dice="3 4")
    assert "Failed to escape jeopardy: it may not move at all this turn" in text(game.client.get(f"/t/{game.code}?open=*"))
    game.folds()


def test_a_passed_escape_moves_d3_plus_1_instead_of_its_normal_movement(game):
    # seed 002, Escaping Jeopardy: "instead of taking its normal Movement sub-phase, and replacing it
    # (and therefore certain orders cannot take effect)"
    game.action_phase()
    game.ok(type="df-activate", unit="u1")
    game.ok(type="df-order", unit="u1", order="Full Speed Ahead", order_dice="6")
    game.ok(type="df-escape", unit="u1", escape_dice="6", move_dice="2")
    game.refused("escaped jeopardy instead of its normal movement this turn", type="df-sail", unit="u1",
                 relation="astern")
    game.refused("escaped jeopardy instead of its normal movement this turn", type="df-full-speed", unit="u1",
                 fsa_dice="3 4")
    game.folds()


# --- 2: Weighing anchor happens at the end of the Movement sub-phase ---------------------------------

def test_a_warship_does_not_move_in_the_movement_sub_phase_it_weighs_anchor(game):
    # seed 002, Dropping Anchor: "A warship may weigh anchor at the end of any subsequent Movement
    # sub-phase by removing the At Anchor card. It then reverts to the normal rules for movement."
    game.action_phase()
    game.ok(type="df-activate", unit="u1")
    game.ok(type="df-anchor", unit="u1", op="drop", distance="1")
    next_turn(game)
    game.ok(type="df-activate", unit="u1")
    game.ok(type="df-anchor", unit="u1", op="weigh")
    assert "At Anchor" not in game.unit("Heldenhammer")["trackers"]["status"]["active"]
    game.refused("weighed anchor at the end of its Movement sub-phase", type="df-sail", unit="u1", relation="side")
    game.refused("weighed anchor at the end of its Movement sub-phase", type="df-escape", unit="u1",
                 escape_dice="6", move_dice="1")
    next_turn(game)
    game.ok(type="df-activate", unit="u1")
    game.ok(type="df-sail", unit="u1", relation="side")  # the next turn it moves normally
    game.folds()


# --- 3: Deploying comes before moving, anchoring at the end; when Run Aground ends ------------------

def test_a_cog_deployed_in_the_sub_phase_its_warship_drops_anchor_still_takes_a_capsize_test(game):
    # seed 002, Auxiliaries: "A warship may deploy its auxiliary before it moves in the Movement
    # sub-phase"; Dropping Anchor: "at the end of its Movement sub-phase may drop anchor"
    game.action_phase()
    cog = ids(game)["Grand Alliance Cog (Heldenhammer)"]
    game.ok(type="df-activate", unit="u1")
    game.ok(type="df-anchor", unit="u1", op="drop", distance="1")
    board = text(game.client.get(f"/t/{game.code}?open=*"))
    assert "Anchor dropped this Movement sub-phase: deploying comes first, so a cog still takes its capsize test" \
        in board
    game.ok(type="df-deploy", unit=cog, capsize_dice="3")
    assert game.log()[-1]["payload"]["result"]["needed"] is True
    assert game.unit("Grand Alliance Cog (Heldenhammer)")["removed"]
    game.folds()


def test_run_aground_spares_the_capsize_test_until_the_warship_next_moves(game):
    # seed 002, Auxiliaries: a capsize test "while not at anchor or run aground"; Running Aground:
    # "runs aground if any part of it, or its base, contacts an island or wreck" - it stays aground
    # until it moves off (decision in companion/games/dreadfleet/actions/sailing.py)
    game.action_phase()
    units = ids(game)
    reaver_cog = units["Dreadfleet Cog (Bloody Reaver)"]
    game.ok(type="df-damage", unit="u1", mode="aground")  # the Heldenhammer grounds in turn 1
    game.ok(type="df-activate", unit=units["Heldenhammer"])
    game.ok(type="df-activate", unit=units["Bloody Reaver"])
    # grounding in this Movement sub-phase comes while moving, after deploying: the cog still tests
    game.ok(type="df-damage", unit=units["Bloody Reaver"], mode="aground")
    game.ok(type="df-deploy", unit=reaver_cog, capsize_dice="2")
    assert game.log()[-1]["payload"]["result"]["needed"] is True
    next_turn(game)
    game.ok(type="df-activate", unit="u1")
    assert "Run aground: no capsize test until it next moves" in text(game.client.get(f"/t/{game.code}?open=*"))
    game.ok(type="df-sail", unit="u1", relation="side")  # it sails off the island
    assert "Run Aground" not in game.unit("Heldenhammer")["trackers"]["status"]["active"]
    next_turn(game)
    game.ok(type="df-activate", unit="u1")
    game.ok(type="df-deploy", unit=units["Grand Alliance Cog (Heldenhammer)"], capsize_dice="3")
    assert game.log()[-1]["payload"]["result"]["needed"] is True
    game.folds()


# --- 4: any way of setting a warship ablaze ends At Anchor ---------------------------------------------

def test_set_ablaze_from_the_status_chip_ends_at_anchor_and_forbids_dropping_anchor(game):
    # seed 002, Dropping Anchor: "If a warship at anchor is set ablaze, it is no longer at anchor ...
    # A warship set ablaze may not drop anchor."
    game.action_phase()
    game.ok(type="df-activate", unit="u1")
    game.ok(type="df-anchor", unit="u1", op="drop", distance="1")
    game.ok(type="tracker", unit="u1", tracker="status", op="add", name="Set Ablaze")
    active = game.unit("Heldenhammer")["trackers"]["status"]["active"]
    assert "Set Ablaze" in active and "At Anchor" not in active
    assert "Set Ablaze on (At Anchor off)" in text(game.client.get(f"/t/{game.code}/log"))
    game.refused("At Anchor cannot go on while Set Ablaze is on.", type="tracker", unit="u1", tracker="status",
                 op="add", name="At Anchor")
    next_turn(game)
    game.ok(type="df-activate", unit="u1")
    game.refused("A warship set ablaze may not drop anchor.", type="df-anchor", unit="u1", op="drop", distance="1")
    game.ok(type="df-sail", unit="u1", relation="side")  # no longer at anchor: it sails
    assert game.state()["game"]["turn"]["sail"]["u1"]["max"] > 0
    game.folds()


def test_a_warship_set_ablaze_by_any_card_is_not_at_anchor():
    # seed 002, Dropping Anchor: a Set Ablaze card moved onto the ship by the generic deck actions, or
    # an older table's chip without the content's rule, still counts: the ship is not at anchor.
    from companion.games.dreadfleet.state import at_anchor
    state = {"units": {"u1": {"trackers": {"status": {"active": {"At Anchor": {"count": None, "until": None}}}}}},
             "decks": {"fate": {"cards": {"c1": {"name": "Set Ablaze", "kind": "Status"}}, "attached": {"u1": []}}}}
    assert at_anchor(state, "u1")
    state["decks"]["fate"]["attached"]["u1"] = ["c1"]
    assert not at_anchor(state, "u1")


# --- 5: the damage is the sum of the cards in play; the characteristic is derived from it ------------

def speed_two_warship_in_the_action_phase(game):
    """The Heldenhammer with Speed 2 (not sail class, so it moves up to its current Speed) and a foe."""
    game.warship("Heldenhammer", sail=0, speed=2)
    game.warship("Bloody Reaver")
    game.deck()
    game.ok(type="df-wind-place", dice="3 4")
    game.ok(type="df-initiative", dice="5 2")
    game.ok(type="df-first", first="Grand Alliance")
    game.to_phase("Action")
    game.ok(type="deck-mode", deck="damage", mode="physical")


def test_repairing_a_speed_card_restores_only_that_cards_value(game):
    # seed 002, Damage Cards: "Crew, Speed, or Hull cards reduce the corresponding characteristic by one
    # or more. A 'double' or 'triple' card still counts as a card of the same type."; Repair order:
    # "discard one Hull, Speed, Special, Crew or Set Ablaze card"
    speed_two_warship_in_the_action_phase(game)
    game.ok(type="df-damage", unit="u1", **{"card.name": "Rigging", "card.type": "Speed", "card.value": "1"})
    game.ok(type="df-damage", unit="u1", **{"card.name": "Mast down", "card.type": "Speed", "card.value": "2"})
    assert game.counter("Heldenhammer", "speed_damage") == 3  # the sum of the cards, not capped at Speed 2
    deck = game.state()["decks"]["damage"]
    card = {deck["cards"][c]["name"]: c for c in deck["attached"]["u1"]}
    game.ok(type="df-activate", unit="u1")
    game.ok(type="df-order", unit="u1", order="Repair", order_dice="6")
    game.ok(type="df-repair", unit="u1", card=f"damage:{card['Mast down']}")
    game.ok(type="df-sail", unit="u1")
    assert game.state()["game"]["turn"]["sail"]["u1"]["max"] == 1  # Speed 2 - the single card left
    game.ok(type="df-activate", unit=ids(game)["Bloody Reaver"])
    next_turn(game)
    game.ok(type="df-damage", unit="u1", **{"card.name": "Mast down", "card.type": "Speed", "card.value": "2"})
    deck = game.state()["decks"]["damage"]
    card = {deck["cards"][c]["name"]: c for c in deck["attached"]["u1"]}
    game.ok(type="df-activate", unit="u1")
    game.ok(type="df-order", unit="u1", order="Repair", order_dice="6")
    game.ok(type="df-repair", unit="u1", card=f"damage:{card['Rigging']}")
    game.ok(type="df-sail", unit="u1")
    assert game.state()["game"]["turn"]["sail"]["u1"]["max"] == 0  # 2 - the double card: Speed 0
    game.folds()


# --- 6: auxiliaries and sea monsters follow the warship rules for Damage cards -----------------------

def test_a_speed_card_slows_a_sea_monster_like_a_warship(game):
    # seed 002, Sea Monsters: "sea monsters, auxiliaries that only enter play through Fate cards";
    # Auxiliaries: "Once in play, auxiliaries follow all normal rules for warships"; Damage Cards:
    # "Crew, Speed, or Hull cards reduce the corresponding characteristic by one or more."
    speed_two_warship_in_the_action_phase(game)
    game.ok(type="df-sea-monster", name="Sea Giant", nearest="Dreadfleet", **{f"stats.{k}": v for k, v in AUX.items()})
    giant = ids(game)["Sea Giant"]
    game.ok(type="df-damage", unit=giant, **{"card.name": "Mast down", "card.type": "Speed", "card.value": "2"})
    assert game.counter("Sea Giant", "speed_damage") == 2
    game.ok(type="df-activate", unit="u1")
    game.ok(type="df-activate", unit=ids(game)["Bloody Reaver"])
    game.ok(type="df-monster-control", unit=giant, nearest="Dreadfleet")
    game.ok(type="df-activate", unit=giant)
    game.ok(type="df-sail", unit=giant)
    assert game.state()["game"]["turn"]["sail"][giant]["max"] == AUX["speed"] - 2
    game.folds()


def test_a_damage_card_that_cannot_affect_a_ship_is_discarded():
    # seed 002, Damage Cards: "If a warship takes a Damage card that cannot affect it, discard that card
    # with no effect."  A unit without the characteristic (a Speed card on a ship with no Speed) keeps
    # nothing on its card.
    from companion.games.dreadfleet.actions.damage import resolve_damage
    unit = {"id": "u1", "name": "Hulk", "template": "warship", "removed": False,
            "stats": {"hull": 4, "crew": 3}, "trackers": {}}
    state = {"units": {"u1": unit}, "game": {},
             "decks": {"damage": {"label": "Damage", "mode": "physical", "cards": {}, "draw": [], "discard": [], "next": 1,
                                  "attached": {}}}}
    notes = resolve_damage(state, [{"step": "record", "card": {"name": "Mast down", "type": "Speed", "value": 2},
                                    "to": "unit:u1"}])
    deck = state["decks"]["damage"]
    assert deck["attached"].get("u1", []) == [] and len(deck["discard"]) == 1
    assert any("cannot affect the Hulk" in note for note in notes)


def test_a_sea_monster_from_before_its_speed_counter_still_takes_speed_damage():
    # seed 002, Auxiliaries: "auxiliaries follow all normal rules for warships" - a monster put to sea
    # on an older table (no Speed damage counter on it) gets one when its first Speed card lands
    from companion.games.dreadfleet.actions.damage import lay_damage, lift_damage
    from companion.games.dreadfleet.state import now_stat
    giant = {"stats": {"speed": 5, "hull": 4, "crew": 3}, "trackers": {}}
    lay_damage(giant, {"name": "Mast down", "type": "Speed", "value": 2})
    assert giant["trackers"]["speed_damage"]["value"] == 2 and now_stat(giant, "speed") == 3
    lift_damage(giant, {"name": "Mast down", "type": "Speed", "value": 2})
    assert now_stat(giant, "speed") == 5


# --- 7: the real Damage deck -------------------------------------------------------------------------

def test_an_auxiliary_that_draws_a_special_card_from_the_real_deck_draws_another(game):
    # seed 002, Auxiliaries: "any Special Damage card they draw is discarded (draw another to replace it)"
    speed_two_warship_in_the_action_phase(game)
    cog = ids(game)["Grand Alliance Cog (Heldenhammer)"]
    game.ok(type="df-activate", unit="u1")
    game.ok(type="df-deploy", unit=cog, capsize_dice="6")
    game.ok(type="df-activate", unit=ids(game)["Bloody Reaver"])
    game.ok(type="df-broadside", firer=ids(game)["Bloody Reaver"], target=cog, distance="3", dice="6 6 1 1",
            save_dice="1 1")
    assert game.state()["game"]["owed"] == {cog: 2}
    game.ok(type="df-damage", unit=cog, **{"card.name": "Powder keg", "card.type": "Special"})
    assert game.state()["game"]["owed"] == {cog: 2}  # discarded, and another is drawn in its place
    assert game.state()["decks"]["damage"]["attached"].get(cog, []) == []
    assert "draws another in its place" in text(game.client.get(f"/t/{game.code}/log"))
    game.ok(type="df-damage", unit=cog, **{"card.name": "Holed", "card.type": "Hull"})
    assert game.state()["game"]["owed"] == {cog: 1}
    game.folds()


def test_running_aground_with_the_real_deck_records_the_hull_card_and_sets_run_aground(game):
    # seed 002, Running Aground and Colliding: it "must draw Damage cards until it draws a Hull result
    # (applying that result and discarding the rest)"
    speed_two_warship_in_the_action_phase(game)
    assert "Record: it ran aground" in text(game.client.get(f"/t/{game.code}?open=*"))
    game.ok(type="df-damage", unit="u1", mode="aground", **{"card.name": "Holed", "card.type": "Hull"})
    assert "Run Aground" in game.unit("Heldenhammer")["trackers"]["status"]["active"]
    assert game.counter("Heldenhammer", "hull_damage") == 1
    assert game.state()["game"]["owed"] == {}
    game.folds()


# --- 8: drawing until a type stops at the end of the deck -------------------------------------------

def test_draw_until_a_type_applies_the_last_card_drawn_at_the_end_of_the_deck(game):
    # seed 002, Damage Cards: "If you must draw a card of a specific type and no cards of that type have
    # been drawn when you reach the end of the deck, instead apply the last card drawn"
    game.ready()
    game.deck("damage", "Crew loss; Crew; 1; x3\nHoled; Hull; 2", name="Mixed")
    game.ok(type="df-damage", unit="u1", mode="aground")  # the only Hull card is now on the Heldenhammer
    game.refused("No card with type Hull is left to draw", type="deck-draw-until", deck="damage", field="type",
                 value="Hull", to="unit:u3", fallback_last="0")  # asked to keep going: none is left
    game.ok(type="deck-draw-until", deck="damage", field="type", value="Hull", to="unit:u3")
    steps = game.log()[-1]["payload"]["steps"]
    kinds = [s["step"] for s in steps]
    assert "reshuffle" not in kinds[kinds.index("draw"):]  # it stopped at the end of the deck
    state = game.state()
    kept = state["decks"]["damage"]["attached"]["u3"]
    assert kept == [steps[-1]["card"]] and state["decks"]["damage"]["cards"][kept[0]]["type"] == "Crew"
    game.folds()
