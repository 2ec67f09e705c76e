"""Benchmark: do the drills' questions need counting (training.md §1)? Over `trainer drill sample`'s own
questions (the function the command prints, `trainer.drills.sample.sample`; a running count's and a flash's,
exempt by §5, are listed as exempt), a battery of no-memory
strategies answers every question from its `visible` state, its options and what the sample teaches about
the generator (the most common answer of a type, the usual offset from the opening value, and a clever
adversary's `ADVERSARY`: the answer or offset most common given how far the deal has gone, the subject, the
opening value, its own top card or the table, and the answer just before); per question type
this prints how many were asked, the options shown (k), the best strategy's hit rate and name, the §1 limit
(15 %, on a choice among k options max(15 %, 1.5/k)) and the verdict; then the questions that repeat one
asked earlier in the same run with the same type, subject and answer (§1 forbids them), and the wall time.

    python bench/questions.py [--drill ID]... [--deals N] [--runs R] [--seed K] [--jobs J]   (no --drill: every drill)
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from trainer.drills.sample import curriculum, sample

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the bench's own modules, however this one is loaded
from gouji_strategies import GOUJI_STRATEGIES, GoujiLearned  # noqa: E402

Line = dict[str, Any]
Guess = Any
Strategy = Callable[[Line, "Learned"], Guess]
POINTS = {"5": 5, "10": 10, "K": 10}
LIMIT = 0.15
EXEMPT = {"running": "running count, §5: the same number after every trick is the skill"}
"""Modes whose questions §1 does not bind (training.md §5), reported as exempt rather than scored."""


def rank_of(card: str) -> str:
    """A card's rank (`BJ`, `SJ`, `2` … `A`)."""
    return card if card in ("BJ", "SJ") else card[:-1]


def suit_of(card: str, line: Line) -> str:
    """A card's suit as the questions name it: `trump` for jokers, level cards and the trump suit."""
    seen = line["visible"]
    if card in ("BJ", "SJ") or rank_of(card) == seen["level"] or card[-1] == seen["trump"]:
        return "trump"
    return card[-1]


def key(value: Any) -> Any:
    """An answer or a guess as a comparable value (a list as a set)."""
    return frozenset(map(str, value)) if isinstance(value, list) else value


def right(line: Line, guess: Guess) -> bool:
    """Whether `guess` is graded right, as the questions grade (`one_of`: any listed option)."""
    if guess is None:
        return False
    if line["kind"] == "one_of":
        return guess in line["answer"]
    return key(guess) == key(line["answer"])


class Learned:
    """What a strategy may learn from the sample itself: answers by type (and subject) and offsets from the
    opening by type, counted over `lines` (the other half of the deals: a strategy is scored on deals it did
    not learn from), and the previous question of the same type in the run (over `runs_of`)."""

    def __init__(self, lines: list[Line], runs_of: list[Line]) -> None:
        self.lines = lines
        self.tables: dict[str, dict[Any, Counter[Any]]] = {}
        self.by_type: dict[str, Counter[Any]] = defaultdict(Counter)
        self.by_subject: dict[tuple[str, str], Counter[Any]] = defaultdict(Counter)
        self.offsets: dict[str, Counter[int]] = defaultdict(Counter)
        self.previous_same: dict[int, Line | None] = {}
        self.previous_any: dict[int, Line | None] = {}
        for line in lines:
            answer = key(line["answer"]) if line["kind"] != "one_of" else line["answer"][0]
            self.by_type[line["type"]][answer] += 1
            self.by_subject[(line["type"], str(line["subject"]))][answer] += 1
            if line["kind"] == "number" and isinstance(line["visible"]["opening"], int):
                self.offsets[line["type"]][line["answer"] - line["visible"]["opening"]] += 1
        runs: dict[tuple[str, str, int], list[Line]] = defaultdict(list)
        for line in runs_of:
            runs[(line["drill"], line["deal"], line["run"])].append(line)
        for run in runs.values():
            for index, line in enumerate(run):
                same = [before for before in run[:index] if before["type"] == line["type"]]
                self.previous_same[id(line)] = same[-1] if same else None
                self.previous_any[id(line)] = run[index - 1] if index else None

    def table(self, name: str, feature: Callable[[Line], Any], value: Callable[[Line], Any]) -> dict[Any, Counter[Any]]:
        """Counts of `value` (None: not counted) by `feature` over the lines learnt from, made once per `name`."""
        if name not in self.tables:
            found: dict[Any, Counter[Any]] = defaultdict(Counter)
            for line in self.lines:
                code = value(line)
                if code is not None:
                    found[feature(line)][code] += 1
            self.tables[name] = found
        return self.tables[name]

    def mode(self, line: Line) -> Any:
        """The answer most often right for this type."""
        found = self.by_type[line["type"]].most_common(1)
        return _unkey(found[0][0]) if found else None

    def subject_mode(self, line: Line) -> Any:
        """The answer most often right for this type and subject."""
        found = self.by_subject[(line["type"], str(line["subject"]))].most_common(1)
        return _unkey(found[0][0]) if found else None

    def offset(self, line: Line) -> int:
        """The most common answer minus opening value for this type."""
        found = self.offsets[line["type"]].most_common(1)
        return found[0][0] if found else 0


def _unkey(value: Any) -> Any:
    return sorted(value) if isinstance(value, frozenset) else value


def values(line: Line) -> list[Any]:
    """The options' values as shown."""
    return [option["value"] for option in line["options"]]


def on_table(line: Line, last: bool = True) -> list[tuple[int, list[str]]]:
    """The plays visible: the trick on the table, and the last trick when `last`."""
    seen = line["visible"]
    return [(seat, cards) for seat, cards in (seen["trick"] or []) + ((seen["last_trick"] or []) if last else [])]


def shown_voids(line: Line, tricks: str) -> list[str]:
    """Seats (as option values) that fail to follow the led suit in the current trick, the last or both."""
    seats: set[str] = set()
    seen = line["visible"]
    for plays in ([seen["trick"]] if tricks in ("now", "both") else []) + \
                 ([seen["last_trick"]] if tricks in ("last", "both") else []):
        if not plays:
            continue
        led = suit_of(plays[0][1][0], line)
        want = line["subject"].get("suit", led)
        if want != led:
            continue
        for seat, cards in plays[1:]:
            if any(suit_of(card, line) != led for card in cards):
                seats.add(str(seat))
    return [value for value in values(line) if value in seats]


def visible_count(line: Line, last: bool, points: bool) -> int:
    """Cards (or points) of the question's suit (trumps when it has none) on the table."""
    want = line["subject"].get("suit", "trump")
    total = 0
    for _seat, cards in on_table(line, last):
        for card in cards:
            if suit_of(card, line) == want:
                total += POINTS.get(rank_of(card), 0) if points else 1
    return total


def option_with_rank(line: Line, ranks: Iterable[str]) -> Any:
    """For a single choice, the first option whose first card has one of `ranks`; for a multi, all such."""
    wanted = set(ranks)
    hits = [value for value in values(line) if isinstance(value, str)
            and rank_of(value.split("/")[0]) in wanted]
    if line["kind"] == "multi":
        return hits
    return hits[0] if hits else None


def opening_minus(last: bool, points: bool) -> Strategy:
    """The opening value minus the visible cards (or points) of the subject."""
    def guess(line: Line, learned: Learned) -> Guess:
        opening = line["visible"]["opening"]
        return opening - visible_count(line, last, points) if isinstance(opening, int) else None
    return guess


def by_kind(number: Guess = None, multi: Guess = None) -> Strategy:
    """A fixed answer: `number` for a number, `multi` (a function of the options) for a multi choice."""
    def guess(line: Line, learned: Learned) -> Guess:
        if line["kind"] == "number":
            return number
        if line["kind"] == "multi" and multi is not None:
            return multi(values(line))
        return None
    return guess


def position(index: int) -> Strategy:
    """The option at `index` as shown (a multi: that option alone)."""
    def guess(line: Line, learned: Learned) -> Guess:
        shown = values(line)
        if not shown:
            return None
        return [shown[index]] if line["kind"] == "multi" else shown[index]
    return guess


def not_previous(line: Line, learned: Learned) -> Guess:
    """Not the answer of the previous question of the same type in the run: the first option that is not it."""
    before = learned.previous_same.get(id(line))
    if before is None or not line["options"]:
        return None
    return next((value for value in values(line) if not right(before, value)), None)


def same_as_previous(line: Line, learned: Learned) -> Guess:
    """The answer of the previous question of the same type in the run."""
    before = learned.previous_same.get(id(line))
    return before["answer"] if before is not None else None


def hand_size_of(line: Line, learned: Learned) -> Guess:
    """The visible card count of the seat the question is about."""
    seat, sizes = line["subject"].get("seat"), line["visible"]["hand_sizes"]
    return sizes[seat] if seat is not None and sizes else None


def mine_of_subject(line: Line, learned: Learned) -> Guess:
    """How many of the subject (suit or rank) the seat holds now."""
    subject = line["subject"]
    hand = line["visible"]["hand"]
    if "rank" in subject:
        return sum(rank_of(card) == subject["rank"] for card in hand)
    if "suit" in subject:
        return sum(suit_of(card, line) == subject["suit"] for card in hand)
    return None


def my_highest(line: Line, learned: Learned) -> Guess:
    """The option holding the seat's own highest card of the subject suit (options strongest-first unknown:
    the first option naming a card of the hand, hands being sorted strongest first)."""
    suit = line["subject"].get("suit")
    if suit is None or line["kind"] != "single":
        return None
    mine = [card for card in line["visible"]["hand"] if suit_of(card, line) == suit]
    for card in mine:
        found = next((value for value in values(line) if isinstance(value, str) and card in value.split("/")), None)
        if found is not None:
            return found
    return None


STRATEGIES: dict[str, Strategy] = {
    "my highest card": my_highest,
    "always 0 / none": by_kind(0, lambda shown: []),
    "tick all": by_kind(None, lambda shown: shown),
    "tick first": position(0),
    "tick last": position(-1),
    "second option": position(1),
    "opening value": lambda line, learned: line["visible"]["opening"],
    "opening + usual offset": lambda line, learned: (line["visible"]["opening"] + learned.offset(line)
                                                     if isinstance(line["visible"]["opening"], int) else None),
    "opening - 1": lambda line, learned: (line["visible"]["opening"] - 1
                                          if isinstance(line["visible"]["opening"], int) else None),
    "opening - visible (trick)": opening_minus(False, False),
    "opening - visible (trick + last)": opening_minus(True, False),
    "opening - visible points (trick)": opening_minus(False, True),
    "opening - visible points (trick + last)": opening_minus(True, True),
    "void shown in the trick": lambda line, learned: shown_voids(line, "now") if line["kind"] == "multi" else None,
    "void shown in the last trick": lambda line, learned: shown_voids(line, "last") if line["kind"] == "multi"
    else None,
    "void shown in either": lambda line, learned: shown_voids(line, "both") if line["kind"] == "multi" else None,
    "the K": lambda line, learned: option_with_rank(line, ["K"]),
    "the A": lambda line, learned: option_with_rank(line, ["A"]),
    "the Q": lambda line, learned: option_with_rank(line, ["Q"]),
    "point cards K": lambda line, learned: option_with_rank(line, ["K"]) if line["kind"] == "multi" else None,
    "point cards 10 K": lambda line, learned: option_with_rank(line, ["10", "K"]) if line["kind"] == "multi"
    else None,
    "point cards 5 K": lambda line, learned: option_with_rank(line, ["5", "K"]) if line["kind"] == "multi"
    else None,
    "most common answer of the type": lambda line, learned: learned.mode(line),
    "most common answer of the type and subject": lambda line, learned: learned.subject_mode(line),
    "not the previous answer": not_previous,
    "the previous answer": same_as_previous,
    "not the opening value": lambda line, learned: (not line["visible"]["opening"]
                                                    if isinstance(line["visible"]["opening"], bool) else None),
    "yes": lambda line, learned: True if line["kind"] == "yesno" else None,
    "no": lambda line, learned: False if line["kind"] == "yesno" else None,
    "visible card count": hand_size_of,
    "my cards of the subject": mine_of_subject,
}
"""The battery: each answers from the line's visible state, options and what the sample teaches."""

# -- signal quizzes (signal:*): no-convention strategies ---------------------------------------------
# A signal question tests the convention set as a counting question tests memory: these strategies know
# neither, and answer from the visible state, the options and what the sample teaches about the generator
# (how often an option value, a card rank or an order's shape is right where it is shown).

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "SJ", "BJ")


def _card_like(value: Any) -> bool:
    return isinstance(value, str) and all(rank_of(part) in RANKS for part in value.split(","))


def order_shape(value: str) -> str:
    """An order of cards (`8S,7S`) by its ranks' shape: how many, and descending, ascending or mixed."""
    ranks = [RANKS.index(rank_of(card)) for card in value.split(",")]
    if len(ranks) == 1:
        return "1"
    shape = "desc" if ranks == sorted(ranks, reverse=True) else "asc" if ranks == sorted(ranks) else "mixed"
    return f"{len(ranks)}:{shape}"


def option_feature(value: Any) -> Any:
    """What a no-convention strategy tells options apart by: a card by its rank, an order by its shape,
    any other value as itself."""
    if _card_like(value):
        return rank_of(value) if "," not in value else order_shape(value)
    return value


def lead_rank(line: Line) -> str | None:
    """The rank of the card that led the trick on the table (None: no trick)."""
    trick = line["visible"]["trick"]
    return rank_of(trick[0][1][0]) if trick else None


def learned_rate(feature: Callable[[Line, Any], Any]) -> Strategy:
    """The option whose `feature` was right most often where shown (over the lines learned from, per type)."""
    tables: dict[int, dict[tuple[str, Any], list[int]]] = {}

    def table(learned: Learned) -> dict[tuple[str, Any], list[int]]:
        if id(learned) not in tables:
            counts: dict[tuple[str, Any], list[int]] = defaultdict(lambda: [0, 0])
            for line in learned.lines:
                if line["type"].startswith("signal:"):
                    for value in values(line):
                        entry = counts[(line["type"], feature(line, value))]
                        entry[0] += right(line, value)
                        entry[1] += 1
            tables[id(learned)] = counts
        return tables[id(learned)]

    def guess(line: Line, learned: Learned) -> Guess:
        if not line["type"].startswith("signal:") or not line["options"]:
            return None
        counts = table(learned)

        def rate(value: Any) -> float:
            hits, shown = counts.get((line["type"], feature(line, value)), (0, 0))
            return hits / shown if shown else 0.0
        return max(values(line), key=rate)
    return guess


def card_extreme(highest: bool) -> Strategy:
    """Of card options, the highest (or lowest) by rank: the rank of an order's last card."""
    def guess(line: Line, learned: Learned) -> Guess:
        shown = [value for value in values(line) if _card_like(value)]
        if not shown:
            return None
        rank = lambda value: RANKS.index(rank_of(value.split(",")[-1]))  # noqa: E731
        return (max if highest else min)(shown, key=rank)
    return guess


def point_option(points: bool) -> Strategy:
    """The first card option that is (or is not) a point card (5, 10, K): 走分, or keep the points."""
    def guess(line: Line, learned: Learned) -> Guess:
        return next((value for value in values(line) if _card_like(value) and "," not in value
                     and (rank_of(value) in POINTS) == points), None)
    return guess


SIGNAL_STRATEGIES: dict[str, Strategy] = {
    "signal: the option value (rank, order shape) most often right": learned_rate(lambda line, v: option_feature(v)),
    "signal: the same, given the lead card's rank": learned_rate(lambda line, v: (lead_rank(line), option_feature(v))),
    "signal: the same, given the subject": learned_rate(lambda line, v: (str(line["subject"]), option_feature(v))),
    "signal: the highest card": card_extreme(True),
    "signal: the lowest card": card_extreme(False),
    "signal: a point card (走分)": point_option(True),
    "signal: not a point card": point_option(False),
}
"""No-convention strategies for the signal quizzes."""
STRATEGIES.update(SIGNAL_STRATEGIES)


# -- the strategies of a clever adversary: answers learnt conditionally on what the seat sees ------------------

Code = Any
"""An answer coded so that it carries over between positions: a number as it is, seats relative to the viewer,
cards by their ranks."""


def seat_options(line: Line) -> bool:
    """Whether the options are seats (their values are seat numbers)."""
    return bool(line["options"]) and all(isinstance(value, str) and value.isdigit() for value in values(line))


def encode(line: Line, answer: Any) -> Code:
    """`answer` coded: a number or yes/no as it is, seats relative to the viewer, an option's cards by rank."""
    if line["kind"] in ("number", "yesno"):
        return answer
    if line["kind"] == "one_of":
        answer = answer[0]
    chosen = answer if isinstance(answer, list) else [answer]
    if seat_options(line):
        codes = frozenset((int(value) - line["seat"]) % 4 for value in chosen)
    else:
        codes = frozenset(rank_of(str(value).split("/")[0]) for value in chosen)
    return codes if line["kind"] == "multi" else next(iter(codes), None)


def decode(line: Line, code: Code) -> Guess:
    """The guess a `code` stands for at this line (None when no option fits it)."""
    if line["kind"] in ("number", "yesno") or code is None:
        return code
    wanted = code if isinstance(code, frozenset) else {code}
    if seat_options(line):
        hits = [value for value in values(line) if (int(value) - line["seat"]) % 4 in wanted]
    else:
        hits = [value for value in values(line) if rank_of(str(value).split("/")[0]) in wanted]
    if line["kind"] == "multi":
        return hits
    return hits[0] if hits else None


def cards_left(line: Line) -> int:
    """The cards still in hands (all seats, as the hand sizes show; the viewer's hand for a seat not shown)."""
    sizes = line["visible"]["hand_sizes"] or [None] * 4
    return sum(len(line["visible"]["hand"]) if size is None else size for size in sizes)


def phase(width: int) -> Callable[[Line], int]:
    """How far the deal has gone, in buckets of `width` cards still in hands."""
    return lambda line: cards_left(line) // width


def relative_subject(line: Line) -> Any:
    """The subject with a card by its rank and a seat relative to the viewer (what carries over)."""
    subject = line["subject"]
    if "seat" in subject:
        return ("seat", (subject["seat"] - line["seat"]) % 4)
    if "cards" in subject:
        return ("cards", len(subject["cards"]), rank_of(subject["cards"][0]))
    if "card" in subject:
        return ("card", rank_of(subject["card"]), subject.get("suit") == "trump")
    return ("suit", subject.get("suit") == "trump") if "suit" in subject else ()


def my_top_rank(line: Line) -> Any:
    """The rank of the viewer's highest card of the subject suit (hands are sorted strongest first)."""
    suit = line["subject"].get("suit")
    return next((rank_of(card) for card in line["visible"]["hand"] if suit_of(card, line) == suit), None)


def scaled_opening(line: Line, learned: Learned) -> int | None:
    """The opening value scaled by the share of the cards still in hands (the deal's start: the most the learnt
    lines of this drill show)."""
    opening = line["visible"]["opening"]
    if not isinstance(opening, int):
        return None
    full = learned.table("full", lambda other: other["drill"], cards_left)
    start = max(full.get(line["drill"], Counter({cards_left(line): 1})))
    return round(opening * cards_left(line) / max(start, cards_left(line)))


def table_minus(points: bool) -> Callable[[Line, Learned], int | None]:
    """The opening value less the subject's cards (or points) on the table and in the last trick."""
    return lambda line, learned: opening_minus(True, points)(line, learned)


Base = Callable[[Line, Learned], "int | None"]


def conditional(name: str, feature: Callable[[Line], Any], base: Base | None = None) -> Strategy:
    """The answer most often right, learnt by (type, `feature`): coded (`encode`), or for a number, its most
    common offset from `base` (the opening value, a scaled or a table-corrected one)."""
    def code_of(line: Line, learned: Learned) -> Code:
        if base is None:
            return encode(line, line["answer"])
        start = base(line, learned) if line["kind"] == "number" else None
        return None if start is None else line["answer"] - start

    def guess(line: Line, learned: Learned) -> Guess:
        counts = learned.table(name, lambda other: (other["type"], feature(other)),
                               lambda other: code_of(other, learned)).get((line["type"], feature(line)))
        if not counts:
            return None
        code = counts.most_common(1)[0][0]
        if base is None:
            return decode(line, code)
        start = base(line, learned) if line["kind"] == "number" else None
        return None if start is None else start + code
    return guess


def previous_any(line: Line, learned: Learned) -> Guess:
    """The answer of the question just before in the run, whatever its type (coded, so a seat or a rank carries)."""
    before = learned.previous_any.get(id(line))
    if before is None or before["kind"] != line["kind"]:
        return None
    return decode(line, encode(before, before["answer"]))


def opening_of(line: Line, learned: Learned) -> int | None:
    """The opening value of a number question."""
    opening = line["visible"]["opening"]
    return opening if isinstance(opening, int) and not isinstance(opening, bool) else None


def seat_size(line: Line, learned: Learned) -> int | None:
    """The hand size of the seat the question is about."""
    guess = hand_size_of(line, learned)
    return guess if isinstance(guess, int) else None


ADVERSARY: dict[str, Strategy] = {
    "mode | type, subject, phase": conditional("subject-phase", lambda line: (
        line["drill"], relative_subject(line), phase(12)(line))),
    "mode | type, opening, phase": conditional("opening-phase", lambda line: (
        line["drill"], str(line["visible"]["opening"]), phase(12)(line))),
    "mode | type, subject, opening, phase": conditional("subject-opening-phase", lambda line: (
        relative_subject(line), str(line["visible"]["opening"]), phase(8)(line))),
    "mode | type, subject, my top, phase": conditional("top-phase", lambda line: (
        relative_subject(line), my_top_rank(line), phase(16)(line))),
    "mode | type, subject, table": conditional("table", lambda line: (
        relative_subject(line), visible_count(line, True, False), phase(24)(line))),
    "opening + offset | phase": conditional("offset-phase", lambda line: (line["drill"], phase(8)(line)),
                                            opening_of),
    "opening + offset | subject, phase": conditional("offset-subject-phase", lambda line: (
        line["drill"], relative_subject(line), phase(12)(line)), opening_of),
    "scaled opening + offset | phase": conditional("scaled-phase", lambda line: (line["drill"], phase(16)(line)),
                                                   scaled_opening),
    "opening - table + offset | phase": conditional("table-phase", lambda line: (line["drill"], phase(8)(line)),
                                                    table_minus(False)),
    "opening - table points + offset | phase": conditional("table-points-phase", lambda line: (
        line["drill"], phase(8)(line)), table_minus(True)),
    "hand size of the seat + offset | phase": conditional("seat-size-phase", lambda line: (
        line["drill"], phase(12)(line)), seat_size),
    "the answer just before": previous_any,
}
"""Strategies a clever adversary adds: the answer (or its offset from a visible estimate) most common given what
the seat sees (how far the deal has gone, the subject, the opening value, its own top card, the table)."""
STRATEGIES.update(ADVERSARY)


def fold(line: Line) -> int:
    """The half of the deals a line's deal is in (strategies learn from the other half)."""
    return sum(map(ord, line["deal"])) % 2


def limit(lines: list[Line]) -> float:
    """§1's limit for a type: 15 %, on a choice among k options max(15 %, 1.5/k) (k averaged over the lines)."""
    shares = [max(LIMIT, 1.5 / len(line["options"])) if line["options"] else LIMIT for line in lines]
    return sum(shares) / len(shares)


def repeats(lines: list[Line]) -> Counter[str]:
    """Per type, the questions equal (type, subject, answer) to one asked earlier in the same run."""
    seen: dict[tuple[str, str, int], set[tuple[str, str, Any]]] = defaultdict(set)
    found: Counter[str] = Counter()
    for line in lines:
        run = (line["drill"], line["deal"], line["run"])
        question = (line["type"], str(line["subject"]), key(line["answer"]) if line["kind"] != "one_of"
                    else frozenset(line["answer"]))
        found[kind_of(line)] += question in seen[run]
        seen[run].add(question)
    return found


def kind_of(line: Line) -> str:
    """The row a question counts in: its type, prefixed by its mode outside replays (`flash:flash_points`)."""
    return line["type"] if line["mode"] == "replay" else f'{line["mode"]}:{line["type"]}'


def best_by_type(lines: list[Line]) -> dict[str, tuple[int, float, float, float, str]]:
    """Per question type: the questions asked, the options shown (k, mean), the best strategy's hit rate (each
    line scored by what was learned on the other half of the deals), §1's limit and the best one's name."""
    halves = [[line for line in lines if fold(line) == half] for half in (0, 1)]
    learned = [Learned(halves[1 - half], lines) for half in (0, 1)]
    gouji_learned = [GoujiLearned(halves[1 - half]) for half in (0, 1)]
    by_type: dict[str, list[Line]] = defaultdict(list)
    for line in lines:
        if line["mode"] not in EXEMPT:
            by_type[kind_of(line)].append(line)
    table = {}
    for kind, items in by_type.items():
        hits = {name: sum(right(line, strategy(line, learned[fold(line)])) for line in items)
                for name, strategy in STRATEGIES.items()}
        if items[0]["family"] == "gouji":
            hits.update({name: sum(right(line, strategy(line, gouji_learned[fold(line)])) for line in items)
                         for name, strategy in GOUJI_STRATEGIES.items()})
        name = max(hits, key=lambda n: hits[n])
        k = sum(len(line["options"]) for line in items) / len(items)
        table[kind] = (len(items), k, hits[name] / len(items), limit(items), name)
    return table


def main() -> None:
    """Print the per-type table of the best no-memory strategy, the repeats and the timing."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--drill", action="append", default=[], help="a drill id (default: every drill)")
    parser.add_argument("--deals", type=int, default=60)
    parser.add_argument("--runs", type=int, default=2, help="runs per drill and deal")
    parser.add_argument("--seed", type=int, default=1, help="the seed of the deals and the runs")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="processes to sample in")
    args = parser.parse_args()
    known = curriculum()
    drills = [known[name] for name in args.drill] if args.drill else list(known.values())
    started = time.perf_counter()
    lines = list(sample(drills, args.deals, args.seed, args.runs, args.jobs))
    seconds = time.perf_counter() - started
    by_type = best_by_type(lines)
    again = repeats([line for line in lines if line["mode"] not in EXEMPT])
    exempt = Counter(kind_of(line) for line in lines if line["mode"] in EXEMPT)
    print(f"{len(lines)} questions: {len(drills)} drills × {args.deals} deals × {args.runs} runs "
          f"(sampled in {seconds:.1f} s)")
    print(f"{'type':<24}{'asked':>6}{'k':>6}{'best':>7}{'limit':>7}  ok   {'repeats':>7}  best strategy")
    failing = 0
    for kind, (asked, k, best, bound, name) in sorted(by_type.items()):
        verdict = "yes" if best <= bound else "NO "
        failing += best > bound
        print(f"{kind:<24}{asked:>6}{k:>6.1f}{best:>7.1%}{bound:>7.1%}  {verdict}  "
              f"{again[kind] / asked:>7.1%}  {name}")
    for kind, asked in sorted(exempt.items()):
        print(f"{kind:<24}{asked:>6}{'':>6}{'':>7}{'':>7}  exempt ({EXEMPT[kind.split(':')[0]]})")
    print(f"types over the limit: {failing} of {len(by_type)} ({len(exempt)} exempt); repeated questions: {sum(again.values())} "
          f"({sum(again.values()) / max(1, len(lines)):.1%})")


if __name__ == "__main__":
    main()
