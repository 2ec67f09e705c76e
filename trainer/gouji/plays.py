"""够级 plays (一手): one rank plus attached jokers and 2s, 够级 thresholds, and beating by the sorted key
(gouji.md §1, §3.1–3.3).

Values: 3…10 as printed, J 11, Q 12, K 13, A 14, 2 15, SJ 16, BJ 17.

>>> from trainer.engine.cards import parse_cards
>>> play = Play.of(parse_cards("SJ 8H 8S 8D"), GoujiRules())
>>> play.base, play.key, play.gouji, play.original
(8, (16, 8, 8, 8), True, False)
>>> beats(Play.of(parse_cards("BJ 9S 9S 9H"), GoujiRules()), play, GoujiRules())
True
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

from trainer.engine.cards import Card
from trainer.engine.errors import IllegalPlayError
from trainer.gouji.rules import GoujiRules

THREE, TEN, ACE, TWO, SMALL, BIG = 3, 10, 14, 15, 16, 17
VALUE_OF = [15 if card.rank == 2 else card.rank + 1 if card.is_joker else card.rank
            for card in (Card.from_index(i) for i in range(54))]
"""The 够级 value of each face index."""
VALUES_HIGH_TO_LOW = tuple(range(BIG, THREE - 1, -1))
VALUE_NAMES = {**{v: str(v) for v in range(3, 11)}, 11: "J", 12: "Q", 13: "K", 14: "A", 15: "2", 16: "SJ", 17: "BJ"}
"""Rank names as in records and referee answers (`10`, `J`, `2`, `SJ`, `BJ`)."""
VALUE_BY_NAME = {name: value for value, name in VALUE_NAMES.items()}
THRESHOLDS = {10: 5, 11: 4, 12: 3, 13: 2, 14: 2}
"""t(r): the fewest cards of rank r (with attached 2s) that make a 够级 play (gouji.md §3.2)."""


def value_of(card: Card) -> int:
    """The card's 够级 value (2 → 15, SJ → 16, BJ → 17)."""
    return VALUE_OF[card.index]


class Play(NamedTuple):
    """A valid play: its cards in the order laid, base rank, key (values high to low, attached 2s at the
    base's value), counts of jokers and 2s, and whether it is 够级 and original (原版)."""

    cards: tuple[Card, ...]
    base: int | None
    key: tuple[int, ...]
    big: int
    small: int
    twos: int
    gouji: bool
    original: bool

    @property
    def size(self) -> int:
        """Cards in the play."""
        return len(self.cards)

    @property
    def jokers(self) -> int:
        """Jokers in the play (attached or alone)."""
        return self.big + self.small

    @property
    def has_three(self) -> bool:
        """True when the play's base is 3."""
        return self.base == THREE

    @classmethod
    def of(cls, cards: Iterable[Card], rules: GoujiRules) -> Play:
        """The play made of `cards`; `IllegalPlayError` says why they are not one play."""
        result = analyse(tuple(cards), rules)
        if isinstance(result, str):
            raise IllegalPlayError(result)
        return result

    def __str__(self) -> str:
        return " ".join(str(card) for card in self.cards)


def analyse(cards: Sequence[Card], rules: GoujiRules) -> Play | str:
    """The play made of `cards`, or the reason in words why they are none (gouji.md §3.1)."""
    if not cards:
        return "a play needs at least one card"
    big = small = twos = plain = 0
    base = None
    ranks: set[int] = set()
    for card in cards:
        value = VALUE_OF[card.index]
        if value < TWO:
            plain += 1
            if base is None:
                base = value
            elif value != base:
                ranks.add(value)
        elif value == TWO:
            twos += 1
        elif value == SMALL:
            small += 1
        else:
            big += 1
    if ranks:
        names = " ".join(VALUE_NAMES[v] for v in sorted(ranks | {base}, reverse=True))  # type: ignore[arg-type]
        return f"a play holds one rank besides jokers and 2s, not {names}"
    if base is None:
        base = TWO if twos else None
    elif twos and not rules.attach_twos:
        return "2s may not be attached under these rules (attach_twos = false)"
    if base == THREE and rules.biesan and (big or small or twos):
        return "3s are played alone, with nothing attached (憋3)"
    count = plain + twos
    key = (BIG,) * big + (SMALL,) * small + (base,) * count if base is not None else (BIG,) * big + (SMALL,) * small
    gouji = bool(big or small) or base == TWO or (base in THRESHOLDS and count >= THRESHOLDS[base])
    original = gouji and not (big or small or twos)
    return Play(tuple(cards), base, key, big, small, twos, gouji, original)


def _key_beats(play: tuple[int, ...], top: tuple[int, ...]) -> bool:
    return len(play) == len(top) and all(p > t for p, t in zip(play, top))


def beats(play: Play, top: Play, rules: GoujiRules) -> bool:
    """True when `play` beats `top`: same size and a higher key at every position, or 二杀一 (gouji.md §3.3)."""
    if _key_beats(play.key, top.key):
        return True
    return rules.two_kill_one and is_two_kill_one(play, top)


def is_two_kill_one(play: Play, top: Play) -> bool:
    """二杀一: `top` holds b ≥ 1 BJ, `play` at least 2b, and the rests (less 2b and b BJ) beat or are both empty."""
    b = top.big
    if not b or play.big < 2 * b:
        return False
    rest_play, rest_top = play.key[2 * b:], top.key[b:]
    return (not rest_play and not rest_top) or _key_beats(rest_play, rest_top)


def opens(play: Play, rules: GoujiRules) -> bool:
    """True when the play, left standing, opens (开点) under `kaidian` (gouji.md §3.7)."""
    return play.original if rules.kaidian == "original" else play.gouji and not play.big


def burn_shortfall(rest: Sequence[int], rules: GoujiRules) -> tuple[int, list[int]]:
    """How many more jokers the rest of a burner's hand (values) needs to go out with a joker in every set
    but the last (gouji.md §3.5), and the ranks it must play as sets (high to low); 0 when it can."""
    jokers = sum(1 for value in rest if value >= SMALL)
    ranks = {value for value in rest if value < SMALL}
    if TWO in ranks and rules.attach_twos:
        lowest = THREE if not rules.biesan else THREE + 1
        if any(lowest <= value <= ACE for value in ranks):
            ranks.discard(TWO)
    needed = len(ranks) - 1
    return max(0, needed - jokers), sorted(ranks, reverse=True)
