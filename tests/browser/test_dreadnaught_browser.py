"""Dreadnaught on two phones (390x844): a duel through a full turn, and a four-player Fleet Arrival."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from phone_checks import assert_fits_a_phone, open_table, two_players

pytestmark = pytest.mark.browser
SYNC = 5000  # ms: the other phone polls every second (live_server), plus the swap, on a busy machine


def at_the_table(anna, ben, base, players):
    """Anna creates a table for ``players`` (each their own side) and Ben takes his seat."""
    return two_players(anna, ben, base, "dreadnaught", "Planet 7", ("Anna", "Ben"), typed_sides=players)


def ship(page, player):
    """The ship's card; its row on the board is unfolded first (rows start closed)."""
    row = page.locator("details.unitrow", has=page.locator("summary .rname", has_text=f"{player}'s Dreadnaught"))
    row.wait_for(state="attached", timeout=SYNC)  # (a phone gets a card only for a row it has open)
    if row.get_attribute("open") is None:
        row.locator("summary .rname").click()
    return page.locator(f".dn-ship[data-ship='{player}']")


def counter(page, player, tracker):
    ship(page, player)  # its row opened: the card comes with it
    card = page.locator("form.unit", has=page.locator("h3", has_text=f"{player}'s Dreadnaught"))
    return card.locator(f".tracker[data-tracker={tracker}] [data-value]")


def next_phase(page, expected):
    page.click("#turn button[name=do]")
    expect(page.locator("#turn [data-phase]")).to_have_text(expected)


def hit(page, player, button, amount):
    ship(page, player).locator("input[name=amount]").fill(str(amount))
    ship(page, player).get_by_role("button", name=button, exact=True).click()


def reveal(page, owner, name, card_type, steps, speed=""):
    form = page.locator("#dn-reveal")
    form.locator("select[name=owner]").select_option(owner)
    form.locator("select[name=card_type]").select_option(card_type)
    form.locator("input[name=name]").fill(name)
    form.locator("input[name=steps]").fill(steps)
    form.locator("input[name=speed]").fill(speed)
    form.get_by_role("button", name="Add card").click()
    expect(page.locator(f"ol.dn-order li[data-card='{name}']")).to_have_count(len(steps.split(",")))
    expect(form.locator("input[name=name]")).to_have_value("")     # cleared for the next card


def order_of(page):
    return page.locator("ol.dn-order li")


def test_duel_through_a_full_turn_to_a_major_victory(live_server, phone):
    anna, ben = phone(), phone()
    at_the_table(anna, ben, live_server, "Anna, Ben")

    # set-up: Anna's System Cards add 2 HP; Ben brings the 26-card deck; Anna attacks
    anna.select_option("select[name='deck_size.Ben']", "26")
    anna.fill("input[name='system_bonus.Anna']", "2")
    anna.select_option("#dn-setup select[name=attacker]", "Anna")
    anna.click("#dn-setup button[name=do]")
    expect(counter(ben, "Anna", "hp")).to_have_text("26", timeout=SYNC)
    expect(counter(ben, "Ben", "deck")).to_have_text("20")
    expect(counter(ben, "Ben", "hand")).to_have_text("6")

    # Draw, then Power Management on each player's own phone
    anna.click("text=Everyone draws to 6")
    expect(ship(anna, "Anna")).to_contain_text("Drawn this turn")
    next_phase(anna, "Power Management")
    expect(ben.locator("#turn [data-phase]")).to_have_text("Power Management", timeout=SYNC)
    ship(anna, "Anna").locator("select[name=cards]").select_option("2")
    ship(anna, "Anna").locator("select[name=offense]").select_option("1")
    ship(anna, "Anna").get_by_role("button", name="Play cards").click()
    expect(ship(anna, "Anna").locator("[data-power]")).to_contain_text("Flip one Upgrade Card face-up")
    ship(ben, "Ben").locator("select[name=offense]").select_option("2")
    ship(ben, "Ben").get_by_role("button", name="Play cards").click()
    expect(ship(ben, "Ben").locator("[data-power]")).to_contain_text("no special choices")
    expect(counter(anna, "Ben", "hand")).to_have_text("3", timeout=SYNC)

    # Ready: a Primary card into slot 1
    next_phase(anna, "Ready")
    ship(anna, "Anna").locator("input[name=card]").fill("Nova Lance")
    ship(anna, "Anna").get_by_role("button", name="Ready (0/2)").click()
    expect(ship(anna, "Anna").locator(".dn-slot[data-slot='1']")).to_contain_text("Nova Lance")

    # Reveal: five cards from both phones, with ties at initiative 3
    next_phase(anna, "Reveal")
    expect(ben.locator("#turn [data-phase]")).to_have_text("Reveal", timeout=SYNC)
    reveal(ben, "Ben", "Flak Screen", "Defense", "X, 1")
    reveal(ben, "Ben", "Asteroid Field", "Terrain", "3", speed="4")
    reveal(anna, "Anna", "Ion Cloud", "Terrain", "3", speed="2")
    reveal(anna, "Anna", "Rail Cannon", "Offense", "3")
    reveal(ben, "Ben", "Torpedo", "Offense", "3")
    expected = ["Flak Screen", "Asteroid Field", "Ion Cloud", "Rail Cannon", "Torpedo", "Flak Screen"]
    for page in (anna, ben):
        expect(order_of(page)).to_have_count(6, timeout=SYNC)
        assert [li.get_attribute("data-card") for li in order_of(page).all()] == expected
        assert [li.get_attribute("data-initiative") for li in order_of(page).all()] == ["X", "3", "3", "3", "3", "1"]
    expect(order_of(anna).nth(2)).to_contain_text("higher speed first")
    expect(order_of(anna).nth(3)).to_contain_text("the Attacker, Anna, chooses")

    # Resolve: walk the steps; every phone shows the current one
    next_phase(anna, "Resolve")
    for card in ("Flak Screen", "Asteroid Field", "Ion Cloud"):
        expect(anna.locator("li.dn-step.current")).to_have_attribute("data-card", card)
        anna.locator("[data-next-step]").click()
    expect(ben.locator("li.dn-step.current")).to_have_attribute("data-card", "Rail Cannon", timeout=SYNC)
    # the Attacker lets Torpedo resolve before her own Rail Cannon
    anna.get_by_role("button", name="Resolve Torpedo first").click()
    expect(ben.locator("li.dn-step[data-card='Torpedo']")).to_have_attribute("data-status", "done", timeout=SYNC)
    expect(ben.locator("li.dn-step.current")).to_have_attribute("data-card", "Rail Cannon")

    # Rail Cannon hits Ben; Ben's repairs cannot go above his starting 24
    hit(anna, "Ben", "Damage", 7)
    expect(counter(ben, "Ben", "hp")).to_have_text("17", timeout=SYNC)
    hit(ben, "Ben", "Heal", 10)
    expect(counter(ben, "Ben", "hp")).to_have_text("24")
    expect(counter(anna, "Ben", "hp")).to_have_text("24", timeout=SYNC)
    expect(ben.locator("#rolls")).to_be_visible()

    # Card Burn 3: one card from hand, then the top card of the deck is a Primary card (counts 2)
    burn = ben.locator("#dn-burn")
    burn.locator("select[name=ship]").select_option("Ben")
    burn.locator("input[name=amount]").fill("3")
    burn.locator("input[name=hand_cards]").fill("1")
    burn.locator("input[name=revealed]").fill("primary")
    burn.get_by_role("button", name="Burn").click()
    expect(counter(ben, "Ben", "hand")).to_have_text("2")
    expect(counter(ben, "Ben", "deck")).to_have_text("19")
    expect(counter(ben, "Ben", "discard")).to_have_text("2")
    expect(ship(anna, "Ben")).to_contain_text("3 Card Burn this turn", timeout=SYNC)
    # a bad burn is refused next to the control and changes nothing
    burn.locator("input[name=amount]").fill("5")
    burn.locator("input[name=hand_cards]").fill("1")
    burn.get_by_role("button", name="Burn").click()
    expect(ben.locator("#dn-burn-err")).to_contain_text("4 Card Burn is still to resolve")
    expect(counter(ben, "Ben", "hand")).to_have_text("2")

    anna.locator("[data-next-step]").click()
    # wait for the highlight to move: a second tap on the old button is refused as stale (409)
    expect(anna.locator("li.dn-step.current")).to_have_attribute("data-initiative", "1")
    anna.locator("[data-next-step]").click()
    expect(anna.locator("[data-next-step]")).to_be_disabled()
    expect(ben.locator("li.dn-step.done")).to_have_count(6, timeout=SYNC)

    # React, Discard, Return, then Turn 2
    next_phase(anna, "React")
    next_phase(anna, "Discard")
    ship(anna, "Anna").get_by_role("button", name="Discard").click()      # her 2 played cards, prefilled
    expect(counter(anna, "Anna", "discard")).to_have_text("2")
    next_phase(anna, "Return")
    ship(anna, "Anna").get_by_role("button", name="Return 1").click()
    expect(counter(anna, "Anna", "hand")).to_have_text("2")
    next_phase(anna, "Draw")
    expect(ben.locator("#turn .round")).to_have_text("Turn 2", timeout=SYNC)
    ship(ben, "Ben").get_by_role("button", name="Draw 4 cards (hand 6)").click()
    expect(counter(ben, "Ben", "deck")).to_have_text("15")

    # Anna's broadside destroys Ben: the battle ends with a Major Victory
    hit(anna, "Ben", "Damage", 30)
    expect(ship(anna, "Ben").locator("[data-eliminated]")).to_be_visible()
    expect(counter(anna, "Ben", "hp")).to_have_text("0")
    anna.get_by_role("button", name="End the battle").click()
    for page in (anna, ben):
        result = page.locator("[data-result]")
        expect(result).to_be_visible(timeout=SYNC)
        expect(result.locator("li[data-player='Anna']")).to_contain_text("Major Victory 5 pts")
        expect(result.locator("li[data-player='Ben']")).to_contain_text("Defeat 0 pts")


def test_four_players_run_the_fleet_arrival_timer_to_arrival(live_server, phone):
    anna, ben = phone(), phone()
    at_the_table(anna, ben, live_server, "Anna, Ben, Cleo, Dan")
    anna.click("#dn-setup button[name=do]")
    expect(ben.locator("#dn-timer")).to_contain_text("Starts when the first ship is Eliminated", timeout=SYNC)

    # Dan is destroyed: wreck terrain and the timer with a token per remaining ship on 8
    hit(anna, "Dan", "Damage", 24)
    expect(anna.locator("[data-eliminated='Dan']")).to_contain_text("replace with Debris")
    for fleet in ("Anna", "Ben", "Cleo"):
        expect(ben.locator(f"li[data-pos='8'] [data-fleet='{fleet}']")).to_be_visible(timeout=SYNC)
    anna.select_option(".dn-credit select[name=by]", "Anna")
    anna.get_by_role("button", name="Credit").click()
    expect(ben.locator("li[data-pos='6'] [data-fleet='Anna']")).to_be_visible(timeout=SYNC)

    # a ship Pushed to the map edge moves every token; Event Cards move Anna's
    ben.get_by_role("button", name="Ship Pushed to the map edge: all +1").click()
    expect(ben.locator("li[data-pos='7'] [data-fleet='Cleo']")).to_be_visible()
    for pos in (4, 3, 2, 1, 0):
        ben.locator("#dn-timer select[name=player]").select_option("Anna")
        ben.get_by_role("button", name="Event Card for the Fleet: +1").click()
        expect(ben.locator(f"li[data-pos='{pos}'] [data-fleet='Anna']")).to_be_visible()
    expect(anna.locator("li[data-pos='0'] [data-fleet='Anna']")).to_be_visible(timeout=SYNC)

    # the Fleet arrives only at the end of the turn
    anna.fill("input[name='distances.Anna.Ben']", "3")
    anna.fill("input[name='distances.Anna.Cleo']", "7")
    anna.get_by_role("button", name="The Fleet arrives: 6 Damage, 4 Card Burn within 4 hexes").click()
    expect(anna.locator("#dn-timer-err")).to_contain_text("The Fleet arrives at the end of the turn")
    for phase in ("Power Management", "Ready", "Reveal", "Resolve", "React", "Discard"):
        next_phase(anna, phase)
    anna.fill("input[name='distances.Anna.Ben']", "3")
    anna.fill("input[name='distances.Anna.Cleo']", "7")
    anna.get_by_role("button", name="The Fleet arrives: 6 Damage, 4 Card Burn within 4 hexes").click()
    expect(anna.locator("[data-arrived]")).to_contain_text("Ben takes 6 Damage and 4 Card Burn (Anna)")
    expect(counter(ben, "Ben", "hp")).to_have_text("18", timeout=SYNC)
    expect(counter(ben, "Cleo", "hp")).to_have_text("24")
    expect(ship(ben, "Ben")).to_contain_text("4 Card Burn from Anna's Fleet Arrival")

    # Ben resolves the Fleet's Card Burn; then the battle ends on most Eliminations
    burn = ben.locator("#dn-burn")
    burn.locator("select[name=ship]").select_option("Ben")
    burn.locator("input[name=amount]").fill("4")
    burn.locator("input[name=hand_cards]").fill("4")
    burn.get_by_role("button", name="Burn").click()
    expect(counter(ben, "Ben", "hand")).to_have_text("2")
    for player, result in (("Anna", "major"), ("Ben", "defeat"), ("Cleo", "pyrrhic"), ("Dan", "defeat")):
        ben.select_option(f"select[name='results.{player}']", result)
    ben.get_by_role("button", name="End the battle").click()
    for page in (anna, ben):
        expect(page.locator("[data-result]")).to_contain_text("Anna wins with 1 Elimination", timeout=SYNC)
        expect(page.locator("[data-result] li[data-player='Cleo']")).to_contain_text("Pyrrhic Victory 1 pt")


def test_dreadnaught_board_fits_a_phone(live_server, phone):
    anna = phone()
    open_table(anna, live_server, "dreadnaught", "Planet 7", "Anna", "Anna, Ben")
    anna.click("#dn-setup button[name=do]")
    # the set-up's answer first: it puts the turn back to its first phase, so a Next sent while it is on
    # its way may be counted before it and the Next after that comes back stale (seen once)
    expect(anna.locator("details.unitrow")).to_have_count(2)
    next_phase(anna, "Power Management")
    next_phase(anna, "Ready")
    next_phase(anna, "Reveal")
    reveal(anna, "Anna", "Long-Range Siege Accelerator Battery", "Offense", "X, 3.5, 0")
    next_phase(anna, "Resolve")
    assert_fits_a_phone(anna, ".dn button, .dn select, .dn-ship button, .dn-ship select, .dn-ship input")


def in_viewport(page, selector):
    """The element's box lies wholly inside the phone's screen."""
    return page.evaluate("""(sel) => { const r = document.querySelector(sel).getBoundingClientRect();
        return r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight; }""", selector)


def screen_top(page, selector):
    return page.evaluate("(sel) => document.querySelector(sel).getBoundingClientRect().top", selector)


def test_card_burn_and_resolver_answer_under_their_buttons(live_server, phone):
    # issue 10, section 2: a tool's result shows next to the control that made it, on every phone, and the
    # page does not move away from that control
    anna, ben = phone(), phone()
    at_the_table(anna, ben, live_server, "Anna, Ben")
    anna.select_option("#dn-setup select[name=attacker]", "Anna")
    anna.click("#dn-setup button[name=do]")
    expect(counter(ben, "Ben", "hand")).to_have_text("6", timeout=SYNC)     # Ben's board has the battle
    expect(ben.locator("#dn-burn")).to_be_visible()
    expect(ben.locator("[data-burn-result]")).to_have_count(0)

    # Card Burn 3 on Ben's phone: the answer is right under Burn, and the button stayed where the thumb was
    burn = ben.locator("#dn-burn")
    burn.locator("select[name=ship]").select_option("Ben")
    burn.locator("input[name=amount]").fill("3")
    burn.locator("input[name=hand_cards]").fill("1")
    burn.locator("input[name=revealed]").fill("primary")
    button = "#dn-burn button[name=do]"
    ben.locator(button).scroll_into_view_if_needed()
    before = screen_top(ben, button)
    ben.locator(button).click()
    answer = ben.locator("#dn-burn-result [data-burn-result]")
    expect(answer).to_contain_text("Ben: Card Burn 3: 1 from hand, 1 from the deck")
    expect(answer).to_contain_text("Turn 1, Draw")
    assert abs(screen_top(ben, button) - before) < 2
    assert in_viewport(ben, "#dn-burn-result")
    # the other phone sees the same answer arrive under its own Card Burn tool
    expect(anna.locator("#dn-burn-result [data-burn-result]")).to_contain_text("Ben: Card Burn 3", timeout=SYNC)

    # the initiative resolver: the order so far shows under Add card, the newest card marked
    for step in ("Power Management", "Ready", "Reveal"):
        next_phase(anna, step)
    add = "#dn-reveal button[name=do]"
    reveal(anna, "Anna", "Rail Cannon", "Offense", "3")
    anna.locator(add).scroll_into_view_if_needed()
    before = screen_top(anna, add)
    reveal(anna, "Anna", "Flak Screen", "Defense", "X, 1")
    assert abs(screen_top(anna, add) - before) < 2
    mini = anna.locator("#dn-order-result li")
    expect(mini).to_have_count(3)
    assert [li.get_attribute("data-card") for li in mini.all()] == ["Flak Screen", "Rail Cannon", "Flak Screen"]
    expect(anna.locator("#dn-order-result li.new")).to_have_count(2)          # both steps of Flak Screen
    assert in_viewport(anna, "#dn-order-result")
    expect(ben.locator("#dn-order-result li")).to_have_count(3, timeout=SYNC)
