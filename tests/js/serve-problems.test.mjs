// generator/assets/serve-problems.js: what the serve overlay says for a regeneration's status.
import assert from "node:assert/strict";
import { test } from "node:test";
import { heading, problemLines, problemsOf, sameProblems } from "../../generator/assets/serve-problems.js";

const bad = { where: "content/x.yaml:12:5", severity: "error", field: "depths.D2.body", message: "is empty", fix: "write the body" };

test("an ok status, or something that is no status, has no problems", () => {
  assert.deepEqual(problemsOf({ ok: true }), []);
  assert.deepEqual(problemsOf(null), []);
  assert.deepEqual(problemsOf("oops"), []);
});

test("each problem shows its place, what is wrong with its field, and the fix", () => {
  assert.deepEqual(problemsOf({ ok: false, problems: [bad] }), [
    { where: "content/x.yaml:12:5", what: "depths.D2.body: is empty", fix: "fix: write the body" },
  ]);
});

test("a problem with no field, place or fix shows only what is wrong", () => {
  assert.deepEqual(problemLines({ message: "engine failed" }), { where: "", what: "engine failed", fix: "" });
  assert.deepEqual(problemLines({ where: 3, message: null }), { where: "", what: "(no message)", fix: "" });
});

test("a failure without a readable problem still says the page is out of date", () => {
  const problems = problemsOf({ ok: false, problems: [null, 4] });
  assert.equal(problems.length, 1);
  assert.match(problems[0].what, /see the terminal/);
});

test("the heading counts the problems", () => {
  assert.equal(heading(1), "Content has 1 problem — this page is out of date");
  assert.equal(heading(3), "Content has 3 problems — this page is out of date");
});

test("the same problems again are recognised, different ones are not", () => {
  const a = problemsOf({ ok: false, problems: [bad] });
  assert.ok(sameProblems(a, problemsOf({ ok: false, problems: [{ ...bad }] })));
  assert.ok(!sameProblems(a, problemsOf({ ok: false, problems: [{ ...bad, message: "other" }] })));
  assert.ok(!sameProblems(a, null));
});
