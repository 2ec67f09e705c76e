"""The `jipai-deal/1` record: parse, write, validate, identify, and positions inside a deal (records.md).

A record is kept as the JSON object it came from (unknown fields and the order of cards inside
every play survive a round trip); `DealRecord` adds the parsed view and `replay` checks every rule.
"""
from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from trainer.engine.cards import Card, full_deck, parse_cards, pretty_cards
from trainer.engine.combos import face_counts
from trainer.engine.errors import IllegalPlayError, JipaiError, MalformedError, shown
from trainer.engine.round import RoundResult, RoundState
from trainer.engine.rules import Rules
from trainer.engine.seats import Seat
from trainer.engine.trump import TrumpContext, parse_level, parse_trump
from trainer.json_input import JSONInputError, read_json

FORMAT = "jipai-deal/1"
_CANONICAL = {str(card): card for card in full_deck(1)}


class InvalidRecordError(JipaiError):
    """A record that breaks the format or the rules; the message is one line naming where."""


def record_id(data: dict[str, Any]) -> str:
    """The content hash: first 16 hex digits of SHA-256 over the record without `id` (records.md)."""
    body = {key: value for key, value in data.items() if key != "id"}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def known_id(data: Any) -> str | None:
    """A record's id as far as it can be told: its `id` string, else the content hash of a JSON object."""
    if not isinstance(data, dict):
        return None
    given = data.get("id")
    return given if isinstance(given, str) and given else record_id(data)


@dataclass(frozen=True, slots=True)
class RecordedTrick:
    """One trick as recorded: leader, plays in seat order from the leader, a failed throw's attempt."""

    leader: int
    plays: tuple[tuple[Card, ...], ...]
    attempt: tuple[Card, ...] | None


@dataclass(frozen=True, slots=True)
class DealRecord:
    """A parsed `jipai-deal/1` record; `data` is the JSON object itself, kept for round trips."""

    data: dict[str, Any]
    rules: Rules
    ctx: TrumpContext
    banker: int
    hands: tuple[tuple[Card, ...], ...]
    kitty: tuple[Card, ...]
    buried: tuple[Card, ...]
    tricks: tuple[RecordedTrick, ...]
    declarations: tuple[tuple[int, tuple[Card, ...]], ...] = ()

    @property
    def id(self) -> str:
        """The record's `id`, or its content hash when it has none."""
        return known_id(self.data) or ""

    def playing_hands(self) -> list[list[Card]]:
        """The hands at the first lead: as dealt, the banker's plus the kitty minus the buried cards."""
        hands = [list(hand) for hand in self.hands]
        banker = Counter(hands[self.banker])
        banker.update(self.kitty)
        banker.subtract(self.buried)
        hands[self.banker] = list(banker.elements())
        return hands

    def to_json(self) -> dict[str, Any]:
        """The record as a JSON object: the original fields, cards in canonical text, order kept."""
        data = dict(self.data)
        data["hands"] = [[str(c) for c in hand] for hand in self.hands]
        data["kitty"] = [str(c) for c in self.kitty]
        data["buried"] = [str(c) for c in self.buried]
        tricks = []
        for raw, trick in zip(self.data.get("tricks", []), self.tricks):
            out = dict(raw)
            out["plays"] = [[str(c) for c in play] for play in trick.plays]
            if trick.attempt is not None:
                out["attempt"] = [str(c) for c in trick.attempt]
            tricks.append(out)
        data["tricks"] = tricks
        declarations = data.get("declarations")
        if isinstance(declarations, list):
            data["declarations"] = [dict(d, cards=[str(c) for c in parse_cards(d["cards"])]) for d in declarations]
        return data

    def dumps(self) -> str:
        """The record as JSON text (UTF-8, not ASCII-escaped)."""
        return json.dumps(self.to_json(), ensure_ascii=False, indent=1)


def _need(data: dict[str, Any], key: str) -> Any:
    if key not in data:
        raise InvalidRecordError(f"missing field {key!r}")
    return data[key]


def _cards(value: Any, where: str) -> tuple[Card, ...]:
    if type(value) is list:
        try:
            return tuple(map(_CANONICAL.__getitem__, value))
        except (KeyError, TypeError):
            pass
    if isinstance(value, str):
        value = value.split()
    if not isinstance(value, list):
        raise InvalidRecordError(f"{where}: expected a list of cards")
    try:
        return tuple(parse_cards(value))
    except MalformedError as error:
        raise InvalidRecordError(f"{where}: {error}") from None


def _canonical_plays(plays: list[Any]) -> tuple[tuple[Card, ...], ...] | None:
    """The plays when every one is a list of canonical card names (the common case, read without
    building error context), else None."""
    if not all(type(play) is list for play in plays):
        return None
    canonical = _CANONICAL.__getitem__
    try:
        return tuple([tuple(map(canonical, play)) for play in plays])
    except (KeyError, TypeError):
        return None


def record_envelope(data: Any, game: str) -> Any:
    """Check what every record shares (an object, the format tag, `game`, `id`) and return its `rules`
    value (a preset name or an object); problems raise `InvalidRecordError` naming the field."""
    if not isinstance(data, dict):
        raise InvalidRecordError("a deal record must be a JSON object")
    if data.get("format") != FORMAT:
        raise InvalidRecordError(f"format must be {FORMAT!r}, not {shown(data.get('format'))}")
    if data.get("game", "shengji") != game:
        raise InvalidRecordError(f"game {shown(data.get('game', 'shengji'))}: this reads {game} records")
    if "id" in data and (not isinstance(data["id"], str) or not data["id"]):
        raise InvalidRecordError(f"id: expected a non-empty string, not {shown(data['id'])}")
    rules_value = _need(data, "rules")
    if not isinstance(rules_value, (str, dict)):
        raise InvalidRecordError(f"rules: expected a preset name or an object, not {shown(rules_value)}")
    return rules_value


def parse_record(data: Any) -> DealRecord:
    """Read a record object; structural problems raise `InvalidRecordError` naming the field."""
    rules_value = record_envelope(data, "shengji")
    try:
        rules = Rules.parse(rules_value)
        ctx = TrumpContext.shared(parse_level(_need(data, "level")), parse_trump(_need(data, "trump")), rules)
        banker = int(Seat.parse(_need(data, "banker")))
    except MalformedError as error:
        raise InvalidRecordError(str(error)) from None
    hands_value = _need(data, "hands")
    if not isinstance(hands_value, list) or len(hands_value) != 4:
        raise InvalidRecordError("hands: expected four hands in seat order")
    hands = tuple(_cards(hand, f"hands, seat {seat}") for seat, hand in enumerate(hands_value))
    kitty = _cards(_need(data, "kitty"), "kitty")
    buried = _cards(_need(data, "buried"), "buried")
    tricks_value = _need(data, "tricks")
    if not isinstance(tricks_value, list):
        raise InvalidRecordError("tricks: expected a list")
    tricks = []
    for number, raw in enumerate(tricks_value, start=1):
        if not isinstance(raw, dict):
            raise InvalidRecordError(f"trick {number}: expected an object")
        try:
            leader = int(Seat.parse(_need(raw, "leader")))
        except (MalformedError, InvalidRecordError) as error:
            raise InvalidRecordError(f"trick {number}: {error}") from None
        plays_value = raw.get("plays")
        if not isinstance(plays_value, list) or not 1 <= len(plays_value) <= 4:
            raise InvalidRecordError(f"trick {number}: plays must be a list of 1 to 4 plays")
        plays = _canonical_plays(plays_value) or tuple(
            _cards(play, f"trick {number}, seat {(leader + i) % 4}") for i, play in enumerate(plays_value))
        attempt = _cards(raw["attempt"], f"trick {number}, seat {leader}, attempt") if "attempt" in raw else None
        tricks.append(RecordedTrick(leader, plays, attempt))
    declarations = data.get("declarations", [])
    if not isinstance(declarations, list) or any(
            not isinstance(d, dict) or "cards" not in d or "seat" not in d for d in declarations):
        raise InvalidRecordError("declarations: expected a list of {\"seat\", \"cards\"} objects")
    declared = []
    for number, declaration in enumerate(declarations, start=1):
        declared_cards = _cards(declaration["cards"], f"declaration {number}")
        try:
            declared.append((int(Seat.parse(declaration["seat"])), declared_cards))
        except MalformedError as error:
            raise InvalidRecordError(f"declaration {number}: {error}") from None
    return DealRecord(data, rules, ctx, banker, hands, kitty, buried, tuple(tricks), tuple(declared))


def read_record_file(path: str | Path) -> Any:
    """A record file's JSON (not yet checked as a record); `OSError` when it cannot be read,
    `InvalidRecordError` when it is not UTF-8 JSON within `read_json`'s limits."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise InvalidRecordError("the file is not UTF-8 text") from None
    try:
        return read_json(text)
    except JSONInputError as error:
        raise InvalidRecordError(str(error)) from None


def load_record(path: str | Path) -> DealRecord:
    """Read and parse a record file."""
    return parse_record(read_record_file(path))


@dataclass(frozen=True, slots=True)
class TrickSummary:
    """A replayed trick: who led and won (so far, when partial), points, a failed throw."""

    leader: int
    winner: int
    points: int
    failed_throw: bool
    partial: bool
    penalty: int


@dataclass(frozen=True, slots=True)
class Replay:
    """A validated record replayed to its end: the final state and what each trick did."""

    record: DealRecord
    state: RoundState
    tricks: tuple[TrickSummary, ...]
    complete: bool
    result: RoundResult | None


@lru_cache(maxsize=4)
def _full_decks(decks: int) -> Counter[Card]:
    """Copies of every face in `decks` decks (shared: never change it)."""
    return Counter(full_deck(decks))


def _check_cards(record: DealRecord) -> None:
    rules = record.rules
    for seat, hand in enumerate(record.hands):
        if len(hand) != rules.hand_size:
            raise InvalidRecordError(f"hands: seat {seat} has {len(hand)} cards, the rules deal {rules.hand_size}")
    if len(record.kitty) != rules.kitty_size:
        raise InvalidRecordError(f"kitty: has {len(record.kitty)} cards, the rules make it {rules.kitty_size}")
    dealt = Counter(record.kitty)
    for hand in record.hands:
        dealt.update(hand)
    expected = _full_decks(rules.decks)
    if dealt.items() != expected.items():  # as plain dicts (neither holds a zero): Counter's == loops in Python
        extra = dealt - expected
        missing = expected - dealt
        card = next(iter(extra or missing))
        what = "too many" if extra else "missing"
        raise InvalidRecordError(
            f"hands and kitty: {what} {card.pretty} ({dealt[card]} dealt, {rules.decks} decks have {expected[card]})")
    if len(record.buried) != rules.kitty_size:
        raise InvalidRecordError(f"buried: has {len(record.buried)} cards, must be {rules.kitty_size}")
    for number, (seat, declared_cards) in enumerate(record.declarations, start=1):
        dealt_to = Counter(record.hands[seat])
        for card, copies in Counter(declared_cards).items():
            if dealt_to[card] < copies:
                raise InvalidRecordError(f"declaration {number}: seat {seat} was not dealt {card.pretty}")
    pool = Counter(record.hands[record.banker])
    pool.update(record.kitty)
    for card, copies in Counter(record.buried).items():
        if pool[card] < copies:
            raise InvalidRecordError(f"buried: {card.pretty} is not in the banker's hand plus kitty")


def replay(record: DealRecord) -> Replay:
    """Validate every rule of the record (records.md) and replay it; the first problem raises
    `InvalidRecordError` or `IllegalPlayError` with one line naming trick, seat and reason."""
    _check_cards(record)
    state = RoundState.start(record.rules, record.ctx, record.banker, record.playing_hands(), record.buried)
    summaries = []
    last = len(record.tricks)
    for number, trick in enumerate(record.tricks, start=1):
        expected_leader = state.next_leader
        if trick.leader != expected_leader:
            why = "the banker leads first" if number == 1 else f"seat {expected_leader} won trick {number - 1}"
            raise IllegalPlayError(f"leader must be seat {expected_leader} ({why}), the record says {trick.leader}",
                                   trick=number, seat=trick.leader)
        if len(trick.plays) < 4 and number != last:
            raise InvalidRecordError(f"trick {number}: only the last trick may be unfinished")
        _play_lead(state, trick, number)
        for index, play in enumerate(trick.plays[1:], start=1):
            try:
                state.follow(play)
            except IllegalPlayError as error:
                raise IllegalPlayError(error.reason, trick=number, seat=(trick.leader + index) % 4) from None
        played = state.tricks[-1]
        summaries.append(TrickSummary(trick.leader, played.winning or 0, played.points, trick.attempt is not None,
                                      len(trick.plays) < 4, played.penalty))
    complete = state.is_over
    return Replay(record, state, tuple(summaries), complete, state.result() if complete else None)


def _play_lead(state: RoundState, trick: RecordedTrick, number: int) -> None:
    leader = trick.leader
    first = trick.plays[0]
    try:
        result = state.lead(trick.attempt if trick.attempt is not None else first)
    except IllegalPlayError as error:
        raise IllegalPlayError(error.reason, trick=number, seat=leader) from None
    if trick.attempt is not None:
        if result.ok:
            raise IllegalPlayError(f"the throw {pretty_cards(trick.attempt)} stands (no other seat can beat it), "
                                   "but the record marks it failed", trick=number, seat=leader)
        if face_counts(result.forced) != face_counts(first):
            raise IllegalPlayError(f"the failed throw {pretty_cards(trick.attempt)} must be reduced to "
                                   f"{pretty_cards(result.forced)}, but the record plays {pretty_cards(first)}",
                                   trick=number, seat=leader)
    elif not result.ok:
        beaten = ", ".join(pretty_cards(unit.cards()) for unit in result.beaten)
        raise IllegalPlayError(f"the throw {pretty_cards(first)} fails (another seat beats {beaten}); "
                               f"it must be recorded as an attempt reduced to {pretty_cards(result.forced)}",
                               trick=number, seat=leader)


_POSITION = re.compile(r"([0-9]{1,9})\.([0-9]{1,9})", re.ASCII)


@dataclass(frozen=True, slots=True)
class Position:
    """A moment in a deal: after `plays` plays of trick `trick` (records.md `T.K`), or the end."""

    trick: int
    plays: int
    is_end: bool = False

    @classmethod
    def parse(cls, text: str, record: DealRecord) -> Position:
        """Read exactly `T.K` (ASCII digits), `0.0` or `end`, checked against the record's tricks."""
        tricks = record.tricks
        if text == "end":
            if not tricks:
                return cls(1, 0, True)
            return cls(len(tricks), len(tricks[-1].plays), True)
        found = _POSITION.fullmatch(text)
        if found is None:
            raise MalformedError(f"position must be T.K (like 7.2) or end, not {shown(text)}")
        trick, plays = int(found[1]), int(found[2])
        if (trick, plays) == (0, 0):
            return cls(1, 0)
        if not 1 <= trick <= max(len(tricks), 1):
            raise MalformedError(f"position {text!r}: the deal has {len(tricks)} tricks")
        recorded = len(tricks[trick - 1].plays) if tricks else 0
        if plays > recorded:
            raise MalformedError(f"position {text!r}: trick {trick} has {recorded} plays recorded")
        return cls(trick, plays)

    def plays_before(self, record: DealRecord) -> int:
        """How many plays of the whole deal happen before this position."""
        return sum(len(t.plays) for t in record.tricks[:self.trick - 1]) + self.plays

    def __str__(self) -> str:
        return "end" if self.is_end else f"{self.trick}.{self.plays}"


def verify_summary(rep: Replay) -> dict[str, Any]:
    """The `deal verify --json` object of records.md."""
    state = rep.state
    result = rep.result
    return {
        "id": rep.record.id,
        "complete": rep.complete,
        "tricks": [{"leader": t.leader, "winner": t.winner, "points": t.points, "failed_throw": t.failed_throw,
                    "partial": t.partial} for t in rep.tricks],
        "attackers_points": state.attackers_points,
        "penalties": state.penalties,
        "kitty_points": sum(card.points for card in rep.record.buried),
        "kitty_multiplier": result.kitty_multiplier if result else None,
        "attackers_score": result.attackers_score if result else None,
        "result": ({"side": result.side, "levels": result.levels, "next_banker": result.next_banker}
                   if result else None),
    }


def plays_in_order(record: DealRecord) -> Sequence[tuple[int, int, tuple[Card, ...]]]:
    """Every recorded play as (trick number, seat, cards), in the order they were made."""
    return [(number, (trick.leader + i) % 4, play)
            for number, trick in enumerate(record.tricks, start=1) for i, play in enumerate(trick.plays)]


def state_at(record: DealRecord, position: Position) -> RoundState:
    """The hand in play at `position` (the record is assumed valid: run `replay` first)."""
    state = RoundState.start(record.rules, record.ctx, record.banker, record.playing_hands(), record.buried)
    remaining = position.plays_before(record)
    for trick in record.tricks:
        for index, play in enumerate(trick.plays):
            if remaining == 0:
                return state
            if index == 0:
                state.lead(trick.attempt if trick.attempt is not None else play)
            else:
                state.follow(play)
            remaining -= 1
    return state
