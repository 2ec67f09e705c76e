"""Real servers for the tests that need requests to overlap or hosts to differ: an app served by werkzeug's
threaded server on a loopback port (`serving`), and a browser (`Browser`: its own cookies, no redirect
followed) whose `Host` has the test client's `get` and `post`, so `drilling.drive` can play on it."""
from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from email.message import Message
from http.cookiejar import CookieJar
from typing import Any
from urllib.error import HTTPError
from urllib.parse import urlencode
from urllib.request import HTTPCookieProcessor, HTTPRedirectHandler, OpenerDirector, Request, build_opener

from flask import Flask
from werkzeug.serving import make_server


@dataclass
class Answer:
    """A server's answer: status, headers, body."""

    status_code: int
    headers: Message
    text: str


class _Unfollowed(HTTPRedirectHandler):
    """Redirects come back as answers (the tests look at where they go)."""

    def redirect_request(self, *args: Any) -> None:
        """Follow none."""
        return None


class Browser:
    """One browser: its cookies, sent to whichever host it asks (as behind a load balancer, where
    both hosts answer at one name)."""

    def __init__(self) -> None:
        self.cookies = CookieJar()
        self._opener: OpenerDirector = build_opener(HTTPCookieProcessor(self.cookies), _Unfollowed)

    def on(self, base: str) -> Host:
        """This browser talking to the host at `base`."""
        return Host(self, base)

    def fetch(self, url: str, data: dict[str, Any] | None, headers: dict[str, str] | None) -> Answer:
        """GET `url` (POST `data`, a form, when given)."""
        body = urlencode(data, doseq=True).encode() if data is not None else None
        request = Request(url, data=body, headers=headers or {}, method="POST" if body is not None else "GET")
        try:
            with self._opener.open(request, timeout=30) as response:
                return Answer(response.status, response.headers, response.read().decode())
        except HTTPError as error:  # 3xx (not followed), 4xx, 5xx
            with error:
                return Answer(error.code, error.headers, error.read().decode())


@dataclass
class Host:
    """A browser at one host, with the test client's `get` and `post` (so `drive` can play on it)."""

    browser: Browser
    base: str

    def get(self, path: str, headers: dict[str, str] | None = None) -> Answer:
        """GET `path`."""
        return self.browser.fetch(self.base + path, None, headers)

    def post(self, path: str, data: dict[str, Any] | None = None, headers: dict[str, str] | None = None) -> Answer:
        """POST the form `data` to `path`."""
        return self.browser.fetch(self.base + path, data or {}, headers)


@contextmanager
def serving(app: Flask) -> Iterator[str]:
    """`app` served on a free loopback port by werkzeug's threaded server: its base URL."""
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join()
        server.server_close()
