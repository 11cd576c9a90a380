"""Checks every phone-sized page must pass."""
from __future__ import annotations

import os
import tempfile
from pathlib import Path

CHROMIUM = "/usr/bin/chromium"  # Debian's Chromium, never a downloaded build
PHONE = {"width": 390, "height": 844}


def assert_fits_a_phone(page, controls: str = "#board button, #board select") -> None:
    """No sideways scrolling at 360 and 390 px, and every control at least 44 px both ways."""
    for width in (360, 390):
        page.set_viewport_size({"width": width, "height": 800})
        assert page.evaluate("document.documentElement.scrollWidth") <= width
    small = page.evaluate("""(sel) => [...document.querySelectorAll(sel)]
        .filter(b => b.offsetParent && !b.closest('.chip') && (b.getBoundingClientRect().height < 44 || b.getBoundingClientRect().width < 44))
        .map(b => b.outerHTML.slice(0, 80))""", controls)
    assert small == []


def shots(game: str) -> Path:
    """Where a browser test saves its screenshots for people to look at: $COMPANION_SHOTS/<game>
    (e.g. COMPANION_SHOTS=docs/img to refresh the pictures in the docs), else a temporary folder, so a
    test run never changes the checkout."""
    root = os.environ.get("COMPANION_SHOTS") or os.path.join(tempfile.gettempdir(), "companion-shots")
    folder = Path(root) / game
    folder.mkdir(parents=True, exist_ok=True)
    return folder
