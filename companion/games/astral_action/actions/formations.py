"""Astral Action Formations and Escorts (seed 004 L371-L395, optional rules): a Formation activates
at the Size of its largest ship and moves with the lowest Heading and Maneuver; a hit on a Defensive
Formation ship or on an escorted ship may be moved, recalculated with the new target's Size."""
from __future__ import annotations

from companion.actions import action, in_phase
from companion.errors import RuleError
from companion.games.astral_action.rules.turn import FORMATION_KINDS
from companion.games.astral_action.state import SYSTEMS, formation_of, game, ship_of
from companion.said import Said, _
from companion.schema import Either, List, Obj, Ref, Text


@action("aa-formation", systems=SYSTEMS, fields={"dissolve": Ref("lead ship"), "lead": Ref("lead ship"), "kind": Text(20),
    "members": Either(List(Ref("unit"), 50), Obj(doc="the form's checkboxes: members.u2 ..."), Text(600))})
def aa_formation(state: dict, p: dict) -> str:
    """Declare a Formation before the turn (Lead Ship, members, Offensive or Defensive), or end one."""
    formations = game(state).setdefault("formations", {})
    if p.get("dissolve"):
        f = formations.pop(p["dissolve"], None)
        if f is None:
            raise RuleError(_("No Formation is led by that ship."), "dissolve")
        return Said("Formation of %(lead)s ends", lead=state["units"][p["dissolve"]]["name"])
    # L376 "before the beginning of the turn"; ending one is not tied to a phase, so no @action(phase=...)
    in_phase(state, "Command", "Declaring a Formation")
    lead, lead_ship = ship_of(state, p.get("lead"), "lead")
    kind = p.get("kind")
    if kind not in FORMATION_KINDS:
        raise RuleError(_("A Formation is Offensive or Defensive (L383)."), "kind")
    raw = p.get("members")
    # a form's checkboxes arrive as {"u2": 1, "u3": 1} (members.u2 ...); the API may send a list or "u2 u3"
    members = (raw.split() if isinstance(raw, str)
               else [k for k, v in raw.items() if v] if isinstance(raw, dict) else list(raw or []))
    members = [m for m in dict.fromkeys(members) if m != lead["id"]]
    if not members:
        raise RuleError(_("A Formation is two or more Ships (L374): add a member."), "members")
    for uid in [lead["id"], *members]:
        unit, ship = ship_of(state, uid, "members")
        if unit["side"] != lead["side"] or unit["template"] == "fighter":
            raise RuleError(_("%(unit)s is not one of %(side)s's ships.", unit=unit["name"], side=lead["side"]), "members")
        if "Communications Damage" in ship["conditions"]:
            raise RuleError(_("%(unit)s may not be a member of a Formation (Communications Damage, L107).", unit=unit["name"]),
                            "members")
        if ship["velocity"] != lead_ship["velocity"]:
            raise RuleError(_("%(unit)s must match the Lead Ship's Velocity %(velocity)s (L376).", unit=unit["name"],
                              velocity=lead_ship["velocity"]), "members")
        if formation_of(state, uid):
            raise RuleError(_("%(unit)s is already in a Formation.", unit=unit["name"]), "members")
    formations[lead["id"]] = {"kind": kind, "members": [lead["id"], *members]}
    names = ", ".join(state["units"][m]["name"] for m in members)
    if kind == "offensive":
        return Said("Offensive Formation led by %(lead)s: %(members)s (within 2 and 1 Heading: check on the table, L376)",
                    lead=lead["name"], members=names)
    return Said("Defensive Formation led by %(lead)s: %(members)s (within 2 and 1 Heading: check on the table, L376)",
                lead=lead["name"], members=names)


@action("aa-redirect", systems=SYSTEMS, fields={"to": Ref("unit"), "why": Text(20)})
def aa_redirect(state: dict, p: dict) -> str:
    """Move the attack being resolved to an Escort (L395) or a Defensive Formation ship (L384)."""
    pending = game(state)["attack"]
    if not pending:
        raise RuleError(_("No attack is being resolved."), "to")
    why = p.get("why")
    if why not in ("escort", "formation"):
        raise RuleError(_("why must be escort or formation."), "why")
    old_unit, old_ship = ship_of(state, pending["target"], "target")
    new_unit, new_ship = ship_of(state, p.get("to"), "to")
    if new_unit["side"] != old_unit["side"] or new_unit["id"] == old_unit["id"]:
        raise RuleError(_("Choose another ship of %(side)s.", side=old_unit["side"]), "to")
    if pending.get("redirected"):
        raise RuleError(_("This attack was already moved once."), "to")
    if why == "formation":
        if (formation_of(state, old_unit["id"]) is None
                or formation_of(state, old_unit["id"]) != formation_of(state, new_unit["id"])):
            raise RuleError(_("%(unit)s and %(other)s are not in one Formation.", unit=old_unit["name"], other=new_unit["name"]),
                            "to")
        if formation_of(state, old_unit["id"])["kind"] != "defensive":
            raise RuleError(_("Only a Defensive Formation moves a hit (L384)."), "why")
        if pending["result"]["result"] != "hit":
            raise RuleError(_("A Defensive Formation moves an attack that would Hit (L384)."), "why")
        if new_ship["card"]["size"] > old_ship["card"]["size"]:
            raise RuleError(_("A Defensive Formation moves a hit to a ship of the same Size or smaller (L384)."), "to")
    elif new_ship["card"]["size"] > old_ship["card"]["size"]:
        raise RuleError(_("An Escort is the same Size or smaller than the ship it escorts (L386)."), "to")
    from companion.games.astral_action.actions.combat import _pending
    from companion.games.astral_action.rules import attack as atk
    pending["target"] = new_unit["id"]
    pending["redirected"] = why
    _attack, plan = _pending(state)  # recalculated with the new target's Size and chart (L395)
    pending["result"] = atk.resolve(plan, pending["dice"][0], pending["dice"][1:])
    r = pending["result"]
    names = {"target": old_unit["name"], "ship": new_unit["name"], "accuracy": r["accuracy"], "result": r["result"],
             "damage": r["damage"], "applied": r["applied"]}
    if why == "escort":
        return Said("The attack on %(target)s goes to %(ship)s (Escort): Accuracy %(accuracy)s %(result)s, "
                    "damage %(damage)s → %(applied)s", **names)
    return Said("The attack on %(target)s goes to %(ship)s (Defensive Formation): Accuracy %(accuracy)s %(result)s, "
                "damage %(damage)s → %(applied)s", **names)
