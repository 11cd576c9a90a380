"""Empires of Dust: the end of each phase (seed 001, Combat Phase; Burning; EMP): fires burn, EMP
wears off, ships at 0 HP are removed and scored; the phase hook (``eod-end-phase`` is actions/end_phase.py).
"""
from __future__ import annotations

from companion.actions import phase_now
from companion.games.empires_of_dust import rules as eod
from companion.games.empires_of_dust.actions.initiative import rotating_steps
from companion.games.empires_of_dust.actions.victory import victory_checks
from companion.games.empires_of_dust.state import (
    DESTROYED,
    cls_of,
    game,
    hp_of,
    pending_destroyed,
    set_condition,
    set_hp,
)
from companion.said import Said, kept


def _destroy(state: dict, unit: dict, reason: str = DESTROYED) -> str:
    g = game(state)
    by = g["last_damage"].get(unit["id"])
    if by is None:  # damage entered by hand: with two fleets the other one destroyed it
        others = [s for s in state["sides"] if s != unit["side"]]
        by = others[0] if len(others) == 1 else ""
    unit["removed"] = True
    cls = cls_of(unit)
    g["destroyed"].append({"unit": unit["id"], "name": unit["name"], "class": cls, "side": unit["side"],
                           "by": by, "round": state["round"], "reason": reason})
    worth = eod.victory_points().get(cls)
    if by and worth:
        return Said("%(unit)s destroyed (%(fleet)s +%(points)s)", unit=unit["name"], fleet=by, points=worth)
    return Said("%(unit)s destroyed", unit=unit["name"])


def _capture_prize(state: dict, unit: dict) -> str | None:
    """Capture the Ship: destroying the prize captures it with full HP (seed 001)."""
    g = game(state)
    captor = g["last_damage"].get(unit["id"])
    if g["roles"].get(unit["id"]) != "prize" or not (g.get("victory") or {}).get("capture") or not captor:
        return None
    result = eod.capture_ship({"class": cls_of(unit), "hp": 0, "max_hp": unit["trackers"]["hp"]["max"],
                               "name": unit["name"]}, captor)
    set_hp(unit, result["hp"])
    unit["side"] = captor
    g["last_damage"].pop(unit["id"], None)
    return result["summary"]


def close_combat(state: dict) -> list[str]:
    """End of the combat phase: ships at 0 HP are removed and scored, expiring effects cleared."""
    g = game(state)
    notes = []
    for unit in pending_destroyed(state):
        notes.append(_capture_prize(state, unit) or _destroy(state, unit))
    for uid, targets in list(g["surge_target"].items()):
        unit = state["units"][uid]
        shots = {str(f["weapon"]) for f in g["fired"].get(uid, [])}
        for windex in list(targets):
            tracker = unit["trackers"].get(f"surge-{windex}")
            if windex not in shots:  # seed 001, Surge: skipping a turn resets the counter
                del targets[windex]
                if tracker and tracker["index"]:
                    tracker["index"] = 0
                    notes.append(Said("%(unit)s: %(tracker)s reset (no attack)", unit=unit["name"], tracker=tracker["label"]))
    for unit in state["units"].values():
        for name in ("Designated", "Afterburner"):
            set_condition(unit, name, False)
    g["fired"], g["ecm_blocked"] = {}, {}
    g["docked"] = {s: b for s, b in g["docked"].items()
                   if not state["units"][s]["removed"] and not state["units"][b]["removed"]}
    notes += victory_checks(state)
    return notes


def close_movement(state: dict) -> list[str]:
    """End of the movement phase: EMP is removed after the affected ship's move (seed 001, EMP)."""
    out = []
    for unit in state["units"].values():
        if not unit["removed"] and set_condition(unit, "EMP", False):
            out.append(Said("%(unit)s: EMP counter removed", unit=unit["name"]))
    return out


def burn_fires(state: dict) -> list[str]:
    """Fires burn as the combat phase starts, for two turns after the hit (seed 001, Burning)."""
    g = game(state)
    notes = []
    for uid in list(g["burns"]):
        unit = state["units"][uid]
        burns = g["burns"][uid]
        if unit["removed"] or not burns:
            del g["burns"][uid]
            continue
        tick = eod.burn_tick(burns)
        before = hp_of(unit)
        set_hp(unit, before - tick["damage"])
        if tick["damage"] and hp_of(unit) < before:
            g["last_damage"][uid] = burns[-1].get("by", "")
        left = [b for b in burns if b["turns_left"] > 1]
        for burn in left:
            burn["turns_left"] -= 1
        g["burns"][uid] = left
        if not left:
            del g["burns"][uid]
        if hp_of(unit) == 0:
            notes.append(Said("%(unit)s burns for %(damage)s (HP %(before)s → %(after)s): destroyed at end of combat phase",
                              unit=unit["name"], damage=tick["damage"], before=before, after=hp_of(unit)))
        else:
            notes.append(Said("%(unit)s burns for %(damage)s (HP %(before)s → %(after)s)", unit=unit["name"],
                              damage=tick["damage"], before=before, after=hp_of(unit)))
    return notes


def open_phase(state: dict) -> list[str]:
    g = game(state)
    notes = []
    if phase_now(state) == "Combat":
        notes += burn_fires(state)
    else:
        g["launched"] = {}
        g.pop("launched_from", None)
    ini = g.get("initiative")
    if ini:
        ini["tick"], ini["next"] = state["tick"], 0
        if ini["mode"] == "rotating":
            ini["steps"], ini["summary"] = rotating_steps(state, ini)
        else:
            ini["steps"], ini["summary"], ini["rolls"] = None, "", {}
    turns = (g.get("victory") or {}).get("turns")
    if turns and phase_now(state) == state["phases"][0] and state["round"] > turns:
        notes.append(Said("The agreed %(turns)s turns are played: tally the points (seed 001, Turns and Points).",
                          turns=turns))
    return notes


def on_phase(state: dict) -> list[str]:
    """Runs as each phase starts (core next-phase): close the last phase, open this one."""
    if not state.get("tick"):
        return []
    g = game(state)
    notes: list[str] = []
    if g.get("phase_tick") != state["tick"]:
        g["phase_tick"] = state["tick"]
        ended = state["phases"][(state["phase"] - 1) % len(state["phases"])]
        notes += close_combat(state) if ended == "Combat" else close_movement(state)
        notes += open_phase(state)
        g["phase_notes"] = [kept(n) for n in notes]  # each phone reads them in its language
    ini = g.get("initiative")
    if ini and ini["mode"] != "rotating":
        # starts with ROLL_REMINDER: a new initiative takes it off the reminders
        notes = notes + [Said("Roll initiative for this %(phase)s phase (%(mode)s).", phase=phase_now(state).lower(),
                              mode=ini["mode"])]
    return notes
