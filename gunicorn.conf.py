"""gunicorn settings for the Jipai web app, read by gunicorn when it starts in this folder
(`gunicorn -w 2 'trainer.web:create_app()'`, as the README and `bench/web.py` run it)."""
from __future__ import annotations

import gc
import os
from typing import Any

import gevent

from trainer.paths import instance_folder, private_folder

worker_class = "gevent"
"""Each worker serves its connections in greenlets (gevent, monkey-patched as the worker starts): a
client that sends its request slowly holds a greenlet waiting on its socket, not one of a few
threads, so slow clients cannot keep the others waiting (the `gthread` workers before stopped
answering with eight connections trickling their headers). Up to `worker_connections` connections
per worker; reading a request's headers may take at most `keepalive` seconds."""

keepalive = 75
"""Seconds an idle connection is kept open for the client's next request (and the most that reading a
request's headers may take), as nginx's default `keepalive_timeout`: a player drilling sends a
request every few seconds (the plays revealed, then the answer thought over), and with gunicorn's 2 s
every request opened a new connection (its handshake in the player's wait, its accept and a new
greenlet in the worker's CPU); browsers keep a connection open longer than that. An idle kept-alive
connection costs a worker a socket and a sleeping greenlet."""

worker_connections = 4000
"""Connections a worker holds at once (gunicorn's default is 1,000): with connections kept alive,
each player at a drill holds one, and 2,000 players over two workers would fill the default."""

reuse_port = True
"""Each worker listens on a socket of its own (`SO_REUSEPORT`), and the kernel spreads the new
connections over them evenly: on one shared socket, whichever worker woke first took the next
connection, and kept-alive connections stay with the worker that took them, so one worker served up
to seven tenths of the load while the other idled. (A connection still waiting in a worker's own
queue when that worker is restarted is dropped; with one shared socket, the other worker would take
it.)"""

UNIX_PATH_MAX = 107
"""The longest path a unix socket can be bound to on Linux (`sun_path` holds 108 bytes with the final NUL)."""

control_socket = os.path.join(os.path.abspath(instance_folder()), "gunicorn.ctl")
"""gunicorn's control socket (for `gunicornc`) in the app's instance folder, the server's own: gunicorn 25+
puts it at `$XDG_RUNTIME_DIR/gunicorn.ctl` or `~/.gunicorn/gunicorn.ctl`, one path for every gunicorn of
the user, so a second server took it from the first (and stopping either removed it)."""

control_socket_disable = len(os.fsencode(control_socket)) > UNIX_PATH_MAX
"""No control socket when the instance folder's path is too long for one (gunicorn would only warn that it
cannot bind it)."""

if not control_socket_disable:
    private_folder(os.path.dirname(control_socket))  # as the app makes it (0700), before gunicorn would


def post_worker_init(worker: Any) -> None:
    """Once a worker has built the app (modules, config, templates, the curriculum), move all of it
    out of the garbage collector's sight: a full collection then looks only at what requests made
    since, instead of pausing a worker for tens of milliseconds."""
    gc.freeze()


def post_request(worker: Any, req: Any, environ: dict[str, Any], resp: Any) -> None:
    """After each answer, let the worker's other greenlets that are ready run before this
    connection's next request: gevent switches only when a greenlet would wait, and a client whose
    next request is already there when its answer has gone out was otherwise served again and again
    while the others waited (in `bench/web.py` on a busy machine, a step p99 of 220–490 ms against
    100–145 ms with this hook)."""
    gevent.sleep(0)
