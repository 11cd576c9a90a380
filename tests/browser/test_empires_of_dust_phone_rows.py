"""Empires of Dust one-handed on two phones at 390x844 (issue 10): two average fleets as closed rows
within two screens, a 10-damage hit in two taps, "Fire" on a row opening the attack helper with the
ship chosen, the Fire keeping its place on screen with the result in the sheet on both phones, the
helper's one-shot inputs emptied, next phase and undo in one tap each."""
from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from phone_checks import PHONE, shots
from test_empires_of_dust_browser import at_the_table
from test_phone_result_sheets import assert_readable

pytestmark = pytest.mark.browser
SYNC = 4000
SHOTS = shots("empires-of-dust")


def row(page, side, name):
    section = page.locator(f"section.side[aria-label='{side}']")
    return section.locator("details.unitrow", has=page.locator("summary .rname", has_text=name)).first


class Taps:
    """Counts a phone's taps for one move, and checks each tapped control did not move on screen."""

    def __init__(self, page):
        self.page, self.count = page, 0

    def __call__(self, locator, stays=True):
        locator.scroll_into_view_if_needed()
        before = locator.bounding_box()
        locator.click()
        self.count += 1
        if stays:
            self.page.wait_for_timeout(1200)  # the board's answer, and the helper redrawn after it
            expect(locator).to_be_visible()
            after = locator.bounding_box()
            assert after is not None and abs(after["y"] - before["y"]) <= 4, (before, after)

    def move(self):
        n, self.count = self.count, 0
        return n


def in_viewport(page, locator):
    box = locator.bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + min(box["height"], 80) <= PHONE["height"]


def covered(page, selector):
    """What lies over the centre of the element (the result sheet, the bar), or None: tappable there."""
    return page.evaluate("""(sel) => { const el = document.querySelector(sel), r = el.getBoundingClientRect();
        const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return top && (top === el || el.contains(top)) ? null : (top ? top.outerHTML.slice(0, 80) : 'off screen'); }""", selector)


def board_length(page):
    """Top of the page to the bottom of the last unit row (the board a player works on)."""
    return page.evaluate("""() => { const rows = [...document.querySelectorAll('details.unitrow')];
        return rows[rows.length - 1].getBoundingClientRect().bottom + window.scrollY; }""")


def test_two_average_fleets_on_two_phones_one_handed(live_server, phone):
    SHOTS.mkdir(parents=True, exist_ok=True)
    anna, ben = phone(), phone()
    at_the_table(anna, ben, live_server)
    anna.select_option("#eod-average select[name=side]", "Fleet 1")
    anna.click("#eod-average button.primary")
    expect(anna.locator("details.unitrow")).to_have_count(4)
    ben.click("#eod-average button.primary")
    for page in (anna, ben):
        expect(page.locator("details.unitrow")).to_have_count(8, timeout=SYNC)
    anna.locator("#eod-initiative select[name=mode]").select_option("rotating")
    anna.click("#eod-initiative button[value=eod-initiative]")
    expect(anna.locator("#eod-panel [data-next]")).to_contain_text("moves")
    tap = Taps(anna)

    # next phase: one tap in the bottom bar
    tap(anna.locator("nav.bar #next button"), stays=False)
    expect(anna.locator("#turn [data-phase]")).to_have_text("Combat")
    expect(ben.locator("#turn [data-phase]")).to_have_text("Combat", timeout=SYNC)
    assert tap.move() == 1

    # two average fleets, every row closed: the board fits two phone screens (issue: 6,800 px)
    expect(anna.locator("details.unitrow[open]")).to_have_count(0)
    length = board_length(anna)
    assert length <= 2 * PHONE["height"], length
    anna.evaluate("window.scrollTo(0, 0)")
    anna.screenshot(path=str(SHOTS / "board-rows-closed.png"))

    # a 10-damage hit: open the row (1), type 10, Damage (2); the row says 70/80 on both phones
    battleship = row(anna, "Fleet 2", "Avg. B.")
    tap(battleship.locator("summary.rowline"))
    battleship.locator("input[name=amount]").fill("10")
    tap(battleship.locator("button", has_text="Damage"))
    expect(battleship.locator("[data-row-hp]")).to_have_text("HP 70/80")
    expect(row(ben, "Fleet 2", "Avg. B.").locator("[data-row-hp]")).to_have_text("HP 70/80", timeout=SYNC)
    expect(battleship).to_have_attribute("open", "")
    expect(battleship.locator("input[name=amount]")).to_have_value("")  # that hit is spent
    assert tap.move() == 2
    anna.screenshot(path=str(SHOTS / "board-row-open.png"))

    # undo her own move: one tap
    tap(anna.locator("#undo button"), stays=False)
    expect(battleship.locator("[data-row-hp]")).to_have_text("HP 80/80")
    expect(row(ben, "Fleet 2", "Avg. B.").locator("[data-row-hp]")).to_have_text("HP 80/80", timeout=SYNC)
    assert tap.move() == 1

    # the signature procedure: Fire on the closed row of Avg. D. (1) opens the attack helper with it
    # chosen and an enemy aimed at; distance and the real D20 typed; Fire (2). Laser 10 against
    # reflective 5: D20 > 6, rolled 15: 10 damage (seed 001, Armour Penetration)
    destroyer = row(anna, "Fleet 1", "Avg. D.")
    tap(destroyer.locator("xpath=..").locator("a", has_text="Fire"), stays=False)
    helper = anna.locator("#eod-attack")
    expect(helper.locator("select[name=attacker]")).to_have_value("u2")
    expect(helper.locator("select[name=target]")).to_have_value("u5")  # Fleet 2's Avg. F.
    assert in_viewport(anna, anna.locator("#eod-attack-card h2"))
    expect(destroyer).not_to_have_attribute("open", "")  # the tap went to the helper, not the row
    helper.locator("input[name=distance]").fill("20")
    expect(anna.locator("#eod-preview [data-hit=u5] [data-need]")).to_have_text("D20 > 6")
    helper.locator("input[name=rolled]").fill("15")
    fire = anna.locator("#eod-fire")
    tap(fire)  # asserts the Fire button is where it was (the page used to jump to the bottom)
    sheet = anna.locator("#result")
    expect(sheet).to_contain_text("rolled 15: 10 damage")
    assert_readable(anna)  # whole on the phone that made it (issue 28 §2)
    assert in_viewport(anna, sheet)
    assert covered(anna, "#eod-fire") is None  # the sheet came above the bar, the next Fire is still in reach
    expect(ben.locator("#result")).to_contain_text("rolled 15: 10 damage", timeout=SYNC)
    expect(row(ben, "Fleet 2", "Avg. F.").locator("[data-row-hp]")).to_have_text("HP 10/20")
    expect(helper.locator("input[name=rolled]")).to_have_value("")  # dice nobody rolled never feed the next shot
    expect(helper.locator("input[name=distance]")).to_have_value("")
    expect(destroyer.locator("[data-row-fired]")).to_be_visible()
    assert tap.move() == 2
    anna.screenshot(path=str(SHOTS / "board-result.png"))
    ben.screenshot(path=str(SHOTS / "board-result-other-phone.png"))

    # on a tablet the same board, nothing wider than the screen
    anna.set_viewport_size({"width": 820, "height": 1180})
    anna.evaluate("window.scrollTo(0, 0)")
    assert anna.evaluate("document.documentElement.scrollWidth") <= 820
    anna.screenshot(path=str(SHOTS / "board-tablet.png"))
