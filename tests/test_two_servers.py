"""Two app servers behind one address, one PostgreSQL (issue 39): each is `companion serve` as a host
runs it, with the database's URL and no key of its own (they share the database's).  A phone's tap on
one reaches the other's open stream; simultaneous taps split across both get every seq once; a
server killed mid-game loses no acknowledged move, and its phones carry on at the other."""
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

ENGINES = ("postgresql",)  # (tests/conftest.py: a real PostgreSQL of the run's own)
REPO = Path(__file__).resolve().parent.parent


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class AppServer:
    def __init__(self, url: str, tmp_path: Path, name: str):
        self.port = _free_port()
        env = {k: v for k, v in os.environ.items() if k not in ("COMPANION_SECRET_KEY", "COMPANION_DB")}
        env["DATABASE_URL"] = url  # as a hosting platform sets it
        self.log = open(tmp_path / f"{name}.log", "wb")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "companion.cli", "serve", "--host", "127.0.0.1", "--port", str(self.port)],
            cwd=tmp_path, env=env, stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True)
        for _ in range(300):
            try:
                if self.call("GET", "/api/systems")[0] == 200:
                    return
            except OSError:
                time.sleep(0.1)
        raise AssertionError(f"{name} did not start: {(tmp_path / f'{name}.log').read_text()}")

    def call(self, method: str, path: str, body=None, token: str | None = None, timeout: float = 10):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        headers = {"Accept": "application/json", "Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        try:
            conn.request(method, path, json.dumps(body) if body is not None else None, headers)
            resp = conn.getresponse()
            raw = resp.read()
            return resp.status, json.loads(raw) if raw[:1] in (b"{", b"[") else raw
        finally:
            conn.close()

    def kill(self) -> None:
        """kill -9 of the whole server: its master and its workers, nothing flushed, nothing said."""
        os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait()

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        self.log.close()


class Stream:
    """An open stream (the board's live stream, or the API's event feed) read in a thread: the ids of
    the events it has had, as they come."""

    def __init__(self, server: AppServer, path: str, token: str, last_id: int | None = None):
        self.ids: list[int] = []
        self.conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        headers = {"Authorization": f"Bearer {token}"}
        if last_id is not None:
            headers["Last-Event-ID"] = str(last_id)
        self.conn.request("GET", path, headers=headers)
        self.resp = self.conn.getresponse()
        assert self.resp.status == 200
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        try:
            for line in self.resp:
                if line.startswith(b"id: "):
                    self.ids.append(int(line[4:]))
        except Exception:  # noqa: BLE001 - the server went, or the test closed the stream under the reader
            pass

    def wait_for(self, seq: int, within: float = 5.0) -> float:
        started = time.monotonic()
        while time.monotonic() - started < within:
            if self.ids and max(self.ids) >= seq:
                return time.monotonic() - started
            time.sleep(0.01)
        raise AssertionError(f"the stream had {self.ids[-5:]} but not {seq} within {within} s")

    def close(self) -> None:
        self.resp.close()
        self.conn.close()
        self.thread.join(5)


def _table(server: AppServer) -> tuple[str, str]:
    status, made = server.call("POST", "/api/tables", {"system": "freeform", "name": "Two servers", "seat": "Anna"})
    assert status == 201, made
    code, token = made["code"], made["seat_token"]
    status, added = server.call("POST", f"/api/tables/{code}/actions",
                                {"type": "add-unit", "name": "Victory", "hp": 999}, token)
    assert status == 200, added
    return code, token


HIT = {"type": "adjust", "unit": "u1", "tracker": "hp", "by": -1}


def test_a_tap_on_one_server_reaches_a_phone_on_the_other(db_target, tmp_path):
    a, b = AppServer(db_target, tmp_path, "a"), AppServer(db_target, tmp_path, "b")
    try:
        code, token = _table(a)
        # the seat made on one server is the seat on the other (its token's hash is in the database)
        assert b.call("GET", f"/api/tables/{code}/seat", token=token)[1]["name"] == "Anna"
        phone_b = Stream(b, f"/t/{code}/live?seq=2", token)
        time.sleep(0.5)
        for _ in range(3):
            status, done = a.call("POST", f"/api/tables/{code}/actions", HIT, token)
            assert status == 200
            assert phone_b.wait_for(done["seq"]) < 2.0  # pushed: NOTIFY from the database, not a poll
        phone_b.close()
        # one signing key for both: an export made on one imports on the other as this server's own
        status, doc = a.call("GET", f"/api/tables/{code}/export", token=token)
        assert status == 200
        status, copy = b.call("POST", "/api/tables/import", doc)
        assert status == 201 and copy["signed"], copy
    finally:
        a.stop()
        b.stop()


def test_simultaneous_taps_across_two_servers_get_every_seq_once(db_target, tmp_path):
    a, b = AppServer(db_target, tmp_path, "a"), AppServer(db_target, tmp_path, "b")
    try:
        code, token = _table(a)
        seqs, errors = [], []

        def phone(n: int) -> None:
            server = a if n % 2 else b
            for _ in range(10):
                status, done = server.call("POST", f"/api/tables/{code}/actions", HIT, token)
                (seqs.append(done["seq"]) if status == 200 else errors.append((status, done)))

        phones = [threading.Thread(target=phone, args=(n,)) for n in range(20)]
        for t in phones:
            t.start()
        for t in phones:
            t.join()
        assert errors == []
        assert sorted(seqs) == list(range(3, 203))  # 200 taps: seqs 3..202 (create, add-unit before)
        status, log = b.call("GET", f"/api/tables/{code}/events", token=token)
        assert [e["seq"] for e in log] == list(range(1, 203))
        status, now = a.call("GET", f"/api/tables/{code}", token=token)
        assert now["state"]["units"]["u1"]["trackers"]["hp"]["value"] == 799
    finally:
        a.stop()
        b.stop()


def test_a_server_killed_mid_game_loses_no_acknowledged_move(db_target, tmp_path):
    a, b = AppServer(db_target, tmp_path, "a"), AppServer(db_target, tmp_path, "b")
    try:
        code, token = _table(a)
        feed_a = Stream(a, f"/api/tables/{code}/feed", token, last_id=2)
        acknowledged: list[int] = []
        lock = threading.Lock()
        killed = threading.Event()

        def phone(n: int) -> None:
            server = a if n % 2 else b
            for _ in range(15):
                if server is a and killed.is_set():
                    server = b  # its next tap goes to the other server (the proxy's doing)
                try:
                    status, done = server.call("POST", f"/api/tables/{code}/actions", HIT, token, timeout=5)
                except (OSError, http.client.HTTPException):
                    continue  # not acknowledged: the phone says so and the player taps again
                if status == 200:
                    with lock:
                        acknowledged.append(done["seq"])

        phones = [threading.Thread(target=phone, args=(n,)) for n in range(10)]
        for t in phones:
            t.start()
        started = time.monotonic()
        # (the kill waits until the phone on A has heard a move: what it had not read yet when its server
        # died is gone with the connection, and it resumes from what it heard)
        while (len(acknowledged) < 40 or not feed_a.ids) and time.monotonic() - started < 20:
            time.sleep(0.005)
        assert feed_a.ids, "the phone on A heard none of the moves before its server was killed"
        a.kill()
        killed.set()
        for t in phones:
            t.join()
        heard = max(feed_a.ids)
        feed_a.close()
        status, log = b.call("GET", f"/api/tables/{code}/events", token=token)
        assert status == 200
        in_log = [e["seq"] for e in log]
        assert in_log == list(range(1, len(in_log) + 1))  # no gap, no repeat
        assert set(acknowledged) <= set(in_log)  # every acknowledged move is there
        hits = sum(1 for e in log if e["type"] == "adjust")
        status, now = b.call("GET", f"/api/tables/{code}", token=token)
        assert now["state"]["units"]["u1"]["trackers"]["hp"]["value"] == 999 - hits
        # the phone whose feed was on the killed server comes back on the other from its last event
        feed_b = Stream(b, f"/api/tables/{code}/feed", token, last_id=heard)
        feed_b.wait_for(in_log[-1])
        assert feed_b.ids[:len(in_log) - heard] == list(range(heard + 1, in_log[-1] + 1))
        feed_b.close()
    finally:
        a.stop()
        b.stop()
