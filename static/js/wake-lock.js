// Keep the screen on while a table is open (Secretariat #151). The Wake Lock API exists only in secure
// contexts; over http://<LAN address> the muted looping video of nosleep.js (vendored, MIT) does it, from
// the first tap. Both are taken again when the page is visible again.
import {one, on} from "./dom.js";

export function install() {
  let lock = null, video = null, failed = false;
  // "lock", "video", "none" (it may go dark) or "ask" (a tap may start it): the page says so (issue 28 §8)
  function awake(how) {
    document.body.dataset.awake = how;
    const mark = one("[data-awake-mark]"), hint = one("[data-awake-hint]"), ask = one("[data-awake-ask]");
    if (mark) mark.hidden = how !== "lock" && how !== "video";
    if (hint) hint.hidden = how !== "none";
    if (ask) ask.hidden = how !== "ask";
  }
  function byVideo() {
    if (!window.NoSleep) return awake("none");
    video ||= window.companionNoSleep = new window.NoSleep();  // (the browser tests reach it)
    const v = video.noSleepVideo;
    if (v) { v.muted = true; v.setAttribute("muted", ""); }
    video.enable().then(() => awake("video"), () => { failed = true; awake("none"); });
  }
  function wake(e) {
    if (!document.body?.hasAttribute("data-wakelock") || document.visibilityState !== "visible") return;
    if (!document.body.dataset.awake) awake("ask");  // until the lock or the video holds it
    if ("wakeLock" in navigator && !failed) {
      if (!lock) navigator.wakeLock.request("screen").then((l) => {
        lock = l;
        awake("lock");
        l.addEventListener("release", () => { lock = null; if (document.body.dataset.awake === "lock") awake("ask"); });
      }).catch(() => {
        // (not allowed before a tap, or refused: the video from the next tap)
        if (e?.isTrusted && e.type !== "visibilitychange") { failed = true; byVideo(); }
      });
    // the video starts from a tap; paused while hidden, it plays again
    } else if ((e?.type === "click" || e?.type === "touchend") && !(video?.isEnabled && !video.noSleepVideo.paused)) byVideo();
    else if (e?.type === "visibilitychange" && video?.isEnabled) video.noSleepVideo.play().catch(() => {});
  }
  on("DOMContentLoaded", wake);
  on("visibilitychange", wake);
  on("click", wake, true);
  on("touchend", wake, true);
}
