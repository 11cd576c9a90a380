"""Every game's board is short on a phone (issue 28 §1): with set-up done and every unit row closed,
the board (#board) holds under two screens (1,688 px at 390x844) in every phase of a real turn, the
phone having played into that phase with the bar's Next button (its board redrawn in place, as at the
table), and every label there is whole (issue 28 §5: no ellipsis on a seat, a phase or a name). Screenshots of each phase go to $COMPANION_SHOTS/<game>/ (phone_checks.shots)."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from phone_checks import PHONE, open_table, shots, two_players

pytestmark = pytest.mark.browser

TWO_SCREENS = 2 * PHONE["height"]  # 1,688 px
SYNC = 5000


def board_height(page) -> float:
    """The board's height with every unit row closed (what a player scrolls through to reach a ship)."""
    page.evaluate("document.querySelectorAll('details.unitrow[open]').forEach(d => d.open = false)")
    return page.locator("#board").bounding_box()["height"]


WHOLE = "nav.top .seat, nav.bar .btn.next small, #turn .round, #turn [data-phase], .rname, .phaseline li, .togo"


def cut_words(page) -> list[str]:
    """Labels a player reads that are cut (an ellipsis, or text clipped) at the phone's width (issue 28 §5):
    the seat in the top bar, the next phase in the bottom bar, the turn line, every unit's name."""
    return page.evaluate("""(sel) => [...document.querySelectorAll(sel)].filter(e => e.offsetParent).filter(e => {
        const st = getComputedStyle(e);
        return st.textOverflow === 'ellipsis' || st.webkitLineClamp !== 'none'
            || (st.overflowX !== 'visible' && e.scrollWidth > e.clientWidth + 1);
      }).map(e => e.textContent.trim())""", WHOLE)


def cut_placeholders(page) -> list[list]:
    """One-line placeholders (a textarea's wraps) wider than their field's room (its width less its
    padding), measured with the field's own font: [text, width, room]. A hint cut there is a hint the
    player cannot read."""
    return page.evaluate("""() => { const c = document.createElement('canvas').getContext('2d');
        return [...document.querySelectorAll('input[placeholder]')].filter(e => e.offsetParent).map(e => {
          const st = getComputedStyle(e); c.font = st.font;
          const room = e.clientWidth - parseFloat(st.paddingLeft) - parseFloat(st.paddingRight);
          return [e.placeholder, Math.round(c.measureText(e.placeholder).width), Math.round(room)];
        }).filter(([, width, room]) => width > room + 1); }""")


def through_a_turn(page, game, phases, shot_name="board"):
    """Taps Next in the bottom bar through ``phases`` (the phase names in the order they come, the first
    being the one the board is at), measuring the board in each; fails on any phase over two screens or
    with a label cut."""
    heights = {}
    folder = shots(game)
    for i, name in enumerate(phases):
        if i:
            page.locator("nav.bar #next button").click()
        expect(page.locator("#turn [data-phase]")).to_have_text(name)
        page.wait_for_timeout(300)  # (the helpers' second request, the page settled)
        heights[name] = max(heights.get(name, 0), board_height(page))
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(folder / f"{shot_name}-{re.sub('[^a-z]+', '-', name.lower()).strip('-')}.png"))
        assert cut_words(page) == [], (name, cut_words(page))
    print(game, {k: round(v) for k, v in heights.items()})
    over = {k: round(v) for k, v in heights.items() if v > TWO_SCREENS}
    assert not over, over
    return heights


def test_dreadfleet_board_in_every_phase(live_server, phone):
    from test_dreadfleet_phone_rows import a_table_at_sea
    anna, ben = phone(), phone()
    a_table_at_sea(anna, ben, live_server)  # five warships a side, set-up done, at the Action phase
    # Ben watched the set-up being finished: his set-up checklist folds all the same
    expect(ben.locator("#df-panel details.df-setup")).not_to_have_attribute("open", "")
    through_a_turn(ben, "dreadfleet", ["Action", "End", "Initiative", "Status", "Fate", "Action"])


def test_dreadfleet_set_up_folds_once_done_on_the_phone_that_watched(live_server, phone):
    """The checklist is open while set-up is under way; the step that finishes it (on another phone,
    arriving by poll) folds it to one line, which still opens with a tap."""
    from test_dreadfleet_phone_rows import DREADFLEET, GRAND_ALLIANCE, STATS
    anna, ben = phone(), phone()
    two_players(anna, ben, live_server, "dreadfleet", "The Bay", ("Grand Alliance", "Dreadfleet"))
    setup = ben.locator("#df-panel details.df-setup")
    expect(setup).to_have_attribute("open", "")
    code = anna.url.split("#")[0].rstrip("/").split("/")[-1]
    csrf = anna.locator("input[name=csrf_token]").first.get_attribute("value")

    def post(path, **form):
        resp = anna.request.post(f"{live_server}/t/{code}/{path}", form={"csrf_token": csrf, **form})
        assert resp.ok, resp.text()[:300]

    for name in GRAND_ALLIANCE[:1] + DREADFLEET[:1]:
        post("act", type="df-warship", name=name, sail="1", **{f"stats.{k}": str(v) for k, v in STATS.items()})
    for deck in ("damage", "fate"):
        post("act", type="deck-mode", deck=deck, mode="physical")
    ben.wait_for_timeout(1500)
    expect(setup).to_have_attribute("open", "")  # the wind gauge still to place
    post("act", type="df-wind-place", dice="3 4")
    expect(ben.locator("#df-panel details.df-setup summary")).to_contain_text("Set-up ✓", timeout=SYNC)
    expect(setup).not_to_have_attribute("open", "")
    setup.locator("summary").click()  # one tap shows the checklist again, and it stays open across polls
    ben.wait_for_timeout(1500)
    post("act", type="roll", expr="d6")
    expect(ben.locator("#result")).to_be_visible(timeout=SYNC)
    expect(setup).to_have_attribute("open", "")


def test_empires_of_dust_board_in_every_phase(live_server, phone):
    from test_empires_of_dust_browser import at_the_table
    anna, ben = phone(), phone()
    at_the_table(anna, ben, live_server)
    anna.select_option("#eod-average select[name=side]", "Fleet 1")
    anna.click("#eod-average button.primary")
    expect(anna.locator("details.unitrow")).to_have_count(4)
    ben.click("#eod-average button.primary")
    expect(anna.locator("details.unitrow")).to_have_count(8, timeout=SYNC)
    anna.locator("#eod-initiative select[name=mode]").select_option("rotating")
    anna.click("#eod-initiative button[value=eod-initiative]")
    expect(anna.locator("#eod-panel [data-next]")).to_contain_text("moves")
    through_a_turn(anna, "empires-of-dust", ["Movement", "Combat", "Movement"])


def test_dreadnaught_board_in_every_phase(live_server, phone):
    from test_dreadnaught_browser import at_the_table
    anna, ben = phone(), phone()
    at_the_table(anna, ben, live_server, "Anna, Ben, Cleo, Dan")
    anna.click("#dn-setup button[name=do]")
    expect(anna.locator("details.unitrow")).to_have_count(4, timeout=SYNC)
    through_a_turn(anna, "dreadnaught", ["Draw", "Power Management", "Ready", "Reveal", "Resolve", "React",
                                         "Discard", "Return", "Draw"])


def test_talon_board_in_every_phase(live_server, phone):
    from test_talon_phone_rows import at_war
    anna = at_war(live_server, phone)[0]
    phases = anna.locator("#turn ol.phases li").all_inner_texts()
    assert len(phases) == 13, phases
    through_a_turn(anna, "talon", phases + phases[:1])
    # the rows' letters in the rulebook's words, one tap away (issue 28 §5)
    legend = anna.locator("#tl-legend")
    legend.locator("summary").click()
    expect(legend).to_contain_text("A row of the Power Curve: Power, Speed, Turn Radius")
    legend.scroll_into_view_if_needed()
    anna.screenshot(path=str(shots("talon") / "legend.png"))


def test_astral_action_board_in_every_phase(live_server, phone):
    from test_astral_action_phone_rows import mid_game, two_phones
    anna, ben = two_phones(live_server, phone)
    mid_game(anna, ben, live_server)  # orders given, damage, a formation, at the Activation phase
    through_a_turn(anna, "astral-action", ["Activation", "Resolution", "Command", "Activation"])


def test_the_earlier_rolls_are_one_tap_away_and_stay_open_across_a_step(live_server, phone):
    """The board shows the newest roll; the three before it open with a tap and stay open when another
    phone's roll arrives as a step (an out-of-band swap of #rolls: companion/drawn.py)."""
    anna, ben = phone(), phone()
    two_players(anna, ben, live_server)
    for n in range(3):
        anna.locator("#roll button", has_text="d6").first.click()
        expect(anna.locator("#rolls li")).to_have_count(n + 1)
    expect(anna.locator("#rolls > ol > li")).to_have_count(1)
    expect(anna.locator("#rolls-earlier summary")).to_have_text("2 earlier")
    anna.locator("#rolls-earlier summary").click()
    expect(anna.locator("#rolls-earlier")).to_have_attribute("open", "")
    ben.locator("#roll button", has_text="2d6").click()
    expect(anna.locator("#rolls > ol > li").first).to_contain_text("Ben", timeout=SYNC)
    expect(anna.locator("#rolls-earlier")).to_have_attribute("open", "")
    expect(anna.locator("#rolls-earlier li")).to_have_count(3)
    expect(anna.locator("#rolls-earlier")).to_contain_text("the full log")


def test_every_placeholder_whole_at_390_px_in_three_languages(live_server, phone):
    """Every field's placeholder on every game's board, panel and tools (all folds open) fits its field at
    390 px in English, German and French: a format hint goes in the field's label, which wraps
    (Dreadfleet's "real dice (optional)", Talon's custom ship's lines); the placeholder is its example."""
    cut = {}
    for system in ("freeform", "dreadfleet", "empires-of-dust", "dreadnaught", "talon", "astral-action"):
        page = phone()  # (each its own: the language chosen is the phone's)
        open_table(page, live_server, system=system, name="Whole " + system)
        for lang in ("en", "de", "fr"):
            page.locator("details.lang-menu summary").click()
            page.locator(f"details.lang-menu button[lang={lang}]").click()
            expect(page.locator("html")).to_have_attribute("lang", lang)
            page.evaluate("document.querySelectorAll('details:not(.lang-menu)').forEach(d => d.open = true)")
            page.wait_for_timeout(400)  # (a fold's lazy part, the helpers' second request)
            cut.update({(system, lang, text): (width, room) for text, width, room in cut_placeholders(page)})
    assert cut == {}, cut
