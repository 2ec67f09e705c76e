"""The referee of `trainer signals check` (signals.md "Referee ops"): one JSON request per line, one answer
per line, each with the `rule` that decided it."""
from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

from trainer.engine.cards import Card, Suit
from trainer.engine.errors import MalformedError, shown
from trainer.engine.rules import Rules
from trainer.engine.trump import TrumpContext
from trainer.referee import Answer, _cards, _check_copies, _context, _field, serve_lines
from trainer.signals.conventions import Convention
from trainer.signals.rules import (ROLES, discard_order, discard_play, interpret, must_pass, opening_request,
                                   respond)


def _setup(request: dict[str, Any], rules: Rules) -> tuple[TrumpContext, Convention]:
    if rules.decks != 2:
        raise MalformedError(f"rules: signal conventions assume two decks (two As), not {rules.decks}")
    return _context(request, rules), Convention.parse(request.get("conventions"))


def _choice(request: dict[str, Any], name: str, allowed: tuple[str, ...], default: str | None = None) -> str:
    value = request.get(name, default) if default is not None else _field(request, name)
    if value not in allowed:
        raise MalformedError(f"{name}: expected {' or '.join(allowed)}, not {shown(value)}")
    return value


def _one(request: dict[str, Any], name: str, rules: Rules) -> Card:
    cards = _cards(request, name, rules)
    if len(cards) != 1:
        raise MalformedError(f"{name}: expected exactly one card, not {len(cards)}")
    return cards[0]


def _optional(request: dict[str, Any], name: str, rules: Rules) -> list[Card]:
    return _cards(request, name, rules) if request.get(name) is not None else []


def _texts(cards: Iterable[Card]) -> list[str]:
    return [str(card) for card in cards]


def _respond(request: dict[str, Any], rules: Rules) -> Answer:
    ctx, convention = _setup(request, rules)
    lead = _one(request, "lead", rules)
    leader = _choice(request, "leader", ("partner", "opponent"))
    role = _choice(request, "role", ROLES)
    hand, seen = _cards(request, "hand", rules), _optional(request, "seen", rules)
    holding = _cards(request, "partner_holding", rules) if request.get("partner_holding") is not None else None
    if holding is not None and lead not in holding:
        raise MalformedError(f"partner_holding: must include the led card {lead}")
    _check_copies([*hand, *seen, *(holding if holding is not None else [lead])],
                  "hand, seen and the leader's cards together", rules)
    verdict = respond(lead, leader, role, hand, seen, holding, ctx, convention)
    return {"allowed": _texts(verdict.allowed), "rule": verdict.rule}


def _interpret(request: dict[str, Any], rules: Rules) -> Answer:
    ctx, convention = _setup(request, rules)
    lead = _one(request, "lead", rules)
    leader = _choice(request, "leader", ("me", "opponent"))
    role = _choice(request, "role", ROLES)
    play = _one(request, "play", rules)
    hand, seen = _cards(request, "hand", rules), _optional(request, "seen", rules)
    _check_copies([*hand, *seen, lead, play], "hand, seen, lead and play together", rules)
    verdict = interpret(lead, leader, role, play, hand, seen, ctx, convention)
    return {"meaning": verdict.value, "rule": verdict.rule}


def _discard_order(request: dict[str, Any], rules: Rules) -> Answer:
    ctx, convention = _setup(request, rules)
    lead, play = _cards(request, "lead", rules), _cards(request, "play", rules)
    leader = _choice(request, "leader", ("partner", "opponent"), "partner")
    _check_copies([*lead, *play], "lead and play together", rules)
    verdict = discard_order(lead, play, leader, ctx, convention)
    return {"meaning": verdict.value, "rule": verdict.rule}


def _discard_play(request: dict[str, Any], rules: Rules) -> Answer:
    ctx, convention = _setup(request, rules)
    lead, hand = _cards(request, "lead", rules), _cards(request, "hand", rules)
    _check_copies([*lead, *hand], "lead and hand together", rules)
    verdict = discard_play(lead, hand, ctx, convention)
    return {"message": verdict.message, "orders": [_texts(order) for order in verdict.orders], "rule": verdict.rule}


def _side_suit(value: Any, name: str, ctx: TrumpContext) -> int:
    """A side suit's letter as its number; the trump suit or anything else is malformed."""
    suit = Suit.__members__.get(value) if isinstance(value, str) else None
    if suit is None or suit == ctx.trump:
        raise MalformedError(f"{name}: {shown(value)} is not a side suit"
                             + (f" (trump is {ctx.trump.letter})" if ctx.trump is not None else ""))
    return int(suit)


def _suit_list(request: dict[str, Any], name: str, ctx: TrumpContext, side_only: bool) -> list[int]:
    value = request.get(name, [])
    if not isinstance(value, list):
        raise MalformedError(f"{name}: expected a list of suits")
    if side_only:
        return [_side_suit(item, name, ctx) for item in value]
    suits = []
    for item in value:
        if item == "trump" or (isinstance(item, str) and ctx.trump is not None and item == ctx.trump.letter):
            continue
        suits.append(_side_suit(item, name, ctx))
    return suits


def _flag(request: dict[str, Any], name: str, default: bool = True) -> bool:
    """An optional true/false field; anything else is malformed."""
    value = request.get(name, default)
    if not isinstance(value, bool):
        raise MalformedError(f"{name}: expected true or false, not {shown(value)}")
    return value


def _pass(request: dict[str, Any], rules: Rules) -> Answer:
    ctx, _ = _setup(request, rules)
    suit = _side_suit(_field(request, "suit"), "suit", ctx)
    hand = _cards(request, "hand", rules)
    won = _flag(request, "partner_won_trick", False)
    verdict = must_pass(suit, hand, _suit_list(request, "signalled_in", ctx, True),
                        _optional(request, "played", rules), _suit_list(request, "partner_void_in", ctx, False), won,
                        _optional(request, "partner_discarded", rules),
                        _optional(request, "opponents_discarded", rules), ctx)
    return {"suit": Suit(verdict.suit).letter, "must_pass": verdict.must_pass, "exception": verdict.exception,
            "rule": verdict.rule}


def _opening(request: dict[str, Any], rules: Rules) -> Answer:
    ctx, _ = _setup(request, rules)
    lead = _cards(request, "lead", rules)
    if not lead:
        raise MalformedError("lead: expected at least one card")
    trick = _field(request, "trick")
    if not isinstance(trick, int) or isinstance(trick, bool) or trick < 1:
        raise MalformedError(f"trick: expected a trick number from 1, not {shown(trick)}")
    role = _choice(request, "leader_role", ROLES)
    switch, side_left = _flag(request, "switch"), _flag(request, "side_left")
    tricks_left = request.get("tricks_left", 99)
    if not isinstance(tricks_left, int) or isinstance(tricks_left, bool) or tricks_left < 0:
        raise MalformedError(f"tricks_left: expected a number of tricks from 0, not {shown(tricks_left)}")
    verdict = opening_request(lead, trick, role, ctx, switch, side_left, tricks_left)
    return {"request": verdict.value, "rule": verdict.rule}


OPS: dict[str, Callable[[dict[str, Any], Rules], Answer]] = {
    "respond": _respond, "interpret": _interpret, "discard_order": _discard_order, "discard_play": _discard_play,
    "pass": _pass, "opening_request": _opening,
}


def serve_signal_lines(lines: Iterable[str | bytes]) -> Iterator[str]:
    """Answer each non-blank request line of `trainer signals check`, in order, as one JSON line."""
    return serve_lines(lines, OPS)
