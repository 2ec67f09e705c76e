"""The counting modes beside the replay (training.md §5): 连续数 (running count) and 闪记 (flash).

A **running count** keeps one quantity (`Drill.questions`' one type: trumps still out, the attackers' points,
or the points left in one suit drawn by the run's seed) and asks it after every trick but the last; the run
is scored by its streak of exact answers (`streak`) and, by default, stops at the first miss (`stops_at`).
A **flash** shows one whole trick at once for F ms and asks what that trick changed: how many trumps fell, how
many points it held, who showed a void in it; F adapts to the player (`next_flash`) and their flash level is
`speed.flash_level` of their flashes. Every answer is the difference of the tracker's facts (`facts_json`)
before and after the trick, so it is exact. Its tricks and types are drawn so that the glimpse is needed
(`FLASH_SHARE`): trumps and points are a shuffled choice among five values, and a common answer comes up no
more than the others.

`plan_run` / `run_questions` dispatch on the drill's mode: the web run loop (through `DealData`) and
`trainer drill sample` call these, so both ask the same questions.
"""
from __future__ import annotations

import random
from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol

from trainer.drills.definitions import Drill
from trainer.drills.questions import QUESTION_TYPES, SIDE_SUITS, Question, _seat_options
from trainer.drills.runs import Asked, RunPlan, position_after, snapshots_after
from trainer.drills.runs import plan_run as replay_plan
from trainer.drills.runs import run_questions as replay_questions
from trainer.engine.trump import SUIT_NAMES, TRUMP
from trainer.records import DealRecord
from trainer.tracking.facts import facts_json
from trainer.tracking.tracker import PlayEvent, public_events

FLASH_START_MS = 1500
"""A new player's first flash time F (ms)."""
FLASH_MIN_MS, FLASH_MAX_MS = 300, 3000
"""The range F stays in (training.md §5)."""
FLASH_FASTER, FLASH_SLOWER, FLASH_RIGHTS = 0.8, 1.25, 3
"""Three right in a row: F × 0.8; a miss: F × 1.25."""


def mode_of(drill: Any) -> str:
    """How a drill asks (`definitions.MODES`): a 够级 drill or a signal quiz is a replay."""
    return getattr(drill, "mode", "replay")


def trick_ends(record: DealRecord) -> list[int]:
    """The play counts at which each trick is complete, in order."""
    ends, plays = [], 0
    for trick in record.tricks:
        plays += len(trick.plays)
        ends.append(plays)
    return ends


def plan_run(drill: Drill, record: DealRecord, seed: int, events: Sequence[PlayEvent] | None = None) -> RunPlan:
    """The viewer seat and the checkpoints of a run of `drill` (`runs.plan_run` for a replay drill): a running
    count stops after every trick but the last; a flash after `checkpoint_count` tricks drawn by the seed, each
    trick as likely as its `flash_weight` (weighted sampling without replacement)."""
    if mode_of(drill) == "replay":
        return replay_plan(drill, record, seed, events)
    rng = random.Random(seed)
    seat = drill.choose_viewer(record, rng)
    ends = trick_ends(record)
    if mode_of(drill) == "running":
        return RunPlan(seat, ends[:-1] if len(ends) > 1 else ends)
    weights = [flash_weight(drill, trick_changes(record, seat, number), flash_phase(record, number))
               for number in range(1, len(ends) + 1)]
    keys = [rng.random() ** (1 / weight) for weight in weights]
    drawn = sorted(range(len(ends)), key=lambda k: keys[k], reverse=True)[:drill.checkpoint_count]
    return RunPlan(seat, sorted(ends[k] for k in drawn))


def trick_changes(record: DealRecord, seat: int, number: int) -> dict[str, str]:
    """What trick `number` changed, by flash question type, as `FLASH_SHARE` names the answers: its trumps, its
    points, and the other seats than `seat` that did not follow its led suit (joined by `,`)."""
    ctx, trick = record.ctx, record.tricks[number - 1]
    cards = [card for play in trick.plays for card in play]
    led = ctx.suit_of[trick.plays[0][0].index]
    failed = [str((trick.leader + k) % 4) for k, play in enumerate(trick.plays)
              if (trick.leader + k) % 4 != seat and any(ctx.suit_of[card.index] != led for card in play)]
    return {"flash_trumps": str(sum(ctx.suit_of[card.index] == TRUMP for card in cards)),
            "flash_points": str(sum(card.points for card in cards)), "flash_voids": ",".join(sorted(failed))}


def flash_phase(record: DealRecord, number: int) -> int:
    """Which sixth of the deal trick `number` is in (0 … `FLASH_PHASES` − 1): what a player knows from the trick
    number or the hand's size."""
    return min(FLASH_PHASES * (number - 1) // len(record.tricks), FLASH_PHASES - 1)


def flash_share(kind: str, answer: str, phase: int) -> float:
    """`FLASH_SHARE`'s factor for a flash question of type `kind` with `answer` in third `phase` of the deal."""
    return FLASH_SHARE[kind][phase].get(answer, 1.0) ** FLASH_POWER


def flash_weight(drill: Drill, answers: dict[str, str], phase: int) -> float:
    """How likely a flash shows a trick whose answers by type are `answers`: the mean over the drill's types
    (by its weights) of `FLASH_SHARE`, so that a trick where every answer is a common one is seldom shown."""
    total = sum(drill.questions.values())
    return sum(weight * flash_share(kind, answers[kind], phase) for kind, weight in drill.questions.items()) / total


def running_suit(drill: Drill, record: DealRecord, seed: int) -> str | None:
    """The side suit whose points a `points_unplayed` running count keeps (drawn by the run's seed; not the
    trump suit); None for the other quantities."""
    if next(iter(drill.questions)) != "points_unplayed":
        return None
    trump = record.data["trump"]
    return random.Random(f"{seed}:suit").choice([suit for suit in SIDE_SUITS if suit != trump])


def run_questions(drill: Drill, record: DealRecord, seat: int, checkpoints: Sequence[int], seed: int,
                  events: Sequence[PlayEvent], count: int | None = None) -> list[Asked]:
    """The questions of a run at its first `count` checkpoints (all by default), in order (`runs.run_questions`
    for a replay drill)."""
    if mode_of(drill) == "replay":
        return replay_questions(drill, record, seat, checkpoints, seed, events, count)
    chosen = list(checkpoints[:count] if count is not None else checkpoints)
    if mode_of(drill) == "running":
        kind, suit = next(iter(drill.questions)), running_suit(drill, record, seed)
        found = []
        for plays, snap in zip(chosen, snapshots_after(record, seat, chosen, events), strict=True):
            position = position_after(record, plays)
            facts = facts_json(snap, str(position))
            found.append(Asked(QUESTION_TYPES[kind].build(facts, snap, (suit, None)), snap, facts, position))
        return found
    return [_flash_question(drill, record, seat, plays, seed, index, events) for index, plays in enumerate(chosen)]


FLASH_CHOICES = {"flash_trumps": 1, "flash_points": 5}
"""The step between the options of a flash's number questions, asked as a choice among `FLASH_OPTIONS`
consecutive values (a trick's trumps or points spread over few values: as a number, the usual one is right too
often; training.md §1)."""
FLASH_OPTIONS = 5
FLASH_SHARE = {
    "flash_points": ({"10": 0.51, "0": 0.76}, {"20": 0.9, "10": 0.55}, {"10": 0.68}, {"10": 0.7, "0": 0.94}, {"0": 0.35},
                     {"0": 0.3}),
    "flash_trumps": ({"0": 0.24}, {"0": 0.27}, {"0": 0.38, "1": 0.63}, {"1": 0.61}, {"4": 0.37}, {"4": 0.41, "3": 0.69}),
    "flash_voids": ({"": 0.34}, {"": 0.44}, {"": 0.63}, {"": 0.84}, {"": 0.53}, {"": 0.56})}
"""Per type and sixth of the deal (`flash_phase`), the answers (a multi's values joined by `,`) more common than
one in five (no one void: three in ten), each with that share over its natural share in generated deals (200
deals, seed 99). Raised to `FLASH_POWER`, it weighs how likely a flash shows a trick (`flash_weight`) and asks
that type there. A common answer (0 trumps early, 4 late, 0 or 10 points, no one void) then comes up about as
often as the others: not zero, not more. So an answer is right about as often as one option in
`FLASH_OPTIONS`, even given the trick number (training.md §1; docs/decisions.md)."""
FLASH_PHASES = 6
"""The parts of a deal `FLASH_SHARE` tells apart."""
FLASH_POWER = 2.0
"""What each use of `FLASH_SHARE` (the trick, then the type) raises it to: a trick's type is drawn against its
other types, whose answers may be common too, so the plain share corrects too little (tuned on the bench)."""


def _flash_question(drill: Drill, record: DealRecord, seat: int, plays: int, seed: int, index: int,
                    events: Sequence[PlayEvent]) -> Asked:
    """What the trick ending after `plays` plays changed, from `seat`: the tracker's facts before its lead
    and after its last play; the type drawn from (seed, index) by the drill's weights times `FLASH_SHARE` of its
    answer here, so that a common answer (0 points, no one void) comes up about as often as the others."""
    position = position_after(record, plays)
    trick = record.tricks[position.trick - 1]
    start = plays - len(trick.plays)
    before, after = snapshots_after(record, seat, [start, plays], events)
    was, now = facts_json(before, str(position_after(record, start))), facts_json(after, str(position))
    led = record.ctx.suit_of[trick.plays[0][0].index]
    failed = {(trick.leader + k) % 4 for k, play in enumerate(trick.plays)
              if any(record.ctx.suit_of[card.index] != led for card in play)}
    rng = random.Random(f"{seed}:{index}")
    questions = {kind: flash_question(kind, was, now, seat, failed, SUIT_NAMES[led], rng)
                 for kind in sorted(drill.questions)}
    kinds = list(questions)
    phase = flash_phase(record, position.trick)
    weights = [drill.questions[kind] * flash_share(kind, _answer_key(questions[kind]), phase) for kind in kinds]
    return Asked(replace(questions[rng.choices(kinds, weights=weights)[0]], trick=position.trick), after, now, position)


def _answer_key(question: Question) -> str:
    """A question's answer as `FLASH_SHARE` names it: a choice's value, a multi's values joined by `,`."""
    return ",".join(question.answer) if isinstance(question.answer, list) else str(question.answer)


def flash_question(kind: str, was: dict[str, Any], now: dict[str, Any], seat: int, failed: Collection[int],
                   led: str, rng: random.Random) -> Question:
    """A flash question of type `kind` about one trick, answered by the tracker's facts before it (`was`) and
    after it (`now`) from `seat`: the trumps played since and the points no longer unplayed, each as a choice
    among `FLASH_OPTIONS` values (`flash_options`, shuffled by `rng`), and the other seats that showed a void in
    it — of those that did not follow the led suit `led` (`failed`), the ones the tracker now holds void in it."""
    if kind == "flash_trumps":
        count = now["trumps"]["played"] - was["trumps"]["played"]
        return Question(kind, "single", {"zh": "这一轮出了几张主？", "en": "How many trumps fell in this trick?"},
                        str(count), "trumps.played", options=flash_options(count, FLASH_CHOICES[kind], rng))
    if kind == "flash_points":
        points = was["score"]["unplayed"] - now["score"]["unplayed"]
        return Question(kind, "single", {"zh": "这一轮有多少分？", "en": "How many points were in this trick?"},
                        str(points), "score.unplayed", options=flash_options(points, FLASH_CHOICES[kind], rng))
    shown = [str(q) for q in sorted(failed) if q != seat and led in now["voids"].get(str(q), ())]
    return Question(kind, "multi", {"zh": "这一轮谁绝门了（没跟上首家的花色）？",
                                    "en": "Who showed a void in this trick (did not follow the led suit)?"},
                    shown, "voids", suit=led, options=_seat_options(seat))


def flash_options(answer: int, step: int, rng: random.Random) -> list[dict[str, Any]]:
    """`FLASH_OPTIONS` values `step` apart holding `answer`, shuffled: 0, step, … when the answer is among
    them (nearly always), else a run of them at an offset drawn by `rng`; values and labels as text."""
    top = (FLASH_OPTIONS - 1) * step
    low = 0 if answer <= top else answer - step * rng.randrange(FLASH_OPTIONS)
    shown = [str(low + k * step) for k in range(FLASH_OPTIONS)]
    rng.shuffle(shown)
    return [{"value": value, "label": {"zh": value, "en": value}} for value in shown]


def deal_questions(drill: Drill, record: DealRecord, seed: int) -> tuple[RunPlan, list[Asked]]:
    """A whole run's plan and questions on one record (its events computed here): what a test or a bench needs."""
    events = list(public_events(record))
    plan = plan_run(drill, record, seed, events)
    return plan, run_questions(drill, record, plan.seat, plan.checkpoints, seed, events)


class Graded(Protocol):
    """What the modes read of an answer (an `Attempt` of the web app)."""

    correct: bool


def streak(answers: Sequence[Graded]) -> int:
    """The streak of exact answers ending with the last of `answers` (in the order given).

    >>> from types import SimpleNamespace as A
    >>> streak([A(correct=True), A(correct=False), A(correct=True), A(correct=True)]), streak([])
    (2, 0)
    """
    count = 0
    for answer in reversed(answers):
        if not answer.correct:
            break
        count += 1
    return count


def stops_at(drill: Drill, correct: bool) -> bool:
    """Whether a run of `drill` ends after an answer graded `correct`: a running count's miss, when it stops
    at the first miss (`Drill.stop_at_miss`)."""
    return mode_of(drill) == "running" and drill.stop_at_miss and not correct


@dataclass(frozen=True, slots=True)
class FlashState:
    """A player's flash time: F (ms) and the right answers in a row at it since it last changed."""

    ms: int = FLASH_START_MS
    in_row: int = 0


def next_flash(state: FlashState, correct: bool) -> FlashState:
    """The flash time after one more answer: three right in a row F × 0.8, a miss F × 1.25, within 300–3,000 ms.

    >>> next_flash(next_flash(next_flash(FlashState(1000), True), True), True)
    FlashState(ms=800, in_row=0)
    >>> next_flash(FlashState(2800, 2), False)
    FlashState(ms=3000, in_row=0)
    """
    if not correct:
        return FlashState(min(FLASH_MAX_MS, round(state.ms * FLASH_SLOWER)), 0)
    if state.in_row + 1 >= FLASH_RIGHTS:
        return FlashState(max(FLASH_MIN_MS, round(state.ms * FLASH_FASTER)), 0)
    return FlashState(state.ms, state.in_row + 1)

