"""Checks on the chance a payload records, for an imported table (issue 15).

An action that rolls decides its dice before the event (its decider), so the event's payload holds
the dice and what was worked out from them.  A live table only ever stores dice within their sides
and counts, and totals that follow from them; an export can say anything.  Each chance action of
a game registers ``@its_apply.dice_check`` next to itself: ``check(state, payload)`` on the state
the event met, raising RuleError with a sentence when the dice or a derived total could not have
come from the app.  ``companion.import_check`` runs it before replaying the event.
"""
from __future__ import annotations

from companion.actions import REGISTRY
from companion.errors import RuleError
from companion.said import _


def dice(values, sides: int, what: str, count: int | None = None, most: int = 100) -> list[int]:
    """A list of dice, each a whole number from 1 to ``sides`` (``count`` of them, if given)."""
    if not isinstance(values, list) or len(values) > most:
        raise RuleError(_("its %(what)s are not a list of dice.", what=what), what)
    if count is not None and len(values) != count:
        raise RuleError(_("it records %(count)s %(what)s where the rules roll %(rules)s.", count=len(values), what=what,
                          rules=count), what)
    for value in values:
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= sides:
            raise RuleError(_("it records %(value)r for its %(what)s, which no D%(sides)s shows.", value=value, what=what,
                              sides=sides), what)
    return values


def groups(values, sides: int, what: str, most: int = 60) -> None:
    """Dice for several rollers: a list of lists of dice (or one flat list)."""
    if not isinstance(values, list) or len(values) > most:
        raise RuleError(_("its %(what)s are not lists of dice.", what=what), what)
    for group in values:
        dice(group if isinstance(group, list) else [group], sides, what)


DICE_KEYS = ("dice", "rolls", "hit_dice", "save_dice", "wind_dice", "rolled", "group_dice")


def every_die(payload, sides: int, keys=DICE_KEYS, depth: int = 0) -> None:
    """Every die the payload records under one of ``keys`` (at any depth: a list of dice, of lists,
    or a mapping of rollers to dice) shows 1 to ``sides``: for a game whose dice are all D``sides``."""
    if depth > 8:
        return
    if isinstance(payload, dict):
        for key, value in payload.items():
            if key in keys:
                _dice_in(value, sides, key)
            elif isinstance(value, (dict, list)):
                every_die(value, sides, keys, depth + 1)
    elif isinstance(payload, list):
        for value in payload:
            every_die(value, sides, keys, depth + 1)


def every_die_checked(types, sides: int) -> None:
    """Register one import check for each action type in ``types``: every die its payload records
    (``every_die``) shows 1 to ``sides``.  For a game whose dice are all D``sides`` and whose
    actions record no total an import could work out again from them; call it once the action
    types are registered (after importing their modules)."""
    def check(state: dict, payload: dict) -> None:
        """An imported event of one of ``types``: every die it records is a D``sides``."""
        every_die(payload, sides)
    for type_ in types:
        REGISTRY[type_].dice = check


def _dice_in(value, sides: int, what: str) -> None:
    if value is None:
        return
    if isinstance(value, dict):
        for sub in value.values():
            _dice_in(sub, sides, what)
    elif isinstance(value, list):
        for sub in value:
            if isinstance(sub, (list, dict)):
                _dice_in(sub, sides, what)
            else:
                dice([sub], sides, what)
    else:
        dice([value], sides, what)


def same(recorded, derived, what: str) -> None:
    """A total the payload records must be the one its dice give."""
    if recorded != derived:
        raise RuleError(_("its %(what)s is %(recorded)r, but its dice give %(derived)r.", what=what, recorded=recorded,
                          derived=derived), what)


def part(payload: dict, key: str, kind=dict):
    value = payload.get(key)
    if not isinstance(value, kind):
        raise RuleError(_("its %(key)s is not what this action stores.", key=key), key)
    return value
