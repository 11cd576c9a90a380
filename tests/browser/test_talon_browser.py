"""Talon on two phones (390x844): a Terran CA and a Talon CA through one full round A-F (AP spent each
impulse the chart gives it, a turn and its radius, an afterburner), the Power Phase (red boxes, passive
yellow, the curve one row), then round 2: a reinforced arc expiring, weapon groups fired with entered dice,
a critical box rolled.  The other phone sees each change."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from phone_checks import assert_fits_a_phone, two_players

pytestmark = pytest.mark.browser
PHONES = []


def row_of(page, name):
    return page.locator("details.unitrow", has=page.locator("summary .rname", has_text=re.compile(f"^{re.escape(name)}$")))


def ship(page, name):
    """The ship's card; its row on the board is unfolded first (rows start closed)."""
    row = row_of(page, name)
    if row.count() and row.get_attribute("open") is None:
        row.locator("summary .rname").click()
    return page.locator("form.unit", has=page.locator("h3", has_text=re.compile(f"^{re.escape(name)}$")))


def tap(page, name, button):
    """One tap on a ship's card; waits for the table to move on (the board comes back with a new seq)."""
    old = page.locator("#board").get_attribute("data-seq")
    ship(page, name).get_by_role("button", name=button, exact=True).click()
    expect(page.locator("#board")).not_to_have_attribute("data-seq", old)


SHOWN = """b => { const c = b.cloneNode(true);
  c.querySelectorAll('details').forEach(d => [...d.children].forEach(k => { if (k.tagName !== 'SUMMARY') k.remove(); }));
  c.querySelectorAll('input, select, textarea').forEach(i => i.remove());
  return c.textContent.replace(/\\s+/g, ' ').trim(); }"""


def agree(anna, ben):
    seq = anna.locator("#board").get_attribute("data-seq")
    expect(ben.locator("#board")).to_have_attribute("data-seq", seq, timeout=5000)
    expect(anna.locator("#board")).to_have_attribute("data-seq", seq)
    # the same board on both phones; which sections each phone has open is its own (kept across redraws)
    assert anna.locator("#board").evaluate(SHOWN) == ben.locator("#board").evaluate(SHOWN)


def next_phase(page, name):
    page.click("#turn button.primary")
    expect(page.locator("#turn [data-phase]")).to_have_text(name)
    other = PHONES[1] if page == PHONES[0] else PHONES[0]
    expect(other.locator("#turn [data-phase]")).to_have_text(name, timeout=5000)  # the other phone follows


def add_ship(page, cls, name):
    form = page.locator("#tl-fleet")
    form.locator("select[name=cls]").select_option(cls)
    form.locator("input[name=name]").fill(name)
    form.get_by_role("button", name="Add ship").click()
    expect(row_of(page, name)).to_be_visible()
    expect(page.locator("#tl-fleet input[name=name]")).to_have_value("")  # it belonged to the last ship


def test_a_round_of_talon_on_two_phones(live_server, phone):
    anna, ben = phone(), phone()
    PHONES[:] = [anna, ben]
    two_players(anna, ben, live_server, "talon", "War is upon us", ("Terran", "Talon"), ready="#tl-panel")

    add_ship(anna, "terran-ca", "Zhukov")
    expect(row_of(ben, "Zhukov")).to_be_visible(timeout=5000)  # Ben's board has Anna's ship before he types
    add_ship(ben, "talon-ca", "Justice")
    expect(row_of(anna, "Justice")).to_be_visible(timeout=5000)
    expect(ship(anna, "Zhukov").locator("[data-tl-curve]")).to_have_text("3-3-2")  # seed 003 5.4.1
    expect(ship(ben, "Justice").locator("[data-tl-curve]")).to_have_text("3-3-1")
    # the schedule reads the Impulse Chart: 3-3-x gets AP and moves in B, D, F
    expect(anna.locator("[data-tl-sched=Zhukov] td.now")).to_have_text("")
    expect(anna.locator("[data-tl-initiative]")).to_have_text("Talon")
    agree(anna, ben)
    assert_fits_a_phone(anna)
    anna.set_viewport_size({"width": 390, "height": 844})

    # --- round 1 -------------------------------------------------------------------------------
    next_phase(ben, "A · other player")
    next_phase(anna, "B · initiative player")
    expect(anna.locator("[data-tl-now]")).to_contain_text("Impulse B · Talon's turn")
    tap(ben, "Justice", "Reinforce Fwd")
    expect(ship(anna, "Justice").locator(".tl-arc[data-arc=F]")).to_contain_text("+R→B", timeout=5000)
    expect(ship(ben, "Justice").get_by_role("button", name="Yellow G1")).to_have_count(0)  # 1 AP per impulse
    tap(ben, "Justice", "Straight")
    expect(ship(ben, "Justice").locator("[data-tl-result]")).to_contain_text("Justice moves straight")
    next_phase(ben, "B · other player")
    tap(anna, "Zhukov", "Yellow G1")
    tap(anna, "Zhukov", "Turn")
    expect(ship(ben, "Zhukov").locator("[data-tl-wait]")).to_have_text("2 straight before a turn", timeout=5000)
    expect(ship(anna, "Zhukov").locator("[data-tl-group='1']")).to_have_text("Group 1: red 0/1 · yellow 1/1")
    next_phase(anna, "C · initiative player")
    next_phase(anna, "C · other player")  # 3-3-x: nothing in C
    next_phase(anna, "D · initiative player")
    tap(ben, "Justice", "Yellow G1")
    tap(ben, "Justice", "Straight")
    next_phase(ben, "D · other player")
    tap(anna, "Zhukov", "Power through turn")
    expect(ship(anna, "Zhukov").locator("[data-tl-wait]")).to_have_text("1 straight before a turn")
    expect(ship(anna, "Zhukov").get_by_role("button", name="Turn")).to_be_disabled()
    tap(anna, "Zhukov", "Straight")
    expect(ship(ben, "Zhukov")).to_contain_text("free to turn", timeout=5000)
    next_phase(anna, "E · initiative player")
    ship(ben, "Justice").get_by_label("how the afterburner moves it").select_option("straight")
    tap(ben, "Justice", "Afterburner: 1 hex (2 left)")  # E holds only 6: the afterburner moves it
    expect(ship(anna, "Justice")).to_contain_text("afterburners 1/2", timeout=5000)
    next_phase(ben, "E · other player")
    next_phase(anna, "F · initiative player")
    tap(ben, "Justice", "Yellow G1")
    tap(ben, "Justice", "Straight")
    next_phase(ben, "F · other player")
    tap(anna, "Zhukov", "Yellow G3")
    tap(anna, "Zhukov", "Straight")
    agree(anna, ben)

    # --- Power Phase: red boxes charge, passive yellow, the curve one row ------------------------
    next_phase(anna, "Power Phase")
    expect(ben.locator("#turn .reminders")).to_contain_text("Zhukov: 3 red boxes charged.", timeout=5000)
    expect(ship(anna, "Zhukov").locator("[data-tl-group='1']")).to_have_text("Group 1 ready")
    tap(anna, "Zhukov", "Slower 4-2-1")
    expect(ship(ben, "Zhukov").locator("[data-tl-curve]")).to_have_text("4-2-1", timeout=5000)
    expect(ship(anna, "Zhukov")).to_contain_text("Curve changed this Power Phase.")
    tap(ben, "Justice", "Yellow G1")
    tap(ben, "Justice", "Yellow G1")
    expect(ship(anna, "Justice").locator("[data-tl-group='1']")).to_have_text("Group 1 ready", timeout=5000)
    agree(anna, ben)

    # --- round 2: fire with entered dice; the reinforcement absorbs once its points are set -----
    next_phase(ben, "A · initiative player")
    expect(anna.locator("#turn .round")).to_have_text("Round 2")
    assert_fits_a_phone(ben)  # the fire form, odds and tags on a 360-390 px phone
    ben.set_viewport_size({"width": 390, "height": 844})
    card = ship(ben, "Justice")
    card.locator("select[name=target]").select_option(label="Zhukov")
    card.locator("input[name=range]").fill("2")
    card.locator("select[name=arc]").select_option("F")
    expect(card.locator(".tl-odds")).to_contain_text("G1 r2: 2 on 2-6 · avg 3.33")
    card.locator("input[name=dice]").fill("5 1")
    # seed 003 5.3.1: G1's arrows are forward and left; a target on Justice's right is refused by the form
    card.locator("input[name=in_arc][value=R]").check()
    card.get_by_role("button", name="Fire").click()
    expect(ben.locator("#" + card.get_attribute("id") + "-err")).to_contain_text(
        "Group 1 fires only into Justice's forward or left arcs; Zhukov is in its right arc.")
    expect(ship(ben, "Justice").locator("input[name=dice]")).to_have_value("5 1")  # refused: the dice stay
    card = ship(ben, "Justice")
    card.locator("input[name=in_arc][value=F]").check()
    card.get_by_role("button", name="Fire").click()
    result = ship(ben, "Justice").locator("[data-tl-result]")
    expect(result).to_contain_text("2+0 = 2 damage: 2 on forward shields")
    expect(result).to_be_in_viewport()
    expect(ship(ben, "Justice").locator("input[name=dice]")).to_have_count(0)  # group spent: no fire form now
    expect(ship(anna, "Zhukov").locator(".tl-arc[data-arc=F]")).to_have_text("Fwd 4", timeout=5000)
    next_phase(ben, "A · other player")
    tap(anna, "Zhukov", "Yellow G2")  # 4-2-1 gets AP in A
    card = ship(anna, "Zhukov")
    card.locator("select[name=group]").select_option("1")
    card.locator("input[name=range]").fill("2")
    card.locator("select[name=arc]").select_option("F")
    card.locator("input[name=in_arc][value=F]").check()
    card.locator("input[name=dice]").fill("5")
    card.get_by_role("button", name="Fire").click()
    expect(anna.locator("#" + ship(anna, "Zhukov").get_attribute("id") + "-err")).to_contain_text(
        "Set how many points a Shield Reinforcement absorbs")
    expect(ship(anna, "Zhukov").locator("input[name=dice]")).to_have_value("5")  # refused: the dice stay
    tools = anna.locator("#tl-rules")
    tools.locator("input[name=value]").fill("1")
    tools.get_by_role("button", name="Reinforcement points").click()
    expect(anna.locator("[data-tl-reinforce]")).to_have_text("1")
    card = ship(anna, "Zhukov")
    card.locator("select[name=group]").select_option("1")
    card.locator("input[name=range]").fill("2")
    card.locator("select[name=arc]").select_option("F")
    card.locator("input[name=in_arc][value=F]").check()
    card.locator("input[name=dice]").fill("5")
    card.get_by_role("button", name="Fire").click()
    expect(ship(anna, "Zhukov").locator("[data-tl-result]")).to_contain_text(
        "2 damage: 1 on the reinforcement, 1 on forward shields")
    expect(ship(ben, "Justice").locator(".tl-arc[data-arc=F]")).to_contain_text("Fwd 6", timeout=5000)

    # B: the reinforcement placed in impulse B of round 1 comes off as Talon's turn begins
    next_phase(anna, "B · initiative player")
    expect(ben.locator("#turn .reminders")).to_contain_text("Justice: forward Shield Reinforcement expires",
                                                            timeout=5000)
    expect(ship(ben, "Justice").locator(".tl-arc[data-arc=F]")).not_to_contain_text("+R")

    # a critical hull box: other damage to the hull, then 2D6 entered on the Critical Damage Table
    damage = ship(anna, "Justice").locator("[data-tl-damage]")  # other damage, in the card itself
    damage.locator("input[name=amount]").fill("3")
    damage.get_by_role("button", name="Hull").click()
    expect(ship(ben, "Justice")).to_contain_text("critical box: roll 2D6", timeout=5000)
    card = ship(ben, "Justice")
    card.locator("input[name=crit_dice]").fill("2 2")
    card.get_by_role("button", name="Roll 2D6").click()
    expect(ship(ben, "Justice").locator("[data-tl-result]")).to_contain_text("critical 2+2 = 4: Helm Down")
    expect(ship(ben, "Justice").locator("input[name=crit_dice]")).to_have_count(0)
    expect(ship(anna, "Justice")).to_contain_text("Helm Down", timeout=5000)
    expect(ship(ben, "Justice").locator("[data-tl-hull]")).to_have_text("4")
    expect(ship(ben, "Justice").get_by_role("button", name="Turn")).to_be_disabled()
    agree(anna, ben)
    anna.screenshot(path="/tmp/tl/browser-anna.png")
