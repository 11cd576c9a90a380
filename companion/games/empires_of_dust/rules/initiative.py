"""Empires of Dust (seed 001, Game Sequence; Initiative): who moves or attacks first -- a D20 per
phase, by ship class, or rotating.
"""
from __future__ import annotations

from companion.dice import roll_or_take
from companion.errors import RuleError
from companion.said import Said, _, joined
from companion.schema import whole_argument

from .seed_numbers import CLASS_ORDER, D20, _key


def _roll_off(names: list[str], rolls: dict, rng, what: str) -> tuple[list[str], dict]:
    """Highest D20 first; ties are broken with another roll (seed 001, Initiative: "Tied rolls are
    broken with another roll").  ``rolls[name]`` is a D20 or a list (the first roll, then
    tie-breakers).  A fleet that entered its real D20s rolls its tie-breaks for real too: a tie
    beyond the D20s entered is refused (not rolled by the companion), and so are D20s left over."""
    given = {n: list(rolls.get(n, [])) if isinstance(rolls.get(n, []), (list, tuple)) else [rolls[n]]
             for n in names}
    entered = {n: len(given[n]) for n in names}
    record = {n: [] for n in names}

    def next_roll(name: str) -> int:
        queue = given[name]
        value = queue.pop(0) if queue else None
        die = roll_or_take(1, D20, None if value is None else [value], rng,
                           _("D20 for %(name)s (%(what)s)", name=name, what=what))[0]
        record[name].append(die)
        return die

    def order(group: list[str], tied_on: int | None = None) -> list[str]:
        if len(group) <= 1:
            return group
        short = [n for n in group if entered[n] and not given[n]]
        if short and tied_on is not None:
            word = _("and")
            both = f" {word} ".join(group)
            raise RuleError(_("%(fleets)s tied on %(roll)s: enter each one's tie-break D20 after the first (e.g. "
                              "%(roll)s 7), or leave them all empty to let the companion roll (seed 001, Initiative).",
                              fleets=both, roll=tied_on), "d20")
        scores = {n: next_roll(n) for n in group}
        out = []
        for value in sorted(set(scores.values()), reverse=True):
            tied = [n for n in group if scores[n] == value]
            out += order(tied, value) if len(tied) > 1 else tied
        return out

    result = order(list(names))
    for n in names:
        if given[n]:
            used = len(record[n])
            why = _("no tie to break") if used else _("no roll-off needed")
            if entered[n] > 1:
                raise RuleError(_("%(fleet)s: %(n)s D20s entered but the roll-off used %(used)s (%(why)s).", fleet=n,
                                  n=entered[n], used=used, why=why), "d20")
            raise RuleError(_("%(fleet)s: %(n)s D20 entered but the roll-off used %(used)s (%(why)s).", fleet=n,
                              n=entered[n], used=used, why=why), "d20")
    return result, record


def initiative_order(mode: str, fleets, rolls: dict | None = None, *, turn: int = 1,
                     phase: str = "Movement", rng=None) -> dict:
    """Who moves or attacks first (seed 001, Game Sequence).

    ``mode`` "roll": every fleet rolls a D20 each phase, highest first, ties re-rolled;
    ``fleets`` is a list of fleet names, ``rolls`` {fleet: D20 or [D20, tie-breaks...]}.
    ``mode`` "class": battleships to drones, a D20 roll-off per class in every phase; ``fleets`` is
    {fleet: [classes or ships]}, ``rolls`` {class: {fleet: D20 or [...]}}.
    ``mode`` "rotating": fleets in turn, the first fleet of turn 1 goes last in turn 2, and so on;
    ``fleets`` is the turn-1 order (decided by a D20 roll-off, the winner choosing).
    Bases attack last in the combat phase (seed 001, Bases: Combat).
    """
    mode = _key(mode)
    rolls = rolls or {}
    turn = whole_argument(turn, "turn", 1)
    if mode == "roll":
        names = list(fleets)
        order, record = _roll_off(names, rolls, rng, _("%(phase)s initiative", phase=phase))
        return {"mode": mode, "phase": phase, "order": order, "rolls": record,
                "summary": roll_summary(phase, order, record)}
    if mode == "class":
        if not isinstance(fleets, dict):
            raise RuleError(_("For ship-class initiative give each fleet's ships or classes."), "fleets")
        present = {f: {_key(s.get("class", "") if isinstance(s, dict) else s) for s in ships}
                   for f, ships in fleets.items()}
        steps, record = [], {}
        for cls in CLASS_ORDER:
            having = [f for f in fleets if cls in present[f]]
            if not having:
                continue
            order, used = _roll_off(having, rolls.get(cls, {}), rng, _("%(cls)s initiative", cls=cls))
            steps.append({"class": cls, "order": order})
            record[cls] = used
        return {"mode": mode, "phase": phase, "steps": steps, "rolls": record,
                "order": [f"{s['class']}:{f}" for s in steps for f in s["order"]],
                "summary": class_summary(phase, steps)}
    if mode == "rotating":
        names = list(fleets)
        if not names:
            raise RuleError(_("Give the fleets in their turn-1 order."), "fleets")
        shift = (turn - 1) % len(names)
        order = names[shift:] + names[:shift]
        return {"mode": mode, "phase": phase, "turn": turn, "order": order,
                "summary": rotating_summary(phase, turn, order)}
    raise RuleError(_("Initiative mode is roll, class or rotating."), "mode")


def _combat(phase: str) -> bool:
    return _key(phase) == "combat"


def roll_summary(phase: str, order: list[str], record: dict) -> Said:
    """A D20 roll-off's order as the log says it: "Movement: Red (14), Blue (9/3)." (names and dice)."""
    shown = ", ".join(f"{n} ({'/'.join(map(str, record[n]))})" for n in order)
    if _combat(phase):
        return Said("%(phase)s: %(order)s. Bases attack last.", phase=phase, order=shown)
    return Said("%(phase)s: %(order)s.", phase=phase, order=shown)


def class_summary(phase: str, steps: list[dict]) -> Said:
    """Initiative by ship class: each class's order, battleships first."""
    combat = _combat(phase)
    text = joined("; ", [Said("%(kind)ss attack: %(fleets)s", kind=s["class"], fleets=", ".join(s["order"])) if combat
                         else Said("%(kind)ss move: %(fleets)s", kind=s["class"], fleets=", ".join(s["order"]))
                         for s in steps])
    if combat:
        return Said("%(phase)s: %(order)s. Bases attack last.", phase=phase, order=text)
    return Said("%(phase)s: %(order)s.", phase=phase, order=text)


def rotating_summary(phase: str, turn: int, order: list[str]) -> Said:
    """Rotating initiative: this turn's order of the fleets."""
    if _combat(phase):
        return Said("Turn %(turn)s %(phase)s: %(order)s. Bases attack last.", turn=turn, phase=phase.lower(),
                    order=", ".join(order))
    return Said("Turn %(turn)s %(phase)s: %(order)s.", turn=turn, phase=phase.lower(), order=", ".join(order))
