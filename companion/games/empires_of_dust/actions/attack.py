"""Empires of Dust: attacks (seed 001, Combat Phase): detection, armour, penetration, augmenters.
"""
from __future__ import annotations

from companion.actions import action, chance, core, entered, entered_dice, entered_flag, entered_int
from companion.errors import RuleError
from companion.games.empires_of_dust import rules as eod
from companion.games.empires_of_dust.state import (
    EQUIPMENT_TRACKERS,
    SYSTEMS,
    alive,
    cls_of,
    conditions,
    designed,
    docked_at,
    game,
    hp_of,
    is_base,
    set_condition,
    set_hp,
    stats_of,
    weapon_index,
)
from companion.said import N_, Said, _, joined, kept
from companion.schema import Dice, Flag, Int, Obj, Ref, Text
from companion.trackers import cooldown, gauge

TERRAIN = ("sparse", "dense", "gravity-well", "star")
EXTRA_HITS = {"blast": ("blast", None, 1), "touching": ("touching", None, 1),
              "chain": ("direct", "chain", 1), "chain-2": ("direct", "chain", 2),
              "furtherance": ("direct", "furtherance", 1)}
SHOT_KINDS = ("main", "berserker", "point-defence")


def _modifier(args: dict, key: str) -> int:
    """An aura boon or bane (``aura.<key>``), read by the Int eod-attack declares for it; 0 when empty."""
    return entered(args, f"aura.{key}", (args.get("aura") or {}).get(key), type_="eod-attack") or 0


def _terrain(value, field: str, allowed=TERRAIN) -> str | None:
    if value in (None, "", "none"):
        return None
    if value not in allowed:
        raise RuleError(_("%(field)s must be one of %(kinds)s (or nothing).", field=field, kinds=", ".join(allowed)), field)
    return value


def _cooldown_use(unit: dict, item: str, state: dict, *, per_phase: bool) -> bool:
    """Whether using ``item`` now starts its cooldown (False: already running for this turn)."""
    if item not in unit["design"].get("equipment", []):
        raise RuleError(_("%(unit)s has no %(item)s.", unit=unit["name"], item=eod.equipment()[item]["name"]),
                        item.replace("-", "_"))
    tracker = unit["trackers"][EQUIPMENT_TRACKERS[item]]
    now = core.clock(state)
    if cooldown.is_ready(tracker, now):
        return True
    if per_phase and tracker["ready_at"] == now.round + tracker["every"]:
        return False  # seed 001: the overloader lasts its combat phase, the detector its turn
    raise RuleError(_("%(tracker)s is cooling down: ready again in turn %(turn)s (seed 001, Equipment).",
                      tracker=tracker["label"], turn=tracker["ready_at"]), item.replace("-", "_"))


def fire_check(state: dict, attacker: dict, windex: int, shot: str, target_id: str) -> None:
    """The moment and the once-per-phase rules (seed 001, Combat Phase; Bases: Combat)."""
    g = game(state)
    aid = attacker["id"]
    if g["ecm_blocked"].get(aid):
        raise RuleError(_("%(unit)s failed an ECM target lock this phase and cannot target another ship (seed 001, ECM).",
                          unit=attacker["name"]), "attacker")
    fired = g["fired"].get(aid, [])
    mains = [f for f in fired if f["shot"] == "main"]
    if shot == "main":
        if is_base(attacker):
            eod.base_attacks(cls_of(attacker), [*mains, {"target": target_id, "weapon": windex}])
        elif mains:
            raise RuleError(_("%(unit)s has already fired this combat phase: each ship fires one of its weapons "
                              "(seed 001, Combat Phase).", unit=attacker["name"]), "attacker")
    elif shot == "berserker":
        if "berserker" not in stats_of(attacker)["specialisations"]:
            raise RuleError(_("Only a Berserker fires a second shot (seed 001, Specialization System)."), "shot")
        if not any(f["weapon"] == windex for f in mains):
            raise RuleError(_("A Berserker's second shot is from the same weapon as its first: fire that "
                              "weapon first (seed 001, Specialization System)."), "weapon")
        if any(f["shot"] == "berserker" for f in fired):
            raise RuleError(_("%(unit)s has already fired its second shot this phase.", unit=attacker["name"]), "shot")
    elif shot == "point-defence":
        if any(f["shot"] == "point-defence" for f in fired):
            raise RuleError(_("%(unit)s has already fired point-defence this phase.", unit=attacker["name"]), "shot")
    else:
        raise RuleError(_("shot must be one of %(kinds)s.", kinds=", ".join(SHOT_KINDS)), "shot")


def _no_auras_on_drones(args: dict, attacker: dict, target: dict) -> None:
    """seed 001, Aura Generators: "Drones are not affected by auras."  A drone's own shot takes no
    range, penetration, damage or detection aura and a drone target no stealth aura.  Decision: a
    ship's weapon boon or bane still counts when that ship fires at (or blasts) a drone -- the aura
    acts on the ship's weapon, not on the drone."""
    for unit, keys in ((attacker, ("range", "penetration", "damage", "detection")), (target, ("stealth",))):
        if cls_of(unit) != "drone":
            continue
        for key in keys:
            if _modifier(args, key):
                raise RuleError(_("Drones are not affected by auras (seed 001, Aura Generators): clear the %(key)s aura "
                                  "for %(unit)s.", key=key, unit=unit["name"]), "aura")


def target_of(unit: dict, state: dict) -> dict:
    s = stats_of(unit)
    hp = unit["trackers"]["hp"]
    return {"name": unit["name"], "class": cls_of(unit), "armour": s["armour"], "hp": hp["value"],
            "max_hp": hp["max"], "docked": bool(docked_at(state, unit["id"]))}


def attacker_of(unit: dict, state: dict) -> dict:
    s = stats_of(unit)
    conds = conditions(unit) + (["Docked"] if docked_at(state, unit["id"]) else [])
    return {"name": unit["name"], "class": cls_of(unit), "specialisations": s["specialisations"],
            "conditions": conds, "docked": bool(docked_at(state, unit["id"]))}


def plan_attack(state: dict, args: dict, detection_base: int | None = None) -> dict:
    """Everything an attack needs, checked: the shooter, the weapon, detection and range, each hit.

    Shared by the attack and by the attack helper's preview, so both say the same sentence."""
    attacker = designed(state, args.get("attacker"), "attacker")
    windex = weapon_index(attacker, args.get("weapon", 0))
    weapon = attacker["design"]["weapons"][windex]
    if "drone" in weapon:
        raise RuleError(_("%(weapon)s is a drone launcher: launch its drone in the movement phase and the drone fires "
                          "(seed 001, Drone Launchers).", weapon=weapon["name"]), "weapon")
    shot = args.get("shot") or "main"
    target = designed(state, args.get("target"), "target")
    if target["id"] == attacker["id"]:
        raise RuleError(_("A ship cannot fire at itself."), "target")
    fire_check(state, attacker, windex, shot, target["id"])
    ally = target["side"] == attacker["side"]
    _no_auras_on_drones(args, attacker, target)
    distance = entered_int(args, "distance", None, type_="eod-attack")
    if distance is None:
        raise RuleError(_("Enter the distance to the target (in units) for the detection and range check."),
                        "distance")
    a_stats, t_stats = stats_of(attacker), stats_of(target)
    fine = False
    uses = []
    if entered_flag(args, "fine_tuned", type_="eod-attack"):
        if _cooldown_use(attacker, "fine-tuned-detector", state, per_phase=True):
            uses.append("fine-tuned-detector")
        fine = True
    overload = entered_flag(args, "overloader", type_="eod-attack")
    if overload and _cooldown_use(attacker, "overloader", state, per_phase=True):
        uses.append("overloader")
    touch = entered_flag(args, "assassins_touch", type_="eod-attack")
    if touch and _cooldown_use(attacker, "assassins-touch", state, per_phase=False):
        uses.append("assassins-touch")
    target_in = _terrain(args.get("target_in"), "target_in")
    attacker_in = _terrain(args.get("attacker_in"), "attacker_in", ("sparse", "dense"))
    stealth = eod.target_stealth(
        t_stats["stealth"], cloaked="Cloaked" in conditions(target),
        nebula=target_in if target_in in ("sparse", "dense") else None,
        star=target_in if target_in in ("gravity-well", "star") else None, aura=_modifier(args, "stealth"))
    detection = eod.attacker_detection(a_stats["detection"], nebula=attacker_in, fine_tuned=fine,
                                       aura=_modifier(args, "detection"))
    base = detection_base if detection_base is not None else state["settings"].get(
        "detection_base", eod.DEFAULT_DETECTION_BASE)
    reach = eod.weapon_range(weapon, specialisations=a_stats["specialisations"], aura=_modifier(args, "range"))
    # seed 001, Celestial Bodies ("in the suns own diameter -20 stealth modifier") and Nebula ("-10
    # detection modifier") give no floor, so stealth and detection may go below 0 in
    # "Distance <= 30 - Stealth + Detection" (Detecting Targets): 30 - (15 - 20) + 15 = 50 (issue 9, item 9).
    aim = eod.targeting(distance, reach, stealth, detection, base=base,
                        designated="Designated" in conditions(target),
                        docked=bool(docked_at(state, target["id"])) and not (ally and is_base(attacker)))
    if not aim["can_fire"]:
        raise RuleError(_("%(unit)s cannot fire %(weapon)s at %(target)s: %(why)s.", unit=attacker["name"],
                          weapon=weapon["name"], target=target["name"], why=eod.spoken(aim["summary"])), "distance")
    augs = set(weapon.get("augmenters", []))
    options = {"attacker": attacker_of(attacker, state), "overloader": overload, "assassins_touch": touch,
               "penetration_modifier": _modifier(args, "penetration"),
               "damage_modifier": _modifier(args, "damage"),
               "designating": "target-designator" in augs,
               "berserker_second": shot == "berserker"}
    main_shot = "point-defence" if shot == "point-defence" else "main"
    surge = 0
    if "surge" in augs:
        last = game(state)["surge_target"].get(attacker["id"], {}).get(str(windex))
        tracker = attacker["trackers"].get(f"surge-{windex}")
        # seed 001, Surge: changing targets resets the counter to zero
        surge = gauge.value(tracker) if tracker and last == target["id"] else 0
    hits = [{"target": target["id"], "position": "direct", "shot": main_shot, "jump": 1, "ally": ally,
             "options": {**options, "position": "direct", "shot": main_shot, "surge_count": surge,
                         "target_ecm": "ECM active" in conditions(target), "ally": ally}}]
    extra = args.get("hits") or {}
    if not isinstance(extra, dict):
        raise RuleError(_("hits must map ships to blast, touching, chain, chain-2 or furtherance."), "hits")
    for uid, kind in extra.items():
        if kind in (None, "", "none"):
            continue
        other = designed(state, uid, "hits")
        if kind not in EXTRA_HITS:
            raise RuleError(_("%(unit)s: a further hit is blast, touching, chain, chain-2 or furtherance.",
                              unit=other["name"]), "hits")
        if other["id"] in (target["id"], attacker["id"]):
            raise RuleError(_("%(unit)s is already in this attack as its shooter or main target.", unit=other["name"]), "hits")
        if other["side"] == attacker["side"]:
            raise RuleError(_("Blast damage does not damage the attacking or allied ships: leave %(unit)s out "
                              "(seed 001, Blast Damage).", unit=other["name"]), "hits")
        position, kind_shot, jump = EXTRA_HITS[kind]
        hit_shot = kind_shot or main_shot
        hits.append({"target": other["id"], "position": position, "shot": hit_shot, "jump": jump,
                     "ally": False, "options": {**options, "position": position, "shot": hit_shot,
                                                "jump": jump, "surge_count": 0, "target_ecm": False,
                                                "ally": False}})
    if len(hits) > 12:
        raise RuleError(_("At most 11 further ships in one attack."), "hits")
    _chain_check([h["jump"] for h in hits if h["shot"] == "chain"])
    return {"attacker": attacker, "weapon": weapon, "windex": windex, "shot": shot, "target": target,
            "aim": aim, "uses": uses, "hits": hits, "ally": ally}


def _chain_check(jumps: list[int]) -> None:
    """seed 001, Chain-Hit: "Up to two jumps in addition to the main hit can be made"; "The new origin
    is defined at the impact site of the first target", so the jumps are a chain: one first jump
    (chain), then one second jump from it (chain-2)."""
    if len(jumps) > eod.CHAIN_JUMPS:
        raise RuleError(_("A chain-hit makes up to %(most)s jumps after the main hit (seed 001, Chain-Hit); %(n)s ships "
                          "are marked chain.", most=eod.CHAIN_JUMPS, n=len(jumps)), "hits")
    if len(set(jumps)) != len(jumps):
        raise RuleError(_("A chain-hit makes one jump from each ship: mark one ship chain (first jump) and "
                          "one chain-2 (second jump)."), "hits")
    if 2 in jumps and 1 not in jumps:
        raise RuleError(_("chain-2 is the second jump, made from the first: mark the first jump chain."), "hits")


def hit_odds(state: dict, plan: dict, hit: dict) -> dict:
    target = state["units"][hit["target"]]
    return eod.attack_odds(plan["weapon"], target_of(target, state), **hit["options"])


@action("eod-attack", phase="Combat", doing=N_("Firing"), systems=SYSTEMS, chance=True, fields={
    "attacker": Ref("attacker"), "target": Ref("target"),
    "weapon": Int(0, 99, "the weapon's index on the design"), "shot": Text(20), "distance": Int(0, 999),
    "fine_tuned": Flag(), "overloader": Flag(), "assassins_touch": Flag(), "target_in": Text(20), "attacker_in": Text(20),
    "aura": Obj({k: Int(-50, 50) for k in ("range", "penetration", "damage", "detection", "stealth")},
                "aura boons and banes: range, penetration, damage, detection, stealth"),
    "hits": Obj(doc="more ships hit: {unit: blast, touching, chain, chain-2 or furtherance}"),
    "rolled": Dice(eod.D20, eod.ATTACK_D20S, "the real D20s for the main target, in the order the attack asks "
                   "for them, or empty to roll"),
    "hit_dice": Obj(doc="the real D20s of the other ships hit: {unit: D20s}, read as rolled is")})
def attack(state: dict, p: dict) -> str:
    """Fire one weapon: detection, armour, the D20 from the penetration table, augmenter rolls, damage."""
    g = game(state)
    attacker = alive(state, p["attacker"], "attacker")
    fire_check(state, attacker, p["weapon"], p["shot"], p["hits"][0]["target"])
    self_hp = hp_of(attacker)
    for i, hit in enumerate(p["hits"]):
        target = alive(state, hit["target"], "target")
        r = hit["result"]
        if hit["ally"]:
            set_hp(target, hp_of(target) + r["target_heal"])
        elif r["damage"]:
            set_hp(target, hp_of(target) - r["damage"])
            g["last_damage"][target["id"]] = attacker["side"]
        if r["emp"]:
            set_condition(target, "EMP", True)  # seed 001, EMP: "does not stack"
        if r["burn"]:
            burns = eod.add_burn(g["burns"].get(target["id"], []), per_turn=r["burn"]["per_turn"])
            burns[-1]["by"] = attacker["side"]
            g["burns"][target["id"]] = burns
        if r["designated"] and i == 0:
            set_condition(target, "Designated", True)
        if r["ecm_blocked"]:
            g["ecm_blocked"][attacker["id"]] = True
        # decision: immolation burns the shooter once per shot (its main hit), vampirism per ship hit
        self_hp = self_hp - (r["self_damage"] if i == 0 else 0) + r["attacker_heal"]
    if self_hp != hp_of(attacker):
        set_hp(attacker, self_hp)
        if hp_of(attacker) == 0:
            g["last_damage"][attacker["id"]] = ""
    main = p["hits"][0]["result"]
    if main["surge_count"] is not None:
        tracker = attacker["trackers"].get(f"surge-{p['weapon']}")
        if tracker:
            tracker["index"] = tracker["positions"].index(main["surge_count"])
        g["surge_target"].setdefault(attacker["id"], {})[str(p["weapon"])] = p["hits"][0]["target"]
    for item in p["uses"]:
        tracker = attacker["trackers"][EQUIPMENT_TRACKERS[item]]
        cooldown.use(tracker, {}, core.clock(state))
    g["fired"].setdefault(attacker["id"], []).append(
        {"weapon": p["weapon"], "target": p["hits"][0]["target"], "shot": p["shot"]})
    text = attack_text(state, p)
    g["last_attack"] = {"text": kept(text), "side": attacker["side"], "round": state["round"]}
    return text


def _hit_name(hit: dict, name: str):
    """The ship hit as the attack's line names it: where the hit found it, if not the main hit."""
    if hit["position"] == "blast":
        return Said("%(unit)s (in the blast)", unit=name)
    if hit["position"] != "direct":
        return Said("%(unit)s (touching the blast)", unit=name)
    if hit["shot"] == "chain":
        return Said("%(unit)s (chain-hit jump %(n)s)", unit=name, n=hit.get("jump", 1))
    if hit["shot"] == "furtherance":
        return Said("%(unit)s (furtherance)", unit=name)
    return name


def _outcome(hit: dict) -> Said:
    r = hit["result"]
    if r["ecm_blocked"]:
        return Said("ECM: no target lock")
    if hit["ally"]:
        return Said("repairs %(n)s", n=r["target_heal"]) if r["penetrated"] else Said("no repair")
    return Said("%(n)s damage", n=r["damage"]) if r["penetrated"] else Said("no penetration")


def _extras(hit: dict, main: bool) -> list:
    """What else the hit did, each in a few words (EMP, fire, designation, surge, knockback, the shooter's HP)."""
    r = hit["result"]
    return [e for e in (
        "EMP" if r["emp"] else None,
        Said("burning %(n)s/turn", n=r["burn"]["per_turn"]) if r["burn"] else None,
        Said("designated") if r["designated"] and main else None,
        Said("surge %(n)s", n=r["surge_count"]) if r["surge_count"] and main else None,
        Said("knockback %(n)s", n=r["knockback"]["target_pushed"]) if r["knockback"] else None,
        Said("shooter -%(n)s", n=r["self_damage"]) if r["self_damage"] and main else None,
        Said("shooter +%(n)s", n=r["attacker_heal"]) if r["attacker_heal"] else None) if e]


def attack_text(state: dict, p: dict) -> str:
    attacker = state["units"][p["attacker"]]
    weapon = attacker["design"]["weapons"][p["weapon"]]
    parts = []
    for hit in p["hits"]:
        r = hit["result"]
        target = state["units"][hit["target"]]
        rolls = ", ".join(f"{x['value']}" for x in r["rolls"])
        line = Said("%(unit)s: armour %(armour)s %(type)s, penetration %(pen)s, D20 > %(needed)s, rolled %(rolls)s: "
                    "%(outcome)s", unit=_hit_name(hit, target["name"]), armour=r["armour"], type=r["armour_type"],
                    pen=r["penetration"], needed=r["needed"], rolls=rolls or "-", outcome=_outcome(hit))
        hp = hp_of(target)
        left = Said("HP %(hp)s (destroyed at end of combat phase)", hp=hp) if hp == 0 else Said("HP %(hp)s", hp=hp)
        parts.append(joined(", ", [line, *_extras(hit, hit is p["hits"][0]), left]))
    uses = ", ".join(eod.equipment()[u]["name"] for u in p["uses"])
    shot = SHOT_WORDS.get(p["shot"])
    fired = Said(shot, weapon=weapon["name"]) if shot else weapon["name"]
    head = (Said("%(unit)s fires %(weapon)s with %(uses)s", unit=attacker["name"], weapon=fired, uses=uses) if uses
            else Said("%(unit)s fires %(weapon)s", unit=attacker["name"], weapon=fired))
    return joined(" → ", [head, joined("; ", parts)])


# a shot other than a weapon's main one, as the attack's line names it
SHOT_WORDS = {"berserker": N_("%(weapon)s (Berserker's second shot)"), "point-defence": N_("%(weapon)s (point-defence)")}


@attack.decider
def decide_attack(state: dict, args: dict, ctx) -> dict:
    plan = plan_attack(state, args)
    hit_dice = args.get("hit_dice") or {}
    if not isinstance(hit_dice, dict):
        raise RuleError(_("hit_dice must map ships to their D20s."), "hit_dice")
    expected, hits = 0.0, []
    for i, hit in enumerate(plan["hits"]):
        target = state["units"][hit["target"]]
        dice = args.get("rolled") if i == 0 else \
            entered_dice(args, "rolled", hit_dice.get(hit["target"]) or "", name="hit_dice")
        try:
            result = eod.attack(plan["weapon"], target_of(target, state), **hit["options"], dice=dice, rng=ctx.rng)
        except RuleError as exc:  # the rules name their own "dice"; the request's control is rolled / hit_dice
            if str(exc.field or "").split(".")[0] != "dice":
                raise
            raise RuleError(exc.message, "rolled" if i == 0 else "hit_dice") from None
        expected += hit_odds(state, plan, hit)["expected"]
        hits.append({"target": hit["target"], "position": hit["position"], "shot": hit["shot"],
                     "jump": hit["jump"], "ally": hit["ally"], "real": dice is not None,
                     "result": {k: result[k] for k in (
                         "armour", "armour_type", "penetration", "needed", "rolls", "penetrated", "passes",
                         "damage", "self_damage", "attacker_heal", "target_heal", "emp", "burn", "knockback",
                         "designated", "ecm_blocked", "surge_count", "notes", "summary")}})
    actual = sum(h["result"]["target_heal"] if h["ally"] else h["result"]["damage"] for h in hits)
    return {"attacker": plan["attacker"]["id"], "weapon": plan["windex"], "shot": plan["shot"],
            "distance": plan["aim"]["distance"], "detection": plan["aim"]["summary"], "uses": plan["uses"],
            "hits": hits, "luck": {"expected": round(expected, 4), "actual": actual,
                                   "what": "repair" if plan["ally"] else "damage"}}


@attack.dice_check
def attack_dice(state: dict, p: dict) -> None:
    """An imported attack (issue 15): every D20 of every ship hit shows 1 to 20 and passed exactly
    when it beat what it needed (seed 001: "D20 > needed"); the penetration roll needed the
    number the hit records; the luck line's total is the damage (or repair) of the hits."""
    total = 0
    for hit in chance.part(p, "hits", list):
        result = hit["result"]
        for roll in result["rolls"]:
            chance.dice([roll["value"]], eod.D20, f"{roll['roll']} roll")
            chance.same(roll["passed"], roll["value"] > roll["needs"], f"{roll['roll']} roll's success")
            if roll["roll"] == "penetration":
                chance.same(roll["needs"], result["needed"], "penetration roll's target")
        total += result["target_heal"] if hit["ally"] else result["damage"]
    chance.same(p["luck"]["actual"], total, "total damage")
