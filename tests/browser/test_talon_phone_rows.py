"""Talon one-handed at 390x844 (issue 10 §3): two ships a side as compact rows (hull, shields per arc,
Power, Speed); "Fire" on a ship's row opens its fire form; firing, other damage, next phase and undo each
in at most two taps from the closed board; the fire result in the sheet above the bottom bar on both
phones; the page does not jump; one Afterburner button per ship. Screenshots go to $COMPANION_SHOTS/talon/
if it exists."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect
from phone_checks import shots, two_players
from test_phone_result_sheets import assert_readable

pytestmark = pytest.mark.browser

SHOTS = shots("talon")
SCREEN = 844
SYNC = 5000
FLEET = [("terran-ca", "Zhukov"), ("terran-ca", "Nimitz"), ("talon-ca", "Justice"), ("talon-ca", "Fury")]


def shot(page, name):
    if SHOTS.is_dir():
        page.screenshot(path=str(SHOTS / name))


def row(page, name):
    return page.locator("details.unitrow", has=page.locator("summary .rname", has_text=re.compile(f"^{name}$")))


def top_of(locator):
    return locator.evaluate("el => el.getBoundingClientRect().top")


def above_the_bar(page, locator):
    bar = page.locator("nav.bar").bounding_box()
    box = locator.bounding_box()
    return box["y"] >= 0 and box["y"] + box["height"] <= bar["y"] + 1


class Table:
    """The table's moves a round needs before anything can fire, posted as the board's buttons post them."""

    def __init__(self, page, base):
        self.page, self.base = page, base
        self.code = page.url.split("#")[0].rstrip("/").split("/")[-1]
        self.csrf = page.locator("input[name=csrf_token]").first.get_attribute("value")
        self.round, self.phase = 1, 0

    def post(self, do, **fields):
        r = self.page.request.post(f"{self.base}/t/{self.code}/act", form={"csrf_token": self.csrf, "do": do, **fields})
        assert r.ok, re.findall(r"class=\"err[^>]*>.{0,200}", r.text())
        self.seq = re.search(r'id="board" data-seq="(\d+)"', r.text()).group(1)  # the board it answered with

    def caught_up(self, *pages):
        """The phones' boards show the table as these posts left it (they learn of them by polling):
        a tap before that could land on a card that the catching up replaces."""
        for page in pages:
            expect(page.locator("#board")).to_have_attribute("data-seq", self.seq, timeout=SYNC)

    def uid(self, name):
        return self.page.locator("details.unitrow", has=self.page.locator(".rname", has_text=re.compile(f"^{name}$"))
                                 ).get_attribute("id").removeprefix("row-")

    def next_phase(self, times=1):
        for _ in range(times):
            self.post(f"next-phase expect_round={self.round} expect_phase={self.phase}")
            self.phase += 1
            if self.phase == 13:  # A-F, each side's turn, then the Power Phase (seed 003, TALON.md 1)
                self.round, self.phase = self.round + 1, 0


def at_war(live_server, phone):
    """Anna (Terran) and Ben (Talon) at a table with FLEET on it, Anna's board showing its four rows."""
    anna, ben = phone(), phone()
    two_players(anna, ben, live_server, "talon", "War is upon us", ("Terran", "Talon"))
    table = Table(anna, live_server)
    for cls, name in FLEET:
        table.post("talon-ship", cls=cls, name=name)
    anna.reload()
    expect(anna.locator("details.unitrow")).to_have_count(4)
    return anna, ben, table


def charge_to_fire(table, justice, *pages):
    """Round 1 as the existing round test plays it: Justice charges yellow G1 with its AP in B, D and F
    (3-3-1 gets AP there, seed 003 Impulse Chart), the Power Phase fills the red box and one passive
    yellow; then round 2, impulse A, Talon (initiative) first, on every page."""
    table.next_phase(2)
    for impulse in range(3):
        table.post(f"talon-ap unit={justice} use=yellow group=1 pay=ap")
        table.next_phase(4 if impulse < 2 else 2)
    table.post(f"talon-passive unit={justice} group=1")
    table.next_phase()
    for page in pages:
        page.reload()
        expect(page.locator(".round")).to_have_text("Round 2")


def test_talon_rows_fire_from_the_row_in_two_taps(live_server, phone):
    anna, ben, table = at_war(live_server, phone)
    justice = table.uid("Justice")

    charge_to_fire(table, justice, anna, ben)
    taps = {}

    # closed rows: hull, shields per arc, Power, Speed; four ships well within two screens
    expect(row(ben, "Zhukov").locator("[data-row-hull]")).to_have_text("Hull 6/6")
    expect(row(ben, "Zhukov").locator("[data-row-shields]")).to_contain_text("F6")
    board = ben.locator("#board").bounding_box()["height"]
    assert board <= 2 * SCREEN, board  # before rows: 2,433 px for this table
    ben.evaluate("window.scrollTo(0, 0)")
    shot(ben, "talon-rows-closed.png")

    # Fire on Justice's closed row (1): its fire form, in view, its ready group chosen
    fire_link = row(ben, "Justice").locator("xpath=..").locator("a.tl-rowfire")
    expect(row(ben, "Fury").locator("xpath=..").locator("a.tl-rowfire")).to_have_count(0)  # nothing ready: no Fire
    fire_link.click()
    form = ben.locator(f"#tl-fire-{justice}")
    expect(form).to_be_visible()
    expect(form.locator("select[name=group]")).to_have_value("1")
    expect(form).to_be_in_viewport()
    form.locator("select[name=target]").select_option(label="Zhukov")
    form.locator("input[name=range]").fill("2")
    form.locator("select[name=arc]").select_option("F")
    form.locator("input[name=in_arc][value=F]").check()  # (the target in Justice's forward arc: seed 003 5.3.1)
    form.locator("input[name=dice]").fill("5 1")
    form.scroll_into_view_if_needed()
    shot(ben, "talon-fire-form.png")
    summary = row(ben, "Justice").locator("summary .rname")
    before = top_of(summary)
    form.get_by_role("button", name="Fire").click()  # (2)
    taps["fire"] = 2
    sheet = ben.locator("#result")
    expect(sheet).to_contain_text("2 damage: 2 on forward shields")
    assert_readable(ben)  # whole on the phone that made it (issue 28 §2)
    assert above_the_bar(ben, sheet)
    assert abs(top_of(summary) - before) < 4
    expect(anna.locator("#result")).to_contain_text("2 damage: 2 on forward shields", timeout=SYNC)
    expect(row(anna, "Zhukov").locator("[data-row-shields]")).to_contain_text("F4")
    shot(ben, "talon-fire-result.png")

    # one Afterburner button per ship: Fury does not move in A (3-3-1 moves in B, D, F), so its card offers
    # one button for its afterburner, the way it moves chosen beside it
    fury = row(ben, "Fury")
    fury.locator("summary .rname").click()
    burner = fury.get_by_role("button", name=re.compile("Afterburner"))
    expect(burner).to_have_count(1)
    expect(burner).to_have_text("Afterburner: 1 hex (2 left)")
    expect(fury.get_by_role("button", name="Straight", exact=True)).to_have_count(0)
    fury.get_by_label("how the afterburner moves it").select_option("straight")
    burner.click()
    expect(fury.locator("[data-tl-result]")).to_contain_text("Fury moves straight")
    expect(fury).to_contain_text("afterburners 1/2")
    fury.locator("summary .rname").click()

    # other damage: Anna opens Nimitz's row (1), types 3, taps Hull (2)
    row(anna, "Nimitz").locator("summary .rname").click()
    card = row(anna, "Nimitz").locator("[data-tl-damage]")
    card.locator("input[name=amount]").fill("3")
    hull = card.get_by_role("button", name="Hull", exact=True)
    hull.evaluate("el => el.scrollIntoView({block: 'center'})")  # where the thumb is, clear of the bar
    before = top_of(hull)
    hull.click()
    taps["damage"] = 2
    expect(row(anna, "Nimitz").locator("[data-row-hull]")).to_have_text("Hull 3/6")
    expect(row(ben, "Nimitz").locator("[data-row-hull]")).to_have_text("Hull 3/6", timeout=SYNC)
    expect(card.locator("input[name=amount]")).to_have_value("")  # that hit's number goes with it
    assert abs(top_of(hull) - before) < 4
    shot(anna, "talon-row-open.png")

    # undo her own move (1), next phase (1), in the bar
    anna.click("#undo button")
    taps["undo"] = 1
    expect(row(ben, "Nimitz").locator("[data-row-hull]")).to_have_text("Hull 6/6", timeout=SYNC)
    anna.click("nav.bar #next button")
    taps["next phase"] = 1
    expect(ben.locator("[data-phase]")).to_have_text("A · other player", timeout=SYNC)
    assert max(taps.values()) <= 2, taps


    # the same board on a tablet
    ben.set_viewport_size({"width": 820, "height": 1180})
    assert ben.evaluate("document.documentElement.scrollWidth") <= 820
    ben.evaluate("window.scrollTo(0, 0)")
    shot(ben, "talon-tablet.png")


def test_a_fire_form_gone_with_its_answer_leaves_its_row_in_place(live_server, phone):
    """Fire takes Justice's fire form away (no group ready after it): the page keeps Justice's card where
    it was on screen, not the old scroll offset, though a part above it grows in the same redraw (as a
    ship above takes a critical and shows its Repair line). The part above is made taller by the test,
    in the answer's own swap, so the redraw is the answer's and the growth is certain."""
    anna, ben, table = at_war(live_server, phone)
    justice = table.uid("Justice")
    charge_to_fire(table, justice, ben)
    row(ben, "Justice").locator("xpath=..").locator("a.tl-rowfire").click()
    form = ben.locator(f"#tl-fire-{justice}")
    expect(form).to_be_visible()
    form.locator("select[name=target]").select_option(label="Zhukov")
    form.locator("input[name=range]").fill("2")
    form.locator("select[name=arc]").select_option("F")
    form.locator("input[name=in_arc][value=F]").check()
    form.locator("input[name=dice]").fill("5 1")
    form.scroll_into_view_if_needed()
    summary = row(ben, "Justice").locator("summary .rname")
    before = top_of(summary)
    # Zhukov (above Justice) drawn 300 px taller by the answer that carries its new shields
    ben.evaluate("""(zhukov) => document.addEventListener('htmx:oobAfterSwap', (e) => {
        if (e.detail.target?.id !== 'u-' + zhukov || document.querySelector('.grown')) return;
        const more = document.createElement('div'); more.className = 'grown'; more.style.height = '300px';
        document.getElementById('u-' + zhukov).append(more); })""", table.uid("Zhukov"))
    form.get_by_role("button", name="Fire").click()
    expect(ben.locator("#result")).to_contain_text("2 damage: 2 on forward shields")
    expect(form).to_have_count(0)
    ben.wait_for_timeout(200)  # (the answer settled)
    assert abs(top_of(summary) - before) < 4, (before, top_of(summary))


def test_power_to_fighters_and_a_redirected_missile_from_the_ship_card(live_server, phone):
    """TALON.md 2 (AP uses from FAN's PowerOption): Transmit Power to Fighters (rule 12.2.2, Bases and CVs)
    and Redirect Missile (rule 13.7, ships with missiles) spend the ship's AP from its card; what our
    sources leave out (TALON.md 11, items 8 and 9) is said on the card, in one short line each."""
    anna, ben = phone(), phone()
    two_players(anna, ben, live_server, "talon", "War is upon us", ("Terran", "Talon"))
    table = Table(anna, live_server)
    for cls, name in [("terran-cv", "Hornet"), ("terran-ftr", "Viper"), ("terran-ca", "Zhukov"),
                      ("terran-ca", "Nimitz"), ("talon-dd", "Hunter")]:
        table.post("talon-ship", cls=cls, name=name)
    hunter, zhukov = table.uid("Hunter"), table.uid("Zhukov")
    table.next_phase(26)  # two Power Phases fill the DD's launcher (2 red boxes): round 3, A
    table.post(f"talon-fire unit={hunter} group=2 target={zhukov} range=3 in_arc=F arc=F")
    table.next_phase(7)  # D, Terran's turn: the CV's Power 5 gets AP in D
    table.caught_up(anna, ben)

    hornet = row(anna, "Hornet")
    hornet.locator("summary .rname").click()
    power = hornet.locator(".tl-power-fighters")
    expect(power).to_contain_text("The rules we have give no effect for the power sent: apply it from your rulebook.")
    power.scroll_into_view_if_needed()
    shot(anna, "talon-power-to-fighters.png")
    power.get_by_role("button", name="Power to Viper").click()
    expect(row(anna, "Hornet").locator("[data-tl-result]")).to_contain_text(
        "Hornet transmits power to Viper (its effect: from your rulebook, 12.2.2) (1 AP)")

    table.next_phase(3)  # F, Talon's turn: the DD's Power 1 gets AP in F
    table.caught_up(anna, ben)
    card = row(ben, "Hunter")
    card.locator("summary .rname").click()
    redirect = card.locator(".tl-redirect")
    expect(redirect).to_contain_text("no range or turn limit for a redirect: check it at your table", timeout=SYNC)
    redirect.locator("select[name=new_target]").select_option(label="to Nimitz")
    redirect.locator("select[name=new_arc]").select_option("L")
    redirect.scroll_into_view_if_needed()
    shot(ben, "talon-redirect-missile.png")
    redirect.get_by_role("button", name="Redirect").click()
    expect(row(ben, "Hunter").locator("[data-tl-result]")).to_contain_text(
        "Hunter redirects missile #1 from Zhukov to Nimitz (left arc) (1 AP)")
    expect(anna.locator("#tl-missiles")).to_contain_text("#1 → Nimitz (L)", timeout=SYNC)
    for page in (anna, ben):
        assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_a_typed_hit_goes_with_its_tap_when_the_answer_redraws_the_whole_board(live_server, phone):
    """The number typed beside the damage buttons is emptied once its hit is accepted, so a second tap
    cannot apply it again; also when the tap's answer is the whole board (the table moved on several
    changes while the tap was on its way), where htmx's afterRequest no longer reaches the page
    (static/js/clear.js empties the fields when the request itself ends)."""
    anna, ben, table = at_war(live_server, phone)
    zhukov = table.uid("Zhukov")
    row(anna, "Nimitz").locator("summary .rname").click()
    card = row(anna, "Nimitz").locator("[data-tl-damage]")
    amount = card.locator("input[name=amount]")
    amount.fill("3")
    held = []
    anna.route("**/act", lambda route: held.append(route))
    card.get_by_role("button", name="Hull", exact=True).click()
    for _ in range(50):
        if held:
            break
        anna.wait_for_timeout(100)
    assert held, "the tap was not sent"
    for _ in range(4):  # Ben's phone hits Zhukov meanwhile: four changes, more than a step covers
        table.post(f"talon-damage unit={zhukov} arc=hull", amount="1")
    held[0].continue_()
    anna.unroute("**/act")
    expect(row(anna, "Nimitz").locator("[data-row-hull]")).to_have_text("Hull 3/6", timeout=SYNC)
    expect(row(anna, "Zhukov").locator("[data-row-hull]")).to_have_text("Hull 2/6")
    expect(amount).to_have_value("")
