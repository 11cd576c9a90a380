"""Issue 40 §6: on an upright tablet's TV page (800x1280) a long ship name broke inside a word.  A name wraps
between its words (or at a hyphen it has); only a single word wider than its whole column may be cut, and
then with an ellipsis, never split onto two lines.  Checked by the line boxes of each word of every name, at
800x1280, 1280x720 and 1920x1080, for sides of a few and of many long-named ships."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from phone_checks import shots, two_players
from test_display import display_url, tv_page

pytestmark = pytest.mark.browser

NAMES = ["Indefatigable Retribution", "Heldenhammer Extraordinaire", "The Unconquerable Leviathan",
         "Incomprehensibilities", "Grand Admiral Thunderbringer", "Swiftdeath of the Northern Reaches",
         "Magnificent Dreadnoughtiness", "Long-Named Bloody Reaver"]

# every word of every name (split at spaces and after hyphens): the tops of its line boxes, and whether it
# is wider than its name's whole column (then it may end in an ellipsis, on one line)
WORDS = r"""() => [...document.querySelectorAll('.dsp-name')].flatMap(name => {
  const text = name.firstChild && name.firstChild.nodeType === 3 ? name.firstChild : null;
  if (!text) return [];
  const out = [], re = /[^\s-]+-?/g; let m;
  while ((m = re.exec(text.data))) {
    const r = document.createRange(); r.setStart(text, m.index); r.setEnd(text, m.index + m[0].length);
    const tops = [...new Set([...r.getClientRects()].filter(b => b.width > 0).map(b => Math.round(b.top)))];
    out.push({name: text.data, word: m[0], tops, wide: r.getBoundingClientRect().width > name.clientWidth + 1,
              overflowWrap: getComputedStyle(name).overflowWrap, ellipsis: getComputedStyle(name).textOverflow});
  }
  return out; })"""


@pytest.mark.parametrize("viewport", [{"width": 800, "height": 1280}, {"width": 1280, "height": 720},
                                      {"width": 1920, "height": 1080}], ids=["800x1280", "1280x720", "1920x1080"])
def test_no_ship_name_is_split_inside_a_word_on_the_tv(live_server, phone, browser, viewport):
    anna, ben = phone(), phone()
    two_players(anna, ben, live_server)
    code = anna.url.rstrip("/").split("/")[-1]
    csrf = anna.locator("input[name=csrf_token]").first.get_attribute("value")

    def add(side, names):
        for name in names:
            assert anna.request.post(f"{live_server}/t/{code}/act", form={
                "csrf_token": csrf, "type": "add-unit", "side": side, "stats.hp": "10", "name": name}).ok
    add("Side A", NAMES[:3])
    add("Side B", NAMES[3:5])
    tv = tv_page(browser, display_url(anna, live_server), viewport)
    for many in (False, True):
        if many:  # a side of many: smaller type, or two columns a side (static/js/display.js)
            add("Side A", NAMES[3:] + [f"{n} II" for n in NAMES[:6]])
            expect(tv.locator(".dsp-side").first.locator(".dsp-unit")).to_have_count(14)
        tv.wait_for_timeout(300)
        words = tv.evaluate(WORDS)
        assert len(words) >= 11
        split = [(w["name"], w["word"]) for w in words if len(w["tops"]) > 1]
        assert split == [], f"{viewport}: words split over two lines: {split}"
        assert all(w["overflowWrap"] == "normal" for w in words)
        wide = [w for w in words if w["wide"]]
        assert all(w["ellipsis"] == "ellipsis" for w in wide), wide  # a word wider than its column: an ellipsis
        tv.screenshot(path=str(shots("display") / f"names-{viewport['width']}x{viewport['height']}-{'many' if many else 'few'}.png"))
    assert tv.errors == [] or all(re.search("feed|ERR_", e) for e in tv.errors), tv.errors
