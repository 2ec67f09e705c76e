"""Following (跟牌): the legality of a follower's play by the ladder of rules.md §4, and the legal plays.

>>> ctx = TrumpContext.parse("2", "H")
>>> lead = Lead.of(parse_cards("9S 9S"), ctx)
>>> follow_problem(lead, face_counts(parse_cards("9S 9S 4S 3H")), parse_cards("9S 4S"), ctx)
'must follow the pair in ♠ with a pair (holds 9♠ 9♠) but played 9♠ 4♠'
>>> follow_problem(lead, face_counts(parse_cards("9S 9S 4S 3H")), parse_cards("9S 9S"), ctx) is None
True
"""
from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import product

from trainer.engine.cards import Card, parse_cards, pretty_cards
from trainer.engine.combos import (Combination, Unit, best_packing, decompose, face_counts,
                                   pair_structure)
from trainer.engine.trump import TRUMP, TrumpContext


def suit_label(suit: int) -> str:
    """A suit for messages: ♠ ♥ ♣ ♦ or trump."""
    return "trump" if suit == TRUMP else "♠♥♣♦"[suit]


@dataclass(frozen=True, slots=True)
class Lead:
    """What followers must answer: the led suit, card count and structure of a (possibly forced) lead."""

    cards: tuple[Card, ...]
    suit: int
    units: tuple[Unit, ...]
    pairs: int
    tractors: tuple[int, ...]

    @classmethod
    def of(cls, cards: Sequence[Card], ctx: TrumpContext) -> Lead:
        """The lead made of `cards` (all of one effective suit)."""
        if len(cards) == 1:
            face = cards[0].index
            return cls(tuple(cards), ctx.suit_of[face], (Unit(1, 1, (face,), ctx.strength[face]),), 0, ())
        combo = Combination.of(cards, ctx)
        if combo.suit is None:
            raise ValueError("a lead must be all of one effective suit")
        pairs = sum(u.length * (u.width // 2) for u in combo.units)
        tractors = tuple(sorted((u.length for u in combo.units if u.width >= 2 and u.length >= 2), reverse=True))
        return cls(tuple(cards), combo.suit, combo.units, pairs, tractors)

    @property
    def size(self) -> int:
        """Cards led."""
        return len(self.cards)

    @property
    def kind(self) -> str:
        """single, pair, tractor, throw…"""
        return self.units[0].kind if len(self.units) == 1 else "throw"


def _rank(counts: dict[int, int], lead: Lead, ctx: TrumpContext) -> tuple[int, tuple[int, ...]]:
    """(P, T) of a set of led-suit cards against the lead (rules.md §4)."""
    pairs, runs = pair_structure(counts, ctx)
    return min(pairs, lead.pairs), best_packing(runs, lead.tractors) if lead.tractors and runs else ()


def _suit_part(counts: dict[int, int], suit: int, ctx: TrumpContext) -> dict[int, int]:
    suit_of = ctx.suit_of
    return {face: copies for face, copies in counts.items() if copies and suit_of[face] == suit}


def follow_problem(lead: Lead, hand: dict[int, int], play: Sequence[Card], ctx: TrumpContext) -> str | None:
    """Why `play` is not a legal answer to `lead` from `hand` (copies per face index), or None."""
    n = lead.size
    if len(play) != n:
        return f"must play {n} card{'s' if n > 1 else ''} to follow, played {len(play)}"
    played = face_counts(play)
    for face, copies in played.items():
        if hand.get(face, 0) < copies:
            return f"does not hold {pretty_cards([Card.from_index(face)] * (copies - hand.get(face, 0)))}"
    suit = lead.suit
    suit_of = ctx.suit_of
    in_suit_count = sum(copies for face, copies in played.items() if suit_of[face] == suit)
    if in_suit_count == n and not lead.pairs:
        return None
    held = _suit_part(hand, suit, ctx)
    if in_suit_count < n and ctx.rules.follow == "lenient" and _lenient_shape(lead, play, held, ctx):
        return None
    held_count = sum(held.values())
    in_suit = _suit_part(played, suit, ctx)
    label = suit_label(suit)
    if held_count <= n:
        if in_suit_count != held_count:
            return (f"must play every {label} card held ({_pretty(held, ctx)}) before discarding, "
                    f"but played {pretty_cards(play)}")
        return None
    if in_suit_count != n:
        return f"must follow {label} with {n} {label} cards (holds {held_count}), but played {pretty_cards(play)}"
    follow = ctx.rules.follow
    if follow == "loose" or not lead.pairs:
        return None
    best = _rank(held, lead, ctx)
    got = _rank(in_suit, lead, ctx)
    if got == best:
        return None
    what = f"the {lead.kind} in {label}"
    held_pairs = [Card.from_index(f) for f in ctx.faces_by_suit[suit] for _ in range(2 * (held.get(f, 0) // 2))]
    if got[0] < best[0]:
        need = "a pair" if best[0] == 1 else f"{best[0]} pairs"
        return f"must follow {what} with {need} (holds {pretty_cards(held_pairs)}) but played {pretty_cards(play)}"
    longest = best[1][0] if best[1] else 2
    return (f"must follow {what} with a {longest}-pair tractor"
            f"{' and more' if len(best[1]) > 1 else ''} (holds {pretty_cards(held_pairs)}) "
            f"but played {pretty_cards(play)}")


def forms_lead_shape(lead: Lead, play: Sequence[Card], ctx: TrumpContext) -> bool:
    """True when the lead is one unit of pairs (a pair or a tractor) and `play` is one unit of that shape,
    in any one suit: what `follow = lenient` accepts from a follower who cannot make it in the led suit."""
    if len(lead.units) != 1 or not lead.pairs:
        return False
    units = Combination.of(play, ctx).units
    return len(units) == 1 and units[0].shape == lead.units[0].shape


def _lenient_shape(lead: Lead, play: Sequence[Card], held: dict[int, int], ctx: TrumpContext) -> bool:
    """`follow = lenient`: True when `play` forms the lead's shape and the follower's led-suit cards
    `held` cannot make that shape (rules.md §4)."""
    return forms_lead_shape(lead, play, ctx) and _rank(held, lead, ctx) != (lead.pairs, lead.tractors)


def _pretty(counts: dict[int, int], ctx: TrumpContext) -> str:
    return pretty_cards(Card.from_index(f) for f in sorted(counts, key=ctx.sort_key.__getitem__)
                        for _ in range(counts[f]))


def _multisets(counts: dict[int, int], size: int, faces: Sequence[int] | None = None) -> Iterator[dict[int, int]]:
    """Every sub-multiset of `counts` with `size` cards."""
    order = list(faces if faces is not None else counts)
    remaining = [0] * (len(order) + 1)
    for i in range(len(order) - 1, -1, -1):
        remaining[i] = remaining[i + 1] + counts[order[i]]

    def walk(i: int, need: int, chosen: dict[int, int]) -> Iterator[dict[int, int]]:
        if need == 0:
            yield dict(chosen)
            return
        if i == len(order) or remaining[i] < need:
            return
        face = order[i]
        for take in range(min(counts[face], need), -1, -1):
            if take:
                chosen[face] = take
            yield from walk(i + 1, need - take, chosen)
            chosen.pop(face, None)

    yield from walk(0, size, {})


def _cards_of(counts: dict[int, int], ctx: TrumpContext) -> list[Card]:
    return [Card.from_index(f) for f in sorted(counts, key=ctx.sort_key.__getitem__) for _ in range(counts[f])]


def legal_follows(lead: Lead, hand: dict[int, int], ctx: TrumpContext) -> Iterator[list[Card]]:
    """Every legal answer to `lead` (as distinct multisets, strongest first), lazily."""
    n = lead.size
    held = _suit_part(hand, lead.suit, ctx)
    held_count = sum(held.values())
    if held_count <= n:
        others = {f: c for f, c in hand.items() if c and f not in held}
        for filler in _multisets(others, n - held_count):
            yield _cards_of(held, ctx) + _cards_of(filler, ctx)
    else:
        for choice in _multisets(held, n):
            cards = _cards_of(choice, ctx)
            if follow_problem(lead, hand, cards, ctx) is None:
                yield cards
    if held_count:
        yield from lenient_shapes(lead, hand, ctx)


def lenient_shapes(lead: Lead, hand: dict[int, int], ctx: TrumpContext) -> list[list[Card]]:
    """Under `follow = lenient`, the plays of the lead's shape from other suits that the follower may
    make because its led-suit cards cannot make that shape; [] otherwise."""
    if ctx.rules.follow != "lenient" or len(lead.units) != 1 or not lead.pairs:
        return []
    held = _suit_part(hand, lead.suit, ctx)
    if _rank(held, lead, ctx) == (lead.pairs, lead.tractors):  # the led suit makes the shape
        return []
    others = {f: c for f, c in hand.items() if c and f not in held}
    return [cards for cards in legal_leads(others, ctx) if len(cards) == lead.size and forms_lead_shape(lead, cards, ctx)]


def random_follow(lead: Lead, hand: dict[int, int], ctx: TrumpContext, rng: random.Random) -> list[Card]:
    """A legal answer to `lead` chosen at random (uniform over a sample when the choice is large)."""
    n = lead.size
    held = _suit_part(hand, lead.suit, ctx)
    shapes = lenient_shapes(lead, hand, ctx) if held else []
    if shapes and rng.random() < 0.5:
        return rng.choice(shapes)
    held_cards = _cards_of(held, ctx)
    if len(held_cards) <= n:
        others = [Card.from_index(f) for f, c in hand.items() if c and f not in held for _ in range(c)]
        return held_cards + rng.sample(others, n - len(held_cards))
    if not lead.pairs or ctx.rules.follow == "loose":
        return rng.sample(held_cards, n)
    for _ in range(30):
        guess = _guess(lead, held, ctx, rng)
        if follow_problem(lead, hand, guess, ctx) is None:
            return guess
    options = []
    for option in legal_follows(lead, hand, ctx):
        options.append(option)
        if len(options) >= 64:
            break
    return rng.choice(options)


def _guess(lead: Lead, held: dict[int, int], ctx: TrumpContext, rng: random.Random) -> list[Card]:
    """A random play that takes as many pairs as the lead asks for, then random singles."""
    pair_faces = [f for f, c in held.items() if c >= 2]
    rng.shuffle(pair_faces)
    if lead.tractors and rng.random() < 0.7:
        runs = [u for u in decompose({f: 2 for f in pair_faces}, ctx) if u.length >= 2]
        first = [f for u in runs for f in u.faces]
        pair_faces = first + [f for f in pair_faces if f not in first]
    chosen = pair_faces[:lead.pairs]
    rest = Counter(held)
    for face in chosen:
        rest[face] -= 2
    singles = [Card.from_index(f) for f, c in rest.items() for _ in range(c)]
    cards = [Card.from_index(f) for f in chosen for _ in range(2)]
    return cards + rng.sample(singles, lead.size - len(cards))


def legal_leads(hand: dict[int, int], ctx: TrumpContext) -> Iterator[list[Card]]:
    """Every single-combination lead: singles, tuples and tractors (throws are not listed); at a shared
    position (副级牌) every face can take part, and with `ace_two_wrap` the A pair can sit below the 2s."""
    for suit in range(5):
        held = _suit_part(hand, suit, ctx)
        if not held:
            continue
        faces = [f for f in ctx.faces_by_suit[suit] if f in held]
        for face in faces:
            for width in range(1, held[face] + 1):
                yield [Card.from_index(face)] * width
        yield from _tractor_leads([f for f in faces if held[f] >= 2], ctx)


def _tractor_leads(pair_faces: list[int], ctx: TrumpContext) -> Iterator[list[Card]]:
    by_position: dict[int, list[int]] = {}
    for face in pair_faces:
        by_position.setdefault(ctx.position[face], []).append(face)
    for ace, two in ctx.wrap_below.items():
        if ace in pair_faces and two in pair_faces:
            by_position.setdefault(ctx.position[two] - 1, []).append(ace)
    for top in sorted(by_position, reverse=True):
        choices: list[list[int]] = [by_position[top]]
        while top - len(choices) in by_position:
            choices.append(by_position[top - len(choices)])
            for run in product(*choices):
                if len(set(run)) == len(run):
                    cards = [Card.from_index(f) for f in run for _ in range(2)]
                    if Combination.of(cards, ctx).kind == "tractor":
                        yield cards


__all__ = ["Lead", "follow_problem", "forms_lead_shape", "legal_follows", "legal_leads", "lenient_shapes",
           "random_follow", "suit_label", "parse_cards", "face_counts", "TrumpContext"]
