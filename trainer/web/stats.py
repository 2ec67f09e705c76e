"""The progress dashboard (`/stats`): rating history per skill (on a first day, the day's answers as a path;
"unclear" for a rating of under three answers), count speed per family over time beside it, accuracy and
answer time per question type per week, a year's practice calendar, the weakest skills and suits, and the
causes of mistakes.

It reads the practice days (`PracticeDay`, one row per user, day and key kept as answers come), the
user's skills and a count of mistakes per cause: a handful of indexed queries whose size depends on
the days practised, not on the number of answers (the count speeds read the last `SPEED_ROWS` answers
with a pace), and never on other users. Charts are SVG drawn by
the Jinja macros of `templates/stats/_charts.html` from the points computed here.
"""
from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from flask import Blueprint, current_app, g, request
from flask_babel import gettext as _
from sqlmodel import col, func, select

from trainer.drills.daily import OVERALL, all_skills
from trainer.drills.families import family_of
from trainer.drills.gouji import QUESTION_TYPES as GOUJI_TYPES
from trainer.drills.speed import COUNT_SPEED_SHARE, COUNT_SPEED_WINDOW, Kept, Paced, faster
from trainer.web.auth import login_required
from trainer.web.daily import SUIT_TALLY, TYPE_TALLY, aware, local_day, settings, skill_labels, streak, utcnow, zone
from trainer.web.db import get_session
from trainer.web.memo import Memo
from trainer.web.models import Attempt, PracticeDay, UserSkill
from trainer.drills.questions import QUESTION_TYPES
from trainer.web.quiz import question_label, suit_name
from trainer.web.responses import render_page

bp = Blueprint("stats", __name__)

WIDTH, HEIGHT, PAD = 320.0, 120.0, 4.0
"""A chart's drawing area (SVG user units; the SVG scales to the page's width)."""
BARS_HEIGHT = 48.0
"""The height of a question type's weekly chart."""
WEEKS = 12
"""Weeks the accuracy charts show."""
FAMILY_ORDER = ("trumps", "points", "pairs", "voids", "top", "decisions", "signals", "gouji", "guandan")
"""The families as training.md §4 lists them."""
WEAKEST = 5
"""How many weakest skills and suits are named."""
MIN_ANSWERS = 3
"""A skill or suit is ranked among the weakest only with at least this many answers."""
SUITS = ("S", "H", "C", "D", "trump")
"""The suits a question may be about."""
SPEED_ROWS = 1000
"""How many of a player's last answers with a reveal pace the count speed history reads."""


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
class Path:
    """A day's answers as a path (a first day has one point of rating history): after each answer, the share
    right so far, over the chart's width; how many answers and how many right."""

    points: str
    asked: int
    right: int


def day_path(answers: Sequence[bool]) -> Path | None:
    """The answers of one day (right or not, in order) as a `Path`; None without answers."""
    if not answers:
        return None
    right, points = 0, []
    for index, correct in enumerate(answers):
        right += correct
        x = PAD + (WIDTH - 2 * PAD) * (index / (len(answers) - 1) if len(answers) > 1 else 0.5)
        points.append(f"{x:.1f},{HEIGHT - PAD - (HEIGHT - 2 * PAD) * right / (index + 1):.1f}")
    return Path(" ".join(points), len(answers), right)


def family_label(family: str) -> str:
    """A skill family (training.md §4) in words."""
    labels = {"trumps": _("Trumps (数主)"), "points": _("Points (算分)"), "pairs": _("Pairs (对子)"),
              "voids": _("Voids (绝门)"), "top": _("Top cards (大牌)"), "decisions": _("Decisions (决策)"),
              "signals": _("Signals (信号)"), "gouji": _("够级"), "guandan": _("掼蛋")}
    return labels.get(family, family)


def answer_family(kind: str) -> str | None:
    """The family of a stored answer's question type (None for a type no family lists)."""
    if kind in GOUJI_TYPES:
        return "gouji"
    try:
        return family_of(kind)
    except KeyError:
        return None


def speed_history(rows: Sequence[tuple[date, str, float, bool]]) -> dict[str, list[tuple[date, float]]]:
    """Per family, its count speed (`speed.count_speed`: cards per second) at the end of each day it is known,
    from (day, question type, pace, right) rows, oldest first: one pass (`speed.Kept`)."""
    tallies: dict[str, Kept] = {}
    current: dict[str, date] = {}
    days: dict[str, list[tuple[date, float | None]]] = defaultdict(list)
    for day, kind, pace, correct in rows:
        family = answer_family(kind)
        if family is None:
            continue
        tally = tallies.setdefault(family, Kept(COUNT_SPEED_WINDOW, COUNT_SPEED_SHARE, faster))
        if current.setdefault(family, day) != day:  # the family's day before has ended
            days[family].append((current[family], tally.value()))
            current[family] = day
        tally.add(Paced(pace, correct))
    for family, day in current.items():
        days[family].append((day, tallies[family].value()))
    return {family: [(day, speed) for day, speed in by_day if speed is not None] for family, by_day in days.items()}


@dataclass(frozen=True, slots=True)
class Speed:
    """One family's count speed over time: its line (None while unclear), its label, its answers with a pace."""

    family: str
    label: str
    line: Line | None
    answers: int


@dataclass(frozen=True, slots=True)
class Bar:
    """One bar of a weekly chart: its place (left, top) and height in drawing units, and what it shows."""

    x: float
    y: float
    height: float
    week: date
    asked: int
    accuracy: float
    seconds: float


@dataclass(frozen=True, slots=True)
class TypeWeeks:
    """One question type's last weeks: a bar of accuracy per week, a line of the mean answer time
    (the slowest week at the top), and its answers in all."""

    kind: str
    label: str
    bars: list[Bar]
    times: str
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
    """A year of days up to `today` in week columns (Monday on top), shaded by answers: 0 none, then
    1–4 by quarters of the busiest day (which is 4)."""
    start = monday(today - timedelta(days=364))
    busiest = max(per_day.values(), default=0)
    days = []
    for offset in range((today - start).days + 1):
        day = start + timedelta(days=offset)
        asked = per_day.get(day, 0)
        shade = 0 if not asked else max(1, math.ceil(4 * asked / busiest))
        days.append(Day(day, offset // 7, offset % 7, asked, shade))
    return days


def weekly(rows: Sequence[tuple[date, str, int, int, int]], today: date) -> list[TypeWeeks]:
    """Per question type answered in the last `WEEKS` weeks (from the types' practice days: day, key,
    asked, right, ms): accuracy and mean time per week."""
    first = monday(today) - timedelta(weeks=WEEKS - 1)
    tallies: dict[str, dict[date, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0, 0]))
    for day, key, asked, right, ms in rows:
        if day >= first:
            tally = tallies[key.removeprefix(TYPE_TALLY)][monday(day)]
            tally[0], tally[1], tally[2] = tally[0] + asked, tally[1] + right, tally[2] + ms
    out = []
    step = (WIDTH - 2 * PAD) / WEEKS
    kinds = list(QUESTION_TYPES)
    for kind in sorted(tallies, key=lambda k: kinds.index(k) if k in kinds else len(kinds)):
        weeks = tallies[kind]
        bars = []
        for index in range(WEEKS):
            week = first + timedelta(weeks=index)
            asked, right, ms = weeks.get(week, [0, 0, 0])
            if asked:
                height = max((BARS_HEIGHT - 2 * PAD) * right / asked, 1.0)
                bars.append(Bar(PAD + step * index, BARS_HEIGHT - PAD - height, height, week, asked, right / asked,
                                ms / asked / 1000))
        slowest = max((bar.seconds for bar in bars), default=1.0) or 1.0
        span = BARS_HEIGHT - 2 * PAD
        times = " ".join(f"{bar.x + (step - 2) / 2:.1f},{BARS_HEIGHT - PAD - span * bar.seconds / slowest:.1f}"
                         for bar in bars)
        asked, right, ms = (sum(t[n] for t in weeks.values()) for n in range(3))
        out.append(TypeWeeks(kind, question_label(kind), bars, times, asked, right / asked, ms / asked / 1000))
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
    overall_answers: int
    skill_answers: int
    overall_path: Path | None
    """Today's answers, when the rating history has one day only (else None)."""
    skill_path: Path | None
    speeds: list[Speed]


def dashboard(user_id: int, chosen: str | None) -> Dashboard:
    """The dashboard of user `user_id`, the rating history of skill `chosen` (else the weakest)."""
    db = get_session()
    today = local_day(utcnow(), settings(user_id).timezone)
    mine = (PracticeDay.user_id == user_id, col(PracticeDay.day) > today - timedelta(days=371))
    skills = db.exec(select(UserSkill.skill, UserSkill.rating, UserSkill.answers, UserSkill.right)
                     .where(UserSkill.user_id == user_id)).all()
    order = {skill: index for index, skill in enumerate(all_skills())}
    ranked = sorted((s for s in skills if s[0] != OVERALL and s[2] >= MIN_ANSWERS), key=lambda s: s[1])
    labels = skill_labels([s[0] for s in skills if s[0] != OVERALL])
    met = [(s[0], labels[s[0]]) for s in sorted(skills, key=lambda s: order.get(s[0], -1)) if s[0] != OVERALL]
    skill = chosen if chosen in dict(met) else (ranked[0][0] if ranked else met[0][0] if met else None)

    def history(key: str) -> list[tuple[date, int, float]]:
        return [(d, a, r) for d, a, r in db.exec(select(PracticeDay.day, PracticeDay.asked, PracticeDay.rating)
                                                 .where(*mine, PracticeDay.skill == key)
                                                 .order_by(col(PracticeDay.day))).all()]

    overall = history(OVERALL)
    types = db.exec(select(PracticeDay.day, PracticeDay.skill, PracticeDay.asked, PracticeDay.right, PracticeDay.ms)
                    .where(PracticeDay.user_id == user_id,
                           col(PracticeDay.day) >= monday(today) - timedelta(weeks=WEEKS - 1),
                           col(PracticeDay.skill).in_([f"{TYPE_TALLY}{kind}" for kind in QUESTION_TYPES]))).all()
    suits = db.exec(select(PracticeDay.skill, func.sum(PracticeDay.asked), func.sum(PracticeDay.right))
                    .where(*mine, col(PracticeDay.skill).in_([f"{SUIT_TALLY}{suit}" for suit in SUITS]))
                    .group_by(col(PracticeDay.skill))).all()
    weak_suits = sorted(((key.removeprefix(SUIT_TALLY), asked, right) for key, asked, right in suits
                         if asked >= MIN_ANSWERS), key=lambda t: t[2] / t[1])
    causes = db.exec(select(Attempt.cause, func.count()).where(Attempt.user_id == user_id,
                                                               col(Attempt.cause).is_not(None))
                     .group_by(col(Attempt.cause))).all()
    counts = {key: answers for key, _rating, answers, _right in skills}
    skill_history = history(skill) if skill else []
    timezone = settings(user_id).timezone
    today_rows = [] if len(overall) > 1 and len(skill_history) > 1 else db.exec(
        select(Attempt.skill, Attempt.correct)
        .where(Attempt.user_id == user_id,
               col(Attempt.created) >= datetime.combine(today, time(), zone(timezone)).astimezone(UTC))
        .order_by(col(Attempt.id))).all()
    return Dashboard(
        today, streak(db, user_id, today), line([(d, r) for d, _a, r in overall]), skill,
        line([(d, r) for d, _a, r in history(skill)]) if skill else None, met, weekly(types, today),
        calendar({d: a for d, a, _r in overall}, today), sum(a for _d, a, _r in overall),
        [Ranked(key, labels[key], answers, right / answers, rating) for key, rating, answers, right in
         ranked[:WEAKEST]],
        [Ranked(suit, suit_name(suit), asked, right / asked, None) for suit, asked, right in weak_suits[:WEAKEST]],
        sorted(((cause or "other", cause_label(cause or "other"), count) for cause, count in causes),
               key=lambda t: -t[2]),
        (WIDTH - 2 * PAD) / WEEKS - 2, counts.get(OVERALL, 0), counts.get(skill or "", 0),
        day_path([right for _skill, right in today_rows]) if len(overall) <= 1 else None,
        day_path([right for key, right in today_rows if key == skill]) if len(skill_history) <= 1 else None,
        speeds(user_id, timezone))


SPEEDS_KEPT = 512
"""How many players' count speed histories an app process remembers (`speeds`)."""


def speeds(user_id: int, timezone: str | None) -> list[Speed]:
    """The player's count speed per family over time (`speed_history` of their last `SPEED_ROWS` answers with a
    pace), for each family answered at a pace, in `FAMILY_ORDER`. Remembered per process until the player's
    newest paced answer changes (a stored answer's pace, right and time never change)."""
    db = get_session()
    paced = (Attempt.user_id == user_id, col(Attempt.pace).is_not(None))
    latest = (col(Attempt.created).desc(), col(Attempt.id).desc())
    newest = db.exec(select(Attempt.id).where(*paced).order_by(*latest).limit(1)).first()
    memo: Memo[tuple[int, str | None, int | None], list[Speed]] = current_app.extensions.setdefault(
        "jipai_count_speeds", Memo(SPEEDS_KEPT))

    def make() -> list[Speed]:
        rows = db.exec(select(Attempt.created, Attempt.question_type, Attempt.pace, Attempt.correct)
                       .where(*paced).order_by(*latest).limit(SPEED_ROWS)).all()
        answers = [(local_day(aware(created), timezone), kind, pace, correct)
                   for created, kind, pace, correct in reversed(rows) if pace is not None]
        history = speed_history(answers)
        answered = Counter(answer_family(kind) for _day, kind, _pace, _right in answers)
        order = list(FAMILY_ORDER)
        return [Speed(family, family_label(family), line(history.get(family, [])), answered[family])
                for family in sorted(history, key=lambda f: order.index(f) if f in order else len(order))]

    return memo.get_or_make((user_id, timezone, newest), make)


@bp.route("/stats")
@login_required
def index() -> Any:
    """The dashboard; `?skill=` picks the skill whose rating history is drawn (htmx swaps that chart)."""
    board = dashboard(g.user.id, request.args.get("skill"))
    return render_page("stats/index.html", "stats/_rating.html", board=board, width=WIDTH, height=HEIGHT,
                       bars_height=BARS_HEIGHT)
