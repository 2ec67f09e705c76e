"""The signal drills through the views: listed in the curriculum, started on a deal the bots played under
the player's set, stopped at the viewer's signal moments, every answer graded as the rules module says and
stored before the feedback (which names the rule and quotes the convention), mistakes in the review;
with and without htmx."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from sqlmodel import select

from trainer.drills.runs import position_after
from trainer.records import parse_record
from trainer.signals.conventions import load_conventions
from trainer.signals.quiz import load_signal_drills, signal_question
from trainer.web.models import Attempt, Deal

from . import drilling
from .drilling import HX, attempts, run_row, session, start
from .pages import visible_text

SETS = load_conventions()
SIGNAL_DRILLS = load_signal_drills()
SIGNAL_DEALS = Path(__file__).resolve().parents[2] / "drills" / "deals" / "signals"


@pytest.fixture(scope="module")
def signal_starter(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A starter library of six signal deals: three the bots played under basic_89JQ, three under odd."""
    folder = tmp_path_factory.mktemp("signal-starter")
    for path in sorted(SIGNAL_DEALS.glob("*.json")):
        if path.name.startswith(("deal-1302-", "deal-1309-")):  # the seeds generate_signal_deals gave these sets
            shutil.copy(path, folder / path.name)
    assert len(list(folder.glob("*.json"))) == 6
    return folder


@pytest.fixture
def app(make_app, signal_starter: Path):
    """The app on the signal starter library."""
    return make_app(STARTER_DEALS_DIR=str(signal_starter))


def recompute(app, run, index: int):
    """The question at checkpoint `index` computed from the stored deal with the pure quiz module."""
    with session(app) as db:
        record = parse_record(db.get(Deal, run.deal_pk).record)
    plays = run.checkpoints[index]
    return signal_question(SIGNAL_DRILLS[run.drill_id], record, run.seat, plays, run.seed, SETS[run.signals],
                           position_after(record, plays)).question


def drive(client, app, run_id: int, headers: dict, right=lambda index: index % 2 == 0) -> list:
    """Play a signal run through the views to its end, answering right when `right(index)`: each
    question single choice, each answer stored as given and graded, its feedback naming the rule and
    quoting the player's convention."""

    def check(question_page: str, shown: str, index: int, given: str, question) -> None:
        assert 'type="radio"' in question_page and 'type="checkbox"' not in question_page
        stored = [a for a in attempts(app, run_id) if a.checkpoint == index]
        assert len(stored) == 1 and stored[0].correct == right(index) and stored[0].given == given
        assert stored[0].question == question.to_json() and stored[0].question_type == question.type
        op, rule, name = question.fact.split(":")
        text = visible_text(shown)
        assert 'class="verdict"' in shown and ("✓" if right(index) else "✗") in text
        first = text.index("（种子001 一）" if op == "legal" else f"规则 {rule}")
        if op == "legal":
            assert "非法信息" in text
        else:
            assert f"规则 {rule}" in text and f"你的约定 {name}" in text
        deciding = re.findall(r"第(\d+)轮 (自己|下家|对家|上家)出了", text)  # the plays that carried the signal, first
        assert deciding and text.index("关键的几手") < first, text
        assert all(f"show={trick}" in shown for trick, _seat in deciding)

    return drilling.drive(client, app, run_id, right, headers, question_of=recompute, check=check)


def test_the_curriculum_lists_the_signal_drills(alice) -> None:
    for headers in ({}, HX):
        page = alice.get("/drills", headers=headers)
        text = visible_text(page.text)
        for drill in SIGNAL_DRILLS.values():
            assert drill.name["zh"] in text and f'action="/drills/{drill.id}/start"' in page.text
        assert text.index("数主") < text.index("信号：应A") < text.index("信号：看信号") < text.index("信号：垫牌") \
            < text.index("信号：传牌")


@pytest.mark.parametrize("drill_id", list(SIGNAL_DRILLS))
def test_each_signal_drill_runs_to_its_summary_with_htmx(app, alice, drill_id: str) -> None:
    run_id = start(alice, drill_id)
    run = run_row(app, run_id)
    assert run.signals == "basic_89JQ" and run.checkpoints
    with session(app) as db:
        assert db.get(Deal, run.deal_pk).record["source"]["signals"]["name"] == "basic_89JQ"
    answered = drive(alice, app, run_id, HX)
    assert len(answered) == len(run.checkpoints)
    summary = visible_text(alice.get(f"/runs/{run_id}/summary").text)
    labels = {"signal:respond": "信号：应A", "signal:interpret": "信号：看信号", "signal:discard": "信号：垫牌",
              "signal:pass": "信号：传牌", "signal:legal": "信号：合法吗"}
    assert all(labels[question.type] in summary for _i, _g, question in answered)


@pytest.mark.parametrize("drill_id", ["signal-replay", "signal-legal"])
def test_a_signal_drill_runs_without_javascript(app, alice, drill_id: str) -> None:
    run_id = start(alice, drill_id)
    answered = drive(alice, app, run_id, {}, right=lambda index: index % 2 == 1)
    assert answered and run_row(app, run_id).status == "done"


def test_a_run_keeps_the_set_it_started_under(app, alice) -> None:
    alice.post("/signals", data={"signals": "odd"})
    for drill_id in ("signal-respond", "signal-interpret", "signal-replay"):  # three of six deals are odd's
        run_id = start(alice, drill_id)
        run = run_row(app, run_id)
        with session(app) as db:
            assert db.get(Deal, run.deal_pk).record["source"]["signals"]["name"] == "odd"
        assert run.signals == "odd"
    alice.post("/signals", data={"signals": "basic_89JQ"})
    answered = drive(alice, app, run_id, HX)
    assert answered and all(question.fact.endswith(":odd") for _i, _g, question in answered)
    assert all("（odd）" in question.prompt["zh"] for _i, _g, question in answered if question.type != "signal:pass")


def test_signal_mistakes_go_to_the_review_with_the_rule_and_the_convention(app, alice) -> None:
    run_id = start(alice, "signal-respond")
    drive(alice, app, run_id, HX, right=lambda index: False)
    wrong = attempts(app, run_id)
    assert wrong and not any(a.correct for a in wrong)
    listing = alice.get("/review?type=signal:respond")
    assert listing.status_code == 200 and "信号：应A" in visible_text(listing.text)
    assert all(f"/review/{a.id}" in listing.text for a in wrong)
    shown = alice.get(f"/review/{wrong[0].id}").text
    page = visible_text(shown)
    rule = wrong[0].question["fact"].split(":")[1]
    assert f"规则 {rule}" in page and "你的约定 basic_89JQ：初级：8、9、J、Q 应A" in page
    trick = int(wrong[0].position.split(".")[0])  # the deciding play: the lead of the trick asked in
    assert re.search(rf"第{trick}轮 (下家|对家|上家)出了", page) and f"?step=1#deciding" in shown
    alice.post("/lang", data={"lang": "en"})
    page = visible_text(alice.get(f"/review/{wrong[0].id}").text)
    assert f"Rule {rule}" in page and "Your conventions basic_89JQ: Basic: 8 9 J Q answer the A" in page
    with session(app) as db:
        kinds = set(db.exec(select(Attempt.question_type)).all())
    assert kinds == {"signal:respond"}
