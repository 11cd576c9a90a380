// A unit's card comes only to a phone that has its row open (companion/board): each request says which
// are, a row opened later asks for its card, and an action says the board's seq (its answer: what changed).
import {all, byId, on, tablePath} from "./dom.js";

const openRows = () => all("details.unitrow[open]").map((d) => d.id.slice(4));

export function askCard(row) {
  const slot = row?.open && row.querySelector(":scope > .unitcard[data-lazy]"), board = byId("board");
  if (!slot || !board || slot.dataset.asked) return;
  slot.dataset.asked = "1";
  // (asked from its slot: from no element it is the page body's request, and a third card asked while one
  // is on its way would replace the second in the body's queue, never asked)
  htmx.ajax("GET", tablePath(board) + "/card/" + encodeURIComponent(row.id.slice(4)), {source: slot, target: slot, swap: "outerHTML"})
    .then(() => { if (slot.isConnected) delete slot.dataset.asked; });  // not answered (the unit left): asked again
}

export function install() {
  on("htmx:configRequest", (e) => {
    const seq = byId("board")?.dataset.seq;
    e.detail.headers["X-Open-Units"] = openRows().join(" ");
    if (seq && e.detail.verb === "post") e.detail.headers["X-Board-Seq"] = seq;
  });
  // kept in a cookie of the table's path too: a page loaded again comes back with them open
  on("toggle", (e) => {
    if (!e.target.matches?.("details.unitrow")) return;
    askCard(e.target);
    const board = byId("board");
    if (board) document.cookie = "open=" + openRows().join("~") + "; path=" + tablePath(board) + "; max-age=43200; SameSite=Lax";
  }, true);  // (toggle does not bubble: caught on its way down)
  on("click", (e) => {
    const link = e.target.closest?.(".cardlink");
    if (!link) return;
    e.preventDefault();  // (the link is for a phone without JavaScript: a page load with the card open)
    askCard(link.closest("details.unitrow"));
  });
}
