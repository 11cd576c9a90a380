"""Astral Action weapons, variants and components (seed 004, Chapter 6 "Equipment Readout").

Pure data and lookups.  Line numbers (Lnnn) are lines of seed 004_e85f9e131f7d896f.txt; the same
numbers are in content/astral-action/tables/weapons.toml, variants.toml and components.toml.
"""
from __future__ import annotations

import math

from companion.errors import RuleError
from companion.said import N_, _

# Weapon types, L160-L182.  ``bands``: (name, range, accuracy modifier, damage dice) in order; the
# first band is normal range, the others are Extended Range (Y) with accuracy -(Y) (L152).
# Damage dice: "d6"; "2d6" = two d6 added; "best2" = the higher of two d6.
WEAPONS = {
    "kinetic": {"name": "Kinetic", "pws": False, "variant": True, "line": "L160-L163", "ranges": "L161-L162",
                "bands": [("normal", 10, 0, "d6"), ("extended 1", 18, -1, "d6")],
                # L163: "An Accuracy roll that is greater than the undamaged value of an Armor or
                # Shield component ignores that Component when assigning damage."
                "special": "Accuracy roll > undamaged value of an Armor or Shield component: that component is ignored (L163)."},
    "beam": {"name": "Beam", "pws": False, "variant": True, "line": "L165-L168", "ranges": "L166-L167",
             "bands": [("normal", 12, 0, "d6"), ("extended 1", 20, -1, "d6")],
             "special": "Always damages Shield tracks first, if any (L168)."},
    "rockets": {"name": "Rockets", "pws": True, "variant": False, "line": "L170-L176", "ranges": "L171-L173",
                # L176: "Damage at normal Range is two d6. Damage at Extended Range 1 is the higher of
                # two d6 rolls. Damage at Extended Range 2 is one d6."
                "bands": [("normal", 6, 0, "2d6"), ("extended 1", 12, -1, "best2"), ("extended 2", 18, -2, "d6")],
                "special": "Affected by PWS; may not be a Variant (L174-L175)."},
    "missiles": {"name": "Missiles", "pws": True, "variant": False, "line": "L178-L182", "ranges": "L179",
                 "bands": [("normal", 24, 0, "d6")],
                 "special": "Within 10: ignores Blocking terrain. Farther: place a Missile token within 10; "
                            "it resolves at the start of the Resolution phase (L182)."},
}
MISSILE_DIRECT = 10  # L182 "If within 10 Range, the attack ignores Blocking Terrain"
# L278, a [Marked] token spent (Mark Target, L275-L279): "This Ship may add 4 Distance to the largest
# Range/Extended range values of its Weapons for this Attack Phase".  Read as each weapon's largest value,
# as Oversized's "the highest Range or Extended Range value" (L157): a fighter, which cannot attack at
# Extended Range (L226), gains nothing from it with a Kinetic or Beam weapon.
MARKED_RANGE = 4
# L362, the optional Beam-specialist faction: "adds 2 to the Range (but not Extended Range) at the expense
# of being restricted to Beam Weapons only".
SPECIALIST_RANGE = 2
AWS_REACH_PER_SIZE = 2  # L189 "within (Ship Size x 2) distance of this Ship"

# Variants, L155-L158.  One per weapon (L155).
VARIANTS = {
    "linked": {"name": "Linked (X)", "line": "L156"},
    "oversized": {"name": "Oversized", "line": "L157", "accuracy": -1, "dice": "best2", "range": 2,
                  "points_percent": 30, "primary_only": True},
    "structural": {"name": "Structurally Mounted", "line": "L158", "accuracy": -1, "dice": "2d6", "range": 4,
                   "primary_only": True, "slots": 2, "one_arc": True},
}

# Components, L184-L214 and fighter-specific L234-L239.  ``slots``: where the seed gives an effect.
# Where the seed gives only a Primary (or only a Secondary) effect, the other slot is not offered:
# the seed says nothing it would do there.
COMPONENTS = {
    "aws": {"name": "Area Weapons System", "slots": ("primary",), "line": "L186-L189", "ship_only": True,
            "primary": "Passive: every ship within Size x 2 counts one extra PWS against missiles and fighters. "
                       "Active: in this ship's activation remove one missile token or deal d6 to one fighter "
                       "within Size x 2, per AWS."},
    "armor": {"name": "Armor", "slots": ("primary", "secondary"), "line": "L190-L192",
              "primary": "Armor track equal to the Ship's Damage Track.",
              "secondary": "Armor track equal to one-half of the Damage Track (round up)."},
    "shields": {"name": "Shields", "slots": ("primary", "secondary"), "line": "L193-L196",
                "primary": "Shield track equal to the Ship's Damage Track.",
                "secondary": "Shield track equal to one-half of the Damage Track (round up). Accuracy roll "
                             "greater than its undamaged portion: ignored (L196)."},
    "avoidance": {"name": "Avoidance", "slots": ("primary", "secondary"), "line": "L197-L199",
                  "primary": "Attacks against this ship: -1 Accuracy.",
                  "secondary": "Glancing Hit band extended by 1."},
    "boosters": {"name": "Boosters", "slots": ("primary",), "line": "L200-L202",
                 "primary": "One additional [Navigate] Order per turn (discarded only for a [Navigate] Command)."},
    "maneuver": {"name": "Maneuver Enhance", "slots": ("secondary",), "line": "L203-L204",
                 "secondary": "Maneuver profile of a ship one Size smaller (stackable)."},
    "heading": {"name": "Heading Enhance", "slots": ("secondary",), "line": "L205-L206",
                "secondary": "Heading profile of a ship one Size smaller (stackable)."},
    "sensors": {"name": "Advanced Sensors", "slots": ("secondary",), "line": "L207-L208",
                "secondary": "One additional [Scanning] Order per turn (discarded only for a [Scanning] Command)."},
    "launch": {"name": "Fighter Launch Hangar", "slots": ("primary",), "line": "L209-L210", "points": 5,
               "ship_only": True,
               "primary": "One more unit of Fighters; launch or collect one unit per turn within 2. Costs 5 points."},
    "hangar": {"name": "Fighter Hangar", "slots": ("primary",), "line": "L211-L212", "points": 0,
               "ship_only": True, "needs": "launch",
               "primary": "One more unit of Fighters, starting aboard; needs a Fighter Launch Hangar. Costs 0 points."},
    "pws": {"name": "Proximity Weapon System", "slots": ("primary", "secondary"), "line": "L213-L214",
            "primary": "-1 damage from weapons Affected by PWS; PWS exchange within 2: d6 per PWS each way.",
            "secondary": "As Primary (the seed gives no difference)."},
    # fighter-specific components (L234-L239): "considered Secondary slots unless otherwise specified"
    "ftl": {"name": "FTL Drives", "slots": ("secondary",), "line": "L236", "fighter_only": True,
            "secondary": "No carrier needed; may be given [Hyperspace] Orders."},
    "fpws": {"name": "Fighter PWS", "slots": ("secondary",), "line": "L237", "fighter_only": True,
             "secondary": "One extra PWS in PWS exchanges with other fighters."},
    "interceptor": {"name": "Interceptor Boosters", "slots": ("secondary",), "line": "L238", "fighter_only": True,
                    "secondary": "Moves up to 10 instead of 7."},
    "payload": {"name": "Extended Payload", "slots": ("secondary",), "line": "L239", "fighter_only": True,
                "secondary": "The weapon fires one more time before resupplying."},
}

# Firing arcs: the seed never names them (design doc section 10, SILENT).  Decision: the four
# quarters players draw on a SIC; a weapon lists the arcs it may fire through.
# The names are the app's words (the designer says them in the reader's words: views, ``said_names``).
ARCS = {"F": N_("Fore"), "A": N_("Aft"), "P": N_("Port"), "S": N_("Starboard")}

FIGHTER_MOVE, INTERCEPTOR_MOVE = 7, 10  # L219, L238
FIGHTER_HEALTH = 6  # L231 "By default, all Fighters have six Health in their damage track."


def is_weapon(item: str) -> bool:
    return item in WEAPONS


def label(item: dict) -> str:
    """"Primary Kinetic (Oversized) F/P" for a piece of equipment."""
    name = WEAPONS[item["item"]]["name"] if is_weapon(item["item"]) else COMPONENTS[item["item"]]["name"]
    variant = item.get("variant")
    if variant == "linked":
        name += f" (Linked {item.get('linked', 1)})"
    elif variant:
        name += f" ({VARIANTS[variant]['name']})"
    arcs = "/".join(item.get("arcs") or [])
    return f"{item['slot'].capitalize()} {name}" + (f" {arcs}" if arcs else "")


def weapon_size(ship_size: int, slot: str, fighter_weapon_size: int | None = None) -> int:
    """L150: a Primary weapon is the Ship's Size, a Secondary one Size smaller; a fighter's weapon
    has the size chosen when the fighter was created (L225)."""
    if ship_size == 0:
        return int(fighter_weapon_size or 0)
    return ship_size if slot == "primary" else ship_size - 1


def bands(item: dict, marked: bool = False, specialist: bool = False) -> list[dict]:
    """The range bands of a weapon with its variant: Oversized adds 2 and Structurally Mounted 4 to
    "the highest Range or Extended Range value" (L157, L158); ``marked``: a [Marked] token spent for range
    adds MARKED_RANGE there too (L278); ``specialist``: a Beam-specialist faction's Beam adds
    SPECIALIST_RANGE to its Range, not its Extended Range (L362)."""
    spec = WEAPONS[item["item"]]
    out = [{"name": n, "range": r, "accuracy": a, "dice": d} for n, r, a, d in spec["bands"]]
    extra = VARIANTS.get(item.get("variant") or "", {}).get("range", 0) + (MARKED_RANGE if marked else 0)
    if extra:
        out[-1]["range"] += extra
    if specialist and item["item"] == "beam":
        out[0]["range"] += SPECIALIST_RANGE
    return out


def band_words(band: dict) -> str:
    """"normal range", "Extended 1": a band as the players read it (in the reader's words: a refusal's part)."""
    return _("normal range") if band["name"] == "normal" else band["name"].capitalize()


def band_at(item: dict, distance: float, marked: bool = False, specialist: bool = False) -> int:
    """The range band a measured distance falls in: the first band whose range reaches it.  L151
    "(X) Range: The distance (X) from the Ship that a Weapon may effectively attack"; L152 "(X)
    Extended Range (Y): The distance (X ..." with accuracy -(Y).  The one place a distance becomes a
    band (the attack, the odds and the Missile token all call it); ``marked``, ``specialist``: as ``bands``."""
    all_bands = bands(item, marked, specialist)
    for index, band in enumerate(all_bands):
        if distance <= band["range"]:
            return index
    spec = WEAPONS[item["item"]]
    raise RuleError(_("%(weapon)s reaches %(range)s (%(lines)s): %(distance)g is out of range.",
                      weapon=item.get("label") or spec["name"], range=all_bands[-1]["range"], lines=spec["ranges"],
                      distance=distance), "distance")


def needs_missile_token(item: dict, distance: float) -> bool:
    """L182 "If the target is farther than 10, place a Missile token within 10 of the attacking Ship"."""
    return item["item"] == "missiles" and distance > MISSILE_DIRECT


def track_size(slot: str, damage_track: int) -> int:
    """Armor and Shields, L191-L195: Primary = the Damage Track, Secondary = one-half, round up."""
    return damage_track if slot == "primary" else math.ceil(damage_track / 2)
