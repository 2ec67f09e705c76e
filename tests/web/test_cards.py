"""The card macro (templates/_cards.html): suits coloured, jokers named 大王 / 小王 (Big / Small Joker),
card names coloured inside sentences; the colours readable on every background they sit on."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from flask import render_template_string
from flask_babel import force_locale

from trainer.engine.cards import Card
from trainer.engine.trump import TrumpContext
from trainer.web.display import card_view, hand_groups

STYLE = Path(__file__).parents[2] / "static" / "style.css"


def _render(app, source: str, locale: str = "zh", **context) -> str:
    """`source` rendered with the card macros in `locale`; a callable value is called there first."""
    with app.test_request_context(), force_locale(locale):
        values = {name: value() if callable(value) else value for name, value in context.items()}
        return render_template_string('{% import "_cards.html" as cards %}' + source, **values)


@pytest.mark.parametrize(("code", "colour"), [("10H", "red"), ("AD", "red"), ("2S", "black"), ("KC", "black")])
def test_a_suited_card_is_coloured_by_its_suit(app, code: str, colour: str) -> None:
    card = Card.parse(code)
    tile = _render(app, "{{ cards.card(c) }}", c=card_view(card))
    assert tile.startswith(f'<span class="card {colour}') and f'title="{card.pretty}"' in tile
    assert f'<span class="s">{card.suit.symbol}</span>' in tile
    for given in (code, card):  # a code or a card draws the same tile as its view
        assert _render(app, "{{ cards.card(c) }}", c=given) == tile
    assert _render(app, "{{ cards.card(c, inline=true) }}", c=code) == \
        f'<span class="card-name {colour}" role="img" aria-label="{_SPOKEN["zh"][code]}">{card.pretty}</span>'


_SPOKEN = {"zh": {"10H": "红桃10", "AD": "方块A", "2S": "黑桃2", "KC": "梅花K", "QH": "红桃Q", "BJ": "大王"},
           "en": {"10H": "10 of hearts", "AD": "A of diamonds", "2S": "2 of spades", "KC": "K of clubs",
                  "QH": "Q of hearts", "BJ": "Big Joker"}}


@pytest.mark.parametrize("locale", ["zh", "en"])
def test_every_card_tile_is_named_for_assistive_tech(app, locale: str) -> None:
    for code, name in _SPOKEN[locale].items():
        for inline in ("false", "true"):
            html = _render(app, f"{{{{ cards.card(c, inline={inline}) }}}}", locale, c=code)
            assert f' role="img" aria-label="{name}"' in html, html


@pytest.mark.parametrize(("locale", "big", "small"), [("zh", "大王", "小王"), ("en", "Big Joker", "Small Joker")])
def test_jokers_are_named_never_bj_or_sj(app, locale: str, big: str, small: str) -> None:
    ctx = TrumpContext(2, None)
    page = _render(app, "{{ cards.cards(list) }} {{ cards.cards(list, inline=true) }} {{ cards.hand(groups) }}",
                   locale, list=["BJ", "SJ"], groups=lambda: hand_groups([Card.parse("BJ"), Card.parse("SJ")], ctx))
    assert '<span class="card joker-big' in page and '<span class="card joker-small' in page
    assert (f'<span class="card-name joker-big" role="img" aria-label="{big}">{big}</span> '
            f'<span class="card-name joker-small" role="img" aria-label="{small}">{small}</span>') in page
    assert page.count(f">{big}<") == 3 and page.count(f">{small}<") == 3
    assert not re.search(r"\b(BJ|SJ)\b", page)


@pytest.mark.parametrize(("locale", "shown"), [("zh", "大王"), ("en", "Big Joker")])
def test_cards_named_in_a_sentence_are_coloured(app, locale: str, shown: str) -> None:
    sentence = "trick 3: 大王 10♥, K♠ ×2; 5 points; void in ♦"
    html = _render(app, "{{ cards.text(s) }}", locale, s=sentence)
    assert html == (f'trick 3: <span class="card-name joker-big">{shown}</span> '
                    '<span class="card-name red">10♥</span>, <span class="card-name black">K♠</span> ×2; '
                    '5 points; void in <span class="card-name red">♦</span>')
    assert _render(app, "{{ cards.text(s) }}", s="<b>A♣</b>") == \
        '&lt;b&gt;<span class="card-name black">A♣</span>&lt;/b&gt;'  # the sentence stays text


def _luminance(colour: str) -> float:
    channels = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def _contrast(one: str, other: str) -> float:
    high, low = sorted((_luminance(one), _luminance(other)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def _colour(css: str, value: str) -> str:
    """A colour as written in the stylesheet (`#rgb`, `#rrggbb` or `var(--name)`), as `#rrggbb`."""
    if value.startswith("var("):
        value = re.search(rf"{re.escape(value[4:-1])}:\s*(#[0-9a-fA-F]+);", css).group(1)
    if re.fullmatch(r"#[0-9a-fA-F]{3}", value):
        value = "#" + "".join(digit * 2 for digit in value[1:])
    assert re.fullmatch(r"#[0-9a-fA-F]{6}", value), value
    return value.lower()


def _declared(css: str, selector: str, prop: str) -> str:
    """The value of `prop` in the rule whose selector list holds `selector`."""
    for selectors, body in re.findall(r"([^{}]+)\{([^}]*)\}", css):
        if selector in [s.strip() for s in selectors.split(",")]:
            found = re.search(rf"(?<![-\w]){prop}:\s*([^;]+);", body)
            if found:
                return _colour(css, found.group(1).strip())
    raise AssertionError(f"no {prop} for {selector}")


def test_card_colours_meet_wcag_aa_on_their_backgrounds() -> None:
    css = STYLE.read_text(encoding="utf-8")
    backgrounds = {name: _declared(css, selector, "background") for name, selector in [
        ("card", ".card"), ("trump card", ".card.trump"), ("tag", ".tag"), ("right answer", ".panel.right"),
        ("wrong answer", ".panel.wrong"), ("current trick", "table.tricks tr.current"), ("notice", ".notice")]}
    backgrounds |= {"page": _colour(css, "var(--bg)"), "paper": _colour(css, "var(--paper)")}
    for selector in (".card.red", ".card.black", ".card-name.red", ".card-name.black", ".card-name.joker-big",
                     ".card-name.joker-small"):
        text = _declared(css, selector, "color")
        for name, background in backgrounds.items():
            assert _contrast(text, background) >= 4.5, (selector, name)
    for joker in (".card.joker-big", ".card.joker-small"):
        assert _contrast(_declared(css, joker, "color"), _declared(css, joker, "background")) >= 4.5, joker


def test_the_trump_and_points_markers_stand_out_from_the_card() -> None:
    css = STYLE.read_text(encoding="utf-8")
    card, trump = _declared(css, ".card", "background"), _declared(css, ".card.trump", "background")
    border = re.search(r"\.card\.trump \{[^}]*border: 2px solid ([^;]+);", css).group(1)
    bar = re.search(r"\.card\.points \{[^}]*box-shadow: inset 0 -3px 0 ([^;]+);", css).group(1)
    assert _contrast(_colour(css, border), trump) >= 3  # a trump card's border on its yellow
    for background in (card, trump):  # a point card's bar, on a side card and on a trump
        assert _contrast(_colour(css, bar), background) >= 3
