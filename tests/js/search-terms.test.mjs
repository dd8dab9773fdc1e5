// generator/assets/search-terms.js: which words a search hit names, and how many a text holds.
import assert from "node:assert/strict";
import { test } from "node:test";
import { searchWords, termsFound } from "../../generator/assets/search-terms.js";

test("a query splits at spaces and hyphens, in lower case, without one-letter words", () => {
  assert.deepEqual(searchWords("KV-cache  of a GPU"), ["kv", "cache", "of", "gpu"]);
  assert.deepEqual(searchWords(""), []);
});

test("a term counts where it starts a word, not inside one", () => {
  assert.equal(termsFound("The KV cache grows", ["cache", "kv"]), 2);
  assert.equal(termsFound("a cachet", ["cache"]), 1);
  assert.equal(termsFound("a precache", ["cache"]), 0);
  assert.equal(termsFound("Ünïcode words", ["ünï"]), 1);
});

test("terms are matched as text, never as patterns", () => {
  assert.equal(termsFound("c++ and c#", ["c++", "c#"]), 2);
  assert.equal(termsFound("anything", [".*"]), 0);
});
