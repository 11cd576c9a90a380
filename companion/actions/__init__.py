"""Actions: what a seat can do to a table, as events.

Each action type has ``apply(state, payload) -> label``: it checks the move against the state,
changes the state in place and says what happened ("Victory HP -3 (10 → 7)"); it raises RuleError
and the caller throws the copy away, so nothing is half-applied.  Actions that need chance have a
``decide(state, args, ctx) -> payload`` that rolls or shuffles *before* the event, so the stored
payload replays exactly.  ``fold(events)`` rebuilds a table's state from its log.

Pure: no Flask, no database.  Each game's package (``companion.games``) registers its own action
types for its system.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Callable

from companion.actions import schema
from companion.rules import RuleError


@dataclass
class Ctx:
    """Who acts and with what: the system's content, the RNG, the seat."""
    system: object
    rng: object
    seat: str = ""
    side: str | None = None


class Stale(RuleError):
    """The move was made against a view that is no longer current (answered 409)."""


@dataclass
class Action:
    type: str
    apply: Callable[[dict, dict], str]
    decide: Callable | None = None
    systems: frozenset | None = None
    chance: bool = False  # a roll or a draw: an undo leaves it in the log as withdrawn
    doc: str = ""
    fields: dict | None = None  # the request's declared fields (companion.actions.schema)
    dice: Callable | None = None  # checks an imported payload's dice and totals (import_check)


REGISTRY: dict[str, Action] = {}
MAX_ARGS_BYTES = 20_000


def action(type_: str, *, systems=None, chance=False, fields=None):
    """Register ``apply`` for an action type; ``@fn.decider`` adds its decide step.

    ``fields`` declares the request (``companion.actions.schema``): checked before the action runs
    and published in /api/openapi.json.  ``@fn.dice_check`` adds how an import re-derives the
    payload's chance (the dice within their sides and counts, the totals from the dice)."""
    def register(apply):
        entry = Action(type_, apply, systems=frozenset(systems) if systems else None, chance=chance,
                       doc=(apply.__doc__ or "").strip().split("\n")[0], fields=fields)
        REGISTRY[type_] = entry

        def decider(decide):
            entry.decide = decide
            return decide
        def dice_check(check):
            entry.dice = check
            return check
        apply.decider = decider
        apply.dice_check = dice_check
        return apply
    return register


def entered_dice(args: dict, key: str, value=None, *, type_: str | None = None, name: str | None = None) -> list | None:
    """The dice a player entered for ``key`` (or ``value``, read the same way), parsed by the Dice
    field the action type declared for ``key`` (``schema.Dice.parse``): a game's decide step reads
    its dice through the declaration, so the count and sides are written once (issue 24).  None
    when left empty.  ``type_``: the action type, when ``args`` (a preview's) does not say it;
    ``name``: the control a refusal names, when ``value`` came from another one."""
    _load_all()
    field = REGISTRY[type_ or args["type"]].fields[key]
    return field.parse(args.get(key) if value is None else value, name or key)


def available(system_slug: str) -> dict[str, Action]:
    _load_all()
    return {t: a for t, a in REGISTRY.items() if a.systems is None or system_slug in a.systems}


def lookup(type_: str, system_slug: str) -> Action:
    _load_all()
    entry = REGISTRY.get(type_)
    if entry is None or (entry.systems is not None and system_slug not in entry.systems):
        raise RuleError(f"Unknown action {type_!r} for this game.", "type")
    return entry


def prepare(state: dict, args: dict, ctx: Ctx) -> dict:
    """Turn a seat's request into an event payload (chance decided here, once)."""
    if not isinstance(args, dict) or not isinstance(args.get("type"), str):
        raise RuleError("An action needs a type.", "type")
    if len(json.dumps(args)) > MAX_ARGS_BYTES:
        raise RuleError("That action is too large.", "type")
    entry = lookup(args["type"], state.get("system", ctx.system.slug))
    schema.check(entry.fields or {}, args)
    payload = entry.decide(state, args, ctx) if entry.decide else dict(args)
    payload["type"] = entry.type
    return payload


def apply(state: dict, payload: dict, own: bool = False) -> str:
    """Apply one event payload to a state (in place); returns its label.

    The action gets its own copy of the payload: an apply may keep parts of it in the state (a
    tracker spec, a card), and the state's later changes must never reach back into the stored
    event, or replaying the log (import, undo) would no longer give the same table.  ``own``: the
    payload is already nobody else's (parsed from the log for this apply alone), no copy needed."""
    return lookup(payload["type"], state.get("system", "")).apply(state, payload if own else json.loads(json.dumps(payload)))


def attempt(state: dict, payload: dict) -> tuple[dict, str]:
    """Apply to a copy: the new state and label, or RuleError with the old state untouched."""
    new = json.loads(json.dumps(state))  # a deep copy; several times faster than copy.deepcopy
    label = apply(new, payload)
    return new, label


def timeline(events: list[dict]) -> tuple[list[int], list[int]]:
    """Which action events are in force (done) and which are undone, from undo/redo events."""
    done, undone = [], []
    for ev in events:
        if ev["type"] == "undo":
            undone.append(done.pop())
        elif ev["type"] == "redo":
            done.append(undone.pop())
        else:
            done.append(ev["seq"])
            if ev["type"] != "create-table":
                undone.clear()
    return done, undone


TAKE_BACK = "take-back"  # withdraws earlier moves in force (companion/take_back.py); like undo, not an action type


def in_effect(events: list[dict]) -> list[tuple[dict, dict]]:
    """The moves that make the state, in order, as (event, payload): the events in force (undo and
    redo followed), less those a take-back in effect withdrew, with a correction's move in the place
    of the move it corrects.  A take-back may itself be taken back (its moves count again), so the
    newest decides: walked from the top of the done stack down."""
    done = timeline(events)[0]
    by_seq = {ev["seq"]: ev for ev in events}
    killed: dict[int, dict] = {}  # a withdrawn move's seq -> the take-back in effect that withdrew it
    for seq in reversed(done):
        ev = by_seq[seq]
        if seq not in killed and ev["type"] == TAKE_BACK:
            for t in ev["payload"]["targets"]:
                killed.setdefault(t, ev)
    out = []
    for seq in done:
        ev = by_seq[seq]
        if seq in killed:
            instead = killed[seq]["payload"].get("instead")
            if instead is not None and killed[seq]["payload"]["targets"][0] == seq:
                out.append((ev, instead))  # the corrected move, where the mistaken one was
        elif ev["type"] != TAKE_BACK:
            out.append((ev, ev["payload"]))
    return out


def fold(events: list[dict]) -> dict:
    """The state a log describes: every move in effect applied in order (``in_effect``)."""
    state: dict = {}
    for _, payload in in_effect(events):
        apply(state, payload)
    return state


_loaded = False


def _load_all() -> None:
    """Import the modules that register action types: the core's first, then every game's."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    import importlib
    import pkgutil
    from companion import games
    from companion.actions import core  # noqa: F401  (core types register first)
    for mod in pkgutil.iter_modules(__path__):
        importlib.import_module(f"{__name__}.{mod.name}")
    games.discover()
