"""The 掼蛋 (Guandan) engine: four seats, two decks, 逢人配 wilds (guandan.md), pure Python.

It shares the cards and their notation with `trainer.engine` (`Card`, `Hand`, `parse_cards`), the seats
(`Seat`) and the errors (`MalformedError` for input that cannot be read, `IllegalPlayError` for plays the
rules forbid); its own are the level context (`Level`), plays and readings (`Reading`, `readings`,
`beats`), the rules config (`GuandanRules`), the hand in play (`HandState`: `act`, `undo`), places and
levels (`level_gain`), 进贡/还贡 (`tribute_plan`) and records (`trainer.guandan.records`).
"""
from __future__ import annotations

from trainer.guandan.level import Level, parse_rank, rank_text
from trainer.guandan.plays import TYPES, Play, Reading, beats, choose, play_problem, reading_of, readings
from trainer.guandan.rules import PRESETS, GuandanRules
from trainer.guandan.scoring import LevelResult, check_places, finish_kind, level_gain
from trainer.guandan.state import HandState, RoundSummary, Step
from trainer.guandan.tribute import Tribute, TributePlan, due_rank, return_problem, return_reason, tribute_plan

__all__ = [
    "Level", "parse_rank", "rank_text", "TYPES", "Play", "Reading", "beats", "choose", "play_problem",
    "reading_of", "readings", "PRESETS", "GuandanRules", "LevelResult", "check_places", "finish_kind",
    "level_gain", "HandState", "RoundSummary", "Step", "Tribute", "TributePlan", "due_rank", "return_problem",
    "return_reason", "tribute_plan",
]
