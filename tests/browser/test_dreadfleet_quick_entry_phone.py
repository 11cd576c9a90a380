"""Issue 40 §10: each Dreadfleet warship was 13 number fields to type.  The fleet editor takes the card on
one line (typed, or pasted from a club's list): Fill puts it into the 13 fields to check, Save keeps it.
Counted here, as a thumb does it: the line is 1 tap on the field, its characters and 1 tap on Fill, against
13 taps (one into each field) or, with the steppers alone, 51 taps for this card."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from phone_checks import assert_fits_a_phone, open_table, shots
from test_phone_axe import axe_scan

pytestmark = pytest.mark.browser

LINE = "6 3 4 5 8 4 4 3 / 5 2 5 2 2"  # a player's own card, in the card's order (no number comes from the app)
WANT = {"stats.speed": "6", "stats.handling": "3", "stats.broadside": "4", "stats.armour": "5", "stats.hull": "8",
        "stats.crew": "4", "stats.command": "4", "stats.swashbuckling": "3",
        "aux.speed": "5", "aux.broadside": "2", "aux.armour": "5", "aux.hull": "2", "aux.crew": "2"}


def test_a_warship_card_on_one_line(live_server, phone):
    anna = phone()
    open_table(anna, live_server, "dreadfleet", "Quick cards", ready="#df-panel")
    editor = anna.locator("#df-editor")
    editor.locator("select[name=name]").select_option("Heldenhammer")
    # what one typed line saves the player: taps and keys, against one field at a time and the steppers
    steps = {k: int(v) - (1 if k.endswith("armour") else 0) for k, v in WANT.items()}  # (Armour's + starts at 1)
    taps = {"fields": len(WANT), "steppers": sum(steps.values()), "line": 2}
    keys = {"fields": sum(len(v) for v in WANT.values()), "line": len(LINE)}
    print("taps", taps, "characters", keys)
    assert taps["line"] < taps["fields"] < taps["steppers"]

    anna.locator("#df-quick").click()
    anna.locator("#df-quick").press_sequentially(LINE)
    editor.get_by_role("button", name="Fill").click()
    editor = anna.locator("#df-editor")
    for name, value in WANT.items():  # every field shows what the line gave, before anything is saved
        expect(editor.locator(f"input[name='{name}']")).to_have_value(value)
    expect(editor.locator("select[name=name]")).to_have_value("Heldenhammer")
    expect(anna.locator("#df-quick")).to_have_value("")
    expect(editor.locator(".stepper")).to_have_count(13)  # the fields drawn again keep their steppers
    anna.locator("#df-quick").scroll_into_view_if_needed()
    anna.screenshot(path=str(shots("dreadfleet") / "editor-quick.png"))
    axe_scan(anna, "the fleet editor after Fill")
    assert_fits_a_phone(anna, "#df-editor .stepper button, #df-editor button")
    editor.get_by_role("button", name="Save Warship card").click()
    expect(anna.locator("#df-cards")).to_contain_text("Heldenhammer")

    # a line it cannot read is said in words next to it, and nothing typed is lost
    anna.locator("#df-quick").fill("Speed 6 Wings 3")
    anna.locator("#df-editor").get_by_role("button", name="Fill").click()
    expect(anna.locator("#df-editor-err")).to_contain_text("'Wings' names no characteristic")
    expect(anna.locator("#df-quick")).to_have_value("Speed 6 Wings 3")

    # Save reads the line too (no Fill first): the next warship, from its own card
    anna.locator("#df-editor select[name=name]").select_option("Bloody Reaver")
    anna.locator("#df-quick").fill("7 2 4 5 9 5 3 4 / 5 2 5 2 2")
    anna.locator("#df-editor").get_by_role("button", name="Save Warship card").click()
    expect(anna.locator("#df-cards")).to_contain_text("Bloody Reaver")
