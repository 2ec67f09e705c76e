"""`Memo`: what an app process remembers of things that never change once made (bounded, thread-safe)."""
from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class Memo(Generic[K, V]):
    """A map of at most `size` items that drops the least recently used first; safe across threads.

    >>> memo: Memo[str, int] = Memo(2)
    >>> memo.put("a", 1); memo.put("b", 2); memo.get("a"); memo.put("c", 3)
    1
    >>> memo.get("b") is None, memo.get("a"), memo.get("c")
    (True, 1, 3)
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        """The item at `key` (now the most recently used), or None."""
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
            return found

    def put(self, key: K, value: V) -> None:
        """Remember `value` at `key`, dropping the least recently used items beyond `size`."""
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def get_or_make(self, key: K, make: Callable[[], V]) -> V:
        """The item at `key`, made by `make()` and remembered when missing (`make` runs outside the
        lock: two threads missing at once may both make it, and the later one is kept)."""
        found = self.get(key)
        if found is None:
            found = make()
            self.put(key, found)
        return found

    def pop(self, key: K) -> None:
        """Forget the item at `key`, if any."""
        with self._lock:
            self._items.pop(key, None)

    def __len__(self) -> int:
        """How many items are remembered."""
        return len(self._items)
