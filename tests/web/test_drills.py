"""Drill runs through the views: the curriculum, starting a run, stepping, questions graded against
the tracker, attempts stored once and before the feedback, resuming after a restart, the summary,
isolation and CSRF; with and without htmx."""
from __future__ import annotations

import io
import itertools
import json
import random
import re
from datetime import timedelta

import pytest
import sqlalchemy as sa
from sqlmodel import SQLModel, select

from trainer.bots.random import random_record
from trainer.drills.definitions import DRILLS_DIR
from trainer.drills.questions import QUESTION_TYPES, Question
from trainer.drills.runs import plan_run
from trainer.records import parse_record
from trainer.web.models import Attempt, Deal, DrillRun, User, utcnow

from .drilling import (
    DRILLS,
    HX,
    at_value,
    attempts,
    drive,
    expected_question,
    form_values,
    frame,
    give_first_question,
    run_row,
    session,
    start,
    statements,
    wrong_answer,
)
from .pages import visible_text


def _alternate(index: int) -> bool:
    return index % 2 == 0


# -- the curriculum ----------------------------------------------------------------------------------

def test_the_curriculum_page_lists_every_drill_with_a_start_form(alice) -> None:
    for headers in ({}, HX):
        page = alice.get("/drills", headers=headers)
        assert page.status_code == 200 and "HX-Request" in page.headers["Vary"]
        for drill in DRILLS.values():
            assert drill.name["zh"] in page.text and drill.description["zh"] in page.text
            assert f'action="/drills/{drill.id}/start"' in page.text
        assert "45 秒内作答" in page.text and "每秒 2 张" in page.text
    alice.post("/lang", data={"lang": "en"})
    page = alice.get("/drills").text
    assert all(drill.name["en"] in page for drill in DRILLS.values())


def test_the_curriculum_asks_every_question_type() -> None:
    assert {kind for drill in DRILLS.values() if drill.mode == "replay" for kind in drill.questions} == set(QUESTION_TYPES)


def test_anonymous_visitors_are_sent_to_log_in(client) -> None:
    assert client.get("/drills").headers["Location"].startswith("/auth/login")
    assert client.post("/drills/trumps/start").headers["Location"].startswith("/auth/login")


def test_starting_a_run_picks_a_complete_deal_under_the_drill_rules(app, alice) -> None:
    run_id = start(alice, "trumps")
    run = run_row(app, run_id)
    with session(app) as db:
        deal = db.get(Deal, run.deal_pk)
    assert deal.complete and deal.rules == "standard" and deal.owner_id is None
    plan = plan_run(DRILLS["trumps"], parse_record(deal.record), run.seed)
    assert (run.seat, run.checkpoints) == (plan.seat, plan.checkpoints)
    assert run.cursor == 0 and run.status == "active" and run.drill_id == "trumps"
    htmx_start = alice.post("/drills/trumps/start", headers=HX)
    assert htmx_start.status_code == 200 and re.fullmatch(r"/runs/\d+", htmx_start.headers["HX-Redirect"])


def test_runs_spread_over_the_deals(app, alice) -> None:
    pks = {run_row(app, start(alice, "points")).deal_pk for _ in range(3)}
    assert len(pks) == 3  # three starter deals: each drilled once before any twice


def test_starting_a_run_reads_a_few_deals_in_one_query(app, alice) -> None:
    start(alice, "trumps")
    with statements(app) as seen:
        start(alice, "trumps")
    picking = [sql for sql in seen if "FROM deals" in sql and not re.search(r"deals\.pk = (\?|%\(pk_1\)s)", sql)]
    assert len(picking) == 1 and "LIMIT" in picking[0], picking
    assert not [sql for sql in seen if "GROUP BY" in sql]


def test_a_hidden_deal_is_never_drilled(app, alice) -> None:
    with session(app) as db:
        db.execute(sa.update(Deal).values(hidden=True))
        db.commit()
    response = alice.post("/drills/trumps/start")
    assert response.status_code == 303 and response.headers["Location"] == "/drills"


def test_an_unknown_drill_is_a_404(alice) -> None:
    assert alice.post("/drills/no-such-drill/start").status_code == 404


def test_no_deal_under_the_drill_rules_says_so(make_app, accounts, tmp_path) -> None:
    folder = tmp_path / "drills"
    folder.mkdir()
    text = (DRILLS_DIR / "01-trumps.toml").read_text(encoding="utf-8")
    (folder / "x.toml").write_text(text.replace('rules = "standard"', 'rules = "competition"'))
    app = make_app(DRILLS_DIR=str(folder))
    client = app.test_client()
    client.post("/auth/register", data={"username": "carol", "password": "correct horse", "confirm": "correct horse"})
    response = client.post("/drills/trumps/start")
    assert response.status_code == 303 and response.headers["Location"] == "/drills"
    assert "比赛规则" in client.get("/drills").text and "competition" not in client.get("/drills").text
    with session(app) as db:
        assert db.exec(select(DrillRun)).all() == []


# -- a run -------------------------------------------------------------------------------------------

def test_the_run_page_shows_the_table_from_the_viewer(app, alice) -> None:
    run_id = start(alice, "trumps")
    page = alice.get(f"/runs/{run_id}")
    assert page.status_code == 200 and "<html" in page.text and 'id="run"' in page.text
    for place in ("chair me", "chair right", "chair across", "chair left"):
        assert place in page.text
    assert "chair top" not in page.text  # the header's class is `top`
    for word in ("自己", "下家", "对家", "上家"):
        assert word in page.text
    assert "drill.js" in page.text and f'action="/runs/{run_id}/step?at=0"' in page.text
    assert 'data-delay="500"' in page.text  # 2 cards per second
    assert page.text.count('class="banker"') == 1
    fragment = alice.get(f"/runs/{run_id}", headers=HX)
    assert fragment.text.lstrip().startswith('<section id="run"') and "<html" not in fragment.text
    assert "HX-Request" in fragment.headers["Vary"]


def test_one_page_holds_every_play_up_to_the_checkpoint(app, alice) -> None:
    """The run page renders the table and every play up to the first checkpoint; at step 0 (and
    without JavaScript) no play is on the table; the step drill.js posts at the end of the reveal
    moves the cursor to the checkpoint and answers with its question."""
    run_id = start(alice, "trumps")
    first = run_row(app, run_id).checkpoints[0]
    page = alice.get(f"/runs/{run_id}", headers=HX).text
    assert f'data-steps="{first}"' in page
    assert f'hx-post="/runs/{run_id}/step?at=0&amp;to={first}"' in page
    assert '<span class="card ' not in "".join(re.findall(r'<div class="play">(.*?)</div>', frame(page, 0)))
    last = frame(page, first)
    assert sum('<span class="card ' in p for p in re.findall(r'<div class="play">(.*?)</div>', last)) >= 1
    before = utcnow()
    reached = alice.post(f"/runs/{run_id}/step?at=0&to={first}", headers=HX)
    assert reached.status_code == 200 and 'id="answer-form"' in reached.text
    run = run_row(app, run_id)
    assert run.cursor == first and run.shown_at is not None and run.shown_at.replace(tzinfo=None) >= before.replace(tzinfo=None)
    assert frame(reached.text, 0).count('<span class="card ') == last.count('<span class="card ')  # the same table, settled


def test_the_reach_form_brings_the_question_alone_into_the_stage(app, alice) -> None:
    """drill.js's reach (htmx targeting `#stage`) answers with the question and no table (the table on
    screen stays as revealed); a reach gone stale (the question answered meanwhile) answers with the
    whole run, retargeted to `#run`."""
    run_id = start(alice, "trumps")
    first = run_row(app, run_id).checkpoints[0]
    page = alice.get(f"/runs/{run_id}", headers=HX).text
    assert 'hx-target="#stage"' in page and '<div id="stage">' in page
    stage = {**HX, "HX-Target": "div#stage"}
    reached = alice.post(f"/runs/{run_id}/step?at=0&to={first}", headers=stage)
    assert reached.status_code == 200 and reached.text.lstrip().startswith('<div id="stage">')
    assert 'id="answer-form"' in reached.text and 'class="table' not in reached.text
    assert "HX-Retarget" not in reached.headers and "HX-Target" in reached.headers["Vary"]
    assert run_row(app, run_id).cursor == first
    again = alice.post(f"/runs/{run_id}/step?at=0&to={first}", headers=stage)
    assert again.text == reached.text  # a reach sent twice: the same question
    index = int(re.search(r'name="checkpoint" value="(\d+)"', reached.text).group(1))
    alice.post(f"/runs/{run_id}/answer", data={"checkpoint": index, "answer": "0"}, headers=HX)
    stale = alice.post(f"/runs/{run_id}/step?at=0&to={first}", headers=stage)
    assert stale.text.lstrip().startswith('<section id="run"') and 'class="table' in stale.text
    assert stale.headers["HX-Retarget"] == "#run" and stale.headers["HX-Reswap"] == "outerHTML"


def test_a_step_cannot_go_past_the_next_checkpoint(app, alice) -> None:
    run_id = start(alice, "trumps")
    first = run_row(app, run_id).checkpoints[0]
    for to in (first + 1, 0, -3):
        alice.post(f"/runs/{run_id}/step?at=0&to={to}", headers=HX)
        assert run_row(app, run_id).cursor == 0


def test_a_step_without_javascript_moves_one_play(app, alice) -> None:
    assert 'data-delay="200"' in alice.get(f"/runs/{start(alice, 'speed')}").text  # 5 cards per second
    run_id = start(alice, "trumps")
    plain = alice.post(f"/runs/{run_id}/step", data={"at": 0})
    assert plain.status_code == 303 and plain.headers["Location"] == f"/runs/{run_id}"
    assert run_row(app, run_id).cursor == 1
    fragment = alice.post(f"/runs/{run_id}/step", data={"at": 1}, headers=HX)
    assert fragment.status_code == 200 and "HX-Request" in fragment.headers["Vary"]
    assert fragment.text.lstrip().startswith('<section id="run"') and "<html" not in fragment.text
    assert run_row(app, run_id).cursor == 2 and at_value(fragment.text) == 2


def test_an_answer_brings_the_feedback_and_the_plays_to_the_next_checkpoint(app, alice) -> None:
    """One request per checkpoint and one per answer: the answer's response holds the feedback and
    the next stretch (revealed after Continue); a page load at that point shows the same; without
    JavaScript Continue steps one play."""
    run_id = start(alice, "trumps")
    first, second = run_row(app, run_id).checkpoints[:2]
    alice.post(f"/runs/{run_id}/step?at=0&to={first}", headers=HX)
    question, _position = expected_question(app, run_row(app, run_id), 0)
    answered = alice.post(f"/runs/{run_id}/answer", data={"checkpoint": 0, "answer": form_values(question.answer)},
                          headers=HX)
    assert 'class="verdict"' in answered.text and 'class="run feedback"' in answered.text
    assert f'data-steps="{second - first}"' in answered.text
    assert f'step?at={first}&amp;to={second}"' in answered.text and 'class="controls" hidden' in answered.text
    for headers in (HX, {}):
        again = alice.get(f"/runs/{run_id}", headers=headers).text
        assert f'data-steps="{second - first}"' in again and 'class="verdict"' in again
    assert alice.post(f"/runs/{run_id}/step", data={"at": first}).status_code == 303
    assert run_row(app, run_id).cursor == first + 1 and len(attempts(app, run_id)) == 1


def test_a_stretch_from_trick_end_to_trick_end_stays_small(app, alice) -> None:
    """A whole trick between two checkpoints, with the feedback, fits in 16 KB (uncompressed)."""
    run_id = start(alice, "everything")
    run = run_row(app, run_id)
    with session(app) as db:
        record = parse_record(db.get(Deal, run.deal_pk).record)
    longest = max(len(trick.plays) for trick in record.tricks)
    page = alice.get(f"/runs/{run_id}", headers=HX)
    assert len(page.data) <= 16384 and int(re.search(r'data-steps="(\d+)"', page.text).group(1)) >= longest


def test_speed_and_table_toggles_are_kept_per_user(app, alice, accounts) -> None:
    run_id = start(alice, "trumps")
    moved = alice.post("/drills/settings", data={"speed": "200", "run": run_id})
    assert moved.status_code == 303 and moved.headers["Location"] == f"/runs/{run_id}"
    page = alice.get(f"/runs/{run_id}").text
    assert 'data-delay="250"' in page and ">200%<" in page and 'value="300" id="faster"' in page
    for bad in ("7", "fast", ""):
        alice.post("/drills/settings", data={"speed": bad})
    assert 'data-delay="250"' in alice.get(f"/runs/{run_id}").text
    assert '<div class="table">' in page
    assert alice.post("/drills/settings", data={"hand_sizes": "0"}, headers=HX).status_code == 204
    assert alice.post("/drills/settings", data={"last_trick": "0"}, headers=HX).status_code == 204
    assert '<div class="table no-sizes no-last">' in alice.get(f"/runs/{run_id}", headers=HX).text
    assert alice.post("/drills/settings", data={"hand_sizes": "1"}).headers["Location"] == "/drills"
    assert '<div class="table no-last">' in alice.get(f"/runs/{run_id}").text
    accounts.logout()
    accounts.sign_up("bob")
    other = start(alice, "trumps")
    assert 'data-delay="500"' in alice.get(f"/runs/{other}").text  # bob's own: the defaults


def test_the_hand_is_sorted_trumps_first_and_earlier_tricks_are_cleared(app, alice) -> None:
    run_id = start(alice, "trumps")
    run = run_row(app, run_id)
    with session(app) as db:
        record = parse_record(db.get(Deal, run.deal_pk).record)
    first = len(record.tricks[0].plays)
    for at in range(first + 1):
        alice.post(f"/runs/{run_id}/step", data={"at": at}, headers=HX)
    page = frame(alice.get(f"/runs/{run_id}", headers=HX).text, 0)
    assert "第 2 轮" in page
    plays = re.findall(r'<div class="play">(.*?)</div>', page)
    assert sum(1 for p in plays if "card" in p) == 1  # only the new lead is on the table
    hand = re.search(r'<div class="hand">(.*?)</div>\s*</div>', page, re.DOTALL).group(1)
    if record.ctx.trump is not None or any(record.ctx.is_trump(c) for c in record.playing_hands()[run.seat]):
        labels = re.findall(r'<span class="suit-label">(.*?)</span>', hand)
        assert labels[0] == "主牌" or "主牌" not in labels


def test_a_stale_or_repeated_step_changes_nothing(app, alice) -> None:
    run_id = start(alice, "trumps")
    alice.post(f"/runs/{run_id}/step", data={"at": 0}, headers=HX)
    again = alice.post(f"/runs/{run_id}/step", data={"at": 0}, headers=HX)
    assert again.status_code == 200 and at_value(again.text) == 1
    assert run_row(app, run_id).cursor == 1


def test_a_step_cannot_pass_an_unanswered_question(app, alice) -> None:
    run_id = start(alice, "trumps")
    first = run_row(app, run_id).checkpoints[0]
    alice.post(f"/runs/{run_id}/step?at=0&to={first}", headers=HX)
    stuck = alice.post(f"/runs/{run_id}/step?at={first}&to={first + 1}", headers=HX)
    assert 'id="answer-form"' in stuck.text and run_row(app, run_id).cursor == first


@pytest.mark.parametrize("drill_id", [key for key, drill in DRILLS.items() if drill.mode == "replay"])
def test_a_whole_run_is_graded_against_the_tracker(app, alice, drill_id) -> None:
    preset = DRILLS[drill_id].rules.preset
    if preset != "standard":  # the test's starter library holds standard deals only
        assert alice.post("/deals/generate", data={"rules": preset, "count": "2"}).status_code == 303
    run_id = start(alice, drill_id)
    answered = drive(alice, app, run_id, _alternate)
    run = run_row(app, run_id)
    assert run.status == "done" and run.finished is not None
    assert len(answered) == len(run.checkpoints)
    stored = attempts(app, run_id)
    assert [a.checkpoint for a in stored] == list(range(len(run.checkpoints)))
    for attempt, (index, given, question) in zip(stored, answered, strict=True):
        recomputed, position = expected_question(app, run, index)
        assert attempt.question == recomputed.to_json() == question.to_json()
        assert attempt.expected == recomputed.answer and attempt.position == position
        assert attempt.given == (given if not isinstance(given, list) else
                                 [o["value"] for o in recomputed.options if o["value"] in given])
        assert attempt.correct == recomputed.grade(attempt.given) == _alternate(index)
        assert attempt.seat == run.seat and attempt.deal_pk == run.deal_pk and attempt.ms >= 0
        assert attempt.question_type == recomputed.type and attempt.suit == recomputed.suit


def test_the_whole_run_works_without_javascript(app, alice) -> None:
    run_id = start(alice, "voids")
    answered = drive(alice, app, run_id, lambda index: True, headers={})
    assert answered and all(a.correct for a in attempts(app, run_id))
    summary = alice.get(f"/runs/{run_id}/summary")
    assert summary.status_code == 200 and "100%" in summary.text


def test_the_feedback_shows_the_answer_its_explanation_and_the_time(app, alice) -> None:
    run_id = start(alice, "trumps")
    run = run_row(app, run_id)
    for at in range(run.checkpoints[0]):
        alice.post(f"/runs/{run_id}/step", data={"at": at}, headers=HX)
    with session(app) as db:
        db.execute(sa.update(DrillRun).where(DrillRun.id == run_id).values(shown_at=utcnow() - timedelta(seconds=5)))
        db.commit()
    question, _position = expected_question(app, run, 0)
    response = alice.post(f"/runs/{run_id}/answer", data={"checkpoint": 0, "answer": form_values(wrong_answer(question))},
                          headers=HX)
    assert response.status_code == 200 and "✗" in response.text
    expected = re.search(r'<dd class="expected">(.*?)</dd>', response.text).group(1)
    assert visible_text(expected) == question.answer_text("zh")
    decisive = re.search(r'<ul class="explain decisive">(.*?)</ul>', response.text, re.DOTALL).group(1)
    assert decisive.count("<li>") >= 1 and visible_text(decisive).strip()  # the deciding lines, open
    if '<details class="account">' in response.text:  # then the full account, folded
        assert response.text.index('<details class="account">') > response.text.index('class="explain decisive"')
    assert re.search(r"[5-9]\.\d 秒", response.text)
    assert attempts(app, run_id)[0].ms >= 5000
    assert 'id="continue"' in response.text


def test_a_double_submit_stores_one_attempt_and_shows_the_same_feedback(app, alice) -> None:
    run_id = start(alice, "points")
    run = run_row(app, run_id)
    for at in range(run.checkpoints[0]):
        alice.post(f"/runs/{run_id}/step", data={"at": at}, headers=HX)
    question, _position = expected_question(app, run, 0)
    first = alice.post(f"/runs/{run_id}/answer", data={"checkpoint": 0, "answer": form_values(question.answer)},
                       headers=HX)
    second = alice.post(f"/runs/{run_id}/answer", data={"checkpoint": 0,
                                                        "answer": form_values(wrong_answer(question))}, headers=HX)
    assert first.status_code == second.status_code == 200
    assert first.text == second.text and "✓" in second.text
    stored = attempts(app, run_id)
    assert len(stored) == 1 and stored[0].correct
    plain = alice.post(f"/runs/{run_id}/answer", data={"checkpoint": 0, "answer": "1"})
    assert plain.status_code == 303 and len(attempts(app, run_id)) == 1


def test_the_unique_constraint_holds_when_two_answers_race(app, alice) -> None:
    run_id = start(alice, "trumps")
    with session(app) as db:
        user_id = run_row(app, run_id).user_id
        row = {"run_id": run_id, "user_id": user_id, "checkpoint": 0, "question": {}, "question_type": "trumps_unseen",
               "expected": 1, "given": 1, "correct": True, "ms": 1, "position": "1.4", "seat": 0,
               "deal_pk": run_row(app, run_id).deal_pk}
        db.add(Attempt(**row))
        db.commit()
        db.add(Attempt(**row))
        with pytest.raises(sa.exc.IntegrityError):
            db.commit()


@pytest.mark.parametrize(("kind", "bad", "message"), [("number", "seven", "请输入一个数"),
                                                      ("single", "maybe", "请选一个答案")])
def test_an_answer_that_is_not_one_is_refused_in_words(app, alice, kind, bad, message) -> None:
    run_id = start(alice, "top-cards")
    run = give_first_question(app, run_id, kind)
    for at in range(run.checkpoints[0]):
        alice.post(f"/runs/{run_id}/step", data={"at": at}, headers=HX)
    refused = alice.post(f"/runs/{run_id}/answer", data={"checkpoint": 0, "answer": bad}, headers=HX)
    assert refused.status_code == 422 and 'role="alert"' in refused.text and message in refused.text
    assert 'id="answer-form"' in refused.text and attempts(app, run_id) == []
    plain = alice.post(f"/runs/{run_id}/answer", data={"checkpoint": 0, "answer": bad})
    assert plain.status_code == 422 and "<html" in plain.text


def test_keyboard_hints_and_options_by_kind(app, alice) -> None:
    run_id = start(alice, "everything")
    run = give_first_question(app, run_id, "multi")
    for at in range(run.checkpoints[0]):
        alice.post(f"/runs/{run_id}/step", data={"at": at}, headers=HX)
    page = alice.get(f"/runs/{run_id}", headers=HX).text
    question = expected_question(app, run, 0)[0]
    assert page.count('type="checkbox" name="answer"') == len(question.options)
    assert "<kbd>1</kbd>" in page and 'data-kind="multi"' in page and 'class="timer" data-seconds="60"' in page


def test_every_option_has_a_key_past_nine(app) -> None:
    """Options 10 and on get keys too (0, then letters; L is the last trick's), as data-key for drill.js."""
    from types import SimpleNamespace

    from flask import render_template

    options = [{"value": f"v{n}", "label": {"zh": f"选项{n}", "en": f"option {n}"}} for n in range(13)]
    question = SimpleNamespace(kind="single", options=options, prompt={"zh": "哪张？", "en": "Which?"})
    with app.test_request_context():
        html = render_template("runs/_question.html", question=question, run=SimpleNamespace(id=1, checkpoints=[4], cursor=4),
                               drill=SimpleNamespace(answer_seconds=45), number=1, given=set(), error=None,
                               lang="en", fragment=True)
    keys = re.findall(r'value="v(\d+)" data-key="(\w)"', html)
    assert [key for _value, key in keys] == list("1234567890abc") and html.count("<kbd>") == 13
    assert html.count('type="radio"') == 13


def test_an_answer_for_another_checkpoint_stores_nothing(app, alice) -> None:
    run_id = start(alice, "trumps")
    response = alice.post(f"/runs/{run_id}/answer", data={"checkpoint": 0, "answer": "3"}, headers=HX)
    assert response.status_code == 200 and at_value(response.text) == 0
    assert attempts(app, run_id) == []


def test_an_interrupted_run_resumes_after_a_restart(make_app, app, alice, accounts) -> None:
    run_id = start(alice, "everything")
    drive(alice, app, run_id, _alternate, stop_after=2)
    alice.post(f"/runs/{run_id}/step", data={"at": run_row(app, run_id).cursor}, headers=HX)
    before = run_row(app, run_id)
    restarted = make_app()
    client = restarted.test_client()
    assert client.post("/auth/login", data={"username": "alice", "password": "correct horse"}).status_code == 303
    page = client.get(f"/runs/{run_id}")
    assert page.status_code == 200 and at_value(page.text) == before.cursor
    assert client.get("/drills").text.count(f'href="/runs/{run_id}"') >= 1
    answered = drive(client, restarted, run_id, _alternate)
    assert [index for index, _given, _q in answered] == list(range(2, len(before.checkpoints)))
    assert len(attempts(restarted, run_id)) == len(before.checkpoints)


def test_the_summary_counts_per_question_type(app, alice) -> None:
    run_id = start(alice, "everything")
    assert alice.get(f"/runs/{run_id}/summary").headers["Location"] == f"/runs/{run_id}"
    drive(alice, app, run_id, _alternate)
    stored = attempts(app, run_id)
    page = alice.get(f"/runs/{run_id}/summary")
    assert page.status_code == 200
    right = sum(a.correct for a in stored)
    assert f'<dd id="score">{right} / {len(stored)}</dd>' in page.text
    assert f'<dd id="accuracy">{round(100 * right / len(stored))}%</dd>' in page.text
    total_ms = sum(a.ms for a in stored)
    assert f'<dd id="total-time">{total_ms / 1000:.1f} 秒</dd>' in page.text
    assert f'<dd id="mean-time">{total_ms / len(stored) / 1000:.1f} 秒</dd>' in page.text
    for kind in {a.question_type for a in stored}:
        mine = [a for a in stored if a.question_type == kind]
        row = re.search(rf'<tr data-type="{kind}"><td>[^<]*</td><td>(\d+) / (\d+)</td>', page.text)
        assert row and (int(row.group(1)), int(row.group(2))) == (sum(a.correct for a in mine), len(mine))
    wrong_links = set(re.findall(r'href="/review/(\d+)"', page.text))
    assert wrong_links == {str(a.id) for a in stored if not a.correct}
    assert alice.get(f"/runs/{run_id}").headers["Location"] == f"/runs/{run_id}/summary"
    after = alice.post(f"/runs/{run_id}/step", data={"at": 0}, headers=HX)
    assert after.headers["HX-Redirect"] == f"/runs/{run_id}/summary"


def test_a_run_can_be_ended_early(app, alice) -> None:
    run_id = start(alice, "trumps")
    drive(alice, app, run_id, lambda index: True, stop_after=1)
    page = alice.get(f"/runs/{run_id}").text
    assert page.index(f'href="/runs/{run_id}/finish"') > page.index('id="run"')  # below the table, not by the title
    for headers in ({}, HX):  # asked first: the link's page, and a post without confirm=yes
        asked = alice.get(f"/runs/{run_id}/finish", headers=headers)
        assert asked.status_code == 200 and ("<html" in asked.text) == (not headers)
        assert 'name="confirm" value="yes"' in asked.text and "HX-Request" in asked.headers["Vary"].split(", ")
        assert alice.post(f"/runs/{run_id}/finish", headers=headers).status_code == 200
        assert run_row(app, run_id).status == "active"
    ended = alice.post(f"/runs/{run_id}/finish", data={"confirm": "yes"})
    assert ended.status_code == 303 and ended.headers["Location"] == f"/runs/{run_id}/summary"
    page = alice.get(f"/runs/{run_id}/summary").text
    assert '<dd id="score">1 / 1</dd>' in page and "没有作答" in page


# -- isolation and CSRF ------------------------------------------------------------------------------

def test_another_users_run_is_a_404(app, client, accounts) -> None:
    accounts.sign_up("alice")
    run_id = start(client, "trumps")
    drive(client, app, run_id, lambda index: False, stop_after=1)
    accounts.logout()
    accounts.sign_up("bob")
    for response in (client.get(f"/runs/{run_id}"), client.get(f"/runs/{run_id}", headers=HX),
                     client.post(f"/runs/{run_id}/step", data={"at": 0}),
                     client.post(f"/runs/{run_id}/answer", data={"checkpoint": 0, "answer": "1"}),
                     client.get(f"/runs/{run_id}/finish"), client.post(f"/runs/{run_id}/finish", data={"confirm": "yes"}),
                     client.get(f"/runs/{run_id}/summary")):
        assert response.status_code == 404
    assert run_row(app, run_id).status == "active" and len(attempts(app, run_id)) == 1
    assert f"/runs/{run_id}" not in client.get("/drills").text


def test_csrf_refuses_an_answer_without_a_token(make_app) -> None:
    app = make_app(WTF_CSRF_ENABLED=True)
    client = app.test_client()
    token = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', client.get("/auth/register").text).group(1)
    client.post("/auth/register", data={"username": "alice", "password": "correct horse",
                                        "confirm": "correct horse", "csrf_token": token})
    page = client.get("/drills").text
    token = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', page).group(1)
    assert client.post("/drills/trumps/start").status_code == 400
    run_id = start_with_token(client, token)
    run = run_row(app, run_id)
    for at in range(run.checkpoints[0]):
        assert client.post(f"/runs/{run_id}/step", data={"at": at}, headers={**HX, "X-CSRFToken": token}).status_code == 200
    refused = client.post(f"/runs/{run_id}/answer", data={"checkpoint": 0, "answer": "3"}, headers=HX)
    assert refused.status_code == 400 and "<html" not in refused.text
    assert client.post(f"/runs/{run_id}/answer", data={"checkpoint": 0, "answer": "3"}).status_code == 400
    assert attempts(app, run_id) == []
    page = client.get(f"/runs/{run_id}").text
    forms = re.findall(r"<form[^>]*>.*?</form>", page, re.DOTALL)
    assert all('name="csrf_token"' in form for form in forms if 'method="post"' in form)
    accepted = client.post(f"/runs/{run_id}/answer", data={"checkpoint": 0, "answer": "3"},
                           headers={**HX, "X-CSRFToken": token})
    assert accepted.status_code == 200 and len(attempts(app, run_id)) == 1


def start_with_token(client, token: str) -> int:
    response = client.post("/drills/trumps/start", data={"csrf_token": token})
    assert response.status_code == 303
    return int(response.headers["Location"].rsplit("/", 1)[1])


def test_stored_questions_round_trip(app, alice) -> None:
    run_id = start(alice, "top-cards")
    drive(alice, app, run_id, _alternate, stop_after=3)
    for attempt in attempts(app, run_id):
        question = Question.from_json(attempt.question)
        assert question.grade(attempt.given) == attempt.correct


def test_reading_answers_from_a_form(app) -> None:
    from trainer.web.quiz import AnswerError, read_answer

    number = Question("to_take_over", "number", {"zh": "", "en": ""}, -15, "score")
    seats = Question("voids", "multi", {"zh": "", "en": ""}, ["3", "1"], "voids", suit="S",
                     options=[{"value": v, "label": {"zh": v, "en": v}} for v in ("1", "2", "3")])
    yes_no = Question("live_tractor", "single", {"zh": "", "en": ""}, "no", "suits.live_tractors", suit="S",
                      options=[{"value": v, "label": {"zh": v, "en": v}} for v in ("yes", "no")])
    with app.test_request_context():
        assert read_answer(number, [" -15 "]) == -15 and number.grade(-15)
        assert read_answer(number, ["12"]) == 12
        for bad in ([], [""], ["seven"], ["1.5"], ["12345"]):
            with pytest.raises(AnswerError):
                read_answer(number, bad)
        assert read_answer(seats, ["3", "1", "9"]) == ["1", "3"] and seats.grade(["1", "3"])
        assert read_answer(seats, []) == []
        assert read_answer(yes_no, ["no"]) == "no"
        for bad in ([], ["maybe"], ["yes", "no"]):
            with pytest.raises(AnswerError):
                read_answer(yes_no, bad)


CHAIR = re.compile(r'<div class="chair (\w+)">\n<p class="caption">(.*?)</p>\n<div class="play">(.*?)</div>', re.DOTALL)
CARD = re.compile(r'<span class="card [^"]*" title="[^"]*" role="img" aria-label="[^"]*"><span class="r">[^<]*</span>(?:<span class="s">[^<]*</span>)?</span>')


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_drill_table_shows_the_trick_and_the_hand_at_every_play(app, alice, lang) -> None:
    """The table a page reveals, from every seat (in English, the banker's: the words are what changes) over
    every stretch of every starter deal (and a deal of failed throws), checked at each step against the record: each chair's cards in the trick on
    the table, who leads and who is winning it, the cards left in each hand, my hand, the failed
    throw, the buried cards, the last trick."""
    from flask import render_template
    from flask_babel import gettext, ngettext

    from trainer.web.display import card_view
    from trainer.web.drills import _load
    from trainer.web.models import DrillSettings
    from trainer.web.table import PLACES, stretch

    alice.post("/lang", data={"lang": lang})
    throws = random_record(random.Random(0), throw_rate=0.3)  # failed throws (甩牌失败) on the table
    assert any(trick.get("attempt") for trick in throws["tricks"])
    imported = alice.post("/deals/import", data={"kind": "record", "file": (io.BytesIO(json.dumps(throws).encode()),
                                                                            "throws.json")},
                          content_type="multipart/form-data")
    assert imported.status_code == 303
    run_ids = [start(alice, "trumps") for _ in range(4)]  # the four deals, each once
    checked = attempts_drawn = buried_drawn = lasts = 0
    with app.test_request_context(headers={"HX-Request": "true"}):
        from flask import g
        from flask import session as flask_session

        flask_session["lang"] = lang
        user_id = run_row(app, run_ids[0]).user_id
        with session(app) as db:  # alice's session: her id and her session token
            flask_session.update(user_id=user_id, session_token=db.get(User, user_id).session_token)
            g.user = db.get(User, user_id)
        card = lambda c, ctx: render_template("_cards.html") and \
            app.jinja_env.get_template("_cards.html").module.card(card_view(c, ctx))
        failed, buried_word = gettext("Failed throw (甩牌失败): tried"), gettext("Buried by the banker")
        for run_id in run_ids:
            data = _load(run_id)[2]
            record, ctx = data.record, data.record.ctx
            cuts = sorted({0, data.total, *data.trick_starts, *range(1, data.total, 7)})
            for seat in range(4) if lang == "zh" else (record.banker,):  # English words: one seat suffices
                hand = list(record.playing_hands()[seat])
                for begin, end in itertools.pairwise(cuts):
                    html = render_template("drills/_table.html", table=stretch(data, seat, begin, end),
                                           settings=DrillSettings(user_id=user_id))
                    for step in range(end - begin + 1):
                        plays = begin + step
                        shown = frame(html, step)
                        position = data.positions[plays]
                        trick = record.tricks[position.trick - 1]
                        laid = {(trick.leader + i) % 4: cards for i, cards in enumerate(trick.plays[:position.plays])}
                        winner = data.events[plays - 1].winning if position.plays else None
                        chairs = CHAIR.findall(shown)
                        assert [place for place, *_rest in chairs] == list(PLACES)
                        for number, (_place, caption, on_table) in enumerate(chairs):
                            other = (seat + number) % 4
                            expected = [card(c, ctx) for c in laid.get(other, ())]
                            assert CARD.findall(on_table) == expected, (seat, plays, other)
                            assert ('class="mark wins"' in caption) == (other == winner)
                            assert ('class="mark lead"' in caption) == (position.plays > 0 and other == trick.leader)
                            assert ('class="banker"' in caption) == (other == record.banker)
                            if number:
                                left = len(record.playing_hands()[other]) - sum(
                                    len(cards) for _t, who, cards in data.plays[:plays] if who == other)
                                assert ngettext("%(num)d card", "%(num)d cards", left) in caption
                        mine = shown.split('<div class="hand">', 1)[1].split("</div>\n</div>", 1)[0]
                        mine = mine.split(buried_word, 1)[0]
                        assert sorted(CARD.findall(mine)) == sorted(card(c, ctx) for c in hand), (seat, plays)
                        shown_attempt = position.plays > 0 and trick.attempt is not None
                        assert (failed in shown) == shown_attempt
                        assert (buried_word in shown) == (seat == record.banker)
                        if position.trick > 1:
                            previous = record.tricks[position.trick - 2]
                            look = shown.split('class="last-trick"', 1)[1].split("</details>", 1)[0]
                            assert len(CARD.findall(look)) == sum(len(p) for p in previous.plays)
                            lasts += 1
                        checked += 1
                        attempts_drawn += shown_attempt
                        buried_drawn += seat == record.banker
                        if plays < end:
                            for c in data.plays[plays][2] if data.plays[plays][1] == seat else ():
                                hand.remove(c)
    assert checked > (700 if lang == "zh" else 300) and attempts_drawn and buried_drawn and lasts


def test_a_step_answers_the_section_the_run_page_shows(app, alice) -> None:
    run_id = start(alice, "trumps")
    for at in range(6):
        step = alice.post(f"/runs/{run_id}/step?at={at}", headers=HX).text
        page = alice.get(f"/runs/{run_id}").text
        section = re.search(r'<section id="run".*?</section>', page, re.DOTALL).group(0)
        without_token = re.sub(r'<input type="hidden" name="csrf_token"[^>]*>', "", section)
        assert re.sub(r"\s+", " ", without_token) == re.sub(r"\s+", " ", step.strip())


# -- GETs change nothing -----------------------------------------------------------------------------

def _contents(app) -> dict[str, list[str]]:
    with app.extensions["jipai_engine"].connect() as connection:
        return {table.name: sorted(repr(tuple(row)) for row in connection.execute(sa.select(table)))
                for table in SQLModel.metadata.sorted_tables}


def _at_a_question(alice, run_id: int) -> None:
    for _ in range(300):
        page = alice.get(f"/runs/{run_id}", headers=HX)
        if 'id="answer-form"' in page.text:
            return
        alice.post(f"/runs/{run_id}/step?at={at_value(page.text)}", headers=HX)
    raise AssertionError("no question")


def test_no_get_changes_the_database(app, alice) -> None:
    """Reloading a run at its question does not restart its answer timer, nor does any other page
    change anything: every GET route, as a page and as an htmx fragment."""
    finished = start(alice, "trumps")
    drive(alice, app, finished, lambda index: False)
    mistake = attempts(app, finished)[0].id
    alice.post("/deals/generate", data={"rules": "standard", "count": "1"})
    with session(app) as db:
        own = db.exec(select(Deal.id).where(Deal.owner_id == 1)).first()
    run_id = start(alice, "everything")
    _at_a_question(alice, run_id)
    paths = ["/", "/healthz", "/auth/login", "/auth/register", "/deals", "/deals/new", f"/deals/{own}",
             f"/deals/{own}?trick=3&seat=2", f"/deals/{own}/export", f"/deals/{own}/delete", "/drills",
             f"/runs/{run_id}", f"/runs/{finished}", f"/runs/{finished}/summary", f"/runs/{run_id}/summary",
             f"/runs/{run_id}/finish",
             "/review", f"/review/{mistake}", "/review?type=trumps_unseen"]
    adapter = app.url_map.bind("localhost")
    covered = {adapter.match(path.partition("?")[0])[0] for path in paths}
    for rule in app.url_map.iter_rules():
        if "GET" in rule.methods and rule.endpoint not in covered | {"static"}:
            assert not rule.arguments, f"add a GET of {rule.rule} to this test"
            paths.append(rule.rule)
    before = _contents(app)
    shown_at = run_row(app, run_id).shown_at
    assert shown_at is not None
    for path in paths:
        for headers in ({}, HX):
            assert alice.get(path, headers=headers).status_code in (200, 303), path
            assert _contents(app) == before, path
    assert run_row(app, run_id).shown_at == shown_at
