"""Open-loop load test (not a test): many phones at many tables, beside a floor, in one run.

Tables of the six systems in turn (``--freeform``: Freeform only), each at a moment of battle with
about six ships (``table_plan``: a game's opening from tests/property_data).  Each phone joins its
table through the player QR address (its own seat cookie, like a real phone; ``take_seat``), then
polls the board's real poll URL every 2 s (x0.9-1.1 jitter) with the ``seq`` of the board it holds,
taking the new ``seq`` from every answer it gets back (a whole board's data-seq, or a step's
X-Board-Seq, as static/js does).  About every 40 s (x0.5-1.5) it makes its game's signature
move as the board's form posts it (htmx headers, CSRF token, gzip accepted, the seq its board shows):
Freeform's -1 on a ship's HP, a Dreadfleet broadside, an Empires of Dust attack, damage to a
Dreadnaught, a Talon fire, an Astral Action attack; and 0.3-1 s later takes it back with Undo, so a
change every 20 s a phone and the table stays at its moment.  A move the game's rules refuse (two
phones making a move only one can make at a time) is counted apart, not as an error.  Each phone has
the row of the unit it hits open, so that unit's card comes with its answers.

Open loop: every request has a time on the clock it is due at; the latency counted is from that
time to the last byte of the answer, so a server that falls behind is charged for the wait too
(nothing is "coordinated away" by a client that waits politely).  One asyncio loop drives every
phone over keep-alive HTTP/1.1 connections (two per phone: polls and taps, as a browser would have).

Targets, each started fresh on its own port and database, one after the other:
- ``floor``: scripts/floor_app.py (a bare Flask 204 for the poll; one SQLite commit + 204 for the
  tap) under the same gunicorn settings (gunicorn.conf.py) and this same client;
- ``gunicorn``: the app as the Procfile serves it;
- ``serve``: ``companion serve`` as players start it;
- ``postgres``: two app servers (the Procfile's line, one worker each) on one PostgreSQL (issue 39),
  each phone's stream on one and its taps on the other, as a proxy with no sticky sessions would
  spread them; the database's processes count in the server's CPU and memory.

Reported per kind (no-change poll, poll after a change, tap): p50 / p99 / max and errors; the
server's CPU (master + workers, % of one core) and RSS (summed, peak), read from /proc; the
client's own CPU and how late its loop sent (its lag), since it shares the box; and the box's own
state over the measured window (scripts/box_probe.py, a process of its own: how long a 4 KB flush to
the database's filesystem took, each one of 50 ms or more with its clock time, and a fixed piece of
CPU work timed each second: its median, in which the server's CPU per phone-minute is said too, and
the seconds it ran 1.5x slow or more).  The README's table uses the ratios to
the floor measured in the same run.

With ``--live`` each phone holds the board's live stream (/t/<code>/live, companion/live.py) instead of
polling, as static/js/push.js does: a step pushed on the stream is held on arrival; an event that
says only the new seq makes it ask for the step (the poll URL with the seq its board shows) at once.
The stream is asked for with Accept-Encoding: gzip, as Chromium's EventSource does
(``--stream-identity``: without).  The sync delay is measured from the moment a tap's answer reached
its phone to the moment each other phone at the table holds that seq (its step answered; 0 for a phone
that held it before the tap's own phone heard back: the tap's answer is drawn after its commit, and
another server process may push the change meanwhile); the bytes
per change per phone are the stream's on the wire plus any step asked for, per system.  The floor
still polls.

Run: python scripts/load.py --phones 8 300 600 --duration 60   (or python scripts/benchmark.py load ...)
"""
from __future__ import annotations

import argparse
import asyncio
import gc
import gzip
import json
import math
import os
import random
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
import zlib
from pathlib import Path
from urllib.parse import quote

ROOT = Path(__file__).resolve().parent.parent
HZ = os.sysconf("SC_CLK_TCK")
sys.path.insert(0, str(ROOT / "scripts"))
import box_probe  # noqa: E402  (the box's own state beside each run)

PAGE = os.sysconf("SC_PAGE_SIZE")
SEQ_RE = re.compile(rb'id="board" data-seq="(\d+)"')
CSRF_RE = re.compile(rb'name="csrf_token" value="([^"]+)"')


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def pct(values, p):
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


# --- the games: a table of each system and its signature move -----------------------------------

# the six systems, cycled table by table (``--freeform``: Freeform tables only)
SYSTEMS = ("freeform", "dreadfleet", "empires-of-dust", "dreadnaught", "talon", "astral-action")
OPENINGS = ROOT / "tests" / "property_data"  # the moments the games' action tests play from


def _opening(system: str, action: str) -> dict:
    found = next(o for o in json.loads((OPENINGS / f"{system}.json").read_text())["openings"] if action in o["for"])
    return json.loads(json.dumps(found))  # a copy: the plans below add ships to it


def table_plan(system: str, units: int = 6) -> dict:
    """How a load table of ``system`` is set up and played: its ``sides``, the API ``steps`` that reach
    a moment of battle (a game's opening from tests/property_data, with ships added so a table holds
    about six), and the ``moves`` its phones make (form fields as the board's forms post them), one per
    phone in turn, each with the ``unit`` it hits (its row is open on the phone that makes it).  A
    move is the game's signature tap: Freeform's -1 on a ship's HP, Dreadfleet's broadside, Empires of
    Dust's attack, Dreadnaught's damage to a Dreadnaught, Talon's fire, Astral Action's attack."""
    if system == "freeform":
        steps = []
        for i in range(units):
            steps += [{"type": "add-unit", "name": f"Ship {i}", "hp": 999},
                      {"type": "add-tracker", "unit": f"u{i + 1}",
                       "spec": {"id": "hull", "kind": "boxes", "count": 8, "flagged": [6, 7]}},
                      {"type": "add-tracker", "unit": f"u{i + 1}",
                       "spec": {"id": "state", "kind": "conditions", "options": ["Burning", "Stunned"]}}]
        moves = [{"type": "adjust", "unit": f"u{i + 1}", "tracker": "hp", "by": "-1", "_open": f"u{i + 1}"}
                 for i in range(units)]
        return {"sides": ["Side A", "Side B"], "steps": steps, "moves": moves}
    if system == "dreadfleet":
        o = _opening("dreadfleet", "df-broadside")  # Heldenhammer and Bloody Reaver, each with its cog
        ally, foe = o["steps"][0], o["steps"][1]
        o["steps"][2:2] = [dict(ally, name="Seadrake"), dict(foe, name="Shadewraith")]
        # the Damage deck drawn by the app (the opening plays it as a real deck: a hit then only owes cards)
        o["steps"] = [step for step in o["steps"] if step["type"] != "deck-mode"]
        # the Bloody Reaver (u3) is in its activation: its broadside at the Heldenhammer (u1)
        moves = [{"type": "df-broadside", "firer": "u3", "target": "u1", "distance": "5", "dice": "6 5 3 1",
                  "save_dice": "5 2 1"}]
    elif system == "empires-of-dust":
        o = _opening("empires-of-dust", "eod-attack")  # two average fleets of four, in the combat phase
        moves = [{"type": "eod-attack", "attacker": f"u{a}", "target": f"u{t}", "distance": "20", "weapon": "0",
                  "rolled": "15"} for a, t in ((1, 5), (5, 1), (2, 6), (6, 2), (3, 7), (7, 3), (4, 8), (8, 4))]
    elif system == "dreadnaught":
        o = _opening("dreadnaught", "dn-damage")  # Attacker and Defender, a Dreadnaught each
        moves = [{"type": "dn-damage", "ship": ship, "amount": "3"} for ship in ("Defender", "Attacker")]
    elif system == "talon":
        o = _opening("talon", "talon-fire")  # the Zhukov and the Justice, in the fire phase
        o["steps"][2:2] = [{"type": "talon-ship", "cls": cls, "name": name} for cls, name in (
            ("terran-ca", "Nimitz"), ("terran-ca", "Yamato"), ("talon-ca", "Mercy"), ("talon-ca", "Wrath"))]
        # (one ship's group is charged at this moment: a second phone firing before the first took its
        # shot back is refused, and counted as refused)
        moves = [{"type": "talon-fire", "unit": "u2", "group": "1", "target": "u1", "range": "2", "arc": "R",
                  "dice": "5 1", "in_arc": "F"}]
    elif system == "astral-action":
        o = _opening("astral-action", "aa-attack")  # the Mother, her Wasp (in its activation), a Raven
        raven = json.dumps(o["steps"][2])
        o["steps"][3:3] = [json.loads(raven.replace('"Raven"', f'"Raven {n}"')) for n in (2, 3)] + [
            json.loads(json.dumps(o["steps"][0]).replace('"Mother"', '"Hawk"'))]
        # (one attack is resolved at a time: a second phone attacking before the first took its attack
        # back is refused, and counted as refused)
        moves = [{"type": "aa-attack", "shot": "u2:0", "target": target, "dice": "4 5"} for target in ("u3", "u4", "u5")]
    else:
        raise ValueError(f"no load plan for {system}")
    for move in moves:  # the unit hit: its row is open on the phone that makes the move
        move["_open"] = move.get("target") or {"Defender": "u2", "Attacker": "u1"}[move["ship"]]
    return {"sides": [s.strip() for s in o["sides"]], "steps": o["steps"], "moves": moves}


def move_form(move: dict) -> dict:
    """A move's form fields, as the board's form posts them."""
    return {k: v for k, v in move.items() if not k.startswith("_")}


# --- a small HTTP/1.1 client on asyncio streams (keep-alive, like a phone's browser) -------------

class Conn:
    """One keep-alive connection; reopened (once per request) if the server closed it while idle."""

    opened = 0  # connections opened in all (a server that closes after each answer shows here)

    def __init__(self, port: int):
        self.port = port
        self.reader = self.writer = None

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None

    async def request(self, method: str, path: str, headers: dict, body: bytes = b""):
        head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n" + "".join(
            f"{k}: {v}\r\n" for k, v in headers.items())
        if body or method == "POST":
            head += f"Content-Length: {len(body)}\r\n"
        raw = head.encode() + b"\r\n" + body
        for attempt in range(2):
            reused = self.writer is not None
            if not reused:
                self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
                Conn.opened += 1
            try:
                self.writer.write(raw)
                await self.writer.drain()
                return await self._response()
            except (ConnectionError, asyncio.IncompleteReadError, EOFError):
                self.close()
                if reused and attempt == 0:
                    continue  # an idle keep-alive connection the server had closed: as a browser does
                raise

    async def _response(self):
        line = await self.reader.readline()
        if not line:
            raise EOFError("closed")
        status = int(line.split()[1])
        headers = {}
        while True:
            line = await self.reader.readline()
            if line in (b"\r\n", b"\n", b""):
                break
            key, _, value = line.decode("latin-1").partition(":")
            key = key.strip().lower()
            value = value.strip()
            headers[key] = value if key not in headers else headers[key] + ", " + value
            if key == "set-cookie":
                headers.setdefault("_cookies", []).append(value.split(";", 1)[0])
        if "content-length" in headers:
            body = await self.reader.readexactly(int(headers["content-length"]))
        elif headers.get("transfer-encoding", "").lower() == "chunked":
            body = b""
            while True:
                size = int((await self.reader.readline()).split(b";")[0], 16)
                if size == 0:
                    await self.reader.readline()
                    break
                body += await self.reader.readexactly(size)
                await self.reader.readline()
        elif status in (204, 304) or status < 200:
            body = b""
        else:
            body = await self.reader.read()
            headers["connection"] = "close"
        if headers.get("connection", "").lower() == "close":
            self.close()
        return status, headers, body


def unpacked(headers: dict, body: bytes) -> bytes:
    return gzip.decompress(body) if headers.get("content-encoding") == "gzip" else body


# --- phones -------------------------------------------------------------------------------------

class Phone:
    def __init__(self, port: int, code: str, name: str, system: str = "freeform", move: dict | None = None,
                 act_port: int | None = None):
        self.port, self.code, self.name = port, code, name
        self.act_port = act_port or port  # (two app servers: its taps go to the one its stream is not on)
        self.system = system
        self.move = move or {}  # the form fields of its game's signature move (table_plan)
        self.cookie = ""
        self.csrf = ""
        self.seq = "0"
        self.open = ""  # the unit row this phone has open (its card comes with its answers)
        self.poll_conn = Conn(port)
        self.act_conn = Conn(self.act_port)
        self.made: set[int] = set()  # seqs this phone's own taps made (their sync delay is the others')

    def headers(self, extra=None) -> dict:
        h = {"Accept-Encoding": "gzip, deflate", "User-Agent": "companion-load"}
        if self.cookie:
            h["Cookie"] = self.cookie
        h.update(extra or {})
        return h

    def take_seq(self, headers: dict, body: bytes) -> None:
        """The seq the phone's board shows now, as static/js keeps it: a step's answer
        says it in X-Board-Seq (the board stays), a whole board in its data-seq."""
        seq = headers.get("x-board-seq")
        if seq is None:
            found = SEQ_RE.search(unpacked(headers, body))
            seq = found.group(1).decode() if found else None
        if seq is not None and int(seq) > int(self.seq):
            self.seq = seq

    def take_cookie(self, headers: dict) -> None:
        for c in headers.get("_cookies", []):
            self.cookie = c  # the session is the only cookie

    async def join(self, path: str, side: str, host: "Conn", auth: dict) -> None:
        """Sit at the table through the player QR's join page (see ``take_seat``)."""
        status, headers, body = await self.act_conn.request("GET", path, self.headers())
        self.take_cookie(headers)
        token = CSRF_RE.search(unpacked(headers, body)).group(1).decode()
        form = f"csrf_token={token}&seat={quote(self.name)}&side={quote(side)}".encode()
        status, headers, body = await self.act_conn.request(
            "POST", path, self.headers({"Content-Type": "application/x-www-form-urlencoded"}), form)
        assert status == 303, (status, body[:200])
        self.take_cookie(headers)
        if headers.get("location", "").endswith("/waiting"):  # the side is held: the host lets it in
            status, _, body = await host.request("POST", f"/api/tables/{self.code}/asks", auth,
                                                 json.dumps({"name": self.name, "answer": "allow"}).encode())
            assert status == 200, (status, body[:200])
            status, headers, body = await self.act_conn.request("GET", f"/t/{self.code}/waiting", self.headers())
            assert status == 303, (status, body[:200])
            self.take_cookie(headers)
        status, headers, body = await self.act_conn.request("GET", f"/t/{self.code}", self.headers())
        assert status == 200, status
        page = unpacked(headers, body)
        self.seq = SEQ_RE.search(page).group(1).decode()
        self.csrf = re.search(rb'"X-CSRF-Token": "([^"]+)"', page).group(1).decode()


class Results:
    def __init__(self):
        self.times = {"poll_nochange": [], "poll_change": [], "action": [], "poll": [], "sync": []}
        # the clock time each tap's and sync delay's sample ended (in --out's JSON: a tail's stretches
        # set beside the server's own logs, say PostgreSQL's checkpoints)
        self.ended: dict[str, list[float]] = {"action": [], "sync": []}
        self.errors = {"poll": 0, "action": 0, "stream": 0}
        self.answered: dict[tuple[str, int], float] = {}  # (table, seq) -> when the tap that made it was answered
        # (table, seq) -> the (phone, its system's figures) that held it before that answer (its sync delay: 0)
        self.early: dict[tuple[str, int], list] = {}
        self.error_kinds: dict[str, int] = {}
        self.lag: list[float] = []
        self.pauses: list[tuple[float, float]] = []  # (clock time, ms) of each wake of this client 50+ ms late
        self.change_bytes: list[int] = []
        self.pushed = 0  # steps a live stream pushed (the phone asked for nothing)
        # per system: its taps' and sync delays' times, the moves its rules refused (a second phone's
        # move while the first one's is still in force, where the game allows one at a time), and the
        # bytes its live streams carried on the wire (after the opening) for the changes they brought
        self.by_system: dict[str, dict] = {}
        self.refused: dict[str, int] = {}

    def system(self, name: str) -> dict:
        return self.by_system.setdefault(name, {"action": [], "sync": [], "stream_bytes": 0, "changes": 0,
                                                "refused": 0, "moves": 0})

    def error(self, kind: str, what: str) -> None:
        self.errors[kind] += 1
        self.error_kinds[what] = self.error_kinds.get(what, 0) + 1


async def sleep_until(loop, when: float) -> None:
    delay = when - loop.time()
    if delay > 0:
        await asyncio.sleep(delay)


async def poll_loop(phone: Phone, res: Results, start: float, end: float, measure_from: float,
                    interval: float, floor: bool, rng: random.Random):
    loop = asyncio.get_running_loop()
    due = start + rng.uniform(0, interval)
    while due < end:
        free = loop.time() < due  # not still waiting on its previous poll
        await sleep_until(loop, due)
        if due >= measure_from and free:
            res.lag.append(loop.time() - due)  # how late this client's own loop woke to send it
        try:
            status, headers, body = await asyncio.wait_for(phone.poll_conn.request(
                "GET", f"/t/{phone.code}/poll?seq={phone.seq}", phone.headers({"HX-Request": "true",
                                                                               "X-Open-Units": phone.open})), 30)
        except asyncio.CancelledError:
            if due >= measure_from:
                res.error("poll", "unanswered at the end")  # still waiting when the grace ran out
            raise
        except Exception as exc:  # noqa: BLE001  (counted, then the phone polls again)
            phone.poll_conn.close()
            if due >= measure_from:
                res.error("poll", type(exc).__name__)
            due += interval * rng.uniform(0.9, 1.1)
            continue
        took = loop.time() - due
        phone.take_cookie(headers)
        if status == 200 and not floor:
            phone.take_seq(headers, body)
        if due >= measure_from:
            if status == 204:
                res.times["poll_nochange"].append(took)
            elif status == 200:
                res.times["poll_change"].append(took)
                res.change_bytes.append(len(body))
            else:
                res.error("poll", f"poll {status}")
            if status in (200, 204):
                res.times["poll"].append(took)
        due += interval * rng.uniform(0.9, 1.1)


async def stream_loop(phone: Phone, res: Results, start: float, end: float, measure_from: float,
                      rng: random.Random, gzip_stream: bool = True):
    """The board's live stream: on each event, the step at once (the poll URL, from the board's seq)."""
    loop = asyncio.get_running_loop()
    mine = res.system(phone.system)
    await sleep_until(loop, start + rng.uniform(0, 1.0))
    step_conn = Conn(phone.port)
    last_id = ""
    while loop.time() < end:
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", phone.port)
            Conn.opened += 1
            head = (f"GET /t/{phone.code}/live?seq={phone.seq} HTTP/1.1\r\nHost: 127.0.0.1:{phone.port}\r\n"
                    f"Accept: text/event-stream\r\nCookie: {phone.cookie}\r\n"
                    # as Chromium's EventSource asks (--stream-identity: a browser that does not)
                    + ("Accept-Encoding: gzip, deflate, br\r\n" if gzip_stream else "")
                    + (f"Last-Event-ID: {last_id}\r\n" if last_id else "") + "\r\n")
            writer.write(head.encode())
            status = int((await reader.readline()).split()[1])
            chunked = packed = False
            while (line := await reader.readline()) not in (b"\r\n", b""):
                chunked |= line.lower().startswith(b"transfer-encoding: chunked")
                packed |= line.lower().replace(b" ", b"").startswith(b"content-encoding:gzip")
            if status != 200:
                raise ConnectionError(f"stream {status}")
            unzip = zlib.decompressobj(16 + zlib.MAX_WBITS) if packed else None
            buf = b""
            opened = False  # the opening (retry and a first ping) is not a change's bytes
            while loop.time() < end:
                left = end - loop.time()
                if chunked:
                    size = int((await asyncio.wait_for(reader.readline(), left + 1)).split(b";")[0], 16)
                    if size == 0:
                        raise EOFError
                    data = (await reader.readexactly(size + 2))[:-2]
                else:
                    data = await asyncio.wait_for(reader.read(65536), left + 1)
                    if not data:
                        raise EOFError
                if opened and loop.time() >= measure_from:
                    mine["stream_bytes"] += len(data)  # on the wire (HTTP's chunk framing aside)
                buf += unzip.decompress(data) if unzip else data
                if b"\n\n" in buf:
                    opened = True
                while b"\n\n" in buf:
                    event, buf = buf.split(b"\n\n", 1)
                    lines = event.split(b"\n")
                    fields = dict(line.split(b": ", 1) for line in lines if b": " in line)
                    if b"id" not in fields:
                        continue  # a ping
                    last_id = fields[b"id"].decode()
                    if int(last_id) <= int(phone.seq):
                        continue
                    before = int(phone.seq)
                    data = [line[len(b"data: "):] for line in lines if line.startswith(b"data: ")]
                    if fields.get(b"event") == b"step" and int(data[0].split()[0]) <= before:
                        # the step itself, pushed (static/js/push.js swaps it in): held on arrival
                        now = sent = loop.time()
                        phone.seq = str(int(data[0].split()[1]))
                        res.pushed += 1
                    else:  # told the seq only: the step is asked for, as a poll
                        sent = loop.time()
                        status, headers, body = await step_conn.request(
                            "GET", f"/t/{phone.code}/poll?seq={phone.seq}",
                            phone.headers({"HX-Request": "true", "X-Open-Units": phone.open}))
                        now = loop.time()
                        if sent >= measure_from:
                            mine["stream_bytes"] += len(body)  # the step asked for, a change's bytes too
                        if status == 200:
                            phone.take_seq(headers, body)
                        if sent >= measure_from:
                            res.times["poll_change" if status == 200 else "poll_nochange"].append(now - sent)
                            res.times["poll"].append(now - sent)
                    if sent >= measure_from:
                        mine["changes"] += int(phone.seq) - before
                        for seq in range(before + 1, int(phone.seq) + 1):
                            made = res.answered.get((phone.code, seq))
                            if made is None:  # held before the tap that made it was answered: 0 then
                                res.early.setdefault((phone.code, seq), []).append((phone, mine))
                            elif seq not in phone.made and made >= measure_from:
                                res.times["sync"].append(max(0.0, now - made))
                                res.ended["sync"].append(time.time())
                                mine["sync"].append(max(0.0, now - made))
            writer.close()
        except (asyncio.TimeoutError, TimeoutError):
            break  # the window is over
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # noqa: BLE001  (counted; the phone opens its stream again, as EventSource does)
            if loop.time() >= measure_from:
                res.error("stream", type(exc).__name__)
            await asyncio.sleep(1.0)
    step_conn.close()


async def tap(phone: Phone, res: Results, path: str, form: dict, due: float, measure_from: float,
              floor: bool) -> int | None:
    """One tap through the board's form (htmx headers, CSRF token, the seq its board shows), timed from
    ``due``; its status, or None if it failed (counted as an error)."""
    loop = asyncio.get_running_loop()
    body = "&".join(f"{k}={quote(str(v))}" for k, v in {"csrf_token": phone.csrf, **form}.items()).encode()
    try:
        status, headers, body = await asyncio.wait_for(phone.act_conn.request(
            "POST", path, phone.headers({
                "HX-Request": "true", "X-CSRF-Token": phone.csrf, "HX-Target": "board",
                "X-Board-Seq": phone.seq, "X-Open-Units": phone.open,
                "Content-Type": "application/x-www-form-urlencoded"}), body), 30)
    except asyncio.CancelledError:
        if due >= measure_from:
            res.error("action", "unanswered at the end")  # still waiting when the grace ran out
        raise
    except Exception as exc:  # noqa: BLE001
        phone.act_conn.close()
        if due >= measure_from:
            res.error("action", type(exc).__name__)
        return None
    took = loop.time() - due
    phone.take_cookie(headers)
    mine = res.system(phone.system)
    if status == 200 and not floor:
        phone.take_seq(headers, body)  # the board (or its changed parts) in: polls ask from there
        change = (phone.code, int(phone.seq))
        if change not in res.answered:
            res.answered[change] = loop.time()
            for other, theirs in res.early.pop(change, ()):  # the phones that held it before its answer
                if other is not phone and res.answered[change] >= measure_from:
                    res.times["sync"].append(0.0)
                    res.ended["sync"].append(time.time())
                    theirs["sync"].append(0.0)
        phone.made.add(int(phone.seq))
    if due >= measure_from:
        if status in (200, 204):
            res.times["action"].append(took)
            res.ended["action"].append(time.time())
            mine["action"].append(took)
        elif 400 <= status < 500 and status not in (403, 404):
            # the game's rules said no (a move only one phone can make at a time, made by two):
            # answered with the game's sentence, the table unchanged; counted apart from errors
            mine["refused"] += 1
            res.refused[f"{phone.system} {status}"] = res.refused.get(f"{phone.system} {status}", 0) + 1
        else:
            res.error("action", f"action {status}")
    return status


async def act_loop(phone: Phone, res: Results, start: float, end: float, measure_from: float,
                   every: float, floor: bool, rng: random.Random, unit: int):
    """About every ``2 * every`` seconds (x0.5-1.5) the phone makes its game's signature move
    (table_plan) and, 0.3-1 s later, takes it back with the board's Undo: a change every ``every``
    seconds on average, and the table stays at the same moment of its battle whatever the run's
    length (a broadside's damage, say, never sinks the fleet).  The floor's phones tap its commit-and-204."""
    loop = asyncio.get_running_loop()
    due = start + first_tap(rng, every)
    while due < end:
        await sleep_until(loop, due)
        if floor:
            form = {"_control": f"unit-u{unit}", "do": f"adjust unit=u{unit} tracker=hp by=-1"}
        else:
            form = {"_control": f"unit-{phone.open}", **phone.move}
        status = await tap(phone, res, f"/t/{phone.code}/act", form, due, measure_from, floor)
        if due >= measure_from and status is not None:
            res.system(phone.system)["moves"] += 1
        if status in (200, 204):
            undo_due = loop.time() + rng.uniform(0.3, 1.0)
            await sleep_until(loop, undo_due)
            await tap(phone, res, f"/t/{phone.code}/undo" if not floor else f"/t/{phone.code}/act",
                      {"_control": "undo"} if not floor else form, undo_due, measure_from, floor)
        due += next_tap(rng, every)


TAP_SPREAD = (0.5, 1.5)  # a phone's interval between two taps: ``2 * every`` times a factor drawn in here


def next_tap(rng: random.Random, every: float) -> float:
    """Seconds from one of a phone's taps to its next: ``2 * every`` x0.5-1.5 (``TAP_SPREAD``)."""
    return 2 * every * rng.uniform(*TAP_SPREAD)


def first_tap(rng: random.Random, every: float) -> float:
    """Seconds from the start to a phone's first tap, as if the game were long under way: a point in an
    interval between two taps (``next_tap``) drawn in proportion to its length.  Drawn uniformly from
    0 to ``2 * every`` instead (until session 18), every phone's second tap fell 20-60 s after its
    first, so the taps of the whole room bunched: in a 60 s window the tap rate climbed to 1.35x the
    stated one just before 40 s and fell to 0.5x after it (tests/test_load_script.py), and the
    2,000-phone tails were measured in that climb (docs/performance.md, session 18)."""
    shortest, longest = (2 * every * f for f in TAP_SPREAD)
    length = math.sqrt(shortest ** 2 + rng.random() * (longest ** 2 - shortest ** 2))  # density ~ length
    return rng.random() * length


# --- the server and what it costs ----------------------------------------------------------------

def process_tree(pid: int) -> list[int]:
    """The master and every process under it (gunicorn's workers), from /proc."""
    parents: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            parents.setdefault(ppid, []).append(int(entry))
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        todo.extend(parents.get(p, []))
    return out


def cpu_ticks(pids) -> int:
    return sum(ticks_each(pids).values())


def ticks_each(pids) -> dict[int, int]:
    """Each process's CPU ticks (utime + stime) from /proc."""
    out = {}
    for p in pids:
        try:
            with open(f"/proc/{p}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            out[p] = int(fields[11]) + int(fields[12])
        except (OSError, IndexError, ValueError):
            pass
    return out


def rss_bytes(pids) -> int:
    total = 0
    for p in pids:
        try:
            with open(f"/proc/{p}/statm") as f:
                total += int(f.read().split()[1]) * PAGE
        except (OSError, IndexError, ValueError):
            pass
    return total


class AppServers:
    """``postgres``: a PostgreSQL server (the machine's, durable settings: fsync and synchronous commit
    on, as SQLite's FULL) and two app servers on it, each the Procfile's gunicorn line with one worker
    (two worker processes in all, as one SQLite server has), on ``port`` and the next free one.  Looks
    like one server process to the run: ``pid`` (the app servers' shell), ``pids()`` with the database's."""

    def __init__(self, port: int, tmp: str, log, tree: str = ""):
        sys.path.insert(0, str(ROOT / "tests"))
        from postgres_server import Server
        self.pg = Server(durable=True).start()
        self.url = self.pg.new_database()
        self.ports = [port, free_port()]
        env = {**os.environ, "DATABASE_URL": self.url, "COMPANION_SECRET_KEY": "load", "WEB_CONCURRENCY": "1",
               **({"PSYCOPG_WAIT_FUNC": os.environ["LOAD_PG_WAIT"]} if os.environ.get("LOAD_PG_WAIT") else {})}
        env.pop("COMPANION_DB", None)
        if tree:
            env["PYTHONPATH"] = tree
        gunicorn = f"{sys.executable} -m gunicorn -c gunicorn.conf.py --log-level warning"
        line = " & ".join(f"{gunicorn} --bind 127.0.0.1:{p} 'companion:create_app()'" for p in self.ports)
        self.proc = subprocess.Popen(["sh", "-c", line + " & wait"], cwd=tree or ROOT, env=env, stdout=log,
                                     stderr=subprocess.STDOUT, start_new_session=True)
        self.pid = self.proc.pid

    def pids(self) -> list[int]:
        return process_tree(self.proc.pid) + process_tree(self.pg.pid())

    def poll(self):
        return self.proc.poll()

    def terminate(self) -> None:
        try:
            os.killpg(self.proc.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass

    def wait(self, timeout=None):
        try:
            return self.proc.wait(timeout)
        finally:
            self.pg.stop()

    def kill(self) -> None:
        os.killpg(self.proc.pid, signal.SIGKILL)
        self.pg.stop()


def server_pids(server) -> list[int]:
    return server.pids() if isinstance(server, AppServers) else process_tree(server.pid)


def start_server(target: str, port: int, tmp: str, log, tree: str = ""):
    """``tree``: another checkout whose code the server runs (its companion first on the path)."""
    if target == "postgres":
        return AppServers(port, tmp, log, tree)
    env = {**os.environ, "COMPANION_DB": f"{tmp}/load.sqlite", "COMPANION_SECRET_KEY": "load",
           "FLOOR_DB": f"{tmp}/floor.sqlite"}
    if tree:
        env["PYTHONPATH"] = tree
    gunicorn = [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", "--bind", f"127.0.0.1:{port}",
                "--log-level", "warning"]
    cmd = {"floor": gunicorn + ["scripts.floor_app:create_app()"],
           "gunicorn": gunicorn + ["companion:create_app()"],  # as the Procfile
           "serve": [sys.executable, "-m", "companion.cli", "serve", "--host", "127.0.0.1", "--port", str(port),
                     "--db", f"{tmp}/load.sqlite"]}[target]
    return subprocess.Popen(cmd, cwd=tree or ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)


def wait_for(port: int, server: subprocess.Popen) -> None:
    for _ in range(300):
        if server.poll() is not None:
            raise RuntimeError(f"the server stopped at start (exit {server.returncode})")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("the server did not start")


async def take_seat(phone: Phone, player_url: str, side: str, host: "Conn", auth: dict) -> None:
    """A simulated phone sits at its table, as a player of ``side``: every join of the load test is
    made here (through the player QR's join page, its seat's token in the phone's cookie); a side
    another phone holds is let in by the table's host, as a seat of it taps Allow (issue 37)."""
    await phone.join("/t/" + player_url.split("/t/", 1)[1], side, host, auth)


async def set_up(port: int, tables: int, per_table: int, phones: int, units: int,
                 systems: tuple[str, ...] = SYSTEMS, ports: list[int] | None = None) -> list[Phone]:
    """Tables of the ``systems`` in turn (table_plan: a moment of battle, about six ships), set up
    through the API; each phone joins through the player address with a name and a side, the sides
    taken in turn, and is given its game's move (the table's moves in turn)."""
    sem = asyncio.Semaphore(8)

    async def table(t: int) -> list[Phone]:
        system = systems[t % len(systems)]
        plan = table_plan(system, units)
        async with sem:
            api = Conn(port)
            json_h = {"Content-Type": "application/json"}
            _, _, body = await api.request("POST", "/api/tables", json_h, json.dumps(
                {"system": system, "name": f"Load {t}", "sides": plan["sides"]}).encode())
            created = json.loads(body)
            assert "code" in created, (system, created)
            code, url = created["code"], created["player_url"]
            # the table's maker (a script: the API's host seat, issue 37) sets it up and lets in the
            # phones that ask for a side another phone already holds
            # (a checkout from before seats were rows, gunicorn@DIR, acts with the player invitation's secret)
            auth = {**json_h, "Authorization": "Bearer " + created.get("seat_token", url.rsplit("/", 1)[1])}
            for step in plan["steps"]:
                status, _, body = await api.request("POST", f"/api/tables/{code}/actions", auth,
                                                    json.dumps(step).encode())
                assert status == 200, (system, step["type"], status, body[:200])
            count = min(per_table, phones - t * per_table)
            out = []
            for n in range(count):
                move = plan["moves"][n % len(plan["moves"])]
                if ports:  # app servers behind one address, no sticky sessions: a phone's connections land anywhere
                    # (each phone's stream and taps on servers drawn at random, seeded: the same in every run.
                    # Until session 23 the stream went to server n % 2 and the taps to the other, and the sides
                    # are taken in turn too, so each server's streams followed one side of a two-sided table:
                    # not what a proxy does)
                    landing = random.Random(f"{t}-{n}")
                    phone = Phone(landing.choice(ports), code, f"P{t}-{n}", system, move_form(move),
                                  act_port=landing.choice(ports))
                else:
                    phone = Phone(port, code, f"P{t}-{n}", system, move_form(move))
                phone.open = move["_open"]  # the row of the unit it hits, open
                await take_seat(phone, url, plan["sides"][n % len(plan["sides"])], api, auth)
                phone.act_conn.close()  # a fresh connection for its taps, opened when it first taps
                out.append(phone)
            # everyone sat: each phone holds the board as it is now, as a real phone would (the joins after
            # its own pushed to it).  Left at its own join, every stream's first change was "ask" (more
            # than DELTA_BEHIND joins behind), a burst of whole boards at the start that sometimes spilled
            # into the measured window: the "intermittent spike" of sessions 5-12 (docs/performance.md)
            for phone in out:
                status, headers, body = await phone.poll_conn.request(
                    "GET", f"/t/{code}/poll?seq=0", phone.headers({"HX-Request": "true"}))
                assert status == 200, (system, status, body[:200])
                phone.take_seq(headers, body)
            api.close()
            return out

    groups = await asyncio.gather(*(table(t) for t in range(tables)))
    return [p for g in groups for p in g]


async def hold_slow_clients(port: int, idle: int, dribble: int, end: float, closed: list) -> None:
    """Connections that tie a server up without asking for anything: ``idle`` ones that connect and
    send nothing, and ``dribble`` ones that start a request and send one more header line every
    second, never finishing it (a phone whose Wi-Fi dropped mid-request, or anyone on the LAN).
    A dribbler the server closes connects again at once; ``closed`` counts those closes."""
    loop = asyncio.get_running_loop()
    held = [await asyncio.open_connection("127.0.0.1", port) for _ in range(idle)]

    async def dribbler() -> None:
        while loop.time() < end:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(b"GET / HTTP/1.1\r\nHost: x\r\n")
            try:
                while loop.time() < end:
                    await asyncio.sleep(1.0)
                    if reader.at_eof():
                        raise ConnectionError
                    writer.write(b"X-Slow: 1\r\n")
                    await writer.drain()
            except (ConnectionError, OSError):
                closed.append(loop.time())
            finally:
                writer.close()

    await asyncio.gather(*(dribbler() for _ in range(dribble)), return_exceptions=True)
    for _, writer in held:
        writer.close()


async def run_target(target: str, args, phones_n: int) -> dict:
    """One server's run; ``target`` is floor, gunicorn or serve, and ``gunicorn:freeform`` (say)
    plays that server with Freeform tables only, for a Freeform figure in the same run."""
    label = target
    target, _, only = target.partition(":")
    target, _, tree = target.partition("@")  # gunicorn@/path/to/a/checkout: that checkout's code (before/after)
    systems = (only,) if only else systems_of(args)
    port = free_port()
    tmp = tempfile.mkdtemp(prefix=f"load-{target}-")
    log = open(f"{tmp}/server.log", "wb")
    server = start_server(target, port, tmp, log, tree)
    try:
        try:
            wait_for(port, server)
        except RuntimeError:
            server = start_server(target, port, tmp, log, tree)  # once more (a fresh file's start-up race)
            wait_for(port, server)
        for other in getattr(server, "ports", [])[1:]:
            wait_for(other, server)
        await asyncio.sleep(1.0)  # every worker booted
        floor = target == "floor"
        tables = -(-phones_n // args.per_table)
        if floor:
            phones = [Phone(port, f"FLOOR{i // args.per_table}", f"P{i}", "floor") for i in range(phones_n)]
        else:
            phones = await set_up(port, tables, args.per_table, phones_n, args.units, systems,
                                  server.ports if isinstance(server, AppServers) else None)
        # this client's own collector pauses would be counted as the server's latency (at 2,000 phones
        # full collections of ~100 ms were measured here): what the set-up made is set aside, and what
        # the run makes is collected less often
        gc.collect()
        gc.freeze()
        gc.set_threshold(10000, 50, 1000)
        Conn.opened = 0
        res = Results()
        loop = asyncio.get_running_loop()
        rng = random.Random(14)
        start = loop.time() + 0.5
        measure_from = start + args.warmup
        end = measure_from + args.duration
        pids = server_pids(server)
        rss_peak = 0

        async def sample():
            nonlocal rss_peak, pids
            while loop.time() < end:
                pids = server_pids(server)
                rss_peak = max(rss_peak, rss_bytes(pids))
                await asyncio.sleep(1.0)

        # the clock starts at `start` for every phone; the measured window is [measure_from, end)
        async def lag_probe():  # how late this client's own loop wakes (it shares the box): live phones too
            while loop.time() < end:
                due = loop.time() + 0.01
                await sleep_until(loop, due)
                if due >= measure_from:
                    res.lag.append(loop.time() - due)
                    if loop.time() - due > 0.05:  # this client paused: its samples then are late too
                        res.pauses.append((round(time.time(), 3), round((loop.time() - due) * 1000, 1)))

        tasks = [asyncio.ensure_future(sample())]
        if args.live and not floor:
            tasks.append(asyncio.ensure_future(lag_probe()))
        slow_closed: list = []
        if args.idle or args.dribble:
            tasks.append(asyncio.ensure_future(hold_slow_clients(port, args.idle, args.dribble, end, slow_closed)))
        for i, phone in enumerate(phones):
            if floor:
                phone.open = ""
            if args.live and not floor:
                tasks.append(asyncio.ensure_future(stream_loop(phone, res, start, end, measure_from, rng,
                                                               not args.stream_identity)))
            else:
                tasks.append(asyncio.ensure_future(poll_loop(phone, res, start, end, measure_from, args.poll, floor, rng)))
            tasks.append(asyncio.ensure_future(act_loop(phone, res, start, end, measure_from, args.act_every, floor, rng,
                                                        i % args.units + 1)))
        await sleep_until(loop, measure_from)
        # the box's own flushes and CPU over the measured window, by a process of its own (box_probe.py)
        box_out = f"{tmp}/box.json"
        box = subprocess.Popen([sys.executable, str(ROOT / "scripts" / "box_probe.py"), tmp, str(args.duration), box_out])
        each0 = ticks_each(server_pids(server))
        ticks0, wall0, own0 = sum(each0.values()), time.perf_counter(), time.process_time()
        await sleep_until(loop, end)
        each1 = ticks_each(pids)
        ticks1, wall1, own1 = sum(each1.values()), time.perf_counter(), time.process_time()
        _, pending = await asyncio.wait(tasks, timeout=args.grace)  # a collapsed server: stop waiting
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
        # the server's CPU for every request due in the window, to its last answer: what a phone
        # costs, whatever else the box was doing (on a busy box the wall-clock times are not that)
        ticks_done = cpu_ticks(pids)
        box.wait()
        with open(box_out) as f:
            box_state = box_probe.summary(json.load(f))
        for phone in phones:
            phone.poll_conn.close()
            phone.act_conn.close()
        wall = wall1 - wall0
        return {"target": label, "phones": phones_n, "tables": tables, "duration": round(wall, 1),
                "times": {k: [round(t * 1000, 3) for t in v] for k, v in res.times.items()},
                "ended": {k: [round(t, 3) for t in v] for k, v in res.ended.items()},
                "client_pauses": res.pauses,
                "errors": res.errors, "error_kinds": res.error_kinds, "live": bool(args.live and not floor),
                "pushed": res.pushed,
                "server_cpu": (ticks1 - ticks0) / HZ / wall * 100, "server_rss_mb": rss_peak / 2**20,
                # each server process's share (one gevent worker runs on one core: the busiest one queues first)
                "server_cpu_each": sorted(((each1.get(p, 0) - t) / HZ / wall * 100 for p, t in each0.items()),
                                          reverse=True),
                "cpu_ms_per_phone_min": (ticks_done - ticks0) / HZ * 1000 / phones_n / (args.duration / 60),
                "load_average": os.getloadavg()[0], "box": box_state,
                "client_cpu": (own1 - own0) / wall * 100, "lag_p99_ms": pct(res.lag, 99) * 1000,
                "connections_opened": Conn.opened,
                "slow_clients": {"idle": args.idle, "dribbling": args.dribble, "dribblers_closed": len(slow_closed)},
                "change_bytes": sum(res.change_bytes) / len(res.change_bytes) if res.change_bytes else 0,
                "systems": list(systems), "refused": res.refused,
                "by_system": {k: {**v, "action": [round(t * 1000, 3) for t in v["action"]],
                                  "sync": [round(t * 1000, 3) for t in v["sync"]]}
                              for k, v in res.by_system.items()}}
    finally:
        gc.unfreeze()  # (the next server's run sets its own phones aside)
        server.terminate()
        try:
            server.wait(15)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()


def systems_of(args) -> tuple[str, ...]:
    if getattr(args, "freeform", False):
        return ("freeform",)
    if getattr(args, "systems", None):
        return tuple(args.systems.split(","))
    return SYSTEMS


def report_systems(r: dict) -> None:
    """Each system's own figures in a run: its taps (a move and its Undo), its sync delays, the
    moves its rules refused, and its streams' bytes per change per phone (on the wire)."""
    by = r.get("by_system") or {}
    if r["target"] == "floor" or not by:
        return
    print(f"{r['phones']} | {r['target']}: per system | taps | tap p50 / p99 ms | sync p50 / p99 ms | "
          "moves refused by the rules | bytes per change per phone (the stream's, and a step asked for)")
    for name in sorted(by):
        v = by[name]
        acts, sync = v["action"], v["sync"]
        per = v["stream_bytes"] / v["changes"] if v["changes"] else float("nan")
        print(f"  {name} | {len(acts)} | {pct(acts, 50):.1f} / {pct(acts, 99):.1f} | "
              f"{pct(sync, 50):.1f} / {pct(sync, 99):.1f} | {v['refused']} of {v['moves']} | {per:.0f}")


def summary(r: dict) -> dict:
    out = {}
    for kind, values in r["times"].items():
        out[kind] = {"n": len(values), "p50": pct(values, 50), "p99": pct(values, 99),
                     "max": max(values) if values else float("nan")}
    return out


def report(runs: list[dict]) -> None:
    by = {(r["phones"], r["target"]): r for r in runs}
    print("\nphones | target | polls | no-change poll p50/p99/max ms | poll after a change p50/p99/max ms | "
          "tap p50/p99/max ms | errors | server CPU % (RSS MB) | server CPU ms per phone-minute | "
          "client CPU %, lag p99 ms | conns | load average | bytes per poll after a change (gzipped)")
    for r in runs:
        s = summary(r)
        f = lambda k: f"{s[k]['p50']:.1f} / {s[k]['p99']:.1f} / {s[k]['max']:.0f}"  # noqa: E731
        print(f"{r['phones']} | {r['target']} | {s['poll']['n']} | {f('poll_nochange')} | "
              f"{f('poll_change') if s['poll_change']['n'] else '-'} | {f('action')} ({s['action']['n']}) | "
              f"{sum(r['errors'].values())} {r['error_kinds'] or ''} | "
              f"{r['server_cpu']:.0f} ({r['server_rss_mb']:.0f}) | {r['cpu_ms_per_phone_min']:.0f} | "
              f"{r['client_cpu']:.0f}, {r['lag_p99_ms']:.1f} | {r['connections_opened']} | {r['load_average']:.1f} | {r['change_bytes']:.0f}")
    for r in runs:
        sync = r["times"].get("sync") or []
        if sync:
            print(f"{r['phones']} | {r['target']}: sync delay (a tap answered on one phone -> the change held on "
                  f"another), n={len(sync)}: p50 {pct(sync, 50):.1f} / p90 {pct(sync, 90):.1f} / "
                  f"p99 {pct(sync, 99):.1f} / max {max(sync):.0f} ms; steps pushed {r.get('pushed', 0)}, "
                  f"asked for {len(r['times'].get('poll_change') or [])}; CPU % of each server process "
                  f"{', '.join(f'{c:.0f}' for c in r.get('server_cpu_each', []))}")
    for r in runs:
        if r.get("box"):
            print(f"{r['phones']} | {r['target']}: {box_probe.line(r['box'], r['cpu_ms_per_phone_min'])}")
    for r in runs:
        report_systems(r)
    for r in runs:
        slow = r.get("slow_clients") or {}
        if slow.get("idle") or slow.get("dribbling"):
            print(f"{r['phones']} | {r['target']}: {slow['idle']} idle and {slow['dribbling']} dribbling connections held "
                  f"open; the server closed a dribbler {slow['dribblers_closed']} times (header timeout)")
    print("\nratios to the floor measured in the same run (p99 / floor p99: poll to the floor's poll, tap to "
          "the floor's commit-and-204)")
    print("phones | target | poll p99 (all) | no-change poll p99 | poll after a change p99 | tap p99 | "
          "floor poll p99 | floor tap p99")
    for r in runs:
        fl = by.get((r["phones"], "floor"))
        if r["target"] == "floor" or not fl:
            continue
        s, fs = summary(r), summary(fl)
        # ("-": nothing of that kind in the run: live phones do not poll)
        ratio = lambda k, fk: f"{s[k]['p99']:.1f} ms ({s[k]['p99'] / fs[fk]['p99']:.1f}x)" if s[k]["n"] else "-"  # noqa: E731
        print(f"{r['phones']} | {r['target']} | {ratio('poll', 'poll')} | {ratio('poll_nochange', 'poll')} | "
              f"{ratio('poll_change', 'poll')} | {ratio('action', 'action')} | "
              f"{fs['poll']['p99']:.1f} ms | {fs['action']['p99']:.1f} ms")
    for r in runs:
        if r["target"] != "floor" and r["cpu_ms_per_phone_min"]:
            # two cores are 120,000 CPU ms a minute; at 70 % busy a server still answers promptly
            print(f"{r['phones']} phones, {r['target']}: {r['cpu_ms_per_phone_min']:.0f} server CPU ms per phone-minute: "
                  f"two cores at 70 % hold about {0.7 * 120_000 / r['cpu_ms_per_phone_min']:.0f} phones "
                  f"({0.7 * 120_000 / r['cpu_ms_per_phone_min'] / 8:.0f} tables of 8)")
    for phones in sorted({r["phones"] for r in runs}):
        g, sv = by.get((phones, "gunicorn")), by.get((phones, "serve"))
        if g and sv:
            gs, ss = summary(g), summary(sv)
            poll = f"poll {ss['poll']['p99'] / gs['poll']['p99']:.2f}x, " if gs["poll"]["n"] and ss["poll"]["n"] else ""
            print(f"{phones} phones: companion serve / gunicorn p99: {poll}tap {ss['action']['p99'] / gs['action']['p99']:.2f}x")


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--phones", type=int, nargs="+", default=[8, 300, 600])
    parser.add_argument("--per-table", type=int, default=8, help="phones at each table")
    parser.add_argument("--units", type=int, default=6, help="ships at each table")
    parser.add_argument("--poll", type=float, default=2.0, help="seconds between a phone's polls (x0.9-1.1)")
    parser.add_argument("--act-every", type=float, default=20.0, help="seconds between a phone's taps (x0.5-1.5)")
    parser.add_argument("--duration", type=float, default=60.0, help="measured seconds per target")
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds run before measuring")
    parser.add_argument("--grace", type=float, default=30.0,
                        help="seconds the last requests may still take after the window (then counted as errors)")
    parser.add_argument("--targets", default="floor,gunicorn,serve",
                        help="comma-separated: floor, gunicorn, serve, postgres; gunicorn:freeform (say) for Freeform tables "
                             "only; gunicorn@DIR runs the code of the checkout DIR (a before beside an after)")
    parser.add_argument("--idle", type=int, default=0, help="connections held open that send nothing")
    parser.add_argument("--dribble", type=int, default=0,
                        help="connections that send a header line a second and never finish the request")
    parser.add_argument("--live", action="store_true", help="phones hold the live stream instead of polling")
    parser.add_argument("--freeform", action="store_true",
                        help="Freeform tables only (by default the six systems, cycled table by table)")
    parser.add_argument("--systems", help="comma-separated systems to cycle (default: all six)")
    parser.add_argument("--stream-identity", action="store_true",
                        help="live streams asked for without Accept-Encoding (as a browser that does not gzip)")
    parser.add_argument("--out", help="write every run (with every latency) as JSON here")
    args = parser.parse_args(argv)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # stop the server we started, too
    runs = []
    for phones in args.phones:
        for target in args.targets.split(","):
            print(f"{time.strftime('%H:%M:%S')} {phones} phones, {target} ...", flush=True)
            r = asyncio.run(run_target(target, args, phones))
            runs.append(r)
            report([r])
    print(f"\nall runs ({time.strftime('%Y-%m-%d %H:%M')}; load average now {os.getloadavg()[0]:.1f}):")
    report(runs)
    if args.out:
        Path(args.out).write_text(json.dumps(runs))


if __name__ == "__main__":
    main()
