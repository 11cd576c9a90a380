"""Astral Action's books in the table state: ships in play, this turn's orders and activations, the
Formations.  Shared by the action types (``actions``), the phase hook and the pages (``views``).

Everything lives in ``state["game"]``: ``ships`` (unit id -> card and damage track), ``attack``
(the attack being resolved), ``missiles``, ``end`` and ``victory``; ``turn`` holds this turn's
Orders, Command Tokens, Commands, passes and fired weapons, started afresh each turn.  Hidden
Orders are the core's sealed parts (``state["sealed"]``, kind "order"): they are not in effect
until revealed (seed 004 L128).
"""
from __future__ import annotations

from companion.actions import phase_now
from companion.actions.core import unit_of
from companion.errors import RuleError
from companion.games.astral_action.rules import turn as tn
from companion.games.astral_action.rules.damage import has_active
from companion.said import Said, _

SYSTEMS = {"astral-action"}


def game(state: dict) -> dict:
    g = state["game"]
    for key, empty in (("ships", {}), ("missiles", []), ("attack", None), ("end", None), ("victory", None)):
        g.setdefault(key, empty)
    return g


def turn(state: dict) -> dict:
    g = game(state)
    now = g.get("turn")
    if not now or now.get("round") != state["round"]:
        now = g["turn"] = {"round": state["round"], "orders": {}, "tokens": {}, "commands": {}, "passed": {},
                           "last": None, "fired": {}, "rerolls": {}}
    return now


def this_turn(state: dict) -> dict:
    """This turn's books, read without starting them (empty before anything happened this turn)."""
    now = (state.get("game") or {}).get("turn") or {}
    return now if now.get("round") == state["round"] else {}


def setting(state: dict, key: str) -> int:
    return int(state.get("settings", {}).get(key, 0) or 0)


def hidden(state: dict, uid: str) -> bool:
    """Whether a ship's card is sealed (Stealth, L359: "keep the SICs of each player hidden until a
    predetermined action causes the Ship to be revealed"): until its sealed part is revealed."""
    ship = (state.get("game") or {}).get("ships", {}).get(uid) or {}
    part = state.get("sealed", {}).get(ship.get("stealth") or "")
    return bool(part) and not part.get("revealed")


def ship_of(state: dict, uid, field: str = "unit", allow_hidden: bool = False) -> tuple[dict, dict]:
    """A ship in play: its unit and its Astral Action books.  A ship whose card is hidden (Stealth)
    takes part only in what names nothing of its card (``allow_hidden``: activation, Orders,
    Commands): every other action's label would show the other side what the card holds."""
    try:
        unit = unit_of(state, uid)
    except RuleError:
        raise RuleError(_("Choose a ship (%(uid)r is not at this table).", uid=uid), field) from None
    ship = game(state)["ships"].get(unit["id"])
    if ship is None:
        raise RuleError(_("%(unit)s has no Ship Information Card.", unit=unit["name"]), field)
    if unit["removed"]:
        raise RuleError(_("%(unit)s is no longer in play.", unit=unit["name"]), field)
    if not allow_hidden and hidden(state, unit["id"]):
        raise RuleError(_("%(unit)s's card is hidden (Stealth): its side reveals it first (L359).", unit=unit["name"]), field)
    return unit, ship


def sealed_orders(state: dict, uid: str, include_hidden: bool = True) -> list[dict]:
    """This turn's sealed Orders of a ship (the core's sealed parts, kind "order", that hold an
    Astral Action Order: the core's own "seal" makes the same kind with only a free text, which is
    no Order of this game and must not break it)."""
    return [p for p in state.get("sealed", {}).values()
            if p.get("unit") == uid and p.get("kind") == "order" and p.get("round") == state["round"]
            and "order" in (p.get("secret") or {})
            and not p.get("discarded") and (include_hidden or p.get("revealed"))]


def orders_given(state: dict, uid: str) -> list[str]:
    """Every Order given to a ship this turn, open and sealed (the rules check duplicates on all)."""
    return list(turn(state)["orders"].get(uid, [])) + [p["secret"]["order"] for p in sealed_orders(state, uid)]


def in_effect(state: dict, uid: str, name: str) -> bool:
    """Whether an Order is in effect: given openly, or sealed and revealed (L128)."""
    revealed = [p["secret"]["order"] for p in sealed_orders(state, uid, include_hidden=False)]
    return name in this_turn(state).get("orders", {}).get(uid, []) or name in revealed


def spend_command(state: dict, uid: str, command: str, via) -> Said:
    """Enact a Command: spend the ship's Command Token, or discard one of its unrevealed Orders
    ("as though they had used a Command Token", L127).  Checks the Condition locks and L248."""
    from companion.games.astral_action.rules.damage import locked_types
    unit, ship = ship_of(state, uid, allow_hidden=True)
    kind = tn.COMMANDS.get(command)
    if kind is None:
        raise RuleError(_("Choose one of the Commands: %(commands)s.", commands=", ".join(tn.COMMANDS)), "command")
    if unit["template"] == "fighter":
        raise RuleError(_("Fighters cannot be issued Commands or Orders (L232)."), "command")
    if kind in locked_types(ship):
        raise RuleError(_("%(unit)s may no longer use [%(kind)s] Commands (its Conditions, L101-L110).", unit=unit["name"],
                          kind=kind), "command")
    books = turn(state)
    if command in books["commands"].get(uid, []):
        raise RuleError(_("%(unit)s already used %(command)s this turn (L248).", unit=unit["name"], command=command), "command")
    if via in (None, "", "token"):
        if books["tokens"].get(uid) != "ready":
            raise RuleError(_("%(unit)s has no unspent Command Token this turn.", unit=unit["name"]), "via")
        books["tokens"][uid] = "spent"
        how = Said("%(unit)s spends its Command Token: [%(kind)s] %(command)s", unit=unit["name"], kind=kind, command=command)
    else:
        part = state.get("sealed", {}).get(via)
        if not part or part.get("unit") != uid or part.get("kind") != "order" or part.get("round") != state["round"] \
                or part.get("revealed") or part.get("discarded"):
            raise RuleError(_("Only an unrevealed Order of %(unit)s from this turn can be discarded for a Command (L127).",
                              unit=unit["name"]), "via")
        part["discarded"] = True
        how = Said("%(unit)s discards an unrevealed Order: [%(kind)s] %(command)s", unit=unit["name"], kind=kind,
                   command=command)
    books["commands"].setdefault(uid, []).append(command)
    return how


def ships_for_activation(state: dict) -> list[dict]:
    """The ships in the activation order; a Formation is one entry at the Size of its largest ship
    (L380).  Reads the state without changing it (the board calls it on its copy)."""
    g = state.get("game") or {}
    formations = g.get("formations") or {}
    member_of = {m: lead for lead, f in formations.items() for m in f["members"]}
    contacts = g.get("contacts") or {}  # hidden ships' Sizes, public (Stealth): the board's copy has no card
    out, seen = [], set()
    for uid in state["unit_order"]:
        unit = state["units"][uid]
        ship = (g.get("ships") or {}).get(uid)
        if not ship and uid in contacts and not unit["removed"]:
            out.append({"id": uid, "side": unit["side"], "size": contacts[uid], "activated": unit["activated"]})
            continue
        if not ship or unit["removed"]:
            continue
        lead = member_of.get(uid)
        if lead is None:
            out.append({"id": uid, "side": unit["side"], "size": ship["card"]["size"], "activated": unit["activated"]})
        elif lead not in seen:
            seen.add(lead)
            alive = [m for m in formations[lead]["members"] if not state["units"][m]["removed"]]
            out.append({"id": lead, "side": unit["side"], "activated": all(state["units"][m]["activated"] for m in alive),
                        "size": max(g["ships"][m]["card"]["size"] for m in alive)})
    return out


def activation_status(state: dict) -> dict:
    books = turn(state)
    return tn.activation(ships_for_activation(state), state["sides"], books["passed"], books["last"])


def whose_activation(state: dict) -> str:
    """Whose activation it is now, in words, from what the table has recorded (public facts only)."""
    if phase_now(state) != "Activation":
        return _("this is the %(phase)s phase: no ship is activating", phase=phase_now(state))
    current = [u for u in turn(state).get("current", []) if u in state["units"]]
    if current:
        unit = state["units"][current[0]]
        size = max(game(state)["ships"][u]["card"]["size"] for u in current)
        return _("now it is %(unit)s's activation (%(side)s, Size %(size)s)", unit=unit["name"], side=unit["side"], size=size)
    status = activation_status(state)
    if status["stage"] == "done":
        return _("every ship has activated this turn")
    return _("%(side)s activates a Size %(size)s ship next (L132)", side=status["next"], size=status["size"])


def in_own_activation(state: dict, uid: str) -> bool:
    """Whether a ship's activation is the one in progress (L140-L143; a formation's members share it)."""
    return phase_now(state) == "Activation" and uid in this_turn(state).get("current", [])


def check_may_attack(state: dict, uid: str) -> str:
    """Whether a ship may attack now, and why: in its own activation (L75 "During the Activation of
    a Ship, it has the opportunity to fire its weapons"; L141 "1. Attack any Weapons"), which is the
    last activation made (``turn["current"]``, set by aa-activate, ended by the next activation or
    pass); after it under a Contingent Attack Order in effect (L251 "at any point during or after its
    activation"); or once outside it by an [Offensive] Command enacted for it (L256, kept in
    ``turn["free_attacks"]`` and spent here).  Returns what allowed it ("" for its own activation)."""
    allowed = attack_allowance(state, uid)
    if allowed is None:
        raise RuleError(_("%(unit)s attacks only in its own activation (L75, L141); %(now)s.", unit=state["units"][uid]["name"],
                          now=whose_activation(state)), "attacker")
    if allowed == FREE_ATTACK:
        turn(state)["free_attacks"].remove(uid)
    return allowed


FREE_ATTACK = "an [Offensive] Command (L256)"
CONTINGENT = "a Contingent Attack Order (L251)"


def allowed_by(allowed: str) -> Said:
    """What let a ship attack outside its own activation (``attack_allowance``), as its attack's label
    names it, without the source note: "a Contingent Attack Order", "an [Offensive] Command"."""
    return Said("a Contingent Attack Order") if allowed == CONTINGENT else Said("an [Offensive] Command")


def attack_allowance(state: dict, uid: str) -> str | None:
    """What lets a ship attack now ("" = its own activation), or None; see check_may_attack.  Reads
    the state without changing it (the board's row calls it on its copy)."""
    books = this_turn(state)
    unit = state["units"][uid]
    if phase_now(state) == "Activation" and uid in books.get("current", []):
        return ""
    if unit["activated"] and phase_now(state) in ("Activation", "Resolution") and in_effect(state, uid, "Contingent Attack"):
        return CONTINGENT
    if uid in books.get("free_attacks", []):
        return FREE_ATTACK
    return None


def target_view(state: dict, uid: str, field: str = "target") -> dict:
    """What an attack needs to know about a ship: its Size, card and defences in play."""
    unit, ship = ship_of(state, uid, field)
    card = ship["card"]
    return {"size": card["size"], "card": card, "unit": unit, "ship": ship,
            "avoidance": has_active(ship, card, "avoidance", "primary") > 0,
            "glance_bonus": 1 if has_active(ship, card, "avoidance", "secondary") else 0,
            "pws": has_active(ship, card, "pws")}


def roll(ctx, count: int, sides: int = 6) -> list[int]:
    return [ctx.rng.randint(1, sides) for _n in range(count)]


def destroy_if_done(state: dict, uid: str, ship: dict) -> Said | None:
    """Take a ship whose every health row is filled off the table: the label's part that says so (or None)."""
    from companion.games.astral_action.rules.damage import destroyed
    if destroyed(ship) and not state["units"][uid]["removed"]:
        state["units"][uid]["removed"] = True
        ship["destroyed"] = True
        return Said("%(unit)s is destroyed (L94)", unit=state["units"][uid]["name"])
    return None


# --- Formations (optional rules, L371-L395): read by the activation, the ship rows and the pages ---

def formation_of(state: dict, uid: str) -> dict | None:
    """The Formation a ship belongs to (as its Lead Ship or a member), or None."""
    for lead, f in (state.get("game", {}).get("formations") or {}).items():
        if uid in f["members"]:
            return {**f, "lead": lead}
    return None


def movement_of(state: dict, f: dict) -> tuple[int, int] | None:
    """L381 "use the lowest Heading and Maneuver value of all Ships in the Formation" at its Velocity."""
    ships = state["game"]["ships"]
    profiles = []
    for uid in f["members"]:
        ship = ships[uid]
        row = next((r for r in ship["card"].get("movement", []) if r[0] == ship["velocity"]), None)
        if row is None or state["units"][uid]["removed"]:
            continue
        profiles.append(row)
    if not profiles:
        return None
    return min(r[1] for r in profiles), min(r[2] for r in profiles)
