// Rule tables: say so when a table scrolls sideways; the two-input lookup answers as you choose.
import {all, on, one} from "./dom.js";

function tables() {
  for (const box of all("[data-scroll]")) {
    const hint = one("[data-swipe]", box.parentElement);
    if (hint) hint.hidden = box.scrollWidth <= box.clientWidth + 1;
  }
  const table = one("table.rules");
  for (const form of table ? all("form[data-lookup]") : []) {
    const row = form.elements.row.value, col = form.elements.col.value;
    const ci = [...table.tHead.rows[0].cells].map((c) => c.textContent.trim()).indexOf(col, 1);
    const tr = [...table.tBodies[0].rows].find((r) => r.cells[0].textContent.trim() === row), cell = ci > 0 ? tr?.cells[ci] : null;
    one("[data-answer]", form).textContent = cell ? cell.textContent : "–";
    for (const c of all(".hit", table)) c.classList.remove("hit");
    cell?.classList.add("hit");
  }
}

export function install() {
  on("DOMContentLoaded", tables);
  addEventListener("resize", tables);
  on("change", (e) => { if (e.target.closest?.("form[data-lookup]")) tables(); });
}
