"""The drill table: a deal as one seat sees it after some plays, and a per-app cache of parsed deals.

Deals never change once stored, so each app process parses a record and replays its public plays
once (`DealCache`, keyed by the row's key, record id and creation time, so a key reused after a
deletion cannot serve a stale deal) and every step of every run on that deal reads from memory.
The table's pieces (cards, hands, plays, labels) are drawn once per deal, seat and language too
(`SeatTable`), and the whole table once per deal, seat, play and language (`drawn_table`, the most
recently used kept), so a drill step usually draws nothing at all.
"""
from __future__ import annotations

import bisect
import functools
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import cached_property

from flask import current_app
from flask_babel import get_locale, ngettext
from flask_babel import gettext as _
from markupsafe import Markup, escape
from sqlmodel import Session

from trainer.drills.runs import position_after, snapshot_after
from trainer.engine.cards import Card
from trainer.engine.trump import TrumpContext
from trainer.records import DealRecord, Position, parse_record, plays_in_order
from trainer.tracking.tracker import PlayEvent, Snapshot, public_events
from trainer.web.display import (
    SUIT_ORDER,
    CardView,
    card_view,
    cards_view,
    combo_label,
    combo_labels,
    seat_label,
    suit_label,
    trump_label,
)
from trainer.web.memo import Memo
from trainer.web.models import Deal

DealKey = tuple[int, str, datetime]
"""A deal row's identity for the cache: (pk, record id, created)."""


@dataclass(frozen=True)
class DealData:
    """A stored deal, parsed and replayed once: the record, its public events, its plays in order."""

    pk: int
    key: DealKey
    record: DealRecord
    events: tuple[PlayEvent, ...]
    plays: tuple[tuple[int, int, tuple[Card, ...]], ...]
    """(trick number, seat, cards) for every play, in order."""
    positions: tuple[Position, ...]
    """The position `T.K` after each number of plays (0 … total)."""
    hand_sizes: tuple[tuple[int, int, int, int], ...]
    """Cards in each seat's hand after each number of plays."""
    tables: dict[tuple[int, str], SeatTable] = field(default_factory=dict, compare=False)
    """The drawn pieces of the table per (seat, language), made as they are asked for."""

    @property
    def total(self) -> int:
        """How many plays the deal has."""
        return len(self.plays)

    @cached_property
    def trick_starts(self) -> tuple[int, ...]:
        """Plays made before each trick (index 0 is trick 1)."""
        starts, made = [], 0
        for trick in self.record.tricks:
            starts.append(made)
            made += len(trick.plays)
        return tuple(starts)

    def snapshot(self, seat: int, plays: int) -> Snapshot:
        """What `seat` knows after `plays` plays."""
        return snapshot_after(self.record, seat, plays, self.events)

    @classmethod
    def of(cls, deal: Deal) -> DealData:
        """Parse and replay a stored deal (stored deals were validated on the way in)."""
        assert deal.pk is not None
        record = parse_record(deal.record)
        plays = tuple(plays_in_order(record))
        sizes = [len(hand) for hand in record.playing_hands()]
        hand_sizes = [(sizes[0], sizes[1], sizes[2], sizes[3])]
        for _trick, seat, cards in plays:
            sizes[seat] -= len(cards)
            hand_sizes.append((sizes[0], sizes[1], sizes[2], sizes[3]))
        positions = tuple(position_after(record, count) for count in range(len(plays) + 1))
        return cls(deal.pk, deal_key(deal), record, tuple(public_events(record)), plays, positions, tuple(hand_sizes))


class DealCache:
    """The most recently used deals of one app process, parsed (thread-safe, bounded)."""

    def __init__(self, size: int = 512) -> None:
        self._items: Memo[DealKey, DealData] = Memo(size)

    def get(self, session: Session | Callable[[], Session], key: DealKey) -> DealData:
        """The deal with this key, parsed; loaded from the database on a miss (`session` may be a
        function giving one, called only then)."""
        def load() -> DealData:
            deal = (session if isinstance(session, Session) else session()).get(Deal, key[0])
            if deal is None or deal.id != key[1]:
                raise LookupError(f"deal {key[0]} is gone")
            return DealData.of(deal)
        return self._items.get_or_make(key, load)


def deal_cache() -> DealCache:
    """The current app's deal cache."""
    return current_app.extensions["jipai_deal_cache"]


def deal_key(deal: Deal) -> DealKey:
    """A deal row's cache key."""
    assert deal.pk is not None
    return (deal.pk, deal.id, deal.created)


@dataclass(frozen=True, slots=True)
class TableSeat:
    """One chair at the table: `place` 0 me (bottom), 1 下家 (right), 2 对家 (top), 3 上家 (left)."""

    seat: int
    place: int
    label: str
    cards_left: int
    play: Markup | None
    """The cards this seat laid in the trick on the table, drawn."""
    leads: bool
    winning: bool
    banker: bool


@dataclass(frozen=True, slots=True)
class TableView:
    """The table from the viewer's seat after `plays` plays: the current trick only (earlier tricks
    are cleared, as in match play), every chair, and the viewer's hand sorted trumps first. Cards
    come drawn (HTML), from pieces each app process draws once per deal, seat and language."""

    plays: int
    total: int
    trick: int
    tricks: int
    seats: list[TableSeat]
    hand: Markup
    attempt: Markup | None
    """A failed throw (甩牌失败) on the table: the cards tried."""
    lead_kind: str | None
    trump: str
    level: str
    buried: Markup | None
    """What the banker buried, when the viewer is the banker."""


PLACES = ("me", "right", "top", "left")


def card_html(view: CardView) -> str:
    """One card, compact: `<i class="card red">10<b>♥</b></i>`."""
    return f'<i class="{view.css}">{escape(view.rank)}<b>{view.symbol}</b></i>'


@functools.cache
def drawn_card(face: int, trump: bool, locale: str) -> str:
    """`card_html` of card `face` (0-53), a trump or not, in the language `locale` — the request's —
    drawn once per process."""
    assert str(get_locale()) == locale, (locale, get_locale())
    return card_html(card_view(Card.from_index(face), trump=trump))


class SeatTable:
    """The drawn pieces of one deal's table as one seat sees it, in one language: the seat labels,
    every card, and (memoised as they are asked for) the hand after each of the seat's own plays,
    each play, each trick's kind of lead. A drill step then only joins strings."""

    def __init__(self, data: DealData, seat: int, locale: str) -> None:
        record, ctx = data.record, data.record.ctx
        w = words(locale)
        self.suit_labels, self.combo_labels, self.void = w.suit_labels, w.combo_labels, w.void
        self.data = data
        self.seat = seat
        self.cards = [drawn_card(face, ctx.is_trump(Card.from_index(face)), locale) for face in range(54)]
        self.labels = [w.seat(seat, place, record.banker) for place in range(4)]
        self.trump = w.trump_suit(ctx)
        self.level = str(record.data["level"]).upper()
        self.buried = self.draw(ctx.sort_hand(record.buried)) if seat == record.banker else None
        self.own = [number for number, (_trick, who, _cards) in enumerate(data.plays) if who == seat]
        self._hands: dict[int, Markup] = {}
        self._plays: dict[int, Markup] = {}
        self._kinds: dict[int, str] = {}

    def draw(self, cards: Sequence[Card]) -> Markup:
        """Cards in the given order, drawn."""
        return Markup('<span class="cards">' + "".join(self.cards[card.index] for card in cards) + "</span>")

    def hand(self, plays: int) -> Markup:
        """The seat's hand after `plays` plays of the deal, grouped by suit, trumps first."""
        own = bisect.bisect_left(self.own, plays)
        found = self._hands.get(own)
        if found is None:
            record = self.data.record
            mine: Counter[Card] = Counter(record.playing_hands()[self.seat])
            for number in self.own[:own]:
                mine.subtract(self.data.plays[number][2])
            ctx = record.ctx
            groups: dict[str, list[Card]] = {key: [] for key in SUIT_ORDER}
            for card in ctx.sort_hand(mine.elements()):
                groups[ctx.effective_suit(card)].append(card)
            side = [key for key in SUIT_ORDER[1:] if ctx.trump is None or key != ctx.trump.letter]
            parts = ['<div class="hand">']
            for key in ["trump", *side] if groups["trump"] else side:
                cards = (self.draw(groups[key]) if groups[key] else Markup(f'<span class="void">{self.void}</span>'))
                parts.append(f'<div class="suit-group"><span class="suit-label">{self.suit_labels[key]}</span>'
                             f"{cards}</div>")
            found = self._hands[own] = Markup("\n".join(parts) + "\n</div>")
        return found

    def play(self, number: int) -> Markup:
        """Play `number` of the deal (0-based), drawn."""
        found = self._plays.get(number)
        if found is None:
            found = self._plays[number] = self.draw(self.data.plays[number][2])
        return found

    def lead_kind(self, trick: int) -> str:
        """How trick `trick` (1-based) was led: 单张, 对子, 拖拉机, 甩牌 …"""
        found = self._kinds.get(trick)
        if found is None:
            recorded = self.data.record.tricks[trick - 1]
            found = self._kinds[trick] = combo_label(recorded.attempt or recorded.plays[0], self.data.record.ctx,
                                                     self.combo_labels)
        return found


class Words:
    """The words of the drill table in one language, looked up once per app process and language
    (a drill step then makes no translation lookups): labels, and format strings filled per step."""

    def __init__(self) -> None:
        self.trick_of = _("Trick %(n)d of %(total)d")
        self.play_of = _("Play %(n)d of %(total)d")
        self.level = _("Level %(level)s")
        self.trump = _("Trump (主)")
        self.my_hand = _("My hand")
        self.next_card = _("Next card")
        self.failed_throw = _("Failed throw (甩牌失败): tried")
        self.buried = _("Buried by the banker")
        self.suit_labels = {key: str(escape(suit_label(key))) for key in SUIT_ORDER}
        self.combo_labels = combo_labels()
        self.void = str(escape(_("void (绝门)")))
        self._cards: dict[int, str] = {}
        self._seats: dict[tuple[int, int, int], str] = {}
        self._trumps: dict[str | None, str] = {}

    def seat(self, viewer: int, place: int, banker: int) -> str:
        """The name of the seat at `place` (0 me … 3 上家) from `viewer`'s chair, with its side."""
        found = self._seats.get((viewer, place, banker))
        if found is None:
            found = self._seats[(viewer, place, banker)] = seat_label((viewer + place) % 4, banker, viewer)
        return found

    def trump_suit(self, ctx: TrumpContext) -> str:
        """The trump suit of `ctx` in words (无主 when there is none)."""
        letter = ctx.trump.letter if ctx.trump is not None else None
        found = self._trumps.get(letter)
        if found is None:
            found = self._trumps[letter] = trump_label(ctx)
        return found

    def cards(self, count: int) -> str:
        """"N cards" (left in a hand)."""
        found = self._cards.get(count)
        if found is None:
            found = self._cards[count] = ngettext("%(num)d card", "%(num)d cards", count)
        return found


def words(locale: str | None = None) -> Words:
    """The drill table's words in the current language (`locale`, when the caller knows it), kept
    per app."""
    locale = locale or str(get_locale())
    kept: dict[str, Words] = current_app.extensions.setdefault("jipai_words", {})
    found = kept.get(locale)
    if found is None:
        found = kept[locale] = Words()
    return found


def seat_table(data: DealData, seat: int, locale: str | None = None) -> SeatTable:
    """The memoised pieces of `data`'s table for `seat` in the current language (`locale`)."""
    key = (seat, locale or str(get_locale()))
    found = data.tables.get(key)
    if found is None:
        found = data.tables[key] = SeatTable(data, seat, key[1])
    return found


def table_view(data: DealData, viewer: int, plays: int, locale: str | None = None) -> TableView:
    """The drill table after `plays` plays, seen from `viewer` (in the language `locale`)."""
    pieces = seat_table(data, viewer, locale)
    record = data.record
    position = data.positions[plays]
    trick = record.tricks[position.trick - 1] if record.tricks else None
    shown = position.plays
    first = plays - shown
    on_table = {data.plays[number][1]: number for number in range(first, plays)}
    winning = data.events[plays - 1].winning if shown else None
    left = data.hand_sizes[plays]
    seats = []
    for place in range(4):
        seat = (viewer + place) % 4
        number = on_table.get(seat)
        seats.append(TableSeat(seat, place, pieces.labels[place], left[seat],
                               pieces.play(number) if number is not None else None,
                               trick is not None and seat == trick.leader, seat == winning, seat == record.banker))
    attempt = trick.attempt if trick is not None and shown else None
    return TableView(plays, data.total, position.trick, len(record.tricks), seats, pieces.hand(plays),
                     pieces.draw(attempt) if attempt is not None else None,
                     pieces.lead_kind(position.trick) if shown else None, pieces.trump, pieces.level, pieces.buried)


@dataclass(frozen=True, slots=True)
class PastTrick:
    """One trick of the history on the review page: its plays from the leader, the winner, the points."""

    number: int
    plays: list[TableSeat]
    winner: int | None
    """The seat that won it; None while it is unfinished."""
    points: int
    attempt: list[CardView] | None


def history(data: DealData, viewer: int, plays: int) -> list[PastTrick]:
    """Every trick up to `plays` plays (the last one perhaps unfinished) with the seats named from
    `viewer`: the review page shows the whole history."""
    record, ctx = data.record, data.record.ctx
    tricks: list[PastTrick] = []
    for number, trick in enumerate(record.tricks, start=1):
        start = data.trick_starts[number - 1]
        if start >= plays:
            break
        shown = min(len(trick.plays), plays - start)
        finished = shown == len(trick.plays) == 4
        winner = data.events[start + shown - 1].winning if finished else None
        seats = []
        for index, cards in enumerate(trick.plays[:shown]):
            seat = (trick.leader + index) % 4
            seats.append(TableSeat(seat, (seat - viewer) % 4, seat_label(seat, record.banker, viewer), 0,
                                   cards_view(cards, ctx), index == 0, seat == winner, seat == record.banker))
        points = sum(card.points for cards in trick.plays[:shown] for card in cards)
        tricks.append(PastTrick(number, seats, winner, points,
                                cards_view(trick.attempt, ctx) if trick.attempt is not None else None))
    return tricks


def play_section(table_html: str, form_html: str) -> str:
    """The `#run` section of a run between questions: the table, then the step form. It is what
    every drill step answers, and what the run page shows then."""
    return f'<section id="run" class="run play">\n{table_html}{form_html}\n</section>'


def table_html(table: TableView, w: Words) -> str:
    """The drill table — the four chairs, the trick on the table, my hand — drawn (built without
    Jinja: a drill step draws one, on every play of every run)."""
    return "".join(table_parts(table, w))


def table_parts(table: TableView, w: Words) -> tuple[str, ...]:
    """`table_html` in pieces: the chairs and the centre, then my hand as `SeatTable` drew it (one
    string shared by every play until my next), then the rest."""
    out = ['<div class="table">']
    for seat in table.seats:
        who = escape(seat.label) + (Markup(" · ") + escape(w.cards(seat.cards_left)) if seat.place else "")
        out.append(f'\n<div class="chair {PLACES[seat.place]}{" wins" if seat.winning else ""}">\n'
                   f'<div class="who">{who}</div>\n<div class="play">{seat.play or ""}</div>\n</div>')
    out.append(f'\n<div class="centre">\n<b>{escape(w.trick_of % {"n": table.trick, "total": table.tricks})}</b>\n')
    if table.lead_kind:
        out.append(f"<span>{escape(table.lead_kind)}</span>\n")
    if table.attempt:
        out.append(f"<span>{escape(w.failed_throw)} {table.attempt}</span>\n")
    level = escape(w.level % {"level": table.level})
    out.append(f'</div>\n</div>\n<div class="mine">\n<p class="hint">{level} · {escape(w.trump)} {escape(table.trump)} · '
               f"{escape(w.my_hand)}</p>\n")
    buried = f'<p class="hint">{escape(w.buried)} {table.buried}</p>\n' if table.buried else ""
    return "".join(out), table.hand, f"\n{buried}</div>\n"


def step_form(w: Words, step_url: str, delay: int, plays: int, total: int, csrf_token: str | None = None) -> str:
    """The step form (htmx posts it after `delay` ms; without JavaScript it is the Next button) and
    how far the run is. A page's form carries the CSRF token; htmx sends it in a header instead."""
    url = escape(step_url)
    token = f'<input type="hidden" name="csrf_token" value="{escape(csrf_token)}">\n' if csrf_token else ""
    return (f'<form class="step" method="post" action="{url}" hx-post="{url}" hx-target="#run" '
            f'hx-swap="outerHTML" hx-trigger="submit, load delay:{delay}ms">\n{token}'
            f'<button type="submit" id="next">{escape(w.next_card)} ▶</button>\n'
            f'<span class="hint">{escape(w.play_of % {"n": plays, "total": total})}</span>\n'
            "</form>")


def drawn_table(data: DealData, seat: int, plays: int, locale: str) -> Markup:
    """`table_html` after `plays` plays of `data` from `seat` in the language `locale`, drawn once per
    app process (the most recently used are kept: `DRAWN_TABLES` of them)."""
    memo: Memo[tuple[DealKey, int, int, str], tuple[str, ...]] = current_app.extensions["jipai_drawn_tables"]
    parts = memo.get_or_make((data.key, seat, plays, locale),
                             lambda: table_parts(table_view(data, seat, plays, locale), words(locale)))
    return Markup("".join(parts))
