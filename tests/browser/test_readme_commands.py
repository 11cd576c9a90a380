"""The README's commands are the product (issue 36): each is run as written, in a brand-new venv, as a new
user runs it (from the package index, no CI variable), and then played on: two Chromium phones open the
address the server prints, hold live streams, and a tap on one shows on the other.

- the first command: `python3 -m pip install -e . && companion serve`;
- "exactly the tested versions": `python3 -m pip install -r requirements/run.txt && python3 -m pip install
  --no-deps -e .`, then `companion serve`, and the hosted Procfile's line in that same venv; every module of
  the app imports there (a dependency the lock forgot fails here, not on a host).

Each venv install reaches PyPI (30-90 s).  On dcb459b the first command's server exited at start
(gunicorn's gevent worker needs packaging) and, once it started, froze with live phones.
"""
from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from playwright.sync_api import expect

import serve_probe
from phone_checks import two_players
from test_core_browser import add_unit, hp_of

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parents[2]
INSTALL_WITHIN = 600  # seconds for a venv's install from the index (the bound is 60 s to answering on a good line)


def readme_commands() -> list[str]:
    """The indented command lines of the README's "Two commands" section, and the locked install line
    written inside it in backticks, as they stand in the README today."""
    text = (REPO / "README.md").read_text()
    section = text.split("## Two commands", 1)[1].split("\n## ", 1)[0]
    first = [line.strip() for line in section.splitlines() if line.startswith("    ") and line.strip()]
    locked = re.search(r"`(python3 -m pip install -r requirements/run\.txt[^`]*)`", section)
    assert first and locked, "the README's Two commands section has changed shape: update this test with it"
    return [first[0], locked.group(1)]


def procfile_command() -> str:
    line = next(ln for ln in (REPO / "Procfile").read_text().splitlines() if ln.startswith("web:"))
    return line.split(":", 1)[1].strip()


def new_venv(folder: Path) -> dict:
    """A brand-new venv (the Python running the tests, which is 3.11 or newer) and the environment of a
    shell where it is activated, without CI and without the tests' own settings."""
    venv = folder / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("COMPANION_", "PYTHON", "VIRTUAL_ENV", "PIP_"))
           and k not in ("CI", "WEB_CONCURRENCY", "PORT")}
    env.update(VIRTUAL_ENV=str(venv), PATH=f"{venv / 'bin'}:{env.get('PATH', '/usr/bin:/bin')}",
               PIP_DISABLE_PIP_VERSION_CHECK="1")
    return env


def play_on(browser_new_phone, url: str) -> None:
    """Two phones through the printed address: a table, a second seat, a tap on one shown on the other
    (each phone holds a live stream: the top bar says live)."""
    anna, ben = browser_new_phone(), browser_new_phone()
    two_players(anna, ben, url)
    for page in (anna, ben):
        expect(page.locator("#link-state")).to_have_text("● live", timeout=10000)
    add_unit(anna, "Victory", 10)
    expect(hp_of(ben, "Victory")).to_have_text("10", timeout=5000)
    anna.get_by_label("HP minus one").click()
    expect(hp_of(ben, "Victory")).to_have_text("9", timeout=2500)


def serve_and_play(command: str, env: dict, folder: Path, phone, port: int, answer_within: float) -> str:
    """Run ``command`` in a shell (as typed), wait for it to answer, play on it, stop it: what it printed."""
    log = folder / f"run-{port}.log"
    server = serve_probe.start(["bash", "-c", command], env, log, REPO, answer_within=answer_within)
    try:
        printed = re.search(r"companion is at (\S+)", log.read_text())
        url = printed.group(1) if printed else f"http://127.0.0.1:{port}"
        play_on(phone, url)
        heard = serve_probe.streams_hear_every_change(port, tables=2, streams_per_table=6, changes=4)
        assert heard["errors"] == [] and heard["missed"] == [], heard
    finally:
        serve_probe.stop(server)
    out = log.read_text(errors="replace")
    assert "Traceback" not in out, out[-3000:]
    return out


def test_the_readme_first_command_on_a_brand_new_venv(tmp_path, phone):
    first, _ = readme_commands()
    assert first == "python3 -m pip install -e . && companion serve"  # (what the players are told to type)
    env = new_venv(tmp_path)
    port = serve_probe.free_port()
    # the host and port through the settings the README documents: loopback only, a port of its own
    env.update(COMPANION_HOST="127.0.0.1", COMPANION_PORT=str(port), COMPANION_DB=str(tmp_path / "night.sqlite"))
    out = serve_and_play(first, env, tmp_path, phone, port, INSTALL_WITHIN)
    assert f"companion is at http://127.0.0.1:{port}" in out and "█" in out  # the address and its QR code


def test_the_locked_install_serves_with_companion_serve_and_the_procfile(tmp_path, phone):
    _, locked = readme_commands()
    env = new_venv(tmp_path)
    install = subprocess.run(["bash", "-c", locked], env=env, cwd=REPO, capture_output=True, text=True,
                             timeout=INSTALL_WITHIN)
    assert install.returncode == 0, install.stderr[-3000:]
    python = str(tmp_path / "venv" / "bin" / "python")
    every_module = ("import importlib, pkgutil, companion\n"
                    "names = [m.name for m in pkgutil.walk_packages(companion.__path__, 'companion.')]\n"
                    "[importlib.import_module(n) for n in names]\n"
                    "print(len(names))")
    imported = subprocess.run([python, "-c", every_module], env=env, cwd=tmp_path, capture_output=True, text=True,
                              timeout=300)
    assert imported.returncode == 0, imported.stderr[-3000:]
    assert int(imported.stdout.split()[-1]) > 40

    port = serve_probe.free_port()
    env_serve = {**env, "COMPANION_HOST": "127.0.0.1", "COMPANION_PORT": str(port),
                 "COMPANION_DB": str(tmp_path / "locked.sqlite")}
    serve_and_play("companion serve", env_serve, tmp_path, phone, port, 60)

    port = serve_probe.free_port()
    env_host = {**env, "PORT": str(port), "COMPANION_DB": str(tmp_path / "hosted.sqlite"),
                "COMPANION_PUBLIC_URL": f"http://127.0.0.1:{port}"}
    serve_and_play(f"exec {procfile_command()}", env_host, tmp_path, phone, port, 60)
    assert shlex.split(procfile_command())[0] == "gunicorn"
