"""Deal generation: bots play whole games hand by hand; the same seed gives byte-identical records.

Deals are grouped into games of `HANDS_PER_GAME` hands (the first hand's banker is the first
declarer, later hands follow the level change and the next-banker rule). Each game is seeded by
(seed, game number) alone, so games can be played in parallel processes and the output does not
depend on how many processes were used.
"""
from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from trainer.bots.play import BOTS, play_hand
from trainer.engine.rules import Rules
from trainer.signals.conventions import Convention

BOT_KINDS = tuple(BOTS)
HANDS_PER_GAME = 8
TOP_LEVEL = 14


def play_game(rules: Rules, seed: int, game: int, hands: int, bots: str, signals: Convention | None = None,
              signalling_side: str | None = None) -> list[dict[str, Any]]:
    """The first `hands` hands of game number `game` (a new game starts when a side passes A); with
    `signals`, the heuristic bots follow that convention set and each record says so in `source`."""
    rng = random.Random(f"jipai:{seed}:{game}")
    levels = [2, 2]
    banker: int | None = None
    records = []
    for hand in range(hands):
        level = levels[banker % 2] if banker is not None else 2
        record, result = play_hand(rng, rules, level, banker, [bots] * 4, hand % 4, signals, signalling_side)
        record["source"] = {"kind": "generated", "generator": f"jipai {bots} bots", "seed": seed,
                            "game": game, "hand": hand}
        if signals is not None and bots == "heuristic":
            record["source"]["signals"] = signals.to_json() | (
                {"side": signalling_side} if signalling_side is not None else {})
        records.append(record)
        banker = record["banker"]
        team = banker % 2 if result.side == "banker" else (banker + 1) % 2
        levels[team] += result.levels
        banker = result.next_banker
        if max(levels) > TOP_LEVEL:
            levels, banker = [2, 2], None
    return records


def _game_chunk(args: tuple[Rules, int, int, int, str, Convention | None, str | None]) -> list[dict[str, Any]]:
    return play_game(*args)


def generate_records(rules: Rules, seed: int, count: int, bots: str = "heuristic", jobs: int = 1,
                     signals: Convention | None = None, signalling_side: str | None = None) -> list[dict[str, Any]]:
    """`count` complete `jipai-deal/1` records played by `bots`, deterministic in `seed`; heuristic bots
    follow the convention set `signals` when given (signals.md)."""
    if bots not in BOT_KINDS:
        raise ValueError(f"unknown bots {bots!r} (known: {', '.join(BOT_KINDS)})")
    tasks = [(rules, seed, game, min(HANDS_PER_GAME, count - game * HANDS_PER_GAME), bots, signals, signalling_side)
             for game in range((count + HANDS_PER_GAME - 1) // HANDS_PER_GAME)]
    return play_games(_game_chunk, tasks, jobs)


def play_games(play: Callable[[Any], list[dict[str, Any]]], tasks: Sequence[Any], jobs: int) -> list[dict[str, Any]]:
    """The records of every game, `play(task)` for each task in order, in up to `jobs` processes (`play`
    must be a module-level function); the order never depends on `jobs`."""
    if jobs > 1 and len(tasks) > 1:
        with ProcessPoolExecutor(min(jobs, len(tasks))) as pool:
            games = list(pool.map(play, tasks))
    else:
        games = [play(task) for task in tasks]
    return [record for game in games for record in game]


def record_text(record: dict[str, Any]) -> str:
    """A record as the text of its file (stable, so the same seed gives the same bytes)."""
    return json.dumps(record, ensure_ascii=False, indent=1) + "\n"


def write_records(records: list[dict[str, Any]], out: Path, seed: int) -> Iterator[Path]:
    """Write one file per record into `out`, named by seed and number; yields the paths."""
    out.mkdir(parents=True, exist_ok=True)
    for number, record in enumerate(records):
        path = out / f"deal-{seed}-{number:05d}.json"
        path.write_text(record_text(record), encoding="utf-8")
        yield path
