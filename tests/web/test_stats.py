"""The progress dashboard through the views: charts drawn from the player's answers (rating history,
weekly accuracy and time, the practice calendar), the weakest skills and suits, mistake causes
counted as stored; with and without htmx; another player's answers never counted."""
from __future__ import annotations

import re
from collections import Counter
from datetime import UTC, datetime

from sqlmodel import select

from trainer.web.models import Attempt, PracticeDay

from .daily_helpers import answer_item, install_clock, run_id_of
from .drilling import HX, session


def _day(client, app, clock, right) -> None:
    response = client.post("/today/start")
    while (run_id := run_id_of(response)) is not None:
        response = answer_item(client, app, run_id, right(run_id), clock, 60)


def test_an_empty_dashboard(alice) -> None:
    page = alice.get("/stats")
    assert page.status_code == 200 and "还没有答题" in page.text and 'class="calendar"' in page.text
    assert len(re.findall(r'class="shade-0"', page.text)) >= 365


def test_the_dashboard_draws_what_was_answered(app, alice, accounts, monkeypatch) -> None:
    clock = install_clock(monkeypatch, datetime(2027, 3, 1, 9, tzinfo=UTC))
    alice.post("/today/settings", data={"minutes": "5"})
    for day in range(3):
        _day(alice, app, clock, lambda run_id: run_id % 2 == 0)
        clock.advance(days=2)
    with session(app) as db:
        answers = db.exec(select(Attempt)).all()
        tallies = db.exec(select(PracticeDay).where(PracticeDay.skill == "overall")).all()
    assert sum(t.asked for t in tallies) == len(answers) and len(tallies) == 3
    page = alice.get("/stats")
    assert page.status_code == 200 and "<html" in page.text
    text = page.text
    assert text.count('class="rating-line"') == 2  # overall and the chosen skill
    # the calendar shades the three days practised, and only them
    shaded = re.findall(r'<rect x="\d+" y="\d+" width="5" height="5" class="shade-([1-4])"><title>([\d-]+): (\d+)',
                        text)
    assert sorted(day for _s, day, _n in shaded) == ["2027-03-01", "2027-03-03", "2027-03-05"]
    assert sum(int(n) for _s, _d, n in shaded) == len(answers)
    busiest = max(int(n) for _s, _d, n in shaded)
    assert {s for s, _d, n in shaded if int(n) == busiest} == {"4"}
    assert all(int(s) == -(-4 * int(n) // busiest) for s, _d, n in shaded)
    # accuracy per question type (all answers fall in the last twelve weeks)
    per_type = Counter(a.question_type for a in answers)
    right = Counter(a.question_type for a in answers if a.correct)
    for kind, count in per_type.items():
        assert f"{count} 题 · {round(100 * right[kind] / count)}%" in text
    # each bar inside its chart, as tall as the week's share of right answers
    bars = re.findall(r'<rect x="[\d.]+" y="([\d.]+)" width="[\d.]+" height="([\d.]+)" '
                      r'class="bar"><title>[\d-]+: (\d+)%', text)
    assert len(bars) == len(per_type)  # one week, one bar per question type
    for y, height, title in bars:
        assert 0 <= float(y) and float(y) + float(height) <= 48 - 4 + 0.01
        assert abs(float(height) - max(40 * int(title) / 100, 1)) <= 0.6
    # mistake causes as stored
    causes = Counter(a.cause for a in answers if not a.correct)
    assert None not in causes
    for cause, count in causes.items():
        assert re.search(rf'class="cause-{cause}"><td>[^<]+</td><td>{count}</td>', text)
    fragment = alice.get("/stats?skill=trumps_unseen:early", headers=HX)
    assert fragment.status_code == 200 and "<html" not in fragment.text and 'id="rating-history"' in fragment.text
    # bob sees none of it
    accounts.logout()
    accounts.sign_up("bob")
    assert "还没有答题" in alice.get("/stats").text
