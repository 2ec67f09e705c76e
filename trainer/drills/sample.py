"""What the drills would ask (`trainer drill sample`, training.md §6): runs of curriculum drills on generated
deals, played as the web app plays them, each question asked printed as one JSON object with what the seat
sees there.

The plans and questions come from the functions the web run loop calls (`runs.plan_run` / `runs.question_at`,
`gouji.plan_run` / `gouji.question_at`, `signals.quiz.plan_signal_run` / `signal_asked`), so what this prints
is what players get. docs/sample.md documents the JSON.
"""
from __future__ import annotations

import hashlib
from concurrent.futures import ProcessPoolExecutor
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from trainer.bots.generate import generate_records
from trainer.drills import gouji as gouji_drills
from trainer.drills.definitions import Drill, load_drills
from trainer.drills.families import family_of
from trainer.drills.gouji import GoujiDrill
from trainer.drills.modes import mode_of, plan_run, run_questions
from trainer.drills.questions import Question, trivial_question
from trainer.drills.runs import position_after, snapshot_after
from trainer.engine.cards import Card
from trainer.gouji.generate import generate_gouji_records
from trainer.gouji.plays import VALUE_OF
from trainer.gouji.records import GoujiRecord, parse_gouji_record
from trainer.gouji.tracker import public_events as gouji_events
from trainer.records import DealRecord, parse_record
from trainer.signals.conventions import Convention, find_convention
from trainer.signals.quiz import SignalDrill, load_signal_drills, plan_signal_run, signal_asked, spots
from trainer.tracking.facts import facts_json
from trainer.tracking.tracker import public_events

SIGNAL_SET = "basic_89JQ"
"""The convention set signal quizzes are sampled under: the web app's default (`web.sigquiz.DEFAULT_SET`);
their deals are played by bots following it, as the deals a signal run prefers are."""
YES_NO = ("yes", "no")


def curriculum() -> dict[str, Any]:
    """Every curriculum drill of `drills/` by id, in the web app's order: the 升级 and 够级 drills, then the
    signal quizzes."""
    return {**load_drills(), **load_signal_drills()}


def run_seed(seed: int, drill_id: str, deal: int, run: int) -> int:
    """The seed of run `run` of a drill on the `deal`-th deal, derived from the command's seed (31 bits, as the
    web app draws them)."""
    digest = hashlib.sha256(f"{seed}:{drill_id}:{deal}:{run}".encode()).digest()
    return int.from_bytes(digest[:4], "big") >> 1


@dataclass
class Deals:
    """Generated deals by rules (and convention set), each set made once for the drills that share it."""

    count: int
    seed: int
    jobs: int
    made: dict[tuple[str, str, str | None], list[Any]]

    def of(self, drill: Any) -> list[Any]:
        """`count` deals of the drill's rules played by the heuristic bots (`trainer deal generate`'s), from
        `seed`; under `SIGNAL_SET` for a signal quiz."""
        signals = SIGNAL_SET if isinstance(drill, SignalDrill) else None
        key = (drill.game, drill.rules.preset, signals)
        if key not in self.made:
            if isinstance(drill, GoujiDrill):
                made = generate_gouji_records(drill.rules, self.seed, self.count, jobs=self.jobs)
                self.made[key] = [parse_gouji_record(r) for r in made]
            else:
                convention = find_convention(signals) if signals else None
                made = generate_records(drill.rules, self.seed, self.count, jobs=self.jobs, signals=convention)
                self.made[key] = [parse_record(r) for r in made]
        return self.made[key]


Task = tuple[Any, Any, int, int, int]
"""One drill on one deal: (drill, record, the command's seed, the deal's number, runs)."""


def sample(drills: Sequence[Any], count: int, seed: int, runs: int, jobs: int = 1) -> Iterator[dict[str, Any]]:
    """Every question `runs` runs of each drill ask on each of `count` generated deals (seed `seed`), as the
    §6 JSON objects, drill by drill, deal by deal, run by run, checkpoint by checkpoint; in up to `jobs`
    processes (the lines never depend on `jobs`)."""
    deals = Deals(count, seed, jobs, {})
    tasks = [(drill, record, seed, number, runs) for drill in drills for number, record in enumerate(deals.of(drill))]
    if jobs > 1 and len(tasks) > 1:
        with ProcessPoolExecutor(min(jobs, len(tasks))) as pool:
            for lines in pool.map(_task, tasks, chunksize=max(1, len(tasks) // (jobs * 8))):
                yield from lines
    else:
        for task in tasks:
            yield from _task(task)


def _task(task: Task) -> list[dict[str, Any]]:
    """The lines of one drill's runs on one deal."""
    drill, record, seed, number, runs = task
    if isinstance(drill, GoujiDrill):
        return list(_gouji_runs(drill, record, seed, number, runs))
    if isinstance(drill, SignalDrill):
        return list(_signal_runs(drill, record, seed, number, runs, signal_set()))
    return list(_runs(drill, record, seed, number, runs))


@cache
def signal_set() -> Convention:
    """The convention set the signal quizzes are sampled under (`SIGNAL_SET`), loaded once."""
    return find_convention(SIGNAL_SET)


def _runs(drill: Drill, record: DealRecord, seed: int, number: int, runs: int) -> Iterator[dict[str, Any]]:
    """The questions of the runs of a 升级 drill on one deal, in any mode (`modes.plan_run`, `modes.run_questions`:
    a replay's `question_at`). A flash's trick has cleared when it asks (no trick, no last-trick look) and its
    question has no opening value; a running count's opening is the quantity before the first play."""
    events = list(public_events(record))
    for run in range(runs):
        run_seed_ = run_seed(seed, drill.id, number, run)
        plan = plan_run(drill, record, run_seed_, events)
        opening = facts_json(snapshot_after(record, plan.seat, 0, events), str(position_after(record, 0)))
        for index, (plays, asked) in enumerate(zip(plan.checkpoints, run_questions(
                drill, record, plan.seat, plan.checkpoints, run_seed_, events), strict=True)):
            question = asked.question
            if drill.mode == "flash":
                visible = {**shengji_visible(record, plan.seat, plays, None), "trick": [], "last_trick": None}
            else:
                visible = shengji_visible(record, plan.seat, plays,
                                          trivial_question(question, opening, asked.snapshot).answer)
            yield _line(drill, record.id, run, plan.seat, str(asked.position), index, question, "shengji",
                        _subject(question), visible)


def _signal_runs(drill: SignalDrill, record: DealRecord, seed: int, number: int, runs: int,
                 convention: Convention) -> Iterator[dict[str, Any]]:
    """The questions of the runs of a signal quiz on one deal (`plan_signal_run`, `signal_asked`)."""
    events = list(public_events(record))
    found = spots(record, convention)
    for run in range(runs):
        run_seed_ = run_seed(seed, drill.id, number, run)
        seat, checkpoints = plan_signal_run(drill, record, run_seed_, convention, found)
        for index, plays in enumerate(checkpoints):
            asked = signal_asked(drill, record, seat, plays, run_seed_, convention, events, found)
            yield _line(drill, record.id, run, seat, str(asked.position), index, asked.question, "shengji",
                        _subject(asked.question), shengji_visible(record, seat, plays, None))


def _gouji_runs(drill: GoujiDrill, record: GoujiRecord, seed: int, number: int, runs: int) -> Iterator[dict[str, Any]]:
    """The questions of the runs of a 够级 drill on one deal (`gouji.plan_run`, `gouji.question_at`)."""
    events = list(gouji_events(record))
    for run in range(runs):
        run_seed_ = run_seed(seed, drill.id, number, run)
        plan = gouji_drills.plan_run(drill, record, run_seed_, events)
        opening = gouji_drills.context(gouji_drills.snapshot_after(record, plan.seat, 0, events), "1.0")
        for index, (actions, asked) in enumerate(zip(plan.checkpoints, gouji_drills.run_questions(
                drill, record, plan.seat, plan.checkpoints, run_seed_, events), strict=True)):
            question = asked.question
            trivial = gouji_drills.QUESTION_TYPES[question.type].build(opening, question.card or "")
            subject = gouji_subject(question, asked.facts)
            yield _line(drill, record.id, run, plan.seat, str(asked.position), index, question, "gouji", subject,
                        gouji_visible(drill, record, plan.seat, actions, events, asked.facts,
                                      None if trivial is None else trivial.answer))


def _line(drill: Any, deal: str, run: int, seat: int, position: str, index: int, question: Question, game: str,
          subject: dict[str, Any], visible: dict[str, Any]) -> dict[str, Any]:
    """One §6 JSON object."""
    yes_no = question.kind == "single" and tuple(o["value"] for o in question.options) in (YES_NO, YES_NO[::-1])
    options = [{"value": (o["value"] == "yes") if yes_no else o["value"], "label": dict(o["label"])}
               for o in question.options]
    answer = (question.answer == "yes") if yes_no else question.answer
    if yes_no and visible["opening"] is not None:
        visible = {**visible, "opening": visible["opening"] == "yes"}
    return {"drill": drill.id, "deal": deal, "run": run, "seat": seat, "position": position, "checkpoint": index,
            "type": question.type, "family": family_of(question.type, game), "mode": mode_of(drill),
            "kind": "yesno" if yes_no else question.kind, "subject": subject, "prompt": dict(question.prompt),
            "options": options, "answer": answer, "visible": visible}


def _subject(question: Question) -> dict[str, Any]:
    """What a 升级 question is about: the trick (a flash), its seat (`max_trumps`), a throw's cards (`throw_safe`:
    comma-separated in `card`), its card (and that card's suit) or its suit, else nothing."""
    if question.trick is not None:
        return {"trick": question.trick}
    if question.seat is not None:
        return {"seat": question.seat}
    if question.card is not None and "," in question.card:
        return {"cards": question.card.split(",")}
    return {key: value for key, value in (("suit", question.suit), ("card", question.card)) if value is not None}


def gouji_subject(question: Question, facts: dict[str, Any]) -> dict[str, Any]:
    """What a 够级 question is about: a seat (asked by its relation to the viewer) or a rank."""
    subject = question.card
    if subject is None:
        return {}
    for seat, entry in facts["seats"].items():
        if entry["relation"] == subject:
            return {"seat": int(seat)}
    return {"rank": subject}


def _cards(cards: Sequence[Card]) -> list[str]:
    return [str(card) for card in cards]


def shengji_visible(record: DealRecord, seat: int, plays: int, opening: Any) -> dict[str, Any]:
    """What `seat` sees after `plays` plays without memory, as the web table shows it with the default
    settings (the last-trick look and the hand sizes on): its hand, the trick on the table (a finished trick
    stays there until the next lead), the trick before it, every hand's size, the level and trump, and for
    the banker the buried cards."""
    position = position_after(record, plays)
    hands = [Counter(hand) for hand in record.playing_hands()]
    made = 0
    for trick in record.tricks:
        for k, play in enumerate(trick.plays):
            if made < plays:
                hands[(trick.leader + k) % 4].subtract(play)
            made += 1
    trick_now = record.tricks[position.trick - 1].plays[:position.plays] if record.tricks else ()
    leader = record.tricks[position.trick - 1].leader if record.tricks else record.banker
    last = record.tricks[position.trick - 2] if position.trick >= 2 else None
    ctx = record.ctx
    return {"level": str(record.data["level"]), "trump": record.data["trump"],
            "hand": _cards(ctx.sort_hand(list(hands[seat].elements()))),
            "trick": [[(leader + k) % 4, _cards(play)] for k, play in enumerate(trick_now)],
            "last_trick": None if last is None else [[(last.leader + k) % 4, _cards(play)]
                                                     for k, play in enumerate(last.plays)],
            "hand_sizes": [hand.total() for hand in hands],
            "kitty": _cards(ctx.sort_hand(list(record.buried))) if seat == record.banker else None,
            "opening": opening}


def gouji_visible(drill: GoujiDrill, record: GoujiRecord, seat: int, actions: int, events: Sequence[Any],
                  facts: dict[str, Any], opening: Any) -> dict[str, Any]:
    """What `seat` sees after `actions` actions of a 够级 deal: its hand, the round's plays so far (no last-trick
    look: the game has no tricks), the card counts the drill shows (`hand_sizes`: always; at ten or fewer,
    others null; never: null); no level, trump or kitty."""
    hand = Counter(record.playing_hands()[seat])
    for event in events[:actions]:
        if event.seat == seat:
            hand.subtract(event.cards)
    current = events[actions - 1].round if actions else 1
    sizes = list(facts["hand_sizes"])
    shown = None if drill.hand_sizes == "never" else [
        size if q == seat else gouji_drills.count_shown(size, drill.hand_sizes) for q, size in enumerate(sizes)]
    return {"level": None, "trump": None,
            "hand": _cards(sorted(hand.elements(), key=lambda card: (-VALUE_OF[card.index], card.index))),
            "trick": [[event.seat, _cards(event.cards)] for event in events[:actions]
                      if event.round == current and event.cards],
            "last_trick": None, "hand_sizes": shown, "kitty": None, "opening": opening}
