"""training.md §1 for the flash (闪记) questions, over generated deals: per flash type the best of the battery of
`bench/questions.py` (each strategy learned on one half of the deals and scored on the other, knowing the hand,
the trick number, the type and what the generator usually answers, but not the trick flashed) stays under the
limit, and a common answer (0 trumps, 0 points, no one void) still comes up."""
from __future__ import annotations

import importlib.util
from collections import Counter
from pathlib import Path

import pytest

from trainer.drills.sample import curriculum, sample

BENCH = Path(__file__).resolve().parents[2] / "bench" / "questions.py"
TYPES = {"flash:flash_trumps": "0", "flash:flash_points": "0", "flash:flash_voids": "[]"}
"""The flash rows of the benchmark's table, each with its common answer."""


def battery(monkeypatch: pytest.MonkeyPatch):
    """The benchmark's module (its strategies and the per-type table; its folder on the path for its helpers)."""
    monkeypatch.syspath_prepend(str(BENCH.parent))
    spec = importlib.util.spec_from_file_location("bench_questions", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_no_strategy_without_the_glimpse_beats_the_limit_on_any_flash_type(monkeypatch) -> None:
    bench = battery(monkeypatch)
    assert "flash" not in bench.EXEMPT
    lines = list(sample([curriculum()["flash"]], 120, 7, 2))
    table = bench.best_by_type(lines)
    assert set(table) == set(TYPES)
    for kind, (asked, k, best, bound, name) in table.items():
        assert asked >= 100, (kind, asked)
        assert best <= bound, f"{kind}: {name} right on {best:.1%} (limit {bound:.1%})"
    answers = Counter((bench.kind_of(line), str(line["answer"])) for line in lines)
    for kind, common in TYPES.items():
        assert answers[(kind, common)] > 0, f"{kind}: {common} never asked"


def test_a_flash_question_names_the_trick_it_asks_about_and_a_run_never_asks_one_twice() -> None:
    lines = list(sample([curriculum()["flash"]], 12, 3, 2))
    assert lines
    for line in lines:
        assert line["subject"] == {"trick": int(line["position"].split(".")[0])}
    runs = {(line["deal"], line["run"]) for line in lines}
    for run in runs:
        tricks = [line["subject"]["trick"] for line in lines if (line["deal"], line["run"]) == run]
        assert len(tricks) == len(set(tricks))
