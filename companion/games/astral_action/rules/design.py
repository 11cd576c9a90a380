"""Ship Information Cards (SICs): what a card holds, the design restrictions, and its points.

Seed 004 Chapter 2 (L56-L64), Chapter 6 (L144-L244) and Chapter 10 (L396-L403).  The Movement
Table and the Miss/Glance/Hit chart are printed on each player's own card and the seed gives no
numbers (L61, L62): a card is refused until the player has entered them; nothing is defaulted.
Every refusal is one sentence naming what is wrong.  Pure.
"""
from __future__ import annotations

import math
import re

from companion.errors import RuleError
from companion.games.astral_action.rules.equipment import ARCS, COMPONENTS, FIGHTER_HEALTH, VARIANTS, WEAPONS, is_weapon, label
from companion.schema import Int

ROW_DEFAULT = 10  # L92 "An average ship health track contains 10 health/damage units, though this is not always the case"
BASE_PER_SIZE, PRIMARY_COST, SECONDARY_COST = 30, 20, 10  # L399-L401
PRIMARY_SURCHARGE, SECONDARY_SURCHARGE = 10, 5  # percent, L400-L401
FIGHTER_EXTRA_PERCENT = 10  # L244 "increases the total cost of the Fighter by an additional 10% cumulatively"
MAX_EQUIPMENT = 24  # an input limit (a typing slip), not a rule
CHART_LIMITS = (-10, 30)  # input limits on a Miss/Glance/Hit threshold (a typing slip), not a rule
FIGHTER_WEAPON_SIZES = (0, 6)  # a fighter's chosen Weapon Size (L225): at most the largest ship Size
# a card's typed numbers, read as every whole number a player types is read (schema.Int, issue 29);
# the bounds are the card form's input limits, unchanged from before (not numbers the seed gives)
SIZE = Int(0, 6, what="Ship Size (0 for a Fighter)", required=True)
ROW = Int(1, 40, what="each health row", required=True)
FIGHTER_WEAPON_SIZE = Int(*FIGHTER_WEAPON_SIZES, what="the fighter's Weapon Size (chosen when it is created, L225)",
                          required=True)
MOVE_RE = re.compile(r"^(\d{1,2})\s*:\s*(\d{1,2})\s*/\s*(\d{1,2})$")


def parse_rows(raw, size: int) -> list[int]:
    """Health rows: one per Size (L92), 10 each unless the card says otherwise; fighters one row of 6."""
    if size == 0:
        if raw in (None, "", []):
            return [FIGHTER_HEALTH]
    elif raw in (None, "", []):
        return [ROW_DEFAULT] * size
    values = raw if isinstance(raw, list) else str(raw).replace(",", " ").split()
    rows = [ROW.parse(v, "rows") for v in values]
    want = 1 if size == 0 else size
    if len(rows) != want:
        raise RuleError(f"A Size {size} "
                        f"{'fighter has one health row' if size == 0 else f'ship has {size} health rows (one per Size)'}; "
                        f"you entered {len(rows)}.", "rows")
    return rows


def parse_movement(raw) -> list[list[int]]:
    """The card's Movement Table, "velocity:maneuver/heading" entries ("2:3/2 3:2/1"), L61, L68-L72."""
    if isinstance(raw, list):
        entries = [f"{v}:{m}/{h}" for v, m, h in raw]
    else:
        entries = [e for e in re.split(r"[,;\s]+(?=\d+\s*:)", str(raw or "").strip()) if e.strip()]
    if not entries:
        raise RuleError("Enter the Movement Table from your card: each Velocity with its Maneuver and Heading "
                        "(the rules print no numbers for it).", "movement")
    table = []
    for entry in entries:
        m = MOVE_RE.match(entry.strip())
        if not m:
            raise RuleError(f"Movement entry {entry.strip()!r} is not velocity:maneuver/heading (e.g. 3:2/1).", "movement")
        v, man, head = (int(x) for x in m.groups())
        if head > 6:  # L72: 30 degrees per Heading point, a clock face: 6 is already about-face
            raise RuleError(f"Heading {head} at velocity {v} turns more than 180 degrees (6 is the most).", "movement")
        table.append([v, man, head])
    velocities = [v for v, _, _ in table]
    if len(set(velocities)) != len(velocities):
        raise RuleError("Each velocity appears once in the Movement Table.", "movement")
    return sorted(table)


def parse_chart(raw: dict) -> dict:
    """The card's Miss/Glance/Hit chart (L62, L88): Accuracy totals up to ``miss`` miss, up to
    ``glance`` glance, above hit.  Decision (the seed gives bands only as an example, "1-2, 1-3",
    L199): two thresholds the player enters from the card."""
    raw = raw or {}
    if raw.get("miss") in (None, "") or raw.get("glance") in (None, ""):
        raise RuleError("Enter the Miss/Glance/Hit chart from your card: the highest Accuracy that misses and "
                        "the highest that glances (the rules print no numbers for it).", "chart")
    miss = Int(*CHART_LIMITS, what="the highest miss", required=True).parse(raw["miss"], "chart")
    glance = Int(*CHART_LIMITS, what="the highest glance", required=True).parse(raw["glance"], "chart")
    if glance < miss:
        raise RuleError("The highest glance must be at least the highest miss.", "chart")
    return {"miss": miss, "glance": glance}


def clean_item(raw: dict, n: int, size: int) -> dict:
    """One piece of equipment, checked against its own rules (L150-L214, L220-L239)."""
    field = f"equipment.{n}"
    item, slot = raw.get("item"), raw.get("slot")
    if item not in WEAPONS and item not in COMPONENTS:
        raise RuleError(f"Equipment {n + 1}: choose a weapon or component.", field)
    if slot not in ("primary", "secondary"):
        raise RuleError(f"Equipment {n + 1}: choose Primary or Secondary.", field)
    arcs = [a for a in (raw.get("arcs") or []) if a]
    if isinstance(raw.get("arcs"), str):
        arcs = [a for a in raw["arcs"].upper().replace(",", " ").replace("/", " ").split() if a]
    variant = raw.get("variant") or None
    out = {"slot": slot, "item": item}
    if is_weapon(item):
        spec = WEAPONS[item]
        if any(a not in ARCS for a in arcs) or not arcs:
            raise RuleError(f"Equipment {n + 1}: a weapon fires through at least one arc ({', '.join(ARCS)}).", field)
        if variant and variant not in VARIANTS:
            raise RuleError(f"Equipment {n + 1}: unknown variant {variant!r}.", field)
        if variant and not spec["variant"]:
            raise RuleError(f"{spec['name']} may not be a Variant ({spec['line']}).", field)
        if variant and VARIANTS[variant].get("primary_only") and slot != "primary":
            raise RuleError(f"{VARIANTS[variant]['name']} may only be applied to Primary Weapons "
                            f"({VARIANTS[variant]['line']}).", field)
        if variant == "structural" and len(arcs) != 1:
            raise RuleError("Structurally Mounted allows only one Firing Arc (L158).", field)
        if variant == "linked":
            out["linked"] = Int(1, 6, what="Linked (X)").parse(raw.get("linked") or 1, field)
        out.update(arcs=sorted(set(arcs), key=list(ARCS).index), variant=variant)
        if size == 0 and slot == "secondary":
            raise RuleError("A Fighter may not take a Weapon as a secondary slot (L221).", field)
    else:
        spec = COMPONENTS[item]
        if variant:
            raise RuleError(f"Equipment {n + 1}: only weapons take a variant.", field)
        if slot not in spec["slots"]:
            raise RuleError(f"{spec['name']} is a {' or '.join(spec['slots'])} component ({spec['line']}).", field)
        if size == 0 and spec.get("ship_only"):
            raise RuleError(f"A Fighter may not take the {spec['name']} (L222).", field)
        if size > 0 and spec.get("fighter_only"):
            raise RuleError(f"{spec['name']} is a Fighter-specific component (L234-L239).", field)
    out["label"] = label(out)
    return out


def slots_used(equipment: list[dict]) -> tuple[int, int]:
    """Primary and Secondary equipment counted for the surcharges: Structurally Mounted "will always
    occupy two Primary slots" (L158); fighter-specific components are extra (L224)."""
    primary = sum(2 if e.get("variant") == "structural" else 1 for e in equipment if e["slot"] == "primary")
    secondary = sum(1 for e in equipment if e["slot"] == "secondary" and not COMPONENTS.get(e["item"], {}).get("fighter_only"))
    return primary, secondary


def validate(raw: dict) -> dict:
    """A whole card from a player's form or a saved file: the clean card, or the first problem."""
    name = " ".join(str(raw.get("name") or "").split())
    if not name or len(name) > 40:
        raise RuleError("Name the ship (1 to 40 characters).", "name")
    size = SIZE.parse(raw.get("size"), "size")
    card = {"name": name, "size": size, "rows": parse_rows(raw.get("rows"), size),
            "chart": parse_chart(raw.get("chart"))}
    items = [e for e in (raw.get("equipment") or []) if e and (e.get("item") or e.get("slot"))]
    if len(items) > MAX_EQUIPMENT:
        raise RuleError(f"At most {MAX_EQUIPMENT} pieces of equipment on one card.", "equipment")
    card["equipment"] = [clean_item(e, n, size) for n, e in enumerate(items)]
    kinds = [e["item"] for e in card["equipment"]]
    if "hangar" in kinds and "launch" not in kinds:
        raise RuleError("A Fighter Hangar needs a Fighter Launch Hangar on the same ship (L212).", "equipment")
    card["arc_points"] = {a: Int(-50, 50, what=f"the {ARCS[a]} arc modifier").parse(
        (raw.get("arc_points") or {}).get(a) or 0, "arc_points") for a in ARCS}
    if size == 0:
        primary = [e for e in card["equipment"] if e["slot"] == "primary"]
        if len(primary) > 1:
            raise RuleError("A second Primary may not be added to a Fighter (L242).", "equipment")
        if any(e["item"] == "pws" and e["slot"] != "primary" for e in card["equipment"]):
            raise RuleError("A Fighter taking a Proximity Weapon System equips it as a Primary slot (L223).", "equipment")
        # more Secondaries are not forbidden: they cost more (L243-L244)
        if any(is_weapon(e["item"]) for e in card["equipment"]):
            card["weapon_size"] = FIGHTER_WEAPON_SIZE.parse(raw.get("weapon_size"), "weapon_size")
    else:
        card["movement"] = parse_movement(raw.get("movement"))
    card["points"] = points(card)
    return card


def item_cost(item: dict, arc_points: dict) -> tuple[int, str]:
    """One piece of equipment's cost with its equipment-specific modifiers (L400-L402, L157-L158,
    L210, L212).  The Weapons Arc Modifier chart is missing from the seed ("Use the following
    chart ... Example:" and nothing follows, L402-L403): the players set a modifier per arc
    (0 unless they agree otherwise) and it is added for each arc the weapon fires out of."""
    spec = COMPONENTS.get(item["item"], {})
    if "points" in spec:
        return spec["points"], f"{spec['name']} {spec['points']} ({spec['line']})"
    base = PRIMARY_COST if item["slot"] == "primary" else SECONDARY_COST
    why = f"{base}"
    if item.get("variant") == "structural":
        base, why = 2 * PRIMARY_COST, "two Primary Components 40 (L158)"
    arcs = sum(arc_points.get(a, 0) for a in item.get("arcs") or [])
    if arcs:
        why += f" {arcs:+d} arcs"
    cost = base + arcs
    if item.get("variant") == "oversized":
        cost = math.ceil(cost * (100 + VARIANTS["oversized"]["points_percent"]) / 100)
        why += " +30% round up (L157)"
    return cost, why


def points(card: dict, per_item: bool = False) -> dict:
    """The card's points.  Ships, L399: [(Size x 30) + Primary + Secondary] x (Ship Cost Modifiers);
    "Any number of Primary Equipment that exceeds the Ship's Size adds 10%" (L400), Secondary 5%
    (L401).  Decision: the surcharge is added once ("any number ... adds 10%"); with ``per_item``
    (a table setting) it is added for each item over the Size.  Modifiers add up; the seed gives no
    rounding for the total, so it is rounded up like the Oversized cost (L157)."""
    if card["size"] == 0:
        return fighter_points(card)
    lines = [f"Size {card['size']} x {BASE_PER_SIZE} = {card['size'] * BASE_PER_SIZE}"]
    subtotal = card["size"] * BASE_PER_SIZE
    for item in card["equipment"]:
        cost, why = item_cost(item, card.get("arc_points") or {})
        subtotal += cost
        lines.append(f"{item['label']}: {cost} ({why})")
    primary, secondary = slots_used(card["equipment"])
    over_p, over_s = max(0, primary - card["size"]), max(0, secondary - card["size"])
    percent = (PRIMARY_SURCHARGE * (over_p if per_item else min(over_p, 1))
               + SECONDARY_SURCHARGE * (over_s if per_item else min(over_s, 1)))
    if percent:
        lines.append(f"{primary} Primary / {secondary} Secondary for Size {card['size']}: +{percent}% (L400-L401)")
    total = math.ceil(subtotal * (100 + percent) / 100)
    return {"subtotal": subtotal, "percent": percent, "total": total, "lines": lines,
            "primary": primary, "secondary": secondary}


def fighter_points(card: dict) -> dict:
    """Fighters, L241-L244: a Primary costs 20, a Secondary 10; with no Primary a second Secondary
    costs 10; each additional Secondary costs 10 and adds 10% to the fighter's total, cumulatively.
    The seed gives no base cost for a fighter: 0 here."""
    primary = [e for e in card["equipment"] if e["slot"] == "primary"]
    secondary = [e for e in card["equipment"] if e["slot"] == "secondary"]
    subtotal = PRIMARY_COST * len(primary) + SECONDARY_COST * len(secondary)
    extra = max(0, len(secondary) - (1 if primary else 2))
    percent = FIGHTER_EXTRA_PERCENT * extra
    lines = [f"{e['label']}: {PRIMARY_COST if e['slot'] == 'primary' else SECONDARY_COST}" for e in card["equipment"]]
    if percent:
        lines.append(f"{extra} additional Secondary: +{percent}% (L244)")
    return {"subtotal": subtotal, "percent": percent, "total": math.ceil(subtotal * (100 + percent) / 100),
            "lines": lines, "primary": len(primary), "secondary": len(secondary)}


def damage_track(card: dict, whole_track: bool = False) -> int:
    """What "equal to the Ship's Damage Track" (L191, L194) measures.  AMBIGUOUS: one health row or
    every row.  Default: one health row (the first; "An average ship health track contains 10",
    L92, calls a row a track); the table setting ``whole_track`` reads it as all rows together."""
    return sum(card["rows"]) if whole_track else card["rows"][0]
