"""Astral Action on a phone (issue 10), as the server draws it: each ship a compact row (Shields,
Armor, Health left, Conditions, sealed/revealed Orders, formation) opening into its card; the row's
"Attack" chooses the ship in the attack form; the attack's result and its Apply button in the
result sheet; one-attack inputs marked to empty; no line numbers of the rules on the board."""
from __future__ import annotations

import html
import json
import re

import pytest

from tests.test_astral_action_actions import Astral, text

SECRET = "Evasive Actions"
SHIELDS = {"slot": "secondary", "item": "shields"}
ARMOR = {"slot": "primary", "item": "armor"}
KINETIC = {"slot": "primary", "item": "kinetic", "arcs": ["F"]}


@pytest.fixture
def aa(app, table):
    return Astral(app, table)


def row_of(page: str, uid: str) -> str:
    """The closed row's summary of one unit, tags removed."""
    m = re.search(rf'<details class="unitrow[^"]*" id="row-{uid}">\s*<summary class="rowline">(.*?)</summary>', page, re.S)
    # with its way into a tool, drawn beside the row (span.rowact, not inside the summary: issue 28 §7)
    end = page.find('<div class="unitbox"', m.end())
    act = re.search(r'<span class="rowact">.*?</span>', page[m.end():end if end > 0 else len(page)], re.S)
    return m.group(1) + (act.group(0) if act else "")


def words(fragment: str) -> str:
    """The text a player reads: tags go, "<b>5</b><small>/5</small>" reads "5/5"."""
    return " ".join(html.unescape(re.sub(r"<(?!/?(?:b|small)\b)[^>]+>", " ", fragment)
                                  .replace("<b>", "").replace("</b>", "").replace("<small>", "")
                                  .replace("</small>", "")).split())


def board(phone, code) -> str:
    return phone.client.get(f"/t/{code}?open=*").data.decode()


def test_a_ship_row_shows_shields_armor_health_conditions_and_opens_into_its_card(aa):
    falcon = aa.ship("Falcon", 2, equipment=(KINETIC, SHIELDS, ARMOR))
    aa.ok(type="aa-damage", unit=falcon, amount="17", why="Dangerous 1")  # 5 Shields, 10 Armor, 2 Health
    page = board(aa.table, aa.code)
    line = words(row_of(page, falcon))
    assert "Falcon" in line and "Shields 0/5" in line and "Armor 0/10" in line and "Health 18/20" in line
    card = page[page.index(f'id="row-{falcon}"'):page.index("</details>", page.index(f'id="unit-{falcon}"'))]
    assert f'id="unit-{falcon}"' in card and "data-aa-track" in card  # the full card is inside the row
    aa.ok(type="aa-damage", unit=falcon, amount="8")  # the first health row fills: a Condition to roll
    assert "1 Condition to roll" in words(row_of(board(aa.table, aa.code), falcon))
    aa.ok(type="aa-condition", unit=falcon, dice="3 4")
    aa.ok(type="aa-apply-condition", unit=falcon, pick="0")
    line = words(row_of(board(aa.table, aa.code), falcon))
    assert "Serious Damage" in line and "Condition to roll" not in line and "Health 8/20" in line  # 7: 2 more (L100)


def test_the_row_marks_a_sealed_order_without_its_text_on_either_phone_until_revealed(aa):
    falcon = aa.ship("Falcon", 2)
    aa.ok(type="aa-order", unit=falcon, order=SECRET, hidden="1")
    for phone in (aa.table, aa.ben):
        line = row_of(board(phone, aa.code), falcon)
        assert "data-row-sealed" in line and "sealed" in words(line)
        assert SECRET not in line  # never in the row, not even for the side that sealed it
    assert SECRET not in board(aa.ben, aa.code)  # and nowhere on the other side's page
    part = next(iter(aa.state()["sealed"]))
    aa.ok(do=f"reveal id={part}")
    for phone in (aa.table, aa.ben):
        line = words(row_of(board(phone, aa.code), falcon))
        assert SECRET in line and "sealed" not in line


def test_a_plain_sealed_order_revealed_shows_its_text_and_the_board_still_draws(aa):
    """Issue 43: the core's "seal" (a free text, no Astral Action Order in it) revealed made every
    board answer 500 (the row read the secret's "order", which only an aa-order has), Next and Undo
    with it; the row shows the text the player wrote."""
    falcon = aa.ship("Falcon", 2)
    aa.ok(do=f"seal unit={falcon}", text="Brace", control=f"seal-{falcon}")
    part = next(iter(aa.state()["sealed"]))
    aa.ok(do=f"reveal id={part}")
    for phone in (aa.table, aa.ben):
        resp = phone.client.get(f"/t/{aa.code}?open=*")
        assert resp.status_code == 200
        line = words(row_of(resp.data.decode(), falcon))
        assert "Brace" in line and "sealed" not in line


def test_the_row_shows_the_formation_and_activation(aa):
    lead = aa.ship("Falcon", 2)
    wing = aa.ship("Kestrel", 1)
    aa.ok(type="aa-formation", lead=lead, kind="defensive", **{f"members.{lead}": "1", f"members.{wing}": "1"})
    page = board(aa.table, aa.code)
    assert "Formation lead" in words(row_of(page, lead)) and "Formation (Falcon)" in words(row_of(page, wing))
    aa.to_phase("Activation")
    aa.ok(type="aa-activate", unit=lead)
    assert 'class="ract"' in row_of(board(aa.table, aa.code), lead)


def test_attack_on_a_ship_chooses_its_first_ready_weapon_for_its_own_side_only(aa):
    falcon = aa.ship("Falcon", 2, equipment=(SHIELDS, KINETIC, {"slot": "secondary", "item": "kinetic", "arcs": ["A"]}))
    raven = aa.ship("Raven", 1, side="Player 2")
    assert "aa-fire" not in row_of(board(aa.table, aa.code), falcon)  # the Command phase: nobody attacks (L75)
    aa.to_phase("Activation")
    aa.ok(phone=aa.ben, type="aa-activate", unit=raven)
    assert "aa-fire" not in row_of(board(aa.table, aa.code), raven)  # Anna does not fire Ben's ship
    assert "aa-fire" in row_of(board(aa.ben, aa.code), raven)  # Raven's activation (L141)
    assert "aa-fire" not in row_of(board(aa.table, aa.code), falcon)  # not Falcon's yet
    aa.ok(type="aa-activate", unit=falcon)
    link = re.search(r'<a class="btn small aa-fire" href="#aa-attack-card" data-pick=\'([^\']+)\'>Attack</a>',
                     row_of(board(aa.table, aa.code), falcon))
    assert json.loads(html.unescape(link.group(1))) == {"shot": f"{falcon}:1"}  # equipment 0 is the Shields
    assert "aa-fire" not in row_of(board(aa.ben, aa.code), raven)  # Raven's activation is over (L143)
    aa.ok(type="aa-attack", shot=f"{falcon}:1", target=raven, dice="6 6")
    aa.ok(type="aa-apply-attack")
    assert f'"shot": "{falcon}:2"' in html.unescape(row_of(board(aa.table, aa.code), falcon))  # the next one (L77)
    aa.ok(type="aa-attack", shot=f"{falcon}:2", target=raven, dice="1 1")
    aa.ok(type="aa-apply-attack")
    assert "aa-fire" not in row_of(board(aa.table, aa.code), falcon)  # every weapon has attacked this turn


def test_the_attack_result_and_its_apply_button_are_in_the_sheet_on_both_phones(aa):
    falcon = aa.ship("Falcon", 2)
    raven = aa.ship("Raven", 1, side="Player 2")
    aa.to_phase("Activation")
    aa.ok(phone=aa.ben, type="aa-activate", unit=raven)
    aa.ok(phone=aa.ben, type="aa-attack", shot=f"{raven}:0", target=falcon, dice="6 6")
    for phone in (aa.table, aa.ben):
        page = board(phone, aa.code)
        sheet = page[page.index('id="result"'):page.index("</section>", page.index('id="result"'))]
        assert "HIT · 5 damage" in words(sheet)  # d6 6 + (2 - 1) = 7 > glance 4; damage 6 + (1 - 2) = 5 (L86-L89)
        assert "Apply 5 damage to Falcon" in words(sheet)
    report = aa.client.get(f"/t/{aa.code}/report")  # the report includes games/<slug>/_result.html too, without r
    assert report.status_code == 200 and "data-aa-sheet" not in report.data.decode()
    resp = aa.ok(phone=aa.ben, control="aa-sheet", do="aa-apply-attack")
    assert 'id="result"' not in text(resp)  # applied: nothing left to decide
    assert aa.ship_state(falcon)["rows"][0]["filled"] == 5
    aa.folds()


def test_one_attack_inputs_empty_after_it_and_the_board_cites_no_rule_lines(aa):
    falcon = aa.ship("Falcon", 2)
    tools = aa.client.get(f"/t/{aa.code}/tools/game").data.decode()
    attack = tools[tools.index('id="aa-attack"'):tools.index("</form>", tools.index('id="aa-attack"'))]
    for name in ("dice", "obscuring", "accuracy", "damage", "extra_pws", "formation"):
        assert re.search(rf'<input name="{name}"[^>]* data-clear', attack), name  # the dice: dice_input's
    assert 'name="marked" value="1" data-aa-untick' in attack and "aa-one-action" in attack
    hurt = tools[tools.index('id="aa-damage"'):tools.index("</form>", tools.index('id="aa-damage"'))]
    assert all(re.search(rf'<input name="{n}" data-clear', hurt) for n in ("per_size", "amount", "why"))
    aa.ok(type="aa-damage", unit=falcon, amount="12")
    page = board(aa.table, aa.code)
    shown = re.sub(r"<select\b.*?</select>|title=\"[^\"]*\"", "", page, flags=re.S)
    assert not re.search(r"\(L\d{2,3}", words(shown)), re.findall(r".{40}\(L\d{2,3}.{10}", words(shown))
    assert "seed" not in words(shown).lower()


def test_the_readings_of_the_draft_rules_are_named_in_words_not_numbers(aa):
    tools = words(aa.client.get(f"/t/{aa.code}/tools/game").data.decode())
    assert "Ship Size in the formulas: the target's" in tools and "Use: the attacker's" in tools
    assert "Damage order: Shields, Armor, Health" in tools and "Use: Armor, Shields, Health" in tools
    assert "Switch to 1" not in tools and "now 0" not in tools
    aa.ok(do="aa-setting setting=size_reading value=1")
    tools = words(aa.client.get(f"/t/{aa.code}/tools/game").data.decode())
    assert "Ship Size in the formulas: the attacker's" in tools and "Use: the target's" in tools
