// generator/assets/calc-text.js: number text <-> slider position, scenario <-> address.
import assert from "node:assert/strict";
import { test } from "node:test";
import { scenarioSearch, sharedScenario, sliderPosition, sliderText } from "../../generator/assets/calc-text.js";

test("a linear slider's position rounds to its step", () => {
  assert.equal(sliderText(7.3000000001, 0.1, "linear"), "7.3");
  assert.equal(sliderText(12, 4, "linear"), "12");
  assert.equal(sliderText(13, 4, "linear"), "12");
  assert.equal(sliderText(0.30000000000000004, 0, "linear"), "0.3");
});

test("a log slider's position is a power of ten, kept to three figures below a step of one", () => {
  assert.equal(sliderText(2, 1, "log"), "100");
  assert.equal(sliderText(1.5, 1, "log"), "32");
  assert.equal(sliderText(Math.log10(70), 0.1, "log"), "70");
  assert.equal(sliderText(Math.log10(1234.5), 0.1, "log"), "1230");
});

test("number text gives a slider position; text that is no number for it gives none", () => {
  assert.equal(sliderPosition("1,000", "log"), "3");
  assert.equal(sliderPosition("2.5", "linear"), "2.5");
  assert.equal(sliderPosition("-1", "linear"), "-1");
  assert.equal(sliderPosition("0", "log"), null);
  assert.equal(sliderPosition("-5", "log"), null);
  assert.equal(sliderPosition("many", "linear"), null);
});

test("a slider's position and its text go back and forth", () => {
  for (const text of ["1", "70", "405", "2000"]) assert.equal(sliderText(Number(sliderPosition(text, "log")), 1, "log"), text);
});

test("the address keeps only the values that differ from the defaults, under the calculator's prefix", () => {
  const defaults = { tp: "1", pp: "1" };
  assert.equal(scenarioSearch("", "calc-x.", { tp: "1", pp: "1" }, defaults), "");
  assert.equal(scenarioSearch("", "calc-x.", { tp: "8", pp: "1" }, defaults), "?calc-x.tp=8");
  assert.equal(scenarioSearch("?calc-x.pp=4&h=gpu&calc-y.tp=2", "calc-x.", { tp: "2", pp: "1" }, defaults), "?h=gpu&calc-y.tp=2&calc-x.tp=2");
  assert.equal(scenarioSearch("", "calc-x.", { tp: "1 000" }, defaults), "?calc-x.tp=1+000");
});

test("a shared address sets only its own calculator's fields", () => {
  assert.deepEqual(sharedScenario("?calc-x.tp=8&calc-y.tp=2&calc-x.pp=1+000", "calc-x."), [["tp", "8"], ["pp", "1 000"]]);
  assert.deepEqual(sharedScenario("", "calc-x."), []);
});
