"""Benchmark: players drilling at human pace, against a production server.

Starts the app under gunicorn as the README runs it in production (2 workers, the settings of
`gunicorn.conf.py`; loopback, a free port) on a temporary SQLite instance (or a fresh schema of
`--database-url`'s PostgreSQL) seeded with the starter library and runs of the fastest curriculum
drill (速记, `speed`: 5 cards a second), then, from a second process, simulates P players at a time,
each signed in to an account of their own (as in real use: an answer's grading updates its player's ratings).
Each player drills as the browser does with drill.js: it opens a run's page, waits while the plays
up to the checkpoint are revealed (their count times the drill's pace), posts the step that brings
the question, thinks 2–5 s, posts its answer (which brings the feedback and the next plays), and so
on to the end of the run, then opens the next run. Each player keeps its connection open between
requests, as a browser does (`gunicorn.conf.py` keeps an idle one 75 s), and opens a new one when the
server has closed it (that request's time includes the new connection).

Levels of players (`--levels`, each at most `--seconds` long: a ramp of `--warm-up` seconds while the
players start at random moments, then the measured rest); a level holds when every kind of request
(page, question, answer, end) has p99 ≤ 100 ms and no answer is an error. Prints each level's
figures and the largest level that held (target: 2,000 players), and the bytes of the largest
answer that holds a whole trick-end-to-trick-end stretch (target: ≤ 16 KB).

With `--floor` the players keep their pace, but each question and answer they send is the app's
cheapest signed-in write instead (the drill settings' htmx POST: CSRF, the user's row read and
written, a commit, no content): the most players this server holds on this machine whatever a drill
request does, the ceiling for the real ones.

    .venv/bin/python bench/web.py [--levels 500,1000,2000,3000] [--seconds 60] [--warm-up 15]
                                  [--worker-class C] [--threads T] [--database-url URL] [--floor]
"""
from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import random
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

try:
    from bench.machine import calibration
except ImportError:  # run as a script: bench/ itself is on sys.path
    from machine import calibration

ROOT = Path(__file__).resolve().parents[1]
SECRET = "bench secret"
DRILL = "speed"
"""The fastest drill of the curriculum (most cards a second)."""
THINK = (2.0, 5.0)
"""Seconds a player takes to answer, drawn uniformly."""
TARGET_P99 = 100.0


def free_port() -> int:
    """A free TCP port on the loopback interface."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def seed(instance: Path, runs: int, url: str, accounts: int = 1) -> dict[str, Any]:
    """Migrate a fresh database, load the starter library, make `accounts` players' accounts, each with
    `runs` runs of `DRILL` not yet begun (copies of a few started through the app, each with a seed of
    its own), measure the largest answer holding a whole trick between two checkpoints, and return
    each account's session cookie, CSRF token and runs (the first account's also at the top) and that
    size. One account per player, as in real use: each answer's grading updates its player's own
    ratings and tallies, which players sharing one account would all queue for."""
    import sqlalchemy as sa
    from sqlmodel import Session

    from trainer.web import create_app
    from trainer.web.models import DrillRun

    app = create_app({"INSTANCE_PATH": str(instance), "DATABASE_URL": url, "LIBRARY_LOAD": "sync",
                      "SECRET_KEY": SECRET, "WTF_CSRF_ENABLED": False, "RATELIMIT_ENABLED": False,
                      "PASSWORD_HASH_METHOD": "pbkdf2:sha256:1000"})
    client = app.test_client()
    players = [register(app, f"bench{n}") for n in range(accounts)]
    client.set_cookie("session", players[0]["cookie"].split("=", 1)[1])
    started = [int(client.post(f"/drills/{DRILL}/start").headers["Location"].rsplit("/", 1)[1]) for _ in range(16)]
    engine = app.extensions["jipai_engine"]
    rng = random.Random(2026)
    with Session(engine) as db:
        models = [db.get(DrillRun, run_id) for run_id in started]
        first = db.exec(sa.select(sa.func.max(DrillRun.id))).one()[0] + 1
        for player in players:
            rows = [{"user_id": player["user"], "drill_id": DRILL, "deal_pk": model.deal_pk, "seat": model.seat,
                     "seed": rng.randrange(2**31), "checkpoints": model.checkpoints, "cursor": 0, "status": "active",
                     "started": model.started}
                    for model in (models[rng.randrange(len(models))] for _ in range(runs))]
            db.execute(sa.insert(DrillRun), rows)
            player["runs"], first = list(range(first, first + runs)), first + runs
        db.commit()
    stretch = largest_trick_stretch(app, client, started)  # changes the first runs' checkpoints, not the copies'
    engine.dispose()
    return {**players[0], "accounts": players, "stretch": stretch}


def register(app: Any, name: str) -> dict[str, Any]:
    """Register the player `name` through the app: their user id, session cookie and a CSRF token."""
    client = app.test_client()
    response = client.post("/auth/register", data={"username": name, "password": "bench password",
                                                   "confirm": "bench password"})
    assert response.status_code == 303, response.text
    page = client.get("/drills").text
    token = re.search(r'name="csrf_token" value="([^"]+)"', page)
    cookie = client.get_cookie("session")
    assert token is not None and cookie is not None, page[:500]
    with client.session_transaction() as session:
        user = session["user_id"]
    return {"user": user, "cookie": f"session={cookie.value}", "token": token.group(1)}


def largest_trick_stretch(app: Any, client: Any, run_ids: list[int]) -> int:
    """The bytes of the largest htmx answer (the feedback and the plays to the next checkpoint) when
    the checkpoints are the ends of two tricks in a row, over every trick of the runs' deals."""
    import sqlalchemy as sa
    from sqlmodel import Session

    from trainer.web.dealdata import deal_cache
    from trainer.web.models import Attempt, Deal, DrillRun

    hx = {"HX-Request": "true"}
    largest = 0
    engine = app.extensions["jipai_engine"]
    for run_id in run_ids[:4]:
        with app.app_context(), Session(engine) as db:
            run = db.get(DrillRun, run_id)
            deal = db.get(Deal, run.deal_pk)
            data = deal_cache().get(db, (deal.pk, deal.id, deal.created))
        ends = [start + len(trick.plays) for start, trick in zip(data.trick_starts, data.record.tricks, strict=True)]
        for first, second in itertools.pairwise(ends):
            with Session(engine) as db:
                db.execute(sa.delete(Attempt).where(Attempt.run_id == run_id))
                db.execute(sa.update(DrillRun).where(DrillRun.id == run_id)
                           .values(checkpoints=[first, second], cursor=0, status="active"))
                db.commit()
            client.post(f"/runs/{run_id}/step?at=0&to={first}", headers=hx)
            question = client.get(f"/runs/{run_id}", headers=hx).text
            answered = client.post(f"/runs/{run_id}/answer", headers=hx, data=answer_form(question.encode()))
            assert b'class="verdict"' in answered.data and f'data-steps="{second - first}"'.encode() in answered.data
            largest = max(largest, len(answered.data))
    return largest


def database(url: str | None, instance: Path) -> tuple[str, Any]:
    """The database URL the bench uses, and how to drop it: SQLite in the instance folder by default,
    else a fresh schema in the given PostgreSQL database."""
    if not url:
        return f"sqlite:///{instance / 'jipai.sqlite'}", None
    import uuid

    import sqlalchemy as sa

    from trainer.web.db import normalise_url

    base = sa.make_url(normalise_url(url))
    schema = f"jipai_bench_{uuid.uuid4().hex[:10]}"
    admin = sa.create_engine(base)
    try:
        with admin.begin() as connection:
            connection.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
    except sa.exc.SQLAlchemyError as error:
        raise SystemExit(f"web.py: cannot make a schema in {base.render_as_string()}: "
                         f"{str(getattr(error, 'orig', None) or error).strip()}") from None

    def drop() -> None:
        with admin.begin() as connection:
            connection.execute(sa.text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()

    return base.update_query_dict({"options": f"-csearch_path={schema}"}).render_as_string(hide_password=False), drop


# -- the players (the second process) -----------------------------------------------------------------

LENGTH = re.compile(rb"(?i)\r\ncontent-length: *(\d+)")
CLOSE = re.compile(rb"(?i)\r\nconnection: *close")
STEPS = re.compile(rb'data-steps="(\d+)" data-delay="(\d+)"')
REACH = re.compile(rb'<form id="reach" hx-post="([^"]+)"')
AT = re.compile(rb'/step\?at=(\d+)"')
CHECKPOINT = re.compile(rb'name="checkpoint" value="(\d+)"')
KIND = re.compile(rb'data-kind="(\w+)"')
OPTION = re.compile(rb'name="answer" value="([^"]*)"')


def answer_form(question: bytes) -> dict[str, str]:
    """A valid answer to the question in this HTML (right or wrong does not matter here)."""
    kind = KIND.search(question).group(1)
    option = OPTION.search(question)
    value = "0" if kind == b"number" or option is None else option.group(1).decode()
    return {"checkpoint": CHECKPOINT.search(question).group(1).decode(), "answer": value}


class Players:
    """Players drilling until `end`: the latency of each request sent in the measured part, by kind."""

    def __init__(self, port: int, config: dict[str, Any], measure_from: float, end: float, floor: bool = False) -> None:
        self.port, self.measure_from, self.end, self.floor = port, measure_from, end, floor
        self.accounts = config["accounts"]
        self.times: dict[str, list[float]] = {}
        self.errors: list[str] = []

    async def request(self, kind: str | None, method: str, path: str, headers: dict[str, str],
                      form: dict[str, str] | None = None,
                      connection: list[Any] | None = None) -> bytes:
        """One request on the player's kept-alive `connection` ([reader, writer], empty or closed: a new
        one); its body (its latency noted by `kind`, unless None)."""
        body = "&".join(f"{k}={v}" for k, v in (form or {}).items()).encode()
        lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1",
                 *(f"{name}: {value}" for name, value in headers.items()), f"Content-Length: {len(body)}"]
        if form:
            lines.append("Content-Type: application/x-www-form-urlencoded")
        message = ("\r\n".join(lines) + "\r\n\r\n").encode() + body
        connection = [] if connection is None else connection
        sent = time.perf_counter()
        for _attempt in range(2):  # a kept-alive connection the server closed meanwhile: once more on a new one
            fresh = not connection
            if fresh:
                connection[:] = await asyncio.open_connection("127.0.0.1", self.port)
            reader, writer = connection
            try:
                writer.write(message)
                head = await reader.readuntil(b"\r\n\r\n")
                length = LENGTH.search(head)
                if head[9:12] == b"204":  # no content, and no length to say so
                    content = b""
                else:
                    content = await reader.readexactly(int(length.group(1))) if length else await reader.read()
                break
            except (ConnectionError, asyncio.IncompleteReadError):
                writer.close()
                connection.clear()
                if fresh:
                    raise
        if (length is None and content) or CLOSE.search(head):
            writer.close()
            connection.clear()
        took = time.perf_counter() - sent
        status = int(head[9:12])
        if kind is not None and self.measure_from <= sent < self.end:
            self.times.setdefault(kind, []).append(took)
            if status not in (200, 204):
                self.errors.append(f"{kind} {status}")
        return content

    async def floor_player(self, path: str, page: dict[str, str], hx: dict[str, str], rng: random.Random,
                           connection: list[Any]) -> None:
        """`--floor`: a player at the drill's pace (its first stretch's reveal, then thinking) whose every
        question and answer is the app's cheapest signed-in write instead: the drill settings' htmx POST
        (CSRF, the user's row read and written, a commit, an empty answer). The run's page, read once for
        the pace, is not measured."""
        steps = STEPS.search(await self.request(None, "GET", path, page, connection=connection))
        reveal = int(steps.group(1)) * int(steps.group(2)) / 1000
        while time.perf_counter() < self.end:
            for kind, wait in (("question", reveal), ("answer", rng.uniform(*THINK))):
                await asyncio.sleep(wait)
                await self.request(kind, "POST", "/drills/settings", hx, {"speed": "100"}, connection=connection)

    async def player(self, index: int, delay: float, rng: random.Random) -> None:
        """Player `index` (with an account of its own): its runs one after another until the end, on one
        connection kept open."""
        account = self.accounts[index]
        runs = deque(account["runs"])
        page = {"Cookie": account["cookie"]}
        hx = {"Cookie": account["cookie"], "HX-Request": "true", "X-CSRFToken": account["token"]}
        reach = {**hx, "HX-Target": "div#stage"}  # drill.js's reach: the question alone, into #stage
        await asyncio.sleep(delay)
        connection: list[Any] = []
        if self.floor:
            await self.floor_player(f"/runs/{runs.popleft()}", page, hx, rng, connection)
        while time.perf_counter() < self.end:
            path = f"/runs/{runs.popleft()}"
            body = await self.request("page", "GET", path, page, connection=connection)
            while time.perf_counter() < self.end:
                found, steps = REACH.search(body), STEPS.search(body)
                if found is None:  # the last checkpoint answered: read the feedback, see the summary
                    await asyncio.sleep(rng.uniform(*THINK))
                    await self.request("end", "POST", f"{path}/step?at={AT.search(body).group(1).decode()}",
                                       hx, connection=connection)
                    break
                await asyncio.sleep(int(steps.group(1)) * int(steps.group(2)) / 1000)
                body = await self.request("question", "POST", found.group(1).decode().replace("&amp;", "&"), reach,
                                          connection=connection)
                await asyncio.sleep(rng.uniform(*THINK))
                body = await self.request("answer", "POST", f"{path}/answer", hx, answer_form(body),
                                          connection=connection)
        if connection:
            connection[1].close()


def driver(port: int, config_path: str, players: int, warm_up: float, seconds: float, floor: bool = False) -> None:
    """The second process: `players` players starting at random moments of the first `warm_up`
    seconds, measured after it until `seconds`; print JSON."""
    config = json.loads(Path(config_path).read_text())
    now = time.perf_counter()
    crowd = Players(port, config, now + warm_up, now + seconds, floor)
    rng = random.Random(players)

    async def everyone() -> None:
        await asyncio.gather(*(crowd.player(index, rng.uniform(0, warm_up), random.Random(rng.random()))
                               for index in range(players)))

    began = time.process_time()
    asyncio.run(everyone())
    print(json.dumps({"times": crowd.times, "errors": crowd.errors, "measured": seconds - warm_up,
                      "driver_cpu": time.process_time() - began}))


def cpu_seconds(pids: list[int]) -> list[float]:
    """The CPU time (user and system) each of the processes `pids` has used so far."""
    seconds = []
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        # utime, stime (fields 14 and 15 of proc(5))
        seconds.append((int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK"))
    return seconds


def gunicorn_workers(master: int) -> list[int]:
    """The worker processes of the gunicorn master `master` (its children)."""
    return [int(pid) for pid in Path(f"/proc/{master}/task/{master}/children").read_text().split()]


def add_server_options(parser: argparse.ArgumentParser) -> None:
    """The options that change how the production server runs: its worker class, its threads, its
    database."""
    parser.add_argument("--worker-class", help="gunicorn worker class (default: gunicorn.conf.py's, gevent)")
    parser.add_argument("--threads", type=int, help="threads per worker, for --worker-class gthread")
    parser.add_argument("--database-url", help="a PostgreSQL URL to use instead of SQLite (a schema of its own, "
                                               "dropped afterwards)")


def check_server_options(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Refuse, in words, server options that cannot work."""
    if args.threads is not None and args.threads < 1:
        parser.error(f"--threads must be at least 1, not {args.threads}")
    if args.database_url and not args.database_url.startswith(("postgresql:", "postgresql+", "postgres:")):
        parser.error(f"--database-url must be a PostgreSQL URL (postgresql://…), not {args.database_url!r}")


def server_description(args: argparse.Namespace) -> str:
    """How the server of a report ran: its workers' settings and its database."""
    settings = ", ".join(f"{name} {value}" for name, value in (("worker class", args.worker_class),
                                                               ("threads", args.threads)) if value)
    return (f"gunicorn: 2 workers ({settings or 'as gunicorn.conf.py sets them'}), "
            f"{'PostgreSQL' if args.database_url else 'SQLite'}")


def gunicorn_options(args: argparse.Namespace) -> list[str]:
    """The gunicorn options that `--worker-class` and `--threads` add to the README's command."""
    options = []
    if args.worker_class:
        options += ["--worker-class", args.worker_class]
    if args.threads:
        options += ["--threads", str(args.threads)]
    return options


READY = 8
"""Answers in a row, each on a new connection, that show a server started: the kernel gives a new
connection to either worker, so eight miss a worker still starting once in 256 starts."""


@contextmanager
def production_server(instance: Path, url: str, options: list[str] | None = None,
                      env: dict[str, str] | None = None) -> Iterator[tuple[int, list[int]]]:
    """The README's production command (`gunicorn -w 2 'trainer.web:create_app()'` in the project
    folder, reading `gunicorn.conf.py`; `options` added) serving `instance` and the database `url` on
    a free loopback port, with `env` added to its environment (`FLASK_STARTER_DEALS_DIR`: the app's
    config from `FLASK_*` variables), once both workers answer: its port and its workers' process ids.
    Stopped on leaving."""
    port = free_port()
    env = {**os.environ, "JIPAI_INSTANCE_PATH": str(instance), "SECRET_KEY": SECRET, "DATABASE_URL": url,
           **(env or {})}
    gunicorn = [str(Path(sys.executable).with_name("gunicorn")), "-w", "2", "-b", f"127.0.0.1:{port}",
                "--log-level", "warning", *(options or []), "trainer.web:create_app()"]
    server = subprocess.Popen(gunicorn, env=env, cwd=ROOT)
    try:
        answered = 0
        for _ in range(300):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1) as answer:
                    answered = answered + 1 if answer.read() == b"ok" else 0
            except OSError:
                if server.poll() is not None:
                    raise SystemExit(f"gunicorn stopped as it started (exit status {server.returncode})") from None
                answered = 0
                time.sleep(0.1)
            workers = gunicorn_workers(server.pid)
            if answered >= READY and len(workers) == 2:
                break
        else:
            raise SystemExit("gunicorn did not start")
        yield port, workers
    finally:
        server.terminate()
        server.wait(10)


# -- the report ---------------------------------------------------------------------------------------

def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (nearest rank), in milliseconds."""
    ordered = sorted(values)
    return 1000 * ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered)) - 1))]


def main() -> None:
    """Seed, serve under gunicorn, drive each level from a second process, report."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--levels", default="500,1000,2000,3000", help="players at a time, one level after another")
    parser.add_argument("--seconds", type=float, default=60, help="how long each level lasts")
    parser.add_argument("--warm-up", type=float, default=15, help="seconds of each level while the players start")
    add_server_options(parser)
    parser.add_argument("--floor", action="store_true",
                        help="replace every question and answer by the app's cheapest signed-in write (the drill "
                             "settings' POST), at the same pace: the most players the server holds whatever a "
                             "drill request does")
    parser.add_argument("--drive", nargs=3, metavar=("PORT", "CONFIG", "PLAYERS"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    try:
        levels = [int(level) for level in args.levels.split(",")]
    except ValueError:
        parser.error(f"--levels must be numbers separated by commas, not {args.levels!r}")
    if min(levels) < 1 or not 0 <= args.warm_up < args.seconds:
        parser.error("--levels must be at least 1, and --warm-up between 0 and --seconds")
    check_server_options(parser, args)
    if args.drive:
        driver(int(args.drive[0]), args.drive[1], int(args.drive[2]), args.warm_up, args.seconds, args.floor)
        return
    folder = Path(tempfile.mkdtemp(prefix="jipai-bench-"))
    instance = folder / "instance"
    drop = None
    try:
        url, drop = database(args.database_url, instance)
        config = seed(instance, 3 * len(levels), url, max(levels))  # a run lasts about 50 s at this pace
        print(server_description(args) + f"; {DRILL} drill, loopback, levels of {args.seconds:g} s "
              f"({args.warm_up:g} s ramp, then measured)")
        print(f"largest answer with a whole trick-end-to-trick-end stretch: {config['stretch']} bytes "
              f"(target ≤ 16384: {'met' if config['stretch'] <= 16384 else 'MISSED'})")
        config_path = folder / "config.json"
        held = 0
        with production_server(instance, url, gunicorn_options(args)) as (port, workers):
            for players in levels:
                config_path.write_text(json.dumps(config))
                drive = subprocess.Popen([sys.executable, __file__, "--drive", str(port), str(config_path), str(players),
                                          "--seconds", str(args.seconds), "--warm-up", str(args.warm_up),
                                          *(["--floor"] if args.floor else [])],
                                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                time.sleep(args.warm_up)  # the workers' CPU is counted over the measured part, as the requests are
                before = cpu_seconds(workers)
                out, err = drive.communicate()
                if drive.returncode:
                    raise SystemExit(f"the driver failed:\n{err}")
                result = json.loads(out)
                result["server_cpu"] = sum(cpu_seconds(workers)) - sum(before)
                for account in config["accounts"][:players]:
                    account["runs"] = account["runs"][3:]
                if report(players, result):
                    held = players
                else:
                    break
        print(f"calibration: a fixed Python loop takes {calibration():.0f} ms here now")
        if args.floor:
            print(f"largest level the floor held (every request's p99 ≤ {TARGET_P99:g} ms, no errors): {held} "
                  "players, the most any drill request could hold on this machine")
        else:
            print(f"largest level that held (every request's p99 ≤ {TARGET_P99:g} ms, no errors): {held} players "
                  f"(target ≥ 2000: {'met' if held >= 2000 else 'MISSED'})")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
        if drop is not None:
            drop()


def report(players: int, result: dict[str, Any]) -> bool:
    """Print one level's figures; whether it held."""
    times, measured = result["times"], result["measured"]
    total = sum(len(values) for values in times.values())
    worst = max((percentile(values, 99) for values in times.values()), default=float("inf"))
    kinds = ", ".join(f"{kind} {len(values)} p50 {percentile(values, 50):.1f} p99 {percentile(values, 99):.1f} ms"
                      for kind, values in sorted(times.items()))
    print(f"{players:5d} players: {total / measured:6.0f} requests/s; {kinds}; workers' CPU "
          f"{result['server_cpu'] / (total or 1) * 1000:.2f} ms a request; driver {result['driver_cpu']:.0f} s CPU"
          + (f"; {len(result['errors'])} errors ({sorted(set(result['errors']))[:4]})" if result["errors"] else ""))
    return bool(total) and worst <= TARGET_P99 and not result["errors"]


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    main()
