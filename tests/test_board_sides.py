"""A board is drawn for each side's players (companion/board: the view is role and side): each phone
sees its own side's bits (its side highlighted, a side select starting on it), and a side may be
named anything without being served another side's board."""
from __future__ import annotations

import re

from tests.test_board import boards_drawn, club, poll  # noqa: F401  (fixtures)
from tests.test_hidden_information import SECRET, Phone


def own_section(body: str) -> list[str]:
    """The sides whose section is marked as the phone's own."""
    return re.findall(r'<section class="side side-\d mine" aria-label="([^"]+)"', body)


def test_each_side_is_served_its_own_board_with_its_own_side(club, boards_drawn):
    club["anna"].act(do="adjust unit=u1 tracker=hp by=-1")
    bodies = {key: poll(phone) for key, phone in club.items()}
    assert sorted(boards_drawn) == [("player", "Blue"), ("player", "Red"), ("spectator", "")]
    assert own_section(bodies["anna"]) == own_section(bodies["ada"]) == ["Red"]
    assert own_section(bodies["ben"]) == own_section(bodies["bo"]) == ["Blue"]
    assert own_section(bodies["sam"]) == []


def test_a_side_select_starts_on_each_phones_own_side(app, table):
    table.create(system="talon", seat="Anna", side="Red", sides="Red,Blue")
    player, _ = table.secrets()
    ben = Phone(app.test_client()).join(table.code, player, "Ben", "Blue")
    table.act(do="next-phase")  # a change: the board is drawn once, for both sides
    selected = r'<select name="side" aria-label="side"[^>]*>.*?<option value="(\w+)" selected>'  # (its text names the seats)
    assert re.search(selected, poll(table), re.S).group(1) == "Red"
    assert re.search(selected, poll(ben), re.S).group(1) == "Blue"
    # each side with the seats the log knows on it (companion/roster.py; issue 37: every seat is a join)
    assert '<option value="Red" selected>Red (Anna)</option><option value="Blue">Blue (Ben)</option>' in poll(table)


def test_a_side_named_like_the_every_side_view_never_gets_anothers_board(app, table):
    """A side may be named anything, "*" too: its own board (a sealed order on it) is never served as
    the board for every side."""
    table.create(seat="Anna", side="*", sides="*,Blue")
    table.act(do="add-unit", name="Falcon", side="*", hp=10)
    player, _ = table.secrets()
    ben = Phone(app.test_client()).join(table.code, player, "Ben", "Blue")
    table.act(do="seal unit=u1", text=SECRET, _control="seal-u1")
    assert SECRET in poll(table, open_units="*")  # "*"'s own board, kept
    assert SECRET not in poll(ben, open_units="*")
