"""连续数 and 闪记 through the views (training.md §5), with and without htmx: a running count asks its quantity
after every trick, says right or wrong without the value until a miss, stops at the first miss (or goes on) and
keeps the best streak per quantity; a flash shows its trick at once with a "hide and answer" form, asks what it
changed, adapts F (stored with each answer) and keeps the player's flash level. Replay answers keep their pace."""
from __future__ import annotations

import itertools
import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from flash_tricks import trick_answers
from trainer.drills.modes import run_questions
from trainer.drills.speed import Paced, flash_level
from trainer.records import Position, parse_record
from trainer.tracking.facts import facts_json
from trainer.tracking.tracker import public_events, track
from trainer.web.models import Deal, DrillRun, FlashLevel, RunningBest

from .drilling import DRILLS, HX, at_value, attempts, drive, form_values, run_row, session, start
from .pages import visible_text

MODES = [pytest.param({}, id="form"), pytest.param(HX, id="htmx")]


def _record(app: Flask, run: DrillRun) -> Any:
    with session(app) as db:
        deal = db.get(Deal, run.deal_pk)
        assert deal is not None
        return parse_record(deal.record)


def running_question(app: Flask, run: DrillRun, index: int) -> Any:
    """The app's question at checkpoint `index` (read from the page by `drive`), checked against the tracker:
    the drill's quantity after trick `index + 1`."""
    record = _record(app, run)
    drill = DRILLS[run.drill_id]
    question = run_questions(drill, record, run.seat, run.checkpoints, run.seed, list(public_events(record)),
                             index + 1)[index].question
    position = Position(index + 1, len(record.tricks[index].plays))
    facts = facts_json(track(record, run.seat, position), str(position))
    expected = {"trumps_unseen": facts["trumps"]["unseen"], "attackers_score": facts["score"]["attackers"],
                "points_unplayed": facts["suits"][question.suit or "trump"]["points_unplayed"]}[question.type]
    assert question.answer == expected and run.checkpoints[index] == sum(len(t.plays) for t in record.tricks[:index + 1])
    return question


def _best(app: Flask, user_id: int, quantity: str) -> int | None:
    with session(app) as db:
        row = db.get(RunningBest, (user_id, quantity))
        return None if row is None else row.best


@pytest.mark.parametrize("headers", MODES)
def test_a_running_count_stops_at_the_first_miss_and_keeps_the_best_streak(app, alice, headers) -> None:
    pages: list[tuple[int, str, bool]] = []

    def check(question_page: str, page: str, index: int, given: Any, question: Any) -> None:
        right = given == question.answer
        pages.append((index, page, right))
        assert ("✓" in page) == right and ("✗" in page) == (not right)
        assert f"连对：{index + 1 if right else 0}" in visible_text(page)
        assert ('class="expected"' in page) == (not right)  # the value only at the miss

    run_id = start(alice, "running-trumps")
    answered = drive(alice, app, run_id, lambda index: index < 3, headers=headers, question_of=running_question,
                     check=check)
    run = run_row(app, run_id)
    assert run.status == "done" and len(answered) == 4 < len(run.checkpoints)  # stopped at the miss
    stored = attempts(app, run_id)
    assert [a.correct for a in stored] == [True, True, True, False]
    assert all(a.pace == 2.0 and a.flash_ms is None for a in stored)
    assert ">查看总结</button>" in pages[-1][1] and ">继续</button>" not in pages[-1][1]  # the miss ends the run
    assert _best(app, run.user_id, "trumps_unseen") == 3
    summary = alice.get(f"/runs/{run_id}/summary", headers=headers)
    assert summary.status_code == 200 and "HX-Request" in summary.headers["Vary"]
    assert "最长连对：3" in visible_text(summary.text) and "本项最好成绩：3" in visible_text(summary.text)
    # a shorter streak keeps the best; another quantity has its own
    again = start(alice, "running-trumps")
    drive(alice, app, again, lambda index: index < 1, headers=headers, question_of=running_question)
    assert _best(app, run.user_id, "trumps_unseen") == 3 and _best(app, run.user_id, "attackers_score") is None
    longer = start(alice, "running-trumps")
    drive(alice, app, longer, lambda index: index < 5, headers=headers, question_of=running_question)
    assert _best(app, run.user_id, "trumps_unseen") == 5


def test_a_running_count_set_to_go_on_asks_after_every_trick(app, alice) -> None:
    run_id = start(alice, "running-suit-points")
    answered = drive(alice, app, run_id, lambda index: index % 3 != 1, question_of=running_question)
    run = run_row(app, run_id)
    assert run.status == "done" and len(answered) == len(run.checkpoints) == len(_record(app, run).tricks) - 1
    assert len({a.suit for a in attempts(app, run_id)}) == 1
    # the longest streak is the first two (right, wrong, right, right, wrong, ...): 2; its best is kept
    assert _best(app, run.user_id, "points_unplayed") == 2


# -- flash -------------------------------------------------------------------------------------------

HIDE = re.compile(r'class="step flash-hide" method="post" action="(/runs/\d+/step\?at=\d+&amp;to=\d+)"')
OPTION = re.compile(r'type="radio" name="answer" value="([^"]*)"')
KINDS = {"这一轮出了几张主": "flash_trumps", "这一轮有多少分": "flash_points", "这一轮谁绝门了": "flash_voids"}


def _trick_of(record: Any, plays: int) -> int:
    """The number of the trick whose last play is play `plays`."""
    return list(itertools.accumulate(len(trick.plays) for trick in record.tricks)).index(plays) + 1


def flash_through(client: FlaskClient, app: Flask, run_id: int, right: Any, headers: dict[str, str]
                  ) -> list[tuple[str, str, str]]:
    """Play a flash run through its forms: hide each trick, answer what the record's trick held (right when
    `right(index)`, else wrong), continue; (flash page, question page, feedback page) of each flash."""
    seen = []
    for _ in range(200):
        run = run_row(app, run_id)
        if run.status == "done":
            return seen
        page = client.get(f"/runs/{run_id}", headers=headers)
        assert page.status_code == 200 and "HX-Request" in page.headers["Vary"]
        hide = HIDE.search(page.text)
        if hide is None:  # the feedback: continue
            response = client.post(f"/runs/{run_id}/step", data={"at": at_value(page.text)}, headers=headers)
            assert response.status_code in (200, 303)
            continue
        shown = client.post(hide.group(1).replace("&amp;", "&"), headers=headers)
        assert shown.status_code == (200 if headers else 303)
        if headers:
            assert 'id="answer-form"' in shown.text and "HX-Request" in shown.headers["Vary"]
        asked = client.get(f"/runs/{run_id}", headers=headers).text
        run = run_row(app, run_id)
        index = run.checkpoints.index(run.cursor)
        record = _record(app, run)
        kind = next(kind for prompt, kind in KINDS.items() if prompt in visible_text(asked))
        answer = trick_answers(record, run.seat, _trick_of(record, run.cursor))[kind]
        if not right(index):  # another option shown (trumps, points) or one seat more or fewer (voids)
            answer = (next(value for value in OPTION.findall(asked) if value != str(answer)) if isinstance(answer, int)
                      else sorted(set(answer) ^ {str((run.seat + 1) % 4)}))
        response = client.post(f"/runs/{run_id}/answer", data={"checkpoint": index, "answer": form_values(answer)},
                               headers=headers)
        assert response.status_code == (200 if headers else 303)
        if headers:
            assert "HX-Request" in response.headers["Vary"]
        seen.append((page.text, asked, client.get(f"/runs/{run_id}", headers=headers).text))
    raise AssertionError("the flash run did not end")


def _flash(app: Flask, user_id: int) -> FlashLevel | None:
    with session(app) as db:
        return db.get(FlashLevel, user_id)


@pytest.mark.parametrize("headers", MODES)
def test_a_flash_shows_its_trick_at_once_then_asks_what_it_changed(app, alice, headers) -> None:
    run_id = start(alice, "flash")
    seen = flash_through(alice, app, run_id, lambda index: True, headers)
    run = run_row(app, run_id)
    stored = attempts(app, run_id)
    assert run.status == "done" and len(seen) == len(stored) == len(run.checkpoints) == 10
    assert all(a.correct for a in stored) and {a.question_type for a in stored} <= set(KINDS.values())
    # F: 1500 ms for three flashes, then × 0.8 after each three right in a row
    assert [a.flash_ms for a in stored] == [1500] * 3 + [1200] * 3 + [960] * 3 + [768]
    assert all(a.pace is None for a in stored)
    for (flash, asked, feedback), attempt in zip(seen, stored, strict=True):
        assert f'data-ms="{attempt.flash_ms}"' in flash and "藏起来作答" in visible_text(flash)
        played = re.findall(r'<div class="play">(.*?)</div>', flash, re.S)
        assert len(played) == 4 and all("card" in cell for cell in played)  # the whole trick at once
        assert "last-trick" not in flash  # no look at the trick before
        assert "这一轮的牌已经收起" in visible_text(asked) and 'class="play"' not in asked  # cleared
        assert "✓" in feedback and 'class="play"' in feedback  # the trick again beside the verdict
    row = _flash(app, run.user_id)
    assert row is not None and (row.ms, row.in_row) == (768, 1)
    assert row.level == flash_level([Paced(a.flash_ms, a.correct) for a in stored]) == 1500
    summary = alice.get(f"/runs/{run_id}/summary", headers=headers)
    assert "闪记水平：1500 毫秒" in visible_text(summary.text) and "下一次闪现：768 毫秒" in visible_text(summary.text)
    assert "闪记：" in visible_text(summary.text) and "flash_" not in visible_text(summary.text)  # types named


def test_a_missed_flash_slows_the_next_one(app, alice) -> None:
    run_id = start(alice, "flash")
    flash_through(alice, app, run_id, lambda index: index != 1, HX)
    stored = attempts(app, run_id)
    # right (1500, one in a row), wrong (× 1.25 = 1875), three right (× 0.8 = 1500), three right (1200)
    assert [a.flash_ms for a in stored] == [1500, 1500, 1875, 1875, 1875, 1500, 1500, 1500, 1200, 1200]
    assert [a.correct for a in stored] == [index != 1 for index in range(10)]
    row = _flash(app, run_row(app, run_id).user_id)
    # the last 10 at ≤ 1875 ms: 9 right; at ≤ 1500 ms only 7 flashes
    assert row is not None and row.level == 1875


def test_a_flash_without_javascript_waits_for_the_hide_button(app, alice) -> None:
    run_id = start(alice, "flash")
    page = alice.get(f"/runs/{run_id}").text
    run = run_row(app, run_id)
    assert HIDE.search(page) and f"to={run.checkpoints[0]}" in page and "flash.js" in page
    assert run_row(app, run_id).cursor == 0  # showing the flash writes nothing
    assert "藏起来作答" in visible_text(page) and 'id="answer-form"' not in page


def test_a_replay_answer_keeps_its_reveal_pace(app, alice) -> None:
    alice.post("/drills/settings", data={"speed": "150"})
    run_id = start(alice, "trumps")
    drive(alice, app, run_id, lambda index: True, stop_after=1)
    assert [a.pace for a in attempts(app, run_id)] == [3.0]  # 2 cards a second at 150 %


def test_a_missed_flash_and_a_missed_running_count_can_be_reviewed(app, alice) -> None:
    flash = start(alice, "flash")
    flash_through(alice, app, flash, lambda index: index != 0, HX)
    running = start(alice, "running-score")
    drive(alice, app, running, lambda index: False, question_of=running_question)
    for run_id in (flash, running):
        missed = next(a for a in attempts(app, run_id) if not a.correct)
        page = alice.get(f"/review/{missed.id}")
        assert page.status_code == 200 and missed.question["prompt"]["zh"] in visible_text(page.text)
