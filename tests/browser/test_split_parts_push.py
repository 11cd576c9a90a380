"""A part of the board that marks parts of its own (board/draw.py split, issue 38) reaches the other
phone as those parts: a broadside pushed to Ben changes the line of Dreadfleet's panel it changed and
the Damage deck, in place, while the rest of the panel and the Fate deck stay the very elements
they were (nothing he had opened there folds)."""
from __future__ import annotations

import json
import sys
import urllib.request
from pathlib import Path

import pytest
from phone_checks import join
from playwright.sync_api import expect

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
from load import table_plan  # noqa: E402  (the load test's Dreadfleet moment: a broadside to fire)

pytestmark = pytest.mark.browser


def api(base: str, path: str, body: dict, bearer: str | None = None) -> dict:
    headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {bearer}"} if bearer else {})}
    request = urllib.request.Request(base + path, json.dumps(body).encode(), headers, method="POST")
    with urllib.request.urlopen(request, timeout=10) as resp:
        return json.loads(resp.read())


@pytest.mark.parametrize("live_server", [{"POLL_SECONDS": 30, "LIVE_PING": 5}], indirect=True)
def test_a_broadside_reaches_the_other_phone_as_the_lines_it_changed(live_server, phone):
    plan = table_plan("dreadfleet")
    created = api(live_server, "/api/tables", {"system": "dreadfleet", "name": "Split", "sides": plan["sides"]})
    for step in plan["steps"]:
        api(live_server, f"/api/tables/{created['code']}/actions", step, created["seat_token"])
    anna, ben = phone(), phone()
    join(anna, created["player_url"], "Anna", plan["sides"][0])
    join(ben, created["player_url"], "Ben", plan["sides"][1])
    expect(ben.locator("#link-state")).to_have_text("● live")
    ben.locator("#df-windbox > summary").click()  # Ben looks at the wind: a part the broadside leaves alone
    to_draw = int(ben.locator("#deck-damage [data-pile=draw] b").inner_text())
    ben.evaluate("""() => ['game-panel', 'df-windbox', 'deck-fate', 'board'].forEach(
        (id) => { document.getElementById(id).dataset.kept = 'yes'; })""")
    asked = []  # the change comes on Ben's stream: his phone never asks for the board (his tools may refresh)
    ben.on("request", lambda r: asked.append(r.url) if "/poll" in r.url or r.url.endswith(created["code"]) else None)
    move = {k: v for k, v in plan["moves"][0].items() if not k.startswith("_")}
    api(live_server, f"/api/tables/{created['code']}/actions", move, created["seat_token"])
    expect(ben.locator("#df-phase")).to_contain_text("c. Broadsides", timeout=3000)  # (a poll would take 30 s)
    expect(ben.locator("#deck-damage [data-pile=draw] b")).to_have_text(str(to_draw - 2))  # two Damage cards
    kept = ben.evaluate("() => ['game-panel', 'df-windbox', 'deck-fate', 'board'].map("
                        "(id) => document.getElementById(id).dataset.kept || 'replaced')")
    assert kept == ["yes"] * 4, kept
    expect(ben.locator("#df-windbox")).to_have_attribute("open", "")
    assert asked == [], asked
