"""Issue 40 §4: "Same hit?" and "Correct" for a game's own hit actions, not only for a tracker's -/+.
A game declares its hits (``Game.hits``: the action, its unit field, its amount field); Astral Action's
damage is one: two phones entering the same damage to the same ship a moment apart, the second is asked
"Same hit?" and takes its own back in one tap; the log offers Correct for it, and a correction puts the
same hit on another ship or for another amount as one move."""
from __future__ import annotations

import html
import re

import pytest

from companion import actions, games
from tests.test_astral_action_actions import KINETIC, Astral


@pytest.fixture
def aa(app, table):
    return Astral(app, table)


def filled(aa, uid) -> int:
    ship = aa.ship_state(uid)
    return sum(t["filled"] for t in ship["tracks"]) + sum(r["filled"] for r in ship["rows"])


def test_every_declared_hit_is_an_action_with_its_unit_and_amount_fields():
    hits = games.hit_actions()
    assert {"aa-damage", "dn-damage", "talon-damage"} <= set(hits)
    for kind, (unit, amount) in hits.items():
        fields = actions.REGISTRY[kind].fields
        assert unit in fields and amount in fields, kind


def test_the_same_astral_action_damage_from_two_phones_is_asked_about_and_taken_back(aa):
    raven = aa.ship("Raven", 2, equipment=(KINETIC,))
    aa.ok(type="aa-damage", unit=raven, amount="3")
    answer = html.unescape(aa.ok(phone=aa.ben, type="aa-damage", unit=raven, amount="3").get_data(as_text=True))
    assert re.search(r"Anna also recorded this (just now|\d s ago): Raven takes 3 .*Same hit\?", answer), answer[-800:]
    assert "Take mine back" in answer and filled(aa, raven) == 6
    mine = re.search(r'name="targets" value="(\d+)"><input type="hidden" name="_same_as" value="(\d+)"', answer)
    back = aa.ben.client.post(f"/t/{aa.code}/take-back", data={
        "csrf_token": aa.ben.csrf, "targets": mine.group(1), "_control": "same-hit", "_from": "board",
        "_same_as": mine.group(2)}, headers={"HX-Request": "true"})
    assert back.status_code == 200, back.get_data(as_text=True)[:300]
    assert filled(aa, raven) == 3  # the hit counted once
    # another amount, or another ship's, is not the same hit
    assert "Same hit?" not in aa.ok(phone=aa.ben, type="aa-damage", unit=raven, amount="2").get_data(as_text=True)


def test_the_log_corrects_an_astral_action_hit_onto_another_ship_and_amount(aa):
    raven = aa.ship("Raven", 2, equipment=(KINETIC,))
    falcon = aa.ship("Falcon", 2, side="Player 2", equipment=(KINETIC,))
    aa.ok(type="aa-damage", unit=raven, amount="3")
    seq = aa.row()["seq"]
    log = aa.table.client.get(f"/t/{aa.code}/log").get_data(as_text=True)
    entry = log[log.index(f'id="e{seq}"'):log.index("</li>", log.index(f'id="e{seq}"'))]
    assert "Take back or correct" in entry and ">Correct</button>" in entry and "Amount" in entry
    bad = aa.table.client.post(f"/t/{aa.code}/take-back", data={
        "csrf_token": aa.table.csrf, "targets": str(seq), "_control": f"tb-{seq}", "instead.by": "-2"})
    assert bad.status_code == 400 and "more than 0" in bad.get_data(as_text=True) and filled(aa, raven) == 3
    done = aa.table.client.post(f"/t/{aa.code}/take-back", data={
        "csrf_token": aa.table.csrf, "targets": str(seq), "_control": f"tb-{seq}", "instead.unit": falcon,
        "instead.by": "2"})
    assert done.status_code == 303, done.get_data(as_text=True)[:300]
    assert filled(aa, raven) == 0 and filled(aa, falcon) == 2
    assert f"corrected #{seq} to Falcon takes 2" in html.unescape(aa.table.client.get(f"/t/{aa.code}/log").get_data(as_text=True))
    aa.folds()


def test_the_api_asks_about_the_same_game_hit_too(aa):
    """A script recording the hit a phone just recorded gets the same question in its answer (one place:
    same_hit.asked_about, for the form and the JSON API alike)."""
    from tests.table_actions import seat_token
    raven = aa.ship("Raven", 2, equipment=(KINETIC,))
    aa.ok(type="aa-damage", unit=raven, amount="3")
    done = aa.ben.client.post(f"/api/tables/{aa.code}/actions", json={"type": "aa-damage", "unit": raven, "amount": 3},
                              headers={"Authorization": f"Bearer {seat_token(aa.ben.client, aa.code)}"}).get_json()
    assert done["same_as"]["seat"] == "Anna" and "Same hit?" in done["same_as"]["question"], done
