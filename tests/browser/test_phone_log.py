"""The log page reads the same way on every line: on a phone each event's #seq, time and seat stand on
a line of their own above what happened; on a tablet they make a column beside it. Nothing runs off the
side of the screen."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from phone_checks import open_table, shots

pytestmark = pytest.mark.browser


def lines(page):
    """Each entry's meta line (#seq · time · seat) and label, as boxes on the screen."""
    return page.evaluate("""() => [...document.querySelectorAll('ol.log li')].map(li => {
        const box = el => { const r = el.getBoundingClientRect(); return {left: r.left, top: r.top, bottom: r.bottom}; };
        return {meta: box(li.querySelector('small')), label: box(li.querySelector('span'))}; })""")


def test_every_log_line_reads_alike_on_a_phone_and_a_tablet(live_server, phone):
    anna = phone()
    open_table(anna, live_server, name="The long siege", seat="Annabelle the Navigator")
    code = anna.url.split("#")[0].rstrip("/").split("/")[-1]
    csrf = anna.locator("input[name=csrf_token]").first.get_attribute("value")
    for expr in ("2d6", "4d6kh3+2", "d20", "3d6"):  # short labels (which used to share the meta line) and longer
        assert anna.request.post(f"{live_server}/t/{code}/act",
                                 form={"csrf_token": csrf, "type": "roll", "expr": expr, "why": "the long gun"}).ok
    assert anna.request.post(f"{live_server}/t/{code}/undo", form={"csrf_token": csrf}).ok  # a withdrawn line
    anna.goto(f"{live_server}/t/{code}/log")
    assert anna.locator("ol.log li.withdrawn").count() == 1

    entries = lines(anna)
    assert len(entries) >= 6
    for e in entries:  # the phone: the meta line above, what happened below, whatever its length
        assert e["label"]["top"] >= e["meta"]["bottom"] - 1, e
        assert e["label"]["left"] == pytest.approx(e["meta"]["left"], abs=1)
    assert anna.evaluate("document.documentElement.scrollWidth") <= 390
    anna.screenshot(path=str(shots("freeform") / "log-phone.png"))

    anna.set_viewport_size({"width": 820, "height": 1180})
    entries = lines(anna)
    for e in entries:  # the tablet: side by side, every label starting in the same column
        assert e["label"]["top"] < e["meta"]["bottom"], e
        assert e["label"]["left"] == pytest.approx(entries[0]["label"]["left"], abs=1)
    assert anna.evaluate("document.documentElement.scrollWidth") <= 820
    anna.screenshot(path=str(shots("freeform") / "log-tablet.png"))


def test_a_moves_time_reads_on_the_phones_own_clock(live_server, phone):
    """The server keeps each move's time in UTC; a phone in Berlin reads it on its own clock, in the
    language of its page, and a line that comes in live reads on the same clock."""
    from datetime import datetime, timedelta
    from zoneinfo import ZoneInfo

    anna = phone(timezone_id="Europe/Berlin")
    open_table(anna, live_server, name="Kiel", seat="Anna")
    code = anna.url.split("#")[0].rstrip("/").split("/")[-1]
    csrf = anna.locator("input[name=csrf_token]").first.get_attribute("value")
    assert anna.request.post(f"{live_server}/t/{code}/act", form={"csrf_token": csrf, "type": "roll", "expr": "2d6"}).ok
    anna.goto(f"{live_server}/t/{code}/log?lang=de")
    first = anna.locator("ol.log > li time").first
    top = int(anna.locator("ol.log > li").first.get_attribute("id")[1:])
    stored = first.get_attribute("datetime")
    berlin = datetime.fromisoformat(stored).astimezone(ZoneInfo("Europe/Berlin")).strftime("%H:%M:%S")
    assert berlin != stored[11:19]  # (UTC+1 or +2: the test can tell the clocks apart)
    expect(first).to_have_text(berlin)
    # a move made now comes in live at the top, on the same clock
    assert anna.request.post(f"{live_server}/t/{code}/act", form={"csrf_token": csrf, "type": "roll", "expr": "d20"}).ok
    expect(anna.locator(f"#e{top + 1}")).to_be_attached(timeout=5000)
    newest = anna.locator("ol.log > li time").first
    local = datetime.fromisoformat(newest.get_attribute("datetime")).astimezone(ZoneInfo("Europe/Berlin"))
    assert local - datetime.now(ZoneInfo("Europe/Berlin")) < timedelta(minutes=1)
    expect(newest).to_have_text(local.strftime("%H:%M:%S"))
