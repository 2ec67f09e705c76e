"""What the templates draw: cards, hands grouped by suit (主 first), seats named as players name them, and
what a drill table shows at each step of a stretch (`Shown`)."""
from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from wtforms import SelectChoice

from trainer.engine.cards import BIG_JOKER, RANK_NAMES, Card, Suit
from trainer.engine.combos import Combination
from trainer.engine.rules import PRESETS
from trainer.engine.trump import TrumpContext
from trainer.gouji.rules import PRESETS as GOUJI_PRESETS
from trainer.records import Position, Replay, state_at
from trainer.web.extensions import gettext as _
from trainer.web.extensions import lazy_gettext as _l
from trainer.web.quiz import seat_word

SUIT_ORDER = ("trump", "S", "H", "C", "D")


@dataclass(frozen=True, slots=True)
class CardView:
    """One card as drawn by the `card` macro (templates/_cards.html): its `name` as players write it
    (10♥, 大王 / Big Joker), the tile's rank and suit symbol, its `colour` (red ♥♦ and the big joker,
    black ♠♣ and the small joker: `red`, `black`, `joker-big`, `joker-small`) and the tile's CSS
    classes (`card`, the colour, `trump`, `points`)."""

    code: str
    name: str
    rank: str
    symbol: str
    colour: str
    css: str
    spoken: str
    """Its accessible name, as a reader says it: 红桃Q / Q of hearts, 大王 / Big Joker."""


def spoken_name(rank: str, suit: Suit) -> str:
    """A suited card as a screen reader should say it: 红桃Q / Q of hearts."""
    words = {Suit.S: _("%(rank)s of spades"), Suit.H: _("%(rank)s of hearts"), Suit.C: _("%(rank)s of clubs"),
             Suit.D: _("%(rank)s of diamonds")}
    return words[suit] % {"rank": rank}


def joker_name(big: bool) -> str:
    """大王 / 小王 (Big Joker / Small Joker in English)."""
    return _("Big Joker") if big else _("Small Joker")


def suit_colour(suit: Suit) -> str:
    """`red` for ♥ ♦, `black` for ♠ ♣."""
    return "red" if suit in (Suit.H, Suit.D) else "black"


def card_view(card: Card, ctx: TrumpContext | None = None, trump: bool | None = None) -> CardView:
    """A card for the `card` macro: ♥♦ red, ♠♣ black, the two jokers named and coloured apart, trumps
    marked (by `ctx`, or by `trump` when the caller knows)."""
    if card.suit is None:
        big = card.rank == BIG_JOKER
        name = rank = spoken = joker_name(big)
        symbol, colour = "", "joker-big" if big else "joker-small"
    else:
        rank, symbol, colour = RANK_NAMES[card.rank], card.suit.symbol, suit_colour(card.suit)
        name, spoken = rank + symbol, spoken_name(rank, card.suit)
    classes = ["card", colour]
    if trump if trump is not None else (ctx is not None and ctx.is_trump(card)):
        classes.append("trump")
    if card.points:
        classes.append("points")
    return CardView(str(card), name, rank, symbol, colour, " ".join(classes), spoken)


def as_card_view(card: CardView | Card | str) -> CardView:
    """What the `card` macro draws, from a view, a card or a card code (`10S`, `BJ`)."""
    if isinstance(card, CardView):
        return card
    return card_view(card if isinstance(card, Card) else Card.parse(card))


def spoken(card: CardView | Card | str) -> str:
    """A card's accessible name, as a screen reader should say it in the current language: 红桃Q / Q of
    hearts, 大王 / Big Joker."""
    view = as_card_view(card)
    parsed = Card.parse(view.code)
    if parsed.suit is None:
        return view.name
    words = {Suit.S: _("%(rank)s of spades"), Suit.H: _("%(rank)s of hearts"), Suit.C: _("%(rank)s of clubs"),
             Suit.D: _("%(rank)s of diamonds")}
    return words[parsed.suit] % {"rank": view.rank}


def cards_view(cards: Iterable[Card], ctx: TrumpContext | None = None) -> list[CardView]:
    """Cards in the given order (plays keep the order they were laid in)."""
    return [card_view(card, ctx) for card in cards]


def pretty(code: str) -> str:
    """A card code (`10S`, `BJ`) as players write it: 10♠, 大王 (the template filter `pretty`)."""
    return Card.parse(code).pretty


@dataclass(frozen=True, slots=True)
class Shown:
    """A value on a drill table from step `start` of a stretch until step `end` (None: to its end)."""

    start: int
    end: int | None
    value: Any


def spans(values: Sequence[Any]) -> list[Shown]:
    """Per-step values as the runs of equal ones, nothing (None or False) left out."""
    out: list[Shown] = []
    for step, value in enumerate(values):
        if step and value == values[step - 1] and type(value) is type(values[step - 1]):
            continue
        if out and out[-1].end is None:
            out[-1] = Shown(out[-1].start, step, out[-1].value)
        if value is not None and value is not False:
            out.append(Shown(step, None, value))
    return out


def played_steps(plays: Iterable[Iterable[Card]]) -> dict[Card, list[int]]:
    """When each card of a stretch's plays is laid: the steps (the first play is step 1), in order."""
    steps: dict[Card, list[int]] = {}
    for step, cards in enumerate(plays, start=1):
        for card in cards:
            steps.setdefault(card, []).append(step)
    return steps


@dataclass(frozen=True, slots=True)
class TextPart:
    """A piece of a sentence: plain text (`colour` empty), or a card or suit symbol named in it, with
    its colour class."""

    text: str
    colour: str = ""


CARD_IN_TEXT = re.compile(r"(?<![0-9A-Za-z])(?:10|[2-9JQKA])[♠♥♣♦]|[♠♥♣♦]|大王|小王")
"""A card as the engine and the tracker write it in a sentence (10♥, 大王), or a suit symbol alone."""


def text_parts(text: object) -> list[TextPart]:
    """A sentence (a question, an option, an explanation) cut so that every card and suit named in it
    can be coloured; the jokers named in the reader's language."""
    text = str(text)
    parts, start = [], 0
    for found in CARD_IN_TEXT.finditer(text):
        if found.start() > start:
            parts.append(TextPart(text[start:found.start()]))
        token = found.group()
        if token in ("大王", "小王"):
            big = token == "大王"
            parts.append(TextPart(joker_name(big), "joker-big" if big else "joker-small"))
        else:
            parts.append(TextPart(token, suit_colour(Suit.parse(token[-1]))))
        start = found.end()
    if start < len(text):
        parts.append(TextPart(text[start:]))
    return parts


def suit_label(key: str) -> str:
    """主 for trumps, else the suit's symbol and name."""
    if key == "trump":
        return _("Trumps (主)")
    suit = Suit[key]
    names = {Suit.S: _("spades"), Suit.H: _("hearts"), Suit.C: _("clubs"), Suit.D: _("diamonds")}
    return f"{suit.symbol} {names[suit]}"


@dataclass(frozen=True, slots=True)
class SuitGroup:
    """A hand's cards of one effective suit; `void` (绝门) when it has none of a side suit."""

    key: str
    label: str
    cards: list[CardView]

    @property
    def void(self) -> bool:
        """No cards of this suit left."""
        return not self.cards


def hand_groups(cards: Iterable[Card], ctx: TrumpContext) -> list[SuitGroup]:
    """A hand sorted for display, trumps first by strength, then ♠ ♥ ♣ ♦ strongest first; every
    side suit appears (empty ones show as void), trumps only when there is a trump group."""
    groups: dict[str, list[CardView]] = {key: [] for key in SUIT_ORDER}
    for card in ctx.sort_hand(cards):
        groups[ctx.effective_suit(card)].append(card_view(card, ctx))
    side_suits = [key for key in SUIT_ORDER[1:] if ctx.trump is None or key != ctx.trump.letter]
    keys = ["trump", *side_suits]
    return [SuitGroup(key, suit_label(key), groups[key]) for key in keys]


def combo_labels() -> dict[str, str]:
    """Every kind of lead as players say it, in the current language."""
    return {"single": _("single"), "pair": _("pair (对)"), "triple": _("triple"), "quad": _("quad"),
            "tractor": _("tractor (拖拉机)"), "throw": _("throw (甩牌)"), "mixed": _("mixed")}


def combo_label(cards: Sequence[Card], ctx: TrumpContext, labels: dict[str, str] | None = None) -> str:
    """The kind of a lead as players say it: 单张, 对, 拖拉机, 甩牌 … (`labels`: `combo_labels()`, when
    the caller keeps them)."""
    return (labels or combo_labels())[Combination.of(cards, ctx).kind]



def seat_name(seat: int, viewer: int | None = None) -> str:
    """A seat's name: relative to the viewer (自己/下家/对家/上家) when one is chosen, else its number."""
    if viewer is None:
        return _("Seat %(n)d", n=seat)
    return seat_word(seat, viewer)


def seat_label(seat: int, banker: int, viewer: int | None = None) -> str:
    """A seat's name (`seat_name`) with its side: 庄家 the banker, 闲家 an attacker."""
    if seat == banker:
        side = _("banker (庄家)")
    elif (seat - banker) % 2 == 0:
        side = _("banker's partner")
    else:
        side = _("attacker (闲家)")
    return f"{seat_name(seat, viewer)} · {side}"


def viewer_label(viewer: str) -> str:
    """A drill's viewer setting in words."""
    labels = {"any": _("from any seat"), "banker": _("as the banker (庄家)"), "attacker": _("as an attacker (闲家)")}
    return labels.get(viewer, viewer)


def trump_label(ctx: TrumpContext) -> str:
    """The trump suit: its symbol and name, or no trump (无主)."""
    return _("no trump (无主)") if ctx.trump is None else suit_label(ctx.trump.letter)


@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat in the replay of a trick: its hand before the trick and what it played."""

    seat: int
    label: str
    groups: list[SuitGroup]
    count: int
    play: list[CardView] | None
    leads: bool
    wins: bool


@dataclass(frozen=True, slots=True)
class TrickView:
    """Trick `number` of `total`: every hand before it, the plays, the winner and the points."""

    number: int
    total: int
    leader: int
    winner: int
    points: int
    penalty: int
    partial: bool
    lead_kind: str
    attempt: list[CardView] | None
    seats: list[SeatView]
    attackers_points: int


def trick_view(replayed: Replay, number: int, viewer: int | None = None) -> TrickView | None:
    """Trick `number` (1-based) of a validated deal with all hands shown; None when it has no tricks."""
    record = replayed.record
    if not record.tricks:
        return None
    ctx = record.ctx
    state = state_at(record, Position(number, 0))
    trick, summary = record.tricks[number - 1], replayed.tricks[number - 1]
    plays = {(trick.leader + i) % 4: play for i, play in enumerate(trick.plays)}
    order = range(4) if viewer is None else [(viewer + k) % 4 for k in range(4)]
    seats = []
    for seat in order:
        hand = [Card.from_index(face) for face, copies in state.hands[seat].items() for _ in range(copies)]
        play = plays.get(seat)
        seats.append(SeatView(seat, seat_label(seat, record.banker, viewer), hand_groups(hand, ctx), len(hand),
                              cards_view(play, ctx) if play is not None else None, seat == trick.leader,
                              seat == summary.winner))
    attackers = sum(t.points for t in replayed.tricks[:number]
                    if not t.partial and (t.winner - record.banker) % 2 == 1)
    return TrickView(number, len(record.tricks), trick.leader, summary.winner, summary.points, summary.penalty,
                     summary.partial, combo_label(trick.attempt or trick.plays[0], ctx),
                     cards_view(trick.attempt, ctx) if trick.attempt is not None else None, seats, attackers)


def trump_short(code: str) -> str:
    """A stored trump code (S H C D none) as a symbol, or 无主."""
    return _("no trump (无主)") if code == "none" else Suit[code].symbol


PRESET_LABELS = {
    "standard": _l("Standard rules"), "competition": _l("Competition rules"),
    "competition-draft": _l("Competition rules (draft)"), "fixed-twos": _l("Twos always trump"),
    "botzone": _l("Botzone rules"), "one-deck": _l("One deck"), "three-deck": _l("Three decks"),
    "four-deck": _l("Four decks"),
}
"""Every rules preset of `trainer.engine.rules.PRESETS` as the pages name it."""
assert set(PRESET_LABELS) == set(PRESETS), "name every rules preset"

GOUJI_PRESET_LABELS = {
    "standard": _l("够级: standard rules"), "karamay": _l("够级: Karamay rules (克拉玛依)"),
    "activity": _l("够级: activity rules (活动)"), "bisai": _l("够级: match rules (比赛)"),
    "paodekuai": _l("够级: 跑得快 rules"),
}
"""Every 够级 rules preset of `trainer.gouji.rules.PRESETS` as the generate form names it."""
assert set(GOUJI_PRESET_LABELS) == set(GOUJI_PRESETS), "name every 够级 rules preset"

SOURCE_LABELS = {"generated": _l("played by bots"), "import": _l("imported"), "botzone": _l("Botzone match")}
"""The kinds of deal source the app writes (`source.kind` of a record; `import` when a record has none)."""


def preset_label(name: str) -> str:
    """A rules preset in the reader's language (标准规则, 比赛规则 …); an unknown name as stored."""
    label = PRESET_LABELS.get(name)
    return str(label) if label is not None else name


def source_label(kind: str) -> str:
    """Where a deal came from in the reader's language; a kind an imported record names as stored."""
    label = SOURCE_LABELS.get(kind)
    return str(label) if label is not None else kind


def preset_choices(names: Iterable[str]) -> list[SelectChoice]:
    """A form's choices of rules presets, named in the reader's language."""
    return [SelectChoice(name, PRESET_LABELS.get(name, name)) for name in names]
