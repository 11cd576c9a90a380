// The big screen (issue 26): live from the table's event feed, never touched.  Each event asks for
// the page's fresh body (one request, however many events came at once); a new roll stays large
// for a few seconds, then takes its place beside the ticker.  EventSource reconnects by itself after
// a sleeping TV wakes, sending Last-Event-ID, and the feed sends what was missed; if the browser
// gives up (an HTTP error), this tries again every few seconds from the last event it had. The
// screen stays on as a phone's does (wake-lock.js), unless it is an overlay.
import * as wakeLock from "./wake-lock.js";
import {word} from "./words.js";

wakeLock.install();
const main = document.getElementById("display");
if (main && window.EventSource) live();

function live() {
  let link = document.getElementById("dsp-link");
  let FRESH = (parseFloat(main.dataset.fresh) || 6) * 1000;
  let after = main.dataset.after, source = null, busy = false, again = false;
  let shown = rollSeq(), freshSeq = null, freshUntil = 0, timer = null;

  function rollSeq() {
    let r = main.querySelector("[data-roll-seq]");
    return r ? r.dataset.rollSeq : "";
  }
  function say(state) {
    document.body.dataset.link = state;
    if (!link) return;
    link.hidden = state === "live";
    link.textContent = state === "live" ? "" : word("Reconnecting… this screen may be out of date.");
  }
  // the newest roll large while it is fresh, whatever body is swapped in meanwhile
  function large() {
    let r = main.querySelector("[data-roll-seq]");
    let on = !!r && r.dataset.rollSeq === freshSeq && Date.now() < freshUntil;
    if (r) r.classList.toggle("fresh", on);
    document.body.classList.toggle("has-fresh", on);
  }
  // Every ship shows (issue 36): a side whose units do not fit its panel gets a smaller type scale
  // (--fit, halved at most, found by bisection), or two columns where those show its units larger
  // (issue 40 §2: a wide side with a short list of ships and auxiliaries); one that still does not fit
  // at the floor rolls slowly through its units and back, so nothing is cut for good, whatever a side
  // holds, at any screen size. The ticker and the earlier rolls show as many lines as their room holds,
  // the oldest going first, never a line cut in half.
  let FLOOR = 0.5, rolling = [];
  function over(side) {
    return side.scrollHeight > side.clientHeight || (side.classList.contains("two") &&
      Array.prototype.some.call(side.querySelectorAll(".dsp-name"), function (n) { return n.scrollWidth > n.clientWidth + 1; }));
  }
  function scale(side) {  // the largest --fit at which the side shows whole, or null below the floor
    side.style.setProperty("--fit", "1");
    if (!over(side)) return 1;
    let lo = FLOOR, hi = 1;
    side.style.setProperty("--fit", String(lo));
    if (over(side)) return null;
    for (let i = 0; i < 7; i++) {
      let mid = (lo + hi) / 2;
      side.style.setProperty("--fit", String(mid));
      if (over(side)) hi = mid; else lo = mid;
    }
    return lo;
  }
  function oldestGo(box, items) {
    items.forEach(function (li) { li.hidden = false; });
    for (let i = items.length - 1; i >= 0 && box.scrollHeight > box.clientHeight + 1; i--) items[i].hidden = true;
  }
  function fit() {
    rolling = [];
    let ticker = main.querySelector(".dsp-ticker"), roll = main.querySelector(".dsp-roll:not(.fresh)");
    if (ticker) oldestGo(ticker, Array.prototype.slice.call(ticker.querySelectorAll("li"), 1));  // (the newest stays)
    if (roll) oldestGo(roll, Array.prototype.slice.call(roll.querySelectorAll(".dsp-earlier li")));
    main.querySelectorAll(".dsp-side").forEach(function (side) {
      side.classList.remove("rolling", "two");
      let one = scale(side);
      if (one === 1) return;
      side.classList.add("two");
      let two = side.querySelectorAll(".dsp-unit").length > 1 ? scale(side) : null;
      if (two !== null && (one === null || two > one + 0.05)) { side.style.setProperty("--fit", String(two)); return; }
      side.classList.remove("two");
      if (one === null) { side.style.setProperty("--fit", String(FLOOR)); side.classList.add("rolling"); rolling.push(side); return; }
      side.style.setProperty("--fit", String(one));
    });
  }
  let down = true, pause = 0;
  setInterval(function () {  // a rolling side moves 1 px a tick, waits 3 s at each end
    if (!rolling.length || Date.now() < pause) return;
    rolling.forEach(function (side) { side.scrollTop += down ? 1 : -1; });
    let ends = rolling.every(function (s) { return down ? s.scrollTop + s.clientHeight >= s.scrollHeight - 1 : s.scrollTop <= 0; });
    if (ends) { down = !down; pause = Date.now() + 3000; }
  }, 40);
  window.addEventListener("resize", fit);
  // and whenever the room changes otherwise (a note above the table comes or goes, the game's gauge
  // or a font loads after the first fit)
  let refit = null;
  function soon() { if (!refit) refit = requestAnimationFrame(function () { refit = null; fit(); }); }
  if (window.ResizeObserver) new ResizeObserver(soon).observe(main);
  window.addEventListener("load", soon);
  if (document.fonts && document.fonts.ready) document.fonts.ready.then(soon);
  fit();

  function swapped() {
    fit();
    let seq = rollSeq();
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
        let at = {};  // where each rolling side was: a change does not send it back to its top
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
}
