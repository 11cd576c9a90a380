"""A unit's full card is sent only to a phone that has its row open (issue 14: board bytes).

On a phone the board is a list of unit rows, each opening into the unit's full card; the cards are
most of the board's HTML (issue 14's ten-ship table: 86 KB with every card, 35 KB without) and
a player has one or two rows open at a time.  The board is still drawn whole, once per change and
view (companion/drawn.py); this module then folds it:

- each card (``div.unitcard`` inside a row) is replaced by an empty slot carrying a fingerprint of
  the card (so a change to a card alone still changes the row's part of the board, and a phone a
  change behind gets that unit again) and a link that shows the card without JavaScript;
- the cards are kept beside the folded board, behind a separator derived from the server's secret
  (a name typed at the table cannot forge one);
- an answer puts back the cards of the rows the phone says are open (the X-Open-Units header that
  companion.js sends with every htmx request; on a plain page load ``?open=`` or the table's "open"
  cookie); a row opened later asks for its card alone (play.unit_card).
"""
from __future__ import annotations

import hashlib
import re

from flask import request

from companion.markup import element_end
from companion.marks import secret_mark

_CARD = re.compile(r'<div class="unitcard" id="card-([^"]+)">')
UID = re.compile(r"^[A-Za-z0-9_.:-]{1,60}$")
MAX_OPEN = 60


def _sep() -> str:
    return "\x00" + secret_mark("cards")


def _slot(uid: str, fingerprint: str) -> str:
    return (f'<div class="unitcard" id="card-{uid}" data-v="{fingerprint}" data-lazy>'
            f'<a class="cardlink" href="?open={uid}#row-{uid}">Show the card</a></div>')


def fold(html: str) -> str:
    """A drawn page with its cards taken out of the rows and kept after it (the form kept in the
    database); a page without cards is returned as it is."""
    at = html.find('<div class="unitcard" id="card-')
    if at < 0:
        return html
    sep, out, kept, pos = _sep(), [], [], 0
    for m in _CARD.finditer(html, at):
        if m.start() < pos:
            continue  # (a card inside a card is not drawn)
        uid, end = m.group(1), element_end(html, m.start(), "div")
        card = html[m.start():end]
        fingerprint = hashlib.blake2b(card.encode(), digest_size=5).hexdigest()
        slot = _slot(uid, fingerprint)
        whole = f'<div class="unitcard" id="card-{uid}" data-v="{fingerprint}">' + card[m.end() - m.start():]
        out += [html[pos:m.start()], slot]
        kept += [uid, slot, whole]
        pos = end
    out.append(html[pos:])
    return "".join(out) + sep + sep.join(kept)


def folded(kept: str) -> str:
    """The folded page alone (what phones compare to tell what changed)."""
    return kept.partition(_sep())[0]


def cards_of(kept: str) -> dict[str, tuple[str, str]]:
    """The kept cards: {unit id: (its slot on the folded page, the whole card)}."""
    parts = kept.split(_sep())
    return {parts[i]: (parts[i + 1], parts[i + 2]) for i in range(1, len(parts) - 2, 3)}


def keep_only(changed: str, kept: str) -> str:
    """Out-of-band parts of a folded page (a poll's step) with the cards of the units among them."""
    cards = cards_of(kept)
    sep = _sep()
    mine = [x for uid, (slot, card) in cards.items() if slot in changed for x in (uid, slot, card)]
    return changed + (sep + sep.join(mine) if mine else "")


def unfold(kept: str, open_units: set[str] | None) -> str:
    """The folded page with the cards of the open rows put back (``"*"`` among them: every card)."""
    page, sep, _ = kept.partition(_sep())
    if not sep or not open_units:
        return page
    for uid, (slot, card) in cards_of(kept).items():
        if uid in open_units or "*" in open_units:
            page = page.replace(slot, card, 1)
    return page


def card_of(kept: str, uid: str) -> str | None:
    """One unit's whole card, or None when the page has none for it."""
    hit = cards_of(kept).get(uid)
    return hit[1] if hit else None


def open_units() -> set[str]:
    """The unit rows this request's phone has open: X-Open-Units (htmx), else ``?open=`` (a page
    load; "*" opens every card), else the table's "open" cookie (companion.js keeps it, so a page
    loaded again, say after the phone slept, comes with the rows that were open, cards and all);
    ids that cannot be a unit's are ignored."""
    said = request.headers.get("X-Open-Units")
    if said is None:
        said = " ".join(request.args.getlist("open")) or request.cookies.get("open", "")
    return {u for u in re.split(r"[\s,~]+", said)[:MAX_OPEN] if u == "*" or UID.match(u)}


def for_request(html: str) -> str:
    """A page drawn for this request alone (not kept): folded, with the request's open cards in it
    and, on a page load (``?open=`` or the "open" cookie), their rows drawn open.  An htmx answer
    (a 409's fresh board, a board with an error on it) leaves its rows closed, as the kept answers
    do: companion.js opens again the rows that are open when it swaps, and a row the player folded
    while the request was out stays folded."""
    opened = open_units()
    page = unfold(fold(html), opened)
    if request.headers.get("HX-Request"):
        return page
    for uid in opened - {"*"}:
        page = page.replace(f'" id="row-{uid}">', f'" id="row-{uid}" open>', 1)
    return page
