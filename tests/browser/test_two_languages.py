"""Issue 42: two phones at one Dreadfleet table, one German, one English. Each reads the other's moves in
its own language, on the board and in the log, and its own refusals in its own language. The German words
expected are the German catalog's (companion/translations/de), drawn as the app draws them."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from companion import i18n
from companion.said import drawn
from phone_checks import open_table
from test_dreadfleet_browser import STATS, ship_row

pytestmark = pytest.mark.browser

DE = i18n.translations("de")


def de(msg: str, **args) -> str:
    return drawn({"m": msg, "a": args} if args else {"m": msg}, DE.gettext)


def put_to_sea(page, name, words=lambda msg: msg):
    card = page.locator("#df-cards form", has=page.locator("b", has_text=re.compile(f"^{re.escape(name)}$")))
    card.get_by_role("button", name=words("Put to sea")).click()
    expect(ship_row(page, name)).to_be_visible()


def saved(page, name):
    editor = page.locator("#df-editor")
    editor.locator("select[name=name]").select_option(name)
    for key, value in STATS.items():
        editor.locator(f"input[name='stats.{key}']").fill(str(value))
    editor.locator("button.primary").click()
    expect(page.locator("#df-cards")).to_contain_text(name)


def test_a_german_and_an_english_phone_each_read_the_table_in_their_own_words(live_server, phone):
    anna, ben = phone(), phone(locale="de-DE")
    url, _ = open_table(anna, live_server, "dreadfleet", "Battle of the Bay", "Grand Alliance", ready="#df-panel")
    # Ben's browser asks for German: the join page is German from the first tap
    ben.goto(url)
    expect(ben.locator("html")).to_have_attribute("lang", "de")
    ben.fill("input[name=seat]", "Ben")
    ben.check("input[name=side][value='Dreadfleet']")
    ben.get_by_role("button", name=de("Take my seat")).click()
    expect(ben.locator("#df-panel")).to_be_visible()
    expect(anna.locator("html")).to_have_attribute("lang", "en")
    assert de("Undo") != "Undo"  # (the catalog says it otherwise: the test below can tell them apart)
    expect(ben.locator("#undo button b")).to_contain_text(de("Undo"))
    expect(anna.locator("#undo button b")).to_contain_text("Undo")

    # a refusal in the refused phone's own words: a Warship card without its Speed
    for page, words in ((ben, de("%(stat)s is missing: enter it from your card.", stat=DE.gettext("Speed"))),
                        (anna, "Speed is missing: enter it from your card.")):
        editor = page.locator("#df-editor")
        editor.locator("select[name=name]").select_option("Bloody Reaver" if page is ben else "Heldenhammer")
        editor.locator("button.primary").click()
        expect(page.locator("#df-editor-err")).to_have_text(re.compile(re.escape(words)))

    # Anna's move, read by each phone in its own words: the undo line of the board ...
    saved(anna, "Heldenhammer")
    put_to_sea(anna, "Heldenhammer")
    english = "Heldenhammer (Grand Alliance) puts to sea (no auxiliary card entered)"
    german = de("%(ship)s (%(side)s) puts to sea (no auxiliary card entered)", ship="Heldenhammer", side="Grand Alliance")
    assert german != english
    expect(anna.locator("[data-undo-label]")).to_have_text(f"Anna: {english}")
    expect(ben.locator("[data-undo-label]")).to_have_text(f"Anna: {german}", timeout=5000)
    # ... and Ben's, read by Anna in English
    ben.reload()  # (the saved cards list follows the board; a reload shows the card list anew)
    saved(ben, "Bloody Reaver")
    put_to_sea(ben, "Bloody Reaver", de)
    expect(anna.locator("[data-undo-label]")).to_have_text(
        "Ben: Bloody Reaver (Dreadfleet) puts to sea (no auxiliary card entered)", timeout=5000)
    expect(ben.locator("[data-undo-label]")).to_have_text(
        "Ben: " + de("%(ship)s (%(side)s) puts to sea (no auxiliary card entered)", ship="Bloody Reaver", side="Dreadfleet"))

    # the log: every move in the reader's words, whoever made it
    for page, line in ((anna, english), (ben, german)):
        page.goto(page.url.split("?")[0].split("#")[0] + "/log")
        expect(page.locator("ol.log, ul.log").first).to_contain_text(line)
    expect(ben.locator("body")).not_to_contain_text(english)

    # the menu's switch: Ben reads English from now on, at this table and the next
    ben.go_back()
    ben.locator("nav .lang-menu summary").click()
    ben.get_by_role("button", name="English").click()
    expect(ben.locator("html")).to_have_attribute("lang", "en")
    expect(ben.locator("[data-undo-label]")).to_contain_text("puts to sea")
