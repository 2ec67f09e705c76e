"""The counting modes in Debian's Chromium (Playwright), at a desktop's width and at a phone's, under the CSP: a
running count (连续数) revealed trick by trick, answered right twice (the feedback says right without the value)
then wrong (the value shown, the run over, the streak on the summary); and a flash run (闪记) whose tricks clear
on their own after F ms (static/flash.js) to bring the question, answered right three times (F × 0.8 after)."""
from __future__ import annotations

import itertools
import re

from sqlmodel import Session, select

from flash_tricks import trick_answers
from trainer.records import Position, parse_record
from trainer.tracking.facts import facts_json
from trainer.tracking.tracker import track
from trainer.web.models import Attempt, Deal, DrillRun, FlashLevel, RunningBest

from .browsing import CHROMIUM, at_each_width
from .test_drill_flow import require_chromium


def _run(app: object, run_id: int) -> tuple[DrillRun, object]:
    with Session(app.extensions["jipai_engine"]) as db:  # type: ignore[attr-defined]
        run = db.get(DrillRun, run_id)
        deal = db.get(Deal, run.deal_pk)
        return run, parse_record(deal.record)


def _start(page: object, base: str, drill_id: str) -> int:
    page.goto(f"{base}/drills")  # type: ignore[attr-defined]
    page.click(f"#drill-{drill_id} button[type=submit]")  # type: ignore[attr-defined]
    page.wait_for_url(re.compile(r"/runs/\d+$"))  # type: ignore[attr-defined]
    return int(page.url.rsplit("/", 1)[1])  # type: ignore[attr-defined]


def _running(page: object, base: str, app: object, width: int) -> None:
    run_id = _start(page, base, "running-trumps")
    for _ in range(3):
        page.keyboard.press("+")  # type: ignore[attr-defined]
    for index in range(3):
        page.wait_for_selector("#answer-form")  # type: ignore[attr-defined]
        run, record = _run(app, run_id)
        position = Position(index + 1, len(record.tricks[index].plays))
        unseen = facts_json(track(record, run.seat, position), str(position))["trumps"]["unseen"]
        page.wait_for_function("document.activeElement && document.activeElement.id === 'answer'")
        page.keyboard.type(str(unseen if index < 2 else unseen + 1))  # type: ignore[attr-defined]
        page.keyboard.press("Enter")  # type: ignore[attr-defined]
        page.wait_for_selector(".panel.feedback")  # type: ignore[attr-defined]
        streak = page.inner_text("#streak")  # type: ignore[attr-defined]
        if index < 2:
            assert "right" in page.get_attribute(".panel.feedback", "class")  # type: ignore[attr-defined]
            assert page.locator(".feedback .expected").count() == 0 and f"{index + 1}" in streak
        else:
            assert page.inner_text(".feedback .expected") == str(unseen)  # type: ignore[attr-defined]
        assert page.evaluate("document.documentElement.scrollWidth") <= width  # type: ignore[attr-defined]
        page.keyboard.press(" ")  # type: ignore[attr-defined]
    page.wait_for_url(re.compile(rf"/runs/{run_id}/summary$"))  # type: ignore[attr-defined]
    assert "2" in page.inner_text("#streak")  # type: ignore[attr-defined]
    with Session(app.extensions["jipai_engine"]) as db:  # type: ignore[attr-defined]
        assert [a.correct for a in db.exec(select(Attempt).where(Attempt.run_id == run_id)
                                           .order_by(Attempt.checkpoint)).all()] == [True, True, False]
        assert db.get(RunningBest, (run.user_id, "trumps_unseen")).best == 2


def _flash(page: object, base: str, app: object, width: int) -> None:
    run_id = _start(page, base, "flash")
    with Session(app.extensions["jipai_engine"]) as db:  # type: ignore[attr-defined]
        run = db.get(DrillRun, run_id)
        run.checkpoints = run.checkpoints[:3]
        db.add(run)
        db.commit()
    page.reload()  # type: ignore[attr-defined]
    for index in range(3):
        page.wait_for_selector(".flash.play")  # type: ignore[attr-defined]
        ms = int(page.get_attribute(".flash.play", "data-ms"))  # type: ignore[attr-defined]
        assert ms == 1500  # a new player's F, for three flashes
        assert page.locator(".flash .chair .play .card").count() >= 4  # the whole trick at once
        assert page.evaluate("document.documentElement.scrollWidth") <= width  # type: ignore[attr-defined]
        page.wait_for_selector("#answer-form", timeout=ms + 10_000)  # cleared on its own, no click  # type: ignore[attr-defined]
        assert page.locator(".flash .chair .play").count() == 0  # type: ignore[attr-defined]
        run, record = _run(app, run_id)
        trick = list(itertools.accumulate(len(t.plays) for t in record.tricks)).index(run.cursor) + 1
        prompt = page.inner_text("#prompt")  # type: ignore[attr-defined]
        kind = ("flash_trumps" if "主" in prompt or "trumps" in prompt else
                "flash_points" if "分" in prompt or "points" in prompt else "flash_voids")
        answer = trick_answers(record, run.seat, trick)[kind]
        for value in [answer] if isinstance(answer, int) else answer:  # a choice (trumps, points) or seats
            page.check(f'#answer-form input[name="answer"][value="{value}"]')  # type: ignore[attr-defined]
        page.click("#answer-form button[type=submit]")  # type: ignore[attr-defined]
        page.wait_for_selector(".panel.feedback")  # type: ignore[attr-defined]
        assert "right" in page.get_attribute(".panel.feedback", "class")  # type: ignore[attr-defined]
        assert page.locator(".flash.feedback .chair .play .card").count() >= 4  # the trick again
        page.keyboard.press(" ")  # type: ignore[attr-defined]
    page.wait_for_url(re.compile(rf"/runs/{run_id}/summary$"))  # type: ignore[attr-defined]
    assert "1200" in page.inner_text("#flash-level")  # the next flash: three right in a row, × 0.8
    with Session(app.extensions["jipai_engine"]) as db:  # type: ignore[attr-defined]
        assert db.get(FlashLevel, run.user_id).ms == 1200


def test_a_running_count_and_a_flash_run_in_the_browser(live_app) -> None:
    require_chromium(CHROMIUM)
    base, app = live_app

    def modes(page: object, width: int) -> None:
        _running(page, base, app, width)
        _flash(page, base, app, width)

    at_each_width(base, "moder", modes)
