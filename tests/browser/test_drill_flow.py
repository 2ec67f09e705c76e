"""One browser test: Debian's Chromium, driven by Playwright, goes through the drill flow with the
real htmx and drill.js: register, start a drill, let the cards come to the first question, answer it
by keyboard (deliberately wrong), see the feedback, continue, and find the mistake in review — all of it
under the app's Content-Security-Policy, with no violation reported (no inline script or style, no eval).

The app runs in a thread on a free loopback port with a temporary instance folder (SQLite). Without
/usr/bin/chromium the test fails, saying so (`.ci/run` installs it with apt); JIPAI_SKIP_BROWSER=1
skips it instead, with that reason shown.
"""
from __future__ import annotations

import os
import re
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa
from sqlmodel import Session, select
from werkzeug.serving import make_server

from trainer.drills.runs import question_at
from trainer.records import parse_record
from trainer.tracking.tracker import public_events
from trainer.web import create_app
from trainer.web.drills import drills
from trainer.web.models import Deal, DrillRun

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def require_chromium(path: str) -> None:
    """Fail when Chromium is missing, so that the suite never passes without its browser test silently;
    with JIPAI_SKIP_BROWSER=1, skip instead (the reason is shown)."""
    if os.path.exists(path):
        return
    if os.environ.get("JIPAI_SKIP_BROWSER") == "1":
        pytest.skip(f"{path} is missing and JIPAI_SKIP_BROWSER=1")
    pytest.fail(f"{path} is missing: apt-get install chromium, or set JIPAI_SKIP_BROWSER=1 to skip this test")


def test_a_missing_chromium_fails_unless_skipped_on_purpose(monkeypatch: pytest.MonkeyPatch,
                                                            tmp_path: Path) -> None:
    missing = str(tmp_path / "chromium")
    monkeypatch.delenv("JIPAI_SKIP_BROWSER", raising=False)
    with pytest.raises(pytest.fail.Exception, match="apt-get install chromium"):
        require_chromium(missing)
    monkeypatch.setenv("JIPAI_SKIP_BROWSER", "1")
    with pytest.raises(pytest.skip.Exception, match="JIPAI_SKIP_BROWSER=1"):
        require_chromium(missing)
    require_chromium(str(Path(__file__)))  # present: nothing happens


@pytest.fixture
def live_app(tmp_path: Path) -> Iterator[tuple[str, object]]:
    """The app served on a free loopback port from a thread; its base URL and the app."""
    instance = tmp_path / "instance"
    app = create_app({"INSTANCE_PATH": str(instance), "DATABASE_URL": f"sqlite:///{instance / 'jipai.sqlite'}",
                      "SECRET_KEY": "browser test", "PASSWORD_HASH_METHOD": "pbkdf2:sha256:1000",
                      "STARTER_DEALS_DIR": str(Path(__file__).parents[2] / "drills" / "deals")})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}", app
    finally:
        server.shutdown()
        thread.join(5)
        server.server_close()
        app.extensions["jipai_cursors"].close()  # type: ignore[attr-defined]
        app.extensions["jipai_engine"].dispose()  # type: ignore[attr-defined]


def _ask_a_number_first(app: object, run_id: int) -> None:
    """Give the run a seed whose first question wants a number (so that 999 is surely wrong)."""
    engine = app.extensions["jipai_engine"]  # type: ignore[attr-defined]
    with app.app_context(), Session(engine) as db:  # type: ignore[attr-defined]
        run = db.get(DrillRun, run_id)
        record = parse_record(db.get(Deal, run.deal_pk).record)
        events = list(public_events(record))
        drill = drills()[run.drill_id]
        for seed in range(500):
            asked = question_at(drill, record, run.seat, run.checkpoints[0], seed, 0, events)
            if asked.question.kind == "number" and asked.question.answer < 999:
                db.execute(sa.update(DrillRun).where(DrillRun.id == run_id).values(seed=seed))
                db.commit()
                return
    raise AssertionError("no seed asks a number first")


def test_a_drill_in_the_browser(live_app) -> None:
    require_chromium(CHROMIUM)
    sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
    base, app = live_app
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = browser.new_page(viewport={"width": 400, "height": 850})  # a phone's width
            page.set_default_timeout(60_000)
            violations: list[str] = []
            page.on("console", lambda message: violations.append(message.text)
                    if "Content Security Policy" in message.text else None)
            page.add_init_script("document.addEventListener('securitypolicyviolation', event => console.error("
                                 "'Content Security Policy violation: ' + event.violatedDirective + ' ' + event.blockedURI))")
            page.goto(f"{base}/auth/register")
            page.fill("#username", "walker")
            page.fill("#password", "correct horse")
            page.fill("#confirm", "correct horse")
            page.click("button[type=submit]")
            page.wait_for_url(f"{base}/")  # registering lands on the start page

            page.goto(f"{base}/drills")
            page.click("#drill-trumps button[type=submit]")
            page.wait_for_url(re.compile(r"/runs/\d+$"))
            run_id = int(page.url.rsplit("/", 1)[1])
            _ask_a_number_first(app, run_id)
            page.reload()  # the app keeps a run's plan per process: show it the new seed

            # htmx brings the cards one by one (2 a second) until the question swaps in
            page.wait_for_selector("#answer-form[data-kind=number]")
            prompt = page.inner_text("#prompt")
            assert page.locator(".chair.me").count() == 1 and page.locator(".hand .card").count() > 0
            page.wait_for_function("document.activeElement && document.activeElement.id === 'answer'")
            page.keyboard.type("999")
            page.keyboard.press("Enter")
            feedback = page.wait_for_selector(".panel.feedback")
            assert "wrong" in (feedback.get_attribute("class") or "")
            assert "✗" in feedback.inner_text() and page.inner_text(".given") == "999"
            assert page.locator(".explain li").count() > 0

            page.keyboard.press(" ")  # Space continues: the cards come again
            page.wait_for_selector(".run.play, .run.question")

            with Session(app.extensions["jipai_engine"]) as db:  # type: ignore[attr-defined]
                from trainer.web.models import Attempt

                stored = db.exec(select(Attempt).where(Attempt.run_id == run_id)).all()
            assert len(stored) == 1 and not stored[0].correct and stored[0].given == 999

            page.goto(f"{base}/review")
            link = page.get_by_text(prompt).first
            link.click()
            page.wait_for_url(re.compile(r"/review/\d+$"))
            assert page.inner_text(".given") == "999"
            assert page.locator(".past-trick").count() >= 1 and page.locator("tr.relevant").count() == 1

            page.click("header button.link:has-text('退出')")  # log out: the session ends everywhere
            page.wait_for_url(f"{base}/")
            assert page.locator(".who").count() == 0
            assert violations == []
        finally:
            browser.close()
