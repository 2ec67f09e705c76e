"""掼蛋 plays (牌型) and their readings with 逢人配 wilds, strength and beating (guandan.md §2).

A play is a multiset of cards with a `Reading` (type, rank, size). `readings` lists every reading of a
set of cards, strongest first; `beats` compares two readings; `choose` picks the reading of an
undeclared play (§2.4); `play_problem` says in words why a play may not follow a top.

>>> from trainer.engine.cards import parse_cards
>>> level = Level.parse("5")  # 5H is the wild, 5C 5D are level cards above A
>>> [str(r) for r in readings(parse_cards("8S 8D 5H 5C 5D"), level)]
['full_house of 5', 'full_house of 8']
>>> [str(r) for r in readings(parse_cards("KS KD KC 5H"), level)]
['4-card bomb of K']
>>> beats(readings(parse_cards("9S 9D 9C 9H"), Level.parse("9"))[0],
...       readings(parse_cards("AS AD AC AH"), Level.parse("9"))[0], Level.parse("9"))
True
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from trainer.engine.cards import BIG_JOKER, SMALL_JOKER, Card, format_cards
from trainer.engine.errors import IllegalPlayError, MalformedError, shown
from trainer.guandan.level import ACE, Level, parse_rank, rank_text

TYPES = ("single", "pair", "triple", "full_house", "straight", "pair_run", "triple_run", "bomb",
         "straight_flush", "joker_bomb")
"""Every reading type (guandan.md §2.1)."""
BOMB_TYPES = frozenset({"bomb", "straight_flush", "joker_bomb"})
RUN_TYPES = frozenset({"straight", "pair_run", "triple_run", "straight_flush"})
_TYPE_ORDER = {"single": 0, "pair": 1, "triple": 2, "straight": 3, "full_house": 4, "pair_run": 5,
               "triple_run": 6, "bomb": 0, "straight_flush": 0, "joker_bomb": 0}
"""The tie-break between readings of equal class and rank (§2.4): triple_run > pair_run > … > single."""
_RUNS = {"straight": (5, 1), "pair_run": (3, 2), "triple_run": (2, 3)}
"""Run type: (window length, cards per position)."""


@dataclass(frozen=True, slots=True)
class Reading:
    """What a play is read as: its type, its rank (a rank 2…16; for runs the top position, A-high 14;
    None for 天炸) and its size in cards (what tells bombs apart)."""

    type: str
    rank: int | None
    size: int

    @property
    def bomb(self) -> bool:
        """True for bombs, straight flushes and 天炸."""
        return self.type in BOMB_TYPES

    @property
    def bomb_class(self) -> int:
        """0 for non-bombs; bombs low to high: 4 < 5 < straight_flush < 6 < … < 10 < joker_bomb (§2.3)."""
        if self.type == "bomb":
            return self.size - 3 if self.size <= 5 else self.size - 2
        if self.type == "straight_flush":
            return 3
        return 9 if self.type == "joker_bomb" else 0

    def to_json(self) -> dict[str, Any]:
        """The record form `{"type", "rank"}` (rank a rank string, null for 天炸)."""
        return {"type": self.type, "rank": None if self.rank is None else rank_text(self.rank)}

    @classmethod
    def from_json(cls, value: Any, size: int) -> Reading:
        """A reading from its record form, for a play of `size` cards; a bad type or rank is malformed."""
        if not isinstance(value, dict) or set(value) - {"type", "rank"} or "type" not in value:
            raise MalformedError(f"a reading is {{\"type\", \"rank\"}}, not {shown(value)}")
        kind = value["type"]
        if kind not in TYPES:
            raise MalformedError(f"unknown play type {shown(kind)} (known: {', '.join(TYPES)})")
        raw = value.get("rank")
        if kind == "joker_bomb":
            if raw is not None:
                raise MalformedError("joker_bomb has no rank (null)")
            return cls(kind, None, size)
        return cls(kind, parse_rank(raw), size)

    def __str__(self) -> str:
        if self.type == "joker_bomb":
            return "joker_bomb"
        name = rank_text(self.rank)  # type: ignore[arg-type]
        if self.type in RUN_TYPES:
            return f"{self.type} to {name}"
        if self.type == "bomb":
            return f"{self.size}-card bomb of {name}"
        return f"{self.type} of {name}"


def strength(reading: Reading, level: Level) -> tuple[int, int, int]:
    """The strength order of readings (§2.4): class, then rank (lv, or top position for runs), then type."""
    cache = _STRENGTHS[level.rank]
    found = cache.get(reading)
    if found is None:
        if reading.rank is None:
            rank = 0
        elif reading.type in RUN_TYPES:
            rank = reading.rank
        else:
            rank = level.rank_lv(reading.rank)
        found = cache[reading] = (reading.bomb_class, rank, _TYPE_ORDER[reading.type])
    return found


_STRENGTHS: dict[int, dict[Reading, tuple[int, int, int]]] = {rank: {} for rank in range(2, ACE + 1)}
"""Strengths already computed, per level rank (a few hundred readings each)."""


def beats(play: Reading, top: Reading, level: Level) -> bool:
    """True when `play` beats `top` (§2.3): a higher non-bomb of the same type, any bomb over a non-bomb,
    or a higher bomb class or rank; equal never beats."""
    return beat_reason(play, top, level) in ("bomb", "bigger_bomb", "higher")


def beat_reason(play: Reading, top: Reading, level: Level) -> str:
    """Why `play` beats `top` or not, as the referee's code: `bomb`, `bigger_bomb`, `higher` (it beats);
    `smaller_bomb`, `needs_bomb`, `type_mismatch`, `not_higher` (it does not)."""
    mine, theirs = strength(play, level), strength(top, level)
    if play.bomb:
        if not top.bomb:
            return "bomb"
        return "bigger_bomb" if mine[:2] > theirs[:2] else "smaller_bomb"
    if top.bomb:
        return "needs_bomb"
    if play.type != top.type:
        return "type_mismatch"
    return "higher" if mine[1] > theirs[1] else "not_higher"


def readings(cards: Iterable[Card], level: Level) -> list[Reading]:
    """Every reading of the cards under `level`, strongest first (§2.1, §2.2); [] when they are none."""
    key = tuple(sorted([card.index for card in cards]))
    cache = _READINGS[level.rank]
    found = cache.get(key)
    if found is None:
        found = tuple(sorted(_all_readings([Card.from_index(i) for i in key], level),
                             key=lambda r: strength(r, level), reverse=True))
        if len(cache) < 100_000:
            cache[key] = found
    return list(found)


_READINGS: dict[int, dict[tuple[int, ...], tuple[Reading, ...]]] = {rank: {} for rank in range(2, ACE + 1)}
"""Readings already found, per level rank and sorted face indices."""


def _all_readings(cards: Sequence[Card], level: Level) -> set[Reading]:
    n = len(cards)
    wilds = sum(1 for card in cards if level.is_wild(card))
    jokers = Counter(card.rank for card in cards if card.is_joker)
    naturals = [card for card in cards if not card.is_joker and not level.is_wild(card)]
    by_rank = Counter(card.rank for card in naturals)
    found: set[Reading] = set()
    if jokers:
        if n == 1:
            found.add(Reading("single", cards[0].rank, 1))
        elif n == 2 and jokers[cards[0].rank] == 2:
            found.add(Reading("pair", cards[0].rank, 2))
        elif n == 4 and jokers[SMALL_JOKER] == 2 and jokers[BIG_JOKER] == 2:
            found.add(Reading("joker_bomb", None, 4))
        elif n == 5 and len(jokers) == 1 and sum(jokers.values()) == 2 and len(by_rank) == 1:
            rank, count = next(iter(by_rank.items()))
            if count + wilds == 3:
                found.add(Reading("full_house", rank, 5))
        return found
    if not by_rank:  # wilds alone are level cards
        found.add(Reading(("single", "pair")[n - 1], level.rank, n))
        return found
    if len(by_rank) == 1:
        rank = next(iter(by_rank))
        kind = {1: "single", 2: "pair", 3: "triple"}.get(n, "bomb")
        if n <= 10:
            found.add(Reading(kind, rank, n))
    if n == 5:
        _full_houses(by_rank, wilds, found)
        _runs(naturals, wilds, "straight", found)
    elif n == 6:
        _runs(naturals, wilds, "pair_run", found)
        _runs(naturals, wilds, "triple_run", found)
    return found


def _full_houses(by_rank: Counter[int], wilds: int, found: set[Reading]) -> None:
    for triple, count in by_rank.items():
        if count > 3:
            continue
        rest = [(rank, c) for rank, c in by_rank.items() if rank != triple]
        if len(rest) > 1 or (rest and rest[0][1] > 2):
            continue
        pair_count = rest[0][1] if rest else 0
        if (3 - count) + (2 - pair_count) == wilds:
            found.add(Reading("full_house", triple, 5))


def _runs(naturals: Sequence[Card], wilds: int, kind: str, found: set[Reading]) -> None:
    length, width = _RUNS[kind]
    suits = {card.suit for card in naturals}
    for top in range(length, ACE + 1):
        window = range(top - length + 1, top + 1)
        slots: Counter[int] = Counter()
        for card in naturals:
            position = card.rank if card.rank in window else 1 if card.rank == ACE and 1 in window else None
            if position is None:
                break
            slots[position] += 1
        else:
            if all(count <= width for count in slots.values()):
                if kind != "straight":
                    found.add(Reading(kind, top, length * width))
                    continue
                if len(suits) == 1:
                    found.add(Reading("straight_flush", top, 5))
                if len(suits) > 1 or wilds:
                    found.add(Reading("straight", top, 5))


@dataclass(frozen=True, slots=True)
class Play:
    """A play: its cards in the order laid and its reading."""

    cards: tuple[Card, ...]
    reading: Reading

    def __str__(self) -> str:
        return f"{format_cards(self.cards)} ({self.reading})"


def choose(options: Sequence[Reading], top: Reading | None, level: Level, wild_reading: str) -> Reading:
    """The reading an undeclared play takes (§2.4): `highest` the strongest that beats `top` (or the
    strongest when none does or when leading); `lowest` the weakest. `options` strongest first."""
    if wild_reading == "lowest":
        return options[-1]
    if top is not None:
        for option in options:
            if beats(option, top, level):
                return option
    return options[0]


def reading_of(cards: Sequence[Card], level: Level, *, declared: Reading | None = None,
               top: Reading | None = None, wild_reading: str = "highest") -> Reading:
    """The reading of a play: `declared` when it is one of the cards' readings, else §2.4's choice;
    `IllegalPlayError` when the cards have no reading or the declared one is not theirs."""
    options = readings(cards, level)
    if not options:
        raise IllegalPlayError(f"{format_cards(cards)} is no play (no 牌型 reads these cards)")
    if declared is not None:
        if declared not in options:
            raise IllegalPlayError(f"{format_cards(cards)} cannot be read as {declared} "
                                   f"(readings: {', '.join(map(str, options))})")
        return declared
    return choose(options, top, level, wild_reading)


def play_problem(play: Reading, top: Reading | None, level: Level) -> str | None:
    """Why a play with reading `play` may not follow `top`, in words; None when it may (a lead may be anything).

    >>> level = Level.parse("2")
    >>> play_problem(Reading("pair_run", 12, 6), Reading("pair_run", 13, 6), level)
    'pair_run to Q does not beat pair_run to K'
    """
    words = follow_words(play, top, level)
    return None if words is None else f"{play} {words}"


def follow_words(play: Reading, top: Reading | None, level: Level) -> str | None:
    """What is wrong with following `top` by `play`, as the words after the play (`does not beat …`)."""
    if top is None:
        return None
    reason = beat_reason(play, top, level)
    if reason in ("bomb", "bigger_bomb", "higher"):
        return None
    words = {"smaller_bomb": "is a smaller bomb than", "needs_bomb": "is no bomb, so cannot beat",
             "type_mismatch": "is another type than", "not_higher": "does not beat"}[reason]
    return f"{words} {top}"
