"""Dreadfleet one-handed on two phones at 390x844 (issue 10 §3-§5): five warships a side fit in two
screens as compact rows; "Fire" on a ship opens the broadside with that ship chosen; the broadside's
result shows above the bottom bar of the phone that fired and arrives on the other; the page does not
jump; the fired dice are emptied; damage, the broadside, undo and next phase each take at most two taps
from the closed board. Screenshots go to $COMPANION_SHOTS/dreadfleet (phone_checks.shots)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from phone_checks import PHONE, join, open_table, shots

pytestmark = pytest.mark.browser

SYNC = 5000
SHOTS = shots("dreadfleet")
STATS = {"speed": 6, "handling": 3, "broadside": 4, "armour": 5, "hull": 10, "crew": 4, "command": 4,
         "swashbuckling": 3}
COG = {"speed": 5, "broadside": 2, "armour": 5, "hull": 2, "crew": 2}
# the ten warships of seed 002's Auxiliaries table, five a side
GRAND_ALLIANCE = ["Heldenhammer", "Flaming Scimitar", "Swordfysh", "Seadrake", "Grimnir's Thunder"]
DREADFLEET = ["Bloody Reaver", "Skabrus", "Black Kraken", "Curse of Zandri", "Shadewraith"]
TWO_SCREENS = 2 * PHONE["height"]  # 1,688 px


def shot(page, name):
    if SHOTS.is_dir():
        page.screenshot(path=str(SHOTS / name))


def row(page, name):
    return page.locator("details.unitrow", has=page.locator("summary .rname", has_text=re.compile(f"^{re.escape(name)}$")))


def on_screen(page, selector):
    box = page.locator(selector).bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= page.viewport_size["height"]


def a_table_at_sea(anna, ben, base):
    """Five warships a side (auxiliaries docked, as they start), the players' own decks, the wind placed,
    the initiative to the Grand Alliance; the board at the Action phase of turn 1."""
    player_url, _ = open_table(anna, base, "dreadfleet", "The Bay", "Grand Alliance")
    code = anna.url.split("#")[0].rstrip("/").split("/")[-1]
    csrf = anna.locator("input[name=csrf_token]").first.get_attribute("value")

    def post(path, **form):
        resp = anna.request.post(f"{base}/t/{code}/{path}", form={"csrf_token": csrf, **form})
        assert resp.ok, resp.text()[:300]
        return resp.text()

    for name in GRAND_ALLIANCE + DREADFLEET:
        fields = {f"stats.{k}": str(v) for k, v in STATS.items()}
        if name != "Shadewraith":  # seed 002, Auxiliaries: it carries none
            fields.update({f"aux.{k}": str(v) for k, v in COG.items()})
        post("act", type="df-warship", name=name, sail="1", **fields)
    for deck, text in (("damage", "Hull hit; Hull; 1; x20"), ("fate", "Fair wind; 2; 1 clockwise; immediate; x10")):
        page = post("dreadfleet/decks", deck=deck, name=f"Our {deck}", cards=text, _control="df-deckdef")
        item = re.findall(r"decks/(\d+)/load", page)[-1]
        post(f"dreadfleet/decks/{item}/load", _control="df-decks")
    post("act", type="df-scenario", name="Bay raid", turns="6", victory="Sink the flagship")
    post("act", type="df-wind-place", dice="3 4")
    post("act", type="df-initiative", dice="5 2")
    post("act", type="df-first", first="Grand Alliance")
    for _ in range(2):
        post("act", type="next-phase")
    post("act", type="df-fate", side="Grand Alliance")
    post("act", type="df-fate", side="Dreadfleet")
    post("act", type="next-phase")
    anna.goto(f"{base}/t/{code}")
    join(ben, player_url, "Ben", "Dreadfleet")
    for page in (anna, ben):
        expect(page.locator("#turn [data-phase]")).to_have_text("Action")
        expect(page.locator("#df-shot-card")).to_be_attached()  # the helpers' second request


def test_five_warships_a_side_fit_two_screens_and_fire_opens_the_broadside(live_server, phone):
    anna, ben = phone(), phone()
    a_table_at_sea(anna, ben, live_server)
    taps = {}  # each common move, from the closed board: the taps it took (choosing and typing aside)

    def tap(move, control):
        taps[move] = taps.get(move, 0) + 1
        control.click()

    # the board, every row closed: ten warships (the docked auxiliaries are aboard their warships' rows)
    expect(anna.locator("details.unitrow:visible")).to_have_count(10)
    expect(anna.locator("details.unitrow[open]")).to_have_count(0)
    expect(row(anna, "Seadrake").locator("summary.rowline")).to_contain_text("2 Dragons docked")
    expect(row(anna, "Heldenhammer").locator("summary.rowline")).to_contain_text("Hull 10/10")
    # measured from the top of the page to the end of the last unit row (document coordinates)
    end = anna.evaluate("""Math.max(...[...document.querySelectorAll('#board details.unitrow')]
        .filter(d => d.offsetParent).map(d => d.getBoundingClientRect().bottom + window.scrollY))""")
    assert end <= TWO_SCREENS, end
    # the panel is a few lines: set-up, wind, whose turn, order cards
    assert anna.locator("#df-panel").bounding_box()["height"] <= 320
    expect(anna.locator("#df-panel [data-df-wind]")).to_have_text("Wind strength 2 · gauge at 36")
    expect(anna.locator("#board")).not_to_contain_text("1 = yes")
    expect(anna.locator("form#table")).to_be_hidden()  # its gauge copy: the wind line above says it once
    shot(anna, "board-phone-rows.png")

    # activate: tap the row (1), "Activate the Heldenhammer" (2)
    held = row(anna, "Heldenhammer")
    tap("activate", held.locator("summary.rowline"))
    tap("activate", held.get_by_role("button", name="Activate the Heldenhammer"))
    expect(held).to_have_class(re.compile("activated"))
    expect(held).to_have_attribute("open", "")  # still open after the redraw
    shot(anna, "board-phone-open.png")
    held.locator("summary.rowline").click()  # folded again

    # the broadside: "Fire" on the ship's row (1) opens the tool with it chosen ...
    fire = held.locator("xpath=..").locator("a.df-fire")
    expect(fire).to_have_text("Fire")
    uid = held.get_attribute("id").removeprefix("row-")
    tap("broadside", fire)
    tool = anna.locator("#df-shot")
    expect(tool.locator("select[name=firer]")).to_have_value(uid)
    anna.wait_for_timeout(300)  # the anchor's scroll
    top = anna.locator("#df-shot-card").bounding_box()["y"]
    assert 0 <= top < PHONE["height"] / 2, top
    expect(held).not_to_have_attribute("open", "")  # the link did not unfold the row
    # ... the target chosen and the real dice typed, "Fire the broadside" (2)
    tool.locator("select[name=target]").select_option(label="Bloody Reaver (Dreadfleet)")
    tool.locator("input[name=distance]").fill("5")
    tool.locator("input[name=dice]").fill("6 5 3 1")
    expect(anna.locator("#df-odds-shot")).to_contain_text("3 hits → now enter 3 armour saves")
    tool.locator("input[name=save_dice]").fill("5 2 1")
    button = tool.get_by_role("button", name="Fire the broadside")
    button.evaluate("b => b.scrollIntoView({block: 'center'})")  # where the thumb has it, above the bar
    before = button.bounding_box()["y"]
    tap("broadside", button)
    expect(anna.locator("#result")).to_contain_text("Heldenhammer fires at the Bloody Reaver")
    expect(anna.locator("#result")).to_contain_text("3 hits, 1 saved → 2 Damage cards")
    assert on_screen(anna, "#result")  # above the bottom bar, where the thumb is
    expect(anna.locator("#result .df-count")).to_have_text("3 hits · 1 saved → 2 Damage cards")
    assert anna.locator("#result .df-count").bounding_box()["y"] < anna.locator("#result .who").bounding_box()["y"]
    assert abs(button.bounding_box()["y"] - before) <= 4  # the page did not jump
    expect(ben.locator("#result")).to_contain_text("Heldenhammer fires at the Bloody Reaver", timeout=SYNC)
    expect(row(ben, "Bloody Reaver").locator("summary.rowline")).to_contain_text("Hull 8/10")
    expect(row(anna, "Bloody Reaver").locator("summary.rowline")).to_contain_text("Hull 8/10")
    shot(anna, "board-phone-result.png")
    # the dice belonged to that broadside: emptied, and the odds no longer count them
    for field in ("dice", "save_dice", "distance", "modifier"):
        expect(tool.locator(f"input[name={field}]")).to_have_value("")
    expect(anna.locator("#df-odds-shot")).to_contain_text("Enter the range")  # odds from the emptied form
    expect(anna.locator("#df-odds-shot")).not_to_contain_text("Your dice")
    assert abs(button.bounding_box()["y"] - before) <= 4  # still under the thumb once the odds shrank
    expect(held.locator("xpath=..").locator("a.df-fire")).to_have_count(0)  # fired this activation

    # undo: one tap in the bar, on both phones
    tap("undo", anna.locator("#undo button"))
    expect(row(anna, "Bloody Reaver").locator("summary.rowline")).to_contain_text("Hull 10/10")
    expect(row(ben, "Bloody Reaver").locator("summary.rowline")).to_contain_text("Hull 10/10", timeout=SYNC)

    # damage by hand: Ben taps the row (1), Hull damage + (2)
    reaver = row(ben, "Bloody Reaver")
    tap("damage", reaver.locator("summary.rowline"))
    tap("damage", reaver.get_by_label("Hull damage plus one"))
    expect(reaver.locator("summary.rowline")).to_contain_text("Hull 9/10")
    expect(row(anna, "Bloody Reaver").locator("summary.rowline")).to_contain_text("Hull 9/10", timeout=SYNC)

    # next phase: one tap in the bar
    tap("next phase", ben.locator("nav.bar #next button"))
    expect(ben.locator("#turn [data-phase]")).to_have_text("End")
    expect(anna.locator("#turn [data-phase]")).to_have_text("End", timeout=SYNC)
    print("taps per move:", taps)
    assert taps == {"activate": 2, "broadside": 2, "undo": 1, "damage": 2, "next phase": 1}


def test_the_activation_links_choose_their_fields(live_server, phone):
    """The activation's own links: c. Broadsides chooses the firer, d. Boarding ticks the ship."""
    anna, ben = phone(), phone()
    a_table_at_sea(anna, ben, live_server)
    held = row(anna, "Heldenhammer")
    held.locator("summary.rowline").click()
    held.get_by_role("button", name="Activate the Heldenhammer").click()
    uid = held.get_attribute("id").removeprefix("row-")
    held.get_by_role("link", name="Duel and boarding ↓").click()
    expect(anna.locator(f"#df-board input[name='ships.{uid}']")).to_be_checked()
    anna.locator("#df-board label.chip", has_text="Bloody Reaver").locator("input").check()
    expect(anna.locator("#df-odds-board")).to_contain_text("Boarding: Grand Alliance 4 Crew dice, Dreadfleet 4")
    held.get_by_role("link", name="Fire a broadside ↓").click()
    expect(anna.locator("#df-shot select[name=firer]")).to_have_value(uid)


def test_the_board_on_a_tablet(live_server, phone):
    anna, ben = phone(), phone()
    a_table_at_sea(anna, ben, live_server)
    anna.set_viewport_size({"width": 820, "height": 1180})
    row(anna, "Swordfysh").locator("summary.rowline").click()
    assert anna.evaluate("document.documentElement.scrollWidth") <= 820
    # two warships a line: a docked auxiliary's hidden box takes no grid cell beside its warship
    first, second = (row(anna, name).bounding_box() for name in ("Heldenhammer", "Flaming Scimitar"))
    assert abs(first["y"] - second["y"]) <= 2 and second["x"] > first["x"] + first["width"] / 2, (first, second)
    anna.evaluate("window.scrollTo(0, 0)")
    shot(anna, "board-tablet.png")


def test_an_open_card_on_a_tablet_has_room_for_its_controls(live_server, phone):
    """At 1024 px a side's warships stand three a line; an open one's card takes two of those columns,
    and every control of it lies inside the card (in one column its Crew damage + ran over the edge)."""
    anna, ben = phone(), phone()
    a_table_at_sea(anna, ben, live_server)
    anna.set_viewport_size({"width": 1024, "height": 1366})
    closed = row(anna, "Flaming Scimitar").bounding_box()
    opened = row(anna, "Swordfysh")
    opened.locator("summary.rowline").click()
    controls = opened.locator(".unitcard button:visible")
    expect(controls.first).to_be_visible()
    card = opened.bounding_box()
    assert card["width"] >= 1.9 * closed["width"], (card, closed)
    assert controls.count() >= 8  # the card's steppers and status buttons, not a placeholder
    for control in controls.all():
        box = control.bounding_box()
        assert card["x"] <= box["x"] and box["x"] + box["width"] <= card["x"] + card["width"], (box, card)
    assert anna.evaluate("document.documentElement.scrollWidth") <= 1024
    shot(anna, "board-tablet-open-card.png")
