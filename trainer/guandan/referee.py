"""The 掼蛋 referee ops (guandan.md §10): requests with `"game": "guandan"`, answered as JSON objects.

Not yet reachable from `trainer rules check` (the game interface will route to `answer_guandan`).

>>> answer_guandan({"op": "guandan_type", "level": "5", "cards": ["8S", "8D", "5H", "5C", "5D"]})["readings"]
[{'type': 'full_house', 'rank': '5'}, {'type': 'full_house', 'rank': '8'}]
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from trainer.engine.cards import Card
from trainer.engine.errors import MalformedError, shown
from trainer.engine.trump import parse_level
from trainer.guandan.level import Level, rank_text
from trainer.guandan.plays import Reading, beat_reason, choose, readings
from trainer.guandan.records import result_json
from trainer.guandan.rules import GuandanRules
from trainer.guandan.scoring import check_places, level_gain
from trainer.guandan.state import hand_over, next_in, round_leader, round_over
from trainer.guandan.tribute import return_reason, tribute_plan
from trainer.referee import _cards as _request_cards
from trainer.referee import _check_copies, _field

Answer = dict[str, Any]
BEATING = ("bomb", "bigger_bomb", "higher")


def _cards(request: dict[str, Any], name: str, rules: GuandanRules) -> list[Card]:
    """The cards of a field, refusing more copies of a face than two decks hold."""
    return _request_cards(request, name, rules)  # type: ignore[arg-type]  # only `rules.decks` is read


def _level(request: dict[str, Any]) -> Level:
    value = _field(request, "level")
    if not isinstance(value, str):
        raise MalformedError(f"level: a rank (2…10, J, Q, K, A), not {shown(value)}")
    return Level.parse(value)


def _seat(value: Any, name: str) -> int:
    if type(value) is not int or not 0 <= value <= 3:
        raise MalformedError(f"{name}: a seat is 0, 1, 2 or 3, not {shown(value)}")
    return value


def _declared(request: dict[str, Any], name: str, size: int) -> Reading | None:
    value = request.get(name)
    return None if value is None else Reading.from_json(value, size)


def _reading(cards: list[Card], declared: Reading | None, top: Reading | None, level: Level,
             rules: GuandanRules) -> tuple[list[Reading], Reading | None]:
    """The cards' readings and the one taken: `declared` if it is one of them, else §2.4's (None: no reading)."""
    options = readings(cards, level)
    if not options or (declared is not None and declared not in options):
        return options, None
    return options, declared if declared is not None else choose(options, top, level, rules.wild_reading)


def _type(request: dict[str, Any], rules: GuandanRules) -> Answer:
    level = _level(request)
    cards = _cards(request, "cards", rules)
    options, reading = _reading(cards, _declared(request, "as", len(cards)), None, level, rules)
    shown_reading = reading.to_json() if reading is not None else {"type": None, "rank": None}
    return {"valid": reading is not None, **shown_reading, "bomb": reading is not None and reading.bomb,
            "size": len(cards), "wilds": sum(1 for card in cards if level.is_wild(card)),
            "readings": [option.to_json() for option in options]}


def _beating(cards: list[Card], declared: Reading | None, top: Reading, level: Level,
             rules: GuandanRules) -> Answer:
    options, reading = _reading(cards, declared, top, level, rules)
    if reading is None:
        return {"beats": False, "reason": "invalid_play", "as": None, "readings_that_beat": []}
    reason = beat_reason(reading, top, level)
    return {"beats": reason in BEATING, "reason": reason, "as": reading.to_json(),
            "readings_that_beat": [o.to_json() for o in options if beat_reason(o, top, level) in BEATING]}


def _top(request: dict[str, Any], level: Level, rules: GuandanRules) -> Reading | None:
    cards = _cards(request, "top", rules)
    return _reading(cards, _declared(request, "top_as", len(cards)), None, level, rules)[1]


def _beats(request: dict[str, Any], rules: GuandanRules) -> Answer:
    level = _level(request)
    top = _top(request, level, rules)
    play = _cards(request, "play", rules)
    declared = _declared(request, "as", len(play))
    if top is None:
        return {"beats": False, "reason": "invalid_top", "as": None, "readings_that_beat": []}
    return _beating(play, declared, top, level, rules)


def _play_legal(request: dict[str, Any], rules: GuandanRules) -> Answer:
    level = _level(request)
    leading = _field(request, "top") is None
    if _field(request, "play") == "pass":
        return {"ok": not leading, "reason": "leader_must_play" if leading else "pass", "as": None}
    play = _cards(request, "play", rules)
    if request.get("hand") is not None:
        hand = _cards(request, "hand", rules)
        if any(play.count(card) > hand.count(card) for card in play):
            return {"ok": False, "reason": "not_in_hand", "as": None}
    declared = _declared(request, "as", len(play))
    top = None if leading else _top(request, level, rules)
    if not leading and top is None:
        return {"ok": False, "reason": "invalid_top", "as": None}
    options, reading = _reading(play, declared, top, level, rules)
    if reading is None:
        return {"ok": False, "reason": "invalid_play", "as": None}
    if top is None:
        return {"ok": True, "reason": "lead", "as": reading.to_json()}
    answer = _beating(play, declared, top, level, rules)
    return {"ok": answer["beats"], "reason": answer["reason"], "as": answer["as"]}


def _illegal(at: int, reason: str) -> Answer:
    return {"legal": False, "at": at, "reason": reason}


def _next_actor(request: dict[str, Any], rules: GuandanRules) -> Answer:
    level = _level(request)
    leader = _seat(_field(request, "leader"), "leader")
    finished_value = request.get("finished", [])
    if not isinstance(finished_value, list):
        raise MalformedError("finished: expected a list of seats")
    places = [_seat(seat, "finished") for seat in finished_value]
    if len(set(places)) != len(places):
        raise MalformedError("finished: a seat finishes once")
    actions = _field(request, "actions")
    if not isinstance(actions, list):
        raise MalformedError("actions: expected a list of [seat, cards] or [seat, \"pass\"]")
    if hand_over(places):
        return _illegal(0, "the seats finished already end the hand")
    if leader in places:
        return _illegal(0, f"seat {leader} is out and cannot lead")
    turn: int | None = leader
    top: Reading | None = None
    owner, passed, over, jiefeng, next_leader = None, 0, False, False, None
    for index, action in enumerate(actions):
        if not isinstance(action, list) or len(action) not in (2, 3):
            raise MalformedError(f"actions[{index}]: expected [seat, cards], [seat, cards, {{…}}] or [seat, \"pass\"]")
        seat = _seat(action[0], f"actions[{index}]")
        if turn is None:
            return _illegal(index, "the round is over" if not over else "the hand is over")
        if seat != turn:
            return _illegal(index, f"seat {turn} acts, not seat {seat}")
        if action[1] == "pass":
            if top is None:
                return _illegal(index, "leader_must_play")
            passed |= 1 << seat
            assert owner is not None
            if round_over(owner, passed, places):
                next_leader, jiefeng = round_leader(owner, places)
                turn = None
            else:
                turn = next_in(seat, places)
            continue
        extra = action[2] if len(action) == 3 else {}
        if not isinstance(extra, dict) or set(extra) - {"as", "last"} or not isinstance(extra.get("last", False), bool):
            raise MalformedError(f"actions[{index}]: the third element is {{\"as\": reading, \"last\": true}}")
        cards = _cards({"cards": action[1]}, "cards", rules)
        options, reading = _reading(cards, _declared(extra, "as", len(cards)), top, level, rules)
        if reading is None:
            return _illegal(index, "invalid_play")
        if top is not None and beat_reason(reading, top, level) not in BEATING:
            return _illegal(index, beat_reason(reading, top, level))
        top, owner, passed = reading, seat, 0
        if extra.get("last", False):
            places.append(seat)
            if hand_over(places):
                over, turn = True, None
                continue
        turn = next_in(seat, places)
    return {"legal": True, "round_over": turn is None, "hand_over": over, "next": turn,
            "next_leader": None if over else next_leader, "jiefeng": jiefeng and not over, "finished": places}


def _level_gain(request: dict[str, Any], rules: GuandanRules) -> Answer:
    places = [_seat(seat, "places") for seat in _list(_field(request, "places"), "places")]
    levels_value = _list(_field(request, "levels"), "levels")
    if len(levels_value) != 2 or not all(isinstance(v, str) for v in levels_value):
        raise MalformedError("levels: expected [team 0's level, team 1's level] as ranks")
    levels = (parse_level(levels_value[0]), parse_level(levels_value[1]))
    dajia = _field(request, "dajia")
    if dajia is not None and (type(dajia) is not int or dajia not in (0, 1)):
        raise MalformedError(f"dajia: expected team 0, 1 or null, not {shown(dajia)}")
    failures = _list(request.get("a_failures", [0, 0]), "a_failures")
    if len(failures) != 2 or any(type(v) is not int or v < 0 for v in failures):
        raise MalformedError("a_failures: expected [team 0, team 1] counts ≥ 0")
    return result_json(level_gain(places, levels, dajia, (failures[0], failures[1]), rules))


def _list(value: Any, name: str) -> list[Any]:
    if not isinstance(value, list):
        raise MalformedError(f"{name}: expected a list, not {shown(value)}")
    return value


def _tribute(request: dict[str, Any], rules: GuandanRules) -> Answer:
    level = _level(request)
    places_value = _field(request, "places")
    places = None if places_value is None else [int(s) for s in check_places(_list(places_value, "places"))]
    hands_value = _list(_field(request, "hands"), "hands")
    if len(hands_value) != 4:
        raise MalformedError("hands: expected the four new hands in seat order")
    hands = [_cards({f"hands[{seat}]": hand}, f"hands[{seat}]", rules) for seat, hand in enumerate(hands_value)]
    _check_copies([card for hand in hands for card in hand], "hands together", rules)  # type: ignore[arg-type]
    plan = tribute_plan(places, hands, level)
    return {"kind": plan.kind, "leader": plan.leader, "resist": list(plan.resist),
            "tributes": [{"from": t.payer, "to": t.receiver, "rank": rank_text(t.rank),
                          "cards": [str(card) for card in t.cards]} for t in plan.tributes]}


def _return_legal(request: dict[str, Any], rules: GuandanRules) -> Answer:
    level = _level(request)
    hand = _cards(request, "hand", rules)
    card = _cards({"card": [_field(request, "card")]}, "card", rules)[0]
    ok, reason = return_reason(hand, card, level, rules)
    return {"ok": ok, "reason": reason}


GUANDAN_OPS: dict[str, Callable[[dict[str, Any], GuandanRules], Answer]] = {
    "guandan_type": _type, "beats": _beats, "play_legal": _play_legal, "next_actor": _next_actor,
    "level_gain": _level_gain, "tribute": _tribute, "return_legal": _return_legal,
}
"""The §10 ops by name."""


def answer_guandan(request: dict[str, Any]) -> Answer:
    """The answer to one parsed request with `"game": "guandan"`; malformed input raises `MalformedError`."""
    op = request.get("op")
    handler = GUANDAN_OPS.get(op) if isinstance(op, str) else None
    if handler is None:
        raise MalformedError(f"unknown guandan op {shown(op)} (known: {', '.join(GUANDAN_OPS)})")
    return handler(request, GuandanRules.parse(request.get("rules", "standard")))
