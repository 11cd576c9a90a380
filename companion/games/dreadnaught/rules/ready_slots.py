"""The 4 Upgrade/Ready slots (seed 000, Setup; Readying Cards): Upgrades, Ready cards, covering and flipping.
"""
from __future__ import annotations

import copy

from companion.errors import RuleError
from companion.games.dreadnaught.rules.numbers import READY_PER_TURN, SLOTS, UPGRADES_MAX, _plural, sentence
from companion.said import N_, Said, _
from companion.schema import whole_argument

# --- Ready / Upgrade slots --------------------------------------------------------------------

def _slots(slots) -> list:
    if not isinstance(slots, list) or len(slots) != SLOTS or not all(isinstance(s, list) for s in slots):
        raise RuleError(_("A ship has %(n)s Upgrade/Ready slots, each a pile of cards.", n=SLOTS), "slots")
    return copy.deepcopy(slots)


def _slot_index(slot, field: str = "slot") -> int:
    return whole_argument(slot, field, 1, SLOTS, what=N_("A slot")) - 1


def upgrade_slots(upgrades) -> dict:
    """Set-up: up to 4 Upgrade Cards face-up above the System Cards, one per slot."""
    if not isinstance(upgrades, list) or not all(isinstance(u, str) and u.strip() for u in upgrades):
        raise RuleError(_("List the chosen Upgrade Cards by name."), "upgrades")
    if len(upgrades) > UPGRADES_MAX:
        raise RuleError(_("Choose at most %(n)s Upgrade Cards (seed 000, Setup).", n=UPGRADES_MAX), "upgrades")
    slots = [[] for _ in range(SLOTS)]
    for i, name in enumerate(upgrades):
        slots[i].append({"name": name, "kind": "upgrade", "face_up": True})
    return {"slots": slots, "summary": f"{_plural(len(upgrades), 'Upgrade Card')} in the slots, face-up."}


def ready_cards(slots, placements) -> dict:
    """Ready step: place up to 2 Primary Cards in slots; a new card covers whatever is there."""
    slots = _slots(slots)
    if not isinstance(placements, list):
        raise RuleError(_("List the cards to ready with their slots."), "placements")
    if len(placements) > READY_PER_TURN:
        raise RuleError(_("Ready at most %(n)s cards a turn (seed 000, Readying Cards).", n=READY_PER_TURN),
                        "placements")
    covered = []
    for placement in placements:
        if not isinstance(placement, dict) or not str(placement.get("name", "")).strip():
            raise RuleError(_("Each readied card needs a name and a slot."), "placements")
        index = _slot_index(placement.get("slot"))
        if slots[index]:
            covered.append(slots[index][-1]["name"])
        slots[index].append({"name": placement["name"], "kind": "ready"})
    cards = _plural(len(placements), "card")
    text = (Said("%(cards)s readied, covering %(covered)s (unavailable, and not flippable, until the new card is used)",
                 cards=cards, covered=", ".join(covered)) if covered else Said("%(cards)s readied", cards=cards))
    return {"slots": slots, "covered": covered, "summary": sentence(text)}


def play_ready(slots, slot) -> dict:
    """Power Management: play the Ready card on top of a slot, face-up; what it covered is free again."""
    slots = _slots(slots)
    index = _slot_index(slot)
    if not slots[index] or slots[index][-1]["kind"] != "ready":
        raise RuleError(_("Slot %(n)s has no Ready card on top.", n=index + 1), "slot")
    card = slots[index].pop()
    if slots[index]:
        text = Said("%(card)s played from slot %(n)s; %(under)s is uncovered", card=card["name"], n=index + 1,
                    under=slots[index][-1]["name"])
    else:
        text = Said("%(card)s played from slot %(n)s", card=card["name"], n=index + 1)
    return {"slots": slots, "played": card["name"], "summary": sentence(text)}


def flip_upgrade(slots, slot, face_up: bool) -> dict:
    """Flip the top Upgrade Card of a slot: face-down when used, face-up through Power Management."""
    slots = _slots(slots)
    index = _slot_index(slot)
    pile = slots[index]
    if not pile:
        raise RuleError(_("Slot %(n)s is empty.", n=index + 1), "slot")
    top = pile[-1]
    if top["kind"] != "upgrade":
        raise RuleError(_("The Upgrade Card in slot %(n)s is covered and cannot be flipped until the card "
                          "on it is used (seed 000, Readying Cards).", n=index + 1), "slot")
    if top["face_up"] == bool(face_up):
        raise RuleError(_("%(card)s is already face-up.", card=top["name"]) if face_up
                        else _("%(card)s is already face-down.", card=top["name"]), "slot")
    top["face_up"] = bool(face_up)
    text = (Said("%(card)s flipped face-up: available again.", card=top["name"]) if face_up
            else Said("%(card)s flipped face-down: used.", card=top["name"]))
    return {"slots": slots, "summary": text}
