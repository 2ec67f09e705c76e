"""Options, presets and seat arithmetic of 够级 (gouji.md §1, §4)."""
from __future__ import annotations

import pytest

from trainer.engine import MalformedError
from trainer.gouji import PRESETS, GoujiRules
from trainer.gouji.scoring import place_points


def test_standard_is_the_default() -> None:
    rules = GoujiRules.parse(None)
    assert rules == GoujiRules.parse("standard") == GoujiRules()
    assert (rules.players, rules.decks, rules.hand_size) == (6, 4, 36)   # H "四幅牌…每人36张牌"


@pytest.mark.parametrize(("preset", "changes"), [
    ("karamay", {"place_points": "karamay", "event_points": "karamay", "kaidian": "karamay",
                 "chuan_san_hu": "none", "next_hand_leader": "rotate"}),
    ("activity", {"attach_twos": False, "event_points": "activity", "touke_needs_kaidian": True}),
    ("bisai", {"place_points": "bisai", "event_points": "bisai", "two_kill_one": True, "kaidian_closes": "erke",
               "chuan_san_hu": "none", "team_total": "sum"}),
    ("paodekuai", {"biesan": False, "place_points": "ladder", "chuan_san_hu": "none", "team_total": "sum"}),
])
def test_presets_differ_from_standard_exactly(preset: str, changes: dict[str, object]) -> None:
    options = PRESETS[preset].as_dict()
    standard = PRESETS["standard"].as_dict()
    differing = {name: value for name, value in options.items() if value != standard[name] and name != "preset"}
    assert differing == changes


def test_options_over_a_preset_round_trip() -> None:
    rules = GoujiRules.parse({"preset": "karamay", "luanchan": "five", "decks": 5})
    assert (rules.luanchan, rules.decks, rules.hand_size, rules.event_points) == ("five", 5, 45, "karamay")
    assert rules.to_json() == {"preset": "karamay", "luanchan": "five", "decks": 5}
    assert GoujiRules.parse(rules.to_json()) == rules
    assert GoujiRules.parse("bisai").to_json() == "bisai"


@pytest.mark.parametrize(("spec", "message"), [
    ("tournament", "unknown gouji rules preset 'tournament'"),
    ({"jokers": 2}, "unknown gouji rules option 'jokers'"),
    ({"luanchan": "three"}, r"rules option 'luanchan' cannot be 'three' \(allowed: four, five, none\)"),
    ({"biesan": "yes"}, "rules option 'biesan' must be true or false"),
    ({"chuan_san_hu": 16}, "rules option 'chuan_san_hu' cannot be the number 16"),
    ({"decks": True}, "rules option 'decks' must be a number"),
    ({"chuan_san_hu": "8"}, "rules option 'chuan_san_hu' cannot be the string '8'"),
    ({"players": 10}, "cannot be dealt evenly"),
    ({"decks": 1}, "biesan needs at least one 3 per player"),
    ({"preset": 3}, "preset"),
])
def test_bad_rules_name_the_field(spec: object, message: str) -> None:
    with pytest.raises(MalformedError, match=message):
        GoujiRules.parse(spec)  # type: ignore[arg-type]


def test_players_and_decks_come_from_the_rules() -> None:
    rules = GoujiRules.parse({"players": 10, "decks": 5})
    assert (rules.hand_size, rules.duitou(0), rules.duitou(7)) == (27, 5, 2)
    assert GoujiRules.parse({"decks": 1, "biesan": False}).hand_size == 9


def test_seats_relations_and_teams() -> None:                            # G 第二条
    rules = GoujiRules()
    assert [rules.relation(q, 0) for q in range(6)] == ["me", "下家", "下手联邦", "对头", "上手联邦", "上家"]
    assert [rules.relation(q, 4) for q in range(6)] == ["下手联邦", "对头", "上手联邦", "上家", "me", "下家"]
    assert [rules.duitou(k) for k in range(6)] == [3, 4, 5, 0, 1, 2]   # G "对门为各自的够级对象"
    assert [rules.team(k) for k in range(6)] == [0, 1, 0, 1, 0, 1]     # G "交叉3人为一方"
    assert all(rules.team(k) != rules.team(rules.duitou(k)) for k in range(6))
    assert rules.seller_order(0) == [3, 2, 4, 1, 5]                    # B "先对头、再联邦、后对方"


@pytest.mark.parametrize(("name", "points"), [
    ("qingdao", [4, 2, 0, 0, -2, -4]), ("karamay", [2, 1, 0, 0, -1, -2]),
    ("bisai", [5, 4, 3, 2, 1, 0]), ("ladder", [6, 5, 4, 3, 2, 1]),
])
def test_place_point_tables(name: str, points: list[int]) -> None:
    assert place_points(GoujiRules.parse({"place_points": name})) == points
