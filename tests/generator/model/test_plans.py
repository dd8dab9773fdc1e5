"""Learning plans: every prerequisite before what needs it, each at the depth it is needed."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from generator.content.prerequisites import Prerequisite, find_cycle, prerequisite_table
from generator.content.schema import Topic
from generator.model.plans import WORDS_PER_MINUTE, learning_plan, nearest_depth


def topic(tid: str, layer: int = 1, depths: tuple[str, ...] = ("D1", "D2", "D3", "D4", "D5"), words: int = 10) -> Topic:
    body = " ".join(["word"] * words)
    return Topic.model_validate({"id": tid, "title": tid.title(), "layer": layer, "summary": "S.",
                                 "depths": {key: {"body": body} for key in depths}})


def plan_of(topics: list[Topic], edges: list[tuple[str, str, str | None]], goal: str, depth: str):  # noqa: ANN201
    by_id = {t.id: t for t in topics}
    return learning_plan(by_id[goal], depth, prerequisite_table(edges), by_id)


def test_a_chain_is_read_bottom_up_and_the_goal_last() -> None:
    topics = [topic("power", 1), topic("chips", 2), topic("clusters", 3), topic("models", 5)]
    edges = [("models", "clusters", None), ("clusters", "chips", None), ("chips", "power", "D2")]
    plan = plan_of(topics, edges, "models", "D4")
    assert [(s.topic.id, s.depth) for s in plan.steps] == [("power", "D2"), ("chips", "D4"), ("clusters", "D4"), ("models", "D4")]
    assert [s.topic.id for s in plan.first] == ["power", "chips", "clusters"]


def test_a_prerequisite_is_never_read_deeper_than_what_needs_it() -> None:
    topics = [topic("a", 1), topic("b", 2)]
    plan = plan_of(topics, [("b", "a", "D4")], "b", "D2")
    assert [(s.topic.id, s.depth) for s in plan.steps] == [("a", "D2"), ("b", "D2")]


def test_the_deepest_depth_any_path_asks_wins() -> None:
    topics = [topic("base", 1), topic("left", 2), topic("right", 2), topic("goal", 3)]
    edges = [("goal", "left", None), ("goal", "right", None), ("left", "base", "D1"), ("right", "base", "D3")]
    steps = {s.topic.id: s.depth for s in plan_of(topics, edges, "goal", "D5").steps}
    assert steps == {"base": "D3", "left": "D5", "right": "D5", "goal": "D5"}


def test_a_missing_depth_falls_back_to_the_deepest_below_it() -> None:
    thin = topic("thin", 1, ("D1", "D2", "D4"))
    assert nearest_depth(thin, "D3") == "D2" and nearest_depth(thin, "D5") == "D4"
    assert nearest_depth(topic("deep", 1, ("D4", "D5")), "D2") == "D4"


def test_where_the_order_is_free_the_closest_layer_comes_first() -> None:
    topics = [topic("energy", 1), topic("data", 4), topic("chips", 2), topic("training", 5)]
    edges = [("training", "energy", None), ("training", "data", None), ("training", "chips", None)]
    assert [s.topic.id for s in plan_of(topics, edges, "training", "D2").steps] == ["data", "chips", "energy", "training"]


def test_reading_time_counts_the_words_of_the_depth_read() -> None:
    plan = plan_of([topic("a", 1, words=450), topic("b", 2, words=10)], [("b", "a", None)], "b", "D1")
    assert [s.words for s in plan.steps] == [450, 10]
    assert [s.minutes for s in plan.steps] == [-(-450 // WORDS_PER_MINUTE), 1]
    assert plan.minutes == sum(s.minutes for s in plan.steps)


def test_a_topic_without_prerequisites_is_its_own_plan() -> None:
    plan = plan_of([topic("a")], [], "a", "D3")
    assert [(s.topic.id, s.depth) for s in plan.steps] == [("a", "D3")] and plan.first == ()


def test_a_cycle_is_named_round_its_topics() -> None:
    table = prerequisite_table([("a", "b", None), ("b", "c", None), ("c", "a", None), ("d", "a", None)])
    cycle = find_cycle(table)
    assert cycle is not None and cycle[0] == cycle[-1] and set(cycle) == {"a", "b", "c"}
    assert find_cycle(prerequisite_table([("a", "a", None)])) == ["a", "a"]
    assert find_cycle(prerequisite_table([("a", "b", None), ("a", "c", None), ("b", "c", None)])) is None


# --- random maps: any DAG, any goal, any depth ---------------------------------------------------

DEPTHS = ("D1", "D2", "D3", "D4", "D5")


@st.composite
def random_dag(draw: st.DrawFn) -> tuple[list[Topic], list[tuple[str, str, str | None]]]:
    count = draw(st.integers(1, 12))
    topics = [topic(f"t{i}", draw(st.integers(1, 6)),
                    tuple(sorted(draw(st.sets(st.sampled_from(DEPTHS), min_size=1)))), draw(st.integers(1, 900)))
              for i in range(count)]
    edges = []
    for needer in range(count):  # edges only to lower numbers: no cycle
        for needed in draw(st.sets(st.integers(0, max(needer - 1, 0)), max_size=3)) if needer else ():
            present = [k for k, _ in topics[needed].depths.present()]
            edges.append((f"t{needer}", f"t{needed}", draw(st.sampled_from([None, *present]))))
    return topics, edges


@settings(max_examples=200, deadline=None)
@given(random_dag(), st.data())
def test_every_plan_respects_every_prerequisite(dag: tuple[list[Topic], list], data: st.DataObject) -> None:
    topics, edges = dag
    goal = data.draw(st.sampled_from(topics))
    depth = data.draw(st.sampled_from(DEPTHS))
    plan = plan_of(topics, edges, goal.id, depth)
    order = [s.topic.id for s in plan.steps]
    assert order[-1] == goal.id and len(order) == len(set(order))
    table = prerequisite_table(edges)
    reachable, stack = set(), [goal.id]
    while stack:
        for link in table.get(stack.pop(), ()):
            if link.needed not in reachable:
                reachable.add(link.needed)
                stack.append(link.needed)
    assert set(order) == reachable | {goal.id}
    at = {s.topic.id: s.depth for s in plan.steps}
    by_id = {t.id: t for t in topics}
    assert at[goal.id] == nearest_depth(goal, depth)
    expected: dict[str, str] = {}
    for step in plan.steps:
        assert step.depth in [k for k, _ in step.topic.depths.present()]
        for link in table.get(step.topic.id, ()):
            assert order.index(link.needed) < order.index(step.topic.id)
            wanted = nearest_depth(by_id[link.needed], min(link.depth or at[step.topic.id], at[step.topic.id]))
            expected[link.needed] = max(expected.get(link.needed, "D1"), wanted)
    assert {tid: at[tid] for tid in expected} == expected  # the deepest any needer asks, no deeper


@settings(max_examples=100, deadline=None)
@given(random_dag(), st.data())
def test_a_cycle_is_found_when_one_edge_closes_a_path(dag: tuple[list[Topic], list], data: st.DataObject) -> None:
    _, edges = dag
    assert find_cycle(prerequisite_table(edges)) is None
    if edges:
        needer, needed, _ = data.draw(st.sampled_from(edges))
        cycle = find_cycle(prerequisite_table([*edges, (needed, needer, None)]))
        assert cycle is not None and cycle[0] == cycle[-1]
        links = set(zip(cycle, cycle[1:]))
        assert links <= {(a, b) for a, b, _ in edges} | {(needed, needer)}


def test_prerequisite_records_read_well() -> None:
    assert Prerequisite("moe", "transformers", "D3").needed == "transformers"
