"""Static files: versioned URLs cached for a year, sent gzipped to phones that accept it."""
from __future__ import annotations

import gzip
import re
from pathlib import Path

STATIC = Path(__file__).resolve().parent.parent / "static"


def test_pages_link_static_files_by_content_version_and_phones_keep_them(client):
    page = client.get("/").data.decode()
    urls = re.findall(r'(?:href|src)="(/static/[^"?]+)\?v=([0-9a-f]{10})"', page)
    assert {u.rsplit("/", 1)[1] for u, _ in urls} >= {"companion.css", "companion.js"}
    for url, _ in urls:
        with client.get(f"{url}?v=x") as resp:
            assert "immutable" in resp.headers["Cache-Control"] and "max-age=31536000" in resp.headers["Cache-Control"]
    with client.get("/static/companion.js") as resp:
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
            assert "src=" in tag, f"{path}: {tag}"
