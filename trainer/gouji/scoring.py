"""Results of a 够级 hand (gouji.md §3.8): place points, event points, 串三户 and team totals.

>>> result = hand_result([0, 1, 2, 3, 4, 5], GoujiRules())
>>> result["seat_points"], result["team_points"], result["chuan_san_hu"]
([4, 2, 0, 0, -2, -4], [2, 0], False)
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from trainer.gouji.rules import GoujiRules


def place_points(rules: GoujiRules) -> list[int]:
    """Points for places 1…N under `place_points` (qingdao 4 2 0 0 −2 −4 with six seats)."""
    n, half = rules.players, rules.half
    qingdao = [2 * (half - 1 - i) for i in range(half)]
    qingdao += [-points for points in reversed(qingdao)]
    return {"qingdao": qingdao, "karamay": [p // 2 for p in qingdao],
            "bisai": [n - 1 - i for i in range(n)], "ladder": [n - i for i in range(n)]}[rules.place_points]


def sweeping_team(places: Sequence[int], rules: GoujiRules) -> int | None:
    """The team holding places 1…N/2 (串三户), or None."""
    teams = {rules.team(seat) for seat in places[:rules.half]}
    return teams.pop() if len(teams) == 1 else None


def hand_result(places: Sequence[int], rules: GoujiRules, opened: Iterable[int] = (),
                burns: Iterable[tuple[int, int, bool]] = (), men: Iterable[tuple[int, int]] = (),
                kills: Iterable[int] = ()) -> dict[str, Any]:
    """Seat and team points of a finished hand. `places` lists the seat at place 1…N; `burns` are the
    scoring burns as (burner, owner of the burned play, 反烧); `men` (闷 seat, beater); `kills` the
    二杀一 beaters. Events between teammates score nothing."""
    n, scheme = rules.players, rules.event_points
    table = place_points(rules)
    placed = [0] * n
    for place, seat in enumerate(places):
        placed[seat] = table[place]
    events = [0] * n

    def swing(winner: int, loser: int, plus: int, minus: int) -> None:
        if rules.team(winner) != rules.team(loser):
            events[winner] += plus
            events[loser] -= minus

    if scheme != "none":
        pair, burn, man = {"karamay": (1, 1, 1), "activity": (2, 1, 1), "bisai": (1, 0, 0)}[scheme]
        opened = set(opened)
        for seat in range(rules.half):
            other = rules.duitou(seat)
            if (seat in opened) != (other in opened):
                winner, loser = (seat, other) if seat in opened else (other, seat)
                swing(winner, loser, pair, pair if scheme != "bisai" else 0)
        for by, of, counter in burns:
            swing(by, of, (2 if counter else 1) if scheme == "bisai" else burn, burn)
        for seat, by in men:
            swing(by, seat, 1, man)
        if scheme == "bisai":
            for by in kills:
                events[by] += 1
    seat_points = [placed[seat] + events[seat] for seat in range(n)]
    sweep = sweeping_team(places, rules)
    raw = [0, 0]
    for seat in range(n):
        raw[rules.team(seat)] += seat_points[seat]
    if sweep is not None and rules.chuan_san_hu == 8:
        for team in (0, 1):
            place_part = sum(placed[seat] for seat in range(n) if rules.team(seat) == team)
            raw[team] += (8 if team == sweep else -8) - place_part
    totals = [max(0, points) for points in raw] if rules.team_total == "net_positive" else raw
    return {"seat_points": seat_points, "team_points": totals, "chuan_san_hu": sweep is not None}
