"""A seat belongs to its phone (issue 37), on three real phones: the first makes the table, the second takes a
free side in one scan and one tap, the third asks for the second's side and is in when the second taps
Allow; a phone whose cookies were cleared gets its seat back the same way; the host removes a seat."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from phone_checks import assert_fits_a_phone, open_table, shots

pytestmark = pytest.mark.browser
SYNC = 5000  # ms: the other phone hears of the change by its live stream or its next poll (1 s here)


def ask(page, url, seat, side):
    page.goto(url)
    page.fill("input[name=seat]", seat)
    page.check(f"input[name=side][value='{side}']")
    page.click("text=Take my seat")


def test_three_phones_a_free_side_in_one_tap_a_held_side_by_allow(live_server, phone):
    anna, ben, cleo = phone(), phone(), phone()
    url, _ = open_table(anna, live_server, "freeform", "Harbour fight")
    # Ben: one scan (the URL) and one tap (Take my seat) on the free Side B
    ask(ben, url, "Ben", "Side B")
    expect(ben.locator("#board")).to_be_visible()
    expect(ben.locator("nav .seat")).to_have_text("Ben · Side B")
    # Cleo asks for Side B: the join page says who lets her in, then she waits
    cleo.goto(url)
    expect(cleo.locator("label.chip", has_text="Side B")).to_contain_text("Ben lets you in")
    cleo.screenshot(path=str(shots("freeform") / "seat-join.png"))
    assert_fits_a_phone(cleo)
    ask(cleo, url, "Cleo", "Side B")
    expect(cleo.locator("#waiting")).to_contain_text("Waiting for Side B")
    cleo.screenshot(path=str(shots("freeform") / "seat-waiting.png"))
    assert_fits_a_phone(cleo)
    # Ben's board asks him (pushed: no reload); Anna's (Side A) does not
    asking = ben.locator("form.ask")
    expect(asking).to_contain_text("A new phone asks to sit with Side B", timeout=SYNC)
    expect(asking).to_contain_text("Cleo")
    ben.screenshot(path=str(shots("freeform") / "seat-allow.png"))
    assert_fits_a_phone(ben)
    expect(anna.locator("section.side[aria-label='Side B'] h2")).to_contain_text("Ben", timeout=SYNC)
    expect(anna.locator("form.ask")).to_have_count(0)
    asking.get_by_role("button", name="Allow").click()
    # Cleo's waiting page goes to the board by itself
    expect(cleo.locator("#board")).to_be_visible(timeout=SYNC)
    expect(cleo.locator("nav .seat")).to_have_text("Cleo · Side B")
    expect(anna.locator("section.side[aria-label='Side B'] h2")).to_contain_text("Ben & Cleo", timeout=SYNC)
    # Ben's phone loses its cookies: he asks for his seat again and Cleo lets him back in
    ben.context.clear_cookies()
    ask(ben, url, "Ben", "Side B")
    expect(ben.locator("#waiting")).to_be_visible()
    back = cleo.locator("form.ask", has_text="Ben")
    expect(back).to_contain_text("the seat of that name moves to it", timeout=SYNC)
    back.get_by_role("button", name="Allow").click()
    expect(ben.locator("#board")).to_be_visible(timeout=SYNC)
    expect(ben.locator("nav .seat")).to_have_text("Ben · Side B")


def test_the_host_removes_a_seat_and_its_phone_is_told(live_server, phone):
    anna, ben = phone(), phone()
    url, _ = open_table(anna, live_server, "freeform", "Harbour fight")
    ask(ben, url, "Ben", "Side B")
    expect(ben.locator("#board")).to_be_visible()
    expect(ben.locator("#link-state")).to_have_text("● live", timeout=SYNC)
    anna.goto(re.sub(r"/t/(\w+).*", r"/t/\1/invite", anna.url))
    seats = anna.locator("#seats")
    expect(seats).to_contain_text("Ben · Side B")
    anna.screenshot(path=str(shots("freeform") / "seat-host.png"), full_page=True)
    assert_fits_a_phone(anna)
    seats.locator("li", has_text="Ben").get_by_role("button", name="Remove").click()
    expect(anna.locator("#seats")).not_to_contain_text("Ben · Side B")
    # Ben's next tap is refused in words
    ben.fill("#roll input[name=expr]", "2d6")
    ben.locator("#roll button.primary").click()
    expect(ben.locator("body")).to_contain_text("no longer has a seat at this table", timeout=SYNC)
