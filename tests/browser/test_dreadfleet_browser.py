"""Dreadfleet on two phones (390x844): fleet editor, decks, wind, a whole turn through every phase
with a broadside (saves, Damage cards), its undo, a duel and a boarding action; both phones agree on
every number the board shows."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from phone_checks import assert_fits_a_phone, open_table, two_players


pytestmark = pytest.mark.browser

STATS = {"speed": 6, "handling": 3, "broadside": 4, "armour": 5, "hull": 10, "crew": 4, "command": 4,
         "swashbuckling": 3}
COG = {"speed": 5, "broadside": 2, "armour": 5, "hull": 2, "crew": 2}


def ship(page, name):
    """A ship's card; its compact row is opened first (as a player taps it) when it is on screen."""
    card = page.locator("form.unit", has=page.locator("h3", has_text=re.compile(f"^{re.escape(name)}$")))
    row = ship_row(page, name)  # (a phone gets the card of a row it has open only)
    if row.count() and row.is_visible() and row.get_attribute("open") is None:
        row.locator("summary.rowline").click()
        expect(row).to_have_attribute("open", "")
    return card


def ship_row(page, name):
    return page.locator("details.unitrow", has=page.locator("summary .rname", has_text=re.compile(f"^{re.escape(name)}$")))


def counter(page, name, tracker):
    return ship(page, name).locator(f".tracker[data-tracker={tracker}] [data-value]")


ALL_TEXT = """b => { const c = b.cloneNode(true);
  c.querySelectorAll('input, select, textarea, .unitcard').forEach(i => i.remove());
  return c.textContent.replace(/\\s+/g, ' ').trim(); }"""
# each unit card a phone has (a row it has open: companion/board), by id, as text
CARDS = """b => Object.fromEntries([...b.querySelectorAll('.unitcard:not([data-lazy])')].map(u => {
  const c = u.cloneNode(true);
  c.querySelectorAll('input, select, textarea').forEach(i => i.remove());
  return [u.id, c.textContent.replace(/\\s+/g, ' ').trim()]; }))"""


def agree(anna, ben):
    """Both phones show the same table: same event number, then the same text, number for number."""
    seq = anna.locator("#board").get_attribute("data-seq")
    expect(ben.locator("#board")).to_have_attribute("data-seq", seq, timeout=5000)
    expect(anna.locator("#board")).to_have_attribute("data-seq", seq)
    # every number on both phones: the board with its rows, and each unit card that both phones
    # have open (which rows a phone has open is its own; a closed row's card is not on the phone)
    assert anna.locator("#board").evaluate(ALL_TEXT) == ben.locator("#board").evaluate(ALL_TEXT)
    cards = [page.locator("#board").evaluate(CARDS) for page in (anna, ben)]
    both = cards[0].keys() & cards[1].keys()
    assert {k: cards[0][k] for k in both} == {k: cards[1][k] for k in both}


def next_phase(page, name):
    page.click("#turn button.primary")
    expect(page.locator("#turn [data-phase]")).to_have_text(name)


def save_card(page, name, aux=True):
    editor = page.locator("#df-editor")
    editor.locator("select[name=name]").select_option(name)
    for key, value in STATS.items():
        editor.locator(f"input[name='stats.{key}']").fill(str(value))
    editor.locator("input[name=sail]").check()
    if aux:
        for key, value in COG.items():
            editor.locator(f"input[name='aux.{key}']").fill(str(value))
    editor.locator("button.primary").click()
    expect(page.locator("#df-cards")).to_contain_text(name)
    # ready for the next card (issue 28 §6): the next warship chosen, this card's numbers as its start
    expect(editor.locator("input[name='stats.speed']")).to_have_value(str(STATS["speed"]))
    expect(editor.locator("select[name=name]")).not_to_have_value(name)


def put_to_sea(page, name):
    card = page.locator("#df-cards form", has=page.locator("b", has_text=re.compile(f"^{re.escape(name)}$")))
    card.get_by_role("button", name="Put to sea").click()
    expect(ship_row(page, name)).to_be_visible()
    expect(card.get_by_role("button", name="At sea")).to_be_disabled()


def test_a_turn_of_dreadfleet_on_two_phones(live_server, phone):
    anna, ben = phone(), phone()
    two_players(anna, ben, live_server, "dreadfleet", "Battle of the Bay", ("Grand Alliance", "Dreadfleet"),
                ready="#df-panel")

    # set-up: each player enters his two Warship cards in the fleet editor and puts them to sea
    save_card(anna, "Heldenhammer")
    save_card(anna, "Flaming Scimitar")
    bad = ben.locator("#df-editor")
    bad.locator("select[name=name]").select_option("Bloody Reaver")
    bad.locator("button.primary").click()
    expect(ben.locator("#df-editor-err")).to_contain_text("Speed is missing: enter it from your card.")
    save_card(ben, "Bloody Reaver")
    save_card(ben, "Shadewraith", aux=False)
    put_to_sea(anna, "Heldenhammer")
    put_to_sea(anna, "Flaming Scimitar")
    ben.reload()  # the saved cards list follows the board; a reload shows Anna's too
    put_to_sea(ben, "Bloody Reaver")
    put_to_sea(ben, "Shadewraith")
    # the cog starts docked: its warship's row says so, and the cog has no row (nor card) of its own
    expect(ship_row(anna, "Heldenhammer").locator("summary.rowline")).to_contain_text("Cog docked")
    expect(ship_row(anna, "Grand Alliance Cog (Heldenhammer)")).to_be_hidden()

    # decks from the players' own lists: every Damage card a Hull 1, every Fate card wind 2, 1 clockwise
    for deck, text in (("damage", "Hull hit; Hull; 1; x20"), ("fate", "Fair wind; 2; 1 clockwise; immediate; x10")):
        form = anna.locator("#df-deckdef")
        form.locator("select[name=deck]").select_option(deck)
        form.locator("input[name=name]").fill(f"Our {deck}")
        form.locator("textarea").fill(text)
        form.get_by_role("button", name="Save the list").click()
        anna.locator("#df-decks .df-savedcard", has_text=f"Our {deck}").get_by_role("button", name=re.compile("Load")).click()
    expect(anna.locator("#deck-damage [data-pile=draw] b")).to_have_text("20")
    expect(anna.locator("#deck-fate [data-pile=draw] b")).to_have_text("10")

    anna.locator("#df-scenario-card summary").click()
    anna.fill("#df-scenario input[name=name]", "Bay raid")
    anna.fill("#df-scenario input[name=turns]", "6")
    anna.locator("#df-scenario button").click()
    expect(anna.locator(".df-setup summary")).to_contain_text("Bay raid")
    anna.fill("#df-wind input[name=dice]", "3 4")
    anna.locator("#df-wind button").click()
    expect(ben.locator(".df-sea g.now")).to_have_attribute("data-pos", "34", timeout=5000)
    expect(ben.locator(".df-setup summary")).to_contain_text("Set-up ✓ · Bay raid")
    agree(anna, ben)

    # 1 Initiative: a roll-off with real dice; the winner goes first
    anna.fill("#df-initiative input[name=dice]", "5 2")
    anna.locator("#df-initiative button").click()
    anna.get_by_role("button", name="Grand Alliance goes first").click()
    expect(ben.locator(".df-first")).to_contain_text("Grand Alliance is first player", timeout=5000)
    next_phase(anna, "Status")
    expect(anna.locator("#turn .reminders")).to_contain_text("No red Status cards in play.")
    next_phase(anna, "Fate")

    # 3 Fate: the first player draws, then the second; each card moves the gauge on both screens
    anna.get_by_role("button", name="Grand Alliance: draw a Fate card").click()
    expect(anna.locator(".df-sea g.now")).to_have_attribute("data-pos", "35")
    ben.get_by_role("button", name="Dreadfleet: draw a Fate card").click()
    expect(anna.locator(".df-sea g.now")).to_have_attribute("data-pos", "36", timeout=5000)
    expect(anna.locator("[data-wind-strength]")).to_have_text("2")
    agree(anna, ben)
    next_phase(ben, "Action")

    # 4 Action: the Heldenhammer is activated: an order, the wind, a broadside
    expect(ship(ben, "Bloody Reaver").get_by_role("button", name="Activate the Bloody Reaver")).to_be_visible()
    ship(ben, "Bloody Reaver").get_by_role("button", name="Activate the Bloody Reaver").click()
    expect(ben.locator("#" + ship(ben, "Bloody Reaver").get_attribute("id") + "-err")).to_contain_text(
        "It is Grand Alliance's turn to activate a ship.")
    held = ship(anna, "Heldenhammer")
    held.get_by_role("button", name="Activate the Heldenhammer").click()
    held = ship(anna, "Heldenhammer")
    held.locator("select[name=order]").select_option("Hard-a-Port")
    held.locator("input[name=order_dice]").fill("5")
    held.get_by_role("button", name=re.compile("Issue")).click()
    expect(ship(anna, "Heldenhammer")).to_contain_text("Hard-a-Port issued")
    expect(anna.locator(".df-hands")).to_contain_text("Hard-a-Port → Heldenhammer")
    ship(anna, "Heldenhammer").get_by_role("button", name="side arc").click()
    expect(ship(anna, "Heldenhammer").locator("[data-df-move]")).to_have_text('Side: at least 2", up to 6"')

    shot = anna.locator("#df-shot")
    shot.locator("select[name=firer]").select_option(label="Heldenhammer (Grand Alliance)")
    shot.locator("select[name=target]").select_option(label="Bloody Reaver (Dreadfleet)")
    shot.locator("input[name=distance]").fill("19")
    shot.get_by_role("button", name="Fire the broadside").click()
    expect(anna.locator("#df-shot-err")).to_contain_text('19" is beyond the maximum range of 18"')
    shot.locator("input[name=distance]").fill("5")
    expect(anna.locator("#df-odds-shot")).to_contain_text("4 dice hit on 3+")
    expect(anna.locator("#df-odds-shot")).to_contain_text("first broadside +1")
    expect(anna.locator("#df-odds-shot [data-df-mean]")).to_have_text("1.78")
    shot.locator("input[name=dice]").fill("6 5 3 1")
    expect(anna.locator("#df-odds-shot")).to_contain_text("3 hits → now enter 3 armour saves")
    shot.locator("input[name=save_dice]").fill("5 2 1")
    shot.get_by_role("button", name="Fire the broadside").click()
    expect(counter(anna, "Bloody Reaver", "hull_damage")).to_have_text("2")
    expect(counter(ben, "Bloody Reaver", "hull_damage")).to_have_text("2", timeout=5000)
    expect(ben.locator("#rolls li").first).to_contain_text("3 hits, 1 saved → 2 Damage cards")
    expect(ben.locator("#deck-damage [data-pile=draw] b")).to_have_text("18")
    agree(anna, ben)

    # undo the broadside from the other phone: the cards go back, the roll stays, withdrawn
    expect(ben.locator("#undo button")).to_contain_text("Heldenhammer fires at the Bloody Reaver")
    ben.click("#undo button")
    expect(counter(ben, "Bloody Reaver", "hull_damage")).to_have_text("0")
    expect(counter(anna, "Bloody Reaver", "hull_damage")).to_have_text("0", timeout=5000)
    expect(anna.locator("#rolls li.withdrawn").first).to_contain_text("Heldenhammer fires")
    expect(anna.locator("#deck-damage [data-pile=draw] b")).to_have_text("20")
    agree(anna, ben)

    # fire again, the companion rolling: still the first broadside
    for field in ("dice", "save_dice", "distance"):  # they belonged to the withdrawn shot: emptied
        expect(shot.locator(f"input[name={field}]")).to_have_value("")
    shot.locator("input[name=distance]").fill("5")
    expect(anna.locator("#df-odds-shot")).to_contain_text("first broadside +1")
    shot.get_by_role("button", name="Fire the broadside").click()
    expect(anna.locator("#rolls li").first).not_to_have_class("withdrawn")
    expect(anna.locator("#rolls li").first).to_contain_text("Heldenhammer fires at the Bloody Reaver")
    fired = anna.locator("#rolls li").first.inner_text()
    cards = int(re.search(r"→ (\d+) Damage card", fired).group(1))
    expect(counter(ben, "Bloody Reaver", "hull_damage")).to_have_text(str(cards), timeout=5000)
    expect(ben.locator("#deck-damage [data-pile=draw] b")).to_have_text(str(20 - cards))
    agree(anna, ben)

    # d. Boarding: the captains' duel (real dice), then the boarding action (the companion rolls)
    board = anna.locator("#df-board")
    board.locator("label.chip", has_text="Heldenhammer").locator("input").check()
    board.locator("label.chip", has_text="Bloody Reaver").locator("input").check()
    expect(anna.locator("#df-odds-board")).to_contain_text("Boarding: Grand Alliance 4 Crew dice, Dreadfleet 4")
    board.get_by_role("button", name="2. Boarding action").click()
    expect(anna.locator("#df-board-err")).to_contain_text("Fight the captains' duel first")
    board.locator("input[name=dice]").fill("5 6 1 / 2 2 2")
    board.get_by_role("button", name="1. Captains' duel").click()
    expect(ben.locator("#rolls li").first).to_contain_text("Bloody Reaver takes a wound (Flesh Wound)", timeout=5000)
    expect(ship(ben, "Bloody Reaver").locator(".tracker[data-tracker=wounds] [data-value]")).to_have_text("1")
    board.locator("input[name=dice]").fill("")
    board.get_by_role("button", name="2. Boarding action").click()
    expect(anna.locator("#rolls li").first).to_contain_text("Boarding action: Grand Alliance")
    agree(anna, ben)

    # the other activations, alternating: the Bloody Reaver goes at Full Speed Ahead
    reaver = ship(ben, "Bloody Reaver")
    reaver.get_by_role("button", name="Activate the Bloody Reaver").click()
    reaver = ship(ben, "Bloody Reaver")
    reaver.locator("select[name=order]").select_option("Full Speed Ahead")
    reaver.locator("input[name=order_dice]").fill("6")
    reaver.get_by_role("button", name=re.compile("Issue")).click()
    ship(ben, "Bloody Reaver").get_by_role("button", name=re.compile("Full Speed Ahead: roll")).click()
    expect(ben.locator("#rolls li").first).to_contain_text("Full Speed Ahead: must move")
    ship(anna, "Flaming Scimitar").get_by_role("button", name="Activate the Flaming Scimitar").click()
    ship(ben, "Shadewraith").get_by_role("button", name="Activate the Shadewraith").click()
    expect(anna.locator(".df-togo")).to_contain_text("Every ship has been activated this turn.", timeout=5000)
    agree(anna, ben)

    # 5 End: the scenario's turn count, then the next turn starts at its Initiative
    next_phase(anna, "End")
    expect(ben.locator("#df-panel")).to_contain_text("Turn 1 of 6", timeout=5000)
    next_phase(ben, "Initiative")
    expect(anna.locator("#turn .round")).to_have_text("Turn 2", timeout=5000)
    expect(anna.locator("#df-initiative")).to_be_visible()
    agree(anna, ben)
    for page in (anna, ben):
        assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_the_dreadfleet_board_fits_a_360_phone_and_its_buttons_are_big_enough(live_server, phone):
    anna = phone()
    open_table(anna, live_server, "dreadfleet", "Narrow")
    save_card(anna, "Swordfysh")
    put_to_sea(anna, "Swordfysh")
    assert_fits_a_phone(anna, "#df-panel button, .df-unit button, .df-tools button")
