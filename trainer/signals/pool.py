"""The signal quizzes' pool of moments (training.md §4 "Signal quizzes"): per convention set, `POOL_DEALS`
deals the heuristic bots play under it, from a seed fixed by the set's name, so the same code always makes
the same pool; each deal's quiz spots (`quiz.spots`) are its moments, at least `POOL_MOMENTS` per set.

The pools are made at build time and shipped with the starter library, one file per set
(`drills/deals/signal-pool-<set>.json.xz`, a JSON array of records, which the starter load reads like the
other shipped libraries); `python -m trainer.signals.pool [--set NAME]...` writes them again. A player's draw
from a pool is seeded by the player (`player_seed`), so two players walk it in different orders and one
player's draws are the same every time.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import lzma
from pathlib import Path
from typing import Any

from trainer.bots.generate import generate_records
from trainer.drills.definitions import DRILLS_DIR
from trainer.engine.rules import Rules
from trainer.records import DealRecord, parse_record
from trainer.signals.conventions import Convention, load_conventions
from trainer.signals.quiz import Spot, spots

POOL_DEALS = 48
"""Deals per convention set (about 6 quiz moments each)."""
POOL_MOMENTS = 200
"""The fewest quiz moments a set's pool holds (training.md §4)."""
POOL_DIR = DRILLS_DIR / "deals"
"""Where the pools are shipped: with the starter library."""


def _digest(*parts: object) -> int:
    """31 bits of SHA-256 over `parts`, joined by colons."""
    return int.from_bytes(hashlib.sha256(":".join(map(str, parts)).encode()).digest()[:4], "big") >> 1


def pool_seed(name: str) -> int:
    """The seed of a set's pool deals: fixed by the set's name (adding a set moves no other pool), six
    digits from 900000 on, apart from the other shipped libraries' seeds."""
    return 900_000 + _digest("signal-pool", name) % 100_000


def player_seed(user_id: int, *parts: object) -> int:
    """A player's own seed for a draw (`parts` say which: the set, the drill, how many runs before): the
    same for the same player every time, another for another player."""
    return _digest("player", user_id, *parts)


def pool_records(convention: Convention, count: int = POOL_DEALS, jobs: int = 1) -> list[dict[str, Any]]:
    """The pool deals of a set: `count` deals the bots play under it from `pool_seed` (a shorter pool is a
    prefix of a longer one, game by game)."""
    return generate_records(Rules(), pool_seed(convention.name), count, jobs=jobs, signals=convention)


def pool_path(name: str, folder: Path = POOL_DIR) -> Path:
    """The shipped pool file of the set `name`."""
    return folder / f"signal-pool-{name}.json.xz"


def read_pool(name: str, folder: Path = POOL_DIR) -> list[DealRecord]:
    """The shipped pool deals of the set `name`."""
    return [parse_record(data) for data in json.loads(lzma.decompress(pool_path(name, folder).read_bytes()))]


def pool_moments(records: list[DealRecord], convention: Convention) -> list[tuple[str, Spot]]:
    """The pool's moments: every quiz spot of its deals under the set, with its deal's id, in deal order."""
    return [(record.id, spot) for record in records for spot in spots(record, convention)]


def write_pool(convention: Convention, folder: Path = POOL_DIR, jobs: int = 1) -> Path:
    """Make a set's pool and write its file (the same bytes for the same code)."""
    path = pool_path(convention.name, folder)
    text = json.dumps(pool_records(convention, jobs=jobs), ensure_ascii=False, separators=(",", ":"))
    path.write_bytes(lzma.compress(text.encode(), preset=9))
    return path


def main() -> None:
    """Write the pool file of each set named (default: every shipped set)."""
    parser = argparse.ArgumentParser(description="Write the signal quizzes' pools of moments.")
    parser.add_argument("--set", action="append", default=[], help="a convention set (default: every one)")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    sets = load_conventions()
    for name in args.set or sorted(sets):
        path = write_pool(sets[name], jobs=args.jobs)
        print(f"{name}: {POOL_DEALS} deals, {len(pool_moments(read_pool(name), sets[name]))} moments -> {path}")


if __name__ == "__main__":
    main()
