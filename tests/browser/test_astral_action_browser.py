"""Astral Action on two phones (390x844): each player designs a ship and puts it on the table; Anna
seals an order that Ben's phone cannot read; the ships activate by Size; Ben attacks with entered
dice; a health row fills and a Condition is rolled; both phones agree."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from phone_checks import shots, assert_fits_a_phone, two_players

pytestmark = pytest.mark.browser
SECRET = "Mark Target"


def ship(page, name):
    """A ship's full card; its compact row on the board is opened first (issue 10)."""
    exact = re.compile(f"^{re.escape(name)}$")
    row = page.locator("details.unitrow", has=page.locator("summary .rname", has_text=exact))
    row.wait_for(state="attached")
    if row.get_attribute("open") is None:
        row.locator("summary.rowline").click()
    return page.locator("form.unit", has=page.locator("h3", has_text=exact))


def design(page, name, size, equipment):
    form = page.locator("#aa-designer")
    form.locator("input[name=name]").fill(name)
    form.locator("select[name=size]").select_option(str(size))
    form.locator("input[name='chart.miss']").fill("2")
    form.locator("input[name='chart.glance']").fill("4")
    for n, (v, m, h) in enumerate([(2, 3, 2), (3, 2, 1)]):  # the Movement Table grid, a row per Velocity
        for k, value in (("velocity", v), ("maneuver", m), ("heading", h)):
            form.locator(f"input[name='mv.{n}.{k}']").fill(str(value))
    form.locator(".aa-movegrid").scroll_into_view_if_needed()
    page.screenshot(path=str(shots("astral-action") / "designer-movement.png"))
    for n, (slot, item, arcs) in enumerate(equipment):
        form.locator(f"select[name='eq.{n}.slot']").select_option(slot)
        form.locator(f"select[name='eq.{n}.item']").select_option(item)
        for arc in arcs:
            form.locator(f"input[name='eq.{n}.arcs'][value={arc}]").check()
    expect(form.locator("#aa-check")).to_contain_text("points")
    form.get_by_role("button", name="Save the card").click()
    expect(page.locator("#aa-cards")).to_contain_text(name)


def put_on_table(page, name):
    card = page.locator("#aa-cards form", has=page.locator("b", has_text=re.compile(f"^{re.escape(name)}$")))
    card.get_by_role("button", name="Put on the table").click()
    expect(ship(page, name)).to_be_visible()


def shown(page) -> str:
    """The page without its drop-down lists (the list of Orders names every Order)."""
    return re.sub(r"<select\b.*?</select>", "", page.content(), flags=re.S)


def agree(anna, ben):
    """Both phones show the same event number (the poll brings the slower one up to date)."""
    seq = str(max(int(p.locator("#board").get_attribute("data-seq")) for p in (anna, ben)))
    for page in (anna, ben):
        expect(page.locator("#board")).to_have_attribute("data-seq", seq, timeout=5000)


def test_a_turn_of_astral_action_on_two_phones(live_server, phone, tmp_path):
    anna, ben = phone(), phone()
    two_players(anna, ben, live_server, "astral-action", "Astral skirmish", ("Player 1", "Player 2"))

    # each player designs a ship (the live check shows the points) and puts it on the table
    design(anna, "Falcon", 2, [("primary", "kinetic", "F"), ("secondary", "shields", "")])
    expect(anna.locator("#aa-cards")).to_contain_text("90 pts")  # 60 + 20 + 10 (L399-L401)
    put_on_table(anna, "Falcon")
    # Falcon has reached Ben's board, and the refresh of his helpers it starts has landed (a tap during
    # it goes to the helpers being replaced)
    expect(ben.locator("#unit-options option", has_text="Falcon")).to_have_count(1, timeout=8000)
    ben.wait_for_timeout(1500)
    bad = ben.locator("#aa-designer")
    bad.locator("input[name=name]").fill("Raven")
    # the designer starts from the card this table saved last (Anna's): Ben's card has no chart yet
    bad.locator("input[name='chart.miss']").fill("")
    bad.locator("input[name='chart.glance']").fill("")
    bad.get_by_role("button", name="Save the card").click()
    expect(ben.locator("#aa-designer-err")).to_contain_text("Enter the Miss/Glance/Hit chart from your card")
    design(ben, "Raven", 1, [("primary", "kinetic", "F")])
    put_on_table(ben, "Raven")
    agree(anna, ben)

    # Command phase: Anna seals an order for the Falcon; Ben's phone shows only that it exists
    falcon = ship(anna, "Falcon")
    falcon.locator("select[name=order]").select_option(SECRET)
    expect(falcon.locator("input[name=hidden]")).to_be_checked()
    falcon.get_by_role("button", name="Give order").click()
    expect(anna.locator("[data-sealed=s1]")).to_contain_text(SECRET)
    agree(anna, ben)
    ship(ben, "Falcon")  # Ben opens the Falcon's row: its card shows that an order is sealed
    expect(ben.locator("[data-sealed=s1]")).to_contain_text("Sealed order")
    assert SECRET not in ben.locator("[data-sealed=s1]").inner_text()
    ship(ben, "Falcon").scroll_into_view_if_needed()
    ben.screenshot(path="/tmp/astral-ben-sealed.png")
    anna.locator("[data-sealed=s1]").scroll_into_view_if_needed()
    anna.screenshot(path="/tmp/astral-anna-sealed.png")
    assert SECRET not in shown(ben)
    ben.goto(ben.url.split("#")[0].rstrip("/") + "/log")
    expect(ben.locator("ol.log")).to_contain_text("Anna sealed an order for Falcon")
    assert SECRET not in shown(ben)
    ben.go_back()
    ship(ben, "Raven").get_by_role("button", name="Command Token").click()
    expect(ship(ben, "Raven")).to_contain_text("Command Token")

    # Activation: Size 1 first (Raven), then the largest Size (Falcon)
    anna.click("#turn button.primary")
    expect(anna.locator("#turn [data-phase]")).to_have_text("Activation")
    expect(ben.locator("#aa-whose")).to_contain_text("Player 2 activates · Size 1", timeout=5000)
    ship(anna, "Falcon").get_by_role("button", name="Activate Falcon").click()
    expect(anna.locator("#" + ship(anna, "Falcon").get_attribute("id") + "-err")).to_contain_text(
        "Size 1 ships activate now")
    ship(ben, "Raven").get_by_role("button", name="Activate Raven").click()
    expect(ben.locator("#aa-whose")).to_contain_text("Player 1 activates · Size 2")

    # Ben attacks with real dice: the odds first, then the result where he can apply it
    form = ben.locator("#aa-attack")
    form.locator("select[name=shot]").select_option(label="Raven: Primary Kinetic F")
    form.locator("select[name=target]").select_option(label="Falcon (Player 1)")
    expect(ben.locator("#aa-odds")).to_contain_text("Hit 50%")  # d6 + (2 - 1) vs miss ≤2, glance ≤4
    form.locator("input[name=dice]").fill("6 6")
    form.get_by_role("button", name="Attack").click()
    expect(ben.locator("#aa-pending")).to_contain_text("HIT")
    # the result and its Apply button come in the sheet above the bottom bar, where the thumb is (issue 10)
    expect(ben.locator("#result [data-aa-sheet]")).to_have_text("HIT · 5 damage")
    expect(ben.locator("#result")).to_be_in_viewport()
    ben.screenshot(path="/tmp/astral-ben-pending.png")
    ben.locator("#result").get_by_role("button", name=re.compile("Apply 5 damage")).click()
    # Accuracy roll 6 > the 5 undamaged Shield boxes: the Shields are ignored (L196)
    expect(ship(anna, "Falcon").locator(".aa-trackrow.health").first).to_contain_text("5", timeout=5000)

    # damage by hand (a PWS exchange) fills the first health row: Anna rolls the Condition with her own dice
    ship(anna, "Falcon").get_by_role("button", name="Activate Falcon").click()
    anna.locator("#aa-damage-card summary").click()
    damage = anna.locator("#aa-damage")
    damage.locator("select[name=unit]").select_option(label="Falcon")
    damage.locator("input[name=amount]").fill("10")  # 5 to the Shields first, 5 to the first row
    damage.locator("input[name=why]").fill("PWS exchange")
    damage.get_by_role("button", name="Apply damage").click()
    falcon = ship(anna, "Falcon")
    expect(falcon).to_contain_text("1 Condition to roll")
    falcon.locator("input[name=dice]").fill("3 4")
    falcon.get_by_role("button", name="Roll Condition").click()
    expect(ship(anna, "Falcon")).to_contain_text("7: Serious Damage")
    ship(anna, "Falcon").get_by_role("button", name="Apply", exact=True).click()
    expect(ship(ben, "Falcon").locator(".aa-conds")).to_contain_text("Serious Damage", timeout=5000)
    expect(ship(ben, "Falcon").locator(".aa-trackrow.health").nth(1)).to_contain_text("8")  # 10 - 2 (L100)
    agree(anna, ben)
    assert SECRET not in shown(ben)

    anna.set_viewport_size({"width": 390, "height": 844})
    anna.locator("#board").scroll_into_view_if_needed()
    anna.evaluate("window.scrollTo(0, 0)")
    anna.screenshot(path=str(tmp_path / "astral-board.png"))
    anna.screenshot(path="/tmp/astral-board-full.png", full_page=True)
    anna.screenshot(path="/tmp/astral-board.png")
    ship(anna, "Falcon").screenshot(path="/tmp/astral-falcon.png")
    ben.locator("#aa-attack-card").screenshot(path="/tmp/astral-attack.png")
    ben.locator("#aa-ships").screenshot(path="/tmp/astral-designer.png")
    assert_fits_a_phone(anna)


def test_a_reading_changed_in_the_settings_shows_at_once_and_can_be_changed_back(live_server, phone):
    """The Readings card is one of the helpers below the board: a setting tapped there must show its new
    reading at once (it stayed on the old one, and its button offered the same change again), its section
    stays open, and the other phone's helpers follow; a setting of more than two values is a select."""
    anna, ben = phone(), phone()
    two_players(anna, ben, live_server, "astral-action", "Readings", (None, "Player 2"))
    settings = anna.locator("#aa-settings")
    settings.locator("summary").click()
    ben.locator("#aa-settings summary").click()  # Ben reads the settings too
    size = settings.locator("form#aa-set-size_reading")
    expect(size.locator("p")).to_contain_text("Ship Size in the formulas: the target's")
    size.get_by_role("button", name="Use: the attacker's").click()
    expect(size.locator("p")).to_contain_text("Ship Size in the formulas: the attacker's", timeout=3000)
    expect(settings).to_have_attribute("open", "")
    expect(anna.locator(".aa-readings")).to_contain_text("the attacker's Ship Size")
    size.get_by_role("button", name="Use: the target's").click()  # and back again
    expect(size.locator("p")).to_contain_text("Ship Size in the formulas: the target's", timeout=3000)
    expect(anna.locator(".aa-readings")).to_contain_text("the target's Ship Size")

    beam = settings.locator("form#aa-set-beam_specialists")
    beam.locator("select[name=value]").select_option(label="the second side")
    beam.get_by_role("button", name="Use", exact=True).click()
    expect(beam.locator("p")).to_contain_text("Beam-specialist faction (optional): the second side", timeout=3000)
    expect(anna.locator(".aa-readings")).to_contain_text("Beam-specialist faction (+2 Range, Beam weapons only): Player 2.")
    expect(ben.locator(".aa-readings")).to_contain_text("Player 2.", timeout=5000)
    ben.locator("h1.tablename").click()  # his helpers follow once his thumb leaves them, still open
    expect(ben.locator("form#aa-set-beam_specialists p")).to_contain_text("the second side", timeout=5000)
    expect(ben.locator("#aa-settings")).to_have_attribute("open", "")
    assert_fits_a_phone(anna, "#aa-settings button, #aa-settings select")
