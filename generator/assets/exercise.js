// "Try it": plays an exercise's steps on its live calculator through the visible controls,
// at a reading pace, with a Stop button. The steps (form text per state) were computed and
// proven at build time; this script only types them in. Without JavaScript the exercise
// still shows where it ends, pre-computed.
import { onPage } from "./boot.js";

const STEP_MS = 1500;
const READY_TIMEOUT_MS = 120_000;
let playing = null;  // { stop: boolean } while an exercise plays

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function calculatorReady(calc) {
  calc.dispatchEvent(new Event("pointerdown"));  // starts the worker if it is not running
  const started = Date.now();
  for (;;) {
    const state = calc.querySelector(".lm-calc__status")?.dataset.state;
    if (state === "ready") return true;
    if (state === "failed" || Date.now() - started > READY_TIMEOUT_MS) return false;
    await sleep(100);
  }
}

function setControl(calc, name, text) {
  const field = calc.querySelector(`[data-field="${name}"]`);
  if (!field) return;
  field.value = text;
  field.dispatchEvent(new Event("input", { bubbles: true }));
}

function describe(changes) {
  return Object.entries(changes).map(([name, text]) => {
    const label = document.querySelector(`label[for$="-${name}"]`)?.textContent?.trim() || name;
    return `${label} ${text}`;
  }).join(", ");
}

// The outputs an exercise is about, as the calculator shows them now.
function results(calc, names) {
  return names.map((name) => {
    const output = calc.querySelector(`[data-output="${name}"]`);
    const label = output?.previousElementSibling?.textContent?.trim() || name;
    return `${label}: ${output?.textContent?.trim() ?? "—"}`;
  }).join("; ");
}

function playerBar(calc) {
  let bar = calc.querySelector(".lm-player");
  if (!bar) {
    bar = document.createElement("div");
    bar.className = "lm-player";
    const text = document.createElement("p");
    text.className = "lm-player__text";
    text.setAttribute("role", "status");
    text.setAttribute("aria-live", "polite");
    const stop = document.createElement("button");
    stop.type = "button";
    stop.className = "md-button lm-player__stop";
    stop.textContent = "Stop";
    bar.append(text, stop);
    calc.prepend(bar);
  }
  return bar;
}

async function play(item, button) {
  if (playing) playing.stop = true;
  const calc = document.getElementById(item.dataset.calculator);
  if (!calc) return;
  const plan = JSON.parse(item.dataset.plan);
  const run = { stop: false };
  playing = run;
  const bar = playerBar(calc);
  const text = bar.querySelector(".lm-player__text");
  const stop = bar.querySelector(".lm-player__stop");
  stop.onclick = () => { run.stop = true; };
  bar.hidden = false;
  item.dataset.playing = "true";
  calc.scrollIntoView({ block: "start", behavior: "smooth" });
  text.textContent = "Starting the calculator…";
  stop.focus({ preventScroll: true });
  if (!(await calculatorReady(calc))) {
    text.textContent = "The live calculator is not available; open the answer under the exercise to see where it ends.";
  } else {
    const watched = [...item.querySelectorAll("[data-end-output]")].map((dd) => dd.dataset.endOutput);
    for (const [index, changes] of plan.entries()) {
      if (run.stop) break;
      for (const [name, value] of Object.entries(changes)) setControl(calc, name, value);
      const step = index === 0 ? `Step 1 of ${plan.length}: the starting scenario` :
        `Step ${index + 1} of ${plan.length}: ${describe(changes)}`;
      text.textContent = step;
      await sleep(STEP_MS / 3);
      text.textContent = `${step}. ${results(calc, watched)}`;
      await sleep((STEP_MS * 2) / 3);
    }
    text.textContent = run.stop ? "Stopped. The calculator keeps the values it reached." : "Done: read the results, then compare with the answer.";
  }
  item.dataset.playing = run.stop ? "stopped" : "done";
  if (playing === run) playing = null;
  stop.onclick = null;
  stop.textContent = "Back to the exercise";
  stop.onclick = () => { bar.hidden = true; stop.textContent = "Stop"; button.focus(); };
}

function setUp(item) {
  if (item.dataset.ready) return;
  item.dataset.ready = "true";
  const button = item.querySelector(".lm-try");  // rendered hidden in the page, so nothing moves now
  button.hidden = false;
  button.addEventListener("click", () => play(item, button));
}

function setUpPage() {
  document.querySelectorAll(".lm-exercise[data-plan]").forEach(setUp);
}

onPage(setUpPage);
