"""Issue 27 on two phones (390x844): a hit entered on the wrong ship, noticed two moves later and
taken back from the log; both phones show the corrected hulls with the later moves still in place."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from phone_checks import assert_fits_a_phone, open_card, shots, two_players
from test_core_browser import add_unit, hp_of

pytestmark = pytest.mark.browser


def card(page, name):
    open_card(page, name)
    return page.locator("form.unit", has=page.locator("h3", has_text=name))


def wrong_ship_hit(live_server, phone):
    """Anna and Ben at a table with the Nimitz (8 HP) and the Zhukov (6 HP); Ben's hit meant for
    the Zhukov lands on the Nimitz."""
    anna, ben = phone(), phone()
    two_players(anna, ben, live_server)
    add_unit(anna, "Nimitz", 8)
    add_unit(anna, "Zhukov", 6)
    expect(hp_of(ben, "Zhukov")).to_have_text("6", timeout=2500)
    card(ben, "Nimitz").get_by_label("HP minus one").click()  # meant for the Zhukov
    expect(hp_of(ben, "Nimitz")).to_have_text("7")
    return anna, ben


def test_a_hit_on_the_wrong_ship_is_taken_back_from_the_log_two_moves_later(live_server, phone):
    anna, ben = wrong_ship_hit(live_server, phone)
    card(ben, "Zhukov").get_by_label("HP minus one").click()  # two more moves after it
    expect(hp_of(ben, "Zhukov")).to_have_text("5")
    ben.click("#roll button[value^='roll expr=2d6']")
    expect(ben.locator("#rolls li").first).to_contain_text("rolled 2d6")
    expect(hp_of(anna, "Nimitz")).to_have_text("7", timeout=2500)

    code = re.search(r"/t/([A-Z0-9]+)", anna.url).group(1)
    anna.goto(f"{live_server}/t/{code}/log")
    hit = anna.locator("ol.log li", has_text="Nimitz HP -1 (8 → 7)")
    hit.locator("details.fix summary").click()
    expect(hit.get_by_role("button", name="Take back this move")).to_be_visible()
    anna.set_viewport_size({"width": 390, "height": 844})
    hit.scroll_into_view_if_needed()
    anna.screenshot(path=str(shots("freeform") / "log-take-back.png"))
    assert_fits_a_phone(anna, "ol.log button, ol.log select, ol.log input, ol.log summary")
    hit.get_by_role("button", name="Take back this move").click()

    expect(anna.locator("ol.log li").first).to_contain_text("took back #")
    expect(anna.locator("ol.log li.withdrawn", has_text="Nimitz HP -1 (8 → 7)")).to_contain_text("(taken back: #")
    anna.goto(f"{live_server}/t/{code}")
    for page in (anna, ben):  # Ben's board catches up by its poll
        expect(hp_of(page, "Nimitz")).to_have_text("8", timeout=3000)
        expect(hp_of(page, "Zhukov")).to_have_text("5")  # the later hit still counted
        expect(page.locator("#rolls li").first).to_contain_text("rolled 2d6")  # and the roll still there
        expect(page.locator("#undo button")).to_contain_text("Anna: took back #")  # the bar says so

    # Zhukov's arrival cannot go alone: the later hit on it is named, and both can go in one tap (#2 is
    # Ben's seat: a join, companion/roster.py)
    anna.goto(f"{live_server}/t/{code}/log")
    arrival = anna.locator("ol.log li", has_text="Zhukov joins")
    arrival.locator("details.fix summary").click()
    arrival.get_by_role("button", name="Take back this move").click()
    arrival = anna.locator("ol.log li", has_text="Zhukov joins")
    expect(arrival.locator(".err-text")).to_contain_text("#6 Zhukov HP -1 (6 → 5) no longer applies without #4: "
                                                         "No unit Zhukov at this table.")
    both = arrival.get_by_role("button", name="Take back #4 and #6")
    both.scroll_into_view_if_needed()
    anna.screenshot(path=str(shots("freeform") / "log-take-back-both.png"))
    assert_fits_a_phone(anna, "ol.log button, ol.log select, ol.log input, ol.log summary")
    both.click()
    expect(anna.locator("ol.log li").first).to_contain_text("took back #4: Zhukov joins Side A and #6: Zhukov HP -1")
    expect(ben.locator("details.unitrow", has=ben.locator("summary .rname", has_text="Zhukov"))).to_have_count(0, timeout=3000)


def test_the_same_hit_tapped_on_both_phones_is_asked_about_and_counted_once(live_server, phone):
    """Issue 28 item 3: both tap -1 on the Nimitz within a second; the second phone is asked
    "Anna also took 1 HP from Nimitz ... Same hit?" above its bottom bar; "Take mine back" leaves
    the hit counted once on both phones."""
    anna, ben = phone(), phone()
    two_players(anna, ben, live_server)
    add_unit(anna, "Nimitz", 8)
    expect(hp_of(ben, "Nimitz")).to_have_text("8", timeout=2500)
    minus_anna, minus_ben = card(anna, "Nimitz").get_by_label("HP minus one"), card(ben, "Nimitz").get_by_label("HP minus one")
    minus_anna.click()
    minus_ben.click()  # the same hit, a moment later
    ask = ben.locator("#same-hit .sheet")
    expect(ask).to_contain_text("Anna also took 1 HP from Nimitz")
    expect(ask).to_contain_text("Same hit?")
    assert anna.locator("#same-hit .sheet").count() == 0  # the first tap is not asked about
    box, bar = ask.bounding_box(), ben.locator("nav.bar").bounding_box()
    assert box["y"] + box["height"] <= bar["y"] + 1 and box["y"] > 844 / 2  # just above the bar, by the thumb
    ben.screenshot(path=str(shots("freeform") / "same-hit.png"))
    ask.get_by_role("button", name="Take mine back").click()
    expect(ben.locator("#same-hit .sheet")).to_have_count(0)
    for page in (ben, anna):
        expect(hp_of(page, "Nimitz")).to_have_text("7", timeout=3000)  # counted once on both phones
    expect(anna.locator("#undo button")).to_contain_text("Ben: took back #", timeout=3000)


def test_keep_both_leaves_both_hits(live_server, phone):
    anna, ben = phone(), phone()
    two_players(anna, ben, live_server)
    add_unit(anna, "Nimitz", 8)
    expect(hp_of(ben, "Nimitz")).to_have_text("8", timeout=2500)
    card(anna, "Nimitz").get_by_label("HP minus one").click()
    card(ben, "Nimitz").get_by_label("HP minus one").click()
    ben.locator("#same-hit").get_by_role("button", name="Keep both").click()
    expect(ben.locator("#same-hit .sheet")).to_have_count(0)
    for page in (ben, anna):
        expect(hp_of(page, "Nimitz")).to_have_text("6", timeout=3000)


def test_a_hit_on_the_wrong_ship_is_corrected_from_the_log(live_server, phone):
    anna, ben = wrong_ship_hit(live_server, phone)
    ben.click("#roll button[value^='roll expr=d6']")
    expect(ben.locator("#rolls li").first).to_contain_text("rolled d6")
    code = re.search(r"/t/([A-Z0-9]+)", ben.url).group(1)
    ben.goto(f"{live_server}/t/{code}/log")
    hit = ben.locator("ol.log li", has_text="Nimitz HP -1 (8 → 7)")
    hit.locator("details.fix summary").click()
    hit.locator("select[name='instead.unit']").select_option(label="Zhukov")
    hit.get_by_role("button", name="Correct").click()
    expect(ben.locator("ol.log li").first).to_contain_text("corrected #5 to Zhukov HP -1 (6 → 5) (was Nimitz HP -1 (8 → 7))")
    ben.goto(f"{live_server}/t/{code}")
    for page in (ben, anna):
        expect(hp_of(page, "Nimitz")).to_have_text("8", timeout=3000)
        expect(hp_of(page, "Zhukov")).to_have_text("5")
        expect(page.locator("#rolls li").first).to_contain_text("rolled d6")
