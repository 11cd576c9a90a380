"""One board for every side (companion/side_marks.py): after a change the players of both sides are
served one kept board, each phone with its own side's bits (its side highlighted, a side select
starting on it); a table holding a sealed part, or a game whose templates read the side, gets one
board per side; and a board that reads the side some other way is caught by the tests' check."""
from __future__ import annotations

import re

import pytest
from markupsafe import Markup

from companion import side_marks
from tests.test_drawn_board import boards_drawn, club, poll  # noqa: F401  (fixtures)
from tests.test_hidden_information import SECRET, Phone


def own_section(body: str) -> list[str]:
    """The sides whose section is marked as the phone's own."""
    return re.findall(r'<section class="side side-\d mine" aria-label="([^"]+)"', body)


def test_both_sides_are_served_one_board_each_with_its_own_side(club, boards_drawn):
    club["anna"].act(do="adjust unit=u1 tracker=hp by=-1")
    bodies = {key: poll(phone) for key, phone in club.items()}
    assert sorted(boards_drawn, key=str) == sorted(["every side", None], key=str)  # players', spectators'
    assert own_section(bodies["anna"]) == own_section(bodies["ada"]) == ["Red"]
    assert own_section(bodies["ben"]) == own_section(bodies["bo"]) == ["Blue"]
    assert own_section(bodies["sam"]) == []
    for body in bodies.values():
        assert not re.search(r"drawn[0-9a-f]{20}", body)  # no mark left over


def test_a_side_select_starts_on_each_phones_own_side(app, table):
    table.create(system="talon", seat="Anna", side="Red", sides="Red,Blue")
    player, _ = table.secrets()
    ben = Phone(app.test_client()).join(table.code, player, "Ben", "Blue")
    table.act(do="next-phase")  # a change: the board is drawn once, for both sides
    selected = r'<select name="side" aria-label="side">.*?<option selected>(\w+)</option>'
    assert re.search(selected, poll(table), re.S).group(1) == "Red"
    assert re.search(selected, poll(ben), re.S).group(1) == "Blue"


def test_a_sealed_part_gives_each_side_its_own_board(app, table, boards_drawn):
    table.create(seat="Anna", side="Red", sides="Red,Blue")
    table.act(do="add-unit", name="Falcon", side="Red", hp=10)
    player, _ = table.secrets()
    ben = Phone(app.test_client()).join(table.code, player, "Ben", "Blue")
    boards_drawn.clear()
    table.act(do="seal unit=u1", text=SECRET, _control="seal-u1")
    assert SECRET not in poll(ben, open_units="*") and SECRET in poll(table, open_units="*")
    assert boards_drawn == ["Red", "Blue"]


def test_a_board_reading_the_side_otherwise_is_caught(app, club, monkeypatch):
    """The check the whole test suite runs (COMPANION_CHECK_CARDS=1): a template that compares the
    seat's side itself shows nothing of a side on the board drawn for every side."""
    def reads_the_side(seat, side, text):
        return Markup(text) if (seat or {}).get("side") == side else Markup("")
    monkeypatch.setitem(app.jinja_env.globals, "if_side", reads_the_side)
    with pytest.raises(side_marks.SideDrift, match="'Red'"):
        club["anna"].act(do="adjust unit=u1 tracker=hp by=-1")


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
