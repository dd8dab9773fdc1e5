// Serve only: what the problems overlay says, worked out from serve-status.json (pure; no DOM).
// A status is {ok: true} or {ok: false, problems: [{where, severity, field, message, fix}]}.

// Problems to show, or none when the status is ok (or not a status at all: nothing is claimed).
export function problemsOf(status) {
  if (!status || typeof status !== "object" || status.ok !== false) return [];
  const problems = Array.isArray(status.problems) ? status.problems : [];
  const list = problems.filter((p) => p && typeof p === "object").map(problemLines);
  return list.length ? list : [problemLines({ message: "the last regeneration failed; see the terminal" })];
}

export function heading(count) {
  return `Content has ${count} ${count === 1 ? "problem" : "problems"} — this page is out of date`;
}

// One problem as the overlay shows it: the place (file:line:column), what is wrong, how to fix it.
export function problemLines(problem) {
  const text = (value) => (typeof value === "string" ? value : "");
  const field = text(problem.field);
  const message = text(problem.message) || "(no message)";
  return {
    where: text(problem.where),
    what: field ? `${field}: ${message}` : message,
    fix: text(problem.fix) ? `fix: ${text(problem.fix)}` : "",
  };
}

// The same problems as last time? Then the overlay is left as it is (and a hidden one stays hidden).
export function sameProblems(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}
