"""Languages: 简体中文 by default, English on request; the catalog is complete and compiled."""
from __future__ import annotations

import re
from pathlib import Path

from babel.messages.extract import extract_from_dir
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

ROOT = Path(__file__).parents[2]
CATALOG = ROOT / "trainer" / "web" / "translations" / "zh" / "LC_MESSAGES"


def test_chinese_by_default(client) -> None:
    page = client.get("/auth/login")
    assert '<html lang="zh-Hans">' in page.text and "登录" in page.text and ">English<" in page.text


def test_switch_to_english_and_back(client, accounts) -> None:
    switched = client.post("/lang", data={"lang": "en", "next": "/auth/login"})
    assert switched.status_code == 303 and switched.headers["Location"] == "/auth/login"
    page = client.get("/auth/login")
    assert '<html lang="en">' in page.text and "Log in" in page.text and "简体中文" in page.text
    accounts.sign_up("alice")
    assert "Deal library" in client.get("/deals").text
    accounts.logout()
    assert "Log in" in client.get("/").text
    client.post("/lang", data={"lang": "zh", "next": "/"})
    assert "登录" in client.get("/").text


def test_switch_returns_to_the_page_shown(client) -> None:
    back = client.post("/lang", data={"lang": "en", "next": "/"},
                       headers={"Referer": "http://localhost/auth/register?next=/deals"})
    assert back.headers["Location"] == "/auth/register?next=/deals"
    elsewhere = client.post("/lang", data={"lang": "en", "next": "/auth/login"},
                            headers={"Referer": "https://evil.example/page"})
    assert elsewhere.headers["Location"] == "/auth/login"


def test_an_unknown_language_is_refused(client) -> None:
    assert client.post("/lang", data={"lang": "fr"}).status_code == 400


def test_form_messages_in_chinese(client) -> None:
    response = client.post("/auth/register", data={"username": "", "password": "", "confirm": ""})
    assert response.status_code == 422 and "该字段是必填字段" in response.text


def test_game_terms_as_players_say_them(alice) -> None:
    deal_id = re.search(r'href="/deals/([0-9a-f]{16})"', alice.get("/deals").text).group(1)
    page = alice.get(f"/deals/{deal_id}?seat=0").text
    for term in ("主", "庄家", "闲家", "下家", "对家", "上家", "底牌", "埋底"):
        assert term in page, term


def _catalog_ids(catalog) -> set[str]:
    return {message.id if isinstance(message.id, str) else message.id[0] for message in catalog if message.id}


def test_every_ui_string_is_translated() -> None:
    with open(CATALOG / "messages.po", "rb") as file:
        po = read_po(file)
    method_map = [("trainer/web/**.py", "python"), ("templates/**.html", "jinja2")]
    keywords = {"_": None, "gettext": None, "ngettext": (1, 2), "lazy_gettext": None, "_l": None}
    extracted = {message[2] if isinstance(message[2], str) else message[2][0]
                 for message in extract_from_dir(str(ROOT), method_map, keywords=keywords)}
    assert extracted - _catalog_ids(po) == set(), "run pybabel extract/update (README, Languages)"
    for message in po:
        if message.id:
            assert "fuzzy" not in message.flags, message.id
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            assert all(strings), f"untranslated: {message.id}"


def test_the_compiled_catalog_is_current() -> None:
    with open(CATALOG / "messages.po", "rb") as file:
        po = read_po(file)
    with open(CATALOG / "messages.mo", "rb") as file:
        mo = read_mo(file)
    def table(catalog) -> dict:
        return {_tuple(message.id): _tuple(message.string) for message in catalog if message.id}

    assert table(mo) == table(po), "run pybabel compile -d trainer/web/translations"


def _tuple(value):
    return tuple(value) if isinstance(value, (list, tuple)) else value
