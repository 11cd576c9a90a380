"""A unit just added (Freeform "Add") opens its row on the phone that added it, whichever answer comes
first: the add's own, or a poll that crossed it and already brought the new unit (seen once in CI)."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from phone_checks import open_table
from test_core_browser import open_tool

pytestmark = pytest.mark.browser


def row(page, name):
    return page.locator("details.unitrow", has=page.locator("summary .rname", has_text=name))


def hold_first(page, pattern, method):
    """The first request to ``pattern`` (of ``method``) waits until the test lets it go; the rest pass."""
    waiting = []

    def handle(route):
        if route.request.method == method and not waiting:
            waiting.append(route)
        else:
            route.continue_()
    page.route(pattern, handle)
    return waiting


def caught(page, waiting):
    """The held request, once the page has sent it."""
    for _ in range(50):
        if waiting:
            return waiting[0]
        page.wait_for_timeout(100)
    raise AssertionError("the request was never sent")


def a_board(live_server, phone, polling=False):
    """``polling``: a phone whose live stream cannot be held (a proxy that buffers it) polls on a timer."""
    anna = phone()
    if polling:
        anna.route("**/live*", lambda route: route.abort("connectionrefused"))
    open_table(anna, live_server)
    expect(row(anna, "Victory")).to_have_count(0)
    open_tool(anna, "add")
    anna.fill("#add-unit input[name=name]", "Victory")
    return anna


def test_the_new_row_opens_when_a_poll_brings_the_unit_before_the_adds_answer(live_server, phone):
    anna = a_board(live_server, phone)
    adds = hold_first(anna, "**/act", "POST")
    anna.click("#add-unit button.primary")
    add = caught(anna, adds)
    answer = add.fetch()  # the server adds the unit now; its answer stays held
    # the next poll (every second in tests) finds the new seq and brings the board with the unit, closed
    expect(row(anna, "Victory")).to_have_count(1, timeout=5000)
    assert row(anna, "Victory").get_attribute("open") is None
    add.fulfill(response=answer)  # the add's answer arrives last, for a board a poll has replaced
    expect(anna.locator("#add-unit input[name=name]")).to_have_value("")  # the answer was taken
    expect(row(anna, "Victory")).to_have_attribute("open", "")


def test_the_new_row_stays_open_when_a_crossed_poll_answers_after_the_add(live_server, phone):
    anna = a_board(live_server, phone, polling=True)  # a timed poll to cross with the add
    poll = caught(anna, hold_first(anna, "**/poll?*", "GET"))  # sent from the board before the add
    anna.click("#add-unit button.primary")
    expect(row(anna, "Victory")).to_have_attribute("open", "")
    with anna.expect_response("**/poll?*") as crossed:
        poll.continue_()  # answered now, from the new seq: the board with the unit, for the old board
    assert crossed.value.status == 200
    anna.wait_for_timeout(300)
    expect(row(anna, "Victory")).to_have_count(1)
    expect(row(anna, "Victory")).to_have_attribute("open", "")
