"""A saved fleet shared between tables as a link and its QR (issue 28 §6).

The link carries the exported document itself (the same JSON the Export button downloads, compressed
and base64url-encoded), not a pointer to this server's library.  So it works both ways a fleet moves:
- two tables on one server: the other phone scans the QR, the link opens here, and the page offers
  to save the fleet at each table this phone sits at (a saved item is server-wide, so an identical
  copy is simply already there);
- another host: the link's page downloads the fleet as a file, and every import control also takes
  the link pasted as text (``unpack`` is called from ``game_pages.uploaded_json``).

Each game registers its export format here (``importer``): what it is called and the function that
checks and saves an imported document for a table (the same one its file import calls).  The core
names no game.
"""
from __future__ import annotations

import base64
import binascii
import json
import re
import zlib
from collections.abc import Callable

from flask import Blueprint, Response, make_response, render_template, request
from markupsafe import Markup

from companion import qr, store
from companion.db import get_db
from companion.errors import RuleError
from companion.said import _, figure

bp = Blueprint("share", __name__)

PATH = "/share"
# A link carries at most this many characters of packed data: with a LAN address, a QR of version 29
# (133 modules) at the default error correction, about the densest a phone camera reads off another
# phone's screen (not yet tried with a real camera).  What the games' fleets pack to is measured in
# docs/api.md (Sharing a saved fleet).  A bigger fleet is shared as a file.
MAX_LINK_DATA = 1200
MAX_UNPACKED = 200_000  # bytes a link may unpack to (a bomb of zeros is refused, not inflated)
_DATA = re.compile(r"[A-Za-z0-9_-]+")

# export format -> (game slug, what it holds in words, import(code, doc) -> one sentence said on success)
IMPORTERS: dict[str, tuple[str, str, Callable[[str, dict], str]]] = {}


def json_file(doc, filename: str) -> Response:
    """A JSON document as a download (a game's export, a shared fleet)."""
    resp = Response(json.dumps(doc, indent=1), mimetype="application/json")
    resp.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return resp


def importer(fmt: str, slug: str, what: str):
    """Register a game's import of its exported documents (a decorator on ``fn(code, doc) -> str``)."""
    def register(fn):
        IMPORTERS[fmt] = (slug, what, fn)
        return fn
    return register


def pack(doc: dict) -> str:
    raw = json.dumps(doc, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    return base64.urlsafe_b64encode(zlib.compress(raw, 9)).decode("ascii").rstrip("=")


def link_data(text: str) -> str | None:
    """The packed data of a share link pasted or scanned (the whole address, or the data alone); None
    if the text does not look like one (so an import reads it as JSON instead)."""
    text = (text or "").strip()
    if f"{PATH}?f=" in text:
        return text.split(f"{PATH}?f=", 1)[1].split("&", 1)[0].split("#", 1)[0]
    return text if text and len(text) > 16 and _DATA.fullmatch(text) else None


def unpack(data: str, field: str = "file") -> dict:
    """The document a link carries; one sentence when it is cut, damaged or too big (nothing saved)."""
    if len(data) > MAX_LINK_DATA:
        raise RuleError(_("That share link is too long (%(size)s characters of data; at most %(most)s): share the fleet "
                          "as a file instead.", size=figure(len(data)), most=figure(MAX_LINK_DATA)), field)
    if not _DATA.fullmatch(data or ""):
        raise RuleError(_("That share link is damaged (it has characters a share link never has): scan the "
                          "QR again or use the file."), field)
    inflate = zlib.decompressobj()
    try:
        raw = inflate.decompress(base64.urlsafe_b64decode(data + "=" * (-len(data) % 4)), MAX_UNPACKED)
    except (binascii.Error, zlib.error, ValueError):
        raw = None
    if raw is not None and inflate.unconsumed_tail:
        raise RuleError(_("That share link unpacks to more than %(most)s bytes: it is no fleet.",
                          most=figure(MAX_UNPACKED)), field)
    try:
        if raw is None or not inflate.eof:
            raise ValueError("cut short")
        doc = json.loads(raw.decode("utf-8"))
    except (ValueError, RecursionError):
        raise RuleError(_("That share link is cut short or damaged: scan the QR again, or use the file."),
                        field) from None
    if not isinstance(doc, dict) or doc.get("format") not in IMPORTERS:
        raise RuleError(_("That share link holds no fleet or cards this companion knows."), field)
    return doc


def qr_panel(doc: dict) -> Markup:
    """The QR of a fleet's share link with the link under it, or why there is none (too big)."""
    data = pack(doc)
    url = None if len(data) > MAX_LINK_DATA else share_url(data)
    return Markup(render_template("_share_qr.html", url=url, code=qr.svg(url) if url else None,
                                  size=len(data), most=MAX_LINK_DATA))


def share_url(data: str) -> str:
    from companion.web import public_url
    return public_url(f"{PATH}?f={data}")


def _title(doc: dict) -> str:
    """A shared document's one line: its name (a fleet has one) and how many ships or cards it holds."""
    ships = doc.get("ships")
    items = ships if isinstance(ships, list) else doc.get("cards")
    count = len(items) if isinstance(items, list) else 0
    if isinstance(ships, list):
        held = _("%(count)s ship", count=count) if count == 1 else _("%(count)s ships", count=count)
    else:
        held = _("%(count)s card", count=count) if count == 1 else _("%(count)s cards", count=count)
    name = " ".join(str(doc.get("name") or "").split())[:40]
    return f"{name}: {held}" if name else held


def _tables(slug: str) -> list[dict]:
    """The tables of this game that this phone sits at as a player (where it may save the fleet)."""
    from companion.web import seats
    out = []
    for code, seat in seats().items():
        try:
            row = store.table(get_db(), code)
        except store.NotFound:
            continue
        if row["system"] == slug and seat.get("role") == "player":
            out.append({"code": code, "name": row["name"]})
    return out


@bp.get(PATH)
def page():
    """What a scanned link opens: the fleet it carries, saved at one of this phone's tables in one tap,
    or downloaded as a file for another host."""
    data = request.args.get("f", "")
    try:
        doc = unpack(data, "share")
    except RuleError as exc:
        return make_response(render_template("error.html", status=400, message=exc.message), 400)
    return _page(data, doc)


def _page(data: str, doc: dict, said: dict | None = None, errors: dict | None = None, status: int = 200):
    """The share page; ``said``/``errors`` by table code after a save sent without JavaScript."""
    slug, what, _fn = IMPORTERS[doc["format"]]
    items = doc.get("ships") if isinstance(doc.get("ships"), list) else doc.get("cards")
    names = [str(i.get("name") or "")[:40] for i in items if isinstance(i, dict)] if isinstance(items, list) else []
    return make_response(render_template("share.html", data=data, what=_(what), title=_title(doc), names=names,
                                         tables=_tables(slug), said=said or {}, errors=errors or {}), status)


@bp.get(PATH + ".json")
def download():
    """The shared fleet as the same file the Export button gives (for another host's import)."""
    try:
        doc = unpack(request.args.get("f", ""), "share")
    except RuleError as exc:
        return make_response(render_template("error.html", status=400, message=exc.message), 400)
    slug = re.sub(r"[^a-z0-9]+", "-", str(doc.get("name") or doc["format"]).lower()).strip("-") or "fleet"
    return json_file(doc, f"{slug}.json")


@bp.post(PATH + "/<code>")
def save_at(code: str):
    """Save the shared fleet at one of this phone's tables (the game's own import checks it)."""
    from companion.web import error_fragment, require_player, seat_for
    seat = seat_for(code)
    require_player(seat)
    control = f"share-{code}" if re.fullmatch(r"[A-Za-z0-9_-]{1,40}", code) else "share"
    data, doc = request.form.get("f", ""), None
    try:
        doc = unpack(data, "share")
        slug, _what, fn = IMPORTERS[doc["format"]]
        if store.table(get_db(), code)["system"] != slug:
            raise RuleError(_("That table plays another game: open a table of this fleet's game."), "share")
        said = fn(code, doc)
    except RuleError as exc:
        if request.headers.get("HX-Request"):
            return error_fragment(exc, control, 400)
        if doc is None:  # without JavaScript: the page again, the sentence under its button
            return make_response(render_template("error.html", status=400, message=exc.message), 400)
        return _page(data, doc, errors={code: exc.message}, status=400)
    if request.headers.get("HX-Request"):
        return render_template("_share_saved.html", code=code, said=said)
    return _page(data, doc, said={code: said})
