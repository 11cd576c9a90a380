"""Pushed steps shared by a server's workers (companion/board/shared.py, issue 38): a change's step for a
view is drawn by one worker and taken by the others from a folder they share, the same text; a worker
that cannot draw it and finds nobody who can lets the phone ask with a poll, as before.

"Another worker" is this process with its kept boards forgotten (companion/board/keep.py is per
process), which is what a second gunicorn worker holds of a table it has not drawn."""
from __future__ import annotations

import os
import threading
import time

import pytest
from companion import store
from companion.board import answer, keep, shared


@pytest.fixture
def folder(tmp_path, monkeypatch):
    steps = tmp_path / "steps"
    steps.mkdir()
    monkeypatch.setenv("COMPANION_STEPS_DIR", str(steps))
    _another_worker()
    yield steps
    _another_worker()


def _another_worker() -> None:
    keep.forget()
    shared._taken.clear()
    shared._outlines.clear()


def _two_sides_one_change(app, table):
    """Anna (Red) holds the board at ``seq`` (her poll drew it); Ben's tap makes ``new``."""
    from table_actions import TableActions, sit
    table.create(seat="Anna", side="Red", sides="Red,Blue")
    table.act(do="add-unit", name="Falcon", side="Red", hp=10)
    ben = TableActions(app.test_client())
    ben.code = table.code
    sit(ben.client, table.code, table.secrets()[0], "Ben", "Blue")
    seq = store.table(store.open_db(app.config["DATABASE"]), table.code)["seq"]
    assert table.client.get(f"/t/{table.code}/poll?seq=0", headers={"HX-Request": "true"}).status_code == 200
    ben.act(do="adjust unit=u1 tracker=hp by=-1")
    return seq, seq + 1


ANNA = {"role": "player", "side": "Red", "name": "Anna"}


def _pushed(app, code: str, since: int):
    with app.test_request_context(f"/t/{code}/live"):
        return answer.pushed_step(code, ANNA, since)


def _no_drawing(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("drawn again: the step was shared")
    monkeypatch.setattr(answer, "draw", refuse)


def test_a_step_one_worker_drew_is_taken_by_another_without_drawing(app, table, folder, monkeypatch):
    seq, new = _two_sides_one_change(app, table)
    drawn = _pushed(app, table.code, seq)
    assert drawn[:2] == (seq, new) and "HP <b>9</b>" in drawn[2]
    _another_worker()
    _no_drawing(monkeypatch)
    assert _pushed(app, table.code, seq) == drawn


def test_a_taps_answer_shares_its_views_step_before_any_stream_asks(app, table, folder, monkeypatch):
    """Anna's own tap draws her view's board for its answer: the step to it from the board before is
    shared then, so no worker draws that board again for the Red phones' streams."""
    seq, new = _two_sides_one_change(app, table)
    assert _pushed(app, table.code, seq)[:2] == (seq, new)  # Anna's stream holds Ben's change
    assert table.act(do="adjust unit=u1 tracker=hp by=-1").status_code == 200
    _another_worker()
    _no_drawing(monkeypatch)
    step = _pushed(app, table.code, new)
    assert step[:2] == (new, new + 1) and "HP <b>8</b>" in step[2] and 'id="card-u1"' in step[2]


def _views_drawn(monkeypatch, failing: tuple = ()) -> list:
    drawn, plain = [], answer.draw

    def counting(row, view, *args, **kwargs):
        drawn.append(view.side)
        if view.side in failing:
            raise RuntimeError(f"a fault in {view.side}'s board")
        return plain(row, view, *args, **kwargs)
    monkeypatch.setattr(answer, "draw", counting)
    return drawn


def _anna_and_ben(app, table):
    """Anna (Red, whose poll drew her board) and Ben (Blue) at a table with one Red ship: Ben's phone
    and the table's row."""
    from table_actions import TableActions, sit
    table.create(seat="Anna", side="Red", sides="Red,Blue")
    table.act(do="add-unit", name="Falcon", side="Red", hp=10)
    ben = TableActions(app.test_client())
    ben.code = table.code
    sit(ben.client, table.code, table.secrets()[0], "Ben", "Blue")
    row = store.table(store.open_db(app.config["DATABASE"]), table.code)
    assert table.client.get(f"/t/{table.code}/poll?seq=0", headers={"HX-Request": "true"}).status_code == 200
    return ben, row


def _ben_taps(app, table, monkeypatch, red_follows: bool, failing: tuple = ()):
    """As ``_two_sides_one_change``, Ben's tap made while a Red phone's live stream is open in this
    worker (``red_follows``) or none is; the views whose boards that tap drew (those of ``failing``
    sides raise instead)."""
    from companion.seat import View
    ben, row = _anna_and_ben(app, table)
    drawn = _views_drawn(monkeypatch, failing)
    if red_follows:
        with app.app_context(), keep.following(row["id"], View("player", "Red")):
            assert ben.act(do="adjust unit=u1 tracker=hp by=-1").status_code == 200
        with app.app_context():
            assert keep.followed(row["id"]) == []  # the stream closed: its view is no longer followed here
    else:
        assert ben.act(do="adjust unit=u1 tracker=hp by=-1").status_code == 200
    return row["seq"], drawn


def test_a_taps_answer_draws_and_shares_the_step_of_a_view_a_stream_here_follows(app, table, folder, monkeypatch):
    """Ben's tap draws Red's board too while a Red phone's stream is open in this worker (that worker has
    just drawn Blue's board at the change: Red's takes most of its parts from memory), and shares Red's
    step before any stream wakes: another worker's Red streams take it without drawing the board."""
    seq, drawn = _ben_taps(app, table, monkeypatch, red_follows=True)
    assert drawn == ["Blue", "Red"]
    _another_worker()
    _no_drawing(monkeypatch)
    step = _pushed(app, table.code, seq)
    assert step[:2] == (seq, seq + 1) and "HP <b>9</b>" in step[2]


def test_a_taps_answer_draws_no_view_no_stream_here_follows(app, table, folder, monkeypatch):
    seq, drawn = _ben_taps(app, table, monkeypatch, red_follows=False)
    assert drawn == ["Blue"]  # Red's board is left to the streams that push it


def test_a_view_that_cannot_be_drawn_with_the_tap_never_fails_the_taps_answer(app, table, folder, monkeypatch):
    """Red's board is drawn with Ben's tap for the Red phones' sake: if it cannot be, Ben still hears
    that his move is in (it is stored), and the Red streams draw the board themselves."""
    seq, drawn = _ben_taps(app, table, monkeypatch, red_follows=True, failing=("Red",))  # (asserts the 200)
    assert drawn == ["Blue", "Red"]
    assert store.table(store.open_db(app.config["DATABASE"]), table.code)["seq"] == seq + 1


def test_a_worker_that_did_not_draw_the_board_before_works_out_the_step_from_its_outline(app, table, folder,
                                                                                          monkeypatch):
    """The claim is this worker's, but another drew the board at ``since``: its outline says which parts
    changed, so the step is the same as the one that worker would have pushed, and the phone need not
    poll."""
    seq, new = _two_sides_one_change(app, table)
    drawn = _pushed(app, table.code, seq)
    _another_worker()
    for f in os.listdir(folder):
        if not f.startswith("o"):
            os.unlink(folder / f)  # the step and its claim gone: only the outlines left
    assert _pushed(app, table.code, seq) == drawn


def test_a_worker_with_neither_board_nor_outline_lets_the_phone_ask(app, table, folder):
    seq, new = _two_sides_one_change(app, table)
    _another_worker()
    for f in os.listdir(folder):  # nothing shared (say, the server restarted meanwhile)
        os.unlink(folder / f)
    started = time.monotonic()
    assert _pushed(app, table.code, seq) is None
    assert time.monotonic() - started < 1.0  # it waited WAIT for a worker that might, no more
    assert not [f for f in os.listdir(folder) if f.startswith("s")]  # and shared no "ask" for others


def test_a_worker_that_lost_the_claim_takes_the_claimants_step(app, table, folder, monkeypatch):
    seq, new = _two_sides_one_change(app, table)
    drawn = _pushed(app, table.code, seq)
    name = next(f for f in os.listdir(folder) if f.startswith("s"))
    os.unlink(folder / name)  # the claim stays: as if the claimant were still drawing it
    _another_worker()
    monkeypatch.setattr(shared, "WAIT", 5.0)
    _no_drawing(monkeypatch)  # it waits for the claimant's step rather than drawing it too
    later = threading.Timer(0.1, lambda: shared._write(name, f"{drawn[0]} {drawn[1]}\n{drawn[2]}"))
    later.start()
    assert _pushed(app, table.code, seq) == drawn
    later.join()


def test_a_claimant_that_never_shares_is_drawn_around(app, table, folder):
    """The claimant died or is stuck: a worker that can work the step out waits WAIT, then does."""
    seq, new = _two_sides_one_change(app, table)
    drawn = _pushed(app, table.code, seq)
    for f in os.listdir(folder):
        if f.startswith("s"):
            os.unlink(folder / f)  # the step gone, its claim left
    _another_worker()
    started = time.monotonic()
    assert _pushed(app, table.code, seq) == drawn
    assert time.monotonic() - started >= shared.WAIT


def test_without_the_folder_nothing_is_shared(app, table, tmp_path, monkeypatch):
    monkeypatch.delenv("COMPANION_STEPS_DIR", raising=False)
    keep.forget()
    seq, new = _two_sides_one_change(app, table)
    drawn = _pushed(app, table.code, seq)
    assert drawn[:2] == (seq, new)
    _another_worker()
    assert _pushed(app, table.code, seq) is None  # no board at seq here: the phone asks, as before sharing


def test_old_files_are_swept_and_a_waiting_tables_outlines_kept(app, folder):
    with app.test_request_context("/"):
        shared._write("sold", "1 2\n<p>x</p>")
        shared._write("oquiet-1", "1\nu-u1\t0123456789abcdef")
        shared._write("oidle-1", "1\nu-u1\t0123456789abcdef")
        for name, age in (("sold", shared.KEEP), ("oquiet-1", shared.KEEP), ("oidle-1", shared.KEEP_OUTLINE)):
            os.utime(folder / name, (time.time() - age - 1,) * 2)
        shared._swept = 0.0
        shared.put("snew", (2, 3, "<p>y</p>"))
    assert sorted(os.listdir(folder)) == ["oquiet-1", "snew"]
    assert (folder / "snew").read_text() == "2 3\n<p>y</p>"


def test_a_gevent_workers_sweep_reads_the_folder_beside_its_loop(app, folder, monkeypatch):
    """In a gevent worker the folder (thousands of files at 2,000 phones) is swept in one of the hub's
    threads, never in the loop that carries every stream of the worker."""
    monkeypatch.setattr(shared, "is_module_patched", lambda name: True)
    swept_in = []
    plain = shared._sweep_folder
    monkeypatch.setattr(shared, "_sweep_folder",
                        lambda path, now: (swept_in.append(threading.get_ident()), plain(path, now)))
    with app.test_request_context("/"):
        shared._write("sold", "1 2\n<p>x</p>")
        os.utime(folder / "sold", (time.time() - shared.KEEP - 1,) * 2)
        shared._swept = 0.0
        shared.put("snew", (2, 3, "<p>y</p>"))
    deadline = time.monotonic() + 5
    while (folder / "sold").exists() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert sorted(os.listdir(folder)) == ["snew"]
    assert swept_in and swept_in[0] != threading.get_ident()


def test_the_server_makes_the_folder_for_several_workers_and_takes_it_away(tmp_path, monkeypatch):
    """companion/serving.py: the folder is made by the master for its workers (named to them in the
    environment they inherit), taken away when it stops, and a killed server's is taken away at the next
    start; one worker shares with nobody."""
    import subprocess
    import sys
    from types import SimpleNamespace

    from companion import serving
    monkeypatch.setattr(serving.tempfile, "gettempdir", lambda: str(tmp_path))
    isdir = os.path.isdir
    monkeypatch.setattr(serving.os.path, "isdir", lambda path: path != "/dev/shm" and isdir(path))
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    killed = tmp_path / f"{serving.STEPS_PREFIX}{int(gone.stdout)}-x"
    killed.mkdir()
    alive = tmp_path / f"{serving.STEPS_PREFIX}{os.getpid()}-y"
    alive.mkdir()
    monkeypatch.setenv("COMPANION_STEPS_DIR", "")  # (unset, and unset again after the test)
    one = SimpleNamespace(cfg=SimpleNamespace(workers=1))
    serving.on_starting(one)
    assert not os.environ["COMPANION_STEPS_DIR"]
    two = SimpleNamespace(cfg=SimpleNamespace(workers=2))
    serving.on_starting(two)
    made = os.environ["COMPANION_STEPS_DIR"]
    assert os.path.isdir(made) and os.path.dirname(made) == str(tmp_path)
    assert not killed.exists() and alive.exists()
    serving.on_exit(two)
    assert not os.path.exists(made)


def test_under_a_gevent_worker_the_others_boards_are_still_drawn_with_the_answer(app, table, folder, monkeypatch):
    """One machine's workers: even served by gunicorn's gevent worker, Ben's answer draws Red's board
    before it goes (the other workers' Red streams, woken by the commit, wait on its claim meanwhile;
    only app servers of PostgreSQL draw it after: tests/test_server_steps.py)."""
    from companion.seat import View
    ben, row = _anna_and_ben(app, table)
    drawn = _views_drawn(monkeypatch)
    monkeypatch.setattr(answer, "_served_by_gevent", lambda: True)
    with app.app_context(), keep.following(row["id"], View("player", "Red")):
        sent = ben.act(do="adjust unit=u1 tracker=hp by=-1")
        assert sent.status_code == 200 and drawn == ["Blue", "Red"]
        sent.close()
    assert drawn == ["Blue", "Red"]
