"""The live stream gzipped in a real browser (issue 38): Chromium's EventSource asks for gzip, the host
sends the stream gzipped, and each change still reaches the other phone at once, as the step itself."""
from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from phone_checks import two_players
from test_core_browser import add_unit, hp_of

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("live_server", [{"POLL_SECONDS": 30, "LIVE_PING": 5}], indirect=True)
def test_chromium_takes_the_stream_gzipped_and_each_change_comes_on_it(live_server, phone):
    anna, ben = phone(), phone()
    streams = []  # (what Ben's browser asked with, what the host answered with) for each stream it opened
    ben.on("response", lambda r: streams.append((r.request.all_headers(), r.all_headers()))
           if "/live" in r.url else None)
    two_players(anna, ben, live_server)
    add_unit(anna, "Nimitz", 8)
    expect(hp_of(ben, "Nimitz")).to_have_text("8", timeout=3000)
    asked = []
    ben.on("request", lambda r: asked.append(r.url) if "/static/" not in r.url else None)
    for left in ("7", "6"):
        anna.locator("form.unit", has=anna.locator("h3", has_text="Nimitz")).get_by_label("HP minus one").click()
        expect(hp_of(anna, "Nimitz")).to_have_text(left)
        answered = time.monotonic()
        expect(hp_of(ben, "Nimitz")).to_have_text(left, timeout=3000)  # far within the 30 s poll
        assert time.monotonic() - answered < 2.0
    assert asked == [], asked  # the steps came on the stream
    assert streams, "Ben's board opened no live stream"
    request_headers, response_headers = streams[-1]
    assert "gzip" in request_headers.get("accept-encoding", ""), request_headers
    assert response_headers.get("content-encoding") == "gzip", response_headers
    expect(ben.locator("#link-state")).to_have_text("● live")
