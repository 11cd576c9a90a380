"""Whether an imported file is this server's own export, unchanged (issue 30, smaller).

An export leaves the server signed: an HMAC-SHA256 over the document's canonical form (sorted keys,
no spaces, UTF-8, the ``signature`` field itself left out), keyed by a key derived from the server's
secret key for this purpose only (so it is never the key of the sealed-order boxes in
companion/hidden.py).  An import says whether the signature holds.  It never refuses a file for
it: players move files between hosts, and the replay checks every event anyway; but a file edited
by hand (or made elsewhere) may carry dice somebody chose, and the table says so.  Pure: no Flask,
no database.
"""
from __future__ import annotations

import hashlib
import hmac
import json

from companion.said import N_, _

FIELD = "signature"
ALG = "HMAC-SHA256"
PURPOSE = b"companion export signature"
SIGNED = N_("This is this server's own export, unchanged.")
NOT_SIGNED = N_("Not signed by this server: the file was edited or made elsewhere; its dice are taken as "
                "they are written.")
# what a table row's ``imported`` column (and an export's field of that name) holds (NULL: made
# here, not imported)
IMPORTED = "imported"
OWN, OTHER = "signed", "not signed"


def _key(server_key: str | bytes) -> bytes:
    root = server_key.encode() if isinstance(server_key, str) else bytes(server_key)
    return hmac.new(root, PURPOSE, hashlib.sha256).digest()


def canonical(doc: dict) -> bytes:
    """The bytes signed: the document without its signature, keys sorted, no spaces, UTF-8."""
    return json.dumps({k: v for k, v in doc.items() if k != FIELD}, sort_keys=True, separators=(",", ":"),
                      ensure_ascii=False, allow_nan=False).encode("utf-8")


def _mac(doc: dict, server_key) -> str:
    return hmac.new(_key(server_key), canonical(doc), hashlib.sha256).hexdigest()


def sign(doc: dict, server_key) -> dict:
    """The document with its signature (a copy; any signature it had is replaced)."""
    return {**{k: v for k, v in doc.items() if k != FIELD}, FIELD: {"alg": ALG, "value": _mac(doc, server_key)}}


def signed_here(doc, server_key) -> bool:
    """True only for a document this server (its secret key) signed and nobody changed since."""
    sig = doc.get(FIELD) if isinstance(doc, dict) else None
    if not server_key or not isinstance(sig, dict) or sig.get("alg") != ALG or not isinstance(sig.get("value"), str):
        return False
    try:
        expected = _mac(doc, server_key)
    except (ValueError, TypeError, UnicodeError, RecursionError):  # NaN, lone surrogates: not ours
        return False
    return hmac.compare_digest(sig["value"].encode("utf-8", "replace"), expected.encode())


def origin(doc, server_key) -> str:
    """The imported table's ``imported``: OWN only for this server's own export, unchanged, of a
    table that was itself made here or imported as OWN (an edited file imported and exported
    again keeps saying so: its ``imported`` is under the signature)."""
    signed = signed_here(doc, server_key) and doc.get(IMPORTED) in (None, OWN)
    return OWN if signed else OTHER


def sentence(imported: str | None) -> str | None:
    """What the players read about a table's origin (None: made here)."""
    if imported is None:
        return None
    return _(SIGNED) if imported == OWN else _(NOT_SIGNED)
