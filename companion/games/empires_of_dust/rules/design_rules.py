"""Empires of Dust (seed 001, Ship Stats and Design; Weapon Stats and Design; Augmenters; Drone
Launchers; Bases; Specialization System): the fleet designer's checks, one sentence per broken rule.
"""
from __future__ import annotations

from companion.errors import RuleError
from companion.said import Said, _
from companion.schema import whole_argument

from .armour import _armour
from .seed_numbers import (
    ARMOUR_TYPE_MAX,
    ARMOUR_TYPES,
    AUGMENTER_LIMIT,
    BATTLESHIP_SPECIALISATIONS,
    SPECIAL_EXTRA_SLOT,
    SPECIALISATION_BONUS,
    _key,
)
from .tables import augmenters, auras, base_classes, equipment, ship_classes, specialisations, weapon_types


def _range_text(bounds: tuple[int, int]) -> str:
    lo, hi = bounds
    return str(lo) if lo == hi else f"{lo}-{hi}"


def _names(values, field: str) -> list[str]:
    if values is None:
        return []
    if not isinstance(values, list):
        raise RuleError(_("%(field)s must be a list of names.", field=field), field)
    return [_key(v) for v in values]


def _spec_ids(ship: dict) -> list[str]:
    return _names(ship.get("specialisations"), "specialisations")


def _equipment_id(name: str) -> tuple[str, str | None]:
    """'tractor-beam-push' -> ('tractor-beam', 'push')."""
    for mode in ("push", "pull"):
        if name == f"tractor-beam-{mode}":
            return "tractor-beam", mode
    return name, None


def design_violations(ship: dict) -> list[str]:
    """Every broken design rule of a ship, drone or base, one sentence each; [] when legal.

    Ship (seed 001, Ship Stats and Design): armour slots + speed + stealth + detection + 5 per
    piece of equipment + 10 per aura = the class stat total, each stat within the class range.
    Weapons (Weapon Stats and Design): range + penetration + damage + 5 per augmenter = the type
    total (drones -10, battleships +10), each stat within the type range; at most two augmenters,
    none on drone weapons (Augmenters); at most 20 armour of one type (Armour); specialisations by
    class, battleships any two different (Specialization System).
    """
    if not isinstance(ship, dict):
        raise RuleError(_("A ship is a table of its stats."), "ship")
    cls = _key(ship.get("class", ""))
    if cls in base_classes():
        return _base_violations(ship, cls)
    if cls not in ship_classes():
        known = ", ".join([*ship_classes(), *base_classes()])
        raise RuleError(_("Unknown class %(cls)r; choose one of %(known)s.", cls=ship.get("class"), known=known), "class")
    label = f"{ship.get('name', 'Unnamed')} ({cls})"
    if cls == "drone":
        return _drone_violations(ship, label)
    spec = ship_classes()[cls]
    out: list[str] = []
    specs = _spec_ids(ship)
    out += _specialisation_violations(label, cls, specs)
    armour = _armour(ship.get("armour"))
    extra = _armour(ship.get("extra_armour"), "extra_armour")
    out += _armour_type_violations(label, {t: armour[t] + extra[t] for t in ARMOUR_TYPES})
    if sum(extra.values()):
        # seed 001, Specialization System: Juggernaut "+10 armour slots" (decision: these 10 slots
        # are a free bonus outside the stat total, like Speed Demon's "+10 speed").
        if "juggernaut" not in specs:
            out.append(Said("%(ship)s: extra armour slots come only with the Juggernaut specialisation.", ship=label))
        elif sum(extra.values()) > SPECIALISATION_BONUS:
            out.append(Said("%(ship)s: the Juggernaut's extra armour is at most %(most)s; it has %(n)s.", ship=label,
                            most=SPECIALISATION_BONUS, n=sum(extra.values())))
    if "hp" in ship and whole_argument(ship["hp"], "hp") != spec["hp"]:
        out.append(Said("%(ship)s: a %(kind)s has %(hp)s health points, not %(given)s.", ship=label, kind=cls, hp=spec["hp"],
                        given=ship["hp"]))
    total_armour = sum(armour.values())
    stats = {"armour": total_armour}
    for stat in ("speed", "stealth", "detection"):
        stats[stat] = whole_argument(ship.get(stat, 0), stat)
    for stat, value in stats.items():
        lo, hi = spec[stat]
        if not lo <= value <= hi:
            out.append(Said("%(ship)s: %(stat)s %(value)s is outside the %(kind)s range %(range)s.", ship=label, stat=stat,
                            value=value, kind=cls, range=_range_text(spec[stat])))
    eq_cost, eq_out = _equipment_cost(label, _names(ship.get("equipment"), "equipment"))
    aura_cost, aura_out = _aura_cost(label, _names(ship.get("auras"), "auras"), "psy-ops" in specs)
    out += eq_out + aura_out
    used = total_armour + stats["speed"] + stats["stealth"] + stats["detection"] + eq_cost + aura_cost
    if used != spec["stat_total"]:
        out.append(Said("%(ship)s: armour %(armour)s + speed %(speed)s + stealth %(stealth)s + detection %(detection)s"
                        " + equipment %(equipment)s + auras %(auras)s = %(used)s, but a %(kind)s's stat total is %(total)s.",
                        ship=label, armour=total_armour, speed=stats["speed"], stealth=stats["stealth"],
                        detection=stats["detection"], equipment=eq_cost, auras=aura_cost, used=used, kind=cls,
                        total=spec["stat_total"]))
    out += _weapon_list_violations(label, ship.get("weapons"), spec["weapon_slots"], specs,
                                   spec["weapon_modifier"], cls)
    return out


def _armour_type_violations(label: str, armour: dict) -> list[str]:
    return [Said("%(ship)s: %(kind)s armour %(value)s is over %(most)s, the most of one type.", ship=label, kind=kind,
                 value=value, most=ARMOUR_TYPE_MAX)
            for kind, value in armour.items() if value > ARMOUR_TYPE_MAX]


def _specialisation_violations(label: str, cls: str, specs: list[str]) -> list[str]:
    out = []
    known = specialisations()
    for s in specs:
        if s not in known:
            out.append(Said("%(ship)s: unknown specialisation %(spec)r; they are %(known)s.", ship=label, spec=s,
                            known=", ".join(v["name"] for v in known.values())))
    valid = [s for s in specs if s in known]
    if cls == "battleship":
        if len(set(valid)) != len(valid):
            out.append(Said("%(ship)s: a battleship's two specialisations must be different.", ship=label))
        if len(specs) > BATTLESHIP_SPECIALISATIONS:
            out.append(Said("%(ship)s: a battleship takes at most two specialisations; it has %(n)s.", ship=label,
                            n=len(specs)))
        return out
    if len(specs) > 1:
        out.append(Said("%(ship)s: a %(kind)s takes at most one specialisation; it has %(n)s.", ship=label, kind=cls,
                        n=len(specs)))
    own = [v["name"] for v in known.values() if v["class"] == cls]
    for s in valid:
        if known[s]["class"] != cls:
            out.append(Said("%(ship)s: %(spec)s is a %(of)s specialisation; a %(kind)s can take %(own)s.", ship=label,
                            spec=known[s]["name"], of=known[s]["class"], kind=cls, own=" or ".join(own)))
    return out


def _equipment_cost(label: str, items: list[str]) -> tuple[int, list[str]]:
    cost, out = 0, []
    for item in items:
        kind, mode = _equipment_id(item)
        if kind not in equipment():
            out.append(Said("%(ship)s: unknown equipment %(item)r.", ship=label, item=item))
            continue
        if kind == "tractor-beam" and mode is None:
            # seed 001, Tractor Beam: "The beam must be defined as push or pull type."
            out.append(Said("%(ship)s: a tractor beam must be defined as push or pull (tractor-beam-push or "
                            "tractor-beam-pull).", ship=label))
        cost += equipment()[kind]["cost"]
    return cost, out


def _aura_cost(label: str, items: list[str], psy_ops: bool) -> tuple[int, list[str]]:
    cost, out = 0, []
    for item in items:
        if item not in auras():
            out.append(Said("%(ship)s: unknown aura %(item)r; auras are a boon or bane of speed, stealth, detection, "
                            "range, penetration or damage.", ship=label, item=item))
            continue
        cost += auras()[item]["cost"]
    known = [i for i in items if i in auras()]
    if psy_ops and known:
        # seed 001, Specialization System: Psy-Ops "+1 aura, no negative modifier" (decision: one
        # aura generator costs nothing against the stat total).
        cost -= auras()[known[0]]["cost"]
    return cost, out


def _weapon_list_violations(label: str, weapons, slots: int, specs: list[str], modifier: int,
                            host: str) -> list[str]:
    if weapons is None:
        weapons = []
    if not isinstance(weapons, list):
        raise RuleError(_("weapons must be a list of weapons."), "weapons")
    out = []
    launchers = sum(1 for w in weapons if isinstance(w, dict) and "drone" in w)
    guns = len(weapons) - launchers
    if "berserker" in specs:
        slots += SPECIAL_EXTRA_SLOT
    extra_launcher = SPECIAL_EXTRA_SLOT if "engineer" in specs else 0
    if guns > slots or len(weapons) > slots + min(extra_launcher, launchers):
        if extra_launcher:
            out.append(Said("%(ship)s: has %(slots)s weapon slots (+1 drone launcher slot for an Engineer) but carries "
                            "%(guns)s weapons and %(launchers)s drone launchers.", ship=label, slots=slots, guns=guns,
                            launchers=launchers))
        else:
            out.append(Said("%(ship)s: has %(slots)s weapon slots but carries %(guns)s weapons and %(launchers)s drone "
                            "launchers.", ship=label, slots=slots, guns=guns, launchers=launchers))
    for weapon in weapons:
        out += weapon_violations(weapon, owner=label, modifier=modifier, host=host)
    return out


def weapon_violations(weapon: dict, *, owner: str = "", modifier: int = 0, host: str = "ship") -> list[str]:
    """Broken weapon design rules (seed 001, Weapon Stats and Design, Augmenters, Drone Launchers).

    A weapon with a ``drone`` key is a drone launcher: its stats are the drone's single weapon
    (type total -10, no augmenters) and ``drone.armour`` is the drone's armour (5, one type).
    """
    if not isinstance(weapon, dict):
        raise RuleError(_("A weapon is a table of type, range, penetration, damage and augmenters."), "weapons")
    out = []
    is_drone = "drone" in weapon or host == "drone"
    kind = _key(weapon.get("type", ""))
    prefix = f"{owner}, " if owner else ""
    label = f"{prefix}{weapon.get('name', 'Unnamed weapon')} ({'drone ' if is_drone else ''}{kind})"
    if kind not in weapon_types():
        return [Said("%(weapon)s: unknown weapon type; weapons are beam, projectile or missile.", weapon=label)]
    wt = weapon_types()[kind]
    augs = _names(weapon.get("augmenters"), "augmenters")
    if is_drone:
        modifier = ship_classes()["drone"]["weapon_modifier"]
        if augs:
            out.append(Said("%(weapon)s: drone weapons cannot be augmented.", weapon=label))
        if "drone" in weapon:
            out += _drone_armour_violations(label, weapon["drone"])
    else:
        if len(augs) > AUGMENTER_LIMIT:
            out.append(Said("%(weapon)s: at most %(most)s augmenters per weapon; it has %(n)s.", weapon=label,
                            most=AUGMENTER_LIMIT, n=len(augs)))
        if len(set(augs)) != len(augs):
            # decision: the seed gives no effect for the same augmenter twice
            out.append(Said("%(weapon)s: its augmenters must be different.", weapon=label))
    for a in augs:
        if a not in augmenters():
            out.append(Said("%(weapon)s: unknown augmenter %(aug)r.", weapon=label, aug=a))
    values = {stat: whole_argument(weapon.get(stat, 0), stat) for stat in ("range", "penetration", "damage")}
    for stat, value in values.items():
        lo, hi = wt[stat]
        if not lo <= value <= hi:
            out.append(Said("%(weapon)s: %(stat)s %(value)s is outside the %(kind)s range %(range)s.", weapon=label,
                            stat=stat, value=value, kind=kind, range=_range_text(wt[stat])))
    aug_cost = sum(augmenters()[a]["cost"] for a in augs if a in augmenters())
    used = sum(values.values()) + aug_cost
    target = wt["total"] + modifier
    if used != target:
        if modifier == 0:
            why = kind
        elif is_drone:
            why = Said("%(kind)s %(total)s, %(modifier)+d for a drone", kind=kind, total=wt["total"], modifier=modifier)
        else:
            why = Said("%(kind)s %(total)s, %(modifier)+d for a battleship", kind=kind, total=wt["total"], modifier=modifier)
        out.append(Said("%(weapon)s: range %(range)s + penetration %(penetration)s + damage %(damage)s + augmenters "
                        "%(augmenters)s = %(used)s, but it must equal %(target)s (%(why)s).", weapon=label,
                        range=values["range"], penetration=values["penetration"], damage=values["damage"],
                        augmenters=aug_cost, used=used, target=target, why=why))
    return out


def _drone_armour_violations(label: str, drone) -> list[str]:
    if not isinstance(drone, dict):
        raise RuleError(_("A drone launcher's drone is a table with its armour."), "drone")
    armour = _armour(drone.get("armour"), "drone.armour")
    return _drone_armour_rules(label, armour)


def _drone_armour_rules(label: str, armour: dict) -> list[str]:
    out = []
    if sum(1 for v in armour.values() if v) > 1:
        # seed 001, Armour: "Drones must have all of their armour be of the same type."
        out.append(Said("%(ship)s: drones must have all of their armour of one type.", ship=label))
    lo, hi = ship_classes()["drone"]["armour"]
    if not lo <= sum(armour.values()) <= hi:
        out.append(Said("%(ship)s: drone armour %(armour)s must be %(range)s.", ship=label, armour=sum(armour.values()),
                        range=_range_text((lo, hi))))
    return out


def _drone_violations(ship: dict, label: str) -> list[str]:
    spec = ship_classes()["drone"]
    out = _drone_armour_rules(label, _armour(ship.get("armour")))
    for stat in ("speed", "stealth", "detection"):
        if stat in ship and whole_argument(ship[stat], stat) != spec[stat][0]:
            out.append(Said("%(ship)s: a drone's %(stat)s is %(value)s, not %(given)s.", ship=label, stat=stat,
                            value=spec[stat][0], given=ship[stat]))
    if "hp" in ship and whole_argument(ship["hp"], "hp") != spec["hp"]:
        out.append(Said("%(ship)s: a drone has %(hp)s health points, not %(given)s.", ship=label, hp=spec["hp"],
                        given=ship["hp"]))
    for what in ("equipment", "auras", "specialisations"):
        if ship.get(what):
            # seed 001, Drone Launchers: "unable to have equipment, take aura effects or specializations"
            out.append(Said("%(ship)s: drones cannot have %(what)s.", ship=label, what=what))
    weapons = ship.get("weapons") or []
    if len(weapons) > spec["weapon_slots"]:
        out.append(Said("%(ship)s: a drone equips a single weapon; it has %(n)s.", ship=label, n=len(weapons)))
    for weapon in weapons:
        if isinstance(weapon, dict) and "drone" in weapon:
            out.append(Said("%(ship)s: a drone cannot carry a drone launcher.", ship=label))
        out += weapon_violations(weapon, owner=label, host="drone")
    return out


def _base_violations(base: dict, cls: str) -> list[str]:
    spec = base_classes()[cls]
    label = f"{base.get('name', 'Unnamed')} ({cls})"
    armour = _armour(base.get("armour"))
    out = _armour_type_violations(label, armour)
    if sum(armour.values()) > spec["armour_slots"]:
        out.append(Said("%(ship)s: armour %(armour)s is more than the %(slots)s armour slots of a %(kind)s.", ship=label,
                        armour=sum(armour.values()), slots=spec["armour_slots"], kind=cls))
    for stat in ("hp", "stealth", "detection"):
        if stat in base and whole_argument(base[stat], stat) != spec[stat]:
            out.append(Said("%(ship)s: a %(kind)s's %(stat)s is %(value)s, not %(given)s.", ship=label, kind=cls, stat=stat,
                            value=spec[stat], given=base[stat]))
    for what in ("equipment", "auras", "specialisations"):
        if base.get(what):
            # decision: bases have no stat total to pay for equipment or auras, and the
            # specialisation table lists ship classes only (seed 001, Bases).
            out.append(Said("%(ship)s: bases take weapons and drones only, not %(what)s.", ship=label, what=what))
    out += _weapon_list_violations(label, base.get("weapons"), spec["weapon_slots"], [], 0, cls)
    return out


def fleet_violations(ships: list[dict]) -> list[str]:
    """Every design violation of every ship of a fleet."""
    return [v for ship in ships for v in design_violations(ship)]
