// Dreadfleet's broadside tool: after a shot, its fields are emptied (data-clear) and the odds above
// "Fire the broadside" shrink to a one-line prompt; the page is scrolled by as much, so the button the
// player tapped stays under the thumb (issue 10 §2: no action moves the page away from its control).
(function () {
  "use strict";
  if (window.companionDreadfleet) return;  // the helpers may be drawn more than once
  window.companionDreadfleet = true;
  var fired = false, keep = null;
  function fireButton() { return document.querySelector("#df-shot button[name=do]"); }
  document.addEventListener("htmx:afterRequest", function (e) {
    var form = e.detail.elt && e.detail.elt.closest && e.detail.elt.closest("form");
    if (form && form.id === "df-shot" && e.detail.successful) fired = true;
  });
  document.addEventListener("htmx:beforeSwap", function (e) {
    if (!fired || !e.detail.target || e.detail.target.id !== "df-odds-shot-wrap") return;
    var b = fireButton();
    keep = b ? b.getBoundingClientRect().top : null;
  });
  document.addEventListener("htmx:afterSwap", function (e) {
    if (keep === null || !e.detail.target || e.detail.target.id !== "df-odds-shot-wrap") return;
    var b = fireButton();
    if (b) window.scrollBy(0, b.getBoundingClientRect().top - keep);
    fired = false;
    keep = null;
  });
})();
