"""Results remembered by the object they were computed from: its identity, not its value.

For objects never changed once made (a topic, a YAML document as read): `layermap serve` asks the
same questions about the same unchanged objects after every edit. The object is held with its
result, so its identity cannot be reused by another object while remembered; the oldest are
forgotten past ``size``.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from functools import wraps
from typing import TypeVar

Thing = TypeVar("Thing")
Result = TypeVar("Result")


def remembered_by_identity(size: int) -> Callable[[Callable[[Thing], Result]], Callable[[Thing], Result]]:
    def decorate(compute: Callable[[Thing], Result]) -> Callable[[Thing], Result]:
        kept: OrderedDict[int, tuple[Thing, Result]] = OrderedDict()

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
