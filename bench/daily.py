"""Benchmark: the daily training's pages for a heavy player, and choosing the next position.

Builds a temporary SQLite instance (or a fresh schema of `--database-url`'s PostgreSQL) with the
shipped starter library copied up to `--deals` complete deals (10,000 by default: each shipped
record stored again under other ids), and `--users` players (3 by default) with `--attempts`
answers each (20,000: a year of daily practice at reveal paces of 1–6 cards a second, a fifth of them wrong
and so mistake cards, their
practice days, skills with FSRS cards, a year of daily sessions). Then, in the app's process (server time, no network):

- `GET /today` and `GET /stats` for the first player, `--requests` times each: p50 and p95
  (target p95 ≤ 50 ms);
- choosing the next fresh position near a rating over the whole library: the selection
  (`nearest_positions`: candidate deals and their positions' ratings, target p95 ≤ 20 ms), and the
  whole `choose_position` with the tracker's check that the question is informative (the deal cache
  cold: parsing the deal dominates, and the run page then finds it parsed);
- the plan of every SQL statement the two pages (and the home page) run (EXPLAIN QUERY PLAN /
  EXPLAIN; on PostgreSQL with sequential scans off, so that the plan shows the index a query can
  use — on tables of a few pages the planner rightly prefers reading them whole), and whether a
  table holding other players' rows is read whole.

    .venv/bin/python bench/daily.py [--deals 10000] [--users 3] [--attempts 20000] [--requests 200]
                                    [--database-url URL]
"""
from __future__ import annotations

import argparse
import json
import lzma
import random
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import sqlalchemy as sa

sys.path.insert(0, str(Path(__file__).resolve().parent))
from web import database, percentile  # noqa: E402  (bench/web.py)

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = ROOT / "drills" / "deals" / "library-standard.json.xz"
PER_USER_TABLES = ("attempts", "practice_days", "user_skills", "drill_runs", "daily_sessions")


def make_app(url: str, instance: Path) -> Any:
    """The app on `url`, with an empty starter library (the bench stores its own deals)."""
    from trainer.web import create_app

    empty = instance / "no-starter"
    empty.mkdir(parents=True, exist_ok=True)
    return create_app({"INSTANCE_PATH": str(instance), "DATABASE_URL": url, "SECRET_KEY": "bench",
                       "STARTER_DEALS_DIR": str(empty), "STARTER_GENERATE_COUNT": 0, "WTF_CSRF_ENABLED": False,
                       "RATELIMIT_ENABLED": False, "PASSWORD_HASH_METHOD": "pbkdf2:sha256:1000",
                       "LIBRARY_LOAD": "sync"})


def store_deals(app: Any, count: int) -> list[int]:
    """`count` complete standard deals in the shared library (the shipped ones, stored again under
    new ids until there are enough); their keys."""
    from trainer.web.library import check_record, deal_row

    records = json.loads(lzma.decompress(SHIPPED.read_bytes()))
    template = [deal_row(check_record(record), None) for record in records]
    rows = []
    for index in range(count):
        deal = template[index % len(template)]
        rows.append({"id": f"{deal.id[:40]}-{index}", "owner_id": None, "record": deal.record, "rules": deal.rules,
                     "custom_rules": False, "level": deal.level, "trump": deal.trump, "banker": deal.banker,
                     "complete": True, "tricks": deal.tricks, "attackers_score": deal.attackers_score,
                     "source_kind": deal.source_kind, "created": datetime.now(UTC), "hidden": False})
    engine = app.extensions["jipai_engine"]
    from trainer.web.models import Deal

    with engine.begin() as connection:
        for start in range(0, len(rows), 1000):
            connection.execute(sa.insert(Deal), rows[start:start + 1000])
        return list(connection.execute(sa.select(Deal.pk).order_by(Deal.pk)).scalars())


def store_player(app: Any, name: str, attempts: int, deals: list[int], rng: random.Random) -> int:
    """A player with `attempts` answers over the last year (runs of ten, a fifth wrong and so mistake
    cards, most due later), the practice days and the skills they make; the user's id."""
    from fsrs import Card, Rating
    from werkzeug.security import generate_password_hash

    from trainer.drills.daily import OVERALL, all_skills, scheduler
    from trainer.web.models import Attempt, DailySession, DrillRun, PracticeDay, User, UserSkill, name_key

    engine, now = app.extensions["jipai_engine"], datetime.now(UTC)
    skills = all_skills()
    with engine.begin() as connection:
        user_id = connection.execute(sa.insert(User).returning(User.id), {
            "username": name, "name_key": name_key(name), "created": now,
            "password_hash": generate_password_hash("correct horse", "pbkdf2:sha256:1000"),
            "session_token": f"token-{name}", "failed_logins": 0}).scalar_one()
        runs = []
        for index in range(attempts // 10):
            runs.append({"user_id": user_id, "drill_id": "daily", "deal_pk": rng.choice(deals),
                         "seat": rng.randrange(4),
                         "seed": index, "checkpoints": [40], "cursor": 40, "status": "done",
                         "started": now - timedelta(days=365 * (1 - index / (attempts // 10)))})
        run_ids = [connection.execute(sa.insert(DrillRun).returning(DrillRun.id), runs[i]).scalar_one()
                   for i in range(len(runs))]
        question = {"type": "trumps_unseen", "kind": "number", "prompt": {"zh": "外面还有几张主？",
                    "en": "How many trumps are still out?"}, "answer": 7, "fact": "trumps.unseen", "suit": None,
                    "card": None, "options": []}
        fsrs, again = scheduler(), None
        rows, days = [], {}
        for index in range(attempts):
            run = runs[index // 10]
            created = run["started"] + timedelta(seconds=30 * (index % 10))
            skill = rng.choice(skills)
            right = rng.random() > 0.2
            card = due = None
            if not right:
                again, _log = fsrs.review_card(Card(), Rating.Again, created)
                card, due = again.to_dict(), again.due + timedelta(days=rng.randrange(0, 60))
            rows.append({"run_id": run_ids[index // 10], "user_id": user_id, "checkpoint": index % 10,
                         "question": question, "question_type": skill.split(":")[0], "suit": rng.choice("SHCD"),
                         "expected": 7, "given": 7 if right else 8, "correct": right, "ms": rng.randrange(2000, 30000),
                         "position": "10.4", "seat": run["seat"], "deal_pk": run["deal_pk"], "created": created,
                         "skill": skill, "rating_before": 1500.0, "rating_after": 1500.0, "fsrs_rating": 3,
                         "card": card, "due": due, "learned": None, "pace": rng.choice((1.0, 2.0, 3.0, 4.0, 6.0)),
                         "cause": None if right else rng.choice(["ruff", "kitty", "level", "jokers", "pair", "other"])})
            for key in (skill, OVERALL, f"suit:{rows[-1]['suit']}"):
                tally = days.setdefault((created.date(), key), [0, 0, 0])
                tally[0], tally[1], tally[2] = tally[0] + 1, tally[1] + right, tally[2] + rows[-1]["ms"]
        for start in range(0, len(rows), 2000):
            connection.execute(sa.insert(Attempt), rows[start:start + 2000])
        connection.execute(sa.insert(PracticeDay), [
            {"user_id": user_id, "day": day, "skill": key, "asked": a, "right": r, "ms": ms,
             "rating": 1500.0 + rng.uniform(-200, 200) if not key.startswith("suit:") else 0.0}
            for (day, key), (a, r, ms) in days.items()])
        connection.execute(sa.insert(DailySession), [
            {"user_id": user_id, "day": (now - timedelta(days=day)).date(), "budget_ms": 600_000,
             "started": now - timedelta(days=day), "finished": now - timedelta(days=day, minutes=-10),
             "streak": 365 - day} for day in range(1, 366)])
        card, _log = fsrs.review_card(Card(), Rating.Good, now - timedelta(days=3))
        connection.execute(sa.insert(UserSkill), [
            {"user_id": user_id, "skill": skill, "rating": rng.uniform(1200, 1800), "deviation": 80.0,
             "volatility": 0.06, "card": None if skill == OVERALL else card.to_dict(),
             "due": None if skill == OVERALL else card.due + timedelta(days=rng.randrange(-3, 10)),
             "answers": attempts // len(skills)} for skill in [*skills, OVERALL]])
    return user_id


def timed(client: Any, path: str, requests: int) -> tuple[list[float], list[float]]:
    """Seconds each of `requests` GETs of `path` took, wall clock and CPU (each checked to answer 200):
    on a shared machine the CPU time is the steadier figure."""
    walls, cpus = [], []
    for _ in range(requests):
        start, cpu = time.perf_counter(), time.thread_time()
        response = client.get(path)
        walls.append(time.perf_counter() - start)
        cpus.append(time.thread_time() - cpu)
        assert response.status_code == 200, response.status_code
    return walls, cpus


def plans(app: Any, client: Any, paths: list[str]) -> list[tuple[str, list[str]]]:
    """Every statement the pages run, with its plan."""
    seen: list[tuple[str, Any]] = []

    def record(_connection: Any, _cursor: Any, statement: str, parameters: Any, *_args: Any) -> None:
        seen.append((statement, parameters))

    engine = app.extensions["jipai_engine"]
    sa.event.listen(engine, "before_cursor_execute", record)
    for path in paths:
        client.get(path)
    sa.event.remove(engine, "before_cursor_execute", record)
    sqlite = engine.dialect.name == "sqlite"
    out = []
    with engine.connect() as connection:
        if not sqlite:  # show the index a query can use: the planner scans a table of a few pages whole
            connection.exec_driver_sql("SET enable_seqscan = off")
        for statement, parameters in seen:
            if not statement.lstrip().upper().startswith("SELECT"):
                continue
            explain = ("EXPLAIN QUERY PLAN " if sqlite else "EXPLAIN ") + statement
            rows = connection.exec_driver_sql(explain, parameters).all()
            out.append((statement, [str(row[-1] if sqlite else row[0]) for row in rows]))
    return out


def full_scans(plan: list[str], sqlite: bool) -> list[str]:
    """The lines of a plan that read a per-user table whole."""
    bad = []
    for line in plan:
        for table in PER_USER_TABLES:
            if sqlite and line.startswith(f"SCAN {table}") and "INDEX" not in line:
                bad.append(line)
            if not sqlite and "Seq Scan on " + table in line:
                bad.append(line)
    return bad


def main() -> None:
    """Seed, time, explain, print."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=10_000)
    parser.add_argument("--users", type=int, default=3)
    parser.add_argument("--attempts", type=int, default=20_000)
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--database-url")
    args = parser.parse_args()
    instance = Path(tempfile.mkdtemp(prefix="jipai-bench-daily-"))
    url, drop = database(args.database_url, instance)
    app = make_app(url, instance)
    try:
        rng = random.Random(12)
        started = time.perf_counter()
        deals = store_deals(app, args.deals)
        users = [store_player(app, f"player{n}", args.attempts, deals, rng) for n in range(args.users)]
        engine = app.extensions["jipai_engine"]
        if engine.dialect.name == "postgresql":
            with engine.begin() as connection:
                connection.exec_driver_sql("ANALYZE")
        print(f"seeded {len(deals)} deals, {len(users)} players × {args.attempts} answers "
              f"on {engine.dialect.name} in {time.perf_counter() - started:.0f} s")
        client = app.test_client()
        assert client.post("/auth/login", data={"username": "player0", "password": "correct horse"}).status_code == 303
        for path in ("/today", "/stats"):
            timed(client, path, 5)  # warm up: templates compiled, caches filled
            walls, cpus = timed(client, path, args.requests)
            print(f"GET {path:7} wall p50 {percentile(walls, 50):6.1f} ms  p95 {percentile(walls, 95):6.1f} ms; "
                  f"CPU p50 {percentile(cpus, 50):6.1f} ms  p95 {percentile(cpus, 95):6.1f} ms  "
                  f"(target p95 ≤ 50 ms; {len(client.get(path).data)} bytes)")
        choose(app, users[0], args.requests)
        sqlite = engine.dialect.name == "sqlite"
        scans = 0
        for statement, plan in plans(app, client, ["/today", "/stats", "/"]):
            bad = full_scans(plan, sqlite)
            scans += bool(bad)
            print(("FULL SCAN " if bad else "ok        ") + " ".join(statement.split())[:150])
            for line in plan:
                print(f"    {line}")
        print(f"{scans} statements read a per-user table whole")
    finally:
        engine = app.extensions["jipai_engine"]
        engine.dispose()
        if drop:
            drop()


def choose(app: Any, user_id: int, requests: int) -> None:
    """Time `choose_position` for random skills and targets (the deal cache starts cold)."""
    from flask import g

    from trainer.drills.daily import all_skills
    from trainer.web.daily import choose_position, nearest_positions
    from trainer.web.db import get_session
    from trainer.web.models import User

    rng = random.Random(3)
    times, nearest, cpus, found = [], [], [], 0
    with app.test_request_context("/today"):
        db = get_session()
        g.user = db.get(User, user_id)
        for _ in range(requests):
            skill, target = rng.choice(all_skills()), rng.uniform(1100, 1900)
            start, cpu = time.perf_counter(), time.thread_time()
            nearest_positions(db, user_id, skill, target, 2.0, datetime.now(UTC), rng)
            nearest.append(time.perf_counter() - start)
            cpus.append(time.thread_time() - cpu)
            start = time.perf_counter()
            chosen = choose_position(db, user_id, skill, target, 2.0, datetime.now(UTC), rng)
            times.append(time.perf_counter() - start)
            found += chosen is not None
    print(f"nearest positions (selection)   : wall p50 {percentile(nearest, 50):6.1f} ms  p95 "
          f"{percentile(nearest, 95):6.1f} ms; CPU p50 {percentile(cpus, 50):6.1f} ms  "
          f"p95 {percentile(cpus, 95):6.1f} ms"
          "  (target p95 ≤ 20 ms)")
    print(f"choose_position (+ tracker, cold): wall p50 {percentile(times, 50):6.1f} ms  "
          f"p95 {percentile(times, 95):6.1f} ms"
          f"  ({found}/{requests} found a position; the deal parsed here is the one the run page then reads)")


if __name__ == "__main__":
    main()
