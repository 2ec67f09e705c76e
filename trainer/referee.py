"""The referee protocol of `trainer rules check`: one JSON request per line, one JSON answer per line."""
from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from trainer.engine.cards import Card, parse_cards
from trainer.engine.combos import describe, face_counts
from trainer.engine.errors import JipaiError, MalformedError
from trainer.engine.follow import Lead, follow_problem
from trainer.engine.rules import Rules
from trainer.engine.scoring import kitty_multiplier, level_result, next_banker
from trainer.engine.tricks import check_throw, trick_winner
from trainer.engine.trump import TrumpContext

Answer = dict[str, Any]


def _field(request: dict[str, Any], name: str) -> Any:
    if name not in request:
        raise MalformedError(f"missing field {name!r}")
    return request[name]


def _cards(request: dict[str, Any], name: str) -> list[Card]:
    value = _field(request, name)
    if not isinstance(value, (list, str)):
        raise MalformedError(f"{name}: expected a list of cards")
    try:
        return parse_cards(value)
    except MalformedError as error:
        raise MalformedError(f"{name}: {error}") from None


def _context(request: dict[str, Any], rules: Rules) -> TrumpContext:
    return TrumpContext.parse(_field(request, "level"), _field(request, "trump"), rules)


def _lead(request: dict[str, Any], ctx: TrumpContext, name: str = "lead") -> Lead:
    cards = _cards(request, name)
    if not cards:
        raise MalformedError(f"{name}: a lead needs at least one card")
    if len({ctx.suit_of[card.index] for card in cards}) != 1:
        raise MalformedError(f"{name}: a lead must be all of one suit")
    return Lead.of(cards, ctx)


def _combo(request: dict[str, Any], rules: Rules) -> Answer:
    cards = _cards(request, "cards")
    if not cards:
        raise MalformedError("cards: expected at least one card")
    return describe(cards, _context(request, rules))


def _follow(request: dict[str, Any], rules: Rules) -> Answer:
    ctx = _context(request, rules)
    lead = _lead(request, ctx)
    hand = face_counts(_cards(request, "hand"))
    problem = follow_problem(lead, hand, _cards(request, "play"), ctx)
    return {"legal": problem is None, "reason": problem or ""}


def _throw(request: dict[str, Any], rules: Rules) -> Answer:
    ctx = _context(request, rules)
    lead = _lead(request, ctx)
    others_value = _field(request, "others")
    if not isinstance(others_value, list):
        raise MalformedError("others: expected a list of hands")
    others = [face_counts(_cards({"others": hand}, "others")) for hand in others_value]
    result = check_throw(lead.cards, others, ctx)
    return {"ok": result.ok, "forced": [str(card) for card in result.forced]}


def _winner(request: dict[str, Any], rules: Rules) -> Answer:
    ctx = _context(request, rules)
    plays_value = _field(request, "plays")
    if not isinstance(plays_value, list) or not 1 <= len(plays_value) <= 4:
        raise MalformedError("plays: expected 1 to 4 plays")
    plays = [_cards({"plays": play}, "plays") for play in plays_value]
    lead = _lead({"lead": plays_value[0]}, ctx)
    if any(not play for play in plays):
        raise MalformedError("plays: a play needs at least one card")
    return {"winner": trick_winner(plays, ctx, lead)}


def _kitty(request: dict[str, Any], rules: Rules) -> Answer:
    ctx = _context(request, rules)
    return {"multiplier": kitty_multiplier(_lead(request, ctx), rules)}


def _result(request: dict[str, Any], rules: Rules) -> Answer:
    score = _field(request, "attackers_score")
    if not isinstance(score, int) or isinstance(score, bool):
        raise MalformedError("attackers_score: expected an integer")
    side, levels = level_result(score, rules)
    answer: Answer = {"side": side, "levels": levels}
    if request.get("banker") is not None:
        banker = request["banker"]
        if not isinstance(banker, int) or isinstance(banker, bool) or not 0 <= banker <= 3:
            raise MalformedError("banker: expected a seat 0–3")
        answer["next_banker"] = next_banker(banker, side)
    return answer


OPS: dict[str, Callable[[dict[str, Any], Rules], Answer]] = {
    "combo": _combo, "follow": _follow, "throw": _throw, "winner": _winner, "kitty": _kitty, "result": _result,
}


def answer(line: str) -> Answer:
    """The answer to one request line; a malformed line answers `{"error": …}`."""
    try:
        request = json.loads(line)
    except json.JSONDecodeError as error:
        return {"error": f"not JSON: {error.msg}"}
    if not isinstance(request, dict):
        return {"error": "a request must be a JSON object"}
    op = request.get("op")
    handler = OPS.get(op) if isinstance(op, str) else None
    if handler is None:
        return {"error": f"unknown op {op!r} (known: {', '.join(OPS)})"}
    try:
        return handler(request, Rules.parse(request.get("rules", "standard")))
    except JipaiError as error:
        return {"error": str(error)}
    except (TypeError, ValueError, KeyError, AssertionError) as error:
        return {"error": f"cannot answer this request: {error.__class__.__name__}: {error}"}


def serve_lines(lines: Iterable[str]) -> Iterator[str]:
    """Answer each non-blank line, in order, as one JSON line."""
    for line in lines:
        if line.strip():
            yield json.dumps(answer(line), ensure_ascii=False)
