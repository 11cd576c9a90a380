"""The host restarts in the middle of a game (its box rebooted, `companion serve` started again): the
phones say they are out of touch while it is down, a tap made then is never counted behind the
player's back, and once it is back every phone is live again by itself, on the same board, with
nothing acknowledged lost and the changes pushed again."""
from __future__ import annotations

import threading

import pytest
from playwright.sync_api import expect
from werkzeug.serving import make_server

from companion import create_app
from companion.board import keep
from cut_link import Proxy
from phone_checks import open_card, two_players
from test_core_browser import add_unit, hp_of

pytestmark = pytest.mark.browser


class Host:
    """The app served on loopback as one process would serve it; ``restart`` stops it (every connection
    to it cut, what it kept in memory gone) and serves the same database again.  The phones reach it
    through a proxy, so their address stays the same across the restart, as a host's LAN address does."""

    def __init__(self, config: dict):
        self.config = config
        self.server = None
        self._serve()
        self.proxy = Proxy(self.server.server_port)
        self.url = f"http://127.0.0.1:{self.proxy.port}"

    def _serve(self):
        app = create_app(dict(self.config))
        self.server = make_server("127.0.0.1", 0, app, threaded=True)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return app

    def stop(self):
        self.proxy.down = True  # the host's address answers nothing
        self.proxy.cut()
        self.server.shutdown()
        self.server.server_close()
        keep.forget()  # a new process remembers no board

    def start(self):
        self._serve()
        self.proxy.target = self.server.server_port
        self.proxy.down = False

    def close(self):
        self.proxy.close()
        self.server.shutdown()
        self.server.server_close()


def minus_one(page, name):
    return page.locator("form.unit", has=page.locator("h3", has_text=name)).get_by_label("HP minus one")


def test_the_host_restarts_mid_game_and_the_phones_carry_on(tmp_path, phone):
    host = Host({"TESTING": True, "DATABASE": str(tmp_path / "restart.sqlite"), "SECRET_KEY": "restart-key",
                 "POLL_SECONDS": 1, "LIVE_PING": 5})
    host.config["PUBLIC_URL"] = host.url  # the invitation names the address the phones use
    try:
        anna, ben = phone(), phone()
        two_players(anna, ben, host.url)
        add_unit(anna, "Nimitz", 8)
        open_card(anna, "Nimitz")
        minus_one(anna, "Nimitz").click()
        expect(hp_of(ben, "Nimitz")).to_have_text("7", timeout=3000)

        host.stop()
        for page in (anna, ben):  # both say so within a few poll periods
            expect(page.locator("#stale")).to_be_visible(timeout=6000)
        expect(anna.locator("#link-state")).not_to_have_text("● live")
        minus_one(anna, "Nimitz").click()  # a tap while the host is down
        expect(anna.locator(".not-sent")).to_be_visible(timeout=8000)  # told, not queued behind her back

        host.start()
        for page in (anna, ben):  # back by themselves, no reload
            expect(page.locator("#link-state")).to_have_text("● live", timeout=10000)
            expect(page.locator("#stale")).to_be_hidden()
            expect(hp_of(page, "Nimitz")).to_have_text("7")  # acknowledged before the restart: kept; the tap while down: not counted
        ben.wait_for_timeout(2000)  # his stream open again (the browser tries it again by itself)
        asked = []
        ben.on("request", lambda r: asked.append(r.url) if "/static/" not in r.url else None)
        ben.wait_for_timeout(3000)
        assert asked == [], asked  # no timed polls (every second here): the stream is through again
        minus_one(anna, "Nimitz").click()
        expect(hp_of(ben, "Nimitz")).to_have_text("6", timeout=3000)
        # the stream told him at once; the new process keeps no board of before the restart to work
        # out the step from, so his phone asked for it: one request, not a poll's wait
        assert len(asked) <= 1, asked
        expect(anna.locator(".not-sent")).to_have_count(0)  # the note went once the host answered
    finally:
        host.close()
