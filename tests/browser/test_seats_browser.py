"""Who sits at the table (issue 28 §4), on two phones: a seat joined after a board was drawn reaches that
board with no reload (a join is an event: the board's step carries it), what was typed stays, and the
Dreadnaught tools name the players."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from phone_checks import assert_fits_a_phone, join, open_table, shots

pytestmark = pytest.mark.browser
SYNC = 5000  # ms: the other phone hears of the change by its live stream or its next poll (1 s here)


def test_a_player_who_joins_later_is_named_in_dreadnaught_set_up_and_the_resolver(live_server, phone):
    ann, ben = phone(), phone()
    url, _ = open_table(ann, live_server, "dreadnaught", "Planet 7", ready="#dn-setup")
    attacker = ann.locator("#dn-setup input[name='names.Attacker']")
    defender = ann.locator("#dn-setup input[name='names.Defender']")
    expect(attacker).to_have_value("Anna")
    expect(defender).to_have_value("")
    ann.locator("#dn-setup input[name='system_bonus.Attacker']").fill("2")  # typed before Ben comes
    join(ben, url, "Ben", "Defender", ready="#dn-setup")
    # Anna's board, not reloaded: Ben in the Defender's Player field, what she typed kept
    expect(defender).to_have_value("Ben", timeout=SYNC)
    expect(ann.locator("#dn-setup input[name='system_bonus.Attacker']")).to_have_value("2")
    expect(ann.locator("section.side[aria-label=Defender] h2")).to_contain_text("Ben")
    # Ben's own board names both too
    expect(ben.locator("#dn-setup input[name='names.Attacker']")).to_have_value("Anna")
    expect(ben.locator("#dn-setup input[name='names.Defender']")).to_have_value("Ben")
    ann.locator("#dn-setup").scroll_into_view_if_needed()
    ann.screenshot(path=str(shots("dreadnaught") / "setup-roster.png"))  # the phone's screen (390x844)
    assert_fits_a_phone(ann)
    ann.set_viewport_size({"width": 390, "height": 844})
    ann.get_by_role("button", name="Set up the battle").click()
    expect(ann.locator("#dn-battle")).to_be_visible(timeout=SYNC)
    expect(ann.locator("#dn-battle .dn-vs")).to_contain_text("Anna")
    expect(ann.locator("#dn-battle .dn-vs")).to_contain_text("Ben")
    # the resolver's owner list names the players, not only their roles
    owners = ann.locator("#dn-reveal select[name=owner] option")
    expect(owners).to_have_text(["Anna (Attacker)", "Ben (Defender)"], timeout=SYNC)
    expect(ben.locator("#dn-reveal select[name=owner] option")).to_have_text(
        ["Anna (Attacker)", "Ben (Defender)"], timeout=SYNC)
    ann.locator("section.side[aria-label=Defender] h2").scroll_into_view_if_needed()
    ann.screenshot(path=str(shots("dreadnaught") / "sides-roster.png"))


def test_a_name_typed_in_set_up_is_never_overwritten_by_a_join(live_server, phone):
    ann, ben = phone(), phone()
    url, _ = open_table(ann, live_server, "dreadnaught", "Planet 7", ready="#dn-setup")
    defender = ann.locator("#dn-setup input[name='names.Defender']")
    defender.fill("Benjamin")
    join(ben, url, "Ben", "Defender", ready="#dn-setup")
    expect(ann.locator("section.side[aria-label=Defender] h2")).to_contain_text("Ben", timeout=SYNC)
    expect(defender).to_have_value("Benjamin")


def test_the_sides_name_their_seats_on_the_board_and_in_add_a_unit(live_server, phone):
    ann, ben = phone(), phone()
    url, _ = open_table(ann, live_server, "freeform", "Harbour fight")
    ann.locator("#add summary").click()  # Add a unit, opened before Ben joins: it learns his name
    expect(ann.locator("#add[data-loaded]")).to_be_visible()
    options = ann.locator("#add-unit select[name=side] option")
    expect(options).to_have_text(["Side A (Anna)", "Side B"])
    join(ben, url, "Ben", "Side B")
    expect(ann.locator("section.side[aria-label='Side B'] h2")).to_contain_text("Ben", timeout=SYNC)
    expect(ann.locator("section.side[aria-label='Side A'] h2")).to_contain_text("Anna")
    expect(options).to_have_text(["Side A (Anna)", "Side B (Ben)"])
    ann.select_option("#add-unit select[name=side]", "Side B")
    ann.fill("#add-unit input[name=name]", "Nimitz")
    ann.click("#add-unit button.primary")
    expect(ben.locator("section.side[aria-label='Side B'] .rname", has_text="Nimitz")).to_be_visible(timeout=SYNC)
    ann.locator("#add-unit").scroll_into_view_if_needed()
    ann.screenshot(path=str(shots("freeform") / "add-unit-seats.png"))
    assert_fits_a_phone(ann)


def test_the_games_own_side_selects_name_their_seats(live_server, phone):
    """Issue 28 §4: every select of a side in a game's helpers names who sits there, like the board,
    and learns a seat that joins later (here Empires of Dust's average fleet, drawn before Ben joined)."""
    ann, ben = phone(), phone()
    url, _ = open_table(ann, live_server, "empires-of-dust", "Dust up", ready="#eod-panel")
    fleets = ann.locator("#eod-average select[name=side] option")
    expect(fleets.first).to_contain_text("(Ann")  # (the seat's own name, as the board writes it)
    join(ben, url, "Ben", "Fleet 2", ready="#eod-panel")
    expect(ann.locator("#eod-average select[name=side] option").nth(1)).to_have_text("Fleet 2 (Ben)", timeout=SYNC)
    expect(ben.locator("#eod-average select[name=side] option").nth(1)).to_have_text("Fleet 2 (Ben)")
    # the name is only the label: the form still sends the side
    ben.select_option("#eod-average select[name=side]", "Fleet 2")
    ben.locator("#eod-average button[name=do]").click()
    expect(ann.locator("section.side[aria-label='Fleet 2'] details.unitrow").first).to_be_visible(timeout=SYNC)
