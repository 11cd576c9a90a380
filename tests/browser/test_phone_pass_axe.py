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


# --- every other game's board at its busiest (issue 40 §9: "the axe scan reaches every game's board in its
# busiest state"): units activated where the game has activations, damaged, conditions set, a cooldown
# used, a sealed order given (the core's "seal": every game has it on a unit's card), cards open ---------

def busy_empires_of_dust(anna, ben, base):
    two_players(anna, ben, base, "empires-of-dust", "Busy dust", (None, "Fleet 2"), ready="#eod-panel")
    api = Api(anna, base)
    api.act(type="eod-deploy", side="Fleet 1", preset="average-fleet")
    api.act(type="eod-deploy", side="Fleet 2", preset="average-fleet")
    api.page.reload()
    units = [(o.inner_text().strip(), o.get_attribute("value")) for o in anna.locator("#unit-options option[data-side='Fleet 1']").all()]
    mine = [uid for _, uid in units]
    api.act(type="adjust", unit=mine[0], tracker="hp", by="-7")
    api.act(type="tracker", unit=mine[0], tracker="conditions", op="add", name="EMP")
    api.act(type="tracker", unit=mine[1], tracker="conditions", op="add", name="Burning", rounds="2")
    api.act(type="activate", unit=mine[1])
    api.act(type="seal", unit=mine[0], text="Ram the flagship")
    anna.reload()
    return mine[:2]


def busy_talon(anna, ben, base):
    two_players(anna, ben, base, "talon", "Busy war", ("Terran", "Talon"))
    api = Api(anna, base)
    for side, cls, name in (("Terran", "terran-ca", "Zhukov"), ("Terran", "terran-ca", "Nimitz"),
                            ("Talon", "talon-ca", "Justice"), ("Talon", "talon-ca", "Fury")):
        api.act(type="talon-ship", side=side, cls=cls, name=name)
    units = api.units()
    api.act(type="talon-damage", unit=units["Zhukov"], arc="hull", amount="3")
    api.act(type="talon-damage", unit=units["Zhukov"], arc="F", amount="2")
    api.act(type="seal", unit=units["Zhukov"], text="Turn to port")
    anna.reload()
    return [units["Zhukov"], units["Nimitz"]]


def busy_dreadnaught(anna, ben, base):
    two_players(anna, ben, base, "dreadnaught", "Busy planet", ("Anna", "Ben"), typed_sides="Anna, Ben")
    api = Api(anna, base)
    api.act(type="dn-setup", names={"Anna": "Anna", "Ben": "Ben"}, attacker="Anna")
    units = api.units()
    anna_ship, ben_ship = units["Anna's Dreadnaught"], units["Ben's Dreadnaught"]
    api.act(type="dn-damage", ship=ben_ship, amount="3")
    api.act(type="tracker", unit=anna_ship, tracker="conditions", op="add", name="In terrain")
    api.act(type="seal", unit=anna_ship, text="Full power to the guns")
    api.act(type="next-phase")
    anna.reload()
    return [anna_ship, ben_ship]


def open_row(page, uid):
    """A unit's row opened by a tap on its summary, once its card is in (two fleets' ships share names)."""
    row = page.locator(f"#row-{uid}")
    if row.get_attribute("open") is None:
        row.locator("summary.rowline").click()
    expect(row.locator(":scope > .unitcard:not([data-lazy]) form.unit")).to_be_attached()


BUSY = {"empires-of-dust": busy_empires_of_dust, "talon": busy_talon, "dreadnaught": busy_dreadnaught}


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("game", list(BUSY))
def test_every_games_board_busy(live_server, phone, game, theme):
    anna, ben = phone(), phone()
    uids = BUSY[game](anna, ben, live_server)
    anna.evaluate("t => localStorage.setItem('companion-theme', t)", theme)
    anna.reload()
    for uid in uids:
        open_row(anna, uid)
    anna.screenshot(path=str(shots(game) / f"board-busy-{theme}.png"), full_page=True)
    axe_scan(anna, f"{game} board, busy ({theme})")
