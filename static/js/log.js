// The log page, live (issue 40 §8): the newest page holds the table's live stream open as the board does
// (companion/live.py, static/js/push.js) and, each time the table moves on, asks for the newest page
// once and puts its new lines in at the top.  A line already on the page is drawn again in place (a move
// taken back or undone since is struck through), except one the player is using (its "Take back or
// correct" open, a field of it in use): only its words change.  What the player reads stays where it is
// on the screen, unless they are at the top, where the new line comes in sight.  An older page ("Older ▶")
// is not live: it stays as drawn, and its paging is the server's.
import {eventSeq} from "./seq.js";
import {ownClock} from "./clock.js";

const log = document.getElementById("log");
if (log) ownClock(log);
if (log?.dataset.live && window.EventSource && window.fetch && window.DOMParser) live();

function live() {
  let busy = false, again = false, source = null;

  function shown() { return +(log.dataset.seq || 0); }
  function heard(data) { if (eventSeq(data) > shown()) refresh(); }

  function held(li) {  // the player is using this line: its section open, or a field of it in use
    return !!(li.querySelector("details[open]") || li.contains(document.activeElement));
  }
  function merge(fresh) {
    let list = log.querySelector("ol.log"), next = fresh.querySelector("ol.log");
    if (!next) return;
    if (!list) {  // (a page drawn with no line: the list comes in place of "No older events.")
      let none = log.querySelector(".no-events");
      list = next.cloneNode(false);
      if (none) none.replaceWith(list); else log.appendChild(list);
    }
    let mid = document.elementFromPoint(window.innerWidth / 2, window.innerHeight / 2);
    let keep = mid && mid.closest && mid.closest("ol.log > li[id]"), top = keep ? keep.getBoundingClientRect().top : 0;
    let atTop = window.scrollY < 8, before = list.firstElementChild;
    Array.prototype.forEach.call(next.children, function (li) {
      let now = li.id && document.getElementById(li.id), copy = document.importNode(li, true);
      if (!now) {  // a new line: above the lines the page had (the list is newest first)
        copy.classList.add("fresh");
        list.insertBefore(copy, before);
        setTimeout(function () { copy.classList.remove("fresh"); }, 4000);
        return;
      }
      if (held(now)) {  // its words (struck through, "taken back: #12") and nothing else
        now.className = copy.className;
        let words = now.querySelector(":scope > span"), newWords = copy.querySelector(":scope > span");
        if (words && newWords) words.innerHTML = newWords.innerHTML;
        return;
      }
      if (now.outerHTML !== copy.outerHTML) now.replaceWith(copy);
    });
    if (next.getAttribute("start")) list.setAttribute("start", next.getAttribute("start"));
    let same = keep && document.getElementById(keep.id);  // (it may have been drawn again)
    if (!atTop && same) window.scrollBy(0, same.getBoundingClientRect().top - top);
  }
  function refresh() {
    if (busy) { again = true; return; }
    busy = true;
    fetch(log.dataset.page, {credentials: "same-origin", cache: "no-store", headers: {"X-Log-Refresh": "1"}})
      .then(function (r) { if (!r.ok) throw new Error("HTTP " + r.status); return r.text(); })
      .then(function (html) {
        let fresh = new DOMParser().parseFromString(html, "text/html").getElementById("log");
        if (!fresh) return;
        ownClock(fresh);  // (before the lines are compared: a line the same but for its clock is the same)
        merge(fresh);
        if (+(fresh.dataset.seq || 0) > shown()) log.dataset.seq = fresh.dataset.seq;
      })
      .catch(function () { /* the next change (or the phone waking) asks again */ })
      .then(function () { busy = false; if (again) { again = false; refresh(); } });
  }
  function open() {
    if (source) return;
    // the browser sends Last-Event-ID itself when it reconnects; ?seq= says where the first stream starts
    source = new EventSource(log.dataset.live + "?seq=" + encodeURIComponent(log.dataset.seq || ""));
    source.onmessage = function (e) { heard(e.data); };
    source.addEventListener("step", function (e) { heard(e.data); });
    source.addEventListener("gone", function () { source.close(); source = null; });
    source.onerror = function () {
      if (source && source.readyState === EventSource.CLOSED) { source = null; setTimeout(open, 3000); }
    };
  }
  open();
  // a phone that slept, or was offline, may have missed a change: it asks once when it is back
  document.addEventListener("visibilitychange", function () { if (document.visibilityState === "visible") refresh(); });
  window.addEventListener("online", function () { if (!source) open(); refresh(); });
}
