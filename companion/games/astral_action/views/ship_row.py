"""What a ship's compact row on the board shows (issue 10): its Shields, Armor and Health left, its
Conditions, a Condition waiting to be rolled, whether its Orders are sealed or revealed, its
formation, and the weapon the row's "Attack" link chooses.  Reads the board's copy of the state,
which has passed through ``hidden.for_viewer``: another side's sealed Orders carry no text here,
and the row never shows an unrevealed Order's text anyway (only that one is sealed).
"""
from __future__ import annotations

from companion.games.astral_action.rules.equipment import WEAPONS
from companion.games.astral_action.state import attack_allowance, formation_of
from companion.said import _


def _left(tracks: list[dict]) -> tuple[int, int] | None:
    """Boxes still open and boxes in all, over several tracks (e.g. two Shield components)."""
    if not tracks:
        return None
    size = sum(t["size"] for t in tracks)
    return size - sum(t["filled"] for t in tracks), size


def ready_weapon(state: dict, uid: str) -> str | None:
    """The attack form's choice for this ship ("u1:0"): its first working weapon that has not attacked
    this turn (L77: "Pick a weapon that has not attacked this turn"), else None."""
    g = state.get("game") or {}
    ship = (g.get("ships") or {}).get(uid)
    if not ship:
        return None
    now = g.get("turn") if (g.get("turn") or {}).get("round") == state["round"] else {}
    fired = (now or {}).get("fired")
    # (whether any ship has fired is not read: a card drawn again only when its own ship fires, issue 38)
    fired = fired.get(uid, []) if isinstance(fired, dict) else []
    if ship["card"]["size"] == 0:  # a fighter attacks once, twice with Extended Payload, then resupplies (L227, L239)
        allowed = 2 if any(e["item"] == "payload" for e in ship["card"]["equipment"]) else 1
        if ship.get("shots", 0) >= allowed:
            return None
    for i, e in enumerate(ship["card"]["equipment"]):
        if e["item"] in WEAPONS and i not in ship.get("inactive", []) and i not in fired:
            return f"{uid}:{i}"
    return None


def ship_row(state: dict, uid: str) -> dict | None:
    """The numbers and markers of one ship's row, or None for a unit without a card."""
    g = state.get("game") or {}
    ship = (g.get("ships") or {}).get(uid)
    if not ship:
        return None
    working = [t for t in ship.get("tracks", []) if t["eq"] not in ship.get("inactive", [])]
    now = g.get("turn") if (g.get("turn") or {}).get("round") == state["round"] else {}
    sealed = [p for p in (state.get("sealed") or {}).values()
              if p.get("unit") == uid and p.get("kind") == "order" and p.get("round") == state["round"]
              and not p.get("discarded")]
    # a revealed part shows what was sealed: an aa-order's Order, or the core "seal"'s free text (a
    # plain written order has no "order" in its secret: reading one broke every board, issue 43)
    revealed = [p["secret"].get("order") or p["secret"].get("text", "")
                for p in sealed if p.get("revealed") and p.get("secret")]
    f = formation_of(state, uid)
    formation = None
    if f:
        # drawn per render (the board's row): in the reader's words
        formation = _("Formation lead") if f["lead"] == uid else _("Formation (%(lead)s)", lead=state["units"][f["lead"]]["name"])
    return {"shields": _left([t for t in working if t["kind"] == "shields"]),
            "armor": _left([t for t in working if t["kind"] == "armor"]),
            "health": _left(ship.get("rows", [])),
            "conditions": list(ship.get("conditions", [])),
            "to_roll": ship.get("pending", 0) if not ship.get("determined") else 0,
            "orders": list(((now or {}).get("orders") or {}).get(uid, [])) + revealed,
            "sealed": sum(1 for p in sealed if not p.get("revealed")),
            "formation": formation,
            # the row's Attack shows only when the ship may attack now (its activation, L75, L141)
            "shot": ready_weapon(state, uid) if attack_allowance(state, uid) is not None else None}
