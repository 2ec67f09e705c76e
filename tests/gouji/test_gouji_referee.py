"""`trainer rules check` with `"game": "gouji"` (gouji.md §9): answers written by hand from the spec."""
from __future__ import annotations

import json
from typing import Any

import pytest

from trainer.referee import answer, serve_lines


def ask(op: str, **fields: Any) -> dict[str, Any]:
    return answer(json.dumps({"game": "gouji", "op": op, **fields}))


@pytest.mark.parametrize(("cards", "expected"), [
    (["QS", "QH", "QD"], {"valid": True, "gouji": True, "original": True, "base": "Q", "size": 3}),
    (["10S", "10S", "10H", "10D", "2S"], {"valid": True, "gouji": True, "original": False, "base": "10", "size": 5}),
    (["JS", "JH", "JD"], {"valid": True, "gouji": False, "original": False, "base": "J", "size": 3}),
    (["2S", "2H"], {"valid": True, "gouji": True, "original": False, "base": "2", "size": 2}),
    (["BJ", "SJ"], {"valid": True, "gouji": True, "original": False, "base": None, "size": 2}),
    (["9S", "9S", "9H", "9D", "9C", "9C"], {"valid": True, "gouji": False, "original": False, "base": "9", "size": 6}),
    (["大王", "红桃K", "KS"], {"valid": True, "gouji": True, "original": False, "base": "K", "size": 3}),
])
def test_gouji_card(cards: list[str], expected: dict[str, Any]) -> None:
    assert ask("gouji_card", cards=cards) == expected


@pytest.mark.parametrize("cards", [["9S", "10S"], [], ["3S", "SJ"]])
def test_gouji_card_invalid_answers_valid_false(cards: list[str]) -> None:
    assert ask("gouji_card", cards=cards) == {"valid": False}


def test_gouji_card_under_options() -> None:
    assert ask("gouji_card", cards=["2S", "9S"], rules="activity")["valid"] is False
    assert ask("gouji_card", cards=["3S", "SJ"], rules="paodekuai")["valid"] is True


@pytest.mark.parametrize(("top", "play", "rules", "result"), [
    (["SJ", "SJ", "8S", "8H", "8D"], ["BJ", "BJ", "BJ", "9S", "9H"], "standard", True),
    (["SJ", "SJ", "8S", "8H", "8D"], ["BJ", "SJ", "SJ", "9S", "9H"], "standard", False),
    (["BJ"], ["BJ", "BJ"], "standard", False),
    (["BJ"], ["BJ", "BJ"], "bisai", True),
    (["9S", "10S"], ["JS", "JS"], "standard", False),    # an invalid top
    (["4S"], ["3S"], "paodekuai", False),
])
def test_beats(top: list[str], play: list[str], rules: str, result: bool) -> None:
    assert ask("beats", top=top, play=play, rules=rules) == {"beats": result}


@pytest.mark.parametrize(("fields", "ok", "burn", "reason"), [
    ({"top": None, "play": ["5S", "5D"]}, True, False, ""),
    ({"top": ["5S"], "play": ["5D"]}, False, False, "5♦ does not beat 5♠"),
    ({"top": ["5S"], "play": ["6D"], "role": "teammate", "passed": True}, False, False,
     "a seat that passed this round acts again only as 对头"),
    ({"top": ["5S"], "play": ["6D"], "role": "duitou", "passed": True}, True, False, ""),
    ({"top": ["5S"], "play": ["6D"], "role": "opponent", "passed": True, "active": 4}, True, False, ""),
    ({"top": ["KS", "KS"], "play": ["AS", "AH"], "role": "opponent",
      "hand": ["AS", "AH", "9S", "7S", "3S", "BJ"]}, False, False, "as a burn it needs 2 jokers for 9 7 3, holds 1"),
    ({"top": ["KS", "KS"], "play": ["AS", "AH"], "role": "teammate",
      "hand": ["AS", "AH", "9S", "3S", "BJ"]}, True, True, ""),
    ({"top": ["KS", "KS"], "play": ["AS", "AH"], "role": "opponent"}, True, True, ""),
    ({"top": ["KS", "KS"], "play": ["AS", "AH"], "role": "opponent", "passed": True}, False, False,
     "a seat that passed this round may not burn (过牌不得烧牌)"),
    ({"top": ["KS", "KS"], "play": ["QS", "QH"], "role": "opponent"}, False, False,
     "as a burn Q♠ Q♥ does not beat K♠ K♠"),
    ({"top": ["KS", "KS"], "play": ["AS", "9H"], "role": "teammate"}, False, False,
     "a play holds one rank besides jokers and 2s, not A 9"),
    ({"top": ["KS", "KS"], "play": ["AS", "AH"], "role": "opponent", "hand": ["AS", "9H", "3S"]}, False, False,
     "does not hold A♥"),
    ({"top": ["KS", "KS"], "play": ["AS", "AH"], "role": "opponent", "head": False}, True, False, ""),
    ({"top": ["KS", "KS"], "play": ["AS", "AH"], "role": "opponent", "active": 4}, True, False, ""),
    ({"top": None, "play": ["3S", "3H"]}, False, False, "3s go out last, all of them as the whole hand (憋3)"),
    ({"top": None, "play": ["3S", "3H"], "hand": ["3S", "3H"]}, True, False, ""),
    ({"top": None, "play": ["3S"], "hand": ["3S", "3H"]}, False, False,
     "3s go out last, all of them as the whole hand (憋3)"),
    ({"top": None, "play": ["9S"], "burn_run": True}, False, False,
     "in a burn run every play but the last holds a joker"),
    ({"top": None, "play": ["9S", "9H"], "burn_run": True, "hand": ["9S", "9H"]}, True, False, ""),
    ({"top": None, "play": ["9S", "SJ"], "burn_run": True, "hand": ["9S", "SJ", "8S", "7S"]}, False, False,
     "in a burn run the rest needs 1 joker for 8 7, holds 0"),
    ({"top": None, "play": ["9S"], "hand": ["9H"]}, False, False, "does not hold 9♠"),
    ({"top": ["9S", "10S"], "play": ["JS"]}, False, False, "the top is not a play: a play holds one rank besides "
                                                           "jokers and 2s, not 10 9"),
])
def test_play_legal(fields: dict[str, Any], ok: bool, burn: bool, reason: str) -> None:
    assert ask("play_legal", **fields) == {"ok": ok, "burn": burn, "reason": reason}


@pytest.mark.parametrize(("cards", "rules", "opens"), [
    (["KS", "KD"], "standard", True), (["2S", "KS", "KD"], "standard", False), (["SJ"], "standard", False),
    (["2S"], "karamay", True), (["SJ", "9S"], "karamay", True), (["BJ"], "karamay", False),
    (["KS"], "karamay", False),
])
def test_kaidian(cards: list[str], rules: str, opens: bool) -> None:
    assert ask("kaidian", cards=cards, rules=rules) == {"opens": opens}


ROUND_ONE = [[2, ["5S", "5D"]], [3, "pass"], [4, ["8H", "8C"]], [5, "pass"], [0, "pass"], [1, ["JS", "JH"]],
             [2, "pass"], [4, "pass"]]


def over(next_leader: int | None, out: list[int] | None = None, hand_over: bool = False) -> dict[str, Any]:
    return {"legal": True, "round_over": True, "hand_over": hand_over, "next": None, "may_yield": False,
            "may_burn": [], "next_leader": next_leader, "out": out or []}


def going(next_seat: int, may_yield: bool = False, may_burn: list[int] | None = None,
          out: list[int] | None = None) -> dict[str, Any]:
    return {"legal": True, "round_over": False, "hand_over": False, "next": next_seat, "may_yield": may_yield,
            "may_burn": may_burn or [], "next_leader": None, "out": out or []}


@pytest.mark.parametrize(("leader", "actions", "extra", "expected"), [
    (2, ROUND_ONE, {}, over(1)),
    (2, ROUND_ONE[:7], {}, going(4, may_yield=True)),
    (2, ROUND_ONE[:6], {}, going(2)),
    (1, [[1, ["KS", "KD"]], [4, ["AH", "AS"]], [1, ["2C", "2D"]], [4, "pass"]], {}, over(1)),
    (1, [[1, ["KS", "KD"]]], {}, going(4, may_burn=[0, 2, 3, 5])),
    (1, [[1, ["KS", "KD"]], [0, ["AS", "AH"]]], {}, going(3, may_burn=[1, 2, 4, 5])),
    (1, [[1, ["KS", "KD"]], [0, ["AS", "AH"]], [3, ["2S", "2D"]], [0, ["SJ", "SJ"]]], {}, going(3, may_burn=[1, 2, 4, 5])),
    (1, [[1, ["KS", "KD"]], [4, "pass"]], {}, over(1)),
    (2, [[2, ["5S", "5D"]], [3, "pass"], [4, "pass"]], {}, going(5, may_yield=True)),
    (2, [[2, ["5S", "5D"]], [3, "pass"], [4, "pass"], [5, "yield"], [0, "pass"], [1, "pass"]], {}, going(5)),
    (2, [[2, ["5S", "5D"]], [3, "pass"], [4, "pass"], [5, "yield"], [0, "pass"], [1, "pass"], [5, "pass"]], {},
     over(2)),
    (0, [[0, ["KS"], "last"], [1, "pass"], [2, "pass"], [3, "pass"], [4, "pass"], [5, "pass"]], {}, over(1, [0])),
    (0, [[0, ["9S"], "threes"], [1, ["10S"]]], {}, going(2, out=[0])),
    (0, [[0, ["9S"]], [1, ["10S"], "last"], [2, ["JS"], "last"]], {"out": [4]},
     {**going(3, out=[1, 2, 4]), "next": 3}),
    (0, [[0, ["9S"], "last"]], {"out": [2, 4]}, over(None, [0, 2, 4], hand_over=True)),
    (3, [[3, ["5S"]], [4, "pass"], [5, "pass"], [2, "pass"]], {"out": [0, 1]},
     over(3, [0, 1])),
])
def test_next_actor(leader: int, actions: list[Any], extra: dict[str, Any], expected: dict[str, Any]) -> None:
    assert ask("next_actor", leader=leader, actions=actions, **extra) == expected


@pytest.mark.parametrize(("leader", "actions", "at", "reason"), [
    (2, [[2, "pass"]], 0, "the leader must play"),
    (2, [[3, ["5S"]]], 0, "seat 2 leads this round"),
    (2, [[2, ["5S"]], [4, "pass"]], 1, "it is seat 3's turn"),
    (2, ROUND_ONE + [[1, ["9S"]]], 8, "the round is over"),
    (1, [[1, ["KS", "KD"]], [0, "pass"]], 1, "only 对头 seat 4 may answer a 够级 play; declining to burn is not recorded"),
    (1, [[1, ["KS", "KD"]], [0, ["AS", "AH"]], [3, "pass"], [0, ["9S"]]], 3, "the round is over"),
    (0, [[0, ["3S"]]], 0, "3s go out last, all of them as the whole hand (憋3)"),
    (0, [[0, ["5S"]], [1, ["5D"]]], 1, "5♦ does not beat 5♠"),
])
def test_next_actor_illegal(leader: int, actions: list[Any], at: int, reason: str) -> None:
    assert ask("next_actor", leader=leader, actions=actions) == {"legal": False, "at": at, "reason": reason}


def test_next_actor_a_burn_that_empties_the_hand() -> None:
    actions = [[1, ["KS", "KD"]], [0, ["AS", "AH"], "last"]]
    assert ask("next_actor", leader=1, actions=actions) == going(3, may_burn=[1, 2, 4, 5], out=[0])
    assert ask("next_actor", leader=1, actions=[*actions, [3, "pass"]]) == over(1, [0])   # 接风 by seat 1


def test_places() -> None:
    assert ask("places", events=[[0, "finished"], [3, "men"], [2, "finished"]]) == {
        "places": {"0": 1, "3": 6, "2": 2}, "over": False, "remaining": [1, 4, 5]}
    assert ask("places", events=[[0, "finished"], [3, "men"], [2, "finished"], [4, "finished"]]) == {
        "places": {"0": 1, "3": 6, "2": 2, "4": 3}, "over": True, "remaining": [1, 5], "remaining_places": [4, 5]}
    assert ask("places", events=[[1, "men"], [0, "men"]]) == {
        "places": {"1": 6, "0": 5}, "over": False, "remaining": [2, 3, 4, 5]}
    last_one = ask("places", rules={"end": "last_one"},
                   events=[[0, "finished"], [2, "finished"], [4, "finished"], [1, "finished"], [3, "men"]])
    assert last_one["over"] and last_one["remaining"] == [5] and last_one["remaining_places"] == [5]


def test_places_without_kaidian_under_activity() -> None:
    """Seed H "如果某人未开点，则该人不能走头科": under `activity` a seat that finishes first without having
    opened takes 二科, and the next opener to finish takes 头科; without `opened` every seat counts as
    opened, and other presets ignore it."""
    events = [[1, "finished"], [0, "finished"]]
    assert ask("places", rules="activity", events=events, opened=[0])["places"] == {"1": 2, "0": 1}
    assert ask("places", rules="activity", events=events)["places"] == {"1": 1, "0": 2}
    assert ask("places", events=events, opened=[0])["places"] == {"1": 1, "0": 2}
    last_two = ask("places", rules="activity", opened=[], events=[[s, "men"] for s in range(1, 5)] + [[0, "finished"]])
    assert last_two["places"]["0"] == 2 and last_two["over"] and last_two["remaining_places"] == [1]


def test_buy3() -> None:
    hands = [["2S"], ["3S"], ["3H"], ["3S", "3H", "3D"], ["3C"], ["3D"]]
    assert ask("buy3", hands=hands, leader=0) == {"exchanges": [{"from": 3, "to": 0, "paid": "2"}]}
    hands = [["SJ"], ["3S"], ["3H", "3S"], ["3S"], ["3C"], ["3D"]]
    assert ask("buy3", hands=hands, leader=0) == {"exchanges": [{"from": 2, "to": 0, "paid": None}]}


def test_result() -> None:
    assert ask("result", places=[0, 1, 2, 3, 4, 5]) == {
        "seat_points": [4, 2, 0, 0, -2, -4], "team_points": [2, 0], "chuan_san_hu": False}
    reply = ask("result", rules="bisai", places=[0, 1, 2, 3, 4, 5], opened=[0],
                burns=[{"by": 3, "of": 2, "counter": True}], men=[{"seat": 5, "by": 4}], two_kill_one=[{"by": 1}])
    assert reply["seat_points"] == [6, 5, 3, 4, 2, 0] and reply["team_points"] == [11, 9]


@pytest.mark.parametrize(("request_", "message"), [
    ({"op": "gouji_card"}, "missing field 'cards'"),
    ({"op": "gouji_card", "cards": ["XX"]}, "cards: card 1: not a card: 'XX'"),
    ({"op": "gouji_card", "cards": ["BJ"] * 5}, "5 copies of 大王, but 4 decks hold only 4"),
    ({"op": "combo", "cards": ["AS"]}, "unknown gouji op 'combo'"),
    ({"op": "beats", "top": ["AS"], "play": ["2S"], "rules": "competition"}, "unknown gouji rules preset"),
    ({"op": "play_legal", "play": ["AS"], "role": "partner"}, "role: expected one of duitou, teammate, opponent"),
    ({"op": "next_actor", "leader": 6, "actions": []}, "leader: a seat is a number from 0 to 5"),
    ({"op": "next_actor", "leader": 0, "actions": [[0, ["5S"], "done"]]}, "the mark is"),
    ({"op": "result", "places": [0, 1, 2]}, "places: expected the seat at each of the 6 places"),
    ({"op": "places", "events": [[0, "finished"], [0, "men"]]}, "seat 0 is already out"),
])
def test_malformed_requests_get_an_error(request_: dict[str, Any], message: str) -> None:
    reply = answer(json.dumps({"game": "gouji", **request_}))
    assert list(reply) == ["error"] and message in reply["error"]


def test_the_stream_goes_on_after_bad_lines_and_shengji_ops_are_unchanged() -> None:
    lines = ['{"game": "gouji", "op": "kaidian", "cards": ["AS", "AH"]}', "not json",
             '{"game": "chess", "op": "beats"}',
             '{"op": "combo", "level": "5", "trump": "H", "cards": ["AH", "AH"]}',
             '{"game": "gouji", "op": "result", "places": [5, 4, 3, 2, 1, 0]}']
    replies = [json.loads(line) for line in serve_lines(lines)]
    assert replies[0] == {"opens": True}
    assert "error" in replies[1] and "unknown game" in replies[2]["error"]
    assert replies[3] == {"suit": "trump", "kind": "pair", "units": [["AH", "AH"]]}
    assert replies[4]["team_points"] == [0, 2]


def test_the_gouji_engine_imports_no_web_code() -> None:
    import subprocess
    import sys

    code = ("import sys, trainer.gouji, trainer.gouji.records, trainer.gouji.referee, trainer.gouji.randomplay; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('flask', 'sqlmodel', 'sqlalchemy', 'jinja2')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
