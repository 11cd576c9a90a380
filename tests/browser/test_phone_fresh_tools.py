"""A game's helpers follow the table (issue 28 §4): drawn below the board in their own request, they
list the table's players and units; when those change on another phone, the helpers are asked for
again (the board's step carries the roster it shows), not while a player is using them, and what was
typed in them is kept."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from phone_checks import two_players

pytestmark = pytest.mark.browser
SYNC = 5000


def test_the_initiative_resolver_names_the_players_once_the_battle_is_set_up_on_another_phone(live_server, phone):
    anna, ben = phone(), phone()
    two_players(anna, ben, live_server, "dreadnaught", "Planet 7", ("Attacker", "Defender"))
    owner = ben.locator("#dn-reveal select[name=owner]")
    # before set-up: the seats joined on each side (companion/roster.py)
    expect(owner.locator("option")).to_have_text(["Anna (Attacker)", "Ben (Defender)"])
    ben.locator("#dn-reveal input[name=name]").fill("Hard to port")  # Ben is typing a card's name

    # Anna sets the battle up, naming both players (the seats joined are filled in for her; she gives
    # Ben his whole name)
    expect(anna.locator("#dn-setup input[name='names.Attacker']")).to_have_value("Anna")
    expect(anna.locator("#dn-setup input[name='names.Defender']")).to_have_value("Ben")
    anna.locator("#dn-setup input[name='names.Defender']").fill("Benjamin")
    anna.click("#dn-setup button[name=do]")
    expect(anna.locator("details.unitrow")).to_have_count(2)

    # Ben's phone: the board's step brings the new roster; while his thumb is in the helpers they stay as
    # they are, and once he taps elsewhere they come again with the names in them
    expect(ben.locator("details.unitrow")).to_have_count(2, timeout=SYNC)
    ben.wait_for_timeout(500)
    expect(owner.locator("option")).to_have_text(["Anna (Attacker)", "Ben (Defender)"])
    expect(ben.locator("#dn-reveal input[name=name]")).to_be_focused()
    ben.locator("h1.tablename").click()
    expect(owner.locator("option")).to_have_text(["Anna (Attacker)", "Benjamin (Defender)"], timeout=SYNC)
    expect(ben.locator("#dn-reveal input[name=name]")).to_have_value("Hard to port")  # what he typed stays
