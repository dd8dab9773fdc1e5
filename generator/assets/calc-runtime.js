// The calculator runtime: one module Web Worker running the same Python in Pyodide
// (calc-worker.js), shared by every calculator block of the page (calculator.js). It is
// module-global, so it survives mkdocs-material's instant navigation: the next calculator page
// reuses the running runtime and only adds its files. Its state is shown in every block's
// status line; a request stuck past its deadline restarts it.

const WORKER_URL = new URL("calc-worker.js", import.meta.url);
const START_TIMEOUT_MS = 120_000;  // a cold start takes 3-25 s; past this, say it failed
const REQUEST_DEADLINE_MS = 3_000;  // once the worker is ready, each answer takes ~1-50 ms
const BUSY_NOTICE_MS = 400;  // an answer slower than this: the status stops saying "ready"
const READY_TEXT = "Calculator ready: results update as you change the values.";
const STARTING_TEXT = "Live calculator starting";
const SHOWN_TEXT = "the results shown are already right.";
const RESTARTED_TEXT = `Calculator restarted: a computation took longer than ${REQUEST_DEADLINE_MS / 1000} s and was stopped.`;
const NOT_KEPT_TEXT = "Calculator offline: this browser has not kept its Python runtime (about 13 MB), so the results shown are "
  + "for the values the page was built with. Once online, “Save for offline” keeps it (visiting a calculator page does too).";
export const STOPPED_TEXT = `These values took longer than ${REQUEST_DEADLINE_MS / 1000} s to compute, so the calculator stopped and restarted. Change a value to try again.`;

// generation: how many workers this page session has started (1 unless one was restarted);
// sent: calculators whose files the current worker has been asked to load.
const runtime = { worker: null, ready: null, state: "idle", text: "", nextId: 0, pending: new Map(), restarted: false,
                  generation: 0, sent: new Set() };

// The page's first start of the runtime, over once it is ready or has failed.
let firstStartOver;
const firstStart = new Promise((resolve) => { firstStartOver = resolve; });

// For offline.js: on a page with a calculator, settles once the runtime has started or failed
// (the service worker's first install downloads every page and asset, which would slow the
// runtime's start); on a page without one, at once.
export function calculatorsSettled() {
  return document.querySelector(".lm-calc[data-bound]") ? firstStart : Promise.resolve();
}

export function setStatus(state, text) {
  Object.assign(runtime, { state, text });
  for (const status of document.querySelectorAll(".lm-calc[data-bound] .lm-calc__status")) showStatus(status);
}

export function showStatus(status) {
  if (runtime.state === "idle") return;
  status.dataset.state = runtime.state;
  status.textContent = runtime.text;
}

// The worker fetches a calculator's Python when the first page that has it asks, once.
export function declareCalculator(root) {
  const module = root.dataset.calculator;
  if (!runtime.worker || runtime.sent.has(module)) return;
  runtime.sent.add(module);
  runtime.worker.postMessage({ type: "load", module, files: JSON.parse(root.dataset.pythonFiles ?? "[]") });
}

// The calculator worker (calc-worker.js); saved: it runs the runtime from the service worker's saved copy.
const SAVED_RUNTIME = "saved-runtime";  // the worker's name that says so, as calc-worker.js
const newWorker = (saved) => new Worker(WORKER_URL, { type: "module", ...(saved ? { name: SAVED_RUNTIME } : {}) });

export function startWorker() {
  if (runtime.ready) return runtime.ready;
  const note = runtime.restarted ? `${RESTARTED_TEXT} ` : "";
  const loading = runtime.restarted ? "restarting" : "loading";
  setStatus(loading, `${note}${STARTING_TEXT}… ${SHOWN_TEXT}`);
  runtime.ready = new Promise((resolve, reject) => {
    const watchdog = setTimeout(() => fail(`no answer after ${START_TIMEOUT_MS / 1000} s`), START_TIMEOUT_MS);
    const fail = (reason, text = `Calculator failed: ${reason}. The results shown are for the values the page was built with.`) => {
      clearTimeout(watchdog);
      setStatus("failed", text);
      reject(new Error(reason));
    };
    // The network failed the runtime (online but unreachable): once more from the saved copy, if
    // the site's service worker runs this page (it has one when the reader used or saved it before).
    const launch = (saved) => {
      try {
        runtime.worker = newWorker(saved);
      } catch (error) {
        fail(error.message);
        return;
      }
      runtime.generation += 1;
      runtime.sent = new Set();
      document.querySelectorAll(".lm-calc[data-bound]").forEach(declareCalculator);
      runtime.worker.onerror = (event) => fail(event.message || "the calculator worker could not start");
      runtime.worker.onmessage = ({ data }) => {
        if (data.type === "progress") setStatus(loading, `${note}${STARTING_TEXT} (${data.text}…); ${SHOWN_TEXT}`);
        else if (data.type === "ready") {
          clearTimeout(watchdog);
          setStatus("ready", `${note}${READY_TEXT}`);
          resolve();  // offline.js then has the site's service worker keep the runtime for offline reading
        } else if (data.type === "failed" && data.notKept) fail(data.reason, NOT_KEPT_TEXT);
        else if (data.type === "failed" && data.unreachable && !saved && navigator.serviceWorker?.controller) {
          runtime.worker.terminate();
          launch(true);
        } else if (data.type === "failed") fail(data.reason);
        else settle(data);
      };
    };
    launch(false);
  });
  runtime.ready.then(firstStartOver, firstStartOver);  // failure is shown in the status line
  return runtime.ready;
}

// A request whose answer is over: its timers stop, and the status says "ready" again once
// nothing is left waiting.
function finish(id, readyAgain = true) {
  const request = runtime.pending.get(id);
  if (!request) return null;
  runtime.pending.delete(id);
  clearTimeout(request.deadline);
  clearTimeout(request.busyNotice);
  if (readyAgain && runtime.state === "busy" && runtime.pending.size === 0) setStatus("ready", READY_TEXT);
  return request;
}

function settle({ type, id, json, reason }) {
  const request = finish(id);
  if (!request) return;
  if (type === "result") request.resolve(JSON.parse(json));
  else request.reject(new Error(reason));
}

// A request past its deadline: the worker is stuck in it. Terminating is the only way to stop
// Python mid-computation; a fresh worker takes over (with its own start budget), and every
// other waiting request is told to ask again.
function expire(id) {
  const request = finish(id, false);
  if (!request) return;
  runtime.worker?.terminate();
  Object.assign(runtime, { worker: null, ready: null, restarted: true });
  for (const other of [...runtime.pending.keys()]) finish(other, false)?.reject(Object.assign(new Error("restarted"), { restarted: true }));
  request.reject(Object.assign(new Error(RESTARTED_TEXT), { timedOut: true }));
  startWorker();  // its status says it is a restart
}

export async function evaluateInWorker(module, raw) {
  await startWorker();
  const id = ++runtime.nextId;
  return new Promise((resolve, reject) => {
    const deadline = setTimeout(() => expire(id), REQUEST_DEADLINE_MS);
    const busyNotice = setTimeout(() => setStatus("busy", "Calculator working on the last change…"), BUSY_NOTICE_MS);
    runtime.pending.set(id, { resolve, reject, deadline, busyNotice });
    runtime.worker.postMessage({ id, module, raw });
  });
}

// What the runtime is doing now: "idle", "loading", "restarting", "ready", "busy" or "failed".
export const runtimeState = () => runtime.state;

// For tests and benchmarks: is the runtime up, and is it still the worker this reading session
// started (generation 1), whatever pages were opened since.
export const runtimeStatus = () => ({ state: runtime.state, generation: runtime.generation, calculators: [...runtime.sent] });
