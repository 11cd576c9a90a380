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
from collections.abc import Callable
from dataclasses import dataclass

from companion import schema
from companion.errors import RuleError
from companion.roster import JOIN
from companion.said import _


@dataclass
class Ctx:
    """Who acts and with what: the system's content, the RNG, the seat."""
    system: object
    rng: object
    seat: str = ""
    side: str | None = None
    host: bool = False  # the seat is the table's host (issue 37: only the host finishes the game)
    # the import's replay, deciding a stored event again to check what was stored, not who stored it
    trusted: bool = False


@dataclass
class Action:
    type: str
    apply: Callable[[dict, dict], str]
    decide: Callable | None = None
    systems: frozenset | None = None
    chance: bool = False  # a roll or a draw: an undo leaves it in the log as withdrawn
    doc: str = ""
    fields: dict | None = None  # the request's declared fields (companion.schema)
    dice: Callable | None = None  # checks an imported payload's dice and totals (import_check)
    phase: tuple | None = None  # the phases the action belongs to (refused in any other: ``in_phase``)
    doing: str = ""  # the move in the game's words, for that refusal ("A broadside")
    typed: tuple = ()  # its fields that parse text into a type (schema.typed_fields): read before it runs


REGISTRY: dict[str, Action] = {}
MAX_ARGS_BYTES = 20_000


class DuplicateAction(Exception):
    """Two modules register the same action type: found at start, never a silent overwrite."""


def _owner(fn) -> str:
    """Who registered an action: a game by its package name ("my_game"), else the core module."""
    module = getattr(fn, "__module__", "") or "?"
    parts = module.split(".")
    if parts[:2] == ["companion", "games"] and len(parts) > 2:
        return f"the game {parts[2]!r} ({module})"
    return f"the core ({module})"


def action(type_: str, *, systems=None, chance=False, fields=None, phase=None, doing: str = ""):
    """Register ``apply`` for an action type; ``@fn.decider`` adds its decide step.

    ``fields`` declares the request (``companion.schema``): checked before the action runs
    and published in /api/openapi.json.  ``@fn.dice_check`` adds how an import re-derives the
    payload's chance (the dice within their sides and counts, the totals from the dice).
    ``phase``: the phase (or phases) of the turn sequence the move belongs to; outside them it is
    refused before its decide step and its apply run, with one sentence naming ``doing`` (the move
    in the game's words), the phase it needs and the current one (``in_phase``).  A type registered
    twice (two games, or a game and the core) stops the start with ``DuplicateAction``."""
    phases = (phase,) if isinstance(phase, str) else tuple(phase) if phase else None

    def register(apply):
        old = REGISTRY.get(type_)
        if old is not None and (old.apply.__module__, old.apply.__qualname__) != (apply.__module__, apply.__qualname__):
            raise DuplicateAction(f"The action type {type_!r} is registered twice: by {_owner(old.apply)} and by "
                                  f"{_owner(apply)}; rename one of them.")
        run, typed = apply, schema.typed_fields(fields)
        if phases or typed:  # the payload as the action reads it: typed fields parsed, the phase checked
            def run(state, payload, _apply=apply):
                if typed:
                    schema.parse_args(typed, payload, text_only=True)
                if phases:
                    in_phase(state, phases, doing)
                return _apply(state, payload)
        entry = Action(type_, run, systems=frozenset(systems) if systems else None, chance=chance,
                       doc=(apply.__doc__ or "").strip().split("\n")[0], fields=fields, phase=phases,
                       doing=doing, typed=typed)
        entry.apply.__module__, entry.apply.__qualname__ = apply.__module__, apply.__qualname__
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


def phase_now(state: dict) -> str:
    """The name of the turn sequence's current phase (content ``phases``)."""
    return state["phases"][state["phase"]]


def in_phase(state: dict, phases, doing: str = "") -> None:
    """Refuse a move made outside its phases (the one phase guard: ``@action(..., phase=...)``)."""
    phases = (phases,) if isinstance(phases, str) else tuple(phases)
    now = phase_now(state)
    if now not in phases:
        when = phases[0] if len(phases) == 1 else _("%(phases)s or %(last)s", phases=", ".join(phases[:-1]),
                                                    last=phases[-1])
        if doing:  # the move in the game's words (a game marks it with N_ where it registers the action)
            raise RuleError(_("%(doing)s happens in the %(when)s; it is now the %(now)s.", doing=_(doing),
                              when=_phase(when), now=_phase(now)), "phase")
        raise RuleError(_("This move happens in the %(when)s; it is now the %(now)s.", when=_phase(when),
                          now=_phase(now)), "phase")


def _phase(name: str) -> str:
    # a name that already says it ("Power Phase") stays as it is
    return name if name.casefold().endswith("phase") else _("%(phase)s phase", phase=name)


def check_phase(state: dict, type_: str) -> None:
    """The phase guard an action type declared, for a preview of it (the attack helper's odds)."""
    _load_all()
    entry = REGISTRY[type_]
    if entry.phase:
        in_phase(state, entry.phase, entry.doing)


_GIVEN = object()


def declared(type_: str, key: str) -> schema.Field:
    """The field action type ``type_`` declared for ``key`` ("card.br": a field of a declared Obj)."""
    _load_all()
    first, *rest = key.split(".")
    field = REGISTRY[type_].fields[first]
    for part in rest:
        field = field.fields[part]
    return field


def read_as(type_: str, keys, form: dict) -> dict:
    """A form that runs no action (a preview: the odds before a shot) read by the fields action type
    ``type_`` declares for ``keys``, as the action gets them (3, True, [6, 5, 2]; an empty one left
    out): a bad value is refused in the action's own words."""
    return schema.parse_args(tuple((key, declared(type_, key)) for key in keys), dict(form))


def entered(args: dict, key: str, value=_GIVEN, *, type_: str | None = None, name: str | None = None):
    """What a player entered for ``key`` (or ``value``, read the same way), parsed by the field the
    action type declared for it (``schema.<Kind>.parse``): a game reads its input through the
    declaration, so what it accepts and refuses is written once (issues 24 and 29).  ``type_``: the
    action type, when ``args`` (a preview's, a nested card's) does not say it; ``name``: the control
    a refusal names, when ``value`` came from another one."""
    field = declared(type_ or args["type"], key)
    return field.parse(args.get(key) if value is _GIVEN else value, name or key)


def entered_dice(args: dict, key: str, value=None, *, type_: str | None = None, name: str | None = None,
                 count: int | None = None) -> list | None:
    """The dice entered for ``key`` (``schema.Dice.parse``), None when left empty (let the companion
    roll); ``count``: exactly that many dice (what the table needs now, e.g. an attack's Accuracy and
    Damage dice), refused in one sentence naming the control otherwise."""
    dice = entered(args, key, args.get(key) if value is None else value, type_=type_, name=name)
    if dice is not None and count is not None and len(dice) != count:
        sides = declared(type_ or args["type"], key).sides
        if count > 1:
            raise RuleError(_("Enter %(count)s d%(sides)s results from 1 to %(sides)s.", count=count, sides=sides),
                            name or key)
        raise RuleError(_("Enter %(count)s d%(sides)s result from 1 to %(sides)s.", count=count, sides=sides), name or key)
    return dice


def entered_flag(args: dict, key: str, *, type_: str | None = None, default: bool = False) -> bool:
    """Yes or no entered for ``key`` (``schema.Flag.parse``); ``default`` when left empty."""
    field = declared(type_ or args["type"], key)
    return field.parse(args.get(key), key, default)


def entered_number(args: dict, key: str, default=_GIVEN, *, type_: str | None = None, lo: int | None = None,
                   hi: int | None = None, name: str | None = None):
    """The number entered for ``key``, read by the Int (or Num) field the action type declared
    (``schema.Int.parse``: its bounds, or ``lo``/``hi`` the table narrows them to, and its
    sentences); ``default`` when left empty, refused in the field's words when no default is given."""
    field = declared(type_ or args["type"], key)
    if isinstance(field, schema.Either):  # a number or text (a correction's value): its number
        field = next(option for option in field.options if isinstance(option, schema.Int))
    number = field.parse(args.get(key), name or key, lo=lo, hi=hi)
    if number is None:
        if default is _GIVEN:
            field.refuse_missing(name or key)
        return default
    return number


entered_int = entered_number  # the name a whole-number field reads best with


def needed(p: dict, key: str, *, type_: str | None = None):
    """``p[key]``, already read by its field, or the field's own refusal when it was left empty
    ("Enter the Damage."): the one way an action asks for a value it cannot do without."""
    if p.get(key) is not None:
        return p[key]
    field = declared(type_ or p["type"], key)
    if hasattr(field, "refuse_missing"):
        field.refuse_missing(key)
    raise RuleError(_("Enter %(key)s.", key=key), key)


def available(system_slug: str) -> dict[str, Action]:
    _load_all()
    return {t: a for t, a in REGISTRY.items() if a.systems is None or system_slug in a.systems}


def lookup(type_: str, system_slug: str) -> Action:
    _load_all()
    entry = REGISTRY.get(type_)
    if entry is None or (entry.systems is not None and system_slug not in entry.systems):
        raise RuleError(_("Unknown action %(type)r for this game.", type=type_), "type")
    return entry


def prepare(state: dict, args: dict, ctx: Ctx) -> dict:
    """Turn a seat's request into an event payload (chance decided here, once)."""
    if not isinstance(args, dict) or not isinstance(args.get("type"), str):
        raise RuleError(_("An action needs a type."), "type")
    if len(json.dumps(args)) > MAX_ARGS_BYTES:
        raise RuleError(_("That action is too large."), "type")
    entry = lookup(args["type"], state.get("system", ctx.system.slug))
    schema.check(entry.fields or {}, args)
    if entry.phase:
        in_phase(state, entry.phase, entry.doing)
    args = schema.parse_args(entry.typed, dict(args))  # stored as read: 3, not "3"
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


def timeline(events: list[dict], each: Callable | None = None) -> tuple[list[int], list[int]]:
    """Which action events are in force (done) and which are undone, from undo/redo events: the one
    walk of the undo stack.  ``each(ev, done, undone)`` is called before each event takes effect
    (an import refuses an undo that names another move; a migration links the events)."""
    done, undone = [], []
    for ev in events:
        if each is not None:
            each(ev, done, undone)
        if ev["type"] == JOIN:
            continue  # a seat sat down (companion/roster.py): never a move, never on the undo stack
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
    for _ev, payload in in_effect(events):
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
