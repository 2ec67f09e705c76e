"""What the templates draw: cards, hands grouped by suit (主 first), seats named as players name them."""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from flask_babel import gettext as _

from trainer.engine.cards import BIG_JOKER, RANK_NAMES, Card, Suit
from trainer.engine.combos import Combination
from trainer.engine.trump import TrumpContext
from trainer.records import Position, Replay, state_at

SUIT_ORDER = ("trump", "S", "H", "C", "D")


@dataclass(frozen=True, slots=True)
class CardView:
    """One card as drawn: rank, suit symbol, CSS classes (colour, joker, trump, points) and a title."""

    code: str
    rank: str
    symbol: str
    css: str
    title: str


def card_view(card: Card, ctx: TrumpContext | None = None, trump: bool | None = None) -> CardView:
    """A card for the `card` macro: ♥♦ red, ♠♣ black, the two jokers distinct, trumps marked (by
    `ctx`, or by `trump` when the caller knows)."""
    classes = ["card"]
    if card.suit is None:
        big = card.rank == BIG_JOKER
        classes.append("joker-big" if big else "joker-small")
        rank, symbol = (_("BJ"), "★") if big else (_("SJ"), "☆")
        title = _("big joker") if big else _("small joker")
    else:
        classes.append("red" if card.suit in (Suit.H, Suit.D) else "black")
        rank, symbol = RANK_NAMES[card.rank], card.suit.symbol
        title = card.pretty
    if trump if trump is not None else (ctx is not None and ctx.is_trump(card)):
        classes.append("trump")
    if card.points:
        classes.append("points")
    return CardView(str(card), rank, symbol, " ".join(classes), title)


def cards_view(cards: Iterable[Card], ctx: TrumpContext | None = None) -> list[CardView]:
    """Cards in the given order (plays keep the order they were laid in)."""
    return [card_view(card, ctx) for card in cards]


def suit_label(key: str) -> str:
    """主 for trumps, else the suit's symbol and name."""
    if key == "trump":
        return _("Trumps (主)")
    suit = Suit[key]
    names = {Suit.S: _("spades"), Suit.H: _("hearts"), Suit.C: _("clubs"), Suit.D: _("diamonds")}
    return f"{suit.symbol} {names[suit]}"


@dataclass(frozen=True, slots=True)
class SuitGroup:
    """A hand's cards of one effective suit; `void` (绝门) when it has none of a side suit."""

    key: str
    label: str
    cards: list[CardView]

    @property
    def void(self) -> bool:
        """No cards of this suit left."""
        return not self.cards


def hand_groups(cards: Iterable[Card], ctx: TrumpContext) -> list[SuitGroup]:
    """A hand sorted for display, trumps first by strength, then ♠ ♥ ♣ ♦ strongest first; every
    side suit appears (empty ones show as void), trumps only when there is a trump group."""
    groups: dict[str, list[CardView]] = {key: [] for key in SUIT_ORDER}
    for card in ctx.sort_hand(cards):
        groups[ctx.effective_suit(card)].append(card_view(card, ctx))
    side_suits = [key for key in SUIT_ORDER[1:] if ctx.trump is None or key != ctx.trump.letter]
    keys = ["trump", *side_suits]
    return [SuitGroup(key, suit_label(key), groups[key]) for key in keys]


def combo_labels() -> dict[str, str]:
    """Every kind of lead as players say it, in the current language."""
    return {"single": _("single"), "pair": _("pair (对)"), "triple": _("triple"), "quad": _("quad"),
            "tractor": _("tractor (拖拉机)"), "throw": _("throw (甩牌)"), "mixed": _("mixed")}


def combo_label(cards: Sequence[Card], ctx: TrumpContext, labels: dict[str, str] | None = None) -> str:
    """The kind of a lead as players say it: 单张, 对, 拖拉机, 甩牌 … (`labels`: `combo_labels()`, when
    the caller keeps them)."""
    return (labels or combo_labels())[Combination.of(cards, ctx).kind]



def seat_label(seat: int, banker: int, viewer: int | None = None) -> str:
    """A seat's name: relative to the viewer (自己/下家/对家/上家) when one is chosen, else its
    number; with its side (庄家 the banker, 闲家 an attacker)."""
    if viewer is None:
        name = _("Seat %(n)d", n=seat)
    else:
        relative = (seat - viewer) % 4
        name = (_("Me (自己)"), _("Next (下家)"), _("Partner (对家)"), _("Previous (上家)"))[relative]
    if seat == banker:
        side = _("banker (庄家)")
    elif (seat - banker) % 2 == 0:
        side = _("banker's partner")
    else:
        side = _("attacker (闲家)")
    return f"{name} · {side}"


def trump_label(ctx: TrumpContext) -> str:
    """The trump suit: its symbol and name, or no trump (无主)."""
    return _("no trump (无主)") if ctx.trump is None else suit_label(ctx.trump.letter)


@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat in the replay of a trick: its hand before the trick and what it played."""

    seat: int
    label: str
    groups: list[SuitGroup]
    count: int
    play: list[CardView] | None
    leads: bool
    wins: bool


@dataclass(frozen=True, slots=True)
class TrickView:
    """Trick `number` of `total`: every hand before it, the plays, the winner and the points."""

    number: int
    total: int
    leader: int
    winner: int
    points: int
    penalty: int
    partial: bool
    lead_kind: str
    attempt: list[CardView] | None
    seats: list[SeatView]
    attackers_points: int


def trick_view(replayed: Replay, number: int, viewer: int | None = None) -> TrickView | None:
    """Trick `number` (1-based) of a validated deal with all hands shown; None when it has no tricks."""
    record = replayed.record
    if not record.tricks:
        return None
    ctx = record.ctx
    state = state_at(record, Position(number, 0))
    trick, summary = record.tricks[number - 1], replayed.tricks[number - 1]
    plays = {(trick.leader + i) % 4: play for i, play in enumerate(trick.plays)}
    order = range(4) if viewer is None else [(viewer + k) % 4 for k in range(4)]
    seats = []
    for seat in order:
        hand = [Card.from_index(face) for face, copies in state.hands[seat].items() for _ in range(copies)]
        play = plays.get(seat)
        seats.append(SeatView(seat, seat_label(seat, record.banker, viewer), hand_groups(hand, ctx), len(hand),
                              cards_view(play, ctx) if play is not None else None, seat == trick.leader,
                              seat == summary.winner))
    attackers = sum(t.points for t in replayed.tricks[:number]
                    if not t.partial and (t.winner - record.banker) % 2 == 1)
    return TrickView(number, len(record.tricks), trick.leader, summary.winner, summary.points, summary.penalty,
                     summary.partial, combo_label(trick.attempt or trick.plays[0], ctx),
                     cards_view(trick.attempt, ctx) if trick.attempt is not None else None, seats, attackers)


def trump_short(code: str) -> str:
    """A stored trump code (S H C D none) as a symbol, or 无主."""
    return _("no trump (无主)") if code == "none" else Suit[code].symbol
