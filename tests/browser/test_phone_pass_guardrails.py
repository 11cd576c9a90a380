"""Issue 40 §8: Next ▶ does not leave the Activation phase with a ship not yet activated, or an attack
not applied, without a word: the phone asks, names them, and the table stays unless the player says so."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from phone_checks import two_players
from test_phone_pass_held import SHIP, Api

pytestmark = pytest.mark.browser


def test_next_asks_before_leaving_ships_not_activated(live_server, phone):
    anna, ben = phone(), phone()
    two_players(anna, ben, live_server, "astral-action", "Guardrails", ("Player 1", "Player 2"))
    api = Api(anna, live_server)
    api.act(type="aa-ship", side="Player 1", card={**SHIP, "name": "Raven"})
    api.act(type="aa-ship", side="Player 2", card={**SHIP, "name": "Falcon"})
    api.act(type="next-phase")
    api.act(type="aa-activate", unit=api.units()["Raven"])
    expect(anna.locator("#turn [data-phase]")).to_have_text("Activation")
    anna.answer_yes = False
    anna.locator("nav.bar #next button").click()
    anna.wait_for_timeout(500)
    assert anna.dialogs and "Falcon has not activated this turn." in anna.dialogs[-1], anna.dialogs
    assert "Raven" not in anna.dialogs[-1]
    expect(anna.locator("#turn [data-phase]")).to_have_text("Activation")  # said no: the table stays
    anna.answer_yes = True
    anna.locator("nav.bar #next button").click()
    expect(anna.locator("#turn [data-phase]")).to_have_text("Resolution")
    # with nothing left undone, Next asks nothing
    asked = len(anna.dialogs)
    anna.locator("nav.bar #next button").click()
    expect(anna.locator("#turn [data-phase]")).to_have_text("Command")
    assert len(anna.dialogs) == asked


def test_take_back_of_another_seats_move_asks_first_as_undo_does(live_server, phone):
    anna, ben = phone(), phone()
    two_players(anna, ben, live_server, "astral-action", "Guardrails", ("Player 1", "Player 2"))
    Api(ben, live_server).act(type="aa-ship", side="Player 2", card={**SHIP, "name": "Falcon"})  # Ben's move
    Api(anna, live_server).act(type="aa-ship", side="Player 1", card={**SHIP, "name": "Raven"})  # Anna's own
    code = anna.url.split("#")[0].rstrip("/").split("/")[-1]
    anna.goto(f"{live_server}/t/{code}/log")
    bens = anna.locator("li", has_text="Falcon").first
    bens.locator("summary").click()
    anna.answer_yes = False
    bens.get_by_role("button", name="Take back this move").click()
    anna.wait_for_timeout(500)
    assert anna.dialogs == ["This is Ben's move. Take it back?"], anna.dialogs
    expect(anna.locator("li", has_text="Falcon").first).not_to_contain_text("taken back")  # said no: it stays
    own = anna.locator("li", has_text="Raven").first
    own.locator("summary").click()
    own.get_by_role("button", name="Take back this move").click()  # her own: no question
    expect(anna.locator("li", has_text="took back")).to_have_count(1)
    assert len(anna.dialogs) == 1


def test_a_refused_take_back_opens_the_log_at_its_move_with_the_offer_in_view(live_server, phone):
    anna, ben = phone(), phone()
    two_players(anna, ben, live_server, "astral-action", "Guardrails", ("Player 1", "Player 2"))
    api = Api(anna, live_server)
    api.act(type="aa-ship", side="Player 1", card={**SHIP, "name": "Raven"})
    api.act(type="aa-ship", side="Player 2", card={**SHIP, "name": "Falcon"})
    units = api.units()
    api.act(type="aa-damage", unit=units["Raven"], amount="1")  # needs Raven on the table
    for _ in range(25):  # a log long enough that Raven's arrival is far below the top
        api.act(type="roll", expr="d6")
    code = anna.url.split("#")[0].rstrip("/").split("/")[-1]
    anna.goto(f"{live_server}/t/{code}/log")
    raven = anna.locator("ol.log > li", has_text="Raven (Size").first
    raven.locator("summary").click()
    raven.get_by_role("button", name="Take back this move").click()
    offer = anna.get_by_role("button", name="Take back #")
    expect(offer).to_be_visible()
    box = offer.bounding_box()
    assert 0 <= box["y"] and box["y"] + box["height"] <= anna.viewport_size["height"], box  # in view, not at the top
