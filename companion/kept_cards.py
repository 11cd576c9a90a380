"""A unit's row and card drawn once and kept until something they show changes (issue 14).

After a tap every view's board is drawn again, and the units were most of it: a hit point taken off
one ship drew the rows and cards of all twelve.  Here a unit (templates/_unit_box.html: its row and
the card it opens into) is drawn from what it reads and nothing else: the unit, the seat's view
(role, side), the few things of the table every card reads (``CORE_READS``) and what the game's
``_row.html`` and ``_unit.html`` read, which each game declares in its ``Game(card_reads=...)``.
Those values are the key: while they are the same, the kept unit is the unit.  Because it is drawn
from those values alone, a game that forgets to declare something it reads gets a card without it,
at once and in every test, not a stale card now and then.

With ``COMPANION_CHECK_CARDS=1`` (the test suite sets it) every unit is also drawn the old way,
included with the board's whole context, and the two must be the same byte for byte: every board a
test draws checks the declarations and the keys.
"""
from __future__ import annotations

import hashlib
import json
import os
import threading
from collections import OrderedDict
from functools import lru_cache

from flask import g, request
from jinja2 import pass_context
from markupsafe import Markup

from companion.drawn import templates_version
from companion.markup import first_difference
from companion.marks import secret_mark
from companion.web import csrf_token

# what every unit's row and card read besides the unit (templates/_unit_box.html, _unit_card.html,
# _sealed.html, the trackers' cooldowns in companion/tracker_view.py): the game, the cards attached
# to units, sealed orders, the round and the phase tick; and the names every unit is drawn with
CORE_READS = ("state.system", "state.decks", "state.sealed", "state.round", "state.round_label", "state.tick")
GIVEN = ("code", "system", "seat", "readonly", "ro", "errors", "unit_rows", "has_row")
KEEP = 2048  # units kept per server process (a row and its card are 1-4 KB)

_kept: OrderedDict[str, str] = OrderedDict()
_lock = threading.Lock()  # a server's threads share the kept units


class CardDrift(AssertionError):
    """A kept or narrowly drawn unit differs from the unit drawn with the whole board's context."""


def init_app(app) -> None:
    app.config.setdefault("CHECK_CARDS", os.environ.get("COMPANION_CHECK_CARDS") == "1")
    app.jinja_env.globals["unit_box"] = unit_box
    app.jinja_env.globals["check_cards"] = app.config["CHECK_CARDS"]


@lru_cache(maxsize=64)
def reads_of(slug: str) -> tuple[str, ...]:
    from companion import games
    game = games.declared(slug)
    return CORE_READS + (game.card_reads if game else ())


@lru_cache(maxsize=256)
def _parse(path: str) -> tuple[str, str, tuple[str, ...] | None]:
    """"state.units[name,side]" -> ("state", "units", ("name", "side")): the units with those fields only."""
    fields = None
    if path.endswith("]"):
        path, _, inner = path[:-1].partition("[")
        fields = tuple(f.strip() for f in inner.split(","))
    head, _, rest = path.partition(".")
    return head, rest, fields


def _narrow(ctx, reads: tuple[str, ...]) -> dict:
    """The board's context cut down to what a unit's row and card may read (a projection keeps only the fields
    it names of each entry: another unit's name and side, not its every change)."""
    out = {name: ctx.get(name) for name in GIVEN}
    # the seat's view, not its name: one phone's kept card serves every phone of its side
    out["seat"] = {k: (out["seat"] or {}).get(k) for k in ("role", "side")}
    out["state"] = {}
    for path in reads:
        head, rest, fields = _parse(path)
        whole = ctx.get(head)
        if not rest:
            if whole is not None:
                out[head] = whole
            continue
        if not isinstance(whole, dict) or rest not in whole:
            continue
        value = whole[rest]
        if fields is not None and isinstance(value, dict):
            value = {k: {f: v[f] for f in fields if f in v} for k, v in value.items()}
        out.setdefault(head, {})[rest] = value
    return out


@lru_cache(maxsize=64)
def _heads(reads: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(GIVEN + tuple(_parse(p)[0] for p in reads)))


def _shared(ctx, reads: tuple[str, ...]) -> tuple[dict, str]:
    """The narrow context and its digest: worked out once per board, the same for all its units.

    Jinja hands each unit's call a context of its own (the loop's names added), so the board is
    known again by the very objects its context holds (the state, the seat, the rolls ...)."""
    objects = tuple(ctx.get(h) for h in _heads(reads))
    memo = g.get("kept_cards_shared")
    if memo is None or memo[0] != reads or any(a is not b for a, b in zip(memo[1], objects)):
        narrow = _narrow(ctx, reads)
        system = narrow.get("system")
        # the helpers a game names are functions of what they are given: keyed by name only
        keyed = {"reads": {k: v for k, v in narrow.items() if k not in GIVEN and not callable(v)},
                 "seat": narrow.get("seat"), "ro": [narrow.get("readonly"), narrow.get("ro")], "code": narrow.get("code"),
                 "system": [getattr(system, "slug", None), getattr(system, "version", None)],
                 "templates": templates_version(),
                 # the server: its secret's mark stands in the kept cards, its root in their links
                 "server": [secret_mark("csrf"), request.script_root]}
        memo = (reads, objects, narrow, _digest(keyed))  # holds the objects: their ids stay theirs
        g.kept_cards_shared = memo
    return memo[2], memo[3]


def _digest(value) -> str:
    return hashlib.blake2b(json.dumps(value, sort_keys=True, default=str).encode(), digest_size=16).hexdigest()


@pass_context
def unit_box(ctx, uid: str, unit: dict, fresh=None) -> Markup:
    """The row and card of ``unit``: kept, or drawn from what they read and kept.  ``fresh`` (check
    mode) is the unit as the board's own include drew it; the two must agree."""
    system = ctx.get("system")
    narrow, shared = _shared(ctx, reads_of(getattr(system, "slug", "")))
    token, mark = csrf_token(), secret_mark("csrf")
    # a board with an error sentence on it is one phone's answer: drawn, not kept
    key = None if ctx.get("errors") else f"{shared}:{uid}:{_digest(unit)}"
    html = _take(key) if key else None
    if html is None:
        try:
            html = draw(ctx.environment, narrow, uid, unit)
        except Exception as exc:
            if fresh is None:
                raise
            raise CardDrift(f"unit {uid} ({getattr(system, 'slug', '?')}) cannot be drawn from what its game "
                            f"declares it reads (Game.card_reads): {exc!r}") from exc
        if key:
            _keep(key, html.replace(token, mark))  # the phone's own token is put back on each use
    else:
        html = html.replace(mark, token)
    if fresh is not None and str(fresh) != html:
        raise CardDrift(f"unit {uid} ({getattr(system, 'slug', '?')}) differs from the unit drawn with the whole "
                        f"board: does its game declare every name its _row.html and _unit.html read (Game.card_reads)?\n"
                        f"{first_difference(str(fresh), html, ('whole board', 'kept/narrow'))}")
    return Markup(html)


def _take(key: str) -> str | None:
    with _lock:
        html = _kept.get(key)
        if html is not None:
            _kept.move_to_end(key)
        return html


def _keep(key: str, html: str) -> None:
    with _lock:
        _kept[key] = html
        while len(_kept) > KEEP:
            _kept.popitem(last=False)


def draw(env, narrow: dict, uid: str, unit: dict) -> str:
    """One unit's row and card drawn from what they read and nothing else."""
    return env.get_template("_unit_box.html").render({**narrow, "uid": uid, "unit": unit})


def forget() -> None:
    """Drop every kept card (tests)."""
    with _lock:
        _kept.clear()
