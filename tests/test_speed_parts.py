"""Issue 38: a change redraws the parts that read what changed, whatever the game.  Counted on the
load test's tables (scripts/load.py table_plan): the board's templates drawn per change, per view."""
from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

import load  # noqa: E402
from companion.board import draw as board_draw  # noqa: E402
from table_actions import csrf_of, sit  # noqa: E402

HX = {"HX-Request": "true"}


def _table(app, system: str):
    plan = load.table_plan(system)
    client = app.test_client()
    created = client.post("/api/tables", json={"system": system, "name": "Parts", "sides": plan["sides"]}).get_json()
    code, secret = created["code"], created["player_url"].rsplit("/", 1)[1]
    for step in plan["steps"]:  # as the table's maker, by its own seat's token (issue 37)
        assert client.post(f"/api/tables/{code}/actions", json=step,
                           headers={"Authorization": f"Bearer {created['seat_token']}"}).status_code == 200
    phones = []
    for name, side in (("A", plan["sides"][0]), ("B", plan["sides"][-1])):
        phone = app.test_client()
        sit(phone, code, secret, name, side)
        phones.append(phone)
    return plan, code, phones


def _drawn_during(monkeypatch, change) -> list:
    """The templates drawn during ``change()`` for a part not found in memory (the suite's check that
    draws every part served from memory again, COMPANION_CHECK_PARTS, is off meanwhile)."""
    monkeypatch.setattr(board_draw, "CHECK_PARTS", False)
    drawn = []
    plain = board_draw._render
    monkeypatch.setattr(board_draw, "_render",
                        lambda name, ctx, **extra: drawn.append((name, ctx.get("uid"))) or plain(name, ctx, **extra))
    change()
    monkeypatch.setattr(board_draw, "_render", plain)
    return drawn


@pytest.mark.parametrize("system", load.SYSTEMS)
def test_a_roll_that_names_no_unit_redraws_no_units_card(app, monkeypatch, system):
    """Talon's cards read the newest roll, the seq and the Undo label (to show the last result on the
    ship it names), so every roll at the table drew every card again, for every view: now a card reads
    only what the board says of its own unit (board/context.unit_results)."""
    plan, code, (a, b) = _table(app, system)
    for phone in (a, b):  # each view's board drawn and kept
        assert phone.get(f"/t/{code}/poll?seq=0", headers=HX).status_code == 200

    def roll():
        resp = a.post(f"/t/{code}/act", data={"csrf_token": csrf_of(a), "type": "roll", "expr": "2d6"}, headers=HX)
        assert resp.status_code == 200
        assert b.get(f"/t/{code}/poll?seq=0", headers=HX).status_code == 200
    drawn = _drawn_during(monkeypatch, roll)
    cards = sorted({uid for name, uid in drawn if name in ("_unit_card.html", "_unit_box.html")})
    assert cards == [], f"{system}: unit parts drawn again for a roll of the table's: {cards}"


def test_talons_result_is_on_the_card_of_the_ship_it_names_and_undo_says_what_it_takes_back(app):
    plan, code, (a, b) = _table(app, "talon")
    move = plan["moves"][0]
    resp = a.post(f"/t/{code}/act", data={"csrf_token": csrf_of(a), **load.move_form(move)}, headers=HX)
    assert resp.status_code == 200

    def card(uid: str) -> str:
        page = b.get(f"/t/{code}?open=*").get_data(as_text=True)
        start = page.index(f'id="card-{uid}"')
        return page[start:start + 8000]
    fired = re.search(r'data-tl-result>([^<]*)', card(move["target"]))
    assert fired and "Justice" in fired.group(1), card(move["target"])[:800]
    assert "data-tl-result" not in card("u3")  # a ship the fire did not name
    a.post(f"/t/{code}/act", data={"csrf_token": csrf_of(a), "type": "roll", "expr": "2d6"}, headers=HX)
    assert "data-tl-result" not in card(move["target"])  # no longer the last thing done


@pytest.mark.parametrize("system", load.SYSTEMS)
def test_a_games_signature_move_reaches_the_other_side_as_a_step_not_the_whole_board(app, system):
    """The game's panel and the decks are parts of the board: a move that changes them (a broadside
    draws Damage cards, an attack changes the game's panel) is a step of changed parts, which the live
    stream pushes, not the whole board that every phone then asks for (issue 38)."""
    plan, code, (a, b) = _table(app, system)
    seq = b.get(f"/t/{code}/poll?seq=0", headers=HX).headers.get("X-Board-Seq") or \
        re.search(r'data-seq="(\d+)"', b.get(f"/t/{code}").get_data(as_text=True)).group(1)
    resp = a.post(f"/t/{code}/act", data={"csrf_token": csrf_of(a), **load.move_form(plan["moves"][0])}, headers=HX)
    assert resp.status_code == 200
    step = b.get(f"/t/{code}/poll?seq={seq}", headers=HX)
    assert step.status_code == 200 and step.headers.get("HX-Reswap") == "none", \
        f"{system}: the other side got the whole board for one move"


@pytest.mark.parametrize("system", load.SYSTEMS)
def test_a_signature_move_redraws_the_cards_of_the_units_it_names_only(app, monkeypatch, system):
    """A hit on one ship redraws that ship's card, whatever the game (issue 38): Empires of Dust's card
    read all of ``state.game`` (an attack notes who fired), so each attack drew every card again, for
    every view, and with eight phones' different attacks no card's variants were enough to keep it.
    Now a dict inside the state is read key by key under its path (board/reads.py ``Watched``)."""
    plan, code, (a, b) = _table(app, system)
    for phone in (a, b):  # each view's board drawn and kept
        assert phone.get(f"/t/{code}/poll?seq=0", headers=HX).status_code == 200
    move = plan["moves"][-1]
    named = {move[k] for k in ("unit", "firer", "target", "attacker") if k in move} | {move["_open"]}
    named |= {move["shot"].split(":")[0]} if "shot" in move else set()

    def hit():
        resp = a.post(f"/t/{code}/act", data={"csrf_token": csrf_of(a), **load.move_form(move)}, headers=HX)
        assert resp.status_code == 200, resp.get_data(as_text=True)[:300]
        assert b.get(f"/t/{code}/poll?seq=0", headers=HX).status_code == 200
    drawn = _drawn_during(monkeypatch, hit)
    cards = {uid for name, uid in drawn if name in ("_unit_card.html", "_unit_box.html")}
    assert cards and cards <= named, f"{system}: {move['type']} named {sorted(named)}, drew the cards of {sorted(cards)}"
