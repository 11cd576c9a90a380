"""The load test's own tools (scripts/load.py, scripts/floor_app.py) do what the README's numbers
say they did: phones join, poll with their board's seq, tap through the board's form, and the floor
answers the same URLs with a bare 204 after one commit."""
from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

import floor_app  # noqa: E402
import load  # noqa: E402
from companion import store  # noqa: E402

sys.path.insert(0, str(ROOT / "tests"))
from table_actions import csrf_of, sit  # noqa: E402


def test_the_floor_answers_a_poll_with_204_and_commits_a_tap(tmp_path, monkeypatch):
    monkeypatch.setenv("FLOOR_DB", str(tmp_path / "floor.sqlite"))
    client = floor_app.create_app().test_client()
    assert client.get("/t/ABC/poll?seq=3").status_code == 204
    resp = client.post("/t/ABC/act", data={"do": "adjust unit=u1 tracker=hp by=-1"})
    assert resp.status_code == 204 and resp.data == b""
    assert sqlite3.connect(tmp_path / "floor.sqlite").execute("select count(*) from events").fetchone() == (1,)


def test_percentiles_are_ranks_of_the_sorted_values():
    values = list(range(1, 101))
    assert (load.pct(values, 50), load.pct(values, 99), load.pct(values, 100)) == (51, 99, 100)


def test_the_rooms_taps_come_at_the_stated_rate_from_the_first_second():
    """Every phone taps about every ``2 * every`` seconds (x0.5-1.5), starting where a game long under
    way would be: the room's taps per second stay at phones / (2 * every) through the whole window,
    without the climb and fall that phones all starting their first interval at once made."""
    import random
    rng, every, phones, span, width = random.Random(7), 20.0, 20_000, 120, 5
    counts = [0] * (span // width)
    for _ in range(phones):
        due = load.first_tap(rng, every)
        while due < span:
            counts[int(due // width)] += 1
            due += load.next_tap(rng, every)
    stated = phones / (2 * every) * width
    assert all(0.9 < count / stated < 1.1 for count in counts), [round(c / stated, 2) for c in counts]


def test_a_short_run_polls_boards_after_changes_and_taps_without_errors(tmp_path):
    """Two phones at one table for a few seconds, tapping every second: the other phone's poll
    brings the changed board (its seq followed), nothing fails, the floor runs beside it."""
    out = tmp_path / "run.json"
    done = subprocess.run([sys.executable, "scripts/load.py", "--phones", "2", "--per-table", "2",
                           "--duration", "4", "--warmup", "1", "--poll", "0.5", "--act-every", "1",
                           "--targets", "floor,gunicorn", "--out", str(out)],
                          cwd=ROOT, capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stdout + done.stderr
    floor, app = json.loads(out.read_text())
    for run in (floor, app):
        assert run["errors"] == {"poll": 0, "action": 0, "stream": 0}, run["error_kinds"]
        assert run["times"]["action"] and run["server_rss_mb"] > 10
    assert floor["times"]["poll_nochange"] and not floor["times"]["poll_change"]
    assert app["times"]["poll_change"] and app["times"]["poll_nochange"]  # it followed the new seq
    assert app["connections_opened"] <= 4  # two per phone, kept alive
    assert "ratios to the floor" in done.stdout


def test_a_short_live_run_hears_every_change_through_the_stream(tmp_path):
    """--live: two phones hold the board's stream instead of polling; each tap of one reaches the
    other (its sync delay counted), nothing fails."""
    out = tmp_path / "live.json"
    done = subprocess.run([sys.executable, "scripts/load.py", "--phones", "2", "--per-table", "2",
                           "--duration", "4", "--warmup", "1", "--act-every", "1", "--live",
                           "--targets", "gunicorn", "--out", str(out)],
                          cwd=ROOT, capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stdout + done.stderr
    (app,) = json.loads(out.read_text())
    assert app["live"] and app["errors"] == {"poll": 0, "action": 0, "stream": 0}, app["error_kinds"]
    assert app["times"]["sync"] and app["pushed"]  # each change came as its step, on the stream
    assert len(app["times"]["sync"]) >= len(app["times"]["action"]) // 2  # most taps were heard by the other
    assert "sync delay" in done.stdout
    # the box's own state over the window, beside the figures (scripts/box_probe.py)
    assert app["box"]["flushes"] >= 50 and app["box"]["cpu_unit_ms"] > 0 and "the box meanwhile" in done.stdout


@pytest.mark.parametrize("system", load.SYSTEMS)
def test_each_systems_load_table_takes_its_signature_moves_and_their_undo(app, system):
    """The load test's table of each game reaches its moment of battle through the API, and every
    phone's move, posted as the load test posts it (the board's form), is accepted, changes the
    table, and is taken back by Undo (the table as it was)."""
    plan = load.table_plan(system)
    client = app.test_client()
    created = client.post("/api/tables", json={"system": system, "name": "Load", "sides": plan["sides"]}).get_json()
    code, token, secret = created["code"], created["seat_token"], created["player_url"].rsplit("/", 1)[1]
    for step in plan["steps"]:
        resp = client.post(f"/api/tables/{code}/actions", json=step, headers={"Authorization": f"Bearer {token}"})
        assert resp.status_code == 200, (step["type"], resp.get_json())
    assert len(plan["sides"]) >= 2 and len(plan["moves"]) >= 1
    sit(client, code, secret, "P0", plan["sides"][0])
    for move in plan["moves"]:
        before = store.table(store.open_db(app.config["DATABASE"], migrate=False), code)
        resp = client.post(f"/t/{code}/act", data={"csrf_token": csrf_of(client), **load.move_form(move)},
                           headers={"HX-Request": "true", "X-Open-Units": move["_open"]})
        assert resp.status_code == 200, resp.get_data(as_text=True)[:300]
        after = store.table(store.open_db(app.config["DATABASE"], migrate=False), code)
        assert after["seq"] == before["seq"] + 1 and after["state"] != before["state"], move
        resp = client.post(f"/t/{code}/undo", data={"csrf_token": csrf_of(client)}, headers={"HX-Request": "true"})
        assert resp.status_code == 200
        assert store.table(store.open_db(app.config["DATABASE"], migrate=False), code)["state"] == before["state"]


def test_the_box_probe_flushes_in_the_folder_it_is_given_and_leaves_nothing_there(tmp_path):
    """Each load run sets the box's own state beside its figures (scripts/box_probe.py): real flushes
    to the database's filesystem, timed, and the CPU unit timed at least once; its file is gone after."""
    import box_probe
    samples = box_probe.probe(str(tmp_path), 0.3)
    assert len(samples["flushes"]) >= 5 and all(ms >= 0 for _, ms in samples["flushes"])
    assert len(samples["units"]) >= 1 and samples["units"][0] > 0
    assert list(tmp_path.iterdir()) == []


def test_the_box_probe_names_each_slow_flush_and_the_servers_cpu_in_its_units():
    import box_probe
    flushes = [(1000.0 + i, 0.5) for i in range(98)] + [(2000.0, 60.0), (2001.0, 900.0)]
    units = [3.0] * 8 + [4.4, 4.5, 5.6]  # two seconds of the eleven took 1.5x the fastest tenth or more
    box = box_probe.summary({"flushes": flushes, "units": units})
    # (load.pct's ranks: of 100 flushes the 99th percentile is the 99th value)
    assert (box["fsync_p50"], box["fsync_p99"], box["fsync_max"], box["flushes"]) == (0.5, 60.0, 900.0, 100)
    assert box["stalls"] == [(2000.0, 60.0), (2001.0, 900.0)]
    assert box["cpu_unit_ms"] == 3.0 and (box["slow_seconds"], box["seconds"]) == (2, 11)
    said = box_probe.line(box, cpu_ms_per_phone_min=36.0)
    assert "2 of 100 took 50 ms or more" in said and "900 ms" in said and "12.0 units" in said
    assert "slower or more in 2 of 11 seconds" in said
