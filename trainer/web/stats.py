"""The progress dashboard (`/stats`): rating history per skill, accuracy and answer time per question
type per week, a year's practice calendar, the weakest skills and suits, and the causes of mistakes.

It reads the practice days (`PracticeDay`, one row per user, day and skill kept as answers come), the
user's skills and a count of mistakes per cause: three indexed queries whose size depends on the
days practised, not on the number of answers, and never on other users. Charts are SVG drawn by
the Jinja macros of `templates/stats/_charts.html` from the points computed here.
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from flask import Blueprint, g, request
from flask_babel import gettext as _
from sqlmodel import col, func, select

from trainer.drills.daily import OVERALL, all_skills, split_skill
from trainer.web.auth import login_required
from trainer.web.daily import SUIT_TALLY, local_day, settings, skill_label, streak, utcnow
from trainer.web.db import get_session
from trainer.web.models import Attempt, PracticeDay, UserSkill
from trainer.web.quiz import question_label, suit_name
from trainer.web.responses import render_page

bp = Blueprint("stats", __name__)

WIDTH, HEIGHT, PAD = 320.0, 120.0, 4.0
"""A chart's drawing area (SVG user units; the SVG scales to the page's width)."""
WEEKS = 12
"""Weeks the accuracy charts show."""
WEAKEST = 5
"""How many weakest skills and suits are named."""
MIN_ANSWERS = 3
"""A skill or suit is ranked among the weakest only with at least this many answers."""


@dataclass(frozen=True, slots=True)
class Line:
    """A chart's line: its points in drawing units, the first and last values, the value range."""

    points: str
    low: float
    high: float
    first: float
    last: float
    start: date | None
    end: date | None


def line(values: Sequence[tuple[date, float]], low: float | None = None, high: float | None = None) -> Line | None:
    """`values` (by date) as a polyline over the chart's width, scaled between `low` and `high`
    (their own range by default); None without values."""
    if not values:
        return None
    bottom = min(v for _d, v in values) if low is None else low
    top = max(v for _d, v in values) if high is None else high
    top = top if top > bottom else bottom + 1
    first, span = values[0][0], max((values[-1][0] - values[0][0]).days, 1)
    points = " ".join(f"{PAD + (WIDTH - 2 * PAD) * ((d - first).days / span if len(values) > 1 else 0.5):.1f},"
                      f"{HEIGHT - PAD - (HEIGHT - 2 * PAD) * (v - bottom) / (top - bottom):.1f}" for d, v in values)
    return Line(points, bottom, top, values[0][1], values[-1][1], values[0][0], values[-1][0])


@dataclass(frozen=True, slots=True)
class Bar:
    """One bar of a weekly chart: its place and height in drawing units, and what it shows."""

    x: float
    height: float
    week: date
    asked: int
    accuracy: float
    seconds: float


@dataclass(frozen=True, slots=True)
class TypeWeeks:
    """One question type's last weeks: a bar of accuracy per week, and its answers in all."""

    kind: str
    label: str
    bars: list[Bar]
    asked: int
    accuracy: float
    seconds: float


@dataclass(frozen=True, slots=True)
class Day:
    """A day of the practice calendar: its place (week column, weekday row) and its shade 0–4."""

    day: date
    column: int
    row: int
    asked: int
    shade: int


@dataclass(frozen=True, slots=True)
class Ranked:
    """A skill or suit among the weakest: its name, its answers, its accuracy, its rating (skills)."""

    key: str
    label: str
    asked: int
    accuracy: float
    rating: float | None


def cause_label(cause: str) -> str:
    """A mistake cause in words."""
    labels = {"ruff": _("A ruff not counted"), "kitty": _("The kitty (底牌)"),
              "level": _("Level cards counted in their printed suit"), "jokers": _("Jokers"),
              "pair": _("A pair broken"), "other": _("Other")}
    return labels.get(cause, cause)


def monday(day: date) -> date:
    """The Monday of `day`'s week."""
    return day - timedelta(days=day.weekday())


def calendar(per_day: dict[date, int], today: date) -> list[Day]:
    """A year of days up to `today` in week columns (Monday on top), shaded by answers (0 none, then
    quartiles of the busiest day)."""
    start = monday(today - timedelta(days=364))
    busiest = max(per_day.values(), default=0)
    days = []
    for offset in range((today - start).days + 1):
        day = start + timedelta(days=offset)
        asked = per_day.get(day, 0)
        shade = 0 if not asked else min(4, 1 + 4 * (asked - 1) // max(busiest, 1))
        days.append(Day(day, offset // 7, offset % 7, asked, shade))
    return days


def weekly(rows: Sequence[PracticeDay], today: date) -> list[TypeWeeks]:
    """Per question type answered in the last `WEEKS` weeks: accuracy and mean time per week."""
    first = monday(today) - timedelta(weeks=WEEKS - 1)
    tallies: dict[str, dict[date, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0, 0]))
    for row in rows:
        if row.day >= first and ":" in row.skill and not row.skill.startswith(SUIT_TALLY):
            tally = tallies[split_skill(row.skill)[0]][monday(row.day)]
            tally[0], tally[1], tally[2] = tally[0] + row.asked, tally[1] + row.right, tally[2] + row.ms
    out = []
    step = (WIDTH - 2 * PAD) / WEEKS
    for kind in sorted(tallies, key=lambda k: list(dict.fromkeys(split_skill(s)[0] for s in all_skills())).index(k)):
        weeks = tallies[kind]
        bars = [Bar(PAD + step * index, (HEIGHT - 2 * PAD) * right / asked, week, asked, right / asked, ms / asked / 1000)
                for index in range(WEEKS) for week in [first + timedelta(weeks=index)]
                for asked, right, ms in [weeks.get(week, [0, 0, 0])] if asked]
        asked = sum(t[0] for t in weeks.values())
        out.append(TypeWeeks(kind, question_label(kind), bars, asked, sum(t[1] for t in weeks.values()) / asked,
                             sum(t[2] for t in weeks.values()) / asked / 1000))
    return out


@dataclass(frozen=True, slots=True)
class Dashboard:
    """Everything `/stats` shows."""

    today: date
    streak: int
    overall: Line | None
    skill: str | None
    skill_line: Line | None
    skills: list[tuple[str, str]]
    weeks: list[TypeWeeks]
    days: list[Day]
    year_answers: int
    weakest_skills: list[Ranked]
    weakest_suits: list[Ranked]
    causes: list[tuple[str, str, int]]
    bar_width: float


def dashboard(user_id: int, chosen: str | None) -> Dashboard:
    """The dashboard of user `user_id`, the rating history of skill `chosen` (else the weakest)."""
    db = get_session()
    today = local_day(utcnow(), settings(user_id).timezone)
    rows = db.exec(select(PracticeDay).where(PracticeDay.user_id == user_id,
                                             col(PracticeDay.day) > today - timedelta(days=371))
                   .order_by(col(PracticeDay.day))).all()
    skills = db.exec(select(UserSkill).where(UserSkill.user_id == user_id)).all()
    causes = db.exec(select(Attempt.cause, func.count()).where(Attempt.user_id == user_id,
                                                               col(Attempt.cause).is_not(None))
                     .group_by(col(Attempt.cause))).all()
    per_key: dict[str, list[PracticeDay]] = defaultdict(list)
    for row in rows:
        per_key[row.skill].append(row)
    totals = {key: (sum(r.asked for r in items), sum(r.right for r in items)) for key, items in per_key.items()}
    ranked = sorted((s for s in skills if s.skill != OVERALL and s.answers >= MIN_ANSWERS), key=lambda s: s.rating)
    met = [(s.skill, skill_label(s.skill)) for s in sorted(skills, key=lambda s: all_skills().index(s.skill)
                                                             if s.skill in all_skills() else -1) if s.skill != OVERALL]
    skill = chosen if chosen in dict(met) else (ranked[0].skill if ranked else met[0][0] if met else None)
    suits = sorted(((key.removeprefix(SUIT_TALLY), asked, right) for key, (asked, right) in totals.items()
                    if key.startswith(SUIT_TALLY) and asked >= MIN_ANSWERS), key=lambda t: t[2] / t[1])
    overall = [(r.day, r.rating) for r in per_key.get(OVERALL, [])]
    return Dashboard(
        today, streak(db, user_id, today), line(overall), skill,
        line([(r.day, r.rating) for r in per_key.get(skill or "", [])]), met, weekly(rows, today),
        calendar({r.day: r.asked for r in per_key.get(OVERALL, [])}, today), sum(r.asked for r in per_key.get(OVERALL, [])),
        [Ranked(s.skill, skill_label(s.skill), *_share(totals.get(s.skill)), s.rating) for s in ranked[:WEAKEST]],
        [Ranked(suit, suit_name(suit), asked, right / asked, None) for suit, asked, right in suits[:WEAKEST]],
        sorted(((cause or "other", cause_label(cause or "other"), count) for cause, count in causes),
               key=lambda t: -t[2]),
        (WIDTH - 2 * PAD) / WEEKS - 2)


def _share(total: tuple[int, int] | None) -> tuple[int, float]:
    """Answers and accuracy of a (asked, right) total."""
    asked, right = total or (0, 0)
    return asked, right / asked if asked else 0.0


@bp.route("/stats")
@login_required
def index() -> Any:
    """The dashboard; `?skill=` picks the skill whose rating history is drawn (htmx swaps that chart)."""
    board = dashboard(g.user.id, request.args.get("skill"))
    return render_page("stats/index.html", "stats/_rating.html", board=board, width=WIDTH, height=HEIGHT)
