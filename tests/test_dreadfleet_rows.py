"""Dreadfleet's compact rows and phone wording (issue 10 §3-§5), as the server draws them: what a
ship's closed row says, when it offers "Fire", the docked auxiliaries folded into their warship's row,
the broadside's one-action fields, the example decks said plainly at set-up, no developer words."""
from __future__ import annotations

import html
import re

import pytest

from test_dreadfleet_actions import Game, text


@pytest.fixture
def game(app, table):
    return Game(app, table).create()


def board(game) -> str:
    return html.unescape(game.client.get(f"/t/{game.code}?open=*").get_data(as_text=True))


def tools(game) -> str:
    return html.unescape(game.client.get(f"/t/{game.code}/tools/game").get_data(as_text=True))


def summary(page: str, uid: str) -> str:
    """The closed row of one unit: its summary line, as markup."""
    m = re.search(rf'<details class="unitrow[^"]*" id="row-{uid}">\s*<summary class="rowline">(.*?)</summary>', page, re.S)
    # with its way into a tool, drawn beside the row (span.rowact, not inside the summary: issue 28 §7)
    end = page.find('<div class="unitbox"', m.end())
    act = re.search(r'<span class="rowact">.*?</span>', page[m.end():end if end > 0 else len(page)], re.S)
    return m.group(1) + (act.group(0) if act else "")


def words(markup: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", markup)).strip()


def uid(game, name):
    return game.unit(name)["id"]


def test_a_ships_row_says_hull_and_crew_left_its_conditions_and_what_is_docked_aboard(game):
    game.warship("Heldenhammer")  # Hull 6, Crew 4; its Grand Alliance Cog starts docked
    game.warship("Seadrake")  # two Dragons docked
    held = uid(game, "Heldenhammer")
    game.ok(do=f"adjust unit={held} tracker=hull_damage by=2")
    game.ok(do=f"adjust unit={held} tracker=crew_damage by=1")
    game.ok(do=f"adjust unit={held} tracker=speed_damage by=1")
    game.ok(type="tracker", unit=held, tracker="status", op="add", name="Set Ablaze")
    page = board(game)
    row = words(summary(page, held))
    assert row.startswith("Heldenhammer")
    assert "Hull 4/6" in row and "Crew 3/4" in row and "Speed 5/6" in row and "Set Ablaze" in row
    assert "Cog docked" in row
    assert "2 Dragons docked" in words(summary(page, uid(game, "Seadrake")))
    assert "Speed" not in words(summary(page, uid(game, "Seadrake")))  # only when damaged
    # the docked cog's own row is marked, so the board folds it into its warship's row
    cog = uid(game, "Grand Alliance Cog (Heldenhammer)")
    assert 'class="df-docked-row"' in summary(page, cog)
    assert "Hull" not in words(summary(page, cog))


def test_fire_is_on_the_row_of_the_ship_that_may_fire_now_and_chooses_it(game):
    game.ready()
    page = board(game)
    assert "df-fire" not in page  # the Initiative phase: nobody fires
    game.to_phase("Fate")
    game.ok(type="df-fate", side="Grand Alliance")
    game.ok(type="df-fate", side="Dreadfleet")
    game.to_phase("Action")
    held, reaver = uid(game, "Heldenhammer"), uid(game, "Bloody Reaver")
    assert "df-fire" not in board(game)  # nobody activated yet
    game.ok(do=f"df-activate unit={held}")
    page = board(game)
    assert f'<a class="btn small df-fire" href="#df-shot-card" data-pick=\'{{"firer": "{held}"}}\'>Fire</a>' in summary(page, held)
    assert "df-fire" not in summary(page, reaver)
    # in the open card, the activation's own links choose the ship in the tools too
    assert f'href="#df-shot-card" data-pick=\'{{"firer": "{held}"}}\'' in page
    assert f'href="#df-board-card" data-pick=\'{{"ships.{held}": "1"}}\'' in page
    game.ok(type="df-scenario", name="Bay raid", turns="6")
    game.ok(type="df-broadside", firer=held, target=reaver, distance="5", dice="6 5 3 1", save_dice="5 2 1")
    page = board(game)
    assert "df-fire" not in summary(page, held)  # one broadside an activation
    # the result sheet: hit dice, the saves as dice, the count (seed 002, Broadsides 5-7: first broadside
    # +1, so 4 dice at 3+ hit three times; Armour 5+ saves one)
    sheet = page[page.index('id="result"'):page.index("</section>", page.index('id="result"'))]
    assert '<small>saves 5+</small><span class="die">5</span><span class="die">2</span><span class="die">1</span>' in sheet
    assert "3 hits · 1 saved → 2 Damage cards" in words(sheet)
    assert "Bay raid" not in sheet  # the scenario is the battle report's headline, not every result's
    report = html.unescape(game.client.get(f"/t/{game.code}/report").get_data(as_text=True))
    assert "<strong>Bay raid</strong>, 6 turns" in report


def test_the_broadside_and_boarding_fields_of_one_action_are_emptied_after_it(game):
    game.ready()
    page = tools(game)
    shot = page[page.index('id="df-shot"'):page.index("</form>", page.index('id="df-shot"'))]
    for name in ("distance", "modifier", "dice", "save_dice"):
        assert re.search(rf'<input name="{name}"[^>]* data-clear[ >]', shot), name  # dice: dice_input's
    boarding = page[page.index('id="df-board"'):page.index("</form>", page.index('id="df-board"'))]
    assert re.search(r'<input name="dice"[^>]* data-clear>', boarding)
    assert "games/dreadfleet.js" in page  # keeps "Fire the broadside" under the thumb after it


def test_the_example_deck_is_said_to_be_one_at_set_up_with_the_real_deck_and_own_cards_offered(game):
    page = board(game)
    damage = re.search(r'<li class="[^"]*" data-df-deck="damage">(.*?)</li>', page, re.S).group(1)
    assert "Damage deck: not chosen yet." in words(damage)
    assert "Try the example (11 made-up cards)" in damage  # content/dreadfleet/decks/example-damage.toml
    assert 'value="deck-mode deck=damage mode=physical"' in damage
    assert 'href="#df-decklists" data-pick=\'{"deck": "damage"}\'' in damage
    game.ok(type="deck-load", deck="damage", definition="example-damage")
    game.ok(type="deck-load", deck="fate", definition="example-fate")
    page = board(game)
    damage = re.search(r'<li class="warn" data-df-deck="damage">(.*?)</li>', page, re.S).group(1)
    assert "the example deck, 11 made-up cards, not the real ones: it runs out within a game." in words(damage)
    assert "mode=physical" in damage and "#df-decklists" in damage and "Try the example" not in damage
    fate = re.search(r'<li class="warn" data-df-deck="fate">(.*?)</li>', page, re.S).group(1)
    assert "the example deck, 6 made-up cards" in words(fate)
    setup = re.search(r'<details class="df-setup"[^>]*>\s*<summary>(.*?)</summary>', page, re.S).group(1)
    assert "example Fate deck and Damage deck" in words(setup)
    game.ok(type="deck-mode", deck="damage", mode="physical")
    damage = re.search(r'<li class="ok" data-df-deck="damage">(.*?)</li>', board(game), re.S).group(1)
    assert words(damage) == "Damage deck: the real deck (record each card drawn)"


def test_one_truthful_wind_line_and_no_developer_words(game):
    game.warship("Heldenhammer")
    page = board(game)
    wind = re.search(r"<summary data-df-wind>(.*?)</summary>", page, re.S).group(1)
    assert words(wind) == "Wind gauge not placed yet"
    game.ok(type="df-wind-place", dice="3 4")
    wind = re.search(r"<summary data-df-wind>(.*?)</summary>", board(game), re.S).group(1)
    assert words(wind) == "Wind strength 1 · gauge at 34"  # seed 002, Wind Strength: 1 with no Fate card
    on_screen = words(board(game)) + " " + words(tools(game))
    for jargon in ("1 = yes", "0 = no", "seed 0", "example-damage", "example-fate"):
        assert jargon not in on_screen, jargon
    assert "· sail class" in board(game)  # the card says it in words (stats_line off)


def test_the_x_on_a_recorded_damage_card_discards_it_as_a_phone_sends_it(game):
    """Issue 43: with the real Damage deck, the × beside a Damage card on a ship sat in the card's form
    with the "Record Damage card" fields, so a browser sent card=<id> and card.type/card.value (a select
    always sends its choice): every press was refused ("card is sent both as a value and as a group of
    fields").  Pressed as a browser does, it moves the card to the discard."""
    from werkzeug.datastructures import MultiDict

    from html_forms import controls, default
    game.warship("Seadrake")
    game.ok(type="deck-mode", deck="damage", mode="physical")
    game.ok(type="df-damage", unit="u1", **{"card.name": "Holed", "card.type": "Hull", "card.value": "2"})
    (cid,) = game.state()["decks"]["damage"]["attached"]["u1"]
    press = next(c for c in controls(board(game)) if c.button.attrs.get("aria-label") == "discard Holed")
    sent = press.fields(default)
    assert [v for k, v in sent if k.startswith("card")] == []  # no Record fields ride along
    resp = game.client.post(press.url, data=MultiDict(sent), headers={"HX-Request": "true"})
    assert resp.status_code == 200, text(resp)[:300]
    deck = game.state()["decks"]["damage"]
    assert deck["attached"].get("u1", []) == [] and cid in deck["discard"]


def test_the_big_screen_draws_a_fate_card_recorded_without_its_wind_as_the_board_does(game):
    """Found by the random play (issue 43): a Fate card recorded from the real deck with the deck's own
    "Record draw" (no wind number on it) made the display answer 500 (the wind strength refused the
    card); the board shows "?" for it, and so does the big screen now."""
    game.warship("Seadrake")
    game.ok(type="deck-mode", deck="fate", mode="physical")
    game.ok(do="deck-record deck=fate", to="discard", **{"card.name": "Brace for impact"})
    assert "data-wind-strength>?<" in board(game)
    resp = game.client.get(f"/t/{game.code}/display")
    assert resp.status_code == 200 and "data-wind-strength>?<" in text(resp)


def test_the_fate_phase_draws_when_the_fate_deck_was_loaded_again_after_a_draw(game):
    """Found by the random play (issue 43): a Fate card drawn this turn, then the Fate deck loaded again
    (its cards replaced): the Fate phase's panel looked the drawn card up in the new deck and the
    board answered 500.  It says the card is no longer in the deck (as a brief respite refuses it)."""
    game.ready()
    game.to_phase("Fate")
    # (card c1 under the deck: the draw is random, and the one-card deck loaded below is c1 again, which
    # would be "found"; a drawn id that the new deck reuses is the case this panel cannot tell yet)
    game.ok(type="deck-move", deck="fate", card="c1", to="bottom")
    game.ok(type="df-fate", side="Grand Alliance")
    game.ok(type="deck-load", deck="fate", cards_text="Calm", source="typed")
    page = board(game)
    assert "Grand Alliance drew a Fate card that is no longer in the deck" in " ".join(re.sub(r"<[^>]+>", "", page).split())
