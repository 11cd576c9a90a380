"""A phone's seat: the signed cookie that says who it is, and the view of the table it is drawn.

- The cookie is checked once per distinct cookie rather than once per request.  Every phone sends the
  same cookie with each poll, every 2 s.  Flask checks its signature and decodes it afresh each time
  (and builds the signer each time): about a third of the CPU of a poll that finds nothing new
  (scripts/benchmark.py, issue 14).  A cookie that is byte for byte one already checked has the same
  contents, so the contents are kept here (per process, the newest few thousand cookies) and each
  request gets its own copy to change.  The cookie's age is still checked on every request against
  the time it was signed.
- A seat's view of a table is its role and side: all the board's HTML depends on besides the table
  (companion/board), with the view's form token, which the board's forms carry.
"""
from __future__ import annotations

import copy
import hashlib
import hmac
import threading
import time
from collections import OrderedDict
from functools import lru_cache
from typing import NamedTuple

from flask import current_app
from flask.sessions import SecureCookieSessionInterface
from itsdangerous import BadSignature

from companion import i18n

KEEP = 4096  # distinct cookies remembered: a club night's phones, many times over


class KeptSeatCookies(SecureCookieSessionInterface):
    def __init__(self):
        self._read: OrderedDict = OrderedDict()  # (secret, cookie) -> (contents, signed at)
        self._signers: dict = {}
        self._lock = threading.Lock()

    def get_signing_serializer(self, app):
        key = (app.secret_key, tuple(app.config.get("SECRET_KEY_FALLBACKS") or ()))
        signer = self._signers.get(key)
        if signer is None and app.secret_key:
            signer = self._signers[key] = super().get_signing_serializer(app)
        return signer

    def open_session(self, app, request):
        cookie = request.cookies.get(self.get_cookie_name(app))
        if not cookie or not app.secret_key:
            return super().open_session(app, request)
        max_age = int(app.permanent_session_lifetime.total_seconds())
        key = (app.secret_key, cookie)
        with self._lock:
            kept = self._read.get(key)
            if kept is not None:
                self._read.move_to_end(key)
        if kept is None:
            try:
                contents, signed = self.get_signing_serializer(app).loads(cookie, max_age=max_age,
                                                                          return_timestamp=True)
            except BadSignature:
                return self.session_class()
            kept = (contents, signed.timestamp())
            with self._lock:
                self._read[key] = kept
                if len(self._read) > KEEP:
                    self._read.popitem(last=False)
        contents, signed_at = kept
        if time.time() - signed_at > max_age:
            return self.session_class()  # expired since it was first read
        return self.session_class(copy.deepcopy(contents))



class View(NamedTuple):
    """What the board's HTML depends on besides the table and its seq."""
    role: str  # "player" or "spectator"
    side: str  # "" for a seat without a side
    locked: bool = False  # its side's sealed parts came boxed in an import: not read (hidden.viewer_side)
    lang: str = "en"  # the language it is drawn in (companion/i18n.py): the phone's, shared by its view

    def seat(self) -> dict:
        """The seat the board is drawn for: a view has no name (the phone's own is in the page shell)."""
        return {"role": self.role, "side": self.side or None, "name": "", "locked": self.locked}


def view_of(seat: dict) -> View:
    """The seat's view, in the language this request is drawn in."""
    return View(seat.get("role") or "player", seat.get("side") or "", bool(seat.get("locked")), i18n.current())


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
