"""What a seat's tracker knows at several points of one replay (升级 and 够级 alike)."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

Known = TypeVar("Known")


def snapshots_along(tracker: Any, events: Sequence[Any], counts: Sequence[int],
                    snapshot: Callable[[int], Known]) -> list[Known]:
    """Feed `tracker` the `events` in order and take `snapshot(count)` after each of `counts` (ascending)."""
    found, made = [], 0
    for count in counts:
        for event in events[made:count]:
            tracker.observe(event)
        made = max(made, count)
        found.append(snapshot(count))
    return found
