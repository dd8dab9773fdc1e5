"""Build-scale measurement (a report, not a test): how layermap's build grows with the map.

For each size it writes a synthetic project (a realistic ``content/map.yaml`` with ten
layers, topics with D1, D2 and D4 bodies, flows, trade-offs, cited sources, examples
and edges, no calculators) plus the project's real ``mkdocs.yml`` into a temporary
folder, then measures, each in a fresh subprocess:

* **layermap**: ``python -m generator.cli --project TMP build`` (generate + MkDocs build);
* **baseline**: the very same generated Markdown pages, flattened into one folder and
  built by mkdocs-material with no ``nav:`` (MkDocs' automatic navigation), without
  ``navigation.prune`` and without layermap's CSS/JS: what a naive Material site does.

It reports wall-clock build times, the median HTML size of a sample of topic pages, and
how much of such a page is the embedded navigation, the table of contents and the
"More in this layer" list, then checks two targets:

* layermap's build time grows linearly: t(2000) <= 2.1 x t(1000);
* a topic page is at most 60 KB at 1,000 topics.

Usage (from the repository root)::

    .venv/bin/python benchmarks/build_scale.py --sizes 100,1000,2000 --repeat 1

The script always exits 0 once it has printed its report; PASS/FAIL lines say how the
targets fared.  Numbers come from a shared 2-core machine: expect +-20 %.
"""

from __future__ import annotations

import argparse
import itertools
import os
import platform
import posixpath
import random
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from datetime import date, datetime, timezone
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[1]
CODE = REPO  # replaced by a snapshot of the code at the start of a run (see snapshot_code)
PACKAGES = ("generator", "calculators", "calcview")
LINEAR_LIMIT = 2.1      # t(2000) / t(1000) at most this
PAGE_LIMIT_KB = 60.0    # typical topic page at 1,000 topics at most this
PAGE_SIZE_AT = 1000
SAMPLE_PAGES = 25

# --- synthetic content -------------------------------------------------------------------

LAYERS = [
    ("Energy & Facilities", "The electricity, buildings and cooling that every AI computer depends on.", 6),
    ("Chips & Hardware", "The processors, memory and chip-to-chip links that do the arithmetic.", 11),
    ("Networking & Interconnect", "The switches, cables and protocols that tie accelerators into one machine.", 8),
    ("Cloud & Infrastructure", "How chips are wired into clusters, scheduled and rented out.", 12),
    ("Data", "Collecting, cleaning, filtering and mixing what models learn from.", 11),
    ("Models & Training", "How models are designed, trained and tuned.", 15),
    ("Evaluation & Safety", "Measuring what models can do and keeping them within bounds.", 9),
    ("Serving & Inference", "Running trained models fast and cheaply for many users.", 10),
    ("Applications & Products", "The assistants, tools and services people use.", 11),
    ("Society & Policy", "Rules, markets and the people affected by AI systems.", 7),
]
EDGE_KINDS = [("powers", "powers", "#e8590c"), ("connects", "connects", "#3b82f6"),
              ("builds", "is part of / is built into", "#9775fa"), ("rents", "rents", "#e64980"),
              ("feeds", "feeds", "#2f9e44"), ("runs-on", "runs on", "#1098ad")]
VERBS = {"powers": "powers", "connects": "connects to", "builds": "is built into",
         "rents": "rents capacity from", "feeds": "feeds", "runs-on": "runs on"}

ADJECTIVES = """adaptive sparse dense distributed federated quantised elastic streaming cached
sharded hybrid optical liquid modular secure private synthetic multimodal continual
speculative hierarchical low-latency high-bandwidth fault-tolerant open""".split()
SUBJECTS = """attention memory cooling power network storage scheduler compiler kernel tokenizer
dataset checkpoint optimizer router cache retrieval embedding evaluation alignment
inference batching pipeline interconnect transformer""".split()
NOUNS = """clusters systems fabrics pipelines runtimes accelerators benchmarks policies markets
architectures protocols services layers platforms controllers frameworks""".split()
WORDS = """model models training data chip chips memory bandwidth latency throughput cost power
energy cluster node nodes network switch packet tensor matrix layer layers weights gradient
gradients optimiser batch token tokens sequence context cache request requests user users
server servers rack racks cooling water air heat efficiency utilisation failure failures
checkpoint schedule scheduler queue job jobs replica replicas shard shards parameter
parameters precision accuracy benchmark score evaluation dataset corpus filter quality
price market contract capacity demand supply region grid site building transformer
operator vendor standard protocol link links fabric topology bisection collective reduce
gather scatter stream streams kernel compiler runtime driver firmware instance instances""".split()
VERBS_TEXT = """moves splits shares limits doubles halves raises lowers feeds drives stores
schedules balances reduces measures caches streams routes checks trades saves spends
needs keeps joins serves""".split()
LINKERS = ["because", "while", "so that", "although", "when", "until", "and", "but", "since"]
FAMILIES = """Smith Chen Garcia Kumar Nguyen Müller Rossi Tanaka Kowalski Okafor Silva Dubois
Jensen Haddad Novak Ivanova Park Walsh Moreau Lindqvist""".split()
GIVEN = "Ada Ben Chloe Dev Eun Farah Gus Hana Ivo Jun Kai Lena Mia Nils Omar Pia Raj Sara".split()
TOOLS = "Slurm Kubernetes Ray PyTorch JAX Triton vLLM NCCL Spark Kafka Airflow ONNX TensorRT Megatron DeepSpeed".split()
KINDS = ["scheduler", "framework", "library", "service", "chip", "dataset", "benchmark", "standard"]


class _Dumper(yaml.SafeDumper):
    pass


def _str(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    style = "|" if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _str)


class Prose:
    """Deterministic, plausible-looking technical prose."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def sentence(self, words: tuple[int, int] = (10, 22), cite: str | None = None) -> str:
        r = self.rng
        n = r.randint(*words)
        parts = [r.choice(WORDS) for _ in range(n)]
        parts.insert(min(2, n), r.choice(VERBS_TEXT))
        if n > 12:
            parts.insert(n // 2 + 1, r.choice(LINKERS))
        if r.random() < 0.25:
            i = r.randrange(len(parts))
            parts[i] = f"**{parts[i]}**"
        if r.random() < 0.2:
            parts.insert(r.randrange(len(parts)), f"{r.randint(2, 999)} {r.choice(['GB', 'ms', 'kW', '%', 'TB/s'])}")
        text = " ".join(parts)
        text = text[0].upper() + text[1:]
        return f"{text} [@{cite}]." if cite else f"{text}."

    def paragraph(self, sentences: tuple[int, int], keys: list[str], cite_rate: float) -> str:
        out = []
        for _ in range(self.rng.randint(*sentences)):
            key = self.rng.choice(keys) if keys and self.rng.random() < cite_rate else None
            out.append(self.sentence(cite=key))
        return self.wrap(" ".join(out))

    @staticmethod
    def wrap(text: str, width: int = 88) -> str:
        lines, line = [], ""
        for word in text.split():
            if line and len(line) + 1 + len(word) > width:
                lines.append(line)
                line = word
            else:
                line = f"{line} {word}" if line else word
        return "\n".join([*lines, line])

    def body(self, paragraphs: int, sentences: tuple[int, int], keys: list[str], cite_rate: float,
             bullets: int = 0) -> str:
        paras = [self.paragraph(sentences, keys, cite_rate) for _ in range(paragraphs)]
        if bullets:
            items = "\n".join(f"- {self.sentence((6, 14), self.rng.choice(keys) if keys else None)}"
                              for _ in range(bullets))
            paras.insert(len(paras) // 2 + 1, items)
        return "\n\n".join(paras) + "\n"

    def flow(self, steps: int) -> dict:
        return {
            "title": self.sentence((3, 6))[:-1],
            "steps": [{"label": self.rng.choice(WORDS).capitalize() + " " + self.rng.choice(WORDS),
                       "detail": self.sentence((6, 12))} for _ in range(steps)],
        }


def topic_titles(count: int, rng: random.Random) -> list[str]:
    combos = list(itertools.product(ADJECTIVES, SUBJECTS, NOUNS))
    rng.shuffle(combos)
    return [f"{a.capitalize()} {s} {n}" for a, s, n in combos[:count]]


def slug(title: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")


def sources_for(rng: random.Random, topic_number: int) -> list[dict]:
    """A topic's sources; keys are unique in the whole map (``content/sources.yaml`` is one bibliography)."""
    out, used = [], set()
    for _ in range(rng.randint(3, 5)):
        family = rng.choice(FAMILIES)
        year = rng.randint(2015, 2026)
        key = f"{slug(family).replace('-', '')}{year}t{topic_number}"
        while key in used:
            key += "b"
        used.add(key)
        authors = [f"{family}, {rng.choice(GIVEN)}"] + [
            f"{rng.choice(FAMILIES)}, {rng.choice(GIVEN)}" for _ in range(rng.randint(0, 3))]
        title = Prose(rng).sentence((5, 11))[:-1].replace("**", "")
        out.append({"id": key, "kind": "paper", "title": title, "authors": authors,
                    "date": f"{year}-{rng.randint(1, 12):02d}", "url": f"https://example.org/papers/{key}"})
    return out


def synthetic_topic(topic_id: str, title: str, layer: int, others: list[str], rng: random.Random,
                    sources: list[dict]) -> dict:
    """A topic citing ``sources`` (which go to content/sources.yaml, not into the topic)."""
    prose = Prose(rng)
    keys = [s["id"] for s in sources]
    summary = prose.sentence((16, 26)).replace("**", "")[:240].rstrip(".") + "."
    d4_body = prose.body(4, (3, 5), keys, 0.35, bullets=4)
    d4_body += f"\nEvery source is cited at least once: {'; '.join(f'[@{k}]' for k in keys)}.\n"
    depths = {
        "D1": {
            "hook": prose.sentence((7, 12))[:-1] + "?",
            "body": prose.body(2, (3, 4), [], 0.0),
            "flow": prose.flow(4),
            "analogy": prose.sentence((8, 14)),
        },
        "D2": {
            "body": prose.body(3, (3, 5), keys, 0.2),
            "flow": prose.flow(5),
            "analogy": prose.sentence((8, 14)),
            "breaks": prose.sentence((14, 24)),
        },
        "D4": {
            "body": d4_body,
            "formulas": "\n".join(f"{rng.choice(WORDS)}_{i} = {rng.choice(WORDS)} * {rng.randint(2, 64)} / "
                                  f"{rng.choice(WORDS)}   # {prose.sentence((3, 7))}" for i in range(4)),
            "tradeoffs": [prose.paragraph((1, 2), keys, 0.3) for _ in range(4)],
        },
    }
    edges = []
    for other in rng.sample(others, k=min(3, len(others))):
        kind = rng.choice(EDGE_KINDS)[0]
        edges.append({"subject": topic_id, "verb": VERBS[kind], "object": other, "kind": kind})
    return {
        "id": topic_id,
        "title": title,
        "layer": layer,
        "summary": summary,
        "depths": depths,
        "examples": {"as_of": date(2026, rng.randint(1, 11), rng.randint(1, 28)),
                     "items": [{"name": f"{rng.choice(TOOLS)} ({rng.choice(WORDS)} {rng.choice(WORDS)})",
                                "kind": rng.choice(KINDS)} for _ in range(rng.randint(3, 5))]},
        "edges": edges,
    }


def write_project(root: Path, topics: int, seed: int) -> dict[str, str]:
    """Write a synthetic project; return {topic id: its docs-tree page path}."""
    rng = random.Random(seed * 100_003 + topics)
    content = root / "content"
    content.mkdir(parents=True)
    prose = Prose(rng)
    config = {
        "title": "A synthetic AI stack",
        "introduction": prose.body(3, (3, 5), [], 0.0),
        "depths": [{"key": k, "name": n, "audience": a} for k, n, a in [
            ("D1", "Story", "Young children and total beginners"), ("D2", "Picture", "Curious beginners"),
            ("D3", "Worked example", "Learners ready for numbers"), ("D4", "Mechanism", "Practitioners"),
            ("D5", "Frontier", "Experts")]],
        "layers": [{"number": n, "name": name, "description": desc}
                   for n, (name, desc, _) in enumerate(LAYERS, start=1)],
        "edge_kinds": [{"id": i, "label": label, "colour": colour} for i, label, colour in EDGE_KINDS],
    }
    (content / "map.yaml").write_text(yaml.dump(config, Dumper=_Dumper, sort_keys=False, allow_unicode=True,
                                                width=1000), encoding="utf-8")
    titles = topic_titles(topics, rng)
    ids = [slug(t) for t in titles]
    weights = [w for _, _, w in LAYERS]
    layers = rng.choices(range(1, len(LAYERS) + 1), weights=weights, k=topics)
    pages, bibliography = {}, {}
    for index, (topic_id, title, layer) in enumerate(zip(ids, titles, layers, strict=True)):
        others = ids[:index] + ids[index + 1:]
        sources = sources_for(rng, index)
        bibliography |= {record["id"]: {k: v for k, v in record.items() if k != "id"} for record in sources}
        data = synthetic_topic(topic_id, title, layer, others, rng, sources)
        folder = content / f"layer-{layer}"
        folder.mkdir(exist_ok=True)
        (folder / f"{topic_id}.yaml").write_text(
            yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=1000), encoding="utf-8")
        pages[topic_id] = f"layer-{layer}/{topic_id}.md"
    (content / "sources.yaml").write_text(yaml.dump({"sources": bibliography}, Dumper=_Dumper, sort_keys=False,
                                                    allow_unicode=True, width=1000), encoding="utf-8")
    shutil.copy2(CODE / "mkdocs.yml", root / "mkdocs.yml")
    (root / "node_modules").symlink_to(REPO / "node_modules")  # the pinned npm packages the build ships
    return pages


# --- the baseline: the same pages, flat, no nav config, no prune --------------------------

LINK = re.compile(r"\]\(([^)\s#]+\.md)(#[^)\s]*)?\)")


def flat_name(page: str) -> str:
    """layer-3/index.md → layer-3.md; layer-3/some-topic.md → some-topic.md; index.md stays."""
    folder, name = posixpath.split(page)
    if not folder:
        return name
    return f"{folder}.md" if name == "index.md" else name


def write_baseline(generated_docs: Path, root: Path) -> None:
    docs = root / "docs"
    docs.mkdir(parents=True)
    for path in sorted(generated_docs.rglob("*.md")):
        page = path.relative_to(generated_docs).as_posix()

        def relink(match: re.Match[str], page: str = page) -> str:
            target = posixpath.normpath(posixpath.join(posixpath.dirname(page), match.group(1)))
            return f"]({flat_name(target)}{match.group(2) or ''})"

        (docs / flat_name(page)).write_text(LINK.sub(relink, path.read_text(encoding="utf-8")), encoding="utf-8")
    text = (CODE / "mkdocs.yml").read_text(encoding="utf-8")
    text = re.sub(r"^\s*- navigation\.prune.*\n", "", text, flags=re.MULTILINE)
    (root / "mkdocs.yml").write_text(text + "\ndocs_dir: docs\nsite_dir: site\n", encoding="utf-8")


# --- running and measuring -----------------------------------------------------------------

def snapshot_code(work: Path) -> Path:
    """Copy the code and mkdocs.yml once, so that every size measures the same code even
    while others edit the repository during a long run."""
    code = work / "code"
    for package in PACKAGES:
        if (REPO / package).is_dir():
            shutil.copytree(REPO / package, code / package, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy2(REPO / "mkdocs.yml", code / "mkdocs.yml")
    shutil.copy2(Path(__file__).with_name("what_if.py"), code / "what_if.py")
    (code / "node_modules").symlink_to(REPO / "node_modules")  # Workbox and Pyodide are found beside the code
    return code


def _env(what_if: str = "") -> dict[str, str]:
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1", PYTHONHASHSEED="0", LAYERMAP_WHAT_IF=what_if,
               PYTHONPATH=str(CODE))
    env.pop("LAYERMAP_SITE_URL", None)
    return env


@dataclass(frozen=True)
class Timing:
    wall: float  # seconds on the clock: what a user waits, but inflated by anything else running
    cpu: float   # user + system seconds of the build process: much less sensitive to other load


def timed(command: list[str], label: str, what_if: str = "") -> Timing | None:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(command, cwd=CODE, env=_env(what_if), capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-15:])
        print(f"  !! {label} failed (exit {done.returncode}):\n{tail}", flush=True)
        return None
    return Timing(elapsed, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime))


def build_layermap(project: Path, what_if: str = "") -> Timing | None:
    for leftover in (".layermap", "site", ".site.new", ".site.old"):
        shutil.rmtree(project / leftover, ignore_errors=True)  # every run starts from nothing
    entry = [str(CODE / "what_if.py")] if what_if else ["-m", "generator.cli"]
    return timed([sys.executable, *entry, "--project", str(project), "build"], "layermap build", what_if)


def build_baseline(root: Path) -> Timing | None:
    shutil.rmtree(root / "site", ignore_errors=True)
    return timed([sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(root / "mkdocs.yml")], "baseline build")


def _element(html: str, start: int, tag: str = "nav") -> str:
    """The element opening at ``start``, up to its balanced closing tag."""
    depth, pos = 0, start
    opening, closing = re.compile(rf"<{tag}\b"), f"</{tag}>"
    while True:
        next_open = opening.search(html, pos + 1) if depth else opening.search(html, pos)
        next_close = html.find(closing, pos)
        if next_close < 0:
            return html[start:]
        if next_open and next_open.start() < next_close:
            depth += 1
            pos = next_open.end()
        else:
            depth -= 1
            pos = next_close + len(closing)
            if depth == 0:
                return html[start:pos]


def _navs(html: str, css_class: str) -> list[str]:
    return [_element(html, m.start()) for m in re.finditer(rf'<nav class="[^"]*\b{css_class}\b', html)]


@dataclass
class PageParts:
    total: int
    nav: int        # primary navigation, without the copy of the TOC nested in it
    toc: int        # table of contents, every copy
    siblings: int   # the "More in <layer>" list (page content)


def page_parts(html: str) -> PageParts:
    primary = _navs(html, "md-nav--primary")
    tocs = _navs(html, "md-nav--secondary")
    nested = sum(len(t) for p in primary for t in _navs(p, "md-nav--secondary"))
    siblings = 0
    if (m := re.search(r'<h2 [^>]*\bid="siblings"', html)):
        end = min(i for i in (html.find("<h2", m.end()), html.find("</article>", m.end())) if i >= 0)
        siblings = end - m.start()
    return PageParts(len(html.encode()), sum(len(p) for p in primary) - nested, sum(len(t) for t in tocs), siblings)


def median_parts(files: list[Path]) -> PageParts:
    parts = [page_parts(f.read_text(encoding="utf-8")) for f in files]
    return PageParts(*(int(statistics.median(getattr(p, a) for p in parts))
                       for a in ("total", "nav", "toc", "siblings")))


@dataclass
class Result:
    size: int
    layermap: list[Timing] = field(default_factory=list)
    baseline: list[Timing] = field(default_factory=list)
    layermap_page: PageParts | None = None
    baseline_page: PageParts | None = None
    layermap_search_kb: float = 0.0
    baseline_search_kb: float = 0.0

    @staticmethod
    def _median(timings: list[Timing], kind: str) -> float | None:
        return statistics.median(getattr(t, kind) for t in timings) if timings else None

    def lm(self, kind: str = "wall") -> float | None:
        return self._median(self.layermap, kind)

    def base(self, kind: str = "wall") -> float | None:
        return self._median(self.baseline, kind)


def measure(size: int, repeat: int, seed: int, work: Path, what_if: str = "", baseline_too: bool = True) -> Result:
    result = Result(size)
    project, baseline = work / f"layermap-{size}", work / f"baseline-{size}"
    started = time.perf_counter()
    pages = write_project(project, size, seed)
    print(f"[{size} topics] content written in {time.perf_counter() - started:.1f} s", flush=True)
    for run in range(repeat):
        t = build_layermap(project, what_if)
        if t is not None:
            result.layermap.append(t)
        elif run == 0:
            return result
        b = None
        if baseline_too:
            if run == 0:
                write_baseline(project / ".layermap" / "docs", baseline)
            b = build_baseline(baseline)
            if b is not None:
                result.baseline.append(b)
        print(f"[{size} topics] run {run + 1}/{repeat}: layermap {_s(t)}"
              + (f", baseline {_s(b)}" if baseline_too else ""), flush=True)
    sample = random.Random(seed).sample(sorted(pages), k=min(SAMPLE_PAGES, len(pages)))
    if result.layermap:
        result.layermap_page = median_parts([project / "site" / pages[t][:-3] / "index.html" for t in sample])
        result.layermap_search_kb = _kb((project / "site/search/search_index.json").stat().st_size)
    if result.baseline:
        result.baseline_page = median_parts([baseline / "site" / t / "index.html" for t in sample])
        result.baseline_search_kb = _kb((baseline / "site/search/search_index.json").stat().st_size)
    return result


def _kb(n: int) -> float:
    return n / 1000


def _s(t: Timing | None) -> str:
    return "failed" if t is None else f"{t.wall:.1f} s (CPU {t.cpu:.1f} s)"


def _f(value: float | None, digits: int = 1) -> str:
    return "—" if value is None else f"{value:.{digits}f}"


def code_state() -> str:
    def git(*args: str) -> str:
        done = subprocess.run(["git", *args], cwd=REPO, capture_output=True, text=True, check=False)
        return done.stdout.strip()

    head = git("rev-parse", "--short", "HEAD") or "unknown"
    dirty = git("status", "--porcelain", "--", *PACKAGES, "mkdocs.yml")
    return f"commit {head}" + (" plus uncommitted changes in the working tree" if dirty else "")


def _ratio(a: float | None, b: float | None) -> float | None:
    return a / b if a and b else None


def report(results: list[Result], command: str, what_if: str = "", state: str = "") -> str:
    lines = [
        "| topics | layermap build s | baseline build s | ratio | layermap topic KB | baseline topic KB |",
        "|---:|---:|---:|---:|---:|---:|",
    ]
    for r in results:
        lines.append(f"| {r.size:,} | {_f(r.lm())} | {_f(r.base())} | {_f(_ratio(r.lm(), r.base()), 2)} | "
                     f"{_f(r.layermap_page and _kb(r.layermap_page.total))} | "
                     f"{_f(r.baseline_page and _kb(r.baseline_page.total))} |")
    by_size = {r.size: r for r in results}
    both = 1000 in by_size and 2000 in by_size
    if both:
        a, b = by_size[1000], by_size[2000]
        lines += ["", f"Growth 2,000 / 1,000 topics (× 2.00 is linear): layermap × {_f(_ratio(b.lm(), a.lm()), 2)}, "
                      f"baseline × {_f(_ratio(b.base(), a.base()), 2)}."]
    lines += ["", "CPU time of the same builds (user + system s; other jobs on the machine inflate wall time, "
                  "much less this):", "",
              "| topics | layermap CPU s | baseline CPU s | ratio |", "|---:|---:|---:|---:|"]
    for r in results:
        lines.append(f"| {r.size:,} | {_f(r.lm('cpu'))} | {_f(r.base('cpu'))} | "
                     f"{_f(_ratio(r.lm('cpu'), r.base('cpu')), 2)} |")
    if both:
        lines += ["", f"CPU growth 2,000 / 1,000 topics: layermap × {_f(_ratio(b.lm('cpu'), a.lm('cpu')), 2)}, "
                      f"baseline × {_f(_ratio(b.base('cpu'), a.base('cpu')), 2)}."]
    lines += ["", f"What a typical topic page is made of (median of {SAMPLE_PAGES} sampled topic pages, KB):", "",
              "| topics | site | page | sidebar nav | table of contents (×2) | “More in layer” list | rest | "
              "search index KB |",
              "|---:|---|---:|---:|---:|---:|---:|---:|"]
    for r in results:
        for name, parts, search in (("layermap", r.layermap_page, r.layermap_search_kb),
                                    ("baseline", r.baseline_page, r.baseline_search_kb)):
            if parts:
                rest = parts.total - parts.nav - parts.toc - parts.siblings
                lines.append(f"| {r.size:,} | {name} | {_kb(parts.total):.1f} | {_kb(parts.nav):.1f} "
                             f"({parts.nav / parts.total:.0%}) | {_kb(parts.toc):.1f} | {_kb(parts.siblings):.1f} "
                             f"({parts.siblings / parts.total:.0%}) | {_kb(rest):.1f} | {search:,.0f} |")
    lines += ["", "Targets:"]
    if both and a.lm() and b.lm():
        for kind, name in (("wall", "build time"), ("cpu", "build CPU time")):
            growth = b.lm(kind) / a.lm(kind)
            verdict = "PASS" if growth <= LINEAR_LIMIT else "FAIL"
            lines.append(f"- {verdict}: layermap {name} grows linearly: t(2000) = {growth:.2f} × t(1000) "
                         f"(limit {LINEAR_LIMIT} ×)")
    else:
        lines.append("- n/a: linear growth needs successful runs at sizes 1000 and 2000")
    page = by_size.get(PAGE_SIZE_AT)
    if page and page.layermap_page:
        kb = _kb(page.layermap_page.total)
        verdict = "PASS" if kb <= PAGE_LIMIT_KB else "FAIL"
        nav = page.layermap_page.nav / page.layermap_page.total
        lines.append(f"- {verdict}: typical topic page at 1,000 topics = {kb:.1f} KB (limit {PAGE_LIMIT_KB:.0f} KB; "
                     f"its sidebar navigation is {nav:.0%} of it)")
    else:
        lines.append("- n/a: page size needs a successful run at size 1000")
    lines += ["", f"Measured {datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC on {platform.node() or 'this machine'} "
              f"({os.cpu_count()} CPUs, Python {platform.python_version()}); shared 2-core machine, ±20 %.",
              f"Code: {state}." + (f" What-if changes patched in: {what_if} (benchmarks/what_if.py)."
                                   if what_if else ""),
              f"Command: `{command}`"]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--sizes", default="100,1000,2000", help="comma-separated topic counts (default 100,1000,2000)")
    p.add_argument("--repeat", type=int, default=1, help="builds per size; the median is reported (default 1)")
    p.add_argument("--keep", action="store_true", help="keep the temporary folder and print its path")
    p.add_argument("--seed", type=int, default=7, help="seed of the synthetic content (default 7)")
    p.add_argument("--no-baseline", action="store_true", help="skip the baseline builds (quicker experiments)")
    p.add_argument("--what-if", default="", metavar="CHANGES",
                   help="measure proposed changes patched over the code, comma-separated: siblings, "
                        "search, nav, flatnav (see benchmarks/what_if.py)")
    args = p.parse_args(argv)
    sizes = [int(s.replace("_", "")) for s in args.sizes.split(",") if s.strip()]
    command = "python benchmarks/build_scale.py " + " ".join(argv if argv is not None else sys.argv[1:])
    global CODE
    work = Path(tempfile.mkdtemp(prefix="layermap-bench-"))
    state = code_state()
    CODE = snapshot_code(work)
    results = []
    try:
        for size in sizes:
            results.append(measure(size, max(1, args.repeat), args.seed, work, args.what_if,
                                   not args.no_baseline))
    except KeyboardInterrupt:
        print("interrupted: reporting what was measured", flush=True)
    finally:
        print()
        print(report(results, command.strip(), args.what_if, state))
        if args.keep:
            print(f"\nkept {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
