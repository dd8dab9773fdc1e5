"""The `layermap` command: build, serve, check, new, schema.

This module only parses arguments and prints (through :func:`generator.terminal.say`, which
escapes what content and file names carry); the work lives in the pipeline.
Nothing else imports it.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import time
from datetime import date
from pathlib import Path

from generator.diagnostics import ContentError, Diagnostic
from generator.errors import LayermapError
from generator.processes import Stopped, ending_with_signals
from generator.project import Project
from generator.terminal import say, shown


def _print_warnings(warnings: list[Diagnostic]) -> None:
    for warning in warnings:
        say(warning.format())


def cmd_check(project: Project, _: argparse.Namespace) -> int:
    from generator.pipeline import load_map

    content, kmap = load_map(project)
    _print_warnings(content.warnings)
    say(f"ok: {len(kmap.topics)} topics, {len(kmap.edges)} edges, {len(content.warnings)} warning(s)", sys.stdout)
    return 0


def _check_site_address(site_url: str, required: bool) -> None:
    """Warn (or, with --require-site-url, refuse) when the site URL is missing or local."""
    from generator.emit.site_address import address_problem, fix_for_publishing

    problem = address_problem(site_url)
    if problem and required:
        raise LayermapError(f"--require-site-url: {problem}", f"{fix_for_publishing()}; the previous site/ was kept")
    if problem:
        say(f"warning: {problem}\n    fix: {fix_for_publishing()} (`layermap build --require-site-url` "
            "makes this an error)")


def cmd_build(project: Project, args: argparse.Namespace) -> int:
    from generator.incremental import build

    started = time.perf_counter()

    def before_engine(warnings: list[Diagnostic], site_url: str) -> None:
        _print_warnings(warnings)
        _check_site_address(site_url, args.require_site_url)

    built = build(project, before_engine, clean=args.clean)
    done = "built" if built.engine_ran else "nothing changed since the last build: kept"
    say(f"{done} {project.site_dir} in {time.perf_counter() - started:.1f} s", sys.stdout)
    return 0


def _served_address(address: str) -> str:
    """The site's address while served at ``address`` (host:port), or a LayermapError saying how to write it."""
    from generator.emit.site_address import url_problem

    host, _, port = address.rpartition(":")
    site_url = f"http://{host}:{port}/"
    if not host or not port.isdigit() or url_problem(site_url):
        raise LayermapError(f"--address {shown(address)} is not a host and a port",
                            "write it as host:port, e.g. --address 127.0.0.1:8000")
    return site_url


def cmd_serve(project: Project, args: argparse.Namespace) -> int:
    from generator.incremental import serve

    os.environ["LAYERMAP_SITE_URL"] = _served_address(args.address)
    serve(project, args.address)
    return 0


def cmd_new(project: Project, args: argparse.Namespace) -> int:
    from generator.content.scaffold import scaffold_topic
    from generator.pipeline import load_map

    if not re.fullmatch(r"[a-z0-9]+(?:-[a-z0-9]+)*", args.id):
        raise LayermapError(f"`{shown(args.id)}` is not a valid topic id", "use lower-case words joined by hyphens, e.g. `cluster-networking`")
    content, _ = load_map(project)
    path = scaffold_topic(project.content_dir, content.map, args.id, args.layer, args.title or args.id, date.today().isoformat())
    say(f"created {path.relative_to(project.root)} — fill in the TODOs, then run `layermap check`", sys.stdout)
    return 0


def cmd_schema(project: Project, _: argparse.Namespace) -> int:
    from generator.content.json_schema import write_schemas

    for path in write_schemas(project.root / "schema"):
        say(f"wrote {path.relative_to(project.root)}", sys.stdout)
    return 0


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="layermap", description="Build a layered knowledge map from YAML.")
    p.add_argument("--project", type=Path, default=Path.cwd(), help="project folder (default: here)")
    sub = p.add_subparsers(dest="command", required=True)
    build = sub.add_parser("build", help="validate and build the site into site/")
    build.add_argument("--clean", action="store_true",
                       help="build everything afresh: ignore what earlier builds kept (.layermap/cache) and rebuild site/ "
                            "even when nothing changed")
    build.add_argument("--require-site-url", action="store_true",
                       help="refuse to build without a public site URL (LAYERMAP_SITE_URL), as for publishing")
    build.set_defaults(run=cmd_build)
    serve = sub.add_parser("serve", help="serve the site locally, rebuilding when content changes")
    serve.add_argument("--address", default="127.0.0.1:8000", help="host:port (default 127.0.0.1:8000)")
    serve.set_defaults(run=cmd_serve)
    sub.add_parser("check", help="validate content only (fast)").set_defaults(run=cmd_check)
    new = sub.add_parser("new", help="create a topic file with every field shown")
    new.add_argument("id", help="topic id, e.g. cluster-networking")
    new.add_argument("--layer", type=int, required=True, help="layer number from content/map.yaml")
    new.add_argument("--title", help="topic title")
    new.set_defaults(run=cmd_new)
    sub.add_parser("schema", help="regenerate the JSON Schemas in schema/").set_defaults(run=cmd_schema)
    return p


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    project = Project(args.project.resolve())
    try:
        with ending_with_signals():  # a stopped build leaves no forked process behind
            return args.run(project, args)
    except Stopped as stopped:
        say(f"stopped by {stopped}; every process it started has ended")
        return stopped.exit_code
    except ContentError as error:
        say(error.log.report())
        say("nothing was written; the previous site/ is unchanged")
        return 1
    except LayermapError as error:
        say(f"error: {error}")
        return 1
    except KeyboardInterrupt:
        return 130
    except Exception as error:  # noqa: BLE001 - the editor gets a message, never a traceback
        if os.environ.get("LAYERMAP_DEBUG"):
            raise
        say(f"internal error: {type(error).__name__}: {shown(error)}\n"
            "    this is a bug in layermap, not in your content; the previous site/ is unchanged.\n"
            "    rerun with LAYERMAP_DEBUG=1 for the details and report them.")
        return 70


if __name__ == "__main__":
    sys.exit(main())
