"""Checks every phone-sized page must pass."""
from __future__ import annotations

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
