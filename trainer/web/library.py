"""The deal library: validate records, store them for a user or the shared library, find them.

Every query for deals goes through `visible_deals` / `find_visible`, which scope it to the shared
library plus the signed-in user's own deals: another user's private deal is never found.
"""
from __future__ import annotations

import json
import re
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from flask import Flask
from flask_babel import gettext as _
from sqlmodel import Session, col, select

from trainer.bots.generate import generate_records
from trainer.engine.errors import JipaiError
from trainer.engine.rules import PRESETS, SUPPORTED_DECKS, Rules
from trainer.json_input import read_json
from trainer.records import DealRecord, Replay, parse_record, record_id, replay
from trainer.web.models import Deal

RULE_PRESETS = tuple(name for name, rules in PRESETS.items() if rules.decks in SUPPORTED_DECKS)
"""The presets the library can hold and generate (the engine plays two decks today)."""
TRUMPS = ("S", "H", "C", "D", "none")


class LibraryError(ValueError):
    """A record or upload the library refuses; the message says why in words (the rules engine's
    reasons are in English; the library's own are translated)."""


@dataclass(frozen=True, slots=True)
class Checked:
    """A record that passed validation: the JSON object, its parsed form and its replay."""

    data: dict[str, Any]
    record: DealRecord
    replay: Replay

    @property
    def id(self) -> str:
        """The record's id."""
        return self.record.id


ID_PATTERN = re.compile(r"[A-Za-z0-9._-]{1,64}")
"""The ids the library keeps: they appear in URLs and file names."""


def check_record(data: Any) -> Checked:
    """Parse and replay one record (records.md validation); `LibraryError` names the first problem."""
    try:
        record = parse_record(data)
        if not ID_PATTERN.fullmatch(record.id):
            raise LibraryError(_("the record's id %(id)s is not 1–64 letters, digits, '.', '-' or '_'",
                                 id=repr(record.id[:80])))
        return Checked(data, record, replay(record))
    except JipaiError as error:
        raise LibraryError(str(error)) from None
    except (TypeError, AttributeError, KeyError, IndexError) as error:
        raise LibraryError(_("the record has a field of the wrong type (%(error)s)",
                             error=type(error).__name__)) from None


def records_from_text(text: str | bytes) -> list[Any]:
    """The records in an uploaded file: one JSON object, or a JSON array of them."""
    data = load_json(text)
    records = data if isinstance(data, list) else [data]
    if not records:
        raise LibraryError(_("the file holds no records"))
    return records


def load_json(text: str | bytes) -> Any:
    """An uploaded file's JSON; `LibraryError` when it is not UTF-8 JSON."""
    try:
        return read_json(text)
    except UnicodeDecodeError:
        raise LibraryError(_("the file is not UTF-8 text")) from None
    except json.JSONDecodeError as error:
        raise LibraryError(_("not JSON: %(problem)s at line %(line)d, column %(column)d",
                             problem=error.msg, line=error.lineno, column=error.colno)) from None


def check_records(records: Sequence[Any]) -> list[Checked]:
    """Validate every record; the first invalid one raises (numbered when there are several)."""
    checked = []
    for number, data in enumerate(records, start=1):
        try:
            checked.append(check_record(data))
        except LibraryError as error:
            raise LibraryError(_("deal %(n)d: %(reason)s", n=number, reason=str(error))
                               if len(records) > 1 else str(error)) from None
    return checked


def deal_row(checked: Checked, owner_id: int | None) -> Deal:
    """The table row for a validated record."""
    record, rep = checked.record, checked.replay
    rules = record.rules
    source = checked.data.get("source")
    kind = source.get("kind") if isinstance(source, dict) else None
    return Deal(
        id=checked.id, owner_id=owner_id, record=checked.data, rules=rules.preset,
        custom_rules=rules != PRESETS[rules.preset], level=str(record.data["level"]).upper(),
        trump="none" if record.ctx.trump is None else record.ctx.trump.letter, banker=record.banker,
        complete=rep.complete, tricks=len(record.tricks),
        attackers_score=rep.result.attackers_score if rep.result else None,
        source_kind=str(kind)[:32] if kind else "import")


@dataclass(frozen=True, slots=True)
class Added:
    """What `add_records` did: the rows stored and the ids that were already there."""

    deals: list[Deal]
    already: list[str]


def add_records(session: Session, checked: Iterable[Checked], owner_id: int | None) -> Added:
    """Store validated records for `owner_id` (None: the shared library) and commit; records
    already visible to that owner (theirs or shared) are not stored twice."""
    deals, already = [], []
    seen = set()
    for item in checked:
        if item.id in seen or find_visible(session, item.id, owner_id) is not None:
            already.append(item.id)
            continue
        seen.add(item.id)
        deal = deal_row(item, owner_id)
        session.add(deal)
        deals.append(deal)
    try:
        session.commit()
    except sa.exc.IntegrityError:
        session.rollback()
        raise LibraryError(_("these deals were being added at the same moment by another request; "
                             "try again")) from None
    return Added(deals, already)


def generate(session: Session, preset: str, count: int, owner_id: int, seed: int | None = None) -> Added:
    """Bots play `count` new deals under the `preset` rules, stored in the owner's library."""
    seed = secrets.randbelow(2**31) if seed is None else seed
    records = generate_records(Rules.parse(preset), seed=seed, count=count)
    return add_records(session, check_records(records), owner_id)


def _visible(owner_id: int | None) -> sa.ColumnElement[bool]:
    if owner_id is None:
        return col(Deal.owner_id).is_(None)
    return sa.or_(col(Deal.owner_id).is_(None), col(Deal.owner_id) == owner_id)


def find_visible(session: Session, deal_id: str, owner_id: int | None) -> Deal | None:
    """The deal `deal_id` if the owner may see it (their own first, then the shared one)."""
    query = (select(Deal).where(Deal.id == deal_id, _visible(owner_id))
             .order_by(col(Deal.owner_id).is_(None)).limit(1))
    return session.exec(query).first()


@dataclass(frozen=True, slots=True)
class Filters:
    """The deal list's filters; None means any."""

    rules: str | None = None
    trump: str | None = None
    complete: bool | None = None
    mine: bool | None = None


def visible_deals(session: Session, owner_id: int, filters: Filters, offset: int = 0,
                  limit: int = 50) -> tuple[list[Deal], int]:
    """One page of the deals `owner_id` may see, own first then shared, newest first; and the total."""
    where = [_visible(owner_id)]
    if filters.rules:
        where.append(col(Deal.rules) == filters.rules)
    if filters.trump:
        where.append(col(Deal.trump) == filters.trump)
    if filters.complete is not None:
        where.append(col(Deal.complete) == filters.complete)
    if filters.mine is not None:
        where.append(col(Deal.owner_id) == owner_id if filters.mine else col(Deal.owner_id).is_(None))
    total = session.exec(select(sa.func.count()).select_from(Deal).where(*where)).one()
    query = (select(Deal).where(*where)
             .order_by(col(Deal.owner_id).is_(None), col(Deal.created).desc(), col(Deal.pk).desc())
             .offset(offset).limit(limit))
    return list(session.exec(query).all()), total


def starter_records(folder: Path, generate_count: int) -> list[Any]:
    """The starter library: the records in `folder/*.json`, or `generate_count` generated deals
    (seed 1, standard rules) when the folder has none."""
    files = sorted(folder.glob("*.json")) if folder.is_dir() else []
    if not files:
        return generate_records(Rules(), seed=1, count=generate_count) if generate_count else []
    records: list[Any] = []
    for path in files:
        try:
            records.extend(records_from_text(path.read_bytes()))
        except LibraryError as error:
            raise LibraryError(f"{path}: {error}") from None
    return records


def _given_id(data: Any) -> str | None:
    if not isinstance(data, dict):
        return None
    given = data.get("id")
    return given if isinstance(given, str) and given else record_id(data)


def load_starter_library(app: Flask) -> Added:
    """Store the starter records the shared library lacks, so that a first start fills it and deals
    added to `drills/deals/` later join it on the next start. An invalid starter record is logged
    and left out; it does not stop the app."""
    from trainer.web.db import start_lock

    try:
        records = starter_records(Path(app.config["STARTER_DEALS_DIR"]), app.config["STARTER_GENERATE_COUNT"])
    except LibraryError as error:
        app.logger.error("starter library not loaded: %s", error)
        return Added([], [])
    engine = app.extensions["jipai_engine"]
    with start_lock(engine, app.instance_path), Session(engine) as session:
        present = set(session.exec(select(Deal.id).where(col(Deal.owner_id).is_(None))).all())
        checked = []
        for data in records:
            if _given_id(data) in present:
                continue
            try:
                checked.append(check_record(data))
            except LibraryError as error:
                app.logger.error("starter deal %s left out: %s", _given_id(data), error)
        return add_records(session, checked, None)
