"""Static files: versioned URLs cached for a year, sent gzipped to phones that accept it."""
from __future__ import annotations

import gzip
import re
from pathlib import Path

STATIC = Path(__file__).resolve().parent.parent / "static"


def test_pages_link_static_files_by_content_version_and_phones_keep_them(client):
    page = client.get("/").data.decode()
    urls = re.findall(r'(?:href|src)="(/static/[^"?]+)\?v=([0-9a-f]{10})"', page)
    names = {u.rsplit("/", 1)[1] for u, _ in urls}
    assert "companion.css" in names and any(n.startswith("htmx-") for n in names)
    for url, _ in urls:
        with client.get(f"{url}?v=x") as resp:
            assert "immutable" in resp.headers["Cache-Control"] and "max-age=31536000" in resp.headers["Cache-Control"]
    with client.get("/static/js/phone.js") as resp:
        assert "immutable" not in resp.headers.get("Cache-Control", "")


def test_static_files_go_gzipped_and_unpack_to_the_same_bytes(client):
    htmx = next(STATIC.glob("htmx-*.min.js"))
    resp = client.get(f"/static/{htmx.name}?v=1", headers={"Accept-Encoding": "gzip, br"})
    assert resp.headers["Content-Encoding"] == "gzip"
    assert int(resp.headers["Content-Length"]) < htmx.stat().st_size / 2
    assert gzip.decompress(resp.data) == htmx.read_bytes()
    with client.get(f"/static/{htmx.name}?v=1") as plain:
        assert "Content-Encoding" not in plain.headers and plain.data == htmx.read_bytes()


def test_a_changed_file_gets_a_new_url(app, client, tmp_path):
    app.static_folder = str(tmp_path)
    (tmp_path / "x.css").write_text("a{}")
    with app.test_request_context():
        from flask import url_for
        first = url_for("static", filename="x.css")
        import os
        import time
        (tmp_path / "x.css").write_text("b{}")
        os.utime(tmp_path / "x.css", (time.time() + 5, time.time() + 5))
        assert url_for("static", filename="x.css") != first


def test_no_template_carries_an_inline_script():
    """The Content-Security-Policy runs scripts from the app's own files only: an inline <script>
    in any template (a game's included) would silently not run."""
    templates = Path(__file__).resolve().parent.parent / "templates"
    for path in templates.rglob("*.html"):
        for tag in re.findall(r"<script\b[^>]*>", path.read_text()):
            # (a JSON data block is read, never run: the phone's words in its language, issue 42)
            assert "src=" in tag or 'type="application/json"' in tag, f"{path}: {tag}"


IMPORTS = re.compile(r'^import .*? from "\./([\w-]+\.js)";$', re.M)


def test_the_phones_modules_are_cached_by_the_version_of_them_all(app, client):
    """The phone's script is ES modules (static/js) importing each other by relative URL ("./seq.js"),
    which would drop a ?v=: they are served under a path carrying the hash of them all, so the whole
    graph is cached a year and asked for again, every module of it, when any one changes."""
    page = client.get("/").data.decode()
    entry = re.search(r'<script type="module" src="(/static/m/([0-9a-f]{10})/phone\.js)"></script>', page)
    assert entry and page.index(entry.group(0)) > page.index("htmx-")  # after htmx (it uses htmx's global)
    version = entry.group(2)
    names = {p.name for p in (STATIC / "js").glob("*.js")}
    for path in (STATIC / "js").glob("*.js"):  # every import is a module of the folder
        for name in IMPORTS.findall(path.read_text()):
            assert name in names, (path.name, name)
    for name in names:
        with client.get(f"/static/m/{version}/{name}", headers={"Accept-Encoding": "gzip"}) as got:
            assert got.status_code == 200 and got.mimetype == "text/javascript"
            assert "immutable" in got.headers["Cache-Control"] and "max-age=31536000" in got.headers["Cache-Control"]
            body = gzip.decompress(got.data) if got.headers.get("Content-Encoding") == "gzip" else got.data
            source = (STATIC / "js" / name).read_bytes().split(b"\n")  # its comment lines sent empty
            assert body.split(b"\n") == [b"" if line.lstrip().startswith(b"//") else line for line in source]
    with client.get("/static/m/0000000000/phone.js") as old:  # a page from before an upgrade: today's file, not kept
        assert old.status_code == 200 and "immutable" not in old.headers["Cache-Control"]
    assert client.get(f"/static/m/{version}/nothing.js").status_code == 404


def test_a_changed_module_changes_the_version(app, tmp_path):
    from companion import assets
    (tmp_path / "js").mkdir()
    (tmp_path / "js" / "a.js").write_text("export const a = 1;\n")
    app.static_folder = str(tmp_path)
    with app.test_request_context():
        first = assets.module_url("a.js")
        (tmp_path / "js" / "a.js").write_text("export const a = 22;\n")  # (a size of its own: the same mtime may come)
        assert assets.module_url("a.js") != first and assets.module_url("a.js").endswith("/a.js")
