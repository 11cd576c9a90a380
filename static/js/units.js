// Forms below the board keep their unit lists in step with it: a select[data-units] gets the board's
// units (#unit-options) after its fixed options, each value prefixed with its data-unit-value (a deck's
// "unit:u3"); data-units="A": side A's only, "!A": the others'. A select[data-sides] names each side's
// seats as the board does, "Side B (Ben)" once Ben joins (issue 28 §4).
import {all, byId, on} from "./dom.js";

const takes = (spec, side) => !spec || (spec[0] === "!" ? spec.slice(1) !== side : spec === side);

export function syncUnits() {
  const source = byId("unit-options");
  if (!source) return;
  const labels = JSON.parse(source.dataset.sideLabels || "{}");
  // (only an option with a value of its own: without one, its text is what the form sends)
  for (const o of all("select[data-sides] option[value]")) if (labels[o.value] && o.text !== labels[o.value]) o.text = labels[o.value];
  for (const sel of all("select[data-units]")) {
    const n = sel.querySelectorAll("option:not([data-unit])").length, chosen = sel.value;
    const fixed = [...sel.options].slice(0, n).filter((o) => !o.hasAttribute("data-unit"));
    sel.replaceChildren(...fixed);
    for (const o of source.options) {
      if (!takes(sel.dataset.units, o.dataset.side)) continue;
      const copy = new Option(o.text, (sel.dataset.unitValue || "") + o.value);
      copy.setAttribute("data-unit", "");
      copy.dataset.side = o.dataset.side;
      sel.appendChild(copy);
    }
    if ([...sel.options].some((o) => o.value === chosen)) sel.value = chosen;
  }
}

// A set-up field naming a side's player, left empty by the server, starts with this phone's seat on its
// own side (on the body: the board is drawn once for every phone of a view).
function ownName() {
  const {seat, side} = document.body?.dataset || {};
  if (seat && side) {
    for (const i of all("input[data-seat-name-for]")) if (!i.value && i.dataset.seatNameFor === side) i.defaultValue = i.value = seat;
  }
}

export function install() {
  on("DOMContentLoaded", syncUnits);
  // (after a swap, before the paint: a deck's select would be drawn with "the discard" alone, then jump)
  on("htmx:afterSwap", syncUnits);
  on("htmx:afterSettle", syncUnits);
  on("DOMContentLoaded", ownName);
  on("htmx:afterSwap", ownName);
}
