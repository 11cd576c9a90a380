"""Core actions every system has: create the table, units and their trackers, turn, notes."""
from __future__ import annotations

from companion import games, trackers
from companion.actions import action
from companion.content import ContentError, check_tracker
from companion.errors import RuleError, Stale
from companion.said import Said, _, joined, kept
from companion.schema import Int, List, Obj, Ref, Scalar, Text
from companion.trackers import Clock, need_int, need_text
from companion.validate import MAX_INT

MAX_UNITS = 200
MAX_TRACKERS_PER_UNIT = 20
MAX_SIDES = 8


_CLOCKS: dict[tuple[int, int], Clock] = {}  # a Clock is frozen: one per (round, tick), not one per apply


def clock(state: dict) -> Clock:
    at = state["round"], state["tick"]
    found = _CLOCKS.get(at)
    if found is None or type(at[0]) is not int or type(at[1]) is not int:  # (1.0 == 1: only ints are kept)
        found = Clock(round=at[0], tick=at[1])
        if len(_CLOCKS) < 4096 and type(at[0]) is int and type(at[1]) is int:
            _CLOCKS[at] = found
    return found


def unit_of(state: dict, unit_id) -> dict:
    unit = state["units"].get(unit_id) if isinstance(unit_id, str) else None
    if unit is None:
        raise RuleError(_("No unit %(unit)r at this table.", unit=unit_id), "unit")
    return unit


def tracker_of(state: dict, unit_id, tracker_id) -> tuple[dict, str]:
    """A unit's tracker (or the table's own when unit is empty/'table') and whose it is."""
    if unit_id in (None, "", "table"):
        owner, name = state["trackers"], Said("Table")
    else:
        unit = unit_of(state, unit_id)
        owner, name = unit["trackers"], unit["name"]
    if tracker_id not in owner:
        if isinstance(name, Said):
            raise RuleError(_("Table has no tracker %(tracker)r.", tracker=tracker_id), "tracker")
        raise RuleError(_("%(unit)s has no tracker %(tracker)r.", unit=name, tracker=tracker_id), "tracker")
    return owner[tracker_id], name


def clean_sides(raw, default: list[str]) -> list[str]:
    if raw in (None, "", []):
        return list(default)
    if isinstance(raw, str):
        raw = [s for s in raw.split(",")]
    if not isinstance(raw, list):
        raise RuleError(_("sides must be a list of side names."), "sides")
    sides = [need_text({"side": s}, "side", 30) for s in raw if str(s).strip()]
    if not 1 <= len(sides) <= MAX_SIDES:
        raise RuleError(_("A table has 1 to %(most)s sides.", most=MAX_SIDES), "sides")
    if len(set(sides)) != len(sides):
        raise RuleError(_("Each side needs its own name."), "sides")
    return sides


# --- table -----------------------------------------------------------------------------------

@action("create-table", fields={
    "name": Text(60), "sides": List(Text(30), 8, text_too=300), "settings": Obj()})
def create_table(state: dict, p: dict) -> str:
    """Set up a new table (always the first event)."""
    if state:
        raise RuleError(_("This table already exists."), "type")
    state.update(
        system=p["system"], name=p["name"], sides=p["sides"], phases=p["phases"],
        round_label=p["round_label"], phase_reminders=p["phase_reminders"], settings=p["settings"],
        round=1, phase=0, tick=0, active_side=None, units={}, unit_order=[], next_unit=1,
        trackers=p["trackers"], decks=p["decks"], reminders=[], finished=False, game={},
    )
    state["reminders"] = phase_reminders(state)
    return Said("Table %(table)r set up (%(sides)s)", table=p["name"], sides=", ".join(p["sides"]))


@create_table.decider
def decide_create_table(state: dict, args: dict, ctx) -> dict:
    system = ctx.system
    name = need_text(args, "name", 60)
    settings = {}
    for sid, spec in system.settings.items():
        raw = (args.get("settings") or {}).get(sid, spec.get("default", 0))
        settings[sid] = need_int({sid: raw}, sid, spec.get("min", -999), spec.get("max", 999))
    table_trackers = {s["id"]: trackers.create(s) for s in system.table_trackers}
    for gid, spec in system.gauges.items():
        table_trackers[gid] = trackers.create(spec)
    from companion.trackers import deck
    decks = {}
    for did, spec in system.decks.items():
        decks[did] = deck.create(spec["name"])
        decks[did]["types"] = spec.get("types", [])
    return {"system": system.slug, "name": name, "sides": clean_sides(args.get("sides"), system.sides),
            "phases": system.phases, "round_label": system.round_label,
            "phase_reminders": system.phase_reminders, "settings": settings,
            "trackers": table_trackers, "decks": decks}


@action("note", fields={"text": Text(200)})
def note(state: dict, p: dict) -> str:
    """Write a line into the battle log (no other change)."""
    return need_text(p, "text", 200)


@action("finish", fields={"result": Text(200, "the headline of the battle report")})
def finish(state: dict, p: dict) -> str:
    """End the game; the table stays browsable with its battle report (cannot be undone)."""
    if state["finished"]:
        raise RuleError(_("This table is already finished."), "type")
    result = p.get("result", "")
    if result and (not isinstance(result, str) or len(result) > 200):
        raise RuleError(_("result must be at most 200 characters."), "result")
    state["finished"] = True
    if result:
        state["result"] = result  # the battle report's headline
    return Said("Game finished: %(result)s", result=result) if result else Said("Game finished")


@finish.decider
def decide_finish(state: dict, args: dict, ctx) -> dict:
    """Only the host ends the game for good (issue 37): every later tap is refused."""
    if not (ctx.host or ctx.trusted):
        raise RuleError(_("Only the table's host finishes the game (the host can hand the role on: Invite)."), "type")
    return {k: v for k, v in args.items() if k != "type"}


# --- units -----------------------------------------------------------------------------------

@action("add-unit", fields={"name": Text(40), "side": Ref("side"), "template": Ref("template"),
                                "stats": Obj(doc="the template's stats, each within its bounds")})
def add_unit(state: dict, p: dict) -> str:
    """Put a unit on the table: name, side, template and its stats (trackers follow the template)."""
    uid = p["unit"]
    if uid in state["units"] or uid != f"u{state['next_unit']}":
        raise Stale(_("The table changed while the unit was being added; try again."), "unit")
    if len(state["units"]) >= MAX_UNITS:
        raise RuleError(_("A table holds at most %(most)s units.", most=MAX_UNITS), "name")
    state["next_unit"] += 1
    state["units"][uid] = {"id": uid, "name": p["name"], "side": p["side"], "template": p["template"],
                          "stats": p["stats"], "trackers": p["trackers"], "activated": False,
                          "removed": False}
    state["unit_order"].append(uid)
    return Said("%(unit)s joins %(side)s", unit=p["name"], side=p["side"])


@add_unit.decider
def decide_add_unit(state: dict, args: dict, ctx) -> dict:
    system = ctx.system
    name = need_text(args, "name", 40)
    side = args.get("side") or ctx.side or state["sides"][0]
    if side not in state["sides"]:
        raise RuleError(_("side must be one of %(sides)s.", sides=", ".join(state["sides"])), "side")
    template_id = args.get("template") or next(iter(system.templates), None)
    template = system.templates.get(template_id)
    if template is None:
        if not system.templates:
            raise RuleError(_("template must be one of none."), "template")
        raise RuleError(_("template must be one of %(templates)s.", templates=", ".join(system.templates)), "template")
    raw_stats = dict(args.get("stats") or {})
    for stat in template.get("stats", []):  # shortcut: {"hp": 10} at the top level
        if stat["id"] in args and stat["id"] not in raw_stats:
            raw_stats[stat["id"]] = args[stat["id"]]
    stats = {}
    for stat in template.get("stats", []):
        if stat["id"] not in raw_stats and "default" not in stat:
            raise RuleError(_("%(stat)s is required (from your card).", stat=stat["label"]), stat["id"])
        value = raw_stats.get(stat["id"], stat.get("default"))
        try:
            stats[stat["id"]] = need_int({stat["label"]: value}, stat["label"], stat["min"], stat["max"])
        except RuleError as exc:
            raise RuleError(exc.message, stat["id"]) from None
    made = {}
    for spec in template.get("trackers", []):
        made[spec["id"]] = trackers.create(spec, stats)
    flags = {f: bool(args.get(f)) for f in template.get("flags", [])}
    return {"unit": f"u{state['next_unit']}", "name": name, "side": side, "template": template_id,
            "stats": {**stats, **flags}, "trackers": made}


@action("remove-unit", fields={"unit": Ref("unit"), "reason": Text(60)})
def remove_unit(state: dict, p: dict) -> str:
    """Take a unit off the table (destroyed, sunk, fled); it stays listed as removed."""
    unit = unit_of(state, p.get("unit"))
    if unit["removed"]:
        raise RuleError(_("%(unit)s is already off the table.", unit=unit["name"]), "unit")
    unit["removed"] = True
    reason = p.get("reason") or "removed"
    if not isinstance(reason, str) or len(reason) > 60:
        raise RuleError(_("reason must be at most 60 characters."), "reason")
    if reason == "removed":
        return Said("%(unit)s removed", unit=unit["name"])
    return f"{unit['name']} {reason}"  # a reason typed by a player (the API) stays as typed


@action("return-unit", fields={"unit": Ref("unit")})
def return_unit(state: dict, p: dict) -> str:
    """Put a removed unit back on the table."""
    unit = unit_of(state, p.get("unit"))
    if not unit["removed"]:
        raise RuleError(_("%(unit)s is on the table.", unit=unit["name"]), "unit")
    unit["removed"] = False
    return Said("%(unit)s back on the table", unit=unit["name"])


@action("add-tracker", fields={
    "spec": Obj(doc="id, kind, label and the kind's own fields"), "unit": Ref("unit")})
def add_tracker(state: dict, p: dict) -> str:
    """Give a unit (or the table) one more tracker: {"spec": {"id", "kind", "label", ...}}."""
    spec = p.get("spec")
    try:
        check_tracker("add-tracker", "spec", spec)
    except ContentError as exc:
        raise RuleError(str(exc).split(": ", 1)[1], "spec") from None
    made = trackers.create(spec)
    _check_size(made)
    if p.get("unit") in (None, "", "table"):
        owner, name = state["trackers"], None
    else:
        unit = unit_of(state, p["unit"])
        owner, name = unit["trackers"], unit["name"]
    if spec["id"] in owner:
        if name is None:
            raise RuleError(_("Table already has a tracker %(tracker)r.", tracker=spec["id"]), "id")
        raise RuleError(_("%(unit)s already has a tracker %(tracker)r.", unit=name, tracker=spec["id"]), "id")
    if len(owner) >= MAX_TRACKERS_PER_UNIT:
        raise RuleError(_("At most %(most)s trackers each.", most=MAX_TRACKERS_PER_UNIT), "id")
    owner[spec["id"]] = made
    if name is None:
        return Said("Table gets %(tracker)s (%(kind)s)", tracker=made["label"], kind=spec["kind"])
    return Said("%(unit)s gets %(tracker)s (%(kind)s)", unit=name, tracker=made["label"], kind=spec["kind"])


def _check_size(made: dict) -> None:
    size = max([len(made.get("marked", []))] + [len(a["marked"]) for a in made.get("arcs", [])]
               + [len(made.get("red", [])) + len(made.get("yellow", [])), len(made.get("positions", []))])
    if size > 200:
        raise RuleError(_("A tracker has at most 200 boxes or positions."), "spec")


@action("tracker", fields={"unit": Ref("unit"), "tracker": Ref("tracker"),
                           "op": Text(20, "the operation, by the tracker's kind (docs/api.md)"),
                           "by": Int(-100_000, 100_000), "box": Int(0, 199), "n": Int(1, 1000), "arc": Int(0, 199),
                           "colour": Text(20), "name": Text(40), "count": Int(1, 999), "rounds": Int(1, 99),
                           "to": Scalar(60)})
def tracker_op(state: dict, p: dict) -> str:
    """Change one tracker: {"unit", "tracker", "op", ...}; ops per kind in docs/api.md."""
    tracker, owner = tracker_of(state, p.get("unit"), p.get("tracker"))
    op = p.get("op")
    if not isinstance(op, str):
        raise RuleError(_("op is required."), "op")
    return joined(" ", (owner, trackers.operate(tracker, op, p, clock(state))))


@action("adjust", fields={"unit": Ref("unit"), "tracker": Ref("tracker"),
                          "by": Int(-100_000, 100_000),
                          "amount": Int(1, 100_000, "typed beside the buttons: that many, the way by points")})
def adjust(state: dict, p: dict) -> str:
    """Add to a counter: {"unit", "tracker", "by"} (negative to take away)."""
    tracker, owner = tracker_of(state, p.get("unit"), p.get("tracker"))
    op = "adjust" if tracker["kind"] == "counter" else "move" if tracker["kind"] == "gauge" else None
    if op is None:
        raise RuleError(_("%(tracker)s is a %(kind)s; adjust works on counters and gauges.", tracker=tracker["label"],
                          kind=tracker["kind"]), "tracker")
    return joined(" ", (owner, trackers.operate(tracker, op, p, clock(state))))


# --- turn ------------------------------------------------------------------------------------

def phase_reminders(state: dict) -> list[str]:
    """What to remember as this phase starts: the system's text, timers, the game's own."""
    phase = state["phases"][state["phase"]]
    out = [state["phase_reminders"][phase]] if phase in state["phase_reminders"] else []
    if state["phase"] == 0:
        now = clock(state)
        for owner, tracks in [(Said("Table"), state["trackers"])] + [
                (u["name"], u["trackers"]) for u in state["units"].values() if not u["removed"]]:
            for tracker in tracks.values():
                out += [Said("%(owner)s: %(reminder)s", owner=owner, reminder=text)
                        for text in trackers.reminders(tracker, now)]
    # A game's phase hook runs inside next-phase (so its effects are part of that event and replay
    # with it); it may apply timed effects (burn ticks, ships lost at the end of combat).
    hook = games.phase_hook(state["system"])
    if hook:
        out += hook(state)
    # kept as messages (a game's hook returns Said sentences): each phone reads them in its language
    return [kept(r) for r in out]


@action("next-phase", fields={"expect_round": Int(1, MAX_INT), "expect_phase": Int(0, 99)})
def next_phase(state: dict, p: dict) -> str:
    """Go to the next phase (a new round after the last): {"expect_round", "expect_phase"} guard."""
    if "expect_round" in p or "expect_phase" in p:
        if (p.get("expect_round"), p.get("expect_phase")) != (state["round"], state["phase"]):
            raise Stale(_("Someone already moved the turn on; here is where the table is now."), "phase")
    state["tick"] += 1
    state["phase"] += 1
    if state["phase"] == len(state["phases"]):
        state["phase"] = 0
        state["round"] += 1
        state["active_side"] = None
        now = clock(state)
        for unit in state["units"].values():
            unit["activated"] = False
            for tracker in unit["trackers"].values():
                trackers.on_new_round(tracker, now)
        for tracker in state["trackers"].values():
            trackers.on_new_round(tracker, now)
    state["reminders"] = phase_reminders(state)
    return f"{state['round_label']} {state['round']}: {state['phases'][state['phase']]}"


@action("activate", fields={"unit": Ref("unit")})
def activate(state: dict, p: dict) -> str:
    """Mark a unit as activated this round; the turn passes to the next side with units to go."""
    unit = unit_of(state, p.get("unit"))
    if unit["activated"]:
        raise RuleError(_("%(unit)s has already activated this round.", unit=unit["name"]), "unit")
    if unit["removed"]:
        raise RuleError(_("%(unit)s is off the table.", unit=unit["name"]), "unit")
    unit["activated"] = True
    sides = state["sides"]
    waiting = {u["side"] for u in state["units"].values() if not u["activated"] and not u["removed"]}
    start = sides.index(unit["side"])
    state["active_side"] = next((sides[(start + i) % len(sides)] for i in range(1, len(sides) + 1)
                                 if sides[(start + i) % len(sides)] in waiting), None)
    if state["active_side"]:
        return Said("%(unit)s activated; %(side)s to go", unit=unit["name"], side=state["active_side"])
    return Said("%(unit)s activated; every unit has activated", unit=unit["name"])


@action("deactivate", fields={"unit": Ref("unit")})
def deactivate(state: dict, p: dict) -> str:
    """Clear a unit's activated mark."""
    unit = unit_of(state, p.get("unit"))
    if not unit["activated"]:
        raise RuleError(_("%(unit)s has not activated this round.", unit=unit["name"]), "unit")
    unit["activated"] = False
    return Said("%(unit)s not activated", unit=unit["name"])


@action("set-turn", fields={"side": Ref("side")})
def set_turn(state: dict, p: dict) -> str:
    """Say whose turn it is: {"side"}."""
    side = p.get("side")
    if side not in state["sides"]:
        raise RuleError(_("side must be one of %(sides)s.", sides=", ".join(state["sides"])), "side")
    state["active_side"] = side
    return Said("%(side)s to go", side=side)
