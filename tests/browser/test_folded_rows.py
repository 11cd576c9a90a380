"""A phone gets a unit's card only for a row it has open (companion/board): opening a row
asks for its card once, a row the player opened stays open with its card when the page is loaded
again (the phone slept, a reload), and "Fold all" forgets them."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from phone_checks import open_table
from test_phone_board import fill_table, row

pytestmark = pytest.mark.browser


def test_a_row_gets_its_card_when_opened_and_keeps_it_open_across_a_reload(live_server, phone):
    anna = phone()
    open_table(anna, live_server)
    fill_table(anna, live_server, per_side=2)
    cards = []
    anna.on("request", lambda r: cards.append(r.url) if "/card/" in r.url else None)
    expect(anna.locator("details.unitrow")).to_have_count(4)
    assert anna.locator("form.unit").count() == 0  # folded rows carry no card

    victory = row(anna, "Victory")
    victory.locator("summary.rowline").click()
    expect(victory.locator(".tracker[data-tracker=hp] [data-value]")).to_have_text("10")
    assert len(cards) == 1 and cards[0].endswith("/card/u1")
    victory.locator("summary.rowline").click()  # folded and opened again: the card is still there
    victory.locator("summary.rowline").click()
    expect(victory).to_have_attribute("open", "")
    assert len(cards) == 1

    anna.wait_for_function("document.cookie.includes('open=u1')")  # (kept when the toggle event comes)
    anna.reload()
    victory = row(anna, "Victory")
    expect(victory).to_have_attribute("open", "")
    expect(victory.locator(".tracker[data-tracker=hp] [data-value]")).to_have_text("10")
    assert len(cards) == 1  # the card came with the page
    assert anna.locator("form.unit").count() == 1

    anna.get_by_role("button", name="Fold all").click()
    expect(victory).not_to_have_attribute("open", "")
    anna.wait_for_function("!document.cookie.includes('open=u1')")
    anna.reload()
    expect(anna.locator("details.unitrow")).to_have_count(4)
    assert anna.locator("details.unitrow[open]").count() == 0 and anna.locator("form.unit").count() == 0


def test_rows_opened_while_a_card_is_on_its_way_all_get_theirs(live_server, phone):
    """Three rows opened in a row on slow Wi-Fi: each gets its card. (Asked as the page body's requests,
    the third replaced the second in the body's queue and the second row stayed empty.)"""
    anna = phone()
    open_table(anna, live_server)
    fill_table(anna, live_server, per_side=2)
    expect(anna.locator("details.unitrow")).to_have_count(4)
    held, holding = [], [True]
    anna.route("**/card/*", lambda route: held.append(route) if holding[0] else route.continue_())
    for name in ("Victory", "Temeraire", "Bellona"):
        row(anna, name).locator("summary.rowline").click()
    anna.wait_for_timeout(300)
    holding[0] = False
    for route in held:
        route.continue_()
    for name in ("Victory", "Temeraire", "Bellona"):
        expect(row(anna, name).locator(".tracker[data-tracker=hp] [data-value]")).to_have_text("10")
