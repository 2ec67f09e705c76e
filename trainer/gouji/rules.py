"""The rules of a 够级 hand as a frozen config: the options and presets of gouji.md §4, and seat arithmetic.

>>> rules = GoujiRules.parse("karamay")
>>> rules.place_points, rules.hand_size, rules.duitou(0), rules.relation(3, 0)
('karamay', 36, 3, '对头')
>>> GoujiRules.parse({"preset": "standard", "decks": 5}).decks
5
"""
from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from trainer.engine.errors import MalformedError
from trainer.engine.rules import options_json, parse_options

OPTION_VALUES: dict[str, tuple[Any, ...]] = {
    "players": (6, 10, 14, 18),
    "decks": (4, 1, 2, 3, 5, 6),
    "attach_twos": (True, False),
    "biesan": (True, False),
    "two_kill_one": (False, True),
    "luanchan": ("four", "five", "none"),
    "kaidian": ("original", "karamay"),
    "kaidian_closes": ("touke", "erke"),
    "natural_open": (True, False),
    "touke_needs_kaidian": (False, True),
    "end": ("one_team", "last_one"),
    "place_points": ("qingdao", "karamay", "bisai", "ladder"),
    "event_points": ("none", "karamay", "activity", "bisai"),
    "chuan_san_hu": (8, "none"),
    "team_total": ("net_positive", "sum"),
    "next_hand_leader": ("da_luo", "rotate"),
    "shangban_rank": (3, 4),
}
"""Every option with its allowed values, the default first (gouji.md §4)."""

RELATIONS = ("me", "下家", "下手联邦", "对头", "上手联邦", "上家")
"""Seats seen from a viewer at offsets 0…5 in play order (gouji.md §1, six seats)."""


@dataclass(frozen=True, slots=True)
class GoujiRules:
    """A frozen 够级 rules config; seats, teams and deck sizes all come from `players` and `decks`."""

    preset: str = "standard"
    players: int = 6
    decks: int = 4
    attach_twos: bool = True
    biesan: bool = True
    two_kill_one: bool = False
    luanchan: str = "four"
    kaidian: str = "original"
    kaidian_closes: str = "touke"
    natural_open: bool = True
    touke_needs_kaidian: bool = False
    end: str = "one_team"
    place_points: str = "qingdao"
    event_points: str = "none"
    chuan_san_hu: int | str = 8
    team_total: str = "net_positive"
    next_hand_leader: str = "da_luo"
    shangban_rank: int = 3

    def __post_init__(self) -> None:
        if (54 * self.decks) % self.players:
            raise MalformedError(f"rules: {self.decks} decks ({54 * self.decks} cards) cannot be dealt evenly "
                                 f"to {self.players} players")
        if self.biesan and 4 * self.decks < self.players:
            raise MalformedError(f"rules: biesan needs at least one 3 per player ({4 * self.decks} threes "
                                 f"for {self.players} players)")

    @property
    def hand_size(self) -> int:
        """Cards dealt to each seat: 54·decks / players (36 by default)."""
        return 54 * self.decks // self.players

    @property
    def half(self) -> int:
        """N/2: the offset of a seat's 对头 (odd, so the 对头 is an opponent)."""
        return self.players // 2

    @property
    def luanchan_seats(self) -> int:
        """乱缠 starts when at most this many seats are not out (0: never)."""
        return {"four": 4, "five": 5, "none": 0}[self.luanchan]

    def duitou(self, seat: int) -> int:
        """对头: the seat opposite `seat`, N/2 places on."""
        return (seat + self.half) % self.players

    @staticmethod
    def team(seat: int) -> int:
        """联邦: 0 for even seats, 1 for odd seats."""
        return seat % 2

    def relation(self, seat: int, viewer: int) -> str:
        """`seat` seen from `viewer`: me, 下家, 下手联邦, 对头, 上手联邦 or 上家 (more seats: 下家+k / 上家+k)."""
        offset = (seat - viewer) % self.players
        if self.players == 6:
            return RELATIONS[offset]
        if offset == 0:
            return "me"
        if offset == self.half:
            return "对头"
        return f"下家+{offset - 1}" if offset < self.half else f"上家+{self.players - 1 - offset}"

    def seller_order(self, buyer: int) -> list[int]:
        """The seats a buyer of a 3 asks, in order: 对头, teammates (k+2, k+4, …), other opponents (k+1, k−1, …)."""
        n = self.players
        teammates = [(buyer + offset) % n for offset in range(2, n, 2)]
        opponents = []
        for offset in range(1, self.half, 2):
            opponents += [(buyer + offset) % n, (buyer - offset) % n]
        return [self.duitou(buyer), *teammates, *opponents]

    @classmethod
    def parse(cls, spec: str | dict[str, Any] | None) -> GoujiRules:
        """Rules from a preset name or `{"preset": …, option: value, …}`; errors name the bad field."""
        return parse_options(spec, PRESETS, OPTION_VALUES, game="gouji ")

    def to_json(self) -> str | dict[str, Any]:
        """The shortest record form: the preset name, or the preset and the options that differ."""
        return options_json(self, PRESETS)

    def as_dict(self) -> dict[str, Any]:
        """Every option with its value."""
        return asdict(self)


PRESETS: dict[str, GoujiRules] = {
    "standard": GoujiRules(),
    "karamay": GoujiRules(preset="karamay", place_points="karamay", event_points="karamay", kaidian="karamay",
                          chuan_san_hu="none", next_hand_leader="rotate"),
    "activity": GoujiRules(preset="activity", attach_twos=False, event_points="activity", touke_needs_kaidian=True),
    "bisai": GoujiRules(preset="bisai", place_points="bisai", event_points="bisai", two_kill_one=True,
                        kaidian_closes="erke", chuan_san_hu="none", team_total="sum"),
    "paodekuai": GoujiRules(preset="paodekuai", biesan=False, place_points="ladder", chuan_san_hu="none",
                            team_total="sum"),
}
"""The presets of gouji.md §4, by name."""
