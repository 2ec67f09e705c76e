"""The daily session in the browser (Debian's Chromium, Playwright), at a desktop's width and at a
phone's: register, open Today from the menu, start the session, answer the several questions of its item
along one replay, see the day's result, retry every miss with one click, then the streak on the home page and the
dashboard's charts (SVG) fitting the screen — under the Content-Security-Policy, with no violation.

The session's budget is cut to one item and the item's reveal sped up in the database, so that the
test takes seconds, not the ten minutes of a real session.
"""
from __future__ import annotations

import re
from typing import Any

import sqlalchemy as sa
from sqlmodel import Session

from trainer.web.models import DailySession, DrillRun

from .browsing import CHROMIUM, at_each_width
from .test_drill_flow import require_chromium


def _quick_item(app: Any, page: Any) -> int:
    """The item on the page revealed fast (50 cards a second) and the session's budget cut to it: the test
    takes seconds, not ten minutes. Its checkpoints' count."""
    run_id = int(page.url.rsplit("/", 1)[1])
    engine = app.extensions["jipai_engine"]
    with Session(engine) as db:
        run = db.get(DrillRun, run_id)
        db.execute(sa.update(DrillRun).where(DrillRun.id == run_id).values(pace=50.0))
        db.execute(sa.update(DailySession).where(DailySession.id == run.daily_id).values(budget_ms=1))
        db.commit()
        count = len(run.checkpoints)
    page.reload()
    return count


def _answer_wrong_or_first(page: Any) -> None:
    """Answer the question on screen: a number by keyboard (999, a miss), a choice by its first option."""
    page.wait_for_selector("#answer-form")
    if page.get_attribute("#answer-form", "data-kind") == "number":
        page.wait_for_function("document.activeElement && document.activeElement.id === 'answer'")
        page.keyboard.type("999")
        page.keyboard.press("Enter")
    else:
        page.locator("#answer-form input[name='answer']").first.check()
        page.locator("#answer-form button[type='submit']").first.click()
    page.wait_for_selector(".panel.feedback")


def _daily_session(page: Any, base: str, app: Any, width: int) -> None:
    page.click("header nav a[href='/today']")
    page.wait_for_url(f"{base}/today")
    page.click("#start-today")
    page.wait_for_url(re.compile(r"/runs/\d+$"))
    count = _quick_item(app, page)
    assert 3 <= count <= 6  # several questions along one replay
    for index in range(count):
        _answer_wrong_or_first(page)
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        page.keyboard.press(" ")  # continue: the next stretch plays up to the next question, or the day ends
        if index < count - 1:
            page.wait_for_selector(".panel.feedback", state="detached")
    page.wait_for_url(f"{base}/today")
    assert page.inner_text("#day-result .asked") == str(count) and page.inner_text("#day-result .replays") == "1"
    right = int(page.inner_text("#day-result .right"))
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    if right < count:
        page.click("#retry-misses")
        for _miss in range(count - right):  # each miss: its trick replayed up to the moment, the same question
            page.wait_for_url(re.compile(r"/runs/\d+$"))
            _answer_wrong_or_first(page)
            page.keyboard.press(" ")
            page.wait_for_timeout(300)
        page.wait_for_url(f"{base}/today")
    page.goto(f"{base}/")
    assert "连续 1 天" in page.inner_text("#start-today")
    page.click("header nav a[href='/stats']")
    page.wait_for_url(f"{base}/stats")
    assert page.locator("svg.calendar rect").count() >= 365
    assert page.locator("svg.calendar rect.shade-4").count() == 1  # today, the one day practised
    chart = page.locator("#rating-history svg.line-chart").first.bounding_box()
    assert chart is not None and 0 < chart["width"] <= width and chart["height"] > 20
    assert page.locator("#weeks svg.bar-chart rect.bar").count() >= 1
    assert page.locator("#causes tbody tr").count() >= 1
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def test_a_daily_session_and_the_dashboard_in_the_browser(live_app) -> None:
    require_chromium(CHROMIUM)
    base, app = live_app
    at_each_width(base, "daily", lambda page, width: _daily_session(page, base, app, width))
