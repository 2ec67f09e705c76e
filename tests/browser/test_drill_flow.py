"""One browser test: Debian's Chromium, driven by Playwright, goes through whole drill runs with the
real htmx and drill.js, at a desktop's width and at a phone's (390 px): register, start a drill, pause
the reveal (Space), step a card at once (→), make it faster (+, kept for the user), look at the last
trick (L), answer every question by keyboard, continue (Space) to the summary, and find a mistake in
review; the chair captions' computed contrast on the felt is at least 4.5 : 1 (WCAG AA) — all of it
under the app's Content-Security-Policy, with no violation reported (no inline script or style, no eval).

The app runs in a thread on a free loopback port with a temporary instance folder (SQLite), one server
for the session (`conftest.live_app`). Without
/usr/bin/chromium the test fails, saying so (`.ci/run` installs it with apt); JIPAI_SKIP_BROWSER=1
skips it instead, with that reason shown.
"""
from __future__ import annotations

import itertools
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from sqlmodel import Session, select

from trainer.gouji.records import parse_gouji_record
from trainer.records import parse_record
from trainer.web.models import Attempt, Deal, DrillRun, DrillSettings

from .browsing import CHROMIUM, CONTRAST, at_each_width



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


def _stop_early(app: object, run_id: int, lengths: Callable[[Any], list[int]]) -> list[int]:
    """Make the run stop at the ends of the first three tricks or rounds of its deal, `lengths(record
    data)` giving each one's number of plays (a whole run in a few seconds); those checkpoints."""
    engine = app.extensions["jipai_engine"]  # type: ignore[attr-defined]
    with Session(engine) as db:
        run = db.get(DrillRun, run_id)
        ends = list(itertools.accumulate(lengths(db.get(Deal, run.deal_pk).record)))[:3]
        db.execute(sa.update(DrillRun).where(DrillRun.id == run_id).values(checkpoints=ends))
        db.commit()
    return ends


def _short_run(app: object, run_id: int) -> int:
    """Make a 升级 run stop at the ends of its deal's first three tricks; the plays to its first checkpoint."""
    return _stop_early(app, run_id, lambda data: [len(trick.plays) for trick in parse_record(data).tricks])[0]




def _visible_played(page: object) -> int:
    """The plays on the table now (shown by drill.js)."""
    return page.locator(".chair .play .cards:visible").count()  # type: ignore[attr-defined]


def _drill_a_whole_run(page: object, base: str, app: object, width: int) -> str:
    """Start a run, drive it to its summary with every control; the prompt of a wrong answer."""
    page.goto(f"{base}/drills")  # type: ignore[attr-defined]
    page.click("#drill-trumps button[type=submit]")  # type: ignore[attr-defined]
    page.wait_for_url(re.compile(r"/runs/\d+$"))  # type: ignore[attr-defined]
    run_id = int(page.url.rsplit("/", 1)[1])  # type: ignore[attr-defined]
    first = _short_run(app, run_id)
    page.reload()  # type: ignore[attr-defined]
    page.wait_for_function("document.querySelectorAll('.chair .play .cards:not([hidden])').length >= 1")
    page.keyboard.press(" ")  # pause: the first card came at once  # type: ignore[attr-defined]
    assert page.inner_text("#pause") in ("继续", "Resume")  # type: ignore[attr-defined]
    shown = _visible_played(page)
    page.wait_for_timeout(1200)  # type: ignore[attr-defined]
    assert _visible_played(page) == shown, "the reveal went on while paused"
    if shown < first:
        page.keyboard.press("ArrowRight")  # the next card now  # type: ignore[attr-defined]
        assert _visible_played(page) in (shown + 1, 1)  # one more, or a new trick's lead
    page.keyboard.press("+")  # type: ignore[attr-defined]
    page.keyboard.press("+")  # type: ignore[attr-defined]
    assert page.inner_text("#speed") == "200%"  # type: ignore[attr-defined]
    contrasts = page.evaluate(CONTRAST, '.chair .caption')  # type: ignore[attr-defined]
    assert len(contrasts) == 4 and min(contrasts) >= 4.5, (width, contrasts)
    box = page.locator(".chair.across").bounding_box()  # type: ignore[attr-defined]
    table = page.locator(".table").bounding_box()  # type: ignore[attr-defined]
    assert abs((box["x"] + box["width"] / 2) - (table["x"] + table["width"] / 2)) < 2, "对家 sits in the middle"
    assert page.evaluate("document.documentElement.scrollWidth") <= width  # type: ignore[attr-defined]
    page.keyboard.press(" ")  # resume  # type: ignore[attr-defined]
    wrong = ""
    for index in range(3):
        page.wait_for_selector("#answer-form")  # type: ignore[attr-defined]
        if index == 1:  # the end of trick 2: the last trick is trick 1, four plays
            page.keyboard.press("l")  # type: ignore[attr-defined]
            assert page.locator("#last-trick li:visible").count() == 4  # type: ignore[attr-defined]
        prompt = page.inner_text("#prompt")  # type: ignore[attr-defined]
        if page.get_attribute("#answer-form", "data-kind") == "number":  # type: ignore[attr-defined]
            page.wait_for_function("document.activeElement && document.activeElement.id === 'answer'")
            page.keyboard.type("999")  # type: ignore[attr-defined]
            wrong = wrong or prompt
        else:
            page.keyboard.press("1")  # type: ignore[attr-defined]
        page.keyboard.press("Enter")  # type: ignore[attr-defined]
        page.wait_for_selector(".panel.feedback")  # type: ignore[attr-defined]
        if "wrong" in (page.get_attribute(".panel.feedback", "class") or ""):  # type: ignore[attr-defined]
            wrong = wrong or prompt
        page.keyboard.press(" ")  # Space continues: the cards come again, or the summary  # type: ignore[attr-defined]
    page.wait_for_url(re.compile(rf"/runs/{run_id}/summary$"))  # type: ignore[attr-defined]
    with Session(app.extensions["jipai_engine"]) as db:  # type: ignore[attr-defined]
        assert len(db.exec(select(Attempt).where(Attempt.run_id == run_id)).all()) == 3
    return wrong


def test_a_drill_in_the_browser(live_app) -> None:
    require_chromium(CHROMIUM)
    base, app = live_app

    def drill(page: object, width: int) -> None:
        wrong = _drill_a_whole_run(page, base, app, width)
        with Session(app.extensions["jipai_engine"]) as db:  # type: ignore[attr-defined]
            kept = db.exec(select(DrillSettings)).all()
        assert [s.speed for s in kept if s.user_id == max(k.user_id for k in kept)] == [200]
        if wrong:
            page.goto(f"{base}/review")  # type: ignore[attr-defined]
            page.get_by_text(wrong).first.click()  # type: ignore[attr-defined]
            page.wait_for_url(re.compile(r"/review/\d+$"))  # type: ignore[attr-defined]
            assert page.locator(".past-trick").count() >= 1  # type: ignore[attr-defined]

    at_each_width(base, "walker", drill)


def _gouji_run(page: object, base: str, app: object, width: int) -> str:
    """Start the 够级 全记 drill, check the six-seat table, answer by keyboard to the summary; the prompt of
    a wrong answer."""
    page.goto(f"{base}/drills")  # type: ignore[attr-defined]
    page.click("#drill-gouji-everything button[type=submit]")  # type: ignore[attr-defined]
    page.wait_for_url(re.compile(r"/runs/\d+$"))  # type: ignore[attr-defined]
    run_id = int(page.url.rsplit("/", 1)[1])  # type: ignore[attr-defined]
    _stop_early(app, run_id, lambda data: [len(rnd.actions) for rnd in parse_gouji_record(data).rounds])
    page.reload()  # type: ignore[attr-defined]
    assert page.locator(".table.gouji .chair").count() == 5  # type: ignore[attr-defined]
    assert page.locator(".chair.ours").count() == 2 and page.locator(".chair.theirs").count() == 3  # type: ignore[attr-defined]
    contrasts = page.evaluate(CONTRAST, '.chair .caption')  # type: ignore[attr-defined]
    assert len(contrasts) == 5 and min(contrasts) >= 4.5, (width, contrasts)
    box = page.locator(".chair.across").bounding_box()  # type: ignore[attr-defined]
    table = page.locator(".table").bounding_box()  # type: ignore[attr-defined]
    assert box["y"] - table["y"] < 20, "对头 sits at the top"
    assert abs((box["x"] + box["width"] / 2) - (table["x"] + table["width"] / 2)) < 2, "对头 sits in the middle"
    right = page.locator(".chair.right-low").bounding_box()  # type: ignore[attr-defined]
    assert right["x"] > table["x"] + table["width"] / 2, "下家 sits on the right"
    assert page.evaluate("document.documentElement.scrollWidth") <= width  # type: ignore[attr-defined]
    page.keyboard.press("+")  # type: ignore[attr-defined]
    page.keyboard.press("+")  # type: ignore[attr-defined]
    wrong = ""
    for _index in range(3):
        page.wait_for_selector("#answer-form")  # type: ignore[attr-defined]
        prompt = page.inner_text("#prompt")  # type: ignore[attr-defined]
        if page.get_attribute("#answer-form", "data-kind") == "number":  # type: ignore[attr-defined]
            page.wait_for_function("document.activeElement && document.activeElement.id === 'answer'")
            page.keyboard.type("999")  # type: ignore[attr-defined]
        else:
            page.keyboard.press("1")  # type: ignore[attr-defined]
        page.keyboard.press("Enter")  # type: ignore[attr-defined]
        page.wait_for_selector(".panel.feedback")  # type: ignore[attr-defined]
        if "wrong" in (page.get_attribute(".panel.feedback", "class") or ""):  # type: ignore[attr-defined]
            wrong = wrong or prompt
        page.keyboard.press(" ")  # type: ignore[attr-defined]
    page.wait_for_url(re.compile(rf"/runs/{run_id}/summary$"))  # type: ignore[attr-defined]
    with Session(app.extensions["jipai_engine"]) as db:  # type: ignore[attr-defined]
        assert len(db.exec(select(Attempt).where(Attempt.run_id == run_id)).all()) == 3
    return wrong


def test_a_gouji_drill_in_the_browser(live_app) -> None:
    """A 够级 drill end to end at a desktop's width and a phone's: the six-seat table (me at the bottom, 对头 at
    the top, my team marked), answers by keyboard, the summary and the review of a mistake, under the CSP."""
    require_chromium(CHROMIUM)
    base, app = live_app

    def gouji(page: object, width: int) -> None:
        wrong = _gouji_run(page, base, app, width)
        if wrong:
            page.goto(f"{base}/review")  # type: ignore[attr-defined]
            page.get_by_text(wrong).first.click()  # type: ignore[attr-defined]
            page.wait_for_url(re.compile(r"/review/\d+$"))  # type: ignore[attr-defined]
            assert page.locator(".table.gouji").count() == 1  # type: ignore[attr-defined]

    at_each_width(base, "gouji", gouji)


FITS = """() => {
  const width = document.documentElement.clientWidth;
  const cards = Array.from(document.querySelectorAll('.mine .hand .card'));
  return {scroll: document.documentElement.scrollWidth, width, cards: cards.length,
          outside: cards.filter(card => { const box = card.getBoundingClientRect(); return box.left < 0 || box.right > width; }).length,
          rows: new Set(cards.map(card => Math.round(card.getBoundingClientRect().top))).size,
          hand: document.querySelector('.mine').getBoundingClientRect().height};
}"""


def test_three_and_four_deck_hands_fit_desktop_and_phone(live_app) -> None:
    """A 记三张 and a 四副牌 run on the starter library's deals: the whole hand (up to 39 and 52 cards)
    is drawn, every card inside the window, and the page never scrolls sideways, at 1280 and 390 px."""
    require_chromium(CHROMIUM)
    base, app = live_app

    def hands(page: object, width: int) -> None:
        name = "desktop" if width > 400 else "phone"
        for drill, decks in (("triples", 3), ("four-decks", 4)):
            page.goto(f"{base}/drills")
            page.click(f"#drill-{drill} button[type=submit]")
            page.wait_for_url(re.compile(r"/runs/\d+$"))
            run_id = int(page.url.rsplit("/", 1)[1])
            with Session(app.extensions["jipai_engine"]) as db:  # type: ignore[attr-defined]
                run = db.get(DrillRun, run_id)
                record = parse_record(db.get(Deal, run.deal_pk).record)
                held = len(record.playing_hands()[run.seat])
            assert record.rules.decks == decks
            fits = page.evaluate(FITS)
            assert fits["cards"] == held == {3: 39, 4: 52}[decks], (name, drill, fits)
            assert fits["outside"] == 0 and fits["scroll"] <= width, (name, drill, fits)
            assert fits["hand"] < 700, (name, drill, fits)  # a phone shows the hand without endless scrolling

    at_each_width(base, "counter", hands)
