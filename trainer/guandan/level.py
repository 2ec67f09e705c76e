"""The level context of a 掼蛋 hand (guandan.md §1): level order, level values, the 逢人配 wilds.

Cards are `trainer.engine.cards.Card` (ranks 2…14, SJ 15, BJ 16); they have no order of their own. A
`Level` orders them for one hand: 2…A with the level rank L lifted above A, then SJ, BJ.

>>> level = Level.parse("7")
>>> level, str(level.wild), level.lv(Card.parse("7S")), level.lv(Card.parse("AS")), level.lv(Card.parse("BJ"))
(Level.parse('7'), '7H', 15, 14, 17)
>>> level.is_wild(Card.parse("7H")), level.is_wild(Card.parse("7S"))
(True, False)
"""
from __future__ import annotations

from dataclasses import dataclass, field

from trainer.engine.cards import BIG_JOKER, RANK_NAMES, SMALL_JOKER, Card, Suit
from trainer.engine.errors import MalformedError, shown
from trainer.engine.trump import parse_level

ACE = 14
RANK_TEXT = {**RANK_NAMES, SMALL_JOKER: "SJ", BIG_JOKER: "BJ"}
"""Rank names as in records: `2`…`10`, `J`, `Q`, `K`, `A`, `SJ`, `BJ`."""
_RANK_BY_TEXT = {text: rank for rank, text in RANK_TEXT.items()} | {"T": 10}


def rank_text(rank: int) -> str:
    """A rank's record name (`10`, `K`, `SJ`)."""
    return RANK_TEXT[rank]


def parse_rank(value: object, *, jokers: bool = True) -> int:
    """A rank from its name (`2`…`10`, `T`, `J`, `Q`, `K`, `A`, and `SJ`/`BJ` when `jokers`)."""
    rank = _RANK_BY_TEXT.get(value.strip().upper()) if isinstance(value, str) else None
    if rank is None or (not jokers and rank >= SMALL_JOKER):
        raise MalformedError(f"not a rank: {shown(value)}")
    return rank


@dataclass(frozen=True, slots=True)
class Level:
    """The level rank L of a hand (级牌) and the order it gives the cards (level order)."""

    rank: int
    wild: Card = field(init=False, compare=False, repr=False)
    _lv: tuple[int, ...] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.rank not in RANK_NAMES:
            raise MalformedError(f"level must be one of 2…10, J, Q, K, A, not {shown(self.rank)}")
        object.__setattr__(self, "wild", Card(self.rank, Suit.H))
        object.__setattr__(self, "_lv", tuple(self.rank_lv(Card.from_index(i).rank) for i in range(54)))

    @classmethod
    def parse(cls, text: str | int) -> Level:
        """The level from its rank name (`2`…`10`, `T`, `J`, `Q`, `K`, `A`)."""
        return _LEVELS[parse_level(text)]

    def rank_lv(self, rank: int) -> int:
        """The level value of a rank: 2…14 as printed, L 15, SJ 16, BJ 17."""
        if rank == self.rank:
            return 15
        return rank + 1 if rank >= SMALL_JOKER else rank

    def lv(self, card: Card) -> int:
        """The level value of a card (a wild counts as L)."""
        return self._lv[card.index]

    def is_wild(self, card: Card) -> bool:
        """逢人配: the heart level card."""
        return card is self.wild

    def ranks_high_first(self) -> tuple[int, ...]:
        """Every rank in level order, high first: BJ SJ L A K … 2 (L once)."""
        return tuple(sorted((*RANK_NAMES, SMALL_JOKER, BIG_JOKER), key=self.rank_lv, reverse=True))

    def __str__(self) -> str:
        return RANK_NAMES[self.rank]

    def __repr__(self) -> str:
        return f"Level.parse({str(self)!r})"


_LEVELS = {rank: Level(rank) for rank in RANK_NAMES}
