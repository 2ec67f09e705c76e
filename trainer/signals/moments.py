"""The signal moments of a deal (信号时机): every place where a convention set says something, with what it
says — for generated and imported deals alike.

A moment is a position and a question the referee (`trainer signals check`) answers: the banker's opening
lead (and a later level-card lead), a single side-suit lead the partner answers under a convention (an A
with or without the other A, a K-ask, a 5-lead; in no trump an opponent's A), the leader's reading of that
answer, a discard onto the partner's multi-card lead (what it said, and in which orders it should have been
laid), and the leader's first pass decision after a signal.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from math import comb, factorial
from typing import Any

from trainer.engine.cards import Card
from trainer.engine.errors import MalformedError
from trainer.engine.follow import Lead
from trainer.engine.tricks import trick_winner
from trainer.engine.trump import TRUMP
from trainer.records import DealRecord
from trainer.signals.conventions import Convention
from trainer.signals.rules import (Verdict, discard_order, discard_play, interpret, must_pass,
                                   opening_request, respond)

KINDS = ("opening", "respond", "interpret", "discard_order", "discard_play", "pass")
QUIET = frozenset({"void", "no_convention", "not_an_ask", "void_before", "pair_in_play", "not_side_suit",
                   "not_partner_lead", "five_lead_no_K"})
"""Rules under which nothing is signalled: such positions are not moments."""
MAX_QUIZ_ORDERS = 400
"""A discard position is also a `discard_play` moment when at most this many plays (choices × orders)
are to be weighed: a question, not a search."""


@dataclass(frozen=True)
class Moment:
    """One signal moment: where (trick from 1, play index in it, the seat deciding or reading), the
    referee request that asks about it, the convention's answer, and whether the play made agrees."""

    kind: str
    trick: int
    index: int
    seat: int
    request: dict[str, Any]
    expected: dict[str, Any]
    verdict: Verdict
    played: tuple[Card, ...]
    agrees: bool | None

    def to_json(self) -> dict[str, Any]:
        """The moment as JSON: `{"kind", "trick", "index", "seat", "request", "expected", "played", "agrees",
        "reason": {"en", "zh"}}`."""
        return {"kind": self.kind, "trick": self.trick, "index": self.index, "seat": self.seat,
                "request": self.request, "expected": self.expected, "played": [str(c) for c in self.played],
                "agrees": self.agrees, "reason": {"en": self.verdict.reason("en"), "zh": self.verdict.reason("zh")}}


def deal_convention(record: DealRecord, default: Convention | None = None) -> Convention:
    """The convention set a deal was played under (its `source.signals`), else `default` (basic_89JQ)."""
    source = record.data.get("source")
    recorded = source.get("signals") if isinstance(source, dict) else None
    if isinstance(recorded, dict):
        try:
            return Convention.parse(recorded, name=str(recorded.get("name", "")))
        except MalformedError:
            pass
    return default or Convention()


def _texts(cards: Iterable[Card]) -> list[str]:
    return [str(card) for card in cards]


class _Walk:
    """The state of a deal while it is walked: hands, cards played, public facts per seat."""

    def __init__(self, record: DealRecord, convention: Convention) -> None:
        self.record, self.ctx, self.convention = record, record.ctx, convention
        self.hands = [Counter(hand) for hand in record.playing_hands()]
        self.played: list[Card] = []
        self.voids = [set[int]() for _ in range(4)]
        self.won = [False] * 4
        self.discarded: list[list[Card]] = [[] for _ in range(4)]
        self.pending: list[list[int]] = [[] for _ in range(4)]
        self.waiting: list[int | None] = [None] * 4
        self.last_lead: list[int | None] = [None] * 4
        """The effective suit of each seat's previous lead."""
        dealt = sum(len(hand) for hand in record.playing_hands())
        self.complete = sum(len(play) for trick in record.tricks for play in trick.plays) == dealt
        base = {"rules": record.rules.to_json(), "level": record.data.get("level"), "trump": record.data.get("trump")}
        conventions: dict[str, Any] = {"signal_ranks": convention.signal_ranks_json(), "discard": convention.discard}
        conventions |= {flag: False for flag in ("k_ask", "five_lead") if not getattr(convention, flag)}
        self.base = base | {"conventions": conventions}

    def role(self, seat: int) -> str:
        banker = self.record.banker
        return "banker" if seat == banker else "helper" if (seat - banker) % 2 == 0 else "attacker"

    def hand(self, seat: int) -> list[Card]:
        return list(self.hands[seat].elements())

    def request(self, op: str, **fields: Any) -> dict[str, Any]:
        return {"op": op, **self.base, **fields}

    def lead_facts(self, number: int, leader: int, lead: tuple[Card, ...]) -> dict[str, Any]:
        """`opening_request`'s rule-2 fields for a lead after trick 1 (before it is taken from the hand):
        `switch` (the leader's previous lead was a side suit), `side_left` (a side card in hand) and
        `tricks_left` (tricks after this one: the record's, or in an unfinished record the most the
        leader's remaining cards can make)."""
        if number == 1:
            return {}
        previous = self.last_lead[leader]
        side_left = any(self.ctx.suit_of[card.index] != TRUMP for card in self.hands[leader].elements())
        after = len(self.record.tricks) - number if self.complete else sum(self.hands[leader].values()) - len(lead)
        return {"switch": previous is not None and previous != TRUMP, "side_left": side_left, "tricks_left": after}


def find_moments(record: DealRecord, convention: Convention | None = None) -> list[Moment]:
    """Every signal moment of a (valid) deal under `convention` (default: the set the deal records, else
    basic_89JQ), in play order (records are two-deck deals, as the conventions assume)."""
    walk = _Walk(record, convention or deal_convention(record))
    found: list[Moment] = []
    ctx = walk.ctx
    for number, trick in enumerate(record.tricks, start=1):
        leader, lead = trick.leader, trick.plays[0]
        suit = ctx.suit_of[lead[0].index]
        found += _lead_moments(walk, number, leader, lead)
        before = len(walk.played)
        for index, play in enumerate(trick.plays):
            seat = (leader + index) % 4
            if index:
                seen = walk.played[:before] + [card for cards in trick.plays[1:index] for card in cards]
                found += _follow_moments(walk, number, index, seat, leader, lead, play, seen)
                off = [card for card in play if ctx.suit_of[card.index] != suit]
                if off:
                    walk.voids[seat].add(suit)
                    walk.discarded[seat] += off
            walk.hands[seat].subtract(play)
            walk.played += play
        if number < len(record.tricks):  # a valid record: the next leader won this trick
            walk.won[record.tricks[number].leader] = True
        elif len(trick.plays) == 4:
            walk.won[(leader + trick_winner(trick.plays, ctx, Lead.of(lead, ctx))) % 4] = True
    return found


def _lead_moments(walk: _Walk, number: int, leader: int, lead: tuple[Card, ...]) -> list[Moment]:
    """The banker's opening (or later level-card) lead, and the leader's pass decision after a signal."""
    ctx, found = walk.ctx, []
    lead_fields = walk.lead_facts(number, leader, lead)
    request_op = opening_request(lead, number, walk.role(leader), ctx, **lead_fields)
    walk.last_lead[leader] = ctx.suit_of[lead[0].index]
    if walk.convention.opening_request and (number == 1 and leader == walk.record.banker or request_op.value):
        request = walk.request("opening_request", lead=_texts(lead), trick=number, leader_role=walk.role(leader),
                               **lead_fields)
        expected = {"request": request_op.value, "rule": request_op.rule}
        found.append(Moment("opening", number, 0, leader, request, expected, request_op, lead, None))
    waiting = walk.waiting[leader]
    pending = walk.pending[leader]
    if waiting is not None:
        walk.waiting[leader] = None
        partner = (leader + 2) % 4
        hand = walk.hand(leader)
        others = [walk.discarded[seat] for seat in ((leader + 1) % 4, (leader + 3) % 4)]
        facts = {"signalled_in": [_letter(s) for s in pending], "played": _texts(walk.played),
                 "partner_void_in": [_letter(s) for s in sorted(walk.voids[partner]) if s != TRUMP],
                 "partner_won_trick": walk.won[partner], "partner_discarded": _texts(walk.discarded[partner]),
                 "opponents_discarded": _texts(others[0] + others[1])}
        verdict = must_pass(waiting, hand, pending, walk.played, [s for s in walk.voids[partner] if s != TRUMP],
                            walk.won[partner], walk.discarded[partner], others[0] + others[1], ctx)
        request = walk.request("pass", suit=_letter(waiting), hand=_texts(hand), **facts)
        expected = {"suit": _letter(verdict.suit), "must_pass": verdict.must_pass, "exception": verdict.exception,
                    "rule": verdict.rule}
        passed = ctx.suit_of[lead[0].index] == verdict.suit
        found.append(Moment("pass", number, 0, leader, request, expected, verdict, lead,
                            passed if verdict.must_pass else None))
    led = ctx.suit_of[lead[0].index]
    if led in pending:
        pending.remove(led)
    return found


def _letter(suit: int) -> str:
    return "SHCD"[suit]


def _follow_moments(walk: _Walk, number: int, index: int, seat: int, leader: int, lead: tuple[Card, ...],
                    play: tuple[Card, ...], seen: list[Card]) -> list[Moment]:
    """A follower's answer to a single lead (and the leader's reading of it), or a discard onto the
    partner's multi-card lead; `seen` are the cards face up before the play, the lead excluded."""
    ctx, conv = walk.ctx, walk.convention
    suit = ctx.suit_of[lead[0].index]
    if suit == TRUMP:
        return []
    partner_led = (seat - leader) % 4 == 2
    if len(lead) > 1 and not partner_led or not any(ctx.suit_of[card.index] == suit for card in walk.hands[seat]
                                                     if walk.hands[seat][card] > 0):
        return []
    hand = walk.hand(seat)
    found = []
    if len(lead) == 1:
        card = lead[0]
        leader_is = "partner" if partner_led else "opponent"
        verdict = respond(card, leader_is, walk.role(seat), hand, seen, None, ctx, conv)
        if verdict.rule not in QUIET:
            seen_suit = _texts(card for card in seen if ctx.suit_of[card.index] == suit)  # the rest is ignored
            request = walk.request("respond", lead=[str(card)], leader=leader_is, role=walk.role(seat),
                                   hand=_texts(hand), seen=seen_suit)
            found.append(Moment("respond", number, index, seat, request,
                                {"allowed": _texts(verdict.allowed), "rule": verdict.rule}, verdict, play,
                                len(play) == 1 and play[0] in verdict.allowed))
        if not partner_led and not (card.rank == 14 and ctx.trump is None):
            return found
        reader = (seat + 2) % 4
        reader_hand = walk.hand(reader)
        reading = interpret(card, "me" if partner_led else "opponent", walk.role(reader), play[0], reader_hand, seen,
                            ctx, conv)
        if reading.rule not in QUIET and len(play) == 1:
            request = walk.request("interpret", lead=[str(card)], leader="me" if partner_led else "opponent",
                                   role=walk.role(reader), play=[str(play[0])], hand=_texts(reader_hand),
                                   seen=_texts(card for card in seen if ctx.suit_of[card.index] == suit))
            found.append(Moment("interpret", number, index, reader, request,
                                {"meaning": reading.value, "rule": reading.rule}, reading, play, None))
            if partner_led and reading.value == "has_other_A" and reading.rule == "answer_A":
                if suit not in walk.pending[leader]:
                    walk.pending[leader].append(suit)
                walk.waiting[leader] = walk.pending[leader][0]
        return found
    if not partner_led:
        return found
    reading = discard_order(lead, play, "partner", ctx, conv)
    if reading.rule in QUIET:
        return found
    request = walk.request("discard_order", lead=_texts(lead), play=_texts(play))
    found.append(Moment("discard_order", number, index, (seat + 2) % 4, request,
                        {"meaning": reading.value, "rule": reading.rule}, reading, play, None))
    held = sum(1 for card in hand if ctx.suit_of[card.index] == suit)
    choices = comb(len(hand) - held, len(lead) - held) if held < len(lead) else comb(held, len(lead))
    if choices * factorial(len(lead)) > MAX_QUIZ_ORDERS:  # too many plays for a question: the reading alone
        return found
    ideal = discard_play(lead, hand, ctx, conv)
    request = walk.request("discard_play", lead=_texts(lead), hand=_texts(hand))
    found.append(Moment("discard_play", number, index, seat, request,
                        {"message": ideal.message, "orders": [_texts(order) for order in ideal.orders],
                         "rule": ideal.rule}, ideal, play, tuple(play) in set(ideal.orders)))
    return found
