"""Decks: shuffles decided once, draws replayed exactly, reshuffle, draw-until and its fallback."""
from __future__ import annotations

import random

import pytest

from companion.errors import RuleError
from companion.trackers import deck


def loaded(cards, seed=1):
    d = deck.create("Damage")
    deck.apply_steps(d, deck.plan_load(deck.expand(cards), random.Random(seed)))
    return d


CARDS = [{"name": "Hull hit", "type": "Hull", "count": 2}, {"name": "Crew hit", "type": "Crew", "count": 3}]


def test_load_expands_counts_and_shuffles_every_card_once():
    d = loaded(CARDS)
    assert sorted(d["draw"]) == ["c1", "c2", "c3", "c4", "c5"]
    assert sorted(c["name"] for c in d["cards"].values()) == ["Crew hit"] * 3 + ["Hull hit"] * 2


def test_planned_draw_replays_to_the_same_deck():
    d = loaded(CARDS)
    steps = deck.plan_draw(d, random.Random(2), "discard", 2)
    replay = {**d, "draw": list(d["draw"]), "discard": [], "attached": {}}
    deck.apply_steps(d, steps)
    deck.apply_steps(replay, steps)
    assert d["draw"] == replay["draw"] and d["discard"] == replay["discard"]


def test_an_empty_pile_reshuffles_the_discard_into_a_new_deck():
    d = loaded(CARDS)
    deck.apply_steps(d, deck.plan_draw(d, random.Random(3), "discard", 5))
    assert d["draw"] == [] and len(d["discard"]) == 5
    steps = deck.plan_draw(d, random.Random(4), "unit:u1")
    assert steps[0]["step"] == "reshuffle"
    deck.apply_steps(d, steps)
    assert len(d["draw"]) == 4 and d["discard"] == [] and len(d["attached"]["u1"]) == 1


def test_nothing_to_draw_is_refused():
    d = deck.create("Fate")
    with pytest.raises(RuleError, match="empty"):
        deck.plan_draw(d, random.Random(1))


def test_draw_until_hull_discards_the_others():
    d = loaded(CARDS, seed=7)
    steps = deck.plan_draw_until(d, random.Random(1), "type", "Hull", "unit:u1")
    drawn = deck.apply_steps(d, steps)
    assert d["cards"][drawn[-1]]["type"] == "Hull"
    assert d["attached"]["u1"] == [drawn[-1]]
    assert d["discard"] == drawn[:-1]
    assert all(d["cards"][c]["type"] == "Crew" for c in drawn[:-1])


def test_draw_of_type_falls_back_to_the_last_card_at_the_end_of_the_deck():
    d = loaded([{"name": "Crew hit", "type": "Crew", "count": 3}, {"name": "Hull hit", "type": "Hull"}])
    # put the only Hull card in the discard so the draw pile has none
    hull = next(c for c, card in d["cards"].items() if card["type"] == "Hull")
    deck.apply_steps(d, [{"step": "move", "card": hull, "to": "discard"}])
    steps = deck.plan_draw_until(d, random.Random(1), "type", "Hull", "unit:u2", fallback_last=True)
    drawn = deck.apply_steps(d, steps)
    assert len(drawn) == 3 and d["attached"]["u2"] == [drawn[-1]]
    assert d["cards"][drawn[-1]]["type"] == "Crew"


def test_a_stale_step_is_refused():
    d = loaded(CARDS)
    with pytest.raises(RuleError, match="top of Damage changed"):
        deck.apply_steps(d, [{"step": "draw", "card": d["draw"][1], "to": "discard"}])


@pytest.mark.parametrize("card, message", [({"type": "Hull"}, "needs a name"), ({"name": "x" * 61}, "needs a name"),
                                           ({"name": "A", "value": [1]}, "text, a number")])
def test_bad_card_definitions_are_named(card, message):
    with pytest.raises(RuleError, match=message):
        deck.clean_card(card)
