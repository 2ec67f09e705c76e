"""Bots that play like real players (seed 000 庄家/帮家/闲家策略, signals.md basic convention).

A bot sees only its own hand (and the buried cards if it is the banker) and the public plays,
through its `SeatTracker`; it never holds another hand. `RandomBot` plays uniformly among legal
plays; `HeuristicBot` leads As, tractors and boss cards, throws only when sure, draws trumps when
strong on the banker side, answers its partner's A with a signal card (8 9 J Q) when it holds the
other A, passes a signalled suit, feeds points to a partner who is winning, ruffs or beats an
opponent cheaply, discards low otherwise, and fights for the last trick (the kitty).
"""
from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

from trainer.engine.cards import Card
from trainer.engine.combos import decompose
from trainer.engine.follow import Lead, legal_follows, legal_leads, random_follow
from trainer.engine.trump import TRUMP, TrumpContext
from trainer.engine.tricks import beats, play_profile
from trainer.tracking.tracker import PlayEvent, SeatTracker

SIGNAL_RANKS = {"basic_89JQ": frozenset({8, 9, 11, 12}), "basic_7up": frozenset({7, 8, 9, 11, 12})}
"""Signal ranks of the basic convention sets (signals.md); never points, As or level cards."""


class Bot:
    """A player at one seat: its tracker is all it knows."""

    def __init__(self, seat: int, ctx: TrumpContext, banker: int, hand: Sequence[Card],
                 buried: Sequence[Card] | None = None, declarations: Sequence[tuple[int, Sequence[Card]]] = (),
                 rng: random.Random | None = None) -> None:
        self.seat = seat
        self.ctx = ctx
        self.tracker = SeatTracker(seat, ctx, banker, hand, buried, declarations)
        self.rng = rng or random.Random(seat)

    def hand(self) -> dict[int, int]:
        """My cards as copies per face index."""
        return {face: copies for face, copies in enumerate(self.tracker.mine) if copies}

    def observe(self, event: PlayEvent) -> None:
        """See a public play."""
        self.tracker.observe(event)

    def lead(self) -> list[Card]:
        """The cards to lead."""
        raise NotImplementedError

    def follow(self) -> list[Card]:
        """The cards to play to the trick under way."""
        raise NotImplementedError


class RandomBot(Bot):
    """Uniform among legal plays: any single combination to lead, any legal answer to follow."""

    def lead(self) -> list[Card]:
        """A random single combination."""
        return self.rng.choice(list(legal_leads(self.hand(), self.ctx)))

    def follow(self) -> list[Card]:
        """A random legal answer."""
        lead = self.tracker.lead
        assert lead is not None
        return random_follow(lead, self.hand(), self.ctx, self.rng)


def _cards(faces: dict[int, int]) -> list[Card]:
    return [Card.from_index(f) for f, c in faces.items() for _ in range(c)]


class HeuristicBot(Bot):
    """A bot with the habits of a solid club player (see the module docstring)."""

    def __init__(self, *args: object, convention: str = "basic_89JQ", **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        ctx = self.ctx
        self.signals = frozenset(r for r in SIGNAL_RANKS[convention]
                                 if r != ctx.level and not (ctx.rules.fixed_twos and r == 2))
        self.partner_has_ace: set[int] = set()
        self.my_ace_leads: dict[int, int] = {}

    # -- what the bot knows --------------------------------------------------------------------
    @property
    def partner(self) -> int:
        """My partner's seat."""
        return (self.seat + 2) % 4

    @property
    def banker_side(self) -> bool:
        """True when I am the banker or the banker's partner."""
        return (self.seat - self.tracker.banker) % 2 == 0

    def _unseen_above(self, face: int) -> int:
        ctx, unseen = self.ctx, self.tracker.unseen
        return sum(unseen[g] for g in ctx.faces_by_suit[ctx.suit_of[face]] if ctx.strength[g] > ctx.strength[face])

    def _tuple_above(self, face: int, width: int = 2) -> bool:
        """True when `width` unseen copies of one face stronger than `face` may be out against me."""
        ctx, unseen = self.ctx, self.tracker.unseen
        return any(unseen[g] >= width for g in ctx.faces_by_suit[ctx.suit_of[face]]
                   if ctx.strength[g] > ctx.strength[face])

    def _is_signal(self, card: Card) -> bool:
        return self.ctx.suit_of[card.index] != TRUMP and card.rank in self.signals

    def _value(self, card: Card) -> float:
        """How much a card is worth keeping: trumps and high cards most, points a little extra."""
        face = card.index
        strength = self.ctx.strength[face]
        base = strength - 100 + 12 if self.ctx.suit_of[face] == TRUMP else strength
        return base + card.points * 0.8

    def observe(self, event: PlayEvent) -> None:
        """See a public play, and read my partner's answer to my A."""
        lead = self.tracker.lead
        if (event.seat == self.partner and lead is not None and self.tracker.trick.leader == self.seat
                and lead.size == 1 and lead.cards[0].rank == 14 and lead.suit != TRUMP and len(event.cards) == 1):
            answer = event.cards[0]
            if self.ctx.suit_of[answer.index] == lead.suit and self._is_signal(answer):
                self.partner_has_ace.add(lead.suit)
        super().observe(event)

    # -- leading ---------------------------------------------------------------------------------
    def lead(self) -> list[Card]:
        """Draw trumps when strong, pass a signalled suit, cash boss cards (throwing when sure), else
        lead low from the shortest side suit."""
        ctx, hand = self.ctx, self.hand()
        by_suit: dict[int, dict[int, int]] = {}
        for face, copies in hand.items():
            by_suit.setdefault(ctx.suit_of[face], {})[face] = copies
        trumps = by_suit.get(TRUMP, {})
        unseen_trumps = sum(self.tracker.unseen[f] for f in ctx.faces_by_suit[TRUMP])
        enough = max(7 * ctx.rules.decks // 2, unseen_trumps // 2)
        if self.banker_side and trumps and unseen_trumps and sum(trumps.values()) >= enough:
            boss = self._boss_units(trumps)
            if boss:
                return boss[0]
        for suit in sorted(self.partner_has_ace):
            cards = by_suit.get(suit)
            if cards and any(self.tracker.unseen[f] for f in ctx.faces_by_suit[suit] if Card.from_index(f).rank == 14):
                low = min(cards, key=lambda f: (Card.from_index(f).points, ctx.strength[f]))
                return [Card.from_index(low)]
        best: list[Card] | None = None
        for suit, cards in by_suit.items():
            if suit == TRUMP:
                continue
            units = self._boss_units(cards)
            if units and self._all_boss(cards):
                return _cards(cards)
            if units and (best is None or (len(units[0]), ctx.strength[units[0][0].index])
                          > (len(best), ctx.strength[best[0].index])):
                best = units[0]
        if best is not None:
            return best
        side = [(sum(c.values()), s) for s, c in by_suit.items() if s != TRUMP]
        if side:
            _, suit = min(side)
            cards = by_suit[suit]
            low = min(cards, key=lambda f: (Card.from_index(f).points > 0, ctx.strength[f]))
            return [Card.from_index(low)]
        low = min(trumps, key=lambda f: (Card.from_index(f).points > 0, ctx.strength[f]))
        return [Card.from_index(low)]

    def _boss_units(self, cards: dict[int, int]) -> list[list[Card]]:
        """My units in one suit that no unseen card can beat, biggest first."""
        found = []
        for unit in decompose(cards, self.ctx):
            top = unit.faces[0]
            boss = not self._tuple_above(top, unit.width) if unit.width >= 2 else not self._unseen_above(top)
            if boss:
                found.append(unit.cards())
        return found

    def _all_boss(self, cards: dict[int, int]) -> bool:
        """True when every unit of my cards in a suit is boss: throwing them all cannot fail."""
        units = decompose(cards, self.ctx)
        return len(units) > 1 and all(
            not self._tuple_above(u.faces[0], u.width) if u.width >= 2 else not self._unseen_above(u.faces[0])
            for u in units)

    # -- following -------------------------------------------------------------------------------
    def _candidates(self, lead: Lead, hand: dict[int, int]) -> Iterator[list[Card]]:
        """Answers worth scoring, each legal by construction: the engine's legal follows while the led
        suit lasts, else all of it topped up cheaply or with points, or a ruff when void."""
        ctx = self.ctx
        held = {f: c for f, c in hand.items() if ctx.suit_of[f] == lead.suit}
        if sum(held.values()) >= lead.size:
            for count, play in enumerate(legal_follows(lead, hand, ctx)):
                if count >= 80:
                    return
                yield play
            return
        must = _cards(held)
        rest = {f: c for f, c in hand.items() if f not in held}
        need = lead.size - len(must)
        by_value = sorted(_cards(rest), key=self._value)
        yield must + by_value[:need]
        points_first = sorted(_cards(rest), key=lambda c: (-c.points, self._value(c)))
        yield must + points_first[:need]
        if not must:
            trumps = {f: c for f, c in rest.items() if ctx.suit_of[f] == TRUMP}
            yield from self._ruffs(lead, trumps)

    def _ruffs(self, lead: Lead, trumps: dict[int, int]) -> Iterator[list[Card]]:
        """Trump plays of the lead's shape (single, tuple or tractor leads), weakest first."""
        if len(lead.units) != 1 or sum(trumps.values()) < lead.size:
            return
        unit = lead.units[0]
        faces = sorted(trumps, key=lambda f: -self.ctx.sort_key[f])
        if unit.length == 1:
            for face in faces:
                if trumps[face] >= unit.width:
                    yield [Card.from_index(face)] * unit.width
            return
        for own in decompose({f: c for f, c in trumps.items() if c >= unit.width}, self.ctx):
            if own.width >= unit.width and own.length >= unit.length:
                for start in range(own.length - unit.length, -1, -1):
                    yield [Card.from_index(f) for f in own.faces[start:start + unit.length] for _ in range(unit.width)]

    def follow(self) -> list[Card]:
        """Score every candidate answer: feed a winning partner, beat an opponent cheaply, signal."""
        tracker, ctx = self.tracker, self.ctx
        lead = tracker.lead
        assert lead is not None
        hand = self.hand()
        trick = tracker.trick
        winner_index = (trick.winning - trick.leader) % 4 if trick.winning is not None else 0
        best_play = trick.plays[winner_index]
        best_profile = play_profile(lead, best_play, ctx)
        partner_winning = trick.winning == self.partner
        last = len(trick.plays) == 3
        table = sum(c.points for play in trick.plays for c in play)
        end_game = tracker.hand_sizes[self.seat] <= lead.size * 2
        partner_led_ace = (trick.leader == self.partner and lead.size == 1 and lead.cards[0].rank == 14
                           and lead.suit != TRUMP)
        hold_other_ace = partner_led_ace and tracker.mine[lead.cards[0].index] > 0
        safe_partner = partner_winning and (last or self._holds(best_play, lead))
        options = []
        seen = set()
        for play in self._candidates(lead, hand):
            key = tuple(sorted(c.index for c in play))
            if key in seen:
                continue
            seen.add(key)
            profile = play_profile(lead, play, ctx)
            wins = profile is not None and best_profile is not None and beats(profile, best_profile, play, best_play,
                                                                             lead, ctx)
            points = sum(c.points for c in play)
            cost = sum(self._value(c) for c in play) + self._broken_tuples(play, hand)
            score = -cost
            if partner_winning:
                score += (points * 6 if safe_partner else -points * 3) - (40 if wins else 0)
            elif wins:
                gain = table + points + (30 if end_game else 0)
                score += 25 + gain * 3 - (0 if last else 10 * sum(1 for c in play if self._unseen_above(c.index)))
            else:
                score -= points * 4
            if partner_led_ace and len(play) == 1:
                signal = self._is_signal(play[0]) and ctx.suit_of[play[0].index] == lead.suit
                score += (80 if signal else 0) if hold_other_ace else (-80 if signal else 0)
            options.append((score, -cost, key, play))
        if not options:
            return random_follow(lead, hand, ctx, self.rng)
        return max(options, key=lambda item: item[:3])[3]

    def _broken_tuples(self, play: Sequence[Card], hand: dict[int, int]) -> float:
        """With three or four decks, a cost for splitting a triple or a quad (keep them for leads)."""
        if self.ctx.rules.decks < 3:
            return 0.0
        taken: dict[int, int] = {}
        for card in play:
            taken[card.index] = taken.get(card.index, 0) + 1
        return 8.0 * sum(1 for face, copies in taken.items() if hand[face] >= 3 and copies < hand[face])

    def _holds(self, play: Sequence[Card], lead: Lead) -> bool:
        """True when no unseen card can beat the partner's winning play (its top card is boss and
        the seats still to play are not known to be void, or the play is a big trump)."""
        ctx, tracker = self.ctx, self.tracker
        top = max(play, key=lambda c: ctx.strength[c.index])
        if self._unseen_above(top.index) if lead.size == 1 else self._tuple_above(top.index, lead.units[0].width):
            return False
        if ctx.suit_of[top.index] == TRUMP or lead.suit == TRUMP:
            return True
        still = [(self.seat + k) % 4 for k in range(1, 4 - len(tracker.trick.plays))]
        return not any(tracker.revealed_voids[q] >> lead.suit & 1 for q in still)
