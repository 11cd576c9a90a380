"""Issue 40 §5: a stepper's + on an empty field starts from what the field shows (its placeholder), its
usual value or 0, not from its lowest value: one tap on + in Astral Action's Miss chart gave -10, so 2
took 13 taps; now it takes 2."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from phone_checks import open_table

pytestmark = pytest.mark.browser


def test_an_empty_chart_field_reaches_2_in_two_taps_and_minus_steps_below_0(live_server, phone):
    anna = phone()
    open_table(anna, live_server, "astral-action", "Designer", ready="#board")
    form = anna.locator("#aa-designer")
    miss, glance = form.locator("input[name='chart.miss']"), form.locator("input[name='chart.glance']")
    expect(miss).to_have_value("")
    plus = miss.locator("xpath=..").locator("button", has_text="+")
    plus.click()
    expect(miss).to_have_value("1")
    plus.click()
    expect(miss).to_have_value("2")
    expect(glance).to_have_value("")
    glance.locator("xpath=..").locator("button", has_text="\u2212").click()
    expect(glance).to_have_value("-1")  # the chart goes below 0 (its limits are the game's, -10 at the lowest)
