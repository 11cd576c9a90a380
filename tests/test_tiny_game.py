"""A sixth game made of a content pack and three small modules works with no edit elsewhere.

tests/tiny_game/ holds ``content/tiny-duel/`` and ``games/tiny_duel/`` (``__init__.py`` declaring the
game, ``rules.py`` pure, ``actions.py`` with one action type, ``phase.py`` its phase hook).  They are found only through
``COMPANION_CONTENT`` and ``COMPANION_GAMES``, in a fresh interpreter (discovery runs once per process).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

TINY = Path(__file__).resolve().parent / "tiny_game"

SCRIPT = r"""
import json, sys
from companion import create_app
app = create_app({"TESTING": True, "DATABASE": sys.argv[1], "SECRET_KEY": "k"})
c = app.test_client()
out = {"systems": [s["slug"] for s in c.get("/api/systems").get_json()]}
made = c.post("/api/tables", json={"system": "tiny-duel", "name": "Duel"}).get_json()
auth = {"Authorization": "Bearer " + made["seat_token"], "X-Seat": "Ann"}
act = lambda body: c.post(f"/api/tables/{made['code']}/actions", json=body, headers=auth)
red = act({"type": "add-unit", "name": "Spite", "side": "Red", "template": "ship", "hull": 6}).get_json()
blue = act({"type": "add-unit", "name": "Vow", "side": "Blue", "template": "ship"}).get_json()
hit = act({"type": "tiny-salvo", "target": blue["unit"], "dice": 3, "rolled": [5, 6, 1]})
bad = act({"type": "tiny-salvo", "target": blue["unit"], "dice": 3, "rolled": [5, 9, 1]})
rolled = act({"type": "tiny-salvo", "target": red["unit"], "dice": 6})
phase = act({"type": "next-phase"})
state = c.get(f"/api/tables/{made['code']}", headers=auth).get_json()
c.get(made["player_url"].replace(app.config["PUBLIC_URL"] or "http://localhost", ""))
out.update(hit=hit.get_json()["label"], bad=[bad.status_code, bad.get_json()], rolled=rolled.status_code,
           phase=phase.get_json()["label"], state=state["state"], seq=state["seq"],
           board=c.get(f"/t/{made['code']}").status_code, page=c.get(f"/t/{made['code']}").get_data(as_text=True))
# the phone's way: the board's own form (text typed: "2", "6 5"), read by the action's fields
code = made["code"]
tools = c.get(f"/t/{code}/tools/game").get_data(as_text=True)
token = tools.split('name="csrf_token" value="', 1)[1].split('"', 1)[0]
typed = {"csrf_token": token, "_control": "tiny-salvo", "type": "tiny-salvo", "target": red["unit"], "dice": "2",
         "rolled": "6 5"}
in_end = c.post(f"/t/{code}/act", data=typed, headers={"HX-Request": "true"})  # its phase= says when
act({"type": "next-phase"})
form = c.post(f"/t/{code}/act", data=typed, headers={"HX-Request": "true"})
events = c.get(f"/api/tables/{code}/events", headers=auth).get_json()
out.update(tools=tools, form=form.status_code, in_end=[in_end.status_code, in_end.get_data(as_text=True)], stored=[e["payload"] for e in events if e["type"] == "tiny-salvo"][-1],
           odds=c.get(f"/t/{code}/tiny/odds?dice=3").get_data(as_text=True),
           bad_odds=c.get(f"/t/{code}/tiny/odds?dice=9").status_code)
print(json.dumps(out))
"""


def run_tiny(tmp_path) -> dict:
    env = {**os.environ, "COMPANION_CONTENT": str(TINY / "content"), "COMPANION_GAMES": str(TINY / "games")}
    done = subprocess.run([sys.executable, "-c", SCRIPT, str(tmp_path / "tiny.sqlite")], env=env,
                          capture_output=True, text=True, cwd=Path(__file__).resolve().parent.parent)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_a_game_of_one_content_pack_and_one_rules_file_plays(tmp_path):
    out = run_tiny(tmp_path)
    assert "tiny-duel" in out["systems"]
    assert out["hit"].endswith("2 hits on Vow (hull 6 → 4)")
    status, body = out["bad"]
    assert status == 400 and "1 to 6" in body["error"]
    assert out["rolled"] == 200
    units = {u["name"]: u for u in out["state"]["units"].values()}
    assert units["Vow"]["trackers"]["hull"]["value"] == 4  # the refused salvo changed nothing
    assert out["phase"] == "Round 1: End"
    assert out["state"]["reminders"] == ["Tiny Duel: a ship at 0 hull leaves the table."]  # its phase hook
    assert out["board"] == 200
    # its closed rows are its own _row.html, kept in its package (tests/tiny_game/games/tiny_duel/templates/)
    assert '<span class="rn" data-row-hull>Hull <b>4</b><small>/6</small></span>' in out["page"]


def test_its_form_its_page_and_its_macros(tmp_path):
    """What a phone types reaches the action already read by its fields (and is stored so); its own
    page (views.py, found by name) and its tools (the board's input conventions as macros)."""
    out = run_tiny(tmp_path)
    assert out["in_end"][0] == 400 and "A salvo happens in the Fire phase; it is now the End phase." in out["in_end"][1]
    assert out["form"] == 200
    assert out["stored"]["dice"] == 2 and out["stored"]["rolled"] == [6, 5]  # "2" and "6 5" as typed
    assert out["stored"]["result"] == {"dice": [6, 5], "hits": 2}
    assert "3 dice: 1.0 hits on average" in out["odds"] and out["bad_odds"] == 400
    assert 'data-stepper data-min="1" data-max="6"' in out["tools"] and 'id="tiny-rolled"' in out["tools"]
    assert "data-clear" in out["tools"] and "1.0 hits on average from 3 dice" in out["tools"]


def test_the_tiny_game_needs_no_core_edit():
    core = Path(__file__).resolve().parent.parent / "companion"
    for path in core.rglob("*.py"):
        assert "tiny-duel" not in path.read_text() and "tiny_duel" not in path.read_text(), path


def test_a_second_game_registering_tiny_duels_action_type_stops_the_start(tmp_path):
    """Issue 29: REGISTRY refuses a duplicate action type when the app starts (no silent overwrite),
    naming both games; here a seventh game copies Tiny Duel's ``tiny-salvo``."""
    import shutil
    games = tmp_path / "games"
    shutil.copytree(TINY / "games", games)
    copycat = games / "copycat"
    copycat.mkdir()
    (copycat / "__init__.py").write_text('from companion.games import Game\nGAME = Game(slug="copycat", name="Copycat")\n')
    (copycat / "moves.py").write_text('from companion.actions import action\n\n'
                                      '@action("tiny-salvo", systems={"copycat"}, fields={})\n'
                                      'def salvo(state, p):\n    return "copied"\n')
    env = {**os.environ, "COMPANION_CONTENT": str(TINY / "content"), "COMPANION_GAMES": str(games)}
    done = subprocess.run([sys.executable, "-c", "from companion import create_app; create_app({'TESTING': True, "
                           f"'DATABASE': {str(tmp_path / 'x.sqlite')!r}, 'SECRET_KEY': 'k'}})"],
                          env=env, capture_output=True, text=True, cwd=Path(__file__).resolve().parent.parent)
    assert done.returncode != 0
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("companion.actions.DuplicateAction: The action type 'tiny-salvo' is registered twice"), last
    assert "the game 'copycat' (companion.games.copycat.moves)" in last
    assert "the game 'tiny_duel' (companion.games.tiny_duel.actions)" in last
