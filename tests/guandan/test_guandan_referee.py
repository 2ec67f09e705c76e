"""掼蛋 referee ops (guandan.md §10), one case per example of the spec and the seed's lines."""
from __future__ import annotations

from typing import Any

import pytest

from trainer.engine import MalformedError
from trainer.guandan.referee import answer_guandan


def ask(op: str, **fields: Any) -> dict[str, Any]:
    """The answer to one request."""
    return answer_guandan({"op": op, **fields})


def test_type_of_a_plain_play() -> None:
    assert ask("guandan_type", level="9", cards=["AS", "2D", "3S", "4S", "5D"]) == {
        "valid": True, "type": "straight", "rank": "5", "bomb": False, "size": 5, "wilds": 0,
        "readings": [{"type": "straight", "rank": "5"}]}


def test_type_with_a_wild_lists_every_reading_strongest_first() -> None:
    """5♠6♠7♠8♠ + the wild: a straight flush to 9 or 8, or a straight to 9 or 8 (§2.2)."""
    answer = ask("guandan_type", level="2", cards=["5S", "6S", "7S", "8S", "2H"])
    assert answer["readings"] == [{"type": "straight_flush", "rank": "9"}, {"type": "straight_flush", "rank": "8"},
                                  {"type": "straight", "rank": "9"}, {"type": "straight", "rank": "8"}]
    assert (answer["type"], answer["rank"], answer["bomb"], answer["wilds"]) == ("straight_flush", "9", True, 1)
    declared = ask("guandan_type", level="2", cards=["5S", "6S", "7S", "8S", "2H"],
                   **{"as": {"type": "straight", "rank": "8"}})
    assert (declared["type"], declared["rank"], declared["bomb"]) == ("straight", "8", False)


def test_type_lowest_under_jiangsu_club() -> None:
    answer = ask("guandan_type", level="2", rules="jiangsu-club", cards=["5S", "5D", "8S", "8D", "2H"])
    assert (answer["type"], answer["rank"]) == ("full_house", "5")


@pytest.mark.parametrize(("cards", "declared"), [
    (["3S", "4D"], None), (["SJ", "BJ"], None), (["5S", "5D", "8S", "8D", "2H"], {"type": "full_house", "rank": "9"}),
])
def test_type_invalid(cards: list[str], declared: dict[str, str] | None) -> None:
    fields = {"as": declared} if declared else {}
    answer = ask("guandan_type", level="2", cards=cards, **fields)
    assert (answer["valid"], answer["type"], answer["rank"]) == (False, None, None)


@pytest.mark.parametrize(("top", "play", "level", "beats", "reason"), [
    (["AS", "AD", "AC", "AH"], ["9S", "9D", "9C", "9C"], "9", True, "bigger_bomb"),  # at 9, 9999 beats AAAA
    (["KS"], ["3S", "3D", "3C", "3H"], "2", True, "bomb"),
    (["3S", "3D", "3C", "3H", "3S"], ["AS", "AD", "AC", "AH"], "2", False, "smaller_bomb"),
    (["3S", "3D", "3C", "3H"], ["AS"], "2", False, "needs_bomb"),
    (["KS", "KD"], ["AS"], "2", False, "type_mismatch"),
    (["KS"], ["AS"], "2", True, "higher"),
    (["9S", "10S", "JS", "QS", "KS"], ["9D", "10D", "JD", "QD", "KD"], "2", False, "smaller_bomb"),  # equal
    (["JS", "JD", "QS", "QD", "KS", "KD"], ["10S", "10D", "JC", "JH", "QC", "QH"], "2", False, "not_higher"),
])
def test_beats(top: list[str], play: list[str], level: str, beats: bool, reason: str) -> None:
    answer = ask("beats", level=level, top=top, play=play)
    assert (answer["beats"], answer["reason"]) == (beats, reason)


def test_beats_takes_the_strongest_beating_reading_and_lists_them() -> None:
    answer = ask("beats", level="2", top=["7S", "7D", "7C", "3S", "3D"], play=["5S", "5D", "8S", "8D", "2H"])
    assert answer["as"] == {"type": "full_house", "rank": "8"}
    assert answer["readings_that_beat"] == [{"type": "full_house", "rank": "8"}]
    declared = ask("beats", level="2", top=["7S", "7D", "7C", "3S", "3D"], play=["5S", "5D", "8S", "8D", "2H"],
                   **{"as": {"type": "full_house", "rank": "5"}})
    assert (declared["beats"], declared["reason"]) == (False, "not_higher")


def test_beats_checks_the_top_first() -> None:
    assert ask("beats", level="2", top=["3S", "4D"], play=["3S", "4D"])["reason"] == "invalid_top"
    assert ask("beats", level="2", top=["3S"], play=["3S", "4D"])["reason"] == "invalid_play"
    # two wilds and 333 cannot be 222 33 (the triple would need a third 2): a declared top that is no reading
    assert ask("beats", level="2", top=["2H", "2H", "3S", "3D", "3C"], top_as={"type": "full_house", "rank": "2"},
               play=["4S", "4D", "4C", "5S", "5D"])["reason"] == "invalid_top"
    # declared as 333 + a pair, the top is beaten by 444 55; undeclared it is the 5-card bomb of 3
    assert ask("beats", level="2", top=["2H", "2H", "3S", "3D", "3C"], top_as={"type": "full_house", "rank": "3"},
               play=["4S", "4D", "4C", "5S", "5D"])["beats"] is True
    assert ask("beats", level="2", top=["2H", "2H", "3S", "3D", "3C"], play=["4S", "4D", "4C", "5S", "5D"])[
        "reason"] == "needs_bomb"


@pytest.mark.parametrize(("fields", "ok", "reason"), [
    ({"top": None, "play": "pass"}, False, "leader_must_play"),
    ({"top": ["3S"], "play": "pass"}, True, "pass"),
    ({"top": None, "play": ["3S", "3D"], "hand": ["3S", "4S"]}, False, "not_in_hand"),
    ({"top": None, "play": ["3S", "4D"]}, False, "invalid_play"),
    ({"top": None, "play": ["3S", "3D"]}, True, "lead"),
    ({"top": ["KS"], "play": ["AS"], "hand": ["AS", "3D"]}, True, "higher"),
    ({"top": ["KS", "KD"], "play": ["QS", "QD"]}, False, "not_higher"),
])
def test_play_legal(fields: dict[str, Any], ok: bool, reason: str) -> None:
    answer = ask("play_legal", level="2", **fields)
    assert (answer["ok"], answer["reason"]) == (ok, reason)


def test_next_actor_round_over_and_leader() -> None:
    """[L] "After 3 consecutive passes, the last player to play leads next"."""
    answer = ask("next_actor", level="2", leader=0,
                 actions=[[0, ["3S"]], [1, ["5S"]], [2, "pass"], [3, "pass"], [0, "pass"]])
    assert answer == {"legal": True, "round_over": True, "hand_over": False, "next": None, "next_leader": 1,
                      "jiefeng": False, "finished": []}


def test_next_actor_jiefeng() -> None:
    """[W] the partner of a finished owner starts the next combination when both opponents pass."""
    answer = ask("next_actor", level="2", leader=0, finished=[1],
                 actions=[[0, ["3S"], {"last": True}], [2, "pass"], [3, "pass"]])
    assert (answer["next_leader"], answer["jiefeng"], answer["finished"]) == (2, True, [1, 0])


def test_next_actor_skips_finished_seats_and_continues() -> None:
    answer = ask("next_actor", level="2", leader=0, finished=[1], actions=[[0, ["3S"]]])
    assert (answer["round_over"], answer["next"]) == (False, 2)


def test_next_actor_ends_the_hand_on_a_double() -> None:
    answer = ask("next_actor", level="2", leader=2, finished=[0], actions=[[2, ["3S"], {"last": True}]])
    assert (answer["hand_over"], answer["next"], answer["next_leader"], answer["finished"]) == (True, None, None,
                                                                                               [0, 2])


@pytest.mark.parametrize(("fields", "at", "reason"), [
    ({"leader": 0, "actions": [[1, ["3S"]]]}, 0, "seat 0 acts, not seat 1"),
    ({"leader": 0, "actions": [[0, "pass"]]}, 0, "leader_must_play"),
    ({"leader": 0, "actions": [[0, ["3S", "4D"]]]}, 0, "invalid_play"),
    ({"leader": 0, "actions": [[0, ["KS"]], [1, ["QS"]]]}, 1, "not_higher"),
    ({"leader": 0, "actions": [[0, ["KS"]], [1, "pass"], [2, "pass"], [3, "pass"], [0, ["AS"]]]}, 4,
     "the round is over"),
    ({"leader": 1, "finished": [1], "actions": []}, 0, "seat 1 is out and cannot lead"),
    ({"leader": 1, "finished": [0, 2], "actions": []}, 0, "the seats finished already end the hand"),
])
def test_next_actor_illegal(fields: dict[str, Any], at: int, reason: str) -> None:
    assert ask("next_actor", level="2", **fields) == {"legal": False, "at": at, "reason": reason}


def test_level_gain_the_seeds_lines() -> None:
    """[S] 双下 +3; 对手有一家是下游 +2; 对门是下游 +1; at A: 打家 must be 上游 and its partner not 下游."""
    assert ask("level_gain", places=[0, 2], levels=["5", "3"], dajia=0) == {
        "winner": 0, "kind": "1-2", "gain": 3, "levels": ["8", "3"], "a_failures": [0, 0], "a_result": None,
        "match_over": False, "next_level": "8", "next_dajia": 0}
    assert ask("level_gain", places=[1, 0, 3], levels=["5", "3"], dajia=0)["levels"] == ["5", "5"]
    assert ask("level_gain", places=[1, 0, 2], levels=["5", "3"], dajia=0)["levels"] == ["5", "4"]
    win = ask("level_gain", places=[0, 1, 2], levels=["A", "3"], dajia=0)
    assert (win["a_result"], win["match_over"], win["next_level"], win["next_dajia"]) == ("win", True, None, None)
    reset = ask("level_gain", places=[1, 3], levels=["A", "3"], dajia=0, a_failures=[2, 0])
    assert (reset["a_result"], reset["levels"], reset["a_failures"]) == ("reset", ["2", "6"], [0, 0])


@pytest.mark.parametrize("fields", [
    {"places": [0, 1], "levels": ["2", "2"], "dajia": None},
    {"places": [0, 2], "levels": ["2"], "dajia": None},
    {"places": [0, 2], "levels": ["2", "1"], "dajia": None},
    {"places": [0, 2], "levels": ["2", "2"], "dajia": 2},
    {"places": [0, 2], "levels": ["2", "2"], "dajia": 0, "a_failures": [-1, 0]},
])
def test_level_gain_malformed(fields: dict[str, Any]) -> None:
    with pytest.raises(MalformedError):
        ask("level_gain", **fields)


def test_tribute_single_and_double() -> None:
    single = ask("tribute", level="5", places=[0, 3, 1], hands=[[], [], ["BJ", "9S", "5H"], []])
    assert single == {"kind": "single", "leader": 2, "resist": [],
                      "tributes": [{"from": 2, "to": 0, "rank": "BJ", "cards": ["BJ"]}]}
    double = ask("tribute", level="2", places=[0, 2], hands=[[], ["KS", "3D"], [], ["AD", "AS", "4D"]])
    assert double["tributes"] == [{"from": 3, "to": 0, "rank": "A", "cards": ["AS", "AD"]},
                                  {"from": 1, "to": 2, "rank": "K", "cards": ["KS"]}]
    assert double["leader"] == 3


def test_tribute_resist_none_and_errors() -> None:
    resist = ask("tribute", level="2", places=[0, 2], hands=[[], ["BJ", "3S"], [], ["BJ", "4S"]])
    assert (resist["kind"], resist["resist"], resist["leader"], resist["tributes"]) == ("resist", [1, 3], 0, [])
    assert ask("tribute", level="2", places=None, hands=[[], [], [], []])["kind"] == "none"
    with pytest.raises(MalformedError, match="wilds"):
        ask("tribute", level="2", places=[0, 1, 2], hands=[[], [], [], ["2H"]])
    with pytest.raises(MalformedError, match="copies"):
        ask("tribute", level="2", places=[0, 1, 2], hands=[["3S", "3S"], [], [], ["3S"]])


@pytest.mark.parametrize(("fields", "ok", "reason"), [
    ({"hand": ["BJ", "4C", "KS"], "card": "4C"}, True, "ok"),
    ({"hand": ["BJ", "4C", "KS"], "card": "KS"}, False, "over_ten"),
    ({"hand": ["BJ", "QC", "KS"], "card": "QC"}, True, "lowest"),
    ({"hand": ["BJ", "QC", "KS"], "card": "KS"}, False, "not_lowest"),
    ({"hand": ["BJ", "4C"], "card": "9S"}, False, "not_in_hand"),
    ({"hand": ["BJ", "4C", "KS"], "card": "KS", "rules": "pagat"}, True, "ok"),
])
def test_return_legal(fields: dict[str, Any], ok: bool, reason: str) -> None:
    assert ask("return_legal", level="5", **fields) == {"ok": ok, "reason": reason}


@pytest.mark.parametrize("request_", [
    {"op": "shuffle", "level": "2"},
    {"op": "guandan_type", "cards": ["3S"]},
    {"op": "guandan_type", "level": "1", "cards": ["3S"]},
    {"op": "guandan_type", "level": "2", "cards": ["ZZ"]},
    {"op": "guandan_type", "level": "2", "cards": ["3S", "3S", "3S"]},
    {"op": "guandan_type", "level": "2", "cards": ["3S"], "as": {"type": "quad", "rank": "3"}},
    {"op": "guandan_type", "level": "2", "cards": ["3S"], "rules": "tianjin"},
    {"op": "next_actor", "level": "2", "leader": 4, "actions": []},
    {"op": "next_actor", "level": "2", "leader": 0},
])
def test_malformed_requests(request_: dict[str, Any]) -> None:
    with pytest.raises(MalformedError):
        answer_guandan(request_)
