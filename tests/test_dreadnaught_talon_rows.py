"""Dreadnaught's and Talon's compact rows and open cards as the server draws them (issue 10 §3-5): the
numbers that matter in each game's row, the unit's way into its tool, one-action inputs marked to clear,
words players use."""
from __future__ import annotations

import html
import json
import re


def board(table):
    return table.client.get(f"/t/{table.code}?open=*").data.decode()


def summary(page, uid):
    """The closed row's text, and its markup."""
    m = re.search(rf'<details class="unitrow[^"]*" id="row-{uid}">\s*<summary class="rowline">(.*?)</summary>', page, re.S)
    assert m, f"no row for {uid}"
    # its way into a tool is drawn beside the row, after it (span.rowact: not inside the summary)
    end = page.find('<div class="unitbox"', m.end())
    act = re.search(r'<span class="rowact">.*?</span>', page[m.end():end if end > 0 else len(page)], re.S)
    return html.unescape(" ".join(re.sub(r"<[^>]+>", " ", m.group(1)).split())), m.group(1) + (act.group(0) if act else "")


def card(page, uid):
    start = page.index(f'id="row-{uid}"')
    return page[start:page.index("</details>\n", page.index(f'id="unit-{uid}"'))]


def four_player_battle(table):
    table.create(system="dreadnaught", sides="Anna, Ben, Cleo, Dan", side="Anna")
    assert table.act(do="dn-setup").status_code == 200
    return {u["side"]: uid for uid, u in table.state()["units"].items()}


def test_dreadnaught_ships_are_rows_with_hp_hand_deck_and_a_way_into_card_burn(table):
    ships = four_player_battle(table)
    ben = ships["Ben"]
    assert table.act(do=f"dn-damage ship={ben}", amount="5").status_code == 200
    text, markup = summary(board(table), ben)
    assert text.startswith("Ben's Dreadnaught")
    assert "HP 19 /24" in text and "Hand 6" in text and "Deck 30" in text
    # the row's Burn opens the Card Burn tool with Ben's ship chosen (core data-pick)
    link = re.search(r'<a class="btn small dn-rowtool" href="#dn-burn-tool" data-pick=\'([^\']+)\'', markup)
    assert link and json.loads(html.unescape(link.group(1))) == {"ship": "Ben"}


def test_dreadnaught_row_shows_ready_cards_and_face_up_upgrades(table):
    ships = four_player_battle(table)
    cleo = ships["Cleo"]
    assert table.act(do=f"dn-upgrades ship={cleo}", upgrades="Shield Array, Ion Drive").status_code == 200
    for phase in range(2):   # Draw -> Power Management -> Ready
        state = table.state()
        table.act(do=f"next-phase expect_round={state['round']} expect_phase={state['phase']}")
    assert table.act(do=f"dn-ready ship={cleo}", card="Nova Lance", slot="3").status_code == 200
    text, _ = summary(board(table), cleo)
    assert "1 Ready" in text and "2 Upgrades up" in text


def test_dreadnaught_draw_says_what_it_draws_and_never_offers_a_draw_of_0(table):
    ships = four_player_battle(table)
    ben, anna = ships["Ben"], ships["Anna"]
    page = board(table)
    assert "Draw 0" not in page and "→ hand" not in page
    assert "Hand full: nothing to draw." in card(page, ben)
    assert table.act(do="dn-card-burn", ship="Ben", amount="2", hand_cards="2").status_code == 200
    assert "Draw 2 cards (hand 6)" in card(board(table), ben)
    assert "Hand full: nothing to draw." in card(board(table), anna)


def test_dreadnaught_one_action_inputs_clear_after_their_action(table):
    ships = four_player_battle(table)
    page = board(table)
    amount = re.search(rf'<input [^>]*id="dn-amount-{ships["Ben"]}"[^>]*>', page).group(0)
    assert "data-clear" in amount and "hx-preserve" in amount
    tools = table.client.get(f"/t/{table.code}/tools/game", headers={"HX-Request": "true"}).data.decode()
    burn = tools[tools.index('id="dn-burn"'):tools.index("</form>", tools.index('id="dn-burn"'))]
    for name in ("amount", "hand_cards", "hand_primary", "tokens", "revealed"):
        assert re.search(rf'<input name="{name}" data-clear', burn), name
    assert "hx-on" not in tools  # the core clears [data-clear] fields, no inline handlers


def test_dreadnaught_words_on_screen(table):
    four_player_battle(table)
    page = board(table)
    assert "seed 000" not in page and "seed 00" not in page


def talon_fleet(table):
    table.create(system="talon", name="War", side="Terran")
    for cls, name in (("terran-ca", "Zhukov"), ("talon-ca", "Justice")):
        assert table.act(do="talon-ship", cls=cls, name=name).status_code == 200
    return {u["name"]: uid for uid, u in table.state()["units"].items()}


def test_talon_ships_are_rows_with_hull_shields_power_and_speed(table):
    ships = talon_fleet(table)
    zhukov = ships["Zhukov"]
    assert table.act(do=f"talon-damage unit={zhukov} arc=F", amount="2").status_code == 200
    page = board(table)
    text, markup = summary(page, zhukov)
    assert text.startswith("Zhukov")
    assert "Hull 6 /6" in text and "F 4 R 5 Rear 4 L 5" in text and "P 3 S 3" in text
    assert re.search(r'<span class="hit">F<b>4</b></span>', markup)  # the arc that took the hit stands out
    assert "tl-rowfire" not in markup  # nothing ready to fire: no Fire
    assert "fan implementation" not in page and "FAN " not in page and "TALON.md" not in page


def test_talon_has_one_afterburner_button_and_other_damage_in_the_card(table):
    ships = talon_fleet(table)
    justice = ships["Justice"]
    page = card(board(table), justice)  # impulse A: a 3-3-1 does not move, it may burn
    assert len(re.findall(r">Afterburner: 1 hex \(2 left\)</button>", page)) == 1
    assert ">Straight</button>" not in page and ">Turn</button>" not in page
    dmg = re.search(r'<div class="row tl-dmg" data-tl-damage>.*?</div>', page, re.S).group(0)
    assert "data-clear" in dmg and 'name="amount"' in dmg
    assert page.index("data-tl-damage") < page.index('<details class="tl-counter">')
    # the afterburner moves it the way chosen beside the button
    assert table.act(do=f"talon-move unit={justice} afterburner=1", how="straight").status_code == 200
    assert "Justice moves straight" in board(table)
