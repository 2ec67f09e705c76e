"""Benchmark: how fast the production server answers while slow clients hold connections open.

Starts the README's production command as `bench/web.py` does (loopback, a free port, a temporary
SQLite instance seeded with the starter library and one user with drill runs, or a PostgreSQL
schema of its own), then opens `--headers` connections that send a request's header lines one a
second and never end them, and `--bodies` that send a POST's headers announcing a 100 KB body and
then trickle it, ten bytes a second (as a "slowloris" attack does; 64 and 16 by default); one the
server closes is opened again. Once every slow client has had two turns to send, it asks
`/healthz`, a drill run's page and a drill step (the htmx POST a browser sends), each over a
connection of its own, one after another, `--probes` rounds, one a second, and prints each kind's
latency (p50 and the slowest) and how many did not answer within `--timeout` seconds.

Target (issue 10): with 64 slow-header and 16 slow-body connections open, each answers within 1 s.

    .venv/bin/python bench/slow_clients.py [--headers 64] [--bodies 16] [--probes 10] [--timeout 10]
                                           [--worker-class C] [--threads T] [--database-url URL]
"""
from __future__ import annotations

import argparse
import http.client
import re
import shutil
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
BODY_LENGTH = 100_000
"""The body a slow POST announces: under the app's upload cap, so that it is read, not refused."""


class SlowClients:
    """`headers` connections sending a GET's header lines one every `interval` seconds without ever
    ending them, and `bodies` sending a POST's headers and then its body ten bytes every `interval`
    seconds, never all of it; a connection the server closes is opened again. A context manager: the
    trickle runs on a thread of its own until the block ends, and every socket is closed then."""

    def __init__(self, port: int, headers: int = 64, bodies: int = 16, interval: float = 1.0) -> None:
        self.port = port
        self.interval = interval
        self.kinds = ["header"] * headers + ["body"] * bodies
        self.sockets: list[socket.socket | None] = [None] * len(self.kinds)
        self.sent = [0] * len(self.kinds)
        """Lines or body chunks each connection has sent since it was opened."""
        self.reopened = 0
        """Connections the server closed, opened again."""
        self.ticks = 0
        self._stop = threading.Event()
        self._ticked = threading.Condition()
        self._thread = threading.Thread(target=self._trickle, daemon=True)

    def __enter__(self) -> SlowClients:
        self._thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self._stop.set()
        self._thread.join()
        for sock in self.sockets:
            if sock is not None:
                sock.close()

    def wait(self, ticks: int) -> None:
        """Block until every connection has had `ticks` turns to send since the start."""
        with self._ticked:
            if not self._ticked.wait_for(lambda: self.ticks >= ticks, timeout=ticks * (self.interval + 10)):
                raise TimeoutError(f"the slow clients did not have {ticks} turns to send")

    def _trickle(self) -> None:
        while not self._stop.is_set():
            for index in range(len(self.kinds)):
                self._send(index)
            with self._ticked:
                self.ticks += 1
                self._ticked.notify_all()
            self._stop.wait(self.interval)

    def _send(self, index: int) -> None:
        """Send connection `index` its next piece (its request's start on a new connection)."""
        sock = self.sockets[index]
        try:
            if sock is None:
                sock = self.sockets[index] = socket.create_connection(("127.0.0.1", self.port), timeout=5)
                self.sent[index] = 0
            sock.sendall(self._piece(index))
            self.sent[index] += 1
        except OSError:  # the server closed it (or would not take it): open it again next time
            if sock is not None:
                sock.close()
                self.reopened += 1
            self.sockets[index] = None

    def _piece(self, index: int) -> bytes:
        sent = self.sent[index]
        if self.kinds[index] == "header":
            return (b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n" if sent == 0
                    else f"X-Slow-{sent}: {'a' * 20}\r\n".encode())
        if sent == 0:
            return (f"POST /auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    "Content-Type: application/x-www-form-urlencoded\r\n"
                    f"Content-Length: {BODY_LENGTH}\r\n\r\n").encode()
        return b"username=s" if sent == 1 else b"a" * 10


AT = re.compile(r'/step\?at=(\d+)"')


class Probe:
    """The requests whose answers are timed: `/healthz`, a drill run's page and a step of that run
    from the play the page shows, each on a connection of its own (as a new visitor's would be)."""

    def __init__(self, port: int, cookie: str, token: str, run_id: int, timeout: float) -> None:
        self.port = port
        self.cookie = cookie
        self.token = token
        self.path = f"/runs/{run_id}"
        self.timeout = timeout
        self.at = 0

    def ask(self, method: str, path: str, headers: dict[str, str]) -> tuple[int, str, float]:
        """Send one request on a new connection: its status, body and seconds to the whole answer;
        status 0 when none came within the timeout."""
        began = time.perf_counter()
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=self.timeout)
        try:
            connection.request(method, path, headers=headers)
            answer = connection.getresponse()
            status, body = answer.status, answer.read().decode()
        except (TimeoutError, OSError):
            status, body = 0, ""
        finally:
            connection.close()
        return status, body, time.perf_counter() - began

    def round(self) -> dict[str, tuple[int, float]]:
        """One of each request: its status and latency by kind."""
        results = {}
        status, _body, seconds = self.ask("GET", "/healthz", {})
        results["healthz"] = (status, seconds)
        status, body, seconds = self.ask("GET", self.path, {"Cookie": self.cookie})
        results["page"] = (status, seconds)
        found = AT.search(body)
        if found:
            self.at = int(found.group(1))
        status, body, seconds = self.ask("POST", f"{self.path}/step?at={self.at}",
                                         {"Cookie": self.cookie, "HX-Request": "true", "X-CSRFToken": self.token})
        results["step"] = (status, seconds)
        found = AT.search(body)
        if found:
            self.at = int(found.group(1))
        return results


def measure(port: int, config: dict[str, Any], headers: int, bodies: int, probes: int,
            timeout: float) -> tuple[dict[str, list[tuple[int, float]]], SlowClients]:
    """Open the slow clients, wait until each has sent two pieces, then time `probes` rounds of the
    probe requests, one a second: every answer's status and latency by kind, and the slow clients
    (closed)."""
    probe = Probe(port, config["cookie"], config["token"], config["runs"][0], timeout)
    results: dict[str, list[tuple[int, float]]] = {}
    with SlowClients(port, headers, bodies) as slow:
        for round_ in range(probes):
            slow.wait(2 + round_)
            for kind, answer in probe.round().items():
                results.setdefault(kind, []).append(answer)
    return results, slow


def main() -> None:
    """Seed, serve the README's production command, open the slow clients, time the probes, report."""
    sys.path.insert(0, str(ROOT))
    from bench.web import (add_server_options, check_server_options, database, gunicorn_options, percentile,
                           production_server, seed, server_description)

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--headers", type=int, default=64, help="connections trickling header lines")
    parser.add_argument("--bodies", type=int, default=16, help="connections trickling a POST's body")
    parser.add_argument("--probes", type=int, default=10, help="rounds of /healthz, a run page and a step")
    parser.add_argument("--timeout", type=float, default=10, help="seconds to wait for an answer")
    add_server_options(parser)
    args = parser.parse_args()
    for name, low in (("headers", 0), ("bodies", 0), ("probes", 1)):
        if getattr(args, name) < low:
            parser.error(f"--{name} must be at least {low}, not {getattr(args, name)}")
    if args.timeout <= 0:
        parser.error(f"--timeout must be more than 0, not {args.timeout:g}")
    check_server_options(parser, args)

    folder = Path(tempfile.mkdtemp(prefix="jipai-slow-"))
    instance = folder / "instance"
    drop = None
    try:
        url, drop = database(args.database_url, instance)
        config = seed(instance, 1, url)
        with production_server(instance, url, gunicorn_options(args)) as (port, _workers):
            results, slow = measure(port, config, args.headers, args.bodies, args.probes, args.timeout)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
        if drop is not None:
            drop()

    print(f"{server_description(args)}, loopback; {args.headers} connections trickling header lines and "
          f"{args.bodies} trickling a POST's body, one piece a second ({slow.reopened} closed by the server "
          "and opened again)")
    worst = 0.0
    for kind, label in (("healthz", "/healthz"), ("page", "run page GET"), ("step", "drill step POST")):
        answers = results[kind]
        times = [seconds for status, seconds in answers if status == 200]
        failed = len(answers) - len(times)
        worst = max([worst, *(seconds for _status, seconds in answers)])
        figures = (f"p50 {percentile(times, 50):6.1f} ms, slowest {1000 * max(times):6.1f} ms" if times
                   else "no answer")
        print(f"{label + ':':17}{len(answers)} requests, {figures}"
              + (f"; {failed} not answered with 200 within {args.timeout:g} s" if failed else ""))
    print(f"target: every answer within 1 s: {'met' if worst <= 1 else 'MISSED'}")


if __name__ == "__main__":
    main()
