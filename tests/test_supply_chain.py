"""The supply chain stays locked: hashed pins, build and test sets apart, workflows least-privileged.

* every pin in ``requirements.lock`` and ``requirements-test.lock`` carries hashes, and the
  install scripts use ``--require-hashes``;
* the build lock (what the Pages job installs) holds no test-only package, and both locks pin
  exactly what pyproject.toml asks for;
* every action in ``.github/workflows`` is pinned by a full commit SHA with its tag in a comment;
* no job gets more permissions than it needs: nothing beyond ``contents: read`` at the top or in
  the build job, and only ``pages: write`` + ``id-token: write`` for the deploy job;
* every job has a ``timeout-minutes`` (a content denial of service stops, not runs for six hours),
  and every ``actions/checkout`` sets ``persist-credentials: false`` (no token left in .git/config
  while the build runs the content's code paths).
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
BUILD_LOCK, TEST_LOCK = ROOT / "requirements.lock", ROOT / "requirements-test.lock"
WORKFLOWS = sorted((ROOT / ".github" / "workflows").glob("*.y*ml"))
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==(\S+) \\$")
HASH = re.compile(r"^    --hash=sha256:[0-9a-f]{64}( \\)?$")
USES = re.compile(r"^\s*(?:-\s+)?uses:\s*(\S+)(.*)$")
SHA_PINNED = re.compile(r"^[\w.-]+/[\w./-]+@[0-9a-f]{40}$")
TAG_COMMENT = re.compile(r"^\s+#\s*v\d+")
JOB_PERMISSIONS = {"build": {"contents": "read"}, "deploy": {"pages": "write", "id-token": "write"}}
TOP_PERMISSIONS = {"contents": "read"}
LONGEST_JOB_MINUTES = 60  # the build takes minutes; a job still running after an hour is stuck
LEVELS = {"none": 0, "read": 1, "write": 2}  # anything else (a typo, "write-all") ranks above all


def normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def lock_problems(text: str) -> list[str]:
    """Lines of a pip-compile lock that are not a hashed pin: a pin without hashes, or stray text."""
    problems, hashes, current = [], 0, None
    for number, line in enumerate([*text.splitlines(), "end==0 \\"], start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        pin = PIN.match(line)
        if pin or line == "end==0 \\":
            if current and not hashes:
                problems.append(f"{current} has no --hash")
            current, hashes = (pin.group(1) if pin else None), 0
        elif HASH.match(line) and current:
            hashes += 1
        else:
            problems.append(f"line {number} is neither a pin nor one of its hashes: {line!r}")
    return problems


def pins(text: str) -> dict[str, str]:
    return {normal(m.group(1)): m.group(2) for m in map(PIN.match, text.splitlines()) if m}


def declared(requirements: list[str]) -> dict[str, str]:
    return {normal(name): version for name, version in (r.split("==") for r in requirements)}


PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def test_lock_problems_catches_a_pin_without_hashes_and_stray_lines() -> None:
    hashed = "a==1 \\\n    --hash=sha256:" + "0" * 64 + "\n"
    assert lock_problems(hashed) == []
    assert lock_problems(hashed + "b==2 \\\n    # via a\n") == ["b has no --hash"]
    assert lock_problems(hashed + "c==3\n")[0].startswith("line 3 is neither")


@pytest.mark.parametrize("lock", [BUILD_LOCK, TEST_LOCK], ids=lambda p: p.name)
def test_every_pin_is_hashed(lock: Path) -> None:
    text = lock.read_text()
    assert pins(text), f"{lock.name} pins nothing"
    assert lock_problems(text) == []


def test_build_lock_holds_no_test_only_package() -> None:
    build, test = pins(BUILD_LOCK.read_text()), pins(TEST_LOCK.read_text())
    test_extra = declared(PROJECT["optional-dependencies"]["test"])
    assert not set(test_extra) & set(build), "a test package is in the build lock"
    assert not set(test) & set(build), "the test lock repeats build packages (install both together instead)"


def test_locks_pin_exactly_what_pyproject_asks_for() -> None:
    build, test = pins(BUILD_LOCK.read_text()), pins(TEST_LOCK.read_text())
    for name, version in declared(PROJECT["dependencies"]).items():
        assert build.get(name) == version, f"{name}: pyproject says {version}, build lock {build.get(name)}"
    for name, version in declared(PROJECT["optional-dependencies"]["test"]).items():
        assert test.get(name) == version, f"{name}: pyproject says {version}, test lock {test.get(name)}"


def test_install_scripts_require_hashes_and_the_build_path_skips_test_packages() -> None:
    setup = (ROOT / "scripts" / "setup.sh").read_text()
    installs = [line for line in setup.splitlines() if "pip install" in line and "-e ." not in line]
    assert installs and all("--require-hashes" in line for line in installs)
    assert "--with-tests" in (ROOT / "scripts" / "test").read_text()
    for workflow in WORKFLOWS:
        text = workflow.read_text()
        assert "requirements-test.lock" not in text and "--with-tests" not in text


def action_refs(text: str) -> list[tuple[str, str]]:
    """(action reference, rest of its line) for every `uses:` line of a workflow."""
    return [(m.group(1), m.group(2)) for m in map(USES.match, text.splitlines()) if m]


def test_action_ref_check_tells_pinned_from_unpinned() -> None:
    refs = action_refs("steps:\n  - uses: actions/checkout@v4\n  - uses: a/b@" + "1" * 40 + " # v4\n")
    assert [bool(SHA_PINNED.match(ref)) for ref, _ in refs] == [False, True]
    assert TAG_COMMENT.match(refs[1][1])


@pytest.mark.parametrize("workflow", WORKFLOWS, ids=lambda p: p.name)
def test_actions_are_pinned_by_commit_sha_with_the_tag_in_a_comment(workflow: Path) -> None:
    refs = action_refs(workflow.read_text())
    assert refs, f"{workflow.name} uses no action?"
    for ref, rest in refs:
        if ref.startswith("./"):
            continue  # an action of this repository
        assert SHA_PINNED.match(ref), f"{ref} is not pinned by a full commit SHA"
        assert TAG_COMMENT.match(rest), f"{ref} has no `# vN` tag comment"


def permission_problems(workflow: dict) -> list[str]:
    """Where a workflow grants more than its jobs need (or leaves a job to inherit)."""
    problems = []
    top = workflow.get("permissions", {})
    if not isinstance(top, dict) or any(LEVELS.get(v, 9) > LEVELS[TOP_PERMISSIONS.get(k, "none")] for k, v in top.items()):
        problems.append(f"top-level permissions {top!r} exceed {TOP_PERMISSIONS}")
    for name, job in workflow.get("jobs", {}).items():
        allowed = JOB_PERMISSIONS.get(name, TOP_PERMISSIONS)
        granted = job.get("permissions")
        if not isinstance(granted, dict):
            problems.append(f"job {name} does not list its permissions (got {granted!r})")
        elif any(LEVELS.get(v, 9) > LEVELS[allowed.get(k, "none")] for k, v in granted.items()):
            problems.append(f"job {name} has {granted}, more than {allowed}")
    return problems


def test_permission_check_catches_broad_grants() -> None:
    assert permission_problems({"permissions": "write-all", "jobs": {}})
    assert permission_problems({"jobs": {"build": {"permissions": {"contents": "read", "pages": "write"}}}})
    assert permission_problems({"jobs": {"build": {}}})
    assert permission_problems({"jobs": {"deploy": {"permissions": {"pages": "write", "contents": "write"}}}})
    assert not permission_problems({"permissions": {"contents": "read"},
                                    "jobs": {"build": {"permissions": {"contents": "read"}},
                                             "deploy": {"permissions": {"pages": "write", "id-token": "write"}}}})


@pytest.mark.parametrize("workflow", WORKFLOWS, ids=lambda p: p.name)
def test_jobs_have_least_privilege(workflow: Path) -> None:
    assert permission_problems(yaml.safe_load(workflow.read_text())) == []


def test_the_pages_workflow_deploys_with_exactly_the_stated_permissions() -> None:
    jobs = yaml.safe_load((ROOT / ".github" / "workflows" / "pages.yml").read_text())["jobs"]
    assert jobs["build"]["permissions"] == {"contents": "read"}
    assert jobs["deploy"]["permissions"] == {"pages": "write", "id-token": "write"}


def hardening_problems(workflow: dict) -> list[str]:
    """Jobs without a bounded `timeout-minutes`, and checkouts that keep their token in .git/config."""
    problems = []
    for name, job in workflow.get("jobs", {}).items():
        minutes = job.get("timeout-minutes")
        if isinstance(minutes, bool) or not isinstance(minutes, int) or not 0 < minutes <= LONGEST_JOB_MINUTES:
            problems.append(f"job {name} has timeout-minutes {minutes!r}, not 1 to {LONGEST_JOB_MINUTES}")
        for step in job.get("steps", []):
            checkout = str(step.get("uses", "")).startswith("actions/checkout@")
            if checkout and (step.get("with") or {}).get("persist-credentials") is not False:
                problems.append(f"job {name} checks out without `persist-credentials: false`")
    return problems


def test_hardening_check_catches_unbounded_jobs_and_kept_credentials() -> None:
    checkout = {"uses": "actions/checkout@" + "1" * 40}
    assert hardening_problems({"jobs": {"build": {"steps": []}}}) == ["job build has timeout-minutes None, not 1 to 60"]
    assert hardening_problems({"jobs": {"build": {"timeout-minutes": 0}}})
    assert hardening_problems({"jobs": {"build": {"timeout-minutes": "20"}}})
    assert hardening_problems({"jobs": {"build": {"timeout-minutes": 20, "steps": [checkout]}}}) == [
        "job build checks out without `persist-credentials: false`"]
    assert hardening_problems({"jobs": {"build": {"timeout-minutes": 20, "steps": [
        {**checkout, "with": {"persist-credentials": "false"}}]}}})  # text, not the boolean
    assert not hardening_problems({"jobs": {"build": {"timeout-minutes": 20, "steps": [
        {**checkout, "with": {"persist-credentials": False}}]}, "deploy": {"timeout-minutes": 10}}})


@pytest.mark.parametrize("workflow", WORKFLOWS, ids=lambda p: p.name)
def test_every_job_is_time_bounded_and_no_checkout_keeps_its_token(workflow: Path) -> None:
    assert hardening_problems(yaml.safe_load(workflow.read_text())) == []
