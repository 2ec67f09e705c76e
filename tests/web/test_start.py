"""The start page: what a visitor reads, and a player's drills, runs in progress and mistakes."""
from __future__ import annotations

import re

from trainer.drills.questions import Question
from trainer.web.models import Attempt

from .drilling import DRILLS, HX, run_row, session, start
from .pages import visible_text


def test_a_visitor_reads_what_the_trainer_is_and_how_to_begin(client) -> None:
    for headers in ({}, HX):
        page = client.get("/", headers=headers)
        assert page.status_code == 200 and ("<html" in page.text) == (not headers)
        assert page.text.lstrip().startswith('<div id="start"') == bool(headers)
        text = visible_text(page.text)
        assert "注册" in text and "登录" in text and "即将" not in text
        assert 'id="start-drills"' not in page.text


def _mistake(app, run_id: int) -> int:
    """A wrong answer stored on run `run_id` (as the run's answer view stores one); its id."""
    run = run_row(app, run_id)
    question = Question("is_boss", "number", {"zh": "比你的A♥大的牌外面还有几张？",
                                              "en": "How many cards stronger than your A♥ are still out?"},
                        1, "suits.higher_than_mine", suit="H", card="AH")
    with session(app) as db:
        attempt = Attempt(run_id=run.id, user_id=run.user_id, checkpoint=0, question=question.to_json(),
                          question_type="is_boss", suit="H", expected=1, given=0, correct=False, ms=1500,
                          position="1.0", seat=run.seat, deal_pk=run.deal_pk)
        db.add(attempt)
        db.commit()
        return attempt.id


def test_the_start_page_shows_drills_runs_in_progress_and_mistakes(app, alice) -> None:
    empty = alice.get("/").text
    for drill in DRILLS.values():
        assert drill.name["zh"] in visible_text(empty) and f'action="/drills/{drill.id}/start"' in empty
    assert "没有进行中的练习" in visible_text(empty) and "还没有错题" in visible_text(empty)
    run_id = start(alice, "trumps")
    attempt_id = _mistake(app, run_id)
    questions = len(run_row(app, run_id).checkpoints)
    for headers in ({}, HX):
        page = alice.get("/", headers=headers)
        assert page.status_code == 200 and ("<html" in page.text) == (not headers)
        runs = page.text[page.text.index('id="start-runs"'):page.text.index('id="start-mistakes"')]
        assert f'href="/runs/{run_id}"' in runs and DRILLS["trumps"].name["zh"] in runs
        assert f"已答 0 / {questions} 题" in visible_text(runs)
        mistakes = page.text[page.text.index('id="start-mistakes"'):page.text.index('id="start-drills"')]
        assert "1 道错题" in visible_text(mistakes) and f'href="/review/{attempt_id}"' in mistakes
        assert "比你的A♥大的牌外面还有几张？" in visible_text(mistakes)
        assert '<span class="card-name red">A♥</span>' in mistakes
        assert 'href="/review"' in mistakes


def test_the_start_page_shows_only_the_players_own_runs_and_mistakes(app, client, accounts) -> None:
    accounts.sign_up("alice")
    run_id = start(client, "points")
    _mistake(app, run_id)
    accounts.logout()
    accounts.sign_up("bob")
    page = client.get("/").text
    assert f'href="/runs/{run_id}"' not in page and not re.search(r'href="/review/\d+"', page)
    assert "没有进行中的练习" in visible_text(page) and "还没有错题" in visible_text(page)
