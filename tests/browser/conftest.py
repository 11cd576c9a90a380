"""Real-browser tests: the app served on loopback, Debian's Chromium driven by Playwright."""
from __future__ import annotations

import os
import re
import signal
from pathlib import Path

import pytest

import serve_probe

from phone_checks import CHROMIUM, PHONE  # one place for both (a test cannot import 'conftest': two exist)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    # Debian's Chromium, never a downloaded build; flags keep it off the (closed) network.
    return {**browser_type_launch_args, "executable_path": CHROMIUM,
            "args": ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                     "--disable-background-networking", "--disable-component-update", "--disable-sync"]}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    return {**browser_context_args, "viewport": PHONE, "device_scale_factor": 2, "has_touch": True,
            "is_mobile": True}


class Served:
    """`companion serve` in its own process, as players run it (gunicorn's gevent workers, issue 36), on a
    database of its own (a host's library is shared by its tables, so a test starts on an empty one, as
    under werkzeug before).  Its output is read after the test: a traceback there is a server error the
    phones may never have shown, and fails the test."""

    def __init__(self, folder: Path, settings: dict):
        self.port = serve_probe.free_port()
        env = {**os.environ, "COMPANION_SECRET_KEY": "live-key",
               **{f"COMPANION_{k}": str(v) for k, v in settings.items()}}
        for key in ("COMPANION_WORKER_CLASS", "COMPANION_PUBLIC_URL", "COMPANION_DB", "WEB_CONCURRENCY"):
            env.pop(key, None)  # the defaults players get
        env["COMPANION_PORT"] = str(self.port)
        self.log = folder / "serve.log"
        self.server = serve_probe.start(serve_probe.companion_command() + [
            "serve", "--host", "127.0.0.1", "--port", str(self.port), "--db", str(folder / "live.sqlite")],
            env, self.log, folder)
        printed = re.search(r"companion is at (\S+)", self.log.read_text())
        assert printed, self.log.read_text()
        self.url = printed.group(1)  # the address it prints, as a phone would take it from the QR code

    def stop(self) -> None:
        """Stop it as Ctrl+C does, without waiting for its graceful end (reaped at the session's end)."""
        try:
            os.killpg(self.server.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        _STOPPING.append(self.server)


_STOPPING: list = []


@pytest.fixture(scope="session", autouse=True)
def _reap_servers():
    yield
    for server in _STOPPING:
        serve_probe.stop(server)


@pytest.fixture
def live_server(request, tmp_path):
    """The address of `companion serve` (the command players run, in its own process) with quick
    timings for tests; settings of its own through indirect parametrization:
    ``@pytest.mark.parametrize("live_server", [{...}], indirect=True)``."""
    folder = tmp_path / "served"
    folder.mkdir()
    one = Served(folder, {"POLL_SECONDS": 1, "LIVE_PING": 5, **getattr(request, "param", {})})
    yield one.url
    one.stop()
    said = one.log.read_text(errors="replace")
    assert "Traceback" not in said, f"the server failed during this test:\n{said[-4000:]}"


@pytest.fixture
def phone(browser, browser_context_args):
    """A factory of phones: each call is a separate browser context (its own cookies)."""
    contexts = []

    def make(**more):  # (more: the context's own, e.g. locale="de-DE": the phone's Accept-Language)
        ctx = browser.new_context(**{**browser_context_args, **more})
        contexts.append(ctx)
        page = ctx.new_page()
        # a player answers "yes" to the app's questions (undo another seat's move, finish the game)
        # unless a test sets page.answer_yes = False; the questions asked are kept for tests to check
        page.dialogs, page.answer_yes = [], True
        page.on("dialog", lambda d: (page.dialogs.append(d.message), d.accept() if page.answer_yes else d.dismiss()))
        return page
    yield make
    for ctx in contexts:
        ctx.close()

