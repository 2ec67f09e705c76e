"""Review of mistakes: every wrong answer (`/review`, filtered by question type, suit and date), and
one mistake (`/review/<id>`) at the moment it happened: the deal from that seat with the whole
history visible, what was answered and what was right, and the tracker's facts with their
explanations. Every query is scoped to the signed-in user: another user's attempt is a 404.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

import sqlalchemy as sa
from flask import Blueprint, abort, current_app, g, get_template_attribute, render_template, request
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from sqlalchemy.orm import load_only
from sqlmodel import col, func, select
from wtforms import DateField, Form, SelectChoice, SelectField
from wtforms.validators import Optional

from trainer.drills.gouji import position_words, rank_lines, rank_name, seat_lines
from trainer.drills.questions import Question
from trainer.gouji.facts import facts_json as gouji_facts_json
from trainer.gouji.records import place_name
from trainer.tracking.explain import explain
from trainer.tracking.facts import facts_json, listed_widths, tractor_key, tuple_key
from trainer.web.auth import login_required
from trainer.web.db import get_session
from trainer.web.dealdata import DealData, deal_cache, plays_at
from trainer.web.display import CardView, cards_view, hand_groups, seat_label, trump_label
from trainer.web.daily import last_retry
from trainer.web.drills import drills, feedback, run_drill
from trainer.web.gouji import GoujiDealData, gouji_stretch, relation_label
from trainer.web.inputs import page_cursor
from trainer.web.keyset import keyset_page
from trainer.web.models import Attempt, Deal, DrillRun
from trainer.web.quiz import (GOUJI_QUESTION_LABELS, QUESTION_LABELS, SIGNAL_LABELS, answer_text, lang, localise,
                              seat_word, suit_name)
from trainer.web.responses import render_page, wants_fragment

bp = Blueprint("review", __name__, url_prefix="/review")

ANY = SelectChoice("", _l("any"))


class ReviewFilterForm(Form):
    """The mistake list's filters (a GET form; a value that does not validate counts as "any")."""

    type = SelectField(_l("Question"), default="", choices=[ANY] + [
        SelectChoice(kind, label)
        for kind, label in {**QUESTION_LABELS, **GOUJI_QUESTION_LABELS, **SIGNAL_LABELS}.items()])
    suit = SelectField(_l("Suit"), default="", choices=[ANY] + [
        SelectChoice("S", "♠"), SelectChoice("H", "♥"), SelectChoice("C", "♣"), SelectChoice("D", "♦"),
        SelectChoice("trump", _l("trumps"))])
    since = DateField(_l("From"), validators=[Optional()])
    until = DateField(_l("To"), validators=[Optional()])


@bp.route("")
@login_required
def index() -> Any:
    """The user's wrong answers, newest first, filtered, a page at a time (`?after=` or `?before=` a
    mistake of the list: `trainer.web.keyset`)."""
    form = ReviewFilterForm(request.args)
    form.validate()

    def value(field: Any) -> Any:
        return None if field.errors or field.data in ("", None) else field.data

    where = [Attempt.user_id == g.user.id, col(Attempt.correct).is_(False)]
    if value(form.type):
        where.append(Attempt.question_type == form.type.data)
    if value(form.suit):
        where.append(Attempt.suit == form.suit.data)
    if value(form.since):
        where.append(col(Attempt.created) >= datetime.combine(form.since.data, time.min, UTC))
    if value(form.until) and form.until.data < date.max:  # up to the last day of the calendar: no bound
        where.append(col(Attempt.created) < datetime.combine(form.until.data + timedelta(days=1), time.min, UTC))
    db = get_session()
    total = db.exec(select(func.count()).select_from(Attempt).where(*where)).one()
    query = (select(Attempt, DrillRun.drill_id).options(load_only(*LIST_COLUMNS, raiseload=True))
             .join(DrillRun, col(DrillRun.id) == Attempt.run_id).where(*where))
    page = keyset_page(db, query, col(Attempt.id), [("", sa.true())], lambda row: row[0].id,
                       page_cursor("after"), page_cursor("before"), current_app.config.get("REVIEW_PER_PAGE", 50))
    language = lang()
    items = [(attempt, drill_id, Question.from_json(attempt.question)) for attempt, drill_id in page.rows]
    query_args = {name: request.args[name] for name in ("type", "suit", "since", "until")
                  if request.args.get(name) and not getattr(form, name).errors}
    return render_page("review/index.html", "review/_list.html", form=form, items=items, total=total, page=page,
                       query=query_args, lang=language, drills=drills(), answer_text=answer_text, suit_name=suit_name)


LIST_COLUMNS = (Attempt.id, Attempt.question, Attempt.question_type, Attempt.suit, Attempt.expected, Attempt.given,
                Attempt.created)
"""The columns of an attempt the mistake list shows."""


@dataclass(frozen=True, slots=True)
class FactRow:
    """One line of the compact facts table, with the tracker's explanation of it."""

    key: str
    label: str
    cells: list[str]
    explanation: list[str]


@bp.route("/<id:attempt_id>")
@login_required
def show(attempt_id: int) -> Any:
    """One mistake (or any answer) at its moment: the deal from that seat with all earlier tricks,
    the question, both answers, the deciding plays (`?step=K` shows the K-th one's trick; htmx gets
    that section alone), and every tier-1 fact with its explanation."""
    db = get_session()
    row = db.exec(select(Attempt, DrillRun.drill_id, Deal.id, Deal.created)
                  .join(DrillRun, col(DrillRun.id) == Attempt.run_id).join(Deal, col(Deal.pk) == Attempt.deal_pk)
                  .where(Attempt.id == attempt_id, Attempt.user_id == g.user.id)).first()
    if row is None:
        abort(404)
    attempt, drill_id, deal_id, created = row
    data = deal_cache().get(db, (attempt.deal_pk, deal_id, created))
    plays = plays_at(data, attempt.position)
    seat = attempt.seat
    language = lang()
    context = feedback(attempt, data, language)
    deciding = context["explanation"].plays
    step = min(max(request.args.get("step", type=int, default=1), 1), len(deciding) or 1)
    shown = data.shown_trick(seat, deciding[step - 1].trick, plays) if deciding else None
    if "step" in request.args and wants_fragment():  # a step through the deciding plays: that section alone
        return render_template("review/_deciding.html", **context, step=step, shown=shown)
    if isinstance(data, GoujiDealData):
        drill = drills().get(drill_id)
        facts = gouji_facts_json(data.snapshot(seat, plays), attempt.position)
        return render_page("review/show_gouji.html", **context, drill=drill, deal_id=deal_id, step=step, shown=shown,
                           lang=language, settings={"hand_sizes": True},
                           where=position_words(attempt.position)[language],
                           table=gouji_stretch(data, seat, plays, plays, drill.hand_sizes if drill else "always"),
                           rows=gouji_fact_rows(facts, language), relevant=gouji_relevant_row(attempt.question, facts))
    snap = data.snapshot(seat, plays)
    facts = facts_json(snap, attempt.position)
    events = data.events[:plays]
    rows = fact_rows(facts, snap, events)
    drill = run_drill(drill_id)
    return render_page("review/show.html", **context, drill=drill, deal_id=deal_id, lang=language, step=step, shown=shown,
                       tricks=history(data, seat, plays), table=review_table(data, seat, plays), rows=rows,
                       relevant=relevant_row(attempt.question),
                       live_columns=[LIVE_COLUMNS[width] for width in listed_widths(data.record.rules.decks)],
                       seat_word=lambda q: seat_word(q, seat), w=TABLE_WORDS,
                       last_retry=last_retry(db, attempt) if not attempt.correct else None)


LIVE_COLUMNS = {2: (_l("live pairs"), _l("live tractors")), 3: (_l("live triples"), _l("live 泰坦尼克")),
                4: (_l("live quads"), _l("live runs of quads"))}
"""The facts table's headings for the live tuples and runs of each width (triples with 3+ decks, quads with 4)."""

TABLE_WORDS = {"level": _l("Level %(level)s"), "trump": _l("Trump (主)"), "my_hand": _l("My hand"),
               "buried": _l("Buried by the banker")}
"""The words the review's table uses."""


def review_table(data: DealData, seat: int, plays: int) -> dict[str, Any]:
    """The viewer's hand at the moment of the mistake, drawn with the card macro, and the deal's level and trump."""
    ctx = data.record.ctx
    cards = get_template_attribute("_cards.html", "cards")
    return {"level": str(data.record.data["level"]).upper(), "trump": trump_label(ctx),
            "hand": get_template_attribute("_cards.html", "hand")(hand_groups(data.hand(seat, plays), ctx)),
            "buried": cards(cards_view(ctx.sort_hand(data.record.buried), ctx)) if seat == data.record.banker else None}


def relevant_row(question: dict[str, Any]) -> str:
    """The key of the facts table's row that holds the question's fact."""
    fact, suit = question["fact"], question.get("suit")
    if fact.startswith("trumps."):
        return "trumps"
    if fact.startswith("suits."):
        return f"suit-{suit}"
    if fact in ("voids", "no_pairs"):
        return fact
    return "score"


def fact_rows(facts: dict[str, Any], snap: Any, events: Any) -> list[FactRow]:
    """The tier-1 facts as compact rows, each explained by the tracker (translated)."""
    viewer = snap.seat

    def lines(field: str, suit: str | None = None, seat: int | None = None) -> list[str]:
        return [localise(line, viewer) for line in explain(snap, events, field, suit=suit, seat=seat)]

    def pretty(codes: list[str]) -> str:
        from trainer.engine.cards import Card

        return " ".join(Card.parse(code).pretty for code in codes) or "—"

    trumps = facts["trumps"]
    out = [FactRow("trumps", _("Trumps (主)"), [
        str(trumps["played"]), str(trumps["mine"]), str(trumps["unseen"]),
        " ".join(f"{pretty([name])}×{copies}" for name, copies in trumps["top"].items() if copies) or "—"],
        lines("trumps.unseen") + lines("trumps.top"))]
    widths = listed_widths(snap.ctx.rules.decks)
    for key, entry in facts["suits"].items():
        live = [cell for width in widths for cell in (
            pretty(entry[tuple_key(width)]), " / ".join(pretty(run) for run in entry[tractor_key(width)]) or "—")]
        out.append(FactRow(f"suit-{key}", suit_name(key), [
            str(entry["played"]), str(entry["mine"]), str(entry["unseen"]),
            str(entry["points_unplayed"]), str(entry["points_unseen"]), pretty(entry["top_in_play"]), *live],
            lines("suits.unseen", key) + lines("suits.points_unseen", key)
            + [line for width in widths for line in lines(f"suits.{tuple_key(width)}", key)]))
    others = [(viewer + k) % 4 for k in (1, 2, 3)]
    for field, label in (("voids", _("Voids (绝门)")), ("no_pairs", _("Shown to hold no pair"))):
        cells = [" ".join(suit_name(s) for s in facts[field][str(q)]) or "—" for q in others]
        explained = [f"{seat_word(q, viewer)}: {line}" for q in others for line in lines(field, seat=q)]
        out.append(FactRow(field, label, cells, explained))
    score = facts["score"]
    out.append(FactRow("score", _("Score"), [str(score["attackers"]), str(score["banker_side"]),
                                             str(score["unplayed"]), str(score["to_take_over"])], lines("score")))
    return out


def gouji_relevant_row(question: dict[str, Any], facts: dict[str, Any]) -> str:
    """The key of the 够级 facts table's row that holds the question's fact: its rank's, or its seat's."""
    subject = question.get("card") or ""
    if subject in facts["ranks"]:
        return f"rank-{subject}"
    seat = next((q for q, entry in facts["seats"].items() if entry["relation"] == subject), None)
    return f"seat-{seat}" if seat is not None else ""


def gouji_fact_rows(facts: dict[str, Any], language: str) -> list[FactRow]:
    """The 够级 §6 facts as compact rows, each explained: a row per rank (花和钱 first, ranks named as players
    name them) with its cards and 够级 sets, then a row per other seat with its cards left and what it has shown."""
    rows = []
    for rank, entry in facts["ranks"].items():
        gouji = facts["gouji"].get(rank)
        rows.append(FactRow(f"rank-{rank}", rank_name(rank), [
            str(entry["total"]), str(entry["played"]), str(entry["mine"]), str(entry["unseen"]),
            str(entry["in_hands"]), str(gouji["max_sets_unseen"]) if gouji else "—",
            str(gouji["sets_played"]) if gouji else "—"], rank_lines(facts, rank)[language]))
    for q, entry in facts["seats"].items():
        if int(q) == facts["seat"]:
            continue
        shown = " ".join(f"{rank_name(rank)}×{n}" for rank, n in entry["shown"].items() if n) or "—"
        out = entry["out"]
        rows.append(FactRow(f"seat-{q}", relation_label(entry["relation"]), [
            str(facts["hand_sizes"][int(q)]), shown, str(len(entry["gouji_plays"])),
            _("yes") if entry["opened"] else _("no"), place_name(out["place"], len(facts["seats"])) if out else "—"],
            seat_lines(facts, int(q))[language]))
    return rows


@dataclass(frozen=True, slots=True)
class TableSeat:
    """One seat's play in a trick of the review's history."""

    seat: int
    label: str
    play: list[CardView]
    winning: bool


@dataclass(frozen=True, slots=True)
class PastTrick:
    """One trick of the history on the review page: its plays from the leader, the winner, the points."""

    number: int
    plays: list[TableSeat]
    winner: int | None
    """The seat that won it; None while it is unfinished."""
    points: int
    attempt: list[CardView] | None


def history(data: DealData, viewer: int, plays: int) -> list[PastTrick]:
    """Every trick up to `plays` plays (the last one perhaps unfinished) with the seats named from
    `viewer`: the review page shows the whole history."""
    record, ctx = data.record, data.record.ctx
    tricks: list[PastTrick] = []
    for number, trick in enumerate(record.tricks, start=1):
        start = data.trick_starts[number - 1]
        if start >= plays:
            break
        shown = min(len(trick.plays), plays - start)
        finished = shown == len(trick.plays) == 4
        winner = data.events[start + shown - 1].winning if finished else None
        seats = [TableSeat((trick.leader + index) % 4, seat_label((trick.leader + index) % 4, record.banker, viewer),
                           cards_view(cards, ctx), (trick.leader + index) % 4 == winner)
                 for index, cards in enumerate(trick.plays[:shown])]
        points = sum(card.points for cards in trick.plays[:shown] for card in cards)
        tricks.append(PastTrick(number, seats, winner, points,
                                cards_view(trick.attempt, ctx) if trick.attempt is not None else None))
    return tricks
