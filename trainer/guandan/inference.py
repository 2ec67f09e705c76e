"""掼蛋 tracking, tier 2 (guandan.md §7): what the other seats can hold, exact by max-flow.

The unseen cards, as sixteen faces (BJ, SJ, W the wilds, L the other level cards, the twelve other ranks),
are a transportation problem onto the three other seats, solved by the shared `Transport` of the 升级 and
够级 trackers (`trainer.tracking.inference`). A distribution is consistent iff (1) each seat holds its
hand size; (2) a seat holds every card it received (进贡 or 还贡) unless it has played a card of that
face since; (3) a seat that showed BJ for 抗贡 holds them until played; (4) a payer held no non-wild card
above its tribute's level value when paying, so it holds none now but those it received after. Passes
and hand sizes tell nothing more (§7 "certain facts only").

>>> from trainer.guandan.bots import generate_records
>>> from trainer.guandan.rules import GuandanRules
>>> from trainer.guandan.records import Position, parse_guandan_record
>>> record = parse_guandan_record(generate_records(GuandanRules(), seed=5, count=1)[0])
>>> facts = track_inference(record, 0, Position.parse("#8", record))
>>> sorted(facts["inference"])
['bomb_max', 'can_tianzha', 'certain', 'holdings', 'max_single']
"""
from __future__ import annotations

from typing import Any

from trainer.engine.cards import BIG_JOKER, SMALL_JOKER, Card
from trainer.guandan.records import GuandanRecord, Position
from trainer.guandan.tracker import FACES, GuandanTracker, tracker_at
from trainer.tracking.inference import Transport

WILD = 0
"""The face number of the wilds (the other faces are numbered by rank, the level rank for L)."""


def face_of(card: Card, tracker: GuandanTracker) -> int:
    """A card's tier-2 face: `WILD` for 逢人配, else its rank."""
    return WILD if card is tracker.level.wild else card.rank


def face_order(tracker: GuandanTracker) -> list[tuple[int, str]]:
    """The faces with their names, in the fixed order BJ, SJ, W, L, A … 2 (L named by the level rank)."""
    order = [(rank, name) for rank, name in tracker.layout.order]
    return [order[0], order[1], (WILD, "W"), *order[2:]]


class GuandanInference(Transport):
    """The consistent distributions of one tracker's unseen cards over the other seats, solved."""

    def __init__(self, tracker: GuandanTracker) -> None:
        self.tracker = tracker
        level = tracker.level
        unseen = [0] * 17
        received = [[0] * 54 for _ in range(4)]
        for move in tracker.moves:
            received[move.receiver][move.card.index] += 1
            received[move.payer][move.returned.index] += 1
        self.holders = [q for q in range(4) if q != tracker.seat]
        kept = {q: [0] * 17 for q in self.holders}  # received copies of a card not played since, by face
        for card in FACES:
            face = face_of(card, tracker)
            unseen[face] += 2 - tracker.played[card.index] - tracker.mine[card.index]
            for q in self.holders:
                kept[q][face] += max(0, received[q][card.index] - tracker.played_by[q][card.index])
        self.faces = [face for face, _ in face_order(tracker) if unseen[face]]
        limits: dict[int, dict[int, tuple[int, int]]] = {}
        for q in self.holders:
            low = list(kept[q])
            if q in tracker.resist:  # the BJs shown: both by a lone holder, one each by two
                low[BIG_JOKER] = max(low[BIG_JOKER], 2 // len(tracker.resist) - tracker.played_rank_by(q, BIG_JOKER))
            high = [min(unseen[face], tracker.sizes[q]) for face in range(17)]
            for move in tracker.moves:
                if move.payer == q:  # it held nothing above its tribute but what it received after
                    paid = level.lv(move.card)
                    for face in self.faces:
                        if face != WILD and level.rank_lv(face) > paid:
                            high[face] = min(high[face], kept[q][face])
            limits[q] = {face: (low[face], high[face]) for face in self.faces}
        names = dict(face_order(tracker))
        self._network(limits, self.faces, dict(enumerate(unseen)), {q: tracker.sizes[q] for q in self.holders},
                      names.__getitem__)

    def bomb_max(self, q: int, rank: int) -> int:
        """The largest bomb of `rank` (its cards plus the wilds) seat q can hold at once, 0 below 4."""
        most = self.group_bounds(q, lambda face: face in (rank, WILD))[1]
        return most if most >= 4 else 0

    def can_tianzha(self, q: int) -> bool:
        """Some consistent distribution gives seat q both SJ and both BJ."""
        return self.allows({(q, SMALL_JOKER): (2, 2), (q, BIG_JOKER): (2, 2)})


def infer_json(tracker: GuandanTracker) -> dict[str, Any]:
    """The `inference` object of tier 2: `holdings`, `certain`, `max_single`, `bomb_max`, `can_tianzha`
    for every seat but the viewer, keys in the fixed order (faces BJ SJ W L A … 2, seats ascending)."""
    inference = GuandanInference(tracker)
    order = face_order(tracker)
    level_name = str(tracker.level)
    holdings: dict[str, dict[str, list[int]]] = {}
    certain: dict[str, list[str]] = {}
    max_single: dict[str, str | None] = {}
    bomb_max: dict[str, dict[str, int]] = {}
    can_tianzha: dict[str, bool] = {}
    for q in inference.holders:
        name = str(q)
        ranges = {face: inference.bounds(q, face) for face in inference.faces}
        holdings[name] = {label: list(ranges[face]) for face, label in order if face in ranges}
        certain[name] = [label for face, label in order if face in ranges for _ in range(ranges[face][0])]
        top = next((label for face, label in order if face in ranges and ranges[face][1]), None)
        max_single[name] = level_name if top == "W" else top
        bomb_max[name] = {label: inference.bomb_max(q, face) for face, label in order
                          if face not in (WILD, SMALL_JOKER, BIG_JOKER)}
        can_tianzha[name] = inference.can_tianzha(q)
    return {"holdings": holdings, "certain": certain, "max_single": max_single, "bomb_max": bomb_max,
            "can_tianzha": can_tianzha}


def track_inference(record: GuandanRecord, seat: int, position: Position) -> dict[str, Any]:
    """The tier-1 snapshot for `seat` at `position` with its tier-2 `inference` object."""
    tracker = tracker_at(record, seat, position)
    return {**tracker.snapshot(), "inference": infer_json(tracker)}
