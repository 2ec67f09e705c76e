"""Fuzzing every way in: mutated deal records, referee lines and uploads are answered in words.

Hypothesis starts from valid records and requests and breaks them — a field set to any JSON value
or deleted, a card renamed, a value buried in brackets, a number too long, `NaN`, a lone surrogate,
the text cut short or a byte flipped — and checks what issue 10 promises: no exception but the
engine's own errors leaves the parsers; `trainer deal verify --json`, called in-process, returns
0, 1 or 2 and prints one JSON object per file; the referee answers each line with exactly one JSON
line. `JIPAI_PROPERTY_SCALE` multiplies the number of cases (as in tests/engine/test_properties.py).
"""
from __future__ import annotations

import contextlib
import copy
import io
import json
import os
import random
import re
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from trainer.bots.random import random_record
from trainer.cli import main
from trainer.engine import Rules
from trainer.engine.cards import full_deck
from trainer.engine.errors import JipaiError
from trainer.json_input import MAX_DEPTH, read_json
from trainer.records import parse_record, replay
from trainer.referee import OPS, answer, serve_lines
from trainer.web.library import LibraryError, check_records, records_from_text

SCALE = float(os.environ.get("JIPAI_PROPERTY_SCALE", "1"))
SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
CASES = max(1, round(200 * SCALE))
"""Examples per property: 200, times JIPAI_PROPERTY_SCALE."""

BASES = [random_record(random.Random(seed), rules=rules, throw_rate=0.3, stop_after=stop)
         for seed, rules, stop in ((1, Rules.parse("standard"), None), (2, Rules.parse("competition"), None),
                                   (3, Rules.parse("botzone"), 30), (4, Rules.parse({"fixed_twos": True}), 7))]
CARDS = sorted({str(card) for card in full_deck(1)})

# -- values and mutations ------------------------------------------------------------------------------

scalars = (st.none() | st.booleans() | st.integers(-10**30, 10**30) | st.floats(allow_nan=False, allow_infinity=False)
           | st.text(max_size=12) | st.sampled_from(CARDS + ["0", "1", "3", " 1", "01", "+1", "٣", "end", "END",
                                                            "standard", "none", "T", "10♥", "大王", "jipai-deal/1"]))
json_values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4)
                           | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=12)
card_like = st.sampled_from(CARDS) | st.text(max_size=6) | st.sampled_from(
    ["1S", "10X", "٣S", "SJ ", "jS", "♠", "10♥", "红桃10", "Q" * 50, "", "AS AS", "\u00a0AS"])


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every path to a value inside `value` (the root excluded)."""
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        yield prefix + (key,)
        yield from _paths(item, prefix + (key,))


def _parent(root: Any, path: tuple[Any, ...]) -> Any:
    for key in path[:-1]:
        root = root[key]
    return root


@st.composite
def mutated(draw: st.DrawFn, base: Any) -> Any:
    """`base` (deep-copied) with one to three structural mutations."""
    value = copy.deepcopy(base)
    for _ in range(draw(st.integers(1, 3))):
        paths = list(_paths(value))
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        parent, key = _parent(value, path), path[-1]
        kind = draw(st.sampled_from(["set", "delete", "card", "wrap", "duplicate", "extra"]))
        if kind == "set":
            parent[key] = draw(json_values)
        elif kind == "delete":
            del parent[key]
        elif kind == "card":
            parent[key] = draw(card_like)
        elif kind == "wrap":
            parent[key] = [parent[key]] if draw(st.booleans()) else {"value": parent[key]}
        elif kind == "duplicate" and isinstance(parent, list):
            parent.extend([parent[key]] * draw(st.integers(1, 120)))
        elif isinstance(value, dict):
            value[draw(st.text(max_size=8))] = draw(json_values)
    return value


TEXT_DAMAGE = ["none", "deep", "huge_int", "nan", "infinity", "huge_float", "surrogate", "cut", "flip"]


@st.composite
def damaged_text(draw: st.DrawFn, value: Any) -> str:
    """`value` as JSON text, then maybe damaged as text: what no JSON encoder would write."""
    text = json.dumps(value, ensure_ascii=draw(st.booleans()))
    kind = draw(st.sampled_from(TEXT_DAMAGE))
    if kind == "none":
        return text
    if kind == "cut":
        return text[:draw(st.integers(0, len(text)))]
    if kind == "flip":
        at = draw(st.integers(0, len(text) - 1))
        return text[:at] + draw(st.characters(codec="utf-8")) + text[at + 1:]
    depth = draw(st.integers(MAX_DEPTH - 2, 3000))
    field = {"deep": "[" * depth + "]" * depth, "huge_int": "9" * draw(st.integers(60, 6000)),
             "nan": "NaN", "infinity": "-Infinity", "huge_float": "1e999",
             "surrogate": '"\\udc80"'}[kind]
    if text.startswith("["):  # the new value goes first in the list
        return "[" + field + ", " + text[1:]
    key = draw(st.sampled_from(["notes", "id", "players", "rules", "level", "op", "cards"]))
    return "{" + json.dumps(key) + ": " + field + ", " + text[1:]


# -- deal records --------------------------------------------------------------------------------------

def _read_record(text: str) -> None:
    """The record parser's contract: a record is read and replayed, or refused with a `JipaiError`."""
    with contextlib.suppress(JipaiError):
        replay(parse_record(read_json(text)))


def _run(*args: str, stdin: io.TextIOBase | None = None) -> tuple[int, str, str]:
    """`trainer ARGS` in-process: (exit status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin
    try:
        if stdin is not None:
            sys.stdin = stdin
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                status = main(list(args))
            except SystemExit as stop:  # argparse refusing the usage
                status = stop.code if isinstance(stop.code, int) else 2
    finally:
        sys.stdin = saved
    return status, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def folder() -> Iterator[Path]:
    with tempfile.TemporaryDirectory() as name:
        yield Path(name)


@settings(max_examples=CASES, **SETTINGS)
@given(data=st.data(), base=st.sampled_from(BASES))
def test_mutated_records_are_read_or_refused_in_words(folder: Path, data: st.DataObject, base: dict) -> None:
    text = data.draw(damaged_text(data.draw(mutated(base))))
    _read_record(text)
    path = folder / "record.json"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    status, out, err = _run("deal", "verify", str(path), "--json")
    assert status in (0, 1, 2)
    (line,) = out.splitlines()
    summary = json.loads(line)
    if status:
        assert set(summary) <= {"id", "file", "error"} and summary["file"] == str(path) and summary["error"]
        assert len(err.splitlines()) == 1 and len(err) < 2000, err
    else:
        assert "complete" in summary and not err


@settings(max_examples=CASES, **SETTINGS)
@given(base=st.sampled_from(BASES), seat=st.text(max_size=4) | st.sampled_from(["0", "1", "2", "3"]),
       at=st.text(max_size=6) | st.sampled_from(["end", "0.0", "1.0", "3.2", "7.4", "99.0", "1.9"]),
       command=st.sampled_from(["show", "track"]))
def test_seats_and_positions_are_read_or_refused_in_words(folder: Path, base: dict, seat: str, at: str,
                                                          command: str) -> None:
    path = folder / "valid.json"
    path.write_text(json.dumps(base), encoding="utf-8")
    status, out, err = _run("deal", command, str(path), f"--seat={seat}", f"--at={at}")
    assert status in (0, 2)
    if status:
        assert not out and len(err.splitlines()) == 1
    else:
        assert out.strip() and not err


# -- the referee -------------------------------------------------------------------------------------

cards_lists = st.lists(st.sampled_from(CARDS), max_size=8)
requests = st.fixed_dictionaries(
    {"op": st.sampled_from(sorted(OPS)), "level": st.sampled_from(["2", "5", "10", "A", "J"]),
     "trump": st.sampled_from(["S", "H", "C", "D", "none"])},
    optional={"rules": st.sampled_from(["standard", "botzone", "competition", "three-deck", "four-deck",
                                        {"follow": "loose"}, {"bombs": "allow"}, {"ace_two_wrap": True}]),
              "cards": cards_lists, "lead": cards_lists, "hand": cards_lists, "play": cards_lists,
              "others": st.lists(cards_lists, max_size=3), "plays": st.lists(cards_lists, min_size=1, max_size=4),
              "attackers_score": st.integers(-400, 400), "banker": st.integers(-1, 4)})
lines = (requests.flatmap(lambda request: st.just(request) | mutated(request)).flatmap(damaged_text)
         | st.text(max_size=40) | json_values.map(json.dumps))


@settings(max_examples=CASES, **SETTINGS)
@given(batch=st.lists(lines, min_size=1, max_size=5))
def test_the_referee_answers_every_line_once(batch: list[str]) -> None:
    batch = [line.replace("\n", " ").replace("\r", " ") for line in batch]
    batch = [line for line in batch if line.strip()] or ["{}"]
    for line in batch:
        assert isinstance(answer(line), dict)  # answer() itself never raises
    status, out, err = _run("rules", "check", stdin=io.StringIO("".join(line + "\n" for line in batch)))
    assert status == 0 and not err
    answers = [json.loads(line) for line in out.splitlines()]
    assert len(answers) == len(batch) and all(isinstance(item, dict) for item in answers)
    assert not any("the referee failed" in str(item.get("error")) for item in answers)


@settings(max_examples=CASES, **SETTINGS)
@given(batch=st.lists(st.binary(max_size=60).filter(lambda raw: b"\n" not in raw and raw.strip()), min_size=1,
                      max_size=4))
def test_the_referee_answers_bytes_that_are_not_text(batch: list[bytes]) -> None:
    replies = list(serve_lines(raw + b"\n" for raw in batch))
    assert len(replies) == len(batch) and all(isinstance(json.loads(reply), dict) for reply in replies)


# -- uploads (the web library reads them with the same parsers) -----------------------------------------

@settings(max_examples=CASES, **SETTINGS)
@given(data=st.data(), bases=st.lists(st.sampled_from(BASES), min_size=1, max_size=2))
def test_uploads_are_stored_or_refused_in_words(data: st.DataObject, bases: list[dict]) -> None:
    body = data.draw(damaged_text([data.draw(mutated(base)) for base in bases]))
    raw = body.encode("utf-8", "surrogatepass")
    try:
        check_records(records_from_text(raw))
    except LibraryError as error:
        assert str(error)


# -- the JSON reader's limits, at their edges --------------------------------------------------------------

def test_json_limits_at_their_edges() -> None:
    assert read_json("[" * MAX_DEPTH + "]" * MAX_DEPTH) is not None
    assert read_json('["' + "[{" * 5000 + '\\"]"]') == ["[{" * 5000 + '"]']  # brackets in strings do not count
    assert read_json("[" + "9" * 64 + ", -" + "9" * 64 + ", 1e308]") == [int("9" * 64), -int("9" * 64), 1e308]
    assert read_json('"\\ud83d\\ude00"') == "😀"  # a surrogate pair is a character
    refused = {"[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1): "nested deeper than 64 levels at line 1, column 65",
               '{"a": ' * 40 + "[" * 40: "nested deeper than 64 levels",
               "[" + "9" * 65 + "]": "an integer of 65 digits is too long",
               "[NaN]": "NaN is not a number", "[Infinity]": "Infinity is not a number", "[1e309]": "1e309",
               '{"a": [1, {"b": "\\udfff"}]}': "a[1].b: a lone surrogate",
               '{"\\ud800": 1}': "a key in the object: a lone surrogate", "[1,": "not JSON: Expecting value"}
    for text, words in refused.items():
        with pytest.raises(JipaiError, match=re.escape(words)):
            read_json(text)
    with pytest.raises(UnicodeDecodeError):
        read_json(b'["\xff"]')
    assert read_json('["AS"]'.encode("utf-16")) == ["AS"]
