"""Issue 40 §10: a Dreadfleet warship is one line to type (or paste) instead of 13 fields: the fleet editor's
quick-entry parser (fleet_cards.quick_entry), which Save reads as well as the Fill button.  It never makes up
a number: a field the line does not give stays as typed (or empty)."""
from __future__ import annotations

import pytest

from companion.errors import RuleError
from companion.games.dreadfleet.views.fleet_cards import quick_entry, warship_card

ORDERED = "6 3 4 5+ 10 4 4+ 3 / 5 2 5 2 2"
FIELDS = {"stats.speed": "6", "stats.handling": "3", "stats.broadside": "4", "stats.armour": "5+", "stats.hull": "10",
          "stats.crew": "4", "stats.command": "4+", "stats.swashbuckling": "3",
          "aux.speed": "5", "aux.broadside": "2", "aux.armour": "5", "aux.hull": "2", "aux.crew": "2"}


def test_numbers_in_the_cards_order_fill_both_cards():
    assert quick_entry(ORDERED) == FIELDS
    assert quick_entry(ORDERED.replace(" / ", " ")) == FIELDS  # the 9th number starts the auxiliary's card
    assert quick_entry("6 3 4 5+ 10 4 4+ 3 | aux 5 2 5 2 2") == FIELDS


def test_named_numbers_and_a_part_of_a_card():
    assert quick_entry("Hull 10 Crew 4 cmd 4+") == {"stats.hull": "10", "stats.crew": "4", "stats.command": "4+"}
    assert quick_entry("Speed 6 Handling 3 / Hull 2") == {"stats.speed": "6", "stats.handling": "3", "aux.hull": "2"}
    assert quick_entry("") == {}  # nothing typed: nothing given, nothing made up


@pytest.mark.parametrize("line, says", [("Speed 6 Wings 3", "'Wings'"), ("6 " * 14, "more numbers"),
                                        ("Handling 3 / Handling 2", "'Handling'"), ("6 ? 3", "'?'")])
def test_what_it_cannot_read_is_said_in_words(line, says):
    with pytest.raises(RuleError) as err:
        quick_entry(line)
    assert says in err.value.message and err.value.field == "quick"


def test_save_reads_the_line_over_the_fields():
    card = warship_card({"name": "Heldenhammer", "quick": ORDERED, "stats.speed": "9"})
    assert (card["speed"], card["hull"], card["command"], card["aux"]["crew"]) == (6, 10, 4, 2)
    typed = warship_card({"name": "Heldenhammer", "quick": "Hull 12", **FIELDS})
    assert (typed["hull"], typed["speed"]) == (12, 6)  # the line's Hull over the typed one, the rest as typed
