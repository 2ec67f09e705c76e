"""No-memory strategies aimed at the 够级 questions (bench/questions.py adds them to its battery): what a
player reads off a six-seat table without memory: the round's plays (`visible.trick`), its own hand, the
opening value, the round number (the table shows it), the seat sizes the drill shows, the options and
their order; and what the sample teaches per round, per subject and per position of the answer among
the options. Numeric guesses are given as the option's value on a choice among numbers."""
from __future__ import annotations

from collections import Counter, defaultdict
from typing import Any, Callable

Line = dict[str, Any]
Guess = Any
JOKERS = ("BJ", "SJ")
ROUND_BUCKETS = (3, 6, 10, 15, 1000)


def _rank(card: str) -> str:
    return card if card in JOKERS else card[:-1]


def _round_bucket(line: Line) -> int:
    number = int(line["position"].split(".")[0])
    return next(index for index, top in enumerate(ROUND_BUCKETS) if number <= top)


def _as_option(line: Line, guess: Guess) -> Guess:
    """A number guessed on a choice among numbers: that option's value (None when it is not shown)."""
    if guess is None or line["kind"] == "number" or isinstance(guess, (bool, list)):
        return guess
    shown = [option["value"] for option in line["options"]]
    return str(guess) if str(guess) in shown else None


def _subject_ranks(line: Line) -> tuple[str, ...]:
    rank = line["subject"].get("rank")
    return (rank,) if rank is not None else ()


def visible_of_subject(line: Line, others_only: bool) -> int | None:
    """Cards of the subject rank in the round's plays (only other seats' with `others_only`), or for a seat
    subject the jokers (jokers_shown) or plays (gouji_plays) it made in the round."""
    trick = line["visible"]["trick"] or []
    seat = line["subject"].get("seat")
    if seat is not None:
        plays = [cards for q, cards in trick if q == seat]
        if line["type"] == "jokers_shown":
            return sum(_rank(card) in JOKERS for cards in plays for card in cards)
        return len(plays)
    ranks = _subject_ranks(line)
    if not ranks:
        return None
    return sum(_rank(card) in ranks for q, cards in trick if not others_only or q != line["seat"] for card in cards)


def table_answer(line: Line) -> int | None:
    """The answer read off the table: the opening value moved by what the round shows (counts of cards out
    go down by the others' cards of the rank played, counts of plays go up by the seat's plays)."""
    opening = line["visible"]["opening"]
    if not isinstance(opening, int) or isinstance(opening, bool):
        return None
    seen = visible_of_subject(line, others_only=line["type"] in ("rank_unseen", "hua_qian_out"))
    if seen is None:
        return None
    if line["type"] in ("jokers_shown", "gouji_plays", "sets_played"):
        return opening + seen
    return opening - seen


class GoujiLearned:
    """What the 够级 strategies learn from the other half of the deals: answers by type and round bucket (and
    subject), offsets from the table answer by type (and round bucket), the answer's position among the
    options by type."""

    def __init__(self, lines: list[Line]) -> None:
        self.by_round: dict[tuple[str, int], Counter[Any]] = defaultdict(Counter)
        self.by_round_subject: dict[tuple[str, int, str], Counter[Any]] = defaultdict(Counter)
        self.offsets: dict[tuple[str, int | None], Counter[int]] = defaultdict(Counter)
        self.positions: dict[str, Counter[int]] = defaultdict(Counter)
        for line in lines:
            answer = line["answer"]
            if isinstance(answer, list):
                continue
            bucket = _round_bucket(line)
            self.by_round[(line["type"], bucket)][answer] += 1
            self.by_round_subject[(line["type"], bucket, str(line["subject"]))][answer] += 1
            values = [option["value"] for option in line["options"]]
            if answer in values:
                self.positions[line["type"]][values.index(answer)] += 1
            base = table_answer(line)
            number = _number(answer)
            if base is not None and number is not None:
                self.offsets[(line["type"], None)][number - base] += 1
                self.offsets[(line["type"], bucket)][number - base] += 1

    def top(self, counter: Counter[Any]) -> Any:
        """The most common entry, None when there is none."""
        found = counter.most_common(1)
        return found[0][0] if found else None


def _number(answer: Any) -> int | None:
    if isinstance(answer, bool):
        return None
    if isinstance(answer, int):
        return answer
    return int(answer) if isinstance(answer, str) and answer.lstrip("-").isdigit() else None


GoujiStrategy = Callable[[Line, GoujiLearned], Guess]


def _offset(by_round: bool) -> GoujiStrategy:
    def guess(line: Line, learned: GoujiLearned) -> Guess:
        base = table_answer(line)
        if base is None:
            return None
        move = learned.top(learned.offsets[(line["type"], _round_bucket(line) if by_round else None)])
        return _as_option(line, base + (move or 0))
    return guess


def _position(line: Line, learned: GoujiLearned) -> Guess:
    index = learned.top(learned.positions[line["type"]])
    values = [option["value"] for option in line["options"]]
    return values[index] if index is not None and index < len(values) else None


GOUJI_STRATEGIES: dict[str, GoujiStrategy] = {
    "够级: the table answer": lambda line, learned: _as_option(line, table_answer(line)),
    "够级: the table answer + usual offset": _offset(False),
    "够级: the table answer + usual offset at this round": _offset(True),
    "够级: the opening value as an option": lambda line, learned: _as_option(line, line["visible"]["opening"]),
    "够级: most common answer at this round": lambda line, learned: learned.top(
        learned.by_round[(line["type"], _round_bucket(line))]),
    "够级: most common answer at this round and subject": lambda line, learned: learned.top(
        learned.by_round_subject[(line["type"], _round_bucket(line), str(line["subject"]))]),
    "够级: the usual position among the options": _position,
}
"""The 够级 strategies, by name; each answers from a line and what it learned."""
