"""The engine's errors: one base class, distinct kinds for malformed input and illegal plays."""
from __future__ import annotations


class JipaiError(ValueError):
    """Base of every error the engine raises on bad input."""


class MalformedError(JipaiError):
    """Input that cannot be read: a bad card token, an unknown option, a missing field."""


class IllegalPlayError(JipaiError):
    """A well-formed play that the rules forbid; `reason` says why in words."""

    def __init__(self, reason: str, *, trick: int | None = None, seat: int | None = None) -> None:
        self.reason = reason
        self.trick = trick
        self.seat = seat
        where = []
        if trick is not None:
            where.append(f"trick {trick}")
        if seat is not None:
            where.append(f"seat {seat}")
        super().__init__(f"{', '.join(where)}: {reason}" if where else reason)


def shown(value: object, limit: int = 20) -> str:
    """`value` as a short repr for an error message: long input is cut to `limit` characters and `…`."""
    if isinstance(value, str) and len(value) > limit:
        return repr(value[:limit]) + "…"
    if isinstance(value, (list, dict)) and len(value) > limit:
        return f"a {type(value).__name__} of {len(value)} items"
    text = repr(value)
    return text if len(text) <= limit + 2 else text[:limit] + "…"
