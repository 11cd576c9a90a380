"""One tracker drawn as what it is: +/- for counters, boxes as boxes, a clock, chips.

This is the board's hottest piece of markup: every unit card draws each of its trackers, and the
board is drawn again after every change (once per view, companion/board).  As a Jinja macro it
was about 45 % of a board render (scripts/benchmark.py --profile, issue 14); written out here it
draws the same HTML several times faster.  The board's templates call it as the Jinja global
``tracker``.  ``tests/test_tracker_view.py`` holds the markup to the macro it replaced, kind by kind.
"""
from __future__ import annotations

from markupsafe import Markup, escape

from companion.web import do_value as do


def _off(flag) -> str:
    return " disabled" if flag else ""


def tracker(tid, t: dict, unit, state: dict, ro) -> Markup:
    u = unit["id"] if unit else "table"
    kind = t["kind"]
    label = escape(t["label"])
    out = [f'<div class="tracker k-{escape(kind)}" data-tracker="{escape(tid)}">\n'
           f'<span class="tlabel">{label}</span>\n']
    add = out.append
    if kind == "counter":
        value, hi = t["value"], t["max"]
        add(f'<span class="counter">\n'
            f'<button class="btn pm" name="do" value="{escape(do("adjust", unit=u, tracker=tid, by=-1))}"'
            f' aria-label="{label} minus one" {"disabled" if ro or value <= t["min"] else ""}>−</button>\n'
            f'<output class="value" data-value>{escape(value)}</output>'
            + (f'<span class="max">/{escape(hi)}</span>' if hi < 100000 else "") + "\n"
            f'<button class="btn pm" name="do" value="{escape(do("adjust", unit=u, tracker=tid, by=1))}"'
            f' aria-label="{label} plus one" {"disabled" if ro or value >= hi else ""}>+</button>\n'
            f'</span>\n')
    elif kind == "boxes":
        flagged, flag_label = t["flagged"], escape(t.get("flag_label"))
        add('<span class="boxes">')
        for i, m in enumerate(t["marked"]):
            flag = i in flagged
            add(f'<button class="box{" marked" if m else ""}{" flagged" if flag else ""}" name="do"'
                f' value="{escape(do("tracker", unit=u, tracker=tid, op="unmark" if m else "mark", box=i))}"'
                f' aria-label="{label} box {i + 1}{f" ({flag_label})" if flag else ""}{" marked" if m else ""}"'
                f' {"disabled" if ro else ""}></button>')
        add("</span>\n")
    elif kind == "arcs":
        add('<span class="arcs">')
        for ai, a in enumerate(t["arcs"]):
            name = escape(a["name"])
            add(f'<span class="arc"><small>{name}</small>')
            for i, m in enumerate(a["marked"]):
                add(f'<button class="box{" marked" if m else ""}" name="do"'
                    f' value="{escape(do("tracker", unit=u, tracker=tid, op="unmark" if m else "mark", arc=ai, box=i))}"'
                    f' aria-label="{name} box {i + 1}" {"disabled" if ro else ""}></button>')
            add("</span>")
        add("</span>\n")
    elif kind == "charge":
        ready = all(t["red"]) and all(t["yellow"])
        add('<span class="boxes">')
        for colour in ("red", "yellow"):
            for i, m in enumerate(t[colour]):
                add(f'<button class="box {colour}{" marked" if m else ""}" name="do"'
                    f' value="{escape(do("tracker", unit=u, tracker=tid, op="discharge" if m else "charge", colour=colour))}"'
                    f' aria-label="{colour} box {i + 1}" {"disabled" if ro else ""}></button>')
        add(f'\n<button class="btn small{" primary" if ready else ""}" name="do"'
            f' value="{escape(do("tracker", unit=u, tracker=tid, op="fire"))}"'
            f' {"disabled" if ro or not ready else ""}>{"Fire" if ready else "charging"}</button></span>\n')
    elif kind == "cooldown":
        now = state["tick"] if t["per"] == "phase" else state["round"]
        ready_at = t["ready_at"]
        if ready_at is None or now >= ready_at:
            add(f'<button class="btn small primary" name="do" value="{escape(do("tracker", unit=u, tracker=tid, op="use"))}"'
                f' {"disabled" if ro else ""}>Ready · use</button>\n')
        else:
            shown = ready_at + 1 if t["per"] == "phase" else ready_at
            # the system's own word for a round, as its turn line says it (issue 28 §5)
            per = t["per"] if t["per"] == "phase" else state.get("round_label", "Round").lower()
            add(f'<span class="cool">ready again in {escape(per)} {escape(shown)}</span>\n'
                f'<button class="btn small" name="do" value="{escape(do("tracker", unit=u, tracker=tid, op="reset"))}"'
                f' {"disabled" if ro else ""}>Reset</button>\n')
    elif kind == "conditions":
        add('<span class="chips">\n')
        for name, c in t["active"].items():
            n = escape(name)
            add(f'<span class="chip on">{n}'
                + (f' ×{escape(c["count"])}' if c.get("count") is not None else "")
                + (f' <small>until {escape(state.get("round_label", "Round").lower())} {escape(c["until"])}</small>'
                   if c.get("until") is not None else "")  # in words, not "→R3" (issue 28 §5)
                + f'\n<button class="x" name="do" value="{escape(do("tracker", unit=u, tracker=tid, op="remove", name=name))}"'
                  f' aria-label="remove {n}" {"disabled" if ro else ""}>×</button></span>')
        if not ro:
            for o in t["options"]:
                if o not in t["active"]:
                    add(f'<button class="chip" name="do" value="{escape(do("tracker", unit=u, tracker=tid, op="add", name=o))}">'
                        f'+ {escape(o)}</button>')
        add("\n</span>\n")
    elif kind == "gauge":
        add(f'<span class="counter">\n'
            f'<button class="btn pm" name="do" value="{escape(do("tracker", unit=u, tracker=tid, op="move", by=-1))}"'
            f' aria-label="{label} back" {"disabled" if ro else ""}>◀</button>\n'
            f'<output class="value" data-value>{escape(t["positions"][t["index"]])}</output>\n'
            f'<button class="btn pm" name="do" value="{escape(do("tracker", unit=u, tracker=tid, op="move", by=1))}"'
            f' aria-label="{label} on" {"disabled" if ro else ""}>▶</button>\n'
            f'</span>\n')
    add("</div>")
    return Markup("".join(out))


def init_app(app) -> None:
    app.jinja_env.globals["tracker"] = tracker
