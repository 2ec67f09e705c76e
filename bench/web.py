"""Benchmark: drill steps under load, against a production server.

Starts the app under gunicorn (2 workers, loopback, a free port) on a temporary SQLite instance
seeded with the starter library and one user with drill runs in progress, then drives it from a
second process with C concurrent keep-alive connections (default 32; each worker takes half, so
that they split evenly): a drill-step mix — each connection steps its own run card by card (htmx
step POSTs carrying the cursor it was shown, so every step advances the run and writes it) and
every tenth request reloads the run page (a GET of the whole page) — first on runs kept for a
warm-up (the workers meet the deals, as a server that has been up a while has), then, measured,
on the others. Then the same number of requests to a trivial endpoint of the same app
(`/healthz`). Prints requests per second and p50/p99 latency for the steps and for the trivial
endpoint, the throughput ratio, and the bytes of a drill page and of a step fragment.

Targets (issue 5): step p99 ≤ 30 ms at 32 connections, step throughput ≥ 40% of the trivial
endpoint's, a step fragment < 4 KB.

    .venv/bin/python bench/web.py [--connections 32] [--requests 4000] [--seconds 60]
                                  [--worker-class gthread] [--threads 1] [--database-url URL]
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
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
    """Migrate a fresh SQLite database, load the starter library, make a user with `runs` drill runs
    in progress (each asked only at its last play: the bench measures the plain step), and return
    the session cookie, a CSRF token and the runs."""
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
    with app.app_context(), Session(engine) as db:
        for run_id in ids:
            run = db.get(DrillRun, run_id)
            assert run is not None
            from trainer.web.models import Deal

            deal = db.get(Deal, run.deal_pk)
            assert deal is not None
            total = deal_cache().get(db, (deal.pk, deal.id, deal.created)).total
            db.execute(sa.update(DrillRun).where(DrillRun.id == run_id).values(checkpoints=[total]))
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
    with admin.begin() as connection:
        connection.execute(sa.text(f'CREATE SCHEMA "{schema}"'))

    def drop() -> None:
        with admin.begin() as connection:
            connection.execute(sa.text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()

    return base.update_query_dict({"options": f"-csearch_path={schema}"}).render_as_string(hide_password=False), drop


# -- the load generator (the second process) ---------------------------------------------------------

class Connection:
    """One keep-alive HTTP/1.1 connection (reopened when the server closes it)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(self, method: str, path: str, headers: dict[str, str], body: bytes = b"") -> tuple[int, bytes]:
        """Send one request and read the whole answer: (status, body)."""
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        lines = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{self.port}"]
        lines += [f"{name}: {value}" for name, value in headers.items()]
        if body:
            lines += ["Content-Type: application/x-www-form-urlencoded", f"Content-Length: {len(body)}"]
        self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
        assert self.reader is not None
        head = await self.reader.readuntil(b"\r\n\r\n")
        status = int(head[9:12])
        length = int(re.search(rb"(?i)\r\ncontent-length: *(\d+)", head).group(1))
        data = await self.reader.readexactly(length)
        if re.search(rb"(?i)\r\nconnection: *close", head):
            self.writer.close()
            self.reader = self.writer = None
        return status, data

    def close(self) -> None:
        """Close the socket."""
        if self.writer is not None:
            self.writer.close()


async def drive_steps(port: int, config: dict[str, Any], connections: int, requests: int,
                      seconds: float) -> dict[str, Any]:
    """Each connection steps its own run; every tenth request reloads the run page."""
    cookie, token = config["cookie"], config["token"]
    step_times: list[float] = []
    page_times: list[float] = []
    sizes: dict[str, int] = {}
    errors: list[int] = []
    deadline = time.perf_counter() + seconds
    per_connection = requests // connections

    runs = config["runs"]

    async def worker(index: int) -> None:
        mine = [run["id"] for number, run in enumerate(runs) if number % connections == index]
        path = f"/runs/{mine.pop(0)}"
        conn = Connection(port)
        at = 0
        try:
            for n in range(per_connection):
                if time.perf_counter() > deadline:
                    break
                start = time.perf_counter()
                if n % 10 == 9:
                    status, body = await conn.request("GET", path, {"Cookie": cookie})
                    page_times.append(time.perf_counter() - start)
                    sizes.setdefault("page", len(body))
                else:
                    status, body = await conn.request(
                        "POST", f"{path}/step?at={at}", {"Cookie": cookie, "HX-Request": "true", "X-CSRFToken": token,
                                                         "Content-Length": "0"})
                    step_times.append(time.perf_counter() - start)
                    sizes.setdefault("step", len(body))
                if status != 200:
                    errors.append(status)
                    continue
                if b'id="answer-form"' in body:  # this run is at its question: go on with the next one
                    path, at = f"/runs/{mine.pop(0)}", 0
                    continue
                found = re.search(rb'/step\?at=(\d+)"', body)
                if found:
                    at = int(found.group(1))
        finally:
            conn.close()

    began = time.perf_counter()
    await asyncio.gather(*(worker(i) for i in range(connections)))
    elapsed = time.perf_counter() - began
    return {"steps": step_times, "pages": page_times, "elapsed": elapsed, "sizes": sizes, "errors": errors}


async def drive_trivial(port: int, connections: int, requests: int, seconds: float) -> dict[str, Any]:
    """The same load on `/healthz`."""
    times: list[float] = []
    errors = 0
    deadline = time.perf_counter() + seconds

    async def worker() -> None:
        nonlocal errors
        conn = Connection(port)
        try:
            for _ in range(requests // connections):
                if time.perf_counter() > deadline:
                    break
                start = time.perf_counter()
                status, _body = await conn.request("GET", "/healthz", {})
                times.append(time.perf_counter() - start)
                errors += status != 200
        finally:
            conn.close()

    began = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(connections)))
    return {"times": times, "elapsed": time.perf_counter() - began, "errors": errors}


def driver(port: int, config_path: str, connections: int, requests: int, seconds: float) -> None:
    """The second process: warm up (the trivial endpoint, then the step mix on runs of their own, so
    that the workers have met the deals, as a server that has been up a while has), drive the step
    mix on the other runs, then the trivial endpoint; print JSON."""
    config = json.loads(Path(config_path).read_text())
    half = len(config["runs"]) // 2
    asyncio.run(drive_trivial(port, connections, connections * 20, seconds))
    warm = asyncio.run(drive_steps(port, {**config, "runs": config["runs"][:half]}, connections, requests, seconds))
    steps = asyncio.run(drive_steps(port, {**config, "runs": config["runs"][half:]}, connections, requests, seconds))
    trivial = asyncio.run(drive_trivial(port, connections, requests, seconds))
    print(json.dumps({"warm-up": warm, "steps": steps, "trivial": trivial}))


# -- the report ---------------------------------------------------------------------------------------

def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (nearest rank), in milliseconds."""
    ordered = sorted(values)
    return 1000 * ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered)) - 1))]


def main() -> None:
    """Seed, serve under gunicorn, drive from a second process, report."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--requests", type=int, default=4000, help="requests per phase (steps mix, trivial)")
    parser.add_argument("--seconds", type=float, default=60, help="time limit per phase")
    parser.add_argument("--worker-class", default="gthread", help="gunicorn worker class (sync, gthread)")
    parser.add_argument("--threads", type=int, default=1, help="threads per gthread worker")
    parser.add_argument("--database-url", help="a PostgreSQL URL to use instead of SQLite (a schema of its own, "
                                               "dropped afterwards)")
    parser.add_argument("--drive", nargs=2, metavar=("PORT", "CONFIG"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.drive:
        driver(int(args.drive[0]), args.drive[1], args.connections, args.requests, args.seconds)
        return

    folder = Path(tempfile.mkdtemp(prefix="jipai-bench-"))
    instance = folder / "instance"
    try:
        plays_per_run = 60  # the starter deals have 96-100 plays; a run is left for the next at its question
        runs = 2 * args.connections * (args.requests // args.connections // plays_per_run + 2)  # warm-up, measure
        url, drop = database(args.database_url, instance)
        config = seed(instance, runs, url)
        config_path = folder / "config.json"
        config_path.write_text(json.dumps(config))
        port = free_port()
        env = {**os.environ, "JIPAI_INSTANCE_PATH": str(instance), "SECRET_KEY": SECRET,
               "DATABASE_URL": url}
        gunicorn = [str(Path(sys.executable).with_name("gunicorn")), "-w", "2", "-b", f"127.0.0.1:{port}",
                    "--worker-class", args.worker_class, "--threads", str(args.threads), "--keep-alive", "30",
                    "--worker-connections", str(-(-args.connections // 2)),
                    "--backlog", "256", "--log-level", "warning", "trainer.web:create_app()"]
        server = subprocess.Popen(gunicorn, env=env, cwd=ROOT)
        try:
            for _ in range(200):
                try:
                    with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1) as answer:
                        if answer.read() == b"ok":
                            break
                except OSError:
                    time.sleep(0.1)
            else:
                raise SystemExit("gunicorn did not start")
            drive = subprocess.run([sys.executable, __file__, "--drive", str(port), str(config_path),
                                    "--connections", str(args.connections), "--requests", str(args.requests),
                                    "--seconds", str(args.seconds)], capture_output=True, text=True, check=True)
        finally:
            server.terminate()
            server.wait(10)
        result = json.loads(drive.stdout)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
        if drop is not None:
            drop()
    report(result, args)


def report(result: dict[str, Any], args: argparse.Namespace) -> None:
    """Print the figures and how they compare with the targets."""
    steps, trivial, warm = result["steps"], result["trivial"], result["warm-up"]
    step_count = len(steps["steps"])
    mix_rate = (step_count + len(steps["pages"])) / steps["elapsed"]
    step_rate = step_count / steps["elapsed"]
    trivial_rate = len(trivial["times"]) / trivial["elapsed"]
    p99 = percentile(steps["steps"], 99)
    print(f"gunicorn: 2 workers ({args.worker_class}"
          + (f", {args.threads} threads" if args.worker_class == "gthread" else "")
          + f"), {'PostgreSQL' if args.database_url else 'SQLite'}, {args.connections} concurrent connections, "
            "loopback")
    print(f"drill steps:   {step_count} requests, {step_rate:7.0f} steps/s within {mix_rate:.0f} requests/s of the mix, "
          f"p50 {percentile(steps['steps'], 50):5.1f} ms, p99 {p99:5.1f} ms")
    print(f"  (warm-up on other runs, the workers meeting the deals: {len(warm['steps'])} steps, "
          f"p50 {percentile(warm['steps'], 50):.1f} ms, p99 {percentile(warm['steps'], 99):.1f} ms)")
    print(f"run page GETs: {len(steps['pages'])} requests, p50 {percentile(steps['pages'], 50):5.1f} ms, "
          f"p99 {percentile(steps['pages'], 99):5.1f} ms")
    print(f"/healthz:      {len(trivial['times'])} requests, {trivial_rate:7.0f} requests/s, "
          f"p50 {percentile(trivial['times'], 50):5.1f} ms, p99 {percentile(trivial['times'], 99):5.1f} ms")
    ratio = mix_rate / trivial_rate
    print(f"throughput ratio (step mix / trivial): {ratio:.0%}")
    print(f"bytes: drill page {steps['sizes'].get('page', 0)}, step fragment {steps['sizes'].get('step', 0)}")
    errors = len(steps["errors"]) + trivial["errors"]
    if errors:
        print(f"errors: {errors} answers were not 200 ({sorted(set(steps['errors']))})")
    verdicts = [("step p99 <= 30 ms", p99 <= 30), ("throughput >= 40% of trivial", ratio >= 0.4),
                ("step fragment < 4 KB", steps["sizes"].get("step", 1 << 20) < 4096)]
    print("targets: " + ", ".join(f"{name}: {'met' if ok else 'MISSED'}" for name, ok in verdicts))


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    main()
