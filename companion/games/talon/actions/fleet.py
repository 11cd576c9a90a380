"""Fleet set-up: a ship from the base-game classes or the players' own numbers, corrections from their
counters and Player Aid Card, and ships lost (overheat, retreat).

Classes: content/talon/data/ships.toml (TALON.md section 6, FAN numbers: defaults players may correct).
"""
from __future__ import annotations

import copy

from companion import content
from companion.actions import action
from companion.errors import RuleError
from companion.games.talon import state as books
from companion.games.talon.rules import chart, counter, weapons
from companion.said import N_, Said, _
from companion.schema import Ref, Scalar, Text

GAME = {"talon"}
MAX_SHIPS = 40  # input limit
# the labels of talon-correct and talon-lost, by what was corrected / why the ship left
CORRECTED = {"curve": N_("%(unit)s curve corrected: %(shown)s"), "shields": N_("%(unit)s shields corrected: %(shown)s"),
             "hull": N_("%(unit)s hull corrected: %(shown)s"), "sp": N_("%(unit)s sp corrected: %(shown)s")}
LOST = {"overheat": N_("%(unit)s overheats and breaks apart"), "retreat": N_("%(unit)s retreats"),
        "destroyed": N_("%(unit)s destroyed")}


def classes() -> dict:
    return {c["id"]: c for c in content.data("talon", "ships")["ship"]}


def weapon_tables() -> dict:
    return weapons.load(content.data("talon", "weapons"))


def parse_groups(text: str) -> list[dict]:
    """'phaser 1 1 1 F L; torpedo 1 2 2 F' -> groups: weapon, count, red, yellow, arcs (the custom form)."""
    groups = []
    for i, part in enumerate(p for p in str(text or "").split(";") if p.strip()):
        words = part.split()
        if len(words) < 5 or not all(w.isdigit() for w in words[1:4]):
            raise RuleError(_("Weapon group %(n)s: write weapon, count, red, yellow, arcs (like 'phaser 1 1 1 F L').",
                              n=i + 1), "groups")
        groups.append({"weapon": words[0].lower(), "count": int(words[1]), "red": int(words[2]),
                       "yellow": int(words[3]), "arcs": words[4:]})
    return groups


def custom_spec(args: dict) -> dict:
    """A class from the custom form's text fields (curve '1-5-3, 2-4-2*', shields '6 5 4 5', hull '0 0 -1c')."""
    rows = [r.strip() for r in str(args.get("curve") or "").split(",") if r.strip()]
    start = next((i for i, r in enumerate(rows) if r.endswith("*")), None)
    if start is None:
        raise RuleError(_("Mark the starting curve row with a *, like 3-3-2*."), "curve")
    shields = str(args.get("shields") or "").replace("/", " ").split()
    if len(shields) != 4 or not all(s.isdigit() for s in shields):
        raise RuleError(_("Shields are four numbers: forward, right, rear, left (like 6 5 4 5)."), "shields")
    spec = {"id": "custom", "name": args.get("class_name") or "Custom", "hull_class": args.get("hull_class"),
            "sp": args.get("sp", 0), "curve": [r.rstrip("*") for r in rows], "start": start,
            "shields": [int(s) for s in shields], "groups": parse_groups(args.get("groups")),
            "hull": str(args.get("hull") or "").replace(",", " ").split(), "battery": args.get("battery", 0),
            "afterburners": args.get("afterburners", 0)}
    if isinstance(spec["sp"], str) and spec["sp"].isdigit():
        spec["sp"] = int(spec["sp"])
    return spec


def spec_fields(ship: dict, side: str) -> dict:
    """A ship's numbers as the custom form's fields: saved in the library and reused next game."""
    start = ship.get("start", ship["row"])
    return {
        "class_name": ship["class_name"], "side": side, "hull_class": ship["hull_class"], "sp": ship["sp"],
        "curve": ", ".join(chart.row_text(r) + ("*" if i == start else "") for i, r in enumerate(ship["curve"])),
        "shields": " ".join(str(ship["shields"][a]) for a in counter.ARCS),
        "hull": " ".join(f"{b['power']}{'c' if b['crit'] else ''}" for b in ship["hull"]),
        "groups": "; ".join(f"{g['weapon']} {g['count']} {g['red']} {g['yellow']} {' '.join(g['arcs'])}"
                            for g in ship["groups"]),
        "battery": ship["battery"], "afterburners": ship["afterburners"],
    }


@action("talon-ship", systems=GAME, fields={"name": Text(40), "cls": Text(60, "a ship class, or custom"), "side": Ref("side"),
    "class_name": Text(60), "hull_class": Scalar(20), "sp": Scalar(20), "battery": Scalar(20), "afterburners": Scalar(20),
    "curve": Text(300, "the power curve's rows, comma separated"), "shields": Text(100), "hull": Text(300),
    "groups": Text(600, "weapon groups: 'phaser 1 1 1 F L; torpedo 1 2 2 F'")})
def add_ship(state: dict, p: dict) -> str:
    """Put a ship on the table: a base-game class with its counter's numbers, or your own."""
    if p["unit"] != f"u{state['next_unit']}":
        raise RuleError(_("The table changed while the ship was being added; try again."), "unit")
    if any(u["name"] == p["name"] and not u["removed"] for u in state["units"].values()):
        raise RuleError(_("There is already a ship called %(name)s at this table.", name=p["name"]), "name")
    if len(state["units"]) >= MAX_SHIPS:
        raise RuleError(_("A table holds at most %(n)s ships.", n=MAX_SHIPS), "name")
    g = books.game(state)
    if p.get("weapons") and not g.get("weapons"):
        g["weapons"] = copy.deepcopy(p["weapons"])
    uid = p["unit"]
    state["units"][uid] = {"id": uid, "name": p["name"], "side": p["side"], "template": "ship", "stats": {},
                          "trackers": {}, "activated": False, "removed": False, "talon": copy.deepcopy(p["ship"])}
    state["unit_order"].append(uid)
    state["next_unit"] += 1
    ship = p["ship"]
    return Said("%(name)s (%(hull)s, %(row)s) joins %(side)s", name=p["name"], hull=ship["hull_class"],
                row=chart.row_text(ship["curve"][ship["row"]]), side=p["side"])


@add_ship.decider
def decide_add_ship(state: dict, args: dict, ctx) -> dict:
    name = " ".join(str(args.get("name") or "").split())
    if not name or len(name) > 40:
        raise RuleError(_("Name the ship (1 to 40 characters)."), "name")
    cls_id = args.get("cls") or ""
    if cls_id == "custom":
        spec = custom_spec(args)
        side = args.get("side") or ctx.side
    else:
        spec = classes().get(cls_id)
        if spec is None:
            raise RuleError(_("Choose a ship class (or Custom)."), "cls")
        side = spec["side"]
    if side not in state["sides"]:
        raise RuleError(_("side must be one of %(sides)s.", sides=", ".join(state["sides"])), "side")
    ship = counter.build(spec, name)
    out = {"unit": f"u{state['next_unit']}", "name": name, "side": side, "ship": ship}
    if not books.game(state).get("weapons"):
        out["weapons"] = weapon_tables()
    return out


@action("talon-correct", systems=GAME, fields={"unit": Ref("unit"), "what": Text(40), "value": Scalar(200)})
def correct(state: dict, p: dict) -> str:
    """Correct a number from your own counter: curve, shields, hull boxes, SP (damage marked stays)."""
    unit, ship = books.ship_of(state, p.get("unit"))
    what = p.get("what")
    text = str(p.get("value") or "").strip()
    if what == "curve":
        rows = [r.strip() for r in text.split(",") if r.strip()]
        start = next((i for i, r in enumerate(rows) if r.endswith("*")), None)
        if start is None:
            raise RuleError(_("Mark the current row with a *, like 3-3-2*."), "value")
        curve = [list(chart.parse_row(r.rstrip("*"))) for r in rows]
        ship["curve"], ship["row"], ship["start"] = curve, start, start
        shown = ", ".join(chart.row_text(r) for r in curve)
    elif what == "shields":
        numbers = text.replace("/", " ").split()
        if len(numbers) != 4 or not all(n.isdigit() and int(n) <= counter.MAX_BOXES for n in numbers):
            raise RuleError(_("Shields are four numbers: forward, right, rear, left (like 6 5 4 5)."), "value")
        ship["shields"] = dict(zip(counter.ARCS, map(int, numbers), strict=False))
        for arc in counter.ARCS:
            ship["shield_hits"][arc] = min(ship["shield_hits"][arc], ship["shields"][arc])
        shown = "/".join(numbers)
    elif what == "hull":
        ship["hull"] = counter.parse_hull(text.replace(",", " ").split())
        ship["hull_hits"] = min(ship["hull_hits"], len(ship["hull"]))
        shown = " ".join(f"{b['power']}{'c' if b['crit'] else ''}" for b in ship["hull"])
    elif what == "sp":
        if not text.isdigit() or int(text) > 999:
            raise RuleError(_("SP is a whole number from 0 to 999."), "value")
        ship["sp"] = int(text)
        shown = text
    else:
        raise RuleError(_("what must be curve, shields, hull or sp."), "what")
    return Said(CORRECTED[what], unit=unit["name"], shown=shown)


@action("talon-lost", systems=GAME, fields={"unit": Ref("unit"), "reason": Text(60)})
def lose(state: dict, p: dict) -> str:
    """A ship breaks apart (overheat, TT#17), explodes or retreats (FTL): it leaves the fight."""
    unit, ship = books.live_ship(state, p.get("unit"))
    reason = p.get("reason")
    # stored English (state.LOST_REASONS: the board says it in each reader's words)
    reasons = {"overheat": "overheats and breaks apart", "retreat": "retreats", "destroyed": "destroyed"}
    if reason not in reasons:
        raise RuleError(_("reason must be overheat, retreat or destroyed."), "reason")
    if reason == "retreat" and ship["crits"]["ftl_offline"]:
        raise RuleError(_("%(unit)s's FTL is offline (critical 10): it cannot retreat.", unit=unit["name"]), "reason")
    ship["destroyed"] = reasons[reason]
    return Said(LOST[reason], unit=unit["name"])


correct.decider(books.keep("unit", "what", "value"))
lose.decider(books.keep("unit", "reason"))
