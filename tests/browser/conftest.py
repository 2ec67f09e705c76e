"""The browser tests' server: the app on the shipped starter library, served on a free loopback port
from a thread, built once for the whole test session (the library loads once, not once a test);
each test signs in accounts of its own, so the tests do not see each other's runs."""
from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from werkzeug.serving import make_server

from trainer.web import create_app


@pytest.fixture(scope="session")
def live_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, object]]:
    """The app served on a free loopback port from a thread (SQLite, the shipped library); its base URL
    and the app."""
    instance = tmp_path_factory.mktemp("browser") / "instance"
    app = create_app({"INSTANCE_PATH": str(instance), "DATABASE_URL": f"sqlite:///{instance / 'jipai.sqlite'}",
                      "SECRET_KEY": "browser test", "PASSWORD_HASH_METHOD": "pbkdf2:sha256:1000",
                      "LIBRARY_LOAD": "sync",
                      "STARTER_DEALS_DIR": str(Path(__file__).parents[2] / "drills" / "deals")})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}", app
    finally:
        server.shutdown()
        thread.join(5)
        server.server_close()
        app.extensions["jipai_engine"].dispose()  # type: ignore[attr-defined]
