// Live push (companion/live.py): each change as the step from the board held (or its seq: the board
// asks); no timed polls while the stream is through. page.link: connection.js.
import {byId, middle, on, topOf} from "./dom.js";
import {isTap} from "./connection.js";
import {isStale, nextBackoff, period, tooLate} from "./link-state.js";
import {askKey, eventSeq, parseStep, stepFate} from "./seq.js";

// the newest seq told: a board an answer left behind it asks again (htmx drops an ask queued on a replaced board)
let told = 0, asked = null;
function askIfBehind(seq = 0) {
  told = Math.max(told, seq);
  const now = byId("board"), key = now && askKey(told, +(now.dataset.seq || 0), asked);
  if (key) { asked = key; htmx.trigger(now, "live"); }
}

// a pushed step's parts go in out of band; what is in the middle of the screen stays there
function takeStep(data) {
  const now = byId("board"), step = parseStep(data), fate = now && stepFate(+(now.dataset.seq || 0), step);
  if (fate === "ask") askIfBehind(step.to);
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
  // through (no polls) once an event came (one is sent at once): a proxy buffering them, polls go on
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
    // (?seq= where a first stream starts; the browser sends Last-Event-ID when it reconnects)
    source = new EventSource(b.dataset.live + "?seq=" + encodeURIComponent(b.dataset.seq || ""));
    openedAt = 0;
    source.onopen = () => { openedAt = Date.now(); link.heard(); };
    source.onmessage = (e) => {  // the table moved on: the step, asked for at once
      through();
      askIfBehind(eventSeq(e.data));
    };
    source.addEventListener("step", (e) => {
      through();
      if (tapping > 0) waiting = e.data; else takeStep(e.data);  // this phone's own tap is out: its answer first
    });
    source.addEventListener("ping", through);
    source.addEventListener("gone", () => { source.close(); source = null; link.streaming = false; });
    // polls meanwhile; one that never opened (a proxy that cannot hold it) is tried less and less often
    source.onerror = () => {
      link.streaming = false;
      if (!openedAt || source.readyState === EventSource.CLOSED) retry();
    };
  }
  // a step pushed while this phone's tap is out waits for its answer (as new, and it keeps what is under
  // the thumb); counted by the request: afterRequest misses a control gone before its answer
  on("htmx:beforeSend", (e) => {
    e.detail.xhr?.addEventListener("loadend", () => setTimeout(askIfBehind, 0));
    if (!isTap(e) || !e.detail.xhr) return;
    tapping++;
    e.detail.xhr.addEventListener("loadend", () => {
      tapping = Math.max(0, tapping - 1);
      if (tapping === 0 && waiting) { const data = waiting; waiting = null; setTimeout(() => takeStep(data), 0); }
    });
  });
  // offline, no stream (a dead one may stay open); back online, a new one says what changed
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
