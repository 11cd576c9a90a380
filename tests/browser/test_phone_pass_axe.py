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


def test_dreadfleet_board_busy(live_server, phone):
    """Five warships a side at the Action phase, one activated and its steps open, one damaged."""
    import re

    from test_dreadfleet_phone_rows import a_table_at_sea
    anna, ben = phone(), phone()
    a_table_at_sea(anna, ben, live_server)
    code = anna.url.split("#")[0].rstrip("/").split("/")[-1]
    csrf = anna.locator("input[name=csrf_token]").first.get_attribute("value")
    units = {o.inner_text().strip(): o.get_attribute("value") for o in anna.locator("#unit-options option").all()}
    for form in ({"type": "df-activate", "unit": units["Heldenhammer"]},
                 {"type": "adjust", "unit": units["Bloody Reaver"], "tracker": "hull_damage", "by": "3"}):
        r = anna.request.post(f"{live_server}/t/{code}/act", form={"csrf_token": csrf, **form})
        assert r.ok, re.findall(r'class="err[^>]*>.{0,300}', r.text())
    anna.reload()
    for name in ("Heldenhammer", "Bloody Reaver"):
        open_card(anna, name, exact=True)
    axe_scan(anna, "Dreadfleet board, busy")
