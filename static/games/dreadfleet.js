// Dreadfleet's broadside tool after a shot (issue 10 §2, §4): its fields are emptied (data-clear, by
// static/js/clear.js, whose listener runs first) and the odds are drawn again from the emptied form (a board
// redraw may already have asked for them with the old dice). The odds above "Fire the broadside" then
// shrink to a one-line prompt; the page is scrolled by as much, so the button stays under the thumb.
// Also while the player is at the tool (focus in it), not only within 3 s of the shot: with the CPU
// busy one odds redraw went uncompensated and the button jumped 219 px (a browser test, about 1 run
// in 5; most likely an answer later than the window, not proven). With the focus too, 0 runs in 18.
(function () {
  "use strict";
  if (window.companionDreadfleet) return;  // the helpers may be drawn more than once: listen once
  window.companionDreadfleet = true;
  var firedAt = 0, keep = null;
  function fireButton() { return document.querySelector("#df-shot button[name=do]"); }
  document.addEventListener("htmx:afterRequest", function (e) {
    var form = e.detail.elt && e.detail.elt.closest && e.detail.elt.closest("form");
    if (!form || form.id !== "df-shot" || !e.detail.successful || e.detail.requestConfig.verb !== "post") return;
    firedAt = Date.now();
    form.dispatchEvent(new Event("change", {bubbles: true}));
  });
  document.addEventListener("htmx:beforeSwap", function (e) {
    if (!e.detail.target || e.detail.target.id !== "df-odds-shot-wrap") return;
    // the player is at the tool (its dice, its button: all below the odds) or has just fired: what
    // they touch stays put while the odds above it change size, however late the odds come
    var form = document.getElementById("df-shot"), at = document.activeElement;
    if (Date.now() - firedAt > 3000 && !(form && at && form.contains(at))) return;
    var b = fireButton();
    keep = b ? b.getBoundingClientRect().top : null;
  });
  document.addEventListener("htmx:afterSwap", function (e) {
    if (keep === null || !e.detail.target || e.detail.target.id !== "df-odds-shot-wrap") return;
    var b = fireButton();
    if (b) window.scrollBy(0, b.getBoundingClientRect().top - keep);
    keep = null;
  });
})();
