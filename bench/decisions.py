"""Benchmark: the decision questions (training.md §2) over bot-played deals, as the drills ask them.

At every trick end of every deal, from every seat, each decision type is asked as a checkpoint asks it
(`make_question` with the opening facts). Prints per type how many were asked and the spread of the
answers (for `throw_safe` the yes-share, which issue 22 wants within 30–70 %), the best of a small
battery of no-memory strategies (`battery`), and the time each
question adds: the median and 95th percentile of `make_question`, the tier-2 inference of the
position included (it is built afresh for every position, as a checkpoint does).

    python bench/decisions.py [--deals N] [--seed K]
"""
from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import Counter

from trainer.bots.generate import generate_records
from trainer.drills import decide
from trainer.drills.questions import make_question
from trainer.drills.runs import position_after, snapshot_after
from trainer.engine.rules import Rules
from trainer.records import parse_record, replay
from trainer.tracking.facts import facts_json
from trainer.tracking.tracker import public_events


def battery(question, snap) -> dict[str, object]:
    """Answers of no-memory strategies (training.md §1) to one question: fixed answers per relative seat,
    all but one seat, yes/no, 0, the seat's hand size (visible), the trumps not in my hand or on the table."""
    viewer = snap.seat
    seats = [str((viewer + k) % 4) for k in (1, 2, 3)]
    if question.type == "throw_safe":
        return {"yes": "yes", "no": "no"}
    if question.type == "must_hold":
        return {f"seat+{k}": seats[k - 1] for k in (1, 2, 3)}
    if question.type == "max_trumps":
        table = sum(1 for play in snap.trick.plays for card in play if snap.ctx.suit_of[card.index] == 4)
        mine = sum(snap.mine[f] for f in snap.ctx.faces_by_suit[4])
        total = len(snap.ctx.faces_by_suit[4]) * snap.ctx.rules.decks
        return {"0": 0, "hand size": snap.hand_sizes[question.seat],
                "trumps minus mine and table": min(snap.hand_sizes[question.seat], total - mine - table)}
    found: dict[str, object] = {f"only seat+{k}": [seats[k - 1]] for k in (1, 2, 3)}
    found.update({f"all but seat+{k}": [q for q in seats if q != seats[k - 1]] for k in (1, 2, 3)})
    return found


def main() -> None:
    """Ask every decision type at every trick end; print the answers' spread and the time per question."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--seed", type=int, default=5, help="seed of the generated deals")
    args = parser.parse_args()
    records = [parse_record(r) for r in generate_records(Rules.parse("standard"), args.seed, args.deals)]
    answers: dict[str, Counter] = {kind: Counter() for kind in decide.DECISION_TYPES}
    times: dict[str, list[float]] = {kind: [] for kind in decide.DECISION_TYPES}
    right: dict[str, Counter] = {kind: Counter() for kind in decide.DECISION_TYPES}
    positions = 0
    for record in records:
        replay(record)
        events = list(public_events(record))
        ends = []
        plays = 0
        for trick in record.tricks[:-1]:
            plays += len(trick.plays)
            ends.append(plays)
        for seat in range(4):
            opening = facts_json(snapshot_after(record, seat, 0, events), "1.0")
            for plays in ends:
                snap = snapshot_after(record, seat, plays, events)
                facts = facts_json(snap, str(position_after(record, plays)))
                positions += 1
                for kind in decide.DECISION_TYPES:
                    decide._last = None  # a fresh position: the inference is built inside the timing
                    start = time.perf_counter()
                    question = make_question(kind, facts, snap, random.Random(plays * 4 + seat), opening)
                    times[kind].append((time.perf_counter() - start) * 1000)
                    if question is not None:
                        answer = question.answer
                        answers[kind][len(answer) if isinstance(answer, list) else answer] += 1
                        for name, guess in battery(question, snap).items():
                            right[kind][name] += question.grade(guess)
    print(f"{len(records)} deals, {positions} seat-positions (trick ends), every decision type at each")
    every = sorted(t for kind in times for t in times[kind])
    for kind in decide.DECISION_TYPES:
        asked = sum(answers[kind].values())
        spread = ", ".join(f"{value}: {count / asked:.0%}" for value, count in sorted(answers[kind].items(), key=str))
        ordered = sorted(times[kind])
        print(f"{kind}: asked {asked} ({asked / positions:.0%} of positions); answers {spread or '-'}; "
              f"median {statistics.median(ordered):.2f} ms, p95 {ordered[int(len(ordered) * 0.95)]:.2f} ms")
        if asked:
            name, count = right[kind].most_common(1)[0]
            print(f"  best no-memory strategy of the battery: {name}, right on {count / asked:.0%}")
    safe = answers["throw_safe"]
    if safe:
        print(f"throw_safe yes-share: {safe['yes'] / sum(safe.values()):.1%} (target 30–70 %)")
    print(f"all decision questions: median {statistics.median(every):.2f} ms per question (target ≤ 5 ms)")


if __name__ == "__main__":
    main()
