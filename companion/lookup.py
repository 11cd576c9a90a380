"""Lookup: each system's rule tables as pages readable on a phone."""
from __future__ import annotations

from flask import Blueprint, abort, render_template, request

from companion.db import systems
from companion.said import _

bp = Blueprint("lookup", __name__)


def system_or_404(slug: str):
    system = systems().get(slug)
    if system is None:
        abort(404)
    return system


def table_or_404(slug: str, table: str) -> dict:
    """One rule table of a system (the page and the API read it alike), or 404."""
    tables = system_or_404(slug).tables
    if table not in tables:
        abort(404)
    return tables[table]


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
    system, t = system_or_404(slug), table_or_404(slug, table)
    shown = shown_columns(t)
    rows = [[r[i] for i in shown] for r in t["rows"]]
    columns = [t["columns"][i] for i in shown]
    return render_template("table.html", system=system, table=t, columns=columns, rows=rows,
                           prose=is_prose(rows), lookup=two_way(t, request.args))


PROSE_CHARS = 60  # a cell longer than this reads as a sentence: one card per row instead of a grid


def shown_columns(table: dict) -> list[int]:
    """The columns players read: not the content's internal ids (they are for the API)."""
    return [i for i, c in enumerate(table["columns"]) if str(c).strip().lower() != "id"]


def is_prose(rows: list[list]) -> bool:
    return any(isinstance(cell, str) and len(cell) > PROSE_CHARS for row in rows for cell in row[1:])


def two_way(table: dict, args) -> dict | None:
    """A two-input lookup (row + column -> the one number) for a table with a row label and
    numeric column headers, like the penetration table; with the answer when both are given."""
    heads = [str(c) for c in table["columns"][1:]]
    if not table.get("row_label") or not heads or not all(h.lstrip("-").isdigit() for h in heads):
        return None
    corner = str(table["columns"][0])
    across = corner.split("\\")[-1].strip() if "\\" in corner else _("Column")
    out = {"row_label": table["row_label"], "col_label": across, "rows": [str(r[0]) for r in table["rows"]],
           "cols": heads, "row": args.get("row"), "col": args.get("col"), "answer": None}
    if out["row"] in out["rows"] and out["col"] in heads:
        out["answer"] = table["rows"][out["rows"].index(out["row"])][heads.index(out["col"]) + 1]
    return out
