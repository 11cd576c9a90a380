// A link to a folded section ("Add one", "Dice") opens it; one into a unit's card not here yet (a game's
// "Fire" beside its row) opens the row and goes there once the card is in.
import {askCard} from "./cards.js";
import {byId, fire, on} from "./dom.js";

function arrive(a, target) {
  const folded = target.matches("details") ? target : target.querySelector("details.lazy");
  if (folded && !folded.open) folded.open = true;
  // data-pick='{"field": "value"}' sets fields of the target ("Fire": the broadside with that ship chosen)
  for (const [name, v] of Object.entries(a.dataset.pick ? JSON.parse(a.dataset.pick) : {})) {
    const field = target.querySelector("[name='" + name + "']");
    if (!field) continue;
    if (field.type === "checkbox") field.checked = v !== "" && v !== "0";
    else field.value = v;
    fire(field, "input");
    fire(field, "change");
  }
}

export function install() {
  let goingTo = null;
  on("click", (e) => {
    const a = e.target.closest?.("a[href^='#']"), id = a?.getAttribute("href").slice(1);
    if (!id) return;
    // (a unit's link sits beside its row, not in its summary: issue 28 §7)
    const row = a.closest("details.unitrow") || a.closest(".unitbox")?.querySelector("details.unitrow"), target = byId(id);
    if (!target && row?.querySelector(":scope > .unitcard[data-lazy]")) {
      e.preventDefault();
      goingTo = {a, id, at: Date.now()};
      if (row.open) askCard(row); else row.open = true;  // (opening asks for the card)
    } else if (target) arrive(a, target);
  });
  on("htmx:afterSettle", () => {
    if (Date.now() - goingTo?.at > 5000) goingTo = null;  // a card that never came: no jump later
    const target = goingTo && byId(goingTo.id), a = goingTo?.a;
    if (!target) return;
    goingTo = null;
    target.scrollIntoView({block: "start"});
    arrive(a, target);
  });
}
