"""Two phones stay in step when a poll brings only what changed (companion/board): the other
phone's board is not redrawn, only the unit rows and bars that changed, and its next poll asks from
the new seq; a row it has open stays open, with its card; an action's own answer is such a step."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from phone_checks import two_players
from test_phone_board import fill_table, row

pytestmark = pytest.mark.browser

SYNC = 5000


def test_a_change_reaches_the_other_phone_as_the_changed_rows_only(live_server, phone):
    anna, ben = phone(), phone()
    ben.route("**/live*", lambda route: route.abort("connectionrefused"))  # Ben polls (a stream pushes: test_live_push)
    two_players(anna, ben, live_server)
    fill_table(anna, live_server, per_side=2)
    ben.reload()
    expect(ben.locator("details.unitrow")).to_have_count(4)
    # a page load is not a kept board: the first change after it brings the whole board
    anna.request.post(f"{live_server}/t/{anna.url.rstrip('/').split('/')[-1]}/act", form={
        "csrf_token": anna.locator("input[name=csrf_token]").first.get_attribute("value"),
        "do": "adjust unit=u2 tracker=hp by=-1"})
    expect(row(ben, "Temeraire").locator("summary .rnums")).to_contain_text("HP 9/10", timeout=SYNC)
    expect(row(anna, "Temeraire").locator("summary .rnums")).to_contain_text("HP 9/10", timeout=SYNC)  # her board too
    bellona = row(ben, "Bellona")
    bellona.locator("summary.rowline").click()  # Ben reads one of his units
    ben.evaluate("window.__board = document.getElementById('board')")
    deltas = []
    ben.on("response", lambda r: deltas.append(r.headers.get("x-board-seq")) if "/poll" in r.url else None)

    victory = row(anna, "Victory")
    victory.locator("summary.rowline").click()
    for n in (9, 8, 7):  # three changes, each reaching Ben as a delta from the seq before
        victory.get_by_label("HP minus one").click()
        expect(victory.locator("summary .rnums")).to_contain_text(f"HP {n}/10")
        expect(row(ben, "Victory").locator("summary .rnums")).to_contain_text(f"HP {n}/10", timeout=SYNC)
        expect(ben.locator("[data-undo-label]")).to_contain_text(f"Victory HP -1 ({n + 1} → {n})")
    assert ben.evaluate("document.getElementById('board') === window.__board")  # never redrawn whole
    assert len([d for d in deltas if d]) >= 3, deltas
    seq = int(anna.locator("#board").get_attribute("data-seq"))
    assert ben.locator("#board").get_attribute("data-seq") == str(seq)
    expect(bellona).to_have_attribute("open", "")

    # a unit of Ben's own: its row is swapped while open, and stays open
    red = row(anna, "Bellona")
    red.locator("summary.rowline").click()
    red.get_by_label("HP minus one").click()
    expect(row(ben, "Bellona").locator("summary .rnums")).to_contain_text("HP 9/10", timeout=SYNC)
    expect(row(ben, "Bellona")).to_have_attribute("open", "")

    # Ben acts on the board he has (X-Board-Seq: one change behind at most): his own answer is a step
    # too, the board stays, his open card is redrawn in it, the button he tapped stays under his thumb
    minus = row(ben, "Bellona").get_by_label("HP minus one")
    # (mid-screen first: a button under the bottom bar would be scrolled to by the click itself)
    minus.evaluate("b => b.scrollIntoView({block: 'center'})")
    top = minus.bounding_box()["y"]
    answers = []
    ben.on("response", lambda r: answers.append(r.headers.get("x-board-seq")) if r.url.endswith("/act") else None)
    minus.click()
    expect(row(anna, "Bellona").locator("summary .rnums")).to_contain_text("HP 8/10", timeout=SYNC)
    expect(row(ben, "Bellona").locator("summary .rnums")).to_contain_text("HP 8/10")
    expect(row(ben, "Bellona").locator(".tracker[data-tracker=hp] [data-value]")).to_have_text("8")
    assert answers and answers[-1] == anna.locator("#board").get_attribute("data-seq"), answers
    assert ben.evaluate("document.getElementById('board') === window.__board")  # still never redrawn whole
    expect(ben.locator("#board")).to_have_attribute("data-seq", answers[-1])
    assert abs(row(ben, "Bellona").get_by_label("HP minus one").bounding_box()["y"] - top) < 2
    expect(row(ben, "Bellona")).to_have_attribute("open", "")
