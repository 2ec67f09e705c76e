"""The small max-flow network under tier 2 (`inference._Flow`), checked against networkx on fixed graphs."""
from __future__ import annotations

import random

import networkx as nx
import pytest

from trainer.tracking.inference import _Flow

# CLRS's textbook network (max flow 23) and a few random ones
CLRS = [(0, 1, 16), (0, 2, 13), (1, 3, 12), (2, 1, 4), (2, 4, 14), (3, 2, 9), (3, 5, 20), (4, 3, 7), (4, 5, 4)]


def random_graph(seed: int) -> list[tuple[int, int, int]]:
    rng = random.Random(seed)
    return [(u, v, rng.randint(1, 9)) for u in range(8) for v in range(8) if u != v and rng.random() < 0.3]


GRAPHS = [CLRS] + [random_graph(seed) for seed in range(6)]


def build(edges) -> tuple[_Flow, int, int]:
    flow = _Flow()
    nodes = 1 + max(max(u, v) for u, v, _ in edges)
    for _ in range(max(nodes, 6)):
        flow.node()
    for u, v, capacity in edges:
        flow.arc(u, v, capacity)
    return flow, 0, max(nodes, 6) - 1


def expected(edges, source: int, sink: int, banned: set[int]) -> int:
    graph = nx.DiGraph()
    graph.add_nodes_from([source, sink])
    for u, v, capacity in edges:
        if u not in banned and v not in banned:
            old = graph.get_edge_data(u, v, {"capacity": 0})["capacity"]
            graph.add_edge(u, v, capacity=old + capacity)
    return nx.maximum_flow_value(graph, source, sink)


@pytest.mark.parametrize("edges", GRAPHS)
@pytest.mark.parametrize("banned", [set(), {2}, {3, 4}])
def test_max_flow_and_augmenting_paths_agree_with_networkx(edges, banned):
    flow, source, sink = build(edges)
    assert flow.max_flow(source, sink, set(banned)) == expected(edges, source, sink, banned)
    # no augmenting path is left; the same value again by shortest augmenting paths, one unit each
    assert flow.path([source], {sink}, banned) is None
    flow, source, sink = build(edges)
    total = 0
    while (path := flow.path([source], {sink}, banned)) is not None:
        assert flow.head[path[-1]] == sink and flow.head[path[0] ^ 1] == source
        assert all(flow.head[a] == flow.head[b ^ 1] for a, b in zip(path, path[1:]))     # a walk, in order
        assert not {flow.head[a] for a in path} & banned
        flow.push(path)
        total += 1
    assert total == expected(edges, source, sink, banned)
    # what is left reachable from the source is the source side of a minimum cut
    side = flow.reach(source, banned) - set(banned)
    assert sink not in side
    cut = sum(c for u, v, c in edges if u in side and v not in side and v not in banned)
    assert cut == total


def test_rollback_restores_the_graph():
    flow, source, sink = build(CLRS)
    flow.max_flow(source, sink, set())
    saved = (flow.cap[:], flow.head[:], [list(arcs) for arcs in flow.out])
    nodes, arcs = len(flow.out), len(flow.head)
    extra = flow.node()
    flow.arc(source, extra, 5)
    flow.arc(extra, sink, 5)
    assert flow.max_flow(source, sink, set()) == 5
    flow.rollback(nodes, arcs, saved[0])
    assert (flow.cap, flow.head, flow.out) == saved
