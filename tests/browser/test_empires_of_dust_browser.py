"""Empires of Dust on two phones (390x844): the average fleet for both players, a designed ship
with an overloader, a movement and a combat phase with a beam attack read from the penetration
table, a blast on a second ship, a ship destroyed at the end of the phase, points, and the
overloader's cooldown coming back three turns later; both phones agree."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from phone_checks import assert_fits_a_phone, open_table, two_players

pytestmark = pytest.mark.browser
SYNC = 3000  # the board polls every second in tests (+ render)


def at_the_table(anna, ben, base):
    """Anna creates the table (on Fleet 1, the first side), Ben takes Fleet 2."""
    return two_players(anna, ben, base, "empires-of-dust", "Dust up", (None, "Fleet 2"), ready="#eod-panel")


def card(page, side, name):
    """A ship's card, its row opened first as a player taps it (a phone gets the cards of open rows)."""
    section = page.locator(f"section.side[aria-label='{side}']")
    row = section.locator("details.unitrow", has=page.locator("summary .rname", has_text=name)).first
    row.wait_for(state="attached", timeout=SYNC)
    if row.get_attribute("open") is None:
        row.locator("summary.rowline").click()
    return section.locator("form.unit", has=page.locator("h3", has_text=name)).first


def hp(page, side, name):
    return card(page, side, name).locator(".tracker[data-tracker=hp] [data-value]")


def phase(page):
    return page.locator("#turn [data-phase]")


def end_phase(page, other, now):
    page.locator("#eod-end button").click()
    expect(phase(page)).to_have_text(now)
    expect(phase(other)).to_have_text(now, timeout=SYNC)


def choose_attacker(page, uid):
    page.select_option("#eod-attack select[name=attacker]", uid)
    expect(page.locator("#eod-attack select[name=attacker]")).to_have_value(uid)
    expect(page.locator("#eod-attack select[name=weapon] option").first).to_be_attached()


def test_two_fleets_fight_a_turn_and_a_cooldown_comes_back(live_server, phone):
    anna, ben = phone(), phone()
    at_the_table(anna, ben, live_server)

    # the appendix's average fleet for each player (the battleship's deviation is a warning)
    anna.select_option("#eod-average select[name=side]", "Fleet 1")
    anna.click("#eod-average button.primary")
    expect(hp(anna, "Fleet 1", "Avg. B.")).to_have_text("80")
    ben.click("#eod-average button.primary")
    expect(hp(ben, "Fleet 2", "Avg. F.")).to_have_text("20")
    for page in (anna, ben):
        expect(page.locator("details.unitrow")).to_have_count(8, timeout=SYNC)
    expect(card(anna, "Fleet 1", "Avg. B.").locator(".eod-warn")).to_contain_text("Breaks the design rules")

    # the designer: an average frigate with an overloader breaks the stat total until stealth drops
    anna.click("#eod-designer-box > summary")
    anna.click("#eod-designer button[value='add-ship:frigate']")
    expect(anna.locator("#eod-violations")).to_contain_text("Every ship follows the design rules")
    anna.fill("#eod-designer input[name='s0.name']", "Hammer")
    anna.check("#eod-designer input[name='s0.equipment'][value=overloader]")
    expect(anna.locator("#eod-violations")).to_contain_text("a frigate's stat total is 70")
    anna.fill("#eod-designer input[name='s0.stealth']", "10")
    expect(anna.locator("#eod-violations")).to_contain_text("Every ship follows the design rules")
    anna.fill("#eod-designer input[name=fleet_name]", "Strike group")
    anna.click("#eod-designer button:has-text('Save fleet')")
    expect(anna.locator("#eod-designer")).to_contain_text("Saved 'Strike group'")
    saved = anna.locator("#eod-fleets form.eod-fleet", has=anna.locator("b", has_text="Strike group"))
    expect(saved).to_be_visible()
    saved.locator("select[name=side]").select_option("Fleet 1")
    saved.locator("button.primary").click()
    expect(card(anna, "Fleet 1", "Hammer").locator(".tracker[data-tracker=overloader]")).to_contain_text("Ready")
    expect(card(ben, "Fleet 1", "Hammer")).to_be_attached(timeout=SYNC)  # its row, closed

    # initiative: fleets in rotating order, Fleet 1 first; both phones show who moves next
    anna.locator("#eod-initiative select[name=mode]").select_option("rotating")
    anna.locator("#eod-initiative select[name=first]").select_option("Fleet 1")
    anna.click("#eod-initiative button[value=eod-initiative]")
    expect(anna.locator("#eod-panel [data-next]")).to_have_text("Fleet 1 moves")
    expect(ben.locator("#eod-panel [data-next]")).to_have_text("Fleet 1 moves", timeout=SYNC)
    anna.click("#eod-initiative button.primary")
    expect(ben.locator("#eod-panel [data-next]")).to_have_text("Fleet 2 moves", timeout=SYNC)

    # firing in the movement phase is refused with the rule, and nothing changes
    choose_attacker(anna, "u2")
    expect(anna.locator("#eod-preview")).to_contain_text("Firing happens in the Combat phase")
    anna.locator("#eod-attack button.primary").click()
    expect(anna.locator("#eod-attack-err")).to_contain_text("Firing happens in the Combat phase")
    ben.click("#eod-initiative button.primary")
    end_phase(ben, anna, "Combat")
    expect(anna.locator("#eod-panel [data-next]")).to_have_text("Fleet 1 fires")

    # Avg. D.'s laser at Avg. F. 20 units away: armour 5 reflective, penetration 10 -> D20 > 6
    # (seed 001, Armour Penetration); Avg. D. of Fleet 2 is in the blast: pen 5 vs 7 -> D20 > 12
    choose_attacker(anna, "u2")
    anna.select_option("#eod-attack select[name=weapon]", "0")
    anna.select_option("#eod-attack select[name=target]", "u5")
    anna.fill("#eod-attack input[name=distance]", "20")
    expect(anna.locator("#eod-preview [data-hit=u5] [data-need]")).to_have_text("D20 > 6")
    anna.locator("#eod-attack details.eod-more").first.locator("summary").click()
    anna.select_option("#eod-attack select[name='hits.u6']", "blast")
    expect(anna.locator("#eod-preview [data-hit=u6] [data-need]")).to_have_text("D20 > 12")
    anna.fill("#eod-attack input[name='hit_dice.u6']", "13")
    anna.fill("#eod-attack input[name=rolled]", "15")
    anna.locator("#eod-attack button.primary").click()
    expect(hp(anna, "Fleet 2", "Avg. F.")).to_have_text("10")
    expect(hp(anna, "Fleet 2", "Avg. D.")).to_have_text("25")
    expect(hp(ben, "Fleet 2", "Avg. F.")).to_have_text("10", timeout=SYNC)
    expect(hp(ben, "Fleet 2", "Avg. D.")).to_have_text("25")
    expect(ben.locator("#eod-panel [data-last-attack]")).to_contain_text("D20 > 6, rolled 15: 10 damage")
    expect(anna.locator("#eod-attack input[name=rolled]")).to_have_value("")  # my dice are spent

    # Hammer overloads (+10 damage): Avg. F. drops to 0 and is destroyed at the end of the phase
    choose_attacker(anna, "u9")
    anna.select_option("#eod-attack select[name=target]", "u5")
    anna.fill("#eod-attack input[name=distance]", "15")
    anna.check("#eod-attack input[name=overloader]")
    expect(anna.locator("#eod-preview")).to_contain_text("expected damage")
    anna.fill("#eod-attack input[name=rolled]", "18")
    anna.locator("#eod-attack button.primary").click()
    expect(hp(anna, "Fleet 2", "Avg. F.")).to_have_text("0")
    doomed = ben.locator("section.side[aria-label='Fleet 2'] details.unitrow", has=ben.locator(".rname", has_text="Avg. F."))
    expect(doomed.locator("[data-row-dying]")).to_be_visible(timeout=SYNC)  # on its closed row
    expect(ben.locator("#eod-panel [data-pending]")).to_contain_text("Avg. F.")
    expect(card(anna, "Fleet 1", "Hammer").locator(".tracker[data-tracker=overloader]")).to_contain_text("ready again in turn 4")

    # combat is simultaneous: the doomed frigate still fires its missile at Hammer (Anna's typed
    # dice survive Ben's attack refreshing her attack helper)
    choose_attacker(anna, "u3")
    anna.fill("#eod-attack input[name=rolled]", "7")
    ben.click("#eod-initiative button.primary")
    choose_attacker(ben, "u5")
    ben.select_option("#eod-attack select[name=weapon]", "1")
    ben.select_option("#eod-attack select[name=target]", "u9")
    ben.fill("#eod-attack input[name=distance]", "10")
    ben.fill("#eod-attack input[name=rolled]", "20")
    ben.locator("#eod-attack button.primary").click()
    expect(hp(ben, "Fleet 1", "Hammer")).to_have_text("10")
    expect(hp(anna, "Fleet 1", "Hammer")).to_have_text("10", timeout=SYNC)
    # Anna's board has Ben's attack (Hammer's HP above): her helper follows her board's roster
    expect(anna.locator("#eod-attack")).to_have_attribute(
        "data-roster", anna.locator("#eod-roster").get_attribute("data-roster"), timeout=SYNC)
    expect(anna.locator("#eod-attack input[name=rolled]")).to_have_value("7")
    expect(anna.locator("#eod-attack select[name=attacker]")).to_have_value("u3")

    # the end of the combat phase removes it and scores it: a frigate is 2 points
    end_phase(anna, ben, "Movement")
    for page in (anna, ben):
        expect(page.locator("section.side[aria-label='Fleet 2'] details.unitrow")).to_have_count(3, timeout=SYNC)
        expect(page.locator("#eod-panel [data-points-of='Fleet 1']")).to_have_text("2")
        expect(page.locator("#eod-panel [data-points-of='Fleet 2']")).to_have_text("0")

    # the overloader comes back in the combat phase three turns after it was used (turn 4)
    for now in ("Combat", "Movement", "Combat", "Movement", "Combat"):
        end_phase(anna, ben, now)
    expect(anna.locator("#turn .round")).to_have_text("Turn 4")
    for page in (anna, ben):
        expect(card(page, "Fleet 1", "Hammer").locator(".tracker[data-tracker=overloader]")).to_contain_text(
            "Ready", timeout=SYNC)

    # both phones agree on every ship's HP and the score
    def summary(page):
        return page.evaluate("""() => [...document.querySelectorAll('details.unitrow')].map(r =>
            r.querySelector('.rname').textContent + ':' + r.querySelector('.rnums').textContent.replace(/\\s+/g, ' '))
            .join(' ') + ' | ' + document.querySelector('#eod-panel [data-points]').textContent.replace(/\\s+/g, ' ')""")
    expect(ben.locator("#board")).to_have_attribute("data-seq", anna.locator("#board").get_attribute("data-seq"),
                                                   timeout=SYNC)
    assert summary(anna) == summary(ben)


def test_designer_and_board_fit_a_phone(live_server, phone):
    anna = phone()
    open_table(anna, live_server, "empires-of-dust", "Dust up", ready="#eod-panel")
    anna.click("#eod-average button.primary")
    expect(anna.locator("details.unitrow")).to_have_count(4)
    expect(hp(anna, "Fleet 1", "Avg. B.")).to_have_text("80")  # one ship's card open: its buttons are checked too
    anna.click("#eod-designer-box > summary")
    anna.click("#eod-designer button[value='load:average-fleet']")
    expect(anna.locator("#eod-violations")).to_contain_text("rules broken as printed")
    assert_fits_a_phone(anna, "#eod-panel button, .eod-unit button, #eod-attack button, #eod-attack select, #eod-designer button, #eod-designer select")


def helper_caught_up(page):
    """The attack helper has been drawn for the ships on the board (its own redraw after a change is in)."""
    expect(page.locator("#eod-attack")).to_have_attribute(
        "data-roster", page.locator("#eod-roster").get_attribute("data-roster"), timeout=SYNC)


def test_an_attacker_chosen_while_the_ships_redraw_is_out_wins(live_server, phone):
    """The helper asks for itself again when the ships change; an attacker chosen while that answer is
    on its way wins, whichever answer comes back last (the older request is replaced)."""
    anna, ben = phone(), phone()
    at_the_table(anna, ben, live_server)
    anna.select_option("#eod-average select[name=side]", "Fleet 1")
    anna.click("#eod-average button.primary")
    expect(hp(anna, "Fleet 1", "Avg. B.")).to_have_text("80")
    helper_caught_up(anna)
    held = []
    anna.route("**/eod/attack?*", lambda route: held.append(route))
    anna.evaluate("htmx.trigger(document.body, 'eod-roster')")  # the ships' redraw, as after a change
    anna.wait_for_function("() => document.querySelector('#eod-attack [hx-trigger^=eod-roster]')"
                           ".classList.contains('htmx-request')")
    anna.select_option("#eod-attack select[name=attacker]", "u2")
    for _ in range(100):
        if len(held) >= 2:
            break
        anna.wait_for_timeout(50)
    assert len(held) == 2, len(held)
    anna.unroute("**/eod/attack?*")
    for route in reversed(held):  # the attacker's answer first, then the redraw's (old attacker)
        try:
            route.continue_()
        except Exception:  # noqa: BLE001 - the replaced request was aborted by the page
            pass
        anna.wait_for_timeout(300)
    expect(anna.locator("#eod-attack select[name=attacker]")).to_have_value("u2")
    anna.wait_for_timeout(500)
    expect(anna.locator("#eod-attack select[name=attacker]")).to_have_value("u2")


def test_dice_typed_while_the_helper_is_redrawn_stay(live_server, phone):
    """The attack helper is drawn again when the attacker changes (or the ships do); the dice the
    player types while that answer is on its way are still there when it lands."""
    anna, ben = phone(), phone()
    at_the_table(anna, ben, live_server)
    anna.select_option("#eod-average select[name=side]", "Fleet 1")
    anna.click("#eod-average button.primary")
    expect(hp(anna, "Fleet 1", "Avg. B.")).to_have_text("80")
    helper_caught_up(anna)  # (its redraw for the new ships is in: the test holds the attacker's answer only)
    held, holding = [], [True]
    anna.route("**/eod/attack?*", lambda route: held.append(route) if holding[0] else route.continue_())
    anna.select_option("#eod-attack select[name=attacker]", "u2")  # the helper asks for itself again
    for _ in range(50):
        if held:
            break
        anna.wait_for_timeout(50)
    assert held, "the attacker change did not ask for the helper"
    anna.fill("#eod-attack input[name=rolled]", "14 7")  # typed while the answer is held back
    holding[0] = False
    for route in held:
        route.continue_()
    expect(anna.locator("#eod-attack select[name=attacker]")).to_have_value("u2")
    expect(anna.locator("#eod-attack select[name=weapon] option").first).to_be_attached()
    anna.wait_for_load_state("networkidle")
    expect(anna.locator("#eod-attack input[name=rolled]")).to_have_value("14 7")


def test_a_choice_stays_when_the_helpers_refresh_waited_behind_a_card(live_server, phone):
    """The helpers are asked for again when the ships change, and what the player chose in them goes
    back into the fresh copy. That refresh once queued behind a card being loaded (both were the page
    body's requests): it came back unseen and put the first attacker back over the one chosen."""
    anna, ben = phone(), phone()
    at_the_table(anna, ben, live_server)
    anna.select_option("#eod-average select[name=side]", "Fleet 1")
    anna.click("#eod-average button.primary")
    expect(hp(anna, "Fleet 1", "Avg. B.")).to_have_text("80")
    helper_caught_up(anna)
    cards, tools, holding = [], [], {"cards": True, "tools": True}

    def hold(kind, held):
        return lambda route: held.append(route) if holding[kind] else route.continue_()
    anna.route("**/card/*", hold("cards", cards))
    anna.route("**/tools/game", hold("tools", tools))
    anna.locator("details.unitrow", has=anna.locator(".rname", has_text="Avg. F.")).locator("summary.rowline").click()
    for _ in range(50):
        if cards:
            break
        anna.wait_for_timeout(50)
    assert cards, "opening a row did not ask for its card"
    ben.select_option("#eod-average select[name=side]", "Fleet 2")
    ben.click("#eod-average button.primary")
    expect(anna.locator("details.unitrow")).to_have_count(8, timeout=SYNC)  # Ben's ships: the helpers are stale
    helper_caught_up(anna)  # (the attack helper's own redraw is in; the helpers' refresh is not)
    anna.select_option("#eod-attack select[name=attacker]", "u2")
    expect(anna.locator("#eod-attack select[name=weapon] option").first).to_be_attached()
    anna.fill("#eod-attack input[name=distance]", "12")
    anna.locator("h1.tablename").click()  # the focus leaves the helpers: their refresh may go in
    holding["cards"] = False
    for route in cards:
        route.continue_()
    for _ in range(100):
        if tools:
            break
        anna.wait_for_timeout(50)
    assert tools, "the helpers were not asked for again"
    holding["tools"] = False
    for route in tools:
        route.continue_()
    expect(anna.locator("#game-tools")).to_have_attribute(
        "data-roster", anna.locator("#unit-options").get_attribute("data-roster"), timeout=SYNC)
    expect(anna.locator("#eod-attack select[name=attacker]")).to_have_value("u2")
    expect(anna.locator("#eod-attack input[name=distance]")).to_have_value("12")
