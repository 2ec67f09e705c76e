"""Lookalikes of a 升级 deal (training.md §4 "Patterns, not puzzles"): the same deal with the four suits renamed.

A lookalike applies one permutation of the suits to every card of a record (hands, kitty, buried cards,
plays, failed-throw attempts, declarations) and to the trump suit, so the trump suit is renamed to the suit
its cards went to and the side suits are permuted among the rest; jokers and ranks (so the level) are
unchanged. The structure — who holds what, every trick's winner and points, the result — stays; the cards
the player sees change.

>>> from trainer.engine import Card
>>> str(rename_card(Card.parse("10H"), (Suit.C, Suit.D, Suit.S, Suit.H))), str(rename_card(Card.parse("BJ"), (Suit.C, Suit.D, Suit.S, Suit.H)))
('10D', 'BJ')
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from itertools import permutations
from typing import Any

from trainer.drills.questions import QUESTION_TYPES, Question, Subject
from trainer.drills.runs import position_after, snapshot_after
from trainer.engine.cards import Card, Suit
from trainer.engine.errors import JipaiError
from trainer.records import DealRecord, InvalidRecordError, parse_record, record_id, replay, verify_summary
from trainer.tracking.facts import facts_json
from trainer.tracking.tracker import public_events

Renaming = tuple[Suit, Suit, Suit, Suit]
"""The suits S, H, C, D go to these suits, in that order."""

_RENAMINGS: tuple[Renaming, ...] = tuple(p for p in permutations(Suit) if p != tuple(Suit))
"""The 23 renamings that change something."""


def rename_card(card: Card, renaming: Renaming) -> Card:
    """The card with its suit renamed (a joker unchanged)."""
    if card.suit is None:
        return card
    return Card.from_index(renaming[card.suit] * 13 + card.rank - 2)


def _names(cards: Sequence[str], renaming: Renaming) -> list[str]:
    return [str(rename_card(Card.parse(text), renaming)) for text in cards]


def renamed_record(record: DealRecord, renaming: Renaming) -> DealRecord:
    """The record with every card and the trump suit renamed, a new content-hash id, the original's
    `notes` dropped (they name its cards) and `source` saying which deal it came from and how."""
    data: dict[str, Any] = record.to_json()
    data.pop("id", None)
    data.pop("notes", None)
    if record.ctx.trump is not None:
        data["trump"] = renaming[record.ctx.trump].letter
    data["hands"] = [_names(hand, renaming) for hand in data["hands"]]
    data["kitty"] = _names(data["kitty"], renaming)
    data["buried"] = _names(data["buried"], renaming)
    tricks = []
    for raw in data["tricks"]:
        trick = dict(raw, plays=[_names(play, renaming) for play in raw["plays"]])
        if "attempt" in raw:
            trick["attempt"] = _names(raw["attempt"], renaming)
        tricks.append(trick)
    data["tricks"] = tricks
    if isinstance(data.get("declarations"), list):
        data["declarations"] = [dict(d, cards=_names(d["cards"], renaming)) for d in data["declarations"]]
    data["source"] = {"kind": "lookalike", "of": record.id, "suits": "".join(s.letter for s in renaming)}
    data["id"] = record_id(data)
    return parse_record(data)


def renamings(seed: int) -> tuple[Renaming, ...]:
    """The 23 non-identity renamings in the order `seed` tries them."""
    order = list(_RENAMINGS)
    random.Random(seed).shuffle(order)
    return tuple(order)


def _outcome(record: DealRecord) -> dict[str, Any] | None:
    """What a lookalike must keep: the verify summary without the id; None when the record does not verify."""
    try:
        summary = verify_summary(replay(record))
    except JipaiError:
        return None
    summary.pop("id")
    return summary


def lookalike(record: DealRecord, seed: int) -> DealRecord | None:
    """A lookalike of a valid record (its renaming is `lookalike_renaming` of it): the first of `renamings(seed)` whose renamed record
    verifies with the same trick leaders, winners, points, penalties, kitty and result; None when none does
    (a tie broken by suit order, such as which of two equal trump level cards a failed throw must keep,
    can make a renamed record illegal)."""
    wanted = _outcome(record)
    if wanted is None:
        raise InvalidRecordError("a lookalike needs a record that verifies")
    for renaming in renamings(seed):
        candidate = renamed_record(record, renaming)
        if _outcome(candidate) == wanted:
            return candidate
    return None


def lookalike_renaming(record: DealRecord) -> Renaming | None:
    """The renaming a lookalike was made with (from its `source`), None for a record that is no lookalike."""
    source = record.data.get("source")
    if not isinstance(source, dict) or source.get("kind") != "lookalike":
        return None
    return tuple(Suit.parse(letter) for letter in source["suits"])  # type: ignore[return-value]


def carried_subject(question: Question, renaming: Renaming) -> Subject:
    """What `question` is about, renamed: its suit, and its card (or cards, comma-separated) or seat."""
    suit = question.suit if question.suit in (None, "trump") else renaming[Suit.parse(question.suit)].letter
    if question.card is not None:
        return suit, ",".join(_names(question.card.split(","), renaming))
    return suit, None if question.seat is None else str(question.seat)


def carried_question(question: Question, look: DealRecord, seat: int, plays: int, renaming: Renaming,
                     rng: random.Random) -> Question | None:
    """`question` (asked of `seat` after `plays` plays of the original) carried over to its lookalike `look`:
    the same type at the same moment about the renamed subject (`carried_subject`), the answer recomputed by the tracker on
    `look` (a single choice's options shuffled by `rng`); None when the type cannot be rebuilt there (a
    type that is no tracker question, such as a signal quiz)."""
    qtype = QUESTION_TYPES.get(question.type)
    if qtype is None:
        return None
    suit, card = carried_subject(question, renaming)
    snap = snapshot_after(look, seat, plays, list(public_events(look)))
    try:
        rebuilt = qtype.build(facts_json(snap, str(position_after(look, plays))), snap, (suit, card))
    except (KeyError, ValueError):
        return None
    if (rebuilt.fact, rebuilt.suit, rebuilt.seat) != (question.fact, suit, question.seat) or (
            rebuilt.card is not None and rebuilt.card != card):
        return None
    if rebuilt.kind == "single":
        return replace(rebuilt, options=rng.sample(rebuilt.options, len(rebuilt.options)))
    return rebuilt
