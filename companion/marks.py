"""Markers derived from the server's secret key: text typed at the table cannot forge one.

companion/drawn.py puts them where a kept page has each phone's own bits (its CSRF token, its seat
name); companion/folded_cards.py keeps a board's unit cards behind one.  Every server worker derives
the same marker, so a page kept by one is read by the others."""
from __future__ import annotations

import hashlib
import hmac

from flask import current_app


def secret_mark(what: str) -> str:
    key = current_app.config["SECRET_KEY"]
    key = key.encode() if isinstance(key, str) else key
    return "drawn" + hmac.new(key, what.encode(), hashlib.sha256).hexdigest()[:20] + what
