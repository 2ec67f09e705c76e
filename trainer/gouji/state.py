"""The state of a 够级 hand in play: rounds and turns, burns, yields, 闷, places and 开点 (gouji.md §3.4–3.7).

`HandState` is the mutable `State` of the game/state/observer split: `act(seat, action)` applies a play
(a list of cards), `"pass"` or `"yield"`, checking every rule, and `undo()` takes the last action back.
Illegal actions raise `IllegalPlayError` with the reason in words; the state is then unchanged.

>>> from trainer.engine.cards import parse_cards
>>> hands = [parse_cards(["3S", "5S", "5D"]), parse_cards(["3H", "6S"]), parse_cards(["3C", "7S"]),
...          parse_cards(["3D", "8S"]), parse_cards(["3S", "9S"]), parse_cards(["3H", "10S"])]
>>> state = HandState.start(GoujiRules(), hands, leader=0)
>>> state.act(0, parse_cards(["5S", "5D"])); state.turn.actor
1
>>> state.act(1, "pass"); state.undo(); state.turn.actor
1
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import NamedTuple

from trainer.engine.cards import Card, pretty_cards
from trainer.engine.errors import IllegalPlayError
from trainer.gouji.deal import natural_openers
from trainer.gouji.plays import (BIG, SMALL, THREE, VALUE_NAMES, VALUE_OF, Play, analyse, beats,
                                 burn_shortfall, is_two_kill_one, opens)
from trainer.gouji.rules import GoujiRules

Action = Sequence[Card] | str
"""A play (cards in the order laid), `"pass"` or `"yield"`."""


class Out(NamedTuple):
    """How a seat left the hand: its place (1 = 头科) and `finished` or `men` (闷)."""

    place: int
    how: str


@dataclass(frozen=True, slots=True)
class Burn:
    """A burn (烧牌): burner, owner of the burned play, round, whether it burned a burn run (反烧), and
    `success` (None while the burner's run is open)."""

    by: int
    of: int
    round: int
    counter: bool
    success: bool | None = None


@dataclass(frozen=True, slots=True)
class Men:
    """A seat made 闷 (憋3): its last play before its 3s was beaten by `by` in round `round`."""

    seat: int
    by: int
    round: int


@dataclass(frozen=True, slots=True)
class Kill:
    """A beat allowed only by 二杀一 (two BJ over one): by whom, of whom, in which round."""

    by: int
    of: int
    round: int


class RoundSummary(NamedTuple):
    """A round that has ended: its leader, winner (owner of its last top) and number of actions."""

    leader: int
    winner: int
    actions: int


class Turn(NamedTuple):
    """Who acts next: `actor` (None when the hand is over), the mode (normal, gouji, luanchan), whether it
    leads, may yield (让牌), and the seats that may burn first (够级 mode)."""

    actor: int | None
    mode: str
    leading: bool = False
    may_yield: bool = False
    may_burn: tuple[int, ...] = ()


def mode_of(top: Play | None, head: bool, active: int, rules: GoujiRules) -> str:
    """The mode before an action: luanchan (≤ 4 seats not out), gouji (a 够级 top whose 对头 is in) or normal."""
    if rules.luanchan_seats and active <= rules.luanchan_seats:
        return "luanchan"
    if top is not None and top.gouji and head:
        return "gouji"
    return "normal"


def _ranks_text(values: Sequence[int]) -> str:
    return " ".join(VALUE_NAMES[v] for v in values)


def play_problem(play: Play, top: Play | None, rules: GoujiRules, *, burn: bool = False, passed: bool = False,
                 in_run: bool = False, rest: Sequence[int] | None = None, empties: bool | None = None) -> str | None:
    """Why `play` may not be made over `top` (None: leading), or None when it may (gouji.md §3.1, §3.3, §3.5).

    `burn`: it is a burn (够级 mode, not the 对头); `passed`: the player passed this round; `in_run`: the
    player is in a burn run; `rest`: values of the cards it keeps (None when the hand is unknown: then burn
    completion is not checked); `empties`: the play empties the hand (by default: `rest` is empty).
    """
    if empties is None:
        empties = rest is not None and not rest
    if play.has_three and rules.biesan and not empties:
        return "3s go out last, all of them as the whole hand (憋3)"
    if top is not None and not beats(play, top, rules):
        return f"{'as a burn ' if burn else ''}{pretty_cards(play.cards)} does not beat {pretty_cards(top.cards)}"
    if burn and passed:
        return "a seat that passed this round may not burn (过牌不得烧牌)"
    if (burn or in_run) and rest is not None:
        short, ranks = burn_shortfall(rest, rules)
        if short:
            jokers = sum(1 for v in rest if v >= SMALL)
            what = "as a burn it" if burn else "in a burn run the rest"
            return (f"{what} needs {len(ranks) - 1} joker{'s' if len(ranks) != 2 else ''} for "
                    f"{_ranks_text(ranks)}, holds {jokers}")
    if in_run and not play.jokers and not empties:
        return "in a burn run every play but the last holds a joker"
    return None


class HandState:
    """A 够级 hand in play, from the first lead (after 买3) to its end; `act` and `undo`.

    Read-only for callers: `turn` (who acts next), `top` and `owner` (the last play of the round and its
    player, None before the lead), `leader` and `round_no` (the current round, or the next one between
    rounds), `round_actions`, `passed` (bitmask of seats that passed this round; `has_passed`), `yielder`,
    `out` (per seat None or `Out(place, how)`), `places` (seat at place 1…N or None), `active` (seats not
    out), `runs` (per seat: in a burn run), `burns`, `men`, `kills` (二杀一), `opened` and `natural`
    (bitmasks; `opened_seats()`), `rounds` (ended rounds), `history` ((round, seat, action) in order),
    `over`, `faces` / `counts` / `sizes` (each hand by face index, by value, and its size; `hand(seat)`).
    """

    rules: GoujiRules
    n: int
    half: int
    luanchan: int
    faces: list[list[int]]
    counts: list[list[int]]
    sizes: list[int]
    history: list[tuple[int, int, Action]]
    out: tuple[Out | None, ...]
    places: tuple[int | None, ...]
    active: int
    round_no: int
    leader: int
    round_actions: int
    top: Play | None
    owner: int | None
    passed: int
    offset: int
    yielder: int | None
    yield_back: bool
    runs: tuple[bool, ...]
    burns: tuple[Burn, ...]
    men: tuple[Men, ...]
    kills: tuple[Kill, ...]
    opened: int
    natural: int
    rounds: tuple[RoundSummary, ...]
    over: bool
    turn: Turn
    keep_undo: bool
    """False (for a fast replay) keeps no undo information."""

    @classmethod
    def start(cls, rules: GoujiRules, hands: Sequence[Sequence[Card]], leader: int) -> HandState:
        """The hand at the first lead: the playing hands (dealt ± 买3) and the first leader."""
        n = rules.players
        if len(hands) != n:
            raise IllegalPlayError(f"expected {n} hands, got {len(hands)}")
        state = cls()
        state.rules = rules
        state.n, state.half, state.luanchan = n, rules.half, rules.luanchan_seats
        state.faces = [[0] * 54 for _ in range(n)]
        state.counts = [[0] * 18 for _ in range(n)]
        state.sizes = [len(hand) for hand in hands]
        for seat, hand in enumerate(hands):
            for card in hand:
                state.faces[seat][card.index] += 1
                state.counts[seat][VALUE_OF[card.index]] += 1
        state.history = []
        state._undo = []
        state.keep_undo = True
        state.out = (None,) * n
        state.places = (None,) * n
        state.active = n
        state.round_no, state.leader, state.round_actions = 1, leader, 0
        state.top, state.owner, state.passed, state.offset = None, None, 0, 1
        state.yielder, state.yield_back = None, False
        state.runs = (False,) * n
        state.burns, state.men, state.kills, state.rounds = (), (), (), ()
        state.natural = state.opened = sum(1 << seat for seat in natural_openers(state.counts, rules))
        state.over = False
        state.turn = Turn(leader, state.mode(), leading=True)
        return state

    # ----- reading the state -------------------------------------------------------------------------
    @property
    def players(self) -> int:
        """N, the number of seats."""
        return self.n

    def hand(self, seat: int) -> list[Card]:
        """The cards `seat` holds, face by face."""
        faces = self.faces[seat]
        return sorted((Card.from_index(index) for index in range(54) for _ in range(faces[index])),
                      key=lambda card: (VALUE_OF[card.index], card.index))

    def hand_size(self, seat: int) -> int:
        """How many cards `seat` holds."""
        return self.sizes[seat]

    def has_passed(self, seat: int) -> bool:
        """True when `seat` has passed in this round."""
        return bool(self.passed >> seat & 1)

    def has_opened(self, seat: int) -> bool:
        """True when `seat` has opened (开点), naturally or by a play."""
        return bool(self.opened >> seat & 1)

    def opened_seats(self) -> list[int]:
        """The seats that have opened, ascending."""
        return [seat for seat in range(self.players) if self.opened >> seat & 1]

    def mode(self) -> str:
        """The mode before the next action (gouji.md §3.4)."""
        if self.luanchan and self.active <= self.luanchan:
            return "luanchan"
        top = self.top
        if top is not None and top.gouji and self.out[(self.owner + self.half) % self.n] is None:
            return "gouji"
        return "normal"

    def kaidian_closed(self) -> bool:
        """True once opening is closed (a 头科, or a 二科 with `kaidian_closes = erke`)."""
        return self.places[0 if self.rules.kaidian_closes == "touke" else 1] is not None

    def next_leader(self) -> int | None:
        """Who leads next when a round has just ended (None during a round or when the hand is over)."""
        if self.over or self.top is not None:
            return None
        return self.leader

    def action_count(self) -> int:
        """Actions applied so far in the hand."""
        return len(self.history)

    # ----- applying actions --------------------------------------------------------------------------
    def act(self, seat: int, action: Action) -> None:
        """Apply `seat`'s action: a play (cards in the order laid), `"pass"` or `"yield"`."""
        if self.over:
            raise IllegalPlayError("the hand is over")
        if not 0 <= seat < self.n:
            raise IllegalPlayError(f"there is no seat {seat}")
        if self.out[seat] is not None:
            raise IllegalPlayError(f"seat {seat} is out of the hand")
        saved = self.__dict__.copy() if self.keep_undo else None
        round_no = self.round_no
        if action == "pass":
            self._pass(seat)
            removed: tuple[Card, ...] = ()
        elif action == "yield":
            self._yield(seat)
            removed = ()
        elif isinstance(action, str):
            raise IllegalPlayError(f"an action is cards, \"pass\" or \"yield\", not {action!r}")
        else:
            removed = tuple(action)
            self._play(seat, removed)
        if saved is not None:
            self._undo.append((saved, seat, removed))
        self.history.append((round_no, seat, action if isinstance(action, str) else removed))

    def undo(self) -> None:
        """Take the last action back (`IndexError` when there is none, or `keep_undo` was off)."""
        saved, seat, removed = self._undo.pop()
        self.history.pop()
        self.__dict__.update(saved)
        if removed:
            faces, counts = self.faces[seat], self.counts[seat]
            for card in removed:
                faces[card.index] += 1
                counts[VALUE_OF[card.index]] += 1
            self.sizes[seat] += len(removed)

    def _wrong_turn(self, seat: int) -> IllegalPlayError:
        turn = self.turn
        if turn.leading:
            return IllegalPlayError(f"seat {turn.actor} leads this round")
        if turn.mode == "gouji":
            return IllegalPlayError(f"only 对头 seat {turn.actor} may answer a 够级 play")
        return IllegalPlayError(f"it is seat {turn.actor}'s turn")

    def _pass(self, seat: int) -> None:
        turn = self.turn
        if turn.leading:
            raise IllegalPlayError("the leader must play") if seat == turn.actor else self._wrong_turn(seat)
        if seat != turn.actor:
            if turn.mode == "gouji" and seat in turn.may_burn:
                raise IllegalPlayError(f"only 对头 seat {turn.actor} may answer a 够级 play; declining to burn "
                                       "is not recorded")
            raise self._wrong_turn(seat)
        self.passed |= 1 << seat
        self.round_actions += 1
        if turn.mode == "gouji" or self.yield_back:
            self._end_round()
            return
        assert self.owner is not None
        self.offset = (seat - self.owner) % self.n + 1
        self._next_turn(turn.mode)

    def _yield(self, seat: int) -> None:
        turn = self.turn
        if seat != turn.actor:
            raise self._wrong_turn(seat)
        if not turn.may_yield:
            if turn.mode == "gouji":
                raise IllegalPlayError("no yielding (让牌) on a 够级 play")
            if turn.mode == "luanchan":
                raise IllegalPlayError("no yielding (让牌) in 乱缠")
            if self.owner is None or seat != self.rules.duitou(self.owner):
                raise IllegalPlayError("only the top's 对头 may yield (让牌)")
            if self.yielder is not None:
                raise IllegalPlayError("the yielder acts again: beat or pass")
            raise IllegalPlayError("a yield (让牌) needs every seat between the top's owner and its 对头 to "
                                   "have passed")
        self.yielder = seat
        self.round_actions += 1
        self.offset = self.rules.half + 1
        self._next_turn(turn.mode)

    def _play(self, seat: int, cards: tuple[Card, ...]) -> None:
        rules = self.rules
        turn = self.turn
        burn = turn.mode == "gouji" and seat != turn.actor
        prefix = ""
        if seat != turn.actor and not burn:
            raise self._wrong_turn(seat)
        if burn:
            prefix = f"only 对头 seat {turn.actor} may answer a 够级 play; "
            if seat == self.owner:
                raise IllegalPlayError(f"{prefix}the top is seat {seat}'s own play")
        result = analyse(cards, rules)
        if isinstance(result, str):
            raise IllegalPlayError(prefix + result)
        play = result
        faces, counts = self.faces[seat], self.counts[seat]
        for taken, card in enumerate(cards):
            faces[card.index] -= 1
            if faces[card.index] < 0:
                for back in cards[:taken + 1]:
                    faces[back.index] += 1
                raise IllegalPlayError(f"{prefix}seat {seat} does not hold {card.pretty}"
                                       + (f" ×{cards.count(card)}" if cards.count(card) > 1 else ""))
        left = self.sizes[seat] - len(cards)
        in_run = self.runs[seat]
        rest = None
        if burn or in_run:
            rest = [v for v in range(THREE, BIG + 1) for _ in range(counts[v])]
            for card in cards:
                rest.remove(VALUE_OF[card.index])
        problem = play_problem(play, self.top, rules, burn=burn, passed=self.has_passed(seat), in_run=in_run,
                               rest=rest, empties=not left)
        if problem is not None:
            for card in cards:
                faces[card.index] += 1
            raise IllegalPlayError(prefix + problem)
        for card in cards:
            counts[VALUE_OF[card.index]] -= 1
        self.sizes[seat] = left
        self.round_actions += 1
        owner, top = self.owner, self.top
        if top is not None and owner is not None:
            self._beaten(seat, play, top, owner, burn)
        self.top, self.owner = play, seat
        self.offset, self.yielder, self.yield_back = 1, None, False
        if not left:
            self._leave(seat, "finished")
            if self.runs[seat]:
                self._close_run(seat, True)
        if self.active < self.players:
            self._check_end()
        if not self.over:
            self._next_turn(self.mode())

    def _beaten(self, seat: int, play: Play, top: Play, owner: int, burn: bool) -> None:
        """Effects of beating `owner`'s play: a yielder passes, a burn run is void, 闷, 二杀一."""
        counter = self.runs[owner]
        if counter:
            self._close_run(owner, False)
        if burn:
            self.runs = tuple(True if s == seat else r for s, r in enumerate(self.runs))
            self.burns += (Burn(seat, owner, self.round_no, counter),)
        if self.yielder is not None and seat != self.yielder:
            self.passed |= 1 << self.yielder
        if top.big and is_two_kill_one(play, top):  # nothing else beats a BJ
            self.kills += (Kill(seat, owner, self.round_no),)
        threes = self.counts[owner][THREE]
        if threes and self.rules.biesan and self.out[owner] is None and self.sizes[owner] == threes:
            self.men += (Men(owner, seat, self.round_no),)
            self._leave(owner, "men")

    def _close_run(self, seat: int, success: bool) -> None:
        self.runs = tuple(False if s == seat else r for s, r in enumerate(self.runs))
        self.burns = tuple(replace(b, success=success) if b.by == seat and b.success is None else b
                           for b in self.burns)

    def _leave(self, seat: int, how: str) -> None:
        free = [i for i, s in enumerate(self.places) if s is None]
        place = free[0] if how == "finished" else free[-1]
        if place == 0 and len(free) > 1 and self._no_touke(seat):
            place = free[1]     # H "如果某人未开点，则该人不能走头科": the next free place
        self.places = tuple(seat if i == place else s for i, s in enumerate(self.places))
        self.out = tuple(Out(place + 1, how) if s == seat else o for s, o in enumerate(self.out))
        self.active -= 1

    def _no_touke(self, seat: int) -> bool:
        """True when `seat` may not take 头科: `touke_needs_kaidian` and it has not opened (开点)."""
        return self.rules.touke_needs_kaidian and not self.opened >> seat & 1

    def _check_end(self) -> None:
        left = [seat for seat in range(self.players) if self.out[seat] is None]
        if self.rules.end == "one_team":
            over = len({self.rules.team(seat) for seat in left}) <= 1
        else:
            over = len(left) <= 1
        if not over:
            return
        free = [i for i, s in enumerate(self.places) if s is None]
        order = sorted(left, key=lambda seat: (self.hand_size(seat), seat))
        openers = [seat for seat in order if not self._no_touke(seat)]
        if free and free[0] == 0 and openers:   # a 头科 still free goes to an opener left (`touke_needs_kaidian`)
            order.remove(openers[0])
            order.insert(0, openers[0])
        places = list(self.places)
        for index, seat in zip(free, order):
            places[index] = seat
        self.places = tuple(places)
        for seat in range(self.players):
            if self.runs[seat]:
                self._close_run(seat, False)
        if self.owner is not None:
            self.rounds += (RoundSummary(self.leader, self.owner, self.round_actions),)
        self.over = True
        self.turn = Turn(None, self.turn.mode)

    def _next_turn(self, mode: str) -> None:
        """Find who acts next after an action in `mode` (or end the round when nobody does)."""
        n = self.n
        owner = self.owner
        assert owner is not None
        duitou = (owner + self.half) % n
        if mode == "gouji":
            may_burn = tuple(s for s in range(n) if s not in (owner, duitou) and self.out[s] is None
                             and not self.passed >> s & 1)
            self.turn = Turn(duitou, mode, may_burn=may_burn)
            return
        if not self.yield_back:
            for offset in range(self.offset, n):
                s = (owner + offset) % n
                if self.out[s] is not None or s == self.yielder:
                    continue
                if mode == "luanchan" or not self.passed >> s & 1 or s == duitou:
                    may_yield = (s == duitou and mode == "normal" and self.yielder is None and all(
                        self.out[(owner + k) % n] is not None or self.passed >> ((owner + k) % n) & 1
                        for k in range(1, self.half)))
                    self.offset = offset
                    self.turn = Turn(s, mode, may_yield=may_yield)
                    return
            if self.yielder is not None:
                self.yield_back = True
                self.turn = Turn(self.yielder, mode)
                return
        self._end_round()

    def _end_round(self) -> None:
        owner, top = self.owner, self.top
        assert owner is not None and top is not None
        if opens(top, self.rules) and not self.kaidian_closed():
            self.opened |= 1 << owner
        self.rounds += (RoundSummary(self.leader, owner, self.round_actions),)
        n = self.n
        leader = owner
        while self.out[leader] is not None:
            leader = (leader + 1) % n
        self.round_no += 1
        self.leader, self.round_actions = leader, 0
        self.top, self.owner, self.passed, self.offset = None, None, 0, 1
        self.yielder, self.yield_back = None, False
        self.turn = Turn(leader, "luanchan" if self.luanchan and self.active <= self.luanchan else "normal",
                         leading=True)
