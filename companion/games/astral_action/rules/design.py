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
from companion.said import N_, Said, _
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
SIZE = Int(0, 6, what=N_("Ship Size (0 for a Fighter)"), required=True)
ROW = Int(1, 40, what=N_("each health row"), required=True)
FIGHTER_WEAPON_SIZE = Int(*FIGHTER_WEAPON_SIZES, what=N_("the fighter's Weapon Size (chosen when it is created, L225)"),
                          required=True)
CHART_MISS = Int(*CHART_LIMITS, what=N_("the highest miss"), required=True)
CHART_GLANCE = Int(*CHART_LIMITS, what=N_("the highest glance"), required=True)
LINKED = Int(1, 6, what=N_("Linked (X)"))
ARC_MODIFIERS = {"F": N_("the Fore arc modifier"), "A": N_("the Aft arc modifier"), "P": N_("the Port arc modifier"),
                 "S": N_("the Starboard arc modifier")}  # ARCS' names (equipment.py)
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
        raise RuleError(_("A Size %(size)s fighter has one health row; you entered %(n)s.", size=size, n=len(rows)) if size == 0
                        else _("A Size %(size)s ship has %(size)s health rows (one per Size); you entered %(n)s.", size=size,
                               n=len(rows)), "rows")
    return rows


def parse_movement(raw) -> list[list[int]]:
    """The card's Movement Table, "velocity:maneuver/heading" entries ("2:3/2 3:2/1"), L61, L68-L72."""
    if isinstance(raw, list):
        entries = [f"{v}:{m}/{h}" for v, m, h in raw]
    else:
        entries = [e for e in re.split(r"[,;\s]+(?=\d+\s*:)", str(raw or "").strip()) if e.strip()]
    if not entries:
        raise RuleError(_("Enter the Movement Table from your card: each Velocity with its Maneuver and Heading "
                          "(the rules print no numbers for it)."), "movement")
    table = []
    for entry in entries:
        m = MOVE_RE.match(entry.strip())
        if not m:
            raise RuleError(_("Movement entry %(entry)r is not velocity:maneuver/heading (e.g. 3:2/1).", entry=entry.strip()),
                            "movement")
        v, man, head = (int(x) for x in m.groups())
        if head > 6:  # L72: 30 degrees per Heading point, a clock face: 6 is already about-face
            raise RuleError(_("Heading %(heading)s at velocity %(velocity)s turns more than 180 degrees (6 is the most).",
                              heading=head, velocity=v), "movement")
        table.append([v, man, head])
    velocities = [v for v, _m, _h in table]
    if len(set(velocities)) != len(velocities):
        raise RuleError(_("Each velocity appears once in the Movement Table."), "movement")
    return sorted(table)


def parse_chart(raw: dict) -> dict:
    """The card's Miss/Glance/Hit chart (L62, L88): Accuracy totals up to ``miss`` miss, up to
    ``glance`` glance, above hit.  Decision (the seed gives bands only as an example, "1-2, 1-3",
    L199): two thresholds the player enters from the card."""
    raw = raw or {}
    if raw.get("miss") in (None, "") or raw.get("glance") in (None, ""):
        raise RuleError(_("Enter the Miss/Glance/Hit chart from your card: the highest Accuracy that misses and "
                          "the highest that glances (the rules print no numbers for it)."), "chart")
    miss = CHART_MISS.parse(raw["miss"], "chart")
    glance = CHART_GLANCE.parse(raw["glance"], "chart")
    if glance < miss:
        raise RuleError(_("The highest glance must be at least the highest miss."), "chart")
    return {"miss": miss, "glance": glance}


def clean_item(raw: dict, n: int, size: int) -> dict:
    """One piece of equipment, checked against its own rules (L150-L214, L220-L239)."""
    field = f"equipment.{n}"
    item, slot = raw.get("item"), raw.get("slot")
    if item not in WEAPONS and item not in COMPONENTS:
        raise RuleError(_("Equipment %(n)s: choose a weapon or component.", n=n + 1), field)
    if slot not in ("primary", "secondary"):
        raise RuleError(_("Equipment %(n)s: choose Primary or Secondary.", n=n + 1), field)
    arcs = [a for a in (raw.get("arcs") or []) if a]
    if isinstance(raw.get("arcs"), str):
        arcs = [a for a in raw["arcs"].upper().replace(",", " ").replace("/", " ").split() if a]
    variant = raw.get("variant") or None
    out = {"slot": slot, "item": item}
    if is_weapon(item):
        spec = WEAPONS[item]
        if any(a not in ARCS for a in arcs) or not arcs:
            raise RuleError(_("Equipment %(n)s: a weapon fires through at least one arc (%(arcs)s).", n=n + 1,
                              arcs=", ".join(ARCS)), field)
        if variant and variant not in VARIANTS:
            raise RuleError(_("Equipment %(n)s: unknown variant %(variant)r.", n=n + 1, variant=variant), field)
        if variant and not spec["variant"]:
            raise RuleError(_("%(weapon)s may not be a Variant (%(line)s).", weapon=spec["name"], line=spec["line"]), field)
        if variant and VARIANTS[variant].get("primary_only") and slot != "primary":
            raise RuleError(_("%(variant)s may only be applied to Primary Weapons (%(line)s).", variant=VARIANTS[variant]["name"],
                              line=VARIANTS[variant]["line"]), field)
        if variant == "structural" and len(arcs) != 1:
            raise RuleError(_("Structurally Mounted allows only one Firing Arc (L158)."), field)
        if variant == "linked":
            out["linked"] = LINKED.parse(raw.get("linked") or 1, field)
        out.update(arcs=sorted(set(arcs), key=list(ARCS).index), variant=variant)
        if size == 0 and slot == "secondary":
            raise RuleError(_("A Fighter may not take a Weapon as a secondary slot (L221)."), field)
    else:
        spec = COMPONENTS[item]
        if variant:
            raise RuleError(_("Equipment %(n)s: only weapons take a variant.", n=n + 1), field)
        if slot not in spec["slots"]:
            raise RuleError(_("%(component)s is a %(slots)s component (%(line)s).", component=spec["name"],
                              slots=" or ".join(spec["slots"]), line=spec["line"]), field)
        if size == 0 and spec.get("ship_only"):
            raise RuleError(_("A Fighter may not take the %(component)s (L222).", component=spec["name"]), field)
        if size > 0 and spec.get("fighter_only"):
            raise RuleError(_("%(component)s is a Fighter-specific component (L234-L239).", component=spec["name"]), field)
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
        raise RuleError(_("Name the ship (1 to 40 characters)."), "name")
    size = SIZE.parse(raw.get("size"), "size")
    card = {"name": name, "size": size, "rows": parse_rows(raw.get("rows"), size),
            "chart": parse_chart(raw.get("chart"))}
    items = [e for e in (raw.get("equipment") or []) if e and (e.get("item") or e.get("slot"))]
    if len(items) > MAX_EQUIPMENT:
        raise RuleError(_("At most %(most)s pieces of equipment on one card.", most=MAX_EQUIPMENT), "equipment")
    card["equipment"] = [clean_item(e, n, size) for n, e in enumerate(items)]
    kinds = [e["item"] for e in card["equipment"]]
    if "hangar" in kinds and "launch" not in kinds:
        raise RuleError(_("A Fighter Hangar needs a Fighter Launch Hangar on the same ship (L212)."), "equipment")
    card["arc_points"] = {a: Int(-50, 50, what=ARC_MODIFIERS[a]).parse(
        (raw.get("arc_points") or {}).get(a) or 0, "arc_points") for a in ARCS}
    if size == 0:
        primary = [e for e in card["equipment"] if e["slot"] == "primary"]
        if len(primary) > 1:
            raise RuleError(_("A second Primary may not be added to a Fighter (L242)."), "equipment")
        if any(e["item"] == "pws" and e["slot"] != "primary" for e in card["equipment"]):
            raise RuleError(_("A Fighter taking a Proximity Weapon System equips it as a Primary slot (L223)."), "equipment")
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
    (0 unless they agree otherwise) and it is added for each arc the weapon fires out of.  The why is
    words of a points line (``Said``: the designer's check draws it in the reader's language)."""
    spec = COMPONENTS.get(item["item"], {})
    if "points" in spec:
        return spec["points"], f"{spec['name']} {spec['points']} ({spec['line']})"
    base = PRIMARY_COST if item["slot"] == "primary" else SECONDARY_COST
    why = f"{base}"
    if item.get("variant") == "structural":
        base, why = 2 * PRIMARY_COST, Said("two Primary Components 40 (L158)")
    arcs = sum(arc_points.get(a, 0) for a in item.get("arcs") or [])
    if arcs:
        why = Said("%(why)s %(arcs)+d arcs", why=why, arcs=arcs)
    cost = base + arcs
    if item.get("variant") == "oversized":
        cost = math.ceil(cost * (100 + VARIANTS["oversized"]["points_percent"]) / 100)
        why = Said("%(why)s +30%% round up (L157)", why=why)
    return cost, why


def points(card: dict, per_item: bool = False, said: bool = False) -> dict:
    """The card's points.  Ships, L399: [(Size x 30) + Primary + Secondary] x (Ship Cost Modifiers);
    "Any number of Primary Equipment that exceeds the Ship's Size adds 10%" (L400), Secondary 5%
    (L401).  Decision: the surcharge is added once ("any number ... adds 10%"); with ``per_item``
    (a table setting) it is added for each item over the Size.  Modifiers add up; the seed gives no
    rounding for the total, so it is rounded up like the Oversized cost (L157).

    The lines are kept with the card (its library entry, the table's state): English.  ``said``: the
    lines as ``Said`` instead, for a page to draw in the reader's language (views, the designer's check)."""
    if card["size"] == 0:
        return fighter_points(card, said)
    lines = [Said("Size %(size)s x %(per)s = %(total)s", size=card["size"], per=BASE_PER_SIZE,
                  total=card["size"] * BASE_PER_SIZE)]
    subtotal = card["size"] * BASE_PER_SIZE
    for item in card["equipment"]:
        cost, why = item_cost(item, card.get("arc_points") or {})
        subtotal += cost
        lines.append(Said("%(item)s: %(cost)s (%(why)s)", item=item["label"], cost=cost, why=why))
    primary, secondary = slots_used(card["equipment"])
    over_p, over_s = max(0, primary - card["size"]), max(0, secondary - card["size"])
    percent = (PRIMARY_SURCHARGE * (over_p if per_item else min(over_p, 1))
               + SECONDARY_SURCHARGE * (over_s if per_item else min(over_s, 1)))
    if percent:
        lines.append(Said("%(primary)s Primary / %(secondary)s Secondary for Size %(size)s: +%(percent)s%% (L400-L401)",
                          primary=primary, secondary=secondary, size=card["size"], percent=percent))
    total = math.ceil(subtotal * (100 + percent) / 100)
    return {"subtotal": subtotal, "percent": percent, "total": total, "lines": _kept(lines, said),
            "primary": primary, "secondary": secondary}


def _kept(lines: list, said: bool) -> list:
    """The points lines as said (a page draws them), or as the card keeps them: plain English."""
    return lines if said else [str(line) for line in lines]


def fighter_points(card: dict, said: bool = False) -> dict:
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
        lines.append(Said("%(n)s additional Secondary: +%(percent)s%% (L244)", n=extra, percent=percent))
    return {"subtotal": subtotal, "percent": percent, "total": math.ceil(subtotal * (100 + percent) / 100),
            "lines": _kept(lines, said), "primary": len(primary), "secondary": len(secondary)}


def damage_track(card: dict, whole_track: bool = False) -> int:
    """What "equal to the Ship's Damage Track" (L191, L194) measures.  AMBIGUOUS: one health row or
    every row.  Default: one health row (the first; "An average ship health track contains 10",
    L92, calls a row a track); the table setting ``whole_track`` reads it as all rows together."""
    return sum(card["rows"]) if whole_track else card["rows"][0]
