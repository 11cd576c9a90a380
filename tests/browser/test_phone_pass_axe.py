"""Issue 40 §9: the axe scan reaches Astral Action's board in its busiest state (ships activated,
damaged, an order sealed, rows open), in both themes: no serious or critical violation (activated
ships were dimmed to 3.59:1, and track totals were 10.7 px)."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from phone_checks import open_card, shots, two_players
from test_phone_axe import axe_scan
from test_phone_pass_held import SHIP, Api

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_astral_action_board_busy(live_server, phone, theme):
    anna, ben = phone(), phone()
    two_players(anna, ben, live_server, "astral-action", "Busy skies", ("Player 1", "Player 2"))
    api = Api(anna, live_server)
    for name, side in (("Raven", "Player 1"), ("Kestrel", "Player 1"), ("Falcon", "Player 2"), ("Osprey", "Player 2")):
        api.act(type="aa-ship", side=side, card={**SHIP, "name": name})
    units = api.units()
    api.act(type="aa-order", unit=units["Raven"], order="Evasive Actions", hidden="1")  # sealed
    api.act(type="aa-damage", unit=units["Raven"], amount="4")
    api.act(type="aa-damage", unit=units["Falcon"], amount="12")  # a health row filled: a Condition to roll
    api.act(type="next-phase")
    api.act(type="aa-activate", unit=units["Raven"])
    anna.evaluate("t => localStorage.setItem('companion-theme', t)", theme)
    anna.reload()
    expect(anna.locator("details.unitrow.activated")).to_have_count(1)
    for name in ("Raven", "Falcon"):
        open_card(anna, name, exact=True)
    anna.screenshot(path=str(shots("astral-action") / f"board-busy-{theme}.png"), full_page=True)
    axe_scan(anna, f"Astral Action board, busy ({theme})")
    # small targets (issue 40 §9): the readings' "Change" was 51x15 px, "Show the card" 19 px tall
    change = anna.locator(".aa-readings a", has_text="Change").bounding_box()
    assert change["height"] >= 44 and change["width"] >= 44, change
    show = anna.locator(".unitcard[data-lazy] .cardlink").first.evaluate(
        "a => [getComputedStyle(a).minHeight, getComputedStyle(a).display]")
    assert show == ["44px", "inline-flex"], show
