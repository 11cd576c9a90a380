"""Set-up without copying cards on a phone (390x844, issue 28 §6): a Warship card typed with the
steppers alone, the editor starting from the last card after a reload, Astral Action's designer keeping
the numbers for the next ship, and a saved fleet shared as a QR that a phone at another table of the
server opens and saves in one tap (a damaged link refused in one sentence)."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from phone_checks import assert_fits_a_phone, open_table, shots
from test_phone_axe import axe_scan

pytestmark = pytest.mark.browser

STEPPERS = ".stepper button"


def tap_to(page, field, value: int) -> None:
    """Tap the field's + (or −) until it shows ``value``, as a thumb does."""
    wrap = field.locator("xpath=..")
    for _ in range(25):
        now = field.input_value()
        if now == str(value):
            return
        up = not now or int(now) < value
        wrap.locator("button", has_text="+" if up else "\u2212").click()
    raise AssertionError(f"{field} never reached {value}")


def test_a_warship_card_typed_with_steppers_then_the_next_starts_from_it(live_server, phone):
    anna = phone()
    open_table(anna, live_server, "dreadfleet", "Steppers", ready="#df-panel")
    editor = anna.locator("#df-editor")
    editor.locator("select[name=name]").select_option("Heldenhammer")
    # an empty characteristic starts at its lowest value (Armour 1, from content/dreadfleet/system.toml)
    armour = editor.locator("input[name='stats.armour']")
    armour.locator("xpath=..").locator("button", has_text="+").click()
    expect(armour).to_have_value("1")
    armour.locator("xpath=..").locator("button", has_text="\u2212").click()
    expect(armour).to_have_value("1")  # not below the limit
    editor.locator("label.field:has(input[name='stats.armour']) > span:not(.stepper)").click()  # a tap on the word "Armour"
    expect(armour).to_have_value("1")  # moves no stepper
    expect(armour).to_be_focused()
    stats = {"speed": 6, "handling": 3, "broadside": 4, "armour": 5, "hull": 8, "crew": 4, "command": 4,
             "swashbuckling": 3}
    for key, value in stats.items():
        tap_to(anna, editor.locator(f"input[name='stats.{key}']"), value)
    for key, value in {"speed": 5, "broadside": 2, "armour": 5, "hull": 2, "crew": 2}.items():
        tap_to(anna, editor.locator(f"input[name='aux.{key}']"), value)
    editor.locator("input[name=sail]").check()
    editor.locator("input[name='stats.speed']").scroll_into_view_if_needed()
    anna.screenshot(path=str(shots("dreadfleet") / "editor-steppers.png"))
    axe_scan(anna, "the fleet editor with steppers")
    assert_fits_a_phone(anna, "#df-editor .stepper button, #df-editor button.primary")
    editor.get_by_role("button", name="Save Warship card").click()
    expect(anna.locator("#df-cards")).to_contain_text("Heldenhammer")
    # a reload (or the next game at this table): the editor starts from that card, the next warship chosen
    anna.reload()
    editor = anna.locator("#df-editor")
    expect(editor.locator("select[name=name]")).to_have_value("Flaming Scimitar")
    expect(editor.locator("input[name='stats.hull']")).to_have_value("8")
    expect(editor).to_contain_text("Started from your last card, the Heldenhammer")

    # Share (QR): the saved cards as a QR and its link
    anna.locator("#df-cards").get_by_role("link", name="Share (QR)").click()
    expect(anna.locator("#df-share svg")).to_be_visible()
    anna.locator("#df-share").scroll_into_view_if_needed()
    anna.screenshot(path=str(shots("dreadfleet") / "share-qr.png"))
    assert anna.evaluate("document.documentElement.scrollWidth") <= 390


def test_the_ship_designer_steps_its_chart_and_keeps_the_numbers_for_the_next_ship(live_server, phone):
    anna = phone()
    open_table(anna, live_server, "astral-action", "Designer", ready="#board")
    form = anna.locator("#aa-designer")
    form.locator("input[name=name]").fill("Falcon")
    form.locator("select[name=size]").select_option("2")
    miss, glance = form.locator("input[name='chart.miss']"), form.locator("input[name='chart.glance']")
    tap_to(anna, miss, 2)
    tap_to(anna, glance, 4)
    for n, (v, m, h) in enumerate([(2, 3, 2), (3, 2, 1)]):  # the Movement Table grid, a row per Velocity
        for k, value in (("velocity", v), ("maneuver", m), ("heading", h)):
            form.locator(f"input[name='mv.{n}.{k}']").fill(str(value))
    form.locator("select[name='eq.0.item']").select_option("kinetic")
    form.locator("input[name='eq.0.arcs'][value=F]").check()
    expect(form.locator("#aa-check")).to_contain_text("points")
    miss.scroll_into_view_if_needed()
    anna.screenshot(path=str(shots("astral-action") / "designer-steppers.png"))
    axe_scan(anna, "the designer with steppers")
    assert_fits_a_phone(anna, "#aa-designer .stepper button, #aa-designer button.primary")
    form.get_by_role("button", name="Save the card").click()
    expect(anna.locator("#aa-cards")).to_contain_text("Falcon")
    # the next ship: the name is empty (saving must not replace the Falcon), the numbers stay
    expect(form.locator("input[name=name]")).to_have_value("")
    expect(miss).to_have_value("2")
    expect(form.locator("input[name='mv.1.maneuver']")).to_have_value("2")
    anna.reload()
    form = anna.locator("#aa-designer")
    expect(form.locator("input[name='chart.glance']")).to_have_value("4")
    expect(form).to_contain_text("Started from your last card, Falcon")


def test_a_fleet_shared_by_qr_is_saved_at_another_table_in_one_tap(live_server, phone):
    anna, ben = phone(), phone()
    open_table(anna, live_server, "empires-of-dust", "Anna's table", ready="#eod-panel")
    anna.click("#eod-designer-box > summary")
    anna.click("#eod-designer button[value='add-ship:frigate']")
    anna.fill("#eod-designer input[name='s0.name']", "Hammer")
    anna.fill("#eod-designer input[name=fleet_name]", "Strike group")
    anna.click("#eod-designer button:has-text('Save fleet')")
    saved = anna.locator("#eod-fleets form.eod-fleet", has=anna.locator("b", has_text="Strike group"))
    saved.get_by_role("link", name="Share (QR)").click()
    expect(saved.locator(".share-qr svg")).to_be_visible()
    saved.locator(".share-qr").scroll_into_view_if_needed()
    anna.screenshot(path=str(shots("empires-of-dust") / "share-qr.png"))
    axe_scan(anna, "a saved fleet's QR")
    link = saved.locator("a.share-link").inner_text()
    assert link.startswith(live_server + "/share?f=")

    # Ben plays at his own table of this server; his phone "scans" the QR (opens the link)
    open_table(ben, live_server, "empires-of-dust", "Ben's table", ready="#eod-panel", seat="Ben")
    ben_code = ben.url.rstrip("/").split("/")[-1]
    ben.goto(link)
    expect(ben.locator("#share")).to_contain_text("Strike group: 1 ship")
    axe_scan(ben, "the share page")
    ben.get_by_role("button", name=re.compile("Save at Ben's table")).click()
    expect(ben.locator(f"#share-{ben_code}-done")).to_contain_text("'Strike group'")
    ben.screenshot(path=str(shots("empires-of-dust") / "share-page.png"))
    assert ben.evaluate("document.documentElement.scrollWidth") <= 390
    assert_fits_a_phone(ben, "#share button, #share a.btn")

    # a link cut short, pasted into the import: one sentence next to the control, nothing saved
    ben.get_by_role("link", name=re.compile("Open table")).click()
    expect(ben.locator("#eod-panel")).to_be_visible()
    ben.fill("#eod-import input[name=json]", link[:-30])
    ben.locator("#eod-import").get_by_role("button", name="Import fleet").click()
    expect(ben.locator("#eod-import-err")).to_contain_text("That share link is cut short or damaged")
    expect(ben.locator("#eod-import input[name=json]")).to_have_value(link[:-30])  # what was pasted stays
    ben.locator("#eod-import").scroll_into_view_if_needed()
    ben.screenshot(path=str(shots("empires-of-dust") / "import-link.png"))
    assert ben.evaluate("document.documentElement.scrollWidth") <= 390
