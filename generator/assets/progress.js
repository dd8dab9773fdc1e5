// Reading progress: which topics the reader has read, at which depth. Kept in this browser
// only (localStorage, a versioned record per site), never sent anywhere; it outlives service
// worker updates and new deployments (neither touches localStorage). Shown on each depth's
// "Mark as read" control, on the drawn map (read / in progress) and in learning plans ("3 of 7
// read"); the plans' page exports it to a file, imports one and forgets it; the home page's
// picker opens a plan. One script, so the downloadable copy (classic scripts) has one store.
import { onPage } from "./boot.js";

const VERSION = 1;
const PREFIX = "layermap.progress";
const DEPTH_KEY = "layermap.depth"; // the depth the reader chose (depth.js)
const DEPTHS = ["D1", "D2", "D3", "D4", "D5"];

// One record per site: GitHub Pages project sites of one user share an origin, so the key
// names the site's own path (the theme's base URL), as the theme does for its own settings.
function storageKey() {
  let base = ".";
  try { base = JSON.parse(document.getElementById("__config")?.textContent || "{}").base || "."; } catch { /* a bare page */ }
  return `${PREFIX}:${new URL(base, location.href).pathname}`;
}

function emptyProgress() {
  return { version: VERSION, read: {} };
}

// A progress record from untrusted JSON (an imported file, an old version): only topic ids,
// depth keys and dates pass; anything else is dropped. Returns null when it is not one at all.
function cleanProgress(data) {
  if (!data || typeof data !== "object" || data.version !== VERSION || typeof data.read !== "object" || !data.read) return null;
  const clean = emptyProgress();
  for (const [topic, depths] of Object.entries(data.read)) {
    if (!/^[a-z0-9][a-z0-9-]{0,80}$/.test(topic) || !depths || typeof depths !== "object") continue;
    for (const [depth, when] of Object.entries(depths)) {
      if (DEPTHS.includes(depth) && typeof when === "string" && !Number.isNaN(Date.parse(when))) {
        clean.read[topic] ??= {};
        clean.read[topic][depth] = new Date(when).toISOString();
      }
    }
  }
  return clean;
}

function loadProgress() {
  try { return cleanProgress(JSON.parse(localStorage.getItem(storageKey()) || "null")) ?? emptyProgress(); } catch { return emptyProgress(); }
}

function saveProgress(progress) {
  try { localStorage.setItem(storageKey(), JSON.stringify(progress)); return true; } catch { return false; }
}

function forgetProgress() {
  try { localStorage.removeItem(storageKey()); } catch { /* nothing kept */ }
}

// Two records as one: every mark of either, the later date where both have one.
function mergeProgress(ours, theirs) {
  const merged = cleanProgress(JSON.parse(JSON.stringify(ours))) ?? emptyProgress();
  for (const [topic, depths] of Object.entries(theirs.read)) {
    for (const [depth, when] of Object.entries(depths)) {
      merged.read[topic] ??= {};
      const kept = merged.read[topic][depth];
      if (!kept || kept < when) merged.read[topic][depth] = when;
    }
  }
  return merged;
}

function setRead(topic, depth, read) {
  const progress = loadProgress();
  if (read) {
    progress.read[topic] ??= {};
    progress.read[topic][depth] = new Date().toISOString();
  } else if (progress.read[topic]) {
    delete progress.read[topic][depth];
    if (!Object.keys(progress.read[topic]).length) delete progress.read[topic];
  }
  saveProgress(progress);
  showProgress();
}

// Read at `depth` or deeper.
function readAt(progress, topic, depth) {
  const marks = Object.keys(progress.read[topic] || {});
  return marks.some((key) => DEPTHS.indexOf(key) >= DEPTHS.indexOf(depth));
}

// "read" at the reader's chosen depth (any depth when none is chosen), "progress" below it, "" unread.
function topicState(progress, topic, chosen) {
  const marks = Object.keys(progress.read[topic] || {});
  if (!marks.length) return "";
  return !chosen || readAt(progress, topic, chosen) ? "read" : "progress";
}

function chosenDepth() {
  try { const key = localStorage.getItem(DEPTH_KEY); return DEPTHS.includes(key) ? key : null; } catch { return null; }
}

function showMarks(progress) {
  for (const mark of document.querySelectorAll(".lm-read-mark[data-topic][data-depth]")) {
    const { topic, depth } = mark.dataset;
    const read = Boolean(progress.read[topic]?.[depth]);
    const button = mark.querySelector("button");
    button.setAttribute("aria-pressed", String(read));
    button.textContent = read ? `${depth} read ✓ (undo)` : `Mark ${depth} as read`;
    if (mark.dataset.bound === undefined) {
      mark.dataset.bound = "";
      button.addEventListener("click", () => setRead(topic, depth, button.getAttribute("aria-pressed") !== "true"));
    }
  }
}

const STATE_WORDS = { read: "read", progress: "in progress" };

function showOnMaps(progress) {
  const chosen = chosenDepth();
  for (const node of document.querySelectorAll(".lm-node[data-id]")) {
    const state = topicState(progress, node.dataset.id, chosen);
    node.classList.toggle("lm-read", state === "read");
    node.classList.toggle("lm-reading", state === "progress");
    node.dataset.label ??= node.getAttribute("aria-label") || "";
    node.setAttribute("aria-label", state ? `${node.dataset.label}; ${STATE_WORDS[state]}` : node.dataset.label);
  }
}

function showPlans(progress) {
  for (const plan of document.querySelectorAll("ol.lm-plan")) {
    const steps = [...plan.querySelectorAll(".lm-plan-step[data-topic][data-depth]")];
    let done = 0;
    for (const step of steps) {
      const read = readAt(progress, step.dataset.topic, step.dataset.depth);
      step.classList.toggle("lm-done", read);
      done += read ? 1 : 0;
    }
    const line = plan.parentElement?.querySelector("[data-plan-progress]");
    if (line) {
      line.textContent = `${done} of ${steps.length} read in this browser.`;
      line.hidden = false;
    }
  }
}

function showProgress() {
  const progress = loadProgress();
  showMarks(progress);
  showOnMaps(progress);
  showPlans(progress);
}

// --- the plans' page: export, import, forget ---------------------------------------------------

function say(tools, text) {
  const status = tools.querySelector("[data-progress=status]");
  if (status) status.textContent = text;
}

function exportProgress(tools) {
  const progress = loadProgress();
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([JSON.stringify(progress, null, 2)], { type: "application/json" }));
  link.download = "layermap-progress.json";
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
  say(tools, `Saved ${Object.keys(progress.read).length} topics' marks to layermap-progress.json.`);
}

async function importProgress(tools, file) {
  let data = null;
  try { data = cleanProgress(JSON.parse(await file.text())); } catch { data = null; }
  if (!data) return say(tools, `${file.name} is not a layermap progress file (version ${VERSION}); nothing changed.`);
  saveProgress(mergeProgress(loadProgress(), data));
  showProgress();
  say(tools, `Added the marks of ${Object.keys(data.read).length} topics from ${file.name}.`);
}

function bindTools(tools) {
  if (tools.dataset.bound !== undefined) return;
  tools.dataset.bound = "";
  tools.hidden = false;
  tools.querySelector("[data-progress=export]")?.addEventListener("click", () => exportProgress(tools));
  const picker = tools.querySelector("[data-progress=import]");
  picker?.addEventListener("change", () => { if (picker.files?.[0]) importProgress(tools, picker.files[0]).finally(() => { picker.value = ""; }); });
  tools.querySelector("[data-progress=forget]")?.addEventListener("click", () => {
    if (!confirm("Forget every topic you marked as read in this browser?")) return;
    forgetProgress();
    showProgress();
    say(tools, "Forgotten: no topic is marked as read in this browser.");
  });
}

// --- the home page's picker: "I want to understand … at …" ------------------------------------

function bindPicker(form) {
  if (form.dataset.bound !== undefined) return;
  form.dataset.bound = "";
  let targets = {};
  try { targets = JSON.parse(form.dataset.targets || "{}"); } catch { /* the form still goes to the plans' page */ }
  form.addEventListener("submit", (event) => {
    const topic = targets[form.elements.topic.value] || {};
    const wanted = form.elements.depth.value;
    const depth = DEPTHS.includes(wanted) && topic[wanted] ? wanted : [...DEPTHS].reverse().find((key) => key <= wanted && topic[key]) || Object.keys(topic)[0];
    if (!depth) return;
    event.preventDefault();
    location.assign(new URL(topic[depth], location.href).href);
  });
}

// A mark clicked before this script bound it (the head script noted the click): read, as its
// button offered ("Mark … as read" is what it says until it is bound).
function markEarlyClicks() {
  for (const mark of document.querySelectorAll(".lm-read-mark[data-lm-clicked][data-topic][data-depth]")) {
    delete mark.dataset.lmClicked;
    setRead(mark.dataset.topic, mark.dataset.depth, true);
  }
}

function start() {
  for (const tools of document.querySelectorAll(".lm-progress-tools")) bindTools(tools);
  for (const form of document.querySelectorAll("form.lm-plan-picker")) bindPicker(form);
  showProgress();
  markEarlyClicks();
}

addEventListener("storage", (event) => { if (event.key?.startsWith(PREFIX)) showProgress(); });
onPage(start);

// For tests: the record's rules, without the page.
globalThis.layermapProgress = Object.freeze({ version: VERSION, load: loadProgress, clean: cleanProgress, merge: mergeProgress, readAt, topicState });
