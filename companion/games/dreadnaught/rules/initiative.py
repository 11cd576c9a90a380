"""Initiative (seed 000, Initiative Order): the steps X, 5.9 ... 0 and the order the revealed cards resolve in.

Initiative values are held internally in tenths (5.9 -> 59) so that comparisons are exact; ``X``
sorts above every number (seed 000, Initiative Order: "This starts at initiative X, then moves
down through initiative 5.9, 5.8, 5.7 ... all the way down through initiative 1 to initiative 0").
"""
from __future__ import annotations

import math

from companion.errors import RuleError
from companion.games.dreadnaught.rules.numbers import PRIORITY, PRIORITY_TIEBREAK, TOP_TENTHS, X_TENTHS
from companion.said import Said, _
from companion.schema import whole_argument


def _initiative(value, field: str = "initiative") -> int:
    """An initiative step in tenths: 'X' -> 100, 5.9 -> 59, 0 -> 0 (seed 000, Initiative Order)."""
    shown = repr(value)
    if isinstance(value, str):
        text = value.strip()
        shown = text
        if text.upper() == "X":
            return X_TENTHS
        try:
            value = float(text)
        except ValueError:
            raise RuleError(_("An initiative is X or a number from 5.9 down to 0; got %(value)r.", value=text),
                            field) from None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise RuleError(_("An initiative is X or a number from 5.9 down to 0; got %(value)s.", value=shown), field)
    tenths = round(value * 10)
    if abs(value * 10 - tenths) > 1e-6:
        raise RuleError(_("Initiative steps go in tenths (5.9, 5.8 ...); got %(value)s.", value=shown), field)
    if not 0 <= tenths <= TOP_TENTHS:
        raise RuleError(_("Initiative runs from X, then 5.9 down to 0; got %(value)s.", value=shown), field)
    return tenths


def initiative_label(tenths: int) -> str:
    """How a step is written: 'X', '5.9', '4' (seed 000 writes whole steps as 'initiative 4')."""
    if tenths == X_TENTHS:
        return "X"
    return str(tenths // 10) if tenths % 10 == 0 else f"{tenths // 10}.{tenths % 10}"


# --- Initiative order -------------------------------------------------------------------------

def _card_type(value, name) -> str:
    text = str(value or "").strip().capitalize()
    if text == "Defence":
        text = "Defense"
    if text not in PRIORITY:
        raise RuleError(_("%(card)s: the card type is one of %(types)s; got %(value)r.", card=name,
                          types=", ".join(PRIORITY), value=value), "type")
    return text


def initiative_order(cards, attacker: str = "Attacker") -> dict:
    """Resolution order of the revealed cards, step by step, with the Priority tie-break.

    Each card: ``{"name" or "id", "owner", "type", "steps": [X, 5.9, 3, 0 ...], "power_level"
    (Upgrade), "speed" (Terrain)}``.  A card with several steps appears once per step.  Ties at one
    step go Upgrade (higher power level) > Terrain (higher speed) > Event > Defense > Offense; what
    is still tied is flagged ``attacker_chooses`` (seed 000, Initiative Order, Priority).
    """
    if not isinstance(cards, list):
        raise RuleError(_("List the revealed cards."), "cards")
    entries, ids = [], set()
    for number, card in enumerate(cards, 1):
        if not isinstance(card, dict):
            raise RuleError(_("Card %(n)s must give its name, type and initiative steps.", n=number), "cards")
        name = str(card.get("name") or card.get("id") or "").strip()
        if not name:
            raise RuleError(_("Card %(n)s needs a name.", n=number), "name")
        if card.get("id") is not None:
            if card["id"] in ids:
                raise RuleError(_("Two cards share the id %(id)r.", id=card["id"]), "id")
            ids.add(card["id"])
        kind = _card_type(card.get("type"), name)
        steps = card.get("steps")
        if not isinstance(steps, list) or not steps:
            raise RuleError(_("%(card)s: list the initiative steps it resolves at.", card=name), "steps")
        tenths = [_initiative(step, "steps") for step in steps]
        if len(set(tenths)) != len(tenths):
            raise RuleError(_("%(card)s: list each initiative step once.", card=name), "steps")
        key, _words = PRIORITY_TIEBREAK.get(kind, (None, None))
        level = card.get(key) if key else None
        if level is not None:
            if isinstance(level, bool) or not isinstance(level, int) or level < 0:
                whole_argument(level, key, 0, what=_("%(card)s's power level", card=name) if key == "power_level"
                               else _("%(card)s's speed", card=name))
        ordered = sorted(tenths, reverse=True)
        for i, t in enumerate(ordered, 1):
            entries.append({"card": name, "id": card.get("id"), "owner": card.get("owner"), "type": kind,
                            "initiative": initiative_label(t), "_t": t, "_rank": PRIORITY.index(kind),
                            "_level": level, "step_of": f"{i} of {len(ordered)}",
                            "steps": [initiative_label(x) for x in ordered]})
    # A tie inside Upgrade (or Terrain) needs the power level (or speed) of every card involved.
    for entry in entries:
        key, words = PRIORITY_TIEBREAK.get(entry["type"], (None, None))
        if key and entry["_level"] is None and any(
                o is not entry and o["_t"] == entry["_t"] and o["type"] == entry["type"] for o in entries):
            raise RuleError(_("%(card)s ties with another %(type)s Card at initiative %(initiative)s: enter its "
                              "%(tiebreak)s (higher breaks the tie).", card=entry["card"], type=entry["type"],
                              initiative=entry["initiative"], tiebreak=_(words)), key)
    entries.sort(key=lambda e: (-e["_t"], e["_rank"], -(e["_level"] or 0)))
    order, choices = [], []
    group, group_id = None, 0
    for position, entry in enumerate(entries, 1):
        prev = entries[position - 2] if position > 1 else None
        tie_key = (entry["_t"], entry["_rank"], entry["_level"] if entry["type"] in PRIORITY_TIEBREAK else None)
        same_step = prev is not None and prev["_t"] == entry["_t"]
        if not same_step:
            reason = Said("initiative %(initiative)s", initiative=entry["initiative"])
        elif prev["_rank"] != entry["_rank"]:
            reason = Said("priority: %(first)s before %(second)s", first=prev["type"], second=entry["type"])
        elif tie_key != group["key"]:
            words = PRIORITY_TIEBREAK[entry["type"]][1]
            reason = Said("priority: higher %(tiebreak)s first (%(first)s before %(second)s)", tiebreak=Said(words),
                          first=prev["_level"], second=entry["_level"])
        else:
            reason = Said("tied: the Attacker (%(attacker)s) chooses", attacker=attacker)
        if group is None or tie_key != group["key"] or not same_step:
            group_id += 1
            group = {"key": tie_key, "id": group_id, "members": []}
        group["members"].append(position)
        row = {k: v for k, v in entry.items() if not k.startswith("_")}
        if entry["type"] in PRIORITY_TIEBREAK:
            row[PRIORITY_TIEBREAK[entry["type"]][0]] = entry["_level"]
        row.update(position=position, reason=reason, tie_group=group_id, attacker_chooses=False)
        order.append(row)
    by_group: dict[int, list] = {}
    for row in order:
        by_group.setdefault(row["tie_group"], []).append(row)
    for gid, rows in by_group.items():
        if len(rows) > 1:
            for row in rows:
                row["attacker_chooses"] = True
                if not row["reason"].startswith("tied"):
                    row["reason"] = Said("%(reason)s; tied: the Attacker (%(attacker)s) chooses", reason=row["reason"],
                                         attacker=attacker)
            choices.append({"tie_group": gid, "initiative": rows[0]["initiative"], "type": rows[0]["type"],
                            "cards": [r["card"] for r in rows], "chooser": attacker})
    steps = []
    for row in order:
        if not steps or steps[-1]["initiative"] != row["initiative"]:
            steps.append({"initiative": row["initiative"], "positions": []})
        steps[-1]["positions"].append(row["position"])
    text = "; ".join(f"{r['initiative']} {r['card']}" + (" *" if r["attacker_chooses"] else "") for r in order)
    summary = f"Resolve: {text}." if order else "No cards revealed."
    if choices:
        summary += f" * tied: {attacker} (the Attacker) chooses the order."
    return {"order": order, "steps": steps, "attacker_choices": choices, "attacker": attacker, "summary": summary}
