"""training.md §1's rule per 升级 question type, over generated deals: a battery of no-memory strategies (answers
from what the seat sees, plus what they learn about the generator on other deals) is right on at most 15 % of the
questions asked (on a choice among k options at most max(15 %, 1.5/k)); and the answer flattening's shares."""
from __future__ import annotations

import random
from collections import Counter, defaultdict
from collections.abc import Callable
from functools import cache
from typing import Any, NamedTuple

import pytest

from trainer.bots.generate import generate_records
from trainer.drills.flatten import CAP, keep_shares
from trainer.drills.questions import QUESTION_TYPES, Question, keep_shares as stored_shares, make_question, \
    trivial_question
from trainer.drills.runs import position_after, snapshots_after, table_at, total_plays
from trainer.engine.cards import Card
from trainer.engine.rules import Rules
from trainer.engine.trump import SUIT_NAMES
from trainer.records import parse_record
from trainer.tracking.facts import facts_json
from trainer.tracking.tracker import public_events

PRESETS = {"standard": 40, "three-deck": 6, "four-deck": 6}
"""Deals per rules preset (the three- and four-deck ones for the triple and quad types): many deals, a few
positions each, as the drills ask (positions of one deal are alike, so a strategy learnt on few deals fits
them by chance)."""
STEP = 10
"""Positions every `STEP` plays, from two seats of each deal."""
ENOUGH = 40
"""The questions of a type the rate is checked over (a type the flattening keeps rarely is only asked)."""
WIDE = ("triples", "quads", "triple_tractor", "quad_tractor")


class Asked(NamedTuple):
    """One question asked, with what a player without memory sees: the deal (for the halves), the cards still in
    hands and at the start, the opening answer, the viewer's top rank in the subject suit and the subject's cards
    and points on the table (the trick and the last one)."""

    deal: int
    question: Question
    seat: int
    left: int
    start: int
    opening: Any
    top: str
    shown: tuple[int, int]


def _seen(record: Any, snap: Any, question: Question, count: int) -> tuple[str, tuple[int, int]]:
    """The viewer's top rank of the question's suit and that suit's cards and points on the table."""
    ctx = record.ctx
    suit = SUIT_NAMES.index(question.suit or "trump")
    mine = [f for f in ctx.faces_by_suit[suit] if snap.mine[f]]
    table = table_at(record, count)
    cards = [card for _seat, card in table.now + table.last if ctx.suit_of[card.index] == suit]
    top = str(Card.from_index(mine[0]))[:-1] if mine else "-"
    return top, (len(cards), sum(card.points for card in cards))


@cache
def asked() -> dict[str, list[Asked]]:
    """Every question `make_question` asks (with the opening and the table, as checkpoints do) every `STEP`
    plays, from two seats, of bot-played deals per preset, by type."""
    found: dict[str, list[Asked]] = defaultdict(list)
    number = 0
    for preset, deals in PRESETS.items():
        kinds = [kind for kind in QUESTION_TYPES if (preset == "standard") != kind.endswith(WIDE)]
        for data in generate_records(Rules.parse(preset), 91, deals):
            record = parse_record(data)
            number += 1
            events = list(public_events(record))
            plays = list(range(2 + number % 4, total_plays(record), STEP))
            for seat in (number % 4, (number + 1) % 4):
                first, *snaps = snapshots_after(record, seat, [0, *plays], events)
                opening = facts_json(first, "1.0")
                for count, snap in zip(plays, snaps, strict=True):
                    facts = facts_json(snap, str(position_after(record, count)))
                    table = table_at(record, count)
                    for kind in kinds:
                        question = make_question(kind, facts, snap, random.Random(count * 4 + seat), opening, table)
                        if question is None:
                            continue
                        top, shown = _seen(record, snap, question, count)
                        found[kind].append(Asked(number, question, seat, sum(snap.hand_sizes),
                                                 4 * record.rules.hand_size,
                                                 trivial_question(question, opening, snap).answer, top, shown))
    return found


def coded(item: Asked, answer: Any) -> Any:
    """An answer coded so that it carries over: a number or yes/no as it is, seats relative to the viewer, cards
    by rank."""
    if item.question.kind == "number" or answer in ("yes", "no"):
        return answer
    chosen = answer if isinstance(answer, list) else [answer]
    if item.question.options[0]["value"].isdigit():
        codes = frozenset((int(value) - item.seat) % 4 for value in chosen)
    else:
        codes = frozenset(Card.parse(value.split("/")[0]).rank for value in chosen)
    return codes if item.question.kind == "multi" else next(iter(codes), None)


def phase(item: Asked, cuts: int) -> int:
    """How far the deal has gone, from the hand sizes, in `cuts` buckets."""
    return cuts * item.left // (item.start + 1)


Feature = Callable[[Asked], Any]
Base = Callable[[Asked], "int | None"]


def _opening(item: Asked) -> int | None:
    return item.opening if item.question.kind == "number" else None


def _scaled(item: Asked) -> int | None:
    return None if _opening(item) is None else round(item.opening * item.left / item.start)


def _less_table(points: bool) -> Base:
    return lambda item: None if _opening(item) is None else item.opening - item.shown[points]


def _subject(item: Asked) -> Any:
    card = item.question.card
    rank = None if card is None or "," in card else Card.parse(card).rank
    seat = None if item.question.seat is None else (item.question.seat - item.seat) % 4
    return item.question.suit == "trump", rank, seat


def conditional(feature: Feature, base: Base | None = None) -> Callable[[list[Asked]], Callable[[Asked], Any]]:
    """A strategy learnt on some questions: the commonest coded answer by `feature`, or for a number its
    commonest offset from `base`."""
    def learn(items: list[Asked]) -> Callable[[Asked], Any]:
        counts: dict[Any, Counter[Any]] = defaultdict(Counter)
        for item in items:
            start = None if base is None else base(item)
            if base is None:
                counts[feature(item)][coded(item, item.question.answer)] += 1
            elif start is not None:
                counts[feature(item)][item.question.answer - start] += 1

        def guess(item: Asked) -> Any:
            found = counts.get(feature(item))
            if not found:
                return None
            code = found.most_common(1)[0][0]
            if base is None:
                return code
            start = base(item)
            return None if start is None else start + code
        return guess
    return learn


BATTERY = {
    "mode | phase": conditional(lambda item: phase(item, 8)),
    "mode | subject, phase": conditional(lambda item: (_subject(item), phase(item, 6))),
    "mode | subject, opening, phase": conditional(lambda item: (_subject(item), str(item.opening), phase(item, 4))),
    "mode | subject, my top, phase": conditional(lambda item: (_subject(item), item.top, phase(item, 4))),
    "mode | subject, table": conditional(lambda item: (_subject(item), item.shown, phase(item, 3))),
    "opening + offset | phase": conditional(lambda item: phase(item, 8), _opening),
    "scaled opening + offset | phase": conditional(lambda item: phase(item, 8), _scaled),
    "opening - table + offset | phase": conditional(lambda item: phase(item, 8), _less_table(False)),
    "opening - table points + offset | phase": conditional(lambda item: phase(item, 8), _less_table(True)),
}
"""The no-memory strategies, each learnt on one half of the deals and scored on the other."""


def best_strategy(items: list[Asked]) -> tuple[float, str]:
    """The best hit rate of `BATTERY` over `items` and the strategy's name."""
    halves = [[item for item in items if item.deal % 2 == half] for half in (0, 1)]
    best = (0.0, "")
    for name, learn in BATTERY.items():
        guesses = [learn(halves[1 - half]) for half in (0, 1)]
        hits = sum(guesses[item.deal % 2](item) == coded(item, item.question.answer) for item in items)
        best = max(best, (hits / len(items), name))
    return best


def limit(items: list[Asked]) -> float:
    """§1's limit: 15 %, on a choice among k options max(15 %, 1.5/k), averaged over the questions."""
    return sum(max(0.15, 1.5 / len(item.question.options)) if item.question.options else 0.15
               for item in items) / len(items)


@pytest.mark.parametrize("kind", sorted(QUESTION_TYPES))
def test_no_memory_strategy_beats_the_limit(kind: str) -> None:
    items = asked()[kind]
    assert items, f"{kind} was never asked"
    if len(items) < ENOUGH:
        return
    rate, name = best_strategy(items)
    assert rate <= limit(items), f"{kind}: {name} is right on {rate:.1%} of {len(items)} (limit {limit(items):.1%})"


def test_the_shares_flatten_every_cell_to_the_cap() -> None:
    """Within a cell the kept questions' commonest answer has at most `CAP` of them where the cell has enough
    distinct answers; a cell with few is flattened and then kept less often; a question is kept with the least
    share of its codes; the stored shares are probabilities."""
    shares = stored_shares()
    assert shares and all(0 <= share <= 1 for cell in shares.values() for share in cell.values())
    counts = {"t|2|none|3": Counter({(f"={k}",): 30 - k for k in range(12)}),
              "t|2|none|2": Counter({("=0", "~0"): 60, ("=5", "~5"): 20, ("=10", "~5"): 20}),
              "t|2|none|1": Counter({(f"={k}",): 1 for k in range(12)})}
    made = keep_shares(counts)
    wide = {code: counts["t|2|none|3"][(code,)] * share for code, share in made["t|2|none|3"].items()}
    assert max(wide.values()) / sum(wide.values()) == pytest.approx(CAP, abs=1e-3)
    assert all(share == 1 for share in made["t|2|none|1"].values())
    narrow = made["t|2|none|2"]
    assert narrow["=0"] < narrow["=5"] < 1 and narrow["=5"] == pytest.approx(narrow["=10"])
    assert narrow["~0"] == pytest.approx(narrow["~5"])
