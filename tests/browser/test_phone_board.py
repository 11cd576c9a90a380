"""The Freeform board one-handed at 390x844 (issue 10 §3): units as compact rows opening with one
tap, "my side / all", Next phase, Undo, Dice and Cards in the bottom bar; common moves in at most
two taps, on two phones. Saves its screenshots under $COMPANION_SHOTS/freeform/ (see phone_checks.shots)."""
from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect
from phone_checks import open_table, shots, two_players

pytestmark = pytest.mark.browser

IMG = shots("freeform")
SYNC = 4000


def fill_table(page, base, per_side=5):
    """Units for both sides through the app's own form posts (faster than typing them)."""
    code = page.url.rstrip("/").split("/")[-1]
    csrf = page.locator("input[name=csrf_token]").first.get_attribute("value")
    names = []
    for i in range(per_side * 2):
        side = "Side A" if i < per_side else "Side B"
        name = ["Victory", "Temeraire", "Bellona", "Agamemnon", "Ajax", "Redoutable", "Fougueux",
                "Bucentaure", "Neptune", "Achille"][i % 10]
        page.request.post(f"{base}/t/{code}/act", form={"csrf_token": csrf, "type": "add-unit", "name": name,
                                                         "side": side, "stats.hp": "10"})
        names.append(name)
    page.goto(f"{base}/t/{code}")
    return names


def row(page, name):
    return page.locator("details.unitrow", has=page.locator("summary .rname", has_text=name))


def test_rows_fit_two_screens_and_common_moves_take_two_taps(live_server, phone):
    anna, ben = phone(), phone()
    two_players(anna, ben, live_server)
    fill_table(anna, live_server)
    expect(anna.locator("details.unitrow")).to_have_count(10)
    board = anna.locator("#board").bounding_box()["height"]
    assert board <= 2 * 844, board  # ten units, all rows closed: within two screens
    anna.set_viewport_size({"width": 390, "height": 844})
    anna.screenshot(path=str(IMG / "board-phone-rows.png"))

    # damage: tap the row (1), tap minus (2); the row shows the new number, on both phones
    victory = row(anna, "Victory")
    victory.locator("summary.rowline").click()
    expect(victory.locator("form.unit")).to_be_visible()
    victory.get_by_label("HP minus one").click()
    expect(victory.locator("summary .rnums")).to_contain_text("HP 9/10")
    expect(row(ben, "Victory").locator("summary .rnums")).to_contain_text("HP 9/10", timeout=SYNC)
    # each side is served its own board (companion/board): each phone has its own side marked
    expect(anna.locator("section.side.mine")).to_have_attribute("aria-label", "Side A")
    expect(ben.locator("section.side.mine")).to_have_attribute("aria-label", "Side B")
    ben.screenshot(path=str(IMG / "board-phone-other-side.png"))
    expect(victory).to_have_attribute("open", "")  # still open after the board was redrawn
    assert victory.locator("form.unit").bounding_box()["y"] < 844
    anna.screenshot(path=str(IMG / "board-phone-open.png"))

    # next phase: one tap in the bar
    anna.click("nav.bar #next button")
    expect(anna.locator("[data-phase]")).to_have_text("Movement")
    expect(ben.locator("[data-phase]")).to_have_text("Movement", timeout=SYNC)

    # roll: Dice in the bar (1), d6 (2); the result is in the sheet on both phones
    anna.click("nav.bar a[href='#dice']")
    anna.click("#roll button[value^='roll expr=2d6']")
    expect(anna.locator("#result .bigdice .die")).to_have_count(2)
    box = anna.locator("#result").bounding_box()
    assert 0 <= box["y"] and box["y"] + box["height"] <= 844
    expect(ben.locator("#result .bigdice .die")).to_have_count(2, timeout=SYNC)
    anna.screenshot(path=str(IMG / "board-phone-result.png"))

    # undo: one tap for her own move
    anna.click("#undo button")
    expect(anna.locator("#result")).to_have_count(0)

    # real dice: Dice in the bar (1), type them, Record (2)
    anna.click("nav.bar a[href='#dice']")
    anna.fill("#real input[name=dice]", "6 4")
    anna.click("#real button.primary")
    expect(anna.locator("#result .total")).to_have_text("= 10")
    expect(ben.locator("#result .total")).to_have_text("= 10", timeout=SYNC)

    # draw: Cards in the bar (1), Draw (2) (the deck loaded once at set-up)
    code = anna.url.split("#")[0].rstrip("/").split("/")[-1]
    csrf = anna.locator("input[name=csrf_token]").first.get_attribute("value")
    anna.request.post(f"{live_server}/t/{code}/act", form={"csrf_token": csrf, "do": "deck-load deck=deck source=typed",
                                                           "cards_text": "Fire!\nStorm\nCalm"})
    anna.reload()
    anna.click("nav.bar a[href='#decks']")
    anna.locator("#deck-deck button", has_text="Draw").first.click()
    expect(anna.locator("#result .playing-card")).to_have_count(1)
    expect(ben.locator("#result .playing-card")).to_have_count(1, timeout=SYNC)

    # my side only: Ben sees his five
    ben.click("[data-unit-filter=mine]")
    expect(ben.locator("details.unitrow:visible")).to_have_count(5)
    expect(ben.locator("details.unitrow:visible summary .rname").first).to_have_text("Redoutable")
    ben.reload()
    expect(ben.locator("details.unitrow:visible")).to_have_count(5)  # remembered on this phone
    ben.click("[data-unit-filter=all]")
    expect(ben.locator("details.unitrow:visible")).to_have_count(10)


def test_the_board_on_a_tablet(live_server, phone):
    anna = phone()
    open_table(anna, live_server)
    fill_table(anna, live_server)
    anna.set_viewport_size({"width": 820, "height": 1180})
    row(anna, "Ajax").locator("summary.rowline").click()
    anna.click("#roll button[value^='roll expr=3d6']")
    expect(anna.locator("#result .bigdice .die")).to_have_count(3)
    assert anna.evaluate("document.documentElement.scrollWidth") <= 820
    anna.evaluate("window.scrollTo(0, 0)")
    anna.screenshot(path=str(IMG / "board-tablet.png"))
