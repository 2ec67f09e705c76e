"""Throws (甩牌) and who wins a trick (rules.md §4 throw check, §5).

>>> ctx = TrumpContext.parse("2", "H")
>>> others = [face_counts(parse_cards(h)) for h in ("10S", "3D", "4D")]
>>> check_throw(parse_cards("9S 9S 8S 4S 4S"), others, ctx).forced
[Card.parse('8S')]
>>> ctx = TrumpContext.parse("J", "H")
>>> trick_winner([parse_cards("4D 4D 5D 5D KD AD"), parse_cards("2H 7H 7H 8H 8H 9H")], ctx)
1
>>> trick_winner([parse_cards("4D 4D 5D 5D AD AD"), parse_cards("2H 7H 7H 8H 8H 9H")], ctx)
0
"""
from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from trainer.engine.cards import Card, parse_cards
from trainer.engine.combos import Unit, face_counts
from trainer.engine.follow import Lead, is_bomb
from trainer.engine.trump import TRUMP, TrumpContext


BOMB = 100_000
"""Bombs (`bombs` option) rank above everything: BOMB + 1000 × cards + strength of the face."""
WIDER = 20_000
"""The four-deck preset (seed 000): the wider plays that take a pair-tractor trick rank above every tractor
of their suit."""
RUFF = 2 * WIDER
"""The four-deck preset: a ruff of a side-suit pair-tractor lead ranks above every play of the led suit,
its wider plays included (seed 000's 4条比2连拖大 compares plays of one suit; docs/decisions.md); only a
bomb (`bombs`) ranks higher."""
WIDER_THAN_TRACTOR = {2: (4, 1), 3: (3, 2), 4: (4, 2)}
"""Four decks: pair-tractor length → the (width, length) of the wider play of as many cards that beats it:
a quad (2222 > 7788), two consecutive triples (222333 > 667788), two consecutive quads."""


@dataclass(frozen=True, slots=True)
class ThrowResult:
    """The outcome of a throw check: whether it stands, the play it is reduced to, the beaten units."""

    ok: bool
    forced: list[Card]
    beaten: tuple[Unit, ...]


def unit_beaten_by(unit: Unit, holding: dict[int, int], ctx: TrumpContext) -> bool:
    """True when `holding` (one seat's copies per face, any suits) can beat `unit` played alone."""
    suit = ctx.suit_of[unit.faces[0]]
    suit_of, strength, position = ctx.suit_of, ctx.strength, ctx.position
    width = unit.width
    if unit.length == 1:
        return any(copies >= width and suit_of[face] == suit and strength[face] > unit.top
                   for face, copies in holding.items())
    positions = {position[face] for face, copies in holding.items() if copies >= width and suit_of[face] == suit}
    top = position[unit.faces[0]]
    return any(p > top and all(p - step in positions for step in range(1, unit.length)) for p in positions)


def check_throw(cards: Sequence[Card], others: Sequence[dict[int, int]], ctx: TrumpContext,
                lead: Lead | None = None) -> ThrowResult:
    """Whether a lead stands against the other three hands; if not, the forced play (rules.md §4)."""
    lead = lead or Lead.of(cards, ctx)
    if len(lead.units) == 1:
        return ThrowResult(True, list(cards), ())
    beaten = tuple(unit for unit in lead.units if any(unit_beaten_by(unit, hand, ctx) for hand in others))
    if not beaten:
        return ThrowResult(True, list(cards), ())
    if ctx.rules.forced_play == "single_card":
        lowest = min(beaten, key=lambda u: (u.top, ctx.sort_key[u.faces[0]]))
        return ThrowResult(False, lowest.cards()[-1:], beaten)
    top_class = max(unit.shape for unit in beaten)
    forced = min((u for u in lead.units if u.shape == top_class), key=lambda u: u.top)
    return ThrowResult(False, forced.cards(), beaten)


def _candidates(counts: dict[int, int], width: int, length: int, ctx: TrumpContext) -> list[tuple[int, tuple[int, ...]]]:
    """(top strength, faces) of every way to take a unit of this shape from `counts`, best first."""
    strength = ctx.strength
    faces = [face for face, copies in counts.items() if copies >= width]
    faces.sort(key=ctx.sort_key.__getitem__)
    if length == 1:
        return [(strength[face], (face,)) for face in faces]
    position = ctx.position
    by_position: dict[int, int] = {}
    for face in faces:
        by_position.setdefault(position[face], face)
    found = []
    for top, face in by_position.items():
        run = [face]
        for step in range(1, length):
            below = by_position.get(top - step)
            if below is None:
                break
            run.append(below)
        if len(run) == length:
            found.append((strength[face], tuple(run)))
    for ace, two in ctx.wrap_below.items():
        if ace in faces and two in faces:
            bottom = position[two]
            above = [by_position.get(bottom + step) for step in range(length - 2, -1, -1)]
            wrapped = [f for f in above if f is not None]
            if len(wrapped) == len(above):
                found.append((strength[wrapped[0]], (*wrapped, ace)))
    found.sort(reverse=True)
    return found


def _groupings(counts: dict[int, int], units: Sequence[Unit], index: int, ctx: TrumpContext,
               above: Sequence[int] | None = None, cap: int | None = None) -> Iterator[list[int]]:
    """Every grouping of `counts` into `units[index:]` as unit tops, strongest first (units of one shape
    take non-increasing tops, `cap` being the top of the previous one); with `above`, only groupings
    whose every unit is strictly higher than its counterpart there."""
    if index == len(units):
        yield []
        return
    unit = units[index]
    same_as_next = index + 1 < len(units) and units[index + 1].shape == unit.shape
    for top, faces in _candidates(counts, unit.width, unit.length, ctx):
        if cap is not None and top > cap:
            continue
        if above is not None and top <= above[index]:
            break
        for face in faces:
            counts[face] -= unit.width
        for rest in _groupings(counts, units, index + 1, ctx, above, top if same_as_next else None):
            yield [top, *rest]
        for face in faces:
            counts[face] += unit.width


def play_profile(lead: Lead, play: Sequence[Card], ctx: TrumpContext,
                 played: dict[int, int] | None = None) -> list[int] | None:
    """The strengths of the play's units matched to the lead's units (most favourable grouping),
    or None when the play cannot take the trick (wrong suits, or not the lead's structure).
    Under `throw_compare = all_units` a throw's profile is, unit by unit, the highest top any grouping
    gives it: a play must beat it under every grouping (rules.md §5). `played` is the play's copies
    per face when already counted."""
    suit_of = ctx.suit_of
    if len(play) == 1 and len(lead.cards) == 1:  # a single answers a single lead: led suit or trump
        face = play[0].index
        return [ctx.strength[face]] if suit_of[face] == lead.suit or suit_of[face] == TRUMP else None
    if ctx.rules.bombs != "none" and len(play) >= 4:
        played = face_counts(play) if played is None else played
        if is_bomb(played):
            return [BOMB + 1000 * len(play) + ctx.strength[play[0].index]]
    first = suit_of[play[0].index]
    if first != lead.suit and first != TRUMP:
        return None
    counts = face_counts(play) if played is None else played
    if len(counts) > 1 and any(suit_of[face] != first for face in counts):
        return None
    if len(lead.units) == 1:
        unit = lead.units[0]
        if unit.width == 1:
            return [ctx.strength[play[0].index]]
        lift = 0
        if unit.width == 2 and unit.length in WIDER_THAN_TRACTOR and ctx.rules.preset == "four-deck" \
                and ctx.rules.decks == 4:
            lift = RUFF if first != lead.suit else 0
            wider = _candidates(counts, *WIDER_THAN_TRACTOR[unit.length], ctx)
            if wider:
                return [lift + WIDER + wider[0][0]]
        if unit.length == 1:  # a tuple: the strongest face held that many times
            tops = [ctx.strength[face] for face, copies in counts.items() if copies >= unit.width]
            return [max(tops)] if tops else None
        found = _candidates(counts, unit.width, unit.length, ctx)
        return [lift + found[0][0]] if found else None
    counts = dict(counts)  # a copy: `_groupings` takes units out of it
    deciding = lead.deciding
    if ctx.rules.throw_compare == "largest_unit" and deciding:  # the grouping best for the largest unit
        return max(_groupings(counts, lead.units, 0, ctx), key=lambda grouping: grouping[deciding], default=None)
    if ctx.rules.throw_compare != "all_units":
        return next(_groupings(counts, lead.units, 0, ctx), None)
    best: list[int] | None = None
    for grouping in _groupings(counts, lead.units, 0, ctx):
        best = grouping if best is None else [max(a, b) for a, b in zip(best, grouping)]
    return best


def beats(profile: list[int], best: list[int], play: Sequence[Card], best_play: Sequence[Card],
          lead: Lead, ctx: TrumpContext) -> bool:
    """True when a play with `profile` takes the trick from the play winning it with `best`."""
    rule = ctx.rules.throw_compare
    if len(lead.units) == 1 or max(profile[0], best[0]) >= WIDER:
        return profile[0] > best[0]
    if rule == "largest_unit":
        deciding = lead.deciding
        return profile[deciding] > best[deciding]
    if rule == "all_units":
        return next(_groupings(dict(face_counts(play)), lead.units, 0, ctx, above=best), None) is not None
    if rule == "highest_card":
        strength = ctx.strength
        return max(strength[c.index] for c in play) > max(strength[c.index] for c in best_play)
    keep = list(range(len(profile)))
    if rule == "unit_length" and lead.units[0].size > 1:
        keep = [i for i, unit in enumerate(lead.units) if unit.size > 1]
    return [profile[i] for i in keep] > [best[i] for i in keep]


def trick_winner(plays: Sequence[Sequence[Card]], ctx: TrumpContext, lead: Lead | None = None) -> int:
    """Index into `plays` (lead first) of the play winning the trick so far; ties go to the earlier."""
    lead = lead or Lead.of(plays[0], ctx)
    winner = 0
    best = play_profile(lead, plays[0], ctx)
    assert best is not None
    for index in range(1, len(plays)):
        profile = play_profile(lead, plays[index], ctx)
        if profile is not None and beats(profile, best, plays[index], plays[winner], lead, ctx):
            winner, best = index, profile
    return winner


__all__ = ["ThrowResult", "beats", "check_throw", "trick_winner", "play_profile", "unit_beaten_by", "parse_cards",
           "face_counts", "TrumpContext"]
