"""A full disk (issue 30 §8): SQLite's real SQLITE_FULL, made by capping the app's connection at the
pages its database has (PRAGMA max_page_count): players read a sentence instead of a bare 500,
nothing half-stored, reads keep working (a page that cannot be kept is served anyway)."""
from __future__ import annotations

import html
from collections import namedtuple

from companion import disk, store
from companion.db import get_db
from tests.conftest import TableActions
from tests.table_actions import seat_token

FULL = "The host's disk is full: free space on the serving device."


def _fill(app) -> None:
    """The app's connection for this thread (the test client's requests run on it) may not grow."""
    with app.app_context():
        db = get_db()
        db.execute(f"pragma max_page_count={db.execute('pragma page_count').fetchone()[0]}")


def test_a_full_disk_refuses_moves_with_a_sentence_and_reads_go_on(app, client):
    table = TableActions(client)  # (not the fixture: its export-import check after the test writes)
    table.create(seat="Anna")
    table.act(type="add-unit", name="Victory", **{"stats.hp": "999"})
    player = seat_token(table.client, table.code)  # Anna's own seat (issue 37)
    auth = {"Authorization": f"Bearer {player}"}
    assert client.get(f"/t/{table.code}").status_code == 200
    _fill(app)
    db = store.open_db(app.config["DATABASE"])
    for n in range(300):  # the pages' free room fills up first
        seq = store.table_seq(db, table.code)
        resp = table.act(type="note", text="x" * 190 + str(n), _control="note")
        if resp.status_code != 200:
            break
    assert resp.status_code == 507 and html.unescape(resp.data.decode()).count(FULL) == 1, resp.data[:300]
    assert resp.headers["HX-Retarget"] == "#note-err"
    assert store.table_seq(db, table.code) == seq  # nothing half-stored
    resp = table.act(htmx=False, type="note", text="y" * 200)
    assert resp.status_code == 507 and FULL in html.unescape(resp.data.decode())
    resp = client.post(f"/api/tables/{table.code}/actions", json={"type": "note", "text": "z" * 200}, headers=auth)
    assert resp.status_code == 507 and resp.get_json() == {"error": FULL}
    # reads: the board, a poll, the log, and a page drawn for the first time (it cannot be kept)
    for path, headers in ((f"/t/{table.code}", {}), (f"/t/{table.code}/poll?seq=0", {"HX-Request": "true"}),
                          (f"/t/{table.code}/log", {}), (f"/t/{table.code}/report", {}),
                          (f"/api/tables/{table.code}", auth)):
        assert client.get(path, headers=headers).status_code == 200, path
    assert store.table_seq(db, table.code) == seq


def test_serve_warns_at_start_up_when_space_is_low(tmp_path, monkeypatch):
    usage = namedtuple("usage", "total used free")
    monkeypatch.setattr(disk.shutil, "disk_usage", lambda path: usage(10 ** 9, 10 ** 9 - 50 * 2 ** 20, 50 * 2 ** 20))
    warning = disk.low_space(tmp_path / "companion.sqlite")
    assert warning.startswith("Warning: only 50 MB free on the disk holding") and "nothing is lost" in warning
    monkeypatch.setattr(disk.shutil, "disk_usage", lambda path: usage(10 ** 12, 0, 10 ** 11))
    assert disk.low_space(tmp_path / "companion.sqlite") is None
