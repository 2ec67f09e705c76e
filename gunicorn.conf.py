"""gunicorn settings for the Jipai web app, read by gunicorn when it starts in this folder
(`gunicorn -w 2 'trainer.web:create_app()'`, as the README and `bench/web.py` run it)."""
from __future__ import annotations

import gc
from typing import Any


def post_worker_init(worker: Any) -> None:
    """Once a worker has built the app (modules, config, templates, the curriculum), move all of it
    out of the garbage collector's sight: a full collection then looks only at what requests made
    since, instead of pausing a worker — and every request queued on it — for tens of milliseconds."""
    gc.freeze()
