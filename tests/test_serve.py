"""`companion serve` as players run it: a phone's no-change poll keeps its connection alive."""
from __future__ import annotations

import http.client
import json
import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import serve_probe

REPO = Path(__file__).resolve().parent.parent


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _serve(tmp_path, *extra):
    """`companion serve` on a free loopback port, answering once this returns."""
    port = _free_port()
    env = {**os.environ, "COMPANION_SECRET_KEY": "serve-test"}
    env.pop("COMPANION_WORKER_CLASS", None)  # the default players get
    log = open(tmp_path / "serve.log", "wb")
    server = subprocess.Popen([sys.executable, "-m", "companion.cli", "serve", "--host", "127.0.0.1", "--port",
                               str(port), "--db", str(tmp_path / "serve.sqlite"), *extra], cwd=REPO, env=env,
                              stdout=log, stderr=subprocess.STDOUT)
    for _ in range(200):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            time.sleep(0.1)
    return port, server, log


def _stop(server, log) -> None:
    """Stop the server as Ctrl+C does; it must be gone within a few seconds (graceful_timeout 5 s,
    companion/serving.py), and is killed (the test failing) if not."""
    server.terminate()
    try:
        server.wait(timeout=15)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()
        raise
    finally:
        log.close()


def test_slow_and_idle_connections_do_not_lock_the_phones_out(tmp_path):
    """Issue 30 item 5: with gunicorn's threads (2 workers x 2), four connections that start a
    request and never finish its headers held every thread, and every phone's poll waited for as
    long as they stayed open.  The served app now gives a connection no thread of its own, and a
    request's headers must arrive within the keep-alive time (10 s) or the connection is closed."""
    port, server, log = _serve(tmp_path)
    held = []
    try:
        for _ in range(20):  # connected, silent
            held.append(socket.create_connection(("127.0.0.1", port), timeout=5))
        dribblers = []
        for _ in range(8):  # a request started, its headers never finished
            s = socket.create_connection(("127.0.0.1", port), timeout=5)
            s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
            dribblers.append(s)
        held += dribblers
        time.sleep(0.5)
        for _ in range(5):  # a phone on a new connection each time, as after a Wi-Fi drop
            phone = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            phone.request("GET", "/api/systems")
            resp = phone.getresponse()
            assert resp.status == 200 and json.loads(resp.read())
            phone.close()
        started = time.monotonic()
        for s in dribblers:  # each is closed by the server once its headers are overdue
            s.settimeout(max(1.0, 25 - (time.monotonic() - started)))
            assert s.recv(1024) == b""
        assert time.monotonic() - started < 25
    finally:
        for s in held:
            s.close()
        _stop(server, log)


def test_a_worker_waiting_for_the_write_lock_keeps_answering_reads(tmp_path):
    """A gevent worker serves all its phones in one thread: a tap waiting for the write lock while
    the other worker writes must not stop that worker's polls (the flock is waited for off the
    event loop, companion/store/engine.py).  Here the test holds the lock, as the other worker would."""
    import fcntl
    import threading
    port, server, log = _serve(tmp_path, "--workers", "1")
    lock = os.open(str(tmp_path / "serve.sqlite") + ".lock", os.O_RDWR | os.O_CREAT, 0o600)
    try:
        phone = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        phone.request("POST", "/api/tables", json.dumps({"system": "freeform", "name": "Lock"}),
                      {"Content-Type": "application/json"})
        made = json.loads(phone.getresponse().read())
        fcntl.flock(lock, fcntl.LOCK_EX)
        answered = {}

        def tap():  # a write: it waits for the lock the test holds
            other = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
            other.request("POST", f"/api/tables/{made['code']}/actions",
                          json.dumps({"type": "note", "text": "after the lock"}),
                          {"Content-Type": "application/json",
                           "Authorization": "Bearer " + made["seat_token"]})
            answered["tap"] = other.getresponse().status
            other.close()
        waiting = threading.Thread(target=tap)
        waiting.start()
        time.sleep(0.5)
        assert "tap" not in answered  # still waiting for the lock
        for _ in range(3):  # meanwhile the same (only) worker answers reads
            phone.request("GET", "/api/systems")
            resp = phone.getresponse()
            assert resp.status == 200 and json.loads(resp.read())
        fcntl.flock(lock, fcntl.LOCK_UN)
        waiting.join(20)
        assert answered == {"tap": 200}  # and the write went through once the lock was free
        phone.close()
    finally:
        os.close(lock)
        _stop(server, log)


def test_companion_serve_keeps_a_polling_phone_on_one_connection(tmp_path):
    port, server, log = _serve(tmp_path)
    try:
        phone = http.client.HTTPConnection("127.0.0.1", port, timeout=10)

        def ask(method, path, body=None, headers=None):
            phone.request(method, path, body=body, headers=headers or {})
            resp = phone.getresponse()
            return resp, resp.read()
        _, made = ask("POST", "/api/tables", json.dumps({"system": "freeform", "name": "Serve"}),
                      {"Content-Type": "application/json"})
        made = json.loads(made)
        join = "/" + made["player_url"].split("/", 3)[3]
        resp, page = ask("GET", join)
        cookie = resp.getheader("Set-Cookie").split(";")[0]
        token = re.search(rb'name="csrf_token" value="([^"]+)"', page).group(1).decode()
        resp, _ = ask("POST", join, f"csrf_token={token}&seat=Anna&side=Side+B",  # (Side A: the API's host)
                      {"Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie})
        cookie = (resp.getheader("Set-Cookie") or cookie).split(";")[0]
        _, board = ask("GET", f"/t/{made['code']}", headers={"Cookie": cookie})
        seq = re.search(rb'id="board" data-seq="(\d+)"', board).group(1).decode()  # (Anna's join moved it on)
        sock = phone.sock
        for _ in range(3):
            resp, body = ask("GET", f"/t/{made['code']}/poll?seq={seq}", headers={"Cookie": cookie, "HX-Request": "true"})
            assert resp.status == 204 and body == b""
            assert (resp.getheader("Connection") or "").lower() != "close"
        assert phone.sock is sock  # the same connection answered every poll
        out = (tmp_path / "serve.log").read_text()
        assert f"http://127.0.0.1:{port}" in out and "█" in out  # the address and its QR code
        phone.close()
    finally:
        _stop(server, log)


def test_a_worker_takes_many_waiting_connections_per_turn_of_its_loop():
    """gunicorn sets its gevent server to take one connection per turn when it runs several workers;
    at 2,000 phones that queued taps for seconds in the kernel (docs/performance.md, 2026-11-27)."""
    from gunicorn.util import load_class
    from gunicorn.workers.ggevent import GeventWorker

    from companion.serving import ACCEPT_BATCH, SETTINGS, Worker, _AcceptingServer
    assert load_class(SETTINGS["worker_class"]) is Worker and issubclass(Worker, GeventWorker)
    server = _AcceptingServer(("127.0.0.1", 0), handle=lambda sock, addr: None)
    server.max_accept = 1  # what gunicorn's GeventWorker.run does with several workers
    assert server.max_accept == ACCEPT_BATCH > 1


def test_a_gevent_worker_collects_its_cyclic_garbage_by_the_clock():
    """Issue 25: CPython's own collections (by allocation counts) are off in a gevent worker, and a
    greenlet collects every COLLECT_EVERY seconds instead: a cycle of garbage goes within a few ticks."""
    import gc
    import weakref

    import gevent

    from companion.serving import COLLECT_EVERY, Worker, post_worker_init

    class Node:
        pass

    worker = Worker.__new__(Worker)  # (its __init__ wants a whole arbiter; the hook reads only its class)
    try:
        post_worker_init(worker)
        assert not gc.isenabled()
        node = Node()
        node.self = node  # a cycle: reference counts alone never free it
        gone = weakref.ref(node)
        del node
        assert gone() is not None
        gevent.sleep(COLLECT_EVERY * 4)
        assert gone() is None
    finally:
        worker.collector.kill()
        gc.unfreeze()
        gc.enable()


def test_a_gevent_worker_never_collects_the_middle_generation_alone(monkeypatch):
    """The middle generation's collection found nothing the young one had not and paused a worker up to
    59 ms a second at 2,000 phones: the young generation by the clock, and everything every
    FULL_EVERY-th time, where garbage that outlived a young collection goes."""
    import gc
    import weakref

    import gevent

    from companion import serving

    class Node:
        pass

    monkeypatch.setattr(serving, "FULL_EVERY", 6)
    collected = []

    def note(phase, info):
        if phase == "start":
            collected.append(info["generation"])
    worker = serving.Worker.__new__(serving.Worker)
    gc.callbacks.append(note)
    try:
        serving.post_worker_init(worker)
        node = Node()
        node.self = node
        gone = weakref.ref(node)
        gevent.sleep(serving.COLLECT_EVERY * 2.5)  # (a young collection or two: it is old now)
        del node
        deadline = time.monotonic() + 5
        while gone() is not None and time.monotonic() < deadline:
            gevent.sleep(serving.COLLECT_EVERY)
        assert gone() is None
        while len(collected) < 25 and time.monotonic() < deadline:  # (the middle one was every 20th)
            gevent.sleep(serving.COLLECT_EVERY)
        assert 2 in collected and 1 not in collected and 0 in collected and len(collected) >= 25
    finally:
        gc.callbacks.remove(note)
        worker.collector.kill()
        gc.unfreeze()
        gc.enable()


def test_companion_serve_holds_50_live_streams_and_each_hears_every_change(tmp_path):
    """Issue 36: `companion serve` froze as soon as four phones held live streams (a change got no
    answer in 10 s, both workers waiting on a lock made before gevent patched them): the master had
    imported the app.  Now 50 streams on 5 tables, 10 changes: each answered, each heard by every
    stream of its table within 2 s."""
    port = serve_probe.free_port()
    env = {**os.environ, "COMPANION_HOST": "127.0.0.1", "COMPANION_PORT": str(port),
           "COMPANION_DB": str(tmp_path / "serve.sqlite")}
    env.pop("COMPANION_WORKER_CLASS", None)
    server = serve_probe.start(serve_probe.companion_command() + ["serve"], env, tmp_path / "serve.log", tmp_path)
    try:
        heard = serve_probe.streams_hear_every_change(port, tables=5, streams_per_table=10, changes=10)
    finally:
        serve_probe.stop(server)
    assert heard["streams"] == 50 and heard["errors"] == []
    assert max(heard["answers"]) < 2.0, heard["answers"]
    assert heard["missed"] == []


def test_companion_serve_imports_none_of_the_app_before_its_workers_patch(tmp_path):
    """The process that runs gunicorn's master holds no module of the app that makes a lock, a thread
    or a connection: what it imported, every gevent worker would inherit unpatched (issue 36)."""
    import threading
    probe = (
        "import json, sys, threading\n"
        "import companion.serving as serving\n"
        "def held(*a, **k):\n"
        "    mods = sorted(m for m in sys.modules if m == 'companion' or m.startswith('companion.'))\n"
        "    locks = [f'{m}.{k}' for m in mods for k, v in vars(sys.modules[m]).items()\n"
        "             if isinstance(v, (type(threading.Lock()), type(threading.RLock()), threading.Thread,\n"
        "                               threading.Event, threading.local))]\n"
        "    print(json.dumps({'modules': mods, 'locks': locks, 'threads': threading.active_count()}))\n"
        "serving.serve = held\n"
        "from companion.cli import main\n"
        "main(['serve', '--host', '127.0.0.1', '--port', '1'])\n")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, cwd=tmp_path,
                         env={**os.environ, "COMPANION_DB": str(tmp_path / "t.sqlite")})
    assert out.returncode == 0, out.stderr
    held = json.loads(out.stdout.strip().splitlines()[-1])
    assert "companion is at http://127.0.0.1:1" in out.stdout  # (printed by the child that migrated)
    assert set(held["modules"]) <= {"companion", "companion.assets", "companion.cli", "companion.serving"}, held
    assert held["locks"] == [] and held["threads"] == 1, held
    assert threading  # (the probe's own threading is the subprocess's)
