// "Try it": plays an exercise's steps on its live calculator, at a reading pace, with a Stop
// button. The steps (form text per state) were computed and proven at build time; this script
// hands each one to the calculator's API (calculator.js: set, result, outputs) and says what
// changed. Without JavaScript the exercise still shows where it ends, pre-computed.
import { onPage } from "./boot.js";
import { calculatorOf } from "./calculator.js";

const STEP_MS = 1500;
let playing = null;  // { stop: boolean } while an exercise plays

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function describe(calc, changes) {
  return Object.entries(changes).map(([name, text]) => `${calc.label(name)} ${text}`).join(", ");
}

// The outputs an exercise is about, as the calculator shows them now.
function results(calc, names) {
  const shown = calc.outputs();
  return names.map((name) => `${shown[name]?.label ?? name}: ${shown[name]?.text ?? "—"}`).join("; ");
}

function playerBar(root) {
  let bar = root.querySelector(".lm-player");
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
    root.prepend(bar);
  }
  return bar;
}

async function play(item, button) {
  if (playing) playing.stop = true;
  const root = document.getElementById(item.dataset.calculator);
  const calc = root && calculatorOf(root);
  if (!calc) return;
  const plan = JSON.parse(item.dataset.plan);
  const run = { stop: false };
  playing = run;
  const bar = playerBar(root);
  const text = bar.querySelector(".lm-player__text");
  const stop = bar.querySelector(".lm-player__stop");
  stop.onclick = () => { run.stop = true; };
  bar.hidden = false;
  item.dataset.playing = "true";
  root.scrollIntoView({ block: "start", behavior: "smooth" });
  text.textContent = "Starting the calculator…";
  stop.focus({ preventScroll: true });
  if (!(await calc.ready())) {
    text.textContent = "The live calculator is not available; open the answer under the exercise to see where it ends.";
  } else {
    const watched = [...item.querySelectorAll("[data-end-output]")].map((dd) => dd.dataset.endOutput);
    for (const [index, changes] of plan.entries()) {
      if (run.stop) break;
      calc.set(changes);
      const step = index === 0 ? `Step 1 of ${plan.length}: the starting scenario` :
        `Step ${index + 1} of ${plan.length}: ${describe(calc, changes)}`;
      text.textContent = step;
      await Promise.all([calc.result(), sleep(STEP_MS / 3)]);
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
