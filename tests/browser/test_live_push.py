"""Live push (issue 25): a change reaches the other phone through its stream, not its next poll; an
idle phone sends no request; a phone whose stream drops polls until it is back, then catches up."""
from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import expect

from cut_link import HoldingProxy
from phone_checks import open_card, two_players
from test_core_browser import add_unit, hp_of

pytestmark = pytest.mark.browser

SLOW_POLLS = {"POLL_SECONDS": 30, "LIVE_PING": 5}  # a poll would take 30 s: only the stream can be quick


@pytest.mark.parametrize("live_server", [SLOW_POLLS], indirect=True)
def test_a_tap_reaches_the_other_phone_through_its_stream(live_server, phone):
    anna, ben = phone(), phone()
    two_players(anna, ben, live_server)
    add_unit(anna, "Nimitz", 8)
    expect(hp_of(ben, "Nimitz")).to_have_text("8", timeout=3000)
    open_card(anna, "Nimitz")
    hp_of(ben, "Nimitz")  # Ben's row open, its card in
    asked = []  # what Ben's phone asks the host for while the changes reach it: nothing, they are pushed
    ben.on("request", lambda r: asked.append(r.url) if "/static/" not in r.url else None)
    delays = []
    for left in ("7", "6", "5"):
        anna.locator("form.unit", has=anna.locator("h3", has_text="Nimitz")).get_by_label("HP minus one").click()
        expect(hp_of(anna, "Nimitz")).to_have_text(left)
        answered = time.monotonic()
        expect(hp_of(ben, "Nimitz")).to_have_text(left, timeout=3000)  # far within the 30 s poll
        delays.append(time.monotonic() - answered)
    assert max(delays) < 2.0, delays  # (the benchmark measures the delay; this only says it is not a poll's)
    assert asked == [], asked  # each change came as the step itself, his open card in it
    expect(ben.locator("details.unitrow[open]", has=ben.locator(".rname", has_text="Nimitz"))).to_have_count(1)


def test_an_idle_phone_on_a_live_stream_sends_nothing(live_server, phone):
    """Its board would poll every second (the test server's period) without the stream."""
    anna, ben = phone(), phone()
    two_players(anna, ben, live_server)
    sent = []
    ben.wait_for_timeout(1000)  # (the page's own assets, say the home-screen icon, come after it loads)
    ben.on("request", lambda r: sent.append(r.url) if "/static/" not in r.url else None)
    ben.wait_for_timeout(6000)  # longer than a ping and several poll periods of a phone without a stream
    assert sent == []
    expect(ben.locator("#link-state")).to_have_text("● live")


def test_a_phone_whose_stream_cannot_be_held_polls_and_stays_live(live_server, phone):
    """A proxy that cannot hold a stream: the board polls every period instead, by itself."""
    anna, ben = phone(), phone()
    ben.route("**/live*", lambda route: route.abort("connectionrefused"))
    two_players(anna, ben, live_server)
    add_unit(anna, "Nimitz", 8)
    expect(hp_of(ben, "Nimitz")).to_have_text("8", timeout=4000)
    ben.wait_for_timeout(2500)
    expect(ben.locator("#link-state")).to_have_text("● live")  # its polls are answered: it is in touch


def minus_one(page, name):
    return page.locator("form.unit", has=page.locator("h3", has_text=name)).get_by_label("HP minus one")


@pytest.mark.parametrize("live_server", [SLOW_POLLS], indirect=True)
def test_a_taps_answer_that_comes_after_a_newer_board_does_not_take_the_board_back(live_server, phone):
    """Anna's tap is counted, but its answer is slow; meanwhile Ben's change reaches her (here by a poll,
    as on waking), redrawing the card she tapped.  The late answer, drawn before Ben's change, must
    not put the older count back, and her stream must go on pushing to her afterwards."""
    anna, ben = phone(), phone()
    two_players(anna, ben, live_server)
    add_unit(anna, "Nimitz", 8)
    expect(hp_of(ben, "Nimitz")).to_have_text("8", timeout=3000)
    open_card(anna, "Nimitz")
    hp_of(ben, "Nimitz")
    held = []
    anna.route("**/act", lambda route: held.append((route, route.fetch())))  # the host counts it; the answer waits
    minus_one(anna, "Nimitz").click()
    expect(hp_of(ben, "Nimitz")).to_have_text("7", timeout=3000)
    minus_one(ben, "Nimitz").click()
    expect(hp_of(ben, "Nimitz")).to_have_text("6")
    anna.evaluate("htmx.trigger(document.getElementById('board'), 'live')")
    expect(hp_of(anna, "Nimitz")).to_have_text("6", timeout=3000)
    anna.evaluate("window.swapped = 0; document.addEventListener('htmx:afterSwap', () => window.swapped++)")
    # the held answer is in once the route's fetch has its response, which this page's own calls let in
    # (a run of the whole suite once got here before it: waited for, not assumed)
    for _ in range(200):
        if held:
            break
        anna.wait_for_timeout(50)
    assert held, "the host never answered Anna's tap (held for 10 s)"
    route, answer = held.pop()
    route.fulfill(response=answer)  # drawn at 7
    anna.unroute("**/act")
    anna.wait_for_function("window.swapped > 0")
    anna.wait_for_timeout(300)
    expect(hp_of(anna, "Nimitz")).to_have_text("6", timeout=3000)
    minus_one(ben, "Nimitz").click()
    expect(hp_of(anna, "Nimitz")).to_have_text("5", timeout=3000)  # pushed: her stream was not left waiting


def test_a_phone_behind_a_proxy_that_holds_the_stream_back_polls_by_itself(live_server, phone):
    """Issue 25: polling stays the fallback where a stream cannot be held, chosen automatically.  Ben's
    phone reaches the host through a proxy that passes the stream's headers but not its events: his
    board must go on polling (every second here), not wait for pushes that never come."""
    port = int(live_server.rsplit(":", 1)[1])
    proxy = HoldingProxy(port)
    try:
        anna, ben = phone(), phone()
        url = two_players(anna, ben, live_server)
        ben.goto(url.replace(f":{port}", f":{proxy.port}"))  # (his seat is in his cookie: the host's name is the same)
        expect(ben.locator("#board")).to_be_visible()
        add_unit(anna, "Nimitz", 8)
        expect(hp_of(ben, "Nimitz")).to_have_text("8", timeout=4000)
        open_card(anna, "Nimitz")
        for left in ("7", "6"):
            ben.wait_for_timeout(6000)  # past the 10 s in which a stream's first event must come
            minus_one(anna, "Nimitz").click()
            expect(hp_of(ben, "Nimitz")).to_have_text(left, timeout=4000)  # his polls bring it
        expect(ben.locator("#link-state")).to_have_text("● live")
    finally:
        proxy.close()


def test_a_phone_whose_stream_events_come_late_polls_on(live_server, phone):
    """A proxy that lets a stream's events through only every 12 s (its buffer timing out): the first
    event comes more than 10 s after the stream opened, so Ben's phone does not count the stream as
    through, closes it and tries another later; his polls go on meanwhile, and Anna's change reaches
    him within a poll, not at the proxy's next letting go (static/js/push.js ``through``)."""
    port = int(live_server.rsplit(":", 1)[1])
    proxy = HoldingProxy(port, let_go=12)
    try:
        anna, ben = phone(), phone()
        url = two_players(anna, ben, live_server)
        add_unit(anna, "Nimitz", 8)
        open_card(anna, "Nimitz")
        ben.goto(url.replace(f":{port}", f":{proxy.port}"))
        expect(hp_of(ben, "Nimitz")).to_have_text("8")
        ben.wait_for_timeout(13000)  # the stream's first events have come, 12 s late
        minus_one(anna, "Nimitz").click()
        expect(hp_of(ben, "Nimitz")).to_have_text("7", timeout=4000)  # a poll brings it (2 s), not the proxy (12 s)
        expect(ben.locator("#link-state")).to_have_text("● live")
    finally:
        proxy.close()


# A stream that tells only the new seq (a worker that kept no board of the phone's, say after a restart or
# on another worker): its steps reach the page as plain events; the last seq told is kept in window.told.
SEQS_ONLY = """window.EventSource = class extends window.EventSource {
  constructor(...args) {
    super(...args);
    super.addEventListener("message", (e) => { window.told = +e.data; });
  }
  addEventListener(type, fn, ...more) {
    if (type !== "step") return super.addEventListener(type, fn, ...more);
    return super.addEventListener("step", (e) => {
      const to = e.data.split("\\n", 1)[0].split(" ")[1];
      window.told = +to;
      this.onmessage?.(new MessageEvent("message", {data: to}));
    }, ...more);
  }
};"""


@pytest.mark.parametrize("live_server", [SLOW_POLLS], indirect=True)
def test_a_change_told_while_the_board_asks_for_the_one_before_is_asked_for_too(live_server, phone):
    """Ben's phone is told of Anna's first change and asks for it; before the answer comes she makes a
    second. The answer (the whole board, at the first change) replaces the board the second ask was
    queued on, which htmx then never sends, and the stream does not tell of a change twice: the phone
    must ask again by itself, or it shows the first change only until its next 30 s poll (CI, 2026-11-29:
    Ben never saw the Zhukov)."""
    anna, ben = phone(), phone()
    ben.add_init_script(SEQS_ONLY)
    two_players(anna, ben, live_server)
    held = []

    def hold_first(route):
        if held:
            return route.continue_()
        # drawn now, as a whole board (no seq to step from), and answered only when the test says so
        held.append((route, route.fetch(url=re.sub(r"([?&]seq=)\d+", r"\1", route.request.url))))
    ben.route("**/poll?*", hold_first)
    add_unit(anna, "Nimitz", 8)
    ben.wait_for_function("() => window.told > 0")
    told = ben.evaluate("window.told")
    for _ in range(30):  # Ben asks for the Nimitz; the answer waits
        if held:
            break
        ben.wait_for_timeout(100)
    assert len(held) == 1
    add_unit(anna, "Zhukov", 6)
    ben.wait_for_function(f"() => window.told > {told}")  # told of the Zhukov while the ask is out
    route, answer = held[0]
    route.fulfill(response=answer)
    expect(hp_of(ben, "Nimitz")).to_have_text("8", timeout=3000)
    expect(hp_of(ben, "Zhukov")).to_have_text("6", timeout=3000)  # far within the 30 s poll
