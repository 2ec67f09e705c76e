"""The signal quizzes' pools (training.md §4): for every shipped convention set a shipped pool of at least
200 quiz moments, every quiz kind among them, deals played under the set, made again the same by the code."""
from __future__ import annotations

from collections import Counter

import pytest

from trainer.bots.generate import HANDS_PER_GAME
from trainer.records import parse_record
from trainer.signals.conventions import load_conventions
from trainer.signals.pool import POOL_DEALS, POOL_MOMENTS, player_seed, pool_moments, pool_records, pool_seed, read_pool

SETS = load_conventions()


@pytest.mark.parametrize("name", sorted(SETS))
def test_every_shipped_set_has_a_pool_of_at_least_200_moments_of_every_kind(name: str) -> None:
    records = read_pool(name)
    assert len(records) == POOL_DEALS and len({record.id for record in records}) == POOL_DEALS
    assert {record.data["source"]["signals"]["name"] for record in records} == {name}
    moments = pool_moments(records, SETS[name])
    assert len(moments) >= POOL_MOMENTS >= 200
    kinds = Counter(spot.kind for _deal, spot in moments)
    assert set(kinds) == {"respond", "interpret", "discard", "pass"} and min(kinds.values()) >= 10, kinds


def test_the_shipped_pool_is_what_the_code_makes() -> None:
    """A pool's first game, made again, is the shipped file's first deals (the pool is deterministic)."""
    name = "mid_246JQ"
    made = [parse_record(data) for data in pool_records(SETS[name], HANDS_PER_GAME)]
    assert [record.data for record in made] == [record.data for record in read_pool(name)[:HANDS_PER_GAME]]
    assert made[0].data["source"]["seed"] == pool_seed(name)


def test_pool_seeds_and_player_seeds() -> None:
    assert len({pool_seed(name) for name in SETS}) == len(SETS)
    assert player_seed(1, "basic_89JQ", "signal-replay", 0) == player_seed(1, "basic_89JQ", "signal-replay", 0)
    draws = {player_seed(user, "basic_89JQ", "signal-replay", 0) for user in range(1, 200)}
    assert len(draws) == 199 and all(0 <= seed < 2**31 for seed in draws)
    assert player_seed(1, "basic_89JQ", "signal-replay", 1) != player_seed(1, "basic_89JQ", "signal-replay", 0)
