"""BuildSettings: the generator's few choices, typed and checked where they are made."""

from __future__ import annotations

import pytest

from generator.settings import BuildSettings


def test_defaults_are_the_documented_choices() -> None:
    settings = BuildSettings()
    assert (settings.nav_group, settings.siblings_shown, settings.full_map_limit) == (25, 10, 120)


@pytest.mark.parametrize("bad", [0, -3, 2.5, "10", True, None])
def test_a_setting_that_is_not_a_positive_whole_number_is_refused_by_name(bad: object) -> None:
    with pytest.raises(ValueError, match=r"BuildSettings\.siblings_shown must be a whole number of at least 1"):
        BuildSettings(siblings_shown=bad)  # type: ignore[arg-type]


def test_settings_are_frozen() -> None:
    with pytest.raises(AttributeError):
        BuildSettings().nav_group = 3  # type: ignore[misc]
