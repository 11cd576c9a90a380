"""The one gate every request passes before any action, rule or store code sees its input.

What it guarantees (every refusal is a 400 with one sentence naming the field; nothing is stored):
- JSON bodies are strict JSON: no ``NaN``/``Infinity``, nested at most ``MAX_DEPTH`` deep, every
  integer within what SQLite and a JavaScript number hold exactly (``MAX_INT``), every float finite,
  every string valid Unicode (no lone surrogates) and at most ``MAX_TEXT`` characters.
- Form fields are at most ``MAX_FORM_TEXT`` characters each.
- Path parts (table codes, secrets, ids) are printable ASCII and ids fit SQLite: anything else is a
  404, the same answer as a code that does not exist.
- Action code that meets a value of a type it does not expect (an object where it expects text, ...)
  is refused at the boundary (``shielded``) with a sentence naming the field, never a 500.

It is generic on purpose: it knows the shape of any JSON value, not what each action type's fields
mean (that is each action's own check, in its decider or apply).  Pure of Flask except the hook.
"""
from __future__ import annotations

import json
import logging
import math
import re
from contextlib import contextmanager

from companion.errors import CrashShielded, InputError, RuleError
from companion.said import N_, _, figure

MAX_DEPTH = 32
MAX_INT = 2 ** 53 - 1  # exact in SQLite INTEGER (64-bit) and in a JavaScript number
MAX_TEXT = 20_000  # characters in one JSON string (an action is at most 20 KB in all)
MAX_KEY = 100
MAX_FORM_TEXT = 20_000  # one form field (a deck typed one card per line fits)
MAX_SQLITE_INT = 2 ** 63 - 1

log = logging.getLogger(__name__)


def _refuse_constant(word: str):
    raise InputError(_("%(word)s is not a number JSON allows; send a finite number.", word=word), "body")


def parse_json(raw: bytes | str, field: str = "body"):
    """Strict JSON, checked all through (see ``check_value``); InputError naming the field if not."""
    try:
        data = json.loads(raw, parse_constant=_refuse_constant)
    except InputError:
        raise
    except RecursionError:
        raise InputError(_("The JSON is nested too deeply (at most %(most)s levels).", most=MAX_DEPTH), field) from None
    except (ValueError, UnicodeDecodeError):
        raise InputError(_("The body is not valid JSON (Content-Type: application/json)."), field) from None
    check_value(data, field)
    return data


def _name(path: str, key) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    return key if path in ("", "body") else f"{path}.{key}"


def check_value(value, field: str = "body") -> None:
    """Every part of a JSON value within the limits above; InputError naming the first bad part.

    Iterative, so a value nested deeper than the interpreter's recursion limit cannot crash it."""
    stack = [(value, field, 0)]
    while stack:
        item, path, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise InputError(_("%(field)s is nested too deeply (at most %(most)s levels).", field=path, most=MAX_DEPTH),
                             _top(path))
        if isinstance(item, bool) or item is None:
            continue
        if isinstance(item, int):
            if not -MAX_INT <= item <= MAX_INT:
                raise InputError(_("%(field)s is too large a number (at most %(most)s either way).", field=path,
                                   most=figure(MAX_INT)), _top(path))
        elif isinstance(item, float):
            if not math.isfinite(item) or abs(item) > MAX_INT:
                raise InputError(_("%(field)s must be a finite number of at most %(most)s either way.", field=path,
                                   most=figure(MAX_INT)), _top(path))
        elif isinstance(item, str):
            check_text(item, path)
        elif isinstance(item, dict):
            for key, sub in item.items():
                if not isinstance(key, str):
                    raise InputError(_("%(field)s has a key that is not text.", field=path), _top(path))
                check_text(key, path, MAX_KEY)
                stack.append((sub, _name(path, key), depth + 1))
        elif isinstance(item, list):
            stack.extend((sub, _name(path, i), depth + 1) for i, sub in enumerate(item))
        else:
            raise InputError(_("%(field)s is not a JSON value.", field=path), _top(path))


def check_text(text: str, field: str, limit: int = MAX_TEXT) -> str:
    """Valid Unicode (no lone surrogates) of at most ``limit`` characters."""
    if len(text) > limit:
        raise InputError(_("%(field)s is too long (at most %(most)s characters).", field=field, most=figure(limit)),
                         _top(field))
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise InputError(_("%(field)s holds a broken character (a lone UTF-16 surrogate).", field=field),
                         _top(field)) from None
    return text


def _top(path: str) -> str:
    """The control a nested path belongs to ("spec.count" -> "spec", "dice[2]" -> "dice")."""
    return path.split(".")[0].split("[")[0] or "body"


def check_form(form) -> None:
    """Form fields: bounded text (werkzeug has already replaced undecodable bytes)."""
    for key, value in form.items(multi=True):
        check_text(key, "a field name", MAX_KEY)
        check_text(value, key, MAX_FORM_TEXT)


def path_ok(view_args: dict | None) -> bool:
    """Table codes, secrets and ids are printable ASCII; ids fit SQLite's INTEGER."""
    for value in (view_args or {}).values():
        if isinstance(value, str) and not (value.isascii() and value.isprintable()):
            return False
        if isinstance(value, int) and not 0 <= value <= MAX_SQLITE_INT:
            return False
    return True


# --- the boundary around action code -------------------------------------------------------------

SHIELDED = (TypeError, KeyError, AttributeError, IndexError, ValueError, ZeroDivisionError, OverflowError,
            RecursionError)


def _kind(value) -> str:
    return {dict: N_("an object"), list: N_("a list"), bool: N_("true/false"), float: N_("a fraction"),
            int: N_("a number"), str: N_("text"), type(None): N_("empty")}.get(type(value), type(value).__name__)


def culprit(args) -> tuple[str, object]:
    """The field most likely to blame when action code fails on a value's type: the first
    object or list among the fields (actions mostly take text and numbers), else the first field."""
    if not isinstance(args, dict):
        return "body", args
    fields = [(k, v) for k, v in args.items() if k != "type"]
    for key, value in fields:
        if isinstance(value, (dict, list)):
            return key, value
    for key, value in fields:
        if isinstance(value, float):
            return key, value
    return (fields[0] if fields else ("type", args.get("type")))


@contextmanager
def shielded(args):
    """Turn a crash inside action code on odd input into a 400 naming the field (the write
    transaction rolls back, so nothing is stored)."""
    try:
        yield
    except RuleError:
        raise
    except SHIELDED as exc:
        field, value = culprit(args)
        log.warning("refused input the action code could not use: %s: %s (field %s)",
                    type(exc).__name__, exc, field)
        raise CrashShielded(_("%(field)s cannot be %(kind)s here; check what this action takes (see /api/openapi.json).",
                              field=field, kind=_(_kind(value))), field) from None


# An element id, the only thing a form's ``_control`` may be: it goes into the HX-Retarget header.
CONTROL_RE = re.compile(r"^[A-Za-z][A-Za-z0-9_-]{0,60}$")
