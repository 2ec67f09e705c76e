"""How fast a player counts and stays right (training.md §5): the count speed of a family and the flash level.

Both are one rule: the fastest setting at which the player's last answers at that setting *or harder* are
right often enough — for count speed the reveal pace in cards per second (harder: faster), over the last 20
answers at ≥ 90 %; for the flash level the flash time in ms (harder: shorter), over the last 10 flashes at
≥ 80 %. Too few answers at a setting: it is not known to be kept (None: unclear). Pure functions of the
answers, oldest first, so the daily scheduler, /stats and the tests compute the same figure.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import NamedTuple

COUNT_SPEED_WINDOW, COUNT_SPEED_SHARE = 20, 0.9
FLASH_WINDOW, FLASH_SHARE = 10, 0.8


class Paced(NamedTuple):
    """One answer given at a setting (`pace`: cards per second, or a flash time in ms) and whether it was right."""

    pace: float
    correct: bool


def kept(answers: Sequence[Paced], window: int, share: float, harder: Callable[[float, float], bool]) -> float | None:
    """The hardest setting `s` of `answers` (oldest first) whose last `window` answers at `s` or harder
    (`harder(setting, s)`) are right at `share` or more; None when no setting has `window` such answers kept."""
    best: float | None = None
    for setting in sorted({answer.pace for answer in answers}):
        recent = [answer.correct for answer in answers if harder(answer.pace, setting)][-window:]
        if len(recent) == window and sum(recent) >= share * window and (best is None or harder(setting, best)):
            best = setting
    return best


def count_speed(answers: Iterable[Paced]) -> float | None:
    """The fastest reveal pace (cards per second) at which the player keeps ≥ 90 % right over their last 20
    answers at that pace or faster; None (unclear) when no pace has 20 such answers at 90 %. `answers` are one
    family's, oldest first, as (pace, correct).

    >>> count_speed([Paced(2.0, True)] * 20 + [Paced(4.0, True)] * 18 + [Paced(4.0, False)] * 2)
    4.0
    >>> count_speed([Paced(2.0, True)] * 20 + [Paced(4.0, False)] * 2), count_speed([Paced(3.0, True)] * 19)
    (2.0, None)
    """
    return kept(list(answers), COUNT_SPEED_WINDOW, COUNT_SPEED_SHARE, lambda pace, at: pace >= at)


def flash_level(flashes: Iterable[Paced]) -> int | None:
    """The shortest flash time F (ms) at which the player keeps ≥ 80 % right over their last 10 flashes at F or
    shorter; None (unclear) when none has. `flashes` are (F, correct), oldest first.

    >>> flash_level([Paced(1500, True)] * 8 + [Paced(1200, True)] * 2 + [Paced(1200, False)])
    1500
    """
    level = kept(list(flashes), FLASH_WINDOW, FLASH_SHARE, lambda ms, at: ms <= at)
    return None if level is None else round(level)
