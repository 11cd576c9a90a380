// Live push (companion/live.py): while the board's stream is through, the host pushes each change as the
// step from the board this phone holds (or the new seq, and the board asks for the step); the timed
// polls stop and come back by themselves whenever the stream is down. page.link: connection.js.
import {byId, middle, on, topOf} from "./dom.js";
import {isTap} from "./connection.js";
import {isStale, nextBackoff, period, tooLate} from "./link-state.js";
import {askKey, eventSeq, parseStep, stepFate} from "./seq.js";

// The newest seq the stream told of, and the (board, told) last asked for (seq.js askKey): a board
// behind what was told asks for the step, and asks again once an answer left it still behind (a
// change told while the ask for an earlier one was out: its ask, queued on the board that answer
// replaced, never went, and the stream does not tell of it again).
let told = 0, asked = null;
function askIfBehind() {
  const now = byId("board"), key = now && askKey(told, +(now.dataset.seq || 0), asked);
  if (!key) return;
  asked = key;
  htmx.trigger(now, "live");
}
function heardOf(seq) {
  told = Math.max(told, seq);
  askIfBehind();
}

// a pushed step's parts go in out of band; what is in the middle of the screen stays there
function takeStep(data) {
  const now = byId("board"), step = parseStep(data), fate = now && stepFate(+(now.dataset.seq || 0), step);
  if (fate === "ask") heardOf(step.to);
  if (fate !== "swap") return;
  const keep = middle()?.closest?.("[id]"), top = keep ? topOf(keep) : 0;
  htmx.swap(now, step.parts, {swapStyle: "none", swapDelay: 0, settleDelay: 20});
  now.dataset.seq = step.to;
  const again = keep && byId(keep.id);
  if (again) scrollBy(0, topOf(again) - top);
}

export function install({link}) {
  let source = null, openedAt = 0, backoff = 2000, tapping = 0, waiting = null;  // openedAt: 0 until it opens
  function retry() {
    source.close();
    source = null;
    setTimeout(open, backoff);
    backoff = nextBackoff(backoff);
  }
  // through (the polls stop) once an event came, and the host sends one at once: behind a proxy that
  // buffers the events the polls go on; a first event too late closes it (link-state.js tooLate)
  function through() {
    link.heard();
    if (link.streaming || !source) return;
    if (tooLate(openedAt, Date.now())) return retry();
    link.streaming = true;
    backoff = 2000;
  }
  function open() {
    const b = byId("board");
    if (source || !b?.dataset.live || !window.EventSource) return;
    // (the browser sends Last-Event-ID itself when it reconnects; ?seq= is where a first stream starts)
    source = new EventSource(b.dataset.live + "?seq=" + encodeURIComponent(b.dataset.seq || ""));
    openedAt = 0;
    source.onopen = () => { openedAt = Date.now(); link.heard(); };
    source.onmessage = (e) => {  // the table moved on: the step, asked for at once
      through();
      heardOf(eventSeq(e.data));
    };
    source.addEventListener("step", (e) => {
      through();
      if (tapping > 0) waiting = e.data; else takeStep(e.data);  // this phone's own tap is out: its answer first
    });
    source.addEventListener("ping", through);
    source.addEventListener("gone", () => { source.close(); source = null; link.streaming = false; });
    // the polls take over meanwhile; a stream that was open is tried again by the browser itself, one
    // that never opened (a proxy that cannot hold it) less and less often
    source.onerror = () => {
      link.streaming = false;
      if (!openedAt || source.readyState === EventSource.CLOSED) retry();
    };
  }
  // A step pushed while this phone's own tap is out waits for the tap's answer (at least as new, and it
  // keeps what was tapped under the thumb). Counted by the request itself: the control may have left the
  // page before its answer, and htmx's afterRequest then no longer reaches the document.
  on("htmx:beforeSend", (e) => {
    // any answer may leave the board behind what the stream told of meanwhile (it is read once swapped)
    e.detail.xhr?.addEventListener("loadend", () => setTimeout(askIfBehind, 0));
    if (!isTap(e) || !e.detail.xhr) return;
    tapping++;
    e.detail.xhr.addEventListener("loadend", () => {
      tapping = Math.max(0, tapping - 1);
      if (tapping === 0 && waiting) { const data = waiting; waiting = null; setTimeout(() => takeStep(data), 0); }
    });
  });
  // offline, no stream (the browser may hold a dead one open); back online, a new one says what changed
  addEventListener("offline", () => {
    source?.close();
    source = null;
    link.streaming = false;
  });
  on("DOMContentLoaded", open);
  // no timed poll while the stream is through (one the phone asks for itself still goes)
  on("htmx:beforeRequest", (e) => {
    const cfg = e.detail.requestConfig;
    if (link.streaming && cfg?.verb === "get" && e.detail.elt?.id === "board" && !cfg.triggeringEvent) e.preventDefault();
  });
  addEventListener("online", () => {
    if (source?.readyState === EventSource.CLOSED) source = null;
    if (!source) open();
  });
  setInterval(() => {
    const b = byId("board");
    if (!b || document.visibilityState !== "visible") return;
    const {lastAnswer, streaming} = link, every = period(b.getAttribute("hx-trigger"));
    if (!isStale({now: Date.now(), lastAnswer, streaming, every, ping: b.dataset.livePing ? b.dataset.livePing * 1000 : 20000})) return;
    if (streaming) {  // gone silent (a Wi-Fi that dropped without a word): opened again, polls meanwhile
      source.close(); source = null; link.streaming = false;
      open();
    }
    if (link.state === "live") link.show("reconnecting");
  }, 1000);
}
