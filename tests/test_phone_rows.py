"""Compact unit rows (issue 10 §3), as the server draws them."""
from __future__ import annotations

import re


def board(table):
    return table.client.get(f"/t/{table.code}?open=*").data.decode()


def test_freeform_units_are_rows_with_their_numbers_and_conditions_opening_into_the_full_card(table):
    table.create(seat="Anna", side="Side A")
    table.act(type="add-unit", name="Victory", side="Side A", **{"stats.hp": "10"})
    table.act(do="adjust unit=u1 tracker=hp by=-3")
    table.act(type="add-tracker", unit="u1", **{"spec.kind": "conditions", "spec.label": "State",
                                                 "spec.options": "Burning, Stunned"})
    table.act(do="tracker unit=u1 tracker=state op=add name=Burning")
    table.act(type="add-tracker", unit="u1", **{"spec.kind": "boxes", "spec.label": "Hull", "spec.count": "4"})
    table.act(do="tracker unit=u1 tracker=hull op=mark box=0")
    page = board(table)
    row = re.search(r'<details class="unitrow" id="row-u1">\s*<summary class="rowline">(.*?)</summary>', page, re.S).group(1)
    text = re.sub(r"<[^>]+>", "", row)
    assert "Victory" in text and "HP 7/10" in text and "Hull 1/4" in text and "Burning" in text
    card = page[page.index('id="row-u1"'):page.index("</details>", page.index('id="unit-u1"'))]
    assert 'id="unit-u1"' in card and "HP minus one" in card  # the full card is inside the row


def test_the_filter_is_offered_to_a_seat_with_a_side_and_marks_its_side(table):
    table.create(seat="Anna", side="Side B")
    table.act(type="add-unit", name="Victory", side="Side A")
    page = board(table)
    assert 'data-unit-filter="mine"' in page
    assert re.search(r'<section class="side side-1 mine" aria-label="Side B">', page)


def test_a_game_with_its_own_unit_card_and_no_row_keeps_full_cards(table, monkeypatch):
    # every shipped game now says what its row shows, so a game without _row.html is Dreadnaught
    # with its row template hidden: its ships are full cards, and rows come back with the template
    from companion.board import context
    from test_dreadnaught_actions import DUEL
    table.create(system="dreadnaught", name="Planet 7", sides="Anna, Ben", side="Anna")
    table.act(do="dn-setup", **{k: str(v) for k, v in DUEL.items()})
    assert 'class="unitrow' in board(table)
    real = context.has_template
    monkeypatch.setattr(context, "has_template", lambda name: not name.endswith("/_row.html") and real(name))
    table.act(do="note", text="the board is drawn again")  # a new change: a fresh render, not the cached one
    page = board(table)
    assert "unitrow" not in page and "data-unit-filter" not in page
    assert 'id="unit-u1"' in page and 'id="unit-u2"' in page  # the full cards, open
