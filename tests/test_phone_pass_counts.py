"""Issue 40 §3: one way to count a track on every surface.  An Astral Action ship's Armor is said as the
boxes left of its size on the board's row, in its card, in the log, on the TV and in the battle report;
never the boxes filled on one and the boxes left on another."""
from __future__ import annotations

import html
import re

import pytest

from tests.test_astral_action_actions import Astral

SHIELDS = {"slot": "secondary", "item": "shields"}
ARMOR = {"slot": "primary", "item": "armor"}
KINETIC = {"slot": "primary", "item": "kinetic", "arcs": ["F"]}


@pytest.fixture
def aa(app, table):
    return Astral(app, table)


def words(page: str) -> str:
    """What a player reads: tags go ("<b>8</b><small>/10</small>" reads "8/10")."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S))).split())


def test_armor_is_counted_as_boxes_left_on_the_board_log_tv_and_report(aa):
    falcon = aa.ship("Falcon", 2, equipment=(KINETIC, SHIELDS, ARMOR))
    aa.ok(type="aa-damage", unit=falcon, amount="7")  # 5 Shield boxes, then 2 of the 10 Armor boxes
    get = aa.table.client.get
    surfaces = {"board": get(f"/t/{aa.code}?open=*"), "log": get(f"/t/{aa.code}/log"),
                "tv": get(f"/t/{aa.code}/display"), "report": get(f"/t/{aa.code}/report")}
    for name, resp in surfaces.items():
        assert resp.status_code == 200, name
        said = words(resp.get_data(as_text=True))
        armor = re.findall(r"armor:? (\d+)/10", said, re.I)
        assert not [n for n in armor if n != "8"], (name, armor, said[:600])
        assert "2/10" not in said, name
    assert re.search(r"armor 8/10 left", words(surfaces["log"].get_data(as_text=True)), re.I)
    assert re.search(r"Armor 8/10", words(surfaces["board"].get_data(as_text=True)))
