"""Live push (companion/live.py): a stream hears of every change of its table, from any server
process, within a few hundredths of a second; resumes where it left off; pings when idle."""
from __future__ import annotations

import threading
import time

from companion import live, store

ENGINES = ("sqlite", "postgresql")  # the tests here run on both (tests/conftest.py, issue 39)


def _stream(app, client, code: str, since: int, ping: float = 5.0):
    """The stream's events as the server writes them (the generator the endpoint returns)."""
    return live.events(app.config["DATABASE"], code, since, ping)


def _change(app, code: str) -> int:
    """A change made through another connection (as another server worker would)."""
    db = store.open_db(app.config["DATABASE"])
    with store.write_lock(db):
        db.conn.execute("update tables set seq = seq + 1 where code = ?", [code])
    return db.execute("select seq from tables where code = ?", [code]).fetchone()[0]


def test_a_change_by_another_connection_reaches_a_waiting_stream_at_once(app, client, table):
    table.create()
    seq = store.table(store.open_db(app.config["DATABASE"]), table.code)["seq"]
    events = _stream(app, client, table.code, seq)
    assert next(events) == live.OPENING
    heard = []

    def listen():
        heard.append((next(events), time.monotonic()))
    waiting = threading.Thread(target=listen)
    waiting.start()
    time.sleep(0.2)  # the stream is waiting
    changed_at = time.monotonic()
    new = _change(app, table.code)
    waiting.join(5)
    assert heard and heard[0][0] == f"id: {new}\ndata: {new}\n\n"
    assert heard[0][1] - changed_at < 1.0  # a tick is 20 ms; the bound only says it did not wait for a ping


def test_a_stream_that_resumes_behind_is_told_at_once_and_exactly_once(app, client, table):
    table.create()
    db = store.open_db(app.config["DATABASE"])
    seq = store.table(db, table.code)["seq"]
    _change(app, table.code)
    new = _change(app, table.code)
    events = _stream(app, client, table.code, seq)  # Last-Event-ID two changes back
    next(events)
    started = time.monotonic()
    assert next(events) == f"id: {new}\ndata: {new}\n\n"  # one event for both changes: the step covers them
    assert time.monotonic() - started < 1.0
    events = _stream(app, client, table.code, new, ping=0.3)  # up to date: nothing but a ping
    next(events)
    assert next(events) == "event: ping\ndata: \n\n"


def test_a_stream_of_a_table_that_goes_says_so_and_ends(app, client, table):
    table.create()
    db = store.open_db(app.config["DATABASE"])
    row = store.table(db, table.code)
    events = _stream(app, client, table.code, row["seq"], ping=0.5)
    next(events)
    store.delete_table(db, table.code)  # (the host deletes it)
    table.code = None  # (nothing left for the fixture's round trip)
    assert next(events) == "event: gone\ndata: \n\n"
    assert next(events, None) is None


def test_the_stream_endpoint_is_the_seats_own(app, client, table):
    table.create()
    resp = client.get(f"/t/{table.code}/live?seq=0", buffered=False)
    assert resp.status_code == 200 and resp.mimetype == "text/event-stream"
    assert resp.headers["Cache-Control"] == "no-cache"
    first = next(resp.response)
    assert (first.decode() if isinstance(first, bytes) else first) == live.OPENING
    resp.close()
    assert app.test_client().get(f"/t/{table.code}/live").status_code == 404  # no seat at this table
    assert client.get("/t/NOSUCH/live").status_code == 404


def test_an_open_stream_counts_its_view_as_followed_in_its_process_until_it_closes(app, table):
    """A tap's answer draws the boards of the views this process's streams follow (board/answer.py)."""
    from companion.board import keep
    from companion.seat import View
    table.create(seat="Anna", side="Red", sides="Red,Blue")
    table_id = store.table(store.open_db(app.config["DATABASE"]), table.code)["id"]
    resp = table.client.get(f"/t/{table.code}/live?seq=0", buffered=False)
    next(resp.response)
    with app.app_context():
        assert keep.followed(table_id) == [View("player", "Red")]
    resp.close()
    with app.app_context():
        assert keep.followed(table_id) == []


def test_a_change_is_pushed_as_the_step_from_the_board_the_phone_holds(app, table):
    """The stream carries the step itself (an idle phone then sends nothing): the parts that changed
    since the board the phone holds, each changed unit with its card, exactly what a poll from that
    board answers a phone with every row open; its id is the new seq."""
    from table_actions import TableActions, sit
    app.config["LIVE_SECONDS"] = 10  # (the suite's 0.3 s streams can end before a slow box's tap lands)
    hx = {"HX-Request": "true"}
    table.create(seat="Anna", side="Red", sides="Red,Blue")
    table.act(do="add-unit", name="Falcon", side="Red", hp=10)
    ben = TableActions(app.test_client())
    ben.code = table.code
    sit(ben.client, table.code, table.secrets()[0], "Ben", "Blue")  # (a join is an event: before the stream)
    seq = store.table(store.open_db(app.config["DATABASE"]), table.code)["seq"]
    assert table.client.get(f"/t/{table.code}/poll?seq=0", headers=hx).status_code == 200  # her board, kept
    heard, listening = [], threading.Event()

    def listen():  # the stream is read where it was asked for (its request's context is that thread's)
        resp = table.client.get(f"/t/{table.code}/live?seq={seq}", buffered=False)
        events = iter(resp.response)
        next(events)
        listening.set()
        heard.append(next(events))
        resp.close()
    waiting = threading.Thread(target=listen)
    waiting.start()
    assert listening.wait(5)
    time.sleep(0.2)
    ben.act(do="adjust unit=u1 tracker=hp by=-1")
    waiting.join(5)
    event = heard[0].decode() if isinstance(heard[0], bytes) else heard[0]
    new = store.table(store.open_db(app.config["DATABASE"]), table.code)["seq"]
    head = f"id: {new}\nevent: step\ndata: {seq} {new}\n"
    assert event.startswith(head) and event.endswith("\n\n")
    pushed = "\n".join(line[len("data: "):] for line in event[len(head):-2].split("\n"))
    assert '<div hx-swap-oob="true" class="unitbox" id="u-u1">' in pushed and "HP <b>9</b>" in pushed
    assert 'id="card-u1"' in pushed and "data-lazy" not in pushed  # the card comes with it
    polled = table.client.get(f"/t/{table.code}/poll?seq={seq}", headers={**hx, "X-Open-Units": "*"})
    assert polled.headers["X-Board-Seq"] == str(new)
    assert pushed == polled.get_data(as_text=True)


def test_a_phone_that_takes_gzip_gets_the_stream_gzipped_each_event_readable_at_once(app, table):
    """Accept-Encoding: gzip (Chromium's EventSource sends it): one gzip member, flushed at each
    event, so the opening and then a change's step read whole from what has come, before the stream
    ends; the step is the same text a phone without gzip is pushed, in fewer bytes."""
    import zlib
    from table_actions import TableActions, sit
    app.config["LIVE_SECONDS"] = 10  # (the suite's streams end after 0.3 s)
    table.create(seat="Anna", side="Red", sides="Red,Blue")
    for n in range(4):
        table.act(do="add-unit", name=f"Falcon {n}", side="Red", hp=10)
    ben = TableActions(app.test_client())
    ben.code = table.code
    sit(ben.client, table.code, table.secrets()[0], "Ben", "Blue")  # (a join is an event: before the stream)
    seq = store.table(store.open_db(app.config["DATABASE"]), table.code)["seq"]
    assert table.client.get(f"/t/{table.code}/poll?seq=0", headers={"HX-Request": "true"}).status_code == 200
    heard, listening = {}, threading.Event()

    def listen(packed: bool):
        resp = table.client.get(f"/t/{table.code}/live?seq={seq}", buffered=False,
                                headers={"Accept-Encoding": "gzip, deflate, br"} if packed else {})
        heard[packed, "encoding"] = resp.headers.get("Content-Encoding")
        chunks, text = iter(resp.response), ""
        unzip = zlib.decompressobj(16 + zlib.MAX_WBITS) if packed else None
        sent = 0
        while text.count("\n\n") < 2 or "event: step" not in text:  # the opening, then the step
            chunk = next(chunks)
            chunk = chunk if isinstance(chunk, bytes) else chunk.encode()
            sent += len(chunk)
            text += (unzip.decompress(chunk) if unzip else chunk).decode()
            if text.startswith(live.OPENING):
                listening.set()
        heard[packed] = (text, sent)
        resp.close()
    waiters = [threading.Thread(target=listen, args=(packed,)) for packed in (True, False)]
    for w in waiters:
        w.start()
    assert listening.wait(5)
    time.sleep(0.5)
    ben.act(do="adjust unit=u1 tracker=hp by=-1")
    for w in waiters:
        w.join(5)
    assert heard[True, "encoding"] == "gzip" and heard[False, "encoding"] is None
    (packed_text, packed_bytes), (plain_text, plain_bytes) = heard[True], heard[False]
    assert packed_text.startswith(live.OPENING) and "event: step" in packed_text
    assert packed_text == plain_text
    assert packed_bytes * 2 < plain_bytes


def test_the_gzipped_stream_is_one_valid_member_and_a_steps_run_is_made_once():
    import gzip
    texts = [live.OPENING, "id: 5\nevent: step\ndata: 4 5\n" + "data: <div>HP <b>9</b></div>\n" * 40 + "\n",
             "event: ping\ndata: \n\n", "id: 5\nevent: step\ndata: 4 5\n" + "data: <div>HP <b>9</b></div>\n" * 40 + "\n"]
    whole = b"".join(live.gzipped(iter(texts)))
    assert gzip.decompress(whole).decode() == "".join(texts)  # the trailer's CRC and length hold
    assert live._run_of(texts[1])[1] is live._run_of(texts[3])[1]  # compressed once, for every stream


def test_a_step_right_after_a_step_is_sent_as_what_differs_from_it():
    """The event before is the next one's dictionary (the browser's window holds it): a step that
    repeats most of the last one (a move, then its Undo) costs a fraction of its own bytes."""
    import gzip
    import random
    pick = random.Random(5)
    cards = "".join(f'data: <div id="u-u{n}" class="unitbox">HP <b>{pick.randint(1, 30)}</b> {pick.random()}</div>\n'
                    for n in range(120))
    move = "id: 7\nevent: step\ndata: 6 7\n" + cards + "\n"
    undo = "id: 8\nevent: step\ndata: 7 8\n" + cards.replace("HP <b>1", "HP <b>2", 1) + "\n"
    texts = [live.OPENING, move, undo, "event: ping\ndata: \n\n", move]
    runs = list(live.gzipped(iter(texts)))
    assert gzip.decompress(b"".join(runs)).decode() == "".join(texts)
    alone, after = len(live.deflate_run(undo.encode())), len(runs[3])
    assert after * 5 < alone, (after, alone)
    assert len(runs[5]) > after * 5  # after a ping the window no longer ends with the step: no dictionary


def test_a_stream_ends_when_told_to_stop_going(app, client, table):
    table.create()
    row = store.table(store.open_db(app.config["DATABASE"]), table.code)
    going = [True]
    events = live.events(app.config["DATABASE"], table.code, row["seq"], 0.2, keep_going=lambda seq: going[0])
    assert next(events) == live.OPENING
    assert next(events) == "event: ping\ndata: \n\n"
    going[0] = False
    assert next(events) == "event: gone\ndata: \n\n"
    assert next(events, None) is None
