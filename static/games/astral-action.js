// Astral Action's attack form: its lists follow the board only when ships came or went (a choice
// is never lost to a poll); after an accepted attack the one-attack fields empty (the core clears
// [data-clear] text fields; a ticked box like "Marked +2" is unticked here) and the odds redraw.
// The attack's result shows in the result sheet above the bottom bar: the page does not move.
// A file, not an inline script: the Content-Security-Policy allows scripts from the app's own files only.
(function () {
  "use strict";
  if (window.aaFormFollowsBoard) return;  // the tools may be loaded again: listen once
  window.aaFormFollowsBoard = true;
  document.addEventListener("htmx:afterSettle", function (e) {
    if (!e.detail.target || e.detail.target.id !== "board") return;
    var roster = document.getElementById("aa-roster"), pick = document.getElementById("aa-pick");
    if (roster && pick && roster.dataset.sig !== pick.dataset.sig) htmx.trigger(pick, "aa-roster");
  });
  document.addEventListener("htmx:afterRequest", function (e) {
    if (!e.detail.successful || !e.detail.requestConfig || e.detail.requestConfig.verb !== "post") return;
    var form = e.detail.elt.closest && e.detail.elt.closest("form");
    if (!form || !form.classList.contains("aa-one-action")) return;
    form.querySelectorAll("input[type=checkbox][data-aa-untick]").forEach(function (box) { box.checked = false; });
  });
})();
