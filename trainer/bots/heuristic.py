"""Bots that play like real players (seed 000 庄家/帮家/闲家策略, signals.md basic convention).

A bot sees only its own hand (and the buried cards if it is the banker) and the public plays,
through its `SeatTracker`; it never holds another hand. `RandomBot` plays uniformly among legal
plays; `HeuristicBot` leads As, tractors and boss cards, throws only when sure, draws trumps when
strong on the banker side, answers its partner's A with a signal card (8 9 J Q) when it holds the
other A, passes a signalled suit, feeds points to a partner who is winning, ruffs or beats an
opponent cheaply, discards low otherwise, and fights for the last trick (the kitty).

Given a convention set (`convention=`), it follows the whole set (trainer.signals.rules): it answers
an A, a K-ask and a 5-lead as the set allows, asks for the K from A A K and leads the 5 from A A × × 5,
lays its discards on a partner's multi-card lead in the order that tells the truth (and reads the
partner's order on its own lead as a way in, used when it has nothing to cash), reads its partner's
answer to an opponent's A in no trump, feeds points when the partner's signalled A will take the trick,
passes a signalled suit unless one of the nine exceptions holds, and as banker asks for trumps with its
opening lead when points are buried (the helper then draws trumps).
"""
from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import permutations

from trainer.engine.cards import Card, Suit
from trainer.engine.combos import decompose
from trainer.engine.follow import Lead, legal_follows, legal_leads, random_follow
from trainer.engine.trump import TRUMP, TrumpContext
from trainer.engine.tricks import beats, play_profile
from trainer.signals.conventions import Convention
from trainer.signals.rules import (Allowed, discard_order, in_suit, interpret, must_pass, opening_request,
                                   respond, truth_after)
from trainer.tracking.tracker import PlayEvent, SeatTracker

CONVENTION_RULES = frozenset({"answer_A", "skip_signal_10", "has_A_no_signal_card", "no_A", "only_signal_cards",
                              "nt_opponent_A", "ask_K", "ask_K_promote_Q", "has_K_no_signal_card", "no_K",
                              "five_lead_K"})
"""`respond` rules under which the convention narrows the answer (the others allow any card of the suit)."""
MAX_ORDERED = 5
"""A signalling bot looks for a truthful order among plays of at most this many cards."""
SAFE_ASK = 8
"""The K-ask and the 5-lead are made only while this many cards of the suit are out (a ruff is unlikely)."""
TRUTH_BONUS = 12
"""What a play whose order can tell the truth (discard signals) adds to its score."""


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

    def __init__(self, *args: object, convention: Convention | None = None, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.convention = convention or Convention()
        self.signalling = convention is not None
        """True: the whole convention set; False: only answering an A and passing (the basic bots)."""
        self.partner_has_ace: set[int] = set()
        self.signalled_in: list[int] = []
        self.asked: set[int] = set()
        self.partner_won = False
        self.partner_discarded: list[Card] = []
        self.opponents_discarded: list[Card] = []
        self.trump_request: str | None = None
        self.partner_entries: dict[int, str] = {}
        """Side suits where my partner's discards on my lead said yes / holds_A / void (a way in)."""

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
        return self.convention.is_signal(card, self.ctx)

    @property
    def role(self) -> str:
        """banker, helper (the banker's partner) or attacker."""
        return "banker" if self.seat == self.tracker.banker else "helper" if self.banker_side else "attacker"

    def _played(self) -> list[Card]:
        """Every card played so far, face up."""
        return [Card.from_index(f) for f, c in enumerate(self.tracker.played) for _ in range(c)]

    def _value(self, card: Card) -> float:
        """How much a card is worth keeping: trumps and high cards most, points a little extra."""
        face = card.index
        strength = self.ctx.strength[face]
        base = strength - 100 + 12 if self.ctx.suit_of[face] == TRUMP else strength
        return base + card.points * 0.8

    def observe(self, event: PlayEvent) -> None:
        """See a public play, and read my partner's answer to my A (and, signalling, the rest)."""
        lead = self.tracker.lead
        following = 0 < len(self.tracker.trick.plays) < 4
        if ((following or not self.signalling) and event.seat == self.partner and lead is not None
                and self.tracker.trick.leader == self.seat and lead.size == 1 and lead.cards[0].rank == 14
                and lead.suit != TRUMP and len(event.cards) == 1):
            answer = event.cards[0]
            if self.ctx.suit_of[answer.index] == lead.suit and self._is_signal(answer):
                self.partner_has_ace.add(lead.suit)
                if lead.suit not in self.signalled_in:
                    self.signalled_in.append(lead.suit)
        if self.signalling:
            self._note(event, following)
        super().observe(event)
        if self.signalling and len(self.tracker.trick.plays) == 4 and event.winning == self.partner:
            self.partner_won = True

    def _note(self, event: PlayEvent, following: bool) -> None:
        """Remember the public facts the conventions use: discards, and the banker's trump requests."""
        lead = self.tracker.lead
        if (following and lead is not None and event.seat == self.partner and self.tracker.trick.leader == self.seat
                and lead.size >= 2 and lead.suit != TRUMP):
            meaning = discard_order(lead.cards, event.cards, "partner", self.ctx, self.convention).value
            if meaning in ("yes", "holds_A", "void"):
                self.partner_entries[lead.suit] = meaning
        if (following and lead is not None and event.seat == self.partner and self.tracker.trick.leader != self.seat
                and lead.size == 1 and len(event.cards) == 1 and lead.suit != TRUMP):
            seen = self._played()
            seen.remove(lead.cards[0])
            meaning = interpret(lead.cards[0], "opponent", self.role, event.cards[0], _cards(self.hand()), seen,
                                self.ctx, self.convention).value
            if meaning == "has_other_A":
                self.partner_entries[lead.suit] = "holds_A"
                self.partner_has_ace.add(lead.suit)
        if following and lead is not None:
            off = [card for card in event.cards if self.ctx.suit_of[card.index] != lead.suit]
            if event.seat == self.partner:
                self.partner_discarded += off
            elif event.seat != self.seat:
                self.opponents_discarded += off
        elif not following and event.seat == self.tracker.banker and self.role == "helper" and \
                self.convention.opening_request:
            request = opening_request(event.cards, event.trick, "banker", self.ctx).value
            if request is not None:
                self.trump_request = request

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
        if self.signalling:
            chosen = self._signal_lead(by_suit, trumps, unseen_trumps)
            if chosen is not None:
                return chosen
        enough = max(7 * ctx.rules.decks // 2, unseen_trumps // 2)
        if self.banker_side and trumps and unseen_trumps and sum(trumps.values()) >= enough:
            boss = self._boss_units(trumps)
            if boss:
                return boss[0]
        for suit in sorted(self.partner_has_ace) if not self.signalling else ():
            cards = by_suit.get(suit)
            if cards and self._ace_out(suit):
                return [self._low_card(cards)]
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
        entry = self._entry_lead(by_suit) if self.signalling else None
        if entry is not None:
            return entry
        side = [(sum(c.values()), s) for s, c in by_suit.items() if s != TRUMP]
        if side:
            _, suit = min(side)
            cards = by_suit[suit]
            low = min(cards, key=lambda f: (Card.from_index(f).points > 0, ctx.strength[f]))
            return [Card.from_index(low)]
        low = min(trumps, key=lambda f: (Card.from_index(f).points > 0, ctx.strength[f]))
        return [Card.from_index(low)]

    def _signal_lead(self, by_suit: dict[int, dict[int, int]], trumps: dict[int, int],
                     unseen_trumps: int) -> list[Card] | None:
        """A lead the convention set asks for, or None: the opening request, drawing trumps on request,
        passing a signalled suit, the K-ask and the 5-lead."""
        ctx, conv = self.ctx, self.convention
        first_lead = not any(self.tracker.played)
        if first_lead and self.role == "banker" and conv.opening_request and trumps and unseen_trumps:
            buried = sum(Card.from_index(f).points * c for f, c in enumerate(self.tracker.kitty_known))
            if buried >= 10 and sum(trumps.values()) >= 9:
                levels = [f for f in trumps if Card.from_index(f).rank == ctx.level and f < 52]
                asks = levels or [f for f in trumps if Card.from_index(f).rank in (11, 12, 14) and f < 52
                                  and Card.from_index(f).suit == ctx.trump]
                if asks:
                    return [Card.from_index(max(asks, key=lambda f: ctx.strength[f]))]
        if self.trump_request is not None and trumps and unseen_trumps:
            boss = self._boss_units(trumps)
            if boss or self.trump_request != "help_draw_trumps":
                return boss[0] if boss else [Card.from_index(max(trumps, key=lambda f: ctx.strength[f]))]
        hand = _cards(self.hand())
        while self.signalled_in:
            suit = self.signalled_in[0]
            verdict = must_pass(suit, hand, self.signalled_in, self._played(),
                                [s for s in range(4) if self.tracker.revealed_voids[self.partner] >> s & 1],
                                self.partner_won, self.partner_discarded, self.opponents_discarded, ctx)
            if verdict.exception == 1 or not self._ace_out(suit):  # nothing to pass, or the partner's A is played
                self.signalled_in.pop(0)
                continue
            if verdict.must_pass:
                return [self._low_card(by_suit[suit])]
            break
        for suit, cards in sorted(by_suit.items()):
            if suit == TRUMP or suit in self.asked or sum(cards.values()) < 4:
                continue
            ranks = {Card.from_index(f).rank: c for f, c in cards.items()}
            opponents_void = any(self.tracker.revealed_voids[(self.seat + k) % 4] >> suit & 1 for k in (1, 3))
            out = sum(self.tracker.unseen[f] for f in ctx.faces_by_suit[suit])
            if ranks.get(14) != 2 or ctx.level == 14 or opponents_void or out < SAFE_ASK:
                continue
            king = Card(13, Suit(suit))
            if conv.k_ask and ranks.get(13) == 1 and not self.tracker.played[king.index]:
                self.asked.add(suit)
                return [king]
            if conv.five_lead and 5 in ranks and 13 not in ranks and sum(cards.values()) >= 5 and \
                    self.tracker.unseen[king.index]:
                self.asked.add(suit)
                return [Card(5, Suit(suit))]
        return None

    def _entry_lead(self, by_suit: dict[int, dict[int, int]]) -> list[Card] | None:
        """With nothing of my own to cash, a low card of a suit where my partner's signal showed a way in
        (a discard order on my lead, or the answer to an opponent's A in no trump), or None."""
        for suit, meaning in sorted(self.partner_entries.items()):
            del self.partner_entries[suit]
            ruffed = any(self.tracker.revealed_voids[(self.seat + k) % 4] >> suit & 1 for k in (1, 3))
            if suit in by_suit and (self._ace_out(suit) if meaning == "holds_A" else meaning == "yes" or not ruffed):
                return [self._low_card(by_suit[suit])]
        return None

    def _ace_out(self, suit: int) -> bool:
        """True while an A of the suit is unseen (in another hand)."""
        return any(self.tracker.unseen[f] for f in self.ctx.faces_by_suit[suit] if Card.from_index(f).rank == 14)

    def _low_card(self, cards: dict[int, int]) -> Card:
        """The card to pass with: the lowest, points last."""
        return Card.from_index(min(cards, key=lambda f: (Card.from_index(f).points, self.ctx.strength[f])))

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
        partner_ace = self.signalling and self._partner_ace_wins(lead)
        answer = self._convention_answer(lead) if self.signalling else None
        ordering = self.signalling and trick.leader == self.partner and lead.size >= 2 and lead.suit != TRUMP
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
            if partner_winning or partner_ace:
                score += (points * 6 if safe_partner or partner_ace else -points * 3) - (40 if wins else 0)
            elif wins:
                gain = table + points + (30 if end_game else 0)
                score += 25 + gain * 3 - (0 if last else 10 * sum(1 for c in play if self._unseen_above(c.index)))
            else:
                score -= points * 4
            if answer is not None and len(play) == 1:
                score += 80 if play[0] in answer.allowed else -80
            elif partner_led_ace and len(play) == 1 and not self.signalling:
                signal = self._is_signal(play[0]) and ctx.suit_of[play[0].index] == lead.suit
                score += (80 if signal else 0) if hold_other_ace else (-80 if signal else 0)
            if ordering:
                told = self._truthful_order(lead, play, hand)
                if told is not None:
                    score, play = score + TRUTH_BONUS, told
            options.append((score, -cost, key, play))
        if not options:
            return random_follow(lead, hand, ctx, self.rng)
        return max(options, key=lambda item: item[:3])[3]

    def _convention_answer(self, lead: Lead) -> Allowed | None:
        """What the convention allows on a single side-suit lead by my partner (or, in no trump, on an
        opponent's A when I attack), when it narrows the answer; else None."""
        if lead.size != 1 or lead.suit == TRUMP:
            return None
        card, leader = lead.cards[0], self.tracker.trick.leader
        if leader != self.partner and not (card.rank == 14 and self.ctx.trump is None and self.role == "attacker"):
            return None
        seen = self._played()
        seen.remove(card)
        verdict = respond(card, "partner" if leader == self.partner else "opponent", self.role, _cards(self.hand()),
                          seen, None, self.ctx, self.convention)
        return verdict if verdict.rule in CONVENTION_RULES else None

    def _truthful_order(self, lead: Lead, play: Sequence[Card], hand: dict[int, int]) -> list[Card] | None:
        """The cards of `play` laid in an order whose discard signal tells the truth after the play (an A
        kept, a void), or None when no order can (or the play holds a pair of the suit: no signal)."""
        ctx = self.ctx
        laid = in_suit(play, lead.suit, ctx)
        if not laid or len(play) > MAX_ORDERED or len(set(laid)) < len(laid):
            return None
        remaining = Counter({f: c for f, c in hand.items() if ctx.suit_of[f] == lead.suit})
        remaining.subtract(card.index for card in laid)
        truth = truth_after(lead.size, _cards(+remaining), self.convention)
        for order in permutations(play):
            if discard_order(lead.cards, order, "partner", ctx, self.convention).value == truth:
                return list(order)
        return None

    def _broken_tuples(self, play: Sequence[Card], hand: dict[int, int]) -> float:
        """With three or four decks, a cost for splitting a triple or a quad (keep them for leads)."""
        if self.ctx.rules.decks < 3:
            return 0.0
        taken: dict[int, int] = {}
        for card in play:
            taken[card.index] = taken.get(card.index, 0) + 1
        return 8.0 * sum(1 for face, copies in taken.items() if hand[face] >= 3 and copies < hand[face])

    def _partner_ace_wins(self, lead: Lead) -> bool:
        """True when my partner, still to play to a single side-suit lead, holds the last A of the suit (his
        signal said so) and no seat between is known void in it: the trick is his."""
        tracker, ctx = self.tracker, self.ctx
        if lead.size != 1 or lead.suit == TRUMP or lead.suit not in self.partner_has_ace:
            return False
        to_play = [(self.seat + k) % 4 for k in range(1, 4 - len(tracker.trick.plays))]
        aces = [f for f in ctx.faces_by_suit[lead.suit] if Card.from_index(f).rank == 14]
        if self.partner not in to_play or sum(tracker.unseen[f] for f in aces) != 1 or tracker.mine[aces[0]]:
            return False
        before = to_play[:to_play.index(self.partner)]
        return not any(tracker.revealed_voids[q] >> lead.suit & 1 for q in before)

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
