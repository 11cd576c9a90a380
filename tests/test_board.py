"""The board is drawn once per change and view (companion/board), never once per phone, and what is
kept for one view never reaches another: no phone's own token or name is in it, and a side's sealed
order stays on that side's board."""
from __future__ import annotations

import re

import pytest

from companion.board import answer, draw, form_token, keep
from companion.seat import View
from tests.test_hidden_information import SECRET, Phone
from tests.table_actions import seat_token

HX = {"HX-Request": "true"}


@pytest.fixture
def boards_drawn(app, monkeypatch):
    """The views a board is drawn for (each call of board.draw.draw through a phone's answer)."""
    drawn = []
    real = answer.draw

    def counted(row, view, *args, **kwargs):
        drawn.append((view.role, view.side))
        return real(row, view, *args, **kwargs)
    monkeypatch.setattr(answer, "draw", counted)
    return drawn


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


def view_token(app, code: str, role: str, side: str) -> str:
    with app.test_request_context():
        return form_token(code, View(role, side))


def kept(app, code) -> list[tuple[int, View, str]]:
    """(seq, view, whole html with every card) of the boards this process keeps for the table."""
    out = []
    with app.test_request_context():
        for key, board in list(keep._kept.items()):
            if key[0] == app.config["DATABASE"] and board.code == code:
                out.append((board.seq, board.view, board.whole({"*"})))
    return out


def test_a_change_is_drawn_once_per_view_not_once_per_phone(club, boards_drawn):
    anna = club["anna"]
    boards_drawn.clear()
    assert anna.act(do="adjust unit=u1 tracker=hp by=-1").status_code == 200  # drawn for Red
    for phone in club.values():
        poll(phone)
    # six phones, three views: each side's players (Red drawn for Anna's own answer), the spectators
    assert sorted(boards_drawn) == [("player", "Blue"), ("player", "Red"), ("spectator", "")]
    boards_drawn.clear()
    for phone in club.values():  # everybody polls again (a phone woke up): nothing is drawn
        poll(phone)
    assert boards_drawn == []


def test_no_phone_has_its_own_token_or_name_in_the_board(app, club):
    """The board is the view's: its forms carry the view's token (good for that table and view only,
    tests/test_play.py), the phone's own token travels in the page's hx-headers, its name on the body."""
    club["anna"].act(do="adjust unit=u1 tracker=hp by=-1")
    code = club["anna"].code
    views = {"anna": ("player", "Red"), "ada": ("player", "Red"), "ben": ("player", "Blue"), "bo": ("player", "Blue"),
             "sam": ("spectator", ""), "sue": ("spectator", "")}
    for key, phone in club.items():
        body = poll(phone)
        assert set(re.findall(r'name="csrf_token" value="([^"]+)"', body)) == {view_token(app, code, *views[key])}, key
        assert not any(own_token(p) in body for p in club.values())
        assert not any(f">{name}<" in body or f'"{name}"' in body for name in ("Ada", "Ben", "Bo", "Sam", "Sue"))
        page = phone.client.get(f"/t/{code}").data.decode()
        assert f'hx-headers=\'{{"X-CSRF-Token": "{own_token(phone)}"}}\'' in page  # the phone's own, for htmx
    assert len({view_token(app, code, *v) for v in views.values()}) == 2  # the players' and the spectators'


def test_undo_names_the_move_and_the_page_names_the_seat(club):
    """Undo asks first for another seat's move (issue 10 §5): the board names whose move it is and the
    page names the phone's seat; static/js/ask.js lets the phone's own move go without the question
    (tests/browser/test_phone_board.py taps it)."""
    club["anna"].act(do="adjust unit=u1 tracker=hp by=-1")
    for key in ("anna", "ada", "ben"):
        body = poll(club[key])
        assert 'hx-confirm="Undo Anna: Falcon HP' in body and 'data-undo="Anna: Falcon HP' in body
    assert 'data-seat="Anna" data-side="Red"' in club["anna"].client.get(f"/t/{club['anna'].code}").data.decode()
    assert 'data-seat="Ben" data-side="Blue"' in club["ben"].client.get(f"/t/{club['ben'].code}").data.decode()


def test_a_sealed_order_is_kept_only_in_its_sides_board(app, club):
    red = club["anna"]
    assert red.act(do="seal unit=u1", text=SECRET, _control="seal-u1").status_code == 200
    for phone in club.values():
        body = poll(phone, open_units="*")  # the sealed order is on its unit's card
        assert (SECRET in body) == (phone in (club["anna"], club["ada"]))
    rows = kept(app, red.code)
    newest = max(seq for seq, _, _ in rows)
    assert {view for seq, view, _ in rows if seq == newest} == {
        View("player", "Red"), View("player", "Blue"), View("spectator", "")}
    for seq, view, html in rows:
        if view != View("player", "Red"):
            assert SECRET not in html, view
        elif seq == newest:
            assert SECRET in html


def test_a_spectators_board_is_its_own_and_read_only(club):
    club["anna"].act(do="adjust unit=u1 tracker=hp by=-1")
    watching, playing = poll(club["sam"]), poll(club["ada"])
    assert re.search(r'<button class="btn primary next"[^>]*disabled', watching)
    assert not re.search(r'<button class="btn primary next"[^>]*disabled', playing)


def test_kept_boards_are_bounded_oldest_first(app, club, monkeypatch):
    """Boards live in the server process's memory (a read never writes), forgotten oldest first past
    the budget; a phone whose earlier board is gone just gets the whole board."""
    keep.forget()
    monkeypatch.setattr(keep, "MAX_BOARDS", 4)
    anna = club["anna"]
    for by in range(1, 7):
        anna.act(do=f"adjust unit=u1 tracker=hp by=-{by}")
        for phone in club.values():
            poll(phone)
    rows = kept(app, anna.code)
    assert len(rows) == 4
    newest = max(s for s, _, _ in rows)
    assert {v for s, v, _ in rows if s == newest} == {View("player", "Red"), View("player", "Blue"), View("spectator", "")}
    assert '<section id="board"' in poll(club["ben"], newest - 3)  # its board is forgotten: the whole one


def test_a_library_change_redraws_the_board(app, club, boards_drawn):
    """A board may list saved items (Talon's saved classes): a save is not a table change, but the
    boards kept before it are not served after it."""
    for phone in club.values():
        poll(phone)
    boards_drawn.clear()
    anna = club["anna"]
    resp = anna.client.post(f"/t/{anna.code}/library", data={"csrf_token": anna.csrf, "name": "Pair"})
    assert resp.status_code == 303
    poll(club["ben"])
    assert boards_drawn == [("player", "Blue")]


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
    assert own_token(ben) not in body


def test_too_far_behind_or_a_new_unit_gets_the_whole_board(club):
    ben, anna = club["ben"], club["anna"]
    seq = seq_of(ben)
    for _ in range(draw.DELTA_BEHIND + 1):
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
    real = draw._changed
    monkeypatch.setattr(draw, "_changed", lambda old, new, same: compared.append(1) or real(old, new, same))
    anna.act(do="adjust unit=u2 tracker=hp by=-1")
    bodies = [delta(ben, seq).data.decode(), delta(bo, seq).data.decode()]
    assert len(compared) == 1  # the old board and the new compared once for both phones
    assert all('id="u-u2"' in b and "<section id=\"board\"" not in b for b in bodies)
    assert bodies[0] == bodies[1]
    compared.clear()
    seq += 1
    anna.act(do="add-unit", name="Kestrel", side="Blue", hp=10)
    for phone in (ben, bo):
        resp = delta(phone, seq)
        assert '<section id="board"' in resp.data.decode() and "HX-Reswap" not in resp.headers
    assert len(compared) == 1  # "the whole board" is kept as the step's answer too


def test_an_action_a_change_behind_is_answered_with_what_changed(club):
    """An action's answer is a step too: the phone says which seq its board shows (X-Board-Seq,
    static/js/cards.js) and gets the parts that changed since, its own change and the one it had
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
    assert "Raven HP -1" in body and own_token(ben) not in body
    # a phone that does not say (or is too far behind) gets the whole board
    assert '<section id="board"' in act().data.decode()
    assert '<section id="board"' in act(**{"X-Board-Seq": str(seq)}).data.decode()  # four behind now


def test_the_first_action_after_a_page_load_is_a_step(app, club):
    """A page load's board is the one kept for the seat's view: the phone's first tap finds it kept
    and gets only what changed back, not the whole board again."""
    ben = club["ben"]
    player = seat_token(club["anna"].client, club["anna"].code)  # Anna's own seat (issue 37)
    resp = ben.client.post(f"/api/tables/{ben.code}/actions", json={"type": "next-phase"},
                           headers={"Authorization": f"Bearer {player}"})
    assert resp.status_code == 200  # a change no board was drawn for
    page = ben.client.get(f"/t/{ben.code}").data.decode()
    seq = re.search(r'id="board" data-seq="(\d+)"', page).group(1)
    resp = ben.client.post(f"/t/{ben.code}/act", data={"csrf_token": ben.csrf, "do": "adjust unit=u2 tracker=hp by=-1"},
                           headers={**HX, "X-Board-Seq": seq})
    assert resp.status_code == 200 and resp.headers.get("HX-Reswap") == "none", resp.headers
    assert '<section id="board"' not in resp.data.decode() and 'id="u-u2"' in resp.data.decode()


def test_a_hit_redraws_that_units_part_alone_once_for_every_side(app, club, monkeypatch):
    """A part is drawn again only when something it read changed (companion/board/reads.py): a hit on
    Falcon redraws Falcon's card and row (once: neither reads the seat's side), the bars that name the
    move, and each board's own tag; Raven's part and each side's heading are served as they were.  A
    sealed order makes the sides' data differ: each side then draws the part it sees."""
    monkeypatch.setattr(draw, "CHECK_PARTS", False)  # (the tests' check draws every part served again)
    rendered = []
    real = draw._render
    monkeypatch.setattr(draw, "_render", lambda name, ctx, **extra: rendered.append(
        (dict.get(ctx["seat"], "side"), name, ctx.get("uid"))) or real(name, ctx, **extra))
    poll(club["anna"])  # Red's board drawn since the joins (each moves the roster: issue 37)
    poll(club["ben"])  # Blue's board drawn once before the hit
    rendered.clear()
    club["anna"].act(do="adjust unit=u1 tracker=hp by=-1")
    body = poll(club["ben"])
    units = {(name, uid) for _, name, uid in rendered if uid}
    assert units == {("_unit_card.html", "u1"), ("_unit_box.html", "u1")}
    assert [name for _, name, _ in rendered].count("_unit_card.html") == 1  # Red's draw served Blue too
    # Red's answer draws its own tag, Falcon and the dock (it names the move); Blue's, its own tag alone
    assert rendered == [("Red", "board/open.html", None), ("Red", "_unit_card.html", "u1"),
                        ("Red", "_unit_box.html", "u1"), ("Red", "board/dock.html", None),
                        ("Blue", "board/open.html", None)]
    falcon = re.search(r'<div class="unitbox" id="u-u1".*?</details>', body, re.S).group(0)
    assert "HP <b>9</b><small>/10</small>" in falcon, falcon
    assert re.findall(r'<section class="side side-\d mine" aria-label="([^"]+)"', body) == ["Blue"]
    club["anna"].act(do="seal unit=u1", text=SECRET, _control="seal-u1")  # the sides' data differ now
    rendered.clear()
    body = poll(club["ben"], open_units="*")
    assert ("Blue", "_unit_card.html", "u1") in rendered and SECRET not in body


def test_a_part_served_again_is_the_part_drawn_now(app, club):
    """The tests' check (COMPANION_CHECK_PARTS, on for the whole suite, so every test of every game
    checks it) draws each part served from memory again: a kept part that is not what its reads now
    draw (here: one changed behind the notes' back) stops the answer."""
    assert draw.CHECK_PARTS
    poll(club["ben"])
    with keep._lock:
        (key,) = [k for k in keep._parts if k[-1] == ("board/unit_options.html",) and k[0] == app.config["DATABASE"]]
        keep._parts[key] = [(*variant[:-1], variant[-1].replace("Raven", "Heron")) for variant in keep._parts[key]]
        keep._kept.clear()  # the boards themselves: Red's is drawn again, from the parts
    with pytest.raises(draw.PartDrift, match="unit_options"):
        poll(club["ada"])


def test_a_table_without_rolls_says_so_without_a_numbered_line(table):
    """An empty list is not numbered: "No rolls or draws yet." stands alone, not as roll "1."."""
    table.create(seat="Ann", side="A", sides="A,B")
    page = table.client.get(f"/t/{table.code}").get_data(as_text=True)
    rolls = page[page.index('id="rolls"'):]
    rolls = rolls[:rolls.index("</div>")]
    assert '<p class="muted">No rolls or draws yet.</p>' in rolls and "<ol" not in rolls


def test_a_board_retired_while_it_draws_an_open_rows_card_still_answers(app, club, monkeypatch):
    """Another request (a server of threads) may keep a newer board of the view, retiring this one, while
    this one draws the card of a row a phone has open: the answer is still drawn from what the board held
    (it was a 500, seen in a browser test under load)."""
    from contextlib import contextmanager
    poll(club["ben"])  # Blue's board kept; no card drawn yet
    real = draw.forms_of

    @contextmanager
    def retired_meanwhile(token):
        with keep._lock:
            boards = list(keep._kept.values())
        for board in boards:
            board.retire()
        with real(token):
            yield
    monkeypatch.setattr(draw, "forms_of", retired_meanwhile)
    body = poll(club["ben"], open_units="u2")  # Raven's row open: its card is drawn now
    raven = re.search(r'<div class="unitbox" id="u-u2".*?</details>', body, re.S).group(0)
    assert 'class="unitcard' in raven and "HP <b>10</b>" in raven, raven


def test_a_part_carrying_out_of_band_answers_goes_as_the_whole_board():
    """Dreadnaught's panel carries its tools' result slots out of band: pushed as a step of its own, htmx
    would leave a copy of each slot inside the panel (the slot twice on the page, seen in
    test_dreadnaught_phone_rows.py), so such a change sends the whole board."""
    from companion.board.draw import Board, Segment

    def board(panel: str, seq: int = 2) -> Board:
        return Board("C", seq, View("player", "A"), "", [Segment("game-panel", panel)], None)
    plain = board('<div id="game-panel">a</div>', 1)
    answers = '<div id="game-panel">b<div id="dn-burn-result" hx-swap-oob="true">3</div></div>'
    # from the board this worker kept, and from another worker's (its outline: board/shared.py)
    assert board('<div id="game-panel">b</div>').step_from(plain) == ("game-panel",)
    assert board('<div id="game-panel">b</div>').step_from_outline(1, plain.outline()) == ("game-panel",)
    assert board('<div id="game-panel">a</div>').step_from_outline(1, plain.outline()) == ()
    assert board(answers).step_from(plain) is None
    assert board(answers).step_from_outline(1, plain.outline()) is None


def test_a_part_split_in_parts_sends_the_parts_that_changed():
    """A part may mark parts of its own (board/draw.py split, issue 38): a change to one of them sends
    it alone, a change to the text around them sends the whole part, and the parts appearing or
    going (another count of segments) sends the whole board, as any change of the board's shape."""
    from companion.board.draw import Board, split

    def panel(phase: str, notes: str = "n", around: str = "x") -> str:
        return (f'<div id="game-panel">{around}<!--part--><span id="notes">{notes}</span><!--/part-->'
                f'<section><!--part--><div class="phase" id="phase" data-p="1">{phase}</div><!--/part--></section></div>')

    def board(html: str, seq: int = 2) -> Board:
        return Board("C", seq, View("player", "A"), "", split("game-panel", html), None)
    old = board(panel("a"), 1)
    assert [s.key for s in old.segments] == ["game-panel", "game-panel/notes", "game-panel", "game-panel/phase",
                                             "game-panel"]
    assert "".join(s.html for s in old.segments) == panel("a").replace("<!--part-->", "").replace("<!--/part-->", "")
    for new, keys in ((panel("b"), ("game-panel/phase",)), (panel("b", "m"), ("game-panel/notes", "game-panel/phase")),
                      (panel("b", around="y"), ("game-panel",)), (panel("a"), ())):
        assert board(new).step_from(old) == keys, new
        assert board(new).step_from_outline(1, old.outline()) == keys, new
    # the step: each part out of band by its own id; the whole part as one when its own text changed
    assert board(panel("b")).step(("game-panel/phase",), set()) == \
        '<div hx-swap-oob="true" class="phase" id="phase" data-p="1">b</div>'
    assert board(panel("b", around="y")).step(("game-panel",), set()) == \
        '<div hx-swap-oob="true" id="game-panel">y<span id="notes">n</span><section><div class="phase" id="phase" ' \
        'data-p="1">b</div></section></div>'
    assert board(panel("a").replace("<!--part--><span", "<span").replace("</span><!--/part-->", "</span>")) \
        .step_from(old) is None
    # marked amiss (no id of its own: a data-id is not one): the part as one segment, without its marks
    amiss = '<div id="game-panel"><!--part--><p data-id="x">a</p><!--/part--></div>'
    assert [(s.key, s.html) for s in split("game-panel", amiss)] == [("game-panel", '<div id="game-panel"><p data-id="x">a</p></div>')]


def test_a_broadside_sends_the_panels_line_it_changed_not_the_panel(app):
    """Dreadfleet's broadside changes one line of the game's panel (the ship's step of its activation)
    and one deck: the step carries those parts, not the whole panel and every deck (issue 38)."""
    from scripts.load import table_plan
    plan = table_plan("dreadfleet")
    client = app.test_client()
    created = client.post("/api/tables", json={"system": "dreadfleet", "name": "Split", "sides": plan["sides"]}).get_json()
    auth = {"Authorization": "Bearer " + created["seat_token"]}
    for step in plan["steps"]:
        assert client.post(f"/api/tables/{created['code']}/actions", json=step, headers=auth).status_code == 200
    phone = Phone(app.test_client()).join(created["code"], created["player_url"].rsplit("/", 1)[1], "Ann",
                                          plan["sides"][0])
    seq = seq_of(phone)
    move = {k: v for k, v in plan["moves"][0].items() if not k.startswith("_")}
    assert client.post(f"/api/tables/{created['code']}/actions", json=move, headers=auth).status_code == 200
    step = delta(phone, seq)
    assert step.headers.get("HX-Reswap") == "none", "the broadside's step came as the whole board"
    ids = re.findall(r'<\w+ hx-swap-oob="true"[^>]*? id="([^"]+)"', step.get_data(as_text=True))
    assert "df-phase" in ids and "deck-damage" in ids, ids
    assert "game-panel" not in ids and "board-decks" not in ids and "deck-fate" not in ids, ids


def test_the_boards_of_a_change_read_its_row_log_and_roster_once(app, club, monkeypatch):
    """Each view's board at a change is drawn from the same row, undo, rolls and roster (a seat's own
    filter is Python's): this process reads them once per change, not once per view (a round trip
    each on PostgreSQL), and the next change reads afresh.  The row is the one the tap's move left
    (its answer drew from it): not read again at all."""
    from companion import store
    from companion.db import get_db
    reads = []
    real_log, real_seated, real_row = store.board_log, store.seated, store.table
    monkeypatch.setattr(store, "board_log", lambda *a, **k: reads.append("log") or real_log(*a, **k))
    monkeypatch.setattr(store, "seated", lambda *a, **k: reads.append("roster") or real_seated(*a, **k))
    anna = club["anna"]
    with app.test_request_context():
        seats = [s for s in store.table_seats(get_db(), anna.code) if s["status"] == "seated"]
    for undo in ("Anna: Raven HP -1 (10 → 9)", "Anna: Raven HP -1 (9 → 8)"):
        reads.clear()
        anna.act(do="adjust unit=u2 tracker=hp by=-1")  # (Anna's answer: her view's board)
        with app.test_request_context():
            head = store.table_head(get_db(), anna.code)
            # (Anna's answer drew her view's board from the row her move left: the others draw from it too)
            monkeypatch.setattr(store, "table", lambda *a, **k: reads.append("row") or real_row(*a, **k))
            boards = {id(b): b for b in (answer.kept_board(anna.code, seat, head) for seat in seats)}
            monkeypatch.setattr(store, "table", real_row)
        assert len(boards) == 3 and reads == ["log", "roster"]  # Red's, Blue's, the spectators'
        assert {b.context["history"]["undo"] for b in boards.values()} == {undo}
        with app.test_request_context():
            hp = store.table(get_db(), anna.code)["state"]["units"]["u2"]["trackers"]["hp"]["value"]
        assert {(b.seq, b.context["state"].raw["units"]["u2"]["trackers"]["hp"]["value"]) for b in boards.values()} \
            == {(head[1], hp)} and hp == int(undo.split("→ ")[1].rstrip(")"))


def test_what_is_read_once_per_change_is_kept_for_each_tables_newest_seq_only(app):
    """keep.once_at keeps one value per table and kind, its newest seq's (a row's state is 10-100 KB):
    a read of an older seq is its own and replaces nothing, a newer seq's replaces it."""
    reads = []

    def at(seq):
        return keep.once_at("row", 7, seq, lambda: reads.append(seq) or f"row at {seq}")
    with app.test_request_context():
        assert [at(5), at(5), at(4), at(5), at(6), at(6), at(5)] == \
            ["row at 5", "row at 5", "row at 4", "row at 5", "row at 6", "row at 6", "row at 5"]
        assert reads == [5, 4, 6, 5]
        assert sum(1 for key in keep._once if key[1:] == ("row", 7)) == 1


def test_a_pushed_step_carries_the_card_its_row_was_drawn_with_not_drawn_again(app, club, monkeypatch):
    """A live stream pushes each changed unit with its card in (Board.step with every row open): that
    card is the one the board drew for the row's slot, so a hit draws Falcon's card once for the
    players (both sides read the same) and once for the spectators, whatever is pushed to them; only
    the row is drawn again with the card in (issue 38: the card was drawn again for each step)."""
    from companion import store
    from companion.db import get_db
    monkeypatch.setattr(draw, "CHECK_PARTS", False)  # (the tests' check draws every part served again)
    rendered = []
    real = draw._render
    monkeypatch.setattr(draw, "_render", lambda name, ctx, **extra: rendered.append(name) or real(name, ctx, **extra))
    for phone in club.values():  # every view's board kept: the change is pushed as a step
        poll(phone)
    rendered.clear()
    club["anna"].act(do="adjust unit=u1 tracker=hp by=-1")
    with app.test_request_context():
        seats = {s["name"]: s for s in store.table_seats(get_db(), club["anna"].code) if s["status"] == "seated"}
        head = store.table_head(get_db(), club["anna"].code)
        steps = [answer.pushed_step(club["anna"].code, seats[name], head[1] - 1, head)[2] for name in ("Ada", "Ben", "Sam")]
    assert rendered.count("_unit_card.html") == 2 and rendered.count("_unit_box.html") == 4, " ".join(rendered)
    cards = {board.view.role: board.cards["u1"] for key, board in keep._kept.items()
             if board.code == club["anna"].code and board.seq == head[1]}
    for step, role in zip(steps, ("player", "player", "spectator"), strict=True):  # Falcon's row with its card in
        card = cards[role]
        assert f'<div class="unitcard" id="card-u1" data-v="{draw.fingerprint(card)}">{card}</div>' in step
        assert "HP <b>9</b><small>/10</small>" in step


def test_the_streams_of_a_change_read_the_seats_and_the_library_once(app, club, monkeypatch):
    """Every live stream of a table, at a change, checks that its seat still sits and pushes the step
    for the library's revision: this process reads each once per change (on PostgreSQL a read is a round
    trip), and the next change reads afresh, so a seat removed (a change of its own) is seen at once."""
    from companion import play, store
    from companion.db import get_db
    reads = []
    real_seated, real_revision = store.seated_ids, store.library_revision
    monkeypatch.setattr(store, "seated_ids", lambda db, code: reads.append("seats") or real_seated(db, code))
    monkeypatch.setattr(store, "library_revision", lambda db: reads.append("library") or real_revision(db))
    anna = club["anna"]
    code = anna.code
    for phone in club.values():  # every view's board kept: the change is pushed as a step
        poll(phone)
    anna.act(do="adjust unit=u2 tracker=hp by=-1")
    with app.test_request_context():
        seats = {s["name"]: s for s in store.table_seats(get_db(), code) if s["status"] == "seated"}
        head = store.table_head(get_db(), code)
        reads.clear()
        for seat in seats.values():
            assert play.still_seated(code, head[0], seat)(head[1])
            assert answer.pushed_step(code, seat, head[1] - 1, head) is not None
        assert len(seats) == 6 and reads.count("seats") == 1 and reads.count("library") == 1
    resp = anna.client.post(f"/t/{code}/seats/remove", data={"csrf_token": anna.csrf, "name": "Ben"})
    assert resp.status_code == 303
    with app.test_request_context():
        head = store.table_head(get_db(), code)
        reads.clear()
        assert not play.still_seated(code, head[0], seats["Ben"])(head[1])
        assert play.still_seated(code, head[0], seats["Bo"])(head[1])
        assert reads == ["seats"]


def test_no_card_template_reads_whether_its_row_is_open():
    """board/draw.py ``_render_unit`` puts the card drawn for a row's slot into the row drawn open: the
    same card only while no card template (the core's or a game's) reads ``with_card`` or ``row_open``,
    which only the row's own template (_unit_box.html) may."""
    from pathlib import Path
    root = Path(__file__).resolve().parent.parent / "templates"
    readers = sorted(str(p.relative_to(root)) for p in root.rglob("*.html")
                     if re.search(r"\b(with_card|row_open)\b", p.read_text(encoding="utf-8")))
    assert readers == ["_unit_box.html"]
