"""The daily training's pure parts: skills (question type × game phase, and each signal quiz kind), grading an answer into an
FSRS rating, the FSRS scheduler, a position's difficulty estimated from its features, the pace that
rises with the rating, and the one-question drill a daily item runs as.

>>> phase_of(6, 25), phase_of(7, 25), phase_of(19, 25), phase_of(20, 25)
('early', 'middle', 'middle', 'late')
>>> grade("trumps_unseen", True, 3000), grade("trumps_unseen", True, 10000), grade("trumps_unseen", False, 1000)
(<Rating.Easy: 4>, <Rating.Good: 3>, <Rating.Again: 1>)
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from fsrs import Rating, Scheduler

from trainer.drills.decide import DECISION_TYPES
from trainer.drills.definitions import Drill
from trainer.drills.families import family_of
from trainer.drills.questions import QUESTION_TYPES
from trainer.engine.rules import Rules
from trainer.signals.quiz import QUESTION_TYPES as SIGNAL_TYPES

PHASES = ("early", "middle", "late")
"""Game phases: early (tricks 1–6), middle, late (the last 6 tricks)."""
PHASE_TRICKS = 6
"""How many tricks the early and the late phase each have."""
OVERALL = "overall"
"""The skill name of the overall rating."""
WIDE_TYPES = ("live_triples", "live_quads", "live_triple_tractor", "live_quad_tractor")
"""Question types only three or four decks ask: no daily skill, as the daily training draws standard deals."""


def phase_of(trick: int, tricks: int) -> str:
    """The phase of trick `trick` (1-based) of a deal of `tricks` tricks; in a short deal early wins."""
    if trick <= PHASE_TRICKS:
        return "early"
    return "late" if trick > tricks - PHASE_TRICKS else "middle"


def skill_name(question_type: str, phase: str) -> str:
    """A skill's name: `type:phase` (e.g. `trumps_unseen:late`); a signal quiz kind is a skill of its own,
    whatever the phase (`signal:respond`).

    >>> skill_name("voids", "late"), skill_name("signal:pass", "early")
    ('voids:late', 'signal:pass')
    """
    return question_type if question_type in SIGNAL_TYPES else f"{question_type}:{phase}"


def split_skill(skill: str) -> tuple[str, str]:
    """A skill's question type and phase (no phase for a signal quiz kind).

    >>> split_skill("voids:late"), split_skill("signal:pass")
    (('voids', 'late'), ('signal:pass', ''))
    """
    if skill in SIGNAL_TYPES:
        return skill, ""
    kind, _colon, phase = skill.partition(":")
    return kind, phase


def all_skills() -> list[str]:
    """Every skill, question types in their order (but `WIDE_TYPES`), phases early to late, then the signal
    quiz kinds."""
    return [*(skill_name(kind, phase) for kind in QUESTION_TYPES if kind not in WIDE_TYPES for phase in PHASES),
            *SIGNAL_TYPES]


def introduction_order(skills: Sequence[str]) -> list[str]:
    """The order new skills are met in: one family after another in turn (training.md §4, interleaved from
    day one), each family's skills phase by phase, the family's first phase moved on by its place (so the
    first skills met are not all early ones), its types in curriculum order within a phase.

    >>> introduction_order(["trumps_unseen:early", "trumps_unseen:late", "voids:early", "voids:middle"])
    ['trumps_unseen:early', 'voids:middle', 'trumps_unseen:late', 'voids:early']
    """
    families: dict[str, list[str]] = {}
    for skill in skills:
        families.setdefault(family_of(split_skill(skill)[0]), []).append(skill)
    turns = []
    for place, members in enumerate(families.values()):
        def turn(skill: str, place: int = place) -> int:
            phase = split_skill(skill)[1]
            return (PHASES.index(phase) - place) % len(PHASES) if phase in PHASES else 0
        turns.append(sorted(members, key=turn))
    return [turn[k] for k in range(max(map(len, turns), default=0)) for turn in turns if k < len(turn)]


@dataclass(frozen=True, slots=True)
class Pace:
    """Answer times (ms) under which a right answer is fast (Easy) and over which it is slow (Hard)."""

    fast: int
    slow: int


PACES = {"number": Pace(6_000, 20_000), "single": Pace(5_000, 15_000), "multi": Pace(10_000, 30_000)}
"""Thresholds by answer kind (docs/decisions.md); `TYPE_PACES` overrides some types."""
TYPE_PACES = {**{kind: Pace(12_000, 40_000) for kind in ("live_pairs", "live_tractor", *WIDE_TYPES)},
              "point_cards_out": Pace(10_000, 30_000), "attackers_score": Pace(8_000, 25_000),
              "to_take_over": Pace(8_000, 25_000), **{kind: Pace(10_000, 30_000) for kind in SIGNAL_TYPES},
              **{kind: Pace(12_000, 40_000) for kind in DECISION_TYPES}}
ANSWER_KINDS = {"trumps_unseen": "number", "trumps_played": "number", "constant_trumps_out": "number",
                "attackers_score": "number", "to_take_over": "number", "points_unplayed": "number",
                "points_unseen": "number", "suit_played": "number", "suit_unseen": "number", "is_boss": "single",
                "big_trumps_out": "multi", "voids": "multi", "no_pairs": "multi", "point_cards_out": "multi",
                "live_pairs": "multi", "live_tractor": "multi", "top_in_play": "single",
                "throw_safe": "single", "who_beats": "multi", "who_ruffs": "multi", "max_trumps": "number",
                "must_hold": "single", **{kind: "multi" for kind in WIDE_TYPES}}
"""Each question type's answer kind (as `questions.py` asks it)."""


def pace_for(question_type: str) -> Pace:
    """The answer-time thresholds of a question type."""
    return TYPE_PACES.get(question_type) or PACES[ANSWER_KINDS.get(question_type, "number")]


def grade(question_type: str, right: bool, ms: int) -> Rating:
    """An answer as an FSRS rating: wrong → Again; right and slow → Hard; right → Good; right and fast → Easy."""
    if not right:
        return Rating.Again
    pace = pace_for(question_type)
    return Rating.Easy if ms < pace.fast else Rating.Hard if ms > pace.slow else Rating.Good


def scheduler() -> Scheduler:
    """The FSRS scheduler of skills and mistakes: 90% retention, no same-day learning steps (a daily
    queue: a card answered today comes back on a later day), no fuzz (the schedule is reproducible)."""
    return Scheduler(desired_retention=0.9, learning_steps=(), relearning_steps=(), enable_fuzzing=False)


TYPE_DIFFICULTY = {"trumps_unseen": 0, "trumps_played": 0, "constant_trumps_out": 100, "attackers_score": 50,
                   "to_take_over": 100, "points_unplayed": 100, "points_unseen": 150, "suit_played": 50,
                   "suit_unseen": 100, "is_boss": 150, "big_trumps_out": 100, "voids": 50, "no_pairs": 200,
                   "point_cards_out": 200, "live_pairs": 300, "live_tractor": 350, "top_in_play": 150,
                   "throw_safe": 400, "who_beats": 300, "who_ruffs": 350, "max_trumps": 350, "must_hold": 400}
"""How much harder than counting trumps each question type starts (rating points)."""
BASE_DIFFICULTY = 1100.0
"""An estimated position's rating before its features add to it."""
PER_TRICK = 16.0
"""Rating points each finished trick adds (one more trick of cards to remember)."""
PER_DOUBLING = 150.0
"""Rating points each doubling of the pace adds."""
BASE_PACE = 2.0
"""Cards per second at rating 1500."""


def estimate(question_type: str, plays: int, pace: float) -> float:
    """A position's difficulty from its features: the question type, the cards seen so far (plays;
    four a trick) and the pace; answers then rate it (`glicko.play`)."""
    return (BASE_DIFFICULTY + TYPE_DIFFICULTY.get(question_type, 100) + PER_TRICK * plays / 4
            + PER_DOUBLING * math.log2(pace / BASE_PACE))


def pace_of(rating: float) -> float:
    """Cards per second for a player of `rating`: 2 at 1500, doubling every 600 points, 1 … 6."""
    return round(min(max(BASE_PACE * 2 ** ((rating - 1500) / 600), 1.0), 6.0), 2)


DIFFICULTIES = {"easier": -300, "normal": 0, "harder": 300}
"""The difficulty settings: how far from the player's rating the next position is chosen."""


def daily_drill(rules: Rules | None = None) -> Drill:
    """The drill a daily item runs as: one checkpoint, the question fixed on the run (`DrillRun.question`)."""
    return Drill(id=DAILY_ID, name={"zh": "每日训练", "en": "Daily training"},
                 description={"zh": "每天的复习和新题。", "en": "The day's reviews and new positions."},
                 rules=rules or Rules.parse("standard"), questions={kind: 1.0 for kind in QUESTION_TYPES},
                 checkpoints="trick_end", checkpoint_count=1, moments=(), cards_per_second=BASE_PACE,
                 answer_seconds=60, viewer="any", order=0)


DAILY_ID = "daily"
"""The drill id of the runs of a daily session and of the retries of mistakes."""
