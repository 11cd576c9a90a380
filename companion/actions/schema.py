"""Each action type's declared fields: one small declaration checks a request before its action
runs and describes the same request in /api/openapi.json, so the two cannot drift (issue 15).

An action declares its fields next to itself::

    @action("adjust", fields={"unit": Ref("unit"), "tracker": Ref("tracker"), "by": Int(-999, 999)})

``check(fields, args)`` refuses (InputError, answered 400 with one sentence naming the field; the
action never runs, so nothing is stored) a field of the wrong kind or outside its bounds.  A field
left out passes here: whether it is needed can depend on the table, and the action asks for it in
the game's words ("Name the card to ready.", "Enter the Damage.").  Fields the declaration does not name pass untouched (a form posts
all of its inputs, and each action reads only its own).

HTML forms send text: a whole number typed in a form arrives as an int (``play.form_args``), and the
number fields also take digits as text, yes/no fields the words a checkbox sends, dice fields the
"5 6 2" a player types.  The JSON document says what a JSON client sends; the description of each
such field names the text it also takes.

Written here rather than with pydantic or jsonschema (both are installed): a declaration is a
dozen fields of five kinds, the refusal must be one sentence naming the control, and the form
spellings above are not JSON Schema's; thirty lines per kind are cheaper than adapting a library's
error messages and coercion rules.  Pure: no Flask.
"""
from __future__ import annotations

import re

from companion.validate import MAX_INT, InputError

_INT_TEXT = re.compile(r"^\s*-?[0-9]{1,18}\s*$")


class Field:
    """One field of a request: what it holds (``check``) and its JSON Schema (``schema``)."""
    kind = "a value"

    def __init__(self, doc: str = "", *, required: bool = False):
        self.doc = doc
        self.required = required  # left out: refused here (most actions ask in their own words instead)

    def check(self, value, name: str) -> None:  # pragma: no cover - every kind overrides it
        raise NotImplementedError

    def schema(self) -> dict:
        raise NotImplementedError

    def described(self, schema: dict) -> dict:
        return {**schema, "description": self.doc} if self.doc else schema

    def bad(self) -> object:
        """A value this field refuses (the contract test sends it)."""
        return {"not": "this"}


def _refuse(message: str, name: str):
    raise InputError(message, name.split(".")[0].split("[")[0])


def _whole(value) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and _INT_TEXT.match(value):
        return int(value)
    return None


class Int(Field):
    """A whole number within ``lo``..``hi`` (digits as text too, as a form sends them)."""

    def __init__(self, lo: int, hi: int, doc: str = "", *, plain: bool = False, **kw):
        super().__init__(doc, **kw)
        self.lo, self.hi, self.plain = lo, hi, plain

    def check(self, value, name):
        # the sentences are need_int's, so a form shows the same words; ``plain``: a game whose own
        # check says "a whole number from lo to hi" for any bad value (as a game's own whole-number check does)
        number = _whole(value)
        if number is None or (self.plain and not self.lo <= number <= self.hi):
            _refuse(f"{name.replace('_', ' ') if self.plain else name} must be a whole number from "
                    f"{self.lo} to {self.hi}.", name)
        if not self.lo <= number <= self.hi:
            _refuse(f"{name} must be from {self.lo} to {self.hi}; got {number}.", name)

    def schema(self):
        return self.described({"type": "integer", "minimum": self.lo, "maximum": self.hi})

    def bad(self):
        return self.hi + 1


class Num(Int):
    """A number within ``lo``..``hi``, fractions allowed (inches: "7.5" or 7.5)."""

    def check(self, value, name):
        number = value
        if isinstance(value, str) and len(value) <= 30:
            try:
                number = float(value.strip().rstrip('"'))
            except ValueError:
                number = None
        if isinstance(number, bool) or not isinstance(number, (int, float)) or number != number \
                or not self.lo <= number <= self.hi:
            _refuse(f"{name} must be a number from {self.lo} to {self.hi}.", name)

    def schema(self):
        return self.described({"type": "number", "minimum": self.lo, "maximum": self.hi})


class Text(Field):
    """Text of at most ``max_len`` characters (a number a form turned into an int is its digits);
    with ``choices``, one of them."""

    def __init__(self, max_len: int = 60, doc: str = "", *, choices=None, **kw):
        super().__init__(doc, **kw)
        self.max_len, self.choices = max_len, list(choices) if choices else None

    def check(self, value, name):
        if isinstance(value, (int, float)) and not isinstance(value, bool) and not self.choices:
            value = str(value)
        if not isinstance(value, str):
            _refuse(f"{name} must be text" + (f": one of {', '.join(map(str, self.choices))}."
                                              if self.choices else f" of at most {self.max_len} characters."), name)
        if self.choices and value not in self.choices:
            _refuse(f"{name} must be one of {', '.join(map(str, self.choices))}.", name)
        if len(value) > self.max_len:
            _refuse(f"{name} must be at most {self.max_len} characters.", name)

    def schema(self):
        if self.choices:
            return self.described({"type": "string", "enum": self.choices})
        return self.described({"type": "string", "maxLength": self.max_len})

    def bad(self):
        return ["a list"]


def Ref(what: str = "unit", doc: str = "", **kw) -> Text:
    """The id of something at the table (a unit "u3", a tracker "hp", a deck, a side)."""
    return Text(60, doc or f"the {what}'s id or name", **kw)


class Flag(Field):
    """Yes or no: true/false, 1/0, or the words a checkbox or select sends ("on", "yes", "no")."""

    def check(self, value, name):
        if isinstance(value, (bool, int)) or (isinstance(value, str) and len(value) <= 10) or value is None:
            return
        _refuse(f"{name} must be yes or no (true or false).", name)

    def schema(self):
        return self.described({"type": "boolean"})


class Dice(Field):
    """Dice rolled on the table: a list of whole numbers from 1 to ``sides`` (at most ``most``), or
    the same typed as text ("5 6 2", "5,6"); with ``groups``, one group per roller split by "/"
    ("5 6 / 2 1") or, from JSON, a list of lists.

    ``parse`` is the one reading of entered dice: the schema check runs it, and each game's decide
    step calls it on the field the action declared (``companion.actions.entered_dice``), so the
    limits an action declares are the limits its game obeys (issue 24: they once disagreed)."""

    def __init__(self, sides: int = 6, most: int = 60, doc: str = "", *, groups: bool = False, **kw):
        super().__init__(doc or f"real dice (D{sides}), or empty to let the companion roll", **kw)
        self.sides, self.most, self.groups = sides, most, groups

    def check(self, value, name):
        if value is None or value == "":
            return
        self.parse(value, name)

    def parse(self, value, name: str = "dice") -> list | None:
        """The dice in ``value`` as whole numbers: a list (a list of lists for ``groups`` entered in
        groups), or None when left empty (let the companion roll).  Refused, naming ``name``: more
        than ``most`` dice, or a die that is not a whole number from 1 to ``sides``."""
        if value is None or value == "" or value == []:
            return None
        if isinstance(value, str):
            if len(value) > self.most * 4 + 20:
                self._too_many(name)
            parts = value.split("/") if self.groups and "/" in value else None
            if parts is not None:
                return self._counted([self._numbers(p.replace(",", " ").split(), name) for p in parts], name)
            return self._counted(self._numbers(value.replace(",", " ").split(), name), name)
        if isinstance(value, int) and not isinstance(value, bool):
            value = [value]
        if not isinstance(value, list) or len(value) > self.most:
            self._too_many(name, len(value) if isinstance(value, list) else None)
        if self.groups and all(isinstance(group, list) for group in value):
            return self._counted([self._numbers(group, name) for group in value], name)
        return self._numbers(value, name)

    def _numbers(self, values: list, name: str) -> list[int]:
        out = []
        for die in values:
            number = _whole(die)
            if number is None or not 1 <= number <= self.sides:
                _refuse(f"Each die must be a whole number from 1 to {self.sides}; "
                        f"got {number if number is not None else die!r}.", name)
            out.append(number)
        return out

    def _counted(self, values: list, name: str) -> list:
        count = sum(len(v) if isinstance(v, list) else 1 for v in values)
        if count > self.most:
            self._too_many(name, count)
        return values

    def _too_many(self, name: str, count: int | None = None):
        dice = "1 die" if self.most == 1 else f"{self.most} dice"
        _refuse(f"{name} takes at most {dice}, each a whole number from 1 to {self.sides}"
                + (f"; got {count}." if count is not None else "."), name)

    def schema(self):
        die = {"type": "integer", "minimum": 1, "maximum": self.sides}
        items = {"anyOf": [die, {"type": "array", "items": die, "maxItems": self.most}]} if self.groups else die
        return self.described({"type": "array", "items": items, "maxItems": self.most})

    def bad(self):
        return [self.sides + 1]


class Scalar(Field):
    """One plain value (text of at most ``max_len`` characters, a number, yes/no), never a list or
    an object: for a field whose meaning the action reads from the table (a card's name or number)."""

    def __init__(self, max_len: int = 200, doc: str = "", **kw):
        super().__init__(doc, **kw)
        self.max_len = max_len

    def check(self, value, name):
        if isinstance(value, str):
            if len(value) > self.max_len:
                _refuse(f"{name} must be at most {self.max_len} characters.", name)
        elif isinstance(value, bool) or value is None:
            return
        elif isinstance(value, (int, float)):
            if not -MAX_INT <= value <= MAX_INT:
                _refuse(f"{name} is too large a number.", name)
        else:
            _refuse(f"{name} must be one value (text or a number), not a list or an object.", name)

    def schema(self):
        return self.described({"anyOf": [{"type": "string", "maxLength": self.max_len}, {"type": "integer"},
                                         {"type": "boolean"}]})


class List(Field):
    """A list of at most ``most`` items, each as ``item`` says; ``text_too``: or the same typed
    as text (a form's "u1, u2"), which the action splits."""

    def __init__(self, item: Field, most: int = 50, doc: str = "", *, text_too: int = 0, **kw):
        super().__init__(doc, **kw)
        self.item, self.most, self.text_too = item, most, text_too

    def check(self, value, name):
        if isinstance(value, str) and self.text_too:
            if len(value) > self.text_too:
                _refuse(f"{name} must be at most {self.text_too} characters.", name)
            return
        if not isinstance(value, list) or len(value) > self.most:
            _refuse(f"{name} must be a list of at most {self.most} items.", name)
        for i, item in enumerate(value):
            self.item.check(item, f"{name}[{i}]")

    def schema(self):
        return self.described({"type": "array", "items": self.item.schema(), "maxItems": self.most})

    def bad(self):
        return {"not": "a list"}


class Obj(Field):
    """An object; with ``fields``, those of its fields are checked as declared (others pass: the
    action checks them against the table's content, e.g. a unit's stats against its template)."""

    def __init__(self, fields: dict | None = None, doc: str = "", *, most: int = 100, **kw):
        super().__init__(doc, **kw)
        self.fields, self.most = fields or {}, most

    def check(self, value, name):
        if not isinstance(value, dict) or len(value) > self.most:
            _refuse(f"{name} must be an object of at most {self.most} fields.", name)
        for key, field in self.fields.items():
            if key in value and value[key] is not None:
                field.check(value[key], f"{name}.{key}")
            elif field.required:
                _refuse(f"{name}.{key} is required.", name)

    def schema(self):
        out = {"type": "object"}
        if self.fields:
            out["properties"] = {k: f.schema() for k, f in self.fields.items()}
            required = [k for k, f in self.fields.items() if f.required]
            if required:
                out["required"] = required
        return self.described(out)

    def bad(self):
        return "not an object"


class Either(Field):
    """One of several shapes (a form's checkboxes arrive as an object, the API sends a list, a
    typed field sends text): the first that takes the value."""

    def __init__(self, *options: Field, doc: str = "", **kw):
        super().__init__(doc, **kw)
        self.options = options

    def check(self, value, name):
        first = None
        for option in self.options:
            try:
                option.check(value, name)
                return
            except InputError as exc:
                first = first or exc
        raise first

    def schema(self):
        return self.described({"anyOf": [o.schema() for o in self.options]})

    def bad(self):
        return True if not any(isinstance(o, (Flag, Scalar)) for o in self.options) else [[{"x": 1}]]


# --- a whole request -------------------------------------------------------------------------------

def check(fields: dict, args: dict) -> None:
    """Refuse the first declared field of ``args`` that is not what the declaration says."""
    for key, field in fields.items():
        value = args.get(key)
        if value is None or (value == "" and not isinstance(field, Text)):
            if field.required:
                _refuse(f"{key} is required.", key)
            continue
        field.check(value, key)


def request_schema(type_: str, fields: dict, doc: str = "") -> dict:
    """The JSON Schema of one action type's request (its fields, its type, the seq it saw)."""
    properties = {"type": {"type": "string", "enum": [type_]},
                  "seq": {"type": "integer", "minimum": 0, "maximum": MAX_INT,
                          "description": "the seq the action was made against; 409 if stale"}}
    properties.update({k: f.schema() for k, f in fields.items()})
    out = {"type": "object", "title": type_, "required": ["type"] + [k for k, f in fields.items() if f.required],
           "properties": properties}
    if doc:
        out["description"] = doc
    return out
