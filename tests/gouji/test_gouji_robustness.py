"""Broken Gouji records and referee lines are answered in words: only the engine's errors ever leave."""
from __future__ import annotations

import copy
import json
import random
from collections.abc import Iterator
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from trainer.engine.errors import JipaiError
from trainer.gouji.randomplay import random_record
from trainer.gouji.records import parse_gouji_record, replay, verify_summary
from trainer.gouji.referee import GOUJI_OPS
from trainer.referee import serve_lines

BASE = random_record(random.Random(11), stop_after=60)
scalars = (st.none() | st.booleans() | st.integers(-10, 10) | st.text(max_size=6)
           | st.sampled_from(["pass", "yield", "BJ", "3S", "KS", "last", "threes", "gouji", "standard"]))
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6),
                                                                                           inner, max_size=3),
                      max_leaves=8)


def paths(value: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every place inside a JSON value."""
    yield prefix
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        yield from paths(item, (*prefix, key))


ALL_PATHS = [path for path in paths(BASE) if path]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(ALL_PATHS), values, st.booleans())
def test_a_mutated_record_verifies_or_is_refused_in_words(path: tuple[Any, ...], value: Any, delete: bool) -> None:
    data = copy.deepcopy(BASE)
    parent = data
    for key in path[:-1]:
        parent = parent[key]
    if delete and isinstance(parent, dict):
        del parent[path[-1]]
    else:
        parent[path[-1]] = value
    try:
        json.dumps(verify_summary(replay(parse_gouji_record(data))))
    except JipaiError as error:
        assert str(error) and "\n" not in str(error)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(sorted(GOUJI_OPS)), st.dictionaries(st.sampled_from(
    ["cards", "top", "play", "hand", "role", "passed", "head", "active", "burn_run", "leader", "actions", "out",
     "events", "hands", "places", "opened", "burns", "men", "two_kill_one", "rules"]), values, max_size=5))
def test_any_gouji_request_gets_one_answer(op: str, fields: dict[str, Any]) -> None:
    line = json.dumps({"game": "gouji", "op": op, **fields})
    replies = list(serve_lines([line]))
    assert len(replies) == 1
    assert "the referee failed" not in replies[0]
