"""The signal quizzes draw from the shipped pool of their convention set per player (training.md §4): two new
players' first runs differ, one player's draws come back the same on another database, and each run is
on a pool deal played under the player's set."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from trainer.signals.pool import pool_path
from trainer.web.models import Deal

from .conftest import Accounts
from .drilling import run_row, session, start

DRILLS = ("signal-replay", "signal-interpret", "signal-respond", "signal-legal")


@pytest.fixture(scope="module")
def pool_starter(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A starter library of basic_89JQ's shipped pool alone."""
    folder = tmp_path_factory.mktemp("signal-pool")
    shutil.copy(pool_path("basic_89JQ"), folder / pool_path("basic_89JQ").name)
    return folder


def first_runs(app, username: str) -> list[tuple[str, int, list[int], int]]:
    """A new player's first run of each of `DRILLS`: (deal id, seat, checkpoints, seed)."""
    client = app.test_client()
    Accounts(client).sign_up(username)
    found = []
    for drill_id in DRILLS:
        run = run_row(app, start(client, drill_id))
        with session(app) as db:
            deal = db.get(Deal, run.deal_pk)
            assert deal.record["source"]["signals"]["name"] == "basic_89JQ" and deal.owner_id is None
            found.append((deal.id, run.seat, list(run.checkpoints), run.seed))
    return found


def test_two_new_players_meet_other_draws_and_one_players_draws_come_back(make_app, pool_starter: Path,
                                                                        tmp_path: Path) -> None:
    def app_on(name: str):
        return make_app(STARTER_DEALS_DIR=str(pool_starter), DATABASE_URL=f"sqlite:///{tmp_path / name}")

    first = app_on("first.sqlite")
    alice, bob = first_runs(first, "alice"), first_runs(first, "bob")
    assert [run[0] for run in alice] != [run[0] for run in bob]
    assert all(a != b for a, b in zip(alice, bob, strict=True)), "every first run differs"
    assert len({run[0] for run in alice}) == len(DRILLS), "a player's next run takes a deal not drilled yet"
    again = first_runs(app_on("second.sqlite"), "alice")  # the same player (user 1) on another database
    assert again == alice
