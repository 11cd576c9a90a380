"""Astral Action one-handed at 390x844 (issue 10): four ships a side as compact rows (Shields, Armor,
Health, the sealed-order marker, formation, activated) that fit two screens closed; "Attack" on a
ship opens the attack form with that ship as the attacker; the attack's result shows in the sheet
above the bottom bar on both phones, without moving the page; common moves in at most two taps."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

SYNC = 5000
SHOTS = Path("/work/shots/aa10")
SCREEN = 844
KINETIC = ("primary", "kinetic", "F")
BEAM = ("primary", "beam", "F")
# four ships a side, Sizes 1-4, with the equipment a real fleet carries (Shields, Armor, weapons)
FLEETS = {
    "Player 1": [("Falcon", 2, [KINETIC, ("secondary", "shields", "")]),
                 ("Kestrel", 1, [KINETIC]),
                 ("Harrier", 3, [BEAM, ("primary", "armor", ""), ("secondary", "shields", "")]),
                 ("Condor", 4, [BEAM, ("primary", "missiles", "F"), ("primary", "shields", ""),
                                ("secondary", "armor", "")])],
    "Player 2": [("Raven", 2, [KINETIC, ("secondary", "armor", "")]),
                 ("Rook", 1, [KINETIC]),
                 ("Crow", 3, [BEAM, ("primary", "shields", "")]),
                 ("Magpie", 4, [BEAM, ("primary", "kinetic", "P"), ("primary", "armor", ""),
                                ("secondary", "shields", "")])],
}


def code_of(page) -> str:
    return page.url.split("#")[0].rstrip("/").split("/")[-1]


def csrf(page) -> str:
    return page.locator("input[name=csrf_token]").first.get_attribute("value")


def build_fleets(page, base):
    """Design and launch both fleets through the app's own form posts (faster than typing them)."""
    code, token = code_of(page), csrf(page)
    for side, ships in FLEETS.items():
        for name, size, kit in ships:
            form = {"csrf_token": token, "_control": "aa-designer", "name": name, "size": str(size),
                    "chart.miss": "2", "chart.glance": "4", "movement": "2:3/2 3:2/1"}
            for n, (slot, item, arcs) in enumerate(kit):
                form.update({f"eq.{n}.slot": slot, f"eq.{n}.item": item})
                if arcs:
                    form[f"eq.{n}.arcs"] = arcs
            resp = page.request.post(f"{base}/t/{code}/astral-action/cards", form=form)
            assert resp.ok, resp.text()
            item = re.search(r'id="aa-card-(\d+)"[^>]*>\s*<input[^>]*>\s*<input[^>]*>\s*<p><b>' + name + "<",
                             resp.text()).group(1)
            resp = page.request.post(f"{base}/t/{code}/astral-action/cards/{item}/launch",
                                     form={"csrf_token": token, "side": side, "_control": f"aa-card-{item}"})
            assert resp.ok, resp.text()


def act(page, base, **fields):
    resp = page.request.post(f"{base}/t/{code_of(page)}/act", form={"csrf_token": csrf(page), **fields})
    assert resp.ok, re.findall(r'class="err-text[^>]*>([^<]+)', resp.text())


def uid_of(page, name) -> str:
    return page.locator("details.unitrow", has=page.locator("summary .rname", has_text=name)).get_attribute("id")[4:]


def two_phones(live_server, phone):
    """Anna (Player 1) creates the table, Ben (Player 2) joins; both fleets are on the table."""
    anna, ben = phone(), phone()
    anna.goto(live_server + "/")
    anna.select_option("select[name=system]", "astral-action")
    anna.fill("input[name=name]", "Astral skirmish")
    anna.fill("#new-table input[name=seat]", "Anna")
    anna.select_option("#new-table select[name=side]", "Player 1")
    anna.click("text=Create table")
    player_url = anna.locator("#player-url").inner_text()
    anna.click("text=Go to the board")
    ben.goto(player_url)
    ben.fill("input[name=seat]", "Ben")
    ben.check("input[name=side][value='Player 2']")
    ben.click("text=Take my seat")
    build_fleets(anna, live_server)
    return anna, ben


def mid_game(anna, ben, base):
    """A turn under way: orders given (one sealed), damage taken, a Condition, a formation, one ship
    activated (u1-u4 are Player 1's Falcon, Kestrel, Harrier, Condor; u5-u8 Player 2's)."""
    act(anna, base, type="aa-order", unit="u1", order="Mark Target", hidden="1")
    act(ben, base, type="aa-order", unit="u5", order="Evasive Actions")
    act(ben, base, type="aa-token", unit="u7")
    act(anna, base, type="aa-formation", lead="u3", kind="defensive", **{"members.u3": "1", "members.u4": "1"})
    act(ben, base, type="aa-damage", unit="u8", amount="7", why="PWS exchange")
    act(anna, base, type="aa-damage", unit="u7", amount="20", why="Dangerous 1")
    act(anna, base, type="aa-condition", unit="u7", dice="3 4")
    act(anna, base, type="aa-apply-condition", unit="u7", pick="0")
    act(anna, base, type="next-phase")
    act(anna, base, type="aa-activate", unit="u2")
    for page in (anna, ben):
        page.reload()


def test_measure(live_server, phone):
    anna, ben = two_phones(live_server, phone)
    mid_game(anna, ben, live_server)
    anna.set_viewport_size({"width": 390, "height": 844})
    print("HEIGHT", anna.evaluate("document.documentElement.scrollHeight"), anna.locator("#board").bounding_box()["height"])
    SHOTS.mkdir(parents=True, exist_ok=True)
    anna.locator("#board").screenshot(path=str(SHOTS / "scratch-board.png"))
