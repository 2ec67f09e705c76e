"""The 够级 (Gouji) engine: six seats, four decks (gouji.md), pure Python beside the 升级 engine.

It shares the cards and their notation with `trainer.engine` (`Card`, `parse_cards`) and the errors
(`MalformedError` for input that cannot be read, `IllegalPlayError` for plays the rules forbid);
everything else is its own: rules and seats (`GoujiRules`), plays and beating (`Play`, `beats`), 买3 and
dealing (`buy_threes`), the hand in play (`HandState`: `act`, `undo`, `turn`), results (`hand_result`),
records (`trainer.gouji.records`) and the referee ops (`trainer.gouji.referee`).
"""
from __future__ import annotations

from trainer.gouji.deal import Exchange, buy_threes, deal, natural_openers
from trainer.gouji.plays import THRESHOLDS, VALUE_NAMES, Play, analyse, beats, opens, value_of
from trainer.gouji.rules import PRESETS, GoujiRules
from trainer.gouji.state import Burn, HandState, Kill, Men, Out, RoundSummary, Turn, play_problem

__all__ = [
    "Exchange", "buy_threes", "deal", "natural_openers", "THRESHOLDS", "VALUE_NAMES", "Play", "analyse", "beats",
    "opens", "value_of", "PRESETS", "GoujiRules", "Burn", "HandState", "Kill", "Men", "Out", "RoundSummary",
    "Turn", "play_problem",
]
