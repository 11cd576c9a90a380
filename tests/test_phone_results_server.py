"""The result sheet (issue 10 §2), as the server draws it."""
from __future__ import annotations

import re


def sheet(table):
    page = table.client.get(f"/t/{table.code}").data.decode()
    m = re.search(r'<section class="sheet" id="result".*?</section>', page, re.S)
    return m.group(0) if m else None


def test_a_roll_is_in_the_sheet_with_its_dice_and_total(table):
    table.create(seat="Anna")
    table.act(type="roll-real", sides="6", dice="5 3 6", why="boarding")
    s = sheet(table)
    assert s and "<b>Anna</b>" in s and "boarding" in s
    assert re.findall(r'<span class="die">(\d)</span>', s) == ["5", "3", "6"]
    assert '<span class="total">= 14</span>' in s


def test_the_next_action_or_an_undo_takes_the_sheet_away(table):
    table.create()
    table.act(type="add-unit", name="Victory")
    table.act(do="roll expr=2d6")
    assert sheet(table)
    table.act(do="adjust unit=u1 tracker=hp by=-1")
    assert sheet(table) is None
    table.act(do="roll expr=2d6")
    table.undo()
    assert sheet(table) is None


def test_a_pool_counts_successes_and_unsaved(table):
    table.create()
    table.act(type="pool", dice="4", target="4", save="5", rolled="6 5 1 2", saves_rolled="6 1")
    s = sheet(table)
    assert "2 successes · 1 unsaved" in s
    assert re.findall(r'<span class="die">(\d)</span>', s.split("saves</small>")[0]) == ["6", "5", "1", "2"]
    assert re.findall(r'<span class="die">(\d)</span>', s.split("saves</small>")[1]) == ["6", "1"]


def test_draws_name_their_cards_and_a_shuffle_has_no_sheet(table):
    table.create()
    table.act(do="deck-load deck=deck source=typed", cards_text="Alpha | A\nBeta | B\nGamma | B")
    assert sheet(table) is None
    table.act(do="deck-draw-until deck=deck field=type expect=3", value="A")
    s = sheet(table)
    cards = re.findall(r'<span class="playing-card( last)?">(\w+)', s)
    assert cards[-1] == (" last", "Alpha") and len(cards) in (1, 2, 3)
