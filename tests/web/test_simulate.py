"""`trainer daily simulate` (training.md §6): the web app's daily sessions played by a simulated player on a frozen
clock, the numbers issue 23 asks for as assertions on shorter runs, determinism, and the argument checks."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from trainer.cli import main
from trainer.drills.daily import split_skill
from trainer.drills.families import family_of
from trainer.web.simulate import Player, simulate

DEALS = Path(__file__).parents[2] / "drills" / "deals"
KEYS = {"day", "questions", "watch_seconds", "answer_seconds", "deals", "by_family", "by_skill", "new_skills",
        "mistakes_made", "mistakes_due", "mistakes_reviewed", "mistakes_overdue", "streak", "pace"}


@pytest.fixture(scope="module")
def deals(tmp_path_factory) -> Path:
    """Ten shipped standard deals: a small library, quick to load."""
    folder = tmp_path_factory.mktemp("deals")
    for path in sorted(DEALS.glob("deal-2026-*.json"))[:10]:
        shutil.copy(path, folder / path.name)
    return folder


def test_a_new_players_week_meets_the_numbers(deals) -> None:
    lines = list(simulate(7, Player(), 3, deals))
    days, summary = lines[:-1], lines[-1]["summary"]
    assert [set(day) for day in days] == [KEYS] * 7 and [day["day"] for day in days] == list(range(1, 8))
    first = days[0]
    assert first["questions"] >= 25 and len(first["by_family"]) >= 4 and first["new_skills"] >= 4
    assert first["questions"] / first["deals"] >= 2.5
    assert first["watch_seconds"] + first["answer_seconds"] >= 600  # the budget counts watching too
    assert first["answer_seconds"] == 5 * first["questions"]
    for day in days:
        assert max(day["by_skill"].values()) <= 0.25 * day["questions"]
        assert day["mistakes_overdue"] == 0 and day["streak"] == day["day"]
        assert sum(day["by_family"].values()) == sum(day["by_skill"].values()) == day["questions"]
        for skill, count in day["by_skill"].items():
            assert count <= day["by_family"][family_of(split_skill(skill)[0])]
    assert days[1]["mistakes_due"] == first["mistakes_made"] == days[1]["mistakes_reviewed"]
    assert summary == {"days": 7, "questions": sum(d["questions"] for d in days),
                       "by_family": summary["by_family"], "mistakes_made": sum(d["mistakes_made"] for d in days),
                       "mistakes_reviewed": sum(d["mistakes_reviewed"] for d in days), "mistakes_overdue": 0}


def test_a_weak_family_gets_more_practice(deals) -> None:
    player = Player(family_accuracy={"voids": 0.4, "trumps": 0.95})
    days = list(simulate(7, player, 3, deals))[:-1]
    voids = sum(day["by_family"].get("voids", 0) for day in days[3:])
    trumps = sum(day["by_family"].get("trumps", 0) for day in days[3:])
    assert voids >= 2 * trumps


def test_the_same_arguments_give_the_same_days(deals) -> None:
    player = Player(minutes=5, answer_seconds=8, accuracy=0.6)
    first = list(simulate(2, player, 11, deals))
    assert first == list(simulate(2, player, 11, deals))
    assert first != list(simulate(2, player, 12, deals))


@pytest.mark.parametrize(("argv", "reason"), [
    (["--days", "0"], "--days: must be a whole number from 1"),
    (["--minutes", "ten"], "--minutes: must be a whole number"),
    (["--answer-seconds", "-1"], "--answer-seconds: must be a number from 0 to 600"),
    (["--accuracy", "1.2"], "--accuracy: must be a number from 0 to 1"),
    (["--skill-accuracy", "colours=0.5"], "FAMILY one of trumps"),
    (["--skill-accuracy", "voids"], "must be FAMILY=P"),
    (["--skill-accuracy", "voids=0.5", "--skill-accuracy", "voids=0.2"], "voids given twice"),
])
def test_bad_arguments_exit_2_with_the_reason(argv, reason, capsys) -> None:
    with pytest.raises(SystemExit) as stopped:
        status = main(["daily", "simulate", *argv])
        raise SystemExit(status)
    assert stopped.value.code == 2 and reason in capsys.readouterr().err


def test_the_command_prints_a_line_a_day_and_the_summary(deals, monkeypatch, capsys) -> None:
    import trainer.web.simulate as module

    shipped = module.simulate
    monkeypatch.setattr(module, "simulate", lambda days, player, seed: shipped(days, player, seed, deals))
    assert main(["daily", "simulate", "--days", "1", "--minutes", "5", "--skill-accuracy", "voids=0"]) == 0
    day, summary = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert set(day) == KEYS and day["day"] == 1 and summary["summary"]["days"] == 1
    assert day["mistakes_made"] >= day["by_family"].get("voids", 0)  # every voids answer wrong: a mistake each
