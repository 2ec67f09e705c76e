"""The signal conventions as free functions (signals.md): answering an A, a K-ask or a 5-lead (应A), reading
the partner's card, discard orders (垫牌约定), passing the suit (传牌) and the banker's opening-lead requests.

Every function works on effective suits (a ♥9 at level 9 is trump and never signals) and returns a small
verdict whose `rule` is the closed-enum id of the rule that decided it; `reason(lang)` says it in words.

>>> from trainer.engine.cards import parse_cards
>>> ctx = TrumpContext.parse("2", "S")
>>> v = respond(Card.parse("AH"), "partner", "helper", parse_cards("AH 9H 7H 5H 3H"), (), None, ctx, Convention())
>>> [str(c) for c in v.allowed], v.rule
(['9H'], 'answer_A')
>>> discard_order(parse_cards("KH KH"), parse_cards("8H 7H"), "partner", ctx, Convention()).value
'yes'
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations, permutations
from math import comb, factorial, prod

from trainer.engine.cards import Card
from trainer.engine.errors import MalformedError
from trainer.engine.trump import TRUMP, TrumpContext
from trainer.signals.conventions import Convention
from trainer.signals.reasons import reason_text

ROLES = ("banker", "helper", "attacker")
AKK10_MIN_LENGTH = 8
"""The helper's AKK10 exception (seed 000 5.2.5 "某色副自己极长") needs at least this many cards of the suit,
the A, both Ks and the 10 included (docs/decisions.md)."""
MAX_ORDERS = 20_000
"""`discard_play` refuses positions whose plays to order exceed this (a referee answers every line quickly)."""


@dataclass(frozen=True, slots=True)
class Verdict:
    """What a convention says: `value` (cards allowed, a meaning, a message…) and the deciding `rule`."""

    op: str
    rule: str
    value: object = None

    def reason(self, lang: str = "en") -> str:
        """The rule in words, in `lang` (`en` or `zh`)."""
        return reason_text(self.op, self.rule, lang)


@dataclass(frozen=True, slots=True)
class Allowed(Verdict):
    """`respond`: every card the convention allows (`allowed`, strongest first)."""

    @property
    def allowed(self) -> tuple[Card, ...]:
        """The allowed cards, distinct faces, strongest first."""
        return self.value  # type: ignore[return-value]


@dataclass(frozen=True, slots=True)
class Orders(Verdict):
    """`discard_play`: the truth to tell (`message`) and every order of cards that tells it."""

    orders: tuple[tuple[Card, ...], ...] = ()

    @property
    def message(self) -> str:
        """yes, no, void, holds_A or no_meaning."""
        return self.value  # type: ignore[return-value]


@dataclass(frozen=True, slots=True)
class Pass(Verdict):
    """`must_pass`: the suit, whether I must pass it now and which exception (1–9) lets me not."""

    suit: int = 0
    must_pass: bool = False
    exception: int | None = None


# -- small helpers -----------------------------------------------------------------------------------
def faces(cards: Iterable[Card], ctx: TrumpContext) -> tuple[Card, ...]:
    """The distinct faces of `cards`, strongest first (a *set* of signals.md)."""
    return tuple(ctx.sorted(set(cards)))


def in_suit(cards: Iterable[Card], suit: int, ctx: TrumpContext) -> list[Card]:
    """H(s): the cards whose effective suit is `suit`."""
    return [card for card in cards if ctx.suit_of[card.index] == suit]


def _has(cards: Iterable[Card], rank: int) -> bool:
    return any(card.rank == rank for card in cards)


def _is_level(card: Card, ctx: TrumpContext) -> bool:
    return not card.is_joker and card.rank == ctx.level


# -- respond: what may I play on this single lead? -------------------------------------------------------
def respond(lead: Card, leader: str, role: str, hand: Sequence[Card], seen: Sequence[Card],
            partner_holding: Sequence[Card] | None, ctx: TrumpContext, convention: Convention) -> Allowed:
    """Every card the convention allows on a single lead (quiz *respond*), by the first matching step."""
    suit = ctx.suit_of[lead.index]
    held = in_suit(hand, suit, ctx)

    def answer(cards: Iterable[Card], rule: str) -> Allowed:
        return Allowed("respond", rule, faces(cards, ctx))

    if not held:
        return answer((), "void")
    if suit == TRUMP:
        return answer(held, "no_convention")
    signals = [card for card in held if convention.is_signal(card, ctx)]
    others = [card for card in held if not convention.is_signal(card, ctx)]
    seen_suit = in_suit(seen, suit, ctx)
    if leader == "opponent":
        if lead.rank == 14 and ctx.trump is None and role == "attacker":
            return _answer_ace(held, signals, others, seen_suit, "nt_opponent_A", False, answer)
        return answer(held, "no_convention")
    if lead.rank == 14:
        return _answer_ace(held, signals, others, seen_suit, "answer_A", role == "helper", answer)
    no_ace = not _has(held, 14) and not _has(seen_suit, 14)
    if lead.rank == 13 and ctx.level != 14 and no_ace and convention.k_ask:
        if _has(held, 13):
            asked = set(signals) | {card for card in held if card.rank == 10}
            if partner_holding is not None and _has(in_suit(partner_holding, suit, ctx), 12):
                asked |= {card for card in held if card.rank == 13}
            if asked:
                return answer(asked, "ask_K_promote_Q" if _has(asked, 13) else "ask_K")
            rest = [card for card in held if card.rank != 13]
            return answer(rest or held, "has_K_no_signal_card")
        if _has(seen_suit, 13):
            return answer(held, "not_an_ask")
        return answer(others, "no_K") if others else answer(held, "only_signal_cards")
    if lead.rank == 5 and ctx.level != 14 and no_ace and convention.five_lead:
        kings = [card for card in held if card.rank == 13]
        return answer(kings, "five_lead_K") if kings else answer(held, "five_lead_no_K")
    return answer(held, "no_convention")


def _answer_ace(held: list[Card], signals: list[Card], others: list[Card], seen_suit: list[Card], signal_rule: str,
                may_skip: bool, answer: Callable[[Iterable[Card], str], Allowed]) -> Allowed:
    """Step 4 of `respond`: answering an A (应A), with or without the other A."""
    if _has(held, 14):
        ranks = Counter(card.rank for card in held)
        if may_skip and ranks[13] == 2 and ranks[10] and len(held) >= AKK10_MIN_LENGTH:
            return answer([*signals, *(card for card in held if card.rank == 10)], "skip_signal_10")
        if signals:
            return answer(signals, signal_rule)
        rest = [card for card in held if card.rank != 14]
        return answer(rest or held, "has_A_no_signal_card")
    if _has(seen_suit, 14):
        return answer(held, "not_an_ask")
    return answer(others, "no_A") if others else answer(held, "only_signal_cards")


# -- interpret: what does my partner's card say? ---------------------------------------------------------
def interpret(lead: Card, leader: str, role: str, play: Card, hand: Sequence[Card], seen: Sequence[Card],
              ctx: TrumpContext, convention: Convention) -> Verdict:
    """What the partner's card `play` on my (or, in no trump, an opponent's) single lead says (quiz
    *interpret*); `value` is the meaning."""
    suit = ctx.suit_of[lead.index]

    def say(meaning: str, rule: str) -> Verdict:
        return Verdict("interpret", rule, meaning)

    if suit == TRUMP:
        return say("no_meaning", "no_convention")
    mine, seen_suit = in_suit(hand, suit, ctx), in_suit(seen, suit, ctx)
    followed = ctx.suit_of[play.index] == suit
    opponent_ace = leader == "opponent" and lead.rank == 14 and ctx.trump is None and role == "attacker"
    if leader == "opponent" and not opponent_ace:
        return say("no_meaning", "no_convention")
    if lead.rank == 14:
        if _has(mine, 14) or _has(seen_suit, 14):
            return say("no_meaning", "not_an_ask")
        if not followed:
            return say("void", "void")
        if play.rank == 14:
            return say("played_other_A", "played_asked_card")
        if convention.is_signal(play, ctx):
            return say("has_other_A", "nt_opponent_A" if opponent_ace else "answer_A")
        if play.rank == 10 and role == "banker" and not opponent_ace and \
                _can_hold(suit, mine, seen_suit, ctx) >= AKK10_MIN_LENGTH:
            return say("cannot_tell", "skip_signal_10")
        return say("no_A", "no_A")
    both_aces = ctx.level != 14 and sum(card.rank == 14 for card in mine) == 2
    if lead.rank == 13 and both_aces and convention.k_ask:
        if _has(seen_suit, 13):
            return say("no_meaning", "not_an_ask")
        if not followed:
            return say("void", "void")
        if play.rank == 13:
            return say("played_other_K", "played_asked_card")
        if convention.is_signal(play, ctx):
            return say("has_other_K", "ask_K")
        if play.rank == 10:
            return say("cannot_tell", "ask_K_points")
        return say("no_K", "no_K")
    if lead.rank == 5 and both_aces and convention.five_lead:
        if not followed:
            return say("void", "void")
        return say("played_other_K", "five_lead_K") if play.rank == 13 else say("no_K", "five_lead_no_K")
    return say("no_meaning", "no_convention")


def _can_hold(suit: int, mine: Sequence[Card], seen_suit: Sequence[Card], ctx: TrumpContext) -> int:
    """The most cards of side suit `suit` my partner can have held when answering my single lead of it:
    the suit's two copies of each face less mine, those seen and the led card (the answer among them)."""
    return 2 * len(ctx.faces_by_suit[suit]) - len(mine) - len(seen_suit) - 1


# -- discard order (垫牌约定) -------------------------------------------------------------------------------
def _lead_suit(lead: Sequence[Card], ctx: TrumpContext) -> int:
    """The suit of a multi-card lead; fewer than two cards or two suits is malformed."""
    if len(lead) < 2:
        raise MalformedError("lead: a discard signal answers a lead of two or more cards")
    suits = {ctx.suit_of[card.index] for card in lead}
    if len(suits) != 1:
        raise MalformedError("lead: a lead must be all of one suit")
    return suits.pop()


def order_meaning(values: Sequence[int], size: int, discard: str) -> str:
    """What an order convention reads in the values laid (index 0 first) on a lead of `size` cards."""
    sign = 1 if discard == "small_on_top" else -1
    signed = [sign * value for value in values]
    last = signed[-1]
    if size == 2:
        return "yes" if last < signed[0] else "no"
    if all(a > b for a, b in zip(signed, signed[1:])):
        return "void"
    return "holds_A" if all(last < other for other in signed[:-1]) else "no"


def discard_order(lead: Sequence[Card], play: Sequence[Card], leader: str, ctx: TrumpContext,
                  convention: Convention) -> Verdict:
    """What the order (or sum) of a follower's cards on the partner's multi-card lead says; `value` is
    yes, no, void, holds_A or no_meaning."""
    suit = _lead_suit(lead, ctx)
    if len(play) != len(lead):
        raise MalformedError(f"play: expected {len(lead)} cards, as many as the lead, not {len(play)}")

    def say(meaning: str, rule: str) -> Verdict:
        return Verdict("discard_order", rule, meaning)

    if leader == "opponent":
        return say("no_meaning", "not_partner_lead")
    if suit == TRUMP:
        return say("no_meaning", "not_side_suit")
    laid = in_suit(play, suit, ctx)
    if not laid:
        return say("no_meaning", "void_before")
    if len(set(laid)) < len(laid):
        return say("no_meaning", "pair_in_play")
    if convention.order_discards:
        return say(order_meaning([card.rank for card in play], len(lead), convention.discard),
                   "order_two" if len(lead) == 2 else "order_three_plus")
    return say(sum_meaning(play, laid, convention), "sum_others_only" if len(laid) == 1 else "sum_all")


def sum_meaning(play: Sequence[Card], laid: Sequence[Card], convention: Convention) -> str:
    """What a sum convention reads in `play`, of which `laid` are the led suit's cards: the parity of the
    values' sum (with one card of the suit, of the other cards' values only)."""
    total = sum(card.rank for card in play) - (laid[0].rank if len(laid) == 1 else 0)
    return "yes" if (total % 2 == 0) == (convention.discard == "even_sum") else "no"


def discard_rule(convention: Convention, size: int, suit_cards: int) -> str:
    """The rule `discard_order` applies to a play of `suit_cards` cards of the led suit on a lead of `size`."""
    if convention.order_discards:
        return "order_two" if size == 2 else "order_three_plus"
    return "sum_others_only" if suit_cards == 1 else "sum_all"


def truth_after(lead_size: int, remaining: Sequence[Card], convention: Convention) -> str:
    """What a discard should say when `remaining` are my cards of the led suit after the play."""
    three_plus = convention.order_discards and lead_size >= 3
    if not remaining:
        return "void" if three_plus else "yes"
    if _has(remaining, 14):
        return "holds_A" if three_plus else "yes"
    return "no"


def discard_message(lead_size: int, held: Sequence[Card], convention: Convention) -> str:
    """The truth after the play (signals.md `discard_play` step 2), holding `held` of the led suit before
    it and keeping an A when there is one to keep."""
    return truth_after(lead_size, held if len(held) > lead_size else (), convention)


def _multisets(cards: Sequence[Card], size: int) -> set[tuple[Card, ...]]:
    """Every distinct choice of `size` cards out of `cards` (copies are alike); too many is refused."""
    if comb(len(cards), size) > MAX_ORDERS:
        raise MalformedError(f"hand: more than {MAX_ORDERS} plays to order; give fewer cards")
    ordered = sorted(cards, key=lambda card: card.index)
    return set(combinations(ordered, size))


def _arrangements(cards: Sequence[Card]) -> int:
    """How many distinct orders the cards can be laid in (copies are alike)."""
    return factorial(len(cards)) // prod(factorial(copies) for copies in Counter(cards).values())


def discard_play(lead: Sequence[Card], hand: Sequence[Card], ctx: TrumpContext, convention: Convention) -> Orders:
    """In which orders (with which cards) to answer the partner's multi-card lead so that the play says the
    truth (quiz *discard*)."""
    suit = _lead_suit(lead, ctx)
    size = len(lead)
    held = in_suit(hand, suit, ctx)

    def say(message: str, rule: str, orders: Iterable[tuple[Card, ...]] = ()) -> Orders:
        return Orders("discard_play", rule, message, tuple(orders))

    if suit == TRUMP:
        return say("no_meaning", "not_side_suit")
    if not held:
        return say("no_meaning", "void_before")
    if len(set(lead)) < len(lead) and len(set(held)) < len(held):
        return say("no_meaning", "must_follow_pair")
    message = discard_message(size, held, convention)
    if len(held) <= size:
        fillers = [card for card in hand if ctx.suit_of[card.index] != suit]
        if len(fillers) < size - len(held):
            raise MalformedError(f"hand: cannot make a play of {size} cards (holds {len(held)} of the suit and "
                                 f"{len(fillers)} other cards)")
        candidates = {tuple(held) + extra for extra in _multisets(fillers, size - len(held))}
    else:
        choices = _multisets(held, size)
        if _has(held, 14):
            aces = sum(card.rank == 14 for card in held)
            choices = {choice for choice in choices if sum(card.rank == 14 for card in choice) < aces}
        candidates = choices
    candidates = {c for c in candidates if len(set(in_suit(c, suit, ctx))) == len(in_suit(c, suit, ctx))}
    if sum(_arrangements(candidate) for candidate in candidates) > MAX_ORDERS:
        raise MalformedError(f"hand: more than {MAX_ORDERS} plays to order; give fewer cards")
    orders: set[tuple[Card, ...]] = set()
    for candidate in candidates:  # what discard_order reads, without checking the lead again for each order
        if not convention.order_discards:
            if sum_meaning(candidate, in_suit(candidate, suit, ctx), convention) == message:
                orders.update(permutations(candidate))
            continue
        orders.update(order for order in permutations(candidate)
                      if order_meaning([card.rank for card in order], size, convention.discard) == message)
    ranked = sorted(orders, key=lambda order: [ctx.sort_key[card.index] for card in order])
    return say(message, discard_rule(convention, size, min(len(held), size)), ranked)


# -- passing the suit (传牌) --------------------------------------------------------------------------------
def pass_exception(suit: int, hand: Sequence[Card], played: Sequence[Card], partner_void_in: Iterable[int],
                   partner_won_trick: bool, partner_discarded: Sequence[Card], opponents_discarded: Sequence[Card],
                   ctx: TrumpContext) -> int | None:
    """The first of the nine exceptions (seed 001 三(一)) that lets me not pass `suit`, or None."""
    held = in_suit(hand, suit, ctx)
    counts = Counter(card.index for card in held)
    pairs = sorted(ctx.position[face] for face, copies in counts.items() if copies >= 2)
    played_counts = Counter(card.index for card in played)
    discarded = in_suit(opponents_discarded, suit, ctx)
    tests = (
        lambda: not held,
        lambda: len(held) == 2 and len(counts) == 1,
        lambda: any(b - a == 1 for a, b in zip(pairs, pairs[1:])),
        lambda: any(_top_card(other, hand, played_counts, ctx) for other in range(4)
                    if other != suit and other in _side_suits(ctx)),
        lambda: len(held) >= 9,
        lambda: any(other != suit and other in _side_suits(ctx) for other in partner_void_in),
        lambda: partner_won_trick,
        lambda: bool(in_suit(partner_discarded, suit, ctx)),
        lambda: _has(discarded, 13) and _has(discarded, 10),
    )
    return next((number for number, test in enumerate(tests, start=1) if test()), None)


def _side_suits(ctx: TrumpContext) -> set[int]:
    return {suit for suit in range(4) if suit != ctx.trump}


def _top_card(suit: int, hand: Sequence[Card], played_counts: Counter[int], ctx: TrumpContext) -> bool:
    """True when my strongest card of `suit` has no unplayed stronger card (both copies are played)."""
    mine = in_suit(hand, suit, ctx)
    if not mine:
        return False
    best = max(ctx.strength[card.index] for card in mine)
    return all(played_counts[face] >= 2 for face in ctx.faces_by_suit[suit] if ctx.strength[face] > best)


def must_pass(suit: int, hand: Sequence[Card], signalled_in: Sequence[int], played: Sequence[Card],
              partner_void_in: Iterable[int], partner_won_trick: bool, partner_discarded: Sequence[Card],
              opponents_discarded: Sequence[Card], ctx: TrumpContext) -> Pass:
    """Must I pass the suit now (quiz *pass*)? After a signal, yes unless an exception holds (the first
    signalled suit first, seed 001 三(三)); without one, never, for the rule 三(二) names."""
    if signalled_in:
        first = signalled_in[0]
        exception = pass_exception(first, hand, played, partner_void_in, partner_won_trick, partner_discarded,
                                   opponents_discarded, ctx)
        if exception is None:
            return Pass("pass", "pass", None, first, True, None)
        return Pass("pass", "exception", None, first, False, exception)
    held = in_suit(hand, suit, ctx)
    if len(held) == 1:
        rule = "no_signal_last_card"
    elif _has(in_suit(opponents_discarded, suit, ctx), 13) and _has(held, 13):
        rule = "no_signal_K_discarded"
    else:
        rule = "no_signal"
    return Pass("pass", rule, None, suit, False, None)


# -- the banker's opening lead (首引) -----------------------------------------------------------------------
MIN_TRICKS_LEFT = 3
"""A later level-card lead asks for no more side suits only with at least this many tricks after it
(signals.md `opening_request` rule 2)."""


def opening_request(lead: Sequence[Card], trick: int, leader_role: str, ctx: TrumpContext, switch: bool = True,
                    side_left: bool = True, tricks_left: int = 99) -> Verdict:
    """What the banker's trump lead asks of the partner; `value` is help_draw_trumps, strong_draw,
    no_side_suits or None. A later level card asks for no side suits only as a switch (`switch`: the
    banker's previous lead was a side suit) by a banker still holding a side card (`side_left`) with
    `MIN_TRICKS_LEFT` or more tricks after this one; the defaults keep the plain reading."""
    def say(request: str | None, rule: str) -> Verdict:
        return Verdict("opening_request", rule, request)

    if leader_role != "banker" or len(lead) != 1:
        return say(None, "none")
    card = lead[0]
    if _is_level(card, ctx):
        if trick == 1:
            return say("strong_draw", "opening_level")
        if switch and side_left and tricks_left >= MIN_TRICKS_LEFT:
            return say("no_side_suits", "midhand_level")
        return say(None, "none")
    if trick == 1 and ctx.trump is not None and card.suit == ctx.trump and card.rank in (11, 12, 14):
        return say("help_draw_trumps", "opening_JQA")
    return say(None, "none")
