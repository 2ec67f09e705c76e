"""够级 tier 2 (gouji.md §6): exact [min, max] of each rank every other seat can hold, by max-flow.

The unseen cards by rank go to the seats q ≠ v (a transportation problem, solved by the same
`Transport` as the 升级 inference), each cell bounded by what is certain: hand sizes; with 憋3 a 3 in
every hand still in play and only 3s in a 闷 hand; cards received in 买3 and not played since; a buyer
holds exactly one 3 and, served by an opponent, none of what it could have paid instead; a natural
opener holds fewer than t(r) of each 够级 rank. Burn feasibility and 买3 priority are not used.
"""
from __future__ import annotations

from collections import Counter
from typing import Any

from trainer.gouji.plays import BIG, SMALL, THREE, THRESHOLDS, TWO, VALUE_NAMES, VALUE_OF, VALUES_HIGH_TO_LOW
from trainer.gouji.tracker import GOUJI_RANKS, GoujiSnapshot
from trainer.tracking.inference import Transport

FORBIDDEN_BY_PAYMENT = {TWO: (), SMALL: (TWO,), BIG: (TWO, SMALL), None: (TWO, SMALL, BIG)}
"""What a buyer served by an opponent cannot hold, by what it paid (it paid the first of 2, SJ, BJ it had)."""


def cell_limits(snap: GoujiSnapshot) -> dict[int, dict[int, tuple[int, int]]]:
    """For each seat q ≠ v, each value's (low, high) from the §6 constraints alone (before the flow)."""
    rules = snap.rules
    view = snap.view
    received: list[Counter[int]] = [Counter() for _ in range(rules.players)]
    buyers = {}
    for exchange in snap.exchanges:
        received[exchange.buyer][exchange.card.index] += 1
        if exchange.paid is not None:
            received[exchange.seller][exchange.paid.index] += 1
        if rules.team(exchange.seller) != rules.team(exchange.buyer):
            buyers[exchange.buyer] = FORBIDDEN_BY_PAYMENT[VALUE_OF[exchange.paid.index] if exchange.paid else None]
        else:
            buyers.setdefault(exchange.buyer, ())
    played_faces: list[Counter[int]] = [Counter() for _ in range(rules.players)]
    for play in snap.plays:
        played_faces[play.seat].update(card.index for card in play.cards)
    limits = {}
    for q in range(rules.players):
        if q == snap.seat:
            continue
        size = snap.hand_sizes[q]
        out = view.out[q]
        low = dict.fromkeys(VALUES_HIGH_TO_LOW, 0)
        high = {v: min(snap.unseen[v], size) for v in VALUES_HIGH_TO_LOW}
        for face, copies in received[q].items():
            still = copies - played_faces[q][face]
            if still > 0:
                low[VALUE_OF[face]] += still
        if out is not None and out.how == "men":
            high = {v: (h if v == THREE else 0) for v, h in high.items()}
        if rules.biesan and out is None:
            low[THREE] = max(low[THREE], 1)
            if q in buyers:
                high[THREE] = min(high[THREE], 1)
                for value in buyers[q]:
                    high[value] = 0
        if snap.natural >> q & 1:
            for value in GOUJI_RANKS:
                high[value] = min(high[value], max(0, THRESHOLDS[value] - 1 - snap.shown[q][value]))
        limits[q] = {v: (low[v], high[v]) for v in VALUES_HIGH_TO_LOW}
    return limits


class GoujiInference(Transport):
    """The consistent distributions of one snapshot's unseen cards by rank, as a solved flow network."""

    def __init__(self, snap: GoujiSnapshot) -> None:
        self.snap = snap
        self.limits = cell_limits(snap)
        self.holders = list(self.limits)
        self.values = [v for v in VALUES_HIGH_TO_LOW if snap.unseen[v]]
        self._network(self.limits, self.values, snap.unseen, {q: snap.hand_sizes[q] for q in self.holders},
                      VALUE_NAMES.__getitem__)

    def rank_bounds(self, q: int, value: int) -> tuple[int, int]:
        """[min, max] cards of `value` seat q holds ([0, 0] when none is unseen)."""
        if (q, value) not in self.cells:
            return 0, 0
        return self.group_bounds(q, value.__eq__)


def infer_json(snap: GoujiSnapshot) -> dict[str, Any]:
    """The `inference` object of `deal track --tier 2` on a Gouji record, keys and lists in the fixed order."""
    inference = GoujiInference(snap)
    holdings: dict[str, dict[str, list[int]]] = {}
    certain: dict[str, list[str]] = {}
    jokers: dict[str, list[int]] = {}
    twos: dict[str, list[int]] = {}
    can_hold: dict[str, list[str]] = {}
    for q in inference.holders:
        name = str(q)
        ranges = {value: inference.rank_bounds(q, value) for value in VALUES_HIGH_TO_LOW}
        holdings[name] = {VALUE_NAMES[v]: list(ranges[v]) for v in VALUES_HIGH_TO_LOW}
        certain[name] = [VALUE_NAMES[v] for v in VALUES_HIGH_TO_LOW for _ in range(ranges[v][0])]
        jokers[name] = list(inference.group_bounds(q, lambda value: value >= SMALL))
        twos[name] = list(ranges[TWO])
        can_hold[name] = [VALUE_NAMES[v] for v in GOUJI_RANKS if ranges[v][1] >= THRESHOLDS[v]]
    return {"holdings": holdings, "certain": certain, "jokers": jokers, "twos": twos, "can_hold_set": can_hold}
