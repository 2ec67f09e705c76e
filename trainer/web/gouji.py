"""够级 on the web: stored Gouji deals parsed once (`GoujiDealData`, the `DealData` of six seats, with the
same plans, questions, tables and explanations for the run loop of `trainer.web.drills`) and the six-seat
drill table as data for `templates/drills/_gouji_table.html`."""
from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any

from flask_babel import gettext as _

from trainer.drills.gouji import (GoujiAsked, GoujiDrill, GoujiPlan, context, count_shown, deciding_plays, explain,
                                  plan_run, rank_name, run_questions, snapshot_after)
from trainer.drills.explain import Explanation
from trainer.drills.questions import Question
from trainer.engine.cards import Card
from trainer.gouji.plays import VALUE_OF, VALUES_HIGH_TO_LOW, VALUE_NAMES
from trainer.gouji.records import GoujiPosition, GoujiRecord, GoujiReplay, parse_gouji_record, place_name, verify_summary
from trainer.gouji.state import Action
from trainer.gouji.tracker import GoujiEvent, GoujiSnapshot, public_events
from trainer.web.display import CardView, Shown, card_view, played_steps, spans
from trainer.web.models import Deal
from trainer.web.table import TrickPlays

PLACES = ("me", "right-low", "right-high", "across", "left-high", "left-low")
"""Where each relation sits at the table: me at the bottom, 下家 lower right, 下手联邦 upper right, 对头 at the top,
上手联邦 upper left, 上家 lower left (play goes counter-clockwise)."""


@dataclass(frozen=True)
class GoujiDealData:
    """A stored Gouji deal, parsed and replayed once: the record, its public events, its actions."""

    record: GoujiRecord
    events: tuple[GoujiEvent, ...]
    actions: tuple[tuple[int, Action], ...]
    """(seat, cards or "pass"/"yield") for every action, in order."""
    positions: tuple[GoujiPosition, ...]
    """The position `R.K` after each number of actions (0 … total)."""
    game = "gouji"

    @property
    def total(self) -> int:
        """How many actions the deal has."""
        return len(self.events)

    @cached_property
    def trick_starts(self) -> tuple[int, ...]:
        """Actions made before each round (index 0 is round 1), as `DealData.trick_starts` for tricks."""
        starts, made = [], 0
        for rnd in self.record.rounds:
            starts.append(made)
            made += len(rnd.actions)
        return tuple(starts)

    def snapshot(self, seat: int, actions: int) -> GoujiSnapshot:
        """What `seat` knows after `actions` actions."""
        return snapshot_after(self.record, seat, actions, self.events)

    def hand(self, seat: int, actions: int) -> list[Card]:
        """`seat`'s cards after `actions` actions."""
        left = Counter(self.record.playing_hands()[seat])
        for event in self.events[:actions]:
            if event.seat == seat:
                left.subtract(event.cards)
        return sorted(left.elements(), key=lambda card: (-VALUE_OF[card.index], card.index))

    def plan(self, drill: GoujiDrill, seed: int) -> GoujiPlan:
        """The viewer seat and the checkpoints of a run of `drill` on this deal."""
        return plan_run(drill, self.record, seed, self.events)

    def question(self, drill: GoujiDrill, seat: int, checkpoints: Sequence[int], seed: int, index: int) -> GoujiAsked:
        """The question at checkpoint `index` of a run from `seat` stopping at `checkpoints` (`run_questions`:
        never one the run asked before)."""
        return run_questions(drill, self.record, seat, checkpoints, seed, self.events, index + 1)[index]

    def table(self, seat: int, start: int, end: int, drill: GoujiDrill) -> GoujiStretch:
        """The drill table from `seat` after `start` actions, with the actions up to `end` to reveal."""
        return gouji_stretch(self, seat, start, end, drill.hand_sizes)

    def explanation(self, question: Question, seat: int, actions: int, language: str) -> Explanation:
        """Why the answer is right, in the reader's language (`trainer.drills.gouji.explain`)."""
        ctx = context(self.snapshot(seat, actions), str(self.positions[actions]))
        return Explanation(explain(question, ctx)[language], [], deciding_plays(question, ctx, language))

    def shown_trick(self, seat: int, number: int, actions: int) -> TrickPlays | None:
        """Round `number` as `seat` saw it within the first `actions` actions (None when it had not begun):
        a deciding play's look (training.md §3): each play with its seat named from `seat`, the play on top
        marked."""
        if not 1 <= number <= len(self.record.rounds) or self.trick_starts[number - 1] >= actions:
            return None
        begin = self.trick_starts[number - 1]
        stop = min(begin + len(self.record.rounds[number - 1].actions), actions)
        plays = [(who, action) for who, action in self.actions[begin:stop] if not isinstance(action, str)]
        rules = self.record.rules
        return tuple((relation_label(rules.relation(who, seat)), tuple(map(gouji_card, action)), k == len(plays) - 1)
                     for k, (who, action) in enumerate(plays))

    @classmethod
    def of(cls, deal: Deal) -> GoujiDealData:
        """Parse and replay a stored deal (stored deals were validated on the way in)."""
        record = parse_gouji_record(deal.record)
        events = tuple(public_events(record))
        actions = tuple((seat, action) for _round, seat, action in record.actions())
        return cls(record, events, actions, tuple(GoujiPosition.after(n, record) for n in range(len(events) + 1)))


def gouji_card(card: Card) -> CardView:
    """A card for the `card` macro as 够级 draws it: coloured, with no trump or point marks (suits and points
    mean nothing in 够级)."""
    view = card_view(card, trump=False)
    return replace(view, css=" ".join(c for c in view.css.split() if c != "points"))


def relation_label(relation: str) -> str:
    """A relation of gouji.md §1 in the reader's language."""
    labels = {"me": _("Me (自己)"), "下家": _("Next (下家)"), "下手联邦": _("Next teammate (下手联邦)"),
              "对头": _("Opposite (对头)"), "上手联邦": _("Previous teammate (上手联邦)"), "上家": _("Previous (上家)")}
    return labels.get(relation, relation)


def mode_label(mode: str) -> str:
    """A round's mode in words."""
    return {"normal": _("normal"), "gouji": _("够级: only the 对头 answers"), "luanchan": _("乱缠")}.get(mode, mode)


@dataclass(frozen=True, slots=True)
class GoujiChair:
    """A chair at the six-seat table: where it sits, its relation to me, its team, and what each step
    shows: cards left (None when hidden), its last play in the round, passed, on top, out."""

    place: str
    label: str
    ours: bool
    left: list[Shown]
    play: list[Shown]
    passed: list[Shown]
    """"pass" or "yield" when that was the seat's last action in the round."""
    top: list[Shown]
    out: list[Shown]


@dataclass(frozen=True, slots=True)
class GoujiStretch:
    """The six-seat table after some actions and the next `steps` actions: what each step shows."""

    steps: int
    chairs: list[GoujiChair]
    round: list[Shown]
    """(round number, mode in words)."""
    counter: list[Shown]
    hand: list[tuple[str, list[tuple[CardView, int | None]]]]
    """My hand by rank (named as players name it: 大王, 小王, 2 …), high to low: each card with the step it is
    played at (None: kept)."""
    rounds: int
    reveals: list[tuple[str, Any]]
    """What each step reveals, from step 1: the seat that acts and its cards, or `pass` / `yield` (the live
    region says it)."""
    game: str = "gouji"


def gouji_stretch(data: GoujiDealData, viewer: int, start: int, end: int, hand_sizes: str) -> GoujiStretch:
    """The table seen from `viewer` after `start` actions, with every action up to `end` to reveal; other
    seats' card counts shown as `hand_sizes` says (always, ten, never)."""
    record, rules = data.record, data.record.rules
    n = rules.players
    frames = range(start, end + 1)
    sizes = [[len(data.hand(seat, start)) for seat in range(n)]]
    for event in data.events[start:end]:
        sizes.append([size - len(event.cards) * (seat == event.seat) for seat, size in enumerate(sizes[-1])])
    frame_tops, frame_last, frame_out = [], [], []
    for count in frames:
        first = count - data.positions[count].within
        last: dict[int, Any] = {}
        top = None
        for seat, action in data.actions[first:count]:
            last[seat] = action
            if not isinstance(action, str):
                top = seat
        frame_tops.append(top)
        frame_last.append(last)
        frame_out.append(data.events[count - 1].view.out if count else (None,) * n)
    chairs = []
    for offset in range(n):
        seat = (viewer + offset) % n
        actions = [last.get(seat) for last in frame_last]
        outs = [place_name(out[seat].place, n) + (" (闷)" if out[seat].how == "men" else "") if out[seat] else None
                for out in frame_out]
        relation = rules.relation(seat, viewer)
        chairs.append(GoujiChair(PLACES[offset] if n == 6 else f"seat-{offset}", relation_label(relation),
                                 rules.team(seat) == rules.team(viewer),
                                 spans([count_shown(size[seat], hand_sizes) for size in sizes]),
                                 spans([tuple(map(gouji_card, a)) if a is not None and not isinstance(a, str) else None
                                        for a in actions]),
                                 spans([a if isinstance(a, str) else None for a in actions]),
                                 spans([top == seat for top in frame_tops]), spans(outs)))

    def round_at(count: int) -> tuple[int, str]:
        view = data.events[count - 1].view if count else None
        return data.positions[count].round, mode_label(view.mode if view is not None else "normal")

    gone = played_steps(event.cards if event.seat == viewer else () for event in data.events[start:end])
    by_rank: dict[int, list[tuple[CardView, int | None]]] = {}
    for card in data.hand(viewer, start):
        steps = gone.get(card)
        by_rank.setdefault(VALUE_OF[card.index], []).append((gouji_card(card), steps.pop(0) if steps else None))
    hand = [(rank_name(VALUE_NAMES[v]), by_rank[v]) for v in VALUES_HIGH_TO_LOW if v in by_rank]
    return GoujiStretch(end - start, chairs, spans([round_at(c) for c in frames]),
                        spans([(c, data.total) for c in frames]), hand, len(record.rounds),
                        [(relation_label(rules.relation(seat, viewer)),
                          action if isinstance(action, str) else tuple(map(gouji_card, action)))
                         for seat, action in data.actions[start:end]])


def gouji_deal_view(rep: GoujiReplay) -> dict[str, Any]:
    """What the deal page shows of a 够级 deal: every playing hand (high to low), each round's actions, the
    `deal verify` summary."""
    record = rep.record
    hands = [sorted(hand, key=lambda card: (-VALUE_OF[card.index], card.index)) for hand in record.playing_hands()]
    rounds = [(number, rnd.leader, [(seat, action if isinstance(action, str) else list(action))
                                    for seat, action in rnd.actions])
              for number, rnd in enumerate(record.rounds, start=1)]
    return {"record": record, "hands": hands, "rounds": rounds, "summary": verify_summary(rep),
            "place_name": lambda place: place_name(place, record.rules.players), "rules": record.rules.to_json()}
