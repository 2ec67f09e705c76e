"""Gouji deal records (`jipai-deal/1` with `"game": "gouji"`, gouji.md §5): parse, validate by replay,
positions `R.K` / `#n` / `end`, the `deal verify --json` summary and a readable `deal show`.

A record is kept as the JSON object it came from; `GoujiRecord` adds the parsed view and `replay`
checks every rule, raising on the first problem with one line naming round, action, seat and reason.
"""
from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass
from typing import Any

from trainer.engine.cards import Card, full_deck, pretty_cards
from trainer.engine.errors import IllegalPlayError, MalformedError, shown
from trainer.gouji.deal import buy_threes, value_counts, with_exchanges
from trainer.gouji.plays import THREE, VALUE_NAMES, VALUE_OF
from trainer.gouji.rules import GoujiRules
from trainer.gouji.scoring import hand_result
from trainer.gouji.state import Action, HandState
from trainer.records import InvalidRecordError, _cards, known_id, record_envelope

GAME = "gouji"


@dataclass(frozen=True, slots=True)
class RecordedExchange:
    """One recorded 买3 move: `seller` gives the 3 `card` to `buyer`, who pays `paid` (a card or None)."""

    seller: int
    buyer: int
    card: Card
    paid: Card | None


@dataclass(frozen=True, slots=True)
class RecordedRound:
    """One recorded round: its leader and its actions as (seat, cards or "pass"/"yield")."""

    leader: int
    actions: tuple[tuple[int, Action], ...]


@dataclass(frozen=True, slots=True)
class GoujiRecord:
    """A parsed Gouji record; `data` is the JSON object itself, kept for round trips."""

    data: dict[str, Any]
    rules: GoujiRules
    hands: tuple[tuple[Card, ...], ...]
    exchanges: tuple[RecordedExchange, ...]
    shangban: tuple[tuple[int, tuple[Card, ...]], ...]
    previous: tuple[int, tuple[int, ...]] | None
    leader: int
    rounds: tuple[RecordedRound, ...]
    places: tuple[int, ...] | None

    @property
    def id(self) -> str:
        """The record's `id`, or its content hash when it has none."""
        return known_id(self.data) or ""

    def playing_hands(self) -> list[list[Card]]:
        """The hands at the first lead: as dealt, with the 买3 moves applied."""
        return with_exchanges(self.hands, [(e.seller, e.buyer, e.card, e.paid) for e in self.exchanges])

    def actions(self) -> list[tuple[int, int, Action]]:
        """Every action as (round number, seat, action), in order."""
        return [(number, seat, action) for number, rnd in enumerate(self.rounds, start=1)
                for seat, action in rnd.actions]


def is_gouji(data: Any) -> bool:
    """True when a record object says `"game": "gouji"`."""
    return isinstance(data, dict) and data.get("game") == GAME


def _need(data: dict[str, Any], key: str, where: str = "") -> Any:
    if key not in data:
        raise InvalidRecordError(f"{where}missing field {key!r}")
    return data[key]


def _seat(value: Any, rules: GoujiRules, where: str) -> int:
    if type(value) is int and 0 <= value < rules.players:
        return value
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 2 and \
            str(int(value)) == value and int(value) < rules.players:
        return int(value)
    raise InvalidRecordError(f"{where}: a seat is a number from 0 to {rules.players - 1}, not {shown(value)}")


def _action(value: Any, rules: GoujiRules, where: str) -> tuple[int, Action]:
    if not isinstance(value, list) or len(value) != 2:
        raise InvalidRecordError(f"{where}: an action is [seat, cards], [seat, \"pass\"] or [seat, \"yield\"]")
    seat = _seat(value[0], rules, where)
    if value[1] in ("pass", "yield"):
        return seat, value[1]
    cards = _cards(value[1], where)
    if not cards:
        raise InvalidRecordError(f"{where}: a play needs at least one card")
    return seat, cards


def parse_gouji_record(data: Any) -> GoujiRecord:
    """Read a Gouji record object; structural problems raise `InvalidRecordError` naming the field."""
    rules_value = record_envelope(data, GAME)
    try:
        rules = GoujiRules.parse(rules_value)
    except MalformedError as error:
        raise InvalidRecordError(str(error)) from None
    n = rules.players
    hands_value = _need(data, "hands")
    if not isinstance(hands_value, list) or len(hands_value) != n:
        raise InvalidRecordError(f"hands: expected {n} hands in seat order")
    hands = tuple(_cards(hand, f"hands, seat {seat}") for seat, hand in enumerate(hands_value))
    exchanges = []
    exchanges_value = data.get("exchanges", [])
    if not isinstance(exchanges_value, list):
        raise InvalidRecordError("exchanges: expected a list")
    for number, raw in enumerate(exchanges_value, start=1):
        where = f"exchange {number}"
        if not isinstance(raw, dict):
            raise InvalidRecordError(f"{where}: expected an object {{\"from\", \"to\", \"card\", \"paid\"}}")
        seller = _seat(_need(raw, "from", f"{where}: "), rules, f"{where}, from")
        buyer = _seat(_need(raw, "to", f"{where}: "), rules, f"{where}, to")
        card = _cards([_need(raw, "card", f"{where}: ")], f"{where}, card")[0]
        paid_value = raw.get("paid")
        paid = _cards([paid_value], f"{where}, paid")[0] if paid_value is not None else None
        exchanges.append(RecordedExchange(seller, buyer, card, paid))
    shows = []
    shangban_value = data.get("shangban", [])
    if not isinstance(shangban_value, list):
        raise InvalidRecordError("shangban: expected a list of {\"seat\", \"shown\"} objects")
    for number, raw in enumerate(shangban_value, start=1):
        if not isinstance(raw, dict):
            raise InvalidRecordError(f"shangban {number}: expected an object {{\"seat\", \"shown\"}}")
        shows.append((_seat(_need(raw, "seat", f"shangban {number}: "), rules, f"shangban {number}"),
                      _cards(_need(raw, "shown", f"shangban {number}: "), f"shangban {number}, shown")))
    previous = None
    if data.get("previous") is not None:
        raw = data["previous"]
        if not isinstance(raw, dict):
            raise InvalidRecordError("previous: expected an object {\"leader\", \"places\"}")
        previous = (_seat(_need(raw, "leader", "previous: "), rules, "previous, leader"),
                    _places(_need(raw, "places", "previous: "), rules, "previous, places"))
    leader = _seat(_need(data, "leader"), rules, "leader")
    rounds_value = _need(data, "rounds")
    if not isinstance(rounds_value, list):
        raise InvalidRecordError("rounds: expected a list")
    rounds = []
    for number, raw in enumerate(rounds_value, start=1):
        if not isinstance(raw, dict):
            raise InvalidRecordError(f"round {number}: expected an object {{\"leader\", \"actions\"}}")
        round_leader = _seat(_need(raw, "leader", f"round {number}: "), rules, f"round {number}, leader")
        actions_value = _need(raw, "actions", f"round {number}: ")
        if not isinstance(actions_value, list) or not actions_value:
            raise InvalidRecordError(f"round {number}: actions must be a list holding at least the lead")
        actions = tuple(_action(action, rules, f"round {number}, action {index}")
                        for index, action in enumerate(actions_value, start=1))
        rounds.append(RecordedRound(round_leader, actions))
    places = _places(data["places"], rules, "places") if data.get("places") is not None else None
    return GoujiRecord(data, rules, hands, tuple(exchanges), tuple(shows), previous, leader, tuple(rounds), places)


def _places(value: Any, rules: GoujiRules, where: str) -> tuple[int, ...]:
    if not isinstance(value, list) or len(value) != rules.players:
        raise InvalidRecordError(f"{where}: expected the seat at each place 1…{rules.players}")
    seats = tuple(_seat(seat, rules, where) for seat in value)
    if len(set(seats)) != len(seats):
        raise InvalidRecordError(f"{where}: each seat has one place")
    return seats


@dataclass(frozen=True, slots=True)
class GoujiReplay:
    """A validated Gouji record replayed to its end: the final state, complete or not."""

    record: GoujiRecord
    state: HandState
    complete: bool


def _located(round_no: int, action: int, seat: int, reason: str) -> IllegalPlayError:
    error = IllegalPlayError(reason, seat=seat)
    error.args = (f"round {round_no}, action {action}, seat {seat}: {reason}",)
    return error


def _check_cards(record: GoujiRecord) -> None:
    rules = record.rules
    for seat, hand in enumerate(record.hands):
        if len(hand) != rules.hand_size:
            raise InvalidRecordError(f"hands: seat {seat} has {len(hand)} cards, the rules deal {rules.hand_size}")
    dealt: Counter[Card] = Counter()
    for hand in record.hands:
        dealt.update(hand)
    expected = Counter(full_deck(rules.decks))
    if dealt != expected:
        extra, missing = dealt - expected, expected - dealt
        card = next(iter(extra or missing))
        what = "too many" if extra else "missing"
        raise InvalidRecordError(f"hands: {what} {card.pretty} ({dealt[card]} dealt, {rules.decks} decks have "
                                 f"{expected[card]})")


def _check_exchanges(record: GoujiRecord) -> None:
    rules = record.rules
    expected = buy_threes([value_counts(hand) for hand in record.hands], record.leader, rules)
    hands = [Counter(hand) for hand in record.hands]
    for number, exchange in enumerate(record.exchanges, start=1):
        if number > len(expected):
            raise InvalidRecordError(f"exchange {number}: no more 买3 moves are due (§2.2 gives {len(expected)})")
        want = expected[number - 1]
        where = f"exchange {number}"
        if (exchange.seller, exchange.buyer) != (want.seller, want.buyer):
            raise InvalidRecordError(f"{where}: seat {want.seller} must sell a 3 to seat {want.buyer}, the record "
                                     f"says seat {exchange.seller} to seat {exchange.buyer}")
        if VALUE_OF[exchange.card.index] != THREE or not hands[exchange.seller][exchange.card]:
            raise InvalidRecordError(f"{where}: seat {exchange.seller} does not hold {exchange.card.pretty} to give")
        paid = VALUE_OF[exchange.paid.index] if exchange.paid is not None else None
        if paid != want.paid:
            wanted = f"pays {VALUE_NAMES[want.paid]}" if want.paid is not None else "pays nothing"
            raise InvalidRecordError(f"{where}: seat {want.buyer} {wanted}, the record says "
                                     f"{exchange.paid.pretty if exchange.paid else 'nothing'}")
        if exchange.paid is not None and not hands[exchange.buyer][exchange.paid]:
            raise InvalidRecordError(f"{where}: seat {exchange.buyer} does not hold {exchange.paid.pretty} to pay")
        hands[exchange.seller][exchange.card] -= 1
        hands[exchange.buyer][exchange.card] += 1
        if exchange.paid is not None:
            hands[exchange.buyer][exchange.paid] -= 1
            hands[exchange.seller][exchange.paid] += 1
    if len(record.exchanges) < len(expected):
        want = expected[len(record.exchanges)]
        raise InvalidRecordError(f"exchanges: missing the 买3 move of seat {want.seller} to seat {want.buyer}")


def expected_leader(record: GoujiRecord) -> tuple[int, str] | None:
    """The first leader §2.3 gives from `shangban` or `previous` (with the reason), or None if neither is given."""
    rules = record.rules
    if record.shangban:
        best = 0
        seat = -1
        for number, (show_seat, shown_cards) in enumerate(record.shangban, start=1):
            suits = {card.suit for card in shown_cards}
            if any(card.rank != rules.shangban_rank for card in shown_cards) or len(suits) != 1 \
                    or len(shown_cards) < 2:
                raise InvalidRecordError(f"shangban {number}: a show is two or more {rules.shangban_rank}s of one suit")
            dealt = Counter(record.hands[show_seat])
            if any(dealt[card] < copies for card, copies in Counter(shown_cards).items()):
                raise InvalidRecordError(f"shangban {number}: seat {show_seat} was not dealt those cards")
            if len(shown_cards) <= best:
                raise InvalidRecordError(f"shangban {number}: a later show must show more cards than "
                                         f"{best} to take over (顶班)")
            best, seat = len(shown_cards), show_seat
        return seat, f"seat {seat} showed {best} {rules.shangban_rank}s of one suit last (上班)"
    if record.previous is not None:
        leader, places = record.previous
        if rules.next_hand_leader == "da_luo":
            return places[-1], f"seat {places[-1]} was 大落 in the hand before"
        seat = (leader + 1) % rules.players
        return seat, f"seat {seat} follows the previous first leader {leader}"
    return None


def replay(record: GoujiRecord) -> GoujiReplay:
    """Validate every rule of the record (gouji.md §5) and replay it; the first problem raises
    `InvalidRecordError` or `IllegalPlayError` with one line naming where and why."""
    _check_cards(record)
    _check_exchanges(record)
    wanted = expected_leader(record)
    if wanted is not None and wanted[0] != record.leader:
        raise InvalidRecordError(f"leader must be seat {wanted[0]} ({wanted[1]}), the record says {record.leader}")
    state = HandState.start(record.rules, record.playing_hands(), record.leader)
    state.keep_undo = False
    last = len(record.rounds)
    for number, rnd in enumerate(record.rounds, start=1):
        if state.over:
            raise InvalidRecordError(f"round {number}: the hand is over after round {number - 1}")
        if rnd.leader != state.leader:
            why = "the first leader" if number == 1 else f"{'接风' if state.out[state.rounds[-1].winner] else 'winner'}"
            raise InvalidRecordError(f"round {number}: leader must be seat {state.leader} ({why}), the record says "
                                     f"{rnd.leader}")
        for index, (seat, action) in enumerate(rnd.actions, start=1):
            if state.over:
                raise _located(number, index, seat, "the hand is over")
            if state.round_no != number:
                raise _located(number, index, seat, f"the round is over (seat {state.rounds[-1].winner} won it)")
            try:
                state.act(seat, action)
            except IllegalPlayError as error:
                raise _located(number, index, seat, str(error)) from None
        if number < last and state.round_no == number and not state.over:
            raise InvalidRecordError(f"round {number}: the round is not over after its {len(rnd.actions)} actions "
                                     "(only the last round may stop early)")
    if record.places is not None:
        if not state.over:
            raise InvalidRecordError("places: the hand is not over, so it has no places yet")
        if tuple(state.places) != record.places:
            raise InvalidRecordError(f"places: the hand gives {list(state.places)}, the record says "
                                     f"{list(record.places)}")
    return GoujiReplay(record, state, state.over)


_POSITION = re.compile(r"([0-9]{1,9})\.([0-9]{1,9})", re.ASCII)
_COUNT = re.compile(r"#([0-9]{1,9})", re.ASCII)


@dataclass(frozen=True, slots=True)
class GoujiPosition:
    """A moment in a Gouji deal: after `actions` actions of the whole hand, or the end."""

    actions: int
    round: int
    within: int
    is_end: bool = False

    @classmethod
    def parse(cls, text: str, record: GoujiRecord) -> GoujiPosition:
        """Read `R.K`, `#n`, `0.0` or `end` (ASCII digits), checked against the record's rounds."""
        lengths = [len(rnd.actions) for rnd in record.rounds]
        total = sum(lengths)
        if text == "end":
            return cls.after(total, record, is_end=True)
        found = _COUNT.fullmatch(text)
        if found is not None:
            count = int(found[1])
            if count > total:
                raise MalformedError(f"position {text!r}: the deal has {total} actions")
            return cls.after(count, record)
        found = _POSITION.fullmatch(text)
        if found is None:
            raise MalformedError(f"position must be R.K (like 4.2), #n or end, not {shown(text)}")
        number, within = int(found[1]), int(found[2])
        if (number, within) == (0, 0):
            return cls(0, 1, 0)
        if number == len(lengths) + 1 and within == 0 and lengths:
            state = state_at(record, cls(total, number, 0))
            if state.over or state.round_no != number:
                raise MalformedError(f"position {text!r}: round {number - 1} "
                                     f"{'ends the hand' if state.over else 'is not over'}")
            return cls(total, number, 0)
        if not 1 <= number <= max(len(lengths), 1):
            raise MalformedError(f"position {text!r}: the deal has {len(lengths)} rounds")
        recorded = lengths[number - 1] if lengths else 0
        if within > recorded:
            raise MalformedError(f"position {text!r}: round {number} has {recorded} actions recorded")
        return cls(sum(lengths[:number - 1]) + within, number, within)

    @classmethod
    def after(cls, count: int, record: GoujiRecord, is_end: bool = False) -> GoujiPosition:
        """The position after `count` actions, named `R.K` with K ≥ 1 where possible."""
        before = 0
        for number, rnd in enumerate(record.rounds, start=1):
            if count <= before + len(rnd.actions) and count > before:
                return cls(count, number, count - before, is_end)
            before += len(rnd.actions)
        return cls(count, 1, 0, is_end)

    def __str__(self) -> str:
        return "end" if self.is_end else f"{self.round}.{self.within}"


def state_at(record: GoujiRecord, position: GoujiPosition) -> HandState:
    """The hand in play at `position` (the record is assumed valid: run `replay` first)."""
    state = HandState.start(record.rules, record.playing_hands(), record.leader)
    for _, seat, action in record.actions()[:position.actions]:
        state.act(seat, action)
    return state


def _exchange_json(exchange: RecordedExchange) -> dict[str, Any]:
    return {"from": exchange.seller, "to": exchange.buyer, "card": str(exchange.card),
            "paid": str(exchange.paid) if exchange.paid is not None else None}


def result_of(state: HandState) -> dict[str, Any] | None:
    """The §3.8 result of a finished hand (None while it is not over): successful burns, 闷, 二杀一 score."""
    if not state.over:
        return None
    rules = state.rules
    burns = [(b.by, b.of, b.counter) for b in state.burns if b.success]
    kills = [k.by for k in state.kills if rules.team(k.by) != rules.team(k.of)]
    places = [seat for seat in state.places if seat is not None]
    return hand_result(places, rules, state.opened_seats(), burns, [(m.seat, m.by) for m in state.men], kills)


def verify_summary(rep: GoujiReplay) -> dict[str, Any]:
    """The `deal verify --json` object of gouji.md §5."""
    state = rep.state
    rounds = [{"leader": r.leader, "winner": r.winner, "actions": r.actions, "partial": False} for r in state.rounds]
    if not state.over and state.round_actions:
        rounds.append({"leader": state.leader, "winner": state.owner, "actions": state.round_actions,
                       "partial": True})
    return {
        "id": rep.record.id, "game": GAME, "complete": rep.complete, "rounds": rounds,
        "exchanges": [_exchange_json(e) for e in rep.record.exchanges],
        "opened": state.opened_seats(),
        "burns": [{"by": b.by, "of": b.of, "round": b.round, "success": b.success} for b in state.burns],
        "men": [{"seat": m.seat, "by": m.by, "round": m.round} for m in state.men],
        "places": list(state.places),
        "result": result_of(state),
    }


def verify_text(path: str, rep: GoujiReplay) -> str:
    """`deal verify` without `--json`: one line per round, then places and the result."""
    summary = verify_summary(rep)
    lines = [f"{path}: 够级 deal {summary['id']} is valid ({'complete' if rep.complete else 'unfinished'})"]
    for number, rnd in enumerate(summary["rounds"], start=1):
        state = "winning so far" if rnd["partial"] else "wins"
        lines.append(f"  round {number:2}: seat {rnd['leader']} leads, {rnd['actions']} actions, "
                     f"seat {rnd['winner']} {state}")
    lines.extend(_events_lines(rep.state))
    return "\n".join(lines)


PLACE_NAMES = ("头科", "二科", "三科", "四科", "二落", "大落")


def place_name(place: int, players: int) -> str:
    """The name of place `place` (1-based): 头科 … 大落 with six seats, else `place k`."""
    return PLACE_NAMES[place - 1] if players == 6 else f"place {place}"


def _events_lines(state: HandState) -> list[str]:
    lines = []
    if state.opened:
        lines.append(f"  opened (开点): seats {', '.join(map(str, state.opened_seats()))}")
    for burn in state.burns:
        outcome = {None: "open", True: "succeeded", False: "failed"}[burn.success]
        lines.append(f"  burn (烧牌) in round {burn.round}: seat {burn.by} burned seat {burn.of}"
                     f"{' (反烧)' if burn.counter else ''}, {outcome}")
    for men in state.men:
        lines.append(f"  闷 in round {men.round}: seat {men.seat}, by seat {men.by}")
    placed = [f"{place_name(i + 1, state.players)} seat {seat}" for i, seat in enumerate(state.places)
              if seat is not None]
    if placed:
        lines.append(f"  places: {', '.join(placed)}")
    result = result_of(state)
    if result is not None:
        lines.append(f"  result: seat points {result['seat_points']}, team points {result['team_points']}"
                     f"{' (串三户)' if result['chuan_san_hu'] else ''}")
    return lines


def show_text(record: GoujiRecord, position: GoujiPosition, seat: int | None) -> str:
    """A readable replay of the record up to `position`, from `seat`'s view when given (others hidden)."""
    rules = record.rules
    state = state_at(record, position)
    lines = [f"够级 deal {record.id} · rules {json.dumps(rules.to_json(), ensure_ascii=False)} · "
             f"first leader seat {record.leader}",
             f"Position {position}" + (f", seen from seat {seat}" if seat is not None else "")]
    for q in range(rules.players):
        relation = f", {rules.relation(q, seat)}" if seat is not None else ""
        team = f"team {rules.team(q)}"
        if seat is None or q == seat:
            cards = pretty_cards(state.hand(q)) or "(empty)"
        else:
            cards = f"({state.hand_size(q)} cards hidden)"
        out = state.out[q]
        status = f" — {place_name(out.place, rules.players)}{' (闷)' if out.how == 'men' else ''}" if out else ""
        lines.append(f"  seat {q} ({team}{relation}): {cards}{status}")
    for exchange in record.exchanges:
        paid = exchange.paid.pretty if exchange.paid is not None else "nothing"
        lines.append(f"  买3: seat {exchange.seller} gives {exchange.card.pretty} to seat {exchange.buyer}, "
                     f"paid {paid}")
    shown_actions = record.actions()[:position.actions]
    current = 0
    for number, actor, action in shown_actions:
        if number != current:
            current = number
            lines.append(f"  round {number}:")
        text = action if isinstance(action, str) else pretty_cards(action)
        lines.append(f"    seat {actor}: {text}")
    if not state.over:
        turn = state.turn
        burners = f"; may burn: {', '.join(map(str, turn.may_burn))}" if turn.may_burn else ""
        lines.append(f"  next: seat {turn.actor} ({turn.mode}{', leads' if turn.leading else ''}){burners}")
    lines.extend(_events_lines(state))
    return "\n".join(lines)
