// Whether this phone is in touch with the host, said in words (issue 25, "catch-up and honesty").
// The board polls every few seconds; any answer from the host, whatever its status, means the
// phone is in touch.  A request that gets no answer at all (the phone's Wi-Fi is off, the host has
// stopped) means it is not, and so does a board whose last answer is three poll periods old.
// While out of touch, the board is marked stale; offline, a tap is refused on the spot with a
// sentence, never sent later behind the player's back (reconnecting, it is sent: the host may only
// be slow); a tap whose answer never came says it may not have counted.  When the phone is back, the next poll catches the board up by itself.
// Live push (companion/live.py): while the board's stream is through the host pushes each change as the
// step from the board this phone holds (or says the table moved on, and the board asks for the step at
// once); the polls every few seconds stop (an idle phone sends nothing) and come back by themselves
// whenever the stream is down.
(function () {
  "use strict";
  var lastAnswer = Date.now(), state = null, strip = null, word = null;

  function board() { return document.getElementById("board"); }
  function period() {
    var b = board(), m = b && /every (\d+(?:\.\d+)?)s/.exec(b.getAttribute("hx-trigger") || "");
    return m ? parseFloat(m[1]) * 1000 : 2000;
  }
  var SAY = {
    live: "live",
    reconnecting: "Reconnecting… this board may be out of date.",
    offline: "Offline: your taps are not sent. This board may be out of date.",
    // the phone is on its network but the host does not answer (stopped, restarting): not "offline",
    // which sends the player to their Wi-Fi settings for nothing (issue 40 §7)
    nohost: "The host is not answering: your taps are not sent. This board may be out of date."
  };
  function cut() { return state === "offline" || state === "nohost"; }

  function show(next) {
    if (!board() || next === state) return;
    state = next;
    if (!word) {
      word = document.createElement("span");
      word.id = "link-state";
      word.className = "link-state";
      word.setAttribute("role", "status");
      var nav = document.querySelector("nav.top"), seat = nav && nav.querySelector(".seat");
      if (nav) nav.insertBefore(word, seat || nav.lastElementChild);
    }
    if (!strip) {
      strip = document.createElement("p");
      strip.id = "stale";
      strip.className = "stale";
      strip.setAttribute("role", "alert");
      document.body.appendChild(strip);
    }
    word.textContent = next === "live" ? "● live" : next === "offline" ? "○ offline" : next === "nohost" ? "○ no answer"
      : "◌ reconnecting";
    strip.textContent = next === "live" ? "" : SAY[next];
    strip.hidden = next === "live";
    document.documentElement.classList.toggle("stale-board", next !== "live");
  }

  function say(elt, text) {
    // the sentence goes where the thumb is: right after the row of the control that was tapped (a
    // unit's card is one long form: after the form it was below the fold, issue 40 §7), and is
    // scrolled into view above the bottom bar (the page's scroll-padding keeps it clear of the dock)
    var at = (elt && elt.closest && (elt.closest(".row, .tracker, .stepper") || elt.closest("form") || elt)) || null;
    if (!at || !at.parentNode) return;
    var note = at.nextElementSibling;
    if (!note || !note.classList.contains("not-sent")) {
      note = document.createElement("p");
      note.className = "err-text not-sent";
      note.setAttribute("role", "alert");
      at.parentNode.insertBefore(note, at.nextSibling);
    }
    note.textContent = text;
    if (note.scrollIntoView) note.scrollIntoView({block: "nearest"});
  }
  function tapped(e) {  // the button the player tapped, else the control that sent
    var cfg = e.detail.requestConfig, how = cfg && cfg.triggeringEvent;
    return (how && how.submitter) || e.detail.elt;
  }
  function clearNotes() {
    Array.prototype.forEach.call(document.querySelectorAll(".not-sent"), function (n) { n.remove(); });
  }

  function isTap(e) {  // a request that changes the table (a poll or a card is a GET)
    return ((e.detail.requestConfig && e.detail.requestConfig.verb) || "get") !== "get";
  }
  document.addEventListener("htmx:beforeRequest", function (e) {
    if (isTap(e) && cut()) {
      e.preventDefault();  // refused on the spot: nothing is queued to be sent later
      say(tapped(e), state === "nohost" ? "Not sent: the host is not answering. Tap again when the board says live."
        : "Not sent: this phone is not in touch with the host. Tap again when the board says live.");
    }
  });
  document.addEventListener("htmx:afterRequest", function (e) {
    var xhr = e.detail.xhr;
    if (xhr && xhr.status > 0) {  // the host answered (an error status is an answer too)
      lastAnswer = Date.now();
      if (state !== "live") clearNotes();
      show("live");
    }
  });
  function lost(e) {
    show(navigator.onLine === false ? "offline" : "nohost");
    if (isTap(e)) {
      say(tapped(e), "No answer from the host: this tap may not have counted. The board shows it once the phone is back.");
    }
  }
  document.addEventListener("htmx:sendError", lost);
  document.addEventListener("htmx:timeout", lost);
  window.addEventListener("offline", function () { show("offline"); });
  window.addEventListener("online", function () { if (cut()) show("reconnecting"); });

  // --- live push -------------------------------------------------------------------------------
  var source = null, streaming = false, openedAt = 0, backoff = 2000;  // openedAt: 0 until it opens
  function ping() { var b = board(); return b && b.dataset.livePing ? +b.dataset.livePing * 1000 : 20000; }
  function heard() { lastAnswer = Date.now(); if (state !== "live") { clearNotes(); show("live"); } }
  // The stream is through (the timed polls stop) once an event has come, and the host sends one at once
  // (companion/live.py OPENING): behind a proxy that passes the headers but buffers the events the polls
  // go on.  A first event more than 10 s late (such a proxy letting go at last, or a phone that slept)
  // closes the stream, and another is tried later and later, the polls going on meanwhile.
  function through() {
    heard();
    if (streaming || !source) return;
    if (Date.now() - openedAt > 10000) {
      source.close();
      source = null;
      setTimeout(openLive, backoff);
      backoff = Math.min(backoff * 2, 60000);
      return;
    }
    streaming = true;
    backoff = 2000;
  }
  function openLive() {
    var b = board();
    if (source || !b || !b.dataset.live || !window.EventSource) return;
    // the browser itself sends Last-Event-ID when it reconnects; ?seq= says where a first stream starts
    source = new EventSource(b.dataset.live + "?seq=" + encodeURIComponent(b.dataset.seq || ""));
    openedAt = 0;
    source.onopen = function () { openedAt = Date.now(); heard(); };
    source.onmessage = function (e) {
      through();
      var now = board();
      if (now && +e.data > +(now.dataset.seq || 0)) htmx.trigger(now, "live");  // the step, asked for at once
    };
    source.addEventListener("step", function (e) {
      through();
      if (tapping > 0) { waiting = e.data; return; }  // this phone's own tap is out: its answer comes first
      takeStep(e.data);
    });
    source.addEventListener("ping", through);
    source.addEventListener("gone", function () { source.close(); source = null; streaming = false; });
    source.onerror = function () {
      // the polls take over while the stream is down, and they say whether the host answers; a stream
      // that was open is tried again by the browser itself, one that never opened (a proxy that cannot
      // hold it) less and less often
      streaming = false;
      if (openedAt && source.readyState !== EventSource.CLOSED) return;
      source.close();
      source = null;
      setTimeout(openLive, backoff);
      backoff = Math.min(backoff * 2, 60000);
    };
  }
  // A pushed step: "since seq" on the first line, then the parts that changed since the board at "since".
  function takeStep(data) {
    var now = board();
    if (!now) return;
    var cut = data.indexOf("\n"), head = (cut < 0 ? data : data.slice(0, cut)).split(" ");
    var since = +head[0], to = +head[1], seq = +(now.dataset.seq || 0);
    if (to <= seq) return;  // this board has it already (its own tap's answer brought it)
    if (cut < 0 || seq < since) { htmx.trigger(now, "live"); return; }  // it misses an earlier change: it asks
    // what is in the middle of the screen stays there (a part above it may grow or shrink)
    var mid = document.elementFromPoint(window.innerWidth / 2, window.innerHeight / 2);
    var keep = mid && mid.closest && mid.closest("[id]"), top = keep ? keep.getBoundingClientRect().top : 0;
    var keepId = keep && keep.id;
    htmx.swap(now, data.slice(cut + 1), {swapStyle: "none", swapDelay: 0, settleDelay: 20});
    now.dataset.seq = to;
    var again = keepId && document.getElementById(keepId);
    if (again) window.scrollBy(0, again.getBoundingClientRect().top - top);
  }
  // a step pushed while this phone's own tap is out waits for the tap's answer (which brings the board
  // at least as far, and keeps what was tapped under the thumb), then goes in if it is still newer
  var tapping = 0, waiting = null;
  // (counted by the request itself: the tapped control may have left the page before its answer comes,
  // a newer board having redrawn it, and htmx's afterRequest then no longer reaches the document)
  document.addEventListener("htmx:beforeSend", function (e) {
    if (!isTap(e) || !e.detail.xhr) return;
    tapping++;
    e.detail.xhr.addEventListener("loadend", function () {
      tapping = Math.max(0, tapping - 1);
      if (tapping === 0 && waiting) { var data = waiting; waiting = null; setTimeout(function () { takeStep(data); }, 0); }
    });
  });
  // a phone that goes offline has no stream (the browser may hold a dead one open): the board says
  // offline and waits; back online, the stream is opened again and says what changed meanwhile
  window.addEventListener("offline", function () {
    if (source) { source.close(); source = null; }
    streaming = false;
  });
  document.addEventListener("DOMContentLoaded", openLive);
  document.addEventListener("htmx:beforeRequest", function (e) {
    // the board's timed poll is not needed while the stream is open (a poll the phone asks for itself,
    // on waking or coming back online, or because the stream said so, still goes)
    var cfg = e.detail.requestConfig;
    if (streaming && cfg && cfg.verb === "get" && e.detail.elt && e.detail.elt.id === "board" && !cfg.triggeringEvent) e.preventDefault();
  });
  window.addEventListener("online", function () {
    if (source && source.readyState === EventSource.CLOSED) source = null;
    if (!source) openLive();
  });

  setInterval(function () {
    if (!board() || document.visibilityState !== "visible") return;
    var quiet = streaming ? 1.75 * ping() : 3 * period() + 1000;
    if (Date.now() - lastAnswer <= quiet) return;
    if (streaming) {  // a stream that went silent (a Wi-Fi that dropped without a word): open it again, poll meanwhile
      source.close(); source = null; streaming = false;
      openLive();
    }
    if (state === "live") show("reconnecting");
  }, 1000);
  document.addEventListener("visibilitychange", function () {
    // a phone that slept has not heard from the host for a while: that is not the host's fault
    if (document.visibilityState === "visible") lastAnswer = Math.max(lastAnswer, Date.now() - period());
  });
  document.addEventListener("DOMContentLoaded", function () { if (board()) show(navigator.onLine === false ? "offline" : "live"); });
})();
