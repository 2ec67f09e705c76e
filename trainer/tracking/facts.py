"""Tier-1 counting facts (tracking.md's first table) read from a `Snapshot`, as the JSON of `deal track`."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from trainer.engine.cards import RANK_NAMES, Card, Suit
from trainer.engine.combos import TUPLE_NAMES
from trainer.engine.trump import SUIT_NAMES, TRUMP, TrumpContext
from trainer.tracking.tracker import FACE_POINTS, Snapshot


def listed_suits(ctx: TrumpContext) -> list[int]:
    """The effective suits in listing order: the side suits S, H, C, D (not the trump suit), then trump."""
    return [s for s in Suit if s != ctx.trump] + [TRUMP]


def _cards(counts: Sequence[int], faces: Sequence[int]) -> list[str]:
    return [str(Card.from_index(f)) for f in faces for _ in range(counts[f])]


def _top(counts: Sequence[int], faces: Sequence[int], ctx: TrumpContext) -> list[str]:
    """The strongest faces present in `counts` (all faces of that strength), strongest first."""
    strength = ctx.strength
    best = None
    found: list[str] = []
    for face in faces:
        if counts[face]:
            if best is None:
                best = strength[face]
            elif strength[face] != best:
                break
            found.append(str(Card.from_index(face)))
    return found


def top_faces(ctx: TrumpContext) -> list[int]:
    """The faces of `trumps.top`: jokers, the trump suit's level card, the other level cards S H C D,
    and with fixed twos the 2s the same way."""
    ranks = [ctx.level] + ([2] if ctx.rules.fixed_twos and ctx.level != 2 else [])
    faces = [53, 52]
    for rank in ranks:
        suits = ([ctx.trump] if ctx.trump is not None else []) + [s for s in Suit if s != ctx.trump]
        faces.extend(s * 13 + rank - 2 for s in suits)
    return faces


def voids(snap: Snapshot, seat: int, unseen_by_suit: Sequence[int]) -> int:
    """Bits of the suits `seat` is known void in (revealed, no unseen card left, or an empty hand)."""
    known = snap.revealed_voids[seat]
    for suit in range(5):
        if not unseen_by_suit[suit] or not snap.hand_sizes[seat]:
            known |= 1 << suit
    return known


def _suit_list(bits: int, suits: Sequence[int]) -> list[str]:
    return [SUIT_NAMES[s] for s in suits if bits >> s & 1]


def live_tuple_faces(snap: Snapshot, suit: int, void_bits: Sequence[int], width: int = 2,
                     in_tractor: bool = False) -> list[int]:
    """Faces of `suit` with `width`+ unseen copies that some other seat could still hold as a tuple of
    that width (a pair, triple or quad): not void in the suit, not shown pairless, `width`+ cards in hand;
    `in_tractor`: as part of a tractor, so not shown to hold no tractor in the suit either."""
    shown = [snap.no_pairs[q] | (snap.no_tractors[q] if in_tractor else 0) for q in range(4)]
    holders = [q for q in range(4) if q != snap.seat and not (void_bits[q] >> suit & 1)
               and not (shown[q] >> suit & 1) and snap.hand_sizes[q] >= width]
    if not holders:
        return []
    return [f for f in snap.ctx.faces_by_suit[suit] if snap.unseen[f] >= width]


def listed_widths(decks: int) -> range:
    """The tuple widths whose live faces and tractors are listed: pairs always (none can be live with one
    deck), triples with three or four decks, quads with four."""
    return range(2, max(decks, 2) + 1)


def live_tractors(faces: Sequence[int], ctx: TrumpContext) -> list[list[str]]:
    """Maximal runs of 2+ consecutive positions among live tuples' `faces` (one width; strongest first)."""
    runs: list[list[int]] = []
    for face in faces:
        if runs and ctx.position[runs[-1][-1]] - ctx.position[face] in (0, 1):
            runs[-1].append(face)
        else:
            runs.append([face])
    return [[str(Card.from_index(f)) for f in run] for run in runs
            if len({ctx.position[f] for f in run}) >= 2]


def tuple_key(width: int) -> str:
    """The suit fact listing the live tuples of `width`: `live_pairs`, `live_triples`, `live_quads`."""
    return f"live_{TUPLE_NAMES[width]}s"


def tractor_key(width: int) -> str:
    """The suit fact listing the live tractors of tuples of `width`: `live_tractors` for pairs (tracking.md),
    `live_triple_tractors` and `live_quad_tractors` for the wider ones."""
    return "live_tractors" if width == 2 else f"live_{TUPLE_NAMES[width]}_tractors"


def facts_json(snap: Snapshot, at: str) -> dict[str, Any]:
    """The tier-1 JSON object of tracking.md for this snapshot, keys and lists in the fixed order."""
    ctx = snap.ctx
    step = ctx.rules.level_step
    faces_by_suit = ctx.faces_by_suit
    unseen_by_suit = [sum(snap.unseen[f] for f in faces_by_suit[s]) for s in range(5)]
    others = [q for q in range(4) if q != snap.seat]
    void_bits = [voids(snap, q, unseen_by_suit) for q in range(4)]
    suits = listed_suits(ctx)
    widths = listed_widths(ctx.rules.decks)
    settled = snap.kitty_revealed
    suit_facts = {}
    in_play = [snap.mine[f] + snap.unseen[f] for f in range(54)]
    unplayed = [0 if settled else ctx.rules.decks - snap.played[f] for f in range(54)]
    for suit in suits:
        faces = faces_by_suit[suit]
        live = {width: live_tuple_faces(snap, suit, void_bits, width) for width in widths}
        entry = suit_facts[SUIT_NAMES[suit]] = {
            "played": sum(snap.played[f] for f in faces),
            "mine": sum(snap.mine[f] for f in faces),
            "unseen": unseen_by_suit[suit],
            "points_unplayed": sum(unplayed[f] * FACE_POINTS[f] for f in faces),
            "points_unseen": sum(snap.unseen[f] * FACE_POINTS[f] for f in faces),
            "top_unplayed": _top(unplayed, faces, ctx),
            "top_in_play": _top(in_play, faces, ctx),
            "top_unseen": _top(snap.unseen, faces, ctx),
            "unseen_cards": _cards(snap.unseen, faces),
            "higher_than_mine": {str(Card.from_index(f)): sum(snap.unseen[g] for g in faces
                                                              if ctx.strength[g] > ctx.strength[f])
                                 for f in faces if snap.mine[f]},
        }
        for width in widths:
            entry[tuple_key(width)] = [str(Card.from_index(f)) for f in live[width]]
        for width in widths:
            entry[tractor_key(width)] = live_tractors(live_tuple_faces(snap, suit, void_bits, width, True), ctx)
    trump_faces = faces_by_suit[TRUMP]
    attackers = sum(p for q, p in enumerate(snap.points_won) if (q - snap.banker) % 2 == 1)
    attackers_score = attackers + snap.penalties + snap.kitty_bonus
    table = sum(FACE_POINTS[c.index] for play in snap.trick.plays for c in play) if len(snap.trick.plays) < 4 else 0
    unplayed_points = 0 if settled else ctx.rules.total_points - sum(snap.points_won) - table
    trick: dict[str, Any] = {"leader": snap.trick.leader}
    if snap.trick.attempt is not None and snap.trick.plays:
        trick["attempt"] = [str(c) for c in snap.trick.attempt]
    trick["plays"] = [[str(c) for c in play] for play in snap.trick.plays]
    trick["winning"] = snap.trick.winning if snap.trick.plays else None
    return {
        "seat": snap.seat, "at": at, "level": RANK_NAMES[ctx.level],
        "trump": "none" if ctx.trump is None else ctx.trump.letter,
        "trumps": {"played": sum(snap.played[f] for f in trump_faces),
                   "mine": sum(snap.mine[f] for f in trump_faces),
                   "unseen": unseen_by_suit[TRUMP],
                   "unseen_cards": _cards(snap.unseen, trump_faces),
                   "top": {str(Card.from_index(f)): snap.unseen[f] for f in top_faces(ctx)}},
        "suits": suit_facts,
        "voids": {str(q): _suit_list(void_bits[q], suits) for q in others},
        "revealed_voids": {str(q): _suit_list(snap.revealed_voids[q], suits) for q in range(4)},
        "no_pairs": {str(q): _suit_list(snap.no_pairs[q], suits) for q in others},
        "no_tractors": {str(q): _suit_list(snap.no_tractors[q], suits) for q in others},
        "points_won": list(snap.points_won),
        "score": {"attackers": attackers_score,
                  "banker_side": sum(snap.points_won) - attackers,
                  "unplayed": unplayed_points,
                  "to_take_over": max(2 * step - attackers_score, 0)},
        "hand_sizes": list(snap.hand_sizes),
        "trick": trick,
    }
