"""Generic trackers shared by every game: each kind is a small pure module.

A tracker is a JSON-ready dict with ``kind`` and ``label``.  Each kind module has
``create(spec, stats) -> dict`` and ``OPS``: name -> ``op(tracker, args, clock) -> str`` which
changes the tracker in place and returns what happened ("-3 (10 -> 7)"), or raises RuleError and
changes nothing.  ``clock`` is the table's turn position (round, tick) for timed trackers.
"""
from __future__ import annotations

from dataclasses import dataclass

from companion.errors import RuleError
from companion.said import _
from companion.schema import Int


@dataclass(frozen=True)
class Clock:
    """Where the table is in its turn sequence: rounds, and phases passed in all (ticks)."""
    round: int = 1
    tick: int = 0


_INTS: dict[tuple[int, int], Int] = {}  # need_int's readers by bounds (an Int holds nothing but its bounds)


def need_int(args: dict, key: str, lo: int, hi: int, default=None) -> int:
    """An integer argument within [lo, hi], or a RuleError naming it: read by the schema's Int
    (``schema.Int.parse``, the one reading of a typed whole number) with these bounds, for a key
    no action declares (a setting's or a stat's id, a tracker op's amount)."""
    reader = _INTS.get((lo, hi))
    if reader is None:
        reader = Int(lo, hi)
        if len(_INTS) < 256:  # (a game's own bounds come from its content: a few dozen at most)
            _INTS[lo, hi] = reader
    number = reader.parse(args.get(key, default), key)
    if number is None:
        reader.refuse_kind(None, key)
    return number


def need_text(args: dict, key: str, max_len: int = 60, default=None) -> str:
    """A non-empty, trimmed text argument of at most ``max_len`` characters."""
    value = args.get(key, default)
    if not isinstance(value, str) or not value.strip():
        raise RuleError(_("%(key)s is required.", key=key), key)
    value = " ".join(value.split())
    if len(value) > max_len:
        raise RuleError(_("%(key)s must be at most %(most)s characters.", key=key, most=max_len), key)
    return value


_MODULES: dict = {}  # kind -> its module, filled at the first call (the kinds import this module)


def kind_module(kind: str):
    modules = _MODULES
    if not modules:
        from companion.trackers import arcs, boxes, charge, conditions, cooldown, counter, gauge
        modules.update({"counter": counter, "boxes": boxes, "arcs": arcs, "charge": charge,
                        "cooldown": cooldown, "conditions": conditions, "gauge": gauge})
    if kind not in modules:
        raise RuleError(_("Unknown tracker kind %(kind)r; use one of %(kinds)s.", kind=kind, kinds=", ".join(modules)), "kind")
    return modules[kind]


def create(spec: dict, stats: dict | None = None) -> dict:
    """A fresh tracker from a content spec (``max_stat`` etc. read from the unit's stats)."""
    tracker = kind_module(spec["kind"]).create(spec, stats or {})
    tracker["kind"] = spec["kind"]
    tracker["label"] = spec.get("label", spec["id"])
    return tracker


def operate(tracker: dict, op: str, args: dict, clock: Clock) -> str:
    """Apply one operation to a tracker; returns its description."""
    ops = kind_module(tracker["kind"]).OPS
    if op not in ops:
        raise RuleError(_("A %(kind)s tracker has no operation %(op)r (it has %(ops)s).", kind=tracker["kind"], op=op,
                          ops=", ".join(ops)), "op")
    return ops[op](tracker, args, clock)


def reminders(tracker: dict, clock: Clock) -> list[str]:
    """What a tracker wants the players to notice at this point of the turn."""
    fn = getattr(kind_module(tracker["kind"]), "reminders", None)
    return fn(tracker, clock) if fn else []


def on_new_round(tracker: dict, clock: Clock) -> None:
    """Let a timed tracker drop what expired (conditions) when a round begins."""
    fn = getattr(kind_module(tracker["kind"]), "on_new_round", None)
    if fn:
        fn(tracker, clock)
