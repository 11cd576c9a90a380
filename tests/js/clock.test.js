// A move's time on the phone's own clock (static/js/clock.js).
import assert from "node:assert/strict";
import {test} from "node:test";
import {ownTime} from "../../static/js/clock.js";

test("a move's UTC time reads on the phone's clock, in the page's language", () => {
  process.env.TZ = "Europe/Berlin";  // (UTC+1 in November)
  assert.equal(ownTime("2026-11-29T08:24:46.775+00:00", "de"), "09:24:46");
  assert.equal(ownTime("2026-11-29T08:24:46.775+00:00", "fr"), "09:24:46");
  assert.equal(ownTime("2026-11-29T08:24:46.775+00:00", "en"), "09:24:46 AM");
  assert.equal(ownTime("2026-11-29T08:24:46", "de"), "09:24:46");  // no zone written: UTC, as stored
  process.env.TZ = "America/New_York";
  assert.equal(ownTime("2026-11-29T08:24:46.775+00:00", "en"), "03:24:46 AM");
});

test("a text that is no time is left as it is", () => {
  assert.equal(ownTime("soon", "de"), null);
});
