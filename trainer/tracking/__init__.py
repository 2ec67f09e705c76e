"""Exact card tracking (记牌): what one seat can know at every position of a deal (tracking.md).

`SeatTracker` is the per-seat observer (tier 1, incremental); `recount` recomputes the same facts
from scratch; `infer` adds the tier-2 inference facts by max-flow feasibility.
"""
