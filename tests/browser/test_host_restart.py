"""The host restarts in the middle of a game (its box rebooted, `companion serve` started again): the
phones say they are out of touch while it is down, a tap made then is never counted behind the
player's back, and once it is back every phone is live again by itself, on the same board, with
nothing acknowledged lost and the changes pushed again."""
from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

import serve_probe
from cut_link import Proxy
from phone_checks import open_card, two_players
from test_core_browser import add_unit, hp_of

pytestmark = pytest.mark.browser


class Host:
    """`companion serve` in its own process on a loopback port, as a host runs it; ``restart`` stops it as
    Ctrl+C or a reboot does (every connection cut, what its workers kept in memory gone) and starts the
    same command on the same database again.  The phones reach it through a proxy, so their address stays
    the same across the restart, as a host's LAN address does."""

    def __init__(self, folder: Path):
        self.folder, self.port = folder, serve_probe.free_port()
        self.proxy = Proxy(self.port)
        self.url = f"http://127.0.0.1:{self.proxy.port}"
        self.env = {**os.environ, "COMPANION_SECRET_KEY": "restart-key", "COMPANION_POLL_SECONDS": "1",
                    "COMPANION_LIVE_PING": "5", "COMPANION_PORT": str(self.port),
                    "COMPANION_PUBLIC_URL": self.url}  # the invitation names the address the phones use
        self.env.pop("COMPANION_WORKER_CLASS", None)
        self.runs = 0
        self.server = self._serve()

    def _serve(self):
        self.runs += 1
        return serve_probe.start(serve_probe.companion_command() + ["serve", "--host", "127.0.0.1", "--db",
                                                                     str(self.folder / "restart.sqlite")],
                                 self.env, self.folder / f"serve-{self.runs}.log", self.folder)

    def stop(self):
        self.proxy.down = True  # the host's address answers nothing
        self.proxy.cut()
        serve_probe.stop(self.server)

    def start(self):
        self.server = self._serve()
        self.proxy.down = False

    def close(self):
        self.proxy.down = True
        self.proxy.close()
        serve_probe.stop(self.server)


def minus_one(page, name):
    return page.locator("form.unit", has=page.locator("h3", has_text=name)).get_by_label("HP minus one")


def test_the_host_restarts_mid_game_and_the_phones_carry_on(tmp_path, phone):
    host = Host(tmp_path)
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
