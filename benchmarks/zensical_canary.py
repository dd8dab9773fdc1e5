"""A canary for the day mkdocs-material ends (announced for 2027-05-05): does Zensical, the
Material authors' successor, build layermap's generated tree into the same site? (A report, not
a test: it never fails the suite; issue 32 item 4.)

Zensical is pinned in ``benchmarks/zensical/requirements.lock`` and installed into its own
virtual environment there on first use (0.0.73: the newest that installs from PyPI here; later
releases need ``zensical-ui``, which the registry does not serve). The canary:

1. writes the generated tree once (``layermap``'s pipeline, for a site under ``/layermap/``);
2. builds it with layermap's own ``build`` (MkDocs + Material) and with ``zensical build``;
3. gives Zensical's pages layermap's own finishing step (``emit/finishing.py``: content sanitised,
   site links resolved, the depth script; then compacting, revisioned asset names and the page's
   security policy: ``generator/emit/engine/__init__.py``'s page finisher), as a build would;
4. compares: the pages each wrote; each page's article text, normalised; whether every local
   link and asset of every page resolves under the sub-path; the search entries; layermap's own
   marks (sanitised content, the depth script in the head, the lean search index); and, in
   Chromium, security-policy violations and console errors on one page of each kind.

    .venv/bin/python benchmarks/zensical_canary.py [--report benchmarks/ZENSICAL.md]
"""

from __future__ import annotations

import argparse
import html
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import venv
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
TOOL_DIR = Path(__file__).resolve().parent / "zensical"
SUB_PATH = "/layermap/"
SAMPLE = {"home": "", "layer": "layer-3/", "topic": "layer-1/power-cooling/", "calculator page": "layer-3/gpu-clusters/",
          "plans": "plans/", "sources": "sources/"}
ARTICLE = re.compile(r'<article class="md-content__inner[^"]*">(.*?)</article>', re.DOTALL)
TAG = re.compile(r"<[^>]+>")
LINK = re.compile(r'\s(?:href|src)="([^"#?]*)[^"]*"')


def zensical_binary() -> Path:
    binary = TOOL_DIR / ".venv" / "bin" / "zensical"
    if not binary.exists():
        venv.create(TOOL_DIR / ".venv", with_pip=True)
        subprocess.run([str(TOOL_DIR / ".venv" / "bin" / "python"), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                        "--require-hashes", "-r", str(TOOL_DIR / "requirements.lock")], check=True)
    return binary


def generated_tree(project: Path, site_url: str) -> Path:
    """The docs tree and engine config layermap writes for ``project``: its config file."""
    os.environ["LAYERMAP_SITE_URL"] = site_url
    from generator.pipeline import generate
    from generator.project import Project

    config, _ = generate(Project(project))
    return config


def built_by_mkdocs(project: Path) -> Path:
    done = subprocess.run([sys.executable, "-m", "generator.cli", "--project", str(project), "build"],
                          capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    if done.returncode:
        raise SystemExit(f"layermap build failed:\n{done.stdout}{done.stderr}")
    return project / "site"


def built_by_zensical(config: Path, out: Path) -> tuple[Path, str, list[str]]:
    """Zensical refuses a site folder outside its config's: build beside it, then move it."""
    text = config.read_text(encoding="utf-8")
    config.write_text(re.sub(r"(?m)^site_dir:.*$", "site_dir: zensical-site", text), encoding="utf-8")
    try:
        done = subprocess.run([str(zensical_binary()), "build", "-f", str(config)], capture_output=True, text=True,
                              cwd=config.parent)
    finally:
        config.write_text(text, encoding="utf-8")
    if done.returncode:
        raise SystemExit(f"zensical build failed:\n{done.stdout}{done.stderr}")
    shutil.move(config.parent / "zensical-site", out)
    refused = finish_like_layermap(out, config)
    return out, (done.stdout + done.stderr).strip(), refused


def zensical_templates() -> Path:
    """The templates of the Zensical the canary installed (its theme's inline scripts live there)."""
    found = sorted((TOOL_DIR / ".venv").glob("lib/python*/site-packages/zensical/templates"))
    if not found:
        raise SystemExit(f"no Zensical templates under {TOOL_DIR / '.venv'}: install the canary's environment first")
    return found[0]


def finish_like_layermap(site: Path, config: Path) -> list[str]:
    """layermap's own step after any engine (``emit/finishing.py``: content sanitised, site links
    resolved, the depth script in the head; then compacting, revisioned names, the security policy).
    The pages it refuses, each with why. A page refused for its policy alone (an inline script
    neither layermap nor Material wrote) is still written finished but for its policy, so that the
    other comparisons (links, content) see what layermap's step makes of it."""
    from generator.emit import revisioned
    from generator.emit.csp import UntrustedInline
    from generator.emit.docs_tree import written_navigation
    from generator.emit.engine import _PageFinisher, collapse_whitespace, trusted_scripts  # noqa: PLC2701 - the step a build runs on each page
    from generator.emit.finishing import finished_page
    from generator.errors import LayermapError

    # The inline scripts layermap trusts are those of the theme that wrote the page: Zensical's own.
    finish = _PageFinisher(site, None, trusted_scripts(zensical_templates()), nav=written_navigation(config))
    refused, site_url = [], os.environ.get("LAYERMAP_SITE_URL", "")
    for page in sorted(site.rglob("*.html")):
        name = page.relative_to(site).as_posix()
        try:
            finish(name, site_url)
        except UntrustedInline as error:
            refused.append(str(error).split("\n")[0][:220])
            page.write_text(collapse_whitespace(finished_page(page.read_text(encoding="utf-8"), name)), encoding="utf-8")
        except LayermapError as error:  # the finishing step itself (a page with no content region)
            refused.append(str(error).split("\n")[0][:220])
    revisioned.write_versioned_folder(site)
    return refused


def pages(site: Path) -> set[str]:
    return {p.relative_to(site).as_posix() for p in site.rglob("*.html") if "assets" not in p.parts and "downloads" not in p.parts}


def article_text(page: Path) -> str:
    found = ARTICLE.search(page.read_text(encoding="utf-8"))
    return " ".join(html.unescape(TAG.sub(" ", found.group(1))).split()) if found else ""


def broken_links(site: Path, name: str) -> list[str]:
    """Local links and assets of one page that name no file when it is served under the sub-path."""
    base = f"http://site{SUB_PATH}{name}"
    broken = []
    for target in LINK.findall((site / name).read_text(encoding="utf-8")):
        if not target or target.startswith(("mailto:", "data:", "javascript:")):
            continue
        if target.startswith("layermap:"):  # a site link the finishing step left: no browser follows it
            broken.append(target)
            continue
        address = urlsplit(urljoin(base, target))
        if address.netloc != "site":
            continue
        if not address.path.startswith(SUB_PATH):
            broken.append(target)
            continue
        path = site / unquote(address.path[len(SUB_PATH):])
        if not (path.is_file() or (path / "index.html").is_file()):
            broken.append(target)
    return broken


def search_entries(site: Path) -> tuple[str, int]:
    for name in ("search/search_index.json", "search.json"):
        if (site / name).is_file():
            data = json.loads((site / name).read_text(encoding="utf-8"))
            return name, len(data.get("docs", data.get("items", [])))
    return "none", 0


@dataclass
class Comparison:
    rows: list[tuple[str, str, str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def row(self, what: str, mkdocs: object, zensical: object) -> None:
        self.rows.append((what, str(mkdocs), str(zensical)))


def compare(a: Path, b: Path, comparison: Comparison) -> None:
    pages_a, pages_b = pages(a), pages(b)
    comparison.row("pages written", len(pages_a), len(pages_b))
    comparison.row("pages only this engine wrote", len(pages_a - pages_b), len(pages_b - pages_a))
    shared = sorted(pages_a & pages_b)
    differing = [name for name in shared if article_text(a / name) != article_text(b / name)]
    comparison.row("pages whose article text differs", "—", f"{len(differing)} of {len(shared)}")
    if differing:
        comparison.notes.append(f"article text differs on e.g. {', '.join(differing[:4])}")
    counts = []
    for label, site in (("mkdocs", a), ("zensical", b)):
        broken = {name: found for name in sorted(pages(site)) if (found := broken_links(site, name))}
        counts.append(sum(map(len, broken.values())))
        if broken:
            kinds: dict[str, int] = {}
            for targets in broken.values():
                for target in targets:
                    kind = target.rsplit("/", 1)[-1] if "." in target.rsplit("/", 1)[-1] else target.rstrip("/").rsplit("/", 1)[-1] + "/"
                    kinds[kind] = kinds.get(kind, 0) + 1
            common = ", ".join(f"`{kind}` ×{count}" for kind, count in sorted(kinds.items(), key=lambda kv: -kv[1])[:6])
            comparison.notes.append(f"{label}: {counts[-1]} broken local links on {len(broken)} pages; most often {common}")
    comparison.row("broken local links under the sub-path", *counts)
    comparison.row("search index (entries)", "%s (%d)" % search_entries(a), "%s (%d)" % search_entries(b))
    home_a, home_b = ((site / "index.html").read_text(encoding="utf-8") for site in (a, b))
    comparison.row("depth script in the head (hook)", "data-lm-depth" in home_a.split("</head>")[0],
                   "data-lm-depth" in home_b.split("</head>")[0])
    comparison.row("security policy on every page (layermap's step)",
                   all("Content-Security-Policy" in (a / n).read_text(encoding="utf-8") for n in pages_a),
                   all("Content-Security-Policy" in (b / n).read_text(encoding="utf-8") for n in pages_b))


def browser_problems(site: Path) -> dict[str, list[str]]:
    """Per sampled page: security-policy violations and console errors in Chromium."""
    from playwright.sync_api import sync_playwright

    from tests.conftest import CHROMIUM_FLAGS, free_port, serve_folder

    holder = Path(tempfile.mkdtemp(prefix="canary-serve-"))
    (holder / SUB_PATH.strip("/")).symlink_to(site)
    port = free_port()
    server = serve_folder(holder, port)
    found: dict[str, list[str]] = {}
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_FLAGS)
            for kind, path in SAMPLE.items():
                page = browser.new_page()
                page.add_init_script("window.__violations = []; document.addEventListener('securitypolicyviolation', "
                                     "e => window.__violations.push('policy: ' + e.violatedDirective + ' ' + e.blockedURI));")
                messages: list[str] = []
                page.on("console", lambda m, messages=messages: m.type == "error" and messages.append(m.text[:160]))
                page.goto(f"http://127.0.0.1:{port}{SUB_PATH}{path}")
                page.wait_for_load_state("networkidle")
                violations = page.evaluate("window.__violations || []")
                found[kind] = [*messages, *violations]
                page.close()
            browser.close()
    finally:
        server.shutdown()
        shutil.rmtree(holder, ignore_errors=True)
    return found


def report(comparison: Comparison, problems: dict[str, dict[str, list[str]]], log: str) -> str:
    lines = ["| | MkDocs + Material (layermap build) | Zensical 0.0.73 + layermap's finishing step |", "|---|---|---|"]
    lines += [f"| {what} | {a} | {b} |" for what, a, b in comparison.rows]
    lines += ["", "Console errors and policy violations in Chromium (one page of each kind):", "",
              "| page | MkDocs | Zensical |", "|---|---:|---:|"]
    for kind in SAMPLE:
        lines.append(f"| {kind} | {len(problems['mkdocs'][kind])} | {len(problems['zensical'][kind])} |")
    examples = sorted({message for kinds in problems["zensical"].values() for message in kinds})[:6]
    lines += ["", *(f"- note: {note}" for note in comparison.notes), *(f"- Zensical console: `{m}`" for m in examples)]
    if log:
        lines += ["", "Zensical's own output, last lines:", "", "```", *log.splitlines()[-6:], "```"]
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--report", help="also write the report (Markdown) to this file")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="zensical-canary-") as work:
        project = Path(work) / "project"
        project.mkdir()  # the committed content and config, not whatever is being edited
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", "HEAD", "content", "mkdocs.yml"], check=True, capture_output=True)
        subprocess.run(["tar", "-x", "-C", str(project)], input=archive.stdout, check=True)
        for folder in ("calculators", "calcview", "node_modules"):
            (project / folder).symlink_to(ROOT / folder)
        site_url = f"http://127.0.0.1:1{SUB_PATH}"
        os.environ["LAYERMAP_SITE_URL"] = site_url
        by_mkdocs = built_by_mkdocs(project)
        config = generated_tree(project, site_url)
        by_zensical, log, refused = built_by_zensical(config, Path(work) / "zensical-site")
        comparison = Comparison()
        comparison.row("pages layermap's finishing step refuses (an untrusted inline script, no content region)", 0, len(refused))
        comparison.notes += [f"refused: {reason}" for reason in refused[:3]]
        compare(by_mkdocs, by_zensical, comparison)
        problems = {"mkdocs": browser_problems(by_mkdocs), "zensical": browser_problems(by_zensical)}
        text = report(comparison, problems, log)
    print(text)
    if args.report:
        Path(args.report).write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
