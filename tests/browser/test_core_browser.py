"""Two phones at one table (390x844): join by the QR's URL, damage, sync, undo, dice."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from phone_checks import assert_fits_a_phone, join, open_card, open_table, two_players

pytestmark = pytest.mark.browser


def open_tool(page, part):
    """Open a section that loads when opened (Add a unit, Saved rosters)."""
    if not page.locator(f"#{part}[data-loaded]").count():
        page.locator(f"#{part} summary").click()
        expect(page.locator(f"#{part}[data-loaded]")).to_be_visible()


def add_unit(page, name, hp=None, accepted=True):
    open_tool(page, "add")
    page.fill("#add-unit input[name=name]", name)
    if hp is not None:
        page.fill("#add-unit input[name='stats.hp']", str(hp))
    page.click("#add-unit button.primary")
    if not accepted:
        return
    # the new unit's row opens on this phone, ready to be set up, whichever comes first: the add's
    # answer or a poll that crossed it (test_new_unit_row.py holds each answer back in turn)
    row = page.locator("details.unitrow", has=page.locator("summary .rname", has_text=name))
    expect(row).to_have_attribute("open", "")


def hp_of(page, unit_name):
    """The unit's HP on its card, its row opened first (a phone gets the cards of open rows only)."""
    open_card(page, unit_name)
    card = page.locator("form.unit", has=page.locator("h3", has_text=unit_name))
    return card.locator(".tracker[data-tracker=hp] [data-value]")


def test_two_phones_share_damage_undo_and_rolls(live_server, phone):
    anna, ben = phone(), phone()
    player_url = two_players(anna, ben, live_server)
    assert player_url.startswith(live_server + "/t/")
    expect(ben.locator("nav.top .seat")).to_contain_text("Ben · Side B")

    add_unit(anna, "Victory", 10)
    expect(hp_of(anna, "Victory")).to_have_text("10")
    expect(hp_of(ben, "Victory")).to_have_text("10", timeout=2500)  # sync within 2 s (+ render)

    anna.get_by_label("HP minus one").click()
    expect(hp_of(anna, "Victory")).to_have_text("9")
    expect(hp_of(ben, "Victory")).to_have_text("9", timeout=2500)

    expect(ben.locator("#undo button")).to_contain_text("Anna: Victory HP -1")  # the whole label
    ben.click("#undo button")
    expect(hp_of(ben, "Victory")).to_have_text("10")
    assert ben.dialogs == ["Undo Anna: Victory HP -1 (10 → 9)?"]  # another seat's move: asked first
    expect(hp_of(anna, "Victory")).to_have_text("10", timeout=2500)

    anna.click("#roll button[value^='roll expr=2d6']")
    roll = anna.locator("#rolls li").first
    expect(roll).to_contain_text("rolled 2d6")
    text = roll.inner_text()
    total = re.search(r"= (\d+)", text).group(1)
    expect(ben.locator("#rolls li").first).to_contain_text(f"rolled 2d6", timeout=2500)
    expect(ben.locator("#rolls li").first).to_contain_text(f"= {total}")
    assert ben.locator("#rolls li").first.locator(".die").count() == 2


def test_bad_input_is_shown_next_to_the_control_and_changes_nothing(live_server, phone):
    anna = phone()
    open_table(anna, live_server)
    anna.fill("#roll input[name=expr]", "1000d6")
    anna.click("#roll button.primary")
    expect(anna.locator("#roll-err")).to_contain_text("At most 100 dice")
    expect(anna.locator("#rolls")).to_contain_text("No rolls")
    add_unit(anna, "Big", 5000, accepted=False)
    expect(anna.locator("#add-unit-err")).to_contain_text("from 1 to 999")
    assert anna.locator("form.unit").count() == 0


def test_spectator_sees_but_cannot_change(live_server, phone):
    anna, watcher = phone(), phone()
    _, spectator_url = open_table(anna, live_server)
    add_unit(anna, "Victory")
    join(watcher, spectator_url, "Sam")
    expect(watcher.locator("nav.top .seat")).to_contain_text("watching")
    expect(hp_of(watcher, "Victory")).to_have_text("10")
    expect(watcher.get_by_label("HP minus one")).to_be_disabled()
    assert watcher.locator("#dice").count() == 0


def test_layout_fits_a_phone_without_sideways_scrolling(live_server, phone):
    anna = phone()
    open_table(anna, live_server)
    add_unit(anna, "Victory")
    expect(hp_of(anna, "Victory")).to_have_text("10")
    assert_fits_a_phone(anna, "#board button, #board select")


def test_deck_draw_onto_a_unit_and_a_real_deck_record_reach_the_other_phone(live_server, phone):
    anna, ben = phone(), phone()
    two_players(anna, ben, live_server)
    add_unit(anna, "Victory")
    expect(hp_of(anna, "Victory")).to_have_text("10")
    deck = anna.locator("#deck-deck")
    deck.locator("summary", has_text="Deck set-up").click()
    deck.locator("button", has_text="Load and shuffle").click()
    expect(anna.locator("#deck-deck [data-pile=draw]")).to_contain_text("6 to draw")
    anna.locator("#deck-deck select[name=to]").select_option(label="Victory")
    anna.locator("#deck-deck button", has_text="Draw").first.click()
    expect(anna.locator("#deck-deck [data-pile=draw]")).to_contain_text("5 to draw")
    card = open_card(ben, "Victory").locator("form.unit .card-on")
    expect(card).to_have_count(1, timeout=2500)
    expect(ben.locator("#rolls li").first).to_contain_text("Deck: drew Card")

    ben.locator("#deck-deck summary", has_text="Deck set-up").click()
    ben.locator("#deck-deck button", has_text="Use the real deck").click()
    ben.fill("#rec-deck-name", "Broadside!")
    ben.fill("#rec-deck-type", "Special")
    ben.click("#deck-deck button:has-text('Record draw')")
    expect(ben.locator("#deck-deck [data-pile=discard]")).to_contain_text("Broadside!")
    expect(ben.locator("#rec-deck-name")).to_have_value("")
    expect(anna.locator("#deck-deck [data-pile=discard]")).to_contain_text("Broadside!", timeout=2500)


def test_a_phone_that_was_closed_lands_back_in_its_seat_and_catches_up(live_server, phone):
    anna, ben = phone(), phone()
    player_url = two_players(anna, ben, live_server)
    ben.goto("about:blank")  # Ben's phone closes the page
    add_unit(anna, "Victory")
    expect(hp_of(anna, "Victory")).to_have_text("10")
    ben.goto(player_url)  # scanning the QR again (or reopening): straight back to the seat
    expect(hp_of(ben, "Victory")).to_have_text("10")
    expect(ben.locator("nav.top .seat")).to_contain_text("Ben · Side B")
    ben.evaluate("document.dispatchEvent(new Event('visibilitychange'))")  # waking polls at once
    anna.get_by_label("HP minus one").click()
    expect(hp_of(ben, "Victory")).to_have_text("9", timeout=2500)


def test_the_join_address_with_its_secret_leaves_the_browser_history(live_server, phone):
    anna, ben = phone(), phone()
    url, _ = open_table(anna, live_server)
    secret = url.rsplit("/", 1)[1]
    ben.goto(url)
    expect(ben.locator("#join")).to_be_visible()
    assert secret not in ben.url and ben.evaluate("location.pathname").endswith(url.split("/")[4])
    ben.fill("input[name=seat]", "Ben")
    ben.click("text=Take my seat")
    expect(ben.locator("#board")).to_be_visible()
    ben.go_back()
    assert secret not in ben.url
    assert secret not in ben.evaluate("JSON.stringify([location.href, document.referrer])")
