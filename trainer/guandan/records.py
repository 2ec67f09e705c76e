"""掼蛋 deal records (`jipai-deal/1` with `"game": "guandan"`, guandan.md §6): parse, validate by replay,
write, and the `deal verify --json` summary.

A record is kept as the JSON object it came from (unknown fields survive a round trip); `GuandanRecord`
adds the parsed view and `replay` checks every rule, raising on the first problem with one line naming
round, action, seat and reason.
"""
from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from trainer.engine.cards import Card, full_deck
from trainer.engine.errors import IllegalPlayError, MalformedError, shown
from trainer.engine.seats import Seat
from trainer.guandan.level import Level, rank_text
from trainer.guandan.plays import Reading, readings
from trainer.guandan.rules import GuandanRules
from trainer.guandan.scoring import LevelResult, check_places, level_gain
from trainer.guandan.state import Action, HandState, RoundSummary
from trainer.guandan.tribute import TributePlan, return_problem, tribute_plan
from trainer.engine.trump import parse_level
from trainer.records import FORMAT, InvalidRecordError, _cards, known_id, record_envelope

GAME = "guandan"
HAND_SIZE = 27
TRIBUTE_KINDS = ("none", "single", "double", "resist")


@dataclass(frozen=True, slots=True)
class Exchange:
    """One 进贡 and its 还贡: `payer` gives `receiver` the `card`, which gives back `returned`."""

    payer: int
    receiver: int
    card: Card
    returned: Card

    def to_json(self) -> dict[str, Any]:
        """The record form `{"from", "to", "card", "returned"}`."""
        return {"from": self.payer, "to": self.receiver, "card": str(self.card), "returned": str(self.returned)}


@dataclass(frozen=True, slots=True)
class RecordedAction:
    """One recorded action: the seat, its cards (in the order laid) or "pass", and a declared reading."""

    seat: int
    action: Action
    declared: Reading | None = None


@dataclass(frozen=True, slots=True)
class RecordedRound:
    """One recorded round: its leader and its actions."""

    leader: int
    actions: tuple[RecordedAction, ...]


@dataclass(frozen=True, slots=True)
class GuandanRecord:
    """A parsed Guandan record; `data` is the JSON object itself, kept for round trips."""

    data: dict[str, Any]
    rules: GuandanRules
    levels: tuple[int, int]
    dajia: int | None
    level: Level
    a_failures: tuple[int, int]
    previous: tuple[int, ...] | None
    hands: tuple[tuple[Card, ...], ...]
    tribute_kind: str
    exchanges: tuple[Exchange, ...]
    leader: int
    rounds: tuple[RecordedRound, ...]
    places: tuple[int, ...] | None

    @property
    def id(self) -> str:
        """The record's `id`, or its content hash when it has none."""
        return known_id(self.data) or ""

    def playing_hands(self) -> list[list[Card]]:
        """The hands at the first lead: as dealt, with every 进贡 and 还贡 applied."""
        return with_exchanges(self.hands, self.exchanges)

    def to_json(self) -> dict[str, Any]:
        """The record as a JSON object: the original fields, cards in canonical text, order kept."""
        data = dict(self.data)
        data["hands"] = [[str(card) for card in hand] for hand in self.hands]
        if "tribute" in data:
            data["tribute"] = {**data["tribute"], "exchanges": [e.to_json() for e in self.exchanges]}
        data["rounds"] = [{**raw, "actions": [_action_json(a) for a in rnd.actions]}
                          for raw, rnd in zip(data["rounds"], self.rounds)]
        return data

    def dumps(self) -> str:
        """The record as JSON text (UTF-8, not ASCII-escaped)."""
        return json.dumps(self.to_json(), ensure_ascii=False, indent=1)


def with_exchanges(hands: Sequence[Sequence[Card]], exchanges: Sequence[Exchange]) -> list[list[Card]]:
    """The hands after the 进贡 and 还贡 moves (every tribute first, then every return)."""
    counts = [Counter(hand) for hand in hands]
    for exchange in exchanges:
        counts[exchange.payer][exchange.card] -= 1
        counts[exchange.receiver][exchange.card] += 1
    for exchange in exchanges:
        counts[exchange.receiver][exchange.returned] -= 1
        counts[exchange.payer][exchange.returned] += 1
    return [sorted(count.elements(), key=lambda card: card.index) for count in counts]


def _action_json(action: RecordedAction) -> list[Any]:
    if action.action == "pass":
        return [action.seat, "pass"]
    cards = [str(card) for card in action.action]
    if action.declared is None:
        return [action.seat, cards]
    return [action.seat, cards, {"as": action.declared.to_json()}]


def is_guandan(data: Any) -> bool:
    """True when a record object says `"game": "guandan"`."""
    return isinstance(data, dict) and data.get("game") == GAME


def _need(data: dict[str, Any], key: str, where: str = "") -> Any:
    if key not in data:
        raise InvalidRecordError(f"{where}missing field {key!r}")
    return data[key]


def _seat(value: Any, where: str) -> int:
    try:
        return int(Seat.parse(value))
    except MalformedError as error:
        raise InvalidRecordError(f"{where}: {error}") from None


def _rank(value: Any, where: str) -> int:
    if not isinstance(value, str):
        raise InvalidRecordError(f"{where}: a level is a rank string (2…10, J, Q, K, A), not {shown(value)}")
    try:
        return parse_level(value)
    except MalformedError as error:
        raise InvalidRecordError(f"{where}: {error}") from None


def _pair_of_counts(value: Any, where: str) -> tuple[int, int]:
    if not isinstance(value, list) or len(value) != 2 or any(type(v) is not int or v < 0 for v in value):
        raise InvalidRecordError(f"{where}: expected [team 0, team 1] counts ≥ 0, not {shown(value)}")
    return value[0], value[1]


def _places(value: Any, where: str) -> tuple[int, ...]:
    if not isinstance(value, list):
        raise InvalidRecordError(f"{where}: expected the finish order, a list of seats")
    try:
        return tuple(int(seat) for seat in check_places(value))
    except MalformedError as error:
        raise InvalidRecordError(f"{where}: {error}") from None


def _action(value: Any, where: str) -> RecordedAction:
    if not isinstance(value, list) or len(value) not in (2, 3):
        raise InvalidRecordError(f"{where}: an action is [seat, cards], [seat, cards, {{\"as\": reading}}] or "
                                 "[seat, \"pass\"]")
    seat = _seat(value[0], where)
    if value[1] == "pass":
        if len(value) == 3:
            raise InvalidRecordError(f"{where}: a pass has no reading")
        return RecordedAction(seat, "pass")
    cards = _cards(value[1], where)
    if not cards:
        raise InvalidRecordError(f"{where}: a play needs at least one card")
    if len(cards) > 2 and len(set(cards)) < len(cards) - 1:  # some face may be there three times
        card, copies = Counter(cards).most_common(1)[0]
        if copies > 2:
            raise InvalidRecordError(f"{where}: {copies} copies of {card}, two decks hold 2")
    declared = None
    if len(value) == 3:
        extra = value[2]
        if not isinstance(extra, dict) or set(extra) - {"as", "last"}:
            raise InvalidRecordError(f"{where}: the third element is {{\"as\": reading}}, not {shown(extra)}")
        if "as" in extra:
            try:
                declared = Reading.from_json(extra["as"], len(cards))
            except MalformedError as error:
                raise InvalidRecordError(f"{where}: {error}") from None
    return RecordedAction(seat, cards, declared)


def parse_guandan_record(data: Any) -> GuandanRecord:
    """Read a Guandan record object; structural problems raise `InvalidRecordError` naming the field."""
    rules_value = record_envelope(data, GAME)
    try:
        rules = GuandanRules.parse(rules_value)
    except MalformedError as error:
        raise InvalidRecordError(str(error)) from None
    levels_value = _need(data, "levels")
    if not isinstance(levels_value, list) or len(levels_value) != 2:
        raise InvalidRecordError("levels: expected [team 0's level, team 1's level]")
    levels = (_rank(levels_value[0], "levels"), _rank(levels_value[1], "levels"))
    dajia = _need(data, "dajia")
    if dajia is not None and dajia not in (0, 1) or type(dajia) is bool:
        raise InvalidRecordError(f"dajia: expected team 0, 1 or null, not {shown(dajia)}")
    level_rank = _rank(_need(data, "level"), "level")
    wanted = levels[dajia] if dajia is not None else 2
    if dajia is None and levels != (2, 2):
        raise InvalidRecordError("levels: a first hand (dajia null) is played with both teams at 2")
    if level_rank != wanted:
        raise InvalidRecordError(f"level: the hand is played at {rank_text(wanted)} "
                                 f"({'levels[dajia]' if dajia is not None else 'a first hand'}), "
                                 f"not {rank_text(level_rank)}")
    a_failures = _pair_of_counts(data.get("a_failures", [0, 0]), "a_failures")
    previous = None
    if data.get("previous") is not None:
        raw = data["previous"]
        if not isinstance(raw, dict):
            raise InvalidRecordError("previous: expected an object {\"places\"}")
        previous = _places(_need(raw, "places", "previous: "), "previous, places")
        if dajia != Seat(previous[0]).team:
            raise InvalidRecordError(f"dajia: the previous 上游 (seat {previous[0]}) makes team "
                                     f"{Seat(previous[0]).team} the 打家, the record says {shown(dajia)}")
    elif dajia is not None:
        raise InvalidRecordError("previous: a hand with a 打家 follows a previous hand; give its places")
    hands_value = _need(data, "hands")
    if not isinstance(hands_value, list) or len(hands_value) != 4:
        raise InvalidRecordError("hands: expected 4 hands in seat order")
    hands = tuple(_cards(hand, f"hands, seat {seat}") for seat, hand in enumerate(hands_value))
    kind, exchanges = _tribute(data.get("tribute"))
    leader = _seat(_need(data, "leader"), "leader")
    rounds_value = _need(data, "rounds")
    if not isinstance(rounds_value, list):
        raise InvalidRecordError("rounds: expected a list")
    rounds = []
    for number, raw in enumerate(rounds_value, start=1):
        if not isinstance(raw, dict):
            raise InvalidRecordError(f"round {number}: expected an object {{\"leader\", \"actions\"}}")
        round_leader = _seat(_need(raw, "leader", f"round {number}: "), f"round {number}, leader")
        actions_value = _need(raw, "actions", f"round {number}: ")
        if not isinstance(actions_value, list) or not actions_value:
            raise InvalidRecordError(f"round {number}: actions must be a list holding at least the lead")
        rounds.append(RecordedRound(round_leader, tuple(
            _action(action, f"round {number}, action {index}") for index, action in enumerate(actions_value, 1))))
    places = _places(data["places"], "places") if data.get("places") is not None else None
    return GuandanRecord(data, rules, levels, dajia, Level.parse(rank_text(level_rank)), a_failures, previous,
                         hands, kind, exchanges, leader, tuple(rounds), places)


def _tribute(value: Any) -> tuple[str, tuple[Exchange, ...]]:
    if value is None:
        return "none", ()
    if not isinstance(value, dict):
        raise InvalidRecordError("tribute: expected an object {\"kind\", \"exchanges\"}")
    kind = _need(value, "kind", "tribute: ")
    if kind not in TRIBUTE_KINDS:
        raise InvalidRecordError(f"tribute, kind: expected one of {', '.join(TRIBUTE_KINDS)}, not {shown(kind)}")
    raw = value.get("exchanges", [])
    if not isinstance(raw, list):
        raise InvalidRecordError("tribute, exchanges: expected a list")
    exchanges = []
    for number, item in enumerate(raw, start=1):
        where = f"tribute, exchange {number}"
        if not isinstance(item, dict):
            raise InvalidRecordError(f"{where}: expected an object {{\"from\", \"to\", \"card\", \"returned\"}}")
        exchanges.append(Exchange(_seat(_need(item, "from", f"{where}: "), f"{where}, from"),
                                  _seat(_need(item, "to", f"{where}: "), f"{where}, to"),
                                  _cards([_need(item, "card", f"{where}: ")], f"{where}, card")[0],
                                  _cards([_need(item, "returned", f"{where}: ")], f"{where}, returned")[0]))
    return kind, tuple(exchanges)


@dataclass(frozen=True, slots=True)
class GuandanReplay:
    """A validated Guandan record replayed: the tribute plan, the state at its end, complete or not, and
    the level result once the hand is over."""

    record: GuandanRecord
    plan: TributePlan
    state: HandState
    complete: bool
    result: LevelResult | None


def _check_cards(record: GuandanRecord) -> None:
    for seat, hand in enumerate(record.hands):
        if len(hand) != HAND_SIZE:
            raise InvalidRecordError(f"hands: seat {seat} has {len(hand)} cards, the deal gives {HAND_SIZE}")
    dealt: Counter[Card] = Counter()
    for hand in record.hands:
        dealt.update(hand)
    expected = Counter(full_deck(2))
    if dealt != expected:
        extra, missing = dealt - expected, expected - dealt
        card = next(iter(extra or missing))
        what = "too many" if extra else "missing"
        raise InvalidRecordError(f"hands: {what} {card.pretty} ({dealt[card]} dealt, two decks have {expected[card]})")


def check_tribute(record: GuandanRecord) -> TributePlan:
    """The §4.2 plan for the record's deal, checked against its `tribute` and `leader` (§6 validation)."""
    level, rules = record.level, record.rules
    try:
        plan = tribute_plan(record.previous, record.hands, level)
    except MalformedError as error:
        raise InvalidRecordError(f"tribute: {error}") from None
    if record.tribute_kind != plan.kind:
        raise InvalidRecordError(f"tribute, kind: §4.2 gives {plan.kind}, the record says {record.tribute_kind}")
    if len(record.exchanges) != len(plan.tributes):
        raise InvalidRecordError(f"tribute, exchanges: {plan.kind} has {len(plan.tributes)}, the record gives "
                                 f"{len(record.exchanges)}")
    received = [list(hand) for hand in record.hands]
    for number, (exchange, due) in enumerate(zip(record.exchanges, plan.tributes), start=1):
        where = f"tribute, exchange {number}"
        if (exchange.payer, exchange.receiver) != (due.payer, due.receiver):
            raise InvalidRecordError(f"{where}: seat {due.payer} pays seat {due.receiver}, the record says seat "
                                     f"{exchange.payer} to seat {exchange.receiver}")
        if exchange.card not in due.cards:
            raise InvalidRecordError(f"{where}: seat {due.payer} must pay a {rank_text(due.rank)} (its highest, "
                                     f"not a wild; holds {' '.join(map(str, due.cards))}), not {exchange.card}")
        received[due.payer].remove(exchange.card)
        received[due.receiver].append(exchange.card)
    for number, exchange in enumerate(record.exchanges, start=1):
        problem = return_problem(received[exchange.receiver], exchange.returned, level, rules)
        if problem is not None:
            raise InvalidRecordError(f"tribute, exchange {number}: seat {exchange.receiver} {problem}")
    if record.previous is not None and record.leader != plan.leader:
        raise InvalidRecordError(f"leader: §4.3 gives seat {plan.leader} after a {plan.kind} tribute, the record "
                                 f"says {record.leader}")
    return plan


def _located(round_no: int, action: int, seat: int, reason: str) -> IllegalPlayError:
    error = IllegalPlayError(reason, seat=seat)
    error.args = (f"round {round_no}, action {action}, seat {seat}: {reason}",)
    return error


def replay(record: GuandanRecord) -> GuandanReplay:
    """Validate every rule of the record (guandan.md §6) and replay it; the first problem raises
    `InvalidRecordError` or `IllegalPlayError` with one line naming where and why."""
    _check_cards(record)
    plan = check_tribute(record)
    state = HandState.start(record.rules, record.level, record.playing_hands(), record.leader, keep_undo=False)
    last = len(record.rounds)
    for number, rnd in enumerate(record.rounds, start=1):
        if state.over:
            raise InvalidRecordError(f"round {number}: the hand is over after round {number - 1}")
        if rnd.leader != state.leader:
            why = "the first leader" if number == 1 else \
                "接风" if state.rounds[-1].jiefeng else "the owner of the last top"
            raise InvalidRecordError(f"round {number}: leader must be seat {state.leader} ({why}), the record says "
                                     f"{rnd.leader}")
        for index, action in enumerate(rnd.actions, start=1):
            if state.over:
                raise _located(number, index, action.seat, "the hand is over")
            if state.round_no != number:
                raise _located(number, index, action.seat,
                               f"the round is over (every other seat passed seat {state.rounds[-1].winner}'s top)")
            try:
                state.act(action.seat, action.action, action.declared)
            except IllegalPlayError as error:
                raise _located(number, index, action.seat, str(error)) from None
        if number < last and state.round_no == number and not state.over:
            raise InvalidRecordError(f"round {number}: the round is not over after its {len(rnd.actions)} actions "
                                     "(only the last round may stop early)")
    if record.places is not None:
        if not state.over:
            raise InvalidRecordError("places: the hand is not over, so it has no places yet")
        if state.places != record.places:
            raise InvalidRecordError(f"places: the hand gives {list(state.places)}, the record says "
                                     f"{list(record.places)}")
    result = level_gain(state.places, record.levels, record.dajia, record.a_failures, record.rules) \
        if state.over else None
    return GuandanReplay(record, plan, state, state.over, result)


def result_json(result: LevelResult) -> dict[str, Any]:
    """The `level_gain` answer (guandan.md §10) of a level result."""
    return {"winner": result.winner, "kind": result.kind, "gain": result.gain,
            "levels": [rank_text(level) for level in result.levels], "a_failures": list(result.a_failures),
            "a_result": result.a_result, "match_over": result.match_over,
            "next_level": None if result.next_level is None else rank_text(result.next_level),
            "next_dajia": result.next_dajia}


def _round_json(summary: RoundSummary) -> dict[str, Any]:
    return {"leader": summary.leader, "winner": summary.winner, "actions": len(summary.steps),
            "partial": summary.partial, "jiefeng": summary.jiefeng}


def verify_summary(rep: GuandanReplay) -> dict[str, Any]:
    """The `deal verify --json` object of a replayed record (guandan.md §6)."""
    state = rep.state
    rounds = [_round_json(summary) for summary in state.rounds]
    current = state.current_round()
    if current is not None:
        rounds.append(_round_json(current))
    return {"id": rep.record.id, "game": GAME, "complete": rep.complete, "level": str(rep.record.level),
            "tribute": {"kind": rep.plan.kind, "exchanges": [e.to_json() for e in rep.record.exchanges],
                        "leader": rep.record.leader},
            "rounds": rounds, "places": list(state.places),
            "result": None if rep.result is None else result_json(rep.result)}


def write_record(rules: GuandanRules, levels: tuple[int, int], dajia: int | None, hands: Sequence[Sequence[Card]],
                 state: HandState, *, previous: Sequence[int] | None = None, a_failures: tuple[int, int] = (0, 0),
                 tribute_kind: str = "none", exchanges: Sequence[Exchange] = (),
                 extra: dict[str, Any] | None = None) -> dict[str, Any]:
    """The record object of a hand dealt `hands` and played as `state` holds it; `as` is stored for every
    play whose cards have more than one reading (§6)."""
    rounds = list(state.rounds)
    current = state.current_round()
    if current is not None:
        rounds.append(current)
    data: dict[str, Any] = {"format": FORMAT, "game": GAME, "rules": rules.to_json(),
                            "levels": [rank_text(level) for level in levels], "dajia": dajia,
                            "level": str(state.level)}
    if a_failures != (0, 0):
        data["a_failures"] = list(a_failures)
    if previous is not None:
        data["previous"] = {"places": list(previous)}
    data["hands"] = [[str(card) for card in hand] for hand in hands]
    if previous is not None:
        data["tribute"] = {"kind": tribute_kind, "exchanges": [e.to_json() for e in exchanges]}
    data["leader"] = rounds[0].leader if rounds else state.leader
    data["rounds"] = [{"leader": summary.leader, "actions": [_step_json(step, state.level) for step in summary.steps]}
                      for summary in rounds]
    if state.over:
        data["places"] = list(state.places)
    data.update(extra or {})
    return data


def _step_json(step: Any, level: Level) -> list[Any]:
    if step.action == "pass":
        return [step.seat, "pass"]
    cards = [str(card) for card in step.action]
    if len(readings(step.action, level)) > 1:
        return [step.seat, cards, {"as": step.reading.to_json()}]
    return [step.seat, cards]


_POSITION = re.compile(r"([0-9]{1,9})\.([0-9]{1,9})", re.ASCII)
_COUNT = re.compile(r"#([0-9]{1,9})", re.ASCII)


@dataclass(frozen=True, slots=True)
class Position:
    """A moment in a Guandan deal (§6): after `actions` actions of the hand; `R.K`, `#n`, `0.0` or `end`."""

    actions: int
    text: str

    @classmethod
    def parse(cls, text: str, record: GuandanRecord) -> Position:
        """Read `R.K` (after K actions of round R), `#n`, `0.0` (= `1.0`) or `end`, checked against the record."""
        lengths = [len(rnd.actions) for rnd in record.rounds]
        total = sum(lengths)
        if text == "end":
            return cls(total, text)
        found = _COUNT.fullmatch(text)
        if found is not None:
            if int(found[1]) > total:
                raise MalformedError(f"position {text!r}: the deal has {total} actions")
            return cls(int(found[1]), text)
        found = _POSITION.fullmatch(text)
        if found is None:
            raise MalformedError(f"position must be R.K (like 4.2), #n or end, not {shown(text)}")
        number, within = int(found[1]), int(found[2])
        if (number, within) == (0, 0):
            return cls(0, text)
        if not 1 <= number <= max(len(lengths), 1):
            raise MalformedError(f"position {text!r}: the deal has {len(lengths)} rounds")
        recorded = lengths[number - 1] if lengths else 0
        if within > recorded:
            raise MalformedError(f"position {text!r}: round {number} has {recorded} actions recorded")
        return cls(sum(lengths[:number - 1]) + within, text)

    def __str__(self) -> str:
        return self.text


def recorded_actions(record: GuandanRecord) -> list[tuple[int, int, RecordedAction]]:
    """Every action as (round number, index within the round from 1, action), in order."""
    return [(number, index, action) for number, rnd in enumerate(record.rounds, start=1)
            for index, action in enumerate(rnd.actions, start=1)]


def state_at(record: GuandanRecord, position: Position) -> HandState:
    """The hand in play at `position` (the record is assumed valid: run `replay` first)."""
    state = HandState.start(record.rules, record.level, record.playing_hands(), record.leader, keep_undo=False)
    for _, _, action in recorded_actions(record)[:position.actions]:
        state.act(action.seat, action.action, action.declared)
    return state
