"""Issue 40 §10 in the fleet editor: after saving the Bloody Reaver (a Cog) the editor goes on to the
next warship that has an auxiliary, its Cog's numbers still there; choosing the Shadewraith (none)
switches the auxiliary's card off without emptying it, so the next warship still has the numbers."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from phone_checks import open_table
from test_phone_pass_tv import COG, STATS

pytestmark = pytest.mark.browser


def test_saving_a_warship_keeps_the_auxiliary_numbers_for_the_next(live_server, phone):
    anna = phone()
    open_table(anna, live_server, "dreadfleet", "Editor", "Dreadfleet", ready="#df-panel")
    editor = anna.locator("#df-editor")
    editor.locator("select[name=name]").select_option("Bloody Reaver")
    for k, v in STATS.items():
        editor.locator(f"input[name='stats.{k}']").fill(str(v))
    for k, v in COG.items():
        editor.locator(f"input[name='aux.{k}']").fill(str(v))
    editor.get_by_role("button", name="Save Warship card").click()
    expect(anna.locator("#df-cards")).to_contain_text("Bloody Reaver")
    expect(editor.locator("select[name=name]")).to_have_value("Curse of Zandri")  # not the Shadewraith
    expect(editor.locator("input[name='aux.hull']")).to_have_value("2")
    expect(editor.locator("input[name='aux.hull']")).to_be_enabled()
    editor.locator("select[name=name]").select_option("Shadewraith")
    expect(editor.locator("input[name='aux.hull']")).to_be_disabled()  # not sent for it
    expect(editor.locator("input[name='aux.hull']")).to_have_value("2")  # nor emptied
    editor.locator("select[name=name]").select_option("Skabrus")
    expect(editor.locator("input[name='aux.hull']")).to_be_enabled()
    expect(editor.locator("input[name='aux.crew']")).to_have_value("2")
