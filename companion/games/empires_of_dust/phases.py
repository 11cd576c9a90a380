"""Empires of Dust: the end of each phase (burns, EMP, ships destroyed at the end of combat) and victory."""
from __future__ import annotations

from companion.actions import action
from companion.actions import core
from companion.rules import RuleError
from companion.games.empires_of_dust import rules as eod
from companion.trackers import need_int
from companion.games.empires_of_dust.actions import (ROLL_REMINDER, SLUG, SYSTEMS, VICTORY, cls_of, designed, game, hp_of,
                                               pending_destroyed, phase_name, points, rotating_steps,
                                               set_condition, set_hp)
from companion.games.empires_of_dust.attack import _flag

# --- the end of a phase ---------------------------------------------------------------------------

def _destroy(state: dict, unit: dict, reason: str) -> str:
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
    score = f" ({by} +{worth})" if by and worth else ""
    return f"{unit['name']} {reason}{score}"


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
        notes.append(_capture_prize(state, unit) or _destroy(state, unit, "destroyed"))
    for uid, targets in list(g["surge_target"].items()):
        unit = state["units"][uid]
        shots = {str(f["weapon"]) for f in g["fired"].get(uid, [])}
        for windex in list(targets):
            tracker = unit["trackers"].get(f"surge-{windex}")
            if windex not in shots:  # seed 001, Surge: skipping a turn resets the counter
                del targets[windex]
                if tracker and tracker["index"]:
                    tracker["index"] = 0
                    notes.append(f"{unit['name']}: {tracker['label']} reset (no attack)")
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
            out.append(f"{unit['name']}: EMP counter removed")
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
        kept = [b for b in burns if b["turns_left"] > 1]
        for burn in kept:
            burn["turns_left"] -= 1
        g["burns"][uid] = kept
        if not kept:
            del g["burns"][uid]
        notes.append(f"{unit['name']} burns for {tick['damage']} (HP {before} → {hp_of(unit)})"
                     + (": destroyed at end of combat phase" if hp_of(unit) == 0 else ""))
    return notes


def victory_checks(state: dict) -> list[str]:
    """Checkmate and gladiator at the end of the turn (seed 001, Win Condition)."""
    g = game(state)
    victory = g.get("victory") or {}
    notes = []
    if victory.get("checkmate"):
        in_play = victory.get("in_play") or [s for s in state["sides"]]
        fleets = {s: [] for s in in_play}
        for unit in state["units"].values():
            if unit["side"] in fleets and "design" in unit:
                fleets[unit["side"]].append({"class": cls_of(unit), "hp": hp_of(unit),
                                             "destroyed": unit["removed"]})
        try:
            result = eod.checkmate(fleets, in_play)
        except RuleError as exc:
            return [f"Checkmate: {exc.message}"]
        for fleet in result["eliminated"]:
            for unit in state["units"].values():
                if unit["side"] == fleet and not unit["removed"]:
                    unit["removed"] = True
                    g["destroyed"].append({"unit": unit["id"], "name": unit["name"], "class": cls_of(unit),
                                           "side": fleet, "by": "", "round": state["round"],
                                           "reason": "withdrawn: no admiral"})
        victory["in_play"] = result["in_play"]
        victory["result"] = result["summary"]
        notes.append(f"Checkmate: {result['summary']}")
    if victory.get("gladiator"):
        fleets = {s: [{"class": cls_of(u), "hp": hp_of(u), "destroyed": u["removed"]}
                      for u in state["units"].values() if u["side"] == s and "design" in u]
                  for s in state["sides"]}
        fleets = {s: ships for s, ships in fleets.items() if ships}
        try:
            notes.append(f"Gladiator: {eod.gladiator(fleets)['summary']}")
        except RuleError as exc:
            notes.append(f"Gladiator: {exc.message}")
    return notes


def open_phase(state: dict) -> list[str]:
    g = game(state)
    notes = []
    if phase_name(state) == "Combat":
        notes += burn_fires(state)
    else:
        g["launched"] = {}
    ini = g.get("initiative")
    if ini:
        ini["tick"], ini["next"] = state["tick"], 0
        if ini["mode"] == "rotating":
            ini["steps"], ini["summary"] = rotating_steps(state, ini)
        else:
            ini["steps"], ini["summary"], ini["rolls"] = None, "", {}
    turns = (g.get("victory") or {}).get("turns")
    if turns and phase_name(state) == state["phases"][0] and state["round"] > turns:
        notes.append(f"The agreed {turns} turns are played: tally the points (seed 001, Turns and Points).")
    return notes


def phase_hook(state: dict) -> list[str]:
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
        g["phase_notes"] = notes
    ini = g.get("initiative")
    if ini and ini["mode"] != "rotating":
        notes = notes + [f"{ROLL_REMINDER} {phase_name(state).lower()} phase ({ini['mode']})."]
    return notes



@action("eod-end-phase", systems=SYSTEMS)
def end_phase(state: dict, p: dict) -> str:
    """End this phase (fires, EMP, destroyed ships removed and scored) and go to the next."""
    ended = phase_name(state)
    label = core.next_phase(state, p)
    notes = game(state).get("phase_notes") or []
    return f"End of {ended.lower()} phase" + (f": {'; '.join(notes)}" if notes else "") + f" → {label}"


# --- victory --------------------------------------------------------------------------------------

@action("eod-victory", systems=SYSTEMS)
def victory(state: dict, p: dict) -> str:
    """Choose the win conditions (checkmate, points, capture, gladiator, interdiction) and turns."""
    chosen = [v for v in VICTORY if _flag(p, v)]
    if not chosen:
        raise RuleError("Pick at least one win condition (seed 001, Win Condition).", "victory")
    turns = need_int(p, "turns", 1, 99) if p.get("turns") not in (None, "") else None
    g = game(state)
    old = g.get("victory") or {}
    g["victory"] = {**{v: v in chosen for v in VICTORY}, "turns": turns,
                    "in_play": old.get("in_play"), "result": old.get("result")}
    return f"Win conditions: {', '.join(chosen)}" + (f" over {turns} turns" if turns else "")


@action("eod-role", systems=SYSTEMS)
def role(state: dict, p: dict) -> str:
    """Mark a ship as a convoy ship (interdiction) or the prize (capture the ship), or neither."""
    unit = designed(state, p.get("unit"))
    kind = p.get("role") or "none"
    if kind not in ("convoy", "prize", "none"):
        raise RuleError("role must be convoy, prize or none.", "role")
    roles = game(state)["roles"]
    if roles.get(unit["id"], "none") == kind:
        raise RuleError(f"{unit['name']} is already {'unmarked' if kind == 'none' else 'a ' + kind + ' ship'}.", "role")
    if kind == "none":
        del roles[unit["id"]]
    else:
        roles[unit["id"]] = kind
    return f"{unit['name']} is {'no longer marked' if kind == 'none' else 'a ' + kind + ' ship'}"


@action("eod-capture", systems=SYSTEMS)
def capture(state: dict, p: dict) -> str:
    """Capture a ship for a fleet: full hit points, it changes sides (seed 001, Capture the Ship)."""
    unit = designed(state, p.get("unit"))
    fleet = p.get("fleet")
    if fleet not in state["sides"]:
        raise RuleError(f"fleet must be one of {', '.join(state['sides'])}.", "fleet")
    if fleet == unit["side"]:
        raise RuleError(f"{unit['name']} already flies for {fleet}.", "fleet")
    result = eod.capture_ship({"class": cls_of(unit), "max_hp": unit["trackers"]["hp"]["max"],
                               "name": unit["name"]}, fleet)
    set_hp(unit, result["hp"])
    unit["side"] = fleet
    game(state)["docked"].pop(unit["id"], None)
    return result["summary"]


def standings(state: dict) -> dict:
    """What the panel shows for the chosen win conditions."""
    g = game(state)
    victory = g.get("victory") or {}
    out = {"points": points(state), "victory": victory}
    roles = g["roles"]
    if victory.get("capture"):
        held = {s: sum(1 for u, r in roles.items() if r == "prize" and not state["units"][u]["removed"]
                       and state["units"][u]["side"] == s) for s in state["sides"]}
        out["capture"] = eod.capture_tally(held)
    if victory.get("interdiction"):
        convoy = [state["units"][u] for u, r in roles.items() if r == "convoy"]
        if convoy:
            defender = convoy[0]["side"]
            attackers = [s for s in state["sides"] if s != defender]
            destroyed = sum(1 for u in convoy if u["removed"])
            out["interdiction"] = eod.interdiction([{"attacker": attackers[0] if attackers else "",
                                                     "defender": defender, "destroyed": destroyed,
                                                     "survived": len(convoy) - destroyed}])
    return out
