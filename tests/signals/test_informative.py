"""training.md §1 for the signal quizzes, over 60 generated deals: per signal question type the best of the
battery of `bench/questions.py` (the no-convention strategies for signals among them, each learned on one
half of the deals and scored on the other) stays under the limit, and no run asks a question twice."""
from __future__ import annotations

import importlib.util
from pathlib import Path

from trainer.drills.sample import sample
from trainer.signals.quiz import QUESTION_TYPES, load_signal_drills

BENCH = Path(__file__).resolve().parents[2] / "bench" / "questions.py"


def battery():
    """The benchmark's module (its strategies and the per-type table)."""
    spec = importlib.util.spec_from_file_location("bench_questions", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_no_strategy_without_the_convention_beats_the_limit_on_any_signal_type() -> None:
    bench = battery()
    lines = list(sample(list(load_signal_drills().values()), 60, 5, 2))
    table = bench.best_by_type(lines)
    assert set(table) == set(QUESTION_TYPES)
    for kind, (asked, k, best, bound, name) in table.items():
        assert asked >= 60, (kind, asked)
        assert best <= bound, f"{kind}: {name} right on {best:.1%} (limit {bound:.1%})"
    assert sum(bench.repeats(lines).values()) == 0
