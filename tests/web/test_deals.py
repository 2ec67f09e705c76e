"""The deal library: list and filters, generate, import (records, Botzone logs), export, replay, isolation."""
from __future__ import annotations

import io
import json
import re
from typing import Any

import pytest
import sqlalchemy as sa
from sqlmodel import Session, select

from trainer.bots.generate import generate_records
from trainer.engine.rules import PRESETS, Rules
from trainer.records import parse_record, record_id, replay, verify_summary
from trainer.web.display import PRESET_LABELS, SOURCE_LABELS
from trainer.web.models import Deal

from .conftest import Accounts
from .drilling import attempts, drive, start, statements
from .pages import visible_text

HX = {"HX-Request": "true"}
DEAL_LINK = re.compile(r'href="/deals/([0-9a-f]{16})"')


def _ids(text: str) -> list[str]:
    return DEAL_LINK.findall(text)


def _upload(client, content: bytes | str, kind: str = "record", headers: dict[str, str] | None = None,
            name: str = "deal.json") -> Any:
    data = content.encode() if isinstance(content, str) else content
    return client.post("/deals/import", data={"kind": kind, "file": (io.BytesIO(data), name)},
                       content_type="multipart/form-data", headers=headers or {})


def _stored(app, **where: Any) -> list[Deal]:
    with Session(app.extensions["jipai_engine"]) as session:
        query = select(Deal)
        for name, value in where.items():
            query = query.where(getattr(Deal, name) == value)
        return list(session.exec(query).all())


def _record(seed: int = 11, rules: str = "standard") -> dict[str, Any]:
    return generate_records(Rules.parse(rules), seed=seed, count=1)[0]


# -- list and filters ------------------------------------------------------------------------------

def test_list_page_and_fragment(alice) -> None:
    page = alice.get("/deals")
    assert page.status_code == 200 and "<html" in page.text
    assert 'class="filters"' in page.text and 'id="deal-list"' in page.text
    assert len(_ids(page.text)) == 3
    fragment = alice.get("/deals", headers=HX)
    assert fragment.status_code == 200 and "<html" not in fragment.text
    assert fragment.text.lstrip().startswith('<section id="deal-list"') and len(_ids(fragment.text)) == 3
    assert fragment.headers["Vary"].startswith("HX-Request") or "HX-Request" in fragment.headers["Vary"]


def test_htmx_asking_for_a_whole_page_gets_one(alice) -> None:
    for header in ({"HX-History-Restore-Request": "true"}, {"HX-Request-Type": "full"}):
        page = alice.get("/deals?trump=H", headers={**HX, **header})
        assert page.status_code == 200 and "<html" in page.text, header
    assert "<html" not in alice.get("/deals", headers={**HX, "HX-Request-Type": "partial"}).text


def test_filters(app, alice) -> None:
    alice.post("/deals/generate", data={"rules": "competition", "count": "3"})
    assert len(_ids(alice.get("/deals").text)) == 6
    assert len(_ids(alice.get("/deals?rules=competition").text)) == 3
    assert len(_ids(alice.get("/deals?whose=mine").text)) == 3
    assert len(_ids(alice.get("/deals?whose=shared").text)) == 3
    assert _ids(alice.get("/deals?complete=no").text) == []
    assert len(_ids(alice.get("/deals?complete=yes").text)) == 6
    for trump in ("S", "H", "C", "D", "none"):
        expected = {deal.id for deal in _stored(app, trump=trump)}
        assert set(_ids(alice.get(f"/deals?trump={trump}", headers=HX).text)) == expected
    assert len(_ids(alice.get("/deals?rules=nonsense&trump=X&page=zero").text)) == 6


def test_deals_of_every_deck_count_are_generated_listed_and_filtered(app, alice) -> None:
    for preset, count in (("one-deck", "1"), ("three-deck", "2"), ("four-deck", "1")):
        assert alice.post("/deals/generate", data={"rules": preset, "count": count}).status_code == 303
    assert {deal.rules: deal.decks for deal in _stored(app, owner_id=1)} == {"one-deck": 1, "three-deck": 3,
                                                                             "four-deck": 4}
    for decks in (1, 2, 3, 4):
        expected = {deal.id for deal in _stored(app, decks=decks)}
        assert len(expected) == {1: 1, 2: 3, 3: 2, 4: 1}[decks]
        assert set(_ids(alice.get(f"/deals?decks={decks}", headers=HX).text)) == expected
    assert len(_ids(alice.get("/deals?decks=5").text)) == 7  # not a choice: any
    listed = visible_text(alice.get("/deals?decks=3", headers=HX).text)
    assert listed.count("3副牌") == 2 and "2副牌" not in listed
    four = _stored(app, decks=4)[0]
    page = visible_text(alice.get(f"/deals/{four.id}").text)
    assert "4" in page.split("副数", 1)[1][:8]


PAGE_LINK = re.compile(r'<a href="(/deals\?[^"]*)">[^<]*(较早|较新)')


def _page_links(text: str) -> dict[str, str]:
    return {word: link.replace("&amp;", "&") for link, word in PAGE_LINK.findall(text)}


def test_pages_go_by_keyset_and_keep_the_filters(make_app, accounts) -> None:
    app = make_app(DEALS_PER_PAGE=2)
    client = app.test_client()
    type(accounts)(client).sign_up("alice")
    client.post("/deals/generate", data={"rules": "standard", "count": "3"})
    mine = sorted(_stored(app, owner_id=1), key=lambda deal: -deal.pk)
    shared = sorted(_stored(app, owner_id=None), key=lambda deal: -deal.pk)
    for query, expected in (("", mine + shared), ("?whose=mine", mine), ("?whose=shared", shared)):
        pages, url = [], f"/deals{query}"
        with statements(app) as seen:
            while True:
                page = client.get(url)
                assert page.status_code == 200
                pages.append(_ids(page.text))
                links = _page_links(page.text)
                assert all(query[1:] in link for link in links.values())
                if "较早" not in links:
                    break
                url = links["较早"]
        assert [deal_id for ids in pages for deal_id in ids] == [deal.id for deal in expected], query
        assert all(len(ids) == 2 for ids in pages[:-1]) and pages[-1]
        assert not [sql for sql in seen if "OFFSET" in sql.upper()]
        for back in reversed(pages[:-1]):  # and back again by the newer links
            page = client.get(_page_links(page.text)["较新"])
            assert _ids(page.text) == back
        assert "较新" not in _page_links(page.text)


def test_the_list_reads_only_the_columns_it_shows(app, alice) -> None:
    with statements(app) as seen:
        assert len(_ids(alice.get("/deals").text)) == 3
    listing = [sql for sql in seen if "FROM deals" in sql and "count(" not in sql]
    assert listing and not [sql for sql in listing if "deals.record" in sql]


# -- generate ----------------------------------------------------------------------------------------

def test_generate_without_htmx_redirects_with_a_message(app, alice) -> None:
    response = alice.post("/deals/generate", data={"rules": "fixed-twos", "count": "2"})
    assert response.status_code == 303 and response.headers["Location"] == "/deals?whose=mine"
    page = alice.get(response.headers["Location"])
    assert "你的牌库新增 2 局" in page.text
    mine = [deal for deal in _stored(app) if deal.owner_id is not None]
    assert len(mine) == 2 and {deal.rules for deal in mine} == {"fixed-twos"}
    assert all(deal.complete and deal.source_kind == "generated" for deal in mine)


def test_generate_with_htmx_answers_the_form_fragment(alice) -> None:
    response = alice.post("/deals/generate", data={"rules": "standard", "count": "1"}, headers=HX)
    assert response.status_code == 200 and "<html" not in response.text
    assert response.text.lstrip().startswith('<form id="generate-form"')
    assert "你的牌库新增 1 局" in response.text and len(_ids(response.text)) == 1


@pytest.mark.parametrize("preset", ["standard", "bisai"])
def test_generate_plays_gouji_deals_under_a_gouji_preset(app, alice, preset) -> None:
    """A 够级 preset of the form (`gouji:<preset>`) has the 够级 bots play six-seat deals, stored as 够级 deals
    under that preset and shown on the 够级 deal page."""
    assert f'value="gouji:{preset}"' in alice.get("/deals/new").text
    response = alice.post("/deals/generate", data={"rules": f"gouji:{preset}", "count": "2"}, headers=HX)
    assert response.status_code == 200 and "你的牌库新增 2 局" in response.text
    mine = [deal for deal in _stored(app) if deal.owner_id is not None]
    assert len(mine) == 2 and {(deal.game, deal.rules) for deal in mine} == {("gouji", preset)}
    assert all(deal.complete and deal.source_kind == "generated" and len(deal.record["hands"]) == 6 for deal in mine)
    assert alice.get(f"/deals/{mine[0].id}").status_code == 200


def _generate_choice(page: str) -> tuple[str, str]:
    """The preset chosen in the generate form, and the count typed in it."""
    form = page[page.index('<form id="generate-form"'):]
    preset = re.search(r'<select id="rules"[^>]*>.*?<option selected value="([^"]+)"', form, re.DOTALL).group(1)
    return preset, re.search(r'<input id="count"[^>]*value="(\d+)"', form).group(1)


def test_the_generate_form_keeps_the_chosen_preset(alice) -> None:
    assert _generate_choice(alice.get("/deals/new").text) == ("standard", "4")
    fragment = alice.post("/deals/generate", data={"rules": "competition", "count": "2"}, headers=HX)
    assert "你的牌库新增 2 局" in fragment.text and _generate_choice(fragment.text) == ("competition", "2")
    assert _generate_choice(alice.get("/deals/new").text) == ("competition", "2")
    assert alice.post("/deals/generate", data={"rules": "fixed-twos", "count": "1"}).status_code == 303
    assert _generate_choice(alice.get("/deals/new").text) == ("fixed-twos", "1")
    refused = alice.post("/deals/generate", data={"rules": "competition", "count": "21"}, headers=HX)
    assert refused.status_code == 422 and _generate_choice(refused.text) == ("competition", "21")


@pytest.mark.parametrize("data", [{"rules": "standard", "count": "0"}, {"rules": "standard", "count": "21"},
                                  {"rules": "standard", "count": "many"}, {"rules": "pinochle", "count": "1"},
                                  {"rules": "standard"}])
def test_generate_refuses_bad_input_in_words(app, alice, data: dict[str, str]) -> None:
    page = alice.post("/deals/generate", data=data)
    assert page.status_code == 422 and "<html" in page.text and 'class="error"' in page.text
    fragment = alice.post("/deals/generate", data=data, headers=HX)
    assert fragment.status_code == 422 and "<html" not in fragment.text and 'class="error"' in fragment.text
    assert all(deal.owner_id is None for deal in _stored(app))


def test_a_library_holds_at_most_max_deals_per_user(make_app, accounts) -> None:
    app = make_app(MAX_DEALS_PER_USER=4)
    client = app.test_client()
    type(accounts)(client).sign_up("alice")
    assert client.post("/deals/generate", data={"rules": "standard", "count": "3"}).status_code == 303
    for headers in ({}, HX):
        refused = client.post("/deals/generate", data={"rules": "standard", "count": "2"}, headers=headers)
        assert refused.status_code == 422 and "一局也没有生成" in refused.text and "上限是 4" in refused.text
    records = [_record(seed) for seed in (61, 62)]
    refused = _upload(client, json.dumps(records))
    assert refused.status_code == 422 and "一局也没有导入" in refused.text and "上限是 4" in refused.text
    assert len(_stored(app, owner_id=1)) == 3
    assert _upload(client, json.dumps(records[0])).status_code == 303
    assert len(_stored(app, owner_id=1)) == 4
    assert "你的牌库新增 0 局" in _upload(client, json.dumps(records[0]), headers=HX).text  # already there: no room needed
    client.post("/lang", data={"lang": "en"})
    refused = client.post("/deals/generate", data={"rules": "standard", "count": "1"})
    assert "Nothing was generated" in refused.text and "the limit is 4" in refused.text


def test_generating_and_importing_are_rate_limited_per_user(make_app, accounts) -> None:
    app = make_app(RATELIMIT_ENABLED=True, GENERATE_RATE_LIMIT="2 per minute", IMPORT_RATE_LIMIT="1 per minute")
    client = app.test_client()
    users = type(accounts)(client)
    users.sign_up("alice")
    for _ in range(2):
        assert client.post("/deals/generate", data={"rules": "standard", "count": "1"}).status_code == 303
    limited = client.post("/deals/generate", data={"rules": "standard", "count": "1"})
    assert limited.status_code == 429 and "尝试次数太多" in limited.text
    assert _upload(client, json.dumps(_record(63))).status_code == 303
    assert _upload(client, json.dumps(_record(64))).status_code == 429
    assert len(_stored(app, owner_id=1)) == 3
    users.logout()
    users.sign_up("bob")
    assert client.post("/deals/generate", data={"rules": "standard", "count": "1"}).status_code == 303
    assert _upload(client, json.dumps(_record(64))).status_code == 303


def test_new_page_and_fragment(alice) -> None:
    page = alice.get("/deals/new")
    assert page.status_code == 200 and 'id="generate-form"' in page.text and 'id="import-form"' in page.text
    assert 'enctype="multipart/form-data"' in page.text


# -- import ----------------------------------------------------------------------------------------

def test_import_a_record_keeps_unknown_fields(app, alice) -> None:
    record = _record() | {"notes": "from the club night", "x-extra": {"kept": True}}
    response = _upload(alice, json.dumps(record))
    assert response.status_code == 303
    (deal,) = _stored(app, owner_id=1)
    assert deal.id == record_id(record) and deal.record["x-extra"] == {"kept": True}
    assert deal.source_kind == "generated" and deal.rules == "standard"


def test_import_an_array_with_htmx(app, alice) -> None:
    records = [_record(seed) for seed in (1, 2, 3)]
    response = _upload(alice, json.dumps(records), headers=HX)
    assert response.status_code == 200 and response.text.lstrip().startswith('<form id="import-form"')
    assert "你的牌库新增 3 局" in response.text
    assert len(_stored(app, owner_id=1)) == 3
    again = _upload(alice, json.dumps(records[:1]), headers=HX)
    assert "你的牌库新增 0 局" in again.text and "有 1 局已经在库里" in again.text


def test_import_a_starter_deal_is_not_a_copy(app, alice) -> None:
    shared = _stored(app)[0]
    response = _upload(alice, json.dumps(shared.record), headers=HX)
    assert "有 1 局已经在库里" in response.text
    assert len(_stored(app, id=shared.id)) == 1


def _illegal_record() -> tuple[dict[str, Any], str]:
    """A record whose trick 3 has its second and third plays swapped (wrong cards for the seat)."""
    record = _record(21)
    trick = record["tricks"][2]
    trick["plays"][1], trick["plays"][2] = trick["plays"][2], trick["plays"][1]
    try:
        replay(parse_record(record))
    except ValueError as error:
        return record, str(error)
    raise AssertionError("the record should be illegal")


ERROR = re.compile(r'<p class="error" role="alert">(.*?)</p>', re.DOTALL)
DETAIL = re.compile(r'<details class="detail"><summary>[^<]*</summary><p lang="en">(.*?)</p></details>', re.DOTALL)


def _refusal(page: str) -> tuple[str, str | None]:
    """The import form's refusal as shown, and the engine's own words under it (when there are some)."""
    text = page.replace("&#39;", "'").replace("&#34;", '"')
    detail = DETAIL.search(text)
    return ERROR.search(text).group(1), detail.group(1) if detail else None


@pytest.mark.parametrize("case", ["not json", "not utf-8", "empty array", "not a record", "wrong format",
                                  "illegal play", "bad id", "one bad in an array", "unknown preset", "missing field"])
def test_bad_uploads_are_refused_in_words(app, alice, case: str) -> None:
    illegal, reason = _illegal_record()
    content, expected, engine = {
        "not json": (b"{'single': 'quotes'}", "不是合法的 JSON：第 1 行第 2 列", None),
        "not utf-8": ("记牌".encode("gbk"), "文件不是 UTF-8 文本", None),
        "empty array": (b"[]", "文件里没有牌局", None),
        "not a record": (b'"a string"', "这不是有效的牌局记录", "a deal record must be a JSON object"),
        "wrong format": (json.dumps(_record() | {"format": "jipai-deal/9"}).encode(), "记录中的格式有误",
                         "format must be"),
        "illegal play": (json.dumps(illegal).encode(), "第 3 轮：", reason),
        "bad id": (json.dumps(_record() | {"id": "../../etc/passwd"}).encode(), "不是 1–64 个字母", None),
        "one bad in an array": (json.dumps([_record(1), illegal]).encode(), "第 2 局：第 3 轮：", reason),
        "unknown preset": (json.dumps(_record() | {"rules": "pinochle"}).encode(), "记录中的规则有误",
                           "unknown rules preset 'pinochle'"),
        "missing field": (json.dumps({k: v for k, v in _record().items() if k != "kitty"}).encode(),
                          "记录缺少底牌", "missing field 'kitty'"),
    }[case]
    for headers in ({}, HX):
        response = _upload(alice, content, headers=headers)
        assert response.status_code == 422
        assert ("<html" in response.text) == (not headers)
        error, detail = _refusal(response.text)
        assert error.startswith("一局也没有导入：") and expected in error, error
        assert "Traceback" not in response.text
        if engine is None:
            assert detail is None
        else:  # the rules engine's own English words, under the refusal in the page's language
            assert engine in detail and engine not in error
            assert re.search(r"[A-Za-z]{3,}", error.removeprefix("一局也没有导入：")) is None, error
    assert all(deal.owner_id is None for deal in _stored(app))


def test_an_illegal_play_names_trick_and_seat(alice) -> None:
    illegal, reason = _illegal_record()
    assert reason.startswith("trick 3, seat ")
    seat = int(reason.removeprefix("trick 3, seat ").split(":")[0])
    error, detail = _refusal(_upload(alice, json.dumps(illegal)).text)
    assert error == f"一局也没有导入：第 3 轮：{seat} 号位的出牌不合规则" and detail == reason
    alice.post("/lang", data={"lang": "en"})
    error, detail = _refusal(_upload(alice, json.dumps(illegal)).text)
    assert error == f"Nothing was imported: trick 3: seat {seat} plays against the rules" and detail == reason


def test_import_without_a_file(alice) -> None:
    response = alice.post("/deals/import", data={"kind": "record"}, content_type="multipart/form-data")
    assert response.status_code == 422 and "请选择要上传的文件" in response.text


def test_a_too_large_upload_is_refused_in_words(make_app, accounts) -> None:
    app = make_app(UPLOAD_LIMIT=64 * 1024)
    client = app.test_client()
    type(accounts)(client).sign_up("alice")
    big = b"[" + b" " * (64 * 1024) + b"]"
    page = _upload(client, big)
    assert page.status_code == 413 and "<html" in page.text
    assert "文件超过 64 KB" in page.text and 'id="import-form"' in page.text
    fragment = _upload(client, big, headers=HX)
    assert fragment.status_code == 413 and "<html" not in fragment.text and "文件超过 64 KB" in fragment.text
    assert all(deal.owner_id is None for deal in _stored(app))


def _multipart(content: bytes) -> dict[str, Any]:
    """The import form as a body of its own (the test client spools a large file to a file it never closes)."""
    boundary = "jipai-test-boundary"
    body = (f'--{boundary}\r\nContent-Disposition: form-data; name="kind"\r\n\r\nrecord\r\n--{boundary}\r\n'
            'Content-Disposition: form-data; name="file"; filename="deal.json"\r\n'
            'Content-Type: application/json\r\n\r\n').encode() + content + f"\r\n--{boundary}--\r\n".encode()
    return {"data": body, "content_type": f"multipart/form-data; boundary={boundary}"}


def test_the_upload_limit_is_on_the_file_itself(app, alice) -> None:
    limit = app.config["UPLOAD_LIMIT"]
    assert limit == 512 * 1024 and app.config["MAX_CONTENT_LENGTH"] > limit
    record = json.dumps(_record(12)).encode()
    almost = record + b" " * (round(511.7 * 1024) - len(record))
    response = alice.post("/deals/import", **_multipart(almost))
    assert response.status_code == 303, response.text[-800:]
    assert [deal.id for deal in _stored(app, owner_id=1)] == [record_id(_record(12))]
    over = b"[" + b" " * (limit - 1) + b"]"
    assert len(over) == limit + 1
    response = alice.post("/deals/import", **_multipart(over))
    assert response.status_code == 413 and "文件超过 512 KB" in response.text


def test_a_request_too_large_closes_the_connection(app, alice) -> None:
    body = _multipart(b" " * app.config["MAX_CONTENT_LENGTH"])
    for headers in ({}, HX):
        response = alice.post("/deals/import", headers=headers, **body)
        assert response.status_code == 413 and "文件超过 512 KB" in response.text
        assert response.headers["Connection"] == "close"
    assert alice.get("/deals").headers.get("Connection") != "close"


def test_botzone_upload_uses_the_converter(app, alice, monkeypatch: pytest.MonkeyPatch) -> None:
    converted = [_record(3, "botzone") | {"source": {"kind": "botzone"}}]
    seen = []

    def convert_log(data: object) -> list[dict[str, Any]]:
        seen.append(data)
        return converted

    monkeypatch.setattr("trainer.imports.botzone.convert_log", convert_log)
    response = _upload(alice, json.dumps([{"log": "entries"}]), kind="botzone", headers=HX)
    assert response.status_code == 200 and "你的牌库新增 1 局" in response.text
    assert seen == [[{"log": "entries"}]]
    (deal,) = _stored(app, owner_id=1)
    assert deal.rules == "botzone" and deal.source_kind == "botzone"


def test_botzone_errors_are_shown_in_words(app, alice) -> None:
    for content in (b"[]", b'{"not": "a log"}', b"not json"):
        response = _upload(alice, content, kind="botzone")
        assert response.status_code == 422 and "一局也没有导入" in response.text, content
    assert all(deal.owner_id is None for deal in _stored(app))


@pytest.mark.parametrize(("reason", "shown"), [
    ("the log has no hand for seat 2", "无法读取这份 Botzone 对局记录"),
    ("the log breaks the botzone rules: trick 4, seat 1: does not hold 大王", "这份对局记录不符合 Botzone 规则")])
def test_botzone_converter_message_reaches_the_page(alice, monkeypatch: pytest.MonkeyPatch, reason: str,
                                                    shown: str) -> None:
    def convert_log(data: object) -> list[dict[str, Any]]:
        raise ValueError(reason)

    monkeypatch.setattr("trainer.imports.botzone.convert_log", convert_log)
    error, detail = _refusal(_upload(alice, b"[]", kind="botzone").text)
    assert error == f"一局也没有导入：{shown}" and detail == reason


# -- export and replay -------------------------------------------------------------------------------

def test_export_round_trip(make_app, client, accounts) -> None:
    accounts.sign_up("alice")
    record = _record(8) | {"players": ["东", "南", "西", "北"], "notes": "keep me"}
    _upload(client, json.dumps(record, ensure_ascii=False))
    deal_id = record_id(record)
    exported = client.get(f"/deals/{deal_id}/export")
    assert exported.status_code == 200 and exported.mimetype == "application/json"
    assert exported.headers["Content-Disposition"] == f'attachment; filename="{deal_id}.json"'
    data = json.loads(exported.text)
    assert data == parse_record(record).to_json() and data["players"][0] == "东" and data["notes"] == "keep me"
    assert "东" in exported.text  # UTF-8, not escaped
    accounts.logout()
    accounts.sign_up("bob")
    assert _upload(client, exported.data).status_code == 303
    again = client.get(f"/deals/{deal_id}/export")
    assert json.loads(again.text) == data


def test_deal_page_replays_every_trick(app, alice) -> None:
    deal = _stored(app)[0]
    summary = verify_summary(replay(parse_record(deal.record)))
    page = alice.get(f"/deals/{deal.id}")
    assert page.status_code == 200 and "<html" in page.text
    rows = re.findall(r"<tr[^>]*>\s*<td><a[^>]*>(\d+)</a></td>\s*<td>(.*?)</td>\s*<td>(.*?)</td>\s*<td>(\d+)</td>",
                      page.text, re.DOTALL)
    assert len(rows) == len(summary["tricks"])
    for (number, leader, winner, points), trick in zip(rows, summary["tricks"]):
        assert leader.startswith(f"{trick['leader']} 号位") and winner.startswith(f"{trick['winner']} 号位")
        assert int(points) == trick["points"]
    assert f"<dd>{summary['attackers_score']}</dd>" in page.text
    for number, trick in enumerate(summary["tricks"], start=1):
        fragment = alice.get(f"/deals/{deal.id}?trick={number}", headers=HX)
        assert fragment.status_code == 200 and "<html" not in fragment.text
        assert fragment.text.lstrip().startswith('<section id="trick"')
        assert f"第 {number} 轮（共 {len(summary['tricks'])} 轮）" in fragment.text
        assert f"{trick['points']} 分" in fragment.text
        assert f"{trick['winner']} 号位" in re.search(r'<li class="seat wins">.*?</div>', fragment.text, re.DOTALL).group(0)


def test_deal_page_shows_all_four_hands(app, alice) -> None:
    deal = _stored(app)[0]
    record = parse_record(deal.record)
    fragment = alice.get(f"/deals/{deal.id}?trick=1", headers=HX).text
    hands = re.findall(r'<details class="before" open>(.*?)</details>', fragment, re.DOTALL)
    assert len(hands) == 4
    for seat, hand in enumerate(hands):
        assert hand.count('<span class="card ') == 25
    cards = sorted(re.findall(r'<span class="card [^"]*" title="([^"]+)"', "".join(hands)))
    assert len(cards) == 100 and len(record.playing_hands()[0]) == 25


def test_deal_page_names_seats_from_a_viewer(app, alice) -> None:
    deal = _stored(app)[0]
    fragment = alice.get(f"/deals/{deal.id}?trick=2&seat=1", headers=HX).text
    names = re.findall(r'<div class="seat-name">(\S+) ·', fragment)
    assert names == ["自己", "下家", "对家", "上家"]
    assert 'name="seat" value="1"' in fragment


def test_deal_page_names_the_banker_from_the_chosen_seat(app, alice) -> None:
    def banker_shown(deal: Deal, query: str) -> str:
        page = alice.get(f"/deals/{deal.id}{query}").text
        return re.search(r"<dt>庄家</dt><dd>(.*?)</dd>", page).group(1)

    for deal in _stored(app):
        assert banker_shown(deal, "") == f"{deal.banker} 号位"
        for viewer in range(4):
            assert banker_shown(deal, f"?seat={viewer}") == ("自己", "下家", "对家", "上家")[(deal.banker - viewer) % 4]


def test_deal_page_clamps_the_trick_number(app, alice) -> None:
    deal = _stored(app)[0]
    assert "第 1 轮" in alice.get(f"/deals/{deal.id}?trick=-4", headers=HX).text
    assert f"第 {deal.tricks} 轮" in alice.get(f"/deals/{deal.id}?trick=999", headers=HX).text


def test_an_unfinished_deal(app, alice) -> None:
    record = _record(4)
    record["tricks"] = record["tricks"][:5]
    record["tricks"][-1]["plays"] = record["tricks"][-1]["plays"][:2]
    _upload(alice, json.dumps(record))
    (deal,) = _stored(app, owner_id=1)
    assert not deal.complete and deal.attackers_score is None
    page = alice.get(f"/deals/{deal.id}?trick=5")
    assert page.status_code == 200 and "还没出牌" in page.text and "这局没有打完" in page.text
    assert len(_ids(alice.get("/deals?complete=no").text)) == 1


# -- names in the page's language -------------------------------------------------------------------

ENGLISH_NAMES = [*PRESETS, *(str(label) for label in PRESET_LABELS.values()), *SOURCE_LABELS,
                 *(str(label) for label in SOURCE_LABELS.values())]
"""The presets' and sources' keys and English names; a Chinese page shows none of them."""


def test_chinese_pages_name_presets_and_sources_in_chinese(app, alice, monkeypatch: pytest.MonkeyPatch) -> None:
    botzone = _record(3, "botzone") | {"source": {"kind": "botzone"}}
    monkeypatch.setattr("trainer.imports.botzone.convert_log", lambda data: [botzone])
    assert _upload(alice, "[]", kind="botzone").status_code == 303
    imported = {key: value for key, value in _record(4, "competition").items() if key != "source"}
    assert _upload(alice, json.dumps(imported)).status_code == 303
    assert alice.post("/deals/generate", data={"rules": "fixed-twos", "count": "1"}).status_code == 303
    deals = _stored(app)
    assert {deal.source_kind for deal in deals} == {"generated", "import", "botzone"}
    assert {"standard", "competition", "fixed-twos", "botzone"} <= {deal.rules for deal in deals}
    pages = ["/", "/drills", "/deals", "/deals?whose=mine", "/deals/new", *(f"/deals/{deal.id}" for deal in deals)]
    for path in pages:
        for headers in ({}, HX):
            text = visible_text(alice.get(path, headers=headers).text)
            found = [name for name in ENGLISH_NAMES if re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text)]
            assert found == [], (path, headers)
    listing = visible_text(alice.get("/deals").text)
    for chinese in ("标准规则", "比赛规则", "2 为常主", "Botzone 规则", "机器人对局", "导入", "Botzone 对局"):
        assert chinese in listing, chinese
    alice.post("/lang", data={"lang": "en"})
    listing = visible_text(alice.get("/deals").text)
    for english in ("Standard rules", "Competition rules", "Twos always trump", "Botzone rules", "played by bots",
                    "imported", "Botzone match"):
        assert english in listing, english


# -- isolation ---------------------------------------------------------------------------------------

def test_another_users_private_deal_is_a_404(app, client, accounts) -> None:
    accounts.sign_up("alice")
    _upload(client, json.dumps(_record(30)))
    private = record_id(_record(30))
    shared = _stored(app, owner_id=None)[0].id
    accounts.logout()
    accounts.sign_up("bob")
    for path in (f"/deals/{private}", f"/deals/{private}/export"):
        assert client.get(path).status_code == 404
        assert client.get(path, headers=HX).status_code == 404
    assert client.post(f"/deals/{private}/delete", data=CONFIRM).status_code == 404
    assert client.get(f"/deals/{private}/delete").status_code == 404
    assert private not in client.get("/deals").text
    assert client.get(f"/deals/{shared}").status_code == 200
    assert client.post(f"/deals/{shared}/delete", data=CONFIRM).status_code == 404
    assert len(_stored(app, id=private)) == 1


def test_two_users_may_hold_the_same_record(app, client, accounts) -> None:
    record = json.dumps(_record(31))
    accounts.sign_up("alice")
    _upload(client, record)
    accounts.logout()
    accounts.sign_up("bob")
    _upload(client, record)
    assert len(_stored(app, id=record_id(_record(31)))) == 2
    assert client.post(f"/deals/{record_id(_record(31))}/delete", data=CONFIRM).status_code == 303
    assert len(_stored(app, id=record_id(_record(31)))) == 1


CONFIRM = {"confirm": "yes"}


def test_delete_own_deal_after_a_confirmation(app, alice) -> None:
    _upload(alice, json.dumps(_record(40)))
    deal_id = record_id(_record(40))
    page = alice.get(f"/deals/{deal_id}")
    assert f'href="/deals/{deal_id}/delete"' in page.text
    for ask in (lambda: alice.get(f"/deals/{deal_id}/delete"), lambda: alice.post(f"/deals/{deal_id}/delete")):
        confirm = ask()
        assert confirm.status_code == 200 and "从没练过这局" in confirm.text
        assert f'action="/deals/{deal_id}/delete"' in confirm.text and 'name="confirm" value="yes"' in confirm.text
        assert len(_stored(app, id=deal_id)) == 1
    fragment = alice.get(f"/deals/{deal_id}/delete", headers=HX)
    assert "<html" not in fragment.text and fragment.text.lstrip().startswith('<section id="delete-deal"')
    response = alice.post(f"/deals/{deal_id}/delete", data=CONFIRM)
    assert response.status_code == 303 and response.headers["Location"] == "/deals"
    assert alice.get(f"/deals/{deal_id}").status_code == 404
    assert _stored(app, id=deal_id) == []  # never drilled: deleted for real
    shared = _stored(app)[0].id
    assert "/delete" not in alice.get(f"/deals/{shared}").text


def test_a_drilled_deal_is_hidden_with_its_history_kept(app, client) -> None:
    with Session(app.extensions["jipai_engine"]) as session:  # only alice's deal to drill
        session.execute(sa.update(Deal).values(hidden=True))
        session.commit()
    Accounts(client).sign_up("alice")
    _upload(client, json.dumps(_record(41)))
    deal_id = record_id(_record(41))
    run_id = start(client, "trumps")
    drive(client, app, run_id, lambda index: False, stop_after=1)
    answers = attempts(app, run_id)
    assert len(answers) == 1
    confirm = client.get(f"/deals/{deal_id}/delete")
    assert "练过这局 1 次" in confirm.text
    assert client.post(f"/deals/{deal_id}/delete", data=CONFIRM).status_code == 303
    (deal,) = _stored(app, id=deal_id)
    assert deal.hidden and attempts(app, run_id) == answers
    assert deal_id not in _ids(client.get("/deals").text) and client.get(f"/deals/{deal_id}").status_code == 404
    assert client.get(f"/deals/{deal_id}/export").status_code == 404
    assert client.get(f"/deals/{deal_id}/delete").status_code == 404
    review = client.get(f"/review/{answers[0].id}")
    assert review.status_code == 200 and deal_id in review.text
    assert str(answers[0].id) in client.get("/review").text
    assert client.get(f"/runs/{run_id}").status_code == 200
    assert client.post("/drills/trumps/start").headers["Location"] == "/drills"  # no deal left to drill
    assert _upload(client, json.dumps(_record(41))).status_code == 303  # imported again: it comes back
    (deal,) = _stored(app, id=deal_id)
    assert not deal.hidden and deal_id in _ids(client.get("/deals").text)


def test_anonymous_visitors_see_no_deals(client, app) -> None:
    shared = _stored(app)[0].id
    for path in ("/deals", "/deals/new", f"/deals/{shared}", f"/deals/{shared}/export"):
        assert client.get(path).status_code == 303
    assert client.post("/deals/generate", data={"rules": "standard", "count": "1"}).status_code == 303
