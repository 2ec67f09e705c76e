"""Feedback that points (training.md §3): the deciding plays name their trick and the seat from the
viewer's chair, in zh (第3轮 下家毙了♥) and en; each is a link that shows that trick on the table
without moving the run, with and without htmx; the review steps through them one by one."""
from __future__ import annotations

import dataclasses
import random
import re
from pathlib import Path

import sqlalchemy as sa
from every_question import every_question
from flask_babel import force_locale
from sqlmodel import col

from trainer.drills.explain import explain_question
from trainer.drills.questions import SUIT_WORDS, make_question
from trainer.engine.trump import TRUMP
from trainer.records import load_record, parse_record
from trainer.tracking.facts import facts_json
from trainer.tracking.tracker import public_events, track
from trainer.web.models import Deal, DrillRun
from trainer.web.quiz import explanation

from .drilling import HX, attempts, position_after, run_row, session, start
from .pages import visible_text

SEATS_ZH = {1: "下家", 2: "对家", 3: "上家"}
SEATS_EN = {1: "Next (下家)", 2: "Partner (对家)", 3: "Previous (上家)"}


def _first_ruff(record) -> tuple[int, int, int]:
    """The first ruff, a follower laying trumps only on a side suit's lead: (trick, seat, led suit)."""
    ctx = record.ctx
    leader = None
    for event in public_events(record):
        if leader is None or leader.trick != event.trick:
            leader = event
            continue
        suits = {ctx.suit_of[card.index] for card in event.cards}
        if event.lead.suit != TRUMP and suits == {TRUMP}:
            return event.trick, event.seat, event.lead.suit
    raise AssertionError("no ruff in the deal")


def _voids_run(app, client) -> tuple[int, int, int, int]:
    """A run asked one voids question, in the suit a seat ruffed, two tricks after the ruff, from the
    seat before the ruffer (it is 下家); (run id, ruff trick, the ruffer relative to the viewer, checkpoint
    plays)."""
    run_id = start(client, "everything")
    run = run_row(app, run_id)
    with session(app) as db:
        record = parse_record(db.get(Deal, run.deal_pk).record)
    trick, seat, suit = _first_ruff(record)
    run.seat = (seat + 3) % 4
    starts = [sum(len(t.plays) for t in record.tricks[:n]) for n in range(len(record.tricks))]
    at = starts[trick + 1]  # the ruff's trick and the next are over: the look does not show it
    position = position_after(record, at)
    snap = track(record, run.seat, position)
    facts = facts_json(snap, str(position))
    label = "SHCD"[suit]
    asked = next(q for k in range(50) if (q := make_question("voids", facts, snap, random.Random(k))))
    question = dataclasses.replace(asked, suit=label, prompt={"zh": f"谁{SUIT_WORDS[label][0]}绝门了？",
                                                              "en": f"Who is void in {SUIT_WORDS[label][1]}?"},
                                   answer=[q for q, suits in facts["voids"].items() if label in suits])
    assert str(seat) in question.answer
    with session(app) as db:
        db.execute(sa.update(DrillRun).where(col(DrillRun.id) == run_id)
                   .values(checkpoints=[at], cursor=at, seat=run.seat, question=question.to_json()))
        db.commit()
    return run_id, trick, (seat - run.seat) % 4, at


def _answer_wrong(app, client, run_id: int) -> None:
    run = run_row(app, run_id)
    question = run.question
    wrong = [] if question["answer"] else [question["options"][0]["value"]]
    assert client.post(f"/runs/{run_id}/answer", data={"checkpoint": 0, "answer": wrong}).status_code == 303


LINK = re.compile(r'<a href="(/runs/\d+\?show=(\d+))#shown-trick" hx-get="\1" hx-target="#run" hx-swap="outerHTML" '
                  r'data-trick="(\d+)" data-seat="(\d)"')


def test_the_feedback_names_the_ruff_by_trick_and_seat_and_links_to_it(app, alice) -> None:
    run_id, trick, relative, at = _voids_run(app, alice)
    _answer_wrong(app, alice, run_id)
    for headers in ({}, HX):
        page = alice.get(f"/runs/{run_id}", headers=headers)
        assert page.status_code == 200 and "HX-Request" in page.headers["Vary"]
        text = visible_text(page.text)
        assert f"第{trick}轮 {SEATS_ZH[relative]}毙了" in text, text
        deciding = text.index("关键的几手")
        assert deciding < text.index("完整的来龙去脉")  # the deciding plays before the full account
        links = LINK.findall(page.text)
        assert (f"/runs/{run_id}?show={trick}", str(trick), str(trick), str((run_row(app, run_id).seat + relative) % 4)
                ) in links
        assert 'id="shown-trick"' not in page.text
    alice.post("/lang", data={"lang": "en", "next": "/"})
    text = visible_text(alice.get(f"/runs/{run_id}").text)
    assert f"trick {trick}: {SEATS_EN[relative]} ruffed" in text, text


def test_a_deciding_link_shows_that_trick_without_moving_the_run(app, alice) -> None:
    run_id, trick, relative, at = _voids_run(app, alice)
    _answer_wrong(app, alice, run_id)
    before = run_row(app, run_id)
    for headers in ({}, HX):
        page = alice.get(f"/runs/{run_id}?show={trick}", headers=headers)
        assert page.status_code == 200 and "HX-Request" in page.headers["Vary"]
        assert ("<html" in page.text) is not bool(headers)
        shown = page.text[page.text.index('id="shown-trick"'):]
        shown = shown[:shown.index("</details>")]
        assert f"第 {trick} 轮" in visible_text(shown)
        assert shown.count("<li") == 4  # the whole trick, every seat's play
        assert SEATS_ZH[relative] in visible_text(shown)
        assert 'class="verdict"' in page.text  # still the feedback
    after = run_row(app, run_id)
    assert (after.cursor, after.status, after.shown_at) == (before.cursor, before.status, before.shown_at)
    future = alice.get(f"/runs/{run_id}?show={trick + 3}")  # not yet played when the question was asked
    assert future.status_code == 200 and 'id="shown-trick"' not in future.text


def test_no_trick_is_shown_while_the_question_is_asked(app, alice) -> None:
    run_id, trick, _relative, _at = _voids_run(app, alice)
    page = alice.get(f"/runs/{run_id}?show={trick}")
    assert 'id="answer-form"' in page.text and 'id="shown-trick"' not in page.text


def test_the_review_steps_through_the_deciding_plays(app, alice) -> None:
    run_id, trick, relative, _at = _voids_run(app, alice)
    _answer_wrong(app, alice, run_id)
    attempt = attempts(app, run_id)[0]
    page = alice.get(f"/review/{attempt.id}")
    steps = re.findall(rf'href="/review/{attempt.id}\?step=(\d+)#deciding" hx-get="/review/{attempt.id}\?step=\1" '
                       r'hx-target="#deciding" hx-swap="outerHTML" data-trick="(\d+)"', page.text)
    assert steps and [int(k) for k, _t in steps] == list(range(1, len(steps) + 1))
    assert "<html" in page.text and 'aria-current="step"' in page.text
    for k, number in steps:
        for headers in ({}, HX):
            step = alice.get(f"/review/{attempt.id}?step={k}", headers=headers)
            assert step.status_code == 200 and "HX-Request" in step.headers["Vary"]
            if headers:
                assert step.text.lstrip().startswith('<section id="deciding"') and "<html" not in step.text
            shown = visible_text(step.text[step.text.index('id="shown-trick"'):])
            assert f"{k} / {len(steps)}" in shown and f"第{number}轮" in shown
        assert f'aria-current="step">' in step.text.split(f"?step={k}#deciding")[1][:300]
    ruff = next(k for k, number in steps if int(number) == trick)
    step = visible_text(alice.get(f"/review/{attempt.id}?step={ruff}").text)
    assert f"第{trick}轮 {SEATS_ZH[relative]}毙了" in step


def test_a_trick_is_lun_in_every_chinese_text() -> None:
    root = Path(__file__).parents[2]
    catalogue = (root / "trainer" / "web" / "translations" / "zh" / "LC_MESSAGES" / "messages.po").read_text("utf-8")
    translated = "\n".join(re.findall(r'^msgstr "(.*)"$', catalogue, re.MULTILINE))
    assert "轮" in translated and not re.search("[墩圈]", translated)
    for path in [*(root / "templates").rglob("*.html"), *(root / "trainer").rglob("*.py"), *(root / "drills").rglob("*.toml")]:
        assert not re.search("[墩圈]", path.read_text("utf-8")), path


def test_every_deciding_play_names_a_play_made_there_in_both_languages(app) -> None:
    """Over the starter deals, every question type at several moments: each deciding play is a play the
    named seat made in the named trick before the question, said with that trick and seat in zh and en."""
    kinds = set()
    for path in sorted((Path(__file__).parents[2] / "drills" / "deals").glob("deal-*.json"))[:4]:
        record = load_record(path)
        events = list(public_events(record))
        for plays in (20, 50, 80):
            position = position_after(record, plays)
            for seat in range(4):
                for question, snap in every_question(record, seat, position):
                    raw = explain_question(question, snap, events[:plays])
                    for play in raw.plays:
                        assert any(e.trick == play.trick and e.seat == play.seat for e in events[:plays]), play
                        kinds.add(question.type)
                    for locale, start in (("zh", "第{n}轮 {seat}"), ("en", "trick {n}: {seat}")):
                        with app.test_request_context(), force_locale(locale):
                            said = explanation(question, snap, events[:plays]).plays
                            words = {**(SEATS_ZH if locale == "zh" else SEATS_EN),
                                     0: "自己" if locale == "zh" else "Me (自己)"}
                            for play in said:
                                assert play.line.startswith(start.format(n=play.trick, seat=words[(play.seat - seat) % 4]))
                                assert "seat" not in play.line, play.line
    assert {"voids", "trumps_unseen", "is_boss", "attackers_score", "suit_played"} <= kinds, kinds
