"""Rule tables at 390x844 (issue 10 §6): the page never scrolls sideways, the wide table does inside
it with its header row and first column kept in view, and the lookup answers the one number."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from companion.content import default_systems

pytestmark = pytest.mark.browser


def test_the_penetration_table_on_a_phone(live_server, phone):
    page = phone()
    page.goto(live_server + "/systems/empires-of-dust/tables/penetration")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    box = page.locator("[data-scroll]")
    assert page.evaluate("(b) => b.scrollWidth > b.clientWidth", box.element_handle())
    expect(page.locator("[data-swipe]")).to_be_visible()
    size = page.evaluate("parseFloat(getComputedStyle(document.querySelector('table.rules td')).fontSize)")
    assert size >= 14  # no shrinking to 11.5 px
    head = page.locator("table.rules thead th").nth(3)
    first = page.locator("table.rules tbody th").nth(5)
    before = first.bounding_box()["x"]
    box.evaluate("(b) => { b.scrollLeft = 400; b.scrollTop = 300; }")
    page.wait_for_timeout(100)
    assert abs(first.bounding_box()["x"] - before) <= 1  # the first column stays
    top = box.bounding_box()["y"]
    assert abs(page.locator("table.rules thead th").first.bounding_box()["y"] - top) <= 2  # header stays
    table = default_systems()["empires-of-dust"].tables["penetration"]
    page.select_option("#lookup select[name=row]", "7")
    page.select_option("#lookup select[name=col]", "12")
    expect(page.locator("[data-answer]")).to_have_text(str(table["rows"][7][13]))
    page.screenshot(path="/tmp/phone-table.png")


def test_augmenters_read_as_cards_without_ids(live_server, phone):
    page = phone()
    page.goto(live_server + "/systems/empires-of-dust/tables/augmenters")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    expect(page.locator(".rowcard").first).to_be_visible()
    assert "critical-hit" not in page.locator("main").inner_text()
