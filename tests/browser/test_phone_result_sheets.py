"""A long result is whole on the phone that made it (issue 28 §2): the result sheet grows to fit,
scrolling inside itself past 40% of the screen; nothing in it is cut; the cards drawn are listed one a
line. Screenshots go to $COMPANION_SHOTS/<game>/ (phone_checks.shots)."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from phone_checks import PHONE, open_table, shots

pytestmark = pytest.mark.browser


def assert_readable(page) -> dict:
    """The sheet on screen, at most 40% of it (+ its border), scrolling inside itself when its result is
    longer; no element inside it clips its text; scrolled to its end, the last line shows whole."""
    sheet = page.locator("#result")
    expect(sheet).to_be_visible()
    info = sheet.evaluate("""s => {
        const clipped = [...s.querySelectorAll('*')].filter(e => {
          const st = getComputedStyle(e);
          return (st.overflowX !== 'visible' && e.scrollWidth > e.clientWidth + 1)
              || (st.overflowY !== 'visible' && e.scrollHeight > e.clientHeight + 1)
              || st.textOverflow === 'ellipsis' || st.webkitLineClamp !== 'none';
        }).map(e => e.outerHTML.slice(0, 100));
        const st = getComputedStyle(s);
        return {height: s.getBoundingClientRect().height, scroll: s.scrollHeight, client: s.clientHeight,
                overflowY: st.overflowY, clipped, wide: s.scrollWidth > s.clientWidth + 1}; }""")
    assert info["clipped"] == [] and not info["wide"], info
    assert info["height"] <= 0.4 * PHONE["height"] + 6, info
    if info["scroll"] > info["client"] + 1:
        assert info["overflowY"] in ("auto", "scroll"), info
    # its end, scrolled to inside the sheet, lies inside the sheet's box
    sheet.evaluate("s => s.scrollTop = s.scrollHeight")
    inside = sheet.evaluate("""s => { const last = [...s.querySelectorAll('li, p, .die')].pop();
        const a = last.getBoundingClientRect(), b = s.getBoundingClientRect();
        return a.bottom <= b.bottom + 1 && a.top >= b.top - 1; }""")
    assert inside, info
    return info


def test_a_broadside_drawing_many_damage_cards_reads_whole(live_server, phone):
    """The reported case: a Dreadfleet broadside's label ended mid-word ("...on the Bloody R...")."""
    from test_dreadfleet_phone_rows import a_table_at_sea, row
    anna, ben = phone(), phone()
    a_table_at_sea(anna, ben, live_server)
    held = row(anna, "Heldenhammer")
    held.locator("summary.rowline").click()
    held.get_by_role("button", name="Activate the Heldenhammer").click()
    held.locator("summary.rowline").click()
    held.locator("xpath=..").locator("a.df-fire").click()
    tool = anna.locator("#df-shot")
    tool.locator("select[name=target]").select_option(label="Bloody Reaver (Dreadfleet)")
    tool.locator("input[name=distance]").fill("3")
    tool.locator("input[name=dice]").fill("6 6 6 6")
    tool.locator("input[name=save_dice]").fill("1 1 1 1")
    tool.get_by_role("button", name="Fire the broadside").click()
    sheet = anna.locator("#result")
    expect(sheet.locator(".df-count")).to_have_text("4 hits · 0 saved → 4 Damage cards")
    # the label whole, its last words too; the four cards one a line
    expect(sheet.locator(".who")).to_contain_text(re.compile(r"Hull hit on the Bloody Reaver\s*$"))
    cards = sheet.locator("ol.df-drawn li")
    expect(cards).to_have_count(4)
    expect(cards.first).to_have_text("Hull hit Hull → the Bloody Reaver")
    tops = [cards.nth(i).bounding_box()["y"] for i in range(4)]
    assert tops == sorted(tops) and len(set(round(t) for t in tops)) == 4, tops  # one a line
    info = assert_readable(anna)
    assert info["scroll"] > info["client"], info  # longer than 40% of the screen: it scrolls inside
    sheet.evaluate("s => s.scrollTop = 0")
    anna.screenshot(path=str(shots("dreadfleet") / "result-long.png"))


def test_cards_drawn_from_a_deck_are_listed_one_a_line(live_server, phone):
    anna = phone()
    open_table(anna, live_server)
    deck = anna.locator("#deck-deck")
    deck.locator("summary", has_text="Deck set-up").click()
    deck.locator("button", has_text="Load and shuffle").click()
    expect(deck.locator("[data-pile=draw]")).to_contain_text("6 to draw")
    for left in (5, 4):
        deck.get_by_role("button", name="Draw", exact=True).click()
        expect(deck.locator("[data-pile=draw]")).to_contain_text(f"{left} to draw")
    kind = deck.locator("select[name=value]")
    if kind.count():  # draw until a type (the last listed: likelier several cards in one result)
        kind.select_option(index=kind.locator("option").count() - 1)
        deck.get_by_role("button", name="Draw until type").click()
        # that draw's answer is in (the sheet of the draw before it is replaced in the same swap)
        expect(deck.locator("[data-pile=draw]")).not_to_contain_text("4 to draw")
    cards = anna.locator("#result .playing-card")
    expect(cards.first).to_be_visible()
    boxes = [cards.nth(i).bounding_box() for i in range(cards.count())]
    assert len({round(b["y"]) for b in boxes}) == len(boxes), boxes  # one a line
    assert_readable(anna)
    anna.screenshot(path=str(shots("freeform") / "result-cards.png"))
