"""Tier-2 inference (tracking.md second table): exact bounds on the hidden holdings by max-flow.

The unseen cards are a transportation problem: faces (supply = unseen copies) to holders (the
other seats, and the kitty for a non-banker; demand = cards held), each cell bounded by what the
seat has shown (voids, no pairs, cards returned by a failed throw, caps proved by a throw that
stood, declared cards). One feasible flow is found, then each bound is pushed as far as the
residual graph allows: a value is reachable exactly when an augmenting cycle exists.
"""
from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from typing import Any

from trainer.engine.cards import Card
from trainer.engine.trump import SUIT_NAMES
from trainer.tracking.facts import listed_suits, voids
from trainer.tracking.tracker import Snapshot

KITTY = 4
"""The kitty's holder number (seats are 0–3)."""


class InconsistentError(ValueError):
    """The constraints admit no distribution: the record and what was seen disagree."""


class _Flow:
    """A small residual graph: arcs in pairs (arc ^ 1 is the reverse), integer capacities."""

    def __init__(self) -> None:
        self.head: list[int] = []
        self.cap: list[int] = []
        self.out: list[list[int]] = []

    def node(self) -> int:
        self.out.append([])
        return len(self.out) - 1

    def arc(self, tail: int, head: int, capacity: int) -> int:
        self.head += [head, tail]
        self.cap += [capacity, 0]
        self.out[tail].append(len(self.head) - 2)
        self.out[head].append(len(self.head) - 1)
        return len(self.head) - 2

    def push(self, arcs: Iterable[int], amount: int = 1) -> None:
        for arc in arcs:
            self.cap[arc] -= amount
            self.cap[arc ^ 1] += amount

    def path(self, sources: Iterable[int], targets: set[int], banned: Iterable[int]) -> list[int] | None:
        """Arcs of a shortest residual path from any source to any target avoiding `banned` nodes."""
        came = [-2] * len(self.out)
        for node in banned:
            came[node] = -3
        queue = []
        for source in sources:
            if came[source] == -2:
                came[source] = -1
                queue.append(source)
        head, cap, out = self.head, self.cap, self.out
        for node in queue:
            if node in targets:
                arcs = []
                while came[node] >= 0:
                    arc = came[node]
                    arcs.append(arc)
                    node = head[arc ^ 1]
                return arcs[::-1]
            for arc in out[node]:
                if cap[arc] > 0:
                    nxt = head[arc]
                    if came[nxt] == -2:
                        came[nxt] = arc
                        queue.append(nxt)
        return None

    def max_flow(self, source: int, sink: int, banned: set[int]) -> int:
        """Push as much as possible from `source` to `sink` (Dinic: level graph, blocking flows)."""
        head, cap, out = self.head, self.cap, self.out
        total = 0
        while True:
            level = [-1] * len(out)
            for node in banned:
                level[node] = -2
            level[source] = 0
            queue = [source]
            for node in queue:
                for arc in out[node]:
                    nxt = head[arc]
                    if cap[arc] > 0 and level[nxt] == -1:
                        level[nxt] = level[node] + 1
                        queue.append(nxt)
            if level[sink] < 0:
                return total
            pointer = [0] * len(out)

            def push(node: int, limit: int) -> int:
                if node == sink:
                    return limit
                arcs = out[node]
                while pointer[node] < len(arcs):
                    arc = arcs[pointer[node]]
                    nxt = head[arc]
                    if cap[arc] > 0 and level[nxt] == level[node] + 1:
                        sent = push(nxt, min(limit, cap[arc]))
                        if sent:
                            cap[arc] -= sent
                            cap[arc ^ 1] += sent
                            return sent
                    pointer[node] += 1
                return 0

            while sent := push(source, 1 << 30):
                total += sent

    def rollback(self, nodes: int, arcs: int, capacities: list[int]) -> None:
        """Forget nodes and arcs added since the graph had `nodes` nodes and `arcs` arcs, and restore
        the capacities saved then."""
        for node in range(nodes):
            edges = self.out[node]
            while edges and edges[-1] >= arcs:
                edges.pop()
        del self.out[nodes:]
        del self.head[arcs:]
        self.cap = capacities[:arcs] if len(capacities) > arcs else capacities

    def reach(self, source: int, banned: Iterable[int]) -> set[int]:
        """Every node a residual path from `source` reaches, avoiding `banned` nodes."""
        seen = set(banned)
        seen.add(source)
        queue = [source]
        head, cap, out = self.head, self.cap, self.out
        for node in queue:
            for arc in out[node]:
                if cap[arc] > 0 and head[arc] not in seen:
                    seen.add(head[arc])
                    queue.append(head[arc])
        return seen


@dataclass(slots=True)
class Cell:
    """One (holder, item) cell of a transportation network: its lower bound and its arc's tail."""

    holder: int
    face: int
    low: int
    arc: int
    tail: int


class Transport:
    """A solved transportation network (items → holders, each cell bounded below and above): the exact
    [min, max] of a cell or of a group of one holder's cells over every feasible distribution. Shared by
    the 升级 `Inference` (faces) and the 够级 one (ranks); a subclass builds `flow`, `cells` and
    `holder_node`, then calls `_solve`."""

    flow: _Flow
    source: int
    sink: int
    holder_node: dict[int, int]
    cells: dict[tuple[int, int], Cell]

    def _solve(self, supply: int) -> None:
        """Find one feasible flow of `supply` units; `InconsistentError` when there is none."""
        flow = self.flow
        self._greedy()
        while (path := flow.path([self.source], {self.sink}, set())) is not None:
            flow.push(path)
        sent = sum(flow.cap[arc ^ 1] for arc in flow.out[self.source] if arc % 2 == 0)
        if sent != supply:
            raise InconsistentError("no distribution of the unseen cards fits what was seen")
        self.banned = {self.source, self.sink}
        self._reach: dict[int, set[int]] = {}

    def _network(self, limits: dict[int, dict[int, tuple[int, int]]], items: list[int], supply: dict[int, int],
                 sizes: dict[int, int], name: Callable[[int], str]) -> None:
        """Build and solve the plain network source → item (`supply` copies) → holder (each cell within
        `limits[holder][item]` = (low, high)) → sink (`sizes` cards), for subclasses whose cells are all
        direct; `name` names an item in the errors."""
        for q, bounds in limits.items():
            for item, (low, high) in bounds.items():
                if low > high:
                    raise InconsistentError(f"seat {q} must hold {low} of {name(item)} but can hold {high}")
        flow = self.flow = _Flow()
        self.source, self.sink = flow.node(), flow.node()
        self.holder_node = {q: flow.node() for q in limits}
        self.cells = {}
        capacity = dict(sizes)
        left = {}
        for item in items:
            node = flow.node()
            left[item] = supply[item]
            for q, bounds in limits.items():
                low, high = bounds[item]
                left[item] -= low
                capacity[q] -= low
                self.cells[q, item] = Cell(q, item, low, flow.arc(node, self.holder_node[q], high - low), node)
            if left[item] < 0:
                raise InconsistentError(f"more {name(item)} are known to be held than are unseen")
            flow.arc(self.source, node, left[item])
        if any(c < 0 for c in capacity.values()):
            raise InconsistentError("known cards exceed what a hand can hold")
        for q in limits:
            flow.arc(self.holder_node[q], self.sink, capacity[q])
        if sum(left.values()) != sum(capacity.values()):
            raise InconsistentError("unseen cards and hand sizes disagree")
        self._solve(sum(left.values()))

    def _greedy(self) -> None:
        """Fill most of the flow directly (source → item → holder → sink) before augmenting."""
        flow = self.flow
        for arc in list(flow.out[self.source]):
            if arc % 2:
                continue
            face_node = flow.head[arc]
            for cell_arc in flow.out[face_node]:
                if cell_arc % 2 or flow.cap[arc] == 0:
                    continue
                holder = flow.head[cell_arc]
                sink_arc = next((a for a in flow.out[holder] if a % 2 == 0 and flow.head[a] == self.sink), None)
                if sink_arc is None:
                    continue
                amount = min(flow.cap[arc], flow.cap[cell_arc], flow.cap[sink_arc])
                if amount > 0:
                    flow.push([arc, cell_arc, sink_arc], amount)

    def _current(self, cell: Cell) -> int:
        return self.flow.cap[cell.arc ^ 1]

    def bounds(self, q: int, face: int) -> tuple[int, int]:
        """[min, max] copies of item `face` holder `q` holds over all consistent distributions."""
        cell = self.cells[q, face]
        flow = self.flow
        now = self._current(cell)
        holder = self.holder_node[q]
        room = flow.cap[cell.arc]
        if room and not now:
            # with no flow on the cell, a cycle through it is a residual path holder ⇝ face
            reached = self._reach.get(q)
            if reached is None:
                reached = self._reach[q] = flow.reach(holder, self.banned)
            if cell.tail not in reached:
                room = 0
            elif room == 1:
                return cell.low, cell.low + 1
        more = self._cell_shift(holder, cell.tail, cell.arc, room) if room else 0
        less = self._cell_shift(cell.tail, holder, cell.arc ^ 1, now) if now else 0
        return cell.low + now - less, cell.low + now + more

    def _cell_shift(self, start: int, end: int, closing: int, limit: int) -> int:
        """How many units can go around cycles start ⇝ end closed by the arc `closing` (then undone)."""
        flow = self.flow
        saved = flow.cap[closing], flow.cap[closing ^ 1]
        flow.cap[closing], flow.cap[closing ^ 1] = 0, 0
        shifted = 0
        done = []
        for _ in range(limit):
            path = flow.path([start], {end}, self.banned)
            if path is None:
                break
            flow.push(path)
            done.append(path)
            shifted += 1
        for path in done:
            flow.push(path, -1)
        flow.cap[closing], flow.cap[closing ^ 1] = saved
        return shifted

    def group_bounds(self, q: int, inside: Callable[[int], bool]) -> tuple[int, int]:
        """[min, max] of the items `inside` selects that holder `q` holds, all together."""
        cells = [c for (h, _), c in self.cells.items() if h == q]
        gain = [c for c in cells if inside(c.face)]
        lose = [c for c in cells if not inside(c.face)]
        now = sum(c.low + self._current(c) for c in gain)
        return now - self._group_shift(lose, gain), now + self._group_shift(gain, lose)

    def allows(self, ranges: dict[tuple[int, int], tuple[int, int]],
               some: tuple[int, Collection[int]] | None = None) -> bool:
        """True when some consistent distribution puts every cell (holder, item) of `ranges` within its
        [low, high] copies at once, and with `some` = (holder, items) also gives that holder at least one
        of those items (none of them in `ranges`), exactly: the solved flow is moved onto the new bounds by
        one max-flow in the residual graph (a cell below its range must gain, one above must lose what the
        rest of the network carries back); then one of the items is held already, or a residual cycle
        through the holder gains one. The graph is restored."""
        flow = self.flow
        saved, nodes, arcs = flow.cap[:], len(flow.out), len(flow.head)
        excess: dict[int, int] = {}
        feasible = True
        for (q, item), (low, high) in ranges.items():
            cell = self.cells.get((q, item))
            if cell is None:
                feasible = feasible and low <= 0
                continue
            arc = cell.arc
            now, room = flow.cap[arc ^ 1], flow.cap[arc] + flow.cap[arc ^ 1]
            lo, hi = max(low - cell.low, 0), min(high - cell.low, room)
            if lo > hi:
                feasible = False
                break
            change = lo - now if now < lo else hi - now if now > hi else 0
            settled = now + change
            flow.cap[arc], flow.cap[arc ^ 1] = hi - settled, settled - lo
            holder = flow.head[arc]
            excess[holder] = excess.get(holder, 0) + change
            excess[cell.tail] = excess.get(cell.tail, 0) - change
        needed = sum(amount for amount in excess.values() if amount > 0)
        if feasible and needed:
            source, sink = flow.node(), flow.node()
            for node, amount in excess.items():
                if amount > 0:
                    flow.arc(source, node, amount)
                elif amount < 0:
                    flow.arc(node, sink, -amount)
            feasible = flow.max_flow(source, sink, self.banned) == needed
            banned = self.banned | {source, sink}
        else:
            banned = self.banned
        if feasible and some is not None:
            holder, items = some
            cells = [self.cells[holder, item] for item in items if (holder, item) in self.cells]
            if not any(cell.low or flow.cap[cell.arc ^ 1] for cell in cells):
                reached = flow.reach(self.holder_node[holder], banned)
                feasible = any(flow.cap[cell.arc] and cell.tail in reached for cell in cells)
        flow.rollback(nodes, arcs, saved)
        return feasible

    def _group_shift(self, gain: list[Cell], lose: list[Cell]) -> int:
        """How many units the holder can move from `lose` cells to `gain` cells at once: a max-flow
        from the items it could give up to the items it could take, the holder itself left out."""
        flow = self.flow
        starts = [(c.tail, flow.cap[c.arc ^ 1]) for c in lose if flow.cap[c.arc ^ 1] > 0]
        ends = [(c.tail, flow.cap[c.arc]) for c in gain if flow.cap[c.arc] > 0]
        if not starts or not ends:
            return 0
        holder = flow.head[gain[0].arc]
        saved, nodes, arcs = flow.cap[:], len(flow.out), len(flow.head)
        source, sink = flow.node(), flow.node()
        for tail, amount in starts:
            flow.arc(source, tail, amount)
        for tail, amount in ends:
            flow.arc(tail, sink, amount)
        moved = flow.max_flow(source, sink, self.banned | {holder})
        flow.rollback(nodes, arcs, saved)
        return moved


class Inference(Transport):
    """The consistent distributions of one snapshot's unseen cards, as a solved flow network."""

    def __init__(self, snap: Snapshot) -> None:
        self.snap = snap
        ctx = snap.ctx
        rules = ctx.rules
        unseen = snap.unseen
        self.faces = [f for f in range(54) if unseen[f]]
        unseen_by_suit = [sum(unseen[f] for f in ctx.faces_by_suit[s]) for s in range(5)]
        self.void_bits = {q: voids(snap, q, unseen_by_suit) for q in range(4)}
        self.holders = [q for q in range(4) if q != snap.seat]
        capacity = {q: snap.hand_sizes[q] for q in self.holders}
        if snap.seat != snap.banker and not snap.kitty_revealed:
            self.holders.append(KITTY)
            capacity[KITTY] = rules.kitty_size
        constraints = snap.constraints
        group_low: dict[int, int] = {}
        low: dict[tuple[int, int], int] = {}
        for q in range(4):
            if q == snap.seat:
                continue
            for face, copies in constraints.returned[q].items():
                low[q, face] = max(low.get((q, face), 0), copies)
            for face, copies in constraints.declared[q].items():
                if copies <= 0 or not unseen[face]:
                    continue
                if q == snap.banker and KITTY in capacity:
                    group_low[face] = max(group_low.get(face, 0), copies)
                else:
                    low[q, face] = max(low.get((q, face), 0), copies)
        flow = self.flow = _Flow()
        self.source, self.sink = flow.node(), flow.node()
        self.holder_node = {q: flow.node() for q in self.holders}
        self.face_node: dict[int, int] = {}
        self.cells: dict[tuple[int, int], Cell] = {}
        supply_left = {}
        for face in self.faces:
            node = self.face_node[face] = flow.node()
            supply_left[face] = unseen[face]
            others = None
            if face in group_low:
                # the copies neither the banker nor the kitty holds, the other seats' known ones included
                others = flow.node()
                others_arc = flow.arc(node, others, unseen[face] - group_low[face])
            for q in self.holders:
                high = self._high(q, face)
                floor = low.get((q, face), 0)
                if floor > high:
                    raise InconsistentError(f"seat {q} must hold {floor} of {Card.from_index(face)} but can hold {high}")
                supply_left[face] -= floor
                capacity[q] -= floor
                tail = others if others is not None and q not in (snap.banker, KITTY) else node
                if others is not None and tail == others:
                    flow.cap[others_arc] -= floor
                arc = flow.arc(tail, self.holder_node[q], high - floor)
                self.cells[q, face] = Cell(q, face, floor, arc, tail)
        if any(v < 0 for v in supply_left.values()) or any(v < 0 for v in capacity.values()) or any(
                flow.cap[arc] < 0 for arc in range(0, len(flow.cap), 2)):
            raise InconsistentError("known cards exceed what a hand can hold")
        for face in self.faces:
            flow.arc(self.source, self.face_node[face], supply_left[face])
        for q in self.holders:
            flow.arc(self.holder_node[q], self.sink, capacity[q])
        total = sum(supply_left.values())
        if total != sum(capacity.values()):
            raise InconsistentError("unseen cards and hand sizes disagree")
        self._solve(total)

    def _high(self, q: int, face: int) -> int:
        snap = self.snap
        copies = snap.unseen[face]
        if q == KITTY:
            return copies
        suit = snap.ctx.suit_of[face]
        if self.void_bits[q] >> suit & 1:
            return 0
        high = min(copies, snap.hand_sizes[q])
        if snap.no_pairs[q] >> suit & 1:
            high = min(high, 1)
        cap = snap.constraints.caps[q].get(face)
        return high if cap is None else min(high, cap)

    def suit_bounds(self, q: int, suit: int) -> tuple[int, int]:
        """[min, max] cards of effective suit `suit` holder `q` holds."""
        suit_of = self.snap.ctx.suit_of
        return self.group_bounds(q, lambda face: suit_of[face] == suit)


def infer_json(snap: Snapshot) -> dict[str, Any]:
    """The `inference` object of `deal track --tier 2`, keys and lists in the fixed order."""
    inference = Inference(snap)
    ctx = snap.ctx
    order = sorted(inference.faces, key=ctx.sort_key.__getitem__)
    suits = listed_suits(ctx)
    holdings: dict[str, dict[str, list[int]]] = {}
    can_pair: dict[str, list[str]] = {}
    certain: dict[str, list[str]] = {}
    implied: dict[str, list[str]] = {}
    suit_counts: dict[str, dict[str, list[int]]] = {}
    for q in inference.holders:
        name = "kitty" if q == KITTY else str(q)
        ranges = {face: inference.bounds(q, face) for face in order}
        holdings[name] = {str(Card.from_index(f)): list(ranges[f]) for f in order}
        can_pair[name] = [str(Card.from_index(f)) for f in order if ranges[f][1] >= 2]
        certain[name] = [str(Card.from_index(f)) for f in order for _ in range(ranges[f][0])]
        counts = {s: inference.suit_bounds(q, s) for s in suits}
        suit_counts[name] = {SUIT_NAMES[s]: list(counts[s]) for s in suits}
        tier1 = inference.void_bits[q] if q != KITTY else 0
        implied[name] = [SUIT_NAMES[s] for s in suits
                         if counts[s][1] == 0 and not (tier1 >> s & 1)]
    return {"holdings": holdings, "can_hold_pair": can_pair, "certain": certain, "implied_voids": implied,
            "suit_counts": suit_counts}
