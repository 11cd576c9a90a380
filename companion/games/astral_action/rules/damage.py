"""The damage track (Shields, Armor, Health rows) and Conditions, seed 004 L91-L114, L190-L196, L258.

A ship's track in play: ``rows`` [{"size", "filled"}], ``tracks`` [{"eq", "kind", "size", "filled"}]
(one per Shield or Armor component), ``conditions`` (names), ``inactive`` (equipment indexes).
Pure.

Order of damage across the tracks: the seed only says Beam "Always damages Shield health tracks
first (if any)" (L168).  Decision: Shields, then Armor, then Health, the order in which the SIC's
Damage Track is described ("The Damage Track represents the Shields, Armor and Health of the Ship",
L60); table setting ``damage_order`` = 1 puts Armor before Shields (Beam still hits Shields first).
"""
from __future__ import annotations

from companion.errors import RuleError
from companion.games.astral_action.rules.equipment import COMPONENTS, is_weapon
from companion.said import N_, Said, _
from companion.schema import whole_argument

CONDITIONS = {2: "Catastrophic Damage", 3: "Critical Damage", 4: "Structural Damage", 5: "Structural Damage",
              6: "Serious Damage", 7: "Serious Damage", 8: "Weapons Damage", 9: "Component Damage",
              10: "Communications Damage", 11: "Propulsion Damage", 12: "No Condition Generated"}  # L97-L111
SERIOUS_DAMAGE = 2  # L100 "This Ship immediately takes 2 damage."
STRUCTURAL_EXTRA = 1  # L99 "When taking damage to Ship Health, this Ship takes 1 additional damage."
LOCKS = {"Weapons Damage": "Offensive", "Component Damage": "Defensive", "Propulsion Damage": "Navigate"}  # L101-L110
COMMAND_TYPES = ("Offensive", "Defensive", "Navigate", "Scanning", "Hyperspace")


def new_track(card: dict, track_len: int) -> dict:
    """The track of a ship entering play: empty rows, and a Shield or Armor track per component."""
    from companion.games.astral_action.rules.equipment import track_size
    tracks = [{"eq": i, "kind": e["item"], "size": track_size(e["slot"], track_len), "filled": 0}
              for i, e in enumerate(card["equipment"]) if e["item"] in ("shields", "armor")]
    return {"rows": [{"size": n, "filled": 0} for n in card["rows"]], "tracks": tracks, "conditions": [],
            "inactive": [], "propulsion": [], "pending": 0, "determined": None, "must_choose": None}


def health_left(ship: dict) -> int:
    return sum(r["size"] - r["filled"] for r in ship["rows"])


def destroyed(ship: dict) -> bool:
    return all(r["filled"] >= r["size"] for r in ship["rows"])


def fill_health(ship: dict, amount: int, brace: bool = False) -> tuple[list[str], int]:
    """Mark Health "along one row at a time" (L92); each row completed generates a Condition (L93).
    Brace for Impact (L258): damage past the row it finishes is disregarded this turn.  The steps are
    parts of the move's label (``Said``)."""
    steps, filled_rows = [], 0
    if amount > 0 and "Structural Damage" in ship["conditions"]:
        amount += STRUCTURAL_EXTRA
        steps.append(f"+{STRUCTURAL_EXTRA} Structural Damage (L99)")
    for n, row in enumerate(ship["rows"], start=1):
        if amount <= 0:
            break
        room = row["size"] - row["filled"]
        if room <= 0:
            continue
        take = min(room, amount)
        row["filled"] += take
        amount -= take
        steps.append(Said("health row %(n)s: %(left)s/%(size)s left", n=n, left=row["size"] - row["filled"], size=row["size"]))
        if row["filled"] == row["size"]:
            filled_rows += 1
            if brace and amount > 0:
                steps.append(Said("Brace for Impact: %(n)s more disregarded (L258)", n=amount))
                amount = 0
    return steps, filled_rows


def take_damage(ship: dict, amount: int, *, roll: int | None = None, kinetic: bool = False, beam: bool = False,
                order: int = 0, brace: bool = False) -> dict:
    """Apply ``amount`` damage (already positive and scaled by the hit).  ``roll``: the Accuracy roll
    that may bypass a component (L163, L196); None for damage that is not an attack."""
    whole_argument(amount, "amount", 0, what=N_("Damage"))  # a stored move is not read by its field again
    steps = []
    left = amount
    kinds = ["shields", "armor"] if order == 0 or beam else ["armor", "shields"]
    for kind in kinds:
        for track in ship["tracks"]:
            if left <= 0 or track["kind"] != kind or track["eq"] in ship["inactive"]:
                continue
            undamaged = track["size"] - track["filled"]
            if undamaged <= 0:
                continue
            if roll is not None and roll > undamaged and (kind == "shields" or kinetic):
                steps.append(Said("shields ignored: Accuracy roll %(roll)s > %(undamaged)s undamaged (L196)", roll=roll,
                                  undamaged=undamaged) if kind == "shields"
                             else Said("armor ignored: Accuracy roll %(roll)s > %(undamaged)s undamaged (L163)", roll=roll,
                                       undamaged=undamaged))
                continue
            take = min(undamaged, left)
            track["filled"] += take
            left -= take
            # counted as every surface counts a track: boxes left of its size (the board's "Armor 2/5")
            left_of = {"left": track["size"] - track["filled"], "size": track["size"]}
            steps.append(Said("shields %(left)s/%(size)s left", **left_of) if kind == "shields"
                         else Said("armor %(left)s/%(size)s left", **left_of))
    health_steps, rows = fill_health(ship, left, brace) if left > 0 else ([], 0)
    ship["pending"] += 0 if destroyed(ship) else rows
    return {"steps": steps + health_steps, "rows_filled": rows, "destroyed": destroyed(ship)}


def condition_of(roll: int) -> str:
    if not 2 <= roll <= 12:
        raise RuleError(_("A Condition roll is two d6: 2 to 12."), "dice")
    return CONDITIONS[roll]


def choices(ship: dict, card: dict, what: str) -> dict:
    """Active weapons (or components) a Condition may deactivate, by slot.  L113: not one "already
    rendered functionally ineffective (eg. an Armor component with a damage track ... completely filled)".
    Structurally Mounted counts as both (L158)."""
    full = {t["eq"] for t in ship["tracks"] if t["filled"] >= t["size"]}
    out = {"primary": [], "secondary": []}
    for i, item in enumerate(card["equipment"]):
        weapon = is_weapon(item["item"])
        match = weapon if what == "weapon" else (not weapon or item.get("variant") == "structural")
        if match and i not in ship["inactive"] and i not in full:
            out[item["slot"]].append(i)
    return out


def has_effect(ship: dict, card: dict, name: str) -> bool:
    """L96 "Reroll any result that cannot have a functional effect" on this ship.  Decision: a
    Condition the ship already has does not stack unless it does something new (the seed marks
    stacking where it allows it, "(stackable)", L204)."""
    have = ship["conditions"]
    if name in ("Catastrophic Damage", "Critical Damage", "Serious Damage", "No Condition Generated"):
        return True
    if name in ("Structural Damage", "Communications Damage"):
        return name not in have
    if name in ("Weapons Damage", "Component Damage"):
        what = "weapon" if name == "Weapons Damage" else "component"
        c = choices(ship, card, what)
        return name not in have or bool(c["primary"] or c["secondary"])
    if name == "Propulsion Damage":
        return name not in have or len(ship["propulsion"]) < 2
    raise RuleError(_("Unknown condition %(name)r.", name=name), "dice")


def apply_condition(ship: dict, card: dict, name: str, pick: list[int] | None = None,
                    option: str | None = None) -> list[str]:
    """Record a Condition on the ship and apply what the app can (L97-L111); returns what happened
    (parts of the move's label: ``Said``, a Condition's name as it is)."""
    out = []
    if name == "No Condition Generated":
        return [Said("no condition")]
    if name == "Catastrophic Damage":
        ship["conditions"].append(name)
        for row in ship["rows"]:
            row["filled"] = row["size"]
        return [Said("a chain reaction destroys the ship (L97)")]
    if name == "Critical Damage":
        ship["conditions"].append(name)
        ship["pending"] += 2
        return [Said("roll two more times (L98)")]
    if name in ("Weapons Damage", "Component Damage"):
        what = "weapon" if name == "Weapons Damage" else "component"
        c = choices(ship, card, what)
        pick = pick or []
        if c["primary"] or c["secondary"]:
            primary = [i for i in pick if i in c["primary"]]
            secondary = [i for i in pick if i in c["secondary"]]
            want_two = min(2, len(c["secondary"]))
            ok = (len(pick) == 1 and primary) or (len(pick) == want_two and len(secondary) == want_two and want_two)
            if not ok or len(set(pick)) != len(pick):
                raise RuleError(_("Choose one Primary weapon or two Secondary weapons to deactivate (L101-L103).")
                                if what == "weapon"
                                else _("Choose one Primary component or two Secondary components to deactivate (L104-L106)."),
                                "pick")
            ship["inactive"] += pick
            out.append(Said("deactivated: %(items)s", items=", ".join(card["equipment"][i]["label"] for i in pick)))
    if name == "Propulsion Damage":
        left = [o for o in ("a", "b") if o not in ship["propulsion"]]
        if left:
            if option not in left:
                raise RuleError(_("Choose (a) no [Hyperspace] Commands or (b) no Velocity change, one that does "
                                  "not already apply (L108-L110)."), "option")
            ship["propulsion"].append(option)
            out.append(Said("no [Hyperspace] Commands") if option == "a" else Said("Velocity may not change"))
    ship["conditions"].append(name)  # counted one by one for Conditions Inflicted (L348)
    if name == "Serious Damage":
        steps, rows = fill_health(ship, SERIOUS_DAMAGE)
        # SILENT whether this can fill a row; L93 "When a row has been completed, the Ship should
        # immediately generate a CONDITION": it does, like any other damage.
        ship["pending"] += 0 if destroyed(ship) else rows
        out += [Said("takes 2 damage (L100)")] + steps
    return out or [name]


def locked_types(ship: dict) -> set[str]:
    """Order/Command types a ship may no longer use because of its Conditions (L101-L110)."""
    out = {LOCKS[c] for c in ship["conditions"] if c in LOCKS}
    if "Communications Damage" in ship["conditions"]:
        out |= {t for t in COMMAND_TYPES if t != "Hyperspace"}
    return out


def pws_count(ship: dict, card: dict) -> int:
    return sum(1 for i, e in enumerate(card["equipment"]) if e["item"] == "pws" and i not in ship["inactive"])


def has_active(ship: dict, card: dict, item: str, slot: str | None = None) -> int:
    return sum(1 for i, e in enumerate(card["equipment"]) if e["item"] == item and i not in ship["inactive"]
               and (slot is None or e["slot"] == slot))


def reinforce(ship: dict, size: int, shields: int) -> int:
    """Reinforce Shields (L259): remove Shield damage equal to Size + Number of Shields equipped."""
    left = size + shields
    removed = 0
    for track in ship["tracks"]:
        if track["kind"] == "shields" and left > 0:
            take = min(track["filled"], left)
            track["filled"] -= take
            left -= take
            removed += take
    return removed


def component_name(item: str) -> str:
    return COMPONENTS[item]["name"] if item in COMPONENTS else item
