"""Lookup: each system's rule tables as pages readable on a phone."""
from __future__ import annotations

from flask import Blueprint, abort, render_template

from companion.db import systems

bp = Blueprint("lookup", __name__)


def system_or_404(slug: str):
    system = systems().get(slug)
    if system is None:
        abort(404)
    return system


@bp.get("/systems")
def system_list():
    """Every system this host knows, with its tables."""
    return render_template("systems.html", systems=systems())


@bp.get("/systems/<slug>")
def system_tables(slug: str):
    """One system's lookup tables."""
    return render_template("system.html", system=system_or_404(slug))


@bp.get("/systems/<slug>/tables/<table>")
def lookup_table(slug: str, table: str):
    """One rule table."""
    system = system_or_404(slug)
    if table not in system.tables:
        abort(404)
    return render_template("table.html", system=system, table=system.tables[table])
