"""Is the built site the same as before? For moves that must change nothing a reader can see.

    .venv/bin/python scripts/same_site.py                 # build HEAD and the working tree, compare
    .venv/bin/python scripts/same_site.py --against REF   # build REF instead of HEAD
    .venv/bin/python scripts/same_site.py --compare A B   # compare two built site/ folders

Both trees are built with the same Python and node_modules. Files must be byte-identical; a zip
(the downloadable copy) is compared entry by entry, so only its timestamps may differ.
Exit status 0 when the sites are the same, 1 with a list of differences otherwise.
"""

from __future__ import annotations

import argparse
import filecmp
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def zip_entries(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as archive:
        return {info.filename: archive.read(info) for info in archive.infolist()}


def differences(before: Path, after: Path) -> list[str]:
    """What differs between two built sites, one line per file (empty: the same)."""
    names_before = {p.relative_to(before).as_posix() for p in before.rglob("*") if p.is_file()}
    names_after = {p.relative_to(after).as_posix() for p in after.rglob("*") if p.is_file()}
    found = [f"only before: {name}" for name in sorted(names_before - names_after)]
    found += [f"only after: {name}" for name in sorted(names_after - names_before)]
    for name in sorted(names_before & names_after):
        a, b = before / name, after / name
        if name.endswith(".zip"):
            entries_a, entries_b = zip_entries(a), zip_entries(b)
            found += [f"changed in {name}: {entry}" for entry in sorted(entries_a.keys() | entries_b.keys())
                      if entries_a.get(entry) != entries_b.get(entry)]
        elif not filecmp.cmp(a, b, shallow=False):
            found.append(f"changed: {name}")
    return found


def build(tree: Path, out: Path) -> None:
    """``layermap build`` in a tree (its own site/), copied to ``out``."""
    subprocess.run([sys.executable, "-m", "generator.cli", "build"], cwd=tree, check=True, stdout=subprocess.DEVNULL)
    shutil.copytree(tree / "site", out)


def build_ref(ref: str, out: Path, scratch: Path) -> None:
    tree = scratch / "tree"
    subprocess.run(["git", "worktree", "add", "--detach", "--quiet", str(tree), ref], cwd=ROOT, check=True)
    try:
        (tree / "node_modules").symlink_to(ROOT / "node_modules")
        build(tree, out)
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT, check=False)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--against", default="HEAD", help="the git ref to build as 'before' (default HEAD)")
    parser.add_argument("--compare", nargs=2, type=Path, metavar=("BEFORE", "AFTER"), help="compare two built sites")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as scratch_name:
        scratch = Path(scratch_name)
        before, after = args.compare or (scratch / "before", scratch / "after")
        if not args.compare:
            build_ref(args.against, before, scratch)
            build(ROOT, after)
        found = differences(before, after)
    print("\n".join(found) if found else "the same site")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
