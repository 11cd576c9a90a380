"""Markers derived from the server's secret key: text typed at the table cannot forge one.

companion/drawn.py puts them where a kept page has each phone's own bits (its CSRF token, its seat
name); companion/folded_cards.py keeps a board's unit cards behind one.  Every server worker derives
the same marker, so a page kept by one is read by the others."""
from __future__ import annotations

import hashlib
import hmac
from functools import lru_cache

from flask import current_app


def secret_mark(what: str) -> str:
    return _mark(current_app.config["SECRET_KEY"], what)


@lru_cache(maxsize=64)
def _mark(key: str | bytes, what: str) -> str:
    """(worked out once per key: every answer on the hot path asks for the same few marks)"""
    key = key.encode() if isinstance(key, str) else key
    return "drawn" + hmac.new(key, what.encode(), hashlib.sha256).hexdigest()[:20] + what
