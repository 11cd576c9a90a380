"""Cutting a drawn page into its elements (the board's parts, a row's card) without parsing it:
the pages are our own templates' output, so an element's end is found by counting its own tag."""
from __future__ import annotations

import re

_TAGS: dict[str, re.Pattern] = {}


def first_difference(a: str, b: str, names: tuple[str, str]) -> str:
    """Where two drawings of one page part first differ, each named, with a little text around it
    (the tests' checks that a kept part is the part drawn afresh)."""
    at = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    return "\n".join(f"{name}: ...{text[max(0, at - 120):at + 120]}..." for name, text in zip(names, (a, b)))


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
