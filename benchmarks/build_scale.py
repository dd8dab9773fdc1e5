"""Scale benchmark (a report, not a test): issue 16's targets, side by side with mkdocs-material.

For each size it writes a synthetic project (``scale_content.py``) into a temporary folder and
measures, every command in a fresh subprocess run from a snapshot of the code:

* **cold**: ``python -m generator.cli --project P build`` from nothing (no ``.layermap/``, no
  ``site/``, no cache), alternating with the **baseline**: plain mkdocs-material WITH
  ``navigation.prune`` building the same generated pages with the same navigation, theme features
  and Markdown extensions, without layermap's hooks, scripts, styles and assets
  (``scale_baseline.py``); each build's wall time, CPU time and peak memory (the summed PSS of its
  process tree, pages shared after a fork counted once, sampled every 50 ms: ``scale_procs.py``);
* **warm**: the same build again with the content unchanged and the cache kept;
* **serve**: ``layermap serve`` from nothing until a topic page answers with its full content;
* **edit**: while serving, a saved change to a topic's prose until its page shows it (five
  topics), then changes to titles and to summaries (three of each), each also until serve says
  every page that shows it is written (``scale_serve.py``);
* **search**: a first view of a topic page in headless Chromium, bytes of search index fetched
  before and after search is opened, and the index's gzip size (``scale_search.py``);
* **real**: serve start and edits on a copy of the repository's own ``content/``.

Usage (from the repository root)::

    .venv/bin/python benchmarks/build_scale.py --sizes 1000 --repeat 3
    .venv/bin/python benchmarks/build_scale.py --sizes 1000,2000 --only cold --no-write

The report goes to stdout and, unless ``--no-write``, to the top of ``benchmarks/RESULTS.md``.
The script exits 0 once it has reported; failed or timed-out runs are listed in the report.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import scale_report as rep  # noqa: E402
import yaml  # noqa: E402
from scale_baseline import write_baseline  # noqa: E402
from scale_content import write_project  # noqa: E402, F401 - the tests write synthetic maps through here
from scale_pages import median_parts  # noqa: E402
from scale_procs import Failure, Timing, run_measured, stop_all  # noqa: E402
from scale_search import measure_search  # noqa: E402
from scale_serve import Serving, TopicFile, marker_word, prose_keys  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
PACKAGES = ("generator", "calculators", "calcview")
PARTS = ("cold", "warm", "serve", "edit", "search", "memory", "real")
PROJECT_FILES = ("content", "mkdocs.yml", "node_modules")  # everything else in a project is the build's
SAMPLE_PAGES = 25


class Bench:
    """One run of the benchmark: the code snapshot, the limits and where logs go."""

    def __init__(self, args: argparse.Namespace, work: Path) -> None:
        self.args, self.work = args, work
        self.code = snapshot_code(args.code.resolve(), work)
        self.logs = work / "logs"
        self.logs.mkdir()
        self.rng = random.Random(args.seed)

    def env(self, project: Path) -> dict[str, str]:
        env = dict(os.environ, NO_MKDOCS_2_WARNING="1", PYTHONHASHSEED="0", PYTHONPATH=str(self.code),
                   XDG_CACHE_HOME=str(project / ".bench-cache"), LAYERMAP_WHAT_IF=self.args.what_if)
        env.pop("LAYERMAP_SITE_URL", None)
        return env

    def log(self, label: str) -> Path:
        return self.logs / f"{len(list(self.logs.iterdir())):03d}-{label.replace(' ', '-')}.log"

    def layermap_build(self, project: Path, cold: bool) -> Timing | Failure:
        if cold:
            clean(project)
        entry = [str(self.code / "what_if.py")] if self.args.what_if else ["-m", "generator.cli"]
        label = f"layermap {'cold' if cold else 'warm'} build"
        return run_measured([sys.executable, *entry, "--project", str(project), "build"], label, self.code,
                            self.env(project), self.log(label), self.args.build_timeout)

    def baseline_build(self, root: Path) -> Timing | Failure:
        shutil.rmtree(root / "site", ignore_errors=True)
        return run_measured([sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(root / "mkdocs.yml")],
                            "baseline build", self.code, self.env(root), self.log("baseline build"),
                            self.args.build_timeout)

    def serve(self, project: Path) -> Serving:
        return Serving(sys.executable, project, self.code, self.env(project), self.log("serve"))


def snapshot_code(source: Path, work: Path) -> Path:
    """Copy the code once, so that every measurement runs the same code while others edit the repository."""
    code = work / "code"
    for package in PACKAGES:
        if (source / package).is_dir():
            shutil.copytree(source / package, code / package, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy2(source / "mkdocs.yml", code / "mkdocs.yml")
    shutil.copy2(Path(__file__).with_name("what_if.py"), code / "what_if.py")
    (code / "node_modules").symlink_to(REPO / "node_modules")  # Workbox and Pyodide are found beside the code
    return code


def clean(project: Path) -> None:
    """Leave only the project's own files: no docs tree, no site, no cache."""
    for entry in project.iterdir():
        if entry.name not in PROJECT_FILES:
            shutil.rmtree(entry) if entry.is_dir() and not entry.is_symlink() else entry.unlink()


def say(message: str) -> None:
    print(f"[{datetime.now(timezone.utc):%H:%M:%S}] {message}", flush=True)


def _t(run: Timing | Failure) -> str:
    return str(run) if isinstance(run, Failure) else f"{run.wall:.1f} s (CPU {run.cpu:.1f} s, peak {run.peak_mib:.0f} MiB)"


def topic_files(project: Path) -> list[TopicFile]:
    found = []
    for path in sorted((project / "content").glob("layer-*/*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        found.append(TopicFile(data["id"], path, f"layer-{data['layer']}/{data['id']}/"))
    return found


def measure_builds(bench: Bench, m: rep.Measured, project: Path, parts: set[str]) -> None:
    repeat, baseline = bench.args.repeat, bench.work / f"baseline-{m.size}"
    if parts & {"cold", "memory"}:
        for run in range(repeat):
            m.cold.append(bench.layermap_build(project, cold=True))
            if run == 0 and isinstance(m.cold[0], Timing):
                write_baseline(project / ".layermap", baseline)
            if baseline.exists():
                m.baseline.append(bench.baseline_build(baseline))
            say(f"{m.size} topics, run {run + 1}/{repeat}: layermap {_t(m.cold[-1])}; "
                f"baseline {_t(m.baseline[-1]) if m.baseline else 'not run'}")
    if parts & {"warm", "search"} and not any(isinstance(t, Timing) for t in m.cold):
        m.cold.append(bench.layermap_build(project, cold=True))
        say(f"{m.size} topics: layermap cold build {_t(m.cold[-1])}")
    if "warm" in parts:
        for run in range(repeat):
            m.warm.append(bench.layermap_build(project, cold=False))
            say(f"{m.size} topics, warm run {run + 1}/{repeat}: {_t(m.warm[-1])}")


def measure_pages(bench: Bench, m: rep.Measured, project: Path, topics: list[TopicFile]) -> None:
    sample = random.Random(bench.args.seed).sample(topics, k=min(SAMPLE_PAGES, len(topics)))
    site, baseline = project / "site", bench.work / f"baseline-{m.size}" / "site"
    if all((site / t.url_path / "index.html").exists() for t in sample):
        m.layermap_page = median_parts([site / t.url_path / "index.html" for t in sample])
    if all((baseline / t.url_path / "index.html").exists() for t in sample):
        m.baseline_page = median_parts([baseline / t.url_path / "index.html" for t in sample])


def measure_serving(bench: Bench, project: Path, topics: list[TopicFile], starts: int, edits: int,
                    m: rep.Measured | rep.MapMeasured) -> None:
    """``starts`` serve sessions from nothing; the first also makes ``edits`` prose edits, then the title and summary edits."""
    kinds = ["title"] * bench.args.title_edits + ["summary"] * bench.args.summary_edits if edits else []
    chosen = random.Random(bench.args.seed).sample(topics, k=min(len(topics), edits + len(kinds)))
    saved = {t.path: t.path.read_text(encoding="utf-8") for t in chosen}
    for session in range(starts):
        clean(project)
        serving = bench.serve(project)
        try:
            m.serve_start.append(serving.wait_ready(chosen[0], bench.args.serve_timeout))
            say(f"serve start {session + 1}/{starts}: {m.serve_start[-1]}")
            if session == 0 and edits and not isinstance(m.serve_start[-1], Failure):
                edit_topics(bench, serving, chosen, edits, kinds, m)
        finally:
            serving.close()
            for path, text in saved.items():
                path.write_text(text, encoding="utf-8")


def edit_topics(bench: Bench, serving: Serving, chosen: list[TopicFile], edits: int, kinds: list[str],
                m: rep.Measured | rep.MapMeasured) -> None:
    for turn, topic in enumerate(chosen[:edits]):
        where = ".".join(prose_keys(topic.path.read_text(encoding="utf-8"), turn))
        m.edits.append(serving.edit(topic, where, marker_word(bench.rng), bench.args.edit_timeout))
        say(f"edit {turn + 1}/{edits} ({topic.topic_id} {where}): {m.edits[-1].seconds}")
    for kind, topic in zip(kinds, chosen[edits:]):
        done = serving.edit(topic, kind, marker_word(bench.rng), bench.args.edit_timeout)
        (m.title_edits if kind == "title" else m.summary_edits).append(done)
        say(f"{kind} edit ({topic.topic_id}): {done.seconds} (every page written: {done.everything})")


def measure_size(bench: Bench, size: int, parts: set[str]) -> rep.Measured:
    m, project = rep.Measured(size), bench.work / f"layermap-{size}"
    write_project(project, size, bench.args.seed, bench.code)
    topics = topic_files(project)
    measure_builds(bench, m, project, parts)
    measure_pages(bench, m, project, topics)
    if "search" in parts and (project / "site").is_dir():
        try:
            m.search = measure_search(project / "site", topics[0].url_path)
        except Exception as error:  # noqa: BLE001 - a browser failure is reported, not raised
            m.search = Failure("search measurement", f"{type(error).__name__}: {error}")
        say(f"search: {m.search}")
    if parts & {"serve", "edit"}:
        starts = bench.args.repeat if "serve" in parts else 1
        measure_serving(bench, project, topics, starts, bench.args.edits if "edit" in parts else 0, m)
    return m


def measure_real_map(bench: Bench) -> rep.MapMeasured:
    project = bench.work / "real-map"
    project.mkdir()
    shutil.copytree(bench.args.code.resolve() / "content", project / "content")
    shutil.copy2(bench.code / "mkdocs.yml", project / "mkdocs.yml")
    (project / "node_modules").symlink_to(REPO / "node_modules")
    topics = topic_files(project)
    real = rep.MapMeasured(len(topics))
    measure_serving(bench, project, topics, 1, bench.args.edits, real)
    return real


def code_state(source: Path) -> str:
    def git(*args: str) -> str:
        done = subprocess.run(["git", *args], cwd=source, capture_output=True, text=True, check=False)
        return done.stdout.strip()

    head = git("rev-parse", "--short", "HEAD")
    if not head:
        return f"the code in {source} (not a git checkout)"
    branch = git("rev-parse", "--abbrev-ref", "HEAD")
    dirty = git("status", "--porcelain", "--", *PACKAGES, "mkdocs.yml")
    return f"commit {head} ({branch})" + (" plus uncommitted changes in the working tree" if dirty else "")


def report(results: list[rep.Measured], real: rep.MapMeasured | None, command: str, state: str, started: datetime,
           parts: set[str]) -> str:
    now = datetime.now(timezone.utc)
    load = " / ".join(f"{x:.1f}" for x in os.getloadavg())
    lines = [f"## Issue 16 targets, measured {started:%Y-%m-%d %H:%M}–{now:%H:%M} UTC", "",
             f"Code: {state}. Command: `{command}`.",
             f"Machine: {platform.node() or 'this machine'}, {os.cpu_count()} CPUs shared with other work "
             f"(load average at the end {load}), Python {platform.python_version()}: expect ±20 %.",
             "Baseline: plain mkdocs-material WITH `navigation.prune`, building the very pages layermap generated "
             "(same folders, same `nav:` with its alphabetical groups, same theme features, Markdown extensions and "
             "search plugin), without layermap's hooks, extra CSS/JS and assets. Cold builds start with no "
             "`.layermap/`, no `site/` and no cache; memory is the peak of the summed PSS of the build's process "
             "tree (proportional set size: a page shared by forked processes counts once), sampled every 50 ms.", "", *rep.table(rep.target_rows(results, real, parts)), "",
             "Every size measured:", "", *rep.sizes_table(results)]
    peaks = rep.peak_lines(results)
    if peaks:
        lines += ["", "The highest memory peak of each kind of build, by process:", "", *peaks]
    pages = rep.pages_table(results)
    if pages:
        lines += ["", f"A typical topic page (median of {SAMPLE_PAGES} sampled topic pages):", "", *pages]
    failed = rep.failure_lines(results, real)
    if failed:
        lines += ["", "Failed or timed-out runs:", "", *failed]
    return "\n".join(lines) + "\n"


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--sizes", default="1000", help="comma-separated topic counts (default 1000; add 2000 for growth)")
    p.add_argument("--repeat", type=int, default=3, help="runs of each build and serve start (default 3)")
    p.add_argument("--only", default=",".join(PARTS), help=f"parts to run, comma-separated from {','.join(PARTS)}")
    p.add_argument("--edits", type=int, default=5, help="prose edits while serving (default 5), then the title and summary edits")
    p.add_argument("--title-edits", type=int, default=3, help="title edits after the prose edits (default 3)")
    p.add_argument("--summary-edits", type=int, default=3, help="summary edits after the title edits (default 3)")
    p.add_argument("--code", type=Path, default=REPO, help="the checkout whose code is measured (default this one)")
    p.add_argument("--seed", type=int, default=7, help="seed of the synthetic content (default 7)")
    p.add_argument("--build-timeout", type=float, default=1200, help="seconds before a build counts as failed")
    p.add_argument("--serve-timeout", type=float, default=900, help="seconds before a serve start counts as failed")
    p.add_argument("--edit-timeout", type=float, default=300, help="seconds before an edit counts as never shown")
    p.add_argument("--results", type=Path, default=REPO / "benchmarks" / "RESULTS.md", help="report written on top of this")
    p.add_argument("--no-write", action="store_true", help="print the report only")
    p.add_argument("--keep", action="store_true", help="keep the temporary folder (projects, sites, logs)")
    p.add_argument("--what-if", default="", metavar="CHANGES", help="changes patched over the code (benchmarks/what_if.py)")
    args = p.parse_args(argv)
    args.sizes = [int(s.replace("_", "")) for s in args.sizes.split(",") if s.strip()]
    args.parts = {part.strip() for part in args.only.split(",") if part.strip()}
    unknown = args.parts - set(PARTS)
    if unknown:
        p.error(f"unknown part(s) {', '.join(sorted(unknown))}: choose from {', '.join(PARTS)}")
    args.repeat = max(1, args.repeat)
    return args


def _interrupted(*_: object) -> None:
    raise KeyboardInterrupt  # a kill (SIGTERM) ends the run like Ctrl+C: report, then stop every process


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    signal.signal(signal.SIGTERM, _interrupted)
    command = "python benchmarks/build_scale.py " + " ".join(argv if argv is not None else sys.argv[1:])
    started, state = datetime.now(timezone.utc), code_state(args.code.resolve())
    work = Path(tempfile.mkdtemp(prefix="layermap-bench-"))
    bench = Bench(args, work)
    results: list[rep.Measured] = []
    real = None
    try:
        for size in args.sizes:
            say(f"{size} topics: {', '.join(sorted(args.parts))}")
            results.append(measure_size(bench, size, args.parts))
        if "real" in args.parts:
            real = measure_real_map(bench)
    except KeyboardInterrupt:
        print("interrupted: reporting what was measured", flush=True)
    finally:
        stop_all()
        text = report(results, real, command.strip(), state, started, args.parts)
        print("\n" + text)
        if not args.no_write and (results or real):
            args.results.write_text(rep.insert_section(args.results.read_text(encoding="utf-8"), text), encoding="utf-8")
            print(f"written to {args.results}")
        if args.keep:
            print(f"kept {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    started_at = time.perf_counter()
    code = main()
    print(f"done in {time.perf_counter() - started_at:.0f} s")
    sys.exit(code)
