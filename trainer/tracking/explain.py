"""Explanations: which cards account for each tier-1 fact ("trumps played: trick 2 BJ 5H; …").

Each function takes the viewer's snapshot and the public plays up to that position (what the
viewer saw) and answers in words; the review screen shows these beside the facts.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence

from trainer.engine.cards import Card, pretty_cards
from trainer.engine.combos import TUPLE_NAMES
from trainer.engine.trump import SUIT_NAMES, TRUMP
from trainer.tracking.facts import listed_suits, top_faces, tractor_key, tuple_key, voids
from trainer.tracking.tracker import FACE_POINTS, PlayEvent, Snapshot

Predicate = Callable[[int], bool]


def _suit_label(suit: int) -> str:
    return "trump" if suit == TRUMP else "♠♥♣♦"[suit]


def played_where(events: Sequence[PlayEvent], wanted: Predicate) -> str:
    """The played cards that satisfy `wanted`, trick by trick: `trick 2 大王 5♥; trick 5 …`."""
    by_trick: dict[int, list[Card]] = {}
    for event in events:
        cards = [card for card in event.cards if wanted(card.index)]
        if cards:
            by_trick.setdefault(event.trick, []).extend(cards)
    return "; ".join(f"trick {number} {pretty_cards(cards)}" for number, cards in by_trick.items()) or "none"


def _held(counts: Sequence[int], snap: Snapshot, wanted: Predicate) -> str:
    faces = [f for f in range(54) if counts[f] and wanted(f)]
    faces.sort(key=snap.ctx.sort_key.__getitem__)
    return pretty_cards(Card.from_index(f) for f in faces for _ in range(counts[f])) or "none"


def account(snap: Snapshot, events: Sequence[PlayEvent], wanted: Predicate, what: str) -> list[str]:
    """Where every card matching `wanted` is, as the viewer knows it: played (by trick), in my
    hand, in the kitty I know, and the rest unseen."""
    total = sum(snap.ctx.rules.decks for f in range(54) if wanted(f))
    lines = [f"{what}: {total} in all",
             f"played ({sum(snap.played[f] for f in range(54) if wanted(f))}): {played_where(events, wanted)}",
             f"mine ({sum(snap.mine[f] for f in range(54) if wanted(f))}): {_held(snap.mine, snap, wanted)}"]
    known = sum(snap.kitty_known[f] for f in range(54) if wanted(f))
    if known:
        lines.append(f"kitty ({known}): {_held(snap.kitty_known, snap, wanted)}")
    lines.append(f"unseen ({sum(snap.unseen[f] for f in range(54) if wanted(f))}): {_held(snap.unseen, snap, wanted)}")
    return lines


def explain(snap: Snapshot, events: Sequence[PlayEvent], field: str, suit: str | None = None,
            seat: int | None = None) -> list[str]:
    """The cards and plays that account for one tier-1 fact (`field` as in tracking.md, with the
    suit name for `suits.*` fields and the seat for per-seat fields)."""
    ctx = snap.ctx
    suit_number = SUIT_NAMES.index(suit) if suit is not None else None

    def in_suit(face: int) -> bool:
        return ctx.suit_of[face] == suit_number

    def trump(face: int) -> bool:
        return ctx.suit_of[face] == TRUMP

    if field.startswith("trumps."):
        if field == "trumps.top":
            return [line for face in top_faces(ctx)
                    for line in account(snap, events, lambda f, face=face: f == face, Card.from_index(face).pretty)]
        return account(snap, events, trump, "trumps")
    if field.startswith("suits."):
        if suit_number is None:
            raise ValueError("a suits.* field needs a suit")
        return _explain_suit(snap, events, field.removeprefix("suits."), suit_number, in_suit)
    if field in ("voids", "revealed_voids", "no_pairs"):
        if seat is None:
            raise ValueError(f"{field} needs a seat")
        return _explain_seat_suits(snap, events, field, seat)
    if field in ("points_won", "score", "score.attackers", "score.banker_side", "score.unplayed",
                 "score.to_take_over"):
        return _explain_points(snap, events)
    if field == "hand_sizes":
        return [f"seat {q}: {snap.ctx.rules.hand_size} dealt, {sum(len(e.cards) for e in events if e.seat == q)} "
                f"played, {snap.hand_sizes[q]} left" for q in range(4)]
    if field == "trick":
        trick = snap.trick
        lines = [f"trick {trick.number}: seat {trick.leader} leads"]
        if trick.attempt is not None and trick.plays:
            lines.append(f"tried to throw {pretty_cards(trick.attempt)}, forced to {pretty_cards(trick.plays[0])}")
        lines += [f"seat {(trick.leader + i) % 4}: {pretty_cards(play)}" for i, play in enumerate(trick.plays)]
        if trick.winning is not None and trick.plays:
            lines.append(f"seat {trick.winning} is winning")
        return lines
    raise ValueError(f"no explanation for the field {field!r}")


COPIES_WORDS = {2: "two", 3: "three", 4: "four"}
"""How the live-tuple lines name the unseen copies a tuple of each width needs."""


def live_width(name: str) -> int:
    """The tuple width a live-tuple suit fact is about (`live_pairs`, `live_tractors` 2; `live_triples`,
    `live_triple_tractors` 3; `live_quads`, `live_quad_tractors` 4), or 0 for another fact."""
    for width in (2, 3, 4):
        if name in (tuple_key(width), tractor_key(width)):
            return width
    return 0


def _explain_suit(snap: Snapshot, events: Sequence[PlayEvent], name: str, suit: int,
                  in_suit: Predicate) -> list[str]:
    ctx = snap.ctx
    label = _suit_label(suit)
    if name in ("played", "mine", "unseen", "unseen_cards"):
        return account(snap, events, in_suit, f"{label} cards")
    if name in ("points_unplayed", "points_unseen"):
        return account(snap, events, lambda f: in_suit(f) and FACE_POINTS[f] > 0, f"{label} point cards (5, 10, K)")
    if name in ("top_unplayed", "top_in_play", "top_unseen", "higher_than_mine"):
        faces = ctx.faces_by_suit[suit]
        lines = []
        for face in faces:
            where = []
            if snap.played[face]:
                where.append(f"played: {played_where(events, lambda f, face=face: f == face)}")
            if snap.mine[face]:
                where.append(f"mine ×{snap.mine[face]}")
            if snap.kitty_known[face]:
                where.append(f"kitty ×{snap.kitty_known[face]}")
            if snap.unseen[face]:
                where.append(f"unseen ×{snap.unseen[face]}")
            lines.append(f"{Card.from_index(face).pretty}: " + ", ".join(where))
        return lines
    width = live_width(name)
    if width:
        unit = TUPLE_NAMES[width]
        unseen_by_suit = [sum(snap.unseen[f] for f in ctx.faces_by_suit[s]) for s in range(5)]
        lines = [f"{label} faces with {COPIES_WORDS[width]} unseen copies: "
                 + (pretty_cards(Card.from_index(f) for f in ctx.faces_by_suit[suit] if snap.unseen[f] >= width)
                    or "none")]
        for q in range(4):
            if q == snap.seat:
                continue
            reasons = []
            if voids(snap, q, unseen_by_suit) >> suit & 1:
                reasons.append(f"void in {label}")
            if snap.no_pairs[q] >> suit & 1:
                reasons.append(f"shown to hold no {label} pair")
            if snap.hand_sizes[q] < width:
                reasons.append(f"{snap.hand_sizes[q]} card(s) left")
            lines.append(f"seat {q}: " + ("; ".join(reasons) + f", cannot hold a {unit}" if reasons else "could hold one"))
        lines.append(f"the kitty never makes a {unit} live")
        return lines
    raise ValueError(f"no explanation for the field suits.{name!r}")


def _explain_seat_suits(snap: Snapshot, events: Sequence[PlayEvent], field: str, seat: int) -> list[str]:
    ctx = snap.ctx
    lines = []
    lead_of: dict[int, PlayEvent] = {}
    for event in events:
        if event.trick not in lead_of:
            lead_of[event.trick] = event
            continue
        lead = event.lead
        in_suit = [c for c in event.cards if ctx.suit_of[c.index] == lead.suit]
        if event.seat != seat:
            continue
        if len(in_suit) < lead.size and field != "no_pairs":
            lines.append(f"trick {event.trick}: seat {seat} played {pretty_cards(event.cards)} on the "
                         f"{_suit_label(lead.suit)} lead {pretty_cards(lead_of[event.trick].cards)}: void in "
                         f"{_suit_label(lead.suit)}")
        elif field == "no_pairs" and snap.no_pairs[seat] >> lead.suit & 1 and lead.pairs and len(in_suit) == lead.size:
            lines.append(f"trick {event.trick}: seat {seat} answered {pretty_cards(lead_of[event.trick].cards)} with "
                         f"{pretty_cards(event.cards)}: no {_suit_label(lead.suit)} pair left")
    if field == "voids":
        for suit in listed_suits(ctx):
            if not any(snap.unseen[f] for f in ctx.faces_by_suit[suit]):
                lines.append(f"no {_suit_label(suit)} card is unseen: every one is played, mine or known in the kitty")
        if not snap.hand_sizes[seat]:
            lines.append(f"seat {seat} has no cards left")
    return lines or ["nothing shown yet"]


def _explain_points(snap: Snapshot, events: Sequence[PlayEvent]) -> list[str]:
    lines = []
    tricks: dict[int, list[PlayEvent]] = {}
    for event in events:
        tricks.setdefault(event.trick, []).append(event)
    for number, plays in tricks.items():
        if len(plays) == 4:
            points = [c for e in plays for c in e.cards if c.points]
            winner = plays[-1].winning
            side = "attackers" if (winner - snap.banker) % 2 else "banker side"
            lines.append(f"trick {number}: seat {winner} ({side}) won {sum(c.points for c in points)} "
                         f"({pretty_cards(points) or 'no point cards'})")
        if plays[0].attempt is not None and plays[0].penalty:
            lines.append(f"trick {number}: failed throw, {plays[0].penalty:+d} to the attackers")
    if snap.kitty_bonus:
        lines.append(f"kitty bonus {snap.kitty_bonus:+d} to the attackers")
    return lines or ["no trick finished yet"]
