"""Signal convention sets (信号牌约定) as data: signal ranks per side suit, the discard-order convention,
and which of the K-ask, the 5-lead and the opening-lead trump-draw request a set uses (signals.md).

A set is written in a `drills/signals/*.toml` file, or given to the referee as
`{"signal_ranks": …, "discard": …}`. `signal_ranks` is a set name, a list of ranks, or a table naming
all four suits (per_suit, 高级).

>>> Convention.parse({"signal_ranks": "basic_89JQ"}).rank_names(0)
['8', '9', 'J', 'Q']
>>> Convention.parse({"signal_ranks": ["2", "A"]})
Traceback (most recent call last):
...
trainer.engine.errors.MalformedError: signal_ranks: A is the card that is asked for and never a signal
"""
from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from trainer.engine.cards import RANK_NAMES, Card, Suit
from trainer.engine.errors import MalformedError, shown
from trainer.engine.trump import TRUMP, TrumpContext

CONVENTIONS_DIR = Path(__file__).resolve().parents[2] / "drills" / "signals"
"""Where the shipped convention files live; a club adds its own file here."""

RANK_SETS: dict[str, frozenset[int]] = {
    "basic_89JQ": frozenset({8, 9, 11, 12}),
    "basic_7up": frozenset({7, 8, 9, 11, 12}),
    "mid_246JQ": frozenset({2, 4, 6, 11, 12}),
    "mid_234JQ": frozenset({2, 3, 4, 11, 12}),
    "mid_369JQ": frozenset({3, 6, 9, 11, 12}),
    "mid_247JQ": frozenset({2, 4, 7, 11, 12}),
    "even": frozenset({2, 4, 6, 8, 12}),
    "odd": frozenset({3, 7, 9, 11}),
    "common_24689JQ": frozenset({2, 4, 6, 8, 9, 11, 12}),
}
"""The named signal-rank sets of signals.md (seed 001 三(四): 初级, 中级, 偶数/奇数; 二: 常用的信号牌)."""

NEVER_SIGNALS = {5: "a point card", 10: "a point card", 13: "a point card", 14: "the card that is asked for"}
"""Ranks no set may hold: 5, 10, K (seed 001 二) and the A."""

DISCARDS = ("small_on_top", "big_on_top", "even_sum", "odd_sum")
"""The discard-order conventions (垫牌约定, seed 001 四.3): 小在上, 大在上, 点数之和偶数 / 奇数."""
ORDER_DISCARDS = ("small_on_top", "big_on_top")
_RANKS_BY_NAME = {name: rank for rank, name in RANK_NAMES.items()} | {"T": 10}
_FLAGS = ("k_ask", "five_lead", "opening_request")
_FILE_FIELDS = {"name", "description", "signal_ranks", "discard", *_FLAGS}


def _rank(value: Any, where: str) -> int:
    """One rank of a signal list: `"8"`, `"J"` (or a number 2–9)."""
    if isinstance(value, int) and not isinstance(value, bool) and value in RANK_NAMES:
        rank = value
    elif isinstance(value, str) and value.strip().upper() in _RANKS_BY_NAME:
        rank = _RANKS_BY_NAME[value.strip().upper()]
    else:
        raise MalformedError(f"{where}: {shown(value)} is not a rank (2…10, J, Q, K, A)")
    if rank in NEVER_SIGNALS:
        why = NEVER_SIGNALS[rank]
        raise MalformedError(f"{where}: {RANK_NAMES[rank]} is {why} and never a signal"
                             + (" (seed 001 二: 禁止使用5，10，K分牌作为约定牌张)" if rank != 14 else ""))
    return rank


def parse_rank_set(value: Any, where: str = "signal_ranks") -> frozenset[int]:
    """A set name or a list of ranks as the set of signal ranks."""
    if isinstance(value, str):
        if value not in RANK_SETS:
            raise MalformedError(f"{where}: unknown set {shown(value)} (known: {', '.join(RANK_SETS)}, or a list "
                                 "of ranks)")
        return RANK_SETS[value]
    if isinstance(value, list):
        return frozenset(_rank(item, where) for item in value)
    raise MalformedError(f"{where}: expected a set name or a list of ranks, not {shown(value)}")


def parse_signal_ranks(value: Any) -> tuple[frozenset[int], ...]:
    """`signal_ranks` in any of its forms, as one rank set per suit S, H, C, D."""
    if isinstance(value, dict):
        unknown = [key for key in value if key not in Suit.__members__]
        if unknown:
            raise MalformedError(f"signal_ranks: {shown(unknown[0])} is not a suit (per_suit names S, H, C and D)")
        missing = [suit.letter for suit in Suit if suit.letter not in value]
        if missing:
            raise MalformedError(f"signal_ranks: a per_suit set must name all four suits (missing "
                                 f"{', '.join(missing)})")
        return tuple(parse_rank_set(value[suit.letter], f"signal_ranks.{suit.letter}") for suit in Suit)
    ranks = parse_rank_set(value)
    return (ranks,) * 4


@dataclass(frozen=True)
class Convention:
    """One convention set: which ranks signal in each side suit, the discard order, and the optional
    conventions (the K-ask 单K找K, the 5-lead 出5要K, the opening-lead trump-draw request 首引清主)."""

    ranks: tuple[frozenset[int], ...] = (RANK_SETS["basic_89JQ"],) * 4
    discard: str = "small_on_top"
    k_ask: bool = True
    five_lead: bool = True
    opening_request: bool = True
    name: str = "basic_89JQ"
    description: dict[str, str] = field(default_factory=dict, compare=False)

    @classmethod
    def parse(cls, value: Any, name: str = "") -> Convention:
        """The referee's `conventions` object (`signal_ranks`, `discard`; each defaults when absent)."""
        if value is None:
            value = {}
        if not isinstance(value, dict):
            raise MalformedError(f"conventions: expected an object, not {shown(value)}")
        ranks = parse_signal_ranks(value.get("signal_ranks", "basic_89JQ"))
        discard = value.get("discard", "small_on_top")
        if discard not in DISCARDS:
            raise MalformedError(f"discard: unknown convention {shown(discard)} (known: {', '.join(DISCARDS)})")
        flags = {}
        for flag in _FLAGS:
            flags[flag] = value.get(flag, True)
            if not isinstance(flags[flag], bool):
                raise MalformedError(f"{flag}: expected true or false, not {shown(flags[flag])}")
        signal_name = value.get("signal_ranks", "basic_89JQ")
        return cls(ranks, discard, name=name or (signal_name if isinstance(signal_name, str) else "custom"), **flags)

    @property
    def order_discards(self) -> bool:
        """True for an order convention (小在上 / 大在上), False for a sum convention."""
        return self.discard in ORDER_DISCARDS

    def is_signal(self, card: Card, ctx: TrumpContext) -> bool:
        """True when the card is a side-suit card whose rank signals in its (effective) suit."""
        suit = ctx.suit_of[card.index]
        return suit != TRUMP and card.rank in self.ranks[suit]

    def rank_names(self, suit: int) -> list[str]:
        """The signal ranks of one suit, low to high, as printed."""
        return [RANK_NAMES[rank] for rank in sorted(self.ranks[suit])]

    def signal_ranks_json(self) -> str | list[str] | dict[str, list[str]]:
        """`signal_ranks` in its shortest form: a set name, a list, or a per-suit object."""
        if len(set(self.ranks)) == 1:
            named = [name for name, ranks in RANK_SETS.items() if ranks == self.ranks[0]]
            return named[0] if named else self.rank_names(0)
        return {suit.letter: self.rank_names(suit) for suit in Suit}

    def to_json(self) -> dict[str, Any]:
        """The set as a JSON object (what a record keeps, `Convention.parse` reads back)."""
        return {"name": self.name, "signal_ranks": self.signal_ranks_json(), "discard": self.discard,
                **{flag: getattr(self, flag) for flag in _FLAGS}}


class ConventionFileError(MalformedError):
    """A convention file that cannot be used: the message names the file, the field and why."""


def load_convention_file(path: Path) -> Convention:
    """One `*.toml` convention file; its name is the file's stem. Problems raise `ConventionFileError`."""
    where = str(path)
    try:
        with path.open("rb") as handle:
            data = tomllib.load(handle)
    except OSError as error:
        raise ConventionFileError(f"{where}: cannot read: {error.strerror or error}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise ConventionFileError(f"{where}: not TOML: {error}") from None
    unknown = sorted(set(data) - _FILE_FIELDS)
    if unknown:
        raise ConventionFileError(f"{where}: field {unknown[0]!r}: unknown field (known: "
                                  f"{', '.join(sorted(_FILE_FIELDS))})")
    for required in ("signal_ranks", "discard"):
        if required not in data:
            raise ConventionFileError(f"{where}: field {required!r}: missing")
    for flag in _FLAGS:
        if flag not in data:
            raise ConventionFileError(f"{where}: field {flag!r}: missing (true or false)")
    description = data.get("description", {})
    if not (isinstance(description, dict) and set(description) <= {"zh", "en"}
            and all(isinstance(text, str) for text in description.values())):
        raise ConventionFileError(f"{where}: field 'description': expected a table with zh and en texts")
    try:
        convention = Convention.parse(data, name=path.stem)
    except MalformedError as error:
        field_name, _, why = str(error).partition(": ")  # Convention.parse names the field first
        raise ConventionFileError(f"{where}: field {field_name!r}: {why}") from None
    return Convention(convention.ranks, convention.discard, convention.k_ask, convention.five_lead,
                      convention.opening_request, path.stem, dict(description))


def load_conventions(folder: Path = CONVENTIONS_DIR) -> dict[str, Convention]:
    """Every convention file in `folder`, by name; the first malformed file raises `ConventionFileError`."""
    return {path.stem: load_convention_file(path) for path in sorted(folder.glob("*.toml"))}


def find_convention(name_or_path: str, folder: Path = CONVENTIONS_DIR) -> Convention:
    """A convention set by name (a file in `folder`) or by the path of a `.toml` file."""
    path = Path(name_or_path)
    if path.suffix == ".toml":
        return load_convention_file(path)
    candidate = folder / f"{name_or_path}.toml"
    if "/" in name_or_path or not candidate.is_file():
        known = ", ".join(path.stem for path in sorted(folder.glob("*.toml")))
        raise ConventionFileError(f"unknown convention set {shown(name_or_path)} (known: {known}, or a .toml file)")
    return load_convention_file(candidate)
