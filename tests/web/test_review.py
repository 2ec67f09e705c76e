"""Review of mistakes: exactly the wrong answers, newest first, filters, the mistake at its moment
with the whole history and the tracker's facts, isolation; explanations translated."""
from __future__ import annotations

import random
import re
from datetime import UTC, datetime, timedelta

import pytest
import sqlalchemy as sa
from every_question import every_question

from trainer.drills.definitions import DRILLS_DIR
from trainer.engine.cards import Card
from trainer.records import load_record, replay
from trainer.tracking.facts import facts_json
from trainer.tracking.tracker import public_events, track
from trainer.web.models import Attempt

from .drilling import HX, attempts, drive, expected_question, position_after, run_row, session, start, statements
from .pages import RAW_NOTATION, player_words, visible_text

REVIEW_LINK = re.compile(r'href="/review/(\d+)"')


def _alternate(index: int) -> bool:
    return index % 2 == 0


@pytest.fixture
def mistakes(app, alice) -> list[Attempt]:
    """Two finished runs of alice with every other answer wrong; the wrong attempts."""
    for drill_id in ("everything", "pairs"):
        drive(alice, app, start(alice, drill_id), _alternate)
    wrong = [a for a in attempts(app) if not a.correct]
    assert wrong
    return wrong


def test_the_list_holds_exactly_the_wrong_answers_newest_first(alice, mistakes) -> None:
    for headers in ({}, HX):
        page = alice.get("/review", headers=headers)
        assert page.status_code == 200 and "HX-Request" in page.headers["Vary"]
        newest_first = sorted(mistakes, key=lambda a: (a.created, a.id), reverse=True)
        assert REVIEW_LINK.findall(page.text) == [str(a.id) for a in newest_first]
        assert f"{len(mistakes)} 道错题" in page.text
    fragment = alice.get("/review", headers=HX).text
    assert "<html" not in fragment and fragment.lstrip().startswith('<section id="mistakes"')
    assert "<html" in alice.get("/review").text


PAGE_LINK = re.compile(r'<a href="(/review\?[^"]*)">[^<]*(较早|较新)')


def test_pages_go_by_keyset_and_keep_the_filters(app, alice, mistakes) -> None:
    app.config["REVIEW_PER_PAGE"] = 2
    kind = max({a.question_type for a in mistakes}, key=lambda k: sum(a.question_type == k for a in mistakes))
    for query, expected in (("", mistakes), (f"?type={kind}", [a for a in mistakes if a.question_type == kind])):
        newest_first = [str(a.id) for a in sorted(expected, key=lambda a: a.id, reverse=True)]
        pages, url = [], f"/review{query}"
        with statements(app) as seen:
            while True:
                page = alice.get(url, headers=HX)
                pages.append(REVIEW_LINK.findall(page.text))
                links = {word: link.replace("&amp;", "&") for link, word in PAGE_LINK.findall(page.text)}
                assert all(query[1:] in link for link in links.values())
                if "较早" not in links:
                    break
                url = links["较早"]
        assert [item for listed in pages for item in listed] == newest_first, query
        assert not [sql for sql in seen if "OFFSET" in sql.upper()]
        assert not [sql for sql in seen if "attempts.position" in sql or "attempts.ms" in sql]
        if len(pages) > 1:
            back = alice.get({w: u for u, w in PAGE_LINK.findall(page.text)}["较新"].replace("&amp;", "&"))
            assert REVIEW_LINK.findall(back.text) == pages[-2]


def test_filters_by_type_suit_and_date(app, alice, mistakes) -> None:
    kind = mistakes[0].question_type
    listed = REVIEW_LINK.findall(alice.get(f"/review?type={kind}", headers=HX).text)
    assert sorted(listed) == sorted(str(a.id) for a in mistakes if a.question_type == kind)
    suited = [a for a in mistakes if a.suit]
    if suited:
        suit = suited[0].suit
        listed = REVIEW_LINK.findall(alice.get(f"/review?suit={suit}").text)
        assert sorted(listed) == sorted(str(a.id) for a in mistakes if a.suit == suit)
    old = mistakes[0]
    with session(app) as db:
        db.execute(sa.update(Attempt).where(Attempt.id == old.id)
                   .values(created=datetime(2026, 1, 15, 12, tzinfo=UTC)))
        db.commit()
    january = REVIEW_LINK.findall(alice.get("/review?since=2026-01-01&until=2026-01-31").text)
    assert january == [str(old.id)]
    assert REVIEW_LINK.findall(alice.get("/review?since=2026-01-15&until=2026-01-15").text) == [str(old.id)]
    today = datetime.now(UTC).date()
    recent = REVIEW_LINK.findall(alice.get(f"/review?since={today - timedelta(days=1)}").text)
    assert str(old.id) not in recent and len(recent) == len(mistakes) - 1
    assert len(REVIEW_LINK.findall(alice.get("/review?since=not-a-date&type=nonsense").text)) == len(mistakes)
    with_filters = alice.get(f"/review?type={kind}")
    assert f'<option selected value="{kind}">' in with_filters.text or f'value="{kind}" selected' in with_filters.text


def test_a_mistake_shows_the_deal_at_that_moment(app, alice, mistakes) -> None:
    attempt = mistakes[-1]
    page = alice.get(f"/review/{attempt.id}")
    assert page.status_code == 200 and "<html" in page.text
    trick, plays = (int(part) for part in attempt.position.split("."))
    assert page.text.count('class="past-trick"') == trick  # the whole history, the current trick last
    history = page.text[page.text.index('<ol class="history">'):]
    assert history.count('<span class="who">') == sum(
        len(t.plays) for t in load_deal(app, attempt).tricks[:trick - 1]) + plays
    assert history.count('<li class="wins">') == trick - (1 if plays < 4 else 0)
    question = attempt.question
    assert question["prompt"]["zh"] in visible_text(page.text)
    assert 'class="expected"' in page.text and 'class="given"' in page.text
    assert 'class="relevant"' in page.text
    assert page.text.count('<ul class="explain">') >= 8  # the fact asked, then every row of the facts table
    why = page.text[page.text.index("<h2>为什么</h2>"):page.text.index('<h2>', page.text.index("<h2>为什么</h2>") + 1)]
    decisive, account = why.index('<ul class="explain decisive"><li>'), why.index('<details class="account">')
    assert decisive < account and "完整的来龙去脉" in why  # what decides first, open; the full account collapsed
    for word in ("下家", "对家", "上家", "主牌", "绝门"):
        assert word in page.text
    shown = player_words(page.text)
    assert f"第 {trick} 轮，出了 {plays} 手之后" in shown and "墩" not in shown  # 轮 for a trick (training.md §3)
    assert not RAW_NOTATION.search(shown), RAW_NOTATION.findall(shown)
    again = alice.get(f"/review/{attempt.id}", headers=HX)
    assert again.status_code == 200 and "HX-Request" in again.headers["Vary"]


def test_the_facts_shown_are_the_trackers(app, alice, mistakes) -> None:
    attempt = next(a for a in mistakes if a.question_type in ("trumps_unseen", "voids", "live_pairs",
                                                             "attackers_score", "points_unplayed", "no_pairs",
                                                             "top_in_play", "suit_played"))
    run = run_row(app, attempt.run_id)
    page = alice.get(f"/review/{attempt.id}").text
    question, position = expected_question(app, run, attempt.checkpoint)
    assert position == attempt.position and question.to_json() == attempt.question
    row = re.search(r'<tr id="fact-score"[^>]*><th>[^<]*</th><td>(-?\d+)</td>', page)
    assert row
    record = load_deal(app, attempt)
    facts = facts_json(track(record, attempt.seat, position_after(record, run.checkpoints[attempt.checkpoint])),
                       attempt.position)
    assert int(row.group(1)) == facts["score"]["attackers"]
    trumps = re.search(r'<tr id="fact-trumps"[^>]*>\s*<th>[^<]*</th>\s*<td>(\d+)</td><td>(\d+)</td><td>(\d+)</td>', page)
    assert [int(g) for g in trumps.groups()] == [facts["trumps"][k] for k in ("played", "mine", "unseen")]


def test_another_users_mistake_is_a_404(app, client, accounts, mistakes) -> None:
    accounts.logout()
    accounts.sign_up("bob")
    assert REVIEW_LINK.findall(client.get("/review").text) == []
    for attempt in mistakes[:3]:
        assert client.get(f"/review/{attempt.id}").status_code == 404
        assert client.get(f"/review/{attempt.id}", headers=HX).status_code == 404
    assert client.get("/review/999999").status_code == 404


def test_anonymous_visitors_are_sent_to_log_in(client) -> None:
    assert client.get("/review").headers["Location"].startswith("/auth/login")
    assert client.get("/review/1").headers["Location"].startswith("/auth/login")


def load_deal(app, attempt: Attempt):
    """The record of an attempt's deal."""
    from trainer.records import parse_record
    from trainer.web.models import Deal

    with session(app) as db:
        return parse_record(db.get(Deal, attempt.deal_pk).record)


ENGLISH = re.compile(r"\b(trick|seat|played|unseen|mine|kitty|void|none|pair|pairs|cards|points|attackers|banker|"
                     r"could|hold|nothing|shown|in all|won|copies|left)\b")


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_explanation_line_is_translated(app, lang) -> None:
    """Every line the tracker writes for any question type reads in Chinese (no English words left)
    and names seats from the viewer."""
    from trainer.web.quiz import explanation

    paths = sorted((DRILLS_DIR / "deals").glob("*.json"))[:6]
    rng = random.Random(3)
    lines_seen = 0
    with app.test_request_context():
        from flask import session as flask_session

        flask_session["lang"] = lang
        for path in paths:
            record = load_record(path)
            replay(record)
            events = list(public_events(record))
            total = len(events)
            for plays in (4, total // 3, total // 2, total - 5, total):
                seat = rng.randrange(4)
                for question, snap in every_question(record, seat, position_after(record, plays)):
                    for line in explanation(question, snap, events[:plays]):
                        lines_seen += 1
                        assert not re.search(r"\bseat \d\b", line), line
                        if lang == "zh":
                            assert not ENGLISH.search(line), line
    assert lines_seen > 1000


DECIDING_LINES = [  # (the line of trainer.drills.explain, in Chinese, in English), viewer seat 0
    ("No — A♦ is still out: one played in trick 3, the other unseen",
     "不是——A♦还在外面：一张第 3 轮已出，另一张未见", "No — A♦ is still out: one played in trick 3, the other unseen"),
    ("K♠ is not out: both played in trick 1", "K♠不在外面：两张都第 1 轮已出", "K♠ is not out: both played in trick 1"),
    ("36 in all − 12 played − 9 mine − 1 in the kitty = 14", "共 36 − 已出 12 − 我手里 9 − 底牌里 1 = 14",
     "36 in all − 12 played − 9 mine − 1 in the kitty = 14"),
    ("25 (trick 3) + 5 (trick 7) − 30 (failed throw, trick 8) + 40 (kitty) = 40",
     "25（第 3 轮） + 5（第 7 轮） − 30（第 8 轮甩牌失败） + 40（底牌） = 40",
     "25 (trick 3) + 5 (trick 7) − 30 (failed throw, trick 8) + 40 (kitty) = 40"),
    ("80 − 95 = −15", "80 − 95 = −15", "80 − 95 = −15"),
    ("20 (K♠ K♠) + 5 (5♠) = 25", "20（K♠ K♠） + 5（5♠） = 25", "20 (K♠ K♠) + 5 (5♠) = 25"),
    ("1 × 大王 + 2 × 2♥ = 3", "1 × 大王 + 2 × 2♥ = 3", "1 × 大王 + 2 × 2♥ = 3"),
    ("Void in ♠: seat 1, seat 3", "♠绝门：下家、上家", "Void in ♠: Next (下家), Previous (上家)"),
    ("Yes — no card higher than J♠ is out: 0", "是——比J♠大的牌外面都没有了: 0", "Yes — no card higher than J♠ is out: 0"),
    ("The biggest trump left: 大王", "主牌现在最大的：大王", "The biggest trumps left: 大王"),
    ("no trump played yet: 0", "还没有出过主：0", "no trump played yet: 0"),
]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_deciding_lines_in_both_languages(app, lang) -> None:
    from flask import session as flask_session

    from trainer.web.quiz import localise

    with app.test_request_context():
        flask_session["lang"] = lang
        for line, zh, en in DECIDING_LINES:
            assert localise(line, 0) == (zh if lang == "zh" else en)


def test_cards_named_in_a_mistake_are_coloured(alice, mistakes) -> None:
    page = alice.get(f"/review/{mistakes[-1].id}").text
    facts = page[page.index('<table class="tricks facts-table">'):page.index('<ol class="history">')]
    rows = [symbol for symbol, colour in (("♠", "black"), ("♥", "red"), ("♣", "black"), ("♦", "red"))
            if f'<th><span class="card-name {colour}">{symbol}</span>' in facts]
    assert len(rows) >= 3  # each side suit's row (the trump suit's cards are in the trumps row)
    assert re.search(r'<span class="card-name (red|black)">(10|[2-9JQKA])[♠♥♣♦]</span>', facts)  # cards in the facts
    history = page[page.index('<ol class="history">'):]
    assert re.search(r'<span class="card (red|black|joker-big|joker-small)[ "]', history)
    assert not re.search(r">(BJ|SJ)<", page)


def test_a_three_deck_mistake_shows_the_live_triples(app, alice) -> None:
    """A 记三张 mistake: the facts table adds columns for live triples and 泰坦尼克, each suit's cells
    the tracker's, and the suit row explains them."""
    assert alice.post("/deals/generate", data={"rules": "three-deck", "count": "2"}).status_code == 303
    run_id = start(alice, "triples")
    drive(alice, app, run_id, lambda index: False)
    attempt = attempts(app, run_id)[0]
    run = run_row(app, run_id)
    page = alice.get(f"/review/{attempt.id}").text
    head = page[page.index('<table class="tricks facts-table">'):page.index("</thead>")]
    assert [visible_text(cell) for cell in re.findall(r"<th>([^<]*)</th>", head)][-4:] == [
        "可能的对子", "可能的拖拉机", "可能的三张", "可能的泰坦尼克"]
    record = load_deal(app, attempt)
    facts = facts_json(track(record, attempt.seat, position_after(record, run.checkpoints[attempt.checkpoint])),
                       attempt.position)
    side_suit = next(iter(facts["suits"]))  # the deal drawn decides which suits are side suits
    row = re.search(rf'<tr id="fact-suit-{side_suit}"[^>]*>.*?</tr>', page, re.DOTALL).group(0)
    cells = [visible_text(cell) for cell in re.findall(r"<td>(.*?)</td>", row, re.DOTALL)]
    expected = " ".join(Card.parse(code).pretty for code in facts["suits"][side_suit]["live_triples"]) or "—"
    assert len(cells) == 10 and cells[8] == expected
    assert "三张都未见的牌" in visible_text(page)
