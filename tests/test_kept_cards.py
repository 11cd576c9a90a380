"""A unit's card is drawn once and kept while what it reads stays the same (companion/kept_cards.py):
a tap on one unit draws that unit's card again and no other; a card follows the table values it reads
(the round, for a cooldown) though its unit did not change; a card reading something its game did not
declare is caught; a kept card carries each phone's own CSRF token."""
from __future__ import annotations

import re

import pytest

from companion import kept_cards
from tests.test_drawn_board import HX

OPEN_ALL = {**HX, "X-Open-Units": "*"}


@pytest.fixture
def drawn(monkeypatch):
    """The uids of the cards drawn afresh (not taken from the kept ones), in order."""
    calls: list[str] = []
    real = kept_cards.draw

    def spy(env, narrow, uid, unit):
        calls.append(uid)
        return real(env, narrow, uid, unit)

    monkeypatch.setattr(kept_cards, "draw", spy)
    kept_cards.forget()
    return calls


@pytest.fixture
def fleet(table):
    table.create(seat="Anna", side="Red", sides="Red,Blue")
    for name, side in (("Falcon", "Red"), ("Raven", "Blue"), ("Kite", "Red")):
        table.act(do="add-unit", name=name, side=side, hp=10)
    return table


def api(table, payload: dict) -> None:
    player, _ = table.secrets()
    resp = table.client.post(f"/api/tables/{table.code}/actions", json=payload,
                             headers={"Authorization": f"Bearer {player}"})
    assert resp.status_code < 300, resp.data


def card_text(body: str, uid: str) -> str:
    """The card's form (the slot's fingerprint of a page drawn for one phone is its own)."""
    start = body.index(f'<form method="post"', body.index(f'id="card-{uid}"'))
    return body[start:body.index("</details>", start)]


def test_a_tap_on_one_unit_draws_its_card_again_and_no_other(app, fleet, drawn, monkeypatch):
    # the tests' check that also draws a board for every side for the phone's own side is off: it
    # would draw the tapped unit a second time (companion/side_marks.py)
    monkeypatch.setitem(app.config, "CHECK_CARDS", False)
    api(fleet, {"type": "add-tracker", "unit": "u1", "spec": {"id": "jump", "kind": "cooldown", "every": 2}})
    first = fleet.client.get(f"/t/{fleet.code}/poll?seq=0", headers=OPEN_ALL).data.decode()  # drawn afresh
    assert sorted(drawn) == ["u1", "u2", "u3"]
    drawn.clear()
    resp = fleet.client.post(f"/t/{fleet.code}/act", data={"csrf_token": fleet.csrf, "do": "adjust unit=u2 tracker=hp by=-3"},
                             headers=OPEN_ALL)
    assert resp.status_code == 200
    assert drawn == ["u2"]
    body = resp.data.decode()
    assert 'data-tracker="hp"' in card_text(body, "u2") and ">7<" in card_text(body, "u2")
    for uid in ("u1", "u3"):  # the kept cards are the cards
        assert card_text(body, uid) == card_text(first, uid)


def test_a_card_follows_the_round_it_reads_though_its_unit_did_not_change(fleet, drawn):
    api(fleet, {"type": "add-tracker", "unit": "u1", "spec": {"id": "jump", "kind": "cooldown", "every": 2}})
    api(fleet, {"type": "tracker", "unit": "u1", "tracker": "jump", "op": "use"})
    body = fleet.client.get(f"/t/{fleet.code}?open=*").data.decode()
    assert "ready again in round 3" in card_text(body, "u1")
    state = fleet.state()
    for _ in range(2 * len(state["phases"])):  # two rounds on
        api(fleet, {"type": "next-phase"})
    drawn.clear()
    body = fleet.client.get(f"/t/{fleet.code}?open=*").data.decode()
    assert "Ready · use" in card_text(body, "u1") and "ready again" not in card_text(body, "u1")
    assert "u1" in drawn


def test_a_card_reading_what_its_game_did_not_declare_is_caught(fleet, drawn, monkeypatch):
    """The check the whole test suite runs (COMPANION_CHECK_CARDS=1): a cooldown shows the round,
    so a card drawn without the round differs from the card drawn with the whole board."""
    api(fleet, {"type": "add-tracker", "unit": "u1", "spec": {"id": "jump", "kind": "cooldown", "every": 2}})
    api(fleet, {"type": "tracker", "unit": "u1", "tracker": "jump", "op": "use"})
    monkeypatch.setattr(kept_cards, "CORE_READS", tuple(r for r in kept_cards.CORE_READS
                                                        if r not in ("state.round", "state.tick")))
    kept_cards.reads_of.cache_clear()
    try:
        with pytest.raises(kept_cards.CardDrift, match="unit u1"):
            fleet.client.get(f"/t/{fleet.code}?open=*")
    finally:
        monkeypatch.undo()
        kept_cards.reads_of.cache_clear()


def test_a_kept_card_carries_each_phones_own_token(app, fleet, drawn):
    from tests.test_drawn_board import Phone
    player, _ = fleet.secrets()
    ada = Phone(app.test_client()).join(fleet.code, player, "Ada", "Red")
    fleet.client.get(f"/t/{fleet.code}?open=*")  # Anna's page draws the cards and keeps them
    drawn.clear()
    page = ada.client.get(f"/t/{fleet.code}?open=*").data.decode()
    assert drawn == []  # Ada's page took them
    tokens = set(re.findall(r'name="csrf_token" value="([^"]+)"', card_text(page, "u1")))
    assert tokens == {ada.csrf} and ada.csrf != fleet.csrf
    assert "drawn" not in card_text(page, "u1")  # no placeholder left in it


def test_the_kept_cards_are_bounded(app, fleet, drawn, monkeypatch):
    monkeypatch.setattr(kept_cards, "KEEP", 2)
    monkeypatch.setitem(app.config, "CHECK_CARDS", False)  # (its second board would draw them again)
    api(fleet, {"type": "next-phase"})  # a change no board was drawn for: the page draws one
    fleet.client.get(f"/t/{fleet.code}?open=*")
    assert len(drawn) == 3 and len(kept_cards._kept) == 2
