"""Benchmark: whole deal records verified per second (parsing and the legality of every play included).

The fixed set of deals is made in this run by the seeded random player (`trainer.bots.random`),
so every run measures the same work. Prints the machine-speed yardstick (a fixed Python loop), the
single-process figure for two decks and its figure with one process per core, the single-process
figures for one, three and four decks (with their ratio to two decks), then how long refusing
hostile input takes as it grows tenfold (a card name, JSON nesting, an integer's digits): each
figure should grow about tenfold too, never a hundredfold.

With `--instructions [N]` it times nothing and counts instead, with valgrind's callgrind, the machine
instructions a deal's verification takes, a figure the machine's load does not change: for one, two,
three and four decks of 升级 and for 够级, a small driver process is run under callgrind once verifying
one warm-up deal of every set (the baseline) and once per set verifying N more deals of that set
(default 10); the difference over N is the set's instructions per deal, the interpreter's start, the
imports and the warm-up cancelling out. Then the whole `trainer deal verify` process on one shipped
record (`drills/deals/deal-2026-00000.json`, two decks), start and imports included. The project's
modules are byte-compiled first (as an installed app runs) and every process runs with
`PYTHONHASHSEED=0`, so the same code gives the same count (to within 0.01 %).

    python bench/engine.py [--deals N] [--rounds R]
    python bench/engine.py --instructions [N]
"""
from __future__ import annotations

import argparse
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from trainer.bots.random import random_record
from trainer.engine.errors import JipaiError
from trainer.engine.rules import Rules
from trainer.json_input import read_json
from trainer.records import parse_record, replay, verify_summary


try:
    from bench.gouji import make_deals as make_gouji_deals
    from bench.machine import calibration
except ImportError:  # run as a script: bench/ itself is on sys.path
    from gouji import make_deals as make_gouji_deals
    from machine import calibration

OTHER_PRESETS = ("one-deck", "three-deck", "four-deck")
"""The presets measured beside two decks."""


def make_deals(count: int, seed: int = 2026, preset: str = "standard") -> list[str]:
    """The benchmark's deals as JSON text: `count` complete random-legal records."""
    rules = Rules.parse(preset)
    return [json.dumps(random_record(random.Random(seed + n), rules=rules, throw_rate=0.05)) for n in range(count)]


def verify_all(texts: list[str]) -> int:
    """Verify every record from its text; returns the number of plays checked."""
    plays = 0
    for text in texts:
        summary = verify_summary(replay(parse_record(read_json(text))))
        plays += sum(1 for _ in summary["tricks"]) * 4
    return plays


def best_seconds(sets: dict[str, list[str]], rounds: int) -> dict[str, tuple[float, int]]:
    """For each named set of texts, the best time of `rounds` runs verifying it and the plays checked;
    the sets take turns in every round, so a busy spell of a shared machine hurts them alike."""
    best = {name: (float("inf"), 0) for name in sets}
    for _ in range(rounds):
        for name, texts in sets.items():
            start = time.perf_counter()
            plays = verify_all(texts)
            best[name] = (min(best[name][0], time.perf_counter() - start), plays)
    return best


HOSTILE = {
    "card name": lambda n: json.dumps({"format": "jipai-deal/1", "rules": "standard", "level": "2", "trump": "S",
                                       "banker": 0, "hands": [["A" * n]] * 4}),
    "nesting": lambda n: "[" * n + "]" * n,
    "integer digits": lambda n: "[1" + "0" * n + "]",
}
"""Input that must be refused, made at size n."""


def refusal_seconds(text: str) -> float:
    """The time to read and refuse one hostile record text (best of three)."""
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        try:
            parse_record(read_json(text))
        except JipaiError:
            pass
        else:
            raise AssertionError("hostile input was accepted")
        best = min(best, time.perf_counter() - start)
    return best


ROOT = Path(__file__).resolve().parents[1]
"""The project folder (the drivers run in it, so `bench` and `trainer` import from it)."""
VERIFY_RECORD = "drills/deals/deal-2026-00000.json"
"""The shipped two-deck record the whole `trainer deal verify` process is counted on."""
INSTRUCTION_SETS = {"1 deck": "one-deck", "2 decks": "standard", "3 decks": "three-deck", "4 decks": "four-deck"}
"""The 升级 sets counted per deal, by their deck count and preset (够级 is counted beside them)."""
DRIVER = """
import json, sys
from bench.engine import verify_all
from bench.gouji import verify_all as verify_gouji
sets, extra = json.loads(open(sys.argv[1], encoding="utf-8").read()), json.loads(sys.argv[2])
for name, texts in sets.items():
    (verify_gouji if name == "gouji" else verify_all)(texts[:1 + extra.get(name, 0)])
"""
"""Verifies the first deal of every set in the file, and `extra[name]` more deals of set `name`."""


def instructions(command: list[str]) -> int:
    """The instructions callgrind counts for one run of `command` (a Python process, hash seed fixed)."""
    done = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *command], cwd=ROOT,
                          capture_output=True, text=True, check=True, env={**os.environ, "PYTHONHASHSEED": "0"})
    return int(re.findall(r"Collected : (\d+)", done.stderr)[-1])


def count_instructions(deals: int) -> None:
    """Print the instructions per deal of each set and of a whole `trainer deal verify` process."""
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "trainer"), str(ROOT / "bench")],
                   check=True)
    sets = {preset: make_deals(deals + 1, preset=preset) for preset in INSTRUCTION_SETS.values()}
    sets["gouji"] = make_gouji_deals(deals + 1)
    with tempfile.NamedTemporaryFile("w", suffix=".json", encoding="utf-8", delete=False) as file:
        json.dump(sets, file, ensure_ascii=False)
    try:
        driver = [sys.executable, "-c", DRIVER, file.name]
        baseline = instructions([*driver, "{}"])
        print(f"instructions (callgrind), {deals} deals per set after one warm-up deal of each; "
              f"baseline process {baseline / 1e6:,.1f} M")
        print(f"  {'game':8} {'set':10} {'per deal':>12}")
        labels = {**{preset: ("升级", label) for label, preset in INSTRUCTION_SETS.items()}, "gouji": ("够级", "6 seats")}
        for name, (game, label) in labels.items():
            total = instructions([*driver, json.dumps({name: deals})]) - baseline
            print(f"  {game:6} {label:10} {total / deals / 1e6:10.2f} M")
    finally:
        os.unlink(file.name)
    whole = instructions([sys.executable, "-m", "trainer", "deal", "verify", VERIFY_RECORD])
    print(f"whole process `trainer deal verify {VERIFY_RECORD}`: {whole / 1e6:,.1f} M instructions")


def main() -> None:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--instructions", type=int, nargs="?", const=10, metavar="N",
                        help="count instructions with callgrind over N deals per set (default 10) instead of timing")
    args = parser.parse_args()
    if args.instructions is not None:
        count_instructions(args.instructions)
        return
    print(f"calibration: a fixed Python loop takes {calibration():.0f} ms here now")
    texts = make_deals(args.deals)
    sets = {"standard": texts, **{preset: make_deals(max(1, args.deals // 4), preset=preset)
                                  for preset in OTHER_PRESETS}}
    best = best_seconds(sets, args.rounds)
    workers = os.cpu_count() or 1
    chunks = [texts[i::workers] for i in range(workers)]
    with ProcessPoolExecutor(workers) as pool:
        list(pool.map(verify_all, chunks))
        start = time.perf_counter()
        list(pool.map(verify_all, chunks))
        parallel = time.perf_counter() - start
    seconds, plays = best["standard"]
    two_decks = len(texts) / seconds
    print(f"deals: {len(texts)} random-legal records, {plays} plays")
    print(f"verify, 1 process: {two_decks:,.0f} deals/s ({plays / seconds:,.0f} plays/s, best of {args.rounds})")
    print(f"verify, {workers} processes: {len(texts) / parallel:,.0f} deals/s")
    for preset in OTHER_PRESETS:
        seconds, plays = best[preset]
        rate = len(sets[preset]) / seconds
        print(f"verify {preset}, 1 process: {rate:,.0f} deals/s ({plays / seconds:,.0f} plays/s, "
              f"{rate / two_decks:.0%} of two decks; the presets take turns in each round)")
    for name, make in HOSTILE.items():
        times = ", ".join(f"{n:,}: {refusal_seconds(make(n)) * 1000:.2f} ms" for n in (10_000, 100_000, 1_000_000))
        print(f"refusing a hostile {name} of size {times}")


if __name__ == "__main__":
    main()
