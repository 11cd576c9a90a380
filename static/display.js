// The big screen (issue 26): live from the table's event feed, never touched.  Each event asks for
// the page's fresh body (one request, however many events came at once); a new roll stays large
// for a few seconds, then takes its place beside the ticker.  EventSource reconnects by itself after
// a sleeping TV wakes, sending Last-Event-ID, and the feed sends what was missed; if the browser
// gives up (an HTTP error), this tries again every few seconds from the last event it had.
(function () {
  "use strict";
  var main = document.getElementById("display");
  if (!main || !window.EventSource) return;
  var link = document.getElementById("dsp-link");
  var FRESH = (parseFloat(main.dataset.fresh) || 6) * 1000;
  var after = main.dataset.after, source = null, busy = false, again = false;
  var shown = rollSeq(), freshSeq = null, freshUntil = 0, timer = null;

  function rollSeq() {
    var r = main.querySelector("[data-roll-seq]");
    return r ? r.dataset.rollSeq : "";
  }
  function say(state) {
    document.body.dataset.link = state;
    if (!link) return;
    link.hidden = state === "live";
    link.textContent = state === "live" ? "" : "Reconnecting… this screen may be out of date.";
  }
  // the newest roll large while it is fresh, whatever body is swapped in meanwhile
  function large() {
    var r = main.querySelector("[data-roll-seq]");
    var on = !!r && r.dataset.rollSeq === freshSeq && Date.now() < freshUntil;
    if (r) r.classList.toggle("fresh", on);
    document.body.classList.toggle("has-fresh", on);
  }
  // Every ship shows (issue 36): a side whose units do not fit its panel gets a smaller type scale
  // (--fit, halved at most, found by bisection); one that still does not fit at the floor rolls slowly
  // through its units and back, so nothing is cut for good, whatever a side holds, at any screen size.
  var FLOOR = 0.5, rolling = [];
  function over(side) { return side.scrollHeight > side.clientHeight; }
  function fit() {
    rolling = [];
    main.querySelectorAll(".dsp-side").forEach(function (side) {
      side.style.setProperty("--fit", "1");
      side.classList.remove("rolling");
      if (!over(side)) return;
      var lo = FLOOR, hi = 1;
      side.style.setProperty("--fit", String(lo));
      if (over(side)) { side.classList.add("rolling"); rolling.push(side); return; }
      for (var i = 0; i < 7; i++) {
        var mid = (lo + hi) / 2;
        side.style.setProperty("--fit", String(mid));
        if (over(side)) hi = mid; else lo = mid;
      }
      side.style.setProperty("--fit", String(lo));
    });
  }
  var down = true, pause = 0;
  setInterval(function () {  // a rolling side moves 1 px a tick, waits 3 s at each end
    if (!rolling.length || Date.now() < pause) return;
    rolling.forEach(function (side) { side.scrollTop += down ? 1 : -1; });
    var ends = rolling.every(function (s) { return down ? s.scrollTop + s.clientHeight >= s.scrollHeight - 1 : s.scrollTop <= 0; });
    if (ends) { down = !down; pause = Date.now() + 3000; }
  }, 40);
  window.addEventListener("resize", fit);
  fit();

  function swapped() {
    fit();
    var seq = rollSeq();
    if (seq && seq !== shown) {
      freshSeq = seq;
      freshUntil = Date.now() + FRESH;
      clearTimeout(timer);
      timer = setTimeout(large, FRESH + 20);
    }
    shown = seq;
    large();
  }
  function refresh() {
    if (busy) { again = true; return; }
    busy = true;
    fetch(location.pathname + location.search, {headers: {"X-Display-Body": "1"}, credentials: "same-origin",
                                                 cache: "no-store"})
      .then(function (r) { if (!r.ok) throw new Error("HTTP " + r.status); return r.text(); })
      .then(function (html) {
        var at = {};  // where each rolling side was: a change does not send it back to its top
        rolling.forEach(function (side) { at[side.dataset.side] = side.scrollTop; });
        main.innerHTML = html;
        swapped();
        rolling.forEach(function (side) { if (side.dataset.side in at) side.scrollTop = at[side.dataset.side]; });
      })
      .catch(function () { say("reconnecting"); })
      .then(function () { busy = false; if (again) { again = false; refresh(); } });
  }
  function connect() {
    source = new EventSource(main.dataset.feed + "?after=" + encodeURIComponent(after));
    source.addEventListener("state", function () { say("live"); refresh(); });  // each (re)connect: catch up
    source.onmessage = function (e) { if (e.lastEventId) after = e.lastEventId; refresh(); };
    source.onerror = function () {
      say("reconnecting");
      if (source.readyState === EventSource.CLOSED) setTimeout(connect, 3000);
    };
  }
  connect();
  document.addEventListener("visibilitychange", function () { if (document.visibilityState === "visible") refresh(); });
})();
