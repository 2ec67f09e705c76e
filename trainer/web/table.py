"""The drill table as data for `templates/drills/_table.html`: the table after some plays seen from one
seat, and every play up to a checkpoint, each thing on the table with the steps it is shown for.
"""
from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from trainer.engine.cards import Card
from trainer.web.display import (CardView, Shown, cards_view, combo_label, combo_labels, hand_groups, played_steps,
                                 seat_label, spans, trump_label)

if TYPE_CHECKING:  # the deal data draws its table with `stretch`
    from trainer.web.dealdata import DealData


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
    reveals: list[tuple[str, tuple[CardView, ...]]]
    """What each step reveals, from step 1: the seat that plays and its cards (the live region says it)."""


PLACES = ("me", "right", "across", "left")

TrickPlays = tuple[tuple[str, tuple[CardView, ...], bool], ...]
"""A trick's plays from its leader: (seat label, cards, the play winning it)."""


def trick_plays(data: DealData, names: list[str], number: int, plays: int,
                view: Callable[[int], tuple[CardView, ...]]) -> TrickPlays:
    """Trick `number`'s plays made within the first `plays` of the deal, seats named by `names`,
    each play's cards drawn by `view` (play index)."""
    begin = data.trick_starts[number - 1]
    stop = min(begin + len(data.record.tricks[number - 1].plays), plays)
    return tuple((names[data.plays[play][1]], view(play), data.plays[play][1] == data.events[stop - 1].winning)
                 for play in range(begin, stop))


def shown_trick(data: DealData, viewer: int, number: int, plays: int) -> TrickPlays | None:
    """Trick `number` as the viewer saw it within the first `plays` plays (None when it had not begun):
    the deciding play's look (training.md §3)."""
    if not 1 <= number <= len(data.record.tricks) or data.trick_starts[number - 1] >= plays:
        return None
    names = [seat_label(seat, data.record.banker, viewer) for seat in range(4)]
    return trick_plays(data, names, number, plays, lambda play: tuple(cards_view(data.plays[play][2], data.record.ctx)))


def stretch(data: DealData, viewer: int, start: int, end: int) -> Stretch:
    """The table seen from `viewer` after `start` plays, with every play up to `end` to reveal."""
    record, ctx = data.record, data.record.ctx
    frames = range(start, end + 1)
    names, kinds = [seat_label(seat, record.banker, viewer) for seat in range(4)], combo_labels()

    @functools.cache
    def view(play: int) -> tuple[CardView, ...]:  # a play's cards, drawn once per stretch
        return tuple(cards_view(data.plays[play][2], ctx))

    def on_table(plays: int) -> tuple[dict[int, tuple[CardView, ...]], int | None, int | None]:
        """The trick on the table: each seat's cards in it, its leader and the seat winning it."""
        position = data.positions[plays]
        if not position.plays:
            return {}, None, None
        laid = {data.plays[n][1]: view(n) for n in range(plays - position.plays, plays)}
        return laid, record.tricks[position.trick - 1].leader, data.events[plays - 1].winning

    tables = [on_table(plays) for plays in frames]
    sizes = [[len(data.hand(seat, start)) for seat in range(4)]]
    for _trick, seat, cards in data.plays[start:end]:
        sizes.append([size - len(cards) * (who == seat) for who, size in enumerate(sizes[-1])])
    chairs = []
    for place in range(4):
        seat = (viewer + place) % 4
        chairs.append(Chair(PLACES[place], names[seat], seat == record.banker, spans([size[seat] for size in sizes]),
                            spans([laid.get(seat) for laid, _leader, _winner in tables]),
                            spans([leader == seat for _laid, leader, _winner in tables]),
                            spans([winner == seat for _laid, _leader, winner in tables])))

    def lead_at(plays: int) -> tuple[int, str | None, tuple[CardView, ...] | None]:
        position = data.positions[plays]
        trick = record.tricks[position.trick - 1] if record.tricks else None
        if trick is None or not position.plays:
            return (position.trick, None, None)
        kind = combo_label(trick.attempt or trick.plays[0], ctx, kinds)
        return (position.trick, kind, tuple(cards_view(trick.attempt, ctx)) if trick.attempt else None)

    def last_at(plays: int) -> tuple[tuple[str, tuple[CardView, ...], bool], ...] | None:
        number = data.positions[plays].trick - 1
        return trick_plays(data, names, number, plays, view) if number >= 1 else None

    gone = played_steps(cards if seat == viewer else () for _trick, seat, cards in data.plays[start:end])
    hand = [(group.label, [(view, (gone.get(Card.parse(view.code)) or [None]).pop(0)) for view in group.cards])
            for group in hand_groups(data.hand(viewer, start), ctx) if group.key != "trump" or group.cards]
    return Stretch(end - start, chairs, spans([lead_at(p) for p in frames]),
                   spans([(p, data.total) for p in frames]), spans([last_at(p) for p in frames]), hand,
                   len(record.tricks), str(record.data["level"]).upper(), trump_label(ctx),
                   cards_view(ctx.sort_hand(record.buried), ctx) if viewer == record.banker else None,
                   record.rules.decks, [(names[data.plays[play][1]], view(play)) for play in range(start, end)])
