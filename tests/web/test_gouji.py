"""够级 on the web: Gouji deals in the library (filterable by game, shown, exported), a Gouji drill run end to
end on the six-seat table (page and htmx fragment), answers graded against the §6 tracker, and the review
of a Gouji mistake."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient
from sqlmodel import col

from trainer.drills.definitions import DRILLS_DIR, load_drills
from trainer.drills.gouji import QUESTION_TYPES, context, question_at, run_questions
from trainer.drills.questions import Question
from trainer.gouji.records import GoujiPosition, parse_gouji_record
from trainer.gouji.tracker import public_events, track
from trainer.web.library import add_records, check_record
from trainer.web.models import Attempt, Deal, DrillRun
from trainer.web.quiz import GOUJI_QUESTION_LABELS

from .drilling import HX, attempts, run_row, session, start
from .pages import JOKER_WORDS, RAW_NOTATION, player_words, spoken_card, spoken_position, visible_text

GOUJI = load_drills(game="gouji")
STARTER = sorted(Path(DRILLS_DIR / "deals").glob("gouji-*.json"))[:3]


@pytest.fixture
def gouji_app(app: Flask) -> Flask:
    """The app with three starter 够级 deals in the shared library (beside the 升级 ones)."""
    with session(app) as db:
        add_records(db, [check_record(json.loads(path.read_text(encoding="utf-8"))) for path in STARTER], None)
    return app


@pytest.fixture
def player(gouji_app: Flask, alice: FlaskClient) -> FlaskClient:
    """Alice, reading the pages in English."""
    assert alice.post("/lang", data={"lang": "en"}).status_code == 303
    return alice


def test_gouji_deals_are_stored_with_their_game_and_filtered(gouji_app, player):
    with session(gouji_app) as db:
        games = db.execute(sa.select(Deal.game, sa.func.count()).group_by(col(Deal.game))).all()
    assert dict(games) == {"gouji": 3, "shengji": 3}
    page = visible_text(player.get("/deals?game=gouji").text)
    assert "3 deals" in page and "够级" in page
    assert "3 deals" in visible_text(player.get("/deals?game=shengji").text)
    assert "6 deals" in visible_text(player.get("/deals").text)


def test_a_gouji_deal_page_and_export(gouji_app, player):
    data = json.loads(STARTER[0].read_text(encoding="utf-8"))
    deal_id = parse_gouji_record(data).id
    page = player.get(f"/deals/{deal_id}")
    assert page.status_code == 200
    text = visible_text(page.text)
    assert "Seat 5" in text and "头科" in text
    assert not RAW_NOTATION.search(text), RAW_NOTATION.findall(text)
    for exchange in data["exchanges"]:  # 买3 names its cards as players write them
        assert spoken_card(exchange["card"], JOKER_WORDS["en"]) in text
        assert spoken_card(exchange["paid"], JOKER_WORDS["en"]) in text
    exported = player.get(f"/deals/{deal_id}/export")
    assert json.loads(exported.text)["rounds"] == data["rounds"]


def test_the_drills_page_lists_the_gouji_curriculum(player):
    page = visible_text(player.get("/drills").text)
    assert all(drill.name["en"] in page for drill in GOUJI.values())


@pytest.mark.parametrize("fragment", [False, True], ids=["page", "htmx"])
def test_a_gouji_drill_runs_end_to_end(gouji_app, player, fragment):
    """Start, step to each checkpoint, answer right (graded against the tracker), see the feedback and
    the six-seat table, finish on the summary; with and without HX-Request."""
    headers = HX if fragment else {}
    run_id = start(player, "gouji-duitou")
    run = run_row(gouji_app, run_id)
    assert run.drill_id == "gouji-duitou"
    with session(gouji_app) as db:
        deal = db.get(Deal, run.deal_pk)
        assert deal is not None and deal.game == "gouji"
        record = parse_gouji_record(deal.record)
    events = list(public_events(record))
    page = player.get(f"/runs/{run_id}", headers=headers)
    assert page.status_code == 200 and 'class="table gouji' in page.text
    assert page.text.count('class="chair ') == 5 and "Opposite (对头)" in visible_text(page.text)
    for index, checkpoint in enumerate(run.checkpoints):
        response = player.post(f"/runs/{run_id}/step?at={run_row(gouji_app, run_id).cursor}&to={checkpoint}",
                               headers=headers, follow_redirects=not fragment)
        assert response.status_code == 200
        asked = run_questions(GOUJI["gouji-duitou"], record, run.seat, run.checkpoints, run.seed, events)[index]
        assert asked.question.prompt["en"] in response.text or asked.question.prompt["zh"] in response.text
        answer = asked.question.answer
        response = player.post(f"/runs/{run_id}/answer", data={"checkpoint": index, "answer": str(answer)},
                               headers=headers, follow_redirects=not fragment)
        assert response.status_code == 200 and "Right" in visible_text(response.text)
        assert not RAW_NOTATION.search(player_words(response.text)), RAW_NOTATION.findall(player_words(response.text))
    stored = attempts(gouji_app, run_id)
    assert len(stored) == len(run.checkpoints) and all(a.correct for a in stored)
    player.post(f"/runs/{run_id}/step?at={run_row(gouji_app, run_id).cursor}", headers=headers)
    assert run_row(gouji_app, run_id).status == "done"
    summary = player.get(f"/runs/{run_id}/summary")
    assert summary.status_code == 200
    assert all(str(GOUJI_QUESTION_LABELS[a.question_type]) in visible_text(summary.text) for a in stored)


def wrong(question: Question) -> str:
    """An answer the question grades wrong: another option, or the number plus one."""
    if question.options:
        return next(o["value"] for o in question.options if o["value"] != question.answer)
    return str(question.answer + 1)


@pytest.mark.parametrize("headers", [{}, HX], ids=["page", "htmx"])
def test_gouji_feedback_links_the_deciding_rounds(gouji_app, player, headers):
    """training.md §3 for 够级: the feedback names the deciding plays first, each by 轮 (round) and seat
    relation, each a link `?show=R` that draws that round beside the feedback as the viewer saw it, without
    moving the run; the review steps through them (`?step=K`); with and without HX-Request."""
    run_id = start(player, "gouji-everything")
    run = run_row(gouji_app, run_id)
    with session(gouji_app) as db:
        record = parse_gouji_record(db.get(Deal, run.deal_pk).record)
    events = list(public_events(record))
    linked = 0
    for index, checkpoint in enumerate(run.checkpoints):
        player.post(f"/runs/{run_id}/step?at={run_row(gouji_app, run_id).cursor}&to={checkpoint}")
        asked = run_questions(GOUJI["gouji-everything"], record, run.seat, run.checkpoints, run.seed, events)[index]
        response = player.post(f"/runs/{run_id}/answer", data={"checkpoint": index, "answer": wrong(asked.question)},
                               headers=headers, follow_redirects=True)
        links = re.findall(r'<a href="/runs/\d+\?show=(\d+)#shown-trick"[^>]*>(.*?)</a>', response.text)
        for number, line in links:
            assert re.fullmatch(rf"round {number}: (you|your [^:]+) played .+", visible_text(line)), line
            assert int(number) < asked.position.round
        if not links:
            continue
        number = int(links[0][0])
        cursor = run_row(gouji_app, run_id).cursor
        shown = player.get(f"/runs/{run_id}?show={number}", headers=headers)
        assert shown.status_code == 200 and 'id="shown-trick"' in shown.text
        assert f"Round {number} of {len(record.rounds)}" in visible_text(shown.text)
        assert run_row(gouji_app, run_id).cursor == cursor
        unasked = player.get(f"/runs/{run_id}?show={asked.position.round + 1}", headers=headers)
        assert 'id="shown-trick"' not in unasked.text  # a round not begun when the question came is no peek
        attempt = attempts(gouji_app, run_id)[-1]
        review = player.get(f"/review/{attempt.id}?step={len(links)}", headers=headers)  # the review steps too
        assert review.status_code == 200 and 'id="deciding"' in review.text
        assert f"Deciding play {len(links)} / {len(links)}: {visible_text(links[-1][1])}" in visible_text(review.text)
        assert ("<html" in review.text) == (not headers)
        linked += 1
    assert linked


def test_a_gouji_mistake_is_reviewed(gouji_app, player):
    run_id = start(player, "gouji-hua-qian")
    run = run_row(gouji_app, run_id)
    player.post(f"/runs/{run_id}/step?at=0&to={run.checkpoints[0]}")
    with session(gouji_app) as db:
        deal = db.get(Deal, run.deal_pk)
        record = parse_gouji_record(deal.record)
    asked = question_at(GOUJI["gouji-hua-qian"], record, run.seat, run.checkpoints[0], run.seed, 0,
                        list(public_events(record)))
    player.post(f"/runs/{run_id}/answer", data={"checkpoint": 0, "answer": wrong(asked.question)})
    [attempt] = attempts(gouji_app, run_id)
    assert not attempt.correct
    listing = visible_text(player.get("/review").text)
    assert "Jokers and 2s" in listing
    page = player.get(f"/review/{attempt.id}")
    assert page.status_code == 200
    text = visible_text(page.text)
    assert str(asked.question.answer) in text and 'class="table gouji' in page.text
    assert "out" in text     # the explanation's count line


def test_no_gouji_deal_means_no_gouji_run(app, alice):
    response = alice.post("/drills/gouji-sets/start")
    assert response.status_code == 303 and response.headers["Location"] == "/drills"
    with session(app) as db:
        assert db.execute(sa.select(sa.func.count()).select_from(DrillRun)).scalar() == 0


@pytest.mark.parametrize("headers", [{}, HX])
def test_a_gouji_review_shows_the_trackers_facts(gouji_app, player, headers):
    """The review's facts table: per rank and per other seat, its cells are the §6 facts of the viewer at the
    mistake, with the question's row highlighted and explained; the same with and without HX-Request."""
    run_id = start(player, "gouji-hua-qian")
    run = run_row(gouji_app, run_id)
    player.post(f"/runs/{run_id}/step?at=0&to={run.checkpoints[0]}")
    with session(gouji_app) as db:
        record = parse_gouji_record(db.get(Deal, run.deal_pk).record)
    asked = question_at(GOUJI["gouji-hua-qian"], record, run.seat, run.checkpoints[0], run.seed, 0,
                        list(public_events(record)))
    player.post(f"/runs/{run_id}/answer", data={"checkpoint": 0, "answer": wrong(asked.question)})
    [attempt] = attempts(gouji_app, run_id)
    page = player.get(f"/review/{attempt.id}", headers=headers)
    assert page.status_code == 200
    facts = asked.facts

    def row(key: str) -> tuple[str, list[str], str]:
        """A facts row: its attributes, its cells' text and its heading's."""
        found = re.search(rf'<tr id="fact-{key}"([^>]*)><th>(.*?)</th>(.*?)</tr>', page.text, re.DOTALL)
        assert found, key
        cells = [visible_text(cell) for cell in re.findall(r"<td>(.*?)</td>", found.group(3))]
        return found.group(1), cells, visible_text(found.group(2))

    for rank, entry in facts["ranks"].items():
        gouji = facts["gouji"].get(rank)
        expected = [entry["total"], entry["played"], entry["mine"], entry["unseen"], entry["in_hands"]]
        expected += [gouji["max_sets_unseen"], gouji["sets_played"]] if gouji else ["—", "—"]
        assert row(f"rank-{rank}")[1] == [str(n) for n in expected]
        assert row(f"rank-{rank}")[2] == JOKER_WORDS["en"].get(rank, rank)
    others = [q for q in facts["seats"] if int(q) != run.seat]
    assert len(others) == 5 and f'id="fact-seat-{run.seat}"' not in page.text
    for q in others:
        entry = facts["seats"][q]
        left, shown, gouji_plays, opened, out = row(f"seat-{q}")[1]
        assert int(left) == facts["hand_sizes"][int(q)] and int(gouji_plays) == len(entry["gouji_plays"])
        assert shown == (" ".join(f"{JOKER_WORDS['en'].get(r, r)}×{n}" for r, n in entry["shown"].items() if n) or "—")
        assert opened == ("yes" if entry["opened"] else "no") and (out == "—") == (entry["out"] is None)
    assert row(f"rank-{asked.question.card}")[0] == ' class="relevant"'
    assert page.text.count('class="relevant"') == 1
    explained = visible_text(page.text)
    entry, card = facts["ranks"][asked.question.card], asked.question.card
    assert f"{JOKER_WORDS['en'].get(card, card)}: {entry['total']} in the decks, {entry['played']} played" in explained
    assert player.post("/lang", data={"lang": "zh"}).status_code == 303
    chinese = visible_text(player.get(f"/review/{attempt.id}", headers=headers).text)
    assert "花和钱（王和2）" in chinese
    assert f"{JOKER_WORDS['zh'].get(card, card)}：共{entry['total']}张，已出{entry['played']}张" in chinese


@pytest.fixture
def every_kind(gouji_app: Flask, player: FlaskClient) -> list[tuple[Attempt, dict]]:
    """A run of alice's with a wrong answer to every 够级 question type (the 花和钱 ones about the jokers), each at
    the latest position of the run's deal where it has a question; each attempt with the viewer's §6 facts."""
    run = run_row(gouji_app, start(player, "gouji-everything"))
    with session(gouji_app) as db:
        record = parse_gouji_record(db.get(Deal, run.deal_pk).record)
        actions = sum(len(rnd.actions) for rnd in record.rounds)
        subjects = {"hua_qian_out": ("BJ",), "hua_qian_in_hands": ("SJ",)}
        made = []
        for checkpoint, (kind, qtype) in enumerate(QUESTION_TYPES.items()):
            for count in range(actions - 1, 0, -1):
                position = GoujiPosition.after(count, record)
                ctx = context(track(record, run.seat, position), str(position))
                asked = [q for subject in subjects.get(kind, qtype.subjects) if (q := qtype.build(ctx, subject))]
                if asked:
                    break
            question: Question = asked[0]
            wrong = question.answer + 1 if question.kind == "number" else ("no" if question.answer == "yes" else "yes")
            attempt = Attempt(run_id=run.id, user_id=run.user_id, checkpoint=checkpoint, question=question.to_json(),
                              question_type=kind, expected=question.answer, given=wrong, correct=False, ms=1500,
                              position=str(position), seat=run.seat, deal_pk=run.deal_pk)
            db.add(attempt)
            made.append((attempt, ctx.facts))
        db.commit()
    return made


@pytest.mark.parametrize("language", ["zh", "en"])
def test_gouji_pages_name_cards_and_positions_as_players_do(player, every_kind, language):
    """The review of a mistake of every 够级 question type, in Chinese and in English, shows no card or position
    in record notation (`BJ`, `SJ`, `JS`, `10H`, `1.5`): where it happened reads 第R轮第K手 / round R, play K,
    every seat's plays their positions so and their cards as J♠ 大王 (Big Joker in English), the facts table the
    jokers by name."""
    assert player.post("/lang", data={"lang": language}).status_code == 303
    jokers, between = JOKER_WORDS[language], " " if language == "zh" else ": "
    for attempt, facts in every_kind:
        text = player_words(player.get(f"/review/{attempt.id}").text)
        assert not RAW_NOTATION.search(text), (attempt.question_type, RAW_NOTATION.findall(text))
        assert spoken_position(attempt.position, language) in text
        assert all(name in text for name in jokers.values())
        subject = attempt.question["card"]
        if subject in jokers:
            assert f"{jokers[subject]}{'：共' if language == 'zh' else ': '}{facts['ranks'][subject]['total']}" in text
        for q, entry in facts["seats"].items():
            if int(q) != attempt.seat:
                for play in entry["plays"]:
                    cards = " ".join(spoken_card(code, jokers) for code in play["cards"])
                    assert f"{spoken_position(play['at'], language)}{between}{cards}" in text
        if attempt.question_type == "higher_out":
            above = list(facts["ranks"])[:list(facts["ranks"]).index(subject)]
            assert all(f"{jokers.get(rank, rank)}×{facts['ranks'][rank]['unseen']}" in text for rank in above)
