// The board's seq: what an answer or a pushed step brings, and whether it goes in (static/js/seq.js).
import assert from "node:assert/strict";
import {test} from "node:test";
import {answerSeq, askKey, behind, eventSeq, parseStep, pollPath, stale, stepFate} from "../../static/js/seq.js";

test("an answer's seq is its X-Board-Seq header, else its whole board's data-seq", () => {
  assert.equal(answerSeq("12", '<div id="board" data-seq="9">'), 12);
  assert.equal(answerSeq(null, '<main><div id="board" data-seq="9" hx-get="/t/x/poll?seq=9">'), 9);
  assert.equal(answerSeq(null, '<form id="game-tools">'), null);
  assert.equal(answerSeq(null, undefined), null);
});

test("a poll's answer no newer than the board shown is stale; one newer is not", () => {
  assert.equal(stale(7, 7), true);
  assert.equal(stale(6, 7), true);
  assert.equal(stale(8, 7), false);
  assert.equal(stale(null, 7), false);  // (nothing says how new it is: it goes in)
});

test("an action's answer older than the board shown is behind: the board asks for what changed", () => {
  assert.equal(behind(6, 7), true);
  assert.equal(behind(7, 7), false);
  assert.equal(behind(null, 7), false);
});

test("the poll asks from the seq the board shows, whatever it was drawn with", () => {
  assert.equal(pollPath("/t/AB12/poll?seq=3", "9"), "/t/AB12/poll?seq=9");
  assert.equal(pollPath("/t/AB12/poll?v=1&seq=3&x=2", 10), "/t/AB12/poll?v=1&seq=10&x=2");
  assert.equal(pollPath("/t/AB12/card/u1", 5), "/t/AB12/card/u1");
});

test("a pushed step is read from its first line", () => {
  assert.deepEqual(parseStep("4 6\n<div id=\"rolls\" hx-swap-oob=\"true\"></div>"),
                   {since: 4, to: 6, parts: "<div id=\"rolls\" hx-swap-oob=\"true\"></div>"});
  assert.deepEqual(parseStep("4 6"), {since: 4, to: 6, parts: null});
});

test("steps are taken in order: one the board has is ignored, one after a gap is asked for", () => {
  const step = parseStep("4 6\nparts");
  assert.equal(stepFate(6, step), "have");   // its own tap's answer brought it already
  assert.equal(stepFate(7, step), "have");
  assert.equal(stepFate(4, step), "swap");   // exactly the board it was made from
  assert.equal(stepFate(5, step), "swap");   // (the parts are whole: a board between takes them too)
  assert.equal(stepFate(3, step), "ask");    // it misses change 4: the board asks for the step itself
  assert.equal(stepFate(4, parseStep("4 6")), "ask");  // no parts came
});

test("an event's seq: a plain event's data, a step's second number", () => {
  assert.equal(eventSeq("12"), 12);
  assert.equal(eventSeq("4 6\nparts"), 6);
  assert.equal(eventSeq(""), 0);
  assert.equal(eventSeq(undefined), 0);
  assert.equal(eventSeq("gone"), 0);
});

test("a board behind what the stream told of asks once per board and news, again when still behind", () => {
  const first = askKey(3, 2, null);  // told of 3 at 2: ask
  assert.equal(first, "2:3");
  assert.equal(askKey(3, 2, first), null);  // (asked already)
  const second = askKey(4, 2, first);  // told of 4 while the ask is out: asked again (htmx queues it)
  assert.equal(second, "2:4");
  assert.equal(askKey(4, 3, second), "3:4");  // the answer brought 3, the queued ask went with its board
  assert.equal(askKey(4, 4, "3:4"), null);  // caught up
  assert.equal(askKey(4, 5, null), null);  // ahead of what was told
});
