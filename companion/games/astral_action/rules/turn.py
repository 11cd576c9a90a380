"""The turn: Orders and Commands, the activation order by Size, game length.  Seed 004 L115-L143,
L245-L286, L341-L342.  Pure.
"""
from __future__ import annotations

from companion.errors import RuleError
from companion.said import _

PHASES = ("Command", "Activation", "Resolution")  # L120-L123

# L250-L286: Orders by type.  Commands (L253-L284) are enacted by spending a Command Token or
# discarding an unrevealed Order (L127, L254).
ORDERS = {
    "Contingent Attack": "Offensive", "Offensive Focus": "Offensive",
    "Brace for Impact": "Defensive", "Reinforce Shields": "Defensive",
    "Evasive Actions": "Navigate", "Change Velocity": "Navigate",
    "Enhance Scanners": "Scanning", "Mark Target": "Scanning",
    "Jump to Hyperspace": "Hyperspace",
}
COMMANDS = {
    "Reroll a die": "Offensive", "Attack with an unused weapon": "Offensive",
    "Replace a Condition": "Defensive",
    "Dodge": "Navigate", "Change Velocity": "Navigate",
    "Enhance Sensors": "Scanning",
}
# L275 "Mark Target (May be performed more than once per turn if on separate ships)"; L248 "Any
# specific Order or Command cannot be given in the same ship more than once in a turn".
FORMATION_KINDS = ("offensive", "defensive")  # L383
MIN_TURNS = 5  # L342 "It is recommended to play for at least 5 turns"
END_ON = (4, 5, 6)  # L342 "On a 4-6, the game ends"


def order_type(name: str) -> str:
    if name not in ORDERS:
        raise RuleError(_("Choose one of the Orders: %(orders)s.", orders=", ".join(ORDERS)), "order")
    return ORDERS[name]


def order_slots(boosters: int, sensors: int) -> dict:
    """How many Orders a ship may be given in a turn: one (SILENT; "one additional" in L201 and L208
    implies one), one more [Navigate] with Boosters, one more [Scanning] with Advanced Sensors."""
    return {"any": 1, "Navigate": 1 if boosters else 0, "Scanning": 1 if sensors else 0}


def check_order(name: str, given: list[str], locked: set[str], slots: dict, fighter: bool = False) -> str:
    """Whether ``name`` may be added to the Orders already ``given`` this turn: the sentence if not."""
    kind = order_type(name)
    if fighter:
        raise RuleError(_("Fighters cannot be issued Commands or Orders (L232)."), "order")
    if kind in locked:
        raise RuleError(_("This ship may no longer give [%(kind)s] Orders (its Conditions, L101-L110).", kind=kind), "order")
    if name in given:
        raise RuleError(_("%(order)s was already given to this ship this turn (L248).", order=name), "order")
    kinds = [ORDERS[g] for g in given]
    extra = {k: slots.get(k, 0) for k in ("Navigate", "Scanning")}
    generic = slots["any"]
    for k in kinds:  # fill the extra slots of their own type first, then the generic one
        if extra.get(k):
            extra[k] -= 1
        else:
            generic -= 1
    if generic <= 0 and not extra.get(kind):
        more = [k for k, n in slots.items() if k != "any" and n]
        raise RuleError(_("This ship has all the Orders it may have this turn (one more only for [%(kinds)s]).",
                          kinds=", ".join(more)) if more
                        else _("This ship has all the Orders it may have this turn."), "order")
    return kind


# --- activation order, L132-L136 ------------------------------------------------------------------

def activation(ships: list[dict], sides: list[str], passed: dict, last_side: str | None) -> dict:
    """Where the Ship Activation phase stands.  ``ships``: [{"id", "side", "size", "activated"}] on
    the table; ``passed``: {str(size): [sides that passed at that size]}; ``last_side``: who made the
    last activation.

    Ascending (Steps 1-2): from the smallest Size up, players alternate activating one ship of that
    Size or passing; a player with none must pass; at the largest Size every ship must activate and
    nobody may pass.  Descending (Steps 3-4; "Repeat Step 4" read as "Repeat Step 3", a draft slip):
    from one Size below the largest down, every ship still unactivated activates, alternating.
    Decisions where the seed is silent: fighters (Size 0 "for ... turn order", L218) take a Size 0
    step before Size 1; each Size step starts with the side that did not make the last activation
    (the first side of the table at the start of the phase)."""
    sizes = sorted({s["size"] for s in ships})
    if not sizes:
        return {"stage": "done", "size": None, "open": [], "next": None, "may_pass": False, "sizes": []}
    largest = sizes[-1]
    waiting = lambda size: {s["side"] for s in ships if s["size"] == size and not s["activated"]}  # noqa: E731
    current = None
    for size in sizes:  # ascending
        left = waiting(size) - (set(passed.get(str(size), [])) if size != largest else set())
        if left:
            current = ("ascending", size, left)
            break
    if current is None:
        for size in reversed(sizes[:-1]):  # descending from one below the largest
            if waiting(size):
                current = ("descending", size, waiting(size))
                break
    if current is None:
        return {"stage": "done", "size": None, "open": [], "next": None, "may_pass": False, "sizes": sizes}
    stage, size, open_sides = current
    order = [s for s in sides if s in open_sides]
    following = [s for s in order if s != last_side]
    nxt = following[0] if following else order[0]
    return {"stage": stage, "size": size, "open": order, "next": nxt,
            "may_pass": stage == "ascending" and size != largest, "sizes": sizes, "largest": largest}


def check_activation(status: dict, ship: dict) -> None:
    if status["stage"] == "done":
        raise RuleError(_("Every ship has activated this turn."), "unit")
    if ship["activated"]:
        raise RuleError(_("This ship has already activated this turn."), "unit")
    if ship["size"] != status["size"]:
        raise RuleError(_("Size %(size)s ships activate now (ascending); this one is Size %(ship)s (L132-L135).",
                          size=status["size"], ship=ship["size"]) if status["stage"] == "ascending"
                        else _("Size %(size)s ships activate now (descending); this one is Size %(ship)s (L132-L135).",
                               size=status["size"], ship=ship["size"]), "unit")
    if ship["side"] != status["next"]:
        raise RuleError(_("It is %(side)s's activation: players alternate (L132).", side=status["next"]), "unit")


def game_ends(turn: int, roll: int) -> bool:
    """L342: after the recommended 5 turns, a d6 at the end of each turn: 4-6 ends the game."""
    if turn < MIN_TURNS:
        raise RuleError(_("The end-of-game roll starts at the end of turn %(turn)s (L342).", turn=MIN_TURNS), "dice")
    return roll in END_ON
