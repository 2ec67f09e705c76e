"""Reading pages in tests: the text a reader sees, without markup, attributes, scripts or styles."""
from __future__ import annotations

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
