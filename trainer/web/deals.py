"""The deal library: list with filters, generate, import (record or Botzone log), export, replay, delete."""
from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, abort, current_app, flash, g, request, session, url_for
from flask_babel import gettext as _
from flask_babel import ngettext
from sqlalchemy.orm import load_only
from sqlmodel import col, func, select
from werkzeug.exceptions import RequestEntityTooLarge

from trainer.bots.generate import record_text
from trainer.gouji.records import GoujiReplay
from trainer.records import parse_record, verify_summary
from trainer.web.auth import login_required
from trainer.web.db import get_session, write_lock
from trainer.web.display import cards_view, seat_label, seat_name, trick_view, trump_label
from trainer.web.extensions import limiter
from trainer.web.forms import FilterForm, GenerateForm, ImportForm
from trainer.web.gouji import gouji_deal_view
from trainer.web.inputs import page_cursor
from trainer.web.library import (
    Added,
    Filters,
    LibraryError,
    add_records,
    check_record,
    check_records,
    find_visible,
    generate,
    load_json,
    records_from_text,
    starter_progress,
    visible_deals,
)
from trainer.web.messages import upload_limit_kb
from trainer.web.models import Deal, DrillRun
from trainer.web.responses import go, render_page, wants_fragment

bp = Blueprint("deals", __name__, url_prefix="/deals")


def _filters(form: FilterForm) -> Filters:
    """The filters the form asks for; a value that does not validate counts as "any"."""
    form.validate()

    def value(field: Any) -> Any:
        return None if field.errors or field.data in ("", None) else field.data

    complete = value(form.complete)
    whose = value(form.whose)
    decks = value(form.decks)
    return Filters(rules=value(form.rules), decks=None if decks is None else int(decks), trump=value(form.trump),
                   complete=None if complete is None else complete == "yes",
                   mine=None if whose is None else whose == "mine", game=value(form.game))


@bp.route("")
@login_required
def index() -> Any:
    """The user's own deals then the shared starter library, filtered, a page at a time (`?after=` or
    `?before=` a deal of the list: `trainer.web.keyset`)."""
    form = FilterForm(request.args)
    filters = _filters(form)
    page, total = visible_deals(get_session(), g.user.id, filters, page_cursor("after", "ms"),
                                page_cursor("before", "ms"), current_app.config["DEALS_PER_PAGE"])
    query = {name: field.data for name, field in form._fields.items() if field.data and not field.errors}
    return render_page("deals/index.html", "deals/_list.html", form=form, deals=page.rows, total=total, page=page,
                       query=query, loading=starter_progress(get_session()))


LAST_GENERATED = "last_generated"
"""The session key of the rules preset and count the user last generated deals with."""


def _generate_form() -> GenerateForm:
    """The generate form, empty but for the preset and count the user last generated with."""
    return GenerateForm(formdata=None, data=session.get(LAST_GENERATED))


def _new_page(status: int, generate_form: GenerateForm | None = None, import_form: ImportForm | None = None,
              fragment: str | None = None, **context: Any) -> Any:
    return render_page("deals/new.html", fragment, status,
                       generate_form=generate_form or _generate_form(),
                       import_form=import_form or ImportForm(formdata=None), **context)


@bp.route("/new")
@login_required
def new() -> Any:
    """The forms that add deals: generate by bots, import a file."""
    return _new_page(200)


def _added_message(added: Added) -> str:
    message = ngettext("%(num)d new deal in your library.", "%(num)d new deals in your library.",
                       len(added.deals))
    if added.already:
        message += " " + ngettext("%(num)d was already there.", "%(num)d were already there.", len(added.already))
    return message


def _done(added: Added, fragment: str, form_name: str, form: Any) -> Any:
    """After adding deals: htmx gets the form back with the result; a plain form post redirects."""
    if wants_fragment():
        return _new_page(200, fragment=fragment, added=added, message=_added_message(added), **{form_name: form})
    flash(_added_message(added))
    return go(url_for("deals.index", whose="mine"))


def _per_user() -> str:
    """The rate limits' key for adding deals: the signed-in user."""
    return f"user:{g.user.id}"


@bp.route("/generate", methods=("POST",))
@login_required
@limiter.limit(lambda: current_app.config["GENERATE_RATE_LIMIT"], key_func=_per_user)
def generate_deals() -> Any:
    """Bots play 1–20 new deals under a rules preset, stored in the user's library (at most
    `MAX_DEALS_PER_USER` deals; `GENERATE_RATE_LIMIT` requests per user)."""
    form = GenerateForm()
    error = None
    if form.validate_on_submit():
        try:
            added = generate(get_session(), form.rules.data, form.count.data, g.user.id,
                             current_app.config["MAX_DEALS_PER_USER"])
        except LibraryError as refused:
            error = _("Nothing was generated: %(reason)s", reason=str(refused))
        else:
            session[LAST_GENERATED] = {"rules": form.rules.data, "count": form.count.data}
            return _done(added, "deals/_generate_form.html", "generate_form", _generate_form())
    return _new_page(422, generate_form=form, fragment="deals/_generate_form.html", generate_error=error)


def _botzone_records(raw: bytes) -> list[Any]:
    """Records converted from a Botzone match log (`trainer.imports.botzone`)."""
    log = load_json(raw)
    try:
        from trainer.imports.botzone import convert_log
    except ImportError:
        raise LibraryError(_("Botzone import is not available in this version")) from None
    try:
        return convert_log(log)
    except ValueError as error:
        refused = (_("the log breaks the Botzone rules") if "breaks the botzone rules" in str(error)
                   else _("the Botzone log cannot be read"))
        raise LibraryError(refused, str(error)) from None


@bp.route("/import", methods=("POST",))
@login_required
@limiter.limit(lambda: current_app.config["IMPORT_RATE_LIMIT"], key_func=_per_user)
def import_deals() -> Any:
    """Upload deal records (one JSON object or an array) or a Botzone log of at most `UPLOAD_LIMIT`
    bytes; all valid or nothing stored (at most `MAX_DEALS_PER_USER` deals; `IMPORT_RATE_LIMIT`
    requests per user)."""
    form = ImportForm()
    error = detail = None
    if form.validate_on_submit():
        limit = current_app.config["UPLOAD_LIMIT"]
        raw = form.file.data.read(limit + 1)
        if len(raw) > limit:
            return upload_too_large(None)
        try:
            records = _botzone_records(raw) if form.kind.data == "botzone" else records_from_text(raw)
            added = add_records(get_session(), check_records(records), g.user.id,
                                current_app.config["MAX_DEALS_PER_USER"])
        except LibraryError as refused:
            error, detail = _("Nothing was imported: %(reason)s", reason=str(refused)), refused.detail
        else:
            return _done(added, "deals/_import_form.html", "import_form", ImportForm(formdata=None))
    return _new_page(422, import_form=form, fragment="deals/_import_form.html", import_error=error,
                     import_detail=detail)


@bp.errorhandler(RequestEntityTooLarge)
def upload_too_large(_error: RequestEntityTooLarge | None) -> Any:
    """An upload over `UPLOAD_LIMIT` (or a request over `MAX_CONTENT_LENGTH`, which leaves room for
    the form around the file): the import form again, saying so."""
    error = _("Nothing was imported: the file is larger than %(kb)d KB.", kb=upload_limit_kb())
    return _new_page(413, fragment="deals/_import_form.html", import_error=error)


def _visible_or_404(deal_id: str) -> Deal:
    deal = find_visible(get_session(), deal_id, g.user.id)
    if deal is None:
        abort(404)
    return deal


@bp.route("/<deal_id>")
@login_required
def show(deal_id: str) -> Any:
    """Replay a deal with all hands shown, trick by trick (`?trick=N`, `?seat=S` names seats from S)."""
    deal = _visible_or_404(deal_id)
    checked = check_record(deal.record)
    record, replayed = checked.record, checked.replay
    if isinstance(replayed, GoujiReplay):
        return render_page("deals/show_gouji.html", **gouji_deal_view(replayed), deal=deal)
    total = len(record.tricks)
    number = min(max(request.args.get("trick", 1, type=int), 1), max(total, 1))
    viewer = request.args.get("seat", type=int)
    viewer = viewer if viewer in range(4) else None
    context = {
        "deal": deal, "record": record, "summary": verify_summary(replayed), "viewer": viewer,
        "trick": trick_view(replayed, number, viewer), "trump": trump_label(record.ctx),
        "seat_label": lambda seat: seat_label(seat, record.banker, viewer),
        "seat_name": lambda seat: seat_name(seat, viewer),
        "kitty": cards_view(record.kitty, record.ctx), "buried": cards_view(record.buried, record.ctx),
        "declarations": [(seat, cards_view(cards, record.ctx)) for seat, cards in record.declarations],
    }
    return render_page("deals/show.html", "deals/_trick.html", **context)


@bp.route("/<deal_id>/export")
@login_required
def export(deal_id: str) -> Response:
    """The record as a JSON file (cards in canonical text, everything else as imported)."""
    deal = _visible_or_404(deal_id)
    text = record_text(deal.record) if deal.game == "gouji" else parse_record(deal.record).dumps() + "\n"
    return Response(text, mimetype="application/json",
                    headers={"Content-Disposition": f'attachment; filename="{deal.id}.json"'})


@bp.route("/<deal_id>/delete", methods=("GET", "POST"))
@login_required
def delete(deal_id: str) -> Any:
    """Delete one of the user's own deals (the shared library cannot be deleted from here), after a
    confirmation: GET (or a POST without `confirm`) shows what will happen, a POST with `confirm`
    does it. A deal with runs on it is hidden, not deleted: it leaves the library and is never
    drilled again, and its runs and answers stay for the review."""
    db = get_session()
    deal = db.exec(select(Deal).options(load_only(col(Deal.pk), col(Deal.id), col(Deal.owner_id)))
                   .where(Deal.id == deal_id, Deal.owner_id == g.user.id, col(Deal.hidden).is_(False))).first()
    if deal is None:
        abort(404)
    runs = db.exec(select(func.count()).select_from(DrillRun).where(DrillRun.user_id == g.user.id,
                                                                      DrillRun.deal_pk == deal.pk)).one()
    if request.method == "GET" or request.form.get("confirm") != "yes":
        return render_page("deals/delete.html", "deals/_delete.html", deal=deal, runs=runs)
    if runs:
        deal.hidden = True
        db.add(deal)
    else:
        db.delete(deal)
    with write_lock().held():
        db.commit()
    flash(_("Deal %(id)s deleted.", id=deal_id))
    return go(url_for("deals.index"))
