"""Astral Action Formations and Escorts (seed 004 L371-L395, optional rules): a Formation activates
at the Size of its largest ship and moves with the lowest Heading and Maneuver; a hit on a Defensive
Formation ship or on an escorted ship may be moved, recalculated with the new target's Size."""
from __future__ import annotations

from companion.actions import action, in_phase
from companion.errors import RuleError
from companion.games.astral_action.rules.turn import FORMATION_KINDS
from companion.games.astral_action.state import SYSTEMS, formation_of, game, ship_of
from companion.schema import Either, List, Obj, Ref, Text


@action("aa-formation", systems=SYSTEMS, fields={"dissolve": Ref("lead ship"), "lead": Ref("lead ship"), "kind": Text(20),
    "members": Either(List(Ref("unit"), 50), Obj(doc="the form's checkboxes: members.u2 ..."), Text(600))})
def aa_formation(state: dict, p: dict) -> str:
    """Declare a Formation before the turn (Lead Ship, members, Offensive or Defensive), or end one."""
    formations = game(state).setdefault("formations", {})
    if p.get("dissolve"):
        f = formations.pop(p["dissolve"], None)
        if f is None:
            raise RuleError("No Formation is led by that ship.", "dissolve")
        return f"Formation of {state['units'][p['dissolve']]['name']} ends"
    # L376 "before the beginning of the turn"; ending one is not tied to a phase, so no @action(phase=...)
    in_phase(state, "Command", "Declaring a Formation")
    lead, lead_ship = ship_of(state, p.get("lead"), "lead")
    kind = p.get("kind")
    if kind not in FORMATION_KINDS:
        raise RuleError("A Formation is Offensive or Defensive (L383).", "kind")
    raw = p.get("members")
    # a form's checkboxes arrive as {"u2": 1, "u3": 1} (members.u2 ...); the API may send a list or "u2 u3"
    members = (raw.split() if isinstance(raw, str)
               else [k for k, v in raw.items() if v] if isinstance(raw, dict) else list(raw or []))
    members = [m for m in dict.fromkeys(members) if m != lead["id"]]
    if not members:
        raise RuleError("A Formation is two or more Ships (L374): add a member.", "members")
    for uid in [lead["id"], *members]:
        unit, ship = ship_of(state, uid, "members")
        if unit["side"] != lead["side"] or unit["template"] == "fighter":
            raise RuleError(f"{unit['name']} is not one of {lead['side']}'s ships.", "members")
        if "Communications Damage" in ship["conditions"]:
            raise RuleError(f"{unit['name']} may not be a member of a Formation (Communications Damage, L107).", "members")
        if ship["velocity"] != lead_ship["velocity"]:
            raise RuleError(f"{unit['name']} must match the Lead Ship's Velocity {lead_ship['velocity']} (L376).", "members")
        if formation_of(state, uid):
            raise RuleError(f"{unit['name']} is already in a Formation.", "members")
    formations[lead["id"]] = {"kind": kind, "members": [lead["id"], *members]}
    names = ", ".join(state["units"][m]["name"] for m in members)
    return f"{kind.capitalize()} Formation led by {lead['name']}: {names} (within 2 and 1 Heading: check on the table, L376)"


@action("aa-redirect", systems=SYSTEMS, fields={"to": Ref("unit"), "why": Text(20)})
def aa_redirect(state: dict, p: dict) -> str:
    """Move the attack being resolved to an Escort (L395) or a Defensive Formation ship (L384)."""
    pending = game(state)["attack"]
    if not pending:
        raise RuleError("No attack is being resolved.", "to")
    why = p.get("why")
    if why not in ("escort", "formation"):
        raise RuleError("why must be escort or formation.", "why")
    old_unit, old_ship = ship_of(state, pending["target"], "target")
    new_unit, new_ship = ship_of(state, p.get("to"), "to")
    if new_unit["side"] != old_unit["side"] or new_unit["id"] == old_unit["id"]:
        raise RuleError(f"Choose another ship of {old_unit['side']}.", "to")
    if pending.get("redirected"):
        raise RuleError("This attack was already moved once.", "to")
    if why == "formation":
        if (formation_of(state, old_unit["id"]) is None
                or formation_of(state, old_unit["id"]) != formation_of(state, new_unit["id"])):
            raise RuleError(f"{old_unit['name']} and {new_unit['name']} are not in one Formation.", "to")
        if formation_of(state, old_unit["id"])["kind"] != "defensive":
            raise RuleError("Only a Defensive Formation moves a hit (L384).", "why")
        if pending["result"]["result"] != "hit":
            raise RuleError("A Defensive Formation moves an attack that would Hit (L384).", "why")
        if new_ship["card"]["size"] > old_ship["card"]["size"]:
            raise RuleError("A Defensive Formation moves a hit to a ship of the same Size or smaller (L384).", "to")
    elif new_ship["card"]["size"] > old_ship["card"]["size"]:
        raise RuleError("An Escort is the same Size or smaller than the ship it escorts (L386).", "to")
    from companion.games.astral_action.actions.combat import _pending
    from companion.games.astral_action.rules import attack as atk
    pending["target"] = new_unit["id"]
    pending["redirected"] = why
    _, plan = _pending(state)  # recalculated with the new target's Size and chart (L395)
    pending["result"] = atk.resolve(plan, pending["dice"][0], pending["dice"][1:])
    r = pending["result"]
    return (f"The attack on {old_unit['name']} goes to {new_unit['name']} "
            f"({'Escort' if why == 'escort' else 'Defensive Formation'}): "
            f"Accuracy {r['accuracy']} {r['result']}, damage {r['damage']} → {r['applied']}")
