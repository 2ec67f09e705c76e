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
from trainer.guandan.plays import BOMB_TYPES, TYPES, Reading, beats, readings


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


_WINDOWS = {length: tuple((top, tuple(ACE if p == 1 else p for p in range(top - length + 1, top + 1)))
                           for top in range(length, ACE + 1)) for length in (2, 3, 5)}
"""Run windows by length: (top, ranks from low to high; position 1 is the ace)."""


def candidates(hand: Sequence[Card], level: Level, wanted: frozenset[str] | None = None) -> list[Candidate]:
    """One play per shape the hand can make (declared readings); `wanted` keeps only those types."""
    by_rank, wilds, small, big = _group(hand, level)
    found: list[Candidate] = []
    want = wanted if wanted is not None else ALL_TYPES

    def add(cards: list[Card], reading: Reading) -> None:
        """Keep one candidate."""
        found.append(Candidate(tuple(cards), reading))

    for jokers in (small, big):
        if jokers and "single" in want:
            add(jokers[:1], Reading("single", jokers[0].rank, 1))
        if len(jokers) == 2 and "pair" in want:
            add(jokers, Reading("pair", jokers[0].rank, 2))
    if len(small) == 2 and len(big) == 2 and "joker_bomb" in want:
        add(small + big, Reading("joker_bomb", None, 4))
    if wilds and "single" in want:
        add(wilds[:1], Reading("single", level.rank, 1))
    sets = [(count, kind) for count, kind in ((1, "single"), (2, "pair"), (3, "triple")) if kind in want]
    for rank, cards in by_rank.items():
        if not cards:
            continue
        for count, kind in sets:
            taken = _take(cards, wilds, count)
            if taken is not None:
                add(taken, Reading(kind, rank, count))
        if "bomb" in want:
            for size in range(4, len(cards) + len(wilds) + 1):
                taken = _take(cards, wilds, size)
                if taken is not None:
                    add(taken, Reading("bomb", rank, size))
    if "full_house" in want:
        _full_houses(by_rank, wilds, small, big, add)
    if want & _RUNS:
        _runs(by_rank, wilds, want, add)
    return found


ALL_TYPES = frozenset(TYPES)
_RUNS = frozenset({"straight", "pair_run", "triple_run", "straight_flush"})
_BOMBS = frozenset(BOMB_TYPES)


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


def _runs(by_rank: dict[int, list[Card]], wilds: list[Card], want: frozenset[str], add: object) -> None:
    for kind, length, width in (("straight", 5, 1), ("pair_run", 3, 2), ("triple_run", 2, 3)):
        if kind not in want:
            continue
        for top, window in _WINDOWS[length]:
            cards: list[Card] = []
            missing = 0
            for rank in window:
                have = by_rank[rank][:width]
                cards += have
                missing += width - len(have)
            if missing <= len(wilds):
                add(cards + wilds[:missing], Reading(kind, top, length * width))  # type: ignore[operator]
    for suit in Suit if "straight_flush" in want else ():
        of_suit = {rank: [card for card in cards if card.suit is suit][:1] for rank, cards in by_rank.items()}
        for top, window in _WINDOWS[5]:
            cards = []
            for rank in window:
                cards += of_suit[rank]
            missing = 5 - len(cards)
            if missing <= len(wilds):
                add(cards + wilds[:missing], Reading("straight_flush", top, 5))  # type: ignore[operator]


def legal_plays(hand: Sequence[Card], level: Level, top: Reading | None) -> list[Candidate]:
    """The candidates that may be played now: all when leading, else those whose reading beats `top`;
    a straight made of one suit's naturals is only a straight flush, so such a straight is left out."""
    found = []
    wanted = None if top is None else _BOMBS if top.bomb else _BOMBS | {top.type}
    for candidate in candidates(hand, level, wanted):
        reading = candidate.reading
        if reading not in readings(candidate.cards, level):
            continue
        if top is None or beats(reading, top, level):
            found.append(candidate)
    return found
