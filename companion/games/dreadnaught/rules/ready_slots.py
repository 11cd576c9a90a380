"""The 4 Upgrade/Ready slots (seed 000, Setup; Readying Cards): Upgrades, Ready cards, covering and flipping.
"""
from __future__ import annotations

import copy

from companion.errors import RuleError
from companion.games.dreadnaught.rules.numbers import READY_PER_TURN, SLOTS, UPGRADES_MAX, _plural
from companion.schema import whole_argument

# --- Ready / Upgrade slots --------------------------------------------------------------------

def _slots(slots) -> list:
    if not isinstance(slots, list) or len(slots) != SLOTS or not all(isinstance(s, list) for s in slots):
        raise RuleError(f"A ship has {SLOTS} Upgrade/Ready slots, each a pile of cards.", "slots")
    return copy.deepcopy(slots)


def _slot_index(slot, field: str = "slot") -> int:
    return whole_argument(slot, field, 1, SLOTS, what="A slot") - 1


def upgrade_slots(upgrades) -> dict:
    """Set-up: up to 4 Upgrade Cards face-up above the System Cards, one per slot."""
    if not isinstance(upgrades, list) or not all(isinstance(u, str) and u.strip() for u in upgrades):
        raise RuleError("List the chosen Upgrade Cards by name.", "upgrades")
    if len(upgrades) > UPGRADES_MAX:
        raise RuleError(f"Choose at most {UPGRADES_MAX} Upgrade Cards (seed 000, Setup).", "upgrades")
    slots = [[] for _ in range(SLOTS)]
    for i, name in enumerate(upgrades):
        slots[i].append({"name": name, "kind": "upgrade", "face_up": True})
    return {"slots": slots, "summary": f"{_plural(len(upgrades), 'Upgrade Card')} in the slots, face-up."}


def ready_cards(slots, placements) -> dict:
    """Ready step: place up to 2 Primary Cards in slots; a new card covers whatever is there."""
    slots = _slots(slots)
    if not isinstance(placements, list):
        raise RuleError("List the cards to ready with their slots.", "placements")
    if len(placements) > READY_PER_TURN:
        raise RuleError(f"Ready at most {READY_PER_TURN} cards a turn (seed 000, Readying Cards).", "placements")
    covered = []
    for placement in placements:
        if not isinstance(placement, dict) or not str(placement.get("name", "")).strip():
            raise RuleError("Each readied card needs a name and a slot.", "placements")
        index = _slot_index(placement.get("slot"))
        if slots[index]:
            covered.append(slots[index][-1]["name"])
        slots[index].append({"name": placement["name"], "kind": "ready"})
    text = f"{_plural(len(placements), 'card')} readied"
    if covered:
        text += f", covering {', '.join(covered)} (unavailable, and not flippable, until the new card is used)"
    return {"slots": slots, "covered": covered, "summary": text + "."}


def play_ready(slots, slot) -> dict:
    """Power Management: play the Ready card on top of a slot, face-up; what it covered is free again."""
    slots = _slots(slots)
    index = _slot_index(slot)
    if not slots[index] or slots[index][-1]["kind"] != "ready":
        raise RuleError(f"Slot {index + 1} has no Ready card on top.", "slot")
    card = slots[index].pop()
    text = f"{card['name']} played from slot {index + 1}"
    if slots[index]:
        under = slots[index][-1]
        text += f"; {under['name']} is uncovered"
    return {"slots": slots, "played": card["name"], "summary": text + "."}


def flip_upgrade(slots, slot, face_up: bool) -> dict:
    """Flip the top Upgrade Card of a slot: face-down when used, face-up through Power Management."""
    slots = _slots(slots)
    index = _slot_index(slot)
    pile = slots[index]
    if not pile:
        raise RuleError(f"Slot {index + 1} is empty.", "slot")
    top = pile[-1]
    if top["kind"] != "upgrade":
        raise RuleError(f"The Upgrade Card in slot {index + 1} is covered and cannot be flipped until the card "
                        f"on it is used (seed 000, Readying Cards).", "slot")
    if top["face_up"] == bool(face_up):
        raise RuleError(f"{top['name']} is already face-{'up' if face_up else 'down'}.", "slot")
    top["face_up"] = bool(face_up)
    verb = "face-up: available again" if face_up else "face-down: used"
    return {"slots": slots, "summary": f"{top['name']} flipped {verb}."}
