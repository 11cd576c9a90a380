"""Phones against a real server process (`companion serve`, the Procfile's line): a table made through
the JSON API, live streams held open, changes made, and which stream heard of which change, when.

Used by tests/test_serve.py (50 streams on `companion serve`) and tests/test_readme_commands.py (the
README's commands in brand-new venvs).  Plain sockets and threads: the probe must not share the
server's gevent or anything else of the app.
"""
from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path


def companion_command() -> list[str]:
    """`companion`, the console script pip installed beside this Python (the command players type)."""
    script = Path(sys.executable).parent / "companion"
    assert script.exists(), f"{script}: the project is not installed in this venv (scripts/test installs it)"
    return [str(script)]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def call(port: int, method: str, path: str, body=None, token: str | None = None, timeout: float = 5):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    headers = {"Accept": "application/json", "Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    try:
        conn.request(method, path, json.dumps(body) if body is not None else None, headers)
        resp = conn.getresponse()
        raw = resp.read()
    finally:
        conn.close()
    return resp.status, (json.loads(raw) if raw[:1] in (b"{", b"[") else raw)


def start(argv: list, env: dict, log: Path, cwd: Path, answer_within: float = 60) -> subprocess.Popen:
    """Start a server (its own process group, so every worker stops with it) and wait until
    ``/api/systems`` answers on the port in ``env["COMPANION_PORT"]`` or ``env["PORT"]``."""
    port = int(env.get("COMPANION_PORT") or env["PORT"])
    out = open(log, "wb")
    server = subprocess.Popen(argv, env=env, cwd=cwd, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    out.close()
    deadline = time.monotonic() + answer_within
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise AssertionError(f"{argv[0]} exited at start ({server.returncode}):\n{log.read_text()[-2000:]}")
        try:
            if call(port, "GET", "/api/systems", timeout=2)[0] == 200:
                return server
        except OSError:
            time.sleep(0.2)
    stop(server)
    raise AssertionError(f"{argv} did not answer in {answer_within} s:\n{log.read_text()[-2000:]}")


def stop(server: subprocess.Popen) -> None:
    """Stop the server as Ctrl+C does; killed if it is not gone within 15 s."""
    if server.poll() is None:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(15)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()


class Stream(threading.Thread):
    """One phone's live stream (``/t/<code>/live``): the time each event id arrived, and the events."""

    def __init__(self, port: int, code: str, token: str):
        super().__init__(daemon=True)
        self.port, self.code, self.token = port, code, token
        self.seen: dict[int, float] = {}
        self.opened = threading.Event()
        self.error: str | None = None
        self.halted = False
        self.conn: http.client.HTTPConnection | None = None

    def halt(self) -> None:
        """End the stream (its read returns at once)."""
        self.halted = True
        try:
            if self.conn is not None and self.conn.sock is not None:
                self.conn.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass

    def run(self) -> None:
        try:
            # (a read that times out leaves http.client's reader unusable: a long timeout, and halt())
            conn = self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
            conn.request("GET", f"/t/{self.code}/live", headers={"Authorization": f"Bearer {self.token}"})
            resp = conn.getresponse()
            if resp.status != 200:
                self.error = f"live stream answered {resp.status}"
                return
            buf = b""
            while not self.halted:
                chunk = resp.fp.read1(65536)
                if not chunk:
                    return
                buf += chunk
                self.opened.set()  # (the stream's opening ping has come)
                while b"\n" in buf:
                    line, buf = buf.split(b"\n", 1)
                    if line.startswith(b"id: "):
                        self.seen.setdefault(int(line[4:]), time.monotonic())
        except Exception as e:  # noqa: BLE001  (the test reads it)
            if not self.halted:
                self.error = repr(e)[:200]
        finally:
            if self.conn is not None:
                self.conn.close()


def new_table(port: int, name: str) -> tuple[str, str]:
    status, made = call(port, "POST", "/api/tables", {"system": "freeform", "name": name})
    assert status in (200, 201), made
    return made["code"], made["seat_token"]


def streams_hear_every_change(port: int, tables: int, streams_per_table: int, changes: int,
                              within: float = 2.0) -> dict:
    """Open the streams, make ``changes`` changes spread over the tables, and say what each stream heard:
    ``{"answers": [seconds per change], "missed": [(table, seq, stream#)], "errors": [...]}``."""
    made_tables = [new_table(port, f"probe {i}") for i in range(tables)]
    streams = [Stream(port, code, token) for code, token in made_tables for _ in range(streams_per_table)]
    for s in streams:
        s.start()
    for s in streams:
        s.opened.wait(10)
    answers, made = [], []
    for n in range(changes):
        code, token = made_tables[n % tables]
        t0 = time.monotonic()
        status, out = call(port, "POST", f"/api/tables/{code}/actions",
                           {"type": "add-unit", "name": f"Ship {n}", "side": "Side A"}, token, timeout=10)
        answers.append(time.monotonic() - t0)
        assert status == 200, (status, out)
        made.append((code, out["seq"], t0))
        time.sleep(0.1)
    time.sleep(within)
    for s in streams:
        s.halt()
    for s in streams:
        s.join(5)
    missed = [(code, seq, i) for code, seq, at in made for i, s in enumerate(streams) if s.code == code
              and not any(k >= seq and t - at <= within for k, t in s.seen.items())]
    return {"answers": answers, "missed": missed, "errors": [s.error for s in streams if s.error],
            "streams": len(streams)}
