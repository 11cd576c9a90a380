"""Issue 40 §10: recording a Damage card drawn from the real deck is a pick from the loaded deck list,
not a spelling test: two taps (the card, Record), nothing typed; the card lands on the ship with its
type and value from the list."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from phone_checks import open_card, two_players
from test_phone_pass_tv import COG, STATS

pytestmark = pytest.mark.browser


def test_a_damage_card_from_the_loaded_list_is_recorded_in_two_taps(live_server, phone):
    anna, ben = phone(), phone()
    two_players(anna, ben, live_server, "dreadfleet", "The Bay", ("Grand Alliance", "Dreadfleet"))
    code = anna.url.split("#")[0].rstrip("/").split("/")[-1]
    csrf = anna.locator("input[name=csrf_token]").first.get_attribute("value")

    def post(path, **form):
        r = anna.request.post(f"{live_server}/t/{code}/{path}", form={"csrf_token": csrf, **form})
        assert r.ok, r.text()[:300]
        return r.text()

    post("act", type="df-warship", name="Heldenhammer", sail="1", **{f"stats.{k}": str(v) for k, v in STATS.items()},
         **{f"aux.{k}": str(v) for k, v in COG.items()})
    page = post("dreadfleet/decks", deck="damage", name="Our damage", _control="df-deckdef",
                cards="Mast Shattered; Speed; 1; x2\nHull hit; Hull; 1; x10\nFire in the hold; Crew; 2; irreparable")
    item = re.findall(r"decks/(\d+)/load", page)[-1]
    post(f"dreadfleet/decks/{item}/load", _control="df-decks")
    post("act", type="deck-mode", deck="damage", mode="physical")
    anna.reload()
    row = open_card(anna, "Heldenhammer", exact=True)
    row.locator("details.df-more summary", has_text="Damage cards").click()
    taps = 0
    pick = row.get_by_label("Damage card drawn, from your deck list")
    pick.select_option(label="Mast Shattered (Speed)")
    taps += 1
    expect(row.get_by_label("Damage card name")).to_have_value("Mast Shattered")
    expect(row.get_by_label("type", exact=True)).to_have_value("Speed")
    row.get_by_role("button", name="Record Damage card").click()
    taps += 1
    expect(anna.locator(f"#u-{row.get_attribute('id').removeprefix('row-')} .card-on")).to_contain_text("Mast Shattered")
    assert taps == 2
    # an irreparable double from the list: its flag and value come with it
    expect(row.locator("details.df-more", has_text="Damage cards")).to_have_attribute("open", "")  # (kept open)
    pick = row.get_by_label("Damage card drawn, from your deck list")
    pick.select_option(label="Fire in the hold (Crew ×2, irreparable)")
    expect(row.get_by_label("value", exact=True)).to_have_value("2")
    expect(row.locator("input[name='card.irreparable']")).to_be_checked()
