"""Benchmark: how soon the app answers its first page after it is started, empty and warm.

Launches `trainer serve --port P` with `JIPAI_INSTANCE_PATH` a fresh temporary folder (SQLite in it, or
with `--database-url` a fresh schema of that PostgreSQL database) and times, from the launch, the first
`GET /` answered 200 (and the CPU time the server's processes had used by then: the figure that holds on
a busy machine), and then the end of the starter library's load (its `library_loads` row finished);
then stops it and starts it again on the same instance (the warm start: the schema current and the
shipped library's digest already loaded). `--repeat` fresh instances, each started twice. The same for
the README's production command (`gunicorn -w 2 'trainer.web:create_app()'` in the project folder,
reading `gunicorn.conf.py`, as `bench/web.py`'s `production_server` runs it), unless `--no-production`.
Prints each start's figures, their medians, and the targets. The app's modules are byte-compiled first
(`compileall`) and the servers run without `PYTHONDONTWRITEBYTECODE`, as an installed app runs: compiling
the project's modules from source at every start costs about 0.5 s of CPU.

Targets (issue 21): the first page within 5 s of the start on an empty instance, within 2 s on a warm one.

    .venv/bin/python bench/start.py [--repeat 3] [--database-url URL] [--no-production]
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import sqlalchemy as sa

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.web import ROOT, SECRET, database, free_port  # noqa: E402
from trainer.web.db import make_engine  # noqa: E402
from trainer.web.models import LibraryLoad  # noqa: E402

TARGETS = {"empty": 5.0, "warm": 2.0}
"""Seconds from the launch to the first page answered (issue 21)."""
POLL = 0.02
"""Seconds between tries while waiting for the first page."""
GIVE_UP = 300
"""Seconds after which a start that has not answered, or a load that has not finished, counts as failed."""


@dataclass(frozen=True, slots=True)
class Start:
    """One start's figures, in seconds from the launch."""

    first_page: float
    cpu: float
    loaded: float


def cpu_seconds(pid: int) -> float:
    """The CPU time (user and system) process `pid` and its living descendants have used so far: what a start
    costs whatever else the machine runs (the wall time grows with the machine's load)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:  # (gone meanwhile)
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK") + sum(cpu_seconds(int(child))
                                                                               for child in children)


def first_page(port: int, server: subprocess.Popen[bytes], launched: float) -> float:
    """Seconds from `launched` to the first `GET /` answered 200."""
    while time.perf_counter() - launched < GIVE_UP:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as answer:
                if answer.status == 200:
                    return time.perf_counter() - launched
        except (OSError, urllib.error.HTTPError):
            if server.poll() is not None:
                raise SystemExit(f"start.py: the server stopped as it started (exit status {server.returncode})")
        time.sleep(POLL)
    raise SystemExit(f"start.py: no page within {GIVE_UP} s")


def library_loaded(engine: sa.Engine, launched: float) -> float:
    """Seconds from `launched` until the newest `library_loads` row is finished (on a warm start, at once)."""
    while time.perf_counter() - launched < GIVE_UP:
        with engine.connect() as connection:
            finished = connection.execute(sa.select(LibraryLoad.finished).order_by(LibraryLoad.id.desc())
                                          .limit(1)).first()
        if finished is not None and finished[0] is not None:
            return time.perf_counter() - launched
        time.sleep(0.1)
    raise SystemExit(f"start.py: the library had not loaded after {GIVE_UP} s")


def start(command: list[str], env: dict[str, str], url: str, port: int) -> Start:
    """Launch `command`, time its first page and the library's load, stop it."""
    launched = time.perf_counter()
    server = subprocess.Popen(command, env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        page = first_page(port, server, launched)
        cpu = cpu_seconds(server.pid)
        engine = make_engine(url)  # (once the server has made the instance and the schema)
        try:
            return Start(page, cpu, library_loaded(engine, launched))
        finally:
            engine.dispose()
    finally:
        server.terminate()
        server.wait(30)


def commands(port: int, production: bool) -> dict[str, list[str]]:
    """The commands timed: `trainer serve`, and the production command unless not `production`."""
    bin_dir = Path(sys.executable).parent
    found = {"trainer serve": [str(bin_dir / "trainer"), "serve", "--port", str(port)]}
    if production:
        found["gunicorn -w 2"] = [str(bin_dir / "gunicorn"), "-w", "2", "-b", f"127.0.0.1:{port}",
                                  "--log-level", "warning", "trainer.web:create_app()"]
    return found


def report(name: str, kind: str, starts: list[Start]) -> str:
    """One line: the first pages and loads of `starts`, their medians, and the target."""
    pages = statistics.median(s.first_page for s in starts)
    cpu = statistics.median(s.cpu for s in starts)
    loads = statistics.median(s.loaded for s in starts)
    target = TARGETS[kind]
    return (f"{name:14} {kind:5}  first page {', '.join(f'{s.first_page:.2f}' for s in starts)} s "
            f"(median {pages:.2f}, target ≤ {target:g}: {'met' if pages <= target else 'MISSED'}; CPU {cpu:.2f} s); "
            f"library loaded {', '.join(f'{s.loaded:.1f}' for s in starts)} s (median {loads:.1f})")


def main() -> None:
    """Time `--repeat` empty and warm starts of each command and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=3, help="fresh instances per command, each started twice")
    parser.add_argument("--database-url", help="a PostgreSQL database to make a fresh schema in (default: SQLite)")
    parser.add_argument("--no-production", dest="production", action="store_false",
                        help="time `trainer serve` only")
    args = parser.parse_args()
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    port = free_port()
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "trainer"), str(ROOT / "migrations")],
                   check=True)
    print(f"shipped library, {'PostgreSQL' if args.database_url else 'SQLite'}, {args.repeat} instances per command",
          flush=True)
    for name, command in commands(port, args.production).items():
        figures: dict[str, list[Start]] = {"empty": [], "warm": []}
        for _ in range(args.repeat):
            folder = Path(tempfile.mkdtemp(prefix="jipai-start-"))
            instance = folder / "instance"
            url, drop = database(args.database_url, instance)
            env = {**{key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"},
                   "JIPAI_INSTANCE_PATH": str(instance), "SECRET_KEY": SECRET, "DATABASE_URL": url}
            try:
                for kind in figures:
                    figures[kind].append(start(command, env, url, port))
                    done = figures[kind][-1]
                    print(f"  {name} {kind}: first page {done.first_page:.2f} s (CPU {done.cpu:.2f} s), "
                          f"library loaded {done.loaded:.1f} s", flush=True)
            finally:
                if drop:
                    drop()
                shutil.rmtree(folder, ignore_errors=True)
        for kind, starts in figures.items():
            print(report(name, kind, starts), flush=True)


if __name__ == "__main__":
    main()
