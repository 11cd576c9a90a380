"""Dead ends and small targets at 390x844 (issue 10 §5)."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from phone_checks import create_table, open_table, two_players
from test_core_browser import add_unit, hp_of

pytestmark = pytest.mark.browser


def size(locator):
    box = locator.bounding_box()
    return box["width"], box["height"]


def test_small_targets_are_44_px(live_server, phone):
    anna = phone()
    create_table(anna, live_server)
    for url in ("#player-url", "#spectator-url"):
        assert size(anna.locator(url))[1] >= 44
    anna.click("text=Go to the board")
    assert size(anna.locator("nav.top .brand"))[1] >= 44
    add_link = anna.locator(".side .empty a").first
    assert min(size(add_link)) >= 44
    add_link.click()  # opens the folded add form, not an empty heading
    expect(anna.locator("#add-unit input[name=name]")).to_be_visible()
    add_unit(anna, "Victory")
    expect(hp_of(anna, "Victory")).to_have_text("10")
    anna.locator("#deck-deck summary", has_text="Deck set-up").click()
    anna.locator("#deck-deck button", has_text="Load and shuffle").click()
    expect(anna.locator("#deck-deck [data-pile=draw]")).to_contain_text("6 to draw")
    anna.locator("#deck-deck select[name=to]").select_option(label="Victory")
    anna.locator("#deck-deck button", has_text="Draw").first.click()
    x = anna.locator("form.unit .card-on .x")
    expect(x).to_have_count(1)
    assert min(size(x)) >= 44


def test_the_side_is_chosen_from_the_games_sides(live_server, phone):
    anna = phone()
    anna.goto(live_server + "/")
    anna.select_option("select[name=system]", "dreadfleet")
    options = anna.locator("#new-side option").all_inner_texts()
    assert options == ["the first side", "Grand Alliance", "Dreadfleet"]
    anna.fill("#new-table input[name=sides]", "Ana, Ben")
    assert anna.locator("#new-side option").all_inner_texts() == ["the first side", "Ana", "Ben"]
    anna.fill("#new-table input[name=sides]", "")
    anna.fill("input[name=name]", "Bay")
    anna.fill("#new-table input[name=seat]", "Anna")
    anna.select_option("#new-side", "Dreadfleet")
    anna.click("text=Create table")
    anna.click("text=Go to the board")
    expect(anna.locator("nav.top .seat")).to_contain_text("Anna · Dreadfleet")


def test_undoing_another_seats_move_asks_first_and_no_means_no(live_server, phone):
    anna, ben = phone(), phone()
    two_players(anna, ben, live_server)
    add_unit(anna, "Victory", 10)
    anna.get_by_label("HP minus one").click()
    expect(hp_of(ben, "Victory")).to_have_text("9", timeout=2500)
    ben.answer_yes = False
    ben.click("#undo button")
    expect(ben.locator("#undo button")).to_contain_text("Anna: Victory HP -1")
    ben.wait_for_timeout(300)
    expect(hp_of(ben, "Victory")).to_have_text("9")
    assert ben.dialogs[0] == "Undo Anna: Victory HP -1 (10 → 9)?"
    anna.click("#undo button")  # her own move: no question
    expect(hp_of(anna, "Victory")).to_have_text("10")
    assert anna.dialogs == []


def test_bar_links_land_below_the_sticky_top_bar(live_server, phone):
    anna = phone()
    open_table(anna, live_server)
    for link, target in (("a[href='#dice']", "#dice"), ("a[href='#decks']", "#decks")):
        anna.click(f"nav.bar {link}")
        anna.wait_for_timeout(200)
        top_bar = anna.locator("nav.top").bounding_box()
        heading = anna.locator(f"{target} h2").first.bounding_box()
        assert heading["y"] >= top_bar["y"] + top_bar["height"], target
