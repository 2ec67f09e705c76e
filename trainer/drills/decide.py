"""Decision questions (training.md §2): the payoff of counting, answered exactly by tier-2 inference.

`throw_safe` (甩牌安全吗), `who_beats` (谁还能管上我的X), `who_ruffs` (谁还能毙这门), `max_trumps`
(下家/对家/上家最多还有几张主) and `must_hold` (谁一定有X), registered with the other question types. A
type's answer at the opening of play (the trivial answer `questions.informative` compares with) is
what the seat could say before any card was seen: every seat can beat or ruff, a seat can hold as
many trumps as are out or its hand holds; `throw_safe` and `must_hold` have none (their answers are
balanced by the subject drawn instead, docs/decisions.md).
"""
from __future__ import annotations

import random
from typing import Any

from trainer.drills.questions import (QUESTION_TYPES, SIDE_SUITS, SUIT_WORDS, Question, QuestionType, Subject,
                                      _seat_options)
from trainer.engine.cards import Card, pretty_cards
from trainer.engine.combos import decompose, face_counts
from trainer.engine.trump import SUIT_NAMES
from trainer.tracking.decisions import (beating_combinations, max_trumps, must_hold, seats_of, throw_verdict,
                                        who_beats, who_ruffs)
from trainer.tracking.inference import Inference
from trainer.tracking.tracker import Snapshot

DECISION_TYPES = ("throw_safe", "who_beats", "who_ruffs", "max_trumps", "must_hold")
"""The question types of this module (the `decisions` family)."""
NEAR_TOP = 1
"""A throw a player would consider: every unit has at most this many combinations of unseen cards
that could beat it (0 = top, 1 = near-top), counted without inference."""
KEEP_UNSAFE = 0.5
"""Where every candidate throw is unsafe (most positions: some card above is out), the share of those
positions that ask (drawn from the position, the same every time), so that "safe" is not rare."""
KEEP_ZERO = 0.3
"""The share of the seats with no trump possible left (bound 0: most often a seat shown void in trumps
long ago) that `max_trumps` may ask about, so that "0" is not the answer of a third of its questions."""
BEAT_RANKS = (12, 13, 14)
"""`who_beats` is asked about a highest card of rank Q, K or A (the cards a player hopes hold)."""
NO_ANSWER = ""
"""The opening answer of a type that has none: never equal to a real answer."""
_last: tuple[Snapshot, Inference] | None = None


def inference_of(snap: Snapshot) -> Inference:
    """The tier-2 inference of `snap`, computed once while the same snapshot is asked about."""
    global _last
    last = _last
    if last is not None and last[0] is snap:
        return last[1]
    inference = Inference(snap)
    _last = (snap, inference)
    return inference


def _drawn(snap: Snapshot, what: str, share: float) -> bool:
    """A draw of probability `share` fixed by the position (the same checkpoint draws the same)."""
    return random.Random(f"{what}:{snap.seat}:{snap.trick.number}:{snap.hand_sizes}").random() < share


def _now(facts: dict[str, Any], snap: Snapshot) -> bool:
    """True when `facts` are `snap`'s own (not the opening's, where no card has left a hand)."""
    return facts["hand_sizes"] == list(snap.hand_sizes)


def _register(name: str, subjects: Any, build: Any) -> None:
    QUESTION_TYPES[name] = QuestionType(name, subjects, build)


SEAT_WORDS = {1: ("下家", "the next player (下家)"), 2: ("对家", "your partner (对家)"),
              3: ("上家", "the previous player (上家)")}
"""Seats named from the viewer inside a sentence."""


def _side_suits(snap: Snapshot) -> list[int]:
    return [s for s in range(4) if snap.ctx.trump is None or s != int(snap.ctx.trump)]


# -- throw_safe --------------------------------------------------------------------------------------

def throw_candidates(snap: Snapshot) -> list[tuple[int, list[Card]]]:
    """Per side suit, the throws a player would consider: the units of that suit in hand that are top
    (no combination of unseen cards could beat them), and those that are top or near-top (`NEAR_TOP`),
    each when it has two or more units."""
    inference = inference_of(snap)
    ctx = snap.ctx
    found = []
    for suit in _side_suits(snap):
        held = {f: snap.mine[f] for f in ctx.faces_by_suit[suit] if snap.mine[f]}
        rivals = [(unit, len(beating_combinations(unit, inference))) for unit in decompose(held, ctx)]
        throws = {tuple(ctx.sorted(c for unit, count in rivals if count <= near for c in unit.cards()))
                  for near in range(NEAR_TOP + 1)}
        found += [(suit, list(cards)) for cards in sorted(throws, key=len)
                  if len(decompose(face_counts(cards), ctx)) >= 2]
    return found


def _throw_subjects(facts: dict[str, Any], snap: Snapshot) -> list[list[Subject]]:
    """The candidate throws, the safe and the unsafe ones weighted alike (each class repeated to the
    other's number), so that a drawn candidate is safe about as often as not where both come up."""
    inference = inference_of(snap)
    classes: dict[bool, list[Subject]] = {True: [], False: []}
    for suit, cards in throw_candidates(snap):
        classes[throw_verdict(inference, cards).safe].append((SUIT_NAMES[suit], ",".join(map(str, cards))))
    safe, unsafe = classes[True], classes[False]
    if safe and unsafe:
        return [safe * len(unsafe) + unsafe * len(safe)]
    if unsafe and not _drawn(snap, "throw_safe", KEEP_UNSAFE):
        return []
    return [safe + unsafe] if safe or unsafe else []


def _throw_safe(facts: dict[str, Any], snap: Snapshot, subject: Subject) -> Question:
    suit, names = subject
    cards = [Card.parse(name) for name in (names or "").split(",")]
    shown = pretty_cards(cards)
    answer = NO_ANSWER
    if _now(facts, snap):
        answer = "yes" if throw_verdict(inference_of(snap), cards).safe else "no"
    return Question("throw_safe", "single", {"zh": f"现在甩{shown}安全吗？（没有人能管上其中任何一手）",
                                             "en": f"Is throwing {shown} safe now? (no one can beat any part of it)"},
                    answer, "suits.top_in_play", suit=suit, card=names,
                    options=[{"value": "yes", "label": {"zh": "安全", "en": "Safe"}},
                             {"value": "no", "label": {"zh": "不安全", "en": "Not safe"}}])


_register("throw_safe", _throw_subjects, _throw_safe)


# -- who_beats, who_ruffs ----------------------------------------------------------------------------

def _highest(snap: Snapshot, suit: int) -> int | None:
    return next((f for f in snap.ctx.faces_by_suit[suit] if snap.mine[f]), None)


def _beat_subjects(facts: dict[str, Any], snap: Snapshot) -> list[list[Subject]]:
    found = []
    for suit in _side_suits(snap):
        face = _highest(snap, suit)
        if face is not None and Card.from_index(face).rank in BEAT_RANKS:
            found.append((SUIT_NAMES[suit], str(Card.from_index(face))))
    return [found]


def _who_beats(facts: dict[str, Any], snap: Snapshot, subject: Subject) -> Question:
    suit, name = subject
    card = Card.parse(name or "")
    if _now(facts, snap):
        answer = [str(q) for q in who_beats(inference_of(snap), card)]
    else:
        higher = facts["suits"][suit]["higher_than_mine"].get(str(card), 0)
        answer = [str(q) for q in range(4) if q != snap.seat] if higher else []
    return Question("who_beats", "multi", {"zh": f"谁还可能管上你的{card.pretty}？",
                                           "en": f"Who could still beat your {card.pretty}?"},
                    answer, "suits.higher_than_mine", suit=suit, card=str(card), options=_seat_options(snap.seat))


_register("who_beats", _beat_subjects, _who_beats)


def _ruff_subjects(facts: dict[str, Any], snap: Snapshot) -> list[list[Subject]]:
    return [[(SUIT_NAMES[s], None) for s in _side_suits(snap)]]


def _who_ruffs(facts: dict[str, Any], snap: Snapshot, subject: Subject) -> Question:
    suit = subject[0] or ""
    if _now(facts, snap):
        answer = [str(q) for q in who_ruffs(inference_of(snap), SIDE_SUITS.index(suit))]
    else:
        answer = [str(q) for q in range(4) if q != snap.seat]
    zh, en = SUIT_WORDS[suit]
    return Question("who_ruffs", "multi", {"zh": f"谁还可能毙{zh}（{zh}绝门且还有主）？",
                                           "en": f"Who could still ruff {en} (void in it, with a trump left)?"},
                    answer, "voids", suit=suit, options=_seat_options(snap.seat))


_register("who_ruffs", _ruff_subjects, _who_ruffs)


# -- max_trumps, must_hold ---------------------------------------------------------------------------

def _trump_subjects(facts: dict[str, Any], snap: Snapshot) -> list[list[Subject]]:
    """The seats whose bound is below their hand size (a seat's hand size alone, which a player sees
    without counting, is no answer); of those with bound 0, a drawn share (`KEEP_ZERO`)."""
    inference = inference_of(snap)
    bounds = {q: max_trumps(inference, q) for q in seats_of(inference)}
    return [[("trump", str(q)) for q, most in bounds.items()
             if most < snap.hand_sizes[q] and (most or _drawn(snap, f"max_trumps:{q}", KEEP_ZERO))]]


def _max_trumps(facts: dict[str, Any], snap: Snapshot, subject: Subject) -> Question:
    seat = int(subject[1] or 0)
    if _now(facts, snap):
        answer = max_trumps(inference_of(snap), seat)
    else:
        answer = min(facts["hand_sizes"][seat], facts["trumps"]["unseen"])
    zh, en = SEAT_WORDS[(seat - snap.seat) % 4]
    return Question("max_trumps", "number", {"zh": f"{zh}最多还可能有几张主？",
                                             "en": f"At most how many trumps could {en} still hold?"},
                    answer, "trumps.unseen", suit="trump", seat=seat)


_register("max_trumps", _trump_subjects, _max_trumps)


def certain_cards(snap: Snapshot) -> dict[int, int]:
    """Faces exactly one other seat is certain to hold (beyond the copies it has shown) → that seat."""
    holders: dict[int, list[int]] = {}
    for q, faces in must_hold(inference_of(snap)).items():
        for face in faces:
            holders.setdefault(face, []).append(q)
    return {face: seats[0] for face, seats in holders.items() if len(seats) == 1}


def _hold_subjects(facts: dict[str, Any], snap: Snapshot) -> list[list[Subject]]:
    ctx = snap.ctx
    certain = sorted(certain_cards(snap), key=ctx.sort_key.__getitem__)
    return [[(SUIT_NAMES[ctx.suit_of[f]], str(Card.from_index(f))) for f in certain]]


def _must_hold(facts: dict[str, Any], snap: Snapshot, subject: Subject) -> Question:
    suit, name = subject
    card = Card.parse(name or "")
    answer = NO_ANSWER
    if _now(facts, snap):
        answer = str(certain_cards(snap).get(card.index, NO_ANSWER))
    return Question("must_hold", "single", {"zh": f"谁一定有{card.pretty}？", "en": f"Who must hold {card.pretty}?"},
                    answer, "suits.unseen_cards", suit=suit, card=str(card), options=_seat_options(snap.seat))


_register("must_hold", _hold_subjects, _must_hold)


def subject_cards(question: Question) -> list[Card]:
    """The cards a decision question is about (a throw's cards, the card X), in order."""
    return [Card.parse(name) for name in (question.card or "").split(",") if name]


__all__ = ["BEAT_RANKS", "DECISION_TYPES", "NEAR_TOP", "certain_cards", "inference_of", "subject_cards",
           "throw_candidates"]
