// No action moves the page away from the control the player used (issue 10 §2): when the board is
// redrawn, the tapped control (for a poll, what is in the middle of the screen) stays where it was on
// screen (gone, its nearest owner left: placed again as it settles) and keeps the focus, and folded
// sections stay as they were.
import {admit} from "./board-seq.js";
import {all, byId, find, keyOf, middle, on, topOf} from "./dom.js";

// the control (what its key finds), then each owner with an id, with its top: the first the redraw
// left goes back there
function near(el, board) {
  const key = keyOf(el), same = find(key), out = [[key, same ? topOf(same) : 0]];
  for (let o = el?.parentElement?.closest("[id]"); o && o !== board; o = o.parentElement?.closest("[id]")) out.push(["#" + o.id, topOf(o)]);
  return out;
}
function place(a) {
  for (const [k, top] of a.near) {
    const el = find(k);  // (a control gone, find gives its owner: that one is next in the list, with its own top)
    if (el?.isConnected && (!el.id || k === "#" + el.id)) return scrollBy(0, topOf(el) - top);
  }
  scrollTo(0, a.y);
}

const openDetails = (root) => all("details[open]", root).map((d) => {
  const owner = d.parentElement.closest("[id]");
  return d.id ? d.id + "|self" : (owner ? owner.id : "") + "|" + all("details", owner || root).indexOf(d);
});

export function install() {
  let anchor = null, settling = null, rowsAtSubmit = [];
  // the rows there were when a unit was added (a poll may bring the new one before the answer)
  on("htmx:beforeRequest", (e) => {
    if (e.detail.requestConfig?.verb === "post") rowsAtSubmit = all("details.unitrow").map((d) => d.id);
  });
  function boardSwap(e) {
    anchor = settling = null;
    if (!admit(e)) return;
    const board = e.detail.target, cfg = e.detail.requestConfig, tapped = cfg?.triggeringEvent?.submitter;
    if (board?.id !== "board") return;
    let el = tapped || (cfg?.elt && board.contains(cfg.elt) && cfg.elt !== board ? cfg.elt : null);
    if (!el?.getBoundingClientRect?.().height) {
      // else what is in the middle of the screen, on the board or in a tool below it
      const mid = middle();
      el = mid && mid !== document.body && mid !== document.documentElement && mid !== board ? mid : null;
    }
    const at = document.activeElement;
    anchor = {near: near(el, board), cfg, focus: at && board.contains(at) ? keyOf(at) : null, open: openDetails(board),
      y: scrollY, rows: tapped?.closest("form[id^='add-'], form[id^='roster']") ? rowsAtSubmit : null};  // (a unit just added opens)
  }
  // htmx announces a swap on its target: a board that left the page listens for itself
  on("htmx:beforeRequest", (e) => {
    const t = e.detail.target;
    if (t?.id !== "board" || t.crossingWatched) return;
    t.crossingWatched = true;
    t.addEventListener("htmx:beforeSwap", (s) => { if (!t.isConnected) boardSwap(s); });
  });
  on("htmx:beforeSwap", boardSwap);
  on("htmx:afterSwap", () => {
    const board = byId("board"), a = anchor;
    if (!a || !board) return;
    anchor = null;
    for (const k of a.open) {
      const [id, n] = k.split("|"), owner = id ? byId(id) : board;
      const d = n === "self" ? owner : owner?.querySelectorAll("details")[+n];
      if (d) d.open = true;
    }
    for (const d of a.rows ? all("details.unitrow", board) : []) if (!a.rows.includes(d.id)) d.open = true;
    place(settling = a);  // (a tool outside the board too)
    find(a.focus)?.focus?.({preventScroll: true});
  });
  on("htmx:afterSettle", (e) => { if (settling && e.detail.requestConfig === settling.cfg) place(settling); });
  // a part swapped out of band (a step) keeps its sections (with an id) folded or open as they were
  const oobOpen = {};
  on("htmx:oobBeforeSwap", (e) => {
    const t = e.detail.target;
    if (t?.id && t.querySelectorAll) oobOpen[t.id] = all("details[id][open]", t).map((d) => d.id);
  });
  on("htmx:oobAfterSwap", (e) => {
    const id = e.detail.target?.id;
    for (const i of oobOpen[id] || []) { const d = byId(i); if (d) d.open = true; }
    delete oobOpen[id];
  });
}
