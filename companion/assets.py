"""Where the app's folders are: next to the package in a checkout, inside it in an installed wheel.

The repository keeps templates/, static/ and content/ at the top level (the design card's layout);
the wheel build maps them into ``companion/`` (pyproject.toml), so both places are looked at.
"""
from __future__ import annotations

import hashlib
import os
from pathlib import Path

from flask import abort, current_app, request, url_for
from werkzeug.security import safe_join

PACKAGE = Path(__file__).resolve().parent


def asset_dir(name: str) -> Path:
    """``templates``, ``static`` or ``content``: the installed copy if there is one, else the checkout's."""
    inside = PACKAGE / name
    return inside if inside.is_dir() else PACKAGE.parent / name



# --- the phone's script: ES modules (static/js) ----------------------------------------------------
# A static file's URL carries its content's hash (?v=..., companion/web.py), so a phone keeps it a year.
# A module's relative import ("./seq.js") would drop that query, so the modules are served from a path
# that carries the hash of them all instead: /static/m/<version>/phone.js imports
# /static/m/<version>/seq.js. A changed module gives every page a new version, and the whole graph is
# asked for again; an unchanged one stays cached (immutable), and no import map or inline script is
# needed (the Content-Security-Policy runs scripts from the app's own files only).
MODULES = "js"
_versions: dict = {}


def _modules() -> Path:
    return Path(current_app.static_folder) / MODULES


def modules_version() -> str:
    """A hash of every module under static/js (names and contents), remembered until a file changes."""
    folder = _modules()
    files = tuple(sorted((e.name, e.stat().st_mtime_ns, e.stat().st_size)
                         for e in os.scandir(folder) if e.name.endswith(".js")))
    key = (str(folder), files)
    version = _versions.get(key)
    if version is None:
        digest = hashlib.sha256()
        for name, *_ in files:
            digest.update(name.encode() + b"\0" + (folder / name).read_bytes() + b"\0")
        version = digest.hexdigest()[:10]
        _versions.clear()
        _versions[key] = version
    return version


def module_url(name: str) -> str:
    """A page's entry module (a Jinja global): ``<script type="module" src="{{ module_url('phone.js') }}">``."""
    return url_for("module", version=modules_version(), name=name)


_texts: dict = {}


def module_text(path: Path) -> tuple[bytes, str]:
    """A module as a phone gets it, and its ETag: each line that is only a comment sent empty (the
    comments are for whoever reads the source: 14 KB of a board's modules; an error's line numbers stay
    the file's). Made once per version of the file."""
    st = path.stat()
    key = (str(path), st.st_mtime_ns, st.st_size)
    if key not in _texts:
        lines = path.read_bytes().split(b"\n")
        body = b"\n".join(b"" if line.lstrip().startswith(b"//") else line for line in lines)
        _texts[key] = body, hashlib.sha256(body).hexdigest()[:16]
    return _texts[key]


def send_module(version: str, name: str):
    """A module, cached a year when asked for at the current version; a page from before an upgrade
    gets today's file, not kept under the old address."""
    path = safe_join(str(_modules()), name)
    if path is None or not name.endswith(".js") or not os.path.isfile(path):
        abort(404)
    body, etag = module_text(Path(path))
    resp = current_app.response_class(body, mimetype="text/javascript")
    resp.set_etag(etag)
    resp.headers["Cache-Control"] = ("public, max-age=31536000, immutable" if version == modules_version()
                                     else "no-cache")
    return resp.make_conditional(request)
