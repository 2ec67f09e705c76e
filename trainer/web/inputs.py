"""Request input no query could hold, refused in words before it reaches the database: NUL characters
in the address or a form, ids past their columns, and the lists' page cursors."""
from __future__ import annotations

import re

from flask import Flask, Response, request
from flask_babel import gettext as _
from werkzeug.exceptions import BadRequest
from werkzeug.routing import IntegerConverter, Map

MAX_ID = 2**31 - 1
"""The largest row id: ids are INTEGER columns, 32 bits on PostgreSQL."""


class IdConverter(IntegerConverter):
    """A row id in a route (`<id:run_id>`): 1 to `MAX_ID`, so that a larger one is a 404 (there is
    nothing there) before any query."""

    def __init__(self, url_map: Map) -> None:
        super().__init__(url_map, min=1, max=MAX_ID)

FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


class BadParameter(BadRequest):
    """A request parameter that is not valid; `description` says which and why, in the user's language."""


def refuse_nul() -> None:
    """Refuse a NUL character in the address or in a posted form field (PostgreSQL cannot store one
    in text, and no page needs one): a 400 saying so. A `before_request` hook."""
    if "\x00" in request.path or b"%00" in request.query_string or b"\x00" in request.query_string:
        raise BadParameter(_nul())
    if request.mimetype in FORM_TYPES:
        for key, values in request.form.lists():
            if "\x00" in key or any("\x00" in value for value in values):
                raise BadParameter(_nul())


def _nul() -> str:
    return _("The address or a form field holds a NUL character (\\0), which no page accepts.")


CURSOR = re.compile(r"([a-z]?)([1-9][0-9]{0,9})")
"""A list's page cursor: an optional one-letter group and a row id (`m123`, `45`)."""


def page_cursor(name: str, groups: str = "") -> tuple[str, int] | None:
    """The list cursor in query argument `name` as (group, id), None when absent; `BadParameter` when
    it is not a group letter among `groups` (or none when `groups` is empty) and an id up to `MAX_ID`."""
    value = request.args.get(name)
    if value is None or value == "":
        return None
    found = CURSOR.fullmatch(value)
    if found is None or int(found.group(2)) > MAX_ID or found.group(1) not in (tuple(groups) or ("",)):
        raise BadParameter(_("This page of the list does not exist (%(name)s=%(value)s). Start again from "
                             "the first page.", name=name, value=value[:40]))
    return found.group(1), int(found.group(2))


def close_after_too_large(response: Response) -> Response:
    """A 413 closes the connection (`Connection: close`): the rest of the request may still be on its
    way, unread, so the socket cannot serve another request. An `after_request` hook."""
    if response.status_code == 413:
        response.headers["Connection"] = "close"
    return response


def init_app(app: Flask) -> None:
    """Route ids (`<id:…>`); refuse NUL characters in every request; close the connection after a 413.
    Called before the blueprints are registered."""
    app.url_map.converters["id"] = IdConverter
    app.before_request(refuse_nul)
    app.after_request(close_after_too_large)
