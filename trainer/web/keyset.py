"""Long lists a page at a time by keyset (`?after=` / `?before=` a row's id), never by OFFSET: a
deep page costs what the first one does, and a row added meanwhile does not shift the pages.

A list is one or more groups shown one after the other (the deal list: the user's own deals, then the
starter library), each newest first by an increasing integer key (the row id). A cursor names a row
by its group letter and key (`m120`, `s7`; no letter for a list of one group).
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlmodel import Session
from sqlmodel.sql.expression import SelectOfScalar

Cursor = tuple[str, int]
"""(group letter, key) of a row."""


@dataclass(frozen=True, slots=True)
class Page:
    """One page of a list: its rows, and the cursors of the pages before (`newer`, for `?before=`)
    and after it (`older`, for `?after=`); None at either end."""

    rows: list[Any]
    newer: str | None
    older: str | None


def keyset_page(session: Session, query: SelectOfScalar[Any] | sa.Select[Any], key: Any,
                groups: Sequence[tuple[str, sa.ColumnElement[bool]]], key_of: Callable[[Any], int],
                after: Cursor | None, before: Cursor | None, limit: int) -> Page:
    """The `limit` rows of `query` after the cursor `after` (or before `before`), the groups in order,
    each by `key` descending; `key_of(row)` is a row's key. A cursor of a group the list does not
    show starts from the first page. At most one query per group, each reading `limit + 1` rows."""
    names = [name for name, _condition in groups]
    backwards = before is not None and after is None
    cursor = before if backwards else after
    if cursor is not None and cursor[0] not in names:
        cursor, backwards = None, False
    if cursor is None:
        order = list(range(len(groups)))
    else:
        start = names.index(cursor[0])
        order = list(range(start, -1, -1)) if backwards else list(range(start, len(groups)))
    found: list[tuple[str, Any]] = []
    for index in order:
        name, condition = groups[index]
        part = query.where(condition)
        if cursor is not None and index == order[0]:
            part = part.where(key > cursor[1] if backwards else key < cursor[1])
        part = part.order_by(key.asc() if backwards else key.desc()).limit(limit + 1 - len(found))
        found.extend((name, row) for row in session.exec(part))  # type: ignore[call-overload]
        if len(found) > limit:
            break
    more = len(found) > limit
    found = found[:limit]
    if backwards:
        found.reverse()
    if not found:
        return Page([], None, None)
    first, last = found[0], found[-1]
    newer = more if backwards else cursor is not None
    older = True if backwards else more
    return Page([row for _name, row in found], f"{first[0]}{key_of(first[1])}" if newer else None,
                f"{last[0]}{key_of(last[1])}" if older else None)
