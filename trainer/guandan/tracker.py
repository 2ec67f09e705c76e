"""掼蛋 tracking, tier 1 (guandan.md §7): the per-seat observer, kept action by action, and its recount.

A `GuandanTracker` starts from its seat's playing hand and the public facts before the first lead (the
进贡/还贡 cards, the 抗贡 jokers shown) and then receives `GuandanEvent`s: the public actions, each with the
public view of the table after it (round, top, next actor, places) as the referee derives it. It never
sees another hand, so it cannot peek. `recount` computes the same snapshot from the record alone.

>>> from trainer.guandan.bots import generate_records
>>> from trainer.guandan.rules import GuandanRules
>>> from trainer.guandan.records import Position, parse_guandan_record
>>> record = parse_guandan_record(generate_records(GuandanRules(), seed=5, count=1)[0])
>>> at = Position.parse("#30", record)
>>> track(record, 2, at) == recount(record, 2, at)
True
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from typing import Any, NamedTuple

from trainer.engine.cards import SMALL_JOKER, Card, Suit
from trainer.guandan.level import ACE, Level, rank_text
from trainer.guandan.plays import BOMB_TYPES, Reading
from trainer.guandan.records import Exchange, GuandanRecord, Position, recorded_actions, state_at
from trainer.guandan.state import HandState
from trainer.guandan.tribute import tribute_plan

RELATIONS = ("me", "下家", "对家", "上家")
"""Seats seen from a viewer at offsets 0…3 in play order."""
FACES = [Card.from_index(index) for index in range(54)]


class PublicView(NamedTuple):
    """What every seat sees of the table at a moment: the round, its top, the next actor, the places."""

    round: int
    leader: int
    actions: int
    top_seat: int | None
    top_cards: tuple[Card, ...]
    top_reading: Reading | None
    next: int | None
    places: tuple[int, ...]


def public_view(state: HandState) -> PublicView:
    """The public view of a hand in play."""
    top = state.top
    return PublicView(state.round_no, state.leader, len(state.steps), state.owner,
                      top.cards if top is not None else (), top.reading if top is not None else None,
                      state.turn, state.places)


class GuandanEvent(NamedTuple):
    """One public action: its position label `R.K`, the seat, its cards (empty for a pass), its reading,
    and the public view after it."""

    label: str
    seat: int
    cards: tuple[Card, ...]
    reading: Reading | None
    view: PublicView


def public_events(record: GuandanRecord) -> Iterator[GuandanEvent]:
    """The public actions of a (valid) record, in order."""
    state = HandState.start(record.rules, record.level, record.playing_hands(), record.leader, keep_undo=False)
    for number, index, action in recorded_actions(record):
        reading = state.act(action.seat, action.action, action.declared)
        cards = () if action.action == "pass" else tuple(action.action)
        yield GuandanEvent(f"{number}.{index}", action.seat, cards, reading, public_view(state))


def _reading_json(reading: Reading | None) -> dict[str, Any] | None:
    return None if reading is None else reading.to_json()


class GuandanTracker:
    """The tier-1 facts one seat may know, updated with each public event (incremental).

    `observe` only moves counters (per face and per rank) and marks the parts of the snapshot an event
    changes; `snapshot` rebuilds those parts alone and shares the others with the previous snapshot, so a
    snapshot is read-only (nothing handed out is changed afterwards)."""

    def __init__(self, seat: int, level: Level, hand: Sequence[Card], exchanges: Sequence[Exchange],
                 resist: Sequence[int], leader: int) -> None:
        """Start from `seat`'s playing hand and the public moves before the first lead."""
        self.seat, self.level = seat, level
        self.layout = _layout(level)
        self.mine = [0] * 54
        self.mine_rank = [0] * 17
        for card in hand:
            self.mine[card.index] += 1
            self.mine_rank[card.rank] += 1
        self.played = [0] * 54
        self.played_rank = [0] * 17
        self.played_by = [[0] * 54 for _ in range(4)]
        self.sizes = [27, 27, 27, 27]
        self.plays: list[list[list[Any]]] = [[], [], [], []]
        self.bombs_of: list[list[list[Any]]] = [[], [], [], []]
        self.bomb_plays: Counter[int] = Counter()
        self.tianzha_played = False
        self.moves = tuple(exchanges)
        self.exchanges = [exchange.to_json() for exchange in exchanges]
        self.resist = sorted(resist)
        self.view = PublicView(1, leader, 0, None, (), None, leader, ())
        self._counts = count_facts(level, self.played_rank, self.mine_rank, (0, self.mine[level.wild.index]),
                                   self.bomb_plays, False)
        self._names = dict(self.layout.order)
        self._dirty: set[int] = set()
        self._unseen_moved = False
        self._stale = True
        self._flushes: list[list[int] | None] = [None] * 4
        self._flush_json: dict[str, Any] | None = None
        self._flush_tops: list[list[int]] = [[], [], [], []]
        self._top: tuple[tuple[Card, ...], dict[str, Any] | None] = ((), None)
        self._seats: list[dict[str, Any] | None] = [None] * 4

    def observe(self, event: GuandanEvent) -> None:
        """Take in one public action."""
        if event.cards:
            q, mine, played, by = event.seat, self.mine, self.played, self.played_by[event.seat]
            for card in event.cards:
                played[card.index] += 1
                by[card.index] += 1
                self.played_rank[card.rank] += 1
                self._dirty.add(card.rank)
                if q == self.seat:
                    mine[card.index] -= 1
                    self.mine_rank[card.rank] -= 1
                else:
                    self._unseen_moved = True
                    if card.suit is not None:  # another seat's card leaves the unseen: its suit's windows move
                        self._flushes[card.suit] = None
                        if card is self.level.wild:
                            self._flushes = [None] * 4
            self.sizes[q] -= len(event.cards)
            reading = event.reading
            assert reading is not None
            entry = [event.label, [str(c) for c in event.cards], reading.to_json()]
            self.plays[q] = [*self.plays[q], entry]
            if reading.bomb:
                self.bombs_of[q] = [*self.bombs_of[q], entry]
            if reading.type == "bomb":
                self.bomb_plays[reading.rank] += 1  # type: ignore[index]
            self.tianzha_played |= reading.type == "joker_bomb"
            self._seats[q] = None
            self._stale = True
        if event.view.places != self.view.places:
            self._seats = [None] * 4
            self._stale = True
        self.view = event.view

    def played_rank_by(self, q: int, rank: int) -> int:
        """How many cards of `rank` seat q has played."""
        return sum(self.played_by[q][face.index] for face in FACES if face.rank == rank)

    def snapshot(self) -> dict[str, Any]:
        """The §7 fields as JSON (keys fixed; ranks in level order high first, suits S H C D)."""
        if self._stale:
            self._refresh()
        if self._top[0] is not self.view.top_cards:
            self._top = (self.view.top_cards, top_entry(self.view))
        return assemble(self.seat, self.level, self._counts, self._flush_json, self._seats,  # type: ignore[arg-type]
                        self.sizes, self.view, self._top[1], self.exchanges, self.resist)

    def _refresh(self) -> None:
        """Rebuild the parts the plays and places since the last snapshot changed."""
        layout, wild = self.layout, self.level.wild.index
        unseen_wilds = 2 - self.played[wild] - self.mine[wild]
        if self._dirty:
            self._update_counts(unseen_wilds)
        flushes, moved = self._flushes, self._flush_json is None
        for suit, tops in enumerate(flushes):
            if tops is None:
                flushes[suit] = flush_tops(layout.slots[suit], self.played, self.mine, unseen_wilds)
                moved = moved or flushes[suit] != self._flush_tops[suit]
        if moved:
            self._flush_tops = list(flushes)  # type: ignore[arg-type]
            self._flush_json = flush_facts(self._flush_tops)
        seats = self._seats
        for q in range(4):
            if seats[q] is None:
                seats[q] = seat_entry(q, self.seat, self.plays[q], self.bombs_of[q], self.view.places)
        self._stale = False


    def _update_counts(self, unseen_wilds: int) -> None:
        """Rebuild the count entries of the ranks played since the last snapshot (every bomb entry when a
        wild left the unseen), and `higher_unseen` when the unseen changed."""
        level, old, names = self.level, self._counts, self._names
        ranks, bombs = dict(old["ranks"]), dict(old["bombs"])
        wild = level.wild.index
        dirty = self._dirty
        wild_moved = old["wilds"]["unseen"] != unseen_wilds
        for rank in dirty:
            ranks[names[rank]] = rank_entry(rank, self.played_rank[rank], self.mine_rank[rank])
        for rank in names if wild_moved else dirty:
            if rank < SMALL_JOKER:
                name = names[rank]
                bombs[name] = bomb_entry(level, rank, ranks[name]["unseen"], unseen_wilds, self.bomb_plays[rank])
        self._counts = {"ranks": ranks, "wilds": wilds_entry((self.played[wild], self.mine[wild])),
                        "higher_unseen": higher_unseen(level, ranks) if self._unseen_moved else old["higher_unseen"],
                        "bombs": bombs, "tianzha": tianzha_entry(ranks, self.tianzha_played)}
        dirty.clear()
        self._unseen_moved = False


class _Layout(NamedTuple):
    """What a level fixes for the snapshot: ranks high first with their names, and per suit the faces of
    natural positions 1 (the ace) … 14, None for the wild's slot (never open)."""

    order: tuple[tuple[int, str], ...]
    slots: tuple[tuple[int | None, ...], ...]


_LAYOUTS: dict[int, _Layout] = {}
_SUIT_LETTERS = tuple(suit.letter for suit in Suit)
_TOP_NAMES = {top: rank_text(top) for top in range(5, ACE + 1)}


def _layout(level: Level) -> _Layout:
    found = _LAYOUTS.get(level.rank)
    if found is None:
        order = tuple((rank, rank_text(rank)) for rank in level.ranks_high_first())
        slots = tuple(tuple(None if level.is_wild(card) else card.index for card in
                            (Card(ACE if p == 1 else p, suit) for p in range(1, ACE + 1)))
                      for suit in Suit)
        found = _LAYOUTS[level.rank] = _Layout(order, slots)
    return found


def rank_entry(rank: int, played: int, mine: int) -> dict[str, int]:
    """`ranks[r]`: total, played, mine, unseen, in_hands."""
    count = 2 if rank >= SMALL_JOKER else 8
    return {"total": count, "played": played, "mine": mine, "unseen": count - played - mine,
            "in_hands": count - played}


def bomb_entry(level: Level, rank: int, unseen: int, unseen_wilds: int, played: int) -> dict[str, int]:
    """`bombs[r]`: bombs of r played, the largest the other seats could make and how many."""
    n = unseen + (unseen_wilds if rank != level.rank else 0)
    return {"played": played, "max_unseen": n if n >= 4 else 0, "max_count": n // 4}


def higher_unseen(level: Level, ranks: dict[str, dict[str, int]]) -> dict[str, int]:
    """`higher_unseen[r]`: the unseen cards above r in level order (`ranks` high first)."""
    higher, above = {}, 0
    for name, counts in ranks.items():
        higher[name] = above
        above += counts["unseen"]
    return higher


def count_facts(level: Level, played_rank: Sequence[int], mine_rank: Sequence[int], wilds: tuple[int, int],
                bomb_plays: Counter[int], tianzha_played: bool) -> dict[str, Any]:
    """`ranks`, `wilds`, `higher_unseen`, `bombs` and `tianzha` from the counts per rank (index = rank)
    and the wilds (played, mine), all computed anew."""
    unseen_wilds = 2 - wilds[0] - wilds[1]
    order = _layout(level).order
    ranks = {name: rank_entry(rank, played_rank[rank], mine_rank[rank]) for rank, name in order}
    bombs = {name: bomb_entry(level, rank, ranks[name]["unseen"], unseen_wilds, bomb_plays[rank])
             for rank, name in order if rank < SMALL_JOKER}
    return {"ranks": ranks, "wilds": wilds_entry(wilds), "higher_unseen": higher_unseen(level, ranks),
            "bombs": bombs, "tianzha": tianzha_entry(ranks, tianzha_played)}


def wilds_entry(wilds: tuple[int, int]) -> dict[str, int]:
    """`wilds` from (played, mine)."""
    return {"total": 2, "played": wilds[0], "mine": wilds[1], "unseen": 2 - wilds[0] - wilds[1]}


def tianzha_entry(ranks: dict[str, dict[str, int]], played: bool) -> dict[str, bool]:
    """`tianzha`: all four jokers unseen; 天炸 played."""
    return {"possible": ranks["SJ"]["unseen"] + ranks["BJ"]["unseen"] == 4, "played": played}


def flush_tops(slots: Sequence[int | None], played: Sequence[int], mine: Sequence[int], wilds: int) -> list[int]:
    """The tops (5 … A) of one suit's windows another seat could still fill: a slot is closed when no
    unseen copy of its face is left (the wild's slot always); a window is open when its closed slots are
    no more than the unseen wilds."""
    closed = [1 if index is None or played[index] + mine[index] == 2 else 0 for index in slots]
    window = sum(closed[:5])
    tops = [5] if window <= wilds else []
    for top in range(6, ACE + 1):  # slide the window one position up: top-4 … top
        window += closed[top - 1] - closed[top - 6]
        if window <= wilds:
            tops.append(top)
    return tops


def seat_entry(q: int, seat: int, plays: list[list[Any]], bombs: list[list[Any]],
               places: Sequence[int]) -> dict[str, Any]:
    """`seats[q]` seen from `seat`; `plays` and `bombs` (its bomb plays) are taken as they are (never
    changed once handed over)."""
    return {"seat": q, "relation": RELATIONS[(q - seat) % 4], "team": q % 2, "plays": plays, "bombs": bombs,
            "out": places.index(q) + 1 if q in places else None}


def flush_facts(flushes: Sequence[list[int]]) -> dict[str, Any]:
    """`straight_flushes` and `largest_sf` from each suit's open tops."""
    best = max((tops[-1] for tops in flushes if tops), default=None)
    largest = None if best is None else {"top": _TOP_NAMES[best], "suits": [
        letter for letter, tops in zip(_SUIT_LETTERS, flushes) if tops and tops[-1] == best]}
    return {"straight_flushes": {letter: [_TOP_NAMES[t] for t in tops] for letter, tops in zip(_SUIT_LETTERS, flushes)},
            "largest_sf": largest}


def top_entry(view: PublicView) -> dict[str, Any] | None:
    """`round.top`: the top's seat, cards and reading, or None."""
    if view.top_seat is None:
        return None
    return {"seat": view.top_seat, "cards": [str(c) for c in view.top_cards],
            "reading": _reading_json(view.top_reading)}


def assemble(seat: int, level: Level, counts: dict[str, Any], flushes: dict[str, Any], seats: list[dict[str, Any]],
             sizes: Sequence[int], view: PublicView, top: dict[str, Any] | None, exchanges: list[dict[str, Any]],
             resist: list[int]) -> dict[str, Any]:
    """The §7 snapshot from its parts (the counts, the straight flushes, each seat's entry, the view and
    its top)."""
    return {
        "seat": seat, "level": str(level), "wild": str(level.wild), "ranks": counts["ranks"],
        "wilds": counts["wilds"], "higher_unseen": counts["higher_unseen"], "bombs": counts["bombs"],
        "tianzha": counts["tianzha"], "straight_flushes": flushes["straight_flushes"],
        "largest_sf": flushes["largest_sf"], "hand_sizes": list(sizes), "seats": list(seats),
        "round": {"number": view.round, "leader": view.leader, "actions": view.actions, "top": top,
                  "next": view.next},
        "exchanges": exchanges, "resist": resist, "places_so_far": list(view.places),
    }


def tracker_for(record: GuandanRecord, seat: int) -> GuandanTracker:
    """A tracker for `seat` at the first lead of a (valid) record."""
    plan = tribute_plan(record.previous, record.hands, record.level)
    return GuandanTracker(seat, record.level, record.playing_hands()[seat], record.exchanges, plan.resist,
                          record.leader)


def tracker_at(record: GuandanRecord, seat: int, position: Position) -> GuandanTracker:
    """`seat`'s tracker fed every public event before `position`."""
    tracker = tracker_for(record, seat)
    for number, event in enumerate(public_events(record)):
        if number >= position.actions:
            break
        tracker.observe(event)
    return tracker


def track(record: GuandanRecord, seat: int, position: Position) -> dict[str, Any]:
    """The tier-1 snapshot for `seat` at `position`, kept incrementally."""
    return tracker_at(record, seat, position).snapshot()


def recount(record: GuandanRecord, seat: int, position: Position) -> dict[str, Any]:
    """The same snapshot computed from scratch: every play before `position` counted anew."""
    state = state_at(record, position)
    played, mine = [0] * 54, [0] * 54
    for card in record.playing_hands()[seat]:
        mine[card.index] += 1
    sizes = [27] * 4
    bomb_plays: Counter[int] = Counter()
    for number, step in state.history:
        if step.action == "pass":
            continue
        for card in step.action:
            played[card.index] += 1
            if step.seat == seat:
                mine[card.index] -= 1
        sizes[step.seat] -= len(step.action)
        reading = step.reading
        assert reading is not None
        if reading.type == "bomb":
            bomb_plays[reading.rank] += 1  # type: ignore[index]
    labels = [f"{number}.{index}" for number, index, _ in recorded_actions(record)[:position.actions]]
    listed: list[list[list[Any]]] = [[], [], [], []]
    for label, (_, step) in zip(labels, state.history):
        if step.action != "pass":
            listed[step.seat].append([label, [str(c) for c in step.action], step.reading.to_json()])  # type: ignore
    tianzha = any(step.reading is not None and step.reading.type == "joker_bomb" for _, step in state.history)
    plan = tribute_plan(record.previous, record.hands, record.level)
    played_rank, mine_rank = [0] * 17, [0] * 17
    for face in FACES:
        played_rank[face.rank] += played[face.index]
        mine_rank[face.rank] += mine[face.index]
    level, wild = record.level, record.level.wild.index
    unseen_wilds = 2 - played[wild] - mine[wild]
    counts = count_facts(level, played_rank, mine_rank, (played[wild], mine[wild]), bomb_plays, tianzha)
    flushes = flush_facts([flush_tops(slots, played, mine, unseen_wilds) for slots in _layout(level).slots])
    view = public_view(state)
    seats = [seat_entry(q, seat, listed[q], [p for p in listed[q] if p[2]["type"] in BOMB_TYPES], view.places)
             for q in range(4)]
    return assemble(seat, level, counts, flushes, seats, sizes, view, top_entry(view),
                    [e.to_json() for e in record.exchanges], sorted(plan.resist))
