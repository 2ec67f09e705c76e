"""进贡, 还贡 and 抗贡 between hands, and the first lead (guandan.md §4.2, §4.3).

>>> from trainer.engine.cards import parse_cards
>>> from trainer.guandan.level import rank_text
>>> hands = [parse_cards("3S 4D"), [], parse_cards("BJ 9S 5H"), []]
>>> plan = tribute_plan([0, 3, 1], hands, Level.parse("5"))
>>> plan.kind, plan.leader, [(t.payer, t.receiver, rank_text(t.rank)) for t in plan.tributes]
('single', 2, [(2, 0, 'BJ')])
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from trainer.engine.cards import BIG_JOKER, Card
from trainer.engine.errors import MalformedError
from trainer.guandan.level import Level
from trainer.guandan.rules import GuandanRules
from trainer.guandan.scoring import check_places, last_place

@dataclass(frozen=True, slots=True)
class Tribute:
    """One 进贡 due: `payer` gives `receiver` a card of `rank`, one of `cards` (its faces of that rank)."""

    payer: int
    receiver: int
    rank: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class TributePlan:
    """What §4.2 asks before a hand: `kind` none/single/double/resist, the tributes (the 上游's first),
    the first leader (None for a first hand) and the seats that showed a BJ for 抗贡."""

    kind: str
    tributes: tuple[Tribute, ...]
    leader: int | None
    resist: tuple[int, ...]


def due_rank(hand: Sequence[Card], level: Level) -> int:
    """The rank a payer must give: its highest by level order, wilds excluded (§4.2)."""
    ranks = [card.rank for card in hand if not level.is_wild(card)]
    if not ranks:
        raise MalformedError("a payer holding nothing but wilds has no tribute to give")
    return max(ranks, key=level.rank_lv)


def _faces(hand: Sequence[Card], rank: int, level: Level) -> tuple[Card, ...]:
    faces = {card for card in hand if card.rank == rank and not level.is_wild(card)}
    return tuple(sorted(faces, key=lambda card: card.index))


def tribute_plan(places: Sequence[int] | None, hands: Sequence[Sequence[Card]], level: Level) -> TributePlan:
    """The 进贡 of a new hand dealt `hands` at `level` after a hand finished in `places` (None: a first hand)."""
    if places is None:
        return TributePlan("none", (), None, ())
    seats = check_places(places)
    first = seats[0]
    low = last_place(places)
    payers = [low] if low is not None else [first.next, first.previous]
    if sum(1 for payer in payers for card in hands[payer] if card.rank == BIG_JOKER) == 2:
        holders = tuple(sorted(p for p in payers if any(card.rank == BIG_JOKER for card in hands[p])))
        return TributePlan("resist", (), int(first), holders)
    ranks = {payer: due_rank(hands[payer], level) for payer in payers}
    if low is not None:
        tribute = Tribute(int(low), int(first), ranks[low], _faces(hands[low], ranks[low], level))
        return TributePlan("single", (tribute,), int(low), ())
    right, left = payers  # 上游's 下家 and 上家: equal cards go 下家 → 上游 (贡左还右)
    if level.rank_lv(ranks[left]) > level.rank_lv(ranks[right]):
        right, left = left, right
    second = seats[1]
    tributes = (Tribute(int(right), int(first), ranks[right], _faces(hands[right], ranks[right], level)),
                Tribute(int(left), int(second), ranks[left], _faces(hands[left], ranks[left], level)))
    return TributePlan("double", tributes, int(right), ())


def return_reason(hand: Sequence[Card], card: Card, level: Level, rules: GuandanRules) -> tuple[bool, str]:
    """Whether a receiver holding `hand` (the tribute included) may give back `card` (还贡), and the code:
    `not_in_hand`, `ok`, `over_ten` (it holds a card of lv ≤ 10), `lowest` or `not_lowest` (it holds none)."""
    if card not in hand:
        return False, "not_in_hand"
    if rules.return_card == "any" or level.lv(card) <= 10:
        return True, "ok"
    if any(level.lv(other) <= 10 for other in hand):
        return False, "over_ten"
    lowest = min(level.lv(other) for other in hand)
    return (True, "lowest") if level.lv(card) == lowest else (False, "not_lowest")


def return_problem(hand: Sequence[Card], card: Card, level: Level, rules: GuandanRules) -> str | None:
    """Why `card` may not be returned from `hand`, in words; None when it may."""
    ok, code = return_reason(hand, card, level, rules)
    if ok:
        return None
    return {"not_in_hand": f"does not hold {card} to return",
            "over_ten": f"returns {card} but holds a card of 10 or lower (return_card = ten_or_lower)",
            "not_lowest": f"returns {card} but holds no card of 10 or lower, so must return one of its lowest"
            }[code]
