"""Core actions for hidden information, usable in every game: seal a text for a unit, reveal it,
discard it unread.  What may be read by whom is decided only by ``companion.hidden.for_viewer``;
these actions keep the secret under ``payload["sealed"]`` / ``state["sealed"]`` and never put it
in a label, not even a reveal's (a label outlives an undone reveal).
"""
from __future__ import annotations

from companion.actions import action
from companion.actions.core import unit_of
from companion.errors import RuleError
from companion.hidden import KEY
from companion.said import Said, _
from companion.schema import Ref, Scalar, Text
from companion.trackers import need_text

MAX_SEALED = 400


def sealed_parts(state: dict) -> dict:
    """The table's sealed parts (id -> part); tables from before hidden information have none."""
    return state.setdefault(KEY, {})


def next_id(state: dict) -> str:
    return f"s{len(sealed_parts(state)) + 1}"


def owner_side(state: dict, unit: dict, ctx) -> str:
    """The side a sealed part belongs to: the unit's; a seat of another side may not seal for it."""
    if not ctx.trusted and ctx.side != unit["side"]:  # a seat of no side (the host's script, a spectator) neither
        raise RuleError(_("Only %(side)s can seal orders for %(unit)s.", side=unit["side"], unit=unit["name"]), "text")
    return unit["side"]


def sealed_label(p: dict, unit: dict) -> str:
    """The label of an order sealed for ``unit`` (shared by every action that seals one).  The log
    and the undo button put the sealing seat's name before it ("Anna: sealed an order for Falcon");
    a seat with no name leaves the side to say who sealed it."""
    if p.get("seat"):
        return Said("sealed an order for %(unit)s", unit=unit["name"])
    return Said("%(side)s sealed an order for %(unit)s", side=unit["side"], unit=unit["name"])


def store_part(state: dict, p: dict, kind: str) -> dict:
    """Put the payload's sealed part into the state (shared by every action that seals)."""
    parts = sealed_parts(state)
    part = p.get(KEY)
    if not isinstance(part, dict) or not isinstance(part.get("secret"), dict):
        raise RuleError(_("Nothing to seal."), "text")
    if p.get("id") != next_id(state):
        raise RuleError(_("The table changed while sealing; try again."), "text")
    if len(parts) >= MAX_SEALED:
        raise RuleError(_("A table holds at most %(most)s sealed parts.", most=MAX_SEALED), "text")
    entry = {"id": p["id"], "side": part["side"], "unit": p.get("unit"), "seat": p.get("seat", ""),
             "kind": kind, "round": state["round"], "revealed": False, "discarded": False,
             "secret": dict(part["secret"])}
    parts[p["id"]] = entry
    return entry


def part_of(state: dict, part_id) -> dict:
    part = sealed_parts(state).get(part_id) if isinstance(part_id, str) else None
    if part is None:
        raise RuleError(_("No sealed part %(part)r at this table.", part=part_id), "id")
    return part


def check_owner(part: dict, ctx) -> None:
    """Seal, reveal and discard by a seat of the owning side only, on every path (issue 37)."""
    if not ctx.trusted and ctx.side != part["side"]:
        raise RuleError(_("Only %(side)s can open what %(side)s sealed.", side=part["side"]), "id")


def whose(state: dict, part: dict) -> str:
    unit = state["units"].get(part.get("unit") or "")
    return unit["name"] if unit else part["side"]


@action("seal", fields={"unit": Ref("unit"), "text": Text(200)})
def seal(state: dict, p: dict) -> str:
    """Seal a written order for a unit: its side reads it, everyone else sees only that it exists."""
    unit = unit_of(state, p.get("unit"))
    if unit["removed"]:
        raise RuleError(_("%(unit)s is off the table.", unit=unit["name"]), "unit")
    store_part(state, p, "order")
    return sealed_label(p, unit)


@seal.decider
def decide_seal(state: dict, args: dict, ctx) -> dict:
    unit = unit_of(state, args.get("unit"))
    text = need_text(args, "text", 200)
    side = owner_side(state, unit, ctx)
    return {"unit": unit["id"], "id": next_id(state), "seat": ctx.seat,
            KEY: {"side": side, "secret": {"text": text}}}


@action("reveal", fields={"id": Scalar(60, "the sealed order's id")})
def reveal(state: dict, p: dict) -> str:
    """Reveal a sealed part to everybody (its text shows beside this event in the log while revealed)."""
    part = part_of(state, p.get("id"))
    if part["revealed"]:
        raise RuleError(_("That order for %(whose)s is already revealed.", whose=whose(state, part)), "id")
    if part["discarded"]:
        raise RuleError(_("That order for %(whose)s was discarded unread.", whose=whose(state, part)), "id")
    part["revealed"] = True
    # the label names the part, never its text: a label outlives the reveal (an undone reveal's
    # line, the undo's, the Redo button's); the log shows the text from the part while it is
    # revealed (hidden.revealed_texts)
    if part["kind"] == "order":
        return Said("%(whose)s: sealed order revealed", whose=whose(state, part))
    if part["kind"] == "card":
        return Said("%(whose)s: sealed card revealed", whose=whose(state, part))
    return Said("%(whose)s: sealed %(kind)s revealed", whose=whose(state, part), kind=part["kind"])


@reveal.decider
def decide_reveal(state: dict, args: dict, ctx) -> dict:
    part = part_of(state, args.get("id"))
    check_owner(part, ctx)
    return {"id": part["id"]}


@action("discard-sealed", fields={"id": Scalar(60, "the sealed order's id")})
def discard_sealed(state: dict, p: dict) -> str:
    """Discard a sealed part unread (e.g. an unrevealed order traded for a command); it stays secret."""
    part = part_of(state, p.get("id"))
    if part["revealed"] or part["discarded"]:
        if part["kind"] == "order":
            raise RuleError(_("That order for %(whose)s is no longer sealed.", whose=whose(state, part)), "id")
        if part["kind"] == "card":
            raise RuleError(_("That card for %(whose)s is no longer sealed.", whose=whose(state, part)), "id")
        raise RuleError(_("That %(kind)s for %(whose)s is no longer sealed.", kind=part["kind"], whose=whose(state, part)),
                        "id")
    if part["kind"] != "order":  # a hidden card (a game's own kind of part) is revealed, never thrown away
        if part["kind"] == "card":
            raise RuleError(_("Only a sealed order can be discarded; that card can be revealed."), "id")
        raise RuleError(_("Only a sealed order can be discarded; that %(kind)s can be revealed.", kind=part["kind"]), "id")
    part["discarded"] = True
    return Said("%(whose)s: sealed order discarded unread", whose=whose(state, part))


@discard_sealed.decider
def decide_discard_sealed(state: dict, args: dict, ctx) -> dict:
    part = part_of(state, args.get("id"))
    check_owner(part, ctx)
    return {"id": part["id"]}
