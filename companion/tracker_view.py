"""One tracker drawn as what it is: +/- for counters, boxes as boxes, a clock, chips.

This is the board's hottest piece of markup: every unit card draws each of its trackers, and the
board is drawn again after every change (once per view, companion/board).  As a Jinja macro it
was about 45 % of a board render (scripts/benchmark.py --profile, issue 14); written out here it
draws the same HTML several times faster.  The board's templates call it as the Jinja global
``tracker``.  ``tests/test_tracker_view.py`` holds the markup to the macro it replaced, kind by kind.
"""
from __future__ import annotations

from markupsafe import Markup, escape

from companion.i18n import inside
from companion.said import N_, _
from companion.web import do_value as do


def _each(msg: str):
    """A message (marked ``N_``) said many times in one tracker, each box's name: its words looked up once,
    filled per box."""
    words = _(msg)

    def said(**args) -> str:
        try:
            return words % args
        except (KeyError, ValueError, TypeError):
            return msg % args  # a translation that lost a value: the English rather than nothing
    return said


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
        minus = escape(_("%(tracker)s minus one", tracker=t["label"]))
        plus = escape(_("%(tracker)s plus one", tracker=t["label"]))
        add(f'<span class="counter">\n'
            f'<button class="btn pm" name="do" value="{escape(do("adjust", unit=u, tracker=tid, by=-1))}"'
            f' aria-label="{minus}" {"disabled" if ro or value <= t["min"] else ""}>−</button>\n'
            f'<output class="value" data-value>{escape(value)}</output>'
            + (f'<span class="max">/{escape(hi)}</span>' if hi < 100000 else "") + "\n"
            f'<button class="btn pm" name="do" value="{escape(do("adjust", unit=u, tracker=tid, by=1))}"'
            f' aria-label="{plus}" {"disabled" if ro or value >= hi else ""}>+</button>\n'
            f'</span>\n')
    elif kind == "boxes":
        flagged, flag_label = t["flagged"], t.get("flag_label")
        names = {(False, False): _each(N_("%(tracker)s box %(n)s")), (False, True): _each(N_("%(tracker)s box %(n)s marked")),
                 (True, False): _each(N_("%(tracker)s box %(n)s (%(flag)s)")),
                 (True, True): _each(N_("%(tracker)s box %(n)s (%(flag)s) marked"))}
        add('<span class="boxes">')
        for i, m in enumerate(t["marked"]):
            flag = i in flagged
            name = names[flag, bool(m)](tracker=t["label"], n=i + 1, flag=flag_label)
            add(f'<button class="box{" marked" if m else ""}{" flagged" if flag else ""}" name="do"'
                f' value="{escape(do("tracker", unit=u, tracker=tid, op="unmark" if m else "mark", box=i))}"'
                f' aria-label="{escape(name)}"'
                f' {"disabled" if ro else ""}></button>')
        add("</span>\n")
    elif kind == "arcs":
        box_name = _each(N_("%(tracker)s box %(n)s"))
        add('<span class="arcs">')
        for ai, a in enumerate(t["arcs"]):
            name = escape(a["name"])
            add(f'<span class="arc"><small>{name}</small>')
            for i, m in enumerate(a["marked"]):
                add(f'<button class="box{" marked" if m else ""}" name="do"'
                    f' value="{escape(do("tracker", unit=u, tracker=tid, op="unmark" if m else "mark", arc=ai, box=i))}"'
                    f' aria-label="{escape(box_name(tracker=a["name"], n=i + 1))}" {"disabled" if ro else ""}></button>')
            add("</span>")
        add("</span>\n")
    elif kind == "charge":
        ready = all(t["red"]) and all(t["yellow"])
        fire = escape(_("Fire") if ready else _("charging"))
        add('<span class="boxes">')
        for colour, box_name in (("red", _each(N_("red box %(n)s"))), ("yellow", _each(N_("yellow box %(n)s")))):
            for i, m in enumerate(t[colour]):
                add(f'<button class="box {colour}{" marked" if m else ""}" name="do"'
                    f' value="{escape(do("tracker", unit=u, tracker=tid, op="discharge" if m else "charge", colour=colour))}"'
                    f' aria-label="{escape(box_name(n=i + 1))}" {"disabled" if ro else ""}></button>')
        add(f'\n<button class="btn small{" primary" if ready else ""}" name="do"'
            f' value="{escape(do("tracker", unit=u, tracker=tid, op="fire"))}"'
            f' {"disabled" if ro or not ready else ""}>{fire}</button></span>\n')
    elif kind == "cooldown":
        now = state["tick"] if t["per"] == "phase" else state["round"]
        ready_at = t["ready_at"]
        if ready_at is None or now >= ready_at:
            use = escape(_("Ready · use"))
            add(f'<button class="btn small primary" name="do" value="{escape(do("tracker", unit=u, tracker=tid, op="use"))}"'
                f' {"disabled" if ro else ""}>{use}</button>\n')
        else:
            shown = ready_at + 1 if t["per"] == "phase" else ready_at
            # the system's own word for a round, as its turn line says it (issue 28 §5)
            again = _("ready again in phase %(n)s", n=shown) if t["per"] == "phase" else \
                _("ready again in %(round)s %(n)s", round=inside(state.get("round_label", "Round")), n=shown)
            reset = escape(_("Reset"))
            add(f'<span class="cool">{escape(again)}</span>\n'
                f'<button class="btn small" name="do" value="{escape(do("tracker", unit=u, tracker=tid, op="reset"))}"'
                f' {"disabled" if ro else ""}>{reset}</button>\n')
    elif kind == "conditions":
        add('<span class="chips">\n')
        for name, c in t["active"].items():
            n = escape(name)
            until = c.get("until")  # in words, not "→R3" (issue 28 §5)
            until = "" if until is None else \
                escape(_("until %(round)s %(n)s", round=inside(state.get("round_label", "Round")), n=until))
            remove = escape(_("remove %(name)s", name=name))
            add(f'<span class="chip on">{n}'
                + (f' ×{escape(c["count"])}' if c.get("count") is not None else "")
                + (f' <small>{until}</small>' if until else "")
                + f'\n<button class="x" name="do" value="{escape(do("tracker", unit=u, tracker=tid, op="remove", name=name))}"'
                  f' aria-label="{remove}" {"disabled" if ro else ""}>×</button></span>')
        if not ro:
            for o in t["options"]:
                if o not in t["active"]:
                    add(f'<button class="chip" name="do" value="{escape(do("tracker", unit=u, tracker=tid, op="add", name=o))}">'
                        f'+ {escape(o)}</button>')
        add("\n</span>\n")
    elif kind == "gauge":
        back, on = escape(_("%(tracker)s back", tracker=t["label"])), escape(_("%(tracker)s on", tracker=t["label"]))
        add(f'<span class="counter">\n'
            f'<button class="btn pm" name="do" value="{escape(do("tracker", unit=u, tracker=tid, op="move", by=-1))}"'
            f' aria-label="{back}" {"disabled" if ro else ""}>◀</button>\n'
            f'<output class="value" data-value>{escape(t["positions"][t["index"]])}</output>\n'
            f'<button class="btn pm" name="do" value="{escape(do("tracker", unit=u, tracker=tid, op="move", by=1))}"'
            f' aria-label="{on}" {"disabled" if ro else ""}>▶</button>\n'
            f'</span>\n')
    add("</div>")
    return Markup("".join(out))


def init_app(app) -> None:
    app.jinja_env.globals["tracker"] = tracker
