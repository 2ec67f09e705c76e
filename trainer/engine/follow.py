"""Following (跟牌): the legality of a follower's play by the ladder of rules.md §4, and the legal plays.

>>> ctx = TrumpContext.parse("2", "H")
>>> lead = Lead.of(parse_cards("9S 9S"), ctx)
>>> follow_problem(lead, face_counts(parse_cards("9S 9S 4S 3H")), parse_cards("9S 4S"), ctx)
'must follow the pair in ♠ with a pair (holds 9♠ 9♠) but played 9♠ 4♠'
>>> follow_problem(lead, face_counts(parse_cards("9S 9S 4S 3H")), parse_cards("9S 9S"), ctx) is None
True
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import product
from typing import TYPE_CHECKING

from trainer.engine.cards import Card, parse_cards, pretty_cards
from trainer.engine.combos import (Combination, Unit, best_packing, decompose, face_counts, largest_index,
                                   pair_structure)
from trainer.engine.trump import TRUMP, TrumpContext

if TYPE_CHECKING:  # only the annotations name it; `deal verify` needs no random numbers
    import random


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
    wide: bool
    """True when the lead holds a triple or a quad (3 or 4 decks): followed by the wide ladder (a field,
    not a property: the follow rule reads it several times a play)."""

    @classmethod
    def of(cls, cards: Sequence[Card], ctx: TrumpContext) -> Lead:
        """The lead made of `cards` (all of one effective suit)."""
        return _lead_of(tuple(cards), ctx)

    @property
    def deciding(self) -> int:
        """The index of the unit that decides the trick and sets the kitty multiplier (the largest)."""
        return 0 if len(self.units) == 1 else largest_index(self.units)

    @property
    def size(self) -> int:
        """Cards led."""
        return len(self.cards)

    @property
    def kind(self) -> str:
        """single, pair, tractor, throw…"""
        return self.units[0].kind if len(self.units) == 1 else "throw"


@lru_cache(maxsize=4096)
def _lead_of(cards: tuple[Card, ...], ctx: TrumpContext) -> Lead:
    """`Lead.of`, remembered: a replay meets the same few leads (singles and pairs of one context) again
    and again, and building one (its decomposition and frozen values) was a quarter of leading a trick."""
    width = len(cards)
    if width and cards.count(cards[0]) == width:  # a single or a tuple of one face: one unit, no decomposition
        face = cards[0].index
        return Lead(cards, ctx.suit_of[face], (Unit(width, 1, (face,), ctx.strength[face]),), width // 2, (),
                    width >= 3)
    combo = Combination.of(cards, ctx)
    if combo.suit is None:
        raise ValueError("a lead must be all of one effective suit")
    pairs = sum(u.length * (u.width // 2) for u in combo.units)
    tractors = tuple(sorted((u.length for u in combo.units if u.width >= 2 and u.length >= 2), reverse=True))
    return Lead(cards, combo.suit, combo.units, pairs, tractors, combo.units[0].width >= 3)


def _rank(counts: dict[int, int], lead: Lead, ctx: TrumpContext) -> tuple[int, tuple[int, ...]]:
    """(P, T) of a set of led-suit cards against the lead (rules.md §4)."""
    if not lead.tractors:  # only the pairs count
        return min(sum(copies // 2 for copies in counts.values()), lead.pairs), ()
    pairs, runs = pair_structure(counts, ctx)
    return min(pairs, lead.pairs), best_packing(runs, lead.tractors) if runs else ()


def _suit_part(counts: dict[int, int], suit: int, ctx: TrumpContext) -> dict[int, int]:
    suit_of = ctx.suit_of
    return {face: copies for face, copies in counts.items() if copies and suit_of[face] == suit}


def follow_problem(lead: Lead, hand: dict[int, int], play: Sequence[Card], ctx: TrumpContext) -> str | None:
    """Why `play` is not a legal answer to `lead` from `hand` (copies per face index), or None."""
    problem = follow_verdict(lead, hand, play, ctx)
    return None if problem is None else problem()


Reason = Callable[[], str]
"""A reason a play is illegal, put into words only when asked for."""


def follow_verdict(lead: Lead, hand: dict[int, int], play: Sequence[Card], ctx: TrumpContext,
                   played: dict[int, int] | None = None) -> Reason | None:
    """None when `play` legally answers `lead` from `hand`, else the reason why not, to be put into
    words by calling it (rules.md §4). `played` is the play's copies per face when already counted."""
    n = len(lead.cards)
    if len(play) != n:
        return lambda: f"must play {n} card{'s' if n > 1 else ''} to follow, played {len(play)}"
    if n == 1 and hand.get(play[0].index):  # a single: only the suit is judged
        suit_of, suit = ctx.suit_of, lead.suit
        if suit_of[play[0].index] == suit or not any(map(hand.get, ctx.faces_by_suit[suit])):
            return None
    if played is None:
        played = face_counts(play)
    for face, copies in played.items():
        if hand.get(face, 0) < copies:
            return lambda: f"does not hold {pretty_cards([Card.from_index(face)] * (copies - hand.get(face, 0)))}"
    suit = lead.suit
    if len(played) == 1 and len(lead.units) == 1 and lead.units[0].length == 1 and ctx.suit_of[play[0].index] == suit \
            and not _protects(ctx):  # a tuple answered by a tuple of the led suit: the lead's own structure
        return None
    if ctx.rules.bombs != "none" and is_bomb(played) and _bomb_allowed(lead, hand, played, ctx):
        return None
    in_suit = _suit_part(played, suit, ctx)
    in_suit_count = sum(in_suit.values())
    got = None
    if in_suit_count == n:  # a full answer in the led suit: on the ladder's top rung it needs no more reading
        if not _owes_structure(lead, ctx):
            return None
        caps = _wide_caps(lead, ctx) if lead.wide else None
        got = _ladder_rank(lead, in_suit, ctx, caps)
        if got == _ladder_top(lead, caps) and not _protects(ctx):
            return None
    get = hand.get
    held = {face: copies for face in ctx.faces_by_suit[suit] if (copies := get(face, 0))}
    if in_suit_count < n and ctx.rules.follow == "lenient" and _lenient_shape(lead, play, held, ctx):
        return None
    held_count = sum(held.values())
    if held_count <= n:
        if in_suit_count != held_count:
            return lambda: (f"must play every {suit_label(suit)} card held ({_pretty(held, ctx)}) before "
                            f"discarding, but played {pretty_cards(play)}")
        return None
    if in_suit_count != n:
        return lambda: (f"must follow {suit_label(suit)} with {n} {suit_label(suit)} card{'s' if n > 1 else ''} "
                        f"(holds {held_count}), "
                        f"but played {pretty_cards(play)}")
    return _ladder_verdict(lead, held, in_suit, play, ctx, got=got)


def _ladder_best(lead: Lead, held: dict[int, int], ctx: TrumpContext) -> tuple[object, ...] | None:
    """The highest rung of §4's ladder the held led-suit cards reach (None when no structure is owed:
    `follow = loose` or a lead without pairs)."""
    if not _owes_structure(lead, ctx):
        return None
    protect = _protects(ctx)
    if lead.wide:
        return _wide_best(held, lead, lead.size, protect, ctx)
    return _rank({f: c for f, c in held.items() if c == 2} if protect else held, lead, ctx)


def _ladder_verdict(lead: Lead, held: dict[int, int], in_suit: dict[int, int], play: Sequence[Card],
                    ctx: TrumpContext, best: tuple[object, ...] | None = None,
                    got: tuple[object, ...] | None = None) -> Reason | None:
    """The structure rule of §4 for a play all of the led suit from a follower holding more of it
    than the lead's cards (`held`): None when it climbs the ladder as high as the hand allows
    (`best`, that height, and `got`, the play's, when already known)."""
    best = _ladder_best(lead, held, ctx) if best is None else best
    if best is None:
        return None
    got = _ladder_rank(lead, in_suit, ctx) if got is None else got
    protect = _protects(ctx)
    if lead.wide:
        return _wide_problem(lead, held, in_suit, play, protect, best, got, ctx)
    if got >= best:
        if protect and _skips_genuine(held, in_suit, {2: got[0]}):
            return lambda: (f"must follow {_lead_words(lead)} with the pairs held as pairs (holds "
                            f"{_pretty(held, ctx)}), not with cards taken out of a wider tuple; "
                            f"played {pretty_cards(play)}")
        return None
    return lambda: (f"must follow {_lead_words(lead)} with {_describe_pairs(best, lead)} "
                    f"(holds {_pretty_pairs(held, lead.suit, ctx)}) but played {pretty_cards(play)}")


def _owes_structure(lead: Lead, ctx: TrumpContext) -> bool:
    """True when following this lead owes structure (pairs and up): a lead with pairs, unless `follow = loose`."""
    return lead.pairs > 0 and ctx.rules.follow != "loose"


def _protects(ctx: TrumpContext) -> bool:
    """True when `protect_longer` is in force (it only matters with three or four decks)."""
    return ctx.rules.follow.startswith("protect_longer") and ctx.rules.decks >= 3


WideRank = tuple[int, tuple[int, ...], tuple[int, ...], int, int]
"""A wide follow's rank: (quads, triple-tractor pieces, pair-tractor pieces, triples, pairs)."""
WideCaps = tuple[int, tuple[int, ...], tuple[int, ...], int, int]
"""What a wide lead can ask for (`_wide_caps`): quads, triple-tractor bins, pair-tractor bins, triples, pairs."""


def _ladder_rank(lead: Lead, in_suit: dict[int, int], ctx: TrumpContext,
                 caps: WideCaps | None = None) -> tuple[object, ...]:
    """The rung of the lead's ladder (pairs, or wide for triples and quads) that led-suit cards reach
    (`caps`: the wide lead's `_wide_caps`, when already known)."""
    if not lead.wide:
        return _rank(in_suit, lead, ctx)
    return _wide_rank(in_suit, _wide_caps(lead, ctx) if caps is None else caps, ctx)


def _ladder_top(lead: Lead, caps: WideCaps | None) -> tuple[object, ...]:
    """A rung no cards climb above: the lead's own pairs and tractors, or every cap (`caps`, given for
    a wide lead) met (a tractor packing never beats its bins). A play that reaches it is legal whatever
    else the hand holds (unless `protect_longer` looks at the hand): checked first, it spares searching
    the hand."""
    if caps is None:
        return lead.pairs, lead.tractors
    quads, bins3, bins2, triples, pairs = caps
    return quads, tuple(sorted(bins3, reverse=True)), bins2, triples, pairs


def _lead_words(lead: Lead) -> str:
    """The lead for messages: `the pair in ♠`."""
    return f"the {lead.kind} in {suit_label(lead.suit)}"


def _pretty_pairs(held: dict[int, int], suit: int, ctx: TrumpContext) -> str:
    """The pairs among the held cards of a suit, for messages (a triple shows one pair)."""
    return pretty_cards(Card.from_index(f) for f in ctx.faces_by_suit[suit] for _ in range(2 * (held.get(f, 0) // 2)))


def is_bomb(counts: dict[int, int]) -> bool:
    """True when the cards are 4 or more copies of one face: a bomb under `bombs` (rules.md §9)."""
    return len(counts) == 1 and next(iter(counts.values())) >= 4


def _bomb_allowed(lead: Lead, hand: dict[int, int], played: dict[int, int], ctx: TrumpContext) -> bool:
    """Whether a bomb may answer the lead: always under `bombs = allow`; under `allow_suit_following`
    when it is of the led suit, or the follower holds no card of the led suit (then of trump, or of
    another side suit: §11.9)."""
    if ctx.rules.bombs == "allow":
        return True
    return ctx.suit_of[next(iter(played))] == lead.suit or not _suit_part(hand, lead.suit, ctx)


def _skips_genuine(held: dict[int, int], in_suit: dict[int, int], slots: dict[int, int]) -> bool:
    """`protect_longer` (rbtying LongerTuplesProtected): True when the play fills some of its `slots`
    (tuple width → slots filled) with cards taken out of wider tuples while tuples of exactly that width
    stay in the hand that could fill them."""
    for width, filled in slots.items():
        covered = sum(1 for copies in in_suit.values() if copies == width)
        missing = filled - covered
        if missing > 0:
            left = sum(1 for face, copies in held.items() if copies - in_suit.get(face, 0) == width)
            if left >= missing:
                return True
    return False


def _wide_caps(lead: Lead, ctx: TrumpContext) -> WideCaps:
    """What a wide lead can ask for: quads, triple-tractor bins, pair-tractor bins, triples, pairs.

    A led quad counts as two pairs and, unless `follow` is a tractor_on_tractor_only variant, as a
    2-pair tractor bin; a triple is asked for only by the lead's triples (rules.md §4, decisions)."""
    quads = sum(unit.length for unit in lead.units if unit.width == 4)
    bins3 = tuple(unit.length for unit in lead.units if unit.width >= 3 and unit.length >= 2)
    bins2 = [unit.length for unit in lead.units if unit.width >= 2 and unit.length >= 2]
    if not ctx.rules.follow.endswith("tractor_on_tractor_only"):
        bins2 += [2 for unit in lead.units if unit.width == 4 and unit.length == 1]
    triples = sum(unit.length for unit in lead.units if unit.width == 3)
    return quads, bins3, tuple(sorted(bins2, reverse=True)), triples, lead.pairs


def _runs(positions: set[int]) -> tuple[int, ...]:
    """Lengths of the maximal runs of consecutive positions (2 or more)."""
    runs = []
    for top in positions:
        if top + 1 not in positions:
            length = 1
            while top - length in positions:
                length += 1
            if length >= 2:
                runs.append(length)
    return tuple(sorted(runs, reverse=True))


def _wide_rank(counts: dict[int, int], caps: WideCaps,
               ctx: TrumpContext, exact: bool = False) -> WideRank:
    """The rank of a set of led-suit cards against a wide lead's `caps`; with `exact`, a face counts
    only as a tuple of exactly its copies (protect_longer: nothing is taken out of a wider tuple)."""
    quads, bins3, bins2, triples, pairs = caps
    position = ctx.position

    def has(copies: int, width: int) -> bool:
        return copies == width if exact else copies >= width

    got_quads = sum(1 for c in counts.values() if has(c, 4))
    got_triples = sum(1 for c in counts.values() if has(c, 3))
    got_pairs = sum(1 for c in counts.values() if c == 2) if exact else sum(c // 2 for c in counts.values())
    t3 = best_packing(_runs({position[f] for f, c in counts.items() if has(c, 3)}), bins3) if bins3 else ()
    t2 = best_packing(_runs({position[f] for f, c in counts.items() if has(c, 2)}), bins2) if bins2 else ()
    triples_left = max(0, triples - _triples_taken(t3, t2, bins3, bins2))
    return min(got_quads, quads), t3, t2, min(got_triples, triples_left), min(got_pairs, pairs)


def _triples_taken(t3: tuple[int, ...], t2: tuple[int, ...], bins3: tuple[int, ...], bins2: tuple[int, ...]) -> int:
    """How many of the lead's triple slots the pair-tractor pieces `t2` fill beyond the triple-tractor
    pieces `t3` (pieces go into the lead's pair tractors first): a pair tractor placed into a led 泰坦尼克
    leaves it no triple to ask for, so seed 004's 一副拖拉机 + 任意两张 owes nothing more."""
    pair_only_room = sum(bins2) - sum(bins3)
    return max(0, min(sum(t2) - sum(t3) - pair_only_room, sum(bins3) - sum(t3)))


_WIDE_BEST: dict[tuple[object, ...], WideRank] = {}


def _wide_best(held: dict[int, int], lead: Lead, n: int, protect: bool, ctx: TrumpContext) -> WideRank:
    """The best rank any `n` of the held led-suit cards reach against a wide lead (searched over the
    tuples taken from each face; singles fill the rest)."""
    caps = _wide_caps(lead, ctx)
    key = (ctx.level, ctx.trump, ctx.rules, tuple(sorted(held.items())), caps, n, protect)
    found = _WIDE_BEST.get(key)
    if found is not None:
        return found
    faces = [(f, c) for f, c in held.items() if c >= 2]
    best: list[WideRank] = []
    chosen: dict[int, int] = {}

    def walk(i: int, budget: int) -> None:
        if i == len(faces):
            rank = _wide_rank(chosen, caps, ctx, exact=protect)
            if not best or rank > best[0]:
                best[:] = [rank]
            return
        face, copies = faces[i]
        walk(i + 1, budget)
        for take in ((copies,) if protect else range(2, copies + 1)):
            if take <= budget:
                chosen[face] = take
                walk(i + 1, budget - take)
                del chosen[face]

    walk(0, n)
    if len(_WIDE_BEST) > 20000:
        _WIDE_BEST.clear()
    _WIDE_BEST[key] = best[0]
    return best[0]


def _wide_problem(lead: Lead, held: dict[int, int], in_suit: dict[int, int], play: Sequence[Card],
                  protect: bool, best: WideRank, got: WideRank, ctx: TrumpContext) -> Reason | None:
    """Why a full led-suit answer to a lead holding triples or quads breaks the wide ladder (whose
    highest rung the hand reaches is `best`, the play's `got`), or None (rules.md §4: seed 004's rungs
    for three decks; quads count as two pairs)."""
    if got >= best:
        wide = sorted((c for c in in_suit.values() if c >= 3), reverse=True)[:got[0] + got[3]]
        if protect and _skips_genuine(held, in_suit, {3: got[3], 2: got[4] - sum(c // 2 for c in wide)}):
            return lambda: (f"must follow {_lead_words(lead)} with the tuples held as they are "
                            f"(holds {_pretty(held, ctx)}), not with cards taken out of a wider tuple; "
                            f"played {pretty_cards(play)}")
        return None
    return lambda: (f"must follow {_lead_words(lead)} with {_describe_rank(best, lead)} (holds {_pretty(held, ctx)}) "
                    f"but played {pretty_cards(play)}")


def _describe_rank(rank: WideRank, lead: Lead) -> str:
    """The rung a wide rank stands for, in words and with the lead's card count: `a triple`, `a triple,
    a pair and 1 other card`, `a 2-pair tractor and 2 other cards` (seed 004's rungs; the rank's counts
    overlap, a triple tractor's triples being triples and its pairs pairs, so each card is named once)."""
    quads, t3, t2, triples, pairs = rank
    quad_tractor = any(unit.width == 4 and unit.length >= 2 for unit in lead.units)
    width = 4 if quad_tractor else 3
    loose_quads = quads - sum(t3) if quad_tractor else quads
    loose_triples = triples if quad_tractor else max(0, triples - sum(t3))
    pair_pieces = list(t2)
    for piece in t3:  # a triple (quad) tractor is also a pair tractor: named once
        if piece in pair_pieces:
            pair_pieces.remove(piece)
    loose_pairs = max(0, pairs - 2 * loose_quads - (width // 2) * sum(t3) - sum(pair_pieces) - loose_triples)
    tuple_word = "quad" if quad_tractor else "triple"
    parts = [_count(loose_quads, "quad"), *(f"a {length}-{tuple_word} tractor" for length in t3),
             *(f"a {length}-pair tractor" for length in pair_pieces), _count(loose_triples, "triple"),
             _count(loose_pairs, "pair")]
    taken = 4 * loose_quads + width * sum(t3) + 2 * sum(pair_pieces) + 3 * loose_triples + 2 * loose_pairs
    return _with_others([part for part in parts if part], lead.size - taken)


def _describe_pairs(rank: tuple[int, tuple[int, ...]], lead: Lead) -> str:
    """The rung a two-deck rank (P, T) stands for, in words and with the lead's card count: `a 3-pair
    tractor and a 2-pair tractor`, `2 pairs and 1 other card`."""
    pairs, pieces = rank
    parts = [f"a {length}-pair tractor" for length in pieces] + [_count(pairs - sum(pieces), "pair")]
    return _with_others([part for part in parts if part], lead.size - 2 * pairs)


def _count(number: int, noun: str) -> str:
    """`a pair`, `2 pairs`, or '' for none."""
    return "" if number <= 0 else f"a {noun}" if number == 1 else f"{number} {noun}s"


def _with_others(parts: list[str], others: int) -> str:
    """Structure parts joined, then the cards left free: `a triple, a pair and 1 other card`."""
    if others > 0:
        parts.append(f"{others} other card{'s' if others > 1 else ''}" if parts else
                     f"any {others} card{'s' if others > 1 else ''}")
    return ", ".join(parts[:-1]) + " and " + parts[-1] if len(parts) > 1 else parts[0] if parts else "singles"


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
    if ctx.rules.bombs == "allow" and held_count and n >= 4:  # bombs of other suits (§9 `allow`)
        for face, copies in hand.items():
            if copies >= n and face not in held:
                yield [Card.from_index(face)] * n
    if held_count <= n:
        others = {f: c for f, c in hand.items() if c and f not in held}
        for filler in _multisets(others, n - held_count):
            yield _cards_of(held, ctx) + _cards_of(filler, ctx)
    else:
        bombs = ctx.rules.bombs != "none"
        best = _ladder_best(lead, held, ctx)
        for choice in _multisets(held, n):
            cards = _cards_of(choice, ctx)
            if best is None or _ladder_verdict(lead, held, choice, cards, ctx, best) is None \
                    or bombs and is_bomb(choice):
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
        if follow_verdict(lead, hand, guess, ctx) is None:
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
    """Every single-combination lead: singles, tuples and tractors of every width (throws are not
    listed); at a shared position (副级牌) every face can take part, and with `ace_two_wrap` the A pair
    can sit below the 2s."""
    for suit in range(5):
        held = _suit_part(hand, suit, ctx)
        if not held:
            continue
        faces = [f for f in ctx.faces_by_suit[suit] if f in held]
        for face in faces:
            for width in range(1, held[face] + 1):
                yield [Card.from_index(face)] * width
        for width in range(2, max(held.values()) + 1):
            yield from _tractor_leads([f for f in faces if held[f] >= width], ctx, width)


def _tractor_leads(pair_faces: list[int], ctx: TrumpContext, width: int = 2) -> Iterator[list[Card]]:
    """Tractors of tuples of `width` copies from faces holding that many (pairs by default)."""
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
                    cards = [Card.from_index(f) for f in run for _ in range(width)]
                    if Combination.of(cards, ctx).kind == "tractor":
                        yield cards


__all__ = ["Lead", "follow_problem", "follow_verdict", "forms_lead_shape", "legal_follows",
           "legal_leads", "lenient_shapes", "random_follow", "suit_label", "parse_cards", "face_counts",
           "TrumpContext"]
