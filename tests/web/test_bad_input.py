"""Bad input anywhere is a 4xx page in words (Chinese and English), never a 500: huge numbers in the
address, dates at the end of the calendar, ids past what a column holds, NUL characters, and uploads
that Python's JSON reader accepts but no database can store (deep nesting, huge integers, NaN)."""
from __future__ import annotations

import io
import json
import re

import pytest

from trainer.bots.generate import generate_records
from trainer.engine.rules import Rules

from .drilling import HX, start

BIG = "9" * 25
"""A page number or id past every integer column (and past SQLite's 64 bits)."""

PAST_INT64 = str(2**63)
PAST_INT32 = str(2**31)
"""Ids past a BIGINT and past a PostgreSQL INTEGER column (the ids' type)."""

WORDS = {"zh": ("出错了", "Traceback"), "en": ("went wrong", "Traceback")}


def _english(client) -> None:
    assert client.post("/lang", data={"lang": "en"}).status_code == 303


def _refused_in_words(response, status: tuple[int, ...] = (400, 404)) -> None:
    assert response.status_code in status, (response.status_code, response.text[:300])
    assert "Traceback" not in response.text
    assert '<p class="error">' in response.text or 'class="error' in response.text, response.text[:500]


GETS = {
    f"/deals?page={BIG}": 200, f"/review?page={BIG}": 200,  # lists go by keyset now: `page` means nothing
    f"/deals?after={BIG}": 400, f"/review?after={BIG}": 400, f"/deals?before={BIG}": 400,
    f"/review?before={BIG}": 400, "/deals?after=-3": 400, "/review?after=x": 400, "/review?after=m3": 400,
    f"/deals?after=m{PAST_INT32}": 400, "/deals?after=3": 400,
    f"/review/{PAST_INT64}": 404, f"/review/{PAST_INT32}": 404, f"/review/{BIG}": 404, "/review/0": 404,
    f"/runs/{PAST_INT64}": 404, f"/runs/{PAST_INT32}": 404, f"/runs/{PAST_INT64}/summary": 404,
    f"/runs/{PAST_INT32}/summary": 404,
    "/deals/a%00b": 400, "/deals/a%00b/export": 400, "/deals/a%00b/delete": 400, "/deals?rules=%00": 400,
    "/review?type=a%00": 400, "/review?%00=1": 400,
}


@pytest.mark.parametrize("path", GETS)
def test_bad_addresses_are_refused_in_words(alice, path: str) -> None:
    for headers in ({}, HX):
        response = alice.get(path, headers=headers)
        assert response.status_code == GETS[path], (path, response.status_code)
        if response.status_code >= 400:
            _refused_in_words(response)
            assert ("<html" in response.text) == (not headers)


def test_a_bad_page_cursor_says_so(alice) -> None:
    response = alice.get(f"/deals?after={BIG}")
    assert "列表没有这一页" in response.text and f"after={BIG[:40]}" in response.text
    _english(alice)
    assert "This page of the list does not exist" in alice.get("/review?before=0").text


@pytest.mark.parametrize("path", [f"/runs/{PAST_INT64}/step?at=1", f"/runs/{PAST_INT32}/answer",
                                  f"/runs/{PAST_INT32}/finish", f"/runs/{BIG}/step", "/deals/a%00b/delete",
                                  f"/drills/{'x' * 5000}/start"])
def test_bad_posts_are_refused_in_words(alice, path: str) -> None:
    _refused_in_words(alice.post(path, data={"checkpoint": "0", "answer": "1"}))


def test_a_nul_in_a_form_field_is_refused_in_words(client, accounts) -> None:
    _refused_in_words(accounts.login("al\x00ice"), (400,))
    _refused_in_words(accounts.register("bo\x00b"), (400,))
    _english(client)
    response = accounts.login("al\x00ice")
    _refused_in_words(response, (400,))
    assert "NUL" in response.text and "character" in response.text


def test_the_nul_refusal_speaks_both_languages(alice) -> None:
    chinese = alice.get("/deals/a%00b")
    assert chinese.status_code == 400 and "NUL" in chinese.text and "字符" in chinese.text
    _english(alice)
    english = alice.get("/deals/a%00b")
    assert english.status_code == 400 and "character" in english.text


def test_a_review_date_at_the_end_of_the_calendar(alice) -> None:
    for query in ("until=9999-12-31", "since=9999-12-31", "since=0001-01-01&until=9999-12-31"):
        response = alice.get(f"/review?{query}")
        assert response.status_code == 200, query
    assert "0 道错题" in alice.get("/review?since=9999-12-31").text


def test_ids_past_the_columns_are_404_in_both_languages(app, alice) -> None:
    start(alice, "trumps")
    for path in (f"/runs/{PAST_INT32}", f"/review/{PAST_INT64}"):
        response = alice.get(path)
        assert response.status_code == 404 and "这里什么也没有" in response.text
    _english(alice)
    response = alice.get(f"/runs/{PAST_INT32}")
    assert response.status_code == 404 and "nothing here" in response.text


def _upload(client, content: bytes, headers: dict[str, str] | None = None) -> object:
    return client.post("/deals/import", data={"kind": "record", "file": (io.BytesIO(content), "deal.json")},
                       content_type="multipart/form-data", headers=headers or {})


def _record_text(**change: object) -> str:
    record = generate_records(Rules(), seed=11, count=1)[0]
    record.update(change)
    return json.dumps(record)


UPLOADS = {
    "nested 1000 deep": (b"[" * 1000 + b"]" * 1000, "嵌套", "nested"),
    "nested 100000 deep": (b"[" * 100_000 + b"]" * 100_000, "嵌套", "nested"),
    "an integer of 5000 digits": (b'{"x": ' + b"7" * 5000 + b"}", "位数", "digits"),
    "NaN": (_record_text(notes="x").replace('"x"', "NaN").encode(), "NaN", "NaN"),
    "Infinity": (b'[{"a": -Infinity}]', "Infinity", "Infinity"),
    "a number too big for a float": (b'{"a": 1e400}', "1e400", "1e400"),
    "a lone surrogate": (_record_text(notes="\ud800").encode(), "代理", "surrogate"),
}


@pytest.mark.parametrize("case", UPLOADS)
def test_uploads_no_database_can_store_are_refused_in_words(app, alice, case: str) -> None:
    content, chinese, english = UPLOADS[case]
    for headers in ({}, HX):
        response = _upload(alice, content, headers)
        assert response.status_code == 422, response.text[:300]
        assert "一局也没有导入" in response.text and chinese in response.text, response.text[-2000:]
    _english(alice)
    response = _upload(alice, content)
    assert response.status_code == 422 and "Nothing was imported" in response.text and english in response.text


def test_a_nul_inside_an_uploaded_record_is_stored_or_refused_never_a_500(app, alice) -> None:
    text = _record_text(source={"kind": "club\u0000night"}, notes="a\u0000b")
    response = _upload(alice, text.encode())
    assert response.status_code in (303, 422), response.text[:300]
    for path in ("/deals", "/deals?whose=mine"):
        assert alice.get(path).status_code == 200


def test_numbers_of_5000_digits_in_the_address_or_a_form(app, alice) -> None:
    huge = "7" * 5000
    run_id = start(alice, "trumps")
    shared = re.search(r'href="/deals/([0-9a-f]{16})"', alice.get("/deals").text).group(1)
    assert "第 1 轮" in alice.get(f"/deals/{shared}?trick={huge}&seat={huge}", headers=HX).text
    assert alice.post(f"/runs/{run_id}/step?at={huge}", headers=HX).status_code == 200
    assert alice.post(f"/runs/{run_id}/answer", data={"checkpoint": huge, "answer": huge}).status_code == 303
    refused = alice.post("/deals/generate", data={"rules": "standard", "count": huge})
    assert refused.status_code == 422 and 'class="error"' in refused.text
