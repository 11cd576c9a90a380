"""What a part of the board read while it was drawn: a part is drawn again only when something it read
changed (issue 29: "a per-unit cache only if measurement demands it, keyed by the unit's own context").

While a part renders, every name its templates look up in their context is noted (``ReadContext``,
Jinja's context class for the app), and so is every key read of the dicts the board watches (the
state, the table row, the seat: ``Watched``), and of the dicts inside them, each under its path
(``state.game.fired``'s key ``u3``, not all of ``state.game``: issue 38, a game's attack changed what
every unit's card read, so every card was drawn again).  The part's digest is then a hash of the
values of exactly those reads, taken from the dicts the board was drawn from (``Watched.raw``).  A part
drawn earlier is served again when the values of what *it* read hash to the same digest now: a
deterministic render that reads the same values takes the same branches and writes the same HTML.
A dict's truth, and its keys when it is iterated, are reads of their own (``NONEMPTY``, ``KEYS``): a
card that lists the decks its unit holds reads each deck's ``attached``, not the piles a draw changes.
Nothing is declared by a game; a template that reads more is simply redrawn more often.

What cannot be hashed makes the part not kept: a read of the request, the session or ``g`` (a
phone's own), or a value whose only text is its address.  Functions (macros, a game's helpers) are
taken as what they are: pure functions of their arguments and of the library, whose revision is part
of every key (board/keep.py).
"""
from __future__ import annotations

import hashlib
import json
import marshal
from contextlib import contextmanager
from contextvars import ContextVar

from flask.templating import Environment
from jinja2 import Template
from jinja2.runtime import Context, new_context
from markupsafe import Markup

ALL = "*"  # a read of a whole watched dict (iterated, measured, printed)
IS_DICT = ("a dict",)  # the read of a dict inside a watched one: still a dict where it was (its keys: noted one by one)
KEYS = ("keys",)  # the read of a watched dict's keys in order (iterated, measured), its values read one by one
NONEMPTY = ("not empty",)  # the read of a watched dict's truth (``if g.orders``, ``g.owed or {}``): whether it has keys
BROKEN = ("not a dict",)  # what a nested read's path finds where a dict was (never a recorded print)
_reads: ContextVar[set | None] = ContextVar("board_reads", default=None)
PHONES_OWN = frozenset({"request", "session", "g"})  # Flask's per-request objects in a template's context
MISSING = object()
GONE, BY_KEY, FUNCTION = ("gone",), ("by key",), ("function",)  # prints of no value (never a value's print)


class NotKept(Exception):
    """A part read something that cannot be hashed: it is drawn every time."""


class ReadContext(Context):
    """Jinja's template context, noting each name a template looks up while a part is recorded."""

    def resolve_or_missing(self, key):
        reads = _reads.get()
        if reads is not None:
            reads.add(key)
        return super().resolve_or_missing(key)


class Watched(dict):
    """A copy of a dict (one level) that notes which of its keys a template or helper reads.  A dict
    found in it is watched too (``_nested``), its reads noted under its path (``watched_as``: a name,
    or the path from one as a tuple); ``raw`` is the dict it copies, what reads are printed from (a
    helper filling a default writes into the copy, never into the table's state)."""

    def __init__(self, name, data: dict):
        super().__init__(data)
        self.watched_as = name
        self.raw = data

    def _note(self, key) -> None:
        reads = _reads.get()
        if reads is not None:
            reads.add((self.watched_as, key))

    def _nested(self, key, value):
        """``value`` found at ``key``: a dict is handed out watched (made once, kept in this copy), and
        only that it is a dict is noted here; anything else is noted as the read of ``key``."""
        if type(value) is dict:
            path = (*self._path(), key)
            value = Watched(path, value)
            dict.__setitem__(self, key, value)
        elif type(value) is not Watched:
            self._note(key)
            return value
        reads = _reads.get()
        if reads is not None:
            reads.add((value.watched_as, IS_DICT))
        return value

    def _path(self) -> tuple:
        return self.watched_as if type(self.watched_as) is tuple else (self.watched_as,)

    def __getitem__(self, key):
        try:
            value = super().__getitem__(key)
        except KeyError:
            self._note(key)
            raise
        return self._nested(key, value)

    def get(self, key, default=None):
        if not super().__contains__(key):
            self._note(key)
            return default
        return self._nested(key, super().__getitem__(key))

    def __contains__(self, key):
        if super().__contains__(key):
            self._nested(key, super().__getitem__(key))  # (a dict there: noted as one, without its keys)
        else:
            self._note(key)
        return super().__contains__(key)

    def setdefault(self, key, default=None):  # a helper that fills in a default reads that key
        if super().__contains__(key):
            return self._nested(key, super().__getitem__(key))
        self._note(key)
        return super().setdefault(key, default)

    def pop(self, key, *default):
        self._note(key)
        return super().pop(key, *default)

    # iterated: its keys are read, and each value as it is handed out (a card that lists the decks
    # held by its unit reads each deck's ``attached``, not the piles every draw changes)
    def __iter__(self):
        self._note(KEYS)
        return dict.__iter__(self)

    def __reversed__(self):
        self._note(KEYS)
        return dict.__reversed__(self)

    def __len__(self):
        self._note(KEYS)
        return dict.__len__(self)

    def keys(self):
        self._note(KEYS)
        return dict.keys(self)

    def items(self):
        self._note(KEYS)
        return [(key, self._nested(key, value)) for key, value in list(dict.items(self))]

    def values(self):
        return [value for _, value in self.items()]

    def __copy__(self):
        self._note(ALL)
        return dict(dict.items(self))

    def __deepcopy__(self, memo):  # (a plain dict: its nested dicts' own copies come here too)
        import copy
        self._note(ALL)
        return {key: copy.deepcopy(value, memo) for key, value in dict.items(self)}

    # anything that sees the dict as one value (or changes it) reads the whole dict (repr, ==, a copy;
    # json.dumps, dict(x) and **x go through its keys and values above)
    def _whole(name):
        def whole(self, *args, **kwargs):
            self._note(ALL)
            return getattr(dict, name)(self, *args, **kwargs)
        whole.__name__ = name
        return whole

    for _name in ("__repr__", "__str__", "__format__", "__eq__", "__ne__",
                  "__or__", "__ror__", "__ior__", "__setitem__", "__delitem__", "copy",
                  "popitem", "clear", "update", "__reduce_ex__", "__reduce__"):
        locals()[_name] = _whole(_name)
    __hash__ = None
    del _name, _whole

    def __bool__(self):
        self._note(NONEMPTY)
        return len(dict.keys(self)) > 0


@contextmanager
def recording(reads: set):
    """``with recording(reads):`` notes every read into ``reads``."""
    token = _reads.set(reads)
    try:
        yield reads
    finally:
        _reads.reset(token)


def _print(value):
    """A value as something short to compare: itself when small and plain, else a 16-byte hash of its
    marshal (plain values) or JSON (the rest; an object whose only text is its address cannot be
    compared across draws)."""
    kind = type(value)
    if value is None or kind is int:
        return value
    if kind is bool or kind is float:
        return (kind.__name__, repr(value))  # True == 1 == 1.0, but each is drawn differently
    if kind is str and len(value) <= 64:
        return value
    if kind is str or kind is Markup:
        text = value
    else:
        drawn_from = getattr(kind, "drawn_from", None)  # an object that says what of it a drawing reads
        if drawn_from is not None:
            return (kind.__name__, drawn_from(value))

        def content(o):
            if hasattr(o, "drawn_from"):
                return repr(o.drawn_from())
            if type(o).__repr__ is object.__repr__:
                raise NotKept(type(o).__name__)
            return repr(o)
        try:
            # marshal writes plain values (dicts, lists, text, numbers: the state) ~5x faster than
            # json.dumps and tells more apart (1 from True, a tuple from a list, 1 from "1" as a key);
            # version 2: no references nor interned marks, so equal values give equal bytes
            data = marshal.dumps(value, 2)
        except ValueError:  # a subclass (Markup, a watched dict) or an object: as JSON
            data = json.dumps(value, default=content).encode()
        return (kind.__name__, hashlib.blake2b(data, digest_size=16).digest())
    return (kind.__name__, hashlib.blake2b(text.encode(), digest_size=16).digest())


def value_print(ctx: dict, read):
    """What one read (a name, or a (watched name, key) pair) finds in ``ctx`` now, as ``_print``."""
    if isinstance(read, tuple):
        return key_print(dict_at(ctx, read[0]), read[1])
    value = ctx.get(read, MISSING)
    if value is MISSING:
        return GONE
    if isinstance(value, Watched):
        return BY_KEY  # what of it was read is noted key by key
    if read in PHONES_OWN:
        raise NotKept(read)
    if callable(value):
        return FUNCTION
    return _print(value)


def dict_at(ctx: dict, name):
    """The dict a watched name (or a nested dict's path from one) reads in ``ctx`` now: the dict the
    board was drawn from; MISSING when the name is not watched now, BROKEN when the path is not dicts."""
    path = name if type(name) is tuple else (name,)
    whole = ctx.get(path[0])
    if not isinstance(whole, Watched):
        return MISSING  # a watched name that is not watched now: equal to no recorded print
    data = whole.raw
    for step in path[1:]:  # (a nested dict's read: its path from the watched name)
        data = data.get(step) if type(data) is dict else None
    return data if type(data) is dict else BROKEN


def key_print(data, key):
    """The print of the read of ``key`` in the watched dict ``data`` (``dict_at``)."""
    if type(data) is not dict:
        return data  # (MISSING, BROKEN: no recorded print)
    if type(key) is str and key != ALL:  # (the marks are tuples)
        return _print(data[key]) if key in data else GONE
    if key == ALL:
        return _print(data)
    if key == IS_DICT:
        return IS_DICT
    if key == NONEMPTY:
        return len(data) > 0
    if key == KEYS:
        return _print(tuple(data))
    return _print(data[key]) if key in data else GONE


class Prints(dict):
    """The prints of one draw's reads, each printed the first time a part asks (``value_print`` in the
    board's context): a part's reads are then looked up in C (``prints``), not one by one in Python,
    which is most of what serving a kept part costs once its reads are noted key by key."""

    def __init__(self, ctx: dict):
        super().__init__()
        self.ctx = ctx
        self.dicts: dict = {}  # a watched name or path -> the dict it reads (dict_at), found once a draw

    def __missing__(self, read):
        if type(read) is tuple:
            name, key = read
            data = self.dicts.get(name, MISSING)
            if data is MISSING:
                data = self.dicts[name] = dict_at(self.ctx, name)
            found = self[read] = key_print(data, key)
        else:
            found = self[read] = value_print(self.ctx, read)
        return found


def prints(reads: tuple, ctx: dict, shared: dict) -> tuple:
    """The prints of ``reads`` (in that order) in ``ctx``, those of one draw's context kept in ``shared``
    (a ``Prints`` of that context, or a plain dict)."""
    if type(shared) is Prints:
        return tuple(map(shared.__getitem__, reads))
    out = []
    for read in reads:
        found = shared.get(read, MISSING)
        if found is MISSING:
            found = shared[read] = value_print(ctx, read)
        out.append(found)
    return tuple(out)


def own_prints(reads: tuple, ctx: dict, shared: dict) -> tuple:
    """The prints of a part's own names (a side, a unit, its card): printed each time, but a unit of the
    board's state (alive as long as the board is) only once a draw."""
    out = []
    for read in reads:
        if read == "unit":
            key = ("unit", id(ctx["unit"]))
            found = shared.get(key, MISSING)
            if found is MISSING:
                found = shared[key] = value_print(ctx, read)
            out.append(found)
        else:
            out.append(value_print(ctx, read))
    return tuple(out)


def same_prints(reads: tuple, absent: frozenset, own: tuple, printed: tuple, ctx: dict, shared: dict) -> bool:
    """Whether ``prints(reads) + own_prints(own)`` would be ``printed`` and every name of ``absent`` is still
    not in ``ctx``: a part's variant drawn from another state is told apart by its prints, each read of
    the board printed once a draw (``shared``) however many parts and variants read it (a part has up
    to 8 variants, a unit's card reading some 100 values)."""
    n = len(reads)
    if n + len(own) != len(printed) or not absent.isdisjoint(ctx):
        return False
    if prints(reads, ctx, shared) != printed[:n]:
        return False
    return own_prints(own, ctx, shared) == printed[n:]


def noted(reads: set, ctx: dict, own: frozenset) -> tuple[tuple, frozenset, tuple]:
    """The reads noted while a part was drawn, as (the board context's, in a fixed order; the names not
    in the context at all; the part's own): names that are functions (macros, helpers) are left out, and
    so are the dicts read key by key.  A name the context lacks (a global such as ``url_for``, a name the
    template set itself, a value some boards have) prints as ``GONE``: of a unit's ~50 reads ~40 are
    such names, checked as one set (``same_prints``: still none of them in the context) rather than one
    by one."""
    board, absent, part = [], set(), []
    # that a nested dict is a dict is said by any read inside it (its path breaks otherwise: BROKEN)
    within = {read[0][:n] for read in reads if type(read) is tuple and (type(read[0]) is tuple and read[1] != IS_DICT)
              for n in range(2, len(read[0]) + 1)}
    for read in sorted(reads, key=repr):
        if type(read) is tuple and read[1] == IS_DICT and read[0] in within:
            continue
        if type(read) is not tuple and read not in own:
            value = ctx.get(read, MISSING)
            if value is MISSING:
                absent.add(read)
                continue
            if read not in PHONES_OWN and (isinstance(value, Watched) or callable(value)):
                continue
        (part if read in own else board).append(read)
    return tuple(board), frozenset(absent), tuple(part)


_DICT_NAMES = frozenset(dir(dict))


class FlatGlobalsTemplate(Template):
    """A template whose render (and include) makes its context from its globals as one plain dict.

    Jinja keeps a template's globals as a ChainMap over the environment's (some 60 names here), and
    copies them into every context it makes twice, each time walking the ChainMap in Python (``dict()``,
    then ``set()`` for ``globals_keys``): 29 us a render or include, 5 us from a plain dict (issue 38:
    about 2 % of a worker's time at 2,000 live phones, py-spy).  The dict is made afresh each time,
    from the same maps in the same order, so a global changed later is seen as Jinja would see it."""

    def new_context(self, vars=None, shared=False, locals=None):
        flat = {}
        for names in reversed(getattr(self.globals, "maps", None) or [self.globals]):  # (the first map wins)
            flat.update(names)
        return new_context(self.environment, self.name, self.blocks, vars, shared, flat, locals)


class BoardEnvironment(Environment):
    """Jinja as Flask sets it up, with the reads of a part noted (``ReadContext``) and ``unit.name`` on a
    plain dict looked up as an item first; templates make their contexts from plain dicts
    (``FlatGlobalsTemplate``).

    The board is dicts all the way down (the table's state); Jinja tries ``getattr`` first and
    catches the AttributeError before it looks up the item, about a thousand times a board render.
    A plain dict's attributes are the fixed names of ``dir(dict)``, so for any other name the
    attribute lookup can only fail: taking the item first answers the same, without the exception
    (and for a ``Watched`` dict, noted as a read)."""
    context_class = ReadContext
    template_class = FlatGlobalsTemplate

    def getattr(self, obj, attribute):
        if (type(obj) is dict or type(obj) is Watched) and attribute not in _DICT_NAMES:
            try:
                return obj[attribute]
            except KeyError:
                return self.undefined(obj=obj, name=attribute)
        return super().getattr(obj, attribute)
