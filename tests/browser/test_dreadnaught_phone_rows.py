"""Dreadnaught one-handed at 390x844 (issue 10 §3): a four-player battle's ships as compact rows, the
board within two screens; a ship's row opens the Card Burn tool on that ship; damage, Card Burn, next
phase and undo each in at most two taps from the closed board, results in reach on the phone that acted
and on the other phone, and the page does not jump. Screenshots go to $COMPANION_SHOTS/dreadnaught/ if it exists."""
from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect
from phone_checks import shots

from test_dreadnaught_browser import SYNC, at_the_table
from test_phone_result_sheets import assert_readable

pytestmark = pytest.mark.browser

SHOTS = shots("dreadnaught")
SCREEN = 844


def shot(page, name):
    if SHOTS.is_dir():
        page.screenshot(path=str(SHOTS / name))


def row(page, player):
    return page.locator("details.unitrow", has=page.locator("summary .rname", has_text=f"{player}'s Dreadnaught"))


def top_of(page, locator):
    return locator.evaluate("el => el.getBoundingClientRect().top")


def in_view(page, locator):
    return locator.evaluate("el => { const r = el.getBoundingClientRect(); "
                            "return r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight; }")


def above_the_bar(page, locator):
    """Inside the screen and not under the bottom bar."""
    bar = page.locator("nav.bar").bounding_box()
    box = locator.bounding_box()
    return box["y"] >= 0 and box["y"] + box["height"] <= bar["y"] + 1


def test_four_ships_fit_two_screens_and_common_moves_take_two_taps(live_server, phone):
    anna, ben = phone(), phone()
    at_the_table(anna, ben, live_server, "Anna, Ben, Cleo, Dan")
    anna.click("#dn-setup button[name=do]")
    for page in (anna, ben):
        expect(page.locator("details.unitrow")).to_have_count(4, timeout=SYNC)
    taps = {}

    # the closed rows: HP now/max, hand and Draw Deck; the whole board (#board) within two screens
    expect(row(ben, "Cleo").locator("summary .rnums")).to_contain_text("HP 24/24")
    expect(row(ben, "Cleo").locator("[data-row-hand]")).to_have_text("Hand 6")
    expect(row(ben, "Cleo").locator("[data-row-deck]")).to_have_text("Deck 30")
    expect(anna.locator("details.unitrow[open]")).to_have_count(0)
    board = anna.locator("#board").bounding_box()["height"]
    assert board <= 2 * SCREEN, board  # before rows: 5,215 px for this board
    anna.evaluate("window.scrollTo(0, 0)")
    assert_readable(anna)  # the set-up names every ship: whole on the phone that made it (issue 28 §2)
    anna.click("#result [data-dismiss]")  # the set-up's result sheet, read
    shot(anna, "dreadnaught-rows-closed.png")

    # damage: tap Ben's row (1), type 5, tap Damage (2); the Damage button stays under the thumb
    ben_row = row(anna, "Ben")
    ben_row.locator("summary .rname").click()
    card = ben_row.locator(".dn-ship")
    expect(card).to_be_visible()
    damage = card.get_by_role("button", name="Damage", exact=True)
    card.locator("input[name=amount]").fill("5")
    before = top_of(anna, damage)
    damage.click()
    taps["damage"] = 2
    expect(ben_row.locator("[data-row-hp]")).to_have_text("HP 19/24")
    expect(row(ben, "Ben").locator("[data-row-hp]")).to_have_text("HP 19/24", timeout=SYNC)
    assert abs(top_of(anna, damage) - before) < 4
    expect(card.locator("input[name=amount]")).to_have_value("")  # it belonged to that hit
    expect(ben_row).to_have_attribute("open", "")
    # the Draw step in words: a full hand has nothing to draw (no "Draw 0")
    expect(card.locator("[data-nothing-to-draw]")).to_have_text("Hand full: nothing to draw.")
    expect(card.get_by_role("button", name="Draw 0", exact=False)).to_have_count(0)
    shot(anna, "dreadnaught-row-open.png")
    ben_row.locator("summary .rname").click()  # fold it again

    # Card Burn: Burn on Ben's closed row (1) opens the tool with Ben chosen; type; Burn (2)
    burn_link = row(ben, "Ben").locator("xpath=..").locator("a.dn-rowtool")
    burn_link.click()
    form = ben.locator("#dn-burn")
    expect(form.locator("select[name=ship]")).to_have_value("Ben")
    expect(row(ben, "Ben")).not_to_have_attribute("open", "")  # the link did not unfold the row
    assert in_view(ben, form.locator("select[name=ship]"))
    form.locator("input[name=amount]").fill("3")
    form.locator("input[name=hand_cards]").fill("1")
    form.locator("input[name=revealed]").fill("primary")
    button = form.get_by_role("button", name="Burn")
    assert above_the_bar(ben, button)  # where the link brought the tool: no scrolling to reach it
    before = top_of(ben, button)
    button.click()
    taps["card burn"] = 2
    answer = ben.locator("#dn-burn-result [data-burn-result]")
    expect(answer).to_contain_text("Ben: Card Burn 3: 1 from hand, 1 from the deck")
    assert abs(top_of(ben, button) - before) < 4
    assert in_view(ben, answer) and above_the_bar(ben, answer)
    expect(form.locator("input[name=amount]")).to_have_value("")  # one burn's numbers go with it
    expect(form.locator("input[name=revealed]")).to_have_value("")
    expect(anna.locator("#dn-burn-result [data-burn-result]")).to_contain_text("Ben: Card Burn 3", timeout=SYNC)
    expect(row(anna, "Ben").locator("[data-row-hand]")).to_have_text("Hand 5", timeout=SYNC)
    shot(ben, "dreadnaught-burn-result.png")
    # the Draw button says what it draws
    row(ben, "Ben").locator("summary .rname").click()
    expect(row(ben, "Ben").get_by_role("button", name="Draw 1 card (hand 6)")).to_be_visible()
    row(ben, "Ben").locator("summary .rname").click()

    # next phase: one tap in the bar, on both phones
    next_button = anna.locator("nav.bar #next button")
    next_button.click()
    taps["next phase"] = 1
    expect(anna.locator("[data-phase]")).to_have_text("Power Management")
    expect(ben.locator("[data-phase]")).to_have_text("Power Management", timeout=SYNC)
    assert in_view(anna, next_button)  # the bar stays (its height follows the Undo label)

    # undo her own move: one tap, no question
    anna.click("#undo button")
    taps["undo"] = 1
    expect(anna.locator("[data-phase]")).to_have_text("Draw")
    expect(ben.locator("[data-phase]")).to_have_text("Draw", timeout=SYNC)
    assert anna.dialogs == []
    assert max(taps.values()) <= 2, taps

    # the closed board still fits after the moves, and on a tablet
    assert anna.locator("#board").bounding_box()["height"] <= 2 * SCREEN
    anna.set_viewport_size({"width": 820, "height": 1180})
    assert anna.evaluate("document.documentElement.scrollWidth") <= 820
    anna.evaluate("window.scrollTo(0, 0)")
    shot(anna, "dreadnaught-tablet.png")
