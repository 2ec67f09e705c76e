"""The drill table as data for `templates/drills/_table.html`: the table after some plays seen from one
seat, and every play up to a checkpoint, each thing on the table with the steps it is shown for.
"""
from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from trainer.engine.cards import Card
from trainer.web.dealdata import DealData
from trainer.web.display import CardView, cards_view, combo_label, combo_labels, hand_groups, seat_label, trump_label


@dataclass(frozen=True, slots=True)
class Shown:
    """A value on the table from step `start` of a stretch until step `end` (None: to its end)."""

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


@dataclass(frozen=True, slots=True)
class Chair:
    """A chair at the table: `place` 0 me (bottom), 1 下家 (right), 2 对家 (top), 3 上家 (left)."""

    place: str
    label: str
    banker: bool
    left: list[Shown]
    """Cards in the hand."""
    play: list[Shown]
    """The cards laid in the trick on the table (CardViews)."""
    leads: list[Shown]
    wins: list[Shown]


@dataclass(frozen=True, slots=True)
class Stretch:
    """The table after some plays and the next `steps` plays: what each step shows."""

    steps: int
    chairs: list[Chair]
    trick: list[Shown]
    """(trick number, lead kind, failed throw's cards or None)."""
    counter: list[Shown]
    last_trick: list[Shown]
    """The previous trick's plays: (seat label, cards, won it)."""
    hand: list[tuple[str, list[tuple[CardView, int | None]]]]
    """My hand by suit, trumps first: each card with the step it is played at (None: kept)."""
    tricks: int
    level: str
    trump: str
    buried: list[CardView] | None
    decks: int
    """The deck count: with three or four decks (39 and 52 cards a hand) the cards are drawn smaller."""


PLACES = ("me", "right", "across", "left")


def stretch(data: DealData, viewer: int, start: int, end: int) -> Stretch:
    """The table seen from `viewer` after `start` plays, with every play up to `end` to reveal."""
    record, ctx = data.record, data.record.ctx
    frames = range(start, end + 1)
    names, kinds = [seat_label(seat, record.banker, viewer) for seat in range(4)], combo_labels()
    @functools.cache
    def view(play: int) -> tuple[CardView, ...]:  # a play's cards, drawn once per stretch
        return tuple(cards_view(data.plays[play][2], ctx))

    sizes = [[len(data.hands[seat]) - sum(len(cards) for _t, who, cards in data.plays[:start] if who == seat)
              for seat in range(4)]]
    for _trick, seat, cards in data.plays[start:end]:
        sizes.append([size - len(cards) * (who == seat) for who, size in enumerate(sizes[-1])])
    chairs = []
    for place in range(4):
        seat = (viewer + place) % 4
        on_table, leads, wins = [], [], []
        for plays in frames:
            position = data.positions[plays]
            first = plays - position.plays
            laid = [n for n in range(first, plays) if data.plays[n][1] == seat]
            on_table.append(view(laid[0]) if laid else None)
            leads.append(bool(position.plays) and record.tricks[position.trick - 1].leader == seat)
            wins.append(bool(position.plays) and data.events[plays - 1].winning == seat)
        chairs.append(Chair(PLACES[place], names[seat], seat == record.banker,
                            spans([size[seat] for size in sizes]), spans(on_table), spans(leads), spans(wins)))

    def trick_at(plays: int) -> tuple[int, str | None, tuple[CardView, ...] | None]:
        position = data.positions[plays]
        trick = record.tricks[position.trick - 1] if record.tricks else None
        if trick is None or not position.plays:
            return (position.trick, None, None)
        kind = combo_label(trick.attempt or trick.plays[0], ctx, kinds)
        return (position.trick, kind, tuple(cards_view(trick.attempt, ctx)) if trick.attempt else None)

    def last_at(plays: int) -> tuple[tuple[str, tuple[CardView, ...], bool], ...] | None:
        number = data.positions[plays].trick - 1
        if number < 1:
            return None
        trick, begin = record.tricks[number - 1], data.trick_starts[number - 1]
        winner = data.events[begin + len(trick.plays) - 1].winning
        return tuple((names[data.plays[play][1]], view(play), data.plays[play][1] == winner)
                     for play in range(begin, begin + len(trick.plays)))

    gone: dict[Card, list[int]] = {}
    for step, (_trick, seat, cards) in enumerate(data.plays[start:end], start=1):
        if seat == viewer:
            for card in cards:
                gone.setdefault(card, []).append(step)
    hand = []
    for group in hand_groups(data.hand(viewer, start), ctx):
        if group.key != "trump" or group.cards:
            steps = [gone.get(Card.parse(view.code)) for view in group.cards]
            hand.append((group.label, [(view, at.pop(0) if at else None) for view, at in zip(group.cards, steps)]))
    return Stretch(end - start, chairs, spans([trick_at(p) for p in frames]),
                   spans([(p, data.total) for p in frames]), spans([last_at(p) for p in frames]), hand,
                   len(record.tricks), str(record.data["level"]).upper(), trump_label(ctx),
                   cards_view(ctx.sort_hand(record.buried), ctx) if viewer == record.banker else None,
                   record.rules.decks)
