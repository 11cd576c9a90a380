"""The installed app, not the checkout: build the wheel, install it into a fresh venv, serve, create a table.

A wheel must carry templates/, static/ and content/ (mapped into the package by pyproject.toml) and
every game package (found by package discovery, none listed by hand).  The new venv finds the
dependencies (flask, gunicorn ...) in the site-packages of the Python running the tests, whether that
is a venv (scripts/test's) or the system's: a .pth file names those folders, and their own .pth files
(the checkout's editable install among them) are not read, so ``companion`` itself can only come from
the wheel.  The test checks that, and runs the server from a folder that is not the checkout.
"""
from __future__ import annotations

import json
import os
import site
import socket
import subprocess
import sys
import time
import urllib.request
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


def _get(url: str, **headers) -> bytes:
    with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=5) as resp:
        return resp.read()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
                    "-w", str(out), str(REPO)], check=True, capture_output=True)
    return next(out.glob("companion-*.whl"))


def test_wheel_carries_templates_static_content_and_every_game(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    for must in ("companion/templates/board.html", "companion/static/js/phone.js",
                 "companion/content/freeform/system.toml", "companion/games/__init__.py"):
        assert must in names, must
    for game in (p for p in (REPO / "companion" / "games").iterdir() if (p / "__init__.py").exists()):
        assert f"companion/games/{game.name}/__init__.py" in names
    for pack in (p for p in (REPO / "content").iterdir() if (p / "system.toml").exists()):
        assert f"companion/content/{pack.name}/system.toml" in names


def test_installed_wheel_serves_and_creates_a_table(wheel, tmp_path):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    py = venv / "bin" / "python"
    venv_site = subprocess.run([str(py), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                               check=True, capture_output=True, text=True).stdout.strip()
    # the running Python's dependencies, appended after the venv's own site-packages
    (Path(venv_site) / "_test_dependencies.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    # the running Python's pip installs into the new venv (the venv has none of its own)
    subprocess.run([sys.executable, "-m", "pip", "--python", str(py), "install", "-q", "--no-deps", str(wheel)],
                   check=True, capture_output=True)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "COMPANION_CONTENT", "COMPANION_GAMES")}
    where = subprocess.run([str(py), "-c", "import companion; print(companion.__file__)"], cwd=tmp_path,
                           env=env, check=True, capture_output=True, text=True).stdout.strip()
    assert where.startswith(str(venv)), where  # the wheel's copy, not the checkout's

    port = _free_port()
    log = open(tmp_path / "server.log", "wb")
    server = subprocess.Popen([str(venv / "bin" / "companion"), "serve", "--host", "127.0.0.1",
                               "--port", str(port), "--db", str(tmp_path / "t.sqlite")],
                              cwd=tmp_path, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        base = f"http://127.0.0.1:{port}"
        for _ in range(100):
            try:
                systems = json.loads(_get(f"{base}/api/systems"))
                break
            except OSError:
                time.sleep(0.1)
        else:
            pytest.fail("the installed server did not answer: " + (tmp_path / "server.log").read_text())
        assert {"freeform", "dreadfleet"} <= {s["slug"] for s in systems}
        req = urllib.request.Request(f"{base}/api/tables", data=json.dumps(
            {"system": "dreadfleet", "name": "From the wheel"}).encode(),
            headers={"Content-Type": "application/json"}, method="POST")
        with urllib.request.urlopen(req, timeout=5) as resp:
            created = json.load(resp)
        secret = created["seat_token"]
        got = json.loads(_get(f"{base}/api/tables/{created['code']}", Authorization=f"Bearer {secret}"))
        assert got["system"] == "dreadfleet" and got["state"]["name"] == "From the wheel"
        script = _get(f"{base}/static/js/phone.js")
        assert script == (REPO / "static" / "js" / "phone.js").read_bytes()  # served from the installed package
        assert b"<form" in _get(f"{base}/")  # templates render from the installed package
    finally:
        server.terminate()
        server.wait(timeout=10)
        log.close()
