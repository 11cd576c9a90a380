"""Astral Action actions: attacks (dice rolled by the app or entered), rerolls, Dodge, applying the
damage; the Conditions a filled health row generates are ``conditions``.  The attack sequence is
L77-L83: the result is worked out first and can be rerolled or dodged "before applying Damage"
(L252, L268, L298); a second tap applies it.
"""
from __future__ import annotations

from companion.actions import action, chance, entered_dice, entered_int, phase_now
from companion.errors import RuleError
from companion.games.astral_action.rules import attack as atk
from companion.games.astral_action.rules.damage import take_damage
from companion.games.astral_action.rules.equipment import MISSILE_DIRECT, band_at, band_words, is_weapon, needs_missile_token
from companion.games.astral_action.state import (
    SYSTEMS,
    allowed_by,
    check_may_attack,
    destroy_if_done,
    game,
    in_effect,
    roll,
    setting,
    ship_of,
    spend_command,
    target_view,
    turn,
)
from companion.said import N_, Said, _, joined
from companion.schema import Dice, Flag, Int, Num, Ref, Scalar, Text

NUMBER_MODS = ("obscuring", "accuracy", "damage", "formation", "extra_pws")  # typed X, from -9 to 9
# a [Marked] token removed for one effect each (Mark Target, L275-L279): more than one token, more effects
MARKED = {"marked": "Marked target: +2 Accuracy (L276)",
          "marked_terrain": "Marked target: ignore terrain (L277; Blocking still blocks direct fire)",
          "marked_range": "Marked target: +4 to the weapon's largest Range/Extended Range (L278)"}
MODS = (*MARKED, *NUMBER_MODS)  # the situational modifiers the players tick or type (atk.plan)
PLANNED = ("band", "distance", *MODS)  # what an attack's plan reads of its request (plan_attack)
REROLLS = {"focus": N_("Offensive Focus (L252)"), "command": N_("[Offensive] Command (L255)"),
           "blocking": N_("Blocking terrain, the defender's choice (L298)"), "veteran": N_("Veteran crew (optional, L369)")}


def _weapon(state: dict, attacker: dict, index) -> dict:
    card = attacker["card"]
    if not isinstance(index, int) or not 0 <= index < len(card["equipment"]) or not is_weapon(card["equipment"][index]["item"]):
        raise RuleError(_("Choose one of %(unit)s's weapons.", unit=attacker["unit"]["name"]), "weapon")
    if index in attacker["ship"]["inactive"]:
        raise RuleError(_("%(weapon)s is deactivated (a Condition).", weapon=card["equipment"][index]["label"]), "weapon")
    return faction_weapon(state, attacker["unit"], card["equipment"][index])


def beam_specialist(state: dict, unit: dict) -> bool:
    """Whether the unit's side plays the optional Beam-specialist faction (L362; table setting
    ``beam_specialists``: 1 the first side, 2 the second, 3 both)."""
    which, sides = setting(state, "beam_specialists"), state.get("sides") or []
    return which == 3 or (which in (1, 2) and len(sides) >= which and unit.get("side") == sides[which - 1])


def faction_weapon(state: dict, unit: dict, item: dict) -> dict:
    """``item``, if the unit's faction may attack with it: a Beam-specialist side is "restricted to Beam
    Weapons only" (L362)."""
    if item["item"] != "beam" and beam_specialist(state, unit):
        raise RuleError(_("%(side)s plays the Beam-specialist faction: Beam weapons only (L362).", side=unit.get("side")),
                        "weapon")
    return item


def shot_of(args: dict) -> tuple[str, int | None]:
    """The attack form's one select, "u1:0": ship u1, its equipment 0 (the weapon None when unreadable)."""
    attacker, _sep, weapon = str(args.get("shot") or "").partition(":")
    return attacker, int(weapon) if weapon.isdigit() else None


def band_of(item: dict, p: dict, mods: dict) -> int:
    """The attack's range band: from the measured distance (equipment.band_at, the one place that
    reads ranges), or the band chosen when no distance was typed; both must agree when both come.
    ``p``: an aa-attack request or payload, read by its fields (``actions.read_as`` for the odds preview's);
    ``mods``: the attack's (a [Marked] token spent for range, a Beam-specialist faction)."""
    distance = p.get("distance")
    chosen = p.get("band")
    if distance is None:
        return chosen or 0
    band = band_at(item, distance, bool(mods.get("marked_range")), bool(mods.get("specialist")))
    want = band if chosen is None else chosen
    if want != band:
        said = lambda i: band_words({"name": ("normal", "extended 1", "extended 2")[i]})  # noqa: E731
        raise RuleError(_("A distance of %(distance)g is %(band)s for %(weapon)s, not %(want)s: choose one or the other.",
                          distance=distance, band=said(band), weapon=item["label"], want=said(want)), "band")
    return band


def attack_mods(p: dict) -> dict:
    """The situational modifiers of an aa-attack request or payload, already read by their declared
    fields (the Marked effects yes/no, so "no" or "off" is no; the others whole numbers from -9 to 9)."""
    mods = {key: True for key in MARKED if p.get(key)}
    for key in NUMBER_MODS:
        value = p.get(key, 0)
        if value:
            mods[key] = value
    return mods


def plan_attack(state: dict, p: dict) -> tuple[dict, dict, dict, dict]:
    """(the plan, attacker, target, weapon) of an aa-attack request or payload: what the attack, its
    odds before rolling and a pending attack's rerolls all work out from."""
    attacker = target_view(state, p.get("attacker"), "attacker")
    target = target_view(state, p.get("target"))
    if attacker["unit"]["id"] == target["unit"]["id"]:
        raise RuleError(_("A ship does not attack itself."), "target")
    item = _weapon(state, attacker, p.get("weapon"))
    mods = attack_mods(p)
    mods["evasive"] = in_effect(state, target["unit"]["id"], "Evasive Actions")
    mods["specialist"] = beam_specialist(state, attacker["unit"])
    plan = atk.plan(attacker, item, target, band_of(item, p, mods), mods, setting(state, "size_reading"))
    return plan, attacker, target, item


def _result_text(plan: dict, r: dict) -> Said:
    return Said("Accuracy %(die)s%(mod)+d = %(accuracy)s %(result)s, damage %(dice)s%(damage_mod)+d = %(damage)s → %(applied)s",
                die=r["accuracy_die"], mod=plan["accuracy_mod"], accuracy=r["accuracy"], result=r["result"],
                dice="+".join(str(d) for d in r["damage_dice"]), damage_mod=plan["damage_mod"], damage=r["damage"],
                applied=r["applied"])


@action("aa-attack", systems=SYSTEMS, chance=True, fields={
    "shot": Text(60, "the attack form's select: ship id and weapon index, e.g. u1:0"),
    "attacker": Ref("attacker"), "target": Ref("target"), "weapon": Int(0, 99, "the weapon's index on the card"),
    "band": Int(0, 2, "0 normal, 1 Extended 1, 2 Extended 2 (or give the distance)"),
    "distance": Num(0, 1000, "the measured distance: the range band follows from the weapon's ranges"),
    "token": Scalar(60, "a Missile token's id"), "dice": Dice(6, 60),
    **{key: Flag(words) for key, words in MARKED.items()},
    **{mod: Int(-9, 9) for mod in NUMBER_MODS}})
def aa_attack(state: dict, p: dict) -> str:
    """Attack with one weapon: Accuracy and Damage d6 (rolled or entered); applied on the next tap."""
    g = game(state)
    if g["attack"]:
        raise RuleError(_("Apply the attack being resolved first."), "attacker")
    plan, attacker, target, item = plan_attack(state, p)
    a_unit, a_ship = attacker["unit"], attacker["ship"]
    fired = turn(state)["fired"].setdefault(a_unit["id"], [])
    why = ""
    if p.get("token"):  # a Missile token resolves "as though from the position of the missile token" (L182)
        token = next((t for t in g["missiles"] if t["id"] == p["token"]), None)
        if token is None or (token["attacker"], token["weapon"], token["target"]) != (p["attacker"], p["weapon"], p["target"]):
            raise RuleError(_("No such Missile token on the table."), "token")
        g["missiles"].remove(token)
        fired = []  # the weapon fired when the token was placed
    else:
        why = check_may_attack(state, a_unit["id"])
        if p["weapon"] in fired:
            raise RuleError(_("%(weapon)s has already attacked this turn (L77).", weapon=item["label"]), "weapon")
        distance = p.get("distance")
        if distance is not None and needs_missile_token(item, distance):
            raise RuleError(_("Missiles farther than %(direct)s place a Missile token (L182): "
                              "tap \u201cMissiles beyond 10: place a token\u201d.", direct=MISSILE_DIRECT), "distance")
    if a_unit["template"] == "fighter":
        allowed = 2 if any(e["item"] == "payload" for e in attacker["card"]["equipment"]) else 1  # L227, L239
        if a_ship["shots"] >= allowed:
            raise RuleError(_("%(unit)s must resupply on its carrier before attacking again (L227-L230).", unit=a_unit["name"]),
                              "weapon")
    dice = p["dice"]
    result = atk.resolve(plan, dice[0], dice[1:])
    g["attack"] = {"attacker": a_unit["id"], "target": target["unit"]["id"], "weapon": p["weapon"],
                   "band": plan["band_index"], "distance": p.get("distance"),
                   "mods": {k: p[k] for k in MODS if k in p}, "dice": dice,
                   "dodged": False, "rerolls": [], "result": result}
    fired.append(p["weapon"])
    if a_unit["template"] == "fighter":
        a_ship["shots"] += 1
    names = {"attacker": a_unit["name"], "weapon": item["label"], "target": target["unit"]["name"],
             "result": _result_text(plan, result)}
    attack = (Said("%(attacker)s %(weapon)s → %(target)s (by %(allowed)s): %(result)s", allowed=allowed_by(why), **names)
              if why else Said("%(attacker)s %(weapon)s → %(target)s: %(result)s", **names))  # by: outside its own activation
    # the game's pending_words end it until applied: the TV strips them (companion/display.py, _without_pending)
    return Said("%(attack)s (not yet applied)", attack=attack)


@aa_attack.decider
def decide_aa_attack(state: dict, args: dict, ctx) -> dict:
    args = dict(args)
    if args.get("shot"):
        args["attacker"], args["weapon"] = shot_of(args)
    if args.get("token"):
        token = next((t for t in game(state)["missiles"] if t["id"] == args["token"]), None)
        if token is None:
            raise RuleError(_("No such Missile token on the table."), "token")
        if phase_now(state) != "Resolution":
            raise RuleError(_("Missile tokens resolve at the beginning of the Resolution phase (L182)."), "token")
        args.update(attacker=token["attacker"], weapon=token["weapon"], target=token["target"], band=0)
    p = {k: args[k] for k in ("type", "attacker", "target", "weapon", "band", "distance", "token", *MODS) if k in args}
    plan, *_rest = plan_attack(state, p)
    count = 1 + atk.dice_needed(plan["dice"])
    dice = entered_dice(args, "dice", count=count) or roll(ctx, count)
    odds = atk.odds(plan)
    result = atk.resolve(plan, dice[0], dice[1:])
    return {**p, "dice": dice, "odds": odds,
            # "call": the chart's word for it (L88), said large by the TV (companion/display.py)
            "luck": {"expected": round(odds["expected"], 4), "actual": result["applied"], "what": "damage",
                     "call": result["result"]}}


def _pending(state: dict) -> tuple[dict, dict]:
    pending = game(state)["attack"]
    if not pending:
        raise RuleError(_("No attack is being resolved."), "attack")
    plan, *_rest = plan_attack(state, {"type": "aa-attack", "attacker": pending["attacker"], "target": pending["target"],
                             "weapon": pending["weapon"], "band": pending["band"], **pending["mods"]})
    if pending["dodged"]:
        plan["accuracy_mod"] -= 1
        plan["accuracy_mods"].append((-1, _("Dodge (L268)")))
    return pending, plan


@action("aa-reroll", systems=SYSTEMS, chance=True, fields={
    "die": Int(0, 59, "which die of the pending attack"), "value": Dice(6, 1, "the new die, or empty to roll"),
    "why": Text(20, choices=REROLLS), "via": Scalar(60)})
def aa_reroll(state: dict, p: dict) -> str:
    """Discard the Accuracy or a Damage d6 of the attack being resolved and roll it again."""
    pending, plan = _pending(state)
    why = p.get("why")
    if why not in REROLLS:
        raise RuleError(_("why must be one of %(choices)s.", choices=", ".join(REROLLS)), "why")
    if why in pending["rerolls"]:
        raise RuleError(_("This attack was already rerolled for %(why)s.", why=_(REROLLS[why])), "why")
    if why == "blocking" and attack_mods({"type": "aa-attack", **pending["mods"]}).get("marked_terrain"):
        raise RuleError(_("The attacker ignores terrain against this Marked ship (L277): no Blocking terrain reroll."), "why")
    attacker = pending["attacker"]
    if why == "focus" and not in_effect(state, attacker, "Offensive Focus"):
        raise RuleError(_("The attacker has no Offensive Focus Order in effect (a sealed one must be revealed, L128)."), "why")
    books = turn(state)
    if why == "veteran":
        if attacker in books["rerolls"]:
            raise RuleError(_("A veteran crew has one re-roll per turn (L369)."), "why")
        books["rerolls"][attacker] = 1
    spent = spend_command(state, attacker, "Reroll a die", p.get("via")) if why == "command" else None
    index = entered_int(p, "die", hi=len(pending["dice"]) - 1)
    old = pending["dice"][index]
    pending["dice"][index] = p["value"]
    pending["rerolls"].append(why)
    pending["result"] = atk.resolve(plan, pending["dice"][0], pending["dice"][1:])
    said = Said("%(which)s d6 %(old)s rerolled: %(new)s (%(why)s): %(result)s", which="Accuracy" if index == 0 else "Damage",
                old=old, new=p["value"], why=Said(REROLLS[why]), result=_result_text(plan, pending["result"]))
    return joined("; ", [spent, said]) if spent else said


@aa_reroll.decider
def decide_aa_reroll(state: dict, args: dict, ctx) -> dict:
    pending, _plan = _pending(state)
    index = entered_int(args, "die", 0, hi=len(pending["dice"]) - 1)
    value = args.get("value")
    return {"why": args.get("why"), "die": index, "via": args.get("via"),
            "value": value[0] if value else roll(ctx, 1)[0]}


@action("aa-dodge", systems=SYSTEMS, fields={"via": Scalar(60)})
def aa_dodge(state: dict, p: dict) -> str:
    """The target's [Navigate] Dodge Command: -1 Accuracy and recalculate the result (L268)."""
    pending, plan = _pending(state)
    if pending["dodged"]:
        raise RuleError(_("This attack was already dodged."), "via")
    spent = spend_command(state, pending["target"], "Dodge", p.get("via"))
    pending["dodged"] = True
    plan["accuracy_mod"] -= 1
    pending["result"] = atk.resolve(plan, pending["dice"][0], pending["dice"][1:])
    return Said("%(spent)s: %(result)s", spent=spent, result=_result_text(plan, pending["result"]))


@action("aa-apply-attack", systems=SYSTEMS, fields={})
def aa_apply_attack(state: dict, p: dict) -> str:
    """Apply the attack's damage to the target's Shields, Armor and Health (L81-L82, L92-L94)."""
    pending, plan = _pending(state)
    unit, ship = ship_of(state, pending["target"], "target")
    r = pending["result"]
    game(state)["attack"] = None
    if not r["applied"]:
        return Said("%(unit)s: %(result)s, no damage", unit=unit["name"], result=r["result"])
    bypass = r["accuracy"] if setting(state, "bypass_total") else r["accuracy_die"]
    out = take_damage(ship, r["applied"], roll=bypass, kinetic=plan["kinetic"], beam=plan["beam"],
                      order=setting(state, "damage_order"), brace=in_effect(state, unit["id"], "Brace for Impact"))
    gone = destroy_if_done(state, unit["id"], ship)
    parts = [Said("%(unit)s takes %(applied)s (%(result)s): %(steps)s", unit=unit["name"], applied=r["applied"],
                  result=r["result"], steps=joined(", ", out["steps"]))]
    if out["rows_filled"] and not gone:
        parts.append(Said("1 health row filled: roll a Condition (L82)") if out["rows_filled"] == 1
                     else Said("%(n)s health rows filled: roll Conditions (L82)", n=out["rows_filled"]))
    return joined("; ", parts + ([gone] if gone else []))


@aa_attack.dice_check
def aa_attack_dice(state: dict, p: dict) -> None:
    """An imported aa-attack (issue 15): every die it records is a D6 (the seed rolls D6s)."""
    chance.every_die(p, 6)


@aa_reroll.dice_check
def aa_reroll_dice(state: dict, p: dict) -> None:
    """An imported reroll (issue 15): the new die is a D6."""
    chance.dice([p["value"]], 6, "new die")
