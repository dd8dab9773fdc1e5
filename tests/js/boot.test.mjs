// generator/assets/boot.js: onPage runs a script's start for each page, with or without the theme.
import assert from "node:assert/strict";
import { afterEach, test } from "node:test";
import { onPage } from "../../generator/assets/boot.js";

afterEach(() => {
  delete globalThis.document$;
  delete globalThis.document;
});

test("with the theme, start runs for every page its document$ announces", () => {
  const announce = [];
  globalThis.document$ = { subscribe: (next) => { announce.push(next); next(); } };
  let runs = 0;
  onPage(() => { runs += 1; });
  assert.equal(runs, 1, "the current page at once");
  announce[0]();
  assert.equal(runs, 2, "and the next page instant navigation brings");
});

test("without the theme, start runs once the document is parsed", () => {
  const listeners = [];
  globalThis.document = { readyState: "loading", addEventListener: (type, listener, options) => listeners.push({ type, listener, options }) };
  let runs = 0;
  onPage(() => { runs += 1; });
  assert.equal(runs, 0);
  assert.equal(listeners[0].type, "DOMContentLoaded");
  assert.deepEqual(listeners[0].options, { once: true });
  listeners[0].listener();
  assert.equal(runs, 1);
});

test("without the theme on a parsed document, start runs at once", () => {
  globalThis.document = { readyState: "interactive" };
  let runs = 0;
  onPage(() => { runs += 1; });
  assert.equal(runs, 1);
});
