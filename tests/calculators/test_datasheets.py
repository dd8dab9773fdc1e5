"""The shared accelerator datasheet table: well-formed, internally consistent, cited.

The figures themselves were read in the vendors' pages (see the comment above each entry in
calculators/_datasheets.py); these tests catch the slips that creep in when an entry is edited:
a sparse rate typed where a dense one belongs, a gigabyte figure typed in terabytes, a source id
that is not in SHARED, a date or url a page cannot cite.
"""

from __future__ import annotations

import re

import pytest

from calculators._datasheets import ACCELERATORS, SHARED, accelerator_options, shared_sources
from generator.content.schema import Source

FACTS = {"memory", "memory_bandwidth", "dense_bf16_flops", "dense_fp8_flops", "dense_fp4_flops",
         "scale_up_bandwidth", "scale_up_domain", "board_power"}
IDS = sorted(ACCELERATORS)
DATE = re.compile(r"^\d{4}(-(0[1-9]|1[0-2])(-(0[1-9]|[12]\d|3[01]))?)?$")


def test_the_accelerators_the_calculators_name_are_all_there():
    assert {"a100-80gb", "h100-sxm", "h200-sxm", "b200", "b300", "gb200-nvl72", "gb300-nvl72",
            "mi300x", "mi355x", "tpu-v5p", "tpu-ironwood"} <= set(IDS)


@pytest.mark.parametrize("accelerator", IDS)
def test_an_entry_has_a_label_a_shared_source_and_only_known_facts(accelerator):
    facts = ACCELERATORS[accelerator]
    assert facts["label"].strip()
    assert facts["source"] in SHARED, f"{accelerator} cites {facts['source']}, which is not in SHARED"
    assert set(facts) - {"label", "source"} <= FACTS


@pytest.mark.parametrize("accelerator", IDS)
def test_every_entry_has_memory_bandwidth_and_a_bf16_rate(accelerator):
    facts = ACCELERATORS[accelerator]
    assert {"memory", "memory_bandwidth", "dense_bf16_flops"} <= set(facts)


@pytest.mark.parametrize("accelerator", IDS)
def test_every_figure_is_a_positive_number(accelerator):
    for fact in FACTS & set(ACCELERATORS[accelerator]):
        value = ACCELERATORS[accelerator][fact]
        assert isinstance(value, (int, float)) and not isinstance(value, bool), (accelerator, fact)
        assert value > 0, (accelerator, fact)


@pytest.mark.parametrize("accelerator", IDS)
def test_figures_are_in_base_units_within_what_a_2026_accelerator_can_have(accelerator):
    """A figure typed in GB, TB/s or TFLOPS instead of bytes, B/s or FLOP/s lands far outside."""
    facts = ACCELERATORS[accelerator]
    assert 16e9 <= facts["memory"] <= 1e12
    assert 0.5e12 <= facts["memory_bandwidth"] <= 20e12
    for fact in ("dense_bf16_flops", "dense_fp8_flops", "dense_fp4_flops"):
        if fact in facts:
            assert 100e12 <= facts[fact] <= 50e15, (accelerator, fact)
    if "scale_up_bandwidth" in facts:
        assert 50e9 <= facts["scale_up_bandwidth"] <= 5e12
    if "board_power" in facts:
        assert 100 <= facts["board_power"] <= 5_000, (accelerator, "board_power")
    if "scale_up_domain" in facts:
        assert isinstance(facts["scale_up_domain"], int) and 2 <= facts["scale_up_domain"] <= 1024


@pytest.mark.parametrize("accelerator", IDS)
def test_narrower_formats_are_never_slower(accelerator):
    facts = ACCELERATORS[accelerator]
    if "dense_fp8_flops" in facts:
        assert facts["dense_fp8_flops"] >= facts["dense_bf16_flops"]
    if "dense_fp4_flops" in facts:
        assert "dense_fp8_flops" in facts, "an FP4 rate without an FP8 one"
        assert facts["dense_fp4_flops"] >= facts["dense_fp8_flops"]


def test_dense_rates_are_not_the_sparse_ones():
    """The sparse H100 figures (1,979 BF16, 3,958 FP8 TFLOPS) must not be stored as dense ones."""
    assert ACCELERATORS["h100-sxm"]["dense_bf16_flops"] == pytest.approx(1979e12 / 2, rel=1e-3)
    assert ACCELERATORS["h100-sxm"]["dense_fp8_flops"] == pytest.approx(3958e12 / 2, rel=1e-3)
    assert ACCELERATORS["gb200-nvl72"]["dense_bf16_flops"] == pytest.approx(360e15 / 2 / 72)


def test_blackwell_ultra_dense_fp4_is_the_printed_dense_figure_not_half_the_sparse_one():
    """NVIDIA prints a separate dense FP4 figure for Blackwell Ultra: 108 of 144 PFLOPS (HGX B300)
    and 1,080 of 1,440 (GB300 NVL72), i.e. 3/4 of the sparse rate; for Blackwell it is 1/2."""
    assert ACCELERATORS["b300"]["dense_fp4_flops"] == pytest.approx(108e15 / 8)
    assert ACCELERATORS["gb300-nvl72"]["dense_fp4_flops"] == pytest.approx(1080e15 / 72)
    assert ACCELERATORS["b200"]["dense_fp4_flops"] == pytest.approx(144e15 / 2 / 8)
    assert ACCELERATORS["gb200-nvl72"]["dense_fp4_flops"] == pytest.approx(1440e15 / 2 / 72)


def test_memory_printed_in_gib_is_converted_to_decimal_bytes():
    """The Cloud TPU tables print HBM capacity per chip in GiB."""
    assert ACCELERATORS["tpu-v5p"]["memory"] == 95 * 2**30
    assert ACCELERATORS["tpu-ironwood"]["memory"] == 192 * 2**30


def test_scale_up_bandwidth_is_per_direction():
    """NVLink 4 is 900 GB/s and NVLink 5 1.8 TB/s per GPU counting both directions."""
    assert ACCELERATORS["h100-sxm"]["scale_up_bandwidth"] == 900e9 / 2
    for accelerator in ("b200", "b300", "gb200-nvl72", "gb300-nvl72"):
        assert ACCELERATORS[accelerator]["scale_up_bandwidth"] == 1.8e12 / 2


@pytest.mark.parametrize("source_id", sorted(SHARED))
def test_a_shared_source_is_complete_and_citable(source_id):
    source = SHARED[source_id]
    assert source["id"] == source_id
    authors = [source["authors"]] if isinstance(source["authors"], str) else source["authors"]
    assert source["title"].strip() and all(a.strip() for a in authors)
    assert DATE.match(source["date"]), source["date"]
    assert source["url"].startswith("https://"), source["url"]
    # The site's own schema accepts it, as the calculator bridge passes it on (authors as a list).
    Source.model_validate({**source, "authors": authors})


def test_shared_sources_returns_copies_in_the_order_asked():
    first, second = shared_sources("google-tpu-v5p", "nvidia-a100-datasheet")
    assert (first["id"], second["id"]) == ("google-tpu-v5p", "nvidia-a100-datasheet")
    first["title"] = "changed"
    assert SHARED["google-tpu-v5p"]["title"] != "changed"


def test_a_preset_for_an_entry_without_a_fact_names_the_missing_fact():
    (option,) = accelerator_options({"bandwidth": "scale_up_bandwidth", "flops": "dense_fp4_flops"}, "mi300x")
    assert option["values"] == {}
    assert option["missing"] == {"bandwidth": "scale_up_bandwidth", "flops": "dense_fp4_flops"}
    (complete,) = accelerator_options({"flops": "dense_fp4_flops"}, "b300")
    assert complete["values"] == {"flops": 13500e12} and "missing" not in complete


def test_hgx_memory_bandwidth_is_the_per_gpu_datasheets_not_the_hbm_stacks_rating():
    """Issue 30: the DGX B200 page's 64 TB/s for 8 GPUs is 8 TB/s each (the chip as announced); the HGX B200 datasheet's
    per-GPU column prints 7.7 TB/s, what the 7,680-bit bus at 3,996 MHz carries (7.67 TB/s), and the
    HGX B300 prints the same. The rack parts (GB200, GB300) keep their 8 TB/s per GPU."""
    bus = 7_680 / 8 * 3_996e6 * 2
    for accelerator in ("b200", "b300"):
        assert ACCELERATORS[accelerator]["memory_bandwidth"] == 7.7e12
        assert ACCELERATORS[accelerator]["memory_bandwidth"] == pytest.approx(bus, rel=0.005)
    assert ACCELERATORS["b200"]["source"] == "nvidia-hgx-b200-datasheet"
    assert ACCELERATORS["gb200-nvl72"]["memory_bandwidth"] == ACCELERATORS["gb300-nvl72"]["memory_bandwidth"] == 8e12
