"""Cutting a drawn page into its elements (the board's parts, a row's card) without parsing it:
the pages are our own templates' output, so an element's end is found by counting its own tag."""
from __future__ import annotations

import re

_TAGS: dict[str, re.Pattern] = {}


def element_end(html: str, start: int, tag: str) -> int:
    """Where the element of ``tag`` opening at ``start`` ends (same-name tags counted; only those
    are looked at, so finding a unit's end does not walk every tag inside it)."""
    pattern = _TAGS.get(tag)
    if pattern is None:
        pattern = _TAGS[tag] = re.compile(rf"<(/?){tag}[\s>/]", re.IGNORECASE)
    depth = 0
    for m in pattern.finditer(html, start):
        depth += -1 if m.group(1) else 1
        if depth == 0:
            return html.index(">", m.start()) + 1
    raise ValueError(f"<{tag}> at {start} is not closed")
