"""What the learning plans cost other pages: Lighthouse's total blocking time with and without them
(a measurement, not a test; issue 31).

Two sites are built from one copy of the content, side by side:

- **with** — the site as layermap builds it: ``progress.js`` (reading marks), ``previews.js`` (hover
  previews), ``plans.css``, the "Read first" section and the mark-as-read control on every topic
  page, the plan picker on the home page;
- **without** — the same build with those left out (the scripts and stylesheet dropped from the
  page furniture, the three render functions answering ""), so the pages differ by exactly the
  learning-path features. The plan pages themselves are still written but never visited.

Both are served the way GitHub Pages serves them (``benchmarks/lighthouse.py``'s server, under a
``/layermap/`` sub-path, each built for its own address) and measured **alternately** — with,
without, with, … — so a busy machine slows both alike. The report gives, per page kind, the median
total blocking time of each and their difference; the learning paths "add nothing" when the
difference is within the noise floor: ``max(10 % of the baseline, 25 ms)``.

    .venv/bin/python benchmarks/plans_blocking.py [--repeat 5] [--only home]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from lighthouse import PagesLikeServer, lighthouse_binary, run_lighthouse  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
PAGES = (("home", ""), ("layer", "layer-3/"), ("topic", "layer-1/power-cooling/"),
         ("calculator page", "layer-3/gpu-clusters/"))
FEATURE_ASSETS = ("assets/layermap/progress.js", "assets/layermap/previews.js", "assets/layermap/plans.css")

# Run in the "without" build's interpreter: the same pipeline, the learning-path pieces left out.
WITHOUT_PLANS = f"""
import sys
import generator.emit.docs_tree as tree
import generator.render.topic as topic, generator.render.topic_html as topic_html, generator.render.overview as overview
dropped = {FEATURE_ASSETS!r}
tree.SCRIPTS[:] = [s for s in tree.SCRIPTS if s not in dropped]
tree.STYLES[:] = [s for s in tree.STYLES if s not in dropped]
for module in (topic, topic_html):
    for name in ("read_first_html", "read_mark_html", "previews_html"):
        if hasattr(module, name):
            setattr(module, name, lambda *args, **kwargs: "")
overview.plan_picker = lambda *args, **kwargs: ""
from generator.cli import main
sys.exit(main(["build"]))
"""


def project_copy(target: Path) -> Path:
    """The committed content and config, with the calculators, in a folder of its own (its own page cache)."""
    target.mkdir(parents=True)
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", "HEAD", "content", "mkdocs.yml"], check=True, capture_output=True)
    subprocess.run(["tar", "-x", "-C", str(target)], input=archive.stdout, check=True)
    for folder in ("calculators", "calcview", "node_modules"):
        (target / folder).symlink_to(ROOT / folder)
    return target


def build(project: Path, site_url: str, *, features: bool) -> Path:
    environment = {**os.environ, "LAYERMAP_SITE_URL": site_url, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "generator.cli", "build"] if features else [sys.executable, "-c", WITHOUT_PLANS]
    done = subprocess.run(command, cwd=project, capture_output=True, text=True, env=environment)
    if done.returncode:  # a local address draws a warning on every build: shown only when the build fails
        raise SystemExit(f"the {'with' if features else 'without'} build failed:\n{done.stdout}{done.stderr}")
    site = project / "site"
    furniture = [asset for asset in FEATURE_ASSETS if asset.rsplit("/", 1)[1] in (site / "index.html").read_text(encoding="utf-8")]
    if features != bool(furniture):
        raise SystemExit(f"the {'with' if features else 'without'} build has the wrong furniture: {furniture}")
    return site


def blocking_ms(report: dict) -> float:
    return report["audits"]["total-blocking-time"]["numericValue"]


def compare(binary: Path, with_base: str, without_base: str, path: str, repeat: int) -> tuple[list[float], list[float]]:
    """Alternating runs: the blocking time of each run, with and without the learning paths."""
    with_runs, without_runs = [], []
    for _ in range(repeat):
        for base, runs in ((with_base, with_runs), (without_base, without_runs)):
            with tempfile.TemporaryDirectory() as out:
                runs.append(blocking_ms(run_lighthouse(binary, base + path, Path(out))))
    return with_runs, without_runs


def verdict(with_ms: float, without_ms: float) -> str:
    floor = max(0.10 * without_ms, 25.0)
    return "adds nothing" if with_ms - without_ms <= floor else f"ADDS {with_ms - without_ms:.0f} ms (floor {floor:.0f})"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs per page and build (medians)")
    parser.add_argument("--only", choices=[kind for kind, _ in PAGES], help="measure one kind of page")
    args = parser.parse_args()
    binary = lighthouse_binary()
    with tempfile.TemporaryDirectory() as work:
        sites, servers = {}, {}
        for name, features in (("with", True), ("without", False)):
            project = project_copy(Path(work) / name)
            servers[name] = PagesLikeServer(project / "site")
            sites[name] = build(project, servers[name].base, features=features)
        try:
            print(f"Total blocking time (ms), Lighthouse mobile profile, median of {args.repeat} alternating runs\n")
            print("| page | with learning paths | without | difference | runs with · without | verdict |\n|---|---:|---:|---:|---|---|")
            for kind, path in PAGES:
                if args.only and kind != args.only:
                    continue
                runs_with, runs_without = compare(binary, servers["with"].base, servers["without"].base, path, args.repeat)
                a, b = statistics.median(runs_with), statistics.median(runs_without)
                listed = f"{' '.join(f'{v:.0f}' for v in runs_with)} · {' '.join(f'{v:.0f}' for v in runs_without)}"
                print(f"| {kind} (`/{path}`) | {a:.0f} | {b:.0f} | {a - b:+.0f} | {listed} | {verdict(a, b)} |", flush=True)
        finally:
            for server in servers.values():
                server.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
