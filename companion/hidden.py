"""Hidden information per side: parts of the table only one side may read (a sealed order, a hand).

The one rule, in one place.  A *sealed part* is a dict ``{"side": <side>, "secret": {...}, ...}``:
everything but ``secret`` is public (which side, which unit, who sealed it, when); ``secret`` is
readable only by seats of ``side``, or by everybody once the part is ``revealed``.  Sealed parts
live in exactly two places:

- the table state, under ``state["sealed"]`` (id -> part): what the board and the API read;
- an event payload, under ``payload["sealed"]`` (one part): the event that sealed it, so the log
  replays exactly.  A payload never holds a secret anywhere else, and a label never holds one.

``for_viewer(data, side)`` is the choke point: every output path (board, poll, log, battle report,
``/api/tables/<code>`` and ``/events``, export) passes what it shows through it, with the viewing
seat's side (``None`` for spectators).  It accepts a state, an event, a list of events, an export
document, or a dict with a ``state`` key, and returns a redacted copy (the input is not changed).

Export and re-import (docs/hidden-information.md): an export made by a seat holds its own side's
secrets in clear and every other side's secrets *boxed*: encrypted and authenticated with a key
derived from the server's secret key, which no player holds.  Re-importing the file on the same
server (or one started with the same COMPANION_SECRET_KEY) opens the boxes, so the imported table
replays to exactly the same state; anywhere else, or if a box was altered or moved (each box is
bound to its table, event and part, ``place``), the import is refused with a sentence.  The
construction is HMAC-SHA256 in counter mode plus an HMAC-SHA256 tag over the place, nonce and
ciphertext (encrypt-then-MAC with associated data), standard library only.  Pure: no Flask, no database.
"""
from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets

from companion.errors import RuleError
from companion.said import _

KEY = "sealed"  # the dedicated key, in the state (id -> part) and in an event payload (one part)


def viewer_side(seat: dict | None) -> str | None:
    """Whose secrets a seat may read: a player's side; spectators (and side-less seats) none, nor a
    seat of a side whose parts an import opened without that side's proof (``locked``, issue 37)."""
    if not seat or seat.get("role") != "player" or seat.get("locked"):
        return None
    return seat.get("side") or None


def visible(part: dict, side: str | None) -> bool:
    return bool(part.get("revealed")) or (side is not None and part.get("side") == side)


def _redact(part, side):
    if not isinstance(part, dict) or "secret" not in part or visible(part, side):
        return part
    return {**part, "secret": None, "redacted": True}


def _sealed_map(value, side):
    if isinstance(value, dict) and "side" in value and "secret" in value:
        return _redact(value, side)  # one part (an event payload)
    if isinstance(value, dict):
        return {k: _redact(v, side) for k, v in value.items()}  # id -> part (the state)
    return value


def _uncover(state: dict, parts, side):
    """A sealed part may also hide a place in the state (``covers``: the path of keys, e.g. ["game",
    "ships", "u3"], a ship whose card is hidden): for a viewer who may not read the part, that place is
    left out of the copy (copied on the way down; the input is not changed)."""
    if not isinstance(parts, dict) or "secret" in parts:
        return state
    for part in parts.values():
        path = part.get("covers") if isinstance(part, dict) else None
        if not path or visible(part, side) or not isinstance(path, list):
            continue
        node, chain = state, []
        for key in path[:-1]:
            if not isinstance(node, dict) or not isinstance(node.get(key), dict):
                break
            chain.append((node, key))
            node = node[key]
        else:
            if isinstance(node, dict) and path[-1] in node:
                copy = {k: v for k, v in node.items() if k != path[-1]}
                for parent, key in reversed(chain):
                    copy = {**parent, key: copy}
                state = copy
    return state


def for_viewer(data, side: str | None):
    """A copy of ``data`` with every sealed part ``side`` may not read stripped of its secret."""
    if isinstance(data, list):
        return [for_viewer(item, side) for item in data]
    if not isinstance(data, dict):
        return data
    out = dict(data)
    if KEY in out:
        parts = out[KEY]
        out[KEY] = _sealed_map(out[KEY], side)
        out = _uncover(out, parts, side)
    for key in ("payload", "state"):  # an event; an API answer
        if isinstance(out.get(key), dict):
            out[key] = for_viewer(out[key], side)
    if isinstance(out.get("events"), list):  # an export document
        out["events"] = for_viewer(out["events"], side)
    return out


def text_of(part: dict) -> str:
    """A sealed part's secret as one line of text (an order's text; otherwise its values)."""
    secret = part.get("secret") or {}
    return str(secret.get("text") or ", ".join(str(v) for v in secret.values()))


def revealed_texts(events: list[dict], state: dict) -> list[dict]:
    """The log's events with each reveal's text beside it (``shown``), taken from the sealed part
    while it is revealed in ``state`` (already redacted for the viewer): a label never holds the
    text, so an undone reveal shows nothing once the part is sealed again."""
    parts = state.get(KEY) or {}
    out = []
    for ev in events:
        part = parts.get(ev.get("payload", {}).get("id")) if ev.get("type") == "reveal" else None
        if isinstance(part, dict) and part.get("revealed") and part.get("secret"):
            ev = {**ev, "shown": text_of(part)}
        out.append(ev)
    return out


def secrets_in(data) -> list[str]:
    """Every text inside the unrevealed sealed parts of ``data`` (what a test searches for)."""
    found: list[str] = []

    def walk(value):
        if isinstance(value, str):
            found.append(value)
        elif isinstance(value, dict):
            for v in value.values():
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)
    sealed = data.get(KEY) if isinstance(data, dict) else None
    parts = [sealed] if isinstance(sealed, dict) and "secret" in sealed else (
        list(sealed.values()) if isinstance(sealed, dict) else [])
    for part in parts:
        if isinstance(part, dict) and not part.get("revealed"):
            walk(part.get("secret"))
    return found


# --- export boxes -------------------------------------------------------------------------------

def _keys(server_key: str) -> tuple[bytes, bytes]:
    root = server_key.encode() if isinstance(server_key, str) else bytes(server_key)
    return (hmac.new(root, b"companion sealed export: encrypt", hashlib.sha256).digest(),
            hmac.new(root, b"companion sealed export: authenticate", hashlib.sha256).digest())


def _stream(key: bytes, nonce: bytes, length: int) -> bytes:
    out = bytearray()
    counter = 0
    while len(out) < length:
        out += hmac.new(key, nonce + counter.to_bytes(8, "big"), hashlib.sha256).digest()
        counter += 1
    return bytes(out[:length])


BOX_PAD = 2048  # bytes: 200 characters of any script, JSON-escaped (6 bytes each at most), fit in one
BOX_VERSION = "v2:"  # a box bound to its place (table, event, part); boxes before it had no prefix


def place(table: list, seq, payload: dict) -> bytes:
    """Where a boxed secret was sealed: the table (its code and creation time), the event's seq
    and the part (its id, unit and side).  Authenticated with the box, so a box moved to another
    event, part, side or table does not open (issue 30 §3)."""
    part = payload.get(KEY) if isinstance(payload.get(KEY), dict) else {}
    names = [*table, seq, payload.get("id"), payload.get("unit"), part.get("side")]
    # a hand-edited file may put anything anywhere: only its scalars name a place
    return json.dumps(["companion sealed part"] + [v if isinstance(v, (str, int, float, bool)) else repr(type(v))
                                                   for v in names]).encode()


def box(secret, server_key: str, bound: bytes = b"") -> str:
    """A secret as an opaque string only this server (its secret key) can open, and only at the
    place ``bound`` names (``place``)."""
    enc, mac = _keys(server_key)
    plain = json.dumps(secret, sort_keys=True).encode()
    # padded with spaces (JSON ignores them) to a whole number of BOX_PAD bytes: every order (at most
    # 200 characters, sealed.MAX text) boxes to one length, so a box's size tells nothing (issue 37 §4)
    plain += b" " * (-len(plain) % BOX_PAD)
    nonce = secrets.token_bytes(16)
    cipher = bytes(a ^ b for a, b in zip(plain, _stream(enc, nonce, len(plain)), strict=False))
    tag = hmac.new(mac, _authenticated(bound, nonce, cipher), hashlib.sha256).digest()
    return BOX_VERSION + base64.urlsafe_b64encode(nonce + cipher + tag).decode()


def _authenticated(bound: bytes, nonce: bytes, cipher: bytes) -> bytes:
    """What the tag covers: the place (length-prefixed, so no place reads as another), the nonce
    and the ciphertext."""
    return BOX_VERSION.encode() + len(bound).to_bytes(4, "big") + bound + nonce + cipher


def unbox(text, server_key: str, bound: bytes = b""):
    """Open a box made by ``box`` with the same key at the same place; RuleError if it is not
    ours, was altered or moved, or predates boxes bound to their place."""
    if not str(text).startswith(BOX_VERSION):
        raise RuleError(_("The export was made before sealed orders were bound to where they were sealed, so "
                          "it cannot be checked: export the table again and import the new file."), "file")
    enc, mac = _keys(server_key)
    try:
        raw = base64.urlsafe_b64decode(str(text)[len(BOX_VERSION):].encode())
    except (ValueError, TypeError):
        raw = b""
    nonce, cipher, tag = raw[:16], raw[16:-32], raw[-32:]
    if len(raw) < 48 or not hmac.compare_digest(
            tag, hmac.new(mac, _authenticated(bound, nonce, cipher), hashlib.sha256).digest()):
        raise RuleError(_("The export holds orders sealed by another companion server, or altered or moved ones "
                          "(a sealed order opens only in the event and table it was sealed in); only the "
                          "server that exported it can import it, unchanged."), "file")
    return json.loads(bytes(a ^ b for a, b in zip(cipher, _stream(enc, nonce, len(cipher)), strict=False)))


def table_of(doc: dict) -> list:
    """What names the exported table in its boxes' places: its code and creation time."""
    return [doc.get("table"), doc.get("created")]


def for_export(doc: dict, side: str | None, server_key: str) -> dict:
    """An export for a seat of ``side``: its own secrets in clear, every other side's boxed (each
    bound to its table, event and part)."""
    out = dict(doc)
    events = []
    for ev in doc["events"]:
        part = ev["payload"].get(KEY)
        if isinstance(part, dict) and "secret" in part and not visible(part, side):
            bound = place(table_of(doc), ev["seq"], ev["payload"])
            part = {**part, "secret": None, "redacted": True, "box": box(part["secret"], server_key, bound)}
            ev = {**ev, "payload": {**ev["payload"], KEY: part}}
        events.append(ev)
    out["events"] = events
    return out


def boxed_sides(events: list) -> list[str]:
    """The sides whose sealed parts an export holds boxed (not readable by whoever holds the file): an
    import opens them to replay the game, and the new table's seats of those sides read none of them
    (issue 37: only a side's own export opens its boxes to a seat of it; ``viewer_side``)."""
    sides = set()
    for ev in events:
        payload = ev.get("payload") if isinstance(ev, dict) else None
        part = payload.get(KEY) if isinstance(payload, dict) else None
        if isinstance(part, dict) and part.get("redacted") and isinstance(part.get("side"), str):
            sides.add(part["side"])
    return sorted(sides)


def open_export(events: list, server_key: str | None, table: list = (None, None)) -> list:
    """The events of an export with every boxed secret restored (before the import replays them);
    ``table``: the document's ``table_of``, which each box's place names."""
    out = []
    for ev in events:
        part = ev.get("payload", {}).get(KEY) if isinstance(ev, dict) and isinstance(ev.get("payload"), dict) else None
        if isinstance(part, dict) and part.get("redacted"):
            if not part.get("box") or not server_key:
                raise RuleError(_("The export hides another side's sealed orders without a sealed copy; "
                                  "it cannot be imported."), "file")
            restored = {k: v for k, v in part.items() if k not in ("box", "redacted")}
            restored["secret"] = unbox(part["box"], server_key, place(table, ev.get("seq"), ev["payload"]))
            ev = {**ev, "payload": {**ev["payload"], KEY: restored}}
        out.append(ev)
    return out
