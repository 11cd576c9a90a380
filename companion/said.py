"""What a move says, kept as what happened (issue 42): a message and its values, so each reader draws
it in their own language.

A game's action returns its label as a ``Said``: a ``str`` whose text is the English sentence (what the
log stored before, what the tests and the API read), carrying the message id and its values.  The store
keeps both: the English ``label`` and the message (``told(…)``'s JSON, the events' ``said`` column).  A
reader in another language draws the message in theirs (``companion/i18n.py``: ``in_words``).

- A value that is a name (a ship's, a seat's, a rulebook table's) is a plain ``str``: shown as it is.
- A value that is itself words of the app (the part of a sentence a game composes) is a ``Said``: drawn
  in the reader's language too.  ``joined`` composes Said parts with a separator ("; ").
- An old event (before this) has no message: it reads in the English it was stored in.

Refusals are not kept: ``_`` (below) draws them in the asking phone's language at once.

A message is %-formatted only when it has values (a literal "%" then is "%%"), in Python as in
``Said``; the templates' ``_()`` always formats (Jinja's newstyle gettext).

Pure: no Flask.  The message ids are extracted by scripts/i18n (the keyword ``Said``).
"""
from __future__ import annotations

import re
from typing import Any


class Said(str):
    """An English sentence that remembers its message and values: ``Said("%(ship)s sinks", ship=name)``."""

    msg: str | None
    args: dict[str, Any]
    parts: tuple | None

    def __new__(cls, msg: str, **args):
        self = super().__new__(cls, msg % {k: _english(v) for k, v in args.items()} if args else msg)
        self.msg, self.args, self.parts = msg, args, None
        return self


def joined(separator: str, parts) -> str:
    """``separator.join(parts)`` that keeps each part's message (a plain join forgets them)."""
    parts = tuple(parts)
    if not any(isinstance(p, Said) for p in parts):
        return separator.join(parts)
    text = str.__new__(Said, separator.join(parts))
    text.msg, text.args, text.parts = None, {"sep": separator}, parts
    return text


# msgid -> the words of the phone asking now; set by companion.i18n (None: English, e.g. outside the app)
translate = None


# a number -> as the asking phone writes it ("1.000" in German); set by companion.i18n (None: "1,000")
write_number = None


# the reader's way of writing a number now, set by companion.i18n: () -> a function (value, digits,
# signed) -> text, or None where numbers read as Python writes them (English: a label as it was stored)
numbers_now = None

# a number's place in a message: %(mean).2f, %(by)+d (not %%(x)d, a literal)
_NUMBER_SPEC = re.compile(r"(?<!%)%\((\w+)\)([-+ #0]*)\d*(?:\.(\d+))?([dif])")


def figure(n: int) -> str:
    """A whole number inside a refusal, as the asking phone writes it: "2,147,483,647", "2.147.483.647"."""
    return write_number(n) if write_number is not None else format(n, ",")


def N_(msg: str) -> str:
    """A sentence kept in a constant, marked for the catalogs; ``_(CONSTANT)`` says it when it is used."""
    return msg


def _(msg: str, **args) -> str:
    """A sentence said at once (a refusal) in the asking phone's language: ``_("%(x)s is full.", x=name)``."""
    text = translate(msg) if translate is not None else msg
    return _filled(text, msg, args, _reader_writes())


def _reader_writes():
    """How the reader now writes a number inside a sentence (None: as Python does)."""
    return numbers_now() if numbers_now is not None else None


def _filled(text: str, english: str, args: dict, write=None) -> str:
    """``text % args``, each number the message formats written by ``write`` (the reader's way) if given."""
    if not args:
        return text
    try:
        if write is not None:
            return _numbers_written(text, args, write)
        return text % args
    except (KeyError, ValueError, TypeError):
        return english % args  # a translation that lost a value: the English rather than nothing


def _numbers_written(text: str, args: dict, write) -> str:
    """``text % args`` with every number the message formats (%(mean).2f, %(by)+d) written as the reader
    writes it: "(erwartet 7,00)", not "(erwartet 7.00)"."""
    values = dict(args)

    def one(spec) -> str:
        name, flags, digits, kind = spec.groups()
        value = args[name]
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return spec.group(0)
        key = f"{name}\x00{spec.start()}"  # (each place its own: one value may be written twice, differently)
        values[key] = write(value, int(digits or 0) if kind == "f" else 0, "+" in flags)
        return f"%({key})s"
    return _NUMBER_SPEC.sub(one, text) % values


def retold(stored, build):
    """A sentence a move stored in English, rebuilt as a ``Said`` (``build()``) from what it stored, if it
    says exactly that English; else the stored English (an older move, or a value it no longer has)."""
    try:
        again = build()
    except (KeyError, TypeError, ValueError, IndexError, AttributeError):
        return stored
    return again if stored is None or str(again) == str(stored) else stored


def message(msg: str, **args) -> dict:
    """A message kept as data whose values are kept data already (an undo names its move's message)."""
    return {"m": msg, "a": args} if args else {"m": msg}


def _english(value):
    return str.__str__(value) if isinstance(value, str) else value


def again(text: str, data) -> str:
    """A stored label with its kept message (the events' ``said`` column), to name inside another sentence
    (a take-back names the moves it withdrew): drawn in each reader's words too; ``text`` alone without one."""
    if data is None:
        return text
    out = str.__new__(Said, text)
    out.msg, out.args, out.parts = None, {"kept": data}, None  # (_data gives the kept message back as it is)
    return out


def spoken(sentence) -> str:
    """A sentence the app composed (a ``Said``, or kept in the state: ``kept``) in the asking phone's words
    now, for a refusal or a page that quotes it; any other text as it is (a name, English stored before)."""
    if isinstance(sentence, Said):
        sentence = _data(sentence)
    elif not isinstance(sentence, dict):
        return sentence
    return drawn(sentence, translate if translate is not None else _same)


def recalled(kept_sentence) -> str:
    """A sentence kept in a game's state (``kept``), said again inside a move's label: its message kept
    (drawn in each reader's words), its text the English; a plain ``str`` as it is."""
    return again(english(kept_sentence), kept_sentence) if isinstance(kept_sentence, dict) else kept_sentence


def kept(sentence) -> Any:
    """A sentence to keep in a game's state (a reminder, a verdict): its message as JSON-ready data, drawn
    later in each reader's language (templates: ``say(…)``); a plain ``str`` (a name) is kept as it is."""
    return _data(sentence)


def english(kept_sentence) -> str:
    """A kept sentence in English, for Python that reads it (a check, a test); a plain ``str`` as it is."""
    return drawn(kept_sentence, _same)


def _same(msg: str) -> str:
    return msg


def told(label) -> Any:
    """The message of a label as JSON-ready data (None for a plain sentence: nothing to translate)."""
    if not isinstance(label, Said):
        return None
    return _data(label)


def _data(value):
    if not isinstance(value, Said):
        return value if isinstance(value, (int, float)) or value is None else str(value)
    if value.msg is None and value.parts is None:
        return value.args["kept"]  # (again(): a message kept already)
    if value.parts is not None:
        return {"j": value.args["sep"], "p": [_data(p) for p in value.parts]}
    return {"m": value.msg, "a": {k: _data(v) for k, v in value.args.items()}} if value.args else {"m": value.msg}


def drawn(data, translate) -> str:
    """A kept message drawn with ``translate`` (msgid -> the reader's words): the sentence in their language."""
    if isinstance(data, dict):
        if "j" in data:
            return data["j"].join(drawn(p, translate) for p in data["p"])
        text = translate(data["m"])
        args = {k: drawn(v, translate) for k, v in data.get("a", {}).items()}
        # the reader's numbers only for a reader: English for Python (``english``) stays as Python writes it
        return _filled(text, data["m"], args, None if translate is _same else _reader_writes())
    return "" if data is None else data  # a name as it is; a number stays a number (%(n)d)
