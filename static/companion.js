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
  // Forms below the board (not swapped by polling, so typing survives) keep their unit lists in
  // step with the board: a select[data-units] gets the board's units after its fixed options.
  function syncUnits() {
    var source = document.getElementById("unit-options");
    if (!source) return;
    document.querySelectorAll("select[data-units]").forEach(function (sel) {
      var keep = sel.querySelectorAll("option:not([data-unit])").length;
      var fixed = Array.prototype.slice.call(sel.options, 0, keep).filter(function (o) { return !o.hasAttribute("data-unit"); });
      var chosen = sel.value;
      sel.innerHTML = "";
      fixed.forEach(function (o) { sel.appendChild(o); });
      Array.prototype.forEach.call(source.options, function (o) {
        if (sel.dataset.units && sel.dataset.units !== o.dataset.side && sel.dataset.units.charAt(0) !== "!") return;
        if (sel.dataset.units && sel.dataset.units.charAt(0) === "!" && sel.dataset.units.slice(1) === o.dataset.side) return;
        var copy = new Option(o.text, o.value);
        copy.setAttribute("data-unit", "");
        copy.dataset.side = o.dataset.side;
        sel.appendChild(copy);
      });
      if (Array.prototype.some.call(sel.options, function (o) { return o.value === chosen; })) sel.value = chosen;
    });
  }
  document.addEventListener("DOMContentLoaded", syncUnits);
  document.addEventListener("htmx:afterSettle", syncUnits);

  // Recorded real-deck draws: empty the (poll-preserved) inputs once the record is accepted.
  var recording = false;
  document.addEventListener("submit", function (e) {
    recording = !!(e.submitter && /^deck-record /.test(e.submitter.value || ""));
  }, true);
  document.addEventListener("htmx:afterRequest", function (e) {
    if (!recording || !e.detail.successful) return;
    recording = false;
    document.querySelectorAll("input[id^='rec-'][hx-preserve]").forEach(function (i) { i.value = ""; });
  });

  // A typed secret (a sealed order) survives polls (hx-preserve) and is emptied once accepted.
  var sealing = null;
  document.addEventListener("submit", function (e) {
    sealing = e.submitter && /^seal /.test(e.submitter.value || "") ? e.target : null;
  }, true);
  document.addEventListener("htmx:afterRequest", function (e) {
    if (!sealing || !e.detail.successful) return;
    var form = sealing;
    sealing = null;
    document.querySelectorAll("input[data-clear-on-success]").forEach(function (i) {
      if (i.id && form.id && i.id.indexOf(form.id) === 0) i.value = "";
    });
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
