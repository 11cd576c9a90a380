"""Issue 40 §7 on a phone (390x844): the top bar keeps a short seat and its side whole ("Dreadfl/eet"
wrapped on three lines); a host that stops answering while the phone's network is fine is said as
such, not "Offline"; and a tap refused meanwhile says so where the player can read it, above the
bottom bar, not below the fold at the end of the unit's long card."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from phone_checks import open_card, open_table, shots
from test_core_browser import add_unit

pytestmark = pytest.mark.browser


def words_broken(page, selector) -> list[str]:
    """The words of an element's text that are split over two lines."""
    return page.evaluate("""(sel) => {
        const el = document.querySelector(sel), out = [];
        const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
        for (let n = walker.nextNode(); n; n = walker.nextNode()) {
          for (const m of n.textContent.matchAll(/\\S+/g)) {
            const r = document.createRange(); r.setStart(n, m.index); r.setEnd(n, m.index + m[0].length);
            const tops = new Set([...r.getClientRects()].map(x => Math.round(x.top)));
            if (tops.size > 1) out.push(m[0]);
          }
        }
        return out; }""", selector)


def seat_lines(page) -> int:
    return page.evaluate("""() => { const s = document.querySelector('nav.top .seat');
        return Math.round(s.getBoundingClientRect().height / parseFloat(getComputedStyle(s).lineHeight)); }""")


@pytest.mark.parametrize("width", [360, 390])
def test_a_short_seat_and_its_side_stay_whole_in_the_top_bar(live_server, phone, width):
    al = phone()
    al.set_viewport_size({"width": width, "height": 844})
    open_table(al, live_server, "dreadfleet", "The Bay", "Dreadfleet", ready="#board", seat="Al")
    expect(al.locator("nav.top .seat")).to_contain_text("Dreadfleet")
    al.screenshot(path=str(shots("dreadfleet") / f"top-bar-{width}.png"), clip={"x": 0, "y": 0, "width": width, "height": 120})
    assert words_broken(al, "nav.top .seat") == []
    assert seat_lines(al) <= 2
    assert al.evaluate("document.documentElement.scrollWidth") <= width


def test_the_link_sign_keeps_its_word_beside_a_long_seat_name(live_server, phone):
    """"● live" beside "Annabelle · Grand Alliance" on a 390 px phone: the sign and its word on one line
    (they wrapped apart: session 4's screenshot)."""
    anna = phone()
    anna.set_viewport_size({"width": 390, "height": 844})
    open_table(anna, live_server, "dreadfleet", "The Bay", "Grand Alliance", ready="#board", seat="Annabelle")
    expect(anna.locator("#link-state")).to_have_text("● live")
    lines = anna.evaluate("""() => { const n = document.querySelector('#link-state').firstChild;
        const r = document.createRange(); r.selectNodeContents(n);
        return new Set([...r.getClientRects()].map(x => Math.round(x.top))).size; }""")
    assert lines == 1
    anna.screenshot(path=str(shots("dreadfleet") / "top-bar-long-seat.png"), clip={"x": 0, "y": 0, "width": 390, "height": 120})


def test_a_host_that_stops_answering_is_said_so_and_a_refused_tap_shows_above_the_bar(live_server, phone):
    anna = phone()
    anna.route("**/live*", lambda route: route.abort("connectionrefused"))  # (the polls say who answers)
    open_table(anna, live_server, "freeform", "Lights out", None, None, "#board")
    add_unit(anna, "Nimitz", 8)
    row = open_card(anna, "Nimitz")
    anna.route("**/poll*", lambda route: route.abort("connectionrefused"))  # the host stops; the Wi-Fi is fine
    expect(anna.locator("#stale")).to_contain_text("The host is not answering", timeout=5000)
    expect(anna.locator("#stale")).not_to_contain_text("Offline")
    expect(anna.locator("#link-state")).to_have_text("○ no answer")
    assert seat_lines(anna) <= 2  # the state's words do not squeeze the seat onto four lines
    assert anna.evaluate("document.documentElement.scrollWidth") <= 390  # nor push the bar off the screen
    minus = row.get_by_label("HP minus one")
    minus.scroll_into_view_if_needed()
    minus.click()
    note = anna.locator(".not-sent")
    expect(note).to_contain_text("Not sent: the host is not answering")
    box, dock = note.bounding_box(), anna.locator(".dock").bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= dock["y"], (box, dock)  # in view, above the bottom bar
    anna.screenshot(path=str(shots("freeform") / "host-not-answering.png"))
    anna.screenshot(path=str(shots("freeform") / "host-not-answering-top.png"), clip={"x": 0, "y": 0, "width": 390, "height": 70})
    anna.unroute("**/poll*")
    expect(anna.locator("#link-state")).to_have_text("● live", timeout=5000)
