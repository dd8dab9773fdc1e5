"""Results remembered across a run, and forgotten together when the run needs them no more.

``remembered_by_identity``: results remembered by the object they were computed from, its identity,
not its value. For objects never changed once made (a topic, a YAML document as read):
`layermap serve` asks the same questions about the same unchanged objects after every edit. The
object is held with its result, so its identity cannot be reused by another object while
remembered; the oldest are forgotten past ``size``.

Every memory of this kind holds parts of the map. A build that has written its docs tree calls
:func:`forget_everything` before the engine starts, so that the map is freed and the engine's
processes, forked from this one, do not start with a copy of it.
"""

from __future__ import annotations

import ctypes
import gc
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import wraps
from typing import TypeVar

Thing = TypeVar("Thing")
Result = TypeVar("Result")
Clearable = TypeVar("Clearable")

_forgetters: list[Callable[[], object]] = []


def forgotten_with_the_rest(clear: Callable[[], object]) -> None:
    """Have :func:`forget_everything` call ``clear`` (a memory's own way to empty itself)."""
    _forgetters.append(clear)


def forgettable(cached: Clearable) -> Clearable:
    """A decorator for a ``functools.lru_cache`` function: its cache goes with :func:`forget_everything`."""
    forgotten_with_the_rest(cached.cache_clear)  # type: ignore[attr-defined]
    return cached


def remembered_by_identity(size: int) -> Callable[[Callable[[Thing], Result]], Callable[[Thing], Result]]:
    def decorate(compute: Callable[[Thing], Result]) -> Callable[[Thing], Result]:
        kept: OrderedDict[int, tuple[Thing, Result]] = OrderedDict()
        forgotten_with_the_rest(kept.clear)

        @wraps(compute)
        def remembered(thing: Thing) -> Result:
            known = kept.get(id(thing))
            if known is not None and known[0] is thing:
                return known[1]
            result = compute(thing)
            kept[id(thing)] = (thing, result)
            if len(kept) > size:
                kept.popitem(last=False)
            return result

        return remembered

    return decorate


def forget_everything() -> None:
    """Empty every memory registered here, collect the garbage, and give the freed heap back to the
    system where the C library can (glibc's ``malloc_trim``): a fork then copies only what is alive."""
    for clear in _forgetters:
        clear()
    return_freed_memory()


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cycle collector held back (and left as it was found) while a large graph is made or
    taken apart without making cycles: reading YAML, pickling and unpickling. Each of its passes
    meanwhile would walk every live object again, the whole map read so far included."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def return_freed_memory() -> None:
    """Collect the garbage and give the freed heap back to the system where the C library can."""
    gc.collect()
    _trim_heap()


def _trim_heap() -> None:
    try:
        trim = ctypes.CDLL(None).malloc_trim  # this process's own symbols: the C library's among them
    except (OSError, AttributeError, TypeError):  # not glibc (musl, macOS, Windows): the memory stays
        return
    trim(0)
