"""Where the app's folders are: next to the package in a checkout, inside it in an installed wheel.

The repository keeps templates/, static/ and content/ at the top level (the design card's layout);
the wheel build maps them into ``companion/`` (pyproject.toml), so both places are looked at.
"""
from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parent


def asset_dir(name: str) -> Path:
    """``templates``, ``static`` or ``content``: the installed copy if there is one, else the checkout's."""
    inside = PACKAGE / name
    return inside if inside.is_dir() else PACKAGE.parent / name
