"""Reading pages in tests: the text a reader sees, without markup, attributes, scripts or styles."""
from __future__ import annotations

import re
from html.parser import HTMLParser


class _Text(HTMLParser):
    """Collects the character data outside <script> and <style>."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.hidden = 0

    def handle_starttag(self, tag: str, attrs: object) -> None:
        self.hidden += tag in ("script", "style")

    def handle_endtag(self, tag: str) -> None:
        self.hidden -= tag in ("script", "style")

    def handle_data(self, data: str) -> None:
        if not self.hidden:
            self.parts.append(data)


def visible_text(html: str) -> str:
    """The page's text as shown (tags dropped, so `10<span>♥</span>` reads `10♥`)."""
    parser = _Text()
    parser.feed(html)
    return "".join(parser.parts)


RAW_NOTATION = re.compile(r"(?<![0-9A-Za-z])(?:[BS]J|(?:10|[2-9JQKA])[SHCD])(?![0-9A-Za-z])|\d+\.\d+")
"""The notation of records (records.md) a player should never read: a card code (`BJ`, `SJ`, `JS`, `10H`) or a
position (`1.5`, `3.2`)."""
_ANSWER_TIME = re.compile(r"<div><dt>[^<]*</dt><dd>[^<]*\d\.\d[^<]*(?:<span[^>]*>[^<]*</span>)?</dd></div>")


def player_words(html: str) -> str:
    """The page's visible text without an answer's time (`1.2 s`, the one number with a dot that is not a
    position), to look for `RAW_NOTATION` in."""
    return visible_text(_ANSWER_TIME.sub("", html))


JOKER_WORDS = {"zh": {"BJ": "大王", "SJ": "小王"}, "en": {"BJ": "Big Joker", "SJ": "Small Joker"}}
"""The jokers as a page names them in each language."""
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "C": "♣", "D": "♦"}


def spoken_card(code: str, jokers: dict[str, str]) -> str:
    """A card code as players write it (`JS` → J♠, `10H` → 10♥), the jokers as `jokers` names them."""
    return jokers.get(code) or code[:-1] + SUIT_SYMBOLS[code[-1]]


def spoken_position(at: str, language: str) -> str:
    """A 够级 position `R.K` (K ≥ 1) as players say it: 第1轮第5手, round 1, play 5."""
    number, within = at.split(".")
    return f"第{number}轮第{within}手" if language == "zh" else f"round {number}, play {within}"
