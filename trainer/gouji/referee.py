"""The 够级 referee ops of `trainer rules check` (gouji.md §9): requests with `"game": "gouji"`.

>>> GOUJI_OPS["gouji_card"]({"cards": ["QS", "QH", "QD"]}, GoujiRules())
{'valid': True, 'gouji': True, 'original': True, 'base': 'Q', 'size': 3}
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from trainer.engine.cards import Card
from trainer.engine.errors import IllegalPlayError, MalformedError, shown
from trainer.gouji.deal import buy_threes, value_counts
from trainer.gouji.plays import VALUE_NAMES, VALUE_OF, Play, analyse, beats, opens
from trainer.gouji.rules import GoujiRules
from trainer.gouji.scoring import hand_result
from trainer.gouji.state import HandState, Out, mode_of, play_problem
from trainer.referee import _cards as _request_cards
from trainer.referee import _check_copies, _field

Answer = dict[str, Any]
ROLES = ("duitou", "teammate", "opponent")


def _cards(value: Any, name: str, rules: GoujiRules) -> list[Card]:
    """The cards of a field's value (a list of card names), refusing more copies of a face than the decks hold."""
    return _request_cards({name: value}, name, rules)  # type: ignore[arg-type]  # only `rules.decks` is read


def _flag(request: dict[str, Any], name: str, default: bool) -> bool:
    value = request.get(name, default)
    if not isinstance(value, bool):
        raise MalformedError(f"{name}: expected true or false, not {shown(value)}")
    return value


def _seat(value: Any, rules: GoujiRules, name: str) -> int:
    if type(value) is not int or not 0 <= value < rules.players:
        raise MalformedError(f"{name}: a seat is a number from 0 to {rules.players - 1}, not {shown(value)}")
    return value


def _seats(value: Any, rules: GoujiRules, name: str) -> list[int]:
    if not isinstance(value, list):
        raise MalformedError(f"{name}: expected a list of seats")
    seats = [_seat(seat, rules, name) for seat in value]
    if len(set(seats)) != len(seats):
        raise MalformedError(f"{name}: a seat appears twice")
    return seats


def _card(request: dict[str, Any], rules: GoujiRules) -> Answer:
    result = analyse(_cards(_field(request, "cards"), "cards", rules), rules)
    if isinstance(result, str):
        return {"valid": False}
    return {"valid": True, "gouji": result.gouji, "original": result.original,
            "base": VALUE_NAMES[result.base] if result.base is not None else None, "size": result.size}


def _beats(request: dict[str, Any], rules: GoujiRules) -> Answer:
    top = analyse(_cards(_field(request, "top"), "top", rules), rules)
    play = analyse(_cards(_field(request, "play"), "play", rules), rules)
    return {"beats": isinstance(top, Play) and isinstance(play, Play) and beats(play, top, rules)}


def _play_legal(request: dict[str, Any], rules: GoujiRules) -> Answer:
    play_cards = _cards(_field(request, "play"), "play", rules)
    top_value = request.get("top")
    top_cards = _cards(top_value, "top", rules) if top_value is not None else None
    role = request.get("role", "duitou")
    if role not in ROLES:
        raise MalformedError(f"role: expected one of {', '.join(ROLES)}, not {shown(role)}")
    passed, head, in_run = _flag(request, "passed", False), _flag(request, "head", True), _flag(request, "burn_run",
                                                                                              False)
    active = request.get("active", rules.players)
    if type(active) is not int or not 1 <= active <= rules.players:
        raise MalformedError(f"active: expected the number of seats not out, 1 to {rules.players}")
    rest = None
    if request.get("hand") is not None:
        hand = _cards(request["hand"], "hand", rules)
        _check_copies([*hand, *(top_cards or [])], "hand and top together", rules)  # type: ignore[arg-type]
        missing = Counter(play_cards) - Counter(hand)
        if missing:
            return {"ok": False, "burn": False, "reason": f"does not hold {next(iter(missing)).pretty}"}
        left = Counter(hand) - Counter(play_cards)
        rest = [VALUE_OF[card.index] for card in left.elements()]
    top = None
    if top_cards is not None:
        top_play = analyse(top_cards, rules)
        if isinstance(top_play, str):
            return {"ok": False, "burn": False, "reason": f"the top is not a play: {top_play}"}
        top = top_play
    mode = mode_of(top, head, active, rules)
    burn = mode == "gouji" and role != "duitou"
    play = analyse(play_cards, rules)
    if isinstance(play, str):
        return {"ok": False, "burn": False, "reason": play}
    if mode == "normal" and top is not None and passed and role != "duitou":
        return {"ok": False, "burn": False, "reason": "a seat that passed this round acts again only as 对头"}
    problem = play_problem(play, top, rules, burn=burn, passed=passed, in_run=in_run, rest=rest)
    return {"ok": problem is None, "burn": burn and problem is None, "reason": problem or ""}  # no illegal burn


def _kaidian(request: dict[str, Any], rules: GoujiRules) -> Answer:
    play = analyse(_cards(_field(request, "cards"), "cards", rules), rules)
    return {"opens": isinstance(play, Play) and opens(play, rules)}


MARKS = ("last", "threes")


def _next_actor(request: dict[str, Any], rules: GoujiRules) -> Answer:
    leader = _seat(_field(request, "leader"), rules, "leader")
    actions_value = _field(request, "actions")
    if not isinstance(actions_value, list):
        raise MalformedError("actions: expected a list of [seat, cards or \"pass\"/\"yield\"(, mark)]")
    out = _seats(request.get("out", []), rules, "out")
    actions: list[tuple[int, Any, str | None]] = []
    for index, raw in enumerate(actions_value):
        where = f"actions[{index}]"
        if not isinstance(raw, list) or len(raw) not in (2, 3):
            raise MalformedError(f"{where}: expected [seat, cards or \"pass\"/\"yield\"] with an optional mark")
        seat = _seat(raw[0], rules, where)
        mark = raw[2] if len(raw) == 3 else None
        if mark is not None and mark not in MARKS:
            raise MalformedError(f"{where}: the mark is \"last\" or \"threes\", not {shown(mark)}")
        action = raw[1] if raw[1] in ("pass", "yield") else _cards(raw[1], where, rules)
        if mark is not None and isinstance(action, str):
            raise MalformedError(f"{where}: only a play carries a mark")
        actions.append((seat, action, mark))
    state = HandState.start(rules, _stand_in_hands(actions, out, rules), leader)
    for place, seat in enumerate(out):
        state.out = tuple(Out(place + 1, "finished") if s == seat else o for s, o in enumerate(state.out))
        state.places = tuple(seat if i == place else s for i, s in enumerate(state.places))
        state.active -= 1
    if out:
        state._check_end()
    if state.out[leader] is not None and not state.over:
        return {"legal": False, "at": 0, "reason": f"the leader, seat {leader}, is out"}
    for index, (seat, action, _) in enumerate(actions):
        if state.over:
            return {"legal": False, "at": index, "reason": "the hand is over"}
        if state.round_no > 1:
            return {"legal": False, "at": index, "reason": "the round is over"}
        try:
            state.act(seat, action)
        except IllegalPlayError as error:
            return {"legal": False, "at": index, "reason": str(error)}
    round_over = state.over or state.round_no > 1
    turn = state.turn
    return {"legal": True, "round_over": round_over, "hand_over": state.over,
            "next": None if round_over else turn.actor,
            "may_yield": False if round_over else turn.may_yield,
            "may_burn": [] if round_over else list(turn.may_burn),
            "next_leader": state.leader if round_over and not state.over else None,
            "out": [seat for seat in range(rules.players) if state.out[seat] is not None]}


def _stand_in_hands(actions: list[tuple[int, Any, str | None]], out: list[int], rules: GoujiRules
                    ) -> list[list[Card]]:
    """Hands that make the marks true: each seat holds its plays of the round, then nothing after a "last"
    play, only a 3 after a "threes" play, else big jokers enough that no burn fails for want of jokers."""
    three, big = Card.parse("3S"), Card.parse("BJ")
    hands: list[list[Card]] = [[] for _ in range(rules.players)]
    closed = [seat in out for seat in range(rules.players)]
    ending: list[str | None] = [None] * rules.players
    for seat, action, mark in actions:
        if closed[seat] or isinstance(action, str):
            continue
        hands[seat].extend(action)
        ending[seat] = mark
        closed[seat] = mark == "last"
    for seat in range(rules.players):
        if seat in out or ending[seat] == "last":
            continue
        hands[seat].extend([three] if ending[seat] == "threes" else [big] * (len(hands[seat]) + 1))
    return hands


def _places(request: dict[str, Any], rules: GoujiRules) -> Answer:
    events = _field(request, "events")
    if not isinstance(events, list):
        raise MalformedError("events: expected a list of [seat, \"finished\"/\"men\"]")
    n = rules.players
    opened = set(_seats(request.get("opened", list(range(n))), rules, "opened"))
    places: list[int | None] = [None] * n
    over = False
    for index, raw in enumerate(events):
        where = f"events[{index}]"
        if not isinstance(raw, list) or len(raw) != 2 or raw[1] not in ("finished", "men"):
            raise MalformedError(f"{where}: expected [seat, \"finished\" or \"men\"]")
        seat = _seat(raw[0], rules, where)
        if over:
            raise MalformedError(f"{where}: the hand is already over")
        if seat in places:
            raise MalformedError(f"{where}: seat {seat} is already out")
        free = [i for i, s in enumerate(places) if s is None]
        place = free[0] if raw[1] == "finished" else free[-1]
        if place == 0 and len(free) > 1 and rules.touke_needs_kaidian and seat not in opened:
            place = free[1]  # H "如果某人未开点，则该人不能走头科": the next free place
        places[place] = seat
        left = [s for s in range(n) if s not in places]
        over = len({rules.team(s) for s in left}) <= 1 if rules.end == "one_team" else len(left) <= 1
    answer: Answer = {"places": {str(seat): place + 1 for place, seat in enumerate(places) if seat is not None},
                      "over": over, "remaining": [s for s in range(n) if s not in places]}
    if over:
        answer["remaining_places"] = [place + 1 for place, seat in enumerate(places) if seat is None]
    return answer


def _buy3(request: dict[str, Any], rules: GoujiRules) -> Answer:
    hands_value = _field(request, "hands")
    if not isinstance(hands_value, list) or len(hands_value) != rules.players:
        raise MalformedError(f"hands: expected {rules.players} hands")
    hands = [_cards(hand, f"hands[{seat}]", rules) for seat, hand in enumerate(hands_value)]
    _check_copies([card for hand in hands for card in hand], "hands together", rules)  # type: ignore[arg-type]
    leader = _seat(_field(request, "leader"), rules, "leader")
    try:
        exchanges = buy_threes([value_counts(hand) for hand in hands], leader, rules)
    except IllegalPlayError as error:
        raise MalformedError(f"hands: {error}") from None
    return {"exchanges": [{"from": e.seller, "to": e.buyer, "paid": VALUE_NAMES[e.paid] if e.paid else None}
                          for e in exchanges]}


def _objects(request: dict[str, Any], name: str, keys: tuple[str, ...]) -> list[dict[str, Any]]:
    value = request.get(name, [])
    if not isinstance(value, list) or any(not isinstance(item, dict) or any(k not in item for k in keys)
                                          for item in value):
        raise MalformedError(f"{name}: expected a list of {{{', '.join(map(repr, keys))}}} objects")
    return value


def _result(request: dict[str, Any], rules: GoujiRules) -> Answer:
    places = _seats(_field(request, "places"), rules, "places")
    if len(places) != rules.players:
        raise MalformedError(f"places: expected the seat at each of the {rules.players} places")
    opened = _seats(request.get("opened", []), rules, "opened")
    burns = []
    for item in _objects(request, "burns", ("by", "of")):
        counter = item.get("counter", False)
        if not isinstance(counter, bool):
            raise MalformedError("burns: counter is true or false")
        burns.append((_seat(item["by"], rules, "burns"), _seat(item["of"], rules, "burns"), counter))
    men = [(_seat(item["seat"], rules, "men"), _seat(item["by"], rules, "men"))
           for item in _objects(request, "men", ("seat", "by"))]
    kills = [_seat(item["by"], rules, "two_kill_one") for item in _objects(request, "two_kill_one", ("by",))]
    return hand_result(places, rules, opened, burns, men, kills)


GOUJI_OPS: dict[str, Callable[[dict[str, Any], GoujiRules], Answer]] = {
    "gouji_card": _card, "beats": _beats, "play_legal": _play_legal, "kaidian": _kaidian,
    "next_actor": _next_actor, "places": _places, "buy3": _buy3, "result": _result,
}
"""The §9 ops by name."""


def answer_gouji(request: dict[str, Any]) -> Answer:
    """The answer to one parsed request with `"game": "gouji"`; malformed input raises `MalformedError`."""
    op = request.get("op")
    handler = GOUJI_OPS.get(op) if isinstance(op, str) else None
    if handler is None:
        raise MalformedError(f"unknown gouji op {shown(op)} (known: {', '.join(GOUJI_OPS)})")
    return handler(request, GoujiRules.parse(request.get("rules", "standard")))



