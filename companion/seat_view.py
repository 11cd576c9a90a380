"""A seat's view of a table: its role and side, all the board's HTML depends on besides the table
(companion/board), and the view's form token, which the board's forms carry."""
from __future__ import annotations

import hashlib
import hmac
from functools import lru_cache
from typing import NamedTuple

from flask import current_app


class View(NamedTuple):
    """What the board's HTML depends on besides the table and its seq."""
    role: str  # "player" or "spectator"
    side: str  # "" for a seat without a side

    def seat(self) -> dict:
        """The seat the board is drawn for: a view has no name (the phone's own is in the page shell)."""
        return {"role": self.role, "side": self.side or None, "name": ""}


def view_of(seat: dict) -> View:
    return View(seat.get("role") or "player", seat.get("side") or "")


def form_token(code: str, view: View) -> str:
    """The hidden token of a board's forms: the table's own for the view's role, the same for every
    phone of it (a form posted without JavaScript carries it; htmx sends the phone's session token as a
    header), so the parts of a board that do not read the side are the same for every side
    (companion/board/draw.py).  It is derived from the server's secret, so a page elsewhere cannot
    know it (web._csrf_protect); which side posts is the seat's cookie's to say."""
    return _token(current_app.config["SECRET_KEY"], code, view.role)


@lru_cache(maxsize=4096)
def _token(key, code: str, role: str) -> str:
    key = key.encode() if isinstance(key, str) else key
    return hmac.new(key, f"form\x00{code}\x00{role}".encode(), hashlib.sha256).hexdigest()[:32]
