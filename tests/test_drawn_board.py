"""The board is drawn once per change and view (companion/drawn.py), never once per phone, and
what is kept for one view never reaches another: each phone gets its own CSRF token, seat name
and Undo question, and a side's sealed order stays on that side's board."""
from __future__ import annotations

import re

import pytest
from flask import template_rendered

from companion import drawn, store
from companion.side_marks import any_side
from tests.test_hidden_information import SECRET, Phone

HX = {"HX-Request": "true"}


@pytest.fixture
def boards_drawn(app, monkeypatch):
    """The sides _board.html is rendered for (each call of the template, whatever the path): "every
    side" for a board drawn once for every side (companion/side_marks.py).  The tests' check that
    draws such a board for the phone's own side too is off here: it counts what is served."""
    drawn = []
    monkeypatch.setitem(app.config, "CHECK_CARDS", False)

    def count(sender, template, context, **extra):
        if template.name == "_board.html":
            side = context["seat"]["side"]
            drawn.append("every side" if side == any_side() else side)
    template_rendered.connect(count, app)
    yield drawn
    template_rendered.disconnect(count, app)


@pytest.fixture
def club(app, table):
    """Red: Anna (who created the table) and Ada; Blue: Ben and Bo; two spectators."""
    table.create(seat="Anna", side="Red", sides="Red,Blue")
    table.act(do="add-unit", name="Falcon", side="Red", hp=10)
    table.act(do="add-unit", name="Raven", side="Blue", hp=10)
    player, spectator = table.secrets()
    phones = {"anna": table}
    for key, name, side, secret in (("ada", "Ada", "Red", player), ("ben", "Ben", "Blue", player),
                                    ("bo", "Bo", "Blue", player), ("sam", "Sam", "", spectator),
                                    ("sue", "Sue", "", spectator)):
        phones[key] = Phone(app.test_client()).join(table.code, secret, name, side)
    return phones


def poll(phone, seq=0, open_units=None) -> str:
    """The phone's poll answer (with the cards of the rows it says are open: "*" for all)."""
    headers = {**HX, "X-Open-Units": open_units} if open_units else HX
    resp = phone.client.get(f"/t/{phone.code}/poll?seq={seq}", headers=headers)
    assert resp.status_code == 200, resp.data
    return resp.data.decode()


def own_token(phone) -> str:
    return phone.csrf  # what the phone's own pages carry (its session's token)


def kept(app, code) -> list[tuple[int, str, str]]:
    with app.app_context():
        db = store.open_db(app.config["DATABASE"])
        return db.execute("select d.seq, d.view, d.html from drawn d join tables t on t.id = d.table_id"
                          " where t.code = ?", [code]).fetchall()


def test_a_change_is_drawn_once_per_view_not_once_per_phone(club, boards_drawn):
    anna = club["anna"]
    boards_drawn.clear()
    assert anna.act(do="adjust unit=u1 tracker=hp by=-1").status_code == 200  # drawn for Red
    for phone in club.values():
        poll(phone)
    # six phones, two views: the players' board, one for both sides (drawn for Anna's own answer),
    # and the spectators'
    assert sorted(boards_drawn, key=str) == sorted(["every side", None], key=str)
    boards_drawn.clear()
    for phone in club.values():  # everybody polls again (a phone woke up): nothing is drawn
        poll(phone)
    assert boards_drawn == []


def test_each_phone_gets_its_own_csrf_token_and_name(club):
    club["anna"].act(do="adjust unit=u1 tracker=hp by=-1")
    tokens = set()
    for key, phone in club.items():
        body = poll(phone)
        in_board = set(re.findall(r'name="csrf_token" value="([^"]+)"', body))
        assert in_board == {own_token(phone)}, key
        tokens |= in_board
        assert "drawn" not in re.sub(r"[^a-z0-9]", " ", body).split()  # no placeholder left over
        assert not re.search(r"drawn[0-9a-f]{20}", body)
    assert len(tokens) == len(club)  # six phones, six tokens


def test_undo_asks_first_only_when_the_move_is_another_seats(club):
    club["anna"].act(do="adjust unit=u1 tracker=hp by=-1")
    question = 'hx-confirm="Undo Anna: Falcon HP'
    assert question not in poll(club["anna"])  # her own move: taken back at once
    assert question in poll(club["ada"])  # same side, same kept board, but not her move
    assert question in poll(club["ben"])


def test_a_sealed_order_is_kept_only_in_its_sides_board(app, club):
    red = club["anna"]
    assert red.act(do="seal unit=u1", text=SECRET, _control="seal-u1").status_code == 200
    for phone in club.values():
        body = poll(phone, open_units="*")  # the sealed order is on its unit's card
        assert (SECRET in body) == (phone in (club["anna"], club["ada"]))
    rows = kept(app, red.code)
    newest = max(seq for seq, _, _ in rows)
    # from the seal on, each side's board is its own (before it, one board served both sides)
    assert {tuple(view.split("|")[1:3]) for seq, view, _ in rows if seq == newest} == {
        ("player", '"Red"'), ("player", '"Blue"'), ("spectator", '""')}
    assert ("player", "*") in {tuple(view.split("|")[1:3]) for seq, view, _ in rows if seq < newest}
    for seq, view, html in rows:
        if '|"Red"|' not in view:
            assert SECRET not in html, view
        elif seq == newest:
            assert SECRET in html


def test_a_spectators_board_is_its_own_and_read_only(club):
    club["anna"].act(do="adjust unit=u1 tracker=hp by=-1")
    watching, playing = poll(club["sam"]), poll(club["ada"])
    assert re.search(r'<button class="btn primary next"[^>]*disabled', watching)
    assert not re.search(r'<button class="btn primary next"[^>]*disabled', playing)


def test_pages_of_older_seqs_are_dropped(app, club):
    anna = club["anna"]
    for by in range(1, 7):
        anna.act(do=f"adjust unit=u1 tracker=hp by=-{by}")
        for phone in club.values():
            poll(phone)
    with app.app_context():
        seq = store.table(store.open_db(app.config["DATABASE"]), anna.code)["seq"]
    rows = kept(app, anna.code)
    # the newest page of each of the two views (the players', one for both sides; the spectators'),
    # and the few before it a delta compares with
    assert {s for s, _, _ in rows} == set(range(seq - drawn.DELTA_BEHIND, seq + 1))
    assert len([s for s, _, _ in rows if s == seq]) == 2


def test_a_library_change_redraws_the_board(app, club, boards_drawn):
    """A board may list saved items (Talon's saved classes): a save is not a table change, but the
    boards kept before it are not served after it."""
    for phone in club.values():
        poll(phone)
    boards_drawn.clear()
    anna = club["anna"]
    resp = anna.client.post(f"/t/{anna.code}/library", data={"csrf_token": anna.csrf, "name": "Pair"})
    assert resp.status_code == 303
    assert kept(app, anna.code) == []
    poll(club["ben"])
    assert boards_drawn == ["every side"]


# --- a poll a change or two behind gets only what changed -------------------------------------------

def delta(phone, seq, open_units=""):
    resp = phone.client.get(f"/t/{phone.code}/poll?seq={seq}", headers={**HX, "X-Open-Units": open_units})
    assert resp.status_code == 200, resp.data
    return resp


def seq_of(phone) -> int:
    return int(re.search(r'data-seq="(\d+)"', poll(phone)).group(1))


def test_one_change_behind_gets_the_unit_and_the_bars_out_of_band(club):
    ben = club["ben"]
    seq = seq_of(ben)  # Ben's board as it is now (kept)
    club["anna"].act(do="adjust unit=u2 tracker=hp by=-1")  # Raven, a Blue unit
    resp = delta(ben, seq)
    body = resp.data.decode()
    assert resp.headers["HX-Reswap"] == "none" and resp.headers["X-Board-Seq"] == str(seq + 1)
    ids = re.findall(r'<[a-z]+ hx-swap-oob="true"[^>]* id="([^"]+)"', body)
    assert "u-u2" in ids and "dock" in ids and "u-u1" not in ids  # Falcon did not change
    assert "<section id=\"board\"" not in body
    assert "Raven HP -1" in body  # what Undo would take back, in the bar
    assert len(body) < len(poll(ben)) / 2
    assert set(re.findall(r'name="csrf_token" value="([^"]+)"', body)) == {own_token(ben)}


def test_too_far_behind_or_a_new_unit_gets_the_whole_board(club):
    ben, anna = club["ben"], club["anna"]
    seq = seq_of(ben)
    for _ in range(drawn.DELTA_BEHIND + 1):
        anna.act(do="adjust unit=u1 tracker=hp by=-1")
    assert '<section id="board"' in delta(ben, seq).data.decode()  # four changes behind
    seq = seq_of(ben)
    anna.act(do="add-unit", name="Kestrel", side="Blue", hp=10)  # the side's section changes
    resp = delta(ben, seq)
    assert '<section id="board"' in resp.data.decode() and "HX-Reswap" not in resp.headers


def test_a_delta_never_carries_another_sides_sealed_order(club):
    ben, anna = club["ben"], club["anna"]
    anna.act(do="seal unit=u1", text=SECRET, _control="seal-u1")
    seq = seq_of(ben)
    anna.act(do="adjust unit=u1 tracker=hp by=-1")  # Falcon, whose card holds the sealed order
    body = delta(ben, seq, "u1").data.decode()  # Ben has Falcon's row open
    assert 'id="u-u1"' in body and "Sealed order" in body and SECRET not in body
    assert SECRET in delta(club["ada"], seq, "u1").data.decode()


def test_a_step_is_worked_out_once_per_view(club, monkeypatch):
    """After a change the other phones of a side all ask for the same step (seq - 1 -> seq): the
    parts that changed are found once and kept, whether they go out of band or the whole board must."""
    ben, bo, anna = club["ben"], club["bo"], club["anna"]
    seq = seq_of(ben)
    assert seq_of(bo) == seq
    compared = []
    real = drawn.parts_of
    monkeypatch.setattr(drawn, "parts_of", lambda html: compared.append(1) or real(html))
    anna.act(do="adjust unit=u2 tracker=hp by=-1")
    bodies = [delta(ben, seq).data.decode(), delta(bo, seq).data.decode()]
    assert len(compared) == 2  # the old board and the new, once for both phones
    assert all('id="u-u2"' in b and "<section id=\"board\"" not in b for b in bodies)
    assert bodies[0].replace(own_token(ben), "T") == bodies[1].replace(own_token(bo), "T")
    compared.clear()
    seq += 1
    anna.act(do="add-unit", name="Kestrel", side="Blue", hp=10)
    for phone in (ben, bo):
        resp = delta(phone, seq)
        assert '<section id="board"' in resp.data.decode() and "HX-Reswap" not in resp.headers
    assert len(compared) == 2  # "the whole board" is kept as the step's answer too


def test_an_action_a_change_behind_is_answered_with_what_changed(club):
    """An action's answer is a step too: the phone says which seq its board shows (X-Board-Seq,
    static/companion.js) and gets the parts that changed since, its own change and the one it had
    not polled for yet, with the cards of its open rows; the whole board when it cannot say."""
    ben, anna = club["ben"], club["anna"]
    seq = seq_of(ben)
    anna.act(do="adjust unit=u1 tracker=hp by=-1")  # a change Ben has not polled for yet

    def act(**headers):
        return ben.client.post(f"/t/{ben.code}/act", data={"csrf_token": ben.csrf, "do": "adjust unit=u2 tracker=hp by=-1"},
                               headers={**HX, **headers})
    resp = act(**{"X-Board-Seq": str(seq), "X-Open-Units": "u2"})
    body = resp.data.decode()
    assert resp.status_code == 200 and resp.headers["HX-Reswap"] == "none"
    assert resp.headers["X-Board-Seq"] == str(seq + 2)
    ids = re.findall(r'<[a-z]+ hx-swap-oob="true"[^>]* id="([^"]+)"', body)
    assert {"u-u1", "u-u2", "dock"} <= set(ids) and '<section id="board"' not in body
    assert 'id="unit-u2"' in body and 'id="unit-u1"' not in body  # his open row's card, folded the other
    assert "Raven HP -1" in body and set(re.findall(r'name="csrf_token" value="([^"]+)"', body)) == {own_token(ben)}
    # a phone that does not say (or is too far behind) gets the whole board
    assert '<section id="board"' in act().data.decode()
    assert '<section id="board"' in act(**{"X-Board-Seq": str(seq)}).data.decode()  # four behind now


def test_the_first_action_after_a_page_load_is_a_step(app, club):
    """A page load's board is the one kept for the seat's view: the phone's first tap finds it kept
    and gets only what changed back, not the whole board again."""
    ben = club["ben"]
    player, _ = club["anna"].secrets()
    resp = ben.client.post(f"/api/tables/{ben.code}/actions", json={"type": "next-phase"},
                           headers={"Authorization": f"Bearer {player}"})
    assert resp.status_code == 200  # a change no board was drawn for
    page = ben.client.get(f"/t/{ben.code}").data.decode()
    seq = re.search(r'id="board" data-seq="(\d+)"', page).group(1)
    assert set(re.findall(r'name="csrf_token" value="([^"]+)"', page)) == {own_token(ben)}
    resp = ben.client.post(f"/t/{ben.code}/act", data={"csrf_token": ben.csrf, "do": "adjust unit=u2 tracker=hp by=-1"},
                           headers={**HX, "X-Board-Seq": seq})
    assert resp.status_code == 200 and resp.headers.get("HX-Reswap") == "none", resp.headers
    assert '<section id="board"' not in resp.data.decode() and 'id="u-u2"' in resp.data.decode()
