"""Places and level gains with the A rule (guandan.md §3.2, §3.3, §4.1).

>>> result = level_gain([0, 2], levels=(13, 5), dajia=0)
>>> result.kind, result.gain, result.levels, result.next_level, result.next_dajia
('1-2', 3, (14, 5), 14, 0)
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from trainer.engine.errors import MalformedError, shown
from trainer.engine.seats import Seat
from trainer.guandan.level import ACE
from trainer.guandan.rules import GuandanRules

GAINS = {"1-2": 3, "1-3": 2, "1-4": 1}
"""Levels the winning team gains by its partner's place (§3.3)."""


def check_places(places: Sequence[int]) -> tuple[Seat, ...]:
    """A possible finish order (§3.2): two partners (1-2) or three seats, the first two opponents;
    anything else is malformed."""
    seats = tuple(Seat.parse(seat) for seat in places)
    if len(set(seats)) != len(seats):
        raise MalformedError(f"places {shown(list(places))}: a seat finishes once")
    if len(seats) == 2 and seats[0].partner == seats[1]:
        return seats
    if len(seats) == 3 and seats[0].partner != seats[1]:
        return seats
    raise MalformedError(f"places {shown(list(places))} is no finish order: two partners (1-2) or three "
                         "seats whose first two are opponents")


def finish_kind(places: Sequence[int]) -> str:
    """"1-2", "1-3" or "1-4": the place of the 上游's partner."""
    seats = check_places(places)
    if len(seats) == 2:
        return "1-2"
    return "1-3" if seats[2] == seats[0].partner else "1-4"


def last_place(places: Sequence[int]) -> Seat | None:
    """下游: the seat not out when three are; None after a 1-2 (both losers are 下游)."""
    seats = check_places(places)
    return None if len(seats) == 2 else next(Seat(s) for s in range(4) if s not in seats)


@dataclass(frozen=True, slots=True)
class LevelResult:
    """The level change of one hand: the winning team, kind, gain, levels and A failures after, what
    happened at A (None, "win", "fail", "reset"), whether the match is over, and the next hand's level
    and 打家 (None once the match is over)."""

    winner: int
    kind: str
    gain: int
    levels: tuple[int, int]
    a_failures: tuple[int, int]
    a_result: str | None
    match_over: bool
    next_level: int | None
    next_dajia: int | None


def level_gain(places: Sequence[int], levels: tuple[int, int], dajia: int | None,
               a_failures: tuple[int, int] = (0, 0), rules: GuandanRules | None = None) -> LevelResult:
    """The result of a hand finished in `places`, played by teams at `levels` with 打家 `dajia` (§3.3):
    the 上游's team gains 3/2/1 up to A; at the 打家's A, a 1-2 or 1-3 win wins the match, anything else
    fails, and the `a_limit`-th failure sends the team back to 2."""
    a_limit = (rules or GuandanRules()).a_limit
    kind = finish_kind(places)
    winner = Seat(places[0]).team
    gain = GAINS[kind]
    new_levels, failures = list(levels), list(a_failures)
    a_result = None
    if dajia is not None and levels[dajia] == ACE:
        if winner == dajia and kind != "1-4":
            a_result = "win"
        else:
            failures[dajia] += 1
            a_result = "fail"
            if a_limit and failures[dajia] >= a_limit:
                new_levels[dajia], failures[dajia], a_result = 2, 0, "reset"
    if a_result != "reset" or winner != dajia:
        new_levels[winner] = min(ACE, new_levels[winner] + gain)
    over = a_result == "win"
    return LevelResult(winner, kind, gain, (new_levels[0], new_levels[1]), (failures[0], failures[1]), a_result,
                       over, None if over else new_levels[winner], None if over else winner)
