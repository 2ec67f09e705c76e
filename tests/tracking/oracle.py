"""Test helper: the tier-2 oracle. Consistent distributions of a snapshot's unseen cards built from
tracking.md's text with networkx (network simplex, lower bounds by the demand reduction), sharing no
code with `Inference`; and the true holdings of a record at a position."""
from __future__ import annotations

import networkx as nx

from trainer.records import state_at
from trainer.tracking.inference import KITTY


def truth(record, position):
    """The real holdings at a position: each seat's hand and the kitty (face → copies)."""
    state = state_at(record, position)
    hands = {q: dict(state.hands[q]) for q in range(4)}
    hands[KITTY] = {}
    for card in record.buried:
        hands[KITTY][card.index] = hands[KITTY].get(card.index, 0) + 1
    return hands


def holders(snap):
    """The holders of unseen cards: the other seats, and the kitty for a non-banker before the end."""
    return [q for q in range(4) if q != snap.seat] + (
        [KITTY] if snap.seat != snap.banker and not snap.kitty_revealed else [])


def witness(snap, cells=(), suits=()):
    """A consistent distribution of the unseen cards (holder → face → copies) with every
    (holder, face, low, high) of `cells` and (holder, suit, low, high) of `suits` in range, or None
    when there is none."""
    ctx = snap.ctx
    unseen_in = [sum(snap.unseen[f] for f in ctx.faces_by_suit[s]) for s in range(5)]
    every = holders(snap)
    graph = nx.DiGraph()
    demand: dict[object, int] = {}
    lows: dict[tuple[object, object], int] = {}
    forced = {(q, face): (low, high) for q, face, low, high in cells}
    counts = {(q, s): (low, high) for q, s, low, high in suits}

    def edge(u, v, low, high) -> bool:
        if high < low:
            return False
        graph.add_edge(u, v, capacity=high - low)
        lows[u, v] = low
        demand[u] = demand.get(u, 0) + low
        demand[v] = demand.get(v, 0) - low
        return True

    constraints = snap.constraints
    placed = []
    for face in (f for f in range(54) if snap.unseen[f]):
        supply = ("face", face)
        demand[supply] = demand.get(supply, 0) - snap.unseen[face]
        suit_of = ctx.suit_of[face]
        banker_side = ("banker side", face)
        # the banker's declared cards are in the banker's hand or the kitty (either one for this viewer)
        declared_by_banker = constraints.declared[snap.banker].get(face, 0) if KITTY in every else 0
        if declared_by_banker and not edge(supply, banker_side, declared_by_banker, snap.unseen[face]):
            return None
        for q in every:
            low, high = 0, snap.unseen[face]
            if q != KITTY:
                size = snap.hand_sizes[q]
                void = snap.revealed_voids[q] >> suit_of & 1 or not unseen_in[suit_of] or not size
                high = 0 if void else min(high, size, 1 if snap.no_pairs[q] >> suit_of & 1 else size)
                high = min(high, constraints.caps[q].get(face, high))
                low = constraints.returned[q].get(face, 0)
                if not (declared_by_banker and q == snap.banker):
                    low = max(low, constraints.declared[q].get(face, 0))
            if (q, face) in forced:
                low, high = max(low, forced[q, face][0]), min(high, forced[q, face][1])
            tail = banker_side if declared_by_banker and q in (snap.banker, KITTY) else supply
            if not edge(tail, ("suit", q, suit_of), low, high):
                return None
            placed.append((tail, q, face, suit_of))
    for q in every:
        size = snap.hand_sizes[q] if q != KITTY else ctx.rules.kitty_size
        for s in range(5):
            low, high = counts.get((q, s), (0, size))
            if not edge(("suit", q, s), ("holder", q), max(0, low), min(size, high)):
                return None
        demand[("holder", q)] = demand.get(("holder", q), 0) + size
    try:
        for node, value in demand.items():
            graph.add_node(node, demand=value)
        _cost, flows = nx.network_simplex(graph)
    except nx.NetworkXUnfeasible:
        return None
    found: dict[int, dict[int, int]] = {q: {} for q in every}
    for tail, q, face, s in placed:
        copies = flows[tail][("suit", q, s)] + lows[tail, ("suit", q, s)]
        if copies:
            found[q][face] = copies
    return found


def feasible(snap, cell=None, suit=None) -> bool:
    """Is some distribution consistent with `cell` = (holder, face, low, high) or `suit` = (holder,
    suit, low, high) forced into a range?"""
    return witness(snap, [cell] if cell else (), [suit] if suit else ()) is not None
