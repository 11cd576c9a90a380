"""Issue 40 §8: the log page is live.  Ben reads the table's full log on his phone; Anna's moves on her
board come onto his page at the top within moments, without a reload (the page holds the table's live
stream, as the board does); what Ben holds on the page (a line's "Take back or correct" open, an amount
typed there) stays; a move Anna undoes is struck through on his page; "Older ▶" still pages back."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from phone_checks import shots, two_players

pytestmark = pytest.mark.browser
SYNC = 5000


def test_a_move_on_one_phone_shows_on_the_others_log_page(live_server, phone):
    anna, ben = phone(), phone()
    two_players(anna, ben, live_server, name="Logged")
    code = anna.url.split("#")[0].rstrip("/").split("/")[-1]
    csrf = anna.locator("input[name=csrf_token]").first.get_attribute("value")
    for i in range(104):  # more than a page of the log (play.LOG_PAGE, 100)
        r = anna.request.post(f"{live_server}/t/{code}/act", form={"csrf_token": csrf, "type": "note", "text": f"note {i}"})
        assert r.ok
    ben.goto(f"{live_server}/t/{code}/log")
    ben.evaluate("window.sameDocument = true")  # gone if the page is loaded again
    first = ben.locator("ol.log > li").first
    top_seq = int(first.get_attribute("id")[1:])
    # Ben opens an older line's "Take back or correct" and types an amount there
    held = ben.locator(f"#e{top_seq - 2}")
    held.locator("summary").click()
    expect(held.locator("details.fix")).to_have_attribute("open", "")

    anna.click("#roll button[name=do] >> text=2d6")  # a tap on Anna's board
    new = ben.locator(f"#e{top_seq + 1}")
    expect(new).to_be_visible(timeout=SYNC)
    expect(new).to_contain_text("Anna")
    expect(new).to_contain_text("2d6")
    assert ben.evaluate("window.sameDocument === true"), "the log page was loaded again"
    assert ben.locator("ol.log > li").first.get_attribute("id") == f"e{top_seq + 1}"  # newest first
    assert ben.locator("ol.log").get_attribute("start") == str(top_seq + 1)
    expect(held.locator("details.fix")).to_have_attribute("open", "")  # what Ben held stays
    ben.screenshot(path=str(shots("freeform") / "log-live.png"))

    # Anna undoes her roll: on Ben's page it is struck through, and the undo is a line of its own
    anna.locator("#undo button").first.click()
    expect(ben.locator(f"#e{top_seq + 1}")).to_have_class(re.compile(r"\bwithdrawn\b"), timeout=SYNC)
    expect(ben.locator(f"#e{top_seq + 2}")).to_be_attached(timeout=SYNC)
    assert ben.evaluate("window.sameDocument === true")

    # paging: the newest page's "Older ▶" goes on from its last line, as before
    last = int(ben.locator("ol.log > li").last.get_attribute("id")[1:])
    ben.click("a[rel=next]")
    expect(ben.locator("ol.log > li").first).to_have_attribute("id", f"e{last - 1}")
    assert ben.locator("#log").get_attribute("data-live") is None  # an older page is not live
