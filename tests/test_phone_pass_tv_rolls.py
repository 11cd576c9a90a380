"""Issue 40 §6: the TV's roll panel.  It keeps the last few rolls (the newest taken back no longer
leaves "No rolls yet."), says MISS / GLANCE / HIT as Astral Action calls it beside the odds, and says
whether the attack has been applied, changing when it is; the label's "(not yet applied)" goes."""
from __future__ import annotations

import html
import re

import pytest

from tests.test_astral_action_actions import Astral

KINETIC = {"slot": "primary", "item": "kinetic", "arcs": ["F"]}


@pytest.fixture
def aa(app, table):
    return Astral(app, table)


def roll_panel(aa) -> str:
    page = aa.table.client.get(f"/t/{aa.code}/display", headers={"X-Display-Body": "1"}).get_data(as_text=True)
    m = re.search(r'<section class="dsp-roll.*?</section>', page, re.S)
    return html.unescape(m.group(0))


def called(label_part: str) -> str:
    """The chart's word in the attack's own label ("Accuracy 6+0 = 6 hit, damage ...")."""
    return re.search(r"= -?\d+ (miss|glance|hit),", label_part).group(1).upper()


def test_the_roll_panel_calls_the_hit_says_applied_and_keeps_a_roll_taken_back(aa):
    falcon = aa.ship("Falcon", 2, equipment=(KINETIC, {"slot": "secondary", "item": "kinetic", "arcs": ["F"]}))
    raven = aa.ship("Raven", 1, side="Player 2")
    aa.to_phase("Activation")
    aa.ok(phone=aa.ben, type="aa-activate", unit=raven)
    aa.ok(type="aa-activate", unit=falcon)
    aa.ok(type="aa-attack", shot=f"{falcon}:0", target=raven, dice="6 6")
    panel = roll_panel(aa)
    word = called(panel)
    assert re.search(rf'data-call>{word}</b>', panel), panel  # large, beside the odds
    assert "not yet applied" in panel and "(not yet applied)" not in panel  # said once, by the panel
    aa.ok(type="aa-apply-attack")
    panel = roll_panel(aa)
    assert "✓ applied" in panel and "not yet applied" not in panel
    aa.ok(type="aa-attack", shot=f"{falcon}:1", target=raven, dice="1 1")
    second = roll_panel(aa)
    assert re.search(rf'data-call>{called(second)}</b>', second)
    assert "Rolls before it" in second and "(applied)" in second  # the first, small under it
    aa.table.undo()  # the newest roll taken back: the one before it is shown again, the other struck
    panel = roll_panel(aa)
    assert "No rolls yet" not in panel
    assert re.search(rf'data-call>{word}</b>', panel) and "✓ applied" in panel
    assert 'class="withdrawn"' in panel and "(taken back)" in panel
