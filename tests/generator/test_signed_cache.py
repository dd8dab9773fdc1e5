"""Kept objects are read back only when this machine signed them and nothing altered them."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

from generator import signed_cache


@pytest.fixture(autouse=True)
def own_key_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "xdg"
    monkeypatch.setenv("XDG_CACHE_HOME", str(folder))
    return folder


def test_a_saved_value_comes_back(tmp_path: Path) -> None:
    signed_cache.save(tmp_path / "kept.pickle", {"pages": ["a", "b"], "n": 3})
    assert signed_cache.load(tmp_path / "kept.pickle") == {"pages": ["a", "b"], "n": 3}


def test_the_key_is_readable_by_its_owner_only(tmp_path: Path, own_key_folder: Path) -> None:
    signed_cache.save(tmp_path / "kept.pickle", 1)
    assert (own_key_folder / "layermap" / signed_cache.KEY_FILE).stat().st_mode & 0o077 == 0


def test_an_altered_file_is_ignored(tmp_path: Path) -> None:
    path = tmp_path / "kept.pickle"
    signed_cache.save(path, "honest")
    blob = bytearray(path.read_bytes())
    blob[-2] ^= 1
    path.write_bytes(bytes(blob))
    assert signed_cache.load(path) is None


def test_a_file_signed_elsewhere_is_ignored(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "kept.pickle"
    signed_cache.save(path, "from a pull request")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "another-machine"))
    assert signed_cache.load(path) is None


def test_a_missing_or_short_file_is_no_cache(tmp_path: Path) -> None:
    assert signed_cache.load(tmp_path / "none.pickle") is None
    (tmp_path / "short.pickle").write_bytes(b"abc")
    assert signed_cache.load(tmp_path / "short.pickle") is None


class _Noted:
    """Notes whether the cycle collector ran while it was pickled or unpickled."""

    collector_on: list[bool] = []

    def __reduce__(self) -> tuple:
        _Noted.collector_on.append(gc.isenabled())
        return (_Noted._made, ())

    @staticmethod
    def _made() -> _Noted:
        _Noted.collector_on.append(gc.isenabled())
        return _Noted()


@pytest.mark.parametrize("enabled", [True, False])
def test_the_collector_pauses_while_a_value_is_saved_and_loaded_and_is_left_as_it_was(tmp_path: Path, enabled: bool) -> None:
    path = tmp_path / "value.pickle"
    _Noted.collector_on = []
    was = gc.isenabled()
    try:
        gc.enable() if enabled else gc.disable()
        signed_cache.save(path, [_Noted()])
        assert gc.isenabled() is enabled
        assert isinstance(signed_cache.load(path)[0], _Noted)
        assert gc.isenabled() is enabled
    finally:
        gc.enable() if was else gc.disable()
    assert _Noted.collector_on == [False, False]  # taken apart, then made again, with the collector paused


def _key_in(folder: str) -> bytes:
    import os

    os.environ["XDG_CACHE_HOME"] = folder
    from generator import signed_cache as module

    return module.machine_key()


def test_processes_starting_at_once_all_get_the_one_key(tmp_path) -> None:  # noqa: ANN001
    """Parallel test workers, or a build and a serve started together, must not each keep a key of their own."""
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(8) as pool:
        keys = list(pool.map(_key_in, [str(tmp_path)] * 16))
    assert len(set(keys)) == 1
    assert (tmp_path / "layermap" / "cache-key").read_bytes() == keys[0]
    assert [p.name for p in (tmp_path / "layermap").iterdir()] == ["cache-key"]  # no half-made key left behind
