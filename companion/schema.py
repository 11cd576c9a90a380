"""Each action type's declared fields: one small declaration checks a request before its action
runs and describes the same request in /api/openapi.json, so the two cannot drift (issue 15).

An action declares its fields next to itself::

    @action("adjust", fields={"unit": Ref("unit"), "tracker": Ref("tracker"), "by": Int(-999, 999)})

``check(fields, args)`` refuses (InputError, answered 400 with one sentence naming the field; the
action never runs, so nothing is stored) a field of the wrong kind or outside its bounds.  A field
left out passes here: whether it is needed can depend on the table, and the action asks for it in
the game's words ("Name the card to ready.", "Enter the Damage.").  Fields the declaration does not
name pass untouched (a form posts all of its inputs, and each action reads only its own).

HTML forms send text: a whole number typed in a form arrives as an int (``play.form_args``), and the
number fields also take digits as text, yes/no fields the words a checkbox sends, dice fields the
"5 6 2" a player types.  ``Int``, ``Num``, ``Flag`` and ``Dice`` also ``parse``: the typed value
the check accepted, as the action uses it (a game reads it with ``companion.actions.entered_*``,
so the declaration is the one reader of its input; issue 29).  The JSON document says what a JSON
client sends; the description of each such field names the text it also takes.

Written here rather than with pydantic or jsonschema (both are installed): a declaration is a
dozen fields of five kinds, the refusal must be one sentence naming the control, and the form
spellings above are not JSON Schema's; thirty lines per kind are cheaper than adapting a library's
error messages and coercion rules.  Pure: no Flask.
"""
from __future__ import annotations

import re

from companion.errors import InputError, RuleError
from companion.said import _
from companion.validate import MAX_INT

_INT_TEXT = re.compile(r"^\s*-?[0-9]{1,18}\s*$")


class Field:
    """One field of a request: what it holds (``check``) and its JSON Schema (``schema``)."""
    kind = "a value"

    def __init__(self, doc: str = "", *, required: bool = False):
        self.doc = doc
        self.required = required  # left out: refused here (most actions ask in their own words instead)

    def check(self, value, name: str) -> None:  # pragma: no cover - every kind overrides it
        raise NotImplementedError

    def parse(self, value, name: str):
        """The value as the action uses it (checked; kinds that read text give it its type)."""
        self.check(value, name)
        return value

    def schema(self) -> dict:
        raise NotImplementedError

    def described(self, schema: dict) -> dict:
        return {**schema, "description": self.doc} if self.doc else schema

    def bad(self) -> object:
        """A value this field refuses (the contract test sends it)."""
        return {"not": "this"}


def _refuse(message: str, name: str):
    raise InputError(message, name.split(".")[0].split("[")[0])


def whole(value) -> int | None:
    """The whole number in ``value`` (an int, or digits as text: " -12 "), else None: the one
    reading of typed digits (``Int.parse`` and the few readers of a form no action declares)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and _INT_TEXT.match(value):
        return int(value)
    return None


_whole = whole


def whole_argument(value, name: str, lo: int | None = None, hi: int | None = None, *, what: str = "") -> int:
    """A pure rules procedure's whole-number argument: an int (never text: an action has read what
    the player typed through its declared field already) within ``lo``..``hi``, either end open;
    else a RuleError naming ``name``, in ``what``'s words ("Hull must be from 1 to 20; got 0.").
    The one such guard of every game's rules (issue 29: three games each wrote their own)."""
    said = _(what) if what else name
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleError(_("%(what)s must be a whole number; got %(value)s.", what=said, value=repr(value)), name)
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        if lo is not None and hi is not None:
            raise RuleError(_("%(what)s must be from %(lo)s to %(hi)s; got %(value)s.", what=said, lo=lo, hi=hi,
                              value=value), name)
        if lo is not None:
            raise RuleError(_("%(what)s must be at least %(lo)s; got %(value)s.", what=said, lo=lo, value=value), name)
        raise RuleError(_("%(what)s must be at most %(hi)s; got %(value)s.", what=said, hi=hi, value=value), name)
    return value


class Int(Field):
    """A whole number within ``lo``..``hi`` (digits as text too, as a form sends them).

    The refusal says, by default, need_int's words ("hits must be from 0 to 20; got 21.");
    ``plain``: "a whole number from lo to hi" for any bad value; ``what``: the
    number in the game's words, for its sentences ("The Damage must be from 1 to 99; got 0.",
    "Enter the Damage." when an action asks for it)."""

    def __init__(self, lo: int, hi: int, doc: str = "", *, plain: bool = False, what: str = "", **kw):
        super().__init__(doc, **kw)
        self.lo, self.hi, self.plain, self.what = lo, hi, plain, what

    def parse(self, value, name: str, *, lo: int | None = None, hi: int | None = None) -> int | None:
        """The whole number in ``value`` (digits as text too), None when left empty; refused,
        naming ``name``, outside ``lo``..``hi`` (the declared bounds, or narrower ones the table
        sets: a ship's three weapon groups).  The one reading of a typed whole number: the check
        runs it and a game reads its numbers through it (``companion.actions.entered_int``)."""
        if value is None or value == "":
            if self.required:  # a number the reader cannot do without (a card's Size): asked for
                self.refuse_missing(name)
            return None
        lo, hi = self.lo if lo is None else lo, self.hi if hi is None else hi
        number = _whole(value)
        if number is None:
            self.refuse_kind(value, name, lo, hi)
        if not lo <= number <= hi:
            if self.plain:
                self.refuse_kind(value, name, lo, hi)
            _refuse(_("%(what)s must be from %(lo)s to %(hi)s; got %(value)s.", what=self._said(name), lo=lo, hi=hi,
                      value=number), name)
        return number

    def _said(self, name: str) -> str:
        what = _(self.what) if self.what else ""  # (a game's words: translated where the game marked them)
        return what[0].upper() + what[1:] if what else name

    def refuse_kind(self, value, name: str, lo: int | None = None, hi: int | None = None):
        """Refuse a value that is not a whole number (or, ``plain``, out of bounds) in this field's words."""
        lo, hi = self.lo if lo is None else lo, self.hi if hi is None else hi
        if self.what:
            shown = repr(value) if isinstance(value, (str, int, float, bool)) and len(repr(value)) <= 24 \
                else _("something else")
            _refuse(_("%(what)s must be a whole number; got %(value)s.", what=self._said(name), value=shown), name)
        _refuse(_("%(field)s must be a whole number from %(lo)s to %(hi)s.",
                  field=name.replace("_", " ") if self.plain else name, lo=lo, hi=hi), name)

    def refuse_missing(self, name: str):
        """Refuse a number the action needs and was not given ("Enter the Damage.")."""
        if self.what:
            _refuse(_("Enter %(what)s.", what=_(self.what)), name)
        self.refuse_kind(None, name)

    def check(self, value, name):
        self.parse(value, name)

    def schema(self):
        return self.described({"type": "integer", "minimum": self.lo, "maximum": self.hi})

    def bad(self):
        return self.hi + 1


class Num(Int):
    """A number within ``lo``..``hi``, fractions allowed (inches: "7.5" or 7.5); with ``what`` and
    ``unit``, refused in those words ("The range must be a distance in inches, e.g. 7 or 7.5.")."""

    def __init__(self, lo, hi, doc: str = "", *, unit: str = "", **kw):
        super().__init__(lo, hi, doc, **kw)
        self.unit = unit

    def parse(self, value, name: str, **_bounds):
        """The number in ``value`` (an int when whole), None when left empty."""
        if value is None or value == "":
            return None
        number = value
        if isinstance(value, str) and len(value) <= 30:
            try:
                number = float(value.strip().rstrip('"'))
            except ValueError:
                number = None
        if isinstance(number, bool) or not isinstance(number, (int, float)) or number != number:
            self.refuse_kind(value, name)
        if not self.lo <= number <= self.hi:
            if self.what and self.unit:
                _refuse(_("%(what)s must be from %(lo)s to %(hi)s %(unit)s.", what=self._said(name), lo=self.lo,
                          hi=self.hi, unit=_(self.unit)), name)
            if self.what:
                _refuse(_("%(what)s must be from %(lo)s to %(hi)s.", what=self._said(name), lo=self.lo, hi=self.hi), name)
            self.refuse_kind(value, name)
        return int(number) if float(number).is_integer() else number

    def refuse_kind(self, value, name: str, lo=None, hi=None):
        if self.what and self.unit:
            _refuse(_("%(what)s must be a distance in %(unit)s, e.g. 7 or 7.5.", what=self._said(name),
                      unit=_(self.unit)), name)
        if self.what:
            _refuse(_("%(what)s must be a number, e.g. 7 or 7.5.", what=self._said(name)), name)
        _refuse(_("%(field)s must be a number from %(lo)s to %(hi)s.", field=name, lo=self.lo, hi=self.hi), name)

    def check(self, value, name):
        self.parse(value, name)

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
            if self.choices:
                _refuse(_("%(field)s must be text: one of %(choices)s.", field=name,
                          choices=", ".join(map(str, self.choices))), name)
            _refuse(_("%(field)s must be text of at most %(most)s characters.", field=name, most=self.max_len), name)
        if self.choices and value not in self.choices:
            _refuse(_("%(field)s must be one of %(choices)s.", field=name, choices=", ".join(map(str, self.choices))), name)
        if len(value) > self.max_len:
            _refuse(_("%(field)s must be at most %(most)s characters.", field=name, most=self.max_len), name)

    def schema(self):
        if self.choices:
            return self.described({"type": "string", "enum": self.choices})
        return self.described({"type": "string", "maxLength": self.max_len})

    def bad(self):
        return ["a list"]


def Ref(what: str = "unit", doc: str = "", **kw) -> Text:
    """The id of something at the table (a unit "u3", a tracker "hp", a deck, a side)."""
    return Text(60, doc or f"the {what}'s id or name", **kw)


FLAG_WORDS = {True: ("yes", "true", "on", "1"), False: ("no", "false", "off", "0")}


class Flag(Field):
    """Yes or no: JSON true/false or 1/0, or one of the words in ``FLAG_WORDS`` in any case (a
    checkbox sends "1" or "on", a select "yes"/"no"); left empty (an unticked checkbox) is no.

    ``parse`` is the one reading of a yes/no input: the check runs it and each game reads its flags
    through the field it declared (``companion.actions.entered_flag``), so "off" means no in every
    game (issue 29: four helpers once disagreed).  Anything else is refused, never guessed."""

    def check(self, value, name):
        self.parse(value, name)

    def parse(self, value, name: str = "flag", default: bool = False) -> bool:
        if value is None or value == "":
            return default
        if isinstance(value, bool):
            return value
        if isinstance(value, int) and value in (0, 1):
            return bool(value)
        if isinstance(value, str):
            word = value.strip().casefold()
            for meaning, words in FLAG_WORDS.items():
                if word in words:
                    return meaning
        shown = repr(value) if isinstance(value, (str, int, float)) and len(repr(value)) <= 24 else _("something else")
        _refuse(_("%(field)s must be yes or no (yes/no, true/false, on/off or 1/0); got %(value)s.", field=name,
                  value=shown), name)

    def schema(self):
        return self.described({"anyOf": [{"type": "boolean"}, {"type": "integer", "enum": [0, 1]},
                                          {"type": "string", "enum": [w for ws in FLAG_WORDS.values() for w in ws]}]})

    def bad(self):
        return "maybe"


YES_NO = Flag()  # the same reading for a yes/no that is not an action's own field (a library form's tick)


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
                _refuse(_("Each die must be a whole number from 1 to %(sides)s; got %(value)s.", sides=self.sides,
                          value=repr(number if number is not None else die)), name)
            out.append(number)
        return out

    def _counted(self, values: list, name: str) -> list:
        count = sum(len(v) if isinstance(v, list) else 1 for v in values)
        if count > self.most:
            self._too_many(name, count)
        return values

    def _too_many(self, name: str, count: int | None = None):
        if self.most == 1 and count is not None:
            _refuse(_("%(field)s takes at most 1 die, each a whole number from 1 to %(sides)s; got %(count)s.",
                      field=name, sides=self.sides, count=count), name)
        if self.most == 1:
            _refuse(_("%(field)s takes at most 1 die, each a whole number from 1 to %(sides)s.", field=name,
                      sides=self.sides), name)
        if count is not None:
            _refuse(_("%(field)s takes at most %(most)s dice, each a whole number from 1 to %(sides)s; got %(count)s.",
                      field=name, most=self.most, sides=self.sides, count=count), name)
        _refuse(_("%(field)s takes at most %(most)s dice, each a whole number from 1 to %(sides)s.", field=name,
                  most=self.most, sides=self.sides), name)

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
                _refuse(_("%(field)s must be at most %(most)s characters.", field=name, most=self.max_len), name)
        elif isinstance(value, bool) or value is None:
            return
        elif isinstance(value, (int, float)):
            if not -MAX_INT <= value <= MAX_INT:
                _refuse(_("%(field)s is too large a number.", field=name), name)
        else:
            _refuse(_("%(field)s must be one value (text or a number), not a list or an object.", field=name), name)

    def schema(self):
        # what check() takes: any number within ±MAX_INT (a fraction too), yes/no, and null
        return self.described({"anyOf": [{"type": "string", "maxLength": self.max_len},
                                         {"type": "number", "minimum": -MAX_INT, "maximum": MAX_INT},
                                         {"type": "boolean"}, {"type": "null"}]})


class List(Field):
    """A list of at most ``most`` items, each as ``item`` says; ``text_too``: or the same typed
    as text (a form's "u1, u2"), which the action splits."""

    def __init__(self, item: Field, most: int = 50, doc: str = "", *, text_too: int = 0, **kw):
        super().__init__(doc, **kw)
        self.item, self.most, self.text_too = item, most, text_too

    def check(self, value, name):
        if isinstance(value, str) and self.text_too:
            if len(value) > self.text_too:
                _refuse(_("%(field)s must be at most %(most)s characters.", field=name, most=self.text_too), name)
            return
        if not isinstance(value, list) or len(value) > self.most:
            _refuse(_("%(field)s must be a list of at most %(most)s items.", field=name, most=self.most), name)
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
            _refuse(_("%(field)s must be an object of at most %(most)s fields.", field=name, most=self.most), name)
        for key, field in self.fields.items():
            if key in value and value[key] is not None:
                field.check(value[key], f"{name}.{key}")
            elif field.required:
                _refuse(_("%(field)s is required.", field=name + "." + key), name)

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
                _refuse(_("%(field)s is required.", field=key), key)
            continue
        field.check(value, key)


TYPED = (Int, Flag, Dice)
_ABSENT = object()  # the kinds that read text (a form's "3", "on", "5 6 2") into their type


def typed_fields(fields: dict | None) -> tuple:
    """The declared fields whose values ``parse`` gives a type: (key, field) pairs."""
    return tuple((k, f) for k, f in (fields or {}).items() if isinstance(f, TYPED))


def parse_args(typed: tuple, args: dict, *, text_only: bool = False) -> dict:
    """``args`` with each typed field as its action uses it (in place): 3, True, [5, 6, 2]; a field
    left empty ("") is left out, so ``p.get("modifier", 0)`` says the default.  The one reading of a
    typed value, done before an action runs, so an action reads ``p["dice"]`` and no reader of its
    own (issue 41).
    ``text_only``: only text is read (an event stored before values were stored parsed: its
    numbers and lists are already what parse gives, and a replay should not pay for them)."""
    for key, field in typed:
        value = args.get(key, _ABSENT)
        if value is _ABSENT:
            continue
        if text_only and not isinstance(value, str):  # (a stored None stays: its action stored it so)
            continue
        if value is None:  # JSON's null in a request: left empty, as "" is
            del args[key]
            continue
        if isinstance(value, str) and not value.strip():
            del args[key]
            continue
        parsed = field.parse(value, key)
        if parsed is None:  # an empty list of dice: left empty too
            del args[key]
        else:
            args[key] = parsed
    return args


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
