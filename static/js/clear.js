// Forms tell the truth (issue 10 §4): an error sentence goes with the next success, and what was typed
// for the last action ([data-clear], e.g. real dice) is emptied once it is accepted.
import {all, byId, isAction, on, sentForm} from "./dom.js";

// Emptied when the request itself ends: an answer that redraws the part holding the form leaves htmx's
// afterRequest unheard by the page, and a hit must not be sent twice.
const whenAccepted = (xhr, empty) => xhr.addEventListener("loadend", () => { if (xhr.status >= 200 && xhr.status < 300) empty(); });
// recorded real-deck draws and a typed secret (a sealed order) survive polls (hx-preserve) until accepted
function emptiedWhenAccepted(pattern, empty) {
  let tap = null;
  on("submit", (e) => { tap = pattern.test(e.submitter?.value || "") ? e : null; }, true);
  on("htmx:beforeSend", (e) => {
    const xhr = e.detail.xhr, form = tap?.target;
    if (!tap || !xhr || e.detail.requestConfig?.triggeringEvent !== tap) return;
    tap = null;
    whenAccepted(xhr, () => empty(form));
  });
}
function accepted(form) {
  for (const slot of all("[id$='-err']")) if (slot.querySelector(".err-text")) slot.innerHTML = "";
  // the form as it is now, and its fields placed elsewhere (form="..."); a one-shot option is unticked
  for (const i of (form.id && byId(form.id) || form).elements) {
    if (i.matches("[data-clear]")) { if (i.type === "checkbox") i.checked = false; else i.value = ""; }
  }
}

export function install() {
  emptiedWhenAccepted(/^deck-record /, () => { for (const i of all("input[id^='rec-'][hx-preserve]")) i.value = ""; });
  emptiedWhenAccepted(/^seal /, (form) => {
    for (const i of all("input[data-clear-on-success]")) if (i.id && form.id && i.id.startsWith(form.id)) i.value = "";
  });
  on("htmx:beforeRequest", (e) => {
    const id = isAction(e) && e.detail.elt.closest?.("form")?.id, slot = id && byId(id + "-err");
    if (slot) slot.innerHTML = "";
  });
  // at afterRequest (before a game's own listeners read the form), and when the request ends; refused,
  // what was typed stays, to be mended
  on("htmx:afterRequest", (e) => {
    const form = sentForm(e);
    if (isAction(e) && e.detail.successful && form) accepted(form);
  });
  on("htmx:beforeSend", (e) => {
    const xhr = e.detail.xhr, form = sentForm(e);
    if (isAction(e) && xhr && form) whenAccepted(xhr, () => accepted(form));
  });
}
