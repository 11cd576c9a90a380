// eslint's flat config (scripts/test runs `npx eslint .` before the tests; any finding fails the run).
import js from "@eslint/js";
import globals from "globals";

const page = {...globals.browser, htmx: "readonly"};

export default [
  {ignores: ["node_modules/", ".venv/", "build/", "static/htmx-*.min.js", "static/nosleep-*.min.js", "tests/browser/vendor/"]},
  js.configs.recommended,
  {linterOptions: {reportUnusedDisableDirectives: "error"}},
  // the phone's script: ES modules, no build step (static/js/phone.js and the pages' entries)
  {files: ["static/js/**/*.js"], languageOptions: {sourceType: "module", globals: page}},
  // a game's own script: a classic one, linked in the page head (Game(scripts=...))
  {files: ["static/games/**/*.js"], languageOptions: {sourceType: "script", globals: page}},
  // htmx.ajax names the element it is asked from: without one it is the page body's request, and the
  // body holds one at a time (a second waits, its promise kept at once; a third replaces it): a helpers'
  // refresh behind a card came back unseen and wiped the player's choices, a row stayed without its card
  {files: ["static/**/*.js"], rules: {"no-restricted-syntax": ["error", {
    selector: "CallExpression[callee.object.name='htmx'][callee.property.name='ajax']" +
      ":not(:has(ObjectExpression > Property[key.name='source']))",
    message: "htmx.ajax needs {source: <element>}: without one the request is the body's and queues behind others"}]}},
  {files: ["tests/js/**/*.js", "eslint.config.js"], languageOptions: {sourceType: "module", globals: globals.node}},
];
