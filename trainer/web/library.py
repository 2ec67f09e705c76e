"""The deal library: validate records, store them for a user or the shared library, find them.

Every query for deals goes through `visible_deals` / `find_visible`, which scope it to the shared
library plus the signed-in user's own deals: another user's private deal is never found.
"""
from __future__ import annotations

import hashlib
import lzma
import re
import secrets
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import sqlalchemy as sa
from flask import Flask, current_app, has_request_context
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from sqlalchemy.orm import load_only
from sqlmodel import Session, col, select

from trainer import __version__
from trainer.bots.generate import generate_records
from trainer.engine.errors import IllegalPlayError, JipaiError
from trainer.engine.rules import PRESETS, Rules
from trainer.gouji.records import GoujiRecord, GoujiReplay, is_gouji, parse_gouji_record
from trainer.gouji.records import replay as gouji_replay
from trainer.gouji.generate import generate_gouji_records
from trainer.gouji.rules import PRESETS as GOUJI_PRESETS
from trainer.gouji.rules import GoujiRules
from trainer.json_input import MAX_DEPTH, MAX_DIGITS, JSONInputError, read_json
from trainer.records import DealRecord, Replay, parse_record, record_id, replay
from trainer.web.keyset import Cursor, Page, keyset_page
from trainer.web.models import Deal, LibraryLoad, utcnow

RULE_PRESETS = tuple(PRESETS)
"""The presets the library can hold and generate: every one, one to four decks."""
GOUJI_CHOICE = "gouji:"
"""The prefix of a 够级 preset given to `generate` (`gouji:standard`): the two games share preset names."""
TRUMPS = ("S", "H", "C", "D", "none")


class LibraryError(ValueError):
    """A record or upload the library refuses; the message says why in the page's language. When the
    refusal comes from the rules engine or the Botzone converter, the message names what was
    refused and where, and `detail` keeps their own words (English, with the exact card or value)."""

    def __init__(self, message: str, detail: str | None = None) -> None:
        super().__init__(message)
        self.detail = detail

    def logged(self) -> str:
        """The message with the detail, for the server's log."""
        return f"{self} ({self.detail})" if self.detail else str(self)


@dataclass(frozen=True, slots=True)
class Checked:
    """A record that passed validation: the JSON object, its parsed form and its replay."""

    data: dict[str, Any]
    record: DealRecord | GoujiRecord
    replay: Replay | GoujiReplay

    @property
    def id(self) -> str:
        """The record's id."""
        return self.record.id


ID_PATTERN = re.compile(r"[A-Za-z0-9._-]{1,64}")
"""The ids the library keeps: they appear in URLs and file names."""


def check_record(data: Any) -> Checked:
    """Parse and replay one record (records.md validation); `LibraryError` names the first problem."""
    try:
        record: DealRecord | GoujiRecord = parse_gouji_record(data) if is_gouji(data) else parse_record(data)
        if not ID_PATTERN.fullmatch(record.id):
            raise LibraryError(_("the record's id %(id)s is not 1–64 letters, digits, '.', '-' or '_'",
                                 id=repr(record.id[:80])))
        if isinstance(record, GoujiRecord):
            return Checked(data, record, gouji_replay(record))
        return Checked(data, record, replay(record))
    except JipaiError as error:
        if not has_request_context():  # loading the starter library: the log reads the engine's words
            raise LibraryError(str(error)) from None
        raise LibraryError(engine_problem(error), str(error)) from None
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
    """An uploaded file's JSON (`trainer.json_input.read_json`); `LibraryError` in the page's language
    when it is not UTF-8 JSON or breaks the reader's limits: nesting, digits, NaN or Infinity, a
    number too large for a float, a lone surrogate (`\\ud800`)."""
    try:
        return read_json(text)
    except UnicodeDecodeError:
        raise LibraryError(_("the file is not UTF-8 text")) from None
    except JSONInputError as error:
        raise LibraryError(_json_problem(error)) from None


def _json_problem(error: JSONInputError) -> str:
    """The reader's refusal in the page's language."""
    if error.kind == "depth":
        return _("the JSON is nested too deeply (more than %(levels)d levels)", levels=MAX_DEPTH)
    if error.kind == "digits":
        return _("a number has more than %(digits)d digits", digits=MAX_DIGITS)
    if error.kind == "constant":
        return _("%(value)s is not a number a deal can hold", value=error.token)
    if error.kind == "float":
        return _("the number %(value)s is too large", value=error.token)
    if error.kind == "surrogate":
        return _("%(where)s holds a lone surrogate (an escape such as \\ud800 that is half of a character)",
                 where=error.token)
    return _("not JSON: %(problem)s at line %(line)d, column %(column)d",
             problem=error.msg, line=error.lineno, column=error.colno)


RECORD_PARTS = {
    "format": _l("format"), "id": _l("id"), "rules": _l("rules"), "level": _l("level (级)"),
    "trump": _l("trump (主)"), "banker": _l("banker (庄家)"), "hands": _l("hands"), "kitty": _l("kitty (底牌)"),
    "buried": _l("buried cards (埋底)"), "tricks": _l("tricks"), "declarations": _l("declarations (亮主)"),
}
"""The fields of a deal record (records.md) as the import form's refusals name them."""


def engine_problem(error: JipaiError) -> str:
    """What the rules engine refused in a record, in the page's language: a play against the rules
    (with its trick and seat), or the part of the record that is wrong or missing. The engine's own
    English words, which name the exact card or value, go with it as `LibraryError.detail`."""
    message = str(error)
    if isinstance(error, IllegalPlayError) and error.trick is not None:
        if error.seat is None:
            return _("trick %(trick)d: a play against the rules", trick=error.trick)
        return _("trick %(trick)d: seat %(seat)d plays against the rules", trick=error.trick, seat=error.seat)
    if found := re.match(r"(trick|declaration) (\d+)", message):
        part = (_("trick %(n)s") if found.group(1) == "trick" else _("declaration %(n)s")) % {"n": found.group(2)}
        return _("the record's %(part)s is not valid", part=part)
    if found := re.match(r"missing field '(\w+)'", message):
        return _("the record has no %(part)s", part=RECORD_PARTS.get(found.group(1), found.group(1)))
    if message.startswith(("unknown rules", "rules option")):
        key = "rules"
    elif message.startswith("a seat is"):
        key = "banker"
    else:
        key = re.match(r"\w*", message).group()
    part = RECORD_PARTS.get(key)
    if part is None:
        return _("the record is not a valid deal record")
    return _("the record's %(part)s is not valid", part=part)


def check_records(records: Sequence[Any]) -> list[Checked]:
    """Validate every record; the first invalid one raises (numbered when there are several)."""
    checked = []
    for number, data in enumerate(records, start=1):
        try:
            checked.append(check_record(data))
        except LibraryError as error:
            raise LibraryError(_("deal %(n)d: %(reason)s", n=number, reason=str(error))
                               if len(records) > 1 else str(error), error.detail) from None
    return checked


def deal_row(checked: Checked, owner_id: int | None) -> Deal:
    """The table row for a validated record."""
    record, rep = checked.record, checked.replay
    rules = record.rules
    source = checked.data.get("source")
    kind = source.get("kind") if isinstance(source, dict) else None
    source_kind = "".join(ch for ch in str(kind) if ch.isprintable())[:32] if kind else "import"
    if isinstance(record, GoujiRecord):
        assert isinstance(rep, GoujiReplay)
        return Deal(id=checked.id, owner_id=owner_id, record=checked.data, game="gouji", rules=rules.preset,
                    custom_rules=rules != GOUJI_PRESETS[rules.preset], decks=rules.decks, level="", trump="none", banker=record.leader,
                    complete=rep.complete, tricks=len(record.rounds), source_kind=source_kind)
    assert isinstance(record, DealRecord) and isinstance(rep, Replay)
    return Deal(
        id=checked.id, owner_id=owner_id, record=checked.data, rules=rules.preset,
        custom_rules=rules != PRESETS[rules.preset], decks=rules.decks, level=str(record.data["level"]).upper(),
        trump="none" if record.ctx.trump is None else record.ctx.trump.letter, banker=record.banker,
        complete=rep.complete, tricks=len(record.tricks),
        attackers_score=rep.result.attackers_score if rep.result else None, source_kind=source_kind)


@dataclass(frozen=True, slots=True)
class Added:
    """What `add_records` did: the rows stored and the ids that were already there."""

    deals: list[Deal]
    already: list[str]


def add_records(session: Session, checked: Sequence[Checked], owner_id: int | None,
                limit: int | None = None) -> Added:
    """Store validated records for `owner_id` (None: the shared library) and commit; records
    already visible to that owner (theirs or shared) are not stored twice, and one of the owner's
    own hidden deals comes back. `LibraryError` when the owner would hold more than `limit` deals."""
    deals, already = [], []
    seen = set()
    for item in checked:
        found = None if item.id in seen else find_visible(session, item.id, owner_id, with_hidden=True)
        if item.id in seen or (found is not None and not found.hidden):
            already.append(item.id)
            continue
        seen.add(item.id)
        deals.append(found or deal_row(item, owner_id))
    if owner_id is not None and limit is not None:
        check_room(session, owner_id, sum(deal.pk is None for deal in deals), limit)
    for deal in deals:
        deal.hidden = False
        session.add(deal)
    try:
        session.commit()
    except sa.exc.IntegrityError:
        session.rollback()
        raise LibraryError(_("these deals were being added at the same moment by another request; "
                             "try again")) from None
    return Added(deals, already)


def check_room(session: Session, owner_id: int, adding: int, limit: int) -> None:
    """`LibraryError` when `adding` more deals would make the owner hold more than `limit` (the
    hidden ones, kept for the runs on them, count too)."""
    held = session.exec(select(sa.func.count()).select_from(Deal).where(Deal.owner_id == owner_id)).one()
    if held + adding > limit:
        raise LibraryError(_("your library would hold %(total)d deals, and the limit is %(limit)d (deals deleted "
                             "after you drilled them are kept for your review and count too)",
                             total=held + adding, limit=limit))


def generate(session: Session, preset: str, count: int, owner_id: int, limit: int | None = None,
             seed: int | None = None) -> Added:
    """Bots play `count` new deals under the `preset` rules (a 够级 one as `gouji:<preset>`), stored in the owner's library (of at
    most `limit` deals: checked before the bots play, and again as they are stored)."""
    if limit is not None:
        check_room(session, owner_id, count, limit)
    seed = secrets.randbelow(2**31) if seed is None else seed
    if preset.startswith(GOUJI_CHOICE):
        records = generate_gouji_records(GoujiRules.parse(preset.removeprefix(GOUJI_CHOICE)), seed=seed, count=count)
    else:
        records = generate_records(Rules.parse(preset), seed=seed, count=count)
    return add_records(session, check_records(records), owner_id, limit)


def _visible(owner_id: int | None, with_hidden: bool = False) -> sa.ColumnElement[bool]:
    """The deals `owner_id` may see: the shared library and their own, not the hidden ones unless asked."""
    shown = col(Deal.owner_id).is_(None) if owner_id is None else \
        sa.or_(col(Deal.owner_id).is_(None), col(Deal.owner_id) == owner_id)
    return shown if with_hidden else sa.and_(shown, col(Deal.hidden).is_(False))


def find_visible(session: Session, deal_id: str, owner_id: int | None, with_hidden: bool = False) -> Deal | None:
    """The deal `deal_id` if the owner may see it (their own first, then the shared one); a hidden
    one only `with_hidden`."""
    query = (select(Deal).where(Deal.id == deal_id, _visible(owner_id, with_hidden))
             .order_by(col(Deal.owner_id).is_(None)).limit(1))
    return session.exec(query).first()


@dataclass(frozen=True, slots=True)
class Filters:
    """The deal list's filters; None means any."""

    rules: str | None = None
    decks: int | None = None
    trump: str | None = None
    complete: bool | None = None
    mine: bool | None = None
    game: str | None = None


LIST_COLUMNS = (Deal.pk, Deal.id, Deal.owner_id, Deal.game, Deal.rules, Deal.custom_rules, Deal.decks, Deal.level,
                Deal.trump, Deal.complete, Deal.tricks, Deal.attackers_score, Deal.source_kind)
"""The columns the deal list shows (never the record's JSON)."""


def visible_deals(session: Session, owner_id: int, filters: Filters, after: Cursor | None = None,
                  before: Cursor | None = None, limit: int = 50) -> tuple[Page, int]:
    """One page of the deals `owner_id` may see, by keyset (`trainer.web.keyset`): their own (group
    `m`) then the shared ones (`s`), newest first; and the total. Only the listed columns are read."""
    where = [_visible(owner_id)]
    if filters.game:
        where.append(col(Deal.game) == filters.game)
    if filters.rules:
        where.append(col(Deal.rules) == filters.rules)
    if filters.decks:
        where.append(col(Deal.decks) == filters.decks)
    if filters.trump:
        where.append(col(Deal.trump) == filters.trump)
    if filters.complete is not None:
        where.append(col(Deal.complete) == filters.complete)
    groups = [("m", col(Deal.owner_id) == owner_id), ("s", col(Deal.owner_id).is_(None))]
    if filters.mine is not None:
        groups = groups[:1] if filters.mine else groups[1:]
        where.append(groups[0][1])
    total = session.exec(select(sa.func.count()).select_from(Deal).where(*where)).one()
    query = select(Deal).options(load_only(*LIST_COLUMNS, raiseload=True)).where(*where)
    page = keyset_page(session, query, col(Deal.pk), groups, lambda deal: deal.pk, after, before, limit)
    return page, total


def starter_files(folder: Path) -> list[Path]:
    """The starter library's files: `folder/*.json` and its subfolders' `*.json` (the signal deals of
    `drills/deals/signals/`) and the xz-compressed `folder/*.json.xz` (a JSON array each: the shipped
    library of 1,000 deals per preset)."""
    if not folder.is_dir():
        return []
    return sorted([*folder.glob("*.json"), *folder.glob("*.json.xz")]) + sorted(folder.glob("*/*.json"))


def starter_records(folder: Path, generate_count: int) -> list[Any]:
    """The starter library: the records in the `starter_files` of `folder`, or `generate_count`
    generated deals (seed 1, standard rules) when the folder has none."""
    files = starter_files(folder)
    if not files:
        return generate_records(Rules(), seed=1, count=generate_count) if generate_count else []
    records: list[Any] = []
    for path in files:
        try:
            raw = path.read_bytes()
            records.extend(records_from_text(lzma.decompress(raw) if path.suffix == ".xz" else raw))
        except LibraryError as error:
            raise LibraryError(f"{path}: {error}", error.detail) from None
    return records


def starter_digest(folder: Path, generate_count: int) -> str:
    """What the starter library would hold, in 64 hex digits without parsing a record: SHA-256 over the
    trainer's version and the names and contents of the `starter_files` of `folder` (or, when there
    are none, the number of deals generated instead)."""
    digest = hashlib.sha256(f"jipai {__version__}\n".encode())
    files = starter_files(folder)
    for path in files:
        name = path.relative_to(folder).as_posix().encode("utf-8", "surrogateescape")
        digest.update(b"%d:%s:" % (len(name), name))
        try:
            content = path.read_bytes()
        except OSError:  # unreadable now: the load will say so
            content = b""
        digest.update(b"%d:" % len(content))
        digest.update(content)
    if not files:
        digest.update(b"generated:%d" % generate_count)
    return digest.hexdigest()


def _given_id(data: Any) -> str | None:
    if not isinstance(data, dict):
        return None
    given = data.get("id")
    return given if isinstance(given, str) and given else record_id(data)


STARTER_BATCH = 50
"""Starter records stored per commit; the load log's progress moves on with each. A commit of 50 takes a few
tens of milliseconds on SQLite (200 took 0.1–0.25 s), and it holds the write lock, whose `flock` a gevent
worker waiting to write waits for without serving."""
STARTER_LOAD = "jipai_starter_load"
"""The app extension holding the app's `StarterLoad` when the library loads in the background."""


def load_starter_library(app: Flask) -> Added:
    """Store the starter records the shared library lacks, so that a first start fills it and deals
    added to `drills/deals/` later join it on the next start; return when done. One process at a time
    loads (the `library` start lock); a finished load of the files' present `starter_digest` in the
    load log (`LibraryLoad`) means there is nothing to do, and no file is parsed. The load log shows
    the progress to every worker's pages (`starter_progress`). An invalid starter record is logged and
    left out; it does not stop the app."""
    from trainer.web.db import start_lock

    folder, generate_count = Path(app.config["STARTER_DEALS_DIR"]), app.config["STARTER_GENERATE_COUNT"]
    engine = app.extensions["jipai_engine"]
    digest = starter_digest(folder, generate_count)
    with start_lock(engine, app.instance_path, "library"), Session(engine, expire_on_commit=False) as session:
        done = session.exec(select(LibraryLoad.id).where(LibraryLoad.digest == digest,
                                                         col(LibraryLoad.finished).is_not(None)).limit(1)).first()
        if done is not None:
            app.logger.info("starter library: unchanged since it was loaded (digest %s), nothing to read", digest[:12])
            return Added([], [])
        begun = time.perf_counter()
        session.exec(sa.delete(LibraryLoad).where(col(LibraryLoad.finished).is_(None)))  # cut off: never finish
        load = LibraryLoad(digest=digest)
        _commit(app, session, load)
        app.logger.info("starter library: reading %s", folder if starter_files(folder) else
                        f"{generate_count} generated deals (no files in {folder})")
        try:
            records = off_the_loop(starter_records, folder, generate_count)
        except LibraryError as error:
            app.logger.error("starter library not loaded: %s", error.logged())
            session.delete(load)
            _commit(app, session)
            return Added([], [])
        load.records = len(records)
        _commit(app, session, load)
        app.logger.info("starter library: checking %d records", len(records))
        added = _store_starter_records(app, session, load, records)
        load.finished = utcnow()
        _commit(app, session, load)
        app.logger.info("starter library: loaded %d deals (%d new, %d left out) in %.1f s", len(records),
                        load.added, load.left_out, time.perf_counter() - begun)
        return added


def _store_starter_records(app: Flask, session: Session, load: LibraryLoad, records: Sequence[Any]) -> Added:
    """Check and store the starter `records` the shared library lacks, `STARTER_BATCH` a commit, counting
    them on `load`. Each batch is checked `off_the_loop` (the CPU-heavy part: a replay of every record)."""
    present = set(session.exec(select(Deal.id).where(col(Deal.owner_id).is_(None))).all())
    deals: list[Deal] = []
    already: list[str] = []
    for start in range(0, len(records), STARTER_BATCH):
        batch = []
        for given, checked in off_the_loop(_check_batch, app, records[start:start + STARTER_BATCH], present):
            if isinstance(checked, LibraryError):
                app.logger.error("starter deal %s left out: %s", given, checked.logged())
                load.left_out += 1
            elif checked is None:
                already.append(given)
            else:
                batch.append(deal_row(checked, None))
        session.add_all(batch)
        deals.extend(batch)
        load.checked = min(start + STARTER_BATCH, len(records))
        load.added += len(batch)
        _commit(app, session, load)
    return Added(deals, already)


Check = tuple[str | None, Checked | LibraryError | None]
"""A starter record's id and its check: None when the library has it already, the refusal when it is invalid."""


def _check_batch(app: Flask, records: Sequence[Any], present: set[str]) -> list[Check]:
    """Each record's `Check` (None when its id is in `present` or came earlier); the new ids join `present`.
    Touches no database, logger or greenlet, so it can run in another thread (`off_the_loop`)."""
    checks: list[Check] = []
    with app.app_context():  # the refusals' words (flask_babel)
        for data in records:
            given = _given_id(data)
            if given in present:
                checks.append((given, None))
                continue
            try:
                checked = check_record(data)
            except LibraryError as error:
                checks.append((given, error))
                continue
            present.add(checked.id)
            checks.append((given, checked))
    return checks


Result = TypeVar("Result")


def off_the_loop(function: Callable[..., Result], *args: Any) -> Result:
    """`function(*args)`, CPU-bound work that must not stall a gevent worker: in gevent's pool of native
    threads when gevent has patched `threading` (the calling greenlet waits, and the worker's loop goes on
    serving, taking the GIL back every `sys.getswitchinterval()`), else in this thread (the starter load's
    own thread, beside the server's)."""
    monkey = sys.modules.get("gevent.monkey")
    if monkey is not None and monkey.is_module_patched("threading"):
        import gevent

        return gevent.get_hub().threadpool.apply(function, args)
    return function(*args)


def _commit(app: Flask, session: Session, *rows: Any) -> None:
    """Add `rows` and commit under the app's write lock (`trainer.web.db.WriteLock`)."""
    session.add_all(rows)
    with app.extensions["jipai_write_lock"].held():
        session.commit()


@dataclass(frozen=True, slots=True)
class Progress:
    """A load of the starter library under way: records checked of `records` (None until the files are read)."""

    checked: int
    records: int | None


def starter_progress(session: Session) -> Progress | None:
    """The starter library's load while one is under way (in any worker, from the load log, or this app's
    own before it has begun), else None."""
    latest = session.exec(select(LibraryLoad).order_by(col(LibraryLoad.id).desc()).limit(1)).first()
    if latest is not None and latest.finished is None:
        return Progress(latest.checked, latest.records)
    own = current_app.extensions.get(STARTER_LOAD)
    return Progress(0, None) if own is not None and not own.done.is_set() else None


class StarterLoad:
    """The app's `load_starter_library` in a thread of its own (a greenlet in a gevent worker, which hands
    the parsing and checking to a native thread: `off_the_loop`), started once as the app is built; `done`
    is set when it has finished, loaded or not (`wait` for it)."""

    def __init__(self, app: Flask) -> None:
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._run, args=(app,), name="starter-library", daemon=True)

    def start(self) -> StarterLoad:
        """Start the load; the load itself."""
        self.thread.start()
        return self

    def wait(self, timeout: float | None = None) -> bool:
        """Wait until the load has finished (at most `timeout` seconds); whether it has."""
        return self.done.wait(timeout)

    def _run(self, app: Flask) -> None:
        try:
            with app.app_context():
                load_starter_library(app)
        except Exception:  # the app goes on serving without the deals; the log says why
            app.logger.exception("starter library not loaded")
        finally:
            self.done.set()
