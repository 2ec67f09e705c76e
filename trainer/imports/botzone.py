"""Botzone 双升 (Tractor) match logs → `jipai-deal/1` records played under the `botzone` rules.

A match log is a JSON list alternating judge entries and player entries:

    {"output": {"command": "request", "content": {"2": request, …}, "display": …}}
    {"2": {"verdict": "OK", "response": [card ids]}}

Each request carries `stage` ("deal", "cover" or "play"), `deliver` (the card ids handed to that
seat: one dealt card, or the kitty for the banker at "cover"), `global` (`level` and `banking`:
`banker`, `major` s/h/c/d/n, `called`, `snatched`) and, while playing, `history` (the previous
and the current trick as lists of card ids, then their leaders). Responses are card ids: a
declaration (or `[]`) while dealing, the 8 buried cards at "cover", the cards played at "play".
The log may also come wrapped in an object holding it under "log" (with "players" names).

Card ids are 0–107; `id % 54` is 52 for the small joker, 53 for the big joker, else rank
`[A,2,…,10,J,Q,K][(id % 54) // 4]` and suit `[S,H,C,D][(id % 54) % 4]` for the 2024 judge or
`[H,D,S,C]` for the 2023 judge. The version is read off the declarations: a declaration shows
level cards of the suit it makes trump. When they cannot tell (no suited declaration), the 2024
reading is taken unless only the 2023 reading gives a deal that keeps the rules.
"""
from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from trainer.engine.cards import RANK_NAMES, Card, Suit
from trainer.engine.errors import JipaiError, MalformedError, shown
from trainer.engine.trump import parse_level
from trainer.json_input import read_json
from trainer.records import FORMAT, Position, parse_record, replay, state_at

JUDGES = ("2024", "2023")
"""The judge versions, the one preferred when a log cannot tell first."""
SUIT_ORDERS = {"2024": "SHCD", "2023": "HDSC"}
"""The suit of `(id % 54) % 4` under each judge version."""
_RANKS = (14, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13)
"""The rank of `(id % 54) // 4`: A, 2, …, 10, J, Q, K."""
HAND_SIZE = 25
KITTY_SIZE = 8
_MAJORS = {"s": "S", "h": "H", "c": "C", "d": "D", "n": "none"}
_NAME_KEYS = ("name", "nick", "nickname", "username", "user", "bot_name", "botName", "bot")


def card_of(card_id: int, judge: str) -> Card:
    """The card a Botzone id stands for under a judge version ("2023" or "2024").

    >>> [str(card_of(i, "2024")) for i in (0, 5, 39, 52, 107)], str(card_of(5, "2023"))
    (['AS', '2H', '10D', 'SJ', 'BJ'], '2D')
    """
    face = card_id % 54
    if face >= 52:
        return Card.parse("SJ" if face == 52 else "BJ")
    return Card(_RANKS[face // 4], Suit.parse(SUIT_ORDERS[judge][face % 4]))


@dataclass
class _Play:
    """One play response: the seat, the ids it sent and the ids the judge then showed as played."""

    seat: int
    ids: list[int]
    shown: list[int] | None = None


@dataclass
class _Declaration:
    seat: int
    ids: list[int]
    major: Any = None
    """`banking.major` in the first request after the declaration: the trump it set."""


@dataclass
class _Log:
    """What a match log shows, in Botzone ids, before any judge version is chosen."""

    dealt: list[list[int]] = field(default_factory=lambda: [[], [], [], []])
    declarations: list[_Declaration] = field(default_factory=list)
    cover_seat: int | None = None
    kitty: list[int] | None = None
    buried: list[int] | None = None
    plays: list[_Play] = field(default_factory=list)
    banking: dict[str, Any] | None = None
    level: Any = None
    stopped: str | None = None


def convert_log(data: object, *, judge: str | None = None) -> list[dict[str, Any]]:
    """Convert one Botzone Tractor match log (JSON-decoded) into validated `jipai-deal/1` records.

    `judge` ("2023" or "2024") forces a judge version instead of reading it off the log.
    Raises `ValueError` with a one-line message in words for anything that cannot be imported
    whole: a malformed log, a log that lacks all four hands, or a deal that breaks the
    `botzone` rules ("the log breaks the botzone rules: trick 3, seat 1: …").
    """
    if judge is not None and judge not in JUDGES:
        raise ValueError(f"unknown Botzone judge version {judge!r} (known: {', '.join(JUDGES)})")
    entries, wrapper = _unwrap(data)
    log = _read(entries)
    _check_deal(log)
    _check_turns(log.plays)
    base = _base_fields(log)
    players = _players(wrapper)
    match = next((wrapper[k] for k in ("_id", "id", "match") if isinstance(wrapper.get(k), str)), None)

    def build(version: str) -> dict[str, Any]:
        record = _record(log, version, base)
        if players:
            record["players"] = players
        record["source"] = {"kind": "botzone", "judge": version, **({"match": match} if match else {}),
                            **({"stopped": log.stopped} if log.stopped else {})}
        return record

    consistent = [judge] if judge else [version for version in JUDGES if _declarations_agree(log, version)]
    if len(consistent) == 1:
        record = build(consistent[0])
        problem = _problem(record)
        if problem is not None:
            raise ValueError(f"the log breaks the botzone rules: {problem}")
        return [record]
    problems = []
    for version in JUDGES:
        record = build(version)
        problem = _problem(record)
        if problem is None:
            return [record]
        problems.append(problem)
    raise ValueError(f"the log breaks the botzone rules: {problems[0]}")


# -- reading the log ---------------------------------------------------------------------------------


def _unwrap(data: object) -> tuple[list[Any], dict[str, Any]]:
    if isinstance(data, list):
        return data, {}
    if isinstance(data, dict) and isinstance(data.get("log"), list):
        return data["log"], data
    what = type(data).__name__ if not isinstance(data, dict) else "an object without a \"log\" list"
    raise ValueError("a Botzone match log must be a JSON list of judge and player entries, or an object "
                     f"holding that list under \"log\"; got {what}")


def _seat(key: object) -> int | None:
    if isinstance(key, str) and key.strip() in ("0", "1", "2", "3"):
        return int(key)
    return None


def _ids(value: object, where: str) -> list[int]:
    """A list of Botzone card ids, checked: integers 0–107."""
    if isinstance(value, str):
        text = value.strip()
        try:
            value = read_json(text) if text else []
        except json.JSONDecodeError:
            value = text.replace(",", " ").split()
            value = [int(v) if re.fullmatch(r"[0-9]{1,3}", v) else v for v in value]  # ASCII ids only
    if not isinstance(value, list):
        raise ValueError(f"{where}: expected a list of card ids, not {shown(value)}")
    for item in value:
        if isinstance(item, bool) or not isinstance(item, int) or not 0 <= item <= 107:
            raise ValueError(f"{where}: {shown(item)} is not a Botzone card id (an integer from 0 to 107)")
    return list(value)


def _read(entries: list[Any]) -> _Log:
    log = _Log()
    pending: dict[int, dict[str, Any]] = {}
    awaiting: list[_Declaration] = []
    last_play: _Play | None = None
    last_answer: tuple[int, str] | None = None
    for number, entry in enumerate(entries):
        if not isinstance(entry, dict):
            raise ValueError(f"log entry {number}: expected a JSON object, not {type(entry).__name__}")
        if "output" in entry:
            output = entry["output"]
            if not isinstance(output, dict):
                raise ValueError(f"log entry {number}: the judge's output is not an object")
            command = output.get("command")
            if command == "finish":
                _drop_rejected(log, output, last_answer)
                break
            if command != "request":
                continue
            content = output.get("content")
            if not isinstance(content, dict):
                raise ValueError(f"log entry {number}: a judge request without a \"content\" object")
            pending = {}
            for key, request in content.items():
                seat = _seat(key)
                if seat is None:
                    raise ValueError(f"log entry {number}: {key!r} is not a seat (0 to 3)")
                if not isinstance(request, dict):
                    raise ValueError(f"log entry {number}: the request to seat {seat} is not an object")
                pending[seat] = request
                banking = _note_global(log, request)
                if banking is not None and awaiting:
                    for declaration in awaiting:
                        declaration.major = banking.get("major")
                    awaiting = []
                if last_play is not None and last_play.shown is None:
                    last_play.shown = _shown(request, output, last_play)
                _take_request(log, request, seat, number)
            last_play = None
        else:
            for key, answer in entry.items():
                seat = _seat(key)
                if seat is None or seat not in pending:
                    continue
                request = pending.pop(seat)
                if not isinstance(answer, dict):
                    raise ValueError(f"log entry {number}: seat {seat}'s answer is not an object")
                verdict = answer.get("verdict", "OK")
                if verdict != "OK" or "response" not in answer:
                    log.stopped = f"seat {seat}: {verdict if verdict != 'OK' else 'no response'}"
                    return _finish_reading(log, awaiting)
                stage = request.get("stage")
                ids = _ids(answer["response"], f"log entry {number}, seat {seat}'s response")
                last_answer = (seat, stage)
                if stage == "deal":
                    if ids:
                        declaration = _Declaration(seat, ids)
                        log.declarations.append(declaration)
                        awaiting.append(declaration)
                elif stage == "cover":
                    log.buried = ids
                elif stage == "play":
                    last_play = _Play(seat, ids)
                    log.plays.append(last_play)
    return _finish_reading(log, awaiting)


def _finish_reading(log: _Log, awaiting: list[_Declaration]) -> _Log:
    for declaration in awaiting:
        declaration.major = (log.banking or {}).get("major")
    return log


def _note_global(log: _Log, request: dict[str, Any]) -> dict[str, Any] | None:
    """Keep the latest level and banking; return this request's banking, if any."""
    shared = request.get("global")
    if not isinstance(shared, dict):
        return None
    if "level" in shared:
        log.level = shared["level"]
    banking = shared.get("banking")
    if isinstance(banking, dict):
        log.banking = banking
        return banking
    return None


def _take_request(log: _Log, request: dict[str, Any], seat: int, number: int) -> None:
    stage = request.get("stage")
    where = f"log entry {number}, the cards delivered to seat {seat}"
    if stage == "deal":
        log.dealt[seat].extend(_ids(request.get("deliver", []), where))
    elif stage == "cover":
        log.cover_seat = seat
        log.kitty = _ids(request.get("deliver", []), where)
    elif stage != "play":
        raise ValueError(f"log entry {number}: unknown stage {stage!r} (expected deal, cover or play)")


def _shown(request: dict[str, Any], output: dict[str, Any], play: _Play) -> list[int] | None:
    """The cards the judge recorded for the play just made: the last play in `history`
    (the current trick, or the trick it completed), else the display's play event."""
    history = request.get("history")
    if isinstance(history, list) and len(history) >= 2:
        current, previous = history[1], history[0]
        for trick in (current, previous):
            if isinstance(trick, list) and trick:
                try:
                    return _ids(trick[-1], "history")
                except ValueError:
                    return None
    display = output.get("display")
    event = display.get("event") if isinstance(display, dict) else None
    if isinstance(event, dict) and event.get("action") == "play" and event.get("currplayer") in (play.seat, None):
        try:
            return _ids(event.get("poker"), "display")
        except ValueError:
            return None
    return None


def _drop_rejected(log: _Log, output: dict[str, Any], last_answer: tuple[int, str] | None) -> None:
    """A judge that finishes naming an error for the seat that answered last refused that answer."""
    display = output.get("display")
    errors = display.get("error") if isinstance(display, dict) else None
    if last_answer is None or errors is None:
        return
    seat, stage = last_answer
    reason = errors[seat] if isinstance(errors, list) and len(errors) > seat else (
        errors.get(str(seat)) if isinstance(errors, dict) else None)
    if not reason:
        return
    log.stopped = f"seat {seat}: {reason}"
    if stage == "play" and log.plays and log.plays[-1].seat == seat:
        log.plays.pop()
    elif stage == "deal" and log.declarations and log.declarations[-1].seat == seat:
        log.declarations.pop()
    elif stage == "cover":
        log.buried = None


# -- checks that do not depend on the judge version ---------------------------------------------------


def _check_deal(log: _Log) -> None:
    counts = [len(hand) for hand in log.dealt]
    if any(count < HAND_SIZE for count in counts):
        shown = ", ".join(f"seat {seat} {count}" for seat, count in enumerate(counts))
        raise ValueError(f"the log lacks all four hands: it deals {shown} cards "
                         f"(a full deal gives each seat {HAND_SIZE})")
    for seat, count in enumerate(counts):
        if count > HAND_SIZE:
            raise ValueError(f"the log deals seat {seat} {count} cards, more than a hand of {HAND_SIZE}")
    if log.kitty is None:
        raise ValueError("the log stops before the banker picks up the kitty")
    if len(log.kitty) != KITTY_SIZE:
        raise ValueError(f"the log's kitty has {len(log.kitty)} cards, not {KITTY_SIZE}")
    seen = Counter(i for hand in log.dealt for i in hand) + Counter(log.kitty)
    twice = sorted(i for i, n in seen.items() if n > 1)
    if twice:
        raise ValueError(f"the log deals card id {twice[0]} more than once")
    if log.buried is None:
        raise ValueError("the log stops before the banker buries the kitty")


def _check_turns(plays: list[_Play]) -> None:
    for index, play in enumerate(plays):
        if index % 4:
            due = (plays[index - index % 4].seat + index % 4) % 4
            if play.seat != due:
                raise ValueError(f"the log breaks the botzone rules: trick {index // 4 + 1}, seat {play.seat}: "
                                 f"plays out of turn (seat {due} was due)")


def _base_fields(log: _Log) -> dict[str, Any]:
    banking = log.banking or {}
    banker = banking.get("banker", log.cover_seat)
    if isinstance(banker, bool) or not isinstance(banker, int) or not 0 <= banker <= 3:
        raise ValueError(f"the log's banker (banking.banker) is {banker!r}, not a seat 0 to 3")
    if log.cover_seat is not None and banker != log.cover_seat:
        raise ValueError(f"the log names seat {banker} the banker but gives the kitty to seat {log.cover_seat}")
    major = banking.get("major")
    trump = _MAJORS.get(major.strip().lower()) if isinstance(major, str) else None
    if trump is None:
        raise ValueError(f"the log's trump suit (banking.major) is {major!r}, not one of s, h, c, d, n")
    return {"level": _level(log.level), "trump": trump, "banker": banker}


def _level(value: object) -> str:
    text = str(value).strip().upper() if isinstance(value, (str, int)) and not isinstance(value, bool) else ""
    text = {"0": "10", "1": "A"}.get(text, text)
    try:
        return RANK_NAMES[parse_level(text)]
    except MalformedError:
        raise ValueError(f"the log's level {value!r} is not a card rank (2 to 10, J, Q, K, A)") from None


def _players(wrapper: dict[str, Any]) -> list[str] | None:
    players = wrapper.get("players")
    if not isinstance(players, list) or len(players) != 4:
        return None
    names = []
    for player in players:
        name = player if isinstance(player, str) else None
        if isinstance(player, dict):
            for key in _NAME_KEYS:
                value = player.get(key)
                if isinstance(value, dict):
                    value = value.get("name")
                if isinstance(value, str) and value.strip():
                    name = value
                    break
        if not name:
            return None
        names.append(name)
    return names


# -- one judge version ---------------------------------------------------------------------------------


def _declarations_agree(log: _Log, judge: str) -> bool:
    """True when the log has a suited declaration and every one shows cards of the suit it made trump."""
    suits = SUIT_ORDERS[judge]
    suited = [d for d in log.declarations if any(i % 54 < 52 for i in d.ids)]
    return bool(suited) and all(
        isinstance(d.major, str) and all(i % 54 < 52 and suits[i % 54 % 4] == d.major.strip().upper() for i in d.ids)
        for d in suited)


def _record(log: _Log, judge: str, base: dict[str, Any]) -> dict[str, Any]:
    def cards(ids: list[int]) -> list[str]:
        return [str(card_of(i, judge)) for i in ids]

    tricks: list[dict[str, Any]] = []
    for index, play in enumerate(log.plays):
        if index % 4 == 0:
            trick: dict[str, Any] = {"leader": play.seat}
            shown = play.shown
            if shown is not None and Counter(i % 54 for i in shown) != Counter(i % 54 for i in play.ids):
                trick["attempt"] = cards(play.ids)
                trick["plays"] = [cards(shown)]
            else:
                trick["plays"] = [cards(play.ids)]
            tricks.append(trick)
        else:
            tricks[-1]["plays"].append(cards(play.ids))
    record: dict[str, Any] = {
        "format": FORMAT, "rules": "botzone", **base,
        "hands": [cards(hand) for hand in log.dealt], "kitty": cards(log.kitty or []),
        "buried": cards(log.buried or []),
    }
    if log.declarations:
        record["declarations"] = [{"seat": d.seat, "cards": cards(d.ids)} for d in log.declarations]
    record["tricks"] = tricks
    if len(log.plays) % 4 == 1 and log.plays[-1].shown is None:
        _settle_last_lead(record)
    return record


def _settle_last_lead(record: dict[str, Any]) -> None:
    """A log that stops right after a lead does not show what the judge made of it: a throw that
    fails is recorded as an attempt reduced to the play the rules force (records.md)."""
    trick = record["tricks"][-1]
    try:
        parsed = parse_record(record)
        state = state_at(parsed, Position(len(parsed.tricks), 0))
        result = state.lead(parsed.tricks[-1].plays[0])
    except ValueError:
        return  # the validation reports whatever is wrong
    if not result.ok:
        record["tricks"][-1] = {"leader": trick["leader"], "attempt": trick["plays"][0],
                                "plays": [[str(card) for card in result.forced]]}


def _problem(record: dict[str, Any]) -> str | None:
    """The record's own one-line complaint, or None when it keeps every rule."""
    try:
        replay(parse_record(record))
    except JipaiError as error:
        return str(error)
    return None


__all__ = ["JUDGES", "SUIT_ORDERS", "card_of", "convert_log"]
