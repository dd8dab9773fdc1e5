"""Forked processes: how layermap shares a build's work between cores, where it can."""

from __future__ import annotations

import multiprocessing
from multiprocessing.context import BaseContext


def fork_context() -> BaseContext | None:
    """The ``fork`` start method (a process starts with what this one has read), or None where
    there is none (Windows; macOS defaults to spawn): the caller then does the work itself."""
    return multiprocessing.get_context("fork") if "fork" in multiprocessing.get_all_start_methods() else None
