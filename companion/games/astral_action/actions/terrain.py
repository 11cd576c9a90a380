"""Astral Action terrain (seed 004 Chapter 8, L287-L335): pieces placed on the table (the action
aa-terrain); the attributes and the example pieces are ``rules.terrain``."""
from __future__ import annotations

from companion.actions import action
from companion.errors import RuleError
from companion.games.astral_action.rules.terrain import EXAMPLES, describe, parse_attributes
from companion.games.astral_action.state import SYSTEMS, game
from companion.said import Said, _
from companion.schema import Scalar, Text

MAX_PIECES = 30


@action("aa-terrain", systems=SYSTEMS, fields={
    "name": Text(60), "attributes": Text(300), "remove": Scalar(60)})
def aa_terrain(state: dict, p: dict) -> str:
    """Place a terrain piece (an example or your own attributes) on the table, or take one away."""
    pieces = game(state).setdefault("terrain", [])
    if p.get("remove"):
        piece = next((t for t in pieces if t["id"] == p["remove"]), None)
        if piece is None:
            raise RuleError(_("No such terrain piece."), "remove")
        pieces.remove(piece)
        return Said("Terrain removed: %(piece)s", piece=piece["name"])
    name = " ".join(str(p.get("name") or "").split())[:40]
    if not name:
        raise RuleError(_("Name the terrain piece (or choose an example)."), "name")
    attributes = parse_attributes(p.get("attributes") or EXAMPLES.get(name, ""))
    if len(pieces) >= MAX_PIECES:
        raise RuleError(_("At most %(most)s terrain pieces.", most=MAX_PIECES), "name")
    game(state).setdefault("next_terrain", 1)
    piece = {"id": f"t{game(state)['next_terrain']}", "name": name, "attributes": attributes}
    game(state)["next_terrain"] += 1
    pieces.append(piece)
    return Said("Terrain: %(piece)s (%(attributes)s)", piece=name, attributes=describe(attributes))
