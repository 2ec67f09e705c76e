"""The rules of a 掼蛋 match as a frozen config: the options and presets of guandan.md §5.

>>> GuandanRules.parse("jiangsu-club").wild_reading
'lowest'
>>> GuandanRules.parse({"preset": "pagat", "a_limit": 0}).to_json()
{'preset': 'pagat', 'a_limit': 0}
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from typing import Any

from trainer.engine.errors import MalformedError, shown
from trainer.engine.rules import options_json, parse_options

OPTION_VALUES: dict[str, tuple[Any, ...]] = {
    "wild_reading": ("highest", "lowest"),
    "return_card": ("ten_or_lower", "any"),
}
"""The options with a fixed set of values, the default first; `a_limit` is any integer ≥ 0."""


@dataclass(frozen=True, slots=True)
class GuandanRules:
    """A frozen 掼蛋 rules config (§5): how undeclared wild plays read, what a 还贡 may be, the A rule's limit."""

    preset: str = "standard"
    wild_reading: str = "highest"
    return_card: str = "ten_or_lower"
    a_limit: int = 3

    @classmethod
    def parse(cls, spec: str | dict[str, Any] | None) -> GuandanRules:
        """Rules from a preset name or `{"preset": …, option: value, …}`; errors name the bad field."""
        a_limit = None
        if isinstance(spec, dict) and "a_limit" in spec:
            spec = dict(spec)
            a_limit = spec.pop("a_limit")
            if type(a_limit) is not int or a_limit < 0:
                raise MalformedError(f"rules option 'a_limit' must be an integer ≥ 0, not {shown(a_limit)}")
        rules = parse_options(spec, PRESETS, OPTION_VALUES, game="guandan ")
        return rules if a_limit is None else replace(rules, a_limit=a_limit)

    @property
    def decks(self) -> int:
        """Two decks (108 cards): the most copies of a face."""
        return 2

    def to_json(self) -> str | dict[str, Any]:
        """The shortest record form: the preset name, or the preset and the options that differ."""
        return options_json(self, PRESETS)

    def as_dict(self) -> dict[str, Any]:
        """Every option with its value."""
        return asdict(self)


PRESETS: dict[str, GuandanRules] = {
    "standard": GuandanRules(),
    "jiangsu-club": GuandanRules(preset="jiangsu-club", wild_reading="lowest"),
    "pagat": GuandanRules(preset="pagat", return_card="any"),
}
"""The presets of guandan.md §5, by name."""
