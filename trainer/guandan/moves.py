"""The plays a hand can make (guandan.md §2): one candidate per reading shape, wilds used where needed.

`candidates` lists plays from a hand — every single, pair, triple and bomb size by rank, full houses,
straights, straight flushes, pair runs, 钢板 and 天炸 — each as cards plus the reading to declare; wilds
stand in only where naturals are missing. `legal_plays` keeps those that may follow a top.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from trainer.engine.cards import BIG_JOKER, RANK_NAMES, SMALL_JOKER, Card, Suit
from trainer.guandan.level import ACE, Level
from trainer.guandan.plays import Reading, beats, readings


class Candidate(NamedTuple):
    """A play a hand can make: its cards and the reading it is declared as."""

    cards: tuple[Card, ...]
    reading: Reading


def _group(hand: Sequence[Card], level: Level) -> tuple[dict[int, list[Card]], list[Card], list[Card], list[Card]]:
    by_rank: dict[int, list[Card]] = {rank: [] for rank in RANK_NAMES}
    wilds, small, big = [], [], []
    for card in sorted(hand, key=lambda c: c.index):
        if level.is_wild(card):
            wilds.append(card)
        elif card.rank == SMALL_JOKER:
            small.append(card)
        elif card.rank == BIG_JOKER:
            big.append(card)
        else:
            by_rank[card.rank].append(card)
    return by_rank, wilds, small, big


def _take(cards: list[Card], wilds: list[Card], count: int) -> list[Card] | None:
    """`count` cards of one rank: naturals first, then wilds; None when there are not enough."""
    natural = min(count, len(cards))
    if count - natural > len(wilds) or (natural == 0 and count > 0):
        return None
    return cards[:natural] + wilds[:count - natural]


def _window(top: int, length: int) -> list[int]:
    return [ACE if position == 1 else position for position in range(top - length + 1, top + 1)]


def candidates(hand: Sequence[Card], level: Level) -> list[Candidate]:
    """One play per shape the hand can make (declared readings), strongest shapes not preferred."""
    by_rank, wilds, small, big = _group(hand, level)
    found: list[Candidate] = []

    def add(cards: list[Card], reading: Reading) -> None:
        found.append(Candidate(tuple(cards), reading))

    for jokers in (small, big):
        if jokers:
            add(jokers[:1], Reading("single", jokers[0].rank, 1))
        if len(jokers) == 2:
            add(jokers, Reading("pair", jokers[0].rank, 2))
    if len(small) == 2 and len(big) == 2:
        add(small + big, Reading("joker_bomb", None, 4))
    if wilds:
        add(wilds[:1], Reading("single", level.rank, 1))
    for rank, cards in by_rank.items():
        for count, kind in ((1, "single"), (2, "pair"), (3, "triple")):
            taken = _take(cards, wilds, count)
            if taken is not None:
                add(taken, Reading(kind, rank, count))
        for size in range(4, len(cards) + len(wilds) + 1):
            taken = _take(cards, wilds, size)
            if taken is not None:
                add(taken, Reading("bomb", rank, size))
    _full_houses(by_rank, wilds, small, big, add)
    _runs(by_rank, wilds, add)
    return found


def _full_houses(by_rank: dict[int, list[Card]], wilds: list[Card], small: list[Card], big: list[Card],
                 add: object) -> None:
    pairs: list[tuple[int, list[Card], int]] = []
    for rank, cards in by_rank.items():
        if cards:
            pair = cards[:2] if len(cards) >= 2 else cards[:1] + wilds[:1]
            if len(pair) == 2:
                pairs.append((rank, pair, 2 - min(2, len(cards))))
    for jokers in (small, big):
        if len(jokers) == 2:
            pairs.append((jokers[0].rank, jokers, 0))
    for rank, cards in by_rank.items():
        if not cards:
            continue
        used = max(0, 3 - len(cards))
        if used > len(wilds):
            continue
        triple = cards[:3] + wilds[:used]
        for pair_rank, pair, pair_wilds in pairs:
            if pair_rank != rank and used + pair_wilds <= len(wilds):
                pair = [card for card in pair if card not in wilds] + wilds[used:used + pair_wilds]
                add(triple + pair, Reading("full_house", rank, 5))  # type: ignore[operator]


def _runs(by_rank: dict[int, list[Card]], wilds: list[Card], add: object) -> None:
    for kind, length, width in (("straight", 5, 1), ("pair_run", 3, 2), ("triple_run", 2, 3)):
        for top in range(length, ACE + 1):
            cards: list[Card] = []
            missing = 0
            for rank in _window(top, length):
                have = by_rank[rank][:width]
                cards += have
                missing += width - len(have)
            if missing <= len(wilds):
                add(cards + wilds[:missing], Reading(kind, top, length * width))  # type: ignore[operator]
    for suit in Suit:
        for top in range(5, ACE + 1):
            cards = []
            for rank in _window(top, 5):
                cards += [card for card in by_rank[rank] if card.suit is suit][:1]
            missing = 5 - len(cards)
            if missing <= len(wilds):
                add(cards + wilds[:missing], Reading("straight_flush", top, 5))  # type: ignore[operator]


def legal_plays(hand: Sequence[Card], level: Level, top: Reading | None) -> list[Candidate]:
    """The candidates that may be played now: all when leading, else those whose reading beats `top`;
    a straight made of one suit's naturals is only a straight flush, so such a straight is left out."""
    found = []
    for candidate in candidates(hand, level):
        if candidate.reading not in readings(candidate.cards, level):
            continue
        if top is None or beats(candidate.reading, top, level):
            found.append(candidate)
    return found
