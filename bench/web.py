"""Benchmark: drill steps under load, against a production server.

Starts the app under gunicorn as the README runs it in production (2 workers, the settings of
`gunicorn.conf.py`; loopback, a free port) on a temporary SQLite instance seeded with the starter
library and one user with drill runs in progress, then drives it from a second process with C
concurrent keep-alive connections (default 32). Each connection drills as a browser does: it opens
a run's page, steps it play by play (htmx step POSTs carrying the cursor they were shown) until the
run reaches its question, then opens the next run not yet drilled by any connection. The runs start at random plays, so that the connections do not
all change runs at the same moment. After a warm-up (the workers meet the deals and runs, as a
server that has been up a while has), the requests sent in the measured windows count, all
connections busy throughout; the same connections then ask a trivial endpoint of the same app
(`/healthz`). The two phases alternate in `--rounds` windows each (2 of 2 s by default), so that a
machine shared with others, whose speed changes from one minute to the next, weighs on both alike.

Prints requests per second and p50/p99 latency of the steps and of the trivial endpoint, their
throughput ratio, the workers' CPU time per request of each and each worker's share of it, the bytes of a drill page and of a
step fragment, and how long a fixed pure-Python loop takes here (to compare runs on machines of
other speeds, or on a busy one).

Targets (issue 5): step p99 ≤ 30 ms at 32 connections, step throughput ≥ 40% of the trivial
endpoint's, a step fragment < 4 KB.

    .venv/bin/python bench/web.py [--connections 32] [--seconds 4] [--warm-up 2]
                                  [--rounds 2] [--worker-class C] [--threads T] [--database-url URL]
"""
from __future__ import annotations

import argparse
import json
import os
import re
import select
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

ROOT = Path(__file__).resolve().parents[1]
SECRET = "bench secret"


def free_port() -> int:
    """A free TCP port on the loopback interface."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def seed(instance: Path, runs: int, url: str) -> dict[str, Any]:
    """Migrate a fresh database, load the starter library, make a user with `runs` drill runs in
    progress, each at a random play of its first half (seeded) and asked only at its last play (the
    bench measures the plain step), and return the session cookie, a CSRF token and the runs."""
    import random

    import sqlalchemy as sa
    from sqlmodel import Session

    from trainer.web import create_app
    from trainer.web.models import DrillRun
    from trainer.web.table import deal_cache

    app = create_app({"INSTANCE_PATH": str(instance), "DATABASE_URL": url,
                      "SECRET_KEY": SECRET, "WTF_CSRF_ENABLED": False, "RATELIMIT_ENABLED": False,
                      "PASSWORD_HASH_METHOD": "pbkdf2:sha256:1000"})
    client = app.test_client()
    response = client.post("/auth/register", data={"username": "bench", "password": "bench password",
                                                   "confirm": "bench password"})
    assert response.status_code == 303, response.text
    ids = []
    for _ in range(runs):
        started = client.post("/drills/everything/start")
        assert started.status_code == 303, started.text
        ids.append(int(started.headers["Location"].rsplit("/", 1)[1]))
    page = client.get(f"/runs/{ids[0]}").text
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    cookie = client.get_cookie("session")
    assert cookie is not None
    engine = app.extensions["jipai_engine"]
    plan = []
    rng = random.Random(2026)
    with app.app_context(), Session(engine) as db:
        for run_id in ids:
            run = db.get(DrillRun, run_id)
            assert run is not None
            from trainer.web.models import Deal

            deal = db.get(Deal, run.deal_pk)
            assert deal is not None
            total = deal_cache().get(db, (deal.pk, deal.id, deal.created)).total
            db.execute(sa.update(DrillRun).where(DrillRun.id == run_id)
                       .values(checkpoints=[total], cursor=rng.randrange(total // 2)))
            plan.append({"id": run_id, "total": total})
        db.commit()
    engine.dispose()
    return {"cookie": f"session={cookie.value}", "token": token, "runs": plan}


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


# -- the load generator (the second process) ---------------------------------------------------------
# Plain non-blocking sockets on one epoll: on these two shared cores the driver should take as little
# as it can from the server it measures (an asyncio driver took a quarter of a core, this one half that).

LENGTH = re.compile(rb"(?i)\r\ncontent-length: *(\d+)")
CLOSE = re.compile(rb"(?i)\r\nconnection: *close")
AT = re.compile(rb'/step\?at=(\d+)"')


class Window:
    """When a phase is measured: the requests sent between `start` and `end`, after a warm-up; no
    request is sent after `end`. The workers' CPU time is read at both ends."""

    def __init__(self, warm_up: float, seconds: float, workers: list[int]) -> None:
        self.start = time.perf_counter() + warm_up
        self.end = self.start + seconds
        self.workers = workers
        self.cpu: list[list[float]] = []

    def tick(self, now: float) -> None:
        """Read the workers' CPU time when `now` has passed an end of the window."""
        if len(self.cpu) < 2 and now >= (self.start, self.end)[len(self.cpu)]:
            self.cpu.append(cpu_seconds(self.workers))

    def figures(self) -> dict[str, Any]:
        """The window's length and each worker's CPU time in it."""
        return {"elapsed": self.end - self.start, "server_cpu": [end - start for start, end in zip(*self.cpu)]}


def request(method: str, path: str, headers: dict[str, str]) -> bytes:
    """An HTTP/1.1 request without a body, as bytes."""
    lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", *(f"{name}: {value}" for name, value in headers.items())]
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


class Drill:
    """One connection's requests as a browser drilling sends them: a run's page, then its steps (each
    from the play the last answer showed) until the run reaches its question, then the next run."""

    def __init__(self, runs: deque[int], cookie: str, token: str) -> None:
        self.runs = runs
        """The runs not yet drilled, shared by all connections (a faster connection takes more)."""
        self.page_headers = {"Cookie": cookie}
        self.step_headers = {"Cookie": cookie, "HX-Request": "true", "X-CSRFToken": token, "Content-Length": "0"}
        self.path = ""
        self.next = self._next_run()
        """The request to send next (kept from one measured window to the next)."""

    def after(self, status: int, body: bytes) -> tuple[str, bytes]:
        """The request after an answer."""
        if status != 200 or b'id="answer-form"' in body:
            return self._next_run()
        found = AT.search(body)
        assert found, body[:300]
        return "step", request("POST", f"{self.path}/step?at={found.group(1).decode()}", self.step_headers)

    def _next_run(self) -> tuple[str, bytes]:
        if not self.runs:
            raise SystemExit("the connections drilled all the runs before the end: seed more")
        self.path = f"/runs/{self.runs.popleft()}"
        return "page", request("GET", self.path, self.page_headers)


class Trivial:
    """One connection asking `/healthz` again and again."""

    def __init__(self) -> None:
        self.next = ("trivial", request("GET", "/healthz", {}))

    def after(self, status: int, body: bytes) -> tuple[str, bytes]:
        """The next request: the same."""
        return self.next


def drive(port: int, clients: list[Any], window: Window) -> dict[str, Any]:
    """Run each client on a keep-alive connection of its own until the window ends (each client's
    next request is kept for the next window): the latency of every request sent inside it, by kind,
    the first answer's size of each kind, the statuses that were not 200, the driver's CPU time."""
    poller = select.epoll()
    sockets: dict[int, tuple[socket.socket, Any]] = {}
    pending: dict[int, tuple[str, float, bytearray]] = {}
    times: dict[str, list[float]] = {}
    sizes: dict[str, int] = {}
    errors: list[int] = []
    reconnections = 0
    own, began = time.process_time(), time.perf_counter()

    def send(fd: int, kind: str, data: bytes) -> None:
        sock = sockets[fd][0]
        pending[fd] = (kind, time.perf_counter(), bytearray())
        sock.sendall(data)

    def connect(client: Any) -> int:
        sock = socket.create_connection(("127.0.0.1", port))
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        fd = sock.fileno()
        sockets[fd] = (sock, client)
        poller.register(fd, select.EPOLLIN)
        return fd

    for client in clients:
        send(connect(client), *client.next)
    while pending:
        for fd, _event in poller.poll(0.05):
            sock, client = sockets[fd]
            kind, sent, buffer = pending[fd]
            data = sock.recv(1 << 16)
            if not data:
                raise SystemExit("the server closed a connection in the middle of an answer")
            buffer += data
            head = buffer.find(b"\r\n\r\n")
            if head < 0:
                continue
            length = int(LENGTH.search(buffer, 0, head + 2).group(1))
            if len(buffer) < head + 4 + length:
                continue
            now = time.perf_counter()
            del pending[fd]
            status, body = int(buffer[9:12]), bytes(buffer[head + 4:head + 4 + length])
            if window.start <= sent < window.end:
                times.setdefault(kind, []).append(now - sent)
                sizes.setdefault(kind, length)
                if status != 200:
                    errors.append(status)
            closing = CLOSE.search(buffer, 0, head + 2) is not None
            client.next = client.after(status, body)
            if now >= window.end:  # this connection is done for this window
                poller.unregister(fd)
                continue
            if closing:  # the server closed the connection after its answer: reconnect
                poller.unregister(fd)
                sock.close()
                del sockets[fd]
                fd = connect(client)
                reconnections += 1
            send(fd, *client.next)
        window.tick(time.perf_counter())
    while len(window.cpu) < 2:
        time.sleep(max(0.0, window.end - time.perf_counter()))
        window.tick(time.perf_counter())
    for sock, _client in sockets.values():
        sock.close()
    poller.close()
    return {"times": times, "sizes": sizes, "errors": errors, "driver_cpu": time.process_time() - own,
            "wall": time.perf_counter() - began, "reconnections": reconnections, **window.figures()}


def cpu_seconds(pids: list[int]) -> list[float]:
    """The CPU time (user and system) each of the processes `pids` has used so far."""
    seconds = []
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        # utime, stime (fields 14 and 15 of proc(5))
        seconds.append((int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK"))
    return seconds


def driver(port: int, config_path: str, workers: list[int], connections: int, warm_up: float,
           seconds: float, rounds: int) -> None:
    """The second process: a warm-up, then `rounds` windows of drilling, each followed by one of the
    trivial endpoint (alternating, so that the machine's ups and downs fall on both alike); print
    JSON."""
    config = json.loads(Path(config_path).read_text())
    runs = deque(run["id"] for run in config["runs"])
    drills = [Drill(runs, config["cookie"], config["token"]) for _ in range(connections)]
    trivials = [Trivial() for _ in range(connections)]
    steps, trivial = [], []
    for round_ in range(rounds):
        settle = warm_up if round_ == 0 else SETTLE  # a switch of phase lets the queues fill first
        steps.append(drive(port, drills, Window(settle, seconds / rounds, workers)))
        trivial.append(drive(port, trivials, Window(SETTLE, seconds / rounds, workers)))
    print(json.dumps({"steps": merged(steps), "trivial": merged(trivial), "calibration": calibration()}))


SETTLE = 0.25
"""Seconds of load before a window after the first is measured."""


def merged(windows: list[dict[str, Any]]) -> dict[str, Any]:
    """The figures of several windows of one phase, together."""
    times: dict[str, list[float]] = {}
    sizes: dict[str, int] = {}
    for window in windows:
        for kind, values in window["times"].items():
            times.setdefault(kind, []).extend(values)
        for kind, size in window["sizes"].items():
            sizes.setdefault(kind, size)
    return {"times": times, "sizes": sizes, "errors": [e for window in windows for e in window["errors"]],
            "server_cpu": [sum(worker) for worker in zip(*(window["server_cpu"] for window in windows))],
            **{name: sum(window[name] for window in windows) for name in ("driver_cpu", "wall", "elapsed", "reconnections")}}


def calibration() -> float:
    """How long a fixed pure-Python loop takes on this machine now, in ms (the best of three)."""
    best = float("inf")
    for _ in range(3):
        began = time.perf_counter()
        total = 0
        for number in range(1_000_000):
            total += number * number
        best = min(best, time.perf_counter() - began)
    return 1000 * best


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
def production_server(instance: Path, url: str, options: list[str] | None = None) -> Iterator[tuple[int, list[int]]]:
    """The README's production command (`gunicorn -w 2 'trainer.web:create_app()'` in the project
    folder, reading `gunicorn.conf.py`; `options` added) serving `instance` and the database `url` on
    a free loopback port, once both workers answer: its port and its workers' process ids. Stopped
    on leaving."""
    port = free_port()
    env = {**os.environ, "JIPAI_INSTANCE_PATH": str(instance), "SECRET_KEY": SECRET, "DATABASE_URL": url}
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
    """Seed, serve under gunicorn, drive from a second process, report."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--seconds", type=float, default=4, help="how long each phase is measured")
    parser.add_argument("--warm-up", type=float, default=2, help="seconds of load before the steps are measured")
    parser.add_argument("--rounds", type=int, default=2, help="alternating windows of each phase (they share --seconds)")
    add_server_options(parser)
    parser.add_argument("--drive", nargs=3, metavar=("PORT", "CONFIG", "WORKERS"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    for name, low in (("connections", 1), ("rounds", 1), ("warm_up", 0)):
        value = getattr(args, name)
        if value < low:
            parser.error(f"--{name.replace('_', '-')} must be at least {low}, not {value:g}")
    if args.seconds <= 0:
        parser.error(f"--seconds must be more than 0, not {args.seconds:g}")
    check_server_options(parser, args)
    if args.drive:
        driver(int(args.drive[0]), args.drive[1], [int(pid) for pid in args.drive[2].split(",")], args.connections,
               args.warm_up, args.seconds, args.rounds)
        return

    folder = Path(tempfile.mkdtemp(prefix="jipai-bench-"))
    instance = folder / "instance"
    drop = None
    try:
        # enough runs for 10,000 requests a second: a run gives about 75 steps (it starts in its first half)
        runs = max(4 * args.connections, round(10_000 * (args.warm_up + args.seconds) / 60))
        url, drop = database(args.database_url, instance)
        config = seed(instance, runs, url)
        config_path = folder / "config.json"
        config_path.write_text(json.dumps(config))
        with production_server(instance, url, gunicorn_options(args)) as (port, workers):
            drive = subprocess.run([sys.executable, __file__, "--drive", str(port), str(config_path),
                                    ",".join(map(str, workers)), "--connections", str(args.connections),
                                    "--warm-up", str(args.warm_up), "--seconds", str(args.seconds),
                                    "--rounds", str(args.rounds)],
                                   capture_output=True, text=True, check=False)
            if drive.returncode:
                raise SystemExit(f"the driver failed:\n{drive.stderr}")
        result = json.loads(drive.stdout)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
        if drop is not None:
            drop()
    report(result, args)


def shares(seconds: list[float]) -> str:
    """Each worker's part of the workers' CPU time, as percentages (`52/48%`)."""
    total = sum(seconds) or 1
    return "/".join(f"{100 * part / total:.0f}" for part in seconds) + "%"


def report(result: dict[str, Any], args: argparse.Namespace) -> None:
    """Print the figures and how they compare with the targets."""
    steps, trivial = result["steps"], result["trivial"]
    step_times, page_times = steps["times"].get("step", []), steps["times"].get("page", [])
    trivial_times = trivial["times"]["trivial"]
    mix_rate = (len(step_times) + len(page_times)) / steps["elapsed"]
    trivial_rate = len(trivial_times) / trivial["elapsed"]
    p99 = percentile(step_times, 99)
    print(f"{server_description(args)}, {args.connections} concurrent connections, "
          f"loopback; {args.warm_up:g} s warm-up, {args.seconds:g} s measured for each in {args.rounds} "
          "alternating windows")
    print(f"drill steps:   {len(step_times)} requests, {len(step_times) / steps['elapsed']:7.0f} steps/s within "
          f"{mix_rate:.0f} requests/s of the mix, p50 {percentile(step_times, 50):5.1f} ms, p99 {p99:5.1f} ms")
    print(f"run page GETs: {len(page_times)} requests, p50 {percentile(page_times, 50):5.1f} ms, "
          f"p99 {percentile(page_times, 99):5.1f} ms")
    print(f"/healthz:      {len(trivial_times)} requests, {trivial_rate:7.0f} requests/s, "
          f"p50 {percentile(trivial_times, 50):5.1f} ms, p99 {percentile(trivial_times, 99):5.1f} ms")
    ratio = mix_rate / trivial_rate
    print(f"throughput ratio (step mix / trivial): {ratio:.0%}")
    step_cpu = 1000 * sum(steps["server_cpu"]) / (len(step_times) + len(page_times))
    trivial_cpu = 1000 * sum(trivial["server_cpu"]) / len(trivial_times)
    print(f"workers' CPU per request: step mix {step_cpu:.2f} ms, /healthz {trivial_cpu:.2f} ms; each worker's "
          f"share of it: {shares(steps['server_cpu'])} and {shares(trivial['server_cpu'])}; the driver used "
          f"{steps['driver_cpu'] / steps['wall']:.0%} and {trivial['driver_cpu'] / trivial['wall']:.0%} "
          "of a core")
    print(f"bytes: drill page {steps['sizes'].get('page', 0)}, step fragment {steps['sizes'].get('step', 0)}")
    print(f"this machine now: a fixed Python loop takes {result['calibration']:.0f} ms (40–60 ms on the quiet machines this bench was tuned on)")
    if steps["reconnections"] or trivial["reconnections"]:
        print(f"the server closed connections after an answer: {steps['reconnections']} while drilling, "
              f"{trivial['reconnections']} on /healthz (reopened)")
    errors = steps["errors"] + trivial["errors"]
    if errors:
        print(f"errors: {len(errors)} answers were not 200 ({sorted(set(errors))})")
    verdicts = [("step p99 <= 30 ms", p99 <= 30), ("throughput >= 40% of trivial", ratio >= 0.4),
                ("step fragment < 4 KB", steps["sizes"].get("step", 1 << 20) < 4096)]
    print("targets: " + ", ".join(f"{name}: {'met' if ok else 'MISSED'}" for name, ok in verdicts))


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    main()
