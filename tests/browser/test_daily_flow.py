"""The daily session in the browser (Debian's Chromium, Playwright), at a desktop's width and at a
phone's: register, open Today from the menu, start the session, answer its item by keyboard (a miss),
see the day's result, retry every miss with one click, then the streak on the home page and the
dashboard's charts (SVG) fitting the screen — under the Content-Security-Policy, with no violation.

The session's budget is cut to one item and each item's reveal to its last play in the database,
so that the test takes seconds, not the ten minutes of a real session.
"""
from __future__ import annotations

import re

import sqlalchemy as sa
from sqlmodel import Session

from trainer.web.models import DailySession, DrillRun

from browsing import CHROMIUM, at_each_width
from test_drill_flow import live_app, require_chromium  # noqa: F401  (live_app: a fixture)


def _short_item(app: object, page: object) -> None:
    """Reveal only the last play before the item's question: the run on the page starts there."""
    run_id = int(page.url.rsplit("/", 1)[1])  # type: ignore[attr-defined]
    engine = app.extensions["jipai_engine"]  # type: ignore[attr-defined]
    with Session(engine) as db:
        run = db.get(DrillRun, run_id)
        db.execute(sa.update(DrillRun).where(DrillRun.id == run_id).values(cursor=run.checkpoints[0] - 1))
        db.execute(sa.update(DailySession).values(budget_ms=1))
        db.commit()
    page.reload()  # type: ignore[attr-defined]


def _daily_session(page: object, base: str, app: object, width: int) -> None:
    page.click("header nav a[href='/today']")  # type: ignore[attr-defined]
    page.wait_for_url(f"{base}/today")  # type: ignore[attr-defined]
    page.click("#start-today")  # type: ignore[attr-defined]
    page.wait_for_url(re.compile(r"/runs/\d+$"))  # type: ignore[attr-defined]
    _short_item(app, page)
    page.wait_for_selector("#answer-form")  # type: ignore[attr-defined]
    # the first new skill is counting trumps early in the deal: a number, answered wrong
    assert page.get_attribute("#answer-form", "data-kind") == "number"  # type: ignore[attr-defined]
    page.wait_for_function("document.activeElement && document.activeElement.id === 'answer'")  # type: ignore[attr-defined]
    page.keyboard.type("999")  # type: ignore[attr-defined]
    page.keyboard.press("Enter")  # type: ignore[attr-defined]
    page.wait_for_selector(".panel.feedback.wrong")  # type: ignore[attr-defined]
    page.keyboard.press(" ")  # continue: the budget is spent, so the day's result  # type: ignore[attr-defined]
    page.wait_for_url(f"{base}/today")  # type: ignore[attr-defined]
    assert page.inner_text("#day-result .asked") == "1" and page.inner_text("#day-result .right") == "0"  # type: ignore[attr-defined]
    assert page.evaluate("document.documentElement.scrollWidth") <= width  # type: ignore[attr-defined]
    page.click("#retry-misses")  # type: ignore[attr-defined]
    page.wait_for_url(re.compile(r"/runs/\d+$"))  # type: ignore[attr-defined]
    page.wait_for_selector("#answer-form")  # the trick replayed up to the moment, the same question  # type: ignore[attr-defined]
    page.wait_for_function("document.activeElement && document.activeElement.id === 'answer'")  # type: ignore[attr-defined]
    page.keyboard.type("999")  # type: ignore[attr-defined]
    page.keyboard.press("Enter")  # type: ignore[attr-defined]
    page.wait_for_selector(".panel.feedback")  # type: ignore[attr-defined]
    page.keyboard.press(" ")  # type: ignore[attr-defined]
    page.wait_for_url(f"{base}/today")  # type: ignore[attr-defined]
    page.goto(f"{base}/")  # type: ignore[attr-defined]
    assert "连续 1 天" in page.inner_text("#start-today")  # type: ignore[attr-defined]
    page.click("header nav a[href='/stats']")  # type: ignore[attr-defined]
    page.wait_for_url(f"{base}/stats")  # type: ignore[attr-defined]
    assert page.locator("svg.calendar rect").count() >= 365  # type: ignore[attr-defined]
    assert page.locator("svg.calendar rect.shade-4").count() == 1  # today, the one day practised  # type: ignore[attr-defined]
    chart = page.locator("#rating-history svg.line-chart").first.bounding_box()  # type: ignore[attr-defined]
    assert chart is not None and 0 < chart["width"] <= width and chart["height"] > 20
    assert page.locator("#weeks svg.bar-chart rect.bar").count() >= 1  # type: ignore[attr-defined]
    assert page.locator("#causes tbody tr").count() >= 1  # type: ignore[attr-defined]
    assert page.evaluate("document.documentElement.scrollWidth") <= width  # type: ignore[attr-defined]


def test_a_daily_session_and_the_dashboard_in_the_browser(live_app) -> None:  # noqa: F811
    require_chromium(CHROMIUM)
    base, app = live_app
    at_each_width(base, "daily", lambda page, width: _daily_session(page, base, app, width))
