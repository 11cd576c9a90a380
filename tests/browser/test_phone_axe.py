"""Every page type passes an axe-core scan with no critical or serious violation (issue 28 §7): the lobby,
joining a table, each game's board (a row open, the helpers in), the log and the battle report.  And
again in German, the longest words of the app's three languages (issue 42): the phone switches with its
menu, and the page is scanned, checked for a cut label (test_phone_board_lengths.cut_words) and for
sideways scrolling at 360 and 390 px (phone_checks.assert_fits_a_phone).

axe-core is vendored from its npm package (tests/browser/vendor/axe-<version>.min.js, its MPL-2.0 licence
beside it; refreshed with `npm pack axe-core@4`)."""
from __future__ import annotations

from pathlib import Path

import pytest
from phone_checks import assert_fits_a_phone, open_card, open_table
from playwright.sync_api import expect
from test_phone_board_lengths import cut_words

pytestmark = pytest.mark.browser

AXE = next((Path(__file__).parent / "vendor").glob("axe-*.min.js"))
FAILING = ("critical", "serious")


def axe_scan(page, what: str) -> None:
    """Runs axe on the page as it is; fails listing every critical or serious violation."""
    page.wait_for_load_state("load")
    page.wait_for_timeout(300)  # (the helpers' second request, a poll's swap)
    if not page.evaluate("!!window.axe"):  # (evaluated, not a <script>: the app's CSP allows no inline one)
        page.evaluate(AXE.read_text() + "\n;true")
    found = page.evaluate("""async () => { const r = await axe.run(document, {resultTypes: ['violations']});
        return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
                                       nodes: v.nodes.slice(0, 3).map(n => n.html.slice(0, 120))})); }""")
    bad = [v for v in found if v["impact"] in FAILING]
    others = [f"{v['id']} ({v['impact']})" for v in found if v["impact"] not in FAILING]
    if others:
        print(what, "minor:", others)
    assert bad == [], f"{what}: {bad}"


def html_lang(page) -> str:
    return page.locator("html").get_attribute("lang")


def in_german(page, what: str, controls: str = "#board button, #board select") -> None:
    """The phone turns German with its own menu; the page, as it then reads, passes the same checks."""
    page.locator("details.lang-menu summary").click()
    page.locator("details.lang-menu button[lang=de]").click()
    expect(page.locator("html")).to_have_attribute("lang", "de")
    page.evaluate("document.querySelectorAll('details.unitrow').forEach(d => d.open = false)")
    axe_scan(page, what + " (Deutsch)")
    assert cut_words(page) == [], (what, cut_words(page))
    assert_fits_a_phone(page, controls)


def test_lobby_join_board_log_and_report(live_server, phone):
    anna, ben = phone(), phone()
    anna.goto(live_server + "/")
    axe_scan(anna, "lobby")
    url, _ = open_table(anna, live_server)
    ben.goto(url)
    expect(ben.locator("input[name=seat]")).to_be_visible()
    axe_scan(ben, "join")
    code = anna.url.split("#")[0].rstrip("/").split("/")[-1]
    csrf = anna.locator("input[name=csrf_token]").first.get_attribute("value")
    anna.request.post(f"{live_server}/t/{code}/act", form={"csrf_token": csrf, "do": "roll expr=2d6"})
    anna.reload()
    axe_scan(anna, "board (freeform)")
    anna.goto(f"{live_server}/t/{code}/log")
    axe_scan(anna, "log")
    anna.goto(f"{live_server}/t/{code}/report")
    axe_scan(anna, "report")
    in_german(anna, "report", "main button, main select")
    anna.goto(f"{live_server}/t/{code}/log")
    axe_scan(anna, "log (Deutsch)")
    anna.goto(f"{live_server}/t/{code}")
    axe_scan(anna, "board (freeform, Deutsch)")
    assert cut_words(anna) == [] and html_lang(anna) == "de"
    assert_fits_a_phone(anna)
    ben.goto(live_server + "/")
    in_german(ben, "lobby", "main button, main select")


def test_dreadfleet_board(live_server, phone):
    from test_dreadfleet_phone_rows import a_table_at_sea
    anna, ben = phone(), phone()
    a_table_at_sea(anna, ben, live_server)
    open_card(anna, "Heldenhammer", exact=True)
    axe_scan(anna, "board (dreadfleet)")
    in_german(anna, "board (dreadfleet)")


def test_empires_of_dust_board(live_server, phone):
    from test_empires_of_dust_browser import at_the_table
    anna, ben = phone(), phone()
    at_the_table(anna, ben, live_server)
    anna.select_option("#eod-average select[name=side]", "Fleet 1")
    anna.click("#eod-average button.primary")
    expect(anna.locator("details.unitrow")).to_have_count(4)
    open_card(anna, "Avg. B.")
    axe_scan(anna, "board (empires of dust)")
    in_german(anna, "board (empires of dust)")


def test_dreadnaught_board(live_server, phone):
    from test_dreadnaught_browser import at_the_table
    anna, ben = phone(), phone()
    at_the_table(anna, ben, live_server, "Anna, Ben")
    anna.click("#dn-setup button[name=do]")
    expect(anna.locator("details.unitrow")).to_have_count(2)
    open_card(anna, "Ben's Dreadnaught")
    axe_scan(anna, "board (dreadnaught)")
    in_german(anna, "board (dreadnaught)")


def test_talon_board(live_server, phone):
    from test_talon_phone_rows import at_war
    anna = at_war(live_server, phone)[0]
    open_card(anna, "Zhukov")
    axe_scan(anna, "board (talon)")
    in_german(anna, "board (talon)")


def test_astral_action_board(live_server, phone):
    from test_astral_action_phone_rows import mid_game, two_phones
    anna, ben = two_phones(live_server, phone)
    mid_game(anna, ben, live_server)
    open_card(anna, "Falcon")
    axe_scan(anna, "board (astral action)")
    in_german(anna, "board (astral action)")
