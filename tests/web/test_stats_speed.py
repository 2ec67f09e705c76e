"""/stats on a first day and the count speed beside the ratings (training.md §5): a day's answers drawn as a
path instead of a one-point rating chart, "unclear" for a rating of under three answers, and each family's count
speed over time as `speed.count_speed` computes it from the stored answers; with and without htmx."""
from __future__ import annotations

import re
from datetime import timedelta

from sqlmodel import col, select

from trainer.drills.speed import Paced, count_speed
from trainer.web.models import Attempt, UserSkill, utcnow
from trainer.web.stats import HEIGHT, PAD

from .drilling import HX, attempts, drive, session, start
from .pages import visible_text


def _path(page: str) -> list[tuple[float, float]]:
    found = re.search(r'<polyline points="([^"]*)" class="path-line"', page)
    assert found, page[:300]
    return [tuple(map(float, point.split(","))) for point in found.group(1).split()]


def test_a_first_day_draws_its_answers_as_a_path_and_a_rating_of_two_answers_is_unclear(app, alice) -> None:
    run_id = start(alice, "trumps")
    drive(alice, app, run_id, lambda index: index == 0, stop_after=2)
    for headers in ({}, HX):
        page = alice.get("/stats", headers=headers)
        assert page.status_code == 200 and "HX-Request" in page.headers["Vary"]
        assert ("<html" in page.text) == (not headers)
        text = visible_text(page.text)
        assert "今天答对 1 / 2" in text and "等级分还不清楚" in text
        assert 'class="rating-line"' not in page.text  # no one-point rating chart
        path = _path(page.text)
        assert len(path) == 2  # one point per answer: the share right after each, 1 then 1/2
        assert abs(path[0][1] - PAD) < 0.1 and abs(path[1][1] - (HEIGHT - PAD - (HEIGHT - 2 * PAD) / 2)) < 0.1
    drive(alice, app, run_id, lambda index: True, stop_after=2)
    answered = attempts(app, run_id)
    page = alice.get("/stats").text
    overall, chosen = re.findall(r'<figure class="chart day-path">(.*?)</figure>', page, re.S)
    assert f"今天答对 {sum(a.correct for a in answered)} / {len(answered)}" in visible_text(overall)
    assert "等级分还不清楚" not in visible_text(overall) and len(_path(page)) == len(answered)
    skill = re.search(r'<option value="([^"]+)" selected', page).group(1)
    with session(app) as db:
        answers = db.get(UserSkill, (answered[0].user_id, skill)).answers
    assert ("等级分还不清楚" in visible_text(chosen)) == (answers < 3)


def _paced(app, run_id: int, answers: list[tuple[int, str, float, bool]], first: int = 100) -> None:
    """Store answers of the run's user at checkpoints past the run's own, `days_ago` days back (days_ago, type,
    pace, right), as the answer view stores them."""
    with session(app) as db:
        model = db.exec(select(Attempt).where(Attempt.run_id == run_id)).first()
        assert model is not None
        now = utcnow()
        for offset, (days_ago, kind, pace, right) in enumerate(answers):
            db.add(Attempt(**{**model.model_dump(exclude={"id"}), "checkpoint": first + offset, "question_type": kind,
                              "pace": pace, "correct": right, "created": now - timedelta(days=days_ago)}))
        db.commit()


def test_the_count_speed_per_family_is_drawn_over_time(app, alice) -> None:
    run_id = start(alice, "trumps")
    drive(alice, app, run_id, lambda index: True, stop_after=1)
    answers = ([(3, "trumps_unseen", 2.0, True)] * 20 + [(2, "trumps_played", 3.0, True)] * 19
               + [(2, "trumps_played", 3.0, False)] + [(1, "big_trumps_out", 4.0, False)] * 3
               + [(0, "voids", 2.0, True)] * 5)
    _paced(app, run_id, answers)
    with session(app) as db:
        stored = db.exec(select(Attempt.created, Attempt.question_type, Attempt.pace, Attempt.correct)
                         .order_by(col(Attempt.created), col(Attempt.id))).all()
    trumps = [(created.date(), Paced(pace, right)) for created, kind, pace, right in stored if kind != "voids"]
    days = sorted({day for day, _answer in trumps})
    known = [speed for speed in (count_speed([a for d, a in trumps if d <= day]) for day in days) if speed is not None]
    assert len(known) >= 2 and count_speed([a for _d, a in trumps]) is None  # unclear after the misses at 4.0
    page = alice.get("/stats").text
    speed = re.search(r'<section class="box" id="count-speed">(.*?)</section>', page, re.S)
    assert speed is not None
    figures = dict(re.findall(r'data-family="(\w+)">(.*?)</figure>', speed.group(1), re.S))
    assert set(figures) == {"trumps", "voids"}
    line = re.search(r'<polyline points="([^"]*)" class="speed-line"', figures["trumps"])
    assert line is not None and len(line.group(1).split()) == len(known)  # one point per day it was known
    caption = visible_text(figures["trumps"])
    assert f"{known[0]:.2g} → " in caption and f"每秒 {known[-1]:.2g} 张" in caption
    assert "还不清楚" in visible_text(figures["voids"]) and "有出牌速度的答题 5 道" in visible_text(figures["voids"])
    assert 'id="count-speed"' not in alice.get("/stats?skill=overall", headers=HX).text  # htmx: the ratings only
    _paced(app, run_id, [(0, "suit_unseen", 2.0, True)] * 15, first=200)  # a new answer: the figure follows
    voids = re.search(r'data-family="voids">(.*?)</figure>', alice.get("/stats").text, re.S)
    assert voids is not None and "每秒 2 张" in visible_text(voids.group(1))
