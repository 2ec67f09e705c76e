"""Where the web app keeps its files: the project folder (templates, migrations, the shipped deals) and the
instance folder (the database, the secret key, the start locks, gunicorn's control socket).

Nothing here imports the web app, so that `gunicorn.conf.py` can name the instance folder without loading it.
"""
from __future__ import annotations

import os
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parents[1]


def instance_folder() -> str:
    """The instance folder: `JIPAI_INSTANCE_PATH`, else `instance/` in the project folder."""
    return os.environ.get("JIPAI_INSTANCE_PATH") or str(PROJECT_ROOT / "instance")


def private_folder(path: str) -> None:
    """Make the folder `path` (with its parents) when it is missing, the folder itself open to its
    owner only (0700: the instance folder holds the database and the secret key)."""
    if not os.path.isdir(path):
        os.makedirs(path, mode=0o700, exist_ok=True)
        os.chmod(path, 0o700)  # makedirs' mode passes through the umask
