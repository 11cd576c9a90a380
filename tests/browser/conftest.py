"""Real-browser tests: the app served on loopback, Debian's Chromium driven by Playwright."""
from __future__ import annotations

import threading

import pytest
from werkzeug.serving import make_server

from companion import create_app

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


@pytest.fixture
def live_server(tmp_path, request):
    """The app on a free loopback port, in a thread, for one test (settings of its own through indirect
    parametrization: ``@pytest.mark.parametrize("live_server", [{...}], indirect=True)``)."""
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "live.sqlite"), "SECRET_KEY": "live-key",
                      "POLL_SECONDS": 1, "LIVE_PING": 5, **getattr(request, "param", {})})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    app.config["PUBLIC_URL"] = f"http://127.0.0.1:{server.server_port}"
    yield app.config["PUBLIC_URL"]
    server.shutdown()


@pytest.fixture
def phone(browser, browser_context_args):
    """A factory of phones: each call is a separate browser context (its own cookies)."""
    contexts = []

    def make():
        ctx = browser.new_context(**browser_context_args)
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

