"""Trump context: which cards are trump, effective suits (花色归属), strength and tractor positions.

The order of cards changes with every hand (level and trump suit), so it lives here and not on
`Card`. Per-face tables are precomputed so the rules run on small integers.

>>> ctx = TrumpContext.parse("5", "H")
>>> ctx.effective_suit(Card.parse("5S")), ctx.effective_suit(Card.parse("AS"))
('trump', 'S')
>>> [str(c) for c in ctx.sorted(parse_cards("4S BJ 5S 5H AH 6S"))]
['BJ', '5H', '5S', 'AH', '6S', '4S']
"""
from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from trainer.engine.cards import FACE_COUNT, RANK_NAMES, Card, Suit, parse_cards
from trainer.engine.errors import MalformedError, shown
from trainer.engine.rules import Rules

TRUMP = 4
"""The effective-suit number of trump; side suits are 0…3 as `Suit`."""
SUIT_NAMES = ("S", "H", "C", "D", "trump")
"""Effective-suit names by number, in the listing order S, H, C, D, trump."""
_SIDE_BASE = 0
_TRUMP_BASE = 100


def parse_level(text: str | int) -> int:
    """Read a level rank (`2`…`10`, `J`, `Q`, `K`, `A`) as its number 2…14."""
    token = str(text).strip().upper()
    for rank, name in RANK_NAMES.items():
        if token == name or (token == "T" and rank == 10):
            return rank
    raise MalformedError(f"level must be one of 2…10, J, Q, K, A, not {shown(text)}")


def parse_trump(text: str | None) -> Suit | None:
    """Read a trump suit: a suit letter or symbol, or `none` / `NT` / `无主` for no trump."""
    if text is None or str(text).strip().lower() in ("none", "nt", "无主", "无将"):
        return None
    try:
        return Suit.parse(str(text))
    except MalformedError:
        raise MalformedError(f"trump must be S, H, C, D or none, not {shown(text)}") from None


class TrumpContext:
    """The ordering of one hand: level rank, trump suit (None for no trump) and the rules.

    Tables by face index: `suit_of` (0…3 side suit, 4 trump), `strength` (higher beats; trump
    above every side card; equal for equal cards), `position` (tractor positions: consecutive
    numbers are adjacent), `sort_key` (strongest first, ties in suit order).
    """

    __slots__ = ("level", "trump", "rules", "suit_of", "strength", "position", "sort_key",
                 "faces_by_suit", "wrap_below")

    def __init__(self, level: int, trump: Suit | None, rules: Rules | None = None) -> None:
        self.level = level
        self.trump = trump
        self.rules = rules or Rules()
        self.suit_of = [0] * FACE_COUNT
        self.strength = [0] * FACE_COUNT
        self.position = [0] * FACE_COUNT
        self.wrap_below: dict[int, int] = {}
        """ace_two_wrap: the face index of a side A → the face index of the 2 it sits below."""
        groups_by_suit = self._trump_groups(), *(self._side_groups(s) for s in Suit)
        for effective, (groups, base) in zip((TRUMP, 0, 1, 2, 3),
                                              ((groups_by_suit[0], _TRUMP_BASE),
                                               *((g, _SIDE_BASE) for g in groups_by_suit[1:]))):
            self._fill(effective, groups, base)
        self.sort_key = [-self.strength[i] * 64 + i for i in range(FACE_COUNT)]
        self.faces_by_suit = tuple(
            tuple(sorted((i for i in range(FACE_COUNT) if self.suit_of[i] == s), key=self.sort_key.__getitem__))
            for s in range(5))
        if self.rules.ace_two_wrap:
            for suit in Suit:
                ace, two = suit * 13 + 12, suit * 13
                if self.suit_of[ace] == suit and self.suit_of[two] == suit:
                    self.wrap_below[ace] = two

    @classmethod
    def parse(cls, level: str | int, trump: str | None, rules: Rules | str | dict | None = None) -> TrumpContext:
        """A context from text: level `2`…`A`, trump `S`/`H`/`C`/`D`/`none`, rules preset or object."""
        parsed = rules if isinstance(rules, Rules) else Rules.parse(rules)
        return cls.shared(parse_level(level), parse_trump(trump), parsed)

    @classmethod
    def shared(cls, level: int, trump: Suit | None, rules: Rules) -> TrumpContext:
        """The context of a level, trump and rules, built once and shared (a context never changes)."""
        return _shared_context(level, trump, rules)

    def _is_fixed_two(self, rank: int) -> bool:
        return self.rules.fixed_twos and rank == 2 and self.level != 2

    def _trump_groups(self) -> list[tuple[list[int], bool]]:
        """Trump strength groups from the top: (faces, starts-after-a-gap)."""
        chain = self.rules.level_tractors == "chain"
        level, trump = self.level, self.trump
        groups: list[tuple[list[int], bool]] = [([53], False), ([52], False)]
        if trump is not None:
            groups.append(([trump * 13 + level - 2], not chain))
            groups.append(([s * 13 + level - 2 for s in Suit if s != trump], not chain))
        else:
            groups.append(([s * 13 + level - 2 for s in Suit], not chain))
        if self.rules.fixed_twos and level != 2:
            if trump is not None:
                groups.append(([trump * 13], not chain))
                groups.append(([s * 13 for s in Suit if s != trump], False))
            else:
                groups.append(([s * 13 for s in Suit], not chain))
        if trump is not None:
            hollow = self.rules.hollow_tractors == "all"
            gap = not chain
            for rank in range(14, 1, -1):
                if rank == level or self._is_fixed_two(rank):
                    gap = gap or not hollow
                    continue
                groups.append(([trump * 13 + rank - 2], gap))
                gap = False
        return groups

    def _side_groups(self, suit: Suit) -> list[tuple[list[int], bool]]:
        if suit == self.trump:
            return []
        hollow = self.rules.hollow_tractors in ("all", "side_only")
        groups: list[tuple[list[int], bool]] = []
        gap = False
        for rank in range(14, 1, -1):
            if rank == self.level or self._is_fixed_two(rank):
                gap = gap or not hollow
                continue
            groups.append(([suit * 13 + rank - 2], gap))
            gap = False
        return groups

    def _fill(self, effective: int, groups: list[tuple[list[int], bool]], base: int) -> None:
        position = 0
        for order, (faces, after_gap) in enumerate(groups):
            position -= 2 if after_gap else 1
            for face in faces:
                self.suit_of[face] = effective
                self.strength[face] = base + len(groups) - order
                self.position[face] = position

    # -- the public API on Card objects -------------------------------------------------------
    def is_trump(self, card: Card) -> bool:
        """True when the card is trump (主) in this hand."""
        return self.suit_of[card.index] == TRUMP

    def effective_suit(self, card: Card) -> str:
        """`trump` or the card's printed suit letter (花色归属)."""
        return SUIT_NAMES[self.suit_of[card.index]]

    def card_strength(self, card: Card) -> int:
        """A number that orders cards: higher beats lower; trump above every side card."""
        return self.strength[card.index]

    def beats(self, card: Card, other: Card) -> bool:
        """True when `card` is strictly stronger than `other` (suits aside)."""
        return self.strength[card.index] > self.strength[other.index]

    def sorted(self, cards: Iterable[Card]) -> list[Card]:
        """Cards strongest first, equal strength in suit order S, H, C, D, copies adjacent."""
        return sorted(cards, key=lambda card: self.sort_key[card.index])

    def sort_hand(self, cards: Iterable[Card]) -> list[Card]:
        """Cards for display: trump first by strength, then S, H, C, D each strongest first."""
        return sorted(cards, key=lambda card: ((self.suit_of[card.index] + 1) % 5, self.sort_key[card.index]))

    def __repr__(self) -> str:
        trump = "none" if self.trump is None else self.trump.letter
        return f"TrumpContext.parse({RANK_NAMES[self.level]!r}, {trump!r}, {self.rules.to_json()!r})"


@lru_cache(maxsize=512)
def _shared_context(level: int, trump: Suit | None, rules: Rules) -> TrumpContext:
    return TrumpContext(level, trump, rules)


__all__ = ["TRUMP", "SUIT_NAMES", "TrumpContext", "parse_level", "parse_trump", "parse_cards"]
