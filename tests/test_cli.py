"""The `trainer` command end to end (records.md "Command line" and "Referee").

Expected answers are written from records.md and rules.md by hand; deal records come from the random
bot, and what `deal verify` reports about them is checked against facts recomputed here from the
record itself (points on the table, who led next, the score formula, the level table).
"""
from __future__ import annotations

import hashlib
import io
import json
import os
import random
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from trainer.bots.random import random_record
from trainer.cli import main
from trainer.engine import Rules
from trainer.referee import answer

REPO = Path(__file__).resolve().parents[1]


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """`python -m trainer ARGS` from the repository root."""
    return subprocess.run([sys.executable, "-m", "trainer", *args], cwd=REPO, input=stdin, capture_output=True,
                          text=True, encoding="utf-8", timeout=60, env={**os.environ, "PYTHONIOENCODING": "utf-8"})


def run_main(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """`trainer ARGS` in-process: (exit status, stdout, stderr)."""
    try:
        status = main(list(args))
    except SystemExit as stop:  # argparse usage errors
        status = stop.code if isinstance(stop.code, int) else 2
    out, err = capsys.readouterr()
    return status, out, err


class Text:
    """Matches any string containing every one of `parts` (an empty `Text()` matches any string);
    `nonempty=True` also requires at least one non-blank character."""

    def __init__(self, *parts: str, nonempty: bool = False) -> None:
        self.parts, self.nonempty = parts, nonempty

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, str) and all(p in other for p in self.parts)
                and (not self.nonempty or bool(other.strip())))

    def __repr__(self) -> str:
        return f"Text{self.parts}"


class Multiset:
    """Matches a list of cards in any order."""

    def __init__(self, *cards: str) -> None:
        self.cards = sorted(cards)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, list) and sorted(other) == self.cards

    def __repr__(self) -> str:
        return f"Multiset{tuple(self.cards)}"


REASON = Text(nonempty=True)


def error(*names: str) -> dict[str, Any]:
    return {"error": Text(*names, nonempty=True)}


# -- trainer rules check -------------------------------------------------------------------------

L2H = {"level": "2", "trump": "H"}
L5H = {"level": "5", "trump": "H"}

REFEREE_CASES: list[tuple[str, dict[str, Any] | str, dict[str, Any]]] = [
    # combo: suit, kind, units (class, then strength; cards strongest first)
    ("combo_single_joker", {"op": "combo", **L2H, "cards": ["SJ"]},
     {"suit": "trump", "kind": "single", "units": [["SJ"]]}),
    ("combo_pair", {"op": "combo", **L2H, "cards": ["KS", "KS"]},
     {"suit": "S", "kind": "pair", "units": [["KS", "KS"]]}),
    ("combo_tractor_off_suit_level_and_trump_ace", {"op": "combo", **L5H, "cards": ["AH", "5S", "AH", "5S"]},
     {"suit": "trump", "kind": "tractor", "units": [["5S", "5S", "AH", "AH"]]}),
    ("combo_tractor_jokers_and_level", {"op": "combo", **L5H, "cards": ["5D", "SJ", "5H", "5D", "5H", "SJ"]},
     {"suit": "trump", "kind": "tractor", "units": [["SJ", "SJ", "5H", "5H", "5D", "5D"]]}),
    ("combo_hollow_tractor", {"op": "combo", **L5H, "cards": ["6S", "4S", "4S", "6S"]},
     {"suit": "S", "kind": "tractor", "units": [["6S", "6S", "4S", "4S"]]}),
    ("combo_level_ace_kk_aa", {"op": "combo", "level": "A", "trump": "H", "cards": ["KH", "AS", "KH", "AS"]},
     {"suit": "trump", "kind": "tractor", "units": [["AS", "AS", "KH", "KH"]]}),
    ("combo_throw_units_ordered", {"op": "combo", **L2H, "cards": ["3S", "QS", "AS", "KS", "9S", "QS", "KS", "9S"]},
     {"suit": "S", "kind": "throw", "units": [["KS", "KS", "QS", "QS"], ["9S", "9S"], ["AS"], ["3S"]]}),
    ("combo_equal_level_cards_in_suit_order", {"op": "combo", **L5H, "cards": ["5C", "5S"]},
     {"suit": "trump", "kind": "throw", "units": [["5S"], ["5C"]]}),
    ("combo_two_level_pairs_first_suit_joins", {"op": "combo", **L5H, "cards": ["5C", "5C", "AH", "AH", "5S", "5S"]},
     {"suit": "trump", "kind": "throw", "units": [["5S", "5S", "AH", "AH"], ["5C", "5C"]]}),
    ("combo_two_level_pairs_not_a_tractor", {"op": "combo", **L5H, "cards": ["5C", "5C", "5S", "5S"]},
     {"suit": "trump", "kind": "throw", "units": [["5S", "5S"], ["5C", "5C"]]}),
    ("combo_mixed", {"op": "combo", "level": "2", "trump": "C", "cards": ["AS", "AH"]},
     {"suit": None, "kind": "mixed", "units": []}),
    ("combo_no_trump_joker_and_level", {"op": "combo", "level": "5", "trump": "none",
                                        "cards": ["5D", "SJ", "5D", "SJ"]},
     {"suit": "trump", "kind": "tractor", "units": [["SJ", "SJ", "5D", "5D"]]}),
    ("combo_input_notations", {"op": "combo", "level": "2", "trump": "S", "cards": ["10♥", "th"]},
     {"suit": "H", "kind": "pair", "units": [["10H", "10H"]]}),
    ("combo_chinese_jokers", {"op": "combo", "level": "2", "trump": "none", "cards": ["大王", "bj", "小王"]},
     {"suit": "trump", "kind": "throw", "units": [["BJ", "BJ"], ["SJ"]]}),
    ("combo_fixed_twos_rules_object", {"op": "combo", "rules": {"preset": "standard", "fixed_twos": True}, **L5H,
                                       "cards": ["2S", "2S", "2H", "2H"]},
     {"suit": "trump", "kind": "tractor", "units": [["2H", "2H", "2S", "2S"]]}),
    ("combo_fixed_twos_preset", {"op": "combo", "rules": "fixed-twos", **L5H, "cards": ["2S", "AH", "AH", "2S"]},
     {"suit": "trump", "kind": "tractor", "units": [["2S", "2S", "AH", "AH"]]}),
    ("combo_three_deck_triple", {"op": "combo", "rules": "three-deck", **L2H, "cards": ["KS", "KS", "KS"]},
     {"suit": "S", "kind": "triple", "units": [["KS", "KS", "KS"]]}),
    ("combo_three_deck_titanic", {"op": "combo", "rules": "three-deck", **L5H,
                                  "cards": ["4S", "6S", "4S", "6S", "4S", "6S"]},
     {"suit": "S", "kind": "tractor", "units": [["6S", "6S", "6S", "4S", "4S", "4S"]]}),
    # follow
    ("follow_pair_kept_back", {"op": "follow", **L2H, "lead": ["9S", "9S"], "hand": ["KS", "KS", "4S", "3H"],
                               "play": ["KS", "4S"]}, {"legal": False, "reason": REASON}),
    ("follow_pair_given", {"op": "follow", **L2H, "lead": ["9S", "9S"], "hand": ["KS", "KS", "4S", "3H"],
                           "play": ["KS", "KS"]}, {"legal": True, "reason": Text()}),
    ("follow_loose", {"op": "follow", "rules": {"preset": "standard", "follow": "loose"}, **L2H, "lead": ["9S", "9S"],
                      "hand": ["KS", "KS", "4S", "3H"], "play": ["KS", "4S"]}, {"legal": True, "reason": Text()}),
    ("follow_short_suit_discard", {"op": "follow", **L2H, "lead": ["9S", "9S"], "hand": ["4S", "3H", "3D"],
                                   "play": ["4S", "3D"]}, {"legal": True, "reason": Text()}),
    ("follow_short_suit_spade_kept", {"op": "follow", **L2H, "lead": ["9S", "9S"], "hand": ["4S", "3H", "3D"],
                                      "play": ["3H", "3D"]}, {"legal": False, "reason": REASON}),
    ("follow_tractor_kept_back", {"op": "follow", **L2H, "lead": ["3S", "3S", "4S", "4S"],
                                  "hand": ["KS", "KS", "QS", "QS", "9S", "9S"], "play": ["KS", "KS", "9S", "9S"]},
     {"legal": False, "reason": REASON}),
    ("follow_wrong_count", {"op": "follow", **L2H, "lead": ["9S", "9S"], "hand": ["KS", "KS", "4S"],
                            "play": ["KS"]}, {"legal": False, "reason": REASON}),
    ("follow_card_not_in_hand", {"op": "follow", **L2H, "lead": ["9S", "9S"], "hand": ["KS", "KS", "4S"],
                                 "play": ["AS", "AS"]}, {"legal": False, "reason": REASON}),
    # issue 21: the refusal names the rung the hand can make, with the lead's card count (three decks)
    ("follow_three_deck_triple_rung", {"op": "follow", "rules": "three-deck", **L2H, "lead": ["9H", "9H", "9H"],
                                       "hand": ["QH", "QH", "QH", "3H", "5C"], "play": ["QH", "QH", "3H"]},
     {"legal": False,
      "reason": "must follow the triple in trump with a triple (holds Q♥ Q♥ Q♥ 3♥) but played Q♥ Q♥ 3♥"}),
    ("follow_titanic_two_triples", {"op": "follow", "rules": "three-deck", **L2H, "lead": ["7S"] * 3 + ["8S"] * 3,
                                    "hand": ["9S"] * 3 + ["JS"] * 3 + ["3S"],
                                    "play": ["9S", "9S", "JS", "JS", "3S", "9S"]},
     {"legal": False, "reason": "must follow the tractor in ♠ with 2 triples (holds J♠ J♠ J♠ 9♠ 9♠ 9♠ 3♠) "
                                "but played 9♠ 9♠ J♠ J♠ 3♠ 9♠"}),
    ("follow_titanic_tractor_rung", {"op": "follow", "rules": "three-deck", **L2H, "lead": ["7S"] * 3 + ["8S"] * 3,
                                     "hand": ["3S", "3S", "4S", "4S", "4S", "9S", "9S", "9S", "KS"],
                                     "play": ["3S", "3S", "4S", "4S", "9S", "9S"]}, {"legal": True, "reason": ""}),
    # throw: records.md's example, seed 000's 99844, a throw that stands, a single, Botzone's forced card
    ("throw_records_example", {"op": "throw", **L5H, "lead": ["KD", "QD", "QD"],
                               "others": [["AD", "AD", "3C"], ["4C"], ["6C"]]},
     {"ok": False, "forced": Multiset("QD", "QD")}),
    ("throw_seed000", {"op": "throw", **L2H, "lead": ["9S", "9S", "8S", "4S", "4S"],
                       "others": [["3D"], ["10S"], ["4D"]]}, {"ok": False, "forced": Multiset("8S")}),
    ("throw_pair_beaten", {"op": "throw", **L2H, "lead": ["9S", "9S", "8S", "4S", "4S"],
                            "others": [["3D"], ["4D"], ["5S", "5S"]]},
     {"ok": False, "forced": Multiset("4S", "4S")}),
    ("throw_stands", {"op": "throw", **L2H, "lead": ["KS", "AS", "KS"], "others": [["QS"], ["3H"], ["4D"]]},
     {"ok": True, "forced": Multiset("AS", "KS", "KS")}),
    ("throw_single_is_no_throw", {"op": "throw", **L2H, "lead": ["3S"], "others": [["AS"], ["3H"], ["4D"]]},
     {"ok": True, "forced": ["3S"]}),
    ("throw_botzone_single_card", {"op": "throw", "rules": "botzone", **L2H,
                                   "lead": ["KC", "KC", "QC", "9C", "9C", "3C"],
                                   "others": [["JC", "JC"], ["4D"], ["5D"]]},
     {"ok": False, "forced": ["3C"]}),
    # winner
    ("winner_lead_only", {"op": "winner", **L2H, "plays": [["KS", "KS", "QS"]]}, {"winner": 0}),
    ("winner_ruff_and_overruff", {"op": "winner", **L2H, "plays": [["3S"], ["4H"], ["5H"], ["AS"]]}, {"winner": 2}),
    ("winner_discard_never_wins", {"op": "winner", **L2H, "plays": [["3S"], ["AD"]]}, {"winner": 0}),
    ("winner_equal_level_cards_first_wins", {"op": "winner", **L5H, "plays": [["5S"], ["5C"]]}, {"winner": 0}),
    ("winner_trump_level_card_wins", {"op": "winner", **L5H, "plays": [["5S"], ["5H"]]}, {"winner": 1}),
    ("winner_largest_unit", {"op": "winner", **L2H,
                             "plays": [["KS", "KS", "QS"], ["9H", "9H", "AH"], ["JH", "JH", "3H"]]},
     {"winner": 2}),
    ("winner_all_units", {"op": "winner", "rules": {"preset": "standard", "throw_compare": "all_units"}, **L2H,
                          "plays": [["KS", "KS", "QS"], ["9H", "9H", "AH"], ["JH", "JH", "3H"]]}, {"winner": 1}),
    ("winner_seed002_ka", {"op": "winner", "level": "J", "trump": "H",
                           "plays": [["4D", "4D", "5D", "5D", "KD", "AD"], ["2H", "7H", "7H", "8H", "8H", "9H"]]},
     {"winner": 1}),
    ("winner_seed002_aa", {"op": "winner", "level": "J", "trump": "H",
                           "plays": [["4D", "4D", "5D", "5D", "AD", "AD"], ["2H", "7H", "7H", "8H", "8H", "9H"]]},
     {"winner": 0}),
    # bombs, four decks (§9 `bombs`): rbtying's hands, level 4, ♥ trump
    ("follow_bomb_trump_not_void", {"op": "follow", "rules": {"preset": "four-deck", "bombs": "allow_suit_following"},
                                    "level": "4", "trump": "H", "lead": ["8S", "8S", "9S", "9S"],
                                    "hand": ["3H", "3H", "3H", "3H", "5S"], "play": ["3H", "3H", "3H", "3H"]},
     {"legal": False, "reason": REASON}),
    ("follow_bomb_trump_void", {"op": "follow", "rules": {"preset": "four-deck", "bombs": "allow_suit_following"},
                                "level": "4", "trump": "H", "lead": ["8S", "8S", "9S", "9S"],
                                "hand": ["3H", "3H", "3H", "3H", "5D"], "play": ["3H", "3H", "3H", "3H"]},
     {"legal": True, "reason": ""}),
    ("follow_bomb_allow_not_void", {"op": "follow", "rules": {"preset": "four-deck", "bombs": "allow"},
                                    "level": "4", "trump": "H", "lead": ["8S", "8S", "9S", "9S"],
                                    "hand": ["3H", "3H", "3H", "3H", "5S"], "play": ["3H", "3H", "3H", "3H"]},
     {"legal": True, "reason": ""}),
    ("winner_bomb_higher_face", {"op": "winner", "rules": {"preset": "four-deck", "bombs": "allow"},
                                 "level": "4", "trump": "H",
                                 "plays": [["7S"] * 4, ["8S"] * 4, ["6S"] * 4, ["5S", "5S", "5S", "AS"]]},
     {"winner": 1}),
    ("winner_bomb_led_suit", {"op": "winner", "rules": {"preset": "four-deck", "bombs": "allow_suit_following"},
                              "level": "4", "trump": "H",
                              "plays": [["8S", "8S", "9S", "9S"], ["2S", "2S", "2S", "2S"], ["3S", "5S", "6S", "7S"]]},
     {"winner": 1}),
    # kitty
    ("kitty_single", {"op": "kitty", **L2H, "lead": ["AS"]}, {"multiplier": 2}),
    ("kitty_pair", {"op": "kitty", **L2H, "lead": ["AS", "AS"]}, {"multiplier": 4}),
    ("kitty_tractor3", {"op": "kitty", **L2H, "lead": ["QS", "QS", "KS", "KS", "AS", "AS"]}, {"multiplier": 16}),
    ("kitty_winning_play_ignored", {"op": "kitty", **L2H, "lead": ["AS"], "winning_play": ["3H", "3H"]},
     {"multiplier": 2}),
    ("kitty_linear_tractor3", {"op": "kitty", "rules": {"preset": "standard", "kitty_multiplier": "linear"}, **L2H,
                               "lead": ["QS", "QS", "KS", "KS", "AS", "AS"]}, {"multiplier": 8}),
    ("kitty_competition_single_throw", {"op": "kitty", "rules": "competition", **L2H, "lead": ["AS", "KS", "QS"]},
     {"multiplier": 3}),
    ("kitty_botzone_cards_in_lead", {"op": "kitty", "rules": "botzone", **L2H, "lead": ["AS", "AS", "KS"]},
     {"multiplier": 4}),
    ("kitty_seed004_throw", {"op": "kitty", **L2H, "lead": ["AS", "KS", "QS", "JS", "10S", "9S", "8S", "7S", "7S"]},
     {"multiplier": 4}),
    ("kitty_extra_fields_ignored", {"op": "kitty", **L2H, "lead": ["AS", "AS"], "comment": "hello"},
     {"multiplier": 4}),
    # result (no level or trump needed)
    ("result_zero", {"op": "result", "attackers_score": 0}, {"side": "banker", "levels": 3}),
    ("result_take_over", {"op": "result", "attackers_score": 80}, {"side": "attackers", "levels": 0}),
    ("result_held_next_banker", {"op": "result", "attackers_score": 75, "banker": 3},
     {"side": "banker", "levels": 1, "next_banker": 1}),
    ("result_lost_next_banker", {"op": "result", "attackers_score": 120, "banker": 3},
     {"side": "attackers", "levels": 1, "next_banker": 0}),
    ("result_negative_standard", {"op": "result", "attackers_score": -40}, {"side": "banker", "levels": 4}),
    ("result_negative_competition", {"op": "result", "rules": "competition", "attackers_score": -40},
     {"side": "banker", "levels": 5}),
    ("result_level_given_anyway", {"op": "result", **L2H, "attackers_score": 200}, {"side": "attackers", "levels": 3}),
    # malformed lines
    ("not_json", "this is not JSON", error()),
    ("truncated_json", '{"op": "combo", "level": "2"', error()),
    ("unknown_op", {"op": "shuffle", **L2H, "cards": ["AS"]}, error("shuffle")),
    ("missing_op", {**L2H, "cards": ["AS"]}, error()),
    ("unknown_option", {"op": "combo", "rules": {"preset": "standard", "colour": "red"}, **L2H, "cards": ["AS"]},
     error("colour")),
    ("bad_option_value", {"op": "combo", "rules": {"preset": "standard", "follow": "sloppy"}, **L2H, "cards": ["AS"]},
     error("follow")),
    ("unknown_preset", {"op": "combo", "rules": "tournament", **L2H, "cards": ["AS"]}, error("tournament")),
    ("unparseable_card", {"op": "combo", **L2H, "cards": ["AS", "XS"]}, error("XS", "2")),
    ("not_an_object", "[1, 2]", error()),
    ("unparseable_card_in_hand", {"op": "follow", **L2H, "lead": ["9S", "9S"], "hand": ["KS", "1S", "4S"],
                                  "play": ["KS", "4S"]}, error("1S")),
    ("missing_cards", {"op": "combo", **L2H}, error("cards")),
    ("missing_play", {"op": "follow", **L2H, "lead": ["9S", "9S"], "hand": ["KS", "KS"]}, error("play")),
    ("missing_others", {"op": "throw", **L2H, "lead": ["AS", "KS"]}, error("others")),
    ("missing_plays", {"op": "winner", **L2H}, error("plays")),
    ("missing_lead", {"op": "kitty", **L2H}, error("lead")),
    ("missing_level", {"op": "combo", "trump": "H", "cards": ["AS"]}, error("level")),
    ("missing_trump", {"op": "kitty", "level": "2", "lead": ["AS"]}, error("trump")),
    ("missing_score", {"op": "result"}, error("attackers_score")),
    ("score_not_an_integer", {"op": "result", "attackers_score": "80"}, error("attackers_score")),
    # hardening: input the referee used to crash on or get wrong, each answered in words
    ("nested_too_deep", "[" * 1000 + "]" * 1000, error("nested deeper than 64")),
    ("nested_too_deep_unclosed", '{"op": "combo", "x": ' + "[" * 5000, error("nested deeper than 64")),
    ("integer_of_5000_digits", '{"op": "result", "attackers_score": 1' + "0" * 5000 + "}", error("5001 digits")),
    ("nan_score", '{"op": "result", "attackers_score": NaN}', error("NaN")),
    ("infinity_score", '{"op": "result", "attackers_score": -Infinity}', error("Infinity")),
    ("float_overflow", '{"op": "result", "attackers_score": 1e999}', error("1e999")),
    ("lone_surrogate_card", '{"op": "combo", "level": "2", "trump": "S", "cards": ["AS", "\\ud800"]}',
     error("cards[1]", "surrogate")),
    ("lone_surrogate_key", '{"op": "result", "attackers_score": 0, "\\udc00": 1}', error("surrogate")),
    ("triple_in_two_decks", {"op": "combo", **L2H, "cards": ["AH", "AH", "AH"]}, error("3 copies", "A♥", "2 decks")),
    ("two_hundred_copies", {"op": "combo", **L2H, "cards": ["AH"] * 200}, error("200 copies", "A♥")),
    ("follow_lead_and_hand_too_many", {"op": "follow", **L2H, "lead": ["9S", "9S"], "hand": ["9S", "3S"],
                                       "play": ["9S", "3S"]}, error("lead and hand", "9♠")),
    ("throw_lead_and_others_too_many", {"op": "throw", **L2H, "lead": ["KS", "KS", "QS"],
                                        "others": [["KS"], ["3H"], ["4D"]]}, error("K♠")),
    ("throw_more_than_three_others", {"op": "throw", **L2H, "lead": ["KS", "QS"],
                                      "others": [["3S"], ["3H"], ["4D"], ["5D"]]}, error("others")),
    ("winner_plays_too_many", {"op": "winner", **L2H, "plays": [["KS"], ["KS"], ["KS"]]}, error("3 copies", "K♠")),
    ("option_value_a_list", {"op": "combo", "rules": {"preset": "standard", "follow": ["strict"]}, **L2H,
                             "cards": ["AS"]}, error("'follow'", "must be a name", "not a list")),
    ("option_value_an_object", {"op": "combo", "rules": {"preset": "standard", "bombs": {}}, **L2H, "cards": ["AS"]},
     error("'bombs'", "must be a name", "not an object")),
    ("option_value_a_number", {"op": "combo", "rules": {"fixed_twos": 1}, **L2H, "cards": ["AS"]},
     error("'fixed_twos'", "true or false", "number 1")),
    ("preset_an_object", {"op": "combo", "rules": {"preset": {"preset": {}}}, **L2H, "cards": ["AS"]},
     error("preset")),
    ("long_card_name", {"op": "combo", **L2H, "cards": ["A" * 100_000]}, error("card 1", "…")),
    ("long_op", {"op": "x" * 100_000}, error("unknown op", "…")),
]


def _line(request: dict[str, Any] | str) -> str:
    return request if isinstance(request, str) else json.dumps(request, ensure_ascii=False)


@pytest.mark.parametrize("case,request_,expected", REFEREE_CASES, ids=[c[0] for c in REFEREE_CASES])
def test_referee_answers(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, case: str,
                         request_: dict[str, Any] | str, expected: dict[str, Any]) -> None:
    # The malformed or odd line is followed by a good one, which must still be answered.
    follow_up = {"op": "result", "attackers_score": 40}
    monkeypatch.setattr(sys, "stdin", io.StringIO(_line(request_) + "\n" + _line(follow_up) + "\n"))
    status, out, _ = run_main(capsys, "rules", "check")
    assert status == 0
    lines = out.splitlines()
    assert len(lines) == 2, out
    assert json.loads(lines[0]) == expected
    assert json.loads(lines[1]) == {"side": "banker", "levels": 1}


def test_referee_answers_are_short() -> None:
    """A refused token is echoed cut short, so a huge line never comes back whole."""
    for case, request, expected in REFEREE_CASES:
        if "error" in expected:
            assert len(json.dumps(answer(_line(request)), ensure_ascii=False)) < 300, case


def test_referee_answers_a_line_that_is_not_utf8() -> None:
    stdin = b'{"op": "result", "attackers_score": 0, "x": "\xff"}\n{"op": "result", "attackers_score": 40}\n'
    done = subprocess.run([sys.executable, "-m", "trainer", "rules", "check"], cwd=REPO, input=stdin,
                          capture_output=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert [json.loads(line) for line in done.stdout.splitlines()] == [
        {"error": "the line is not UTF-8 text"}, {"side": "banker", "levels": 1}]


def test_referee_stream_end_to_end() -> None:
    """Every case at once through `python -m trainer rules check`: one answer per line, in order."""
    stdin = "".join(_line(request) + "\n" for _, request, _ in REFEREE_CASES)
    done = run("rules", "check", stdin=stdin)
    assert done.returncode == 0, done.stderr
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(answers) == len(REFEREE_CASES)
    for (case, _, expected), given in zip(REFEREE_CASES, answers):
        assert given == expected, case


def test_referee_survives_a_wrapped_tractor_lead() -> None:
    # Regression: this request used to kill `rules check` (AssertionError in tricks.trick_winner).
    wrap = {"preset": "standard", "ace_two_wrap": True}
    stdin = (json.dumps({"op": "winner", **L5H, "rules": wrap, "plays": [["AS", "AS", "2S", "2S"]]}) + "\n"
             + json.dumps({"op": "result", "attackers_score": 40}) + "\n")
    done = run("rules", "check", stdin=stdin)
    assert done.returncode == 0, done.stderr
    assert [json.loads(line) for line in done.stdout.splitlines()] == [{"winner": 0}, {"side": "banker", "levels": 1}]


# -- helpers for deal records ---------------------------------------------------------------------

POINTS = {"5": 5, "10": 10, "K": 10}
SYMBOLS = {"S": "♠", "H": "♥", "C": "♣", "D": "♦"}


def points(cards: list[str]) -> int:
    return sum(POINTS.get(card[:-1], 0) for card in cards if card not in ("BJ", "SJ"))


def effective_suit(card: str, level: str, trump: str) -> str:
    """rules.md §2 for standard rules: jokers, level cards and the trump suit are trump."""
    if card in ("BJ", "SJ"):
        return "trump"
    rank, suit = card[:-1], card[-1]
    return "trump" if rank == level or suit == trump else suit


def content_id(record: dict[str, Any]) -> str:
    """records.md: first 16 hex digits of SHA-256 of the record without `id`, canonical JSON."""
    body = {key: value for key, value in record.items() if key != "id"}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def expected_result(score: int, banker: int, seed001: bool = False) -> dict[str, Any]:
    """rules.md §7, two decks (step 40)."""
    if score >= 80:
        side, levels = "attackers", (score - 80) // 40
    elif score >= 40:
        side, levels = "banker", 1
    elif score >= 5:
        side, levels = "banker", 2
    elif score >= 0:
        side, levels = "banker", 3
    else:
        side, levels = "banker", 3 + (-score) // 40 + (1 if seed001 else 0)
    return {"side": side, "levels": levels, "next_banker": (banker + 2) % 4 if side == "banker" else (banker + 1) % 4}


def write(tmp_path: Path, name: str, record: dict[str, Any]) -> str:
    path = tmp_path / name
    path.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    return str(path)


SUMMARY_KEYS = {"id", "complete", "tricks", "attackers_points", "penalties", "kitty_points", "kitty_multiplier",
                "attackers_score", "result"}
TRICK_KEYS = {"leader", "winner", "points", "failed_throw", "partial"}
RESULT_KEYS = {"side", "levels", "next_banker"}


def check_summary(summary: dict[str, Any], record: dict[str, Any]) -> None:
    """What `deal verify --json` must say about a complete record, recomputed from the record."""
    assert set(summary) == SUMMARY_KEYS
    assert summary["id"] == (record.get("id") or content_id(record))
    assert summary["complete"] is True
    banker, tricks = record["banker"], record["tricks"]
    assert len(summary["tricks"]) == len(tricks)
    attackers = 0
    for number, (got, trick) in enumerate(zip(summary["tricks"], tricks)):
        assert set(got) == TRICK_KEYS
        assert got["leader"] == trick["leader"]
        assert got["points"] == sum(points(play) for play in trick["plays"])
        assert got["failed_throw"] is ("attempt" in trick)
        assert got["partial"] is False
        if number + 1 < len(tricks):
            assert got["winner"] == tricks[number + 1]["leader"]
        if (got["winner"] - banker) % 2:
            attackers += got["points"]
    assert sum(t["points"] for t in summary["tricks"]) == 200 - points(record["buried"])
    assert summary["attackers_points"] == attackers
    assert summary["kitty_points"] == points(record["buried"])
    last_winner = summary["tricks"][-1]["winner"]
    last_lead = tricks[-1]["plays"][0]
    multiplier = summary["kitty_multiplier"]
    if (last_winner - banker) % 2 == 0:
        assert multiplier == 0
    elif len(last_lead) == 1 or (len(set(last_lead)) == len(last_lead) and record["rules"] == "standard"):
        assert multiplier == 2          # a single, or a throw of singles
    elif len(last_lead) == 2 and len(set(last_lead)) == 1:
        assert multiplier == 4
    assert summary["attackers_score"] == summary["attackers_points"] + summary["kitty_points"] * multiplier \
        + summary["penalties"]
    assert set(summary["result"]) == RESULT_KEYS
    seed001 = record["rules"] in ("competition", "competition-draft")
    assert summary["result"] == expected_result(summary["attackers_score"], banker, seed001)


# -- trainer deal verify ----------------------------------------------------------------------------

def test_verify_json_on_valid_records(tmp_path: Path) -> None:
    records = [random_record(random.Random(seed)) for seed in range(8)]
    records[3]["id"] = "my-own-id"
    paths = [write(tmp_path, f"deal{n}.json", record) for n, record in enumerate(records)]
    done = run("deal", "verify", *paths, "--json")
    assert done.returncode == 0, done.stderr
    summaries = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    assert len(summaries) == len(records)
    for summary, record in zip(summaries, records):
        check_summary(summary, record)
        assert summary["penalties"] == 0
    assert summaries[3]["id"] == "my-own-id"
    assert summaries[0]["id"] == content_id(records[0])


def test_verify_json_penalties_and_competition_multiplier(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # competition: per_card_10 penalties, signed by the thrower's side; linear_throw3 kitty multiplier.
    rules = Rules.parse("competition")
    for seed in range(6):
        record = random_record(random.Random(seed), rules=rules, throw_rate=0.6)
        status, out, err = run_main(capsys, "deal", "verify", write(tmp_path, f"c{seed}.json", record), "--json")
        assert status == 0, err
        summary = json.loads(out)
        check_summary(summary, record)
        banker = record["banker"]
        penalties = sum((10 if (t["leader"] - banker) % 2 == 0 else -10) * len(t["attempt"])
                        for t in record["tricks"] if "attempt" in t)
        assert summary["penalties"] == penalties
        last_lead = record["tricks"][-1]["plays"][0]
        if summary["kitty_multiplier"] and len(last_lead) > 1 and len(set(last_lead)) == len(last_lead):
            assert summary["kitty_multiplier"] == 3


def test_verify_json_rules_object(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Options over a preset in the record: flat_10 penalties, cards_in_lead kitty multiplier.
    rules = Rules.parse({"preset": "standard", "throw_penalty": "flat_10", "kitty_multiplier": "cards_in_lead"})
    seen_bonus = seen_penalty = False
    for seed in range(12):
        record = random_record(random.Random(seed), rules=rules, throw_rate=0.5)
        assert isinstance(record["rules"], dict)
        status, out, err = run_main(capsys, "deal", "verify", write(tmp_path, f"o{seed}.json", record), "--json")
        assert status == 0, err
        summary = json.loads(out)
        banker = record["banker"]
        assert summary["penalties"] == sum(10 if (t["leader"] - banker) % 2 == 0 else -10
                                           for t in record["tricks"] if "attempt" in t)
        if summary["kitty_multiplier"]:
            assert summary["kitty_multiplier"] == len(record["tricks"][-1]["plays"][0])
            seen_bonus = True
        seen_penalty = seen_penalty or summary["penalties"] != 0
        score = summary["attackers_points"] + summary["kitty_points"] * summary["kitty_multiplier"] \
            + summary["penalties"]
        assert summary["attackers_score"] == score
        assert summary["result"] == expected_result(score, banker)
    assert seen_bonus and seen_penalty


def test_verify_accepts_every_card_notation(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """records.md card notation: case-insensitive, suit symbols, `T` for 10, Chinese joker names."""
    record = random_record(random.Random(14))

    def other_notation(card: str) -> str:
        if card in ("BJ", "SJ"):
            return {"BJ": "大王", "SJ": "小王"}[card]
        rank, suit = card[:-1], card[-1]
        return ("T" if rank == "10" else rank) + SYMBOLS[suit] if suit in "SH" else card.lower()

    converted = json.loads(json.dumps(record))
    converted["hands"] = [[other_notation(c) for c in hand] for hand in record["hands"]]
    converted["kitty"] = [other_notation(c) for c in record["kitty"]]
    converted["tricks"] = [dict(t, plays=[[other_notation(c) for c in play] for play in t["plays"]])
                           for t in record["tricks"]]
    summaries = []
    for name, data in (("canonical.json", record), ("other.json", converted)):
        status, out, err = run_main(capsys, "deal", "verify", write(tmp_path, name, data), "--json")
        assert status == 0, err
        summaries.append({k: v for k, v in json.loads(out).items() if k != "id"})
    assert summaries[0] == summaries[1]


@pytest.mark.parametrize("args", [["deal"], ["deal", "verify"], ["bogus"], ["deal", "show"], ["rules"]])
def test_bad_usage_exits_2(capsys: pytest.CaptureFixture[str], args: list[str]) -> None:
    status, _, err = run_main(capsys, *args)
    assert status == 2
    assert err.strip()


def test_verify_text_on_valid_records(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "deal.json", random_record(random.Random(11)))
    status, out, err = run_main(capsys, "deal", "verify", path)
    assert status == 0, err
    assert out.strip() and not err.strip()
    with pytest.raises(json.JSONDecodeError):
        json.loads(out)


@pytest.mark.parametrize("stop_after,tricks,partial_plays", [(0, 0, 0), (1, 1, 1), (8, 2, 0), (9, 3, 1), (10, 3, 2),
                                                              (11, 3, 3)])
def test_verify_incomplete_record(tmp_path: Path, capsys: pytest.CaptureFixture[str], stop_after: int, tricks: int,
                                  partial_plays: int) -> None:
    record = random_record(random.Random(5), stop_after=stop_after)
    assert len(record["tricks"]) == tricks
    path = write(tmp_path, "unfinished.json", record)
    status, out, err = run_main(capsys, "deal", "verify", path, "--json")
    assert status == 0, err
    summary = json.loads(out)
    assert set(summary) == SUMMARY_KEYS
    assert summary["complete"] is False
    assert summary["kitty_multiplier"] is None
    assert summary["attackers_score"] is None
    assert summary["result"] is None
    assert summary["kitty_points"] == points(record["buried"])
    assert summary["penalties"] == 0
    assert len(summary["tricks"]) == tricks
    attackers = 0
    for number, (got, trick) in enumerate(zip(summary["tricks"], record["tricks"]), start=1):
        if number < tricks:
            assert got["winner"] == record["tricks"][number]["leader"]
        if not got["partial"] and (got["winner"] - record["banker"]) % 2:
            attackers += got["points"]
        assert set(got) == TRICK_KEYS
        assert got["leader"] == trick["leader"]
        assert got["points"] == sum(points(play) for play in trick["plays"])
        assert got["partial"] is (number == tricks and partial_plays > 0)
        if got["partial"]:
            assert got["winner"] in [(trick["leader"] + i) % 4 for i in range(partial_plays)]
            if partial_plays == 1:
                assert got["winner"] == trick["leader"]
    assert summary["attackers_points"] == attackers
    status, out, err = run_main(capsys, "deal", "verify", path)
    assert status == 0, err


def _swap_for_illegal_follow(seed: int) -> tuple[dict[str, Any], int] | None:
    """Swap one card between two non-banker hands so that a follower of trick 1 holds a led-suit card
    it did not play: the follow becomes illegal, nothing before it changes. Returns (record, seat)."""
    record = random_record(random.Random(seed))
    level, trump, banker = record["level"], record["trump"], record["banker"]
    trick = record["tricks"][0]
    lead = trick["plays"][0]
    if "attempt" in trick or not (len(lead) == 1 or len(lead) == 2 and lead[0] == lead[1]):
        return None
    suit = effective_suit(lead[0], level, trump)
    for i in (1, 2, 3):
        seat, play = (banker + i) % 4, trick["plays"][i]
        in_suit = [c for c in play if effective_suit(c, level, trump) == suit]
        if len(in_suit) < len(play):
            wanted = None                  # short of the suit: any further card of it makes the play illegal
        elif len(lead) == 2 and len(set(play)) == 2:
            wanted = set(play)             # no pair given: the other copy of one of them makes a pair
        else:
            continue
        for q in {1, 2, 3} - {i}:
            other, other_play = (banker + q) % 4, trick["plays"][q]
            for card in record["hands"][other]:
                if (effective_suit(card, level, trump) == suit and card not in other_play
                        and (wanted is None or card in wanted)):
                    giveaway = next((c for c in record["hands"][seat] if c not in play
                                     and effective_suit(c, level, trump) != suit), None)
                    if giveaway is None:
                        continue
                    record["hands"][seat].remove(giveaway)
                    record["hands"][seat].append(card)
                    record["hands"][other].remove(card)
                    record["hands"][other].append(giveaway)
                    return record, seat
    return None


def _broken_by_swap() -> tuple[dict[str, Any], int]:
    for seed in range(500):
        found = _swap_for_illegal_follow(seed)
        if found:
            return found
    raise AssertionError("no seed gives a swappable trick 1")


def _assert_one_line(err: str, *parts: str) -> None:
    message = err.strip()
    assert message and "\n" not in message, err
    for part in parts:
        assert re.search(part, message), (part, message)


def test_verify_swapped_card_makes_a_follow_illegal(tmp_path: Path) -> None:
    record, seat = _broken_by_swap()
    done = run("deal", "verify", write(tmp_path, "swapped.json", record))
    assert done.returncode == 1
    _assert_one_line(done.stderr, r"\btrick 1\b", rf"\bseat {seat}\b")


def test_verify_wrong_leader(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = random_record(random.Random(2))
    record["tricks"][1]["leader"] = (record["tricks"][1]["leader"] + 1) % 4
    status, _, err = run_main(capsys, "deal", "verify", write(tmp_path, "leader.json", record))
    assert status == 1
    _assert_one_line(err, r"\btrick 2\b", r"\bseat [0-3]\b")


def test_verify_first_leader_must_be_the_banker(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = random_record(random.Random(3))
    wrong = (record["banker"] + 1) % 4
    for trick in record["tricks"][:1]:
        trick["leader"] = wrong
    status, _, err = run_main(capsys, "deal", "verify", write(tmp_path, "leader.json", record))
    assert status == 1
    _assert_one_line(err, r"\btrick 1\b", r"\bseat [0-3]\b")


def _record_with_attempt(seed_range: range = range(60)) -> tuple[dict[str, Any], int]:
    for seed in seed_range:
        record = random_record(random.Random(seed), throw_rate=0.6)
        for number, trick in enumerate(record["tricks"], start=1):
            forced, attempt = trick["plays"][0], trick.get("attempt")
            if attempt and len([c for c in attempt if c not in forced]) >= len(forced):
                return record, number
    raise AssertionError("no failed throw found")


def test_verify_failed_throw_recorded_as_standing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record, number = _record_with_attempt()
    trick = record["tricks"][number - 1]
    trick["plays"][0] = trick.pop("attempt")
    status, _, err = run_main(capsys, "deal", "verify", write(tmp_path, "throw.json", record))
    assert status == 1
    _assert_one_line(err, rf"\btrick {number}\b", rf"\bseat {trick['leader']}\b")


def test_verify_failed_throw_with_the_wrong_forced_play(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record, number = _record_with_attempt()
    trick = record["tricks"][number - 1]
    forced = trick["plays"][0]
    trick["plays"][0] = [c for c in trick["attempt"] if c not in forced][:len(forced)]
    status, _, err = run_main(capsys, "deal", "verify", write(tmp_path, "forced.json", record))
    assert status == 1
    _assert_one_line(err, rf"\btrick {number}\b", rf"\bseat {trick['leader']}\b")


def test_verify_standing_lead_marked_failed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = random_record(random.Random(4))
    first = record["tricks"][0]
    first["attempt"] = list(first["plays"][0])
    status, _, err = run_main(capsys, "deal", "verify", write(tmp_path, "marked.json", record))
    assert status == 1
    _assert_one_line(err, r"\btrick 1\b", rf"\bseat {record['banker']}\b")


@pytest.mark.parametrize("case", ["format", "card", "hand_size", "deck", "missing_field", "buried"])
def test_verify_broken_record(tmp_path: Path, capsys: pytest.CaptureFixture[str], case: str) -> None:
    record = random_record(random.Random(6))
    named = {"format": "format", "card": "ZZ", "hand_size": "", "deck": "", "missing_field": "trump",
             "buried": "buried"}[case]
    if case == "format":
        record["format"] = "jipai-deal/2"
    elif case == "card":
        record["hands"][2][5] = "ZZ"
    elif case == "hand_size":
        record["hands"][1].pop()
    elif case == "deck":
        record["hands"][1][0] = record["hands"][0][0] if record["hands"][0][0] != record["hands"][1][0] else "BJ"
    elif case == "missing_field":
        del record["trump"]
    else:  # a buried card that is neither in the banker's hand nor in the kitty
        pool = set(record["hands"][record["banker"]]) | set(record["kitty"])
        record["buried"][0] = next(card for hand in record["hands"] for card in hand if card not in pool)
    status, _, err = run_main(capsys, "deal", "verify", write(tmp_path, "broken.json", record))
    assert status == 1
    _assert_one_line(err, re.escape(named))


def test_verify_play_of_a_card_not_held(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = random_record(random.Random(9))
    trick = record["tricks"][1]
    seat = (trick["leader"] + 1) % 4
    held = set(record["hands"][seat]) | (set(record["kitty"]) if seat == record["banker"] else set())
    stranger = next(card for hand in record["hands"] for card in hand if card not in held)
    trick["plays"][1][0] = stranger
    status, _, err = run_main(capsys, "deal", "verify", write(tmp_path, "stranger.json", record))
    assert status == 1
    _assert_one_line(err, r"\btrick 2\b", rf"\bseat {seat}\b")


def test_verify_broken_and_missing_through_the_command(tmp_path: Path) -> None:
    record = random_record(random.Random(6))
    record["format"] = "jipai-deal/0"
    done = run("deal", "verify", write(tmp_path, "bad.json", record))
    assert done.returncode == 1
    _assert_one_line(done.stderr, "format")
    done = run("deal", "verify", str(tmp_path / "no-such-file.json"))
    assert done.returncode == 2
    assert done.stderr.strip()


def test_verify_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run_main(capsys, "deal", "verify", str(tmp_path / "absent.json"))
    assert status == 2
    assert err.strip()


def test_verify_exit_1_when_one_of_several_files_is_invalid(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = write(tmp_path, "good.json", random_record(random.Random(7)))
    bad_record = random_record(random.Random(8))
    bad_record["tricks"][1]["leader"] = (bad_record["tricks"][1]["leader"] + 2) % 4
    bad = write(tmp_path, "bad.json", bad_record)
    status, _, _ = run_main(capsys, "deal", "verify", good, bad)
    assert status == 1


# -- trainer deal show ------------------------------------------------------------------------------

def card_names(card: str) -> set[str]:
    """Every way a card may be written: canonical, with the suit symbol, Chinese joker names."""
    if card == "BJ":
        return {"BJ", "大王"}
    if card == "SJ":
        return {"SJ", "小王"}
    rank, suit = card[:-1], card[-1]
    return {card, rank + SYMBOLS[suit], SYMBOLS[suit] + rank}


def shown_cards(text: str) -> set[str]:
    """The canonical cards written anywhere in `text`."""
    tokens = set(re.findall(r"[^\s,;:()\[\]{}'\"|/·—→×]+", text))
    faces = ["BJ", "SJ"] + [rank + suit for suit in "SHCD"
                            for rank in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")]
    return {face for face in faces if card_names(face) & tokens}


def seen_by(record: dict[str, Any], seat: int, trick_no: int, plays: int) -> tuple[set[str], set[str]]:
    """(cards `seat` may see at position trick_no.plays, its own cards then)."""
    banker = record["banker"]
    hand = Counter(record["hands"][seat])
    visible: set[str] = set()
    if seat == banker:
        hand += Counter(record["kitty"])
        hand -= Counter(record["buried"])
        visible |= set(record["kitty"]) | set(record["buried"])
    for number, trick in enumerate(record["tricks"], start=1):
        if number > trick_no:
            break
        made = trick["plays"] if number < trick_no else trick["plays"][:plays]
        if made and "attempt" in trick:
            visible |= set(trick["attempt"])
        for index, play in enumerate(made):
            visible |= set(play)
            if (trick["leader"] + index) % 4 == seat:
                hand -= Counter(play)
    own = set(hand.elements())
    return visible | own, own


@pytest.mark.parametrize("seat,position,trick_no,plays", [(1, "0.0", 1, 0), (1, "1.0", 1, 0), (2, "1.2", 1, 2),
                                                           (3, "2.4", 2, 4), (0, "3.1", 3, 1)])
def test_show_seat_view_hides_other_hands(tmp_path: Path, capsys: pytest.CaptureFixture[str], seat: int,
                                          position: str, trick_no: int, plays: int) -> None:
    record = random_record(random.Random(12))
    path = write(tmp_path, "deal.json", record)
    status, out, err = run_main(capsys, "deal", "show", path, "--seat", str(seat), "--at", position)
    assert status == 0, err
    visible, own = seen_by(record, seat, trick_no, plays)
    shown = shown_cards(out)
    everything = {card for hand in record["hands"] for card in hand} | set(record["kitty"])
    assert everything - visible, "the example must leave something hidden"
    assert not shown - visible, f"seat {seat} at {position} is shown {sorted(shown - visible)}"
    assert own <= shown


def test_show_whole_deal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = random_record(random.Random(12))
    path = write(tmp_path, "deal.json", record)
    status, out, err = run_main(capsys, "deal", "show", path, "--at", "0.0")
    assert status == 0, err
    assert {card for hand in record["hands"] for card in hand} <= shown_cards(out)
    status, out, err = run_main(capsys, "deal", "show", path)
    assert status == 0, err
    assert out.strip()


@pytest.mark.parametrize("position", ["0.0", "1.0", "1.4", "2.0", "end"])
def test_show_positions(tmp_path: Path, capsys: pytest.CaptureFixture[str], position: str) -> None:
    path = write(tmp_path, "deal.json", random_record(random.Random(13)))
    status, out, err = run_main(capsys, "deal", "show", path, "--at", position)
    assert status == 0, err
    assert out.strip()


@pytest.mark.parametrize("position", ["1.5", "99.0", "-1.0", "x", "2", "1.2.3", "0.1", ""])
def test_show_bad_position(tmp_path: Path, capsys: pytest.CaptureFixture[str], position: str) -> None:
    path = write(tmp_path, "deal.json", random_record(random.Random(13)))
    status, _, err = run_main(capsys, "deal", "show", path, "--at", position)
    assert status == 2
    assert err.strip()


def test_show_positions_of_an_unfinished_deal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "deal.json", random_record(random.Random(13), stop_after=6))   # 1.4, then 2.2
    for position in ("2.2", "end", "1.4", "2.0"):
        status, _, err = run_main(capsys, "deal", "show", path, "--at", position)
        assert status == 0, (position, err)
    for position in ("2.3", "3.0"):
        status, _, err = run_main(capsys, "deal", "show", path, "--at", position)
        assert status == 2, position


def test_show_through_the_command(tmp_path: Path) -> None:
    record = random_record(random.Random(12))
    path = write(tmp_path, "deal.json", record)
    done = run("deal", "show", path, "--seat", "1", "--at", "1.0")
    assert done.returncode == 0, done.stderr
    visible, own = seen_by(record, 1, 1, 0)
    assert own <= shown_cards(done.stdout)
    assert not shown_cards(done.stdout) - visible
    assert run("deal", "show", path, "--at", "99.9").returncode == 2
    assert run("deal", "show", str(tmp_path / "absent.json")).returncode == 2


@pytest.mark.parametrize("seat", ["4", "-1", "north"])
def test_show_bad_seat(tmp_path: Path, capsys: pytest.CaptureFixture[str], seat: str) -> None:
    path = write(tmp_path, "deal.json", random_record(random.Random(13)))
    status, _, _ = run_main(capsys, "deal", "show", path, "--seat", seat)
    assert status == 2


# -- every input answered in words (issue 10) ---------------------------------------------------------

def _with_field(field: str, json_text: str) -> Any:
    """A valid record's JSON text with one more field whose value is `json_text`, as written."""
    return lambda text: text[:-1] + f', "{field}": {json_text}' + "}"


def _set(path: tuple[Any, ...], value: Any) -> Any:
    def change(record: dict[str, Any]) -> None:
        _parent_of(record, path)[path[-1]] = value
    return change


def _drop(field: str) -> Any:
    return lambda record: record.pop(field)


def _seat_as(template: str, *path: Any) -> Any:
    """Write the seat at `path` (the record's own, so only its spelling is wrong) through `template`."""
    def change(record: dict[str, Any]) -> None:
        parent = _parent_of(record, path)
        seat = parent[path[-1]]
        parent[path[-1]] = True if template == "bool" else template.format(seat=seat, arabic=chr(0x660 + seat))
    return change


def _parent_of(record: dict[str, Any], path: tuple[Any, ...]) -> Any:
    for key in path[:-1]:
        record = record[key]
    return record


# (case, change to the record's text or to the record, words the error must contain, id known)
TEXT_CASES = [
    ("nested_too_deep", _with_field("notes", "[" * 1000 + "]" * 1000), "nested deeper than 64", False),
    ("integer_of_5000_digits", _with_field("notes", "1" + "0" * 5000), "5001 digits", False),
    ("nan", _with_field("notes", "NaN"), "NaN", False),
    ("infinity", _with_field("notes", "-Infinity"), "Infinity", False),
    ("lone_surrogate_in_id", _with_field("id", '"\\ud800"'), "id: a lone surrogate", False),
    ("lone_surrogate_in_players", _with_field("players", '["东", "x\\udc00"]'), "players[1]", False),
]
RECORD_CASES = [
    ("option_a_list", _set(("rules",), {"preset": "standard", "follow": ["strict"]}), "'follow' must be a name", True),
    ("option_an_object", _set(("rules",), {"preset": "standard", "follow": {}}), "not an object", True),
    ("option_a_number", _set(("rules",), {"fixed_twos": 0}), "'fixed_twos' must be true or false", True),
    ("preset_an_object", _set(("rules",), {"preset": {"preset": {}}}), "preset", True),
    ("rules_missing", _drop("rules"), "missing field 'rules'", True),
    ("rules_null", _set(("rules",), None), "rules", True),
    ("id_an_integer", _set(("id",), 5), "id", True),
    ("id_null", _set(("id",), None), "id", True),
    ("id_empty", _set(("id",), ""), "id", True),
    ("banker_with_a_space", _seat_as(" {seat}", "banker"), "seat", True),
    ("banker_with_a_zero", _seat_as("0{seat}", "banker"), "seat", True),
    ("banker_with_a_sign", _seat_as("+{seat}", "banker"), "seat", True),
    ("banker_arabic_indic_digit", _seat_as("{arabic}", "banker"), "seat", True),
    ("banker_true", _seat_as("bool", "banker"), "seat", True),
    ("leader_with_a_sign", _seat_as("+{seat}", "tricks", 1, "leader"), "trick 2: a seat is", True),
    ("declarer_with_a_space", _seat_as("{seat} ", "declarations", 0, "seat"), "declaration 1: a seat is", True),
    ("long_card_name", _set(("hands", 0, 0), "A" * 1_000_000), "hands, seat 0: card 1: not a card", True),
]


def _check_refused(capsys: pytest.CaptureFixture[str], path: str, words: str, record_id: str | None) -> None:
    status, out, err = run_main(capsys, "deal", "verify", path, "--json")
    assert status == 1, err
    answer = json.loads(out)
    expected = {"file": path, "error": Text(words)} | ({"id": record_id} if record_id else {})
    assert answer == expected
    assert len(answer["error"]) < 300
    _assert_one_line(err, re.escape(words))


@pytest.mark.parametrize("case,change,words,_", TEXT_CASES, ids=[c[0] for c in TEXT_CASES])
def test_verify_refuses_unreadable_json_in_words(tmp_path: Path, capsys: pytest.CaptureFixture[str], case: str,
                                                 change: Any, words: str, _: bool) -> None:
    path = tmp_path / f"{case}.json"
    path.write_text(change(json.dumps(random_record(random.Random(5)), ensure_ascii=False)), encoding="utf-8")
    _check_refused(capsys, str(path), words, None)


@pytest.mark.parametrize("case,change,words,_", RECORD_CASES, ids=[c[0] for c in RECORD_CASES])
def test_verify_refuses_malformed_records_in_words(tmp_path: Path, capsys: pytest.CaptureFixture[str], case: str,
                                                   change: Any, words: str, _: bool) -> None:
    record = random_record(random.Random(5))
    change(record)
    given = record.get("id")
    _check_refused(capsys, write(tmp_path, f"{case}.json", record), words,
                   given if isinstance(given, str) and given else content_id(record))


def test_verify_json_answers_every_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good_record = random_record(random.Random(7))
    bad_record = random_record(random.Random(8))
    bad_record["tricks"][1]["leader"] = (bad_record["tricks"][1]["leader"] + 2) % 4
    good, bad = write(tmp_path, "good.json", good_record), write(tmp_path, "bad.json", bad_record)
    missing, folder, binary = str(tmp_path / "absent.json"), str(tmp_path), tmp_path / "latin1.json"
    binary.write_bytes(b'{"format": "jipai-deal/1", "notes": "\xe9"}')
    status, out, _ = run_main(capsys, "deal", "verify", good, missing, bad, folder, str(binary), "--json")
    assert status == 2
    answers = [json.loads(line) for line in out.splitlines()]
    assert [answer.get("file") for answer in answers] == [None, missing, bad, folder, str(binary)]
    check_summary(answers[0], good_record)
    assert answers[1] == {"file": missing, "error": Text("cannot read", "No such file")}
    assert answers[2] == {"id": content_id(bad_record), "file": bad, "error": Text("trick 2")}
    assert answers[3] == {"file": folder, "error": Text("cannot read")}
    assert answers[4] == {"file": str(binary), "error": Text("not UTF-8")}
    status, out, _ = run_main(capsys, "deal", "verify", good, bad, "--json")
    assert status == 1 and len(out.splitlines()) == 2


@pytest.mark.parametrize("position", ["END", "end ", " 1.0", "1.0 ", "١.0", "+1.0", "1.0.0", "1", "1.", ".0", "1,0",
                                      "1" * 5000 + ".0"])
def test_positions_are_exact(tmp_path: Path, capsys: pytest.CaptureFixture[str], position: str) -> None:
    path = write(tmp_path, "deal.json", random_record(random.Random(12)))
    status, out, err = run_main(capsys, "deal", "show", path, "--at", position)
    assert status == 2 and not out
    _assert_one_line(err, "position")
    assert len(err) < 200
    for good in ("end", "0.0", "1.0", "1.2"):
        assert run_main(capsys, "deal", "show", path, "--at", good)[0] == 0


@pytest.mark.parametrize("seat", [" 1", "01", "+1", "٣", "1.0", "4"])
def test_seats_are_exact(tmp_path: Path, capsys: pytest.CaptureFixture[str], seat: str) -> None:
    path = write(tmp_path, "deal.json", random_record(random.Random(12)))
    status, out, err = run_main(capsys, "deal", "track", path, "--seat", seat, "--at", "1.0")
    assert status == 2 and not out
    _assert_one_line(err, "seat")


def test_card_names_are_refused_in_linear_time_with_a_short_echo() -> None:
    """A million-character name is refused unread (parsing used to be quadratic: over a minute)."""
    from trainer.engine.cards import parse_cards
    from trainer.engine.errors import MalformedError

    with pytest.raises(MalformedError) as refused:
        parse_cards(["AS", "Q" * 1_000_000 + "S"])
    assert str(refused.value) == "card 2: not a card: 'QQQQQQQQQQQQQQQQQQQQ'…"
    assert [str(card) for card in parse_cards(["  10h ", "方片10", "♥10", "红桃Q"])] == ["10H", "10D", "10H", "QH"]


def test_generate_and_import_refuse_in_words(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("", encoding="utf-8")
    status, _, err = run_main(capsys, "deal", "generate", "--count", "1", "--out", str(blocker / "deals"))
    assert status == 2
    _assert_one_line(err, "cannot write to")
    status, _, err = run_main(capsys, "deal", "generate", "--rules", '{"preset": ' + "[" * 1000)
    assert status == 2
    _assert_one_line(err, "--rules", "nested deeper than 64")
    log = tmp_path / "log.json"
    log.write_text('{"log": ' + "[" * 1000, encoding="utf-8")
    status, _, err = run_main(capsys, "deal", "import", "--from", "botzone", str(log), "--out", str(tmp_path))
    assert status == 1
    _assert_one_line(err, "nested deeper than 64")


@pytest.mark.parametrize("args", [["deal", "generate", "--count", "0"], ["deal", "generate", "--count", " 1"],
                                  ["deal", "generate", "--seed", "-1"], ["deal", "generate", "--seed", "١"],
                                  ["deal", "generate", "--seed", "9" * 5000], ["deal", "generate", "--jobs", "65"],
                                  ["serve", "--port", "99999"], ["serve", "--port", "0"], ["serve", "--port", "+80"],
                                  ["deal", "track", "x.json", "--seat", "0", "--at", "end", "--tier", " 2"]])
def test_numbers_on_the_command_line_are_exact(capsys: pytest.CaptureFixture[str], args: list[str]) -> None:
    status, out, err = run_main(capsys, *args)
    assert status == 2 and not out
    assert "must be a whole number from" in err and len(err) < 1000


def test_serve_on_an_address_it_cannot_listen_on(capsys: pytest.CaptureFixture[str],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    def taken(**_: Any) -> None:
        raise OSError(98, "Address already in use")

    monkeypatch.setattr("trainer.web.create_app", lambda: SimpleNamespace(config={"DATABASE_URL": "sqlite://"},
                                                                          run=taken))
    status, _, err = run_main(capsys, "serve", "--port", "8123")
    assert status == 2
    _assert_one_line(err, "cannot listen on '127.0.0.1':8123: Address already in use")


@pytest.mark.parametrize("deliver", ["[" * 5000, "[1" + "0" * 5000 + "]"])
def test_import_refuses_card_ids_it_cannot_read(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                deliver: str) -> None:
    """Botzone logs may hold card ids as JSON text; that text goes through the same JSON reader."""
    log = [{"output": {"command": "request", "content": {"0": {"stage": "deal", "deliver": deliver}}}}]
    path = write(tmp_path, "log.json", log)  # type: ignore[arg-type]
    status, out, err = run_main(capsys, "deal", "import", "--from", "botzone", path, "--out", str(tmp_path / "out"))
    assert status == 1 and not out
    _assert_one_line(err, "the cards delivered to seat 0", "not a Botzone card id")
    assert len(err) < 1000
