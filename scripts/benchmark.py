"""Benchmark (not a test): gunicorn on loopback, 8 concurrent clients.

Reports action round trip p50/p99 (the JSON API, and the htmx tap phones send, which answers with
the board), beside a floor measured in the same run (scripts/floor_app.py: one SQLite commit and
Flask, under the same gunicorn settings, tapped by the same clients); no-change poll p50/p99 and its
response size, the board page's HTML size and the total JS size; then a long game: action, poll,
board render, undo/redo and taking back a move 50 moves ago at 100 / 1,000 / 10,000 events (none
should grow with the log).
Run: python scripts/benchmark.py [--actions 200] [--polls 2000]; ``--synchronous`` compares only the
actions' cost under SQLite's synchronous=NORMAL and FULL (the store's default, a power cut loses nothing).
Targets (issue 2): action p99 <= 15 ms, poll p99 <= 2 ms and <= 300 bytes, board <= 40 KB, JS <= 70 KB;
(issue 14) the htmx tap's p99 within 3x of the floor's.

Also: ``python scripts/benchmark.py load ...`` runs the open-loop load test (scripts/load.py: many
phones at many tables, beside the floor), and ``python scripts/benchmark.py --profile`` profiles one
htmx tap and its board render in-process (cProfile) and prints where the time goes.
"""
from __future__ import annotations

import argparse
import gzip
import http.client
import json
import multiprocessing
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import quote

from load import SEQ_RE  # the board's seq as static/js reads it (scripts/ is on the path: run as a script)

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Client:
    """One keep-alive HTTP connection, like one phone."""

    def __init__(self, port: int, cookie: str = ""):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        self.cookie = cookie

    def request(self, method: str, path: str, body=None, headers=None):
        headers = dict(headers or {})
        if self.cookie:
            headers["Cookie"] = self.cookie
        if isinstance(body, dict):
            body = json.dumps(body)
            headers["Content-Type"] = "application/json"
        elif isinstance(body, str):
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        try:
            self.conn.request(method, path, body=body, headers=headers)
            resp = self.conn.getresponse()
        except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError):
            self.conn.close()  # the server closed an idle keep-alive connection: reconnect once
            self.conn.request(method, path, body=body, headers=headers)
            resp = self.conn.getresponse()
        data = resp.read()
        for key, value in resp.getheaders():
            if key.lower() == "set-cookie":
                self.cookie = value.split(";", 1)[0]
        return resp, data


def pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def wait_for(port: int) -> None:
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.1)
    raise SystemExit("gunicorn did not start")


# A table of each game as players set it up, for the board's size (issue 14's cases; also built by
# tests/test_board_bytes.py and taken apart by scripts/board_bytes.py). Dreadfleet: five warships a
# side as tests/browser/test_dreadfleet_phone_rows.py puts them to sea (seed 002 names; the stats are
# placeholders a player would type from their Warship cards, not game data; every warship but the
# Shadewraith with its auxiliaries docked, seed 002 Auxiliaries), the example decks, the wind, the
# initiative, then the Action phase. Empires of Dust: the appendix's average fleet on each side.
STATS = {"speed": 6, "handling": 3, "broadside": 4, "armour": 5, "hull": 10, "crew": 4, "command": 4, "swashbuckling": 3}
AUX = {"speed": 5, "broadside": 2, "armour": 5, "hull": 2, "crew": 2}
WARSHIPS = {"Grand Alliance": ("Heldenhammer", "Flaming Scimitar", "Swordfysh", "Seadrake", "Grimnir's Thunder"),
            "Dreadfleet": ("Bloody Reaver", "Skabrus", "Black Kraken", "Curse of Zandri", "Shadewraith")}
GAME_TABLES = {
    "dreadfleet": [
        *({"type": "df-warship", "name": n, "sail": 1, "stats": STATS, **({} if n == "Shadewraith" else {"aux": AUX})}
          for side in WARSHIPS.values() for n in side),
        {"type": "deck-load", "deck": "damage", "definition": "example-damage"},
        {"type": "deck-load", "deck": "fate", "definition": "example-fate"},
        {"type": "df-scenario", "name": "Bay raid", "turns": 6, "victory": "Sink the flagship"},
        {"type": "df-wind-place", "dice": [3, 4]},
        {"type": "df-initiative", "dice": [5, 2]},
        {"type": "df-first", "first": "Grand Alliance"},
        {"type": "next-phase"}, {"type": "next-phase"},  # Status, Fate
        {"type": "df-fate", "side": "Grand Alliance"}, {"type": "df-fate", "side": "Dreadfleet"},
        {"type": "next-phase"},  # Action
    ],
    "empires-of-dust": [{"type": "eod-deploy", "preset": "average-fleet", "side": s} for s in ("Fleet 1", "Fleet 2")],
    "dreadnaught": [{"type": "dn-setup"}],
}
GAME_CASES = {"dreadfleet": "5 warships a side, auxiliaries docked, Action phase",
              "empires-of-dust": "two average fleets, 8 ships", "dreadnaught": "duel after set-up"}


def board_sizes(port: int) -> dict:
    """HTML size of each game's board after the set-up in GAME_TABLES (joined as a player, like a phone):
    the full page, the board alone (htmx) and the page gzipped. Issue 14: the page <= 40 KB raw."""
    sizes = {}
    for system, steps in GAME_TABLES.items():
        api = Client(port)
        _, data = api.request("POST", "/api/tables", {"system": system, "name": "Size"}, {"Authorization": "Bearer none"})
        created = json.loads(data)
        secret = created["player_url"].rsplit("/", 1)[1]
        for step in steps:
            resp, body = api.request("POST", f"/api/tables/{created['code']}/actions", step,
                                     {"Authorization": f"Bearer {secret}"})
            assert resp.status == 200, body
        phone = Client(port)
        path = "/t/" + created["player_url"].split("/t/", 1)[1]
        _, page = phone.request("GET", path)
        token = re.search(rb'name="csrf_token" value="([^"]+)"', page).group(1).decode()
        phone.request("POST", path, f"csrf_token={token}&seat=Bench&side=" + json.loads(
            api.request("GET", f"/api/tables/{created['code']}", headers={"Authorization": f"Bearer {secret}"})[1]
        )["state"]["sides"][0].replace(" ", "+"))
        _, full = phone.request("GET", f"/t/{created['code']}")
        _, partial = phone.request("GET", f"/t/{created['code']}", headers={"HX-Request": "true"})
        _, wire = phone.request("GET", f"/t/{created['code']}", headers={"Accept-Encoding": "gzip"})
        sizes[system] = (len(full), len(partial), len(wire))
    return sizes


def act_worker(job) -> list[float]:
    """One phone tapping as fast as it can: the round trip of each action."""
    port, code, auth, n, count = job
    c = Client(port)
    times = []
    for _ in range(count):
        t0 = time.perf_counter()
        resp, _ = c.request("POST", f"/api/tables/{code}/actions",
                            {"type": "adjust", "unit": f"u{n % 6 + 1}", "tracker": "hp", "by": -1}, auth)
        times.append(time.perf_counter() - t0)
        assert resp.status == 200, resp.status
    return times


def htmx_act_worker(job) -> list[float]:
    """One phone tapping a tracker's -/+ as its board's form posts it (htmx, as static/js
    sends it: the seq its board shows, the unit's row open): the board, or what changed in it since
    that seq, comes back."""
    port, code, cookie, token, n, count = job
    c = Client(port, cookie)
    times = []
    unit = n % 6 + 1
    seq = "0"
    for i in range(count):
        form = f"csrf_token={token}&_control=unit-u{unit}&do=" + quote(f"adjust unit=u{unit} tracker=hp by={1 if i % 2 else -1}")
        t0 = time.perf_counter()
        resp, body = c.request("POST", f"/t/{code}/act", form, {"HX-Request": "true", "X-CSRF-Token": token,
                                                                "Accept-Encoding": "gzip", "X-Board-Seq": seq,
                                                                "X-Open-Units": f"u{unit}"})
        times.append(time.perf_counter() - t0)
        assert resp.status in (200, 204), resp.status
        if resp.getheader("X-Board-Seq"):
            seq = resp.getheader("X-Board-Seq")
        elif code != "FLOOR" and resp.status == 200:
            found = SEQ_RE.search(gzip.decompress(body) if resp.getheader("Content-Encoding") == "gzip" else body)
            seq = found.group(1).decode() if found else seq
    return times


def start_gunicorn(port: int, env: dict, app: str = "companion:create_app()") -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py",  # as the Procfile
                             "--bind", f"127.0.0.1:{port}", "--log-level", "warning", app], cwd=ROOT, env=env)


def floor_taps(pool, clients: int, count: int) -> list[float]:
    """The floor: the same clients tapping scripts/floor_app.py (one SQLite commit, a 204) under the
    same gunicorn settings, right after the app's own taps."""
    port = free_port()
    tmp = tempfile.mkdtemp()
    server = start_gunicorn(port, {**os.environ, "FLOOR_DB": f"{tmp}/floor.sqlite"}, "scripts.floor_app:create_app()")
    try:
        wait_for(port)
        results = pool.map(htmx_act_worker, [(port, "FLOOR", "", "x", n, count) for n in range(clients)])
        return [t for r in results for t in r]
    finally:
        server.terminate()
        server.wait()


def poll_worker(job) -> tuple[list[float], int]:
    """One phone polling back to back with nothing changed: round trips and the answer's size."""
    port, code, cookie, seq, count = job
    c = Client(port, cookie)
    times, size = [], 0
    for _ in range(count):
        t0 = time.perf_counter()
        resp, body = c.request("GET", f"/t/{code}/poll?seq={seq}", headers={"HX-Request": "true"})
        times.append(time.perf_counter() - t0)
        assert resp.status == 204, resp.status
        head = f"HTTP/1.1 {resp.status} {resp.reason}\r\n" + "".join(
            f"{k}: {v}\r\n" for k, v in resp.getheaders()) + "\r\n"
        size = len(head.encode()) + len(body)
    return times, size


def grow_log(db_path: str, code: str, to: int) -> None:
    """Lengthen a table's log straight through the store (fast), as a long game would: adjusts
    with an undo and a redo now and then."""
    sys.path.insert(0, str(ROOT))
    import random as _random

    from companion import store
    from companion.actions import Ctx
    from companion.content import default_systems
    db = store.open_db(db_path, migrate=False)
    ctx = Ctx(system=default_systems()["freeform"], rng=_random.Random(1), seat="Grow")
    seq = store.table(db, code)["seq"]
    n = 0
    while seq < to:
        if seq % 10 == 0:
            seq = store.undo(db, code, ctx)["seq"]
            seq = store.undo(db, code, ctx, redo=True)["seq"]
        else:
            n += 1
            seq = store.act(db, code, {"type": "adjust", "unit": f"u{(n - 1) // 2 % 6 + 1}", "tracker": "hp",
                                       "by": -1 if n % 2 else 1}, ctx)["seq"]
    db.close()


def joined(port: int, player_url: str, name: str, side: str, auth: dict | None = None) -> tuple[Client, str]:
    """A phone that joined through the QR with a name and a side: (its client, its CSRF token).  A side
    another phone holds waits for Allow (issue 37): the host (``auth``, its bearer) lets it in."""
    phone = Client(port)
    path = "/t/" + player_url.split("/t/", 1)[1]
    _, page = phone.request("GET", path)
    token = re.search(rb'name="csrf_token" value="([^"]+)"', page).group(1).decode()
    resp, _ = phone.request("POST", path, f"csrf_token={token}&seat={quote(name)}&side={quote(side)}")
    if resp.getheader("Location", "").endswith("/waiting") and auth:
        code = path.split("/")[2]
        resp, _ = Client(port).request("POST", f"/api/tables/{code}/asks", {"name": name, "answer": "allow"}, auth)
        assert resp.status == 200, resp.status
        phone.request("GET", f"/t/{code}/waiting")
    return phone, token


def growth(port: int, db_path: str, sizes=(100, 1_000, 10_000), samples=30) -> list[dict]:
    """At each log length, what phones do (issue 14: flat from 100 to 10,000 events):
    - tap: an htmx form post from Side A's board (the action, its board drawn, gzipped back);
    - action: the same through the JSON API;
    - drawn: Side B's first poll after the API action (the board both sides share drawn);
    - step: a Side A phone one change behind (the parts that changed, worked out for its view);
    - step kept: a second Side A phone one change behind (the step kept for the first);
    - no-change poll, the battle report's first view after the change, and undo / redo through the API."""
    api = Client(port)
    _, data = api.request("POST", "/api/tables", {"system": "freeform", "name": "Long game"})
    created = json.loads(data)
    code, secret = created["code"], created["player_url"].rsplit("/", 1)[1]
    auth = {"Authorization": f"Bearer {secret}"}
    host = {"Authorization": "Bearer " + created.get("seat_token", secret)}  # lets a held side's phone in
    for i in range(6):
        api.request("POST", f"/api/tables/{code}/actions", {"type": "add-unit", "name": f"Ship {i}", "hp": 999}, auth)
    (a, token), (a2, _), (b, _) = (joined(port, created["player_url"], name, side, host) for name, side in
                                   (("Ann", "Side A"), ("Al", "Side A"), ("Bo", "Side B")))
    hx = {"HX-Request": "true", "Accept-Encoding": "gzip"}
    rows = []

    def timed(kind, client, method, path, body=None, headers=None, status=200):
        t0 = time.perf_counter()
        resp, data = client.request(method, path, body, headers)
        times[kind].append(time.perf_counter() - t0)
        assert resp.status == status, (kind, resp.status)
        return resp, data

    for size in sizes:
        grow_log(db_path, code, size)
        times = {k: [] for k in ("tap", "action", "drawn", "step", "step kept", "no-change poll", "report",
                                 "undo/redo")}
        for i in range(samples):
            form = f"csrf_token={token}&_control=unit-u1&do=" + quote(f"adjust unit=u1 tracker=hp by={1 if i % 2 else -1}")
            resp, data = timed("tap", a, "POST", f"/t/{code}/act", form, {**hx, "X-CSRF-Token": token})
            seq = int(re.search(rb'data-seq="(\d+)"', gzip.decompress(data)).group(1))
            timed("action", api, "POST", f"/api/tables/{code}/actions",
                  {"type": "adjust", "unit": "u2", "tracker": "hp", "by": 1 if i % 2 else -1}, auth)
            timed("drawn", b, "GET", f"/t/{code}/poll?seq=0", headers=hx)
            resp, _ = timed("step", a, "GET", f"/t/{code}/poll?seq={seq}", headers=hx)
            assert resp.getheader("HX-Reswap") == "none", "a one-change step came back as the whole board"
            timed("step kept", a2, "GET", f"/t/{code}/poll?seq={seq}", headers=hx)
            timed("no-change poll", a, "GET", f"/t/{code}/poll?seq={seq + 1}", headers=hx, status=204)
            timed("report", b, "GET", f"/t/{code}/report")  # its first view after the change
        for redo in [False] * samples + [True] * samples:
            timed("undo/redo", api, "POST", f"/api/tables/{code}/{'redo' if redo else 'undo'}", headers=auth)
        # issue 27: take back the move 50 moves below the top (its later moves applied again from the
        # snapshot before it), then undo that take-back; the table is as it was after each pair
        # (issue 38) where the move sits between two snapshots sets how many moves its take-back applies:
        # measured at eight places of the log, 9 moves apart (the log grown between them); the figure is
        # the dearest place's p50
        # the box is noisy: each take-back is timed beside an ordinary API action just before it (then
        # undone, untimed), so their ratio compares the same moment; the ratio is also taken per place
        times["take back 50 ago"], times["undo take-back"], times["action beside"] = [], [], []
        worst, applies_all, ratios = (0.0, 0), [], []
        for place in range(8):
            if place:
                grow_log(db_path, code, json.loads(api.request("GET", f"/api/tables/{code}", headers=auth)[1])["seq"] + 10)
            target, applies = move_below_top(db_path, code, 50)
            applies_all.append(applies)
            here, beside = [], []
            for _ in range(max(3, samples // 4)):
                t0 = time.perf_counter()
                timed("action beside", api, "POST", f"/api/tables/{code}/actions",
                      {"type": "adjust", "unit": "u2", "tracker": "hp", "by": -1}, auth)  # (undone at once)
                beside.append(time.perf_counter() - t0)
                api.request("POST", f"/api/tables/{code}/undo", headers=auth)
                t0 = time.perf_counter()
                timed("take back 50 ago", api, "POST", f"/api/tables/{code}/take-back", {"targets": [target]}, auth)
                here.append(time.perf_counter() - t0)
                timed("undo take-back", api, "POST", f"/api/tables/{code}/undo", headers=auth)
            worst = max(worst, (pct(here, 50), applies))
            ratios.append(pct(here, 50) / pct(beside, 50))
        rows.append({"size": size, **{k: pct(v, 50) for k, v in times.items()},
                     "take back 50 ago, dearest place": worst[0],
                     "ratio by place": sorted(ratios),
                     "undo/redo max": max(times["undo/redo"]),
                     "take-back applies": f"{min(applies_all)}-{max(applies_all)} (dearest place {worst[1]})"})
    return rows


def move_below_top(db_path: str, code: str, depth: int) -> tuple[int, int]:
    """The move ``depth`` moves below the top of a table's moves in force, and how many moves a
    take-back of it applies: those above it plus those between its snapshot and it."""
    import sqlite3
    conn = sqlite3.connect(db_path)
    table_id, seq = conn.execute("select id, done_top from tables where code = ?", [code]).fetchone()
    for _ in range(depth):
        seq = conn.execute("select link from events where table_id = ? and seq = ?", [table_id, seq]).fetchone()[0]
    # a +1 (the long game's moves are -1 and +1 on the same ship in turn, at its most HP: taken back, a
    # -1 would leave the +1 after it above the most, and the take-back is refused as it should be)
    while json.loads(conn.execute("select payload from events where table_id = ? and seq = ?",
                                  [table_id, seq]).fetchone()[0]).get("by") != 1:
        seq = conn.execute("select link from events where table_id = ? and seq = ?", [table_id, seq]).fetchone()[0]
        depth += 1
    parent = conn.execute("select link from events where table_id = ? and seq = ?", [table_id, seq]).fetchone()[0]
    since = conn.execute("select since_snap from events where table_id = ? and seq = ?", [table_id, parent]).fetchone()[0]
    conn.close()
    return seq, depth + since


def print_growth(long_game: list[dict]) -> None:
    ms = lambda s: f"{s * 1000:.2f} ms"  # noqa: E731
    kinds = [k for k in long_game[0] if k not in ("size", "undo/redo max", "take-back applies",
                                                  "take back 50 ago, dearest place", "ratio by place")]
    print("log length | " + " | ".join(f"{k} p50" for k in kinds) + " | undo/redo max")
    for row in long_game:
        print(f"{row['size']:>10} | " + " | ".join(ms(row[k]) for k in kinds) + f" | {ms(row['undo/redo max'])}"
              f" (a take-back 50 moves ago applies {row['take-back applies']} moves after one snapshot load)")
    for row in long_game:
        print(f"{row['size']} events: a take-back 50 moves ago / an API action, p50: "
              f"{row['take back 50 ago'] / row['action']:.2f}x; at the dearest place of the log "
              f"{row['take back 50 ago, dearest place'] / row['action']:.2f}x (issue 38: at most 1.2x)")
        by_place = row["ratio by place"]
        print(f"{row['size']} events: a take-back 50 moves ago / the API action timed beside it, p50 each, at 8 places: "
              f"median {statistics.median(by_place):.2f}x (min {by_place[0]:.2f}, max {by_place[-1]:.2f}); "
              f"all places {row['take back 50 ago'] / row['action beside']:.2f}x")
    first = long_game[0]
    print("longest / shortest log, p50: " + ", ".join(
        f"{k} {long_game[-1][k] / first[k]:.2f}x" for k in kinds) + " (issue 14: within 1.2x)")


def profile(count: int = 300) -> None:
    """cProfile of the htmx tap phones send (form post -> action -> the board rendered), in-process
    on the Flask test client: where one tap's server time goes, without the network."""
    import cProfile
    import io
    import pstats
    sys.path.insert(0, str(ROOT))
    from companion import create_app
    app = create_app({"DATABASE": f"{tempfile.mkdtemp()}/profile.sqlite", "SECRET_KEY": "profile"})
    api = app.test_client()
    created = api.post("/api/tables", json={"system": "freeform", "name": "Profile"}).get_json()
    code, auth = created["code"], {"Authorization": "Bearer " + created["player_url"].rsplit("/", 1)[1]}
    for i in range(6):  # the benchmark's table
        for step in ({"type": "add-unit", "name": f"Ship {i}", "hp": 999},
                     {"type": "add-tracker", "unit": f"u{i + 1}", "spec": {"id": "hull", "kind": "boxes", "count": 8,
                                                                         "flagged": [6, 7]}},
                     {"type": "add-tracker", "unit": f"u{i + 1}", "spec": {"id": "state", "kind": "conditions",
                                                                         "options": ["Burning", "Stunned"]}}):
            api.post(f"/api/tables/{code}/actions", json=step, headers=auth)
    phone = app.test_client()
    path = "/t/" + created["player_url"].split("/t/", 1)[1]
    token = re.search(rb'name="csrf_token" value="([^"]+)"', phone.get(path).data).group(1).decode()
    phone.post(path, data={"csrf_token": token, "seat": "Bench", "side": "Side A"})

    seq = [SEQ_RE.search(phone.get(f"/t/{code}").data).group(1).decode()]

    def tap(i: int) -> None:
        # as static/js sends it: the seq its board shows (the answer is a step) and its open rows
        resp = phone.post(f"/t/{code}/act", data={"csrf_token": token, "_control": "unit-u1",
                                                   "do": f"adjust unit=u1 tracker=hp by={1 if i % 2 else -1}"},
                          headers={"HX-Request": "true", "X-CSRF-Token": token, "Accept-Encoding": "gzip",
                                   "X-Board-Seq": seq[0], "X-Open-Units": "u1"})
        assert resp.status_code == 200, resp.status_code
        seq[0] = resp.headers.get("X-Board-Seq") or SEQ_RE.search(gzip.decompress(resp.data)).group(1).decode()

    for i in range(50):
        tap(i)
    t0, c0 = time.perf_counter(), time.process_time()
    for i in range(count):
        tap(i)
    print(f"{count} htmx taps in-process: {(time.perf_counter() - t0) / count * 1000:.2f} ms each "
          f"({(time.process_time() - c0) / count * 1000:.2f} ms CPU)")
    prof = cProfile.Profile()
    prof.enable()
    for i in range(count):
        tap(i)
    prof.disable()
    for order in ("cumulative", "tottime"):
        out = io.StringIO()
        pstats.Stats(prof, stream=out).sort_stats(order).print_stats(30)
        print(out.getvalue())


def _change_table(app, plan: dict, system: str) -> tuple[str, list]:
    """change_cost's table: the load test's moment of ``system``, a phone of each side sat at it
    through the join page ([client, CSRF token, the seq its board shows] each)."""
    api = app.test_client()
    created = api.post("/api/tables", json={"system": system, "name": "Changes",
                                             "sides": plan["sides"]}).get_json()
    code = created["code"]
    auth = {"Authorization": "Bearer " + created["player_url"].rsplit("/", 1)[1]}
    for step in plan["steps"]:
        assert api.post(f"/api/tables/{code}/actions", json=step, headers=auth).status_code == 200
    path = "/t/" + created["player_url"].split("/t/", 1)[1]
    phones = []
    for name, side in (("A", plan["sides"][0]), ("B", plan["sides"][-1])):
        phone = app.test_client()
        token = re.search(rb'name="csrf_token" value="([^"]+)"', phone.get(path).data).group(1).decode()
        phone.post(path, data={"csrf_token": token, "seat": name, "side": side})
        page = phone.get(f"/t/{code}").data
        phones.append([phone, re.search(rb'"X-CSRF-Token": "([^"]+)"', page).group(1).decode(),
                       SEQ_RE.search(page).group(1).decode()])
    return code, phones


def change_cost(systems=None, count: int = 60, profile_system: str | None = None, forward: bool = False) -> dict:
    """What one change costs the server in each system (issue 38), in-process on the Flask test client:
    the load test's table of the system (scripts/load.py table_plan), a phone of each side, and per
    change: the move (or its Undo) from the first side's phone as the board's form posts it (its answer a
    step), then the step the other side's live stream pushes (pushed_step, as the stream draws it).
    CPU ms per change (move and Undo alternating, medians of 5 rounds), and the board's parts drawn
    again per change, by template (a part served from memory is not counted).  ``profile_system``:
    cProfile that system's changes and print where the time goes.  ``forward``: played on as a game
    is, never taken back: the table's moves in turn (a move the rules refuse now is no change) with a
    roll of 2d6 between them, each change a state the table has not had before (the load test's move
    and Undo keep a table at one moment, so its boards' parts are mostly served from memory)."""
    import cProfile
    import io
    import pstats
    sys.path.insert(0, str(ROOT))
    import load
    from companion import create_app
    from companion.board import draw as board_draw
    from companion.board import pushed_step
    from companion.db import get_db
    from companion.store import table_head
    app = create_app({"DATABASE": f"{tempfile.mkdtemp()}/changes.sqlite", "SECRET_KEY": "changes"})
    drawn: dict[str, int] = {}
    plain_render = board_draw._render

    def counting_render(name, ctx, **extra):
        drawn[name] = drawn.get(name, 0) + 1
        return plain_render(name, ctx, **extra)
    board_draw._render = counting_render
    out = {}
    try:
        for system in systems or load.SYSTEMS:
            plan = load.table_plan(system)
            code, phones = _change_table(app, plan, system)
            move = plan["moves"][0]
            refused = [0, 0.0]  # moves the rules refused, and the CPU they took (not a change's)

            def change(i: int) -> None:
                c0, drawn_before = time.process_time(), dict(drawn)
                (a, token, _), b = phones[0], phones[1]
                url = f"/t/{code}/act" if i % 2 == 0 or forward else f"/t/{code}/undo"
                made = plan["moves"][(i // 2) % len(plan["moves"])] if forward else move
                form = {"csrf_token": token, **(load.move_form(made) if i % 2 == 0 else
                                                {"type": "roll", "expr": "2d6"} if forward else {})}
                resp = a.post(url, data=form, headers={
                    "HX-Request": "true", "X-CSRF-Token": token, "Accept-Encoding": "gzip",
                    "X-Board-Seq": phones[0][2], "X-Open-Units": made["_open"]})
                if forward and 400 <= resp.status_code < 500 and resp.status_code not in (403, 404):
                    refused[0] += 1  # the rules refuse it at this moment: no change (its cost kept apart)
                    refused[1] += time.process_time() - c0
                    drawn.clear()
                    drawn.update(drawn_before)  # (its answer's board, drawn with the refusal on it, is not a change's)
                    return
                assert resp.status_code == 200, (system, resp.status_code, resp.data[:300])
                phones[0][2] = resp.headers.get("X-Board-Seq") or SEQ_RE.search(gzip.decompress(resp.data)).group(1).decode()
                with app.test_request_context(f"/t/{code}/live"):  # the other side's stream, as it draws
                    from flask import g
                    g.table = None
                    head = table_head(get_db(), code)
                    seat = {"name": "B", "side": plan["sides"][-1], "role": "player"}
                    pushed = pushed_step(code, seat, int(b[2]), head)
                    if pushed is None:  # its board not kept yet (the first change): its poll draws it
                        b[0].get(f"/t/{code}/poll?seq={b[2]}", headers={"HX-Request": "true"})
                    b[2] = str(head[1])

            for i in range(10):
                change(i)
            rounds, parts = [], []
            for r in range(5):
                if forward:  # (each round a new table at the plan's moment: its moves not made yet)
                    code, phones = _change_table(app, plan, system)
                    change(0)  # (each view's board drawn once)
                drawn.clear()
                refused[:] = [0, 0.0]
                c0 = time.process_time()
                for i in range(count):
                    change(1 + i if forward else 10 + r * count + i)
                changes = count - refused[0]
                rounds.append((time.process_time() - c0 - refused[1]) / changes * 1000)
                parts.append(dict(drawn))
            per = {k: v / changes for k, v in parts[-1].items()}
            out[system] = {"cpu_ms": statistics.median(rounds), "parts": per, "parts_total": sum(per.values()),
                           "refused": refused[0]}
            print(f"{system}: {out[system]['cpu_ms']:.2f} ms CPU per change"
                  + (f" ({refused[0]} of {count} moves refused, {refused[1] / refused[0] * 1000:.2f} ms each, not counted)"
                     if forward and refused[0] else "") + "; parts drawn per change "
                  f"{out[system]['parts_total']:.1f}: " + ", ".join(
                      f"{k.replace('board/', '')} {v:.1f}" for k, v in sorted(per.items(), key=lambda kv: -kv[1])))
            if system == profile_system:
                prof = cProfile.Profile()
                prof.enable()
                for i in range(count):
                    change(10 + 5 * count + i)
                prof.disable()
                for order in ("cumulative", "tottime"):
                    buf = io.StringIO()
                    pstats.Stats(prof, stream=buf).sort_stats(order).print_stats(35)
                    print(buf.getvalue())
    finally:
        board_draw._render = plain_render
    free = out.get("freeform", {}).get("cpu_ms")
    if free:
        print("per change, to Freeform's: " + ", ".join(f"{k} {v['cpu_ms'] / free:.2f}x" for k, v in out.items()))
    return out


def report_compare(sizes=(100, 1_000, 10_000), samples=20) -> None:
    """In process: the battle report after one change, built by replaying the whole log
    (report.build, as before issue 30 §9) and on from the kept totals (report_cache.report_of),
    at each log length, on the same table in the same run; the two must be equal."""
    sys.path.insert(0, str(ROOT))
    import random as _random

    from companion import report, report_cache, store
    from companion.actions import Ctx
    from companion.content import default_systems
    system = default_systems()["freeform"]
    tmp = tempfile.mkdtemp(dir=ROOT)
    try:
        db = store.open_db(f"{tmp}/report.sqlite")
        ctx = Ctx(system=system, rng=_random.Random(1), seat="Ann", side="Side A")
        code = store.create(db, system, {"name": "Report"}, ctx)["code"]
        for i in range(6):
            store.act(db, code, {"type": "add-unit", "name": f"Ship {i}", "side": "Side B", "hp": 999}, ctx)
        print("log length | whole replay p50 | kept totals p50 (first view after a change) | after an undo p50")
        for size in sizes:
            grow_log(f"{tmp}/report.sqlite", code, size)
            whole, kept, undone = [], [], []
            for i in range(samples):
                store.act(db, code, {"type": "adjust", "unit": f"u{i // 2 % 6 + 1}", "tracker": "hp",
                                     "by": 1 if i % 2 else -1}, ctx)
                row = store.table(db, code)
                t0 = time.perf_counter()
                full = report.build(row["state"], store.events(db, code))
                t1 = time.perf_counter()
                fast = report_cache.report_of(db, row)
                t2 = time.perf_counter()
                assert fast == full
                whole.append(t1 - t0)
                kept.append(t2 - t1)
                store.undo(db, code, ctx)
                row = store.table(db, code)
                t0 = time.perf_counter()
                report_cache.report_of(db, row)
                undone.append(time.perf_counter() - t0)
                store.undo(db, code, ctx, redo=True)
            print(f"{size:>10} | {pct(whole, 50) * 1000:.2f} ms | {pct(kept, 50) * 1000:.2f} ms | "
                  f"{pct(undone, 50) * 1000:.2f} ms")
    finally:
        subprocess.run(["rm", "-rf", tmp])


def synchronous_compare(clients: int, actions: int, rounds: int = 2) -> None:
    """Actions under PRAGMA synchronous=NORMAL and FULL (companion/store/engine.py ``synchronous``), in the
    same run, alternating so the box's load falls on both alike; the database on the disk the
    repository is on (not a tmpfs: there a sync costs nothing)."""
    times: dict[str, dict[int, list[float]]] = {"NORMAL": {}, "FULL": {}}
    for _ in range(rounds):
        for mode in times:
            port, tmp = free_port(), tempfile.mkdtemp(dir=ROOT)
            env = {**os.environ, "COMPANION_DB": f"{tmp}/bench.sqlite", "COMPANION_SECRET_KEY": "bench",
                   "COMPANION_SYNCHRONOUS": mode}
            server = start_gunicorn(port, env)
            try:
                wait_for(port)
                api = Client(port)
                _, data = api.request("POST", "/api/tables", {"system": "freeform", "name": "Bench"},
                                      {"Authorization": "Bearer none"})
                created = json.loads(data)
                auth = {"Authorization": f"Bearer {created['player_url'].rsplit('/', 1)[1]}"}
                for i in range(6):
                    api.request("POST", f"/api/tables/{created['code']}/actions",
                                {"type": "add-unit", "name": f"Ship {i}", "hp": 999}, auth)
                for n in (1, clients):
                    with multiprocessing.Pool(n) as pool:
                        found = pool.map(act_worker, [(port, created["code"], auth, k, actions) for k in range(n)])
                    times[mode].setdefault(n, []).extend(t for r in found for t in r)
            finally:
                server.terminate()
                server.wait()
                subprocess.run(["rm", "-rf", tmp])
    ms = lambda s: f"{s * 1000:.2f} ms"  # noqa: E731
    for n in (1, clients):
        for mode in times:
            t = times[mode][n]
            print(f"synchronous={mode:6} {n} client{'s' if n > 1 else ''}: {len(t)} API actions: "
                  f"p50 {ms(pct(t, 50))}, p90 {ms(pct(t, 90))}, p99 {ms(pct(t, 99))}, mean {ms(statistics.mean(t))}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--actions", type=int, default=200, help="actions per client")
    parser.add_argument("--polls", type=int, default=2000, help="no-change polls per client")
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--growth", type=int, nargs="*", default=[100, 1_000, 10_000],
                        help="log lengths at which a long game's action, poll, board and undo are timed")
    parser.add_argument("--growth-only", action="store_true", help="only the long game's table")
    parser.add_argument("--report", action="store_true",
                        help="only: the battle report after a change, whole replay against kept totals, in process")
    parser.add_argument("--synchronous", action="store_true",
                        help="only: API actions under synchronous=NORMAL and FULL, alternating, same run")
    parser.add_argument("--profile", action="store_true",
                        help="profile one htmx tap and its board render in-process instead (cProfile)")
    parser.add_argument("--changes", nargs="*", metavar="SYSTEM",
                        help="only: CPU and parts drawn per change in each system (or those named), in-process")
    parser.add_argument("--profile-system", help="with --changes: cProfile this system's changes")
    parser.add_argument("--forward", action="store_true",
                        help="with --changes: played on, never taken back (each change a new state)")
    if sys.argv[1:2] == ["load"]:
        sys.path.insert(0, str(ROOT / "scripts"))
        import load
        return load.main(sys.argv[2:])
    args = parser.parse_args()
    if args.profile:
        return profile()
    if args.changes is not None:
        return change_cost(tuple(args.changes) or None, profile_system=args.profile_system, forward=args.forward)
    if args.report:
        return report_compare(tuple(args.growth))
    if args.synchronous:
        return synchronous_compare(args.clients, min(args.actions, 150))
    port = free_port()
    tmp = tempfile.mkdtemp()
    env = {**os.environ, "COMPANION_DB": f"{tmp}/bench.sqlite", "COMPANION_SECRET_KEY": "bench"}
    server = start_gunicorn(port, env)
    try:
        wait_for(port)
        if args.growth_only:
            return print_growth(growth(port, env["COMPANION_DB"], sizes=tuple(args.growth)))
        api = Client(port)
        _, data = api.request("POST", "/api/tables", {"system": "freeform", "name": "Bench"},
                              {"Authorization": "Bearer none"})
        created = json.loads(data)
        code, player_url = created["code"], created["player_url"]
        secret = player_url.rsplit("/", 1)[1]
        auth = {"Authorization": f"Bearer {secret}"}
        for i in range(6):  # a typical table: six ships with a few trackers each
            api.request("POST", f"/api/tables/{code}/actions", {"type": "add-unit", "name": f"Ship {i}", "hp": 999}, auth)
            api.request("POST", f"/api/tables/{code}/actions", {"type": "add-tracker", "unit": f"u{i + 1}", "spec": {
                "id": "hull", "kind": "boxes", "count": 8, "flagged": [6, 7]}}, auth)
            api.request("POST", f"/api/tables/{code}/actions", {"type": "add-tracker", "unit": f"u{i + 1}", "spec": {
                "id": "state", "kind": "conditions", "options": ["Burning", "Stunned"]}}, auth)

        # a phone that joined through the QR: its cookie is what polls carry
        phone = Client(port)
        path = player_url.split(str(port), 1)[1]
        _, page = phone.request("GET", path)
        token = re.search(rb'name="csrf_token" value="([^"]+)"', page).group(1).decode()
        phone.request("POST", path, f"csrf_token={token}&seat=Bench&side=Side+A")
        _, board = phone.request("GET", f"/t/{code}")
        js = sum(p.stat().st_size for p in (ROOT / "static").rglob("*.js"))
        games = board_sizes(port)

        with multiprocessing.Pool(args.clients) as pool:
            t0 = time.perf_counter()
            results = pool.map(act_worker, [(port, code, auth, n, args.actions) for n in range(args.clients)])
            action_wall = time.perf_counter() - t0
            action_times = [t for r in results for t in r]
            token = re.search(r'"X-CSRF-Token": "([^"]+)"', board.decode()).group(1)
            t0 = time.perf_counter()
            results = pool.map(htmx_act_worker, [(port, code, phone.cookie, token, n, args.actions)
                                                 for n in range(args.clients)])
            htmx_wall = time.perf_counter() - t0
            htmx_times = [t for r in results for t in r]
            floor_times = floor_taps(pool, args.clients, args.actions)
            _, data = api.request("GET", f"/api/tables/{code}", headers=auth)
            seq = json.loads(data)["seq"]
            single, size = poll_worker((port, code, phone.cookie, seq, args.polls))
            results = pool.map(poll_worker, [(port, code, phone.cookie, seq, args.polls)] * args.clients)
            poll_times = [t for r, _ in results for t in r]
        sizes = [size]
        long_game = growth(port, env["COMPANION_DB"], sizes=tuple(args.growth))

        ms = lambda s: f"{s * 1000:.2f} ms"  # noqa: E731
        print(f"actions: {len(action_times)} by {args.clients} clients in {action_wall:.1f} s "
              f"({len(action_times) / action_wall:.0f}/s): p50 {ms(pct(action_times, 50))}, p99 {ms(pct(action_times, 99))}")
        print(f"htmx taps (the board comes back, gzipped): {len(htmx_times)} by {args.clients} clients in "
              f"{htmx_wall:.1f} s: p50 {ms(pct(htmx_times, 50))}, p99 {ms(pct(htmx_times, 99))}")
        print(f"floor (one SQLite commit + Flask 204, same gunicorn settings, same clients): p50 "
              f"{ms(pct(floor_times, 50))}, p99 {ms(pct(floor_times, 99))}; htmx tap p99 / floor p99 = "
              f"{pct(htmx_times, 99) / pct(floor_times, 99):.1f}x, API action p99 / floor p99 = "
              f"{pct(action_times, 99) / pct(floor_times, 99):.1f}x (target 3x)")
        print(f"no-change poll, one phone: {len(single)} polls: p50 {ms(pct(single, 50))}, p99 {ms(pct(single, 99))}")
        print(f"no-change poll, {args.clients} phones at once: {len(poll_times)} polls: p50 {ms(pct(poll_times, 50))}, "
              f"p99 {ms(pct(poll_times, 99))}; response {sizes[0]} bytes (status line + headers, empty body)")
        print(f"board page (freeform, 6 units): {len(board)} bytes HTML; JS total: {js} bytes")
        for system, (full, partial, wire) in games.items():
            print(f"board page ({system}, {GAME_CASES[system]}): {full} bytes HTML ({wire} bytes gzipped on the wire); "
                  f"the board alone (poll/action answer) {partial} bytes")
        print(f"mean action {ms(statistics.mean(action_times))}; log length {seq} events")
        print_growth(long_game)
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main()
