// Empires of Dust's attack helper stays under the thumb (issue 10 §2). After a Fire the ships' roster
// changes and the helper is drawn again below the board; the browser's scroll anchoring then jumped the
// page to the bottom (about 700 px at 390x844). While the helper is on screen, its Fire button keeps its
// place when it is redrawn (the CSS turns scroll anchoring off for the helper's card so the two never fight).
// A file, not an inline script: the Content-Security-Policy allows scripts from the app's own files only.
(function () {
  "use strict";
  if (window.eodHelperStays) return;  // the tools may be loaded again: listen once
  window.eodHelperStays = true;
  var kept = null;
  function onScreen(el) { var r = el.getBoundingClientRect(); return r.bottom > 0 && r.top < window.innerHeight; }
  function mark() {  // the Fire button if the player can see it, else the helper's top
    var fire = document.getElementById("eod-fire");
    return fire && onScreen(fire) ? fire : document.getElementById("eod-attack");
  }
  // (each of these listens to the helper's own swaps only: the preview or the board swapped in between
  // must not make it forget what it keeps)
  document.addEventListener("htmx:beforeSwap", function (e) {
    var target = e.detail.target;
    if (!target || target.id !== "eod-attack") return;
    kept = null;
    var m = mark();
    if (m && onScreen(target)) kept = {id: m.id, top: m.getBoundingClientRect().top};
  });
  // The helper follows the board when ships come or go or a shot is fired (never on every poll, so a
  // choice is not lost): its form asks for itself again, keeping what was typed.
  document.addEventListener("htmx:afterSettle", function () {
    var roster = document.getElementById("eod-roster"), form = document.getElementById("eod-attack");
    if (!roster || !form || roster.dataset.roster === form.dataset.roster) return;
    if (form.dataset.asked === roster.dataset.roster) return;  // already on its way
    form.dataset.asked = roster.dataset.roster;
    // on the next turn: after a Fire, the helper's one-shot inputs are emptied once the board is in
    // (htmx:afterRequest comes after the board settled), and the redrawn helper must not bring them back
    setTimeout(function () { htmx.trigger(document.body, "eod-roster"); }, 0);
  });
  // The helper is drawn again from what its fields held when it asked (a new attacker, or the ships
  // changed); what the player typed while that answer was on its way (the real dice, say) must not be
  // wiped by it: those fields are put back into the new helper.
  var sent = null, typed = null;
  function fields(form) {
    return Array.prototype.filter.call(form.elements, function (f) {
      return f.name && (f.tagName === "TEXTAREA" || (f.tagName === "INPUT" && /^(text|number|search|)$/.test(f.type)));
    });
  }
  document.addEventListener("htmx:beforeRequest", function (e) {
    var form = document.getElementById("eod-attack");
    if (!form || e.detail.target !== form) return;
    sent = {};
    fields(form).forEach(function (f) { sent[f.name] = f.value; });
  });
  document.addEventListener("htmx:beforeSwap", function (e) {
    if (!sent || !e.detail.target || e.detail.target.id !== "eod-attack") return;
    typed = null;
    fields(e.detail.target).forEach(function (f) {
      if (f.name in sent && f.value !== sent[f.name]) (typed = typed || {})[f.name] = f.value;
    });
    sent = null;
  });
  document.addEventListener("htmx:afterSettle", function () {
    var form = document.getElementById("eod-attack"), was = typed;
    typed = null;
    if (!form || !was) return;
    fields(form).forEach(function (f) {
      if (f.name in was) { f.value = was[f.name]; f.dispatchEvent(new Event("input", {bubbles: true})); }
    });
  });
  document.addEventListener("htmx:afterSwap", function (e) {
    if (!kept || !e.detail.target || e.detail.target.id !== "eod-attack") return;
    var m = document.getElementById(kept.id) || document.getElementById("eod-attack");
    if (m) window.scrollBy(0, m.getBoundingClientRect().top - kept.top);
    kept = null;
  });
})();
