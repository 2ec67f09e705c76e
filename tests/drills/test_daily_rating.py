"""Glicko-2 (Glickman's worked example and properties) and the daily training's pure rules: phases,
skills, grading by time, the FSRS schedule, difficulty estimates and pace."""
from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest
from fsrs import Card, Rating
from hypothesis import given
from hypothesis import strategies as st

from tests.every_question import every_question
from trainer.bots.random import random_record
from trainer.drills.daily import (
    ANSWER_KINDS,
    WIDE_TYPES,
    all_skills,
    estimate,
    grade,
    pace_for,
    pace_of,
    phase_of,
    scheduler,
    skill_name,
    split_skill,
)
from trainer.drills.glicko import MAX_DEVIATION, MIN_DEVIATION, Glicko, play
from trainer.drills.questions import QUESTION_TYPES
from trainer.records import Position, parse_record
from trainer.signals.quiz import QUESTION_TYPES as SIGNAL_TYPES


def test_glickmans_worked_example() -> None:
    # Glickman, "Example of the Glicko-2 system": a 1500/200/0.06 player beats 1400/30, loses to
    # 1550/100 and 1700/300; afterwards r' = 1464.06, RD' = 151.52, σ' = 0.05999.
    after = Glicko(1500, 200, 0.06).update([(Glicko(1400, 30), 1), (Glicko(1550, 100), 0), (Glicko(1700, 300), 0)])
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_a_period_without_games_only_widens_the_deviation() -> None:
    after = Glicko(1600, 100, 0.06).update([])
    assert after.rating == 1600 and after.deviation == pytest.approx((100**2 + (0.06 * 173.7178) ** 2) ** 0.5)
    assert Glicko(1600, 349.99, 0.06).update([]).deviation == MAX_DEVIATION


def test_expected_score_is_a_half_between_equals() -> None:
    assert Glicko(1500, 200).expected(Glicko(1500, 200)) == pytest.approx(0.5)
    assert Glicko(1700, 50).expected(Glicko(1500, 50)) > 0.7


ratings = st.builds(Glicko, st.floats(600, 2600), st.floats(MIN_DEVIATION, MAX_DEVIATION), st.floats(0.03, 0.09))


@given(ratings, ratings, st.booleans())
def test_a_right_answer_raises_the_player_and_lowers_the_position(player: Glicko, position: Glicko,
                                                                  right: bool) -> None:
    after, rated = play(player, position, right)
    assert (after.rating > player.rating) == right and (rated.rating < position.rating) == right
    assert MIN_DEVIATION <= after.deviation <= MAX_DEVIATION and MIN_DEVIATION <= rated.deviation <= MAX_DEVIATION


def test_phases_split_a_deal_of_25_tricks() -> None:
    assert [phase_of(t, 25) for t in (1, 6, 7, 19, 20, 25)] == ["early", "early", "middle", "middle", "late", "late"]
    assert phase_of(5, 8) == "early" and phase_of(7, 8) == "late"


def test_skills_are_question_type_by_phase_then_the_signal_kinds() -> None:
    skills = all_skills()
    asked = [kind for kind in QUESTION_TYPES if kind not in WIDE_TYPES]  # the daily draws standard deals
    assert len(skills) == 3 * len(asked) + len(SIGNAL_TYPES) == len(set(skills))
    assert not {split_skill(skill)[0] for skill in skills} & set(WIDE_TYPES)
    assert skills[:3] == ["trumps_unseen:early", "trumps_unseen:middle", "trumps_unseen:late"]
    assert skills[-len(SIGNAL_TYPES):] == list(SIGNAL_TYPES)
    assert split_skill(skill_name("live_pairs", "late")) == ("live_pairs", "late")
    for kind in SIGNAL_TYPES:  # one skill whatever the phase
        assert skill_name(kind, "early") == skill_name(kind, "late") == kind and split_skill(kind) == (kind, "")
        assert 0 < pace_for(kind).fast < pace_for(kind).slow


@pytest.mark.parametrize(("kind", "right", "ms", "rating"), [
    ("trumps_unseen", False, 500, Rating.Again), ("trumps_unseen", True, 5_999, Rating.Easy),
    ("trumps_unseen", True, 6_000, Rating.Good), ("trumps_unseen", True, 20_000, Rating.Good),
    ("trumps_unseen", True, 20_001, Rating.Hard), ("top_in_play", True, 4_000, Rating.Easy),
    ("top_in_play", True, 16_000, Rating.Hard), ("voids", True, 9_000, Rating.Easy),
    ("voids", True, 29_000, Rating.Good),
    ("live_pairs", True, 11_000, Rating.Easy), ("live_pairs", True, 39_000, Rating.Good),
    ("live_pairs", True, 41_000, Rating.Hard), ("live_pairs", False, 41_000, Rating.Again)])
def test_grading_by_correctness_and_time(kind: str, right: bool, ms: int, rating: Rating) -> None:
    assert grade(kind, right, ms) == rating


def test_every_question_type_has_thresholds() -> None:
    for kind in QUESTION_TYPES:
        assert 0 < pace_for(kind).fast < pace_for(kind).slow


def test_the_schedule_has_no_same_day_steps_and_grows_with_good_answers() -> None:
    fsrs, now = scheduler(), datetime(2027, 1, 1, tzinfo=UTC)
    card, _log = fsrs.review_card(Card(), Rating.Again, now)
    assert card.due - now >= timedelta(days=1)  # a miss comes back tomorrow, not in ten minutes
    gaps, when = [], now
    for _ in range(4):
        card, _log = fsrs.review_card(card, Rating.Good, when)
        gaps.append(card.due - when)
        when = card.due
    assert gaps == sorted(gaps) and gaps[-1] > gaps[0]


def test_difficulty_estimates_grow_with_plays_type_and_pace() -> None:
    assert estimate("trumps_unseen", 80, 2.0) > estimate("trumps_unseen", 8, 2.0)
    assert estimate("live_tractor", 40, 2.0) > estimate("trumps_unseen", 40, 2.0)
    assert estimate("voids", 40, 4.0) == pytest.approx(estimate("voids", 40, 2.0) + 150)


def test_pace_rises_with_the_rating_within_bounds() -> None:
    assert pace_of(1500) == 2.0 and pace_of(2100) == 4.0 and pace_of(900) == 1.0
    assert pace_of(0) == 1.0 and pace_of(4000) == 6.0
    assert all(pace_of(r) <= pace_of(r + 50) for r in range(600, 2600, 50))


def test_answer_kinds_are_those_the_questions_have() -> None:
    seen = {}
    for seed in range(6):
        record = parse_record(random_record(random.Random(seed)))
        for trick in (3, 12, 20):
            for question, _snap in every_question(record, seed % 4, Position(trick, 4)):
                seen[question.type] = question.kind
    assert seen and all(ANSWER_KINDS[kind] == answer for kind, answer in seen.items())
    assert set(ANSWER_KINDS) == set(QUESTION_TYPES)
