"""Results where the thumb is (issue 10 §2), two phones at 390x844: a roll or a draw shows in the
sheet above the bottom bar on the phone that acted and on the other one; no tap moves the page."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from phone_checks import two_players
from test_core_browser import add_unit, hp_of

pytestmark = pytest.mark.browser

SYNC = 4000


def in_viewport(page, selector):
    box = page.locator(selector).bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= page.viewport_size["height"]


def two_phones(live_server, phone):
    anna, ben = phone(), phone()
    two_players(anna, ben, live_server)
    return anna, ben


def test_a_roll_shows_as_dice_in_the_sheet_on_both_phones_until_dismissed_or_the_next_action(live_server, phone):
    anna, ben = two_phones(live_server, phone)
    add_unit(anna, "Victory", 10)
    expect(hp_of(anna, "Victory")).to_have_text("10")
    button = anna.locator("#roll button[value^='roll expr=3d6']")
    button.scroll_into_view_if_needed()  # where the thumb is, above the bottom bar
    top = button.bounding_box()["y"]  # on screen
    button.click()
    sheet = anna.locator("#result")
    expect(sheet).to_be_visible()
    expect(sheet.locator(".bigdice .die")).to_have_count(3)
    total = re.search(r"= (\d+)", sheet.locator(".total").inner_text()).group(1)
    assert sum(int(d) for d in sheet.locator(".bigdice .die").all_inner_texts()) == int(total)
    assert in_viewport(anna, "#result")
    assert abs(button.bounding_box()["y"] - top) <= 2  # the Dice card stayed under the thumb
    box = sheet.locator(".bigdice .die").first.bounding_box()
    assert box["height"] >= 44  # readable at arm's length

    other = ben.locator("#result")
    expect(other).to_be_visible(timeout=SYNC)
    expect(other.locator(".total")).to_have_text(f"= {total}")
    expect(other).to_contain_text("Anna")
    assert in_viewport(ben, "#result")

    ben.click("#result [data-dismiss]")
    expect(other).to_be_hidden()
    anna.click("#roll button[value^='roll expr=d6']")  # a newer result arrives: shown again
    expect(other.locator(".bigdice .die")).to_have_count(1, timeout=SYNC)
    expect(other).to_be_visible()

    anna.get_by_label("HP minus one").click()  # the next action: the sheet goes everywhere
    expect(anna.locator("#result")).to_have_count(0)
    expect(ben.locator("#result")).to_have_count(0, timeout=SYNC)


def test_a_pool_shows_successes_and_a_draw_names_its_cards(live_server, phone):
    anna, ben = two_phones(live_server, phone)
    anna.fill("#pool input[name=rolled]", "6 5 4 1 2 3")
    anna.click("#pool button.primary")
    expect(anna.locator("#result .big")).to_contain_text("3 successes")
    deck = anna.locator("#deck-deck")
    deck.locator("summary", has_text="Deck set-up").click()
    deck.locator("button", has_text="Load and shuffle").click()
    expect(anna.locator("#result")).to_have_count(0)  # a shuffle has nothing to read
    deck.locator("button", has_text="Draw").first.click()
    card = anna.locator("#result .playing-card")
    expect(card).to_have_count(1)
    name = card.inner_text().split("\n")[0].split(" ")[0:2]
    expect(ben.locator("#result .playing-card")).to_contain_text(" ".join(name), timeout=SYNC)


def test_a_tap_on_a_unit_does_not_move_the_page(live_server, phone):
    anna, ben = two_phones(live_server, phone)
    for name in ("Alpha", "Bravo", "Charlie", "Delta"):
        add_unit(anna, name, 10)
        expect(hp_of(anna, name)).to_have_text("10")
    button = anna.locator("form.unit", has=anna.locator("h3", has_text="Charlie")).get_by_label("HP minus one")
    button.scroll_into_view_if_needed()
    anna.evaluate("window.scrollBy(0, -200)")
    y, top = anna.evaluate("window.scrollY"), button.bounding_box()["y"]
    button.click()
    expect(hp_of(anna, "Charlie")).to_have_text("9")
    assert abs(button.bounding_box()["y"] - top) <= 2
    assert abs(anna.evaluate("window.scrollY") - y) <= 2
    # the other phone's changes above do not push the control away either
    ben.click("#roll button[value^='roll expr=d6']")
    expect(anna.locator("#result")).to_be_visible(timeout=SYNC)
    assert abs(button.bounding_box()["y"] - top) <= 2
