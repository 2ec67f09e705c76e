"""A complete bot-played deal of one, three and four decks (tests/data/decks/): the command line
verifies, shows and tracks each, and the tricks checked by hand below come out as the rules say."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from trainer.cli import main
from trainer.engine import Rules

DECKS = Path(__file__).parent / "data" / "decks"
PRESETS = ("one-deck", "three-deck", "four-deck")


def verified(capsys: pytest.CaptureFixture[str], preset: str) -> dict:
    """`deal verify --json` of the preset's deal."""
    assert main(["deal", "verify", "--json", str(DECKS / f"{preset}.json")]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("preset", PRESETS)
def test_each_deck_count_verifies(capsys: pytest.CaptureFixture[str], preset: str) -> None:
    rules = Rules.parse(preset)
    record = json.loads((DECKS / f"{preset}.json").read_text())
    assert record["rules"] == preset
    assert [len(hand) for hand in record["hands"]] == [rules.hand_size] * 4
    assert len(record["kitty"]) == len(record["buried"]) == rules.kitty_size
    summary = verified(capsys, preset)
    assert summary["complete"] and len(summary["tricks"]) == len(record["tricks"])
    assert sum(len(play) for trick in record["tricks"] for play in trick["plays"]) == 4 * rules.hand_size
    buried = sum({"5": 5, "10": 10, "K": 10}.get(card[:-1], 0) for card in record["buried"])
    assert sum(trick["points"] for trick in summary["tricks"]) + buried == 100 * rules.decks
    assert summary["kitty_points"] == buried


@pytest.mark.parametrize("preset", PRESETS)
def test_each_deck_count_shows_and_tracks(capsys: pytest.CaptureFixture[str], preset: str) -> None:
    path = str(DECKS / f"{preset}.json")
    assert main(["deal", "show", path, "--seat", "1", "--at", "5.2"]) == 0
    assert f'rules "{preset}"' in capsys.readouterr().out
    assert main(["deal", "track", path, "--seat", "2", "--at", "6.1"]) == 0
    assert json.loads(capsys.readouterr().out)["seat"] == 2


def test_three_deck_triples_by_hand(capsys: pytest.CaptureFixture[str]) -> None:
    """Level 2, ♦ trump. Trick 9: seat 1's ♠AAA holds (no other triple is played); trick 10: seat 1's
    ♣JJJ beats seat 3's lower ♣555; trick 14: seat 0's throw ♥555 Q stands."""
    tricks = verified(capsys, "three-deck")["tricks"]
    assert [(tricks[i]["leader"], tricks[i]["winner"]) for i in (8, 9, 13)] == [(1, 1), (1, 1), (0, 0)]
    assert tricks[9]["points"] == 15  # ♣555


def test_four_deck_quad_lead_by_hand(capsys: pytest.CaptureFixture[str]) -> None:
    """Level 4, ♣ trump. Trick 15: seat 2 leads ♦6666 and nobody can answer with a quad; the attackers
    score 185 ≥ 160 (two steps of 80) and take over at +0."""
    summary = verified(capsys, "four-deck")
    assert (summary["tricks"][14]["leader"], summary["tricks"][14]["winner"]) == (2, 2)
    assert summary["attackers_score"] == 185
    assert summary["result"] == {"side": "attackers", "levels": 0, "next_banker": 2}
