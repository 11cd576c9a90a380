// Questions before a move the player may not mean (issue 10 §5, issue 40 §8).
import {all, on} from "./dom.js";
import {word} from "./words.js";

export function install() {
  // Undo asks (its hx-confirm) when the move it takes back is another seat's: the phone's own goes without.
  on("htmx:confirm", (e) => {
    const label = e.target?.id === "undo" && e.target.dataset.undo, me = document.body?.dataset.seat;
    if (!label || !me || !label.startsWith(me + ": ")) return;
    e.preventDefault();
    e.detail.issueRequest(true);
  });
  // Next ▶ asks when a game's panel says the phase leaves something undone ([data-before-next]: a ship
  // not activated, an attack not applied); the table moves on only if the player says so.
  on("htmx:confirm", (e) => {
    const undone = e.target?.id === "next" ? all("#board [data-before-next]").map((n) => n.dataset.beforeNext).filter(Boolean) : [];
    if (!undone.length) return;
    e.preventDefault();
    if (confirm(undone.join(" ") + " " + word("Move on anyway?"))) e.detail.issueRequest(true);
  });
  // a plain form that takes back or corrects another seat's move (the log page) asks, as Undo does
  on("submit", (e) => { if (e.target?.dataset?.ask && !confirm(e.target.dataset.ask)) e.preventDefault(); });
}
