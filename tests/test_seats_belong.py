"""A seat belongs to its phone (issue 37): each of the five findings, as a hostile player at the table
would try it, with only what a player holds (the invitation, its own cookie, its own export)."""
from __future__ import annotations

import json
import os
import re
import stat

import pytest

from companion import create_app, hidden, store
from tests.conftest import TableActions
from tests.table_actions import seat_token, table_secrets
from tests.test_hidden_information import bodies, every_get_route

ENGINES = ("sqlite", "postgresql")  # the tests here run on both (tests/conftest.py, issue 39)

SECRET = "Brace-For-Impact-QQ31"


def join_page(app, code: str, secret: str, name: str, side: str | None = None, client=None):
    """A phone posts the join page's form (its own csrf token from the page): the response."""
    phone = client or app.test_client()
    url = f"/t/{code}/join/{secret}"
    page = phone.get(url)
    if page.status_code == 303:
        return phone, page
    token = re.search(r'name="csrf_token" value="([^"]+)"', page.data.decode()).group(1)
    return phone, phone.post(url, data={"csrf_token": token, "seat": name, "side": side or ""})


@pytest.fixture
def sealed(app, table):
    """Player 1 (Anna, the maker) seals an order; Ben sits on Player 2."""
    table.create(seat="Anna", side="Player 1", sides="Player 1,Player 2")
    table.act(do="add-unit", name="Falcon", side="Player 1", hp=10)
    table.act(do="add-unit", name="Raven", side="Player 2", hp=10)
    assert table.act(do="seal unit=u1", text=SECRET, _control="seal-u1").status_code == 200
    player, spectator = table_secrets(app, table.code)
    ben, resp = join_page(app, table.code, player, "Ben", "Player 2")
    assert resp.status_code == 303 and resp.headers["Location"].endswith(f"/t/{table.code}")  # a free side: one tap
    return {"anna": table, "ben": ben, "player": player, "spectator": spectator}


def read_everything(app, client, code) -> dict:
    phone = TableActions(client)
    phone.code = code
    seen = bodies(phone)
    for path in every_get_route(app, code):
        seen[path + " (plain)"] = client.get(path).data.decode()
    return seen


def test_the_player_link_alone_asks_for_a_held_side_and_reads_nothing(app, sealed):
    """Finding 1: a stranger posts the join form as Player 1; Ben re-posts it as Player 1."""
    code = sealed["anna"].code
    stranger, resp = join_page(app, code, sealed["player"], "Mallory", "Player 1")
    assert resp.status_code == 303 and resp.headers["Location"].endswith(f"/t/{code}/waiting")
    waiting = stranger.get(f"/t/{code}/waiting").data.decode()
    assert "Waiting for <strong>Player 1</strong>" in waiting and SECRET not in waiting
    seen = read_everything(app, stranger, code)
    assert [p for p, body in seen.items() if SECRET in body] == []
    assert stranger.get(f"/t/{code}").status_code == 404  # no seat yet: no board
    # Ben, seated on Player 2, posts the join form again as Player 1: still Player 2, still nothing
    _, again = join_page(app, code, sealed["player"], "Ben", "Player 1", client=sealed["ben"])
    assert again.status_code == 303
    assert "Ben · Player 2" in sealed["ben"].get(f"/t/{code}").data.decode()
    assert [p for p, body in read_everything(app, sealed["ben"], code).items() if SECRET in body] == []
    # Anna's board asks her; Refuse leaves the stranger outside, with nothing but the refusal
    board = sealed["anna"].client.get(f"/t/{code}").data.decode()
    assert "A new phone asks to sit with Player 1" in board and "Mallory" in board
    assert sealed["anna"].client.post(f"/t/{code}/asks", data={"csrf_token": sealed["anna"].csrf, "name": "Mallory",
                                                                "answer": "refuse"}).status_code == 303
    assert "refused your ask" in stranger.get(f"/t/{code}/waiting").data.decode()
    assert stranger.get(f"/t/{code}").status_code == 404
    labels = [e["label"] for e in store.events(store.open_db(app.config["DATABASE"]), code) if e["type"] == "join"]
    assert labels[-2:] == ["Mallory asks to sit with Player 1", "Anna refused Mallory's ask to sit with Player 1"]


def test_a_teammate_gets_in_with_one_allow_and_reads_the_order(app, sealed):
    code = sealed["anna"].code
    cleo, resp = join_page(app, code, sealed["player"], "Cleo", "Player 1")
    assert resp.headers["Location"].endswith("/waiting")
    # only a seat of Player 1 (or the host) may let her in: Ben may not
    refused = sealed["ben"].post(f"/t/{code}/asks", data={"csrf_token": TableActions(sealed["ben"]).csrf,
                                                          "name": "Cleo", "answer": "allow"})
    assert refused.status_code == 400 and "Only a seat of Player 1" in refused.data.decode()
    assert sealed["anna"].client.post(f"/t/{code}/asks", data={"csrf_token": sealed["anna"].csrf, "name": "Cleo",
                                                                "answer": "allow", "back": "board"}).status_code == 303
    # her waiting page takes her to the board (the page asks every 2 s), where she reads her side's order
    assert cleo.get(f"/t/{code}/waiting").headers["Location"].endswith(f"/t/{code}")
    assert SECRET in cleo.get(f"/t/{code}?open=*").data.decode()


def test_a_phone_that_lost_its_cookie_gets_its_seat_back_by_allow(app, sealed):
    code = sealed["anna"].code
    lost, resp = join_page(app, code, sealed["player"], "Ben", "Player 2")  # Ben's phone, cookies cleared
    assert resp.headers["Location"].endswith("/waiting")
    anna = sealed["anna"]
    # the host lets him in: the seat moves to the new phone, the old cookie stops working
    assert anna.client.post(f"/t/{code}/asks", data={"csrf_token": anna.csrf, "name": "Ben",
                                                     "answer": "allow"}).status_code == 303
    assert lost.get(f"/t/{code}/waiting").status_code == 303
    assert "Ben · Player 2" in lost.get(f"/t/{code}").data.decode()
    old = sealed["ben"].get(f"/t/{code}")
    assert old.status_code == 403 and "no longer has a seat" in old.data.decode()


def test_an_invitation_secret_is_a_script_of_no_side(app, sealed):
    """Finding 2: Bearer <player secret> with X-Side, X-Seat; a Bearer reveal with no side.  The
    invitation's secret plays no side: it reads no sealed part, reveals, seals and finishes nothing,
    X-Side is refused and X-Seat not read (the log names it "API")."""
    code, caller = sealed["anna"].code, app.test_client()
    auth = {"Authorization": f"Bearer {sealed['player']}"}
    assert SECRET not in caller.get(f"/api/tables/{code}", headers=auth).data.decode()
    named = caller.get(f"/api/tables/{code}", headers={**auth, "X-Side": "Player 1"})
    assert named.status_code == 403
    before = len(store.events(store.open_db(app.config["DATABASE"]), code))
    for body, words in (({"type": "reveal", "id": "s1"}, "Only Player 1 can open"),
                        ({"type": "seal", "unit": "u1", "text": "x"}, "Only Player 1 can seal"),
                        ({"type": "finish"}, "Only the table's host finishes")):
        resp = caller.post(f"/api/tables/{code}/actions", json=body, headers={**auth, "X-Seat": "Anna"})
        assert resp.status_code == 400 and words in resp.get_json()["error"], resp.get_json()
    assert len(store.events(store.open_db(app.config["DATABASE"]), code)) == before
    note = caller.post(f"/api/tables/{code}/actions", json={"type": "note", "text": "hi"}, headers={**auth, "X-Seat": "Anna"})
    assert note.status_code == 200 and store.events(store.open_db(app.config["DATABASE"]), code)[-1]["seat"] == "API"
    # a script asks for a seat like a phone: a held side waits (202), a free chair... none here
    asked = caller.post(f"/api/tables/{code}/seats", json={"seat": "Bot", "side": "Player 1"}, headers=auth)
    assert asked.status_code == 202 and asked.get_json()["status"] == "waiting"
    token = asked.get_json()["seat_token"]
    assert caller.get(f"/api/tables/{code}/seat", headers={"Authorization": f"Bearer {token}"}).get_json()["status"] \
        == "waiting"
    assert caller.get(f"/api/tables/{code}", headers={"Authorization": f"Bearer {token}"}).status_code == 404
    # Ben's own token acts as Ben, on Player 2 only: Player 1's order is not his to reveal
    ben = {"Authorization": f"Bearer {seat_token(sealed['ben'], code)}"}
    resp = caller.post(f"/api/tables/{code}/actions", json={"type": "reveal", "id": "s1"}, headers=ben)
    assert resp.status_code == 400 and "Only Player 1" in resp.get_json()["error"]
    done = caller.post(f"/api/tables/{code}/actions", json={"type": "note", "text": "from Ben's script"}, headers=ben)
    assert done.status_code == 200
    assert store.events(store.open_db(app.config["DATABASE"]), code)[-1]["seat"] == "Ben"


def _export(client, code, headers=None) -> dict:
    resp = client.get(f"/api/tables/{code}/export", headers=headers or {})
    assert resp.status_code == 200, resp.data
    return resp.get_json()


def test_no_export_but_a_sides_own_opens_its_boxes(app, sealed):
    """Finding 3: a spectator's export (API import) and Player 2's export (lobby import) open nothing
    of Player 1 to anyone, not even to a seat that takes Player 1 of the copy."""
    code = sealed["anna"].code
    watcher = app.test_client()
    spectator_doc = _export(watcher, code, {"Authorization": f"Bearer {sealed['spectator']}"})
    made = watcher.post("/api/tables/import", json=spectator_doc)
    assert made.status_code == 201
    copy = made.get_json()["code"]
    host = {"Authorization": f"Bearer {made.get_json()['seat_token']}"}
    assert SECRET not in watcher.get(f"/api/tables/{copy}", headers=host).data.decode()
    player = made.get_json()["player_url"].rsplit("/", 1)[1]
    taker, resp = join_page(app, copy, player, "Mallory", "Player 2")
    assert resp.status_code == 303
    assert [p for p, body in read_everything(app, taker, copy).items() if SECRET in body] == []
    # Player 2's own export, imported through the lobby: the importer sits on Player 2
    ben_doc = _export(sealed["ben"], code)
    assert ben_doc["side"] == "Player 2"
    importer = TableActions(app.test_client())
    resp = importer.client.post("/tables/import", data={"csrf_token": importer.csrf, "seat": "Ben",
                                                        "file": (__import__("io").BytesIO(json.dumps(ben_doc).encode()),
                                                                 "t.json")})
    assert resp.status_code == 303
    copy2 = resp.headers["Location"].split("/")[2].split("?")[0]
    board = importer.client.get(f"/t/{copy2}").data.decode()
    assert "Ben · Player 2" in board and SECRET not in board
    player2, _ = table_secrets(app, copy2)
    p1, resp = join_page(app, copy2, player2, "Mallory", "Player 1")  # Player 1 is free in the copy
    assert resp.headers["Location"].endswith(f"/t/{copy2}")
    assert [p for p, body in read_everything(app, p1, copy2).items() if SECRET in body] == []
    # Player 1's own export opens Player 1's order to Player 1's seat of the copy
    anna_doc = _export(sealed["anna"].client, code)
    assert "stay shut" in p1.get(f"/t/{copy2}").data.decode()
    csrf = TableActions(p1).csrf

    def upload(doc):
        return p1.post(f"/t/{copy2}/unlock", data={"csrf_token": csrf, "file": (
            __import__("io").BytesIO(json.dumps(doc).encode()), "mine.json")})
    refused = upload(ben_doc)
    assert refused.status_code == 400 and "made by Player 2, not by Player 1" in refused.data.decode()
    edited = {**anna_doc, "name": "edited"}
    assert "not this server&#39;s own export" in upload(edited).data.decode()
    assert [p for p, body in read_everything(app, p1, copy2).items() if SECRET in body] == []
    assert upload(anna_doc).status_code == 303
    assert SECRET in p1.get(f"/t/{copy2}?open=*").data.decode()
    made = app.test_client().post("/api/tables/import", json=anna_doc).get_json()
    assert SECRET in app.test_client().get(f"/api/tables/{made['code']}",
                                           headers={"Authorization": f"Bearer {made['seat_token']}"}).data.decode()


def test_every_box_of_one_kind_is_one_length(app, table):
    """Finding 4: the nine Astral Action orders (and any order text) box to one length."""
    table.create(seat="Anna", side="Player 1", sides="Player 1,Player 2")
    table.act(do="add-unit", name="Falcon", side="Player 1", hp=10)
    for text in ("Mark Target", "Jump to Hyperspace", "Brace for Impact", "x", "é" * 200):
        assert table.act(do="seal unit=u1", text=text, _control="seal-u1").status_code == 200
    watcher = app.test_client()
    doc = _export(watcher, table.code, {"Authorization": f"Bearer {table_secrets(app, table.code)[1]}"})
    boxes = [e["payload"]["sealed"]["box"] for e in doc["events"] if e["type"] == "seal"]
    assert len(boxes) == 5 and len({len(b) for b in boxes}) == 1
    assert hidden.BOX_PAD == 2048


def test_the_host_runs_the_table(app, sealed):
    """Finding 5: only the host finishes, removes a seat (its stream ends, its next tap is refused) and
    makes new links (the old ones stop working)."""
    code, anna, ben = sealed["anna"].code, sealed["anna"], sealed["ben"]
    ben_csrf = TableActions(ben).csrf
    resp = ben.post(f"/t/{code}/act", data={"csrf_token": ben_csrf, "type": "finish"}, headers={"HX-Request": "true"})
    assert resp.status_code == 400 and "Only the table&#39;s host finishes" in resp.data.decode()
    assert ben.post(f"/t/{code}/links", data={"csrf_token": ben_csrf}).status_code == 403
    # Ben's live stream is open when the host removes him: it says "gone" and ends
    app.config["LIVE_SECONDS"] = 10  # (the suite's 0.3 s streams could end first on a slow box)
    stream = ben.get(f"/t/{code}/live", buffered=False)
    chunks = iter(stream.response)
    assert "retry" in next(chunks).decode()
    assert anna.client.post(f"/t/{code}/seats/remove", data={"csrf_token": anna.csrf, "name": "Ben"}).status_code == 303
    rest = "".join(c.decode() for c in chunks)
    assert "event: gone" in rest
    refused = ben.post(f"/t/{code}/act", data={"csrf_token": ben_csrf, "do": "note", "text": "still here?"},
                       headers={"HX-Request": "true"})
    assert refused.status_code == 403
    assert "Anna removed Ben from the table" in anna.client.get(f"/t/{code}/log").data.decode()
    # new links: the old invitation finds nothing
    old_player, _ = table_secrets(app, code)
    assert anna.client.post(f"/t/{code}/links", data={"csrf_token": anna.csrf}).status_code == 303
    assert app.test_client().get(f"/t/{code}/join/{old_player}").status_code == 404
    new_player, _ = table_secrets(app, code)
    assert new_player != old_player and app.test_client().get(f"/t/{code}/join/{new_player}").status_code == 200
    # the host hands the role on; then the new host finishes the game
    dan, _ = join_page(app, code, new_player, "Dan", "Player 2")
    assert anna.client.post(f"/t/{code}/host", data={"csrf_token": anna.csrf, "name": "Dan"}).status_code == 303
    assert anna.client.post(f"/t/{code}/links", data={"csrf_token": anna.csrf}).status_code == 403
    finished = dan.post(f"/t/{code}/act", data={"csrf_token": TableActions(dan).csrf, "type": "finish"})
    assert finished.status_code == 303, finished.data.decode()[-600:]
    # and deletes it: every seat's next request finds nothing
    assert dan.post(f"/t/{code}/delete", data={"csrf_token": TableActions(dan).csrf, "confirm": code}).status_code == 303
    assert anna.client.get(f"/t/{code}").status_code in (403, 404)
    anna.code = None  # (nothing left to export and import again)


def test_creating_tables_is_limited_per_address(app):
    phone = TableActions(app.test_client())
    phone.client.environ_base["REMOTE_ADDR"] = "192.0.2.7"
    made = [phone.client.post("/tables", data={"csrf_token": phone.csrf, "system": "freeform", "name": "t",
                                               "seat": "A"}).status_code for _ in range(21)]
    assert made[:20] == [303] * 20 and made[20] == 429
    api = app.test_client()
    api.environ_base["REMOTE_ADDR"] = "192.0.2.7"
    assert api.post("/api/tables", json={"system": "freeform", "name": "t"}).status_code == 429
    other = app.test_client()
    other.environ_base["REMOTE_ADDR"] = "192.0.2.8"
    assert other.post("/api/tables", json={"system": "freeform", "name": "t"}).status_code == 201


def test_behind_a_proxy_the_limit_counts_each_phone_and_nobody_is_the_host(tmp_path, monkeypatch):
    """A hosted server behind a reverse proxy on the same machine (docs/deploying.md): every request
    reaches the app from loopback.  With COMPANION_PROXIES=1 the address is the one the proxy passes on,
    so the table limit counts each phone, and no phone gets the host device's say over the library."""
    monkeypatch.setenv("COMPANION_PROXIES", "1")
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "db.sqlite"), "SECRET_KEY": "k"})

    def made(address: str) -> int:
        phone = app.test_client()
        phone.environ_base.update({"REMOTE_ADDR": "127.0.0.1", "HTTP_X_FORWARDED_FOR": address})
        return phone.post("/api/tables", json={"system": "freeform", "name": "t"}).status_code

    assert [made("192.0.2.9") for _ in range(21)] == [201] * 20 + [429]
    assert made("192.0.2.10") == 201
    with app.test_request_context("/", environ_base={"REMOTE_ADDR": "127.0.0.1"}):
        from companion.web import is_host
        assert not is_host()


def test_https_hosting_makes_the_cookie_secure_and_the_files_private(tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_PUBLIC_URL", "https://club.example")
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "db.sqlite"), "SECRET_KEY": "k"})
    phone, https = app.test_client(), "https://club.example"
    token = re.search(r'name="csrf_token" value="([^"]+)"', phone.get("/", base_url=https).data.decode()).group(1)
    resp = phone.post("/tables", data={"csrf_token": token, "system": "freeform", "name": "t", "seat": "A"},
                      base_url=https)
    assert resp.status_code == 303
    assert "Secure" in resp.headers["Set-Cookie"] and "HttpOnly" in resp.headers["Set-Cookie"]
    assert resp.headers["Strict-Transport-Security"].startswith("max-age=")
    assert stat.S_IMODE(os.stat(tmp_path / "db.sqlite").st_mode) == 0o600
    # the cookie holds the seat's token, not its name, side or role
    cookie = resp.headers["Set-Cookie"]
    assert "Player" not in cookie and '"name"' not in cookie


def test_a_cookie_from_before_seats_were_rows_claims_its_chair_once(app, table):
    table.create(seat="Anna", side="Red", sides="Red,Blue")
    db = store.open_db(app.config["DATABASE"])
    db.execute("update seats set token_hash = null")  # as the migration leaves a seat of before
    db.conn.commit()
    with table.client.session_transaction() as session:
        session["seats"] = {table.code: {"name": "Anna", "side": "Red", "role": "player"}}
    assert "Anna · Red" in table.client.get(f"/t/{table.code}").data.decode()
    assert isinstance(seat_token(table.client, table.code), str)
    # a second old cookie for the same chair finds it taken
    other = app.test_client()
    with other.session_transaction() as session:
        session["seats"] = {table.code: {"name": "Anna", "side": "Red", "role": "player"}}
    assert other.get(f"/t/{table.code}").status_code == 404


def test_a_removed_seats_event_feed_ends_too(app, sealed):
    """The API's event feed of a seat the host removes ends at its next turn, long before its lifetime."""
    import threading
    import time
    code, anna = sealed["anna"].code, sealed["anna"]
    app.config["FEED_SECONDS"] = 20
    feed = app.test_client().get(f"/api/tables/{code}/feed",
                                 headers={"Authorization": f"Bearer {seat_token(sealed['ben'], code)}"}, buffered=False)
    chunks = iter(feed.response)
    assert "retry" in next(chunks).decode()
    remover = threading.Timer(0.3, lambda: anna.client.post(f"/t/{code}/seats/remove",
                                                            data={"csrf_token": anna.csrf, "name": "Ben"}))
    started = time.monotonic()
    remover.start()
    rest = "".join(c.decode() for c in chunks)
    remover.join()
    took = time.monotonic() - started
    assert 0.25 < took < 5 and "event: state" in rest  # open until the removal, ended at once after it
