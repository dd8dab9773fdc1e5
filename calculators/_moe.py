"""One rule for a mixture of experts' parameters, shared by every calculator that splits them.

A model card gives two counts: the **total**, every parameter the model stores, and the **active**
count, the parameters one token passes through. The active count leaves out the input embedding
table: a token fetches one row of it and does no arithmetic with the rest. gpt-oss shows it:
its card's 5.13 B active parameters of gpt-oss-120b are 4/128 of the 114.71 B MoE weights plus
0.96 B of attention and 0.58 B of unembedding, without the 0.58 B input embedding (201,088 × 2,880)
that the 116.83 B total does include (OpenAI, gpt-oss model card, 2025, Table 1 and section 2).
So, with ``lookup`` the parameters only looked up (the input embedding table):

    read per token    = active                                   (when given; a card's count)
                      = total − lookup                           (a dense model: active not given)
    total − lookup    = shared + experts                         (shared: attention, norms, router,
    active            = shared + k/E × experts                    unembedding, always-on experts)
    ⇒ experts         = (total − lookup − active) ÷ (1 − k/E),   shared = total − lookup − experts

Solving without taking the lookup table out books it as expert weight: gpt-oss-20b (20.91 B,
3.61 B active, 4 of 32 experts) would get 19.77 B of experts against its card's 19.12 B.
A split whose shared part comes out below zero (active below k/E of total − lookup) describes no
real model and is refused, naming the active-parameter field.

Standard library only, like the calculators it serves (shipped to the browser with them). The
leading underscore keeps it out of the list of calculators.
"""

from __future__ import annotations

from calculators._checks import in_range

BILLION = 1e9
ROUNDING = 1e-12  # a split that misses by rounding alone (active = k/E of the total exactly) is kept
# gpt-oss's input embedding table: vocabulary 201,088 × hidden size 2,880 (model card, section 2),
# half of Table 1's 1.16 B "embedding + unembedding". The card's active counts (5.13 B, 3.61 B) add
# up only with the unembedding: 4/128 of 114.71 B MoE + 0.96 B attention + 0.58 B = 5.13 B.
EMBEDDING_GPT_OSS = 201_088 * 2_880
MAX_LOOKUP_SHARE = 0.9  # at most 90 % of a model looked up, so that some is read and speeds stay finite


def lookup_input(help_text: str) -> dict:
    """The form field for the looked-up embedding table, the same in every calculator that has one.
    Its default, 0, leaves the embedding among the weights read (a dense model's card counts it)."""
    return {
        "name": "params_lookup",
        "label": "Parameters looked up, not read (input embedding)",
        "unit": "billion parameters",
        "factor": BILLION,
        "control": "number",
        "min": 0,
        "max": 2000,
        "step": 0.01,
        "scale": "linear",
        "default": 0,
        "help": help_text,
    }


def lookup_parameters(params: float, lookup: float) -> float:
    """The looked-up embedding table, checked: between 0 and 90 % of the model."""
    return in_range("params_lookup", lookup, 0, MAX_LOOKUP_SHARE * params)


def read_parameters(params: float, active: float, lookup: float = 0.0) -> float:
    """Parameters one token reads: the active count when one is given (0 means a dense model),
    never more than the model holds outside its looked-up embedding table."""
    return min(active or params, params - lookup)


def expert_split(params: float, active: float, experts: int, chosen: int, lookup: float = 0.0) -> tuple[float, float]:
    """(shared parameters, routed-expert parameters) from the total, the active count, the routing
    k of E (``chosen`` of ``experts``) and the looked-up embedding table.

    With k = E (or a dense model, 1 of 1) every expert is always chosen: everything outside the
    lookup table counts as shared. Raises ValueError, naming ``active_params``, when the active
    count is below k/E of the parameters outside the lookup table, which would leave the shared
    part negative.
    """
    outside = params - lookup
    if chosen >= experts:
        return outside, 0.0
    routed_share = chosen / experts
    expert = (outside - active) / (1 - routed_share)
    if expert > outside * (1 + ROUNDING):
        embedding = " less its looked-up embedding" if lookup else ""
        raise ValueError(
            f"active_params must be at least experts per token ÷ experts of the model size{embedding}, "
            f"{outside * routed_share / BILLION:g} billion (got {active / BILLION:g} billion)")
    expert = min(expert, outside)
    return outside - expert, expert
