"""The signed seat cookie, checked once per distinct cookie rather than once per request.

Every phone sends the same cookie with each poll, every 2 s.  Flask checks its signature and
decodes it afresh each time (and builds the signer each time): about a third of the CPU of a poll
that finds nothing new (scripts/benchmark.py, issue 14).  A cookie that is byte for byte one
already checked has the same contents, so the contents are kept here (per process, the newest few
thousand cookies) and each request gets its own copy to change.  The cookie's age is still checked
on every request against the time it was signed.
"""
from __future__ import annotations

import copy
import threading
import time
from collections import OrderedDict

from flask.sessions import SecureCookieSessionInterface
from itsdangerous import BadSignature

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
