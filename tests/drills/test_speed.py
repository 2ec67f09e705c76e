"""Count speed and the flash level (training.md §5): the fastest setting kept right often enough over the last
answers at it or harder, checked against the definition read literally and against hand-made cases."""
from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from trainer.drills.speed import Paced, count_speed, flash_level

PACES = st.sampled_from([1.0, 1.5, 2.0, 3.0, 4.0, 6.0])
ANSWERS = st.lists(st.builds(Paced, PACES, st.booleans()), max_size=80)


def literal_count_speed(answers: list[Paced]) -> float | None:
    """§5 word by word: for each pace, its last 20 answers at that pace or faster, ≥ 90 % right; the fastest."""
    kept = []
    for pace in {answer.pace for answer in answers}:
        last = [answer.correct for answer in answers if answer.pace >= pace][-20:]
        if len(last) == 20 and sum(last) / 20 >= 0.9:
            kept.append(pace)
    return max(kept, default=None)


@given(ANSWERS)
def test_count_speed_is_the_fastest_pace_kept_at_ninety_percent(answers) -> None:
    assert count_speed(answers) == literal_count_speed(answers)


@given(ANSWERS, PACES)
def test_twenty_right_answers_at_a_faster_pace_never_lower_the_count_speed(answers, pace) -> None:
    before = count_speed(answers)
    after = count_speed([*answers, *[Paced(pace, True)] * 20])
    assert after is not None and after >= pace and (before is None or after >= min(before, pace))


def test_count_speed_cases() -> None:
    steady = [Paced(2.0, True)] * 20
    assert count_speed(steady) == 2.0
    assert count_speed(steady[:19]) is None  # under 20 answers: unclear
    assert count_speed([*steady, *[Paced(3.0, True)] * 19, Paced(3.0, False)]) == 3.0  # 19 of 20 at 3: kept
    assert count_speed([*steady, *[Paced(3.0, True)] * 18, *[Paced(3.0, False)] * 2]) == 3.0  # 18 of 20: 90 %
    assert count_speed([*steady, *[Paced(3.0, True)] * 17, *[Paced(3.0, False)] * 3]) is None  # 85 %, and at 2 too
    # slow answers do not count towards a faster pace; fast ones count towards a slower
    assert count_speed([*[Paced(4.0, True)] * 10, *[Paced(2.0, True)] * 10]) == 2.0


def test_the_flash_level_is_the_shortest_time_kept_at_eighty_percent() -> None:
    slow = [Paced(1500, True)] * 10
    assert flash_level(slow) == 1500 and flash_level(slow[:9]) is None
    fast = [*slow, *[Paced(1200, True)] * 8, *[Paced(960, True)] * 2]
    assert flash_level(fast) == 1200  # 10 at ≤ 1200 ms, all right; only 2 at 960
    assert flash_level([*fast, *[Paced(960, False)] * 2]) == 1200  # 8 of the last 10 at ≤ 1200 ms
    assert flash_level([*fast, *[Paced(960, False)] * 3]) is None  # misses at 960 ms count at every longer F too
    assert flash_level([*slow, *[Paced(1500, False)] * 3]) is None  # 7 of the last 10
