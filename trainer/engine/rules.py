"""The rules of one game as a frozen config: options and presets of rules.md §9.

>>> Rules.parse("competition").throw_penalty
'per_card_10'
>>> Rules.parse({"preset": "standard", "fixed_twos": True}).fixed_twos
True
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from typing import Any

from trainer.engine.errors import MalformedError, shown

OPTION_VALUES: dict[str, tuple[Any, ...]] = {
    "decks": (2, 1, 3, 4),
    "fixed_twos": (False, True),
    "ace_two_wrap": (False, True),
    "hollow_tractors": ("all", "side_only", "none"),
    "follow": ("strict", "protect_longer", "tractor_on_tractor_only",
               "protect_longer_tractor_on_tractor_only", "loose", "lenient"),
    "throw_compare": ("largest_unit", "all_units", "highest_card", "unit_length", "lexicographic"),
    "throw_penalty": ("none", "per_card_10", "per_extra_card_10", "per_returned_card_10",
                      "per_beaten_card_10", "flat_10", "flat_5"),
    "bombs": ("none", "allow", "allow_suit_following"),
    "kitty_multiplier": ("doubling", "power_cards", "times_cards", "linear", "linear_throw3",
                         "cards_in_lead"),
    "levels": ("standard", "seed001"),
    "no_declaration": ("first_kitty_card", "first_kitty_card_skip_jokers", "most_common_kitty_suit",
                       "no_trump"),
    "level_tractors": ("chain", "jokers_only"),
    "forced_play": ("lowest_of_highest_class", "single_card"),
}
"""Every option with its allowed values, the default first."""

OPTION_ALIASES = {("kitty_multiplier", "times_width"): "times_cards"}


@dataclass(frozen=True, slots=True)
class Rules:
    """A frozen rules config (the `Game` of the game/state/observer split)."""

    preset: str = "standard"
    decks: int = 2
    fixed_twos: bool = False
    ace_two_wrap: bool = False
    hollow_tractors: str = "all"
    follow: str = "strict"
    throw_compare: str = "largest_unit"
    throw_penalty: str = "none"
    bombs: str = "none"
    kitty_multiplier: str = "doubling"
    levels: str = "standard"
    no_declaration: str = "first_kitty_card"
    level_tractors: str = "chain"
    forced_play: str = "lowest_of_highest_class"

    @property
    def kitty_size(self) -> int:
        """Cards in the kitty: 8 with 2 or 4 decks, 6 with 1 or 3."""
        return 8 if self.decks in (2, 4) else 6

    @property
    def hand_size(self) -> int:
        """Cards dealt to each seat."""
        return (54 * self.decks - self.kitty_size) // 4

    @property
    def level_step(self) -> int:
        """Points per level step: 20 per deck (40 with two decks)."""
        return 20 * self.decks

    @property
    def total_points(self) -> int:
        """Points in all the decks: 100 per deck."""
        return 100 * self.decks

    @classmethod
    def parse(cls, spec: str | dict[str, Any] | None) -> Rules:
        """Rules from a preset name or `{"preset": …, option: value, …}`; errors name the bad field."""
        return parse_options(spec, PRESETS, OPTION_VALUES, OPTION_ALIASES)

    def to_json(self) -> str | dict[str, Any]:
        """The shortest record form: the preset name, or the preset and the options that differ."""
        return options_json(self, PRESETS)

    def as_dict(self) -> dict[str, Any]:
        """Every option with its value."""
        return asdict(self)


def parse_options(spec: str | dict[str, Any] | None, presets: dict[str, Any], option_values: dict[str, tuple[Any, ...]],
                  aliases: dict[tuple[str, Any], Any] | None = None, game: str = "") -> Any:
    """A frozen rules config from a preset name or `{"preset": …, option: value, …}` over `presets` (the
    default preset is `standard`); an unknown preset, option or value raises `MalformedError` naming it.
    `game` (e.g. "gouji ") prefixes the word "rules" in the messages about unknown names."""
    if spec is None:
        return presets["standard"]
    if isinstance(spec, str):
        if spec not in presets:
            raise MalformedError(f"unknown {game}rules preset {shown(spec)} (known: {', '.join(presets)})")
        return presets[spec]
    if not isinstance(spec, dict):
        raise MalformedError(f"rules must be a preset name or an object, not {shown(spec)}")
    options = dict(spec)
    preset = options.pop("preset", "standard")
    if not isinstance(preset, str):
        raise MalformedError(f"rules: \"preset\" must be a preset name ({', '.join(presets)}), not {shown(preset)}")
    base = parse_options(preset, presets, option_values, aliases, game)
    changes = {}
    for name, value in options.items():
        if name not in option_values:
            raise MalformedError(f"unknown {game}rules option {shown(name)}")
        allowed = option_values[name]
        shown_allowed = ", ".join(str(v).lower() if isinstance(v, bool) else str(v) for v in allowed)
        kinds = {type(v) for v in allowed}
        if len(kinds) > 1:  # a value of mixed kinds (a number or a name): any allowed value as it is
            if not any(type(value) is type(option) and value == option for option in allowed):
                raise MalformedError(f"rules option {name!r} cannot be {_json_kind(value)} (allowed: {shown_allowed})")
            changes[name] = value
            continue
        kind = kinds.pop()
        if type(value) is not kind:
            expected = {bool: "true or false", int: "a number", str: "a name"}[kind]
            raise MalformedError(f"rules option {name!r} must be {expected} ({shown_allowed}), "
                                 f"not {_json_kind(value)}")
        value = (aliases or {}).get((name, value), value)
        if value not in allowed:
            raise MalformedError(f"rules option {name!r} cannot be {shown(value)} (allowed: {shown_allowed})")
        changes[name] = value
    return replace(base, **changes)


def options_json(rules: Any, presets: dict[str, Any]) -> str | dict[str, Any]:
    """The shortest record form of a rules config: its preset's name, or the preset and the options that differ."""
    base = presets[rules.preset]
    if base == rules:
        return rules.preset
    differences = {f.name: getattr(rules, f.name) for f in fields(rules)
                   if f.name != "preset" and getattr(rules, f.name) != getattr(base, f.name)}
    return {"preset": rules.preset, **differences}


def _json_kind(value: Any) -> str:
    """What a JSON value is, in words: `a list`, `the string 'x'`, `true`."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, str):
        return f"the string {shown(value)}"
    if isinstance(value, (int, float)):
        return f"the number {shown(value)}"
    return "a list" if isinstance(value, list) else "an object" if isinstance(value, dict) else shown(value)


def _preset(name: str, **options: Any) -> Rules:
    return Rules(preset=name, **options)


PRESETS: dict[str, Rules] = {
    "standard": _preset("standard"),
    "competition": _preset("competition", throw_penalty="per_card_10", kitty_multiplier="linear_throw3",
                           no_declaration="no_trump", levels="seed001"),
    "competition-draft": _preset("competition-draft", throw_penalty="per_extra_card_10", levels="seed001"),
    "fixed-twos": _preset("fixed-twos", fixed_twos=True),
    "botzone": _preset("botzone", follow="lenient", level_tractors="jokers_only",
                       throw_penalty="per_beaten_card_10", forced_play="single_card",
                       kitty_multiplier="cards_in_lead"),
    "one-deck": _preset("one-deck", decks=1),
    "three-deck": _preset("three-deck", decks=3, kitty_multiplier="power_cards"),
    "four-deck": _preset("four-deck", decks=4),
}
"""The presets of rules.md §9, by name."""
