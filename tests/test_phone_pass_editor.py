"""Issue 40 §10: the Dreadfleet fleet editor's next warship.  After the Bloody Reaver (a Cog) the roster
goes on to the Shadewraith, which carries no auxiliary: choosing it next dropped the Cog's numbers that
the Curse of Zandri needed.  A warship without an auxiliary now comes after those that need them."""
from __future__ import annotations

from companion.games.dreadfleet import rules as df
from companion.games.dreadfleet.views import fleet_cards

COG = {"speed": 5, "broadside": 2, "armour": 5, "hull": 2, "crew": 2, "name": "Dreadfleet Cog", "count": 1}


def test_the_next_warship_after_one_with_an_auxiliary_needs_one_too():
    last = {"name": "Bloody Reaver", "side": "Dreadfleet", "speed": 6, "aux": COG}
    card = fleet_cards.next_card(last, {"Bloody Reaver"})
    assert df.WARSHIPS[card["name"]][1] and card["name"] != "Shadewraith"
    assert card["aux"] == COG  # the auxiliary's numbers stay for it


def test_the_warship_without_an_auxiliary_comes_when_the_others_are_saved():
    last = {"name": "Bloody Reaver", "side": "Dreadfleet", "speed": 6, "aux": COG}
    others = {n for n in df.WARSHIPS if n != "Shadewraith"}
    card = fleet_cards.next_card(last, others)
    assert card["name"] == "Shadewraith" and "aux" not in card
