"""The per-seat observer (tier 1): fed only what its seat may see, it keeps the counts incrementally.

A `SeatTracker` is built from its own hand (and the buried cards when it is the banker's) and
then receives `PlayEvent`s, the public plays; it never holds a reference to other hands, the
record or the game state, so it cannot peek. `facts()` snapshots what the seat knows now.
"""
from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

from trainer.engine.cards import Card
from trainer.engine.combos import face_counts, pair_structure
from trainer.engine.follow import Lead, follow_verdict, forms_lead_shape
from trainer.engine.round import RoundState
from trainer.engine.scoring import kitty_multiplier
from trainer.engine.trump import TRUMP, TrumpContext
from trainer.records import DealRecord, Position

FACE_POINTS = tuple(Card.from_index(face).points for face in range(54))


@dataclass(frozen=True, slots=True)
class PlayEvent:
    """One public play as every seat sees it."""

    trick: int
    """The trick's number, from 1."""
    seat: int
    cards: tuple[Card, ...]
    lead: Lead
    """The trick's standing lead (after a failed throw, the forced play)."""
    attempt: tuple[Card, ...] | None = None
    """On a lead: the failed throw the forced play came from."""
    penalty: int = 0
    """On a failed throw: points credited to the attackers (negative when an attacker threw)."""
    winning: int = 0
    """The seat winning the trick after this play."""


def last_event(state: RoundState, number: int, play: Sequence[Card], attempt: Sequence[Card] | None) -> PlayEvent:
    """The public event of the play just applied to `state` (trick `number`, cards as laid)."""
    current = state.tricks[-1]
    index = len(current.plays) - 1
    assert current.lead is not None and current.winning is not None
    return PlayEvent(number, current.seat_of(index), tuple(play), current.lead,
                     tuple(attempt) if index == 0 and attempt is not None else None,
                     current.penalty if index == 0 else 0, current.winning)


def public_events(record: DealRecord) -> Iterator[PlayEvent]:
    """The public plays of a (validated) record, in order, with who is winning after each."""
    state = RoundState.start(record.rules, record.ctx, record.banker, record.playing_hands(), record.buried)
    for number, trick in enumerate(record.tricks, start=1):
        for index, play in enumerate(trick.plays):
            if index == 0:
                state.lead(trick.attempt if trick.attempt is not None else play)
            else:
                state.follow(play)
            yield last_event(state, number, play, trick.attempt)


def _counts(cards: Sequence[Card]) -> list[int]:
    counts = [0] * 54
    for card in cards:
        counts[card.index] += 1
    return counts


class TrickView(NamedTuple):
    """The trick at a position: leader, plays so far, the seat winning, a failed throw's attempt."""

    number: int
    leader: int
    plays: tuple[tuple[Card, ...], ...]
    winning: int | None
    attempt: tuple[Card, ...] | None


@dataclass(frozen=True, slots=True)
class Constraints:
    """What tier 2 needs beyond the counts: cards known to be in a hand, per-seat caps, declarations."""

    returned: tuple[dict[int, int], ...]
    """Cards a failed throw returned to each seat, not played since (face → copies)."""
    caps: tuple[dict[int, int], ...]
    """Upper bounds a successful throw proved for each seat (face → copies), after plays since."""
    declared: tuple[dict[int, int], ...]
    """Declared cards each seat still holds unless played (or, for the banker, buried)."""


class Snapshot(NamedTuple):
    """Everything the viewer knows at one position, as counts; `trainer.tracking.facts` reads it."""

    seat: int
    ctx: TrumpContext
    banker: int
    mine: tuple[int, ...]
    unseen: tuple[int, ...]
    played: tuple[int, ...]
    kitty_known: tuple[int, ...]
    kitty_revealed: bool
    hand_sizes: tuple[int, ...]
    points_won: tuple[int, ...]
    penalties: int
    kitty_bonus: int
    revealed_voids: tuple[int, ...]
    """Per seat, a bit per effective suit (1 << suit) shown void by failing to follow."""
    no_pairs: tuple[int, ...]
    no_tractors: tuple[int, ...]
    """Per seat, a bit per effective suit shown to hold no tractor (a suit in `no_pairs` is in it too)."""
    trick: TrickView
    constraints: Constraints


class SeatTracker:
    """The tier-1 observer of one seat: counts kept up to date play by play."""

    def __init__(self, seat: int, ctx: TrumpContext, banker: int, hand: Sequence[Card],
                 buried: Sequence[Card] | None = None,
                 declarations: Sequence[tuple[int, Sequence[Card]]] = ()) -> None:
        rules = ctx.rules
        self.seat = seat
        self.ctx = ctx
        self.banker = banker
        self.mine = _counts(hand)
        self.kitty_known = _counts(buried) if buried is not None and seat == banker else [0] * 54
        self.unseen = [rules.decks - self.mine[f] - self.kitty_known[f] for f in range(54)]
        self.played = [0] * 54
        self.kitty_revealed = False
        self.hand_sizes = [rules.hand_size] * 4
        self.hand_sizes[seat] = len(hand)
        self.points_won = [0, 0, 0, 0]
        self.penalties = 0
        self.kitty_bonus = 0
        self.revealed_voids = [0, 0, 0, 0]
        self.no_pairs = [0, 0, 0, 0]
        self.no_tractors = [0, 0, 0, 0]
        self.strict_pairs = rules.follow != "loose"
        self.lenient = rules.follow == "lenient"
        self.trick = TrickView(1, banker, (), None, None)
        self.lead: Lead | None = None
        self.returned: list[dict[int, int]] = [{}, {}, {}, {}]
        self.caps: list[dict[int, int]] = [{}, {}, {}, {}]
        self.declared: list[dict[int, int]] = [{}, {}, {}, {}]
        self._constraints: Constraints | None = None
        self._kitty_known = tuple(self.kitty_known)
        for declarer, cards in declarations:
            if declarer != seat:
                for card in cards:
                    held = self.declared[declarer]
                    held[card.index] = max(held.get(card.index, 0), sum(1 for c in cards if c is card))

    def observe(self, event: PlayEvent) -> None:
        """Take in one public play."""
        seat, cards, suit_of = event.seat, event.cards, self.ctx.suit_of
        played = self.played
        counts = self.mine if seat == self.seat else self.unseen
        for card in cards:
            face = card.index
            played[face] += 1
            counts[face] -= 1
        self.hand_sizes[seat] -= len(cards)
        trick = self.trick
        if not trick.plays or len(trick.plays) == 4:
            self._new_trick(event)
        else:
            lead = self.lead
            assert lead is not None
            led = lead.suit
            in_suit = sum(1 for card in cards if suit_of[card.index] == led)
            bit = 1 << led
            if self.lenient and not in_suit and forms_lead_shape(lead, cards, self.ctx):
                # no void: only no led-suit combination of the lead's shape (rules.md §4 lenient)
                if lead.pairs == 1:
                    self.no_pairs[seat] |= bit
                if lead.pairs <= 2:  # a pair or a 2-pair tractor: no pair (tractor) of the suit
                    self.no_tractors[seat] |= bit
            elif in_suit < len(lead.cards):
                self.revealed_voids[seat] |= bit
            elif lead.pairs and self.strict_pairs:
                if shows_no_pair(lead, cards, self.ctx):
                    self.no_pairs[seat] |= bit
                    self.no_tractors[seat] |= bit
                elif lead.tractors and shows_no_tractor(lead, cards, self.ctx):
                    self.no_tractors[seat] |= bit
            self.trick = TrickView(trick.number, trick.leader, trick.plays + (cards,), event.winning, trick.attempt)
        returned, caps, declared = self.returned[seat], self.caps[seat], self.declared[seat]
        if returned or caps or declared:
            failed_lead = event.attempt is not None and len(self.trick.plays) == 1
            for bounds in (caps, declared) if failed_lead else (returned, caps, declared):
                for card in cards:
                    if bounds.get(card.index):
                        bounds[card.index] -= 1
                        if not bounds[card.index] and bounds is not caps:
                            del bounds[card.index]  # a lower bound used up is no bound (a cap of 0 is one)
                        self._constraints = None
        if len(self.trick.plays) == 4:
            self.points_won[event.winning] += sum(FACE_POINTS[c.index] for play in self.trick.plays for c in play)

    def _new_trick(self, event: PlayEvent) -> None:
        lead = event.lead
        self.lead = lead
        self.trick = TrickView(event.trick, event.seat, (event.cards,), event.winning, event.attempt)
        if event.attempt is not None or len(lead.units) > 1:
            self._constraints = None
        if event.attempt is not None:
            self.penalties += event.penalty
            if event.seat != self.seat:
                self.returned[event.seat] = known_after_throw(self.returned[event.seat], event.attempt, event.cards)
        elif len(lead.units) > 1:
            self._throw_caps(event.seat, lead)

    def _throw_caps(self, thrower: int, lead: Lead) -> None:
        caps = throw_caps(lead, self.ctx)
        for other in range(4):
            if other not in (thrower, self.seat):
                bounds = self.caps[other]
                for face, cap in caps.items():
                    bounds[face] = min(bounds.get(face, cap), cap)

    def reveal_kitty(self, buried: Sequence[Card]) -> None:
        """The end of a complete hand: the kitty is turned over for everybody (翻底) and scored."""
        if self.seat != self.banker:
            for card in buried:
                self.kitty_known[card.index] += 1
                self.unseen[card.index] -= 1
        self._kitty_known = tuple(self.kitty_known)
        self.kitty_revealed = True
        winner = self.trick.winning
        if winner is not None and (winner - self.banker) % 2 == 1 and self.lead is not None:
            self.kitty_bonus = sum(c.points for c in buried) * kitty_multiplier(self.lead, self.ctx.rules)

    def snapshot(self, position: Position | None = None) -> Snapshot:
        """What the seat knows now; at `T.0` (T > 1) the trick shown is the next, not yet led."""
        trick = self.trick
        if position is not None and position.plays == 0 and not position.is_end and trick.plays:
            trick = TrickView(trick.number + 1, trick.winning or 0, (), None, None)
        if self._constraints is None:
            self._constraints = Constraints(tuple(dict(d) for d in self.returned), tuple(dict(d) for d in self.caps),
                                            tuple(dict(d) for d in self.declared))
        return Snapshot(
            self.seat, self.ctx, self.banker, tuple(self.mine), tuple(self.unseen), tuple(self.played),
            self._kitty_known, self.kitty_revealed, tuple(self.hand_sizes), tuple(self.points_won),
            self.penalties, self.kitty_bonus, tuple(self.revealed_voids), tuple(self.no_pairs),
            tuple(self.no_tractors), trick, self._constraints)


def known_after_throw(known: dict[int, int], attempt: Sequence[Card], forced: Sequence[Card]) -> dict[int, int]:
    """Cards known to be in a thrower's hand after a failed throw: those known before or shown in the
    attempt (the larger count of each face), less the forced play."""
    result = dict(known)
    for face, copies in face_counts(attempt).items():
        result[face] = max(result.get(face, 0), copies)
    for card in forced:
        result[card.index] -= 1
    return {face: copies for face, copies in result.items() if copies > 0}


def throw_caps(lead: Lead, ctx: TrumpContext) -> dict[int, int]:
    """What a throw that stood proves of every other seat (not the kitty) at that moment: no card of
    the suit above its lowest single, fewer than w copies of a face above its lowest tuple of width w
    (one above the lowest pair, two above the lowest triple…) (face → cap)."""
    lowest: dict[int, int] = {}
    for unit in lead.units:
        if unit.length == 1:
            lowest[unit.width] = min(lowest.get(unit.width, unit.top), unit.top)
    caps = {}
    for face in ctx.faces_by_suit[lead.suit]:
        above = [width - 1 for width, top in lowest.items() if ctx.strength[face] > top]
        if above:
            caps[face] = min(above)
    return caps


def shows_no_pair(lead: Lead, play: Sequence[Card], ctx: TrumpContext) -> bool:
    """True when a follower who answered `lead` with `play`, all of the led suit, is shown to hold no pair
    of that suit now: the play has fewer pairs than the lead (a triple counts one, a quad two) and no hand
    holding a further pair would have been allowed it. Where the lead holds pairs and singles only and
    `protect_longer` is off, the (P, T) ladder of rules.md §4 ranks pairs first and a further pair always
    makes one more, so the count decides; otherwise `no_legal_holder` asks the engine."""
    if _pairs(play) >= lead.pairs:
        return False
    if ctx.rules.decks <= 2:
        return True
    if not ctx.rules.follow.startswith("protect_longer") and all(unit.width <= 2 for unit in lead.units):
        return True
    return no_legal_holder(lead, play, ctx)


def no_legal_holder(lead: Lead, play: Sequence[Card], ctx: TrumpContext) -> bool:
    """With three or four decks: True when the engine's follow rule (`follow_verdict`) refuses `play`
    from every hand that adds a further pair (or triple, quad) of one face of the led suit — seed 004's
    ladder (a triple + singles outranks two pairs) and `protect_longer` (a held triple need not give a
    pair) may let a holder of a pair play fewer pairs. The recount asks this for every such play."""
    return _no_legal_holder(lead, tuple(sorted(face_counts(play).items())), ctx)


@lru_cache(maxsize=4096)
def _no_legal_holder(lead: Lead, played: tuple[tuple[int, int], ...], ctx: TrumpContext) -> bool:
    """`no_legal_holder`, remembered: the four seats' trackers (and the recount) ask it about the same
    play. Without `protect_longer` more copies only oblige more, so one further pair of a
    face decides; with it a wider tuple kept whole may excuse the play, so every width is tried."""
    play = [Card.from_index(face) for face, copies in played for _ in range(copies)]
    counts = dict(played)
    every_width = ctx.rules.follow.startswith("protect_longer")
    for face in ctx.faces_by_suit[lead.suit]:
        room = ctx.rules.decks - counts.get(face, 0)
        for extra in range(2, room + 1 if every_width else min(room, 2) + 1):
            hand = dict(counts)
            hand[face] = hand.get(face, 0) + extra
            if follow_verdict(lead, hand, play, ctx) is None:
                return False
    return True


def shows_no_tractor(lead: Lead, play: Sequence[Card], ctx: TrumpContext) -> bool:
    """True when a follower who answered `lead`, which holds a tractor, with `play`, all of the led suit,
    is shown to hold no tractor of that suit now (no two consecutive positions with two or more copies
    each, rules.md §3): the engine's follow rule refuses `play` from every hand holding the play and one
    more such tractor. One tractor of two pairs is enough to try because the ladder only rises with more
    cards (a play refused from a hand stays refused from any larger one); that holds for two decks and,
    with three or four decks, for leads of pairs and pair tractors outside `protect_longer`. A wide lead
    (triples, quads) or `protect_longer`, where a wider tuple kept whole may excuse a play, shows no more
    than `shows_no_pair`."""
    if ctx.rules.decks >= 3 and (lead.wide or ctx.rules.follow.startswith("protect_longer")):
        return False
    return _no_tractor_holder(lead, tuple(sorted(face_counts(play).items())), ctx)


@lru_cache(maxsize=4096)
def _no_tractor_holder(lead: Lead, played: tuple[tuple[int, int], ...], ctx: TrumpContext) -> bool:
    """`shows_no_tractor`'s engine question, remembered (the four trackers ask it about the same play):
    every two faces of the suit with two copies left beside the play that `pair_structure` calls a
    tractor, added to the play as the follower's hand."""
    play = [Card.from_index(face) for face, copies in played for _ in range(copies)]
    counts = dict(played)
    room = [face for face in ctx.faces_by_suit[lead.suit] if ctx.rules.decks - counts.get(face, 0) >= 2]
    for i, high in enumerate(room):
        for low in room[i + 1:]:
            if not pair_structure({high: 2, low: 2}, ctx)[1]:
                continue
            hand = dict(counts)
            hand[high] = hand.get(high, 0) + 2
            hand[low] = hand.get(low, 0) + 2
            if follow_verdict(lead, hand, play, ctx) is None:
                return False
    return True


def _pairs(cards: Sequence[Card]) -> int:
    seen: dict[int, int] = {}
    for card in cards:
        seen[card.index] = seen.get(card.index, 0) + 1
    return sum(copies // 2 for copies in seen.values())


def tracker_for(record: DealRecord, seat: int) -> SeatTracker:
    """A tracker for `seat` holding only what that seat may see of the record: its playing hand,
    the buried cards if it is the banker, and the public declarations."""
    hand = record.playing_hands()[seat]
    buried = record.buried if seat == record.banker else None
    return SeatTracker(seat, record.ctx, record.banker, hand, buried, record.declarations)


def track(record: DealRecord, seat: int, position: Position) -> Snapshot:
    """The viewer's knowledge at `position` of a validated record, computed incrementally."""
    tracker = tracker_for(record, seat)
    remaining = position.plays_before(record)
    if remaining:
        for event in public_events(record):
            tracker.observe(event)
            remaining -= 1
            if remaining == 0:
                break
    complete = position.is_end and remaining == 0 and not any(tracker.hand_sizes)
    if complete and record.tricks:
        tracker.reveal_kitty(record.buried)
    return tracker.snapshot(position)


__all__ = ["PlayEvent", "public_events", "last_event", "SeatTracker", "Snapshot", "TrickView", "Constraints", "tracker_for",
           "track", "throw_caps", "known_after_throw", "shows_no_pair", "shows_no_tractor", "no_legal_holder", "TRUMP"]
