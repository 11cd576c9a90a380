"""Issue 43: random play of every game through the HTML its board offers, two phones on two sides
(the machinery: tests/random_play.py; what a browser sends: tests/html_forms.py).

The short run here is part of the suite.  A long run by hand, seeded (the seed is printed):

    COMPANION_RANDOM_PLAY_STEPS=150 COMPANION_RANDOM_PLAY_SEEDS=3 \\
        .venv/bin/python -m pytest -q -s tests/test_random_play.py -k seeded
"""
from __future__ import annotations

import json
import os
import random
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from html_forms import thorough
from random_play import SYSTEMS, Table, play

DATA = Path(__file__).parent / "property_data"
STEPS = int(os.environ.get("COMPANION_RANDOM_PLAY_STEPS", "6"))
SEEDS = int(os.environ.get("COMPANION_RANDOM_PLAY_SEEDS", "1"))
FIRST_SEED = int(os.environ.get("COMPANION_RANDOM_PLAY_SEED", "0"))


def openings(system: str) -> list[dict]:
    """Where a play may start: a fresh table, or one of the game's openings (tests/property_data)."""
    path = DATA / f"{system}.json"
    return [None] + (json.loads(path.read_text())["openings"] if path.exists() else [])


def opening_for(system: str, action: str, *more: dict) -> dict:
    """The game's opening that leads to ``action`` (tests/property_data), with ``more`` after it."""
    found = next(o for o in openings(system)[1:] if action in o["for"])
    return {**found, "steps": found["steps"] + list(more)}


# one moment of each game with much on its board: every control there is pressed once (Table.sweep)
MOMENTS = {
    "freeform": {"for": ["a sweep"], "sides": ["Red", "Blue"], "steps": [
        {"type": "add-unit", "name": "Victory", "side": "Red", "stats": {"hp": 10}},
        {"type": "add-unit", "name": "Raven", "side": "Blue", "stats": {"hp": 10}},
        {"type": "add-tracker", "unit": "u1", "spec": {"id": "hull", "kind": "boxes", "count": 4}},
        {"type": "deck-load", "deck": "deck", "cards": [{"name": "Holed", "type": "Hull"}, {"name": "Calm"}]},
        {"type": "seal", "unit": "u1", "text": "Full ahead"}]},
    "dreadnaught": opening_for("dreadnaught", "dn-next-step"),
    "empires-of-dust": opening_for("empires-of-dust", "eod-capture"),
    # the real Damage deck with cards on a ship (their ×) and the Record fields beside them
    "dreadfleet": opening_for("dreadfleet", "df-repair", {"type": "deck-mode", "deck": "damage", "mode": "physical"}),
    "talon": opening_for("talon", "talon-fire"),
    # a plain written order sealed for a ship (its Reveal)
    "astral-action": opening_for("astral-action", "aa-victory", {"type": "seal", "unit": "u1", "text": "Brace"}),
}


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_control_at_a_busy_moment_pressed_once(app, system):
    """Each kind of control both phones are offered at a busy moment of the game, pressed once with
    what it asks for filled in (and taken back with Undo): the random play's checks after each."""
    table = Table(app, system, random.Random(0).choice, MOMENTS[system])
    table.pages = ("?open=*",)  # the board of both phones after each press; every page at the end
    try:
        assert table.sweep(thorough) >= 10
        table.check_pages()
    finally:
        table.db.close()


@pytest.mark.parametrize("system", SYSTEMS)
@settings(max_examples=2, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_pressing_what_the_board_offers_never_breaks_it(app, system, data):
    def pick(options):
        return data.draw(st.sampled_from(options))
    opening = pick(openings(system))
    physical = system == "dreadfleet" and pick([False, True])
    play(app, system, pick, steps=8, opening=opening, physical=physical)


@pytest.mark.parametrize("system", SYSTEMS)
def test_seeded_random_play(app, system):
    """COMPANION_RANDOM_PLAY_SEEDS seeds of COMPANION_RANDOM_PLAY_STEPS presses each (from
    COMPANION_RANDOM_PLAY_SEED); the Dreadfleet Damage deck is the real one every other seed."""
    for seed in range(FIRST_SEED, FIRST_SEED + SEEDS):
        rng = random.Random(f"{system}-{seed}")
        opening = rng.choice(openings(system))
        started = time.monotonic()
        table = play(app, system, rng.choice, STEPS, opening, physical=system == "dreadfleet" and seed % 2 == 0)
        print(f"random play {system} seed {seed}: {table.steps_done} presses {table.answers}, "
              f"{len(table.taken)} action types taken, opening {(opening or {}).get('for', 'none')}, "
              f"{time.monotonic() - started:.1f} s")
