// Whether the phone is in touch with the host, and when a board is stale (static/js/link-state.js).
import assert from "node:assert/strict";
import {test} from "node:test";
import {cut, isStale, lostState, nextBackoff, period, refusal, SAY, tooLate, woke, WORD} from "../../static/js/link-state.js";

test("the poll period comes from the board's hx-trigger, 2 s when it says none", () => {
  assert.equal(period("every 2s, live"), 2000);
  assert.equal(period("load, every 1.5s"), 1500);
  assert.equal(period(""), 2000);
  assert.equal(period(null), 2000);
});

test("polling, a board is stale after three periods and a second without an answer", () => {
  const at = {lastAnswer: 0, streaming: false, ping: 20000, every: 2000};
  assert.equal(isStale({...at, now: 7000}), false);
  assert.equal(isStale({...at, now: 7001}), true);
});

test("with the stream through, after 1.75 of its pings (the polls have stopped)", () => {
  const at = {lastAnswer: 0, streaming: true, ping: 20000, every: 2000};
  assert.equal(isStale({...at, now: 35000}), false);
  assert.equal(isStale({...at, now: 35001}), true);
});

test("a phone that slept is not stale for the time it slept: it waits one period", () => {
  assert.equal(woke(1000, 60000, 2000), 58000);
  assert.equal(woke(59000, 60000, 2000), 59000);
});

test("no answer at all: offline if the phone says so, else the host is not answering", () => {
  assert.equal(lostState(false), "offline");
  assert.equal(lostState(true), "nohost");
  assert.equal(lostState(undefined), "nohost");
});

test("taps are refused only while out of touch, with a sentence that says which", () => {
  assert.deepEqual(["live", "reconnecting", "offline", "nohost"].map(cut), [false, false, true, true]);
  assert.equal(refusal("nohost"), "Not sent: the host is not answering. Tap again when the board says live.");
  assert.equal(refusal("offline"), "Not sent: this phone is not in touch with the host. Tap again when the board says live.");
  assert.equal(SAY.offline, "Offline: your taps are not sent. This board may be out of date.");
  assert.equal(SAY.nohost, "The host is not answering: your taps are not sent. This board may be out of date.");
  assert.equal(SAY.live, "");
  assert.deepEqual(Object.keys(WORD).sort(), Object.keys(SAY).sort());
});

test("a stream is tried again later and later, a minute apart at most; a first event 10 s late closes it", () => {
  assert.deepEqual([2000, 4000, 32000, 60000].map(nextBackoff), [4000, 8000, 60000, 60000]);
  assert.equal(tooLate(1000, 11000), false);
  assert.equal(tooLate(1000, 11001), true);
});
