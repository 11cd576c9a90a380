"""What the board shows of a Talon table, computed by the same rules the actions use (pure).

``row_view`` is a ship's closed row on the board (hull, shields per arc, Power, Speed, what needs doing);
``ship_view`` is one ship's card: its curve row now, Power after damage, AP and movement this impulse,
shields and hull left, ready groups with their hit numbers and odds.  ``round_view`` is the impulse
panel: whose turn, which ships move and which get AP now, and the per-round schedule players draw on
paper ("ship / curve / A-F: AP, move", PBF; TALON.md 10).
"""
from __future__ import annotations

from companion.games.talon import state as books
from companion.games.talon.rules import chart, counter, weapons


def row_view(state: dict, uid: str) -> dict:
    """The few numbers of a ship's closed row, without the odds the card computes."""
    unit = state["units"][uid]
    ship = unit["talon"]
    letter, half, key = books.now(state)
    my_turn = bool(letter) and books.turn_side(state) == unit["side"]
    return {"hull_left": counter.hull_left(ship), "hull": len(ship["hull"]),
            "destroyed": books.lost_words(ship["destroyed"]),  # why it left, in the reader's words
            "shields": [(a, counter.shields_left(ship, a), ship["shields"][a]) for a in counter.ARCS],
            "power": counter.power(ship), "speed": counter.speed(ship), "my_turn": my_turn,
            "ready": [i + 1 for i, g in enumerate(ship["groups"]) if counter.ready(g)] if my_turn else []}


def ship_view(state: dict, uid: str) -> dict:
    unit = state["units"][uid]
    ship = unit["talon"]
    letter, half, key = books.now(state)
    tables = books.game(state).get("weapons") or {}
    power = counter.power(ship)
    view = {
        "row": chart.row_text(counter.row(ship)), "power": power, "speed": counter.speed(ship),
        "destroyed": books.lost_words(ship["destroyed"]),  # why it left, in the reader's words (stored English)
        "radius": counter.turn_radius(ship), "letter": letter,
        "my_turn": bool(letter) and books.turn_side(state) == unit["side"],
        "ap": bool(letter) and counter.ap_now(ship, letter), "moves": bool(letter) and counter.moves_now(ship, letter),
        "ap_spent": bool(key) and ship["ap_used"] == key, "moved": bool(key) and ship["moved"] == key,
        "shields": {a: counter.shields_left(ship, a) for a in counter.ARCS},
        "hull_left": counter.hull_left(ship), "hull_power": counter.hull_power(ship),
        "sideslip_ready": bool(ship["sideslip"]) and ship["sideslip"] != key,
        "safe_rows": counter.safe_rows(ship),
        "curve_changed": ship["curve_changed"] == state["round"],
        "schedule": chart.schedule(power, counter.speed(ship)),
        "groups": [],
    }
    for i, group in enumerate(ship["groups"]):
        entry = {"index": i + 1, "ready": counter.ready(group), "name": tables.get(group["weapon"], {}).get("name",
                                                                                                          group["weapon"]),
                 "odds": []}
        table = tables.get(group["weapon"])
        if table and "damage" in table:
            for r in weapons.ranges(tables, group["weapon"]):
                o = weapons.odds(tables, group["weapon"], group["count"], r)
                entry["odds"].append({"range": r, "hits": weapons.hit_numbers(tables, group["weapon"], r),
                                      "mean": o["mean"], "any": round(o["any"] * 100)})
        elif table:
            entry["launch"] = table["launch"]
        view["groups"].append(entry)
    return view


def round_view(state: dict) -> dict:
    letter, half, key = books.now(state)
    g = books.game(state)
    rows = []
    for uid, unit, ship in books.ships(state):
        if ship["destroyed"]:
            continue
        power = counter.power(ship)
        rows.append({"uid": uid, "name": unit["name"], "side": unit["side"], "row": chart.row_text(counter.row(ship)),
                     "power": power, "cells": chart.schedule(power, counter.speed(ship)),
                     "ap_spent": bool(key) and ship["ap_used"] == key, "moved": bool(key) and ship["moved"] == key})
    lost = {s: 0 for s in state["sides"][:2]}
    for _uid, unit, ship in books.ships(state):
        if ship["destroyed"] and ship["destroyed"] != "retreats" and unit["side"] in lost:
            lost[unit["side"]] += ship["sp"]
    entered = {s: sum(p["points"] for p in g["points"] if p["side"] == s) for s in lost}
    return {"letter": letter, "half": half, "turn": books.turn_side(state), "initiative": g["initiative"],
            "impulses": chart.IMPULSES, "rows": rows, "lost": lost, "entered": entered,
            "bid": g["bids"].get(key, {}) if key else {}}
