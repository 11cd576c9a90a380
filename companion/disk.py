"""A full disk: players read a sentence, not a bare 500, and the host hears of low space at start-up
(issue 30 §8).  Nothing acknowledged is lost: SQLite refuses the write whole (the transaction rolls
back), and reads keep working (boards are kept in memory, companion/board/keep.py)."""
from __future__ import annotations

import logging
import os
import shutil

from flask import jsonify, render_template, request

from companion import store
from companion.errors import RuleError
from companion.said import N_, _
from companion.validate import CONTROL_RE
from companion.web import error_fragment

FULL = N_("The host's disk is full: free space on the serving device.")
LOW_BYTES = 200 * 1024 * 1024  # warn below this at start-up (a long game's log is a few MB; pages kept, more)
STATUS = 507  # Insufficient Storage (RFC 4918): the server cannot store what the request needs

log = logging.getLogger(__name__)


def init_app(app) -> None:
    for refusal in store.refusals():  # SQLite's, and PostgreSQL's (its disk_full among them)
        app.errorhandler(refusal)(_refused)


def _refused(exc: Exception):
    if not store.disk_full(exc):
        raise exc  # not ours: the usual 500, logged
    log.warning("disk full: %s %s refused (%s)", request.method, request.path, exc)
    if request.path.startswith("/api/"):
        return jsonify({"error": _(FULL)}), STATUS
    if request.headers.get("HX-Request"):
        control = request.form.get("_control") if request.method == "POST" else None
        return error_fragment(RuleError(_(FULL)), control if control and CONTROL_RE.match(control) else None, STATUS)
    return render_template("error.html", status=STATUS, message=_(FULL)), STATUS


def low_space(path) -> str | None:
    """A sentence for the host if the disk holding the database file has little space left (a
    PostgreSQL server's disk is its own administrator's to watch)."""
    if store.is_postgres(path):
        return None
    folder = os.path.dirname(os.path.abspath(str(path))) or "."
    try:
        free = shutil.disk_usage(folder).free
    except OSError:
        return None
    if free >= LOW_BYTES:
        return None
    return (f"Warning: only {free / 1024 / 1024:.0f} MB free on the disk holding {path}; when it fills up, "
            "moves are refused (nothing is lost) until space is freed.")
