"""The state of one hand being played (the `State` of game/state/observer): plays applied and undone.

>>> from trainer.engine.cards import parse_cards
>>> state = RoundState.start(Rules(), TrumpContext.parse("2", "H"), banker=0,
...     hands=[parse_cards("AS 3S"), parse_cards("4S 5S"), parse_cards("6S 7S"), parse_cards("KS 9S")])
>>> _ = state.lead(parse_cards("AS"))
>>> for seat_cards in ("4S", "6S", "KS"):
...     state.follow(parse_cards(seat_cards))
>>> state.tricks[0].winner, state.points_won
(0, [10, 0, 0, 0])
>>> state.undo(); state.tricks[0].winner, state.points_won
(None, [0, 0, 0, 0])
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from trainer.engine.cards import Card, pretty_cards
from trainer.engine.combos import face_counts
from trainer.engine.errors import IllegalPlayError
from trainer.engine.follow import Lead, follow_verdict
from trainer.engine.rules import Rules
from trainer.engine.scoring import kitty_multiplier, level_result, next_banker, points, throw_penalty
from trainer.engine.tricks import ThrowResult, beats, check_throw, play_profile, trick_winner
from trainer.engine.trump import TrumpContext


@dataclass(slots=True)
class Trick:
    """One trick: its leader, the plays in order (the lead first), a failed throw's attempt."""

    leader: int
    plays: list[tuple[Card, ...]] = field(default_factory=list)
    attempt: tuple[Card, ...] | None = None
    penalty: int = 0
    """Points the failed throw credits to the attackers (negative when an attacker threw)."""
    lead: Lead | None = None
    winning: int | None = None
    """The seat winning the trick so far."""
    best: list[int] | None = None
    """The winning play's unit strengths (see `play_profile`)."""

    @property
    def complete(self) -> bool:
        """True when all four seats have played."""
        return len(self.plays) == 4

    @property
    def winner(self) -> int | None:
        """The seat that won the trick, once complete."""
        return self.winning if self.complete else None

    @property
    def points(self) -> int:
        """Points on the table in this trick."""
        return sum([card.points for play in self.plays for card in play])

    def seat_of(self, index: int) -> int:
        """The seat that made play number `index`."""
        return (self.leader + index) % 4


@dataclass(frozen=True, slots=True)
class RoundResult:
    """The end of a complete hand: kitty bonus, attackers' score and the level change."""

    attackers_points: int
    penalties: int
    kitty_points: int
    kitty_multiplier: int
    attackers_score: int
    side: str
    levels: int
    next_banker: int


def _take(hand: dict[int, int], cards: Sequence[Card]) -> None:
    """Remove played cards from a hand of copies per face."""
    for card in cards:
        left = hand[card.index] - 1
        if left:
            hand[card.index] = left
        else:
            del hand[card.index]


class RoundState:
    """A hand in play: every seat's cards, the tricks so far, points won; `undo` takes a play back."""

    def __init__(self, rules: Rules, ctx: TrumpContext, banker: int, hands: Sequence[dict[int, int]],
                 buried: Sequence[Card]) -> None:
        self.rules = rules
        self.ctx = ctx
        self.banker = banker
        self.hands = [dict(hand) for hand in hands]
        """Each seat's cards as copies per face index (faces with no copies left are removed)."""
        self.buried = list(buried)
        self.tricks: list[Trick] = []
        self.points_won = [0, 0, 0, 0]
        self.penalties = 0

    @classmethod
    def start(cls, rules: Rules, ctx: TrumpContext, banker: int, hands: Sequence[Sequence[Card]],
              buried: Sequence[Card] = ()) -> RoundState:
        """A hand at its first lead, from the four playing hands (the banker's after the kitty)."""
        return cls(rules, ctx, banker, [face_counts(hand) for hand in hands], buried)

    # -- whose turn ------------------------------------------------------------------------------
    @property
    def current_trick(self) -> Trick | None:
        """The unfinished trick, if one is under way."""
        return self.tricks[-1] if self.tricks and not self.tricks[-1].complete else None

    @property
    def next_seat(self) -> int:
        """The seat to play next."""
        trick = self.current_trick
        if trick is not None:
            return trick.seat_of(len(trick.plays))
        return self.next_leader

    @property
    def next_leader(self) -> int:
        """Who leads the next trick: the banker first, then the last trick's winner."""
        if not self.tricks:
            return self.banker
        winner = self.tricks[-1].winner
        return self.banker if winner is None else winner

    @property
    def is_over(self) -> bool:
        """True when every hand is empty and no trick is under way."""
        return self.current_trick is None and not any(self.hands)

    def is_attacker(self, seat: int) -> bool:
        """True for the seats against the banker (闲家)."""
        return (seat - self.banker) % 2 == 1

    # -- applying plays --------------------------------------------------------------------------
    def lead(self, cards: Sequence[Card]) -> ThrowResult:
        """Lead a trick; a throw that fails is reduced to the forced play (returned) and penalised."""
        if self.current_trick is not None:
            raise IllegalPlayError("the trick under way is not finished", seat=self.next_seat)
        seat = self.next_leader
        hand = self.hands[seat]
        if not cards:
            raise IllegalPlayError("a lead needs at least one card", seat=seat)
        counts = face_counts(cards) if len(cards) > 1 else {cards[0].index: 1}  # once for the hand check and the profile
        self._require_held(seat, counts)
        if len(counts) > 1 and len({self.ctx.suit_of[face] for face in counts}) > 1:
            raise IllegalPlayError(f"a lead must be all of one suit, not {pretty_cards(cards)}", seat=seat)
        others = self.hands[seat + 1:] + self.hands[:seat]  # in playing order after the leader
        attempted = Lead.of(cards, self.ctx)
        result = check_throw(cards, others, self.ctx, attempted)
        trick = Trick(seat)
        if not result.ok:
            trick.attempt = tuple(cards)
            penalty = throw_penalty(self.rules, cards, result.forced, result.beaten)
            trick.penalty = -penalty if self.is_attacker(seat) else penalty
            self.penalties += trick.penalty
        played = tuple(cards) if result.ok else tuple(result.forced)  # a tuple given is kept, not copied
        trick.lead = attempted if result.ok else Lead.of(played, self.ctx)
        trick.plays.append(played)
        trick.winning = seat
        trick.best = play_profile(trick.lead, played, self.ctx, counts if result.ok else None)
        _take(hand, played)
        self.tricks.append(trick)
        return result

    def follow(self, cards: Sequence[Card]) -> None:
        """Play `cards` for the next seat into the trick under way; illegal plays raise."""
        trick = self.tricks[-1] if self.tricks else None
        if trick is None or trick.lead is None or len(trick.plays) == 4:
            raise IllegalPlayError("no trick is under way to follow", seat=self.next_seat)
        seat = (trick.leader + len(trick.plays)) % 4
        hand, lead, ctx = self.hands[seat], trick.lead, self.ctx
        played = face_counts(cards) if len(cards) > 1 else None  # counted once for the rule and the profile
        problem = follow_verdict(lead, hand, cards, ctx, played)
        if problem is not None:
            raise IllegalPlayError(problem(), seat=seat)
        _take(hand, cards)
        trick.plays.append(tuple(cards))  # a tuple given (a record's play) is kept, not copied
        profile = play_profile(lead, cards, ctx, played)
        winning, best = trick.winning, trick.best
        assert winning is not None and best is not None
        if profile is not None and (profile[0] > best[0] if len(lead.units) == 1 else beats(
                profile, best, cards, trick.plays[(winning - trick.leader) % 4], lead, ctx)):
            trick.winning = winning = seat
            trick.best = profile
        if len(trick.plays) == 4:
            self.points_won[winning] += trick.points

    def play(self, cards: Sequence[Card]) -> ThrowResult | None:
        """Lead or follow, whichever is due."""
        if self.current_trick is None:
            return self.lead(cards)
        self.follow(cards)
        return None

    def undo(self) -> None:
        """Take back the last play (and a failed throw with its forced play)."""
        if not self.tricks:
            raise IllegalPlayError("nothing to undo")
        trick = self.tricks[-1]
        if trick.complete:
            self.points_won[trick.winning or 0] -= trick.points
        cards = trick.plays.pop()
        hand = self.hands[trick.seat_of(len(trick.plays))]
        for card in cards:
            hand[card.index] = hand.get(card.index, 0) + 1
        if trick.plays:
            index = trick_winner(trick.plays, self.ctx, trick.lead)
            trick.winning = trick.seat_of(index)
            trick.best = play_profile(trick.lead, trick.plays[index], self.ctx)
        else:
            self.penalties -= trick.penalty
            self.tricks.pop()

    def _require_held(self, seat: int, counts: dict[int, int]) -> None:
        hand = self.hands[seat]
        for face, copies in counts.items():
            held = hand.get(face, 0)
            if held < copies:
                raise IllegalPlayError(f"does not hold {pretty_cards([Card.from_index(face)] * (copies - held))}",
                                       seat=seat)

    # -- scoring ---------------------------------------------------------------------------------
    @property
    def attackers_points(self) -> int:
        """Points the attackers have won in tricks."""
        return sum(p for seat, p in enumerate(self.points_won) if self.is_attacker(seat))

    def result(self) -> RoundResult:
        """The kitty bonus, score and level change of a finished hand."""
        if not self.is_over or not self.tricks:
            raise IllegalPlayError("the hand is not finished")
        last = self.tricks[-1]
        kitty_points = points(self.buried)
        multiplier = 0
        if last.winner is not None and self.is_attacker(last.winner) and last.lead is not None:
            multiplier = kitty_multiplier(last.lead, self.rules)
        score = self.attackers_points + kitty_points * multiplier + self.penalties
        side, levels = level_result(score, self.rules)
        return RoundResult(self.attackers_points, self.penalties, kitty_points, multiplier, score, side, levels,
                           next_banker(self.banker, side))
