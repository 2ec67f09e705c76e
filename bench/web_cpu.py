"""Benchmark: the server's CPU time per drill request, in one process, without HTTP.

Seeds a temporary instance as `bench/web.py` does (SQLite, or a schema of `--database-url`'s
PostgreSQL), builds the app as the production server does (CSRF and rate limits on), and plays
`--runs` whole runs of the `speed` drill (`--repeat` times) as `bench/web.py`'s players do (the page,
then per checkpoint the step that brings the question and the answer, then the step that ends the
run), calling the WSGI app directly: each request's environ is built outside the measure, so the
figures are the app's own work (no HTTP parsing, no network). Prints the CPU milliseconds
(`time.process_time`) per request of each kind and over all, each the least of the repeats (other
work on the machine slows a process down, never speeds it up), and with `--profile` the functions
that took most of it; with `--floor N`, the median CPU of N requests to `/healthz` and of N of the
app's cheapest signed-in writes (the drill settings' htmx POST), the floor under any drill request.

    .venv/bin/python bench/web_cpu.py [--runs 40] [--repeat 3] [--warm-up 8] [--profile N] [--floor N]
                                      [--database-url URL]
"""
from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from werkzeug.test import EnvironBuilder

ROOT = Path(__file__).resolve().parents[1]


class Caller:
    """Requests to the app as a browser of the bench's players sends them, timed by kind."""

    def __init__(self, app: Any, config: dict[str, Any]) -> None:
        self.app = app
        self.page = {"Cookie": config["cookie"]}
        self.hx = {"Cookie": config["cookie"], "HX-Request": "true", "X-CSRFToken": config["token"]}
        self.reach = {**self.hx, "HX-Target": "div#stage"}  # drill.js's reach: the question alone, into #stage
        self.cpu: dict[str, list[float]] = {}
        self.measuring = False

    def call(self, kind: str, method: str, path: str, headers: dict[str, str],
             form: dict[str, str] | None = None) -> bytes:
        """One request through the WSGI app; its body (its CPU time noted by `kind` while measuring)."""
        query = ""
        if "?" in path:
            path, query = path.split("?", 1)
        environ = EnvironBuilder(path=path, method=method, headers=headers, data=form, query_string=query,
                                 base_url="http://127.0.0.1").get_environ()
        status: list[str] = []

        def start_response(line: str, _headers: list[tuple[str, str]], _exc: Any = None) -> Callable[..., Any]:
            status.append(line)
            return lambda _data: None

        began = time.process_time()
        answer = self.app(environ, start_response)
        body = b"".join(answer)
        if hasattr(answer, "close"):
            answer.close()
        took = time.process_time() - began
        if not status[0].startswith(("200", "204")):
            raise SystemExit(f"{kind} {method} {path}: {status[0]}\n{body[:2000].decode(errors='replace')}")
        if self.measuring:
            self.cpu.setdefault(kind, []).append(took)
        return body

    def run(self, run_id: int) -> None:
        """A whole run as `bench/web.py`'s player drills it (without the waits)."""
        from bench.web import AT, REACH, answer_form

        path = f"/runs/{run_id}"
        body = self.call("page", "GET", path, self.page)
        while True:
            reach = REACH.search(body)
            if reach is None:
                self.call("end", "POST", f"{path}/step?at={AT.search(body).group(1).decode()}", self.hx)
                return
            body = self.call("question", "POST", reach.group(1).decode().replace("&amp;", "&"), self.reach)
            body = self.call("answer", "POST", f"{path}/answer", self.hx, answer_form(body))


def main() -> None:
    """Seed, build the production app, play the runs, print the CPU per request kind."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=40, help="runs measured")
    parser.add_argument("--repeat", type=int, default=3, help="times the runs are measured (the least counts)")
    parser.add_argument("--warm-up", type=int, default=8, help="runs played first, not measured")
    parser.add_argument("--profile", type=int, default=0, metavar="N",
                        help="also profile the measured runs and print the N functions taking most time")
    parser.add_argument("--sort", default="tottime", help="the profile's order (a pstats key: tottime, cumulative)")
    parser.add_argument("--database-url", help="a PostgreSQL URL to use instead of SQLite (a schema of its own)")
    parser.add_argument("--floor", type=int, default=0, metavar="N",
                        help="also time N of the app's cheapest requests: /healthz, and a signed-in htmx POST of "
                             "the drill settings (CSRF, the user's row read and written, a commit, no template)")
    args = parser.parse_args()
    from bench.web import SECRET, database, seed
    from trainer.web import create_app, drills

    chosen = random.Random(2026)  # the same runs every time
    drills.secrets = SimpleNamespace(randbelow=chosen.randrange, token_urlsafe=lambda size: f"{chosen.getrandbits(8 * size):x}")

    folder = Path(tempfile.mkdtemp(prefix="jipai-cpu-"))
    instance = folder / "instance"
    drop = None
    try:
        url, drop = database(args.database_url, instance)
        config = seed(instance, args.runs * args.repeat + args.warm_up, url)
        app = create_app({"INSTANCE_PATH": str(instance), "DATABASE_URL": url, "SECRET_KEY": SECRET,
                          "LIBRARY_LOAD": "sync"})
        caller = Caller(app, config)
        runs = config["runs"]
        for run_id in runs[:args.warm_up]:
            caller.run(run_id)
        profile = cProfile.Profile() if args.profile else None
        least: dict[str, list[float]] = {}
        caller.measuring = True
        for repeat in range(args.repeat):
            caller.cpu = {}
            if profile:
                profile.enable()
            for run_id in runs[args.warm_up + repeat * args.runs:args.warm_up + (repeat + 1) * args.runs]:
                caller.run(run_id)
            if profile:
                profile.disable()
            for kind, values in caller.cpu.items():
                if kind not in least or sum(values) / len(values) < sum(least[kind]) / len(least[kind]):
                    least[kind] = values
        if args.floor:
            caller.cpu = {}
            for _ in range(args.floor):
                caller.call("healthz", "GET", "/healthz", {})
                caller.call("settings", "POST", "/drills/settings", caller.hx, {"speed": "200"})
            floor = {kind: 1000 * sorted(values)[len(values) // 2] for kind, values in caller.cpu.items()}
        app.extensions["jipai_engine"].dispose()
        print(f"CPU per request, {'PostgreSQL' if args.database_url else 'SQLite'}, {args.runs} runs of the speed "
              f"drill, the least of {args.repeat}{' (profiled: slower)' if profile else ''}:")
        for kind, values in sorted(least.items()):
            print(f"  {kind:9s} {len(values):5d} requests  {1000 * sum(values) / len(values):6.2f} ms")
        total = sum(sum(values) for values in least.values()) / sum(len(values) for values in least.values())
        print(f"  {'all':9s} {sum(len(values) for values in least.values()):5d} requests  {1000 * total:6.2f} ms")
        if args.floor:
            print(f"the floor, median of {args.floor}: /healthz {floor['healthz']:.2f} ms, the drill settings' "
                  f"POST {floor['settings']:.2f} ms")
        if profile:
            pstats.Stats(profile).sort_stats(args.sort).print_stats(args.profile)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
        if drop is not None:
            drop()


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    main()
