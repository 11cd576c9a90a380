"""The event feed (issue 26): every event of a table exactly once, across a dropped connection, with
sealed parts redacted, resumable from Last-Event-ID, kept alive, and holding no transaction while it
waits.  The example client of docs/api.md is run as it is written there."""
from __future__ import annotations

import re
import socket
import sqlite3
import threading
import time
from pathlib import Path

import pytest
from werkzeug.serving import make_server

from companion import create_app, feed
from cut_link import Proxy

DOC = Path(__file__).resolve().parents[1] / "docs" / "api.md"
SECRET = "turn hard to port at dawn"


def example_client():
    """The ``follow`` function exactly as docs/api.md shows it."""
    text = DOC.read_text()
    block = re.search(r"<!-- feed-client -->\s*```python\n(.*?)```", text, re.S).group(1)
    assert len(block.strip().splitlines()) <= 20, "the doc's client is meant to stay short"
    space: dict = {}
    exec(compile(block, str(DOC), "exec"), space)
    return space["follow"]


@pytest.fixture
def served(tmp_path):
    # werkzeug in this process, not `companion serve`: the tests write to the app's database behind its
    # back (and read its config) while a client follows the feed
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "feed.sqlite"), "SECRET_KEY": "feed-key"})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield app, f"http://127.0.0.1:{server.server_port}", server.server_port
    server.shutdown()


def new_table(client, sides=("Red", "Blue")):
    body = client.post("/api/tables", json={"system": "freeform", "name": "Feed", "sides": list(sides)},
                       headers={"Authorization": "Bearer none"}).get_json()
    player = body["seat_token"]
    spectator = body["spectator_url"].rsplit("/", 1)[1]
    return body["code"], player, spectator


def act(client, code, player, **action):
    resp = client.post(f"/api/tables/{code}/actions", json=action,
                       headers={"Authorization": f"Bearer {player}", "X-Seat": "Anna", "X-Side": "Red"})
    assert resp.status_code == 200, resp.data
    return resp.get_json()


def collect(gen, into: list, stop: threading.Event):
    for event in gen:
        into.append(event)
        if stop.is_set():
            return


def test_the_example_client_gets_every_event_of_a_short_game_once_across_a_reconnect(served):
    app, base, port = served
    c = app.test_client()
    code, player, spectator = new_table(c)
    proxy = Proxy(port)
    got, stop = [], threading.Event()
    follow = example_client()
    threading.Thread(target=collect, args=(follow(f"http://127.0.0.1:{proxy.port}", code, spectator, 0), got, stop),
                     daemon=True).start()
    deadline = time.monotonic() + 5
    while not proxy.accepted and time.monotonic() < deadline:
        time.sleep(0.02)
    time.sleep(0.5)  # the stream has sent its state (no unit yet): the changes below are told as they come
    act(c, code, player, type="add-unit", name="Falcon", side="Red", hp=10)
    act(c, code, player, type="add-unit", name="Raven", side="Blue", hp=10)
    act(c, code, player, type="adjust", unit="u2", tracker="hp", by=-3)
    deadline = time.monotonic() + 5
    while len(got) < 4 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert [e["seq"] for e in got] == [1, 2, 3, 4]
    proxy.cut()  # the TV slept: its connection is gone; the game goes on meanwhile
    act(c, code, player, type="pool", dice=5, target=4)
    act(c, code, player, type="next-phase")
    act(c, code, player, type="adjust", unit="u1", tracker="hp", by=-1)
    assert c.post(f"/api/tables/{code}/undo", headers={"Authorization": f"Bearer {player}"}).status_code == 200
    head = c.get(f"/api/tables/{code}", headers={"Authorization": f"Bearer {player}"}).get_json()["seq"]
    deadline = time.monotonic() + 8
    while len(got) < head and time.monotonic() < deadline:
        time.sleep(0.05)
    stop.set()
    proxy.close()
    assert proxy.accepted >= 2, "the client came back after the cut"
    assert [e["seq"] for e in got] == list(range(1, head + 1)), "every event once, in order"
    hit = got[3]
    assert hit["label"] == "Raven HP -3 (10 → 7)" and hit["side"] == "Red"
    assert hit["units"]["u2"]["trackers"]["hp"] == {"label": "HP", "left": 7, "of": 10}
    pool = next(e for e in got if e["type"] == "pool")
    assert len(pool["dice"]) == 5 and re.search(r" of 5 dice · \d+% to do this well$", pool["odds"])


def test_the_odds_line_reads_the_chance_off_the_distribution_the_event_carries():
    event = {"type": "pool", "payload": {"result": {"dice": [6, 5, 4, 1, 2], "successes": 3, "saves": [],
                                                    "save": None, "unsaved": 3},
                                         "odds": {"mean": 2.5, "probabilities": [[0, .1], [1, .2], [2, .29],
                                                                                 [3, .21], [4, .15], [5, .05]]}}}
    assert feed.odds_of(event) == "3 successes of 5 dice · 41% to do this well"
    luck = {"type": "aa-attack", "payload": {"luck": {"expected": 2.25, "actual": 3, "what": "damage"}}}
    assert feed.odds_of(luck) == "3 damage · 2.2 expected"
    assert feed.odds_of({"type": "note", "payload": {}}) is None


def raw_stream(base, code, headers, seconds, after=None):
    """The stream's raw text for ``seconds`` (a socket with a deadline: the stream never ends)."""
    import http.client
    conn = http.client.HTTPConnection(base.split("//")[1], timeout=seconds)
    conn.request("GET", f"/api/tables/{code}/feed" + (f"?after={after}" if after is not None else ""),
                 headers=headers)
    resp = conn.getresponse()
    out = b""
    try:
        while True:
            chunk = resp.read1(65536)
            if not chunk:
                break
            out += chunk
    except (TimeoutError, socket.timeout):
        pass
    conn.close()
    return resp, out.decode()


def test_a_spectator_feed_never_holds_a_sealed_order(served):
    app, base, _ = served
    c = app.test_client()
    code, player, spectator = new_table(c)
    act(c, code, player, type="add-unit", name="Falcon", side="Red", hp=10)
    act(c, code, player, type="seal", unit="u1", text=SECRET)
    resp, text = raw_stream(base, code, {"Authorization": f"Bearer {spectator}", "Last-Event-ID": "0"}, 1.0)
    assert resp.status == 200 and resp.getheader("Content-Type").startswith("text/event-stream")
    assert "sealed an order for Falcon" in text and SECRET not in text
    # the sealing side, through the API with its side named, does read it (the same redaction, not a blanket)
    _, red = raw_stream(base, code, {"Authorization": f"Bearer {player}", "X-Side": "Red"}, 0.5, after=0)
    assert "sealed an order for Falcon" in red


def test_each_reader_of_the_feed_gets_its_labels_in_its_own_language(served):
    """Issue 42: a German TV's feed draws each move in German, an API client without a language gets
    the English, and both get the move's message for a client that draws its own."""
    import json

    from companion.i18n import translations
    from companion.said import drawn
    app, base, _ = served
    c = app.test_client()
    code, player, spectator = new_table(c)
    act(c, code, player, type="add-unit", name="Falcon", side="Red", hp=10)
    act(c, code, player, type="seal", unit="u1", text=SECRET)
    reads = {}
    for lang in ("de", "en"):
        head = {"Authorization": f"Bearer {spectator}", "Last-Event-ID": "2"}
        _, text = raw_stream(base, code, head | ({"Accept-Language": lang} if lang != "en" else {}), 0.6)
        reads[lang] = json.loads(re.search(r"^id: 3\ndata: (.*)$", text, re.M).group(1))
    said = reads["en"]["said"]
    assert said == reads["de"]["said"] and said["m"] and reads["en"]["label"] == "sealed an order for Falcon"
    german = drawn(said, translations("de").gettext)
    assert reads["de"]["label"] == german != reads["en"]["label"] and "Falcon" in german and SECRET not in german


def test_the_feed_resumes_after_the_last_event_id_and_refuses_a_wrong_one(served):
    app, base, _ = served
    c = app.test_client()
    code, player, spectator = new_table(c)
    for n in range(3):
        act(c, code, player, type="note", text=f"note {n}")
    _, text = raw_stream(base, code, {"Authorization": f"Bearer {spectator}", "Last-Event-ID": "2"}, 0.6)
    assert re.findall(r"^id: (\d+)$", text, re.M) == ["3", "4"]
    assert text.startswith("retry: ") and "event: state" in text
    _, now = raw_stream(base, code, {"Authorization": f"Bearer {spectator}"}, 0.6)
    assert re.findall(r"^id: ", now, re.M) == [], "with no Last-Event-ID, from now on"
    bad = c.get(f"/api/tables/{code}/feed?after=x", headers={"Authorization": f"Bearer {spectator}"})
    assert bad.status_code == 400 and "whole number" in bad.get_json()["error"]
    assert c.get(f"/api/tables/{code}/feed", headers={"Authorization": "Bearer wrong"}).status_code == 404


def test_a_quiet_stream_sends_a_keep_alive_and_holds_no_transaction_while_it_waits(app, tmp_path):
    c = app.test_client()
    code, player, _ = new_table(c)
    path = app.config["DATABASE"]
    stream = feed.stream(path, code, None, None, keep_alive=0.3)
    assert next(stream).startswith("retry:") and next(stream).startswith("event: state")
    waited = {}

    def wait():
        waited["text"] = next(stream)
    t = threading.Thread(target=wait)
    t.start()
    time.sleep(0.15)  # the stream is waiting now: another connection can checkpoint the whole log
    other = sqlite3.connect(path)
    busy = other.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0]
    other.close()
    t.join()
    assert busy == 0, "a read snapshot was held while waiting"
    assert waited["text"] == ": keep-alive\n\n"
    stream.close()
    # a stream with a lifetime (the app's FEED_SECONDS) ends by itself; its client comes back
    short = list(feed.stream(path, code, None, None, keep_alive=5, lifetime=0.3))
    assert short[0].startswith("retry:") and short[1].startswith("event: state") and len(short) == 2


def test_the_feed_is_in_the_openapi_document(client):
    doc = client.get("/api/openapi.json").get_json()
    op = doc["paths"]["/api/tables/{code}/feed"]["get"]
    assert "text/event-stream" in op["responses"]["200"]["content"]
    assert {p["name"] for p in op["parameters"]} >= {"code", "after", "Last-Event-ID"}
    assert {"400", "404"} <= set(op["responses"])


def test_a_stream_ends_when_its_client_goes(served):
    """The server's side of a stream stops at its next write once the client has gone: its thread
    (a greenlet under gunicorn) is not held until the stream's lifetime runs out."""
    app, base, port = served
    c = app.test_client()
    code, player, spectator = new_table(c)
    before = threading.active_count()
    sock = socket.create_connection(("127.0.0.1", port))
    sock.sendall(f"GET /api/tables/{code}/feed HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {spectator}\r\n\r\n".encode())
    got = b""
    with sock:
        while b"event: state" not in got:
            got += sock.recv(65536)
        assert threading.active_count() == before + 1  # the stream's server thread
    for n in range(3):  # the stream writes each one: the first write or two find the client gone
        act(c, code, player, type="note", text=f"note {n}")
        time.sleep(0.3)
    deadline = time.monotonic() + 3
    while threading.active_count() > before and time.monotonic() < deadline:
        time.sleep(0.05)
    assert threading.active_count() == before
