// Whether the phone is in touch with the host, and how that is said. Pure: tests/js/link-state.test.js.
// "nohost": on its network, but the host does not answer (stopped, restarting); "offline" would send
// the player to their Wi-Fi settings for nothing (issue 40 §7).
import {word} from "./words.js";

// a no-break space holds the sign to its first word: beside a long seat name "●" and "live" wrapped
// onto two lines on a 390 px phone; "no answer" may still wrap between its words
export const WORD = {live: "●\u00a0" + word("live"), offline: "○\u00a0" + word("offline"),
  nohost: "○\u00a0" + word("no answer"), reconnecting: "◌\u00a0" + word("reconnecting")};
export const SAY = {live: "", reconnecting: word("Reconnecting… this board may be out of date."),
  offline: word("Offline: your taps are not sent. This board may be out of date."),
  nohost: word("The host is not answering: your taps are not sent. This board may be out of date.")};
// out of touch: a tap is refused on the spot, never sent later behind the player's back
export const cut = (state) => state === "offline" || state === "nohost";
export const refusal = (state) => (state === "nohost"
  ? word("Not sent: the host is not answering. Tap again when the board says live.")
  : word("Not sent: this phone is not in touch with the host. Tap again when the board says live."));
export const lostState = (onLine) => (onLine === false ? "offline" : "nohost");  // a request without an answer

// the poll period (ms) in the board's hx-trigger ("every 2s")
export function period(trigger) {
  const m = /every (\d+(?:\.\d+)?)s/.exec(trigger || "");
  return m ? parseFloat(m[1]) * 1000 : 2000;
}
// Out of date: no answer for three poll periods and a second or, the stream through, 1.75 of its pings.
export const isStale = ({now, lastAnswer, streaming, ping, every}) =>
  now - lastAnswer > (streaming ? 1.75 * ping : 3 * every + 1000);
// a phone that slept has not heard from the host for a while: that is not the host's fault
export const woke = (lastAnswer, now, every) => Math.max(lastAnswer, now - every);
// a stream whose first event is 10 s late (a buffering proxy, a phone that slept) is closed, another
// tried later and later
export const tooLate = (openedAt, now) => now - openedAt > 10000;
export const nextBackoff = (backoff) => Math.min(backoff * 2, 60000);
