// Astral Action's attack form: its lists follow the board only when ships came or went (a choice
// is never lost to a poll), and after an attack the pending result is brought into view.
// A file, not an inline script: the Content-Security-Policy allows scripts from the app's own files only.
(function () {
  "use strict";
  if (window.aaFormFollowsBoard) return;  // the tools may be loaded again: listen once
  window.aaFormFollowsBoard = true;
  document.addEventListener("htmx:afterSettle", function (e) {
    if (!e.detail.target || e.detail.target.id !== "board") return;
    var roster = document.getElementById("aa-roster"), pick = document.getElementById("aa-pick");
    if (roster && pick && roster.dataset.sig !== pick.dataset.sig) htmx.trigger(pick, "aa-roster");
    if (!window.aaScroll) return;
    window.aaScroll = false;
    var p = document.getElementById("aa-pending");
    if (p) p.scrollIntoView({block: "center"});
  });
})();
