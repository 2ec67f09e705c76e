"""Answering pages and htmx: the fragment when htmx asks, the page otherwise; redirects both ways."""
from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from flask import redirect, render_template, request
from flask_htmx.responses import HTMXResponseClientRedirect
from werkzeug.wrappers import Response

from trainer.web.extensions import htmx


def render_page(template_name: str, fragment: str | None = None, status: int = 200,
                **context: Any) -> tuple[str, int]:
    """Render `template_name`, or only `fragment` (the `_name.html` the page includes) for an htmx request."""
    template = fragment if fragment is not None and wants_fragment() else template_name
    return render_template(template, **context), status


def wants_fragment() -> bool:
    """True for an htmx request that swaps part of a page; False for a plain request and for htmx
    asking for a whole page (restoring history after Back, or targeting `<body>`)."""
    return bool(htmx) and not htmx.history_restore_request and request.headers.get("HX-Request-Type") != "full"


def go(url: str) -> Response:
    """After a successful POST: a 303 redirect, or for htmx an `HX-Redirect` (so htmx loads the
    whole page instead of swapping it into the form)."""
    if htmx:
        return HTMXResponseClientRedirect(url)
    return redirect(url, 303)


def safe_next(value: str | None, default: str) -> str:
    """`value` when it is a path on this site (no scheme, no host), else `default`."""
    if not value:
        return default
    parts = urlsplit(value)
    if parts.scheme or parts.netloc or not value.startswith("/") or value.startswith("//") or "\\" in value:
        return default
    return value
