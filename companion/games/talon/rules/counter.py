"""A ship counter as the companion keeps it: power curve, shields, weapon groups, hull, batteries or
afterburners, and what damage has done to it.  Pure.

Sources: seed 003 5.1 (Charge Bar, Shield Arc, Hull Box, Critical Hull Box, Battery/Afterburner), 5.3
(four arcs, firing arcs = shield arcs), 5.4 (power curve); TALON.md sections 2, 5 and 6 (FAN numbers).
"""
from __future__ import annotations

from companion.errors import RuleError
from companion.games.talon.rules import chart
from companion.said import N_, _

ARCS = ("F", "R", "Rear", "L")  # seed 003 5.3: forward, right, rear, left (FAN order F/R/Rear/L)
ARC_NAMES = {"F": "forward", "R": "right", "Rear": "rear", "L": "left"}
WEAPONS = ("disruptor", "torpedo", "wave", "phaser", "fusion", "missile")  # TALON.md section 4
HULLS = ("SC", "DD", "FF", "CL", "CA", "BC", "BB", "DN", "FTR", "CV", "Tran", "Base")  # seed 003 5.2 (+Base, FAN)
MAX_BOXES = 30  # input limit, not a game number
# a weapon group's numbers as the custom form names them ("phaser 1 1 1 F L": weapon, count, red, yellow, arcs)
GROUP_NUMBERS = {"count": N_("count"), "red": N_("red"), "yellow": N_("yellow")}
# the refusal for each of a ship's counts
COUNT_REFUSALS = {"battery": N_("battery must be a whole number from 0 to 4."),
                  "afterburners": N_("afterburners must be a whole number from 0 to 4.")}


def parse_hull(entries) -> list[dict]:
    """["0", "0", "-1c"] -> hull boxes with FAN's power modifier and the critical flag (TALON.md 6)."""
    boxes = []
    for raw in entries:
        text = str(raw).strip().replace("−", "-")
        crit = text.endswith("c")
        number = text[:-1] if crit else text
        try:
            power = int(number)
        except ValueError:
            raise RuleError(_("A hull box is its power modifier, 'c' for critical (like -1c); got %(raw)r.", raw=raw),
                            "hull") from None
        if not -9 <= power <= 0:
            raise RuleError(_("A hull box's power modifier is from -9 to 0; got %(raw)r.", raw=raw), "hull")
        boxes.append({"power": power, "crit": crit})
    if not 1 <= len(boxes) <= MAX_BOXES:
        raise RuleError(_("A ship has 1 to %(n)s hull boxes.", n=MAX_BOXES), "hull")
    return boxes


def check_group(group: dict, i: int) -> dict:
    weapon = group.get("weapon")
    if weapon not in WEAPONS:
        raise RuleError(_("Weapon group %(n)s: weapon must be one of %(weapons)s.", n=i + 1, weapons=", ".join(WEAPONS)),
                        "groups")
    out = {"weapon": weapon}
    for key, lo, hi in (("count", 1, 6), ("red", 0, 9), ("yellow", 0, 12)):  # input limits, not game numbers
        value = group.get(key)
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            raise RuleError(_("Weapon group %(n)s: %(key)s must be a whole number from %(lo)s to %(hi)s.", n=i + 1,
                              key=_(GROUP_NUMBERS[key]), lo=lo, hi=hi), "groups")
        out[key] = value
    if out["red"] + out["yellow"] == 0:
        raise RuleError(_("Weapon group %(n)s needs at least one charge box.", n=i + 1), "groups")
    arcs = group.get("arcs")
    if not isinstance(arcs, list) or not arcs or any(a not in ARCS for a in arcs) or len(set(arcs)) != len(arcs):
        raise RuleError(_("Weapon group %(n)s: arcs are some of F, R, Rear, L.", n=i + 1), "groups")
    out["arcs"] = [a for a in ARCS if a in arcs]
    return out


def build(spec: dict, name: str) -> dict:
    """A fresh counter from a class (content/talon/data/ships.toml) or a player's own numbers."""
    try:
        curve = [list(chart.parse_row(r)) for r in spec["curve"]]
    except (KeyError, TypeError):
        raise RuleError(_("A ship needs its power curve rows, like 1-5-3, 2-4-2, 3-3-2."), "curve") from None
    if not 1 <= len(curve) <= 8:
        raise RuleError(_("A power curve has 1 to 8 rows."), "curve")
    start = spec.get("start", 0)
    if isinstance(start, bool) or not isinstance(start, int) or not 0 <= start < len(curve):
        raise RuleError(_("The starting row must be one of the curve's rows."), "start")
    shields = spec.get("shields")
    if (not isinstance(shields, list) or len(shields) != 4
            or any(isinstance(s, bool) or not isinstance(s, int) or not 0 <= s <= MAX_BOXES for s in shields)):
        raise RuleError(_("Shields are four numbers: forward, right, rear, left (0 to 30)."), "shields")
    groups = spec.get("groups") or []
    # seed 003 5.1: "All of a ship's Weapons are combined into one to three Weapon Groups" (transports: none, FAN)
    if not isinstance(groups, list) or len(groups) > 3:
        raise RuleError(_("A ship has at most 3 weapon groups (rulebook 5.1)."), "groups")
    counts = {}
    for key in ("battery", "afterburners"):
        value = spec.get(key, 0)
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 4:  # input limit
            raise RuleError(_(COUNT_REFUSALS[key]), key)
        counts[key] = value
    if counts["battery"] and counts["afterburners"]:
        raise RuleError(_("A ship has batteries (Terran) or afterburners (Talon), not both."), "battery")
    hull_class = spec.get("hull_class", "")
    if hull_class not in HULLS:
        raise RuleError(_("hull must be one of %(hulls)s.", hulls=", ".join(HULLS)), "hull_class")
    sp = spec.get("sp", 0)
    if isinstance(sp, bool) or not isinstance(sp, int) or not 0 <= sp <= 999:
        raise RuleError(_("SP must be a whole number from 0 to 999."), "sp")
    return {
        "class": spec.get("id", "custom"), "class_name": spec.get("name", "Custom"), "hull_class": hull_class,
        "sp": sp, "curve": curve, "row": start, "start": start,
        "shields": dict(zip(ARCS, shields, strict=False)), "shield_hits": {a: 0 for a in ARCS},
        "groups": [{**check_group(g, i), "red_on": 0, "yellow_on": 0, "destroyed": False}
                   for i, g in enumerate(groups)],
        "hull": parse_hull(spec.get("hull") or []), "hull_hits": 0,
        "battery": counts["battery"], "battery_on": 0,
        "afterburners": counts["afterburners"], "afterburners_used": 0,
        "turn_wait": 0, "reinforced": {}, "sideslip": False,
        "crits": {"shields_down": None, "helm_down": None, "power_loss": None, "ftl_offline": False,
                  "thrusters": 0, "relay": 0},
        "pending": 0, "crit_log": [], "destroyed": None,
        "ap_used": None, "moved": None, "curve_changed": None, "initiative": None,
    }


# --- what the counter says now ---------------------------------------------------------------

def row(ship: dict) -> list:
    return ship["curve"][ship["row"]]


def hull_power(ship: dict) -> int:
    """FAN's reading of the per-box power values: the value of the last marked box (TALON.md 5:
    "exact per-box reading must be checked on the counters"; correct it on the ship's card)."""
    hits = min(ship["hull_hits"], len(ship["hull"]))
    return ship["hull"][hits - 1]["power"] if hits else 0


def power(ship: dict, curve_row: int | None = None) -> int:
    """Power now: the curve's Power, plus hull damage (TT#17), minus Power Relay Damage (crit 8, FAN)."""
    base = ship["curve"][ship["row"] if curve_row is None else curve_row][0]
    return base + hull_power(ship) - ship["crits"]["relay"]


def speed(ship: dict) -> int:
    return row(ship)[1]


def turn_radius(ship: dict) -> int | None:
    """Curve radius plus Maneuvering Thruster Damage (crit 6: "+1 at once; a second result ... +2", PAC)."""
    radius = row(ship)[2]
    return None if radius is None else radius + ship["crits"]["thrusters"]


def ap_now(ship: dict, impulse: str) -> bool:
    return chart.gets_ap(power(ship), impulse)


def moves_now(ship: dict, impulse: str) -> bool:
    return chart.moves(speed(ship), impulse)


def safe_rows(ship: dict) -> list[int]:
    """Rows whose Power stays at 0 or more: "a ship may never have negative Power written" (TT#17)."""
    return [i for i in range(len(ship["curve"])) if power(ship, i) >= 0]


def ready(group: dict) -> bool:
    """FAN WeaponFunction / BGG weapons thread: a group fires only with every red and yellow box filled."""
    return not group["destroyed"] and group["red_on"] == group["red"] and group["yellow_on"] == group["yellow"]


def shields_left(ship: dict, arc: str) -> int:
    if ship["crits"]["shields_down"] is not None:
        return 0  # crit 3: "all shields down ... all damage to hull" (PAC)
    return ship["shields"][arc] - ship["shield_hits"][arc]


def hull_left(ship: dict) -> int:
    return len(ship["hull"]) - ship["hull_hits"]
