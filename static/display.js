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
  function swapped() {
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
      .then(function (html) { main.innerHTML = html; swapped(); })
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
