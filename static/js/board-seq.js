// The board's seq says how new what it shows is (seq.js). It polls from it; an answer may bring only the
// parts that changed (out of band) and the new seq in X-Board-Seq; a pushed step sets it (push.js).
import {byId, later, on} from "./dom.js";
import {answerSeq, behind, pollPath, stale} from "./seq.js";

// Whether an answer goes in (htmx:beforeSwap): not a stale poll's. One for a board another answer
// replaced would take the kept (hx-preserve) fields off: an action's goes to the board on the page, a
// poll's is dropped. One older than the board shown has it ask at once for what changed since.
export function admit(e) {
  const d = e.detail, cfg = d.requestConfig, live = byId("board"), shown = live?.dataset.seq, header = d.xhr?.getResponseHeader("X-Board-Seq");
  const seq = answerSeq(header, d.serverResponse);
  if (shown && cfg?.verb === "get" && cfg.elt?.id === "board" && stale(seq, +shown)) return (d.shouldSwap = false);
  if (d.target?.id === "board" && !d.target.isConnected) {
    if (live && cfg?.verb === "post") d.target = live; else d.shouldSwap = false;
  }
  if (!d.shouldSwap || !shown) return d.shouldSwap;
  if (header) live.dataset.seq = seq;
  if (behind(seq, +shown)) later(() => { const b = byId("board"); if (b) htmx.trigger(b, "live"); });
  return true;
}

export function install() {
  on("htmx:configRequest", (e) => {
    const seq = e.detail.elt?.id === "board" && e.detail.verb === "get" && e.detail.elt.dataset.seq;
    if (seq) e.detail.path = pollPath(e.detail.path, seq);
  });
}
