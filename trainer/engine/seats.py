"""Seat arithmetic: four seats 0–3 in play order (逆时针), partners across, teams {0,2} and {1,3}.

>>> Seat(1).next, Seat(1).previous, Seat(1).partner, Seat(3).team
(Seat(2), Seat(0), Seat(3), 1)
"""
from __future__ import annotations

from enum import IntEnum

from trainer.engine.errors import MalformedError, shown


class Seat(IntEnum):
    """One of the four seats."""

    S0 = 0
    S1 = 1
    S2 = 2
    S3 = 3

    @classmethod
    def parse(cls, value: object) -> Seat:
        """A seat from the number 0–3 or exactly the text `0`–`3` (no sign, space or other digits)."""
        if type(value) is int and 0 <= value <= 3:
            return _SEATS[value]
        if isinstance(value, str) and value in ("0", "1", "2", "3"):
            return _SEATS[int(value)]
        raise MalformedError(f"a seat is 0, 1, 2 or 3, not {shown(value)}")

    @property
    def next(self) -> Seat:
        """下家: the seat that plays right after this one."""
        return Seat((self + 1) % 4)

    @property
    def previous(self) -> Seat:
        """上家: the seat that plays right before this one."""
        return Seat((self + 3) % 4)

    @property
    def partner(self) -> Seat:
        """对家: the partner across the table."""
        return Seat((self + 2) % 4)

    @property
    def team(self) -> int:
        """0 for seats 0 and 2, 1 for seats 1 and 3."""
        return self % 2

    def is_banker_side(self, banker: int) -> bool:
        """True when this seat is the banker or the banker's partner."""
        return (self - banker) % 2 == 0

    def relative_to(self, viewer: int) -> str:
        """This seat seen from `viewer`: 自己, 下家, 对家 or 上家."""
        return ("自己", "下家", "对家", "上家")[(self - viewer) % 4]

    def __repr__(self) -> str:
        return f"Seat({int(self)})"

    def __str__(self) -> str:
        return str(int(self))


_SEATS = tuple(Seat)
"""The seats by number (indexing is quicker than calling the enum)."""
