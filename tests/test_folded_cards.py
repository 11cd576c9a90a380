"""A unit's full card goes only to a phone that has its row open (companion/board): the
board carries each row with an empty slot, the phone says which rows are open (X-Open-Units, sent by
static/js/cards.js with every htmx request; ``?open=`` on a page load), and a row opened later asks
for its card alone (GET /t/<code>/card/<unit>)."""
from __future__ import annotations

import re

import pytest

from tests.test_board import HX, club  # noqa: F401  (the fixture)
from tests.test_hidden_information import SECRET


def card(page: str, uid: str) -> str | None:
    """The unit's whole card in a page, or None when its slot is folded."""
    m = re.search(rf'<div class="unitcard" id="card-{uid}" data-v="[0-9a-f]+"( data-lazy)?>', page)
    assert m, f"no card slot for {uid}"
    return None if m.group(1) else page[m.start():]


def poll(phone, seq=0, open_units=None):
    headers = {**HX, **({"X-Open-Units": open_units} if open_units is not None else {})}
    return phone.client.get(f"/t/{phone.code}/poll?seq={seq}", headers=headers)


@pytest.fixture
def two_ships(table):
    table.create(seat="Anna", side="Red", sides="Red,Blue")
    table.act(do="add-unit", name="Falcon", side="Red", hp=10)
    table.act(do="add-unit", name="Raven", side="Blue", hp=10)
    return table


def test_the_board_page_sends_rows_without_their_cards(two_ships):
    page = two_ships.client.get(f"/t/{two_ships.code}").data.decode()
    assert 'id="row-u1"' in page and 'id="row-u2"' in page
    assert card(page, "u1") is None and card(page, "u2") is None
    assert 'id="unit-u1"' not in page and 'data-tracker="hp"' not in page  # no card form, no tracker
    # without JavaScript the slot's link loads the page with that row open and its card in it
    assert 'href="?open=u1#row-u1"' in page
    opened = two_ships.client.get(f"/t/{two_ships.code}?open=u1").data.decode()
    assert 'id="row-u1" open>' in opened and 'id="unit-u1"' in opened
    assert card(opened, "u2") is None and 'id="row-u2">' in opened


def test_an_answer_carries_the_cards_of_the_rows_the_phone_has_open(two_ships):
    resp = two_ships.client.post(f"/t/{two_ships.code}/act", data={"csrf_token": two_ships.csrf,
                                 "do": "adjust unit=u1 tracker=hp by=-1"}, headers={**HX, "X-Open-Units": "u2"})
    body = resp.data.decode()
    assert resp.status_code == 200
    assert card(body, "u1") is None
    assert 'id="unit-u2"' in card(body, "u2")
    assert "X-Open-Units" in resp.headers["Vary"]
    # the same kept board, another phone with other rows open: each gets its own cards
    body = poll(two_ships, open_units="u1 u2 nonsense <script>").data.decode()
    assert 'id="unit-u1"' in body and 'id="unit-u2"' in body and "9" in card(body, "u1")


def test_a_card_fetched_alone_is_the_slot_a_page_load_draws_in_the_open_row(two_ships):
    """One slot (templates/board/card_slot.html): what a row opened later swaps in is exactly what a
    page load draws in that row when it is open, card, fingerprint and all."""
    two_ships.act(do="adjust unit=u1 tracker=hp by=-3")
    alone = two_ships.client.get(f"/t/{two_ships.code}/card/u1", headers=HX).data.decode()
    opened = two_ships.client.get(f"/t/{two_ships.code}?open=u1").data.decode()
    assert alone.startswith('<div class="unitcard" id="card-u1" data-v=') and alone.endswith("</div>")
    assert 'id="unit-u1"' in alone and alone in opened


def test_a_row_opened_later_gets_its_card_alone_as_the_phone_may_see_it(club):  # noqa: F811
    anna, sam = club["anna"], club["sam"]
    resp = anna.client.get(f"/t/{anna.code}/card/u1", headers=HX)
    assert resp.status_code == 200
    body = resp.data.decode()
    assert body.startswith('<div class="unitcard" id="card-u1" data-v=') and "data-lazy" not in body
    assert 'id="unit-u1"' in body and anna.csrf not in body  # the view's token, not the phone's
    watched = sam.client.get(f"/t/{sam.code}/card/u1", headers=HX).data.decode()
    assert "disabled" in watched and 'id="unit-u1"' in watched  # a spectator's card is read-only
    assert anna.client.get(f"/t/{anna.code}/card/u9", headers=HX).status_code == 404
    assert anna.client.get("/t/NOSUCH/card/u1", headers=HX).status_code == 404


def test_a_sealed_order_stays_in_its_sides_card(club):  # noqa: F811
    anna, ben = club["anna"], club["ben"]
    assert anna.act(do="seal unit=u1", text=SECRET, _control="seal-u1").status_code == 200
    assert SECRET in anna.client.get(f"/t/{anna.code}/card/u1", headers=HX).data.decode()
    assert SECRET not in ben.client.get(f"/t/{ben.code}/card/u1", headers=HX).data.decode()
    assert SECRET not in poll(ben, open_units="*").data.decode()
    assert SECRET in poll(club["ada"], open_units="*").data.decode()


def test_a_change_to_a_card_alone_reaches_the_phones_with_its_row_open(club):  # noqa: F811
    """A change the row does not show (a fourth tracker: a row shows three) still changes the unit's part
    of the board: the slot carries the card's fingerprint, so a poll a change behind gets the unit."""
    anna, ben = club["anna"], club["ben"]
    for label in ("Ammo", "Fuel", "Morale"):  # a row shows a unit's first three trackers
        assert anna.act(do="add-tracker unit=u1", **{"spec.kind": "counter", "spec.label": label,
                                                       "spec.value": "3"}).status_code == 200
    morale = next(tid for tid, t in anna.state()["units"]["u1"]["trackers"].items() if t["label"] == "Morale")
    seq = int(re.search(r'data-seq="(\d+)"', poll(ben).data.decode()).group(1))
    assert 'data-tracker="morale"' not in poll(ben).data.decode() and poll(ben, seq).status_code == 204
    assert anna.act(do=f"adjust unit=u1 tracker={morale} by=1").status_code == 200
    closed = poll(ben, seq).data.decode()
    opened = poll(ben, seq, open_units="u1").data.decode()
    # one change behind: only the unit's box comes (out of band), folded or with its card
    assert 'hx-swap-oob="true" class="unitbox" id="u-u1"' in closed and 'id="u-u2"' not in closed
    assert card(closed, "u1") is None and f'data-tracker="{morale}"' not in closed
    assert f'data-tracker="{morale}"' in card(opened, "u1") and 'id="u-u2"' not in opened


def test_a_strange_name_is_a_name_nothing_more(two_ships):
    """A unit named with NUL characters and look-alikes of markers is a name, nothing more."""
    weird = "\x00u1\x00drawn0000cards\x00"
    assert two_ships.act(do="add-unit", name=weird.replace("\x00", "|"), side="Red", hp=3).status_code == 200
    assert two_ships.act(do="add-unit", name="Zero\x00Day", side="Red", hp=3).status_code == 200
    body = poll(two_ships, open_units="*").data.decode()
    assert body.count('class="unitcard"') == 4 and "data-lazy" not in body
    folded = poll(two_ships, open_units="").data.decode()
    assert folded.count("data-lazy>") == 4 and "Zero\x00Day" in folded and folded.endswith("</section>")


def test_a_page_loaded_again_comes_with_the_rows_that_were_open(two_ships):
    """static/js/cards.js keeps the open rows in the table's "open" cookie ("~" between ids): a page load
    (the phone slept, a reload) draws those rows open with their cards; a header or ?open= wins."""
    client, code = two_ships.client, two_ships.code
    client.set_cookie("open", "u2~u9~<b>", path=f"/t/{code}")
    page = client.get(f"/t/{code}").data.decode()
    assert 'id="row-u2" open>' in page and 'id="unit-u2"' in page
    assert card(page, "u1") is None and 'id="row-u1">' in page
    assert 'id="unit-u1"' in client.get(f"/t/{code}?open=u1").data.decode()
    assert 'id="unit-u2"' not in poll(two_ships, open_units="").data.decode()  # htmx says for itself
    client.delete_cookie("open", path=f"/t/{code}")
    assert 'id="unit-u2"' not in client.get(f"/t/{code}").data.decode()


def test_an_htmx_board_drawn_for_one_request_leaves_its_rows_closed(two_ships):
    """A 409's fresh board carries the cards of the rows the phone said were open, but draws no row
    open: static/js/anchor.js opens again the rows open when it swaps, so a row folded meanwhile stays so."""
    resp = two_ships.client.post(f"/t/{two_ships.code}/act", data={"csrf_token": two_ships.csrf, "_seq": "1",
                                 "do": "adjust unit=u1 tracker=hp by=-1"}, headers={**HX, "X-Open-Units": "u1"})
    assert resp.status_code == 409
    body = resp.data.decode()
    assert 'id="unit-u1"' in body and card(body, "u2") is None  # the open row's card came
    assert 'id="row-u1">' in body and " open>" not in body
    page = two_ships.client.get(f"/t/{two_ships.code}?open=u1").data.decode()
    assert 'id="row-u1" open>' in page  # a page load still opens it
