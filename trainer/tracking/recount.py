"""Tier-1 knowledge recomputed from scratch at a position, without the incremental observer.

The oracle the tracker is tested against: set arithmetic over the record's plays up to the
position, with trick winners and penalties taken from the engine's replay. Tier 2's constraints
are rebuilt here from the record too (nothing is borrowed from the tracker): cards shown in a
failed throw less the thrower's plays since, caps proved by a throw that stood less the plays since.
"""
from __future__ import annotations

from collections import Counter

from trainer.engine.cards import Card, full_deck
from trainer.engine.combos import face_counts
from trainer.engine.follow import Lead, forms_lead_shape, legal_follows
from trainer.engine.scoring import kitty_multiplier
from trainer.engine.trump import TrumpContext
from trainer.records import DealRecord, Position, state_at
from trainer.tracking.tracker import Constraints, Snapshot, TrickView, no_legal_holder


def _array(counter: Counter[int] | dict[int, int]) -> tuple[int, ...]:
    return tuple(max(counter.get(face, 0), 0) for face in range(54))


def recount(record: DealRecord, seat: int, position: Position) -> Snapshot:
    """What `seat` knows at `position`, recomputed from the record alone."""
    ctx, rules = record.ctx, record.rules
    state = state_at(record, position)
    done = position.plays_before(record)
    plays = [(number, (trick.leader + i) % 4, play, i)
             for number, trick in enumerate(record.tricks, start=1) for i, play in enumerate(trick.plays)][:done]
    played = Counter(card.index for _, _, play, _ in plays for card in play)
    own_played = Counter(card.index for _, who, play, _ in plays if who == seat for card in play)
    mine = Counter(face_counts(record.playing_hands()[seat]))
    mine.subtract(own_played)
    complete = position.is_end and state.is_over
    kitty_known = Counter(card.index for card in record.buried) if seat == record.banker or complete else Counter()
    unseen = Counter(card.index for card in full_deck(rules.decks))
    for part in (played, mine, kitty_known):
        unseen.subtract(part)
    sizes = [rules.hand_size - sum(len(play) for _, who, play, _ in plays if who == q) for q in range(4)]
    revealed, no_pairs, no_tractors = [0] * 4, [0] * 4, [0] * 4
    strict = rules.follow != "loose"
    for number, who, play, index in plays:
        if index == 0:
            continue
        lead = state.tricks[number - 1].lead
        assert lead is not None
        in_suit = [card for card in play if ctx.suit_of[card.index] == lead.suit]
        if rules.follow == "lenient" and not in_suit and forms_lead_shape(lead, play, ctx):
            no_pairs[who] |= (1 << lead.suit) if lead.pairs == 1 else 0
            no_tractors[who] |= (1 << lead.suit) if lead.pairs <= 2 else 0
        elif len(in_suit) < lead.size:
            revealed[who] |= 1 << lead.suit
        elif strict and lead.pairs and _shown_pairless(lead, in_suit, ctx):
            no_pairs[who] |= 1 << lead.suit
            no_tractors[who] |= 1 << lead.suit
        elif strict and lead.tractors and _shown_tractorless(lead, in_suit, ctx):
            no_tractors[who] |= 1 << lead.suit
    returned: list[dict[int, int]] = [{} for _ in range(4)]
    caps: list[dict[int, int]] = [{} for _ in range(4)]
    for start, (number, who, play, index) in enumerate(plays):
        trick = state.tricks[number - 1]
        if index == 0 and trick.attempt is not None and who != seat:
            since = plays[start:]
            for face, copies in face_counts(trick.attempt).items():
                left = copies - own_count(since, who, face)
                if left > 0:
                    returned[who][face] = max(returned[who].get(face, 0), left)
        elif index == 0 and trick.attempt is None and trick.lead is not None and len(trick.lead.units) > 1:
            since = plays[start:]
            for other in set(range(4)) - {who, seat}:
                for face, cap in _proved_caps(trick.lead, ctx).items():
                    caps[other][face] = min(caps[other].get(face, cap), max(cap - own_count(since, other, face), 0))
    declared: list[dict[int, int]] = [{} for _ in range(4)]
    for declarer, cards in record.declarations:
        if declarer != seat:
            for face, copies in face_counts(cards).items():
                declared[declarer][face] = max(declared[declarer].get(face, 0), copies)
    for declarer in range(4):
        left = {face: copies - own_count(plays, declarer, face) for face, copies in declared[declarer].items()}
        declared[declarer] = {face: copies for face, copies in left.items() if copies > 0}
    if state.tricks:
        last = state.tricks[-1]
        number = len(state.tricks)
        view = TrickView(number, last.leader, tuple(tuple(p) for p in record.tricks[number - 1].plays[:len(last.plays)]),
                         last.winning, tuple(last.attempt) if last.attempt is not None else None)
        if position.plays == 0 and not position.is_end and last.complete:
            view = TrickView(number + 1, last.winning or 0, (), None, None)
    else:
        view = TrickView(1, record.banker, (), None, None)
    bonus = 0
    if complete and state.tricks:
        result = state.result()
        bonus = result.kitty_points * result.kitty_multiplier
        assert result.kitty_multiplier in (0, kitty_multiplier(state.tricks[-1].lead, rules))
    return Snapshot(seat, ctx, record.banker, _array(mine), _array(unseen), _array(played), _array(kitty_known),
                    complete, tuple(sizes), tuple(state.points_won), state.penalties, bonus, tuple(revealed),
                    tuple(no_pairs), tuple(no_tractors), view,
                    Constraints(tuple(returned), tuple(caps), tuple(declared)))


def _shown_pairless(lead: Lead, in_suit: list[Card], ctx: TrumpContext) -> bool:
    """tracking.md's no-pair rule read off the play, without the tracker's shortcut: fewer pairs than the
    lead, and with three or four decks the engine refusing the play to every holder of a further pair."""
    fewer = sum(copies // 2 for copies in face_counts(in_suit).values()) < lead.pairs
    return fewer and (ctx.rules.decks <= 2 or no_legal_holder(lead, in_suit, ctx))


def _shown_tractorless(lead: Lead, in_suit: list[Card], ctx: TrumpContext) -> bool:
    """tracking.md's no-tractor rule read off the play, by another road than the tracker's: no hand made
    of the play and one more tractor (any two faces with two copies left that `Lead.of` reads as a
    tractor) has the play among the engine's `legal_follows`. Two decks, or three and four for leads of
    pairs and pair tractors outside `protect_longer` (where more cards never excuse a play)."""
    if ctx.rules.decks >= 3 and (lead.wide or ctx.rules.follow.startswith("protect_longer")):
        return False
    played = Counter(card.index for card in in_suit)
    spare = [f for f in ctx.faces_by_suit[lead.suit] if ctx.rules.decks - played[f] >= 2]
    for high in spare:
        for low in spare:
            pair_pair = [Card.from_index(high)] * 2 + [Card.from_index(low)] * 2
            if ctx.sort_key[high] >= ctx.sort_key[low] or Lead.of(pair_pair, ctx).tractors != (2,):
                continue
            hand = dict(played + Counter({high: 2, low: 2}))
            if any(Counter(card.index for card in follow) == played for follow in legal_follows(lead, hand, ctx)):
                return False
    return True


def _proved_caps(lead: Lead, ctx: TrumpContext) -> dict[int, int]:
    """tracking.md's bound after a throw stood, read off the thrown cards: copies another seat can have
    held then of each face of the suit (none above the lowest single unit; above the lowest tuple of
    width w, at most w − 1)."""
    lowest_single = min((u.top for u in lead.units if u.size == 1), default=None)
    caps = {}
    for face in ctx.faces_by_suit[lead.suit]:
        if lowest_single is not None and ctx.strength[face] > lowest_single:
            caps[face] = 0
            continue
        for width in (2, 3, 4):
            lowest = min((u.top for u in lead.units if u.width == width and u.length == 1), default=None)
            if lowest is not None and ctx.strength[face] > lowest:
                caps[face] = width - 1
                break
    return caps


def own_count(plays: list[tuple[int, int, tuple, int]], seat: int, face: int) -> int:
    """Copies of `face` that `seat` has played among `plays`."""
    return sum(1 for _, who, play, _ in plays if who == seat for card in play if card.index == face)
