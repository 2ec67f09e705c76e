"""够级 deal generation: six bots play games hand by hand; the same seed gives byte-identical records.

Deals are grouped into games of `HANDS_PER_GAME` hands: the first hand's leader is drawn (as where a
competition draws cards for it, gouji.md §2.3), each later hand records the one before as `previous` and
is led by the §2.3 leader (the previous 大落, or the next seat with `next_hand_leader = rotate`). Each game
is seeded by (seed, game number) alone, so games can be played in parallel processes and the output does
not depend on how many were used.
"""
from __future__ import annotations

import random
from typing import Any

from trainer.bots.generate import play_games
from trainer.gouji.bots import BOTS, record_hand
from trainer.gouji.rules import GoujiRules

HANDS_PER_GAME = 6


def next_leader(rules: GoujiRules, leader: int, places: list[int]) -> int:
    """The first leader of the next hand (gouji.md §2.3): the 大落, or the seat after this hand's leader."""
    return places[-1] if rules.next_hand_leader == "da_luo" else (leader + 1) % rules.players


def play_game(rules: GoujiRules, seed: int, game: int, hands: int, bots: str) -> list[dict[str, Any]]:
    """The first `hands` hands of game number `game`, every seat played by a `bots` bot."""
    rng = random.Random(f"jipai-gouji:{seed}:{game}")
    leader = rng.randrange(rules.players)
    previous = None
    records = []
    for hand in range(hands):
        record, state = record_hand(rng, rules, [bots] * rules.players, leader)
        if previous is not None:
            record["previous"] = previous
        record["source"] = {"kind": "generated", "generator": f"jipai {bots} bots", "seed": seed,
                            "game": game, "hand": hand}
        records.append(record)
        places = [seat for seat in state.places if seat is not None]
        previous = {"leader": leader, "places": places}
        leader = next_leader(rules, leader, places)
    return records


def _game_chunk(args: tuple[GoujiRules, int, int, int, str]) -> list[dict[str, Any]]:
    return play_game(*args)


def generate_gouji_records(rules: GoujiRules, seed: int, count: int, bots: str = "heuristic",
                           jobs: int = 1) -> list[dict[str, Any]]:
    """`count` complete Gouji `jipai-deal/1` records played by `bots`, deterministic in `seed`."""
    if bots not in BOTS:
        raise ValueError(f"unknown bots {bots!r} (known: {', '.join(BOTS)})")
    tasks = [(rules, seed, game, min(HANDS_PER_GAME, count - game * HANDS_PER_GAME), bots)
             for game in range((count + HANDS_PER_GAME - 1) // HANDS_PER_GAME)]
    return play_games(_game_chunk, tasks, jobs)
