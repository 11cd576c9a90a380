"""Astral Action terrain (seed 004 Chapter 8, L287-L335): attributes and the example pieces.  The
examples write "Movement X" for the attribute the seed defines as Mobile (X) (L299): read as Mobile.
Pure: the pieces on the table are the action aa-terrain's (actions/terrain.py)."""
from __future__ import annotations

import re

from companion.errors import RuleError
from companion.said import _

ATTRIBUTES = ("Solid", "Concealing", "Obscuring", "Dangerous", "Hazardous", "Blocking", "Mobile", "Push", "Pull")  # L293-L300
EXAMPLES = {  # L302-L334
    "Planet/Moon": "Solid", "Asteroid Field": "Hazardous 1, Blocking", "Massive Asteroid": "Solid, Mobile 2",
    "Dust Cloud": "Obscuring 1", "Nebula (inner band)": "Obscuring 1", "Nebula (outer band)": "Obscuring 1",
    "Dense Gas Nebula (inner band)": "Concealing", "Dense Gas Nebula (outer band)": "Obscuring 1",
    "Plasma Storm": "Concealing, Dangerous 1", "Meteor Swarm": "Dangerous 1, Hazardous 1, Obscuring 2, Mobile 3",
    "Giant Meteor (inner mass)": "Solid, Mobile 3", "Giant Meteor (tail)": "Hazardous 1, Obscuring 1",
    "Wreckage": "Hazardous 1, Obscuring 1", "Minefield": "Dangerous 2, Hazardous 1",
    "Ancient Minefield": "Hazardous 2, Blocking", "Wormhole Entrance": "Pull 1", "Wormhole Exit": "Push 1",
    "Gravity Anomaly Field": "Blocking, Push 1 (Random)",
}


def parse_attributes(text: str) -> list[dict]:
    """ "Dangerous 1, Hazardous 1" -> [{"name": "Dangerous", "x": 1}, ...]; unknown words are refused."""
    out = []
    for part in [p.strip() for p in str(text or "").split(",") if p.strip()]:
        m = re.fullmatch(r"([A-Za-z/]+)(?:\s+(\d{1,2}))?(\s*\(Random\))?", part)
        name = (m.group(1).capitalize() if m else "").replace("Movement", "Mobile")
        if not m or name not in ATTRIBUTES:
            raise RuleError(_("%(part)r is not a terrain attribute (%(attributes)s, with X where it has one).", part=part,
                              attributes=", ".join(ATTRIBUTES)), "attributes")
        out.append({"name": name, "x": int(m.group(2)) if m.group(2) else None, "random": bool(m.group(3))})
    if not out:
        raise RuleError(_("Give the piece its attributes, e.g. Dangerous 1, Obscuring 1."), "attributes")
    return out


def describe(attributes: list[dict]) -> str:
    return ", ".join(a["name"] + (f" {a['x']}" if a["x"] is not None else "") + (" (Random)" if a["random"] else "")
                     for a in attributes)
