"""Lighthouse scores of the built site (a measurement, not a test).

Serves a built site on 127.0.0.1 the way GitHub Pages serves it — text gzip-compressed when the
browser accepts it, ``Cache-Control: max-age=600`` on every file — and runs Lighthouse (pinned in
``benchmarks/lighthouse/package-lock.json``, installed there with ``npm ci`` on first use; it is
not part of the site's own toolchain) with its default mobile profile (emulated phone, simulated
slow 4G and 4× CPU slowdown) against Debian's Chromium, on one page of each kind: home, a layer,
a topic without a calculator, a topic with one. The site is built for the address it is served at
(``LAYERMAP_SITE_URL``, under a ``/layermap/`` sub-path as on a project's Pages site), so canonical
links, the sitemap and instant navigation behave as they do when published. Each page is measured ``--repeat`` times; the
table shows the median score per category and the targets of issue 14 (performance ≥ 0.95 on
home, layer and topic pages, ≥ 0.90 on a calculator page; accessibility, best practices and SEO
1.0 everywhere), with every failed audit of the median run listed below it.

    .venv/bin/python benchmarks/lighthouse.py [--site DIR] [--repeat 3] [--json OUT]
"""

from __future__ import annotations

import argparse
import functools
import gzip
import http.server
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TOOL_DIR = Path(__file__).resolve().parent / "lighthouse"
CHROMIUM = "/usr/bin/chromium"
CHROME_FLAGS = ("--headless --no-sandbox --disable-gpu --disable-quic --no-first-run "
                "--disable-background-networking --disable-component-update --disable-sync")
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
PAGES = (  # (kind, path, performance target)
    ("home", "", 0.95),
    ("layer", "layer-3/", 0.95),
    ("topic", "layer-1/power-cooling/", 0.95),
    ("calculator page", "layer-3/gpu-clusters/", 0.90),
)
COMPRESSED = {".html", ".css", ".js", ".mjs", ".json", ".svg", ".xml", ".txt", ".map", ".py", ".wasm"}
PAGES_CACHE = "max-age=600"  # what GitHub Pages sends with every file
SUB_PATH = "/layermap/"  # a project site's address: https://USER.github.io/REPO/


class PagesLikeServer:
    """Threaded static server: gzip for text (when accepted) and Pages' cache header."""

    def __init__(self, root: Path) -> None:
        self.root = root

        class Handler(http.server.SimpleHTTPRequestHandler):
            extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                              ".mjs": "text/javascript", ".js": "text/javascript",
                              ".wasm": "application/wasm", ".json": "application/json"}

            def translate_path(self, path: str) -> str:
                inside = path[len(SUB_PATH) - 1:] if path.startswith(SUB_PATH) else "/missing" + path
                return super().translate_path(inside)

            def send_head(self):  # noqa: ANN202 - http.server's own signature
                path = Path(self.translate_path(self.path))
                if path.is_dir() and self.path.split("?", 1)[0].endswith("/"):
                    path = path / "index.html"
                accepts_gzip = "gzip" in self.headers.get("Accept-Encoding", "")
                if not (accepts_gzip and path.is_file() and path.suffix in COMPRESSED):
                    return super().send_head()  # directories' redirects, 404s, binaries
                body = gzip.compress(path.read_bytes(), compresslevel=6)
                self.send_response(200)
                self.send_header("Content-Type", self.guess_type(str(path)))
                self.send_header("Content-Encoding", "gzip")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                return _Body(body)

            def end_headers(self) -> None:
                self.send_header("Cache-Control", PAGES_CACHE)
                super().end_headers()

            def log_message(self, *args) -> None:  # noqa: ANN002
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=str(root)))
        self.httpd.daemon_threads = True
        self.base = f"http://127.0.0.1:{self.httpd.server_address[1]}{SUB_PATH}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


class _Body:
    """A file-like body for SimpleHTTPRequestHandler.copyfile."""

    def __init__(self, data: bytes) -> None:
        self.data, self.offset = data, 0

    def read(self, size: int = -1) -> bytes:
        end = len(self.data) if size < 0 else self.offset + size
        chunk, self.offset = self.data[self.offset:end], min(end, len(self.data))
        return chunk

    def close(self) -> None:
        pass


def lighthouse_binary() -> Path:
    binary = TOOL_DIR / "node_modules" / ".bin" / "lighthouse"
    if not binary.exists():
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund"], cwd=TOOL_DIR, check=True)
    return binary


def run_lighthouse(binary: Path, url: str, out_dir: Path) -> dict:
    """One Lighthouse run (mobile profile); the parsed report."""
    report = out_dir / "report.json"
    command = [str(binary), url, "--output=json", f"--output-path={report}", "--quiet",
               f"--only-categories={','.join(CATEGORIES)}", f"--chrome-flags={CHROME_FLAGS}"]
    subprocess.run(command, check=True, env={**os.environ, "CHROME_PATH": CHROMIUM}, timeout=300)
    return json.loads(report.read_text(encoding="utf-8"))


def scores_of(report: dict) -> dict[str, float]:
    return {name: report["categories"][name]["score"] or 0.0 for name in CATEGORIES}


def failed_audits(report: dict) -> list[str]:
    """Audits counted in a category score that did not pass, with their display value."""
    counted = {ref["id"] for name in CATEGORIES for ref in report["categories"][name]["auditRefs"] if ref["weight"] > 0}
    failures = []
    for audit_id in sorted(counted):
        audit = report["audits"][audit_id]
        if audit["score"] is not None and audit["score"] < 0.9:
            shown = audit.get("displayValue", "")
            failures.append(f"{audit_id} ({audit['score']:.2f}{', ' + shown if shown else ''})")
    return failures


def measure_page(binary: Path, url: str, repeat: int) -> tuple[dict[str, float], dict]:
    """Median score per category over ``repeat`` runs, and the run nearest the median performance."""
    runs = []
    for _ in range(repeat):
        with tempfile.TemporaryDirectory() as out:
            runs.append(run_lighthouse(binary, url, Path(out)))
    medians = {name: statistics.median(scores_of(run)[name] for run in runs) for name in CATEGORIES}
    typical = min(runs, key=lambda run: abs(scores_of(run)["performance"] - medians["performance"]))
    return medians, typical


def metric(report: dict, audit_id: str) -> str:
    return report["audits"][audit_id].get("displayValue", "—")


def table(results: list[tuple[str, str, float, dict[str, float], dict]]) -> str:
    header = ("| page | performance (target) | accessibility | best practices | SEO | FCP | LCP | TBT | CLS | result |\n"
              "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    rows = []
    for kind, path, target, medians, report in results:
        passed = medians["performance"] >= target and all(medians[name] >= 1.0 for name in CATEGORIES[1:])
        rows.append(f"| {kind} (`/{path}`) | {medians['performance']:.2f} (≥ {target:.2f}) | {medians['accessibility']:.2f} | "
                    f"{medians['best-practices']:.2f} | {medians['seo']:.2f} | {metric(report, 'first-contentful-paint')} | "
                    f"{metric(report, 'largest-contentful-paint')} | {metric(report, 'total-blocking-time')} | "
                    f"{metric(report, 'cumulative-layout-shift')} | {'PASS' if passed else 'FAIL'} |")
    return "\n".join([header, *rows])


def build_site(site_url: str) -> None:
    """``layermap build`` into ./site, for the address the server gives it."""
    environment = {**os.environ, "LAYERMAP_SITE_URL": site_url}
    subprocess.run([sys.executable, "-m", "generator.cli", "build"], cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL, env=environment)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", help="measure this built folder as it is (its site URL may not match the server's)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per page (median)")
    parser.add_argument("--json", help="write every median and failed audit to this file")
    parser.add_argument("--only", choices=[kind for kind, _p, _t in PAGES], help="measure one kind of page")
    args = parser.parse_args()
    binary = lighthouse_binary()
    server = PagesLikeServer(Path(args.site).resolve() if args.site else ROOT / "site")
    if not args.site:
        build_site(server.base)
    try:
        results = []
        for kind, path, target in PAGES:
            if args.only and kind != args.only:
                continue
            medians, report = measure_page(binary, server.base + path, args.repeat)
            results.append((kind, path, target, medians, report))
    finally:
        server.close()
    print(f"Lighthouse {results[0][4]['lighthouseVersion']}, mobile profile, median of {args.repeat} per page\n")
    print(table(results))
    for kind, _path, _target, _medians, report in results:
        failures = failed_audits(report)
        print(f"\n{kind}: failed audits: {', '.join(failures) if failures else 'none'}")
    if args.json:
        Path(args.json).write_text(json.dumps([{"page": kind, "path": path, "scores": medians, "failed": failed_audits(report)}
                                               for kind, path, _t, medians, report in results], indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
