// A game's helpers (#game-tools, loaded in their own request) list the table's players and units: when
// the board's roster (#unit-options[data-roster]) is not the one they were drawn with they are asked
// for again, what was typed in them kept (issue 28 §4).
import {all, byId, find, keyOf, later, on, sentForm, tablePath, topOf} from "./dom.js";
import {keep, putBack} from "./keep.js";
import {syncUnits} from "./units.js";

const FIELDS = "input[name], select[name], textarea[name]";
// a form the player sent from the helpers (not one checking itself as it is typed into)
function toolTap(e) {
  const tools = byId("game-tools"), cfg = e.detail.requestConfig, how = cfg?.triggeringEvent?.type;
  return !!(tools?.contains(e.detail.elt) && cfg.verb !== "get" && (how === "submit" || how === "click"));
}

export function install() {
  // a tap there while their refresh was out wins: the refresh's answer (that would wipe the tap's) is dropped
  let asked = null, kept = null, refreshSent = 0, tapped = 0;
  function fresh(afterTap) {
    const want = byId("unit-options")?.dataset.roster, tools = byId("game-tools"), board = byId("board"), at = document.activeElement;
    if (!want || !tools?.dataset.roster || !board?.getAttribute("hx-get") || want === tools.dataset.roster || want === asked) return;
    // not under the thumb: the focus in them (but on the button of a form that redraws them, its tap
    // answered), a tap out, a refusal being read there (a while)
    if (tools.contains(at) && !(afterTap && at.tagName === "BUTTON")) return;
    if (tools.querySelector("form.htmx-request") || tools.matches(".htmx-request")) return;
    if (!afterTap && all(".err, [role=alert]", tools).some((n) => n.textContent.trim()) && Date.now() - tapped < 8000) return;
    asked = want;
    refreshSent = Date.now();
    // asked from the helpers themselves: a request from no element is the page body's, and queues behind
    // another (a card being loaded); a queued one came back without anything here seeing it, and the
    // player's choices in the helpers were wiped (a browser test saw an attacker chosen go back, once)
    htmx.ajax("GET", tablePath(board) + "/tools/game", {source: tools, target: "#game-tools", swap: "outerHTML"});
  }
  // what the helpers held goes back into the fresh copy as it goes in (the swap's own event, so however
  // the answer came)
  function putKeptBack(e) {
    const cfg = e.detail.requestConfig, now = byId("game-tools"), was = kept;
    if (!was || cfg?.verb !== "get" || !/\/tools\/game$/.test(cfg.path || "") || !now) return;
    kept = null;
    const again = find(was.focusKey);
    for (const id of was.opened) { const d = byId(id); if (d && now.contains(d)) d.open = true; }
    if (again && now.contains(again) && again.focus) again.focus({preventScroll: true});
    putBack(all(FIELDS, now), was.typed);
    if (was.top < innerHeight) scrollBy(0, topOf(now) - was.top);  // the tool stays put
    syncUnits();
  }
  on("htmx:beforeRequest", (e) => { if (toolTap(e)) tapped = Date.now(); });
  on("htmx:beforeSwap", (e) => {
    const cfg = e.detail.requestConfig, tools = byId("game-tools"), at = document.activeElement;
    if (cfg?.verb !== "get" || !/\/tools\/game$/.test(cfg.path || "")) return;
    // the player typing or choosing in them: not swapped, asked for again once the focus leaves
    // (refreshSent: the newest refresh asked for; 0 before any)
    if ((refreshSent && tapped >= refreshSent) || !tools || (tools.contains(at) && /^(INPUT|SELECT|TEXTAREA)$/.test(at.tagName))) {
      e.detail.shouldSwap = false;
      asked = null;
    } else {
      // what they hold now, as the fresh copy goes in
      kept = {typed: keep(all(FIELDS, tools)), top: topOf(tools), focusKey: tools.contains(at) ? keyOf(at) : null,
        opened: all("details[open][id]", tools).map((d) => d.id)};
    }
  });
  on("htmx:afterSwap", putKeptBack);
  on("htmx:afterSettle", () => fresh(false));
  // a form that changes what they show (class "redraws-helpers") has them drawn again once it is answered
  on("htmx:afterRequest", (e) => {
    if (e.detail.successful && toolTap(e) && sentForm(e)?.matches(".redraws-helpers")) later(() => fresh(true));
  });
  on("focusout", (e) => { if (byId("game-tools")?.contains(e.target)) later(() => fresh(false)); });
  on("htmx:oobAfterSwap", () => later(() => fresh(false)));
}
