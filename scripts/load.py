"""Open-loop load test (not a test): many phones at many tables, beside a floor, in one run.

Each phone joins its table through the player QR address (its own seat cookie, like a real phone),
then polls the board's real poll URL every 2 s (x0.9-1.1 jitter) with the ``seq`` of the board it
holds, taking the new ``seq`` from every answer it gets back (a whole board's data-seq, or a step's
X-Board-Seq, as static/companion.js does), and taps a tracker's -/+ button about every 20 s
(x0.5-1.5) as the board's form posts it (htmx headers, CSRF token, gzip accepted, the seq its board
shows).  Each phone has the row of the unit it taps open, so that unit's card comes with its answers.

Open loop: every request has a time on the clock it is due at; the latency counted is from that
time to the last byte of the answer, so a server that falls behind is charged for the wait too
(nothing is "coordinated away" by a client that waits politely).  One asyncio loop drives every
phone over keep-alive HTTP/1.1 connections (two per phone: polls and taps, as a browser would have).

Targets, each started fresh on its own port and database, one after the other:
- ``floor``: scripts/floor_app.py (a bare Flask 204 for the poll; one SQLite commit + 204 for the
  tap) under the same gunicorn settings (gunicorn.conf.py) and this same client;
- ``gunicorn``: the app as the Procfile serves it;
- ``serve``: ``companion serve`` as players start it.

Reported per kind (no-change poll, poll after a change, tap): p50 / p99 / max and errors; the
server's CPU (master + workers, % of one core) and RSS (summed, peak), read from /proc; the
client's own CPU and how late its loop sent (its lag), since it shares the box.  The README's
table uses the ratios to the floor measured in the same run.

With ``--live`` each phone holds the board's live stream (/t/<code>/live, companion/live.py) instead of
polling, as static/connection.js does: a step pushed on the stream is held on arrival; an event that
says only the new seq makes it ask for the step (the poll URL with the seq its board shows) at once.  The sync delay is measured from the moment a tap's answer reached its phone
to the moment each other phone at the table holds that seq (its step answered).  The floor still polls.

Run: python scripts/load.py --phones 8 300 600 --duration 60   (or python scripts/benchmark.py load ...)
"""
from __future__ import annotations

import argparse
import asyncio
import gc
import gzip
import json
import os
import random
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import quote

ROOT = Path(__file__).resolve().parent.parent
HZ = os.sysconf("SC_CLK_TCK")
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
    def __init__(self, port: int, code: str, name: str):
        self.port, self.code, self.name = port, code, name
        self.cookie = ""
        self.csrf = ""
        self.seq = "0"
        self.open = ""  # the unit row this phone has open (its card comes with its answers)
        self.poll_conn = Conn(port)
        self.act_conn = Conn(port)
        self.made: set[int] = set()  # seqs this phone's own taps made (their sync delay is the others')

    def headers(self, extra=None) -> dict:
        h = {"Accept-Encoding": "gzip, deflate", "User-Agent": "companion-load"}
        if self.cookie:
            h["Cookie"] = self.cookie
        h.update(extra or {})
        return h

    def take_seq(self, headers: dict, body: bytes) -> None:
        """The seq the phone's board shows now, as static/companion.js keeps it: a step's answer
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

    async def join(self, path: str, side: str) -> None:
        status, headers, body = await self.act_conn.request("GET", path, self.headers())
        self.take_cookie(headers)
        token = CSRF_RE.search(unpacked(headers, body)).group(1).decode()
        form = f"csrf_token={token}&seat={quote(self.name)}&side={quote(side)}".encode()
        status, headers, body = await self.act_conn.request(
            "POST", path, self.headers({"Content-Type": "application/x-www-form-urlencoded"}), form)
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
        self.errors = {"poll": 0, "action": 0, "stream": 0}
        self.answered: dict[tuple[str, int], float] = {}  # (table, seq) -> when the tap that made it was answered
        self.error_kinds: dict[str, int] = {}
        self.lag: list[float] = []
        self.change_bytes: list[int] = []
        self.pushed = 0  # steps a live stream pushed (the phone asked for nothing)

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
                      rng: random.Random):
    """The board's live stream: on each event, the step at once (the poll URL, from the board's seq)."""
    loop = asyncio.get_running_loop()
    await sleep_until(loop, start + rng.uniform(0, 1.0))
    step_conn = Conn(phone.port)
    last_id = ""
    while loop.time() < end:
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", phone.port)
            Conn.opened += 1
            head = (f"GET /t/{phone.code}/live?seq={phone.seq} HTTP/1.1\r\nHost: 127.0.0.1:{phone.port}\r\n"
                    f"Accept: text/event-stream\r\nCookie: {phone.cookie}\r\n"
                    + (f"Last-Event-ID: {last_id}\r\n" if last_id else "") + "\r\n")
            writer.write(head.encode())
            status = int((await reader.readline()).split()[1])
            chunked = False
            while (line := await reader.readline()) not in (b"\r\n", b""):
                chunked |= line.lower().startswith(b"transfer-encoding: chunked")
            if status != 200:
                raise ConnectionError(f"stream {status}")
            buf = b""
            while loop.time() < end:
                left = end - loop.time()
                if chunked:
                    size = int((await asyncio.wait_for(reader.readline(), left + 1)).split(b";")[0], 16)
                    if size == 0:
                        raise EOFError
                    buf += await reader.readexactly(size + 2)
                    buf = buf[:-2] if buf.endswith(b"\r\n") else buf
                else:
                    data = await asyncio.wait_for(reader.read(65536), left + 1)
                    if not data:
                        raise EOFError
                    buf += data
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
                        # the step itself, pushed (connection.js swaps it in): held on arrival
                        now = sent = loop.time()
                        phone.seq = str(int(data[0].split()[1]))
                        res.pushed += 1
                    else:  # told the seq only: the step is asked for, as a poll
                        sent = loop.time()
                        status, headers, body = await step_conn.request(
                            "GET", f"/t/{phone.code}/poll?seq={phone.seq}",
                            phone.headers({"HX-Request": "true", "X-Open-Units": phone.open}))
                        now = loop.time()
                        if status == 200:
                            phone.take_seq(headers, body)
                        if sent >= measure_from:
                            res.times["poll_change" if status == 200 else "poll_nochange"].append(now - sent)
                            res.times["poll"].append(now - sent)
                    if sent >= measure_from:
                        for seq in range(before + 1, int(phone.seq) + 1):
                            made = res.answered.get((phone.code, seq))
                            if made is not None and seq not in phone.made and made >= measure_from:
                                res.times["sync"].append(max(0.0, now - made))
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


async def act_loop(phone: Phone, res: Results, start: float, end: float, measure_from: float,
                   every: float, floor: bool, rng: random.Random, unit: int):
    loop = asyncio.get_running_loop()
    due = start + rng.uniform(0, every)
    by = -1  # -1 then +1 again: HP stays within its bounds whatever the other phones do
    while due < end:
        await sleep_until(loop, due)
        control = f"unit-u{unit}"
        form = (f"csrf_token={phone.csrf}&_control={control}&do="
                + quote(f"adjust unit=u{unit} tracker=hp by={by}")).encode()
        try:
            status, headers, body = await asyncio.wait_for(phone.act_conn.request(
                "POST", f"/t/{phone.code}/act", phone.headers({
                    "HX-Request": "true", "X-CSRF-Token": phone.csrf, "HX-Target": "board",
                    "X-Board-Seq": phone.seq, "X-Open-Units": phone.open,
                    "Content-Type": "application/x-www-form-urlencoded"}), form), 30)
        except asyncio.CancelledError:
            if due >= measure_from:
                res.error("action", "unanswered at the end")  # still waiting when the grace ran out
            raise
        except Exception as exc:  # noqa: BLE001
            phone.act_conn.close()
            if due >= measure_from:
                res.error("action", type(exc).__name__)
            due += every * rng.uniform(0.5, 1.5)
            continue
        took = loop.time() - due
        phone.take_cookie(headers)
        if status == 200:
            by = -by
            if not floor:
                phone.take_seq(headers, body)  # the board (or its changed parts) in: polls ask from there
                res.answered.setdefault((phone.code, int(phone.seq)), loop.time())
                phone.made.add(int(phone.seq))
        if due >= measure_from:
            if status in (200, 204):
                res.times["action"].append(took)
            else:
                res.error("action", f"action {status}")
        due += every * rng.uniform(0.5, 1.5)


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


def start_server(target: str, port: int, tmp: str, log) -> subprocess.Popen:
    env = {**os.environ, "COMPANION_DB": f"{tmp}/load.sqlite", "COMPANION_SECRET_KEY": "load",
           "FLOOR_DB": f"{tmp}/floor.sqlite"}
    gunicorn = [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", "--bind", f"127.0.0.1:{port}",
                "--log-level", "warning"]
    cmd = {"floor": gunicorn + ["scripts.floor_app:create_app()"],
           "gunicorn": gunicorn + ["companion:create_app()"],  # as the Procfile
           "serve": [sys.executable, "-m", "companion.cli", "serve", "--host", "127.0.0.1", "--port", str(port),
                     "--db", f"{tmp}/load.sqlite"]}[target]
    return subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)


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


async def set_up(port: int, tables: int, per_table: int, phones: int, units: int) -> list[Phone]:
    """Tables of six ships (HP, a hull box track, conditions), as scripts/benchmark.py; each phone
    joins through the player address with a name and a side."""
    sem = asyncio.Semaphore(8)

    async def table(t: int) -> list[Phone]:
        async with sem:
            api = Conn(port)
            json_h = {"Content-Type": "application/json"}
            _, _, body = await api.request("POST", "/api/tables", json_h,
                                           json.dumps({"system": "freeform", "name": f"Load {t}"}).encode())
            created = json.loads(body)
            code, url = created["code"], created["player_url"]
            auth = {**json_h, "Authorization": "Bearer " + url.rsplit("/", 1)[1]}
            for i in range(units):
                for step in ({"type": "add-unit", "name": f"Ship {i}", "hp": 999},
                             {"type": "add-tracker", "unit": f"u{i + 1}",
                              "spec": {"id": "hull", "kind": "boxes", "count": 8, "flagged": [6, 7]}},
                             {"type": "add-tracker", "unit": f"u{i + 1}",
                              "spec": {"id": "state", "kind": "conditions", "options": ["Burning", "Stunned"]}}):
                    status, _, body = await api.request("POST", f"/api/tables/{code}/actions", auth,
                                                        json.dumps(step).encode())
                    assert status == 200, (status, body[:200])
            api.close()
            count = min(per_table, phones - t * per_table)
            out = []
            for n in range(count):
                phone = Phone(port, code, f"P{t}-{n}")
                await phone.join("/t/" + url.split("/t/", 1)[1], ("Side A", "Side B")[n % 2])
                phone.act_conn.close()  # a fresh connection for its taps, opened when it first taps
                out.append(phone)
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
    port = free_port()
    tmp = tempfile.mkdtemp(prefix=f"load-{target}-")
    log = open(f"{tmp}/server.log", "wb")
    server = start_server(target, port, tmp, log)
    try:
        try:
            wait_for(port, server)
        except RuntimeError:
            server = start_server(target, port, tmp, log)  # once more (a fresh file's start-up race)
            wait_for(port, server)
        await asyncio.sleep(1.0)  # every worker booted
        floor = target == "floor"
        tables = -(-phones_n // args.per_table)
        if floor:
            phones = [Phone(port, f"FLOOR{i // args.per_table}", f"P{i}") for i in range(phones_n)]
        else:
            phones = await set_up(port, tables, args.per_table, phones_n, args.units)
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
        pids = process_tree(server.pid)
        rss_peak = 0

        async def sample():
            nonlocal rss_peak, pids
            while loop.time() < end:
                pids = process_tree(server.pid)
                rss_peak = max(rss_peak, rss_bytes(pids))
                await asyncio.sleep(1.0)

        # the clock starts at `start` for every phone; the measured window is [measure_from, end)
        async def lag_probe():  # how late this client's own loop wakes (it shares the box): live phones too
            while loop.time() < end:
                due = loop.time() + 0.01
                await sleep_until(loop, due)
                if due >= measure_from:
                    res.lag.append(loop.time() - due)

        tasks = [asyncio.ensure_future(sample())]
        if args.live and not floor:
            tasks.append(asyncio.ensure_future(lag_probe()))
        slow_closed: list = []
        if args.idle or args.dribble:
            tasks.append(asyncio.ensure_future(hold_slow_clients(port, args.idle, args.dribble, end, slow_closed)))
        for i, phone in enumerate(phones):
            phone.open = "" if floor else f"u{i % args.units + 1}"  # the row of the unit it taps, open
            if args.live and not floor:
                tasks.append(asyncio.ensure_future(stream_loop(phone, res, start, end, measure_from, rng)))
            else:
                tasks.append(asyncio.ensure_future(poll_loop(phone, res, start, end, measure_from, args.poll, floor, rng)))
            tasks.append(asyncio.ensure_future(act_loop(phone, res, start, end, measure_from, args.act_every, floor, rng,
                                                        i % args.units + 1)))
        await sleep_until(loop, measure_from)
        each0 = ticks_each(process_tree(server.pid))
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
        for phone in phones:
            phone.poll_conn.close()
            phone.act_conn.close()
        wall = wall1 - wall0
        return {"target": target, "phones": phones_n, "tables": tables, "duration": round(wall, 1),
                "times": {k: [round(t * 1000, 3) for t in v] for k, v in res.times.items()},
                "errors": res.errors, "error_kinds": res.error_kinds, "live": bool(args.live and not floor),
                "pushed": res.pushed,
                "server_cpu": (ticks1 - ticks0) / HZ / wall * 100, "server_rss_mb": rss_peak / 2**20,
                # each server process's share (one gevent worker runs on one core: the busiest one queues first)
                "server_cpu_each": sorted(((each1.get(p, 0) - t) / HZ / wall * 100 for p, t in each0.items()),
                                          reverse=True),
                "cpu_ms_per_phone_min": (ticks_done - ticks0) / HZ * 1000 / phones_n / (args.duration / 60),
                "load_average": os.getloadavg()[0],
                "client_cpu": (own1 - own0) / wall * 100, "lag_p99_ms": pct(res.lag, 99) * 1000,
                "connections_opened": Conn.opened,
                "slow_clients": {"idle": args.idle, "dribbling": args.dribble, "dribblers_closed": len(slow_closed)},
                "change_bytes": sum(res.change_bytes) / len(res.change_bytes) if res.change_bytes else 0}
    finally:
        gc.unfreeze()  # (the next server's run sets its own phones aside)
        server.terminate()
        try:
            server.wait(15)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()


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
        ratio = lambda k, fk: f"{s[k]['p99']:.1f} ms ({s[k]['p99'] / fs[fk]['p99']:.1f}x)"  # noqa: E731
        print(f"{r['phones']} | {r['target']} | {ratio('poll', 'poll')} | {ratio('poll_nochange', 'poll')} | "
              f"{ratio('poll_change', 'poll') if s['poll_change']['n'] else '-'} | {ratio('action', 'action')} | "
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
            print(f"{phones} phones: companion serve / gunicorn p99: poll {ss['poll']['p99'] / gs['poll']['p99']:.2f}x, "
                  f"tap {ss['action']['p99'] / gs['action']['p99']:.2f}x")


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
    parser.add_argument("--targets", default="floor,gunicorn,serve", help="comma-separated: floor, gunicorn, serve")
    parser.add_argument("--idle", type=int, default=0, help="connections held open that send nothing")
    parser.add_argument("--dribble", type=int, default=0,
                        help="connections that send a header line a second and never finish the request")
    parser.add_argument("--live", action="store_true", help="phones hold the live stream instead of polling")
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
