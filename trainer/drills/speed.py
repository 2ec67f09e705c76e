"""How fast a player counts and stays right (training.md §5): the count speed of a family and the flash level.

Both are one rule: the fastest setting at which the player's last answers at that setting *or harder* are
right often enough — for count speed the reveal pace in cards per second (harder: faster), over the last 20
answers at ≥ 90 %; for the flash level the flash time in ms (harder: shorter), over the last 10 flashes at
≥ 80 %. Too few answers at a setting: it is not known to be kept (None: unclear). Pure functions of the
answers, oldest first, so the daily scheduler, /stats and the tests compute the same figure.
"""
from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from typing import NamedTuple

COUNT_SPEED_WINDOW, COUNT_SPEED_SHARE = 20, 0.9
FLASH_WINDOW, FLASH_SHARE = 10, 0.8


class Paced(NamedTuple):
    """One answer given at a setting (`pace`: cards per second, or a flash time in ms) and whether it was right."""

    pace: float
    correct: bool


class Kept:
    """The hardest setting kept so far, answer by answer (`add`, oldest first; `value`): for each setting met,
    the last `window` answers at it or harder (`harder(setting, at)`), so a history is read once."""

    def __init__(self, window: int, share: float, harder: Callable[[float, float], bool]) -> None:
        self.window, self.share, self.harder = window, share, harder
        self.answers: list[Paced] = []
        self.recent: dict[float, deque[bool]] = {}
        self.rights: dict[float, int] = {}

    def add(self, answer: Paced) -> None:
        """One more answer: counted at its own setting and every easier one (a new setting reads the history)."""
        if answer.pace not in self.recent:
            last = deque((a.correct for a in self.answers if self.harder(a.pace, answer.pace)), maxlen=self.window)
            self.recent[answer.pace], self.rights[answer.pace] = last, sum(last)
        self.answers.append(answer)
        for setting, last in self.recent.items():
            if self.harder(answer.pace, setting):
                dropped = last[0] if len(last) == self.window else False
                last.append(answer.correct)
                self.rights[setting] += answer.correct - dropped

    def value(self) -> float | None:
        """The hardest setting whose last `window` answers at it or harder are right at `share` or more (None:
        none has `window` such answers kept: unclear)."""
        best: float | None = None
        for setting, last in self.recent.items():
            if len(last) == self.window and self.rights[setting] >= self.share * self.window and (
                    best is None or self.harder(setting, best)):
                best = setting
        return best


def kept(answers: Iterable[Paced], window: int, share: float, harder: Callable[[float, float], bool]) -> float | None:
    """`Kept.value` after all of `answers` (oldest first)."""
    tally = Kept(window, share, harder)
    for answer in answers:
        tally.add(answer)
    return tally.value()


def faster(pace: float, at: float) -> bool:
    """Whether a reveal pace is `at` or faster (more cards per second)."""
    return pace >= at


def shorter(ms: float, at: float) -> bool:
    """Whether a flash time is `at` or shorter."""
    return ms <= at


def count_speed(answers: Iterable[Paced]) -> float | None:
    """The fastest reveal pace (cards per second) at which the player keeps ≥ 90 % right over their last 20
    answers at that pace or faster; None (unclear) when no pace has 20 such answers at 90 %. `answers` are one
    family's, oldest first, as (pace, correct).

    >>> count_speed([Paced(2.0, True)] * 20 + [Paced(4.0, True)] * 18 + [Paced(4.0, False)] * 2)
    4.0
    >>> count_speed([Paced(2.0, True)] * 20 + [Paced(4.0, False)] * 2), count_speed([Paced(3.0, True)] * 19)
    (2.0, None)
    """
    return kept(answers, COUNT_SPEED_WINDOW, COUNT_SPEED_SHARE, faster)


def flash_level(flashes: Iterable[Paced]) -> int | None:
    """The shortest flash time F (ms) at which the player keeps ≥ 80 % right over their last 10 flashes at F or
    shorter; None (unclear) when none has. `flashes` are (F, correct), oldest first.

    >>> flash_level([Paced(1500, True)] * 8 + [Paced(1200, True)] * 2 + [Paced(1200, False)])
    1500
    """
    level = kept(flashes, FLASH_WINDOW, FLASH_SHARE, shorter)
    return None if level is None else round(level)
