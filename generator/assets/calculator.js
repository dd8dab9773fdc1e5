// Live calculators: wires each `.lm-calc` block drawn by calcview.render_form to one shared
// module Web Worker running the same Python in Pyodide (calc-worker.js). On a page with a
// calculator the worker starts as soon as the browser is idle after the page's own boot (it
// never blocks the main thread; the pre-rendered numbers stay until live ones replace them), or
// at once for a returning reader whose browser already holds the runtime (nothing to download).
// Pages without a calculator never start it, so they load no Pyodide bytes. Each block names
// the Python files its calculator needs (data-python-files) and the worker fetches just those.
// The runtime is calc-runtime.js; this module binds the blocks and gives each one a small API
// (calculatorOf, below) that the exercise player uses.
import { onPage } from "./boot.js";
import { figureNodes } from "./calc-figure.js";
import { declareCalculator, evaluateInWorker, runtimeState, runtimeStatus, setStatus, showStatus, startWorker, STOPPED_TEXT } from "./calc-runtime.js";
import { scenarioSearch, sharedScenario, sliderPosition, sliderText } from "./calc-text.js";

const ANNOUNCE_DELAY_MS = 600;
const URL_DELAY_MS = 400;
const IDLE_TIMEOUT_MS = 2_000;  // start by then even if the page never goes idle
const IDLE_FALLBACK_MS = 300;  // browsers without requestIdleCallback
// The site's service worker keeps the runtime once a calculator has run under it (or the reader
// saved the site for offline); its largest file stands for all of it.
const RUNTIME_PROBE = new URL("../pyodide/pyodide.asm.wasm", import.meta.url).href;

// --- number text <-> slider position (the arithmetic is in calc-text.js) ---------------------

function textToSlider(slider, text) {
  const position = sliderPosition(text, slider.dataset.scale);
  if (position !== null) slider.value = position;
}

// --- one calculator block --------------------------------------------------------------------

// A link to a scenario may point into a depth tab that is hidden: show that tab first.
function reveal(root) {
  const panel = root.closest("[role=tabpanel]");
  if (panel && (panel.hidden || !root.offsetParent)) document.getElementById(`tab-${panel.id}`)?.click();
  root.scrollIntoView();
}

// bind() keeps one block's state in its closure (form text waiting, timers, what is shown), so
// its helpers are nested in it; it is longer than our usual functions for that reason.
function bind(root) {
  if (root.dataset.bound) return;
  root.dataset.bound = "true";
  const module = root.dataset.calculator;
  const defaults = JSON.parse(root.dataset.defaults);
  const fields = new Map([...root.querySelectorAll("[data-field]")].map((el) => [el.dataset.field, el]));
  const sliders = new Map([...root.querySelectorAll("[data-slider-for]")].map((el) => [el.dataset.sliderFor, el]));
  const presets = [...root.querySelectorAll("select[data-preset]")].map((select) => ({
    select,
    options: [...select.options].filter((option) => option.dataset.values)
      .map((option) => ({ value: option.value, values: Object.entries(JSON.parse(option.dataset.values)) })),
  }));
  const announcer = root.querySelector("[data-role=announce]");
  const link = root.querySelector("[data-role=link]");
  const keyPrefix = `${root.id}.`;  // URL state: ?calc-x.tp=2&calc-x.pp=8#calc-x
  let announceTimer = 0;
  let urlTimer = 0;

  const readRaw = () => Object.fromEntries([...fields].map(([name, el]) => [name, el.value]));

  function setField(name, text) {
    const el = fields.get(name);
    if (!el) return;
    el.value = text;
    if (sliders.has(name)) textToSlider(sliders.get(name), text);
  }

  function syncPresets() {
    for (const { select, options } of presets) {
      const match = options.find(({ values }) => values.every(([name, text]) => fields.get(name)?.value === text));
      const value = match ? match.value : "";
      if (select.value !== value) select.value = value;
    }
  }

  // The scenario lives in the query, not the fragment: Material's navigation.tracking rewrites
  // the fragment while the reader scrolls. The fragment names the block, so a shared link
  // scrolls to it (and the depth switcher opens its tab).
  function scenarioUrl(raw) {
    const url = new URL(location.href);
    url.search = scenarioSearch(url.search, keyPrefix, raw, defaults);
    return url;
  }

  function rememberInUrl(raw) {
    if (!root.isConnected) return;  // the reader has left the page: its URL is no longer ours
    const url = scenarioUrl(raw);
    if (link) link.href = `${url.search}#${root.id}`;
    if (url.search !== location.search) history.replaceState(history.state, "", url);
  }

  // Only what changed is written: each write costs style work, and a figure's SVG a parse.
  const errorSlots = [...root.querySelectorAll("[data-error-for]")];
  const outputs = [...root.querySelectorAll("[data-output], [data-glance]")];
  const figureArt = [...root.querySelectorAll("[data-figure-art]")].map((art) => ({ art, svg: null }));
  const invalidNote = root.querySelector("[data-role=invalid-note]");
  const glanceItems = [...root.querySelectorAll(".lm-calc__glance-item")];
  const glanceError = root.querySelector("[data-role=glance-error]");
  const notesBox = root.querySelector("[data-role=notes]");
  const notesList = root.querySelector("[data-role=notes-list]");
  let figureFrame = 0;

  // Where the model stops holding for these inputs: one list item per note, as text.
  function showNotes(notes) {
    if (!notesList || notesList.dataset.shown === JSON.stringify(notes)) return;
    notesList.dataset.shown = JSON.stringify(notes);
    notesList.replaceChildren(...notes.map((note) => Object.assign(document.createElement("li"), { textContent: note })));
    notesBox.hidden = notes.length === 0;
  }

  // Figures are drawn once per frame, just before it is painted: the numbers land first, and
  // a slider drag that brings several results within one frame parses only the last SVG.
  function drawFigures(figures) {
    cancelAnimationFrame(figureFrame);
    figureFrame = requestAnimationFrame(() => {
      for (const figure of figureArt) {
        const svg = figures[figure.art.dataset.figureArt] ?? "";
        if (figure.svg === svg) continue;
        figure.svg = svg;
        figure.art.replaceChildren(...figureNodes(svg));
      }
    });
  }

  // The sticky bar of key results says why there are none for these values (a refused value,
  // a shared link's too, or a computation stopped), instead of the last valid values' results;
  // while a shared link's values wait for the runtime, it says so instead of the page's own.
  function sayAtAGlance(text, { problem = true } = {}) {
    if (!glanceError) return;
    for (const item of glanceItems) item.hidden = Boolean(text);
    glanceError.textContent = text && problem ? `Results not updated: ${text}` : text;
    glanceError.classList.toggle("lm-calc__glance-error--pending", !problem);
    glanceError.hidden = !text;
  }
  function refusedAtAGlance(errors) {
    const messages = Object.values(errors);
    const more = messages.length > 1 ? ` (and ${messages.length - 1} more field${messages.length > 2 ? "s" : ""})` : "";
    return messages.length ? messages[0] + more : "";
  }

  function show(result) {
    shown = result;
    sayAtAGlance(result.ok ? "" : refusedAtAGlance(result.errors));
    for (const slot of errorSlots) {
      const message = result.errors[slot.dataset.errorFor] || "";
      if (slot.textContent !== message) slot.textContent = message;
      const field = fields.get(slot.dataset.errorFor);
      const invalid = message ? "true" : "false";
      if (field && field.getAttribute("aria-invalid") !== invalid) field.setAttribute("aria-invalid", invalid);
    }
    root.classList.toggle("lm-calc--invalid", !result.ok);
    invalidNote?.toggleAttribute("hidden", result.ok);
    root.classList.remove("lm-calc--stale");
    if (result.ok) {
      for (const output of outputs) {
        const name = output.dataset.output ?? output.dataset.glance;
        const shown = result.display[name] ?? "—";
        if (output.textContent !== shown) output.textContent = shown;
        if (!output.dataset.output) continue;  // a key result repeated in the sticky bar
        const value = JSON.stringify(result.values[name] ?? null);
        if (output.dataset.value !== value) output.dataset.value = value;
      }
      showNotes(result.notes ?? []);
      drawFigures(result.figures);
    }
    clearTimeout(announceTimer);
    announceTimer = setTimeout(() => { announcer.textContent = result.announcement; }, ANNOUNCE_DELAY_MS);
  }

  // Only the latest form text matters: while one request is out, newer text waits here (each
  // edit replacing the last), so edits never queue up behind a slow answer.
  let wanted = null;
  let asking = false;
  let answered = Promise.resolve();  // settles once the latest form text has been answered
  let shown = null;  // the result on show, null while the numbers are the page's own or stopped
  let lastEdited = "_form";  // the field a deadline message is shown by

  function showStopped() {
    shown = null;
    for (const slot of errorSlots) slot.textContent = slot.dataset.errorFor === lastEdited ? STOPPED_TEXT : "";
    fields.get(lastEdited)?.setAttribute("aria-invalid", "true");
    root.classList.add("lm-calc--invalid");
    sayAtAGlance(STOPPED_TEXT);
    invalidNote?.removeAttribute("hidden");
  }

  async function askWorker() {
    asking = true;
    while (wanted) {
      const raw = wanted;
      wanted = null;
      try {
        const result = await evaluateInWorker(module, raw);
        if (!wanted) show(result);
      } catch (error) {
        if (error.restarted) wanted ??= raw;  // another block's request was stopped: ask the fresh worker
        else if (error.timedOut) { if (!wanted) showStopped(); }
        else {
          if (runtimeState() !== "failed") setStatus("failed", `Calculator failed: ${error.message}`);
          if (root.classList.contains("lm-calc--stale")) sayAtAGlance("the live calculator did not start, so these values were not worked out");
          break;
        }
      }
    }
    asking = false;
  }

  // afterResult: work the result need not wait for, done once it is shown (or at once while
  // the calculator is not live). Changing a <select> from script makes Chromium's autofill
  // scan the form, 2-4 ms of main-thread work that would otherwise delay the answer.
  async function recompute(afterResult = null) {
    const raw = readRaw();
    if (afterResult && (runtimeState() !== "ready" || asking)) {
      afterResult();
      afterResult = null;
    }
    clearTimeout(urlTimer);  // history.replaceState costs 4-18 ms: write the URL once the reader pauses
    urlTimer = setTimeout(() => rememberInUrl(raw), URL_DELAY_MS);
    wanted = raw;
    if (asking) return;
    answered = askWorker();
    try {
      await answered;
    } finally {
      afterResult?.();
    }
  }

  // Sets fields by name (the text a reader would type), as one edit: one answer for them all.
  function set(values) {
    for (const [name, text] of Object.entries(values)) {
      if (!fields.has(name)) continue;
      setField(name, text);
      lastEdited = name;
    }
    syncPresets();
    recompute();
  }

  // What each output shows now: its label, its text, and the exact value behind it.
  function shownOutputs() {
    return Object.fromEntries(outputs.filter((output) => output.dataset.output).map((output) => [output.dataset.output, {
      label: output.previousElementSibling?.textContent.trim() || output.dataset.output,
      text: output.textContent.trim(),
      value: JSON.parse(output.dataset.value ?? "null"),
    }]));
  }

  instances.set(root, Object.freeze({
    set,
    result: () => answered.then(() => shown),
    outputs: shownOutputs,
    label: (name) => fields.get(name)?.labels?.[0]?.textContent.trim() || name,
    ready: () => startWorker().then(() => true, () => false),
  }));

  function onInput(event) {
    const target = event.target;
    lastEdited = target.dataset.field ?? target.dataset.sliderFor ?? "_form";
    if (target.dataset.sliderFor) fields.get(target.dataset.sliderFor).value = sliderText(Number(target.value), Number(target.dataset.step), target.dataset.scale);
    else if (target.dataset.field && sliders.has(target.dataset.field)) textToSlider(sliders.get(target.dataset.field), target.value);
    else if (target.dataset.preset) {
      const option = target.selectedOptions[0];
      if (!option?.dataset.values) return;
      for (const [name, text] of Object.entries(JSON.parse(option.dataset.values))) setField(name, text);
    } else if (!target.dataset.field) return;
    recompute(target.dataset.preset ? null : syncPresets);  // the preset menus follow the fields
  }

  function reset() {
    lastEdited = "_form";
    for (const [name, text] of Object.entries(defaults)) setField(name, text);
    syncPresets();
    recompute();
  }

  root.addEventListener("input", onInput);
  root.querySelector("form")?.addEventListener("submit", (event) => event.preventDefault());
  root.querySelector("[data-action=reset]")?.addEventListener("click", reset);
  root.addEventListener("focusin", startWorker, { once: true });  // a reader quicker than the idle time
  root.addEventListener("pointerdown", startWorker, { once: true });
  showStatus(root.querySelector(".lm-calc__status"));
  declareCalculator(root);  // a worker kept from an earlier page: it adds this calculator

  const shared = sharedScenario(location.search, keyPrefix);
  if (shared.length) {  // a shared link: restore its scenario
    for (const [name, text] of shared) setField(name, text);
    syncPresets();
    root.classList.add("lm-calc--stale");
    sayAtAGlance("Working out the results for this link's values…", { problem: false });
    reveal(root);
    recompute();
  } else {
    whenStarting(() => { if (root.isConnected) startWorker(); });  // not if the reader has already left
  }
}

// A first visit waits until the page is idle, so that it paints before 13 MB start to arrive; a
// returning reader whose runtime is cached has nothing to download and gets it at once.
function whenStarting(callback) {
  runtimeIsCached().then((cached) => (cached ? callback() : whenIdle(callback)));
}

async function runtimeIsCached() {
  if (!navigator.serviceWorker?.controller || typeof caches === "undefined") return false;
  try {
    return Boolean(await caches.match(RUNTIME_PROBE));
  } catch {
    return false;  // storage refused (e.g. a private window's limits): wait for idle as on a first visit
  }
}

function whenIdle(callback) {
  if (typeof requestIdleCallback === "function") requestIdleCallback(() => callback(), { timeout: IDLE_TIMEOUT_MS });
  else setTimeout(callback, IDLE_FALLBACK_MS);
}

// One calculator's API, for the exercise player, tests and benchmarks (null before it is bound):
//   calc.set({name: text, …})   types values into its fields, as one edit
//   await calc.result()         the result once the latest values are answered (null if stopped
//                               or failed; then the page shows why)
//   calc.outputs()              {name: {label, text, value}} as shown now
//   calc.label(name)            an input's label, found inside this calculator
//   await calc.ready()          starts the runtime if needed: true once it runs, false if it failed
const instances = new WeakMap();
export const calculatorOf = (root) => instances.get(root) ?? null;

function bindAll() {
  document.querySelectorAll(".lm-calc[data-calculator]").forEach(bind);
}

// For tests and benchmarks: the runtime's status, and a calculator's API by its element id.
globalThis.layermapCalculator = Object.freeze({
  status: runtimeStatus,
  of: (id) => calculatorOf(document.getElementById(id)),
});

onPage(bindAll);
