"""On the home screen (issue 10 §7): a manifest with icons, standalone, both themes; no favicon 404."""
from __future__ import annotations

import struct


def test_the_app_manifest_opens_standalone_with_real_png_icons(client):
    resp = client.get("/manifest.webmanifest")
    assert resp.status_code == 200 and resp.mimetype == "application/manifest+json"
    doc = resp.get_json()
    assert doc["display"] == "standalone" and doc["start_url"] == "/"
    sizes = set()
    for icon in doc["icons"]:
        with client.get(icon["src"]) as png:
            assert png.status_code == 200 and png.data[:8] == b"\x89PNG\r\n\x1a\n"
            width, height = struct.unpack(">II", png.data[16:24])
        assert icon["sizes"] == f"{width}x{height}"
        sizes.add(width)
    assert {192, 512} <= sizes


def test_every_page_links_the_manifest_and_a_theme_colour_for_each_theme(client):
    page = client.get("/").data.decode()
    assert 'rel="manifest" href="/manifest.webmanifest"' in page
    assert 'name="theme-color" content="#f4f1ea" media="(prefers-color-scheme: light)"' in page
    assert 'name="theme-color" content="#121417" media="(prefers-color-scheme: dark)"' in page


def test_a_table_added_to_the_home_screen_is_named_after_the_table_and_opens_its_board(client, table):
    code = table.create(name="Friday battle")
    board = client.get(f"/t/{code}").data.decode()
    assert f'href="/t/{code}/manifest.webmanifest"' in board
    doc = client.get(f"/t/{code}/manifest.webmanifest").get_json()
    assert doc["short_name"] == "Friday battle" and doc["start_url"] == f"/t/{code}"
    assert doc["display"] == "standalone"


def test_a_stranger_gets_no_table_manifest(app, table):
    code = table.create(name="Secret")
    assert app.test_client().get(f"/t/{code}/manifest.webmanifest").status_code == 404


def test_favicon_ico_is_the_app_icon_not_a_404(client):
    with client.get("/favicon.ico") as resp:
        assert resp.status_code == 200
        assert resp.data[:4] == b"\x00\x00\x01\x00"  # an ICO directory
        assert b"\x89PNG" in resp.data
