"""Browser measurement of the live calculators (a measurement, not a test).

Builds the site (or takes ``--site DIR``), serves a copy of it on 127.0.0.1 together with a
bare Pyodide baseline page (``benchmarks/bare_pyodide/``, served under ``/bench-bare/``), and
in headless Chromium measures, on ``layer-3/gpu-clusters/`` (block ``#calc-parallelism-d4``):

* time to first correct numbers: DOMContentLoaded and first contentful paint, with the
  pre-rendered outputs read at DOMContentLoaded and compared with CPython ``calcview.evaluate``
  for the block's defaults;
* Pyodide ready, cold (fresh profile) and warm (same persistent profile, second visit, once the
  site's service worker is active: pages from its precache, the runtime from the browser's HTTP
  cache, the service worker's copy of it kept for offline reading), against
  the bare baseline measured in the same run, interleaved, ``--repeat`` times (medians): from the
  worker's construction to its "ready" message, and from the navigation to "ready" (what a reader
  waits for: the calculator page starts its worker by itself when the page goes idle, the bare
  page at once). For these runs the page opens at D1 (the calculator's tab hidden: the worker
  starts anyway);
* input-to-output latency over ``--changes`` changes (in-page performance.now() from the input
  event to the MutationObserver seeing the output text change; the page renders between two
  changes), split into main thread before the request (and its history.replaceState), the worker
  round trip and the DOM update, plus the worker alone (the same request posted straight to it)
  and the time until the figures are redrawn (calculator.js draws them in the next frame);
* the same latency typed with real key presses into the focused field (a report: it includes
  the frame Chromium renders for each keystroke before the page gets the worker's answer);
* main-thread long tasks (PerformanceObserver 'longtask'), over the whole boot and in the
  window from the worker's construction to "ready";
* bytes served (response bodies, counted by the server) for the calculator page and for a page
  without a calculator (``layer-1/power-cooling/``), and the Pyodide bytes on the latter; the
  service worker's precache downloads (Workbox's ``cache: "reload"`` requests) counted apart;
* the worker kept across instant navigation: from a click on an ordinary in-site link on the
  calculator page to the next calculator page's status "ready" (``layer-3/cluster-networking/``),
  and the worker generation there (1: the same worker).

The site is built with its address set to the local server's, so Material's instant navigation
is on (it turns itself off when the served address differs from ``site_url``).

Then prints a table with PASS/FAIL against the targets and exits 0.

    .venv/bin/python benchmarks/calculator_browser.py [--repeat 3] [--changes 200] [--site DIR]
"""

from __future__ import annotations

import argparse
import functools
import http.server
import itertools
import json
import math
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BARE_DIR = Path(__file__).resolve().parent / "bare_pyodide"
CALC_PAGE = "layer-3/gpu-clusters/"
CALC_BLOCK = "calc-parallelism-d4"
CALC_DEPTH = "D4"  # the tab the calculator is in
BOOT_DEPTH = "D1"  # a tab without it: the ready runs start the worker after the page's boot
PLAIN_PAGE = "layer-1/power-cooling/"
NEXT_CALC_PAGE = "layer-3/cluster-networking/"  # linked from CALC_PAGE; another calculator
NEXT_CALCULATOR = "allreduce"
# Workbox precaches with fetch(..., {cache: "reload"}), which Chromium sends with "Pragma: no-cache";
# nothing else in these visits does (no reloads, no cache-busting fetches).
PRECACHE_HEADER = ("Pragma", "no-cache")
SW_READY_TIMEOUT_MS = 60_000
BARE_PAGE = "bench-bare/"
LATENCY_FIELD = "params"
LATENCY_VALUES = ["71", "70"]  # alternate: every change changes the displayed numbers
READY_TIMEOUT_MS = 120_000
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
]

# Runs in every page before its own scripts: long tasks, worker start/ready, outputs at DCL.
INIT_TEMPLATE = """
(() => {
  const B = window.__bench = { longtasks: [], workerStart: null, workerReady: null, dcl: null, outputsAtDCL: null,
                                 workers: [], posted: new Map(), roundTrips: [] };
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) B.longtasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: "longtask", buffered: true });
  } catch (e) { B.longtaskError = String(e); }
  const NativeWorker = window.Worker;
  window.Worker = class extends NativeWorker {
    constructor(...args) {
      const t0 = performance.now();
      super(...args);
      const url = String(args[0]);
      B.workers.push(url);
      if (!/calc-worker\.js|bench-bare\/worker\.mjs/.test(url)) return;  // e.g. Material's search worker
      if (B.workerStart === null) { B.workerStart = t0; B.worker = this; }
      this.addEventListener("message", ({ data }) => {
        const now = performance.now();
        if (B.workerReady === null && (data === "ready" || (data && data.type === "ready"))) B.workerReady = now;
        if (data && data.type === "result" && B.posted.has(data.id)) { B.roundTrips.push(now - B.posted.get(data.id)); B.lastResult = now; }
      });
    }
    postMessage(message, ...rest) {
      if (message && message.id !== undefined) { B.lastPost = performance.now(); B.posted.set(message.id, B.lastPost); }
      return super.postMessage(message, ...rest);
    }
  };
  document.addEventListener("DOMContentLoaded", () => {
    B.dcl = performance.now();
    B.outputsAtDCL = Object.fromEntries([...document.querySelectorAll("#%(block)s dd[data-output]")]
      .map((dd) => [dd.dataset.output, dd.textContent.trim()]));
  }, { once: true, capture: true });
  try { localStorage.setItem("layermap.depth", "%(depth)s"); } catch (e) { /* opaque origin */ }
})();
"""


def init_script(depth: str) -> str:
    """The init script, with the depth tab the page opens at (the reader's stored choice)."""
    return INIT_TEMPLATE % {"block": CALC_BLOCK, "depth": depth}

LATENCY_SCRIPT = """
async ({ block, field, values, changes }) => {
  const root = document.getElementById(block);
  const input = root.querySelector(`[data-field="${field}"]`);
  const outputs = [...root.querySelectorAll("dd[data-output]")];
  const snapshot = () => outputs.map((dd) => dd.textContent).join("|");
  const times = [], toPost = [], toDom = [], replaceState = [], toFigures = [];
  let timeouts = 0, inReplaceState = 0, figureDrawn = null;
  // Figures are drawn in the next animation frame, after the numbers: timed on their own.
  const figureObserver = new MutationObserver(() => { figureDrawn = performance.now(); });
  root.querySelectorAll("[data-figure-art]").forEach((art) => figureObserver.observe(art, { childList: true, subtree: true }));
  const nativeReplaceState = history.replaceState;  // timed, not changed
  history.replaceState = function (...args) {
    const start = performance.now();
    try { return nativeReplaceState.apply(this, args); } finally { inReplaceState += performance.now() - start; }
  };
  for (let i = 0; i < changes; i++) {
    const before = snapshot();
    let observer, timer;
    const changed = new Promise((resolve) => {
      observer = new MutationObserver(() => { if (snapshot() !== before) resolve(performance.now()); });
      observer.observe(root, { childList: true, subtree: true, characterData: true });
      timer = setTimeout(() => resolve(null), 2000);
    });
    inReplaceState = 0;
    figureDrawn = null;
    const t0 = performance.now();
    input.value = values[i % values.length];
    input.dispatchEvent(new Event("input", { bubbles: true }));
    const t1 = await changed;
    observer.disconnect();
    clearTimeout(timer);
    if (t1 === null) { timeouts++; continue; }
    times.push(t1 - t0);
    toPost.push(window.__bench.lastPost - t0);
    replaceState.push(inReplaceState);
    toDom.push(t1 - window.__bench.lastResult);
    // Let the page render this change before the next one, as between a reader's input events;
    // back to back, the next change would wait for this one's style and layout work.
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
    if (figureDrawn !== null) toFigures.push(figureDrawn - t0);
  }
  figureObserver.disconnect();
  const roundTrips = window.__bench.roundTrips.slice(-changes);
  history.replaceState = nativeReplaceState;
  // the worker alone: the same request posted straight to it while the main thread is idle
  const worker = window.__bench.worker, raw = Object.fromEntries([...root.querySelectorAll("[data-field]")].map((el) => [el.dataset.field, el.value]));
  const direct = [];
  for (let i = 0; i < 50; i++) {
    direct.push(await new Promise((resolve) => {
      const id = `bench-${i}`, t0 = performance.now();
      const listener = ({ data }) => { if (data && data.id === id) { worker.removeEventListener("message", listener); resolve(performance.now() - t0); } };
      worker.addEventListener("message", listener);
      worker.postMessage({ id, module: root.dataset.calculator, raw: { ...raw, [field]: values[i % values.length] } });
    }));
  }
  return { times, timeouts, toPost, replaceState, toDom, toFigures, roundTrips, direct };
}
"""

# Real key presses (CDP keyboard into the focused field): from the input event to the output's
# text change. Chromium renders a frame for the typed character before it hands the page the
# worker's answer, so this includes the browser's own per-keystroke work.
KEYS_SETUP_SCRIPT = """
({ block, output }) => {
  const root = document.getElementById(block);
  const shown = root.querySelector(`dd[data-output="${output}"]`);
  const B = window.__bench; B.keyLatency = []; let start = null;
  root.addEventListener("input", () => { start = performance.now(); }, true);
  new MutationObserver(() => { if (start !== null) { B.keyLatency.push(performance.now() - start); start = null; } })
    .observe(shown, { childList: true, characterData: true, subtree: true });
}
"""
KEYS_OUTPUT = "memory_each_bytes"  # changes with every keystroke below (70 ↔ 7 ↔ 71)

SW_READY_SCRIPT = """
(timeout) => Promise.race([navigator.serviceWorker ? navigator.serviceWorker.ready.then(() => true) : false,
                           new Promise((resolve) => setTimeout(() => resolve(false), timeout))])
"""

# From a click on an in-site link to the next calculator page's status "ready".
NEXT_PAGE_SCRIPT = """
async ({ path, calculator, timeout }) => {
  window.__sameDocument = true;
  const link = [...document.querySelectorAll(".md-content a")].find((a) => a.offsetParent && a.pathname.endsWith(path));
  if (!link) return { error: `no visible link to ${path}` };
  const t0 = performance.now();
  link.click();
  for (;;) {
    const status = document.querySelector(`.lm-calc[data-calculator=${calculator}][data-bound] .lm-calc__status`);
    if (status?.dataset.state === "ready") break;
    if (performance.now() - t0 > timeout) return { error: "not ready in time" };
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return { ms: performance.now() - t0, sameDocument: window.__sameDocument === true,
           generation: window.layermapCalculator.status().generation };
}
"""

COLLECT_SCRIPT = """
() => {
  const nav = performance.getEntriesByType("navigation")[0];
  const paint = Object.fromEntries(performance.getEntriesByType("paint").map((e) => [e.name, e.startTime]));
  const status = document.querySelector("#%(block)s .lm-calc__status, #status");
  const { posted, worker, ...bench } = window.__bench;
  return { ...bench, domContentLoaded: nav ? nav.domContentLoadedEventEnd : null,
           fcp: paint["first-contentful-paint"] ?? null, firstPaint: paint["first-paint"] ?? null,
           status: status ? status.dataset.state : null };
}
""" % {"block": CALC_BLOCK}


# --- server ---------------------------------------------------------------------------------

class Server:
    """Threaded static server for the site copy; /bench-bare/ maps to benchmarks/bare_pyodide/.

    Counts the bytes of every response body it sends (HEAD and 304 send none)."""

    def __init__(self, root: Path, port: int = 0) -> None:
        self.log: list[tuple[str, int, bool]] = []  # path, body bytes, a service worker precache request
        self.lock = threading.Lock()
        server = self

        class Handler(http.server.SimpleHTTPRequestHandler):
            extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                              ".mjs": "text/javascript", ".js": "text/javascript",
                              ".wasm": "application/wasm", ".json": "application/json"}

            def translate_path(self, path: str) -> str:
                clean = path.split("?", 1)[0].split("#", 1)[0]
                if clean.startswith("/" + BARE_PAGE):
                    name = clean[len("/" + BARE_PAGE):] or "index.html"
                    return str(BARE_DIR / Path(name).name)
                return super().translate_path(path)

            def copyfile(self, source, outputfile) -> None:  # noqa: ANN001
                start = source.tell()
                shutil.copyfileobj(source, outputfile)
                precache = self.headers.get(PRECACHE_HEADER[0], "") == PRECACHE_HEADER[1]
                with server.lock:
                    server.log.append((self.path.split("?", 1)[0], source.tell() - start, precache))

            def log_message(self, *args) -> None:  # noqa: ANN002
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", port), functools.partial(Handler, directory=str(root)))
        self.httpd.daemon_threads = True
        self.base = f"http://127.0.0.1:{self.httpd.server_address[1]}/"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def mark(self) -> int:
        with self.lock:
            return len(self.log)

    def since(self, mark: int) -> list[tuple[str, int, bool]]:
        with self.lock:
            return list(self.log[mark:])

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def is_pyodide(path: str) -> bool:
    """Bytes that only a live calculator needs: the runtime, our Python files, the worker."""
    return path.startswith(("/assets/pyodide/", "/assets/py/")) or path.endswith("/calc-worker.js")


# --- browser visits ---------------------------------------------------------------------------

def visit(context, base: str, page_path: str, *, calculator: bool) -> dict:  # noqa: ANN001
    """Open page_path and wait for "ready" (the calculator page starts its worker by itself when
    the page is idle); then, on the calculator page, wait until the site's service worker is
    active, as a reader's second visit finds it. Return what the page recorded."""
    page = context.new_page()
    try:
        page.goto(base + page_path, wait_until="load")
        page.wait_for_function("() => window.__bench.workerReady !== null", timeout=READY_TIMEOUT_MS)
        page.wait_for_timeout(300)  # long tasks just after ready still count
        data = page.evaluate(COLLECT_SCRIPT)
        if calculator:
            data["controlled"] = page.evaluate("() => Boolean(navigator.serviceWorker?.controller)")
            page.evaluate(SW_READY_SCRIPT, SW_READY_TIMEOUT_MS)
    finally:
        page.close()
    data["ready_ms"] = data["workerReady"] - data["workerStart"]
    data["nav_ready_ms"] = data["workerReady"]  # performance.now() counts from the navigation
    data["worker_window_longtasks"] = [t for t in data["longtasks"]
                                       if t["start"] + t["duration"] >= data["workerStart"] and t["start"] <= data["workerReady"] + 300]
    return data


def ready_runs(playwright, base: str, repeat: int) -> dict[str, dict[str, list[dict]]]:  # noqa: ANN001
    """Cold and warm visits of the calculator page and the bare page, interleaved."""
    runs: dict[str, dict[str, list[dict]]] = {kind: {"cold": [], "warm": []} for kind in ("calc", "bare")}
    for round_ in range(repeat):
        order = ("calc", "bare") if round_ % 2 == 0 else ("bare", "calc")
        for kind in order:
            with tempfile.TemporaryDirectory(prefix="lm-bench-profile-") as profile:
                context = playwright.chromium.launch_persistent_context(
                    profile, executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
                try:
                    context.add_init_script(init_script(BOOT_DEPTH))
                    path = CALC_PAGE if kind == "calc" else BARE_PAGE
                    for phase in ("cold", "warm"):
                        try:
                            result = visit(context, base, path, calculator=kind == "calc")
                        except Exception as error:  # noqa: BLE001 - a failed visit is reported, the rest still measured
                            print(f"  round {round_ + 1}/{repeat} {kind:4} {phase}: FAILED {error}".splitlines()[0],
                                  file=sys.stderr, flush=True)
                            continue
                        runs[kind][phase].append(result)
                        print(f"  round {round_ + 1}/{repeat} {kind:4} {phase}: ready {result['ready_ms']:7.0f} ms",
                              file=sys.stderr, flush=True)
                finally:
                    context.close()
    return runs


def detail_run(open_context, server: Server, changes: int) -> dict:  # noqa: ANN001
    """Fresh profiles (``open_context()``: on disk, as a reader's browser, whose HTTP cache keeps
    the 9.6 MB wasm where a private window's does not): bytes of the calculator page (before/after
    the worker), the defaults check, input latency; then bytes of a page without a calculator."""
    out: dict = {}
    context = open_context()
    context.add_init_script(init_script(CALC_DEPTH))
    page = context.new_page()
    mark = server.mark()
    page.goto(server.base + CALC_PAGE, wait_until="load")
    out["calc_block"] = page.evaluate(
        """(id) => { const root = document.getElementById(id);
                     return { module: root.dataset.calculator, defaults: JSON.parse(root.dataset.defaults) }; }""",
        CALC_BLOCK)
    page.wait_for_function("() => window.__bench.workerReady !== null", timeout=READY_TIMEOUT_MS)
    page.wait_for_selector(f"#{CALC_BLOCK} .lm-calc__status[data-state=ready]", timeout=READY_TIMEOUT_MS)
    page.wait_for_timeout(500)
    out["calc_total_bytes"] = server.since(mark)
    out["collect"] = page.evaluate(COLLECT_SCRIPT)
    # one change first, so the first-ever evaluation (imports) is not in the distribution
    page.evaluate(LATENCY_SCRIPT, {"block": CALC_BLOCK, "field": LATENCY_FIELD, "values": LATENCY_VALUES, "changes": 2})
    out["latency"] = page.evaluate(
        LATENCY_SCRIPT, {"block": CALC_BLOCK, "field": LATENCY_FIELD, "values": LATENCY_VALUES, "changes": changes})
    out["key_latency"] = key_latency(page, changes)
    page.evaluate(SW_READY_SCRIPT, SW_READY_TIMEOUT_MS)  # the precache done, as for a reader who has read a while
    out["next_page"] = page.evaluate(NEXT_PAGE_SCRIPT, {"path": "/" + NEXT_CALC_PAGE, "calculator": NEXT_CALCULATOR,
                                                        "timeout": READY_TIMEOUT_MS})
    context.close()

    context = open_context()
    context.add_init_script(init_script(CALC_DEPTH))
    page = context.new_page()
    mark = server.mark()
    page.goto(server.base + PLAIN_PAGE, wait_until="load")
    page.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")
    page.wait_for_timeout(1500)
    page.evaluate(SW_READY_SCRIPT, SW_READY_TIMEOUT_MS)
    out["plain_bytes"] = server.since(mark)
    out["plain_worker"] = page.evaluate("() => window.__bench.workerStart")
    out["plain_workers"] = page.evaluate("() => window.__bench.workers")
    context.close()
    return out


def key_latency(page, changes: int) -> list[float]:  # noqa: ANN001
    """Type into the field as a reader does: Backspace ("70" → "7"), then a digit, ``changes`` keys."""
    page.evaluate(KEYS_SETUP_SCRIPT, {"block": CALC_BLOCK, "output": KEYS_OUTPUT})
    page.fill(f"#{CALC_BLOCK}-{LATENCY_FIELD}", "70")
    page.focus(f"#{CALC_BLOCK}-{LATENCY_FIELD}")
    page.wait_for_timeout(100)
    page.evaluate("window.__bench.keyLatency = []")
    for index in range(changes // 2):
        page.keyboard.press("End")
        page.keyboard.press("Backspace")
        page.wait_for_timeout(30)
        page.keyboard.type("1" if index % 2 else "0")
        page.wait_for_timeout(30)
    return page.evaluate("window.__bench.keyLatency")


# --- numbers and the table --------------------------------------------------------------------

def med(values) -> float:  # noqa: ANN001
    """Median, NaN when every visit failed."""
    values = list(values)
    return statistics.median(values) if values else math.nan


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[max(0, math.ceil(0.95 * len(ordered)) - 1)]


def kb(n: int) -> str:
    return f"{n / 1024:,.0f} KB" if n < 1024 * 1024 else f"{n / 1024 / 1024:,.2f} MB"


def cpython_display(module_name: str, defaults: dict[str, str]) -> dict[str, str]:
    sys.path.insert(0, str(ROOT))
    import importlib

    import calcview

    module = importlib.import_module("calculators." + module_name)
    return calcview.evaluate(module, defaults)["display"]


def build_site(site: str | None, site_url: str) -> Path:
    """The given built site, or this checkout's content built now (into ROOT/site) with its
    address set to where it will be served, so instant navigation is on."""
    if site:
        return Path(site).resolve()
    env = {**os.environ, "LAYERMAP_SITE_URL": site_url, "NO_MKDOCS_2_WARNING": "1"}
    subprocess.run([sys.executable, "-m", "generator.cli", "build"], cwd=ROOT, env=env, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return ROOT / "site"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def ready_rows(runs: dict, repeat: int) -> list[tuple[str, str, str, str]]:
    """Pyodide's boot in the worker against the bare baseline, and what a reader waits for."""
    rows = []
    for phase in ("cold", "warm"):
        calc = med(v["ready_ms"] for v in runs["calc"][phase])
        bare = med(v["ready_ms"] for v in runs["bare"][phase])
        ratio = calc / bare
        rows.append((f"Pyodide ready, {phase}: calculator / bare baseline, worker start → ready (median of {repeat})",
                     f"{calc:,.0f} / {bare:,.0f} ms = {ratio:.2f}×", "≤ 1.10×", "PASS" if ratio <= 1.1 else "FAIL"))
    for phase, label, target in (("cold", "first visit", None), ("warm", "cached second visit", 1.2)):
        calc = med(v["nav_ready_ms"] for v in runs["calc"][phase])
        bare = med(v["nav_ready_ms"] for v in runs["bare"][phase])
        ratio = calc / bare
        verdict = ("PASS" if ratio <= target else "FAIL") if target else ""
        rows.append((f"Ready after navigation, {label}: calculator page / bare page (median of {repeat})",
                     f"{calc:,.0f} / {bare:,.0f} ms = {ratio:.2f}×", f"≤ {target:.2f}×" if target else "(report)", verdict))
    starts = [v["workerStart"] for phase in ("cold", "warm") for v in runs["calc"][phase]]
    rows.append(("  · calculator page: worker started (page idle) after navigation, cold / warm, median",
                 f"{med(v['workerStart'] for v in runs['calc']['cold']):,.0f} / {med(v['workerStart'] for v in runs['calc']['warm']):,.0f} ms"
                 f" (all {min(starts, default=math.nan):,.0f}–{max(starts, default=math.nan):,.0f})", "(report)", ""))
    controlled = sum(bool(v.get("controlled")) for v in runs["calc"]["warm"])
    rows.append(("  · cached second visits controlled by the service worker (pages from its precache; runtime from the HTTP cache)",
                 f"{controlled} of {len(runs['calc']['warm'])}", "(report)", ""))
    return rows


def split_bytes(log: list[tuple[str, int, bool]]) -> tuple[int, int, int]:
    """(page bytes, of which Pyodide + our Python + worker, service worker precache bytes)."""
    page = [(path, n) for path, n, precache in log if not precache]
    return (sum(n for _, n in page), sum(n for path, n in page if is_pyodide(path)),
            sum(n for _, n, precache in log if precache))


def bytes_rows(detail: dict) -> list[tuple[str, str, str, str]]:
    total, pyodide, precache = split_bytes(detail["calc_total_bytes"])
    python = sum(n for path, n, precache in detail["calc_total_bytes"] if path.startswith("/assets/py/") and not precache)
    rows = [("Bytes, calculator page without Pyodide + Python + worker (cold, uncompressed)", kb(total - pyodide), "(report)", ""),
            ("Bytes, calculator page with the calculator live (worker started when idle; Pyodide part; its Python)",
             f"{kb(total)} ({kb(pyodide)}; {kb(python)})", "(report)", ""),
            ("Bytes, the service worker's precache on a first visit (every page and asset, counted apart)", kb(precache), "(report)", "")]
    plain, plain_pyodide, _ = split_bytes(detail["plain_bytes"])
    rows.append((f"Bytes, page without a calculator ({PLAIN_PAGE}), without the precache", kb(plain), "(report)", ""))
    plain_ok = plain_pyodide == 0 and detail["plain_worker"] is None
    rows.append(("Pyodide bytes on the page without a calculator (worker started: "
                 + ("no" if detail["plain_worker"] is None else "YES") + ")",
                 f"{plain_pyodide} B", "0", "PASS" if plain_ok else "FAIL"))
    return rows


def next_page_rows(detail: dict) -> list[tuple[str, str, str, str]]:
    """The worker kept across instant navigation: a link to another calculator page."""
    result = detail["next_page"]
    if "error" in result:
        return [(f"Link to another calculator page ({NEXT_CALC_PAGE}) → ready", result["error"], "same worker", "FAIL")]
    kept = result["sameDocument"] and result["generation"] == 1
    how = "instant navigation" if result["sameDocument"] else "FULL PAGE LOAD"
    return [(f"Link to another calculator page ({NEXT_CALC_PAGE}, {how}) → ready; worker generation",
             f"{result['ms']:,.0f} ms; {result['generation']}", "same worker", "PASS" if kept else "FAIL")]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3, help="cold+warm rounds per page (default 3)")
    parser.add_argument("--changes", type=int, default=200, help="input changes for the latency (default 200)")
    parser.add_argument("--site", help="serve this built site instead of building one")
    args = parser.parse_args()

    from playwright.sync_api import sync_playwright

    started = time.monotonic()
    port = free_port()
    site = build_site(args.site, f"http://127.0.0.1:{port}/")
    with tempfile.TemporaryDirectory(prefix="lm-bench-site-") as tmp:
        served = Path(tmp) / "site"
        shutil.copytree(site, served)  # others may rebuild site/ meanwhile
        server = Server(served, port)
        try:
            with sync_playwright() as playwright:
                print("ready, cold/warm, interleaved:", file=sys.stderr, flush=True)
                runs = ready_runs(playwright, server.base, args.repeat)
                profiles = itertools.count()

                def open_context():  # noqa: ANN202 - a fresh profile on disk each time
                    profile = Path(tmp) / f"profile-{next(profiles)}"
                    return playwright.chromium.launch_persistent_context(
                        profile, executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)

                print("defaults, bytes, latency:", file=sys.stderr, flush=True)
                detail = detail_run(open_context, server, args.changes)
        finally:
            server.close()

    rows: list[tuple[str, str, str, str]] = []

    # time to first correct numbers
    calc_visits = runs["calc"]["cold"] + runs["calc"]["warm"] + [detail["collect"]]
    expected = cpython_display(detail["calc_block"]["module"], detail["calc_block"]["defaults"])
    shown = [v["outputsAtDCL"] or {} for v in calc_visits]
    matching = all(s == expected for s in shown)
    dcl_cold = med(v["domContentLoaded"] for v in runs["calc"]["cold"])
    dcl_warm = med(v["domContentLoaded"] for v in runs["calc"]["warm"])
    fcp_cold = med(v["fcp"] for v in runs["calc"]["cold"])
    fcp_warm = med(v["fcp"] for v in runs["calc"]["warm"])
    rows.append(("First correct numbers: DOMContentLoaded, cold / warm", f"{dcl_cold:.0f} / {dcl_warm:.0f} ms", "(report)", ""))
    rows.append(("First correct numbers: first contentful paint, cold / warm", f"{fcp_cold:.0f} / {fcp_warm:.0f} ms", "(report)", ""))
    rows.append((f"Outputs at DOMContentLoaded = CPython evaluate (defaults), {len(expected)} outputs × {len(shown)} loads",
                 "all equal" if matching else "DIFFER", "equal", "PASS" if matching else "FAIL"))

    rows += ready_rows(runs, args.repeat)

    # latency
    times = detail["latency"]["times"]
    timeouts = detail["latency"]["timeouts"]
    median, high = statistics.median(times), p95(times)
    rows.append((f"Input → output latency, median ({len(times)} changes, {timeouts} timed out)",
                 f"{median:.2f} ms", "≤ 4 ms", "PASS" if median <= 4 and not timeouts else "FAIL"))
    for label, key in (("· input event → postMessage", "toPost"), ("  · of which history.replaceState (URL state)", "replaceState"),
                       ("· worker round trip (postMessage → result message)", "roundTrips"),
                       ("· result message → output text", "toDom"),
                       ("Input → figures redrawn (in the next animation frame)", "toFigures"),
                       ("Worker alone: same request posted directly, main thread idle", "direct")):
        part = detail["latency"].get(key) or []
        if part:
            rows.append((f"  {label}, median / p95", f"{statistics.median(part):.2f} / {p95(part):.2f} ms", "(report)", ""))
    rows.append(("Input → output latency, p95", f"{high:.2f} ms", "≤ 16 ms", "PASS" if high <= 16 and not timeouts else "FAIL"))
    keys = detail.get("key_latency") or []
    if keys:
        rows.append((f"Same, typed with real key presses ({len(keys)} keys), median / p95",
                     f"{statistics.median(keys):.2f} / {p95(keys):.2f} ms", "(report)", ""))

    # long tasks
    ready_calc = runs["calc"]["cold"] + runs["calc"]["warm"]
    ready_bare = runs["bare"]["cold"] + runs["bare"]["warm"]
    page_boot = [t["duration"] for v in ready_calc for t in v["longtasks"] if t["start"] < v["workerStart"]]
    d4_boot = [t["duration"] for t in detail["collect"]["longtasks"]]
    window_calc = [t["duration"] for v in ready_calc for t in v["worker_window_longtasks"]]
    window_bare = [t["duration"] for v in ready_bare for t in v["worker_window_longtasks"]]
    rows.append((f"Long tasks > 50 ms, calculator page's own boot before the worker ({len(ready_calc)} loads): count, max",
                 f"{len(page_boot)}, {max(page_boot, default=0):.0f} ms", "(report)", ""))
    rows.append((f"Long tasks while Pyodide boots (worker start → ready + 0.3 s), calculator page ({len(ready_calc)} boots): count, max",
                 f"{len(window_calc)}, {max(window_calc, default=0):.0f} ms", "none > 50 ms", "PASS" if not window_calc else "FAIL"))
    rows.append((f"Long tasks while Pyodide boots, bare baseline page ({len(ready_bare)} boots): count, max",
                 f"{len(window_bare)}, {max(window_bare, default=0):.0f} ms", "(report)", ""))
    rows.append(("Long tasks, calculator page opened at D4 (worker starts during the page's boot): count, max",
                 f"{len(d4_boot)}, {max(d4_boot, default=0):.0f} ms", "(report)", ""))

    rows += bytes_rows(detail)
    rows += next_page_rows(detail)

    widths = [max(len(r[i]) for r in rows + [("Metric", "Value", "Target", "Result")]) for i in range(4)]
    line = lambda cells: "| " + " | ".join(c.ljust(w) for c, w in zip(cells, widths)) + " |"  # noqa: E731
    print(line(("Metric", "Value", "Target", "Result")))
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for row in rows:
        print(line(row))
    if not matching:
        print("\nexpected:", json.dumps(expected, ensure_ascii=False))
        for s in shown:
            if s != expected:
                print("shown:   ", json.dumps(s, ensure_ascii=False))
                break
    print("\nRaw ready times (ms): " + "; ".join(
        f"{kind} {phase} " + ", ".join(f"{v['ready_ms']:.0f}" for v in runs[kind][phase])
        for kind in ("calc", "bare") for phase in ("cold", "warm")))
    print(f"Wall time {time.monotonic() - started:.0f} s.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
