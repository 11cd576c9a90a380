// Unit rows: "My side" / "All" (remembered per table on this phone; <html data-unit-filter> carries it
// for the stylesheet, issue 28 §7) and "Fold all".
import {all, on} from "./dom.js";

export function install({root}) {
  const key = () => "companion-filter-" + location.pathname;
  function show() {
    const mode = root.dataset.unitFilter = localStorage.getItem(key()) || "all";
    for (const b of all("button[data-unit-filter]")) b.setAttribute("aria-pressed", String(b.dataset.unitFilter === mode));
  }
  on("click", (e) => {
    const b = e.target.closest?.("[data-unit-filter], [data-rows]");
    if (b?.dataset.rows) for (const d of all("details.unitrow[open]")) d.open = false;
    else if (b) { localStorage.setItem(key(), b.dataset.unitFilter); show(); }
  });
  on("DOMContentLoaded", show);
  on("htmx:afterSettle", show);
}
