"""Empires of Dust on a phone's board (issue 10): each ship a compact row (HP now/max, burning,
conditions, equipment cooling down, fired) with "Fire" into the attack helper; HP changes by the
amount of a hit in one tap; the attack helper's one-shot inputs are emptied after a Fire; no seed
jargon on the screen."""
from __future__ import annotations

import re

from test_empires_of_dust_actions import Game, fleets, game, text  # noqa: F401 (fixtures)


def board(game):
    return game.client.get(f"/t/{game.code}?open=*").data.decode()


def row_of(page, uid):
    """The summary of one ship's row, and its way into a tool drawn beside it (span.rowact)."""
    start = page.index(f'id="row-{uid}"')
    end = page.find('<div class="unitbox"', start)
    box = page[start:end if end > 0 else len(page)]
    act = re.search(r'<span class="rowact">.*?</span>', box, re.S)
    return page[start:page.index("</summary>", start)] + (act.group(0) if act else "")


def test_every_ship_is_a_closed_row_with_its_hp_and_no_fire_outside_combat(fleets):
    page = board(fleets)
    assert len(re.findall(r'<details class="unitrow', page)) == 8
    assert not re.search(r'<details class="unitrow[^"]*" id="row-u\d+" open', page)
    battleship = row_of(page, "u4")
    assert "HP <b>80</b><small>/80</small>" in battleship  # seed 001, Ship Stats and Design: battleship 80
    assert "eod-rfire-link" not in battleship  # ships fire in the combat phase only


def test_fire_on_a_row_chooses_the_ship_in_the_attack_helper_and_says_when_it_has_fired(fleets):
    fleets.to_combat()
    page = board(fleets)
    destroyer = row_of(page, "u2")
    tools = fleets.client.get(f"/t/{fleets.code}/tools/game").data.decode()  # loaded right after the board
    assert 'href="#eod-attack-card"' in destroyer and 'id="eod-attack-card"' in tools
    assert """data-pick='{"target": "", "attacker": "u2"}'""" in destroyer
    fleets.fire("u2", "u5", distance=20, rolled="15")  # D20 > 6: 10 damage (seed 001, Armour Penetration)
    page = board(fleets)
    assert "fired" in row_of(page, "u2") and "eod-rfire-link" not in row_of(page, "u2")
    assert "HP <b>10</b><small>/20</small>" in row_of(page, "u5")
    assert "eod-rfire-link" in row_of(page, "u1")  # the others still may


def test_a_hit_of_ten_is_one_tap_with_the_amount_and_a_bad_amount_changes_nothing(fleets):
    # the card's Damage button sends the core adjust with the amount typed beside it
    page = board(fleets)
    assert 'name="amount" id="eod-amount-u4" data-clear' in page
    fleets.ok(control="unit-u4", do="adjust unit=u4 tracker=hp by=-1", amount="10")
    assert fleets.hp("u4") == 70
    fleets.ok(control="unit-u4", do="adjust unit=u4 tracker=hp by=1", amount="4")
    assert fleets.hp("u4") == 74
    fleets.ok(control="unit-u4", do="adjust unit=u4 tracker=hp by=1", amount="50")
    assert fleets.hp("u4") == 80  # never above its initial HP (seed 001, Transference)
    fleets.ok(control="unit-u4", do="adjust unit=u4 tracker=hp by=-1")
    assert fleets.hp("u4") == 79  # no amount: one point, as before
    fleets.refused("amount must be from 1 to 100000", control="unit-u4", do="adjust unit=u4 tracker=hp by=-1",
                   amount="0")
    fleets.refused("amount must be a whole number", control="unit-u4", do="adjust unit=u4 tracker=hp by=-1",
                   amount="ten")
    assert fleets.hp("u4") == 79


def test_the_row_shows_burning_conditions_and_equipment_cooling_down(fleets):
    fleets.to_combat()
    fleets.ok(control="unit-u1", do="tracker unit=u1 tracker=conditions op=add name=EMP")
    fleets.ok(control="unit-u6", do="adjust unit=u6 tracker=hp by=-1", amount="30")
    page = board(fleets)
    assert '<span class="rc">EMP</span>' in row_of(page, "u1")
    assert "destroyed at end of phase" in row_of(page, "u6")  # 0 HP: it still fires this phase


def test_the_attack_helper_empties_what_belongs_to_one_shot(fleets):
    fleets.to_combat()
    helper = text(fleets.client.get(f"/t/{fleets.code}/eod/attack", query_string={"attacker": "u2"}))
    for name in ("distance", "rolled", "hits.u5", "hit_dice.u5", "target_in", "attacker_in", "aura.range"):
        assert re.search(rf'name="{re.escape(name)}"[^>]*data-clear', helper), name
    assert not re.search(r'name="(attacker|weapon|target|shot)"[^>]*data-clear', helper)
    assert "hx-on" not in helper  # the CSP refuses inline handlers: the core's data-clear does it
    assert 'id="eod-fire"' in helper


def test_no_seed_jargon_on_the_board_or_in_the_helper(fleets):
    fleets.to_combat()
    page = board(fleets)
    helper = text(fleets.client.get(f"/t/{fleets.code}/eod/attack", query_string={"attacker": "u1", "target": "u2",
                                                                                          "distance": "10"}))
    for shown in (page, helper):
        words = re.sub(r"<[^>]+>", " ", shown)
        assert "seed 001" not in words and "seed deviation" not in words.lower() and "kept as printed" not in words
    assert "Only transference weapons fire at your own ships" in helper  # the rule, said without its citation


def test_the_result_sheet_shows_the_newest_outcome_not_every_ship_lost(fleets):
    fleets.to_combat()
    fleets.ok(control="unit-u5", do="adjust unit=u5 tracker=hp by=-1", amount="20")
    fleets.end_phase()  # at 0 HP at the end of the combat phase it is removed (seed 001, Combat Phase)
    fleets.ok(do="roll expr=1d20")
    page = board(fleets)
    sheet = page[page.index('id="result"'):page.index("</section>", page.index('id="result"'))]
    assert "1d20" in sheet and "Destroyed:" not in sheet
    assert "Destroyed: Avg. F." in text(fleets.client.get(f"/t/{fleets.code}/report"))  # the battle report keeps it
