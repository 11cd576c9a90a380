"""Steps shared by app servers through PostgreSQL (companion/store/steps.py, issue 39): a tap's server
draws the boards of the views its live streams follow with its answer and writes their steps with the
change's announcement, so another server's streams push them without drawing; a view no server drew
them for is drawn by its streams, as before.

"Another app server" is this process with its kept boards forgotten (companion/board/keep.py is per
process), which is what a second server holds of a table it has not drawn."""
from __future__ import annotations

from contextlib import ExitStack

import psycopg
import pytest
from table_actions import TableActions, sit
from test_shared_steps import ANNA, _no_drawing, _pushed, _views_drawn

from companion import create_app, store
from companion.board import keep
from companion.seat import View

ENGINES = ("postgresql",)  # (SQLite's servers are one machine's workers: tests/test_shared_steps.py)
BEN = {"role": "player", "side": "Blue", "name": "Ben"}


@pytest.fixture(autouse=True)
def _one_server():
    keep.forget()
    yield
    keep.forget()


def _table(app, table):
    """Anna (Red) and Ben (Blue) at a table with one Red ship; their polls drew both boards (this server
    holds them: a step is worked out from the board the phones hold)."""
    table.create(seat="Anna", side="Red", sides="Red,Blue")
    table.act(do="add-unit", name="Falcon", side="Red", hp=10)
    ben = TableActions(app.test_client())
    ben.code = table.code
    sit(ben.client, table.code, table.secrets()[0], "Ben", "Blue")
    row = store.table(store.open_db(app.config["DATABASE"]), table.code)
    for phone in (table, ben):
        assert phone.client.get(f"/t/{table.code}/poll?seq=0", headers={"HX-Request": "true"}).status_code == 200
    return ben, row


def _tap(app, phone, row, follows: list[str], by: int = -1):
    with app.app_context(), ExitStack() as streams:  # (live streams of these views open on this server)
        for side in follows:
            streams.enter_context(keep.following(row["id"], View("player", side)))
        assert phone.act(do=f"adjust unit=u1 tracker=hp by={by}").status_code == 200


def _shared_at(app, row, seq: int) -> dict:
    return store.steps.at(store.open_db(app.config["DATABASE"]), row["id"], seq)


def _pushed_to(app, code: str, seat: dict, since: int):
    from companion.board import answer
    with app.test_request_context(f"/t/{code}/live"):
        return answer.pushed_step(code, seat, since)


def test_a_taps_server_shares_the_steps_of_the_views_its_streams_follow(app, table, monkeypatch):
    ben, row = _table(app, table)
    drawn = _views_drawn(monkeypatch)
    _tap(app, ben, row, follows=["Red"])
    assert drawn == ["Blue", "Red"]
    seq = row["seq"] + 1
    steps = _shared_at(app, row, seq)
    sides = sorted(view.split("|")[1] for view in steps)
    assert sides == ["Blue", "Red"]  # Ben's own view, and the one a stream here follows
    red = next(s for v, s in steps.items() if v.split("|")[1] == "Red")
    assert red[0] == row["seq"] and "HP <b>9</b>" in red[1]
    keep.forget()  # another app server: it holds no board of the table
    _no_drawing(monkeypatch)
    assert _pushed(app, table.code, row["seq"]) == (row["seq"], seq, red[1])


def test_the_change_is_announced_once_its_steps_are_there(app, table, db_target):
    """The steps go in the same call as the announcement: a server woken by it finds them."""
    ben, row = _table(app, table)
    with psycopg.connect(db_target, autocommit=True) as listener:
        listener.execute("listen companion")
        _tap(app, ben, row, follows=["Red"])
        heard = [n.payload for n in listener.notifies(timeout=2, stop_after=1)]
    assert heard == [f"{table.code} {row['seq'] + 1}"]
    assert len(_shared_at(app, row, row["seq"] + 1)) == 2


def test_a_view_no_stream_of_the_taps_server_follows_is_drawn_by_its_own_streams(app, table, monkeypatch):
    ben, row = _table(app, table)
    drawn = _views_drawn(monkeypatch)
    _tap(app, ben, row, follows=[])
    assert [v.split("|")[1] for v in _shared_at(app, row, row["seq"] + 1)] == ["Blue"]
    step = _pushed(app, table.code, row["seq"])  # this server drew Red's board at seq (Anna's poll)
    assert drawn == ["Blue", "Red"] and step[:2] == (row["seq"], row["seq"] + 1) and "HP <b>9</b>" in step[2]


def test_a_server_that_drew_no_board_before_works_its_steps_out_from_the_shared_outlines(app, table, monkeypatch):
    """Anna's tap lands on a server that holds no board of the table (its streams took the last steps
    from the database): the outlines shared with them say what changed, so it shares her change's
    steps too, and a third server pushes them without drawing."""
    ben, row = _table(app, table)
    _tap(app, ben, row, follows=["Red"])
    keep.forget()
    _tap(app, table, row, follows=["Blue"], by=-2)
    seq = row["seq"] + 2
    steps = _shared_at(app, row, seq)
    assert sorted((v.split("|")[1], s[0]) for v, s in steps.items()) == [("Blue", seq - 1), ("Red", seq - 1)]
    assert all(s[1] and "HP <b>7</b>" in s[1] for s in steps.values())
    keep.forget()
    _no_drawing(monkeypatch)
    assert _pushed_to(app, table.code, BEN, seq - 1)[:2] == (seq - 1, seq)
    assert _pushed_to(app, table.code, ANNA, seq - 1)[2] == steps[next(v for v in steps if "|Red|" in v)][1]


def test_a_server_with_another_signing_key_draws_its_own(app, table, monkeypatch, db_target):
    """A board's forms carry tokens made from the server's signing key: a step drawn under another key is
    never pushed (a server set up with its own SECRET_KEY draws for its phones)."""
    ben, row = _table(app, table)
    _tap(app, ben, row, follows=["Red"])
    other = create_app({"TESTING": True, "DATABASE": db_target, "SECRET_KEY": "another-key",
                        "LIVE_SECONDS": 0.3, "FEED_SECONDS": 0.3})
    keep.forget()
    _no_drawing(monkeypatch)
    with pytest.raises(AssertionError, match="drawn again"):
        _pushed_to(other, table.code, ANNA, row["seq"])


def test_steps_of_old_changes_are_not_kept(app, table):
    ben, row = _table(app, table)
    for _ in range(6):
        _tap(app, ben, row, follows=["Red"])
    seqs = [s for s in range(row["seq"], row["seq"] + 8) if _shared_at(app, row, s)]
    assert seqs == list(range(row["seq"] + 3, row["seq"] + 7))  # the last four changes'


def test_a_view_that_cannot_be_drawn_with_the_tap_is_left_to_its_streams(app, table, monkeypatch):
    """Red's board raises: Ben's tap is still answered (its move stored), announced, and only Blue's step
    shared; the Red phones' streams meet the fault themselves."""
    ben, row = _table(app, table)
    drawn = _views_drawn(monkeypatch, failing=("Red",))
    _tap(app, ben, row, follows=["Red"])  # (asserts the 200)
    assert drawn == ["Blue", "Red"]
    assert [v.split("|")[1] for v in _shared_at(app, row, row["seq"] + 1)] == ["Blue"]


def test_under_a_gevent_worker_the_others_boards_are_drawn_once_the_answer_has_gone(app, table, monkeypatch,
                                                                                  db_target):
    """Served by gunicorn's gevent worker, Ben's tap is answered before Red's board is drawn: it is drawn,
    and the change announced with both steps, when the worker closes the response (after sending it)."""
    from companion.board import answer
    ben, row = _table(app, table)
    drawn = _views_drawn(monkeypatch)
    monkeypatch.setattr(answer, "_served_by_gevent", lambda: True)
    seq = row["seq"] + 1
    with psycopg.connect(db_target, autocommit=True) as listener:
        listener.execute("listen companion")
        with app.app_context(), keep.following(row["id"], View("player", "Red")):
            sent = ben.act(do="adjust unit=u1 tracker=hp by=-1")
            assert sent.status_code == 200 and sent.get_data()  # (the answer, all of it)
            assert drawn == ["Blue"] and _shared_at(app, row, seq) == {}
            assert list(listener.notifies(timeout=0.3, stop_after=1)) == []  # not announced yet
            sent.close()
        heard = [n.payload for n in listener.notifies(timeout=2, stop_after=1)]
    assert drawn == ["Blue", "Red"] and heard == [f"{table.code} {seq}"]
    assert sorted(view.split("|")[1] for view in _shared_at(app, row, seq)) == ["Blue", "Red"]


def test_steps_that_cannot_be_written_leave_the_change_announced(app, table, db_target):
    """A step PostgreSQL refuses (here a NUL in its text) is logged and left out: the change is still
    announced, and the other servers' streams draw their boards themselves."""
    _, row = _table(app, table)
    db = store.open_db(db_target)
    with psycopg.connect(db_target, autocommit=True) as listener:
        listener.execute("listen companion")
        db.announce(table.code, (row["id"], row["seq"], [("a view", row["seq"] - 1, "a\x00b", "outline")]))
        heard = [n.payload for n in listener.notifies(timeout=2, stop_after=1)]
    assert heard == [f"{table.code} {row['seq']}"]
    assert _shared_at(app, row, row["seq"]) == {}
