"""Reading JSON from people and programs: every input is answered, in time linear in its length.

`read_json` is `json.loads` with limits: nesting at most `MAX_DEPTH` levels (checked before the
parser recurses), integers of at most `MAX_DIGITS` digits, finite numbers only (no `NaN` or
`Infinity`), and no lone surrogates (`"\\ud800"`) in any string. Whatever it refuses raises
`JSONInputError`, the engine's malformed-input error, which is also a `json.JSONDecodeError`.
"""
from __future__ import annotations

import json
import math
import operator
import re
from itertools import accumulate, count
from typing import Any

from trainer.engine.errors import MalformedError

MAX_DEPTH = 64
"""Arrays and objects nested deeper than this are refused (a deal record needs 4)."""
MAX_DIGITS = 64
"""Integers with more digits than this are refused (Python refuses 4,300 itself, with a traceback)."""

_STRING = r'"(?:[^"\\]|\\.)*"?'
"""A JSON string; one left open runs to the end of the text, so no text is scanned twice."""
_TOKEN = re.compile(_STRING + r"|[\[\]{}]", re.DOTALL)
_NOT_STRUCTURE = bytes(byte for byte in range(256) if byte not in b'[]{}"')
"""Every byte but brackets and quotes (UTF-8 never puts these ASCII bytes inside another character)."""
_STEPS = bytes.maketrans(b"[{]}", b"\2\2\0\0")
_DEPTH_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}
_SURROGATE = re.compile("[\ud800-\udfff]")


class JSONInputError(MalformedError, json.JSONDecodeError):
    """JSON text that cannot be read, or that breaks a limit; `msg` says what, `lineno`/`colno` where,
    `kind` which rule it broke (`syntax`, `depth`, `digits`, `constant`, `float`, `surrogate`), and
    `token` the number or constant refused (for messages in other languages)."""

    def __init__(self, msg: str, doc: str, pos: int | None, kind: str, token: str = "") -> None:
        json.JSONDecodeError.__init__(self, msg, doc, pos or 0)
        self.kind, self.token = kind, token
        where = f" at line {self.lineno}, column {self.colno}" if pos is not None else ""
        self.args = (f"{'not JSON: ' if kind == 'syntax' else ''}{msg}{where}",)


class _Refused(ValueError):
    """A number hook's refusal, carrying its kind and the token out of `json.loads`."""

    def __init__(self, msg: str, kind: str, token: str) -> None:
        super().__init__(msg)
        self.kind, self.token = kind, token


def _refuse_constant(name: str) -> Any:
    raise _Refused(f"{name} is not a number JSON allows", "constant", name)


def _read_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise _Refused(f"an integer of {len(text.lstrip('-'))} digits is too long (at most {MAX_DIGITS})",
                       "digits", text[:20])
    return int(text)


def _read_float(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):
        raise _Refused(f"the number {text[:20]}{'…' if len(text) > 20 else ''} is too large", "float", text[:20])
    return number


def _brackets_outside_strings(text: str) -> bytes:
    """The brackets of `text` that are not inside strings, in order, by whole-text passes: escaped
    backslashes and quotes go first (so every quote left opens or closes a string), then every byte but
    brackets and quotes; split at the quotes, the pieces alternate outside and inside strings. (On text
    that is not JSON the answer is still right up to the first error, where the parser stops.)"""
    if "\\" in text:
        text = text.replace("\\\\", "").replace('\\"', "")
    kept = text.encode("utf-8", "surrogatepass").translate(None, _NOT_STRUCTURE)
    return b"".join(kept.split(b'"')[::2])


def _check_depth(text: str) -> None:
    """Refuse nesting deeper than `MAX_DEPTH`, in linear time: the brackets outside strings become
    steps of +1 / -1 (as 2 / 0 less one each), whose running sum is the depth."""
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return
    steps = _brackets_outside_strings(text).translate(_STEPS)
    if max(map(operator.sub, accumulate(steps), count(1)), default=0) <= MAX_DEPTH:
        return
    depth = 0  # too deep: find where, for the message (this pass stops at the spot)
    for token in _TOKEN.finditer(text):
        depth += _DEPTH_STEP.get(text[token.start()], 0)
        if depth > MAX_DEPTH:
            raise JSONInputError(f"nested deeper than {MAX_DEPTH} levels", text, token.start(), "depth")


def _path(where: str, key: object) -> str:
    return f"{where}[{key}]" if isinstance(key, int) else (f"{where}.{key}" if where else str(key))


def _lone_surrogate(value: Any, where: str = "") -> str | None:
    """The path of the first string (or key) holding a lone surrogate, or None."""
    if isinstance(value, str):
        return where or "the text" if _SURROGATE.search(value) else None
    if isinstance(value, list):
        items: Any = enumerate(value)
    elif isinstance(value, dict):
        for key in value:
            if _SURROGATE.search(key):
                return f"a key in {where or 'the object'}"
        items = value.items()
    else:
        return None
    for key, item in items:
        found = _lone_surrogate(item, _path(where, key))
        if found is not None:
            return found
    return None


def read_json(text: str | bytes) -> Any:
    """Parse JSON text (bytes are decoded as JSON allows: UTF-8, -16 or -32); `JSONInputError` names
    the first problem. A bytes input that is not text raises `UnicodeDecodeError`."""
    if isinstance(text, (bytes, bytearray)):
        text = bytes(text).decode(json.detect_encoding(text))
    _check_depth(text)
    try:
        value = json.loads(text, parse_int=_read_int, parse_float=_read_float, parse_constant=_refuse_constant)
    except json.JSONDecodeError as error:
        raise JSONInputError(error.msg, text, error.pos, "syntax") from None
    except _Refused as error:  # a hook refused a number: json does not say where
        raise JSONInputError(str(error), text, None, error.kind, error.token) from None
    if "\\u" in text or _SURROGATE.search(text):
        where = _lone_surrogate(value)
        if where is not None:
            raise JSONInputError(f"{where}: a lone surrogate (\\ud800–\\udfff) is not a character", text, None,
                                 "surrogate", where)
    return value
