"""gunicorn settings for the Jipai web app, read by gunicorn when it starts in this folder
(`gunicorn -w 2 'trainer.web:create_app()'`, as the README and `bench/web.py` run it)."""
from __future__ import annotations

import gc
import sys
from typing import Any

worker_class = "gthread"
threads = 2
"""Two request threads per worker: a request that takes long (a run's page, a question) does not
hold up the drill steps queued behind it."""

reuse_port = True
"""Each worker listens on a socket of its own (`SO_REUSEPORT`), and the kernel spreads the new
connections over them evenly: on one shared socket, whichever worker woke first took the next
connection, and kept-alive connections stay with the worker that took them, so one worker served up
to seven tenths of the load while the other idled. (A connection still waiting in a worker's own
queue when that worker is restarted is dropped; with one shared socket, the other worker would take
it.)"""

SWITCH_INTERVAL = 0.001
"""Seconds a thread runs before it offers the interpreter to the other (Python's default is 0.005):
the steps waiting behind a long request get their turn within a millisecond."""


def post_worker_init(worker: Any) -> None:
    """Once a worker has built the app (modules, config, templates, the curriculum), move all of it
    out of the garbage collector's sight — a full collection then looks only at what requests made
    since, instead of pausing a worker for tens of milliseconds — and let its threads take turns
    every `SWITCH_INTERVAL`."""
    gc.freeze()
    sys.setswitchinterval(SWITCH_INTERVAL)
