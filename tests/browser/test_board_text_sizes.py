"""Issue 40 §9: no text on a game's board renders below 12 px on a 390x844 phone (Astral Action's track
totals were 10.7 px: too small to read at a table, and a contrast risk).  Each game's board in its busy
state (the axe scan's, test_phone_pass_axe.py), rows open and the helpers in: every visible piece of text,
by its computed size (an SVG's text by the size it is drawn at)."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from phone_checks import shots, two_players
from test_phone_axe import axe_scan  # noqa: F401  (the scans' module: its helpers load first)
from test_phone_pass_axe import BUSY, open_row
from test_phone_pass_held import SHIP, Api

pytestmark = pytest.mark.browser
SMALLEST = 12  # px: the body's small text (.85rem of 16 px is 13.6; .75rem is the floor)

# every text node that shows (not in a closed section, not hidden), with the size it is drawn at
SMALL_TEXT = """(least) => {
  const out = [], walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walk.nextNode()) {
    const t = walk.currentNode, el = t.parentElement;
    if (!el || !t.textContent.trim()) continue;
    const range = document.createRange(); range.selectNodeContents(t);
    const box = [...range.getClientRects()].find(r => r.width > 0 && r.height > 0);
    if (!box) continue;
    const css = getComputedStyle(el);
    if (css.visibility !== 'visible' || +css.opacity === 0) continue;
    let size = parseFloat(css.fontSize);
    const svg = el.closest('svg');
    if (svg && el.getScreenCTM) { const m = el.getScreenCTM(); if (m) size *= Math.hypot(m.a, m.b); }
    if (size < least - 0.05) out.push(`${size.toFixed(1)}px ${el.tagName.toLowerCase()}.${el.className && el.className.baseVal !== undefined ? el.className.baseVal : el.className} in ${el.parentElement.tagName.toLowerCase()}.${typeof el.parentElement.className === 'string' ? el.parentElement.className : ''} "${t.textContent.trim().slice(0, 30)}"`);
  }
  return [...new Set(out)];
}"""


def small_text(page) -> list[str]:
    page.wait_for_load_state("load")
    expect(page.locator("#game-tools[data-roster], #helpers").first).to_be_attached()
    page.wait_for_timeout(300)
    return page.evaluate(SMALL_TEXT, SMALLEST)


def busy_astral_action(anna, ben, base):
    two_players(anna, ben, base, "astral-action", "Busy skies", ("Player 1", "Player 2"))
    api = Api(anna, base)
    for name, side in (("Raven", "Player 1"), ("Kestrel", "Player 1"), ("Falcon", "Player 2")):
        api.act(type="aa-ship", side=side, card={**SHIP, "name": name})
    units = api.units()
    api.act(type="aa-order", unit=units["Raven"], order="Evasive Actions", hidden="1")
    api.act(type="aa-damage", unit=units["Raven"], amount="4")
    api.act(type="aa-damage", unit=units["Falcon"], amount="12")
    api.act(type="next-phase")
    api.act(type="aa-activate", unit=units["Raven"])
    anna.reload()
    return [units["Raven"], units["Falcon"]]


def busy_dreadfleet(anna, ben, base):
    from test_dreadfleet_phone_rows import a_table_at_sea
    a_table_at_sea(anna, ben, base)
    units = {o.inner_text().strip(): o.get_attribute("value") for o in anna.locator("#unit-options option").all()}
    api = Api(anna, base)
    api.act(type="df-activate", unit=units["Heldenhammer"])
    api.act(type="adjust", unit=units["Bloody Reaver"], tracker="hull_damage", by="3")
    anna.reload()
    return [units["Heldenhammer"], units["Bloody Reaver"]]


def busy_freeform(anna, ben, base):
    two_players(anna, ben, base)
    api = Api(anna, base)
    api.act(type="add-unit", name="Nimitz", side="Side A", template="unit", stats={"hp": 8})
    units = api.units()
    api.act(type="adjust", unit=units["Nimitz"], tracker="hp", by="-3")
    api.act(type="activate", unit=units["Nimitz"])
    api.act(type="seal", unit=units["Nimitz"], text="Hold the line")
    api.act(type="roll", expr="3d6")
    anna.reload()
    return [units["Nimitz"]]


GAMES = {"astral-action": busy_astral_action, "dreadfleet": busy_dreadfleet, "freeform": busy_freeform, **BUSY}


@pytest.mark.parametrize("game", list(GAMES))
def test_no_text_on_a_busy_board_is_below_12_px(live_server, phone, game):
    anna, ben = phone(), phone()
    uids = GAMES[game](anna, ben, live_server)
    for uid in uids:
        open_row(anna, uid)
    assert anna.viewport_size == {"width": 390, "height": 844}
    found = small_text(anna)
    for uid in uids:  # for people to look at (phone_checks.shots)
        anna.locator(f"#row-{uid}").screenshot(path=str(shots(game) / f"row-{uid}-390.png"))
    sea = anna.locator(".df-sea >> visible=true")
    if sea.count():
        sea.first.screenshot(path=str(shots(game) / "wind-390.png"))
    assert found == [], f"{game}: {found}"
