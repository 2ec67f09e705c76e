"""The referee protocol of `trainer rules check`: one JSON request per line, one JSON answer per line."""
from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from trainer.engine.cards import Card, parse_cards
from trainer.engine.combos import describe, face_counts
from trainer.engine.errors import JipaiError, MalformedError, shown
from trainer.engine.follow import Lead, follow_problem
from trainer.engine.rules import Rules
from trainer.engine.scoring import kitty_multiplier, level_result, next_banker
from trainer.engine.tricks import check_throw, trick_winner
from trainer.engine.trump import TrumpContext
from trainer.json_input import read_json

Answer = dict[str, Any]


def _field(request: dict[str, Any], name: str) -> Any:
    if name not in request:
        raise MalformedError(f"missing field {name!r}")
    return request[name]


def _cards(request: dict[str, Any], name: str, rules: Rules) -> list[Card]:
    """The cards in field `name`; more copies of a face than the decks hold is malformed."""
    value = _field(request, name)
    if not isinstance(value, (list, str)):
        raise MalformedError(f"{name}: expected a list of cards")
    try:
        cards = parse_cards(value)
    except MalformedError as error:
        raise MalformedError(f"{name}: {error}") from None
    _check_copies(cards, name, rules)
    return cards


def _check_copies(cards: Iterable[Card], what: str, rules: Rules) -> None:
    """Refuse cards that cannot all exist: more copies of a face than `rules.decks` decks hold."""
    card, copies = max(Counter(cards).items(), key=lambda item: item[1], default=(None, 0))
    if card is not None and copies > rules.decks:
        raise MalformedError(f"{what}: {copies} copies of {card.pretty}, but {rules.decks} "
                             f"deck{'s' if rules.decks > 1 else ''} hold only {rules.decks}")


def _context(request: dict[str, Any], rules: Rules) -> TrumpContext:
    return TrumpContext.parse(_field(request, "level"), _field(request, "trump"), rules)


def _lead(request: dict[str, Any], ctx: TrumpContext, name: str = "lead") -> Lead:
    cards = _cards(request, name, ctx.rules)
    if not cards:
        raise MalformedError(f"{name}: a lead needs at least one card")
    if len({ctx.suit_of[card.index] for card in cards}) != 1:
        raise MalformedError(f"{name}: a lead must be all of one suit")
    return Lead.of(cards, ctx)


def _combo(request: dict[str, Any], rules: Rules) -> Answer:
    cards = _cards(request, "cards", rules)
    if not cards:
        raise MalformedError("cards: expected at least one card")
    return describe(cards, _context(request, rules))


def _follow(request: dict[str, Any], rules: Rules) -> Answer:
    ctx = _context(request, rules)
    lead = _lead(request, ctx)
    hand_cards = _cards(request, "hand", rules)
    _check_copies([*lead.cards, *hand_cards], "lead and hand together", rules)
    hand = face_counts(hand_cards)
    problem = follow_problem(lead, hand, _cards(request, "play", rules), ctx)
    return {"legal": problem is None, "reason": problem or ""}


def _throw(request: dict[str, Any], rules: Rules) -> Answer:
    ctx = _context(request, rules)
    lead = _lead(request, ctx)
    others_value = _field(request, "others")
    if not isinstance(others_value, list) or len(others_value) > 3:
        raise MalformedError("others: expected a list of the other (up to three) hands")
    hands = [_cards({"others": hand}, "others", rules) for hand in others_value]
    _check_copies([*lead.cards, *(card for hand in hands for card in hand)], "lead and others together", rules)
    others = [face_counts(hand) for hand in hands]
    result = check_throw(lead.cards, others, ctx)
    return {"ok": result.ok, "forced": [str(card) for card in result.forced]}


def _winner(request: dict[str, Any], rules: Rules) -> Answer:
    ctx = _context(request, rules)
    plays_value = _field(request, "plays")
    if not isinstance(plays_value, list) or not 1 <= len(plays_value) <= 4:
        raise MalformedError("plays: expected 1 to 4 plays")
    plays = [_cards({"plays": play}, "plays", rules) for play in plays_value]
    lead = _lead({"lead": plays_value[0]}, ctx)
    if any(not play for play in plays):
        raise MalformedError("plays: a play needs at least one card")
    _check_copies([card for play in plays for card in play], "plays together", rules)
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


def answer(line: str | bytes, ops: dict[str, Callable[[dict[str, Any], Rules], Answer]] | None = None) -> Answer:
    """The answer to one request line (to the ops `ops`, by default `trainer rules check`'s); a malformed
    line answers `{"error": …}`."""
    ops = OPS if ops is None else ops
    try:
        request = read_json(line)
    except UnicodeDecodeError:
        return {"error": "the line is not UTF-8 text"}
    except MalformedError as error:
        return {"error": str(error)}
    if not isinstance(request, dict):
        return {"error": "a request must be a JSON object"}
    game = request.get("game")
    if game == "gouji":
        from trainer.gouji.referee import answer_gouji

        try:
            return answer_gouji(request)
        except JipaiError as error:
            return {"error": str(error)}
    if game not in (None, "shengji"):
        return {"error": f"unknown game {shown(game)} (known: shengji, gouji)"}
    op = request.get("op")
    handler = ops.get(op) if isinstance(op, str) else None
    if handler is None:
        return {"error": f"unknown op {shown(op)} (known: {', '.join(ops)})"}
    try:
        return handler(request, Rules.parse(request.get("rules", "standard")))
    except JipaiError as error:
        return {"error": str(error)}


def serve_lines(lines: Iterable[str | bytes],
                ops: dict[str, Callable[[dict[str, Any], Rules], Answer]] | None = None) -> Iterator[str]:
    """Answer each non-blank line, in order, as one JSON line; a fault in the engine is answered as
    an error too, so one request never silences the ones after it."""
    for line in lines:
        if line.strip():
            try:
                reply = answer(line, ops)
            except Exception as error:  # an engine bug, not bad input: say so and keep answering
                reply = {"error": f"the referee failed on this request ({type(error).__name__}); please report it"}
            yield json.dumps(reply, ensure_ascii=False)
