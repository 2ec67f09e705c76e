"""够级 tier-1 facts (gouji.md §6) read from a `GoujiSnapshot`, as the JSON of `deal track`.

Keys are fixed; ranks are listed high to low (BJ SJ 2 A K … 3), seats ascending.
"""
from __future__ import annotations

from typing import Any

from trainer.engine.cards import Card
from trainer.gouji.plays import THRESHOLDS, VALUE_NAMES, VALUES_HIGH_TO_LOW
from trainer.gouji.records import _exchange_json
from trainer.gouji.tracker import GOUJI_RANKS, GoujiSnapshot, PlayView, totals


def _cards(cards: tuple[Card, ...]) -> list[str]:
    return [str(card) for card in cards]


def _play_json(play: PlayView) -> dict[str, Any]:
    return {"at": f"{play.round}.{play.within}", "cards": _cards(play.cards)}


def higher_unseen(snap: GoujiSnapshot) -> dict[int, int]:
    """Unseen cards ranked strictly above each value (what can still top it)."""
    result = {}
    above = 0
    for value in VALUES_HIGH_TO_LOW:
        result[value] = above
        above += snap.unseen[value]
    return result


def facts_json(snap: GoujiSnapshot, at: str) -> dict[str, Any]:
    """The tier-1 JSON object of gouji.md §6 for this snapshot, keys and lists in the fixed order."""
    rules = snap.rules
    total = totals(rules)
    ranks = {}
    for value in VALUES_HIGH_TO_LOW:
        ranks[VALUE_NAMES[value]] = {"total": total[value], "played": snap.played[value], "mine": snap.mine[value],
                                     "unseen": snap.unseen[value], "in_hands": total[value] - snap.played[value]}
    gouji = {}
    for value in GOUJI_RANKS:
        t = THRESHOLDS[value]
        gouji[VALUE_NAMES[value]] = {"threshold": t, "sets_played": snap.sets_played[value],
                                     "original_played": snap.original_played[value],
                                     "max_sets_unseen": snap.unseen[value] // t,
                                     "max_sets_in_hands": (total[value] - snap.played[value]) // t}
    view = snap.view
    seats = {}
    for q in range(rules.players):
        plays = [play for play in snap.plays if play.seat == q]
        out = view.out[q]
        seats[str(q)] = {
            "relation": rules.relation(q, snap.seat), "team": rules.team(q),
            "plays": [_play_json(play) for play in plays],
            "shown": {VALUE_NAMES[v]: snap.shown[q][v] for v in VALUES_HIGH_TO_LOW},
            "gouji_plays": [_play_json(play) for play in plays if play.gouji],
            "opened": bool(view.opened >> q & 1), "in_burn_run": view.runs[q],
            "out": None if out is None else {"place": out.place, "how": out.how},
        }
    top = None
    if view.top_seat is not None:
        top = {"seat": view.top_seat, "cards": _cards(view.top_cards), "gouji": view.top_gouji}
    return {
        "seat": snap.seat, "at": at, "game": "gouji",
        "ranks": ranks,
        "higher_unseen": {VALUE_NAMES[v]: n for v, n in higher_unseen(snap).items()},
        "gouji": gouji,
        "hand_sizes": list(snap.hand_sizes),
        "seats": seats,
        "round": {"number": view.round, "leader": view.leader, "actions": view.actions, "top": top,
                  "mode": view.mode, "passed": [q for q in range(rules.players) if view.passed >> q & 1],
                  "next": view.next},
        "exchanges": [_exchange_json(e) for e in snap.exchanges],
        "places_so_far": list(view.places),
    }
