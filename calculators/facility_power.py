"""How much power, energy, water and money does a building full of accelerators take?

The arithmetic of "Where the electricity comes from" (D3): from the accelerators to the grid
connection, the year's energy, the cooling water and the electricity bill. Everything is in base
units (watts, watt-hours, litres, US dollars) until the outputs, which are named for the unit they
are shown in (``_mw``, ``_gwh``):

    systems            = ⌈accelerators ÷ accelerators per system⌉        (a server or a rack-scale system)
    IT power           = systems × system power                            (at the system's rated maximum)
    racks              = ⌈systems ÷ systems per rack⌉,  rack power = systems per rack × system power
    facility power     = IT power × PUE                                    (what the grid connection must carry)
    PUE                = facility energy ÷ IT energy                       (ISO/IEC 30134-2, The Green Grid's metric)
    average draw       = facility power × load share                       (the share of the rated maximum drawn on average)
    energy per year    = average draw × 8,760 h
    site water         = IT energy per year × WUE                          (ISO/IEC 30134-9: litres of site water per kWh of IT energy)
    cost per year      = energy per year × price per kWh

System power is the maker's rated maximum for a whole server or rack (NVIDIA's DGX user guides
and DGX SuperPOD reference architectures), which already holds its CPUs, memory, network cards
and fans; the network switches, storage and management servers outside it are not counted
unless the figure says so (the GB200 preset does: NVIDIA gives 1.2 MW for a scalable unit of
eight NVL72 racks with their network). PUE and WUE are yearly averages, taken as the same at
every load. Standard library only; knows nothing of HTML. The user interface is declared as
plain data below (INPUTS, OUTPUTS, PRESETS, SOURCES, FIGURES) and drawn by ``calcview``.
"""

from __future__ import annotations

import math

from calculators._checks import in_range, positive, whole_count
from calculators._datasheets import shared_sources

HOURS_PER_YEAR = 8_760
WATTS_PER_KILOWATT = 1_000
WATTS_PER_MEGAWATT = 1e6
WATT_HOURS_PER_GWH = 1e9
DAYS_PER_YEAR = 365

# Where the model stops holding (each one turns into a note beside the results).
DENSE_RACK = 30_000  # W: Uptime Institute's 2025 survey found few sites with any rack above 30 kW
SURVEY_PUE = 1.54  # Uptime Institute's 2025 survey: the average PUE reported, about 1.54
LOW_PUE = 1.1  # a yearly PUE below this is far below the survey's average: check what it measures
LARGEST_CAMPUS = 1e9  # W: 1 GW, the scale of the largest campuses announced (1.2 GW at Abilene, up to 5 GW at Hyperion)

TITLE = "Facility power calculator: from accelerators to the grid connection, energy, water and cost"

INPUTS: list[dict] = [
    {
        "name": "accelerators",
        "label": "Accelerators",
        "unit": "accelerators",
        "control": "slider",
        "min": 1,
        "max": 10_000_000,
        "step": 1,
        "scale": "log",
        # 100,000: about the number of H100s xAI's Colossus started with in 2024 (the topic's D3).
        "default": 100_000,
        "help": "How many GPUs or other accelerators the site holds.",
    },
    {
        "name": "accelerators_per_system",
        "label": "Accelerators per system",
        "unit": "accelerators",
        "control": "number",
        "min": 1,
        "max": 1_000,
        "step": 1,
        "scale": "linear",
        # 8: a DGX/HGX H100 server.
        "default": 8,
        "help": "Accelerators in one server or rack-scale system whose power the maker states: 8 in a DGX H100, 72 in a GB200 NVL72 rack.",
    },
    {
        "name": "system_power",
        "label": "Power of one system, rated maximum",
        "unit": "kW",
        "factor": WATTS_PER_KILOWATT,
        "control": "number",
        "min": 0.01,
        "max": 10_000,
        "step": 0.01,
        "scale": "log",
        # 10.2 kW: the DGX H100's maximum system power (NVIDIA, DGX H100/H200 user guide).
        "default": 10_200,
        "help": "The maker's maximum for the whole server or rack, with its CPUs, memory, network cards and fans, in kW.",
    },
    {
        "name": "systems_per_rack",
        "label": "Systems per rack",
        "unit": "systems",
        "control": "number",
        "min": 1,
        "max": 100,
        "step": 1,
        "scale": "linear",
        # 4: four DGX H100s to a rack, about 41 kW (the power and cooling topic's D3).
        "default": 4,
        "help": "How many systems share one rack (1 for a rack-scale system such as the NVL72): this sets the power each rack draws and must be cooled.",
    },
    {
        "name": "pue",
        "label": "PUE (facility energy ÷ IT energy)",
        "unit": "",
        "control": "slider",
        "min": 1,
        "max": 3,
        "step": 0.01,
        "scale": "linear",
        # 1.2: the topic's assumption for a new AI site (Uptime Institute's 2025 survey average: about 1.54).
        "default": 1.2,
        "help": "Power usage effectiveness over a year: 1.2 means cooling, power conversion and lighting add 20 % to the computers' own power. Uptime Institute's 2025 survey averaged about 1.54.",
    },
    {
        "name": "load_share",
        "label": "Average draw, as a share of the rated maximum",
        "unit": "of the maximum",
        "control": "slider",
        "min": 0.05,
        "max": 1,
        "step": 0.01,
        "scale": "linear",
        # 1: flat out all year, the topic's upper bound for a training site.
        "default": 1,
        "help": "1 runs every system at its rated maximum all year, an upper bound; a site that idles or runs below its maximum draws less energy, though its grid connection is sized for the peak.",
    },
    {
        "name": "wue",
        "label": "WUE (site water per kWh of IT energy)",
        "unit": "L/kWh",
        "control": "number",
        "min": 0,
        "max": 10,
        "step": 0.01,
        "scale": "linear",
        # 0.30 L/kWh: Microsoft's fleet in its 2024 financial year (cited in the topic).
        "default": 0.3,
        "help": "Litres of water the site uses for cooling per kWh of IT energy: 0 for a closed loop with dry coolers; Microsoft's fleet reported 0.30 L/kWh for its 2024 financial year.",
    },
    {
        "name": "price",
        "label": "Electricity price",
        "unit": "US$ per kWh",
        "control": "number",
        "min": 0.001,
        "max": 2,
        "step": 0.001,
        "scale": "log",
        # $0.08: illustrative, inside the 7.4-9.0 US cents per kWh industrial customers paid in three US regions in April 2025 (EIA).
        "default": 0.08,
        "help": "What the site pays per kWh drawn from the grid, in US dollars; an illustrative 8 cents by default.",
    },
]

OUTPUTS: list[dict] = [
    {"name": "systems", "label": "Systems (servers or rack-scale systems)", "unit": "", "format": "integer"},
    {"name": "racks", "label": "Racks", "unit": "", "format": "integer"},
    {"name": "rack_power_kw", "label": "Power of one full rack", "unit": "kW", "format": "number"},
    {"name": "it_power_mw", "announce": True, "label": "IT load at the systems' maximum", "unit": "MW", "format": "number"},
    {"name": "overhead_power_mw", "label": "Cooling, power conversion and the rest (PUE − 1)", "unit": "MW", "format": "number"},
    {"name": "facility_power_mw", "announce": True, "label": "Site power: what the grid connection must carry", "unit": "MW", "format": "number"},
    {"name": "facility_power_per_accelerator_kw", "label": "Site power per accelerator", "unit": "kW", "format": "number"},
    {"name": "average_power_mw", "label": "Average draw of the site", "unit": "MW", "format": "number"},
    {"name": "annual_energy_gwh", "announce": True, "label": "Energy per year", "unit": "GWh", "format": "number"},
    {"name": "annual_it_energy_gwh", "label": "Energy per year reaching the IT equipment", "unit": "GWh", "format": "number"},
    {"name": "annual_water_litres", "label": "Site water per year (WUE × IT energy)", "unit": "litres", "format": "number"},
    {"name": "daily_water_litres", "label": "Site water per day", "unit": "litres", "format": "number"},
    {"name": "annual_cost", "announce": True, "label": "Electricity per year", "unit": "", "format": "usd"},
    {"name": "cost_per_accelerator_hour", "label": "Electricity per accelerator-hour", "unit": "", "format": "usd"},
    {"name": "it_share", "label": "Share of the site's power reaching the IT equipment", "unit": "", "format": "percent"},
    {"name": "overhead_share", "label": "Share spent on cooling, conversion and the rest", "unit": "", "format": "percent"},
]


def system(option_id: str, label: str, source: str, per_system: int, power_kw: float, per_rack: int) -> dict:
    return {"id": option_id, "label": label, "source": source,
            "values": {"accelerators_per_system": per_system, "system_power": power_kw * WATTS_PER_KILOWATT,
                       "systems_per_rack": per_rack}}


PRESETS: list[dict] = [
    {
        "name": "system",
        "label": "System and rack",
        "fields": ["accelerators_per_system", "system_power", "systems_per_rack"],
        "options": [
            # DGX H100/H200 user guide, power specifications: "10.2 kW max" for the 8-GPU system.
            system("dgx-h100", "DGX H100: 8 GPUs at 10.2 kW (NVIDIA user guide; read 2026-12), four to a rack: 40.8 kW",
                   "nvidia-dgx-h100-guide", 8, 10.2, 4),
            # DGX B200 user guide, power specifications: "14.3 kW max" for the 8-GPU system.
            system("dgx-b200", "DGX B200: 8 GPUs at 14.3 kW (NVIDIA user guide; read 2026-12), four to a rack: 57.2 kW",
                   "nvidia-dgx-b200-guide", 8, 14.3, 4),
            # DGX SuperPOD with DGX B300 (XDR) reference architecture: "four DGX B300 fit within a single
            # rack. The rack-level power consumption per rack is ~56kW" -> 14 kW a system.
            system("dgx-b300", "DGX B300: 8 GPUs, four to a rack at about 56 kW (NVIDIA reference design, 2025; read 2026-12)",
                   "nvidia-superpod-b300", 8, 14.0, 4),
            # DGX SuperPOD with DGX GB200 reference architecture: a scalable unit of 8 DGX GB200 racks
            # (72 GPUs each) "requires a Thermal Design Power (TDP) of 1.2 Megawatts" -> 150 kW a rack
            # with its share of the unit's network and management equipment.
            system("gb200-nvl72", "GB200 NVL72: 72 GPUs a rack, 150 kW with its share of the network (NVIDIA: 1.2 MW for 8 racks, 2025; read 2026-12)",
                   "nvidia-superpod-gb200", 72, 150.0, 1),
        ],
    },
]

SOURCES: list[dict] = [
    *shared_sources("nvidia-dgx-h100-guide", "nvidia-dgx-b200-guide"),
    {
        "id": "nvidia-superpod-gb200",
        "kind": "documentation",
        "title": "NVIDIA DGX SuperPOD: Next Generation Scalable Infrastructure for AI Leadership, Reference Architecture "
                 "featuring NVIDIA DGX GB200 (DGX SuperPOD architecture: 1.2 MW per scalable unit of eight racks)",
        "authors": "NVIDIA",
        "date": "2025",
        "url": "https://docs.nvidia.com/dgx-superpod/reference-architecture-scalable-infrastructure-gb200/latest/dgx-superpod-architecture.html",
    },
    {
        "id": "nvidia-superpod-b300",
        "kind": "documentation",
        "title": "NVIDIA DGX SuperPOD Reference Architecture featuring DGX B300 systems with XDR InfiniBand "
                 "(DGX SuperPOD architecture: four DGX B300 to a rack, about 56 kW)",
        "authors": "NVIDIA",
        "date": "2025",
        "url": "https://docs.nvidia.com/dgx-superpod/reference-architecture/scalable-infrastructure-b300-xdr/latest/dgx-superpod-architecture.html",
    },
    {
        "id": "iso-30134-2",
        "kind": "standard",
        "title": "ISO/IEC 30134-2:2016 Information technology — Data centres — Key performance indicators — "
                 "Part 2: Power usage effectiveness (PUE)",
        "authors": "ISO/IEC JTC 1/SC 39",
        "date": "2016-04",
        "url": "https://www.iso.org/standard/63451.html",
        "note": "The metric The Green Grid introduced in 2007, standardised: total facility energy ÷ IT equipment energy over a year.",
    },
    {
        "id": "iso-30134-9",
        "kind": "standard",
        "title": "ISO/IEC 30134-9:2022 Information technology — Data centres key performance indicators — "
                 "Part 9: Water usage effectiveness (WUE)",
        "authors": "ISO/IEC JTC 1/SC 39",
        "date": "2022-05",
        "url": "https://www.iso.org/standard/77692.html",
        "note": "The Green Grid's metric of 2011, standardised: site water in litres ÷ IT equipment energy in kWh.",
    },
]

ASSUMPTIONS: list[str] = [
    "Each system draws its maker's rated maximum, which includes its own CPUs, memory, network cards and fans; "
    "switches, storage and management servers outside the systems are not counted unless the preset says so "
    "(NVIDIA's GB200 figure is per scalable unit, network included). Measured draw during training usually sits "
    "below the rated maximum, so the site power is an upper bound for sizing the grid connection.",
    "PUE and WUE are yearly averages taken as the same at every load and in every season; a real site's overhead "
    "is a larger share when it runs partly empty, and its water use peaks in hot weather.",
    "PUE counts the fans inside the servers as IT load, so moving to liquid cooling can cut the energy used without "
    "lowering the PUE much.",
    "WUE counts only the water used on site for cooling; the water the power stations use to make the electricity "
    "(source water) is left out, and it can be many times larger.",
    "One price per kWh all year: demand charges, capacity payments and time-of-day tariffs are left out.",
]

FIGURES: list[dict] = [
    {
        "name": "power_split",
        "kind": "share_bar",
        "title": "Where the site's power goes",
        "parts": [
            {"value": "it_share", "label": "IT equipment"},
            {"value": "overhead_share", "label": "Cooling, conversion and the rest"},
        ],
    },
]


def checked(inputs: dict) -> dict:
    """The inputs, each checked (ValueError naming the field and its allowed range)."""
    return {
        "accelerators": whole_count("accelerators", inputs["accelerators"]),
        "accelerators_per_system": whole_count("accelerators_per_system", inputs["accelerators_per_system"]),
        "system_power": positive("system_power", inputs["system_power"]),
        "systems_per_rack": whole_count("systems_per_rack", inputs["systems_per_rack"]),
        "pue": in_range("pue", inputs["pue"], 1, 3),
        "load_share": in_range("load_share", inputs["load_share"], 0, 1, open_low=True),
        "wue": in_range("wue", inputs["wue"], 0, 10),
        "price": positive("price", inputs["price"]),
    }


def plan(v: dict) -> dict:
    """Systems and racks, power at the peak and on average, and a year's energy, water and cost."""
    systems = math.ceil(v["accelerators"] / v["accelerators_per_system"])
    it_power = systems * v["system_power"]
    facility_power = it_power * v["pue"]
    average_power = facility_power * v["load_share"]
    it_energy = it_power * v["load_share"] * HOURS_PER_YEAR  # Wh
    energy = average_power * HOURS_PER_YEAR  # Wh
    water = it_energy / WATTS_PER_KILOWATT * v["wue"]  # litres: kWh × L/kWh
    cost = energy / WATTS_PER_KILOWATT * v["price"]
    return {
        "systems": systems,
        "racks": math.ceil(systems / v["systems_per_rack"]),
        "rack_power_kw": v["systems_per_rack"] * v["system_power"] / WATTS_PER_KILOWATT,
        "it_power_mw": it_power / WATTS_PER_MEGAWATT,
        "overhead_power_mw": (facility_power - it_power) / WATTS_PER_MEGAWATT,
        "facility_power_mw": facility_power / WATTS_PER_MEGAWATT,
        "facility_power_per_accelerator_kw": facility_power / v["accelerators"] / WATTS_PER_KILOWATT,
        "average_power_mw": average_power / WATTS_PER_MEGAWATT,
        "annual_energy_gwh": energy / WATT_HOURS_PER_GWH,
        "annual_it_energy_gwh": it_energy / WATT_HOURS_PER_GWH,
        "annual_water_litres": water,
        "daily_water_litres": water / DAYS_PER_YEAR,
        "annual_cost": cost,
        "cost_per_accelerator_hour": cost / (v["accelerators"] * HOURS_PER_YEAR),
        "it_share": 1 / v["pue"],
        "overhead_share": 1 - 1 / v["pue"],
    }


def where_the_model_stops(v: dict, p: dict) -> list[str]:
    """One plain sentence per way these inputs leave the range where the model holds."""
    notes = []
    if p["rack_power_kw"] * WATTS_PER_KILOWATT > DENSE_RACK:
        notes.append(f"Racks of {p['rack_power_kw']:,.0f} kW are beyond the 30 kW that few sites exceed in any rack "
                     "(Uptime Institute's 2025 survey): they need a hall built for that density, with more cooling "
                     "and heavier power feeds per rack than most data centres have.")
    if v["pue"] < LOW_PUE:
        notes.append(f"A PUE of {v['pue']:.2f} is far below the average of about {SURVEY_PUE} in Uptime Institute's "
                     "2025 survey: make sure it is a whole year's figure for the whole site, not a design value or "
                     "a good month.")
    if p["facility_power_mw"] * WATTS_PER_MEGAWATT > LARGEST_CAMPUS:
        notes.append(f"{p['facility_power_mw'] / 1000:,.2f} GW is the scale of the largest campuses announced "
                     "(1.2 GW planned at Abilene, up to 5 GW at Hyperion): few grids can connect that much at one "
                     "point within years, which is why such campuses build their own generation.")
    spare = p["systems"] * v["accelerators_per_system"] - v["accelerators"]
    if spare:
        notes.append(f"{v['accelerators']:,} accelerators do not fill whole systems of {v['accelerators_per_system']}: "
                     f"the last system is counted whole, with {spare:,} empty places.")
    return notes


def compute(
    *,
    accelerators: int,
    accelerators_per_system: int,
    system_power: float,
    systems_per_rack: int,
    pue: float,
    load_share: float,
    wue: float,
    price: float,
) -> dict:
    """Systems, racks, IT and site power, and a year's energy, site water and electricity bill.

    Raises ValueError naming the field and its allowed range for bad input.
    """
    v = checked(locals())
    p = plan(v)
    return {**v, **p, "notes": where_the_model_stops(v, p)}
