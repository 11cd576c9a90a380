"""Issue 40 §8: on an empty Astral Action board "Go to the helpers" landed on the Attack form, ~1,000 px
above the ship designer, which is what a side with no ships needs first.  It lands on the designer
(content: setup_helper), for either side while it has no ship; a side with ships has no such link."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from phone_checks import shots, two_players
from test_phone_pass_held import SHIP, Api

pytestmark = pytest.mark.browser


def in_view(page, selector) -> bool:
    return page.evaluate("""(sel) => { const r = document.querySelector(sel).getBoundingClientRect();
        return r.top < innerHeight && r.bottom > 0; }""", selector)


def go(page, side):
    page.evaluate("window.scrollTo(0, 0)")
    link = page.locator(f"section.side[aria-label='{side}'] a", has_text="Go to the helpers")
    expect(link).to_be_visible()
    expect(page.locator("#aa-designer")).to_be_attached()  # (the helpers come in a second request)
    link.click()
    # where it lands, waited for (a fixed 300 ms failed once on a loaded box); the test asserts it after
    page.wait_for_function("""() => { const top = document.getElementById('aa-ships')?.getBoundingClientRect().top;
        return top !== undefined && top >= 0 && top < 120; }""", timeout=5000)


def test_go_to_the_helpers_lands_on_the_ship_designer(live_server, phone):
    anna, ben = phone(), phone()
    two_players(anna, ben, live_server, "astral-action", "Empty skies", ("Player 1", "Player 2"))
    go(anna, "Player 1")
    top = anna.evaluate("document.getElementById('aa-ships').getBoundingClientRect().top")
    assert 0 <= top < 120, top  # the designer's heading at the top of the screen
    assert in_view(anna, "#aa-designer input[name=name]")
    assert not in_view(anna, "#aa-attack-card h2")
    anna.screenshot(path=str(shots("astral-action") / "go-to-helpers-empty.png"))

    # Player 1 launches a ship: their side has no such link now; Player 2's still goes to the designer
    Api(anna, live_server).act(type="aa-ship", side="Player 1", card={**SHIP, "name": "Raven"})
    anna.reload()
    expect(anna.locator("section.side[aria-label='Player 1'] a", has_text="Go to the helpers")).to_have_count(0)
    go(anna, "Player 2")
    top = anna.evaluate("document.getElementById('aa-ships').getBoundingClientRect().top")
    assert 0 <= top < 120, top
