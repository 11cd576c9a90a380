// The bottom dock: the bar and the result sheet.
import {byId, later, on, one} from "./dom.js";

export function install({root}) {
  // the result sheet, dismissed, stays away when the board is redrawn, until a newer result comes
  let dismissed = null;
  on("click", (e) => {
    const el = e.target.closest?.("[data-dismiss]") && e.target.closest("#result");
    if (el) { dismissed = el.dataset.resultSeq; el.hidden = true; }
  });
  on("htmx:afterSettle", () => { const el = byId("result"); if (el?.dataset.resultSeq === dismissed) el.hidden = true; });
  // "Same hit?" answered "Keep both": the question goes, both moves stay (issue 28 item 3)
  on("click", (e) => { if (e.target.closest?.("[data-same-hit-keep]")) byId("same-hit").innerHTML = ""; });
  // Nothing hides under the dock: scrolling to a control stops above it, and the page scrolls far
  // enough to bring the last control above it.
  function room() {
    const h = Math.ceil(one(".dock")?.getBoundingClientRect().height || 0);
    root.style.setProperty("--dock", h + "px");
    root.style.scrollPaddingBottom = h ? h + 8 + "px" : "";
  }
  on("DOMContentLoaded", room);
  on("htmx:afterSettle", room);
  on("click", (e) => { if (e.target.closest?.("[data-dismiss]")) later(room); });
  addEventListener("resize", room);
}
