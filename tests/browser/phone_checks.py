"""Checks every phone-sized page must pass, and the steps most browser tests start with: a table
created on the front page, its board, a second phone taking a seat."""
from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path

from playwright.sync_api import expect

CHROMIUM = "/usr/bin/chromium"  # Debian's Chromium, never a downloaded build
PHONE = {"width": 390, "height": 844}


def assert_fits_a_phone(page, controls: str = "#board button, #board select") -> None:
    """No sideways scrolling at 360 and 390 px, and every control at least 44 px both ways."""
    for width in (360, 390):
        page.set_viewport_size({"width": width, "height": 800})
        assert page.evaluate("document.documentElement.scrollWidth") <= width
    small = page.evaluate("""(sel) => [...document.querySelectorAll(sel)]
        .filter(b => b.offsetParent && !b.closest('.chip') && (b.getBoundingClientRect().height < 44 || b.getBoundingClientRect().width < 44))
        .map(b => b.outerHTML.slice(0, 80))""", controls)
    assert small == []


def shots(game: str) -> Path:
    """Where a browser test saves its screenshots for people to look at: $COMPANION_SHOTS/<game>
    (e.g. COMPANION_SHOTS=docs/img to refresh the pictures in the docs), else a temporary folder, so a
    test run never changes the checkout."""
    root = os.environ.get("COMPANION_SHOTS") or os.path.join(tempfile.gettempdir(), "companion-shots")
    folder = Path(root) / game
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def create_table(page, base, system="freeform", name="Harbour fight", seat="Anna", side=None, typed_sides=None):
    """A phone creates a table on the front page (its own sides typed, its seat on ``side``, else the
    first side) and the invitation's QR shows: the player and spectator URLs."""
    page.goto(base + "/")
    page.select_option("select[name=system]", system)
    page.fill("input[name=name]", name)
    if typed_sides:
        page.fill("#new-table input[name=sides]", typed_sides)
    page.fill("#new-table input[name=seat]", seat)
    if side:
        page.select_option("#new-table select[name=side]", side)
    page.click("text=Create table")
    expect(page.locator("#qr-player svg")).to_be_visible()
    return page.locator("#player-url").inner_text(), page.locator("#spectator-url").inner_text()


def join(page, url, seat, side=None, ready="#board"):
    """A phone opens the invitation's URL, takes a seat (on ``side``) and waits for ``ready`` to show."""
    page.goto(url)
    page.fill("input[name=seat]", seat)
    if side:
        page.check(f"input[name=side][value='{side}']")
    page.click("text=Take my seat")
    expect(page.locator(ready)).to_be_visible()


def open_table(page, base, system="freeform", name="Harbour fight", side=None, typed_sides=None, ready="#board",
               seat="Anna"):
    """Anna creates a table and goes to its board (``ready``, a game's panel, shows): the player and
    spectator URLs."""
    urls = create_table(page, base, system, name, seat, side, typed_sides)
    page.click("text=Go to the board")
    expect(page.locator(ready)).to_be_visible()
    return urls


def two_players(anna, ben, base, system="freeform", name="Harbour fight", sides=(None, "Side B"),
                typed_sides=None, ready="#board"):
    """Anna creates the table on the first of ``sides`` (None: the game's first side) and goes to its
    board, Ben joins on the second; both wait for ``ready``. The player URL."""
    url, _ = open_table(anna, base, system, name, sides[0], typed_sides, ready)
    join(ben, url, "Ben", sides[1], ready)
    return url


def open_card(page, name: str, exact: bool = False):
    """A unit's row opened as a player opens it (a tap on its summary), once its card is in: a phone
    gets a unit's card only for a row it has open (companion/board). The row's locator."""
    rname = page.locator("summary .rname", has_text=re.compile(f"^{re.escape(name)}$") if exact else name)
    row = page.locator("details.unitrow", has=rname)
    if row.get_attribute("open") is None:
        row.locator("summary.rowline").click()
    expect(row.locator(":scope > .unitcard:not([data-lazy]) form.unit")).to_be_attached()
    return row
