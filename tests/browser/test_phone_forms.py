"""Forms at 390x844 (issue 10 §4): errors go with the next success, spent inputs empty, the tracker
form shows only the chosen kind's fields."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from phone_checks import open_table
from test_core_browser import add_unit, hp_of, open_tool

pytestmark = pytest.mark.browser


def test_an_error_goes_with_the_next_success_and_spent_real_dice_are_emptied(live_server, phone):
    anna = phone()
    open_table(anna, live_server)
    anna.fill("#roll input[name=expr]", "1000d6")
    anna.click("#roll button.primary")
    expect(anna.locator("#roll-err")).to_contain_text("At most 100 dice")
    # a success elsewhere (the real-dice record): the sentence goes, the typed dice go
    expect(anna.locator("#real input[name=dice]")).to_be_visible()  # open: real dice in two taps
    anna.fill("#real input[name=dice]", "5 3 6")
    anna.click("#real button.primary")
    expect(anna.locator("#rolls li").first).to_contain_text("5")
    expect(anna.locator("#roll-err")).to_be_empty()
    expect(anna.locator("#real input[name=dice]")).to_have_value("")
    # the pool's real dice belong to that one roll; its set-up (dice, hit on) stays
    anna.fill("#pool input[name=rolled]", "6 6 1 2 3 4")
    anna.click("#pool button.primary")
    expect(anna.locator("#rolls li").first).to_contain_text("pool")
    expect(anna.locator("#pool input[name=rolled]")).to_have_value("")
    expect(anna.locator("#pool input[name=dice]")).to_have_value("6")


def test_the_tracker_form_shows_and_sends_only_the_chosen_kind(live_server, phone):
    anna = phone()
    open_table(anna, live_server)
    add_unit(anna, "Victory")
    expect(hp_of(anna, "Victory")).to_have_text("10")
    form = anna.locator("#add-tracker")
    anna.locator("#add summary", has_text="Give a unit another tracker").click()
    form.locator("select[name=unit]").select_option(label="Victory")
    form.locator("select[name='spec.kind']").select_option("boxes")
    expect(form.locator("input[name='spec.count']")).to_be_visible()
    expect(form.locator("input[name='spec.max']")).to_be_hidden()
    form.locator("input[name='spec.label']").fill("Hull")
    form.locator("input[name='spec.count']").fill("4")
    form.locator("button", has_text="Add tracker").click()
    expect(anna.locator("form.unit .tracker[data-tracker=hull] .box")).to_have_count(4)
    expect(form.locator("input[name='spec.label']")).to_have_value("")  # reset after success
    form.locator("select[name=unit]").select_option(label="Victory")
    form.locator("select[name='spec.kind']").select_option("counter")
    expect(form.locator("input[name='spec.count']")).to_be_hidden()
    form.locator("input[name='spec.label']").fill("Crew")
    form.locator("input[name='spec.max']").fill("6")
    form.locator("input[name='spec.start']").fill("6")
    form.locator("button", has_text="Add tracker").click()
    expect(anna.locator("form.unit .tracker[data-tracker=crew] [data-value]")).to_have_text("6")
    expect(anna.locator("#add-tracker-err")).to_be_empty()


def test_players_load_their_own_typed_cards(live_server, phone):
    anna = phone()
    open_table(anna, live_server)
    deck = anna.locator("#deck-deck")
    deck.locator("summary", has_text="Deck set-up").click()
    deck.locator("textarea[name=cards_text]").fill("Broadside!\nFire! | Special | 3\nStorm")
    deck.locator("button", has_text="Load my cards and shuffle").click()
    expect(anna.locator("#deck-deck [data-pile=draw]")).to_contain_text("3 to draw")
