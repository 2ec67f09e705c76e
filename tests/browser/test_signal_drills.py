"""The signal drills in the browser: Debian's Chromium, driven by Playwright, at a desktop's width and at
a phone's (390 px): choose a convention set in the settings (htmx), then run every signal drill of the
curriculum (信号: 应A, 看信号, 垫牌, 传牌, 复盘, 合法吗) to its summary, answering by keyboard, each
feedback naming the rule or the seed's law on illegal information; a signal mistake is in the review.
All of it under the app's Content-Security-Policy, with no violation reported, and no page wider than
the screen. Runs are cut to their first two questions so the whole walk takes a minute or two.
"""
from __future__ import annotations

import re

import sqlalchemy as sa
from sqlmodel import Session, select
from .browsing import CHROMIUM, WIDTHS, at_each_width
from .test_drill_flow import require_chromium

from trainer.signals.quiz import load_signal_drills
from trainer.web.models import Attempt, DrillRun, DrillSettings, User

SIGNAL_DRILLS = load_signal_drills()
QUESTIONS = 2


def _cut(app: object, run_id: int) -> int:
    """Keep the run's first two checkpoints; how many it keeps."""
    with Session(app.extensions["jipai_engine"]) as db:  # type: ignore[attr-defined]
        run = db.get(DrillRun, run_id)
        kept = run.checkpoints[:QUESTIONS]
        db.execute(sa.update(DrillRun).where(DrillRun.id == run_id).values(checkpoints=kept))
        db.commit()
    return len(kept)


def _fastest_reveal(app: object, username: str) -> None:
    """The user's reveal at 300 % (the drill test checks the speed keys; this walk only needs it fast)."""
    with Session(app.extensions["jipai_engine"]) as db:  # type: ignore[attr-defined]
        user = db.exec(select(User).where(User.username == username)).one()
        db.add(DrillSettings(user_id=user.id, speed=300))
        db.commit()


def _run_signal_drill(page: object, base: str, app: object, drill_id: str, width: int) -> None:
    """Start `drill_id` from the curriculum and answer its questions by keyboard up to the summary."""
    page.goto(f"{base}/drills")  # type: ignore[attr-defined]
    page.click(f"#drill-{drill_id} button[type=submit]")  # type: ignore[attr-defined]
    page.wait_for_url(re.compile(r"/runs/\d+$"))  # type: ignore[attr-defined]
    run_id = int(page.url.rsplit("/", 1)[1])  # type: ignore[attr-defined]
    asked = _cut(app, run_id)
    page.reload()  # type: ignore[attr-defined]
    for _index in range(asked):
        page.wait_for_selector("#answer-form")  # type: ignore[attr-defined]
        assert page.get_attribute("#answer-form", "data-kind") in ("single", "one_of")  # type: ignore[attr-defined]
        assert page.evaluate("document.documentElement.scrollWidth") <= width  # type: ignore[attr-defined]
        page.keyboard.press("1")  # type: ignore[attr-defined]
        assert page.locator("#answer-form input[type=radio]:checked").count() == 1  # type: ignore[attr-defined]
        page.keyboard.press("Enter")  # type: ignore[attr-defined]
        page.wait_for_selector(".panel.feedback")  # type: ignore[attr-defined]
        said = page.inner_text(".panel.feedback .explain.decisive")  # type: ignore[attr-defined]
        assert re.search(r"规则 \w+: |非法信息", said), said
        page.keyboard.press(" ")  # type: ignore[attr-defined]
    page.wait_for_url(re.compile(rf"/runs/{run_id}/summary$"))  # type: ignore[attr-defined]
    with Session(app.extensions["jipai_engine"]) as db:  # type: ignore[attr-defined]
        stored = db.exec(select(Attempt).where(Attempt.run_id == run_id)).all()
    assert len(stored) == asked and all(a.question_type.startswith("signal:") for a in stored)


def test_the_signal_drills_in_the_browser(live_app) -> None:
    require_chromium(CHROMIUM)
    base, app = live_app
    names = {width: name for name, width in WIDTHS}

    def signal_drills(page: object, width: int) -> None:
        _fastest_reveal(app, f"signaller-{names[width]}")
        page.goto(f"{base}/drills")  # type: ignore[attr-defined]
        page.click("#signal-settings-link")  # type: ignore[attr-defined]
        page.wait_for_url(f"{base}/signals")  # type: ignore[attr-defined]
        page.check("#set-odd input[type=radio]")  # type: ignore[attr-defined]
        page.click("#signal-settings button[type=submit]")  # type: ignore[attr-defined]
        page.wait_for_selector("#signal-settings .notice")  # type: ignore[attr-defined]  # htmx swapped the form
        assert page.url == f"{base}/signals" and page.is_checked("#set-odd input[type=radio]")  # type: ignore[attr-defined]
        assert page.evaluate("document.documentElement.scrollWidth") <= width  # type: ignore[attr-defined]
        for drill_id in SIGNAL_DRILLS:
            _run_signal_drill(page, base, app, drill_id, width)
        with Session(app.extensions["jipai_engine"]) as db:  # type: ignore[attr-defined]
            runs = db.exec(select(DrillRun).order_by(DrillRun.id.desc()).limit(len(SIGNAL_DRILLS))).all()
        assert {run.signals for run in runs} == {"odd"}
        page.goto(f"{base}/review")  # type: ignore[attr-defined]
        mistakes = page.locator("a[href^='/review/']")  # type: ignore[attr-defined]
        if mistakes.count():
            mistakes.first.click()
            page.wait_for_url(re.compile(r"/review/\d+$"))  # type: ignore[attr-defined]
            assert re.search(r"规则 \w+: |非法信息", page.inner_text("main"))  # type: ignore[attr-defined]

    at_each_width(base, "signaller", signal_drills)
