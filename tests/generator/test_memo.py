"""Results remembered by identity: the same object is answered from memory, an equal but other
object is computed afresh, and the memory is bounded."""

from __future__ import annotations

from functools import lru_cache

from generator.memo import forget_everything, forgettable, remembered_by_identity


def counting(size: int = 10):
    calls: list[object] = []

    @remembered_by_identity(size)
    def length(thing: list[int]) -> int:
        calls.append(thing)
        return len(thing)

    return length, calls


def test_the_same_object_is_computed_once() -> None:
    length, calls = counting()
    thing = [1, 2, 3]
    assert length(thing) == 3 and length(thing) == 3
    assert len(calls) == 1


def test_an_equal_but_other_object_is_computed_again() -> None:
    length, calls = counting()
    length([1, 2])
    length([1, 2])
    assert len(calls) == 2


def test_the_oldest_are_forgotten_past_the_size() -> None:
    length, calls = counting(size=2)
    things = [[1], [1, 2], [1, 2, 3]]
    for thing in things:
        length(thing)
    length(things[0])  # forgotten: computed again
    length(things[2])  # still remembered
    assert len(calls) == 4


def test_forget_everything_empties_every_registered_memory() -> None:
    length, calls = counting()
    thing = [1, 2]
    length(thing)

    @forgettable
    @lru_cache(maxsize=8)
    def doubled(number: int) -> int:
        return 2 * number

    doubled(4)
    assert doubled.cache_info().currsize == 1
    forget_everything()
    assert doubled.cache_info().currsize == 0
    length(thing)  # the same object, but forgotten: computed again
    assert len(calls) == 2
