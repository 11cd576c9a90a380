// companion: keep the screen on while a table is open, remember the theme. (htmx does the rest.)
(function () {
  "use strict";
  var root = document.documentElement;
  var saved = localStorage.getItem("companion-theme");
  if (saved) root.dataset.theme = saved;
  document.addEventListener("click", function (e) {
    if (!e.target.closest("[data-theme-toggle]")) return;
    var dark = root.dataset.theme ? root.dataset.theme === "dark" : matchMedia("(prefers-color-scheme: dark)").matches;
    root.dataset.theme = dark ? "light" : "dark";
    localStorage.setItem("companion-theme", root.dataset.theme);
  });
  var lock = null;
  function wake() {
    if (!document.body || !document.body.hasAttribute("data-wakelock")) return;
    if (!("wakeLock" in navigator) || document.visibilityState !== "visible" || lock) return;
    navigator.wakeLock.request("screen").then(function (l) {
      lock = l;
      l.addEventListener("release", function () { lock = null; });
    }).catch(function () { /* not allowed (no user gesture yet / insecure origin): try on next tap */ });
  }
  document.addEventListener("DOMContentLoaded", wake);
  document.addEventListener("visibilitychange", wake);
  document.addEventListener("click", wake);
})();
