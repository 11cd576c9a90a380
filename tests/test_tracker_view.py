"""The trackers drawn in Python (companion/tracker_view.py) are the markup the Jinja macro drew.

The macro as it was is kept in tests/data/tracker_macro.html; each tracker kind, in many states,
read-only or not, on a unit or on the table, must come out the same from both (after the board's
own indentation stripping, which every board answer goes through, with each run of white space
read as one space: the way a browser lays out white space between these elements).
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from companion import create_app
from companion.tracker_view import tracker
from companion.web import without_indentation

MACRO = (Path(__file__).parent / "data" / "tracker_macro.html").read_text()

words = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=["Cs", "Cc"]), min_size=1, max_size=12)
flags = st.lists(st.booleans(), min_size=0, max_size=9)


@st.composite
def trackers(draw):
    kind = draw(st.sampled_from(["counter", "boxes", "arcs", "charge", "cooldown", "conditions", "gauge"]))
    t = {"kind": kind, "label": draw(words)}
    if kind == "counter":
        lo = draw(st.integers(-5, 5))
        hi = draw(st.sampled_from([lo, lo + 1, lo + 10, 99999, 100000, 1_000_000]))
        t.update(min=lo, max=hi, value=draw(st.integers(lo, hi)))
    elif kind == "boxes":
        marked = draw(flags)
        t.update(marked=marked, flagged=draw(st.lists(st.integers(0, 9), max_size=3)),
                 flag_label=draw(words), rows=1)
    elif kind == "arcs":
        t["arcs"] = draw(st.lists(st.fixed_dictionaries({"name": words, "marked": flags}), max_size=4))
    elif kind == "charge":
        t.update(red=draw(flags), yellow=draw(flags))
    elif kind == "cooldown":
        t.update(every=draw(st.integers(1, 3)), per=draw(st.sampled_from(["round", "phase"])),
                 ready_at=draw(st.none() | st.integers(0, 12)))
    elif kind == "conditions":
        options = draw(st.lists(words, max_size=4, unique=True))
        active = draw(st.dictionaries(words, st.fixed_dictionaries(
            {"count": st.none() | st.integers(1, 5), "until": st.none() | st.integers(1, 9)}), max_size=3))
        t.update(options=options, active=active)
    else:
        positions = draw(st.lists(st.integers(-3, 12) | words, min_size=1, max_size=6))
        t.update(positions=positions, index=draw(st.integers(0, len(positions) - 1)), ring=False)
    return t


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    return create_app({"TESTING": True, "DATABASE": str(tmp_path_factory.mktemp("db") / "t.sqlite"),
                       "SECRET_KEY": "test-key"})


@pytest.fixture(scope="module")
def macro(app):
    return app.jinja_env.from_string(MACRO).module.tracker


@settings(max_examples=400, deadline=None)
@given(t=trackers(), on_unit=st.booleans(), ro=st.booleans(), tid=words,
       clock=st.tuples(st.integers(1, 9), st.integers(0, 30)))
def test_python_tracker_is_the_macro(macro, app, t, on_unit, ro, tid, clock):
    unit = {"id": "u7"} if on_unit else None
    state = {"round": clock[0], "tick": clock[1]}
    with app.test_request_context("/"):
        old = str(macro(tid, t, unit, state, ro))
        new = str(tracker(tid, t, unit, state, ro))
    assert spaced(new) == spaced(old)


def spaced(html: str) -> str:
    return re.sub(r"\s+", " ", without_indentation(html))
