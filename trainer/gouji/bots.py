"""够级 bots for every seat: a heuristic player that plays like people, and a random legal one; a hand played
by six bots (gouji.md §3).

The heuristic bot looks only at its own hand and the public table (the top, its owner, the mode, who may
burn, the hand sizes): it leads its lowest set first so that its last set is its strongest; it keeps its
jokers and 2s to answer 够级 plays as 对头 (X "够级牌的保护"), and spends them freely only near the end;
it never tops a teammate outside 够级 mode; as 对头 it yields (让牌) to a teammate still to act that holds fewer
cards, or rather than break a set; it burns (烧牌) an opponent's 够级 play whenever the burn is legal, a
teammate's only to go out behind it, and keeps its jokers when its hand is close to a legal burn; and it
avoids 憋3: a play that would leave it only 3s carries every joker it has, or is not made.

>>> import random
>>> state = play_hand(random.Random(1), GoujiRules(), ["heuristic", "random"] * 3, leader=0)[1]
>>> state.over
True
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from trainer.engine.cards import Card
from trainer.gouji.deal import choose_moves, deal, with_exchanges
from trainer.gouji.plays import BIG, SMALL, THREE, TWO, VALUE_OF, burn_shortfall
from trainer.gouji.randomplay import _beating_candidates, _by_value, _lead_candidates, _try, record_of
from trainer.gouji.rules import GoujiRules
from trainer.gouji.state import Action, HandState

ENDGAME = 10
"""At or below this many cards a heuristic bot spends jokers and 2s on plain plays too."""


class Bot:
    """A player for one seat: `burn` may burn the top in 够级 mode, `act` takes the seat's turn. Both apply
    the action to the state and return it."""

    def __init__(self, seat: int, rng: random.Random) -> None:
        self.seat = seat
        self.rng = rng

    def burn(self, state: HandState) -> list[Card] | None:
        """Burn the top (a legal play applied) or decline (None)."""
        raise NotImplementedError

    def act(self, state: HandState) -> Action:
        """Take the seat's turn: lead, beat, pass or yield."""
        raise NotImplementedError

    def _fallback_lead(self, state: HandState) -> Action:
        for cards in _lead_candidates(state, self.seat, self.rng):
            if _try(state, self.seat, cards):
                return cards
        raise RuntimeError(f"seat {self.seat} has no legal lead")


class RandomBot(Bot):
    """A random legal player (the random legal player of `trainer.gouji.randomplay`, seat by seat)."""

    def burn(self, state: HandState) -> list[Card] | None:
        """Now and then try a random beating play as a burn."""
        if self.rng.random() >= 0.2 or state.top is None:
            return None
        candidates = _beating_candidates(state, self.seat, state.top)
        self.rng.shuffle(candidates)
        return next((cards for cards in candidates if _try(state, self.seat, cards)), None)

    def act(self, state: HandState) -> Action:
        """Lead at random; else yield now and then, beat at random more often than not, or pass."""
        turn, rng, seat = state.turn, self.rng, self.seat
        if turn.leading:
            return self._fallback_lead(state)
        if turn.may_yield and rng.random() < 0.2:
            state.act(seat, "yield")
            return "yield"
        if rng.random() < 0.6 and state.top is not None:
            candidates = _beating_candidates(state, seat, state.top)
            rng.shuffle(candidates)
            for cards in candidates:
                if _try(state, seat, cards):
                    return cards
        state.act(seat, "pass")
        return "pass"


def _cost(cards: Sequence[Card], held: dict[int, list[Card]]) -> tuple[int, int, int, int]:
    """How dear a play is to its player: jokers, then 2s, then sets broken, then the base's height."""
    values = [VALUE_OF[card.index] for card in cards]
    jokers = sum(1 for v in values if v >= SMALL)
    twos = values.count(TWO)
    plain = [v for v in values if v < TWO]
    base = plain[0] if plain else (TWO if twos else BIG)
    broken = int(bool(plain) and len(plain) < len(held.get(base, ())))
    return jokers, twos, broken, base


def _burn_ready(state: HandState, seat: int) -> bool:
    """True when `seat` holds a joker and its hand is within two jokers of a legal burn (gouji.md §3.5): the
    jokers are then kept, since a burn that takes a whole rank or two may soon leave a rest that can go out."""
    short, _ = burn_shortfall([VALUE_OF[card.index] for card in state.hand(seat)], state.rules)
    return short <= 2 and any(VALUE_OF[card.index] >= SMALL for card in state.hand(seat))


class HeuristicBot(Bot):
    """A bot that plays like people (see the module's docstring)."""

    def burn(self, state: HandState) -> list[Card] | None:
        """Burn a 够级 play whenever the rest of the hand can then go out (the legal burn, J "烧牌的条件"):
        an opponent's always (it stops the play's 开点 and takes the lead from the 对头's side); a
        teammate's only to go out behind it or when an opponent is close to going out (X "你的联邦只需烧你一套牌
        即可争到对手前面"). A burn that would leave only 3s carries a big joker, as any such play (憋3)."""
        top, owner, rules, seat = state.top, state.owner, state.rules, self.seat
        if top is None or owner is None:
            return None
        held = _by_value(state, seat)
        jokers = len(held.get(BIG, ())) + len(held.get(SMALL, ()))
        if len([v for v in held if v < SMALL]) > jokers + 3:
            return None         # the rest would hold too many ranks for its jokers, whatever is burned
        size, threes = state.sizes[seat], len(held.get(THREE, ()))
        if rules.team(owner) == rules.team(seat):
            racing = any(state.sizes[s] <= ENDGAME for s in range(state.players)
                         if rules.team(s) != rules.team(seat) and state.out[s] is None)
            if not racing and len([v for v in held if v < SMALL and v != THREE]) > 2:
                return None     # a teammate's play is burned only to go out, or in the race with an opponent
        for cards in sorted(_beating_candidates(state, seat, top), key=lambda c: _cost(c, held)):
            if threes and size - len(cards) == threes and not any(VALUE_OF[c.index] == BIG for c in cards):
                continue
            if _try(state, seat, cards):
                return cards
        return None

    def act(self, state: HandState) -> Action:
        """Lead low sets first; beat opponents cheaply, as 对头 with jokers if need be; else pass."""
        if state.turn.leading:
            return self._lead(state)
        seat, top, owner, rules = self.seat, state.top, state.owner, state.rules
        assert top is not None and owner is not None
        held = _by_value(state, seat)
        size = state.sizes[seat]
        answering = state.turn.mode == "gouji"
        teammate = rules.team(owner) == rules.team(seat)
        if teammate and not answering and state.sizes[owner] > 0:
            state.act(seat, "pass")
            return "pass"
        in_run = state.runs[seat]
        candidates = sorted(_beating_candidates(state, seat, top), key=lambda c: _cost(c, held))
        threes = len(held.get(THREE, ()))
        ready = _burn_ready(state, seat)
        for cards in candidates:
            jokers, twos, broken, _ = _cost(cards, held)
            if (jokers or twos) and not (answering or in_run or size <= ENDGAME or top.gouji):
                continue
            if jokers and not in_run and ready:
                continue  # the jokers are kept for a burn (烧牌) the hand is close to
            if threes and size - len(cards) == threes and not any(VALUE_OF[c.index] == BIG for c in cards) \
                    and not answering:
                continue  # it would leave only 3s behind a play that can still be beaten (憋3)
            if state.turn.may_yield and self._yields(state, broken):
                state.act(seat, "yield")
                return "yield"
            if _try(state, seat, cards):
                return cards
        state.act(seat, "pass")
        return "pass"

    def _yields(self, state: HandState, breaks_a_set: bool) -> bool:
        """As the top's 对头 with a beat in hand, yield (让牌) so that the teammate after the next seat plays
        first (J "即不想过牌，又不原意立即上牌时，可声明让牌"; C "逢对门的牌均应先让后打"): when that teammate is
        still to act and holds no more cards than this seat (it is ahead in the race, X "为联邦争科创造条件"),
        or when the beat would break a set (拆牌). If nobody beats, the walk comes back and this seat beats."""
        teammate = (self.seat + 2) % state.players
        if state.out[teammate] is not None or state.has_passed(teammate):
            return False
        return state.sizes[teammate] <= state.sizes[self.seat] or breaks_a_set

    def _lead(self, state: HandState) -> Action:
        seat = self.seat
        held = _by_value(state, seat)
        jokers = held.get(SMALL, []) + held.get(BIG, [])
        groups = sorted(v for v in held if v < SMALL and v != THREE)
        threes = held.get(THREE, [])
        if state.runs[seat] and (len(groups) + bool(threes) > 1 or (threes and jokers)):
            cards = (held[groups[0]] if groups else []) + jokers[:1]     # a burn run: a joker in every set
        elif len(groups) > 1:
            cards = list(held[groups[0]])                                   # the lowest set first
        elif groups or jokers:
            cards = [c for v in groups for c in held[v]] + jokers           # the last set carries every joker
        else:
            cards = threes
        if _try(state, seat, cards):
            return cards
        return self._fallback_lead(state)


BOTS: dict[str, type[Bot]] = {"heuristic": HeuristicBot, "random": RandomBot}
"""The bot kinds by name, as `deal generate --bots` takes them."""


def burn_order(state: HandState) -> list[int]:
    """The seats that may burn, the top owner's teammates first (J "发够级牌者的联邦可先于其他人烧牌")."""
    owner, rules = state.owner, state.rules
    assert owner is not None
    return sorted(state.turn.may_burn, key=lambda s: (rules.team(s) != rules.team(owner), (s - owner) % rules.players))


def play_out(state: HandState, bots: Sequence[Bot]) -> None:
    """Play the hand to its end, each seat's bot taking its turns and its chances to burn."""
    while not state.over:
        if state.turn.mode == "gouji" and state.turn.may_burn:
            if any(bots[s].burn(state) is not None for s in burn_order(state)):
                continue
        actor = state.turn.actor
        assert actor is not None
        bots[actor].act(state)


def play_hand(rng: random.Random, rules: GoujiRules, kinds: Sequence[str], leader: int
              ) -> tuple[tuple[list[list[Card]], list[tuple[int, int, Card, Card | None]]], HandState]:
    """Deal, make the 买3 moves and play a whole hand with a bot of `kinds[seat]` in each seat; the dealt
    hands and moves (for the record) and the final state."""
    hands = deal(rng, rules)
    moves = choose_moves(hands, leader, rules)
    state = HandState.start(rules, with_exchanges(hands, moves), leader)
    state.keep_undo = False
    play_out(state, [BOTS[kind](seat, rng) for seat, kind in enumerate(kinds)])
    return (hands, moves), state


def record_hand(rng: random.Random, rules: GoujiRules, kinds: Sequence[str], leader: int
                ) -> tuple[dict[str, Any], HandState]:
    """One hand played by bots, as a `jipai-deal/1` Gouji record, with its final state."""
    (hands, moves), state = play_hand(rng, rules, kinds, leader)
    return record_of(rules, hands, moves, leader, state), state


__all__ = ["Bot", "HeuristicBot", "RandomBot", "BOTS", "burn_order", "play_out", "play_hand", "record_hand"]
