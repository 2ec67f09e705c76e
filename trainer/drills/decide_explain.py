"""The deciding lines of the decision questions (training.md §2), in the tracker's English with seat
numbers, like the other types' (`trainer.drills.explain`); `trainer.web.decision_text` translates them.

Each line says what tier 2 proves: which seats could hold the cards that matter ("A♠ could be with:
seat 1, the kitty"), and for the seats that cannot, why.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from trainer.drills.decide import certain_cards, inference_of, subject_cards
from trainer.drills.questions import Question, SIDE_SUITS
from trainer.engine.cards import Card, pretty_cards
from trainer.engine.follow import suit_label
from trainer.engine.trump import TRUMP
from trainer.tracking.decisions import can_ruff, max_trumps, throw_verdict, who_beats
from trainer.tracking.inference import KITTY, Inference
from trainer.tracking.tracker import PlayEvent, Snapshot



class Where(Protocol):
    """What a decider reads of a position: what the viewer knows and the plays so far."""

    snap: Snapshot
    events: Sequence[PlayEvent]


Decider = Callable[[Question, Where], list[str]]


def holder_name(holder: int) -> str:
    """`seat 2`, or `the kitty`."""
    return "the kitty" if holder == KITTY else f"seat {holder}"


def could_hold(inference: Inference, face: int) -> str:
    """Where an unseen card could be: `A♠ could be with: seat 1, the kitty`."""
    places = [holder_name(h) for h in inference.holders if inference.bounds(h, face)[1] >= 1]
    return f"{Card.from_index(face).pretty} could be with: {', '.join(places)}"


def _throw_safe(question: Question, where: Where) -> list[str]:
    snap = where.snap
    inference = inference_of(snap)
    cards = subject_cards(question)
    verdict = throw_verdict(inference, cards)
    if verdict.safe:
        ctx = snap.ctx
        suit = ctx.suit_of[cards[0].index]
        low = min(u.top for u in verdict.units)
        higher = [f for f in ctx.faces_by_suit[suit] if snap.unseen[f] and ctx.strength[f] > low]
        return [f"Safe: no seat can beat any part of {pretty_cards(verdict.cards)}"] + [
            could_hold(inference, f) for f in higher]
    lines, seen = [], set()
    for index, seat, beating in verdict.beaten_by:
        if (index, seat) not in seen:
            seen.add((index, seat))
            lines.append(f"Not safe: seat {seat} could beat {pretty_cards(verdict.units[index].cards())} "
                         f"with {pretty_cards(beating)}")
    return lines


def _who_beats(question: Question, where: Where) -> list[str]:
    snap = where.snap
    inference = inference_of(snap)
    card = subject_cards(question)[0]
    ctx = snap.ctx
    seats = who_beats(inference, card)
    head = (f"Could beat {card.pretty}: " + ", ".join(f"seat {q}" for q in seats) if seats
            else f"No seat can beat {card.pretty}")
    higher = [f for f in ctx.faces_by_suit[ctx.suit_of[card.index]]
              if snap.unseen[f] and ctx.strength[f] > ctx.strength[card.index]]
    return [head] + [could_hold(inference, f) for f in higher]


def _who_ruffs(question: Question, where: Where) -> list[str]:
    snap = where.snap
    inference = inference_of(snap)
    suit = SIDE_SUITS.index(question.suit or "S")
    label = suit_label(suit)
    seats = [int(q) for q in question.answer]
    lines = [f"Could ruff {label}: " + ", ".join(f"seat {q}" for q in seats) if seats else f"No seat can ruff {label}"]
    for q in (h for h in inference.holders if h != KITTY and not can_ruff(inference, h, suit)):
        if inference.suit_bounds(q, suit)[0] > 0:
            lines.append(f"seat {q} must still hold a {label} card")
        elif inference.suit_bounds(q, TRUMP)[1] == 0:
            lines.append(f"seat {q} can hold no trump")
        else:
            lines.append(f"seat {q} cannot be void in {label} and hold a trump at once")
    return lines


def _max_trumps(question: Question, where: Where) -> list[str]:
    snap = where.snap
    seat = question.seat if question.seat is not None else 0
    out = sum(snap.unseen[f] for f in snap.ctx.faces_by_suit[TRUMP])
    most = max_trumps(inference_of(snap), seat)
    return [f"seat {seat}: {snap.hand_sizes[seat]} cards in hand, {out} trumps out, the most it could hold: {most}"]


def _must_hold(question: Question, where: Where) -> list[str]:
    snap = where.snap
    inference = inference_of(snap)
    face = subject_cards(question)[0].index
    seat = certain_cards(snap).get(face)
    head = (f"{Card.from_index(face).pretty}: seat {seat} holds it in every consistent distribution"
            if seat is not None else f"{Card.from_index(face).pretty}: no seat is certain to hold it")
    return [head, could_hold(inference, face)]


DECISION_DECIDERS: dict[str, Decider] = {"throw_safe": _throw_safe, "who_beats": _who_beats,
                                         "who_ruffs": _who_ruffs, "max_trumps": _max_trumps,
                                         "must_hold": _must_hold}
"""The deciding lines of each decision type."""
