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
    assert "Failed to escape jeopardy: it may not move at all this turn" in text(game.client.get(f"/t/{game.code}"))
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
