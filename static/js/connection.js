// Whether this phone is in touch with the host, in words (issue 25): any answer says it is; no answer,
// or a board's last answer too old (push.js), that it is not. Out of touch a tap is refused on the spot,
// never sent later (reconnecting it is sent: the host may be slow).
// page.link, shared with push.js: {state, lastAnswer, streaming, show(state), heard()}.
import {all, byId, on, one} from "./dom.js";
import {cut, lostState, period, refusal, SAY, WORD, woke} from "./link-state.js";
import {word} from "./words.js";

function make(tag, id, role) {
  const el = document.createElement(tag);
  el.id = el.className = id;
  el.setAttribute("role", role);
  return el;
}
// the sentence goes where the thumb is: after the tapped control's row (issue 40 §7), in view
function say(e, text) {
  const elt = e.detail.requestConfig?.triggeringEvent?.submitter || e.detail.elt;
  const at = elt?.closest?.(".row, .tracker, .stepper") || elt?.closest?.("form") || elt;
  if (!at?.parentNode) return;
  let note = at.nextElementSibling;
  if (!note?.classList.contains("not-sent")) {
    note = document.createElement("p");
    note.className = "err-text not-sent";
    note.setAttribute("role", "alert");
    at.after(note);
  }
  note.textContent = text;
  note.scrollIntoView?.({block: "nearest"});
}
export const isTap = (e) => (e.detail.requestConfig?.verb || "get") !== "get";  // (a poll or a card is a GET)

export function install(page) {
  let strip = null, sign = null;
  const link = page.link = {state: null, lastAnswer: Date.now(), streaming: false, show, heard};
  function show(next) {
    if (!byId("board") || next === link.state) return;
    link.state = next;
    if (!sign) {
      sign = make("span", "link-state", "status");
      const nav = one("nav.top");
      nav?.insertBefore(sign, one(".seat", nav) || nav.lastElementChild);
    }
    if (!strip) document.body.append(strip = make("p", "stale", "alert"));
    sign.textContent = WORD[next];
    strip.textContent = SAY[next];
    strip.hidden = next === "live";
    page.root.classList.toggle("stale-board", next !== "live");
  }
  function heard() {  // (an error status is an answer too)
    link.lastAnswer = Date.now();
    if (link.state !== "live") { for (const n of all(".not-sent")) n.remove(); show("live"); }
  }
  on("htmx:beforeRequest", (e) => {
    if (isTap(e) && cut(link.state)) { e.preventDefault(); say(e, refusal(link.state)); }  // (nothing queued for later)
  });
  on("htmx:afterRequest", (e) => { if (e.detail.xhr?.status > 0) heard(); });
  function lost(e) {
    show(lostState(navigator.onLine));
    if (isTap(e)) say(e, word("No answer from the host: this tap may not have counted. The board shows it once the phone is back."));
  }
  on("htmx:sendError", lost);
  on("htmx:timeout", lost);
  addEventListener("offline", () => show("offline"));
  addEventListener("online", () => { if (cut(link.state)) show("reconnecting"); });
  on("visibilitychange", () => {
    if (document.visibilityState === "visible") link.lastAnswer = woke(link.lastAnswer, Date.now(), period(byId("board")?.getAttribute("hx-trigger")));
  });
  on("DOMContentLoaded", () => { if (byId("board")) show(navigator.onLine === false ? "offline" : "live"); });
}
