"""Suite-wide setup: Hypothesis under `filterwarnings = error`, and a helper to look inside objects."""
from __future__ import annotations

import warnings
from collections.abc import Callable

import pytest

with warnings.catch_warnings():
    # Hypothesis imports libcst (when installed) to write its failure patches; that import raises a
    # DeprecationWarning, which `filterwarnings = error` would turn into an INTERNALERROR hiding the
    # falsifying example. Importing it once here, quietly, avoids that.
    warnings.simplefilter("ignore", DeprecationWarning)
    try:
        import libcst  # noqa: F401
    except ImportError:
        pass


def _reachable(root: object) -> list[object]:
    """Every object reachable from `root` through attributes, slots and containers."""
    seen, stack, found = set(), [root], []
    while stack:
        item = stack.pop()
        if id(item) in seen or isinstance(item, (int, str, bool, float, type(None))):
            continue
        seen.add(id(item))
        found.append(item)
        if isinstance(item, dict):
            stack.extend(list(item.keys()) + list(item.values()))
        elif isinstance(item, (list, tuple, set, frozenset)):
            stack.extend(item)
        elif hasattr(item, "__dict__"):
            stack.extend(vars(item).values())
        elif hasattr(item, "__slots__"):
            stack.extend(getattr(item, name) for name in item.__slots__ if hasattr(item, name))
    return found


@pytest.fixture
def reachable() -> Callable[[object], list[object]]:
    """What an object can reach: the test of "cannot peek by construction"."""
    return _reachable
