"""The screen stays on at a table reached over the LAN (http://<host>:port is not a secure context,
so there is no Wake Lock API): the muted looping video starts from the first tap (issue 10 §1)."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from phone_checks import CHROMIUM, PHONE, open_table

pytestmark = pytest.mark.browser

HOST = "table.test"  # a made-up name mapped to loopback: neither localhost nor https


@pytest.fixture
def lan_phone(playwright, browser_type_launch_args, browser_context_args):
    args = browser_type_launch_args["args"] + [f"--host-resolver-rules=MAP {HOST} 127.0.0.1",
                                               "--autoplay-policy=user-gesture-required"]
    browser = playwright.chromium.launch(executable_path=CHROMIUM, args=args)
    context = browser.new_context(**browser_context_args)
    yield context.new_page()
    context.close()
    browser.close()


def test_at_a_lan_address_the_video_fallback_keeps_the_screen_on_after_the_first_tap(live_server, lan_phone):
    page = lan_phone
    base = live_server.replace("127.0.0.1", HOST)
    open_table(page, base)
    assert page.evaluate("window.isSecureContext") is False
    assert page.evaluate("'wakeLock' in navigator") is False
    expect(page.locator("[data-awake-mark]")).to_be_hidden()  # nothing claimed before the tap
    # ... but the page says what to do (issue 28 §8)
    expect(page.locator("[data-awake-ask]")).to_have_text("Tap once to keep the screen on.")
    expect(page.locator("[data-awake-ask]")).to_be_visible()

    page.locator("h1.tablename").tap()
    expect(page.locator("[data-awake-mark]")).to_be_visible()
    expect(page.locator("[data-awake-ask]")).to_be_hidden()
    assert page.evaluate("document.body.dataset.awake") == "video"
    video = page.evaluate("""() => { const v = window.companionNoSleep.noSleepVideo;
        return {paused: v.paused, muted: v.muted, inline: v.hasAttribute('playsinline')}; }""")
    assert video == {"paused": False, "muted": True, "inline": True}
    expect(page.locator("[data-awake-hint]")).to_be_hidden()

    # hidden and visible again (the phone was locked): the video plays again
    page.evaluate("window.companionNoSleep.noSleepVideo.pause()")
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    page.wait_for_function("!window.companionNoSleep.noSleepVideo.paused")


def test_where_neither_works_a_one_line_hint_says_so(live_server, lan_phone):
    page = lan_phone
    base = live_server.replace("127.0.0.1", HOST)
    open_table(page, base)
    page.wait_for_load_state("load")  # the vendored script is in
    page.evaluate("window.NoSleep = undefined")  # a browser that cannot play the video either
    page.locator("h1.tablename").tap()
    expect(page.locator("[data-awake-hint]")).to_be_visible()
    expect(page.locator("[data-awake-mark]")).to_be_hidden()
    expect(page.locator("[data-awake-ask]")).to_be_hidden()


def test_on_a_secure_origin_the_wake_lock_api_is_used(live_server, phone):
    page = phone()
    open_table(page, live_server)  # 127.0.0.1 counts as secure
    page.locator("h1.tablename").tap()
    page.wait_for_function("['lock', 'video', 'none'].includes(document.body.dataset.awake)")
    assert page.evaluate("'wakeLock' in navigator") is True
    # headless Chromium may refuse the lock itself; then the video stands in, never nothing silently
    assert page.evaluate("document.body.dataset.awake") in ("lock", "video")
