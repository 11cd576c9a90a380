// What the script says itself, in the page's language (issue 42; companion/i18n.py: phone_words).
const given = JSON.parse(globalThis.document?.getElementById("phone-words")?.textContent || "{}");
export const word = (english) => given[english] || english;
