"""Combinations (牌型): singles, tuples, tractors (拖拉机) and throws (甩牌), and their decomposition.

>>> ctx = TrumpContext.parse("5", "H")
>>> combo = Combination.of(parse_cards("AH AH 5S 5S"), ctx)
>>> combo.kind, [str(u) for u in combo.units]
('tractor', ['5S 5S AH AH'])
>>> Combination.of(parse_cards("4S 4S 6S 6S"), ctx).kind
'tractor'
>>> Combination.of(parse_cards("AS KS KS"), ctx).kind
'throw'
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from trainer.engine.cards import Card, format_cards, parse_cards
from trainer.engine.trump import SUIT_NAMES, TrumpContext

TUPLE_NAMES = {1: "single", 2: "pair", 3: "triple", 4: "quad"}


@dataclass(frozen=True, slots=True)
class Unit:
    """One unit of a play: `width` copies at each of `length` consecutive positions.

    `faces` are face indices, strongest position first (a wrapped AA22's ace comes last);
    `top` is the strength of the unit's deciding (highest) card.
    """

    width: int
    length: int
    faces: tuple[int, ...]
    top: int

    @property
    def shape(self) -> tuple[int, int]:
        """(width, length): the unit's class; larger tuples compare higher."""
        return (self.width, self.length)

    @property
    def size(self) -> int:
        """Cards in the unit."""
        return self.width * self.length

    @property
    def kind(self) -> str:
        """`single`, `pair`, `triple`, `quad` or `tractor`."""
        return "tractor" if self.length > 1 else TUPLE_NAMES[self.width]

    def cards(self) -> list[Card]:
        """The unit's cards, strongest first."""
        return [Card.from_index(face) for face in self.faces for _ in range(self.width)]

    def __str__(self) -> str:
        return format_cards(self.cards())


def face_counts(cards: Iterable[Card]) -> dict[int, int]:
    """Copies per face index."""
    counts: dict[int, int] = {}
    for card in cards:
        index = card.index
        counts[index] = counts.get(index, 0) + 1
    return counts


def decompose(counts: dict[int, int], ctx: TrumpContext) -> list[Unit]:
    """Split one suit's cards into units: tuples grouped into maximal tractors.

    The widest tuples come first; at a shared position (副级牌) the face first in suit order joins
    the tractor. Units are returned strongest class first (width, then length), then by strength.
    """
    position, strength = ctx.position, ctx.strength
    units: list[Unit] = []
    by_width: dict[int, list[int]] = {}
    for face, copies in counts.items():
        if copies:
            by_width.setdefault(copies, []).append(face)
    for width, faces in by_width.items():
        faces.sort(key=ctx.sort_key.__getitem__)
        if width == 1:
            units.extend(Unit(1, 1, (face,), strength[face]) for face in faces)
            continue
        runs: list[list[int]] = []
        spare: list[int] = []
        for face in faces:
            if runs and position[runs[-1][-1]] == position[face]:
                spare.append(face)
            elif runs and position[runs[-1][-1]] == position[face] + 1:
                runs[-1].append(face)
            else:
                runs.append([face])
        runs = _wrap_runs(runs, ctx)
        for run in runs:
            units.append(Unit(width, len(run), tuple(run), strength[run[0]]))
        units.extend(Unit(width, 1, (face,), strength[face]) for face in spare)
    units.sort(key=lambda unit: (-unit.width, -unit.length, -unit.top))
    return units


def _wrap_runs(runs: list[list[int]], ctx: TrumpContext) -> list[list[int]]:
    """ace_two_wrap: a lone A tuple joins the run that ends at that suit's 2 (AA22, the lowest)."""
    if not ctx.wrap_below or len(runs) < 2:
        return runs
    for ace, two in ctx.wrap_below.items():
        lone = next((run for run in runs if run == [ace]), None)
        bottom = next((run for run in runs if run[-1] == two), None)
        if lone is not None and bottom is not None:
            runs = [run for run in runs if run is not lone]
            bottom.append(ace)
    return runs


def largest_index(units: Sequence[Unit]) -> int:
    """The index of the largest unit (most cards; the first in class order among equals): it decides
    the trick and sets the kitty multiplier (rules.md §5, §6). With two decks it is always the first."""
    best = 0
    for index in range(1, len(units)):
        if units[index].size > units[best].size:
            best = index
    return best


@dataclass(frozen=True, slots=True)
class Combination:
    """A set of cards seen as one play: its effective suit, kind and units."""

    cards: tuple[Card, ...]
    suit: int | None
    units: tuple[Unit, ...]

    @classmethod
    def of(cls, cards: Sequence[Card], ctx: TrumpContext) -> Combination:
        """Recognise the combination formed by `cards` under `ctx`."""
        suits = {ctx.suit_of[card.index] for card in cards}
        if len(suits) != 1:
            return cls(tuple(cards), None, ())
        units = decompose(face_counts(cards), ctx)
        return cls(tuple(cards), suits.pop(), tuple(units))

    @property
    def kind(self) -> str:
        """single, pair, triple, quad, tractor, throw, or mixed (two or more effective suits)."""
        if self.suit is None:
            return "mixed"
        if len(self.units) == 1:
            return self.units[0].kind
        return "throw"

    @property
    def suit_name(self) -> str | None:
        """The effective suit's name (`S`…`D`, `trump`), None when mixed."""
        return None if self.suit is None else SUIT_NAMES[self.suit]

    @property
    def largest(self) -> Unit:
        """The largest unit: the one that sets the kitty multiplier and decides a trick."""
        return self.units[largest_index(self.units)]


# -- pair structure: what following and trick-taking compare (two decks) ---------------------------

def pair_structure(counts: dict[int, int], ctx: TrumpContext) -> tuple[int, tuple[int, ...]]:
    """(pairs, tractor-run lengths) of one suit's cards: how many pairs, and the lengths of the
    maximal runs of consecutive positions that each hold a pair (runs of 2 or more)."""
    position = ctx.position
    pairs = 0
    pair_positions: set[int] = set()
    for face, copies in counts.items():
        if copies >= 2:
            pairs += copies // 2
            pair_positions.add(position[face])
    if len(pair_positions) < 2:
        return pairs, ()
    ordered = sorted(pair_positions, reverse=True)
    runs: list[int] = []
    length = 1
    for higher, lower in zip(ordered, ordered[1:]):
        if higher == lower + 1:
            length += 1
        else:
            runs.append(length)
            length = 1
    runs.append(length)
    if ctx.wrap_below:
        runs = _wrap_run_lengths(counts, ctx)
    return pairs, tuple(sorted((r for r in runs if r >= 2), reverse=True))


def _wrap_run_lengths(counts: dict[int, int], ctx: TrumpContext) -> list[int]:
    """ace_two_wrap for run lengths: a lone A pair extends the run that ends at the 2."""
    units = decompose({face: 2 for face, copies in counts.items() if copies >= 2}, ctx)
    return [unit.length for unit in units if unit.width == 2]


@lru_cache(maxsize=4096)
def best_packing(runs: tuple[int, ...], bins: tuple[int, ...]) -> tuple[int, ...]:
    """The best tractor pieces (rules.md §4, T) that runs of these lengths can place into tractor
    units of these lengths: pieces of 2+ cut from runs, each unit holding pieces adding up to at
    most its length; the result sorted longest first, the lexicographically largest.

    >>> best_packing((3,), (4,)), best_packing((2, 2), (4,)), best_packing((4,), (2, 2))
    ((3,), (2, 2), (2, 2))
    """
    usable = tuple(sorted((r for r in runs if r >= 2), reverse=True))
    capacities = tuple(sorted((b for b in bins if b >= 2), reverse=True))
    if not usable or not capacities:
        return ()
    best: tuple[int, ...] = ()
    for run_index, run in enumerate(usable):
        for bin_index, capacity in enumerate(capacities):
            for piece in range(2, min(run, capacity) + 1):
                for left in range(run - piece + 1):
                    right = run - piece - left
                    rest_runs = usable[:run_index] + usable[run_index + 1:] + (left, right)
                    rest_bins = capacities[:bin_index] + (capacity - piece,) + capacities[bin_index + 1:]
                    found = tuple(sorted((piece,) + best_packing(rest_runs, rest_bins), reverse=True))
                    if found > best:
                        best = found
    return best


def describe(cards: Sequence[Card], ctx: TrumpContext) -> dict[str, object]:
    """The referee's `combo` answer: suit, kind and units (strongest class first, cards strongest first)."""
    combo = Combination.of(cards, ctx)
    return {"suit": combo.suit_name, "kind": combo.kind,
            "units": [[str(card) for card in unit.cards()] for unit in combo.units]}


__all__ = ["Unit", "Combination", "decompose", "largest_index", "face_counts", "pair_structure", "best_packing",
           "describe", "TrumpContext", "parse_cards"]
