"""Which site URLs a published copy can use."""

from __future__ import annotations

import pytest

from generator.emit.site_address import address_problem


@pytest.mark.parametrize("url", ["", "http://127.0.0.1:8000/", "http://localhost:8000/map/", "http://0.0.0.0/",
                                 "http://[::1]:8000/", "http://docs.localhost/"])
def test_a_missing_or_local_address_is_a_problem(url: str) -> None:
    problem = address_problem(url)
    assert problem is not None
    assert ("no site URL" in problem) if not url else (url in problem and "local address" in problem)


@pytest.mark.parametrize("url", ["https://user.github.io/layermap/", "https://maps.example.org/", "http://10.0.0.5/"])
def test_a_public_address_is_fine(url: str) -> None:
    assert address_problem(url) is None
