// A move's time on the phone's own clock (issue 42: dates per locale): the server writes it in UTC
// (companion/store/chain.py), the log shows it as the reader's clock and language say.

// "2026-11-29T08:24:46.775+00:00" -> "09:24:46" in Berlin for "de"; the text as it is if not a time
export function ownTime(iso, lang) {
  let at = new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(iso) ? iso : iso + "Z");  // (no zone written: UTC)
  if (isNaN(at)) return null;
  return at.toLocaleTimeString(lang || undefined, {hour: "2-digit", minute: "2-digit", second: "2-digit"});
}

// every <time datetime> under root, in the page's language
export function ownClock(root) {
  let lang = document.documentElement.lang;
  Array.prototype.forEach.call(root.querySelectorAll("time[datetime]"), function (t) {
    let text = ownTime(t.getAttribute("datetime"), lang);
    if (text) t.textContent = text;
  });
}
