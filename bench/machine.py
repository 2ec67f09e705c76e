"""The machine-speed yardstick every benchmark prints beside its figures (the machine is shared)."""
from __future__ import annotations

import time


def calibration() -> float:
    """How long a fixed pure-Python loop takes on this machine now, in ms (the best of three)."""
    best = float("inf")
    for _ in range(3):
        began = time.perf_counter()
        total = 0
        for number in range(1_000_000):
            total += number * number
        best = min(best, time.perf_counter() - began)
    return 1000 * best
