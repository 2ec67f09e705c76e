"""Gouji records (gouji.md §5): validation with the first problem in words, positions, verify and show."""
from __future__ import annotations

import copy
import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from trainer.cli import main
from trainer.engine import JipaiError, MalformedError, full_deck, parse_cards
from trainer.gouji import natural_openers
from trainer.gouji.deal import value_counts
from trainer.gouji.randomplay import random_record
from trainer.gouji.records import GoujiPosition, parse_gouji_record, replay, show_text, verify_summary
from trainer.records import parse_record
from trainer.referee import answer

WANTED = {1: "JS JH KS KD 2C 2D KH", 2: "5S 5D", 4: "8H 8C AH AS"}


def example_record() -> dict[str, Any]:
    """The record of gouji.md §5's example: every seat holds a 3 (no 买3), the rest dealt in deck order."""
    hands: list[list[str]] = [[three] for three in ("3S", "3H", "3C", "3D", "3S", "3H")]
    for seat, text in WANTED.items():
        hands[seat] += text.split()
    rest = Counter(str(card) for card in full_deck(4))
    rest.subtract(card for hand in hands for card in hand)
    cards = sorted(rest.elements(), key=lambda c: (c in ("BJ", "SJ"), c))
    for seat in range(6):
        while len(hands[seat]) < 36:
            hands[seat].append(cards.pop())
    return {"format": "jipai-deal/1", "game": "gouji", "rules": "standard", "hands": hands, "exchanges": [],
            "leader": 2, "rounds": [
                {"leader": 2, "actions": [[2, ["5S", "5D"]], [3, "pass"], [4, ["8H", "8C"]], [5, "pass"],
                                          [0, "pass"], [1, ["JS", "JH"]], [2, "pass"], [4, "pass"]]},
                {"leader": 1, "actions": [[1, ["KS", "KD"]], [4, ["AH", "AS"]], [1, ["2C", "2D"]], [4, "pass"]]},
                {"leader": 1, "actions": [[1, ["KH"]]]}]}


def problem(data: dict[str, Any]) -> str:
    with pytest.raises(JipaiError) as caught:
        replay(parse_gouji_record(data))
    return str(caught.value)


def test_the_spec_example_verifies() -> None:
    data = example_record()
    summary = verify_summary(replay(parse_gouji_record(data)))
    assert summary["rounds"] == [{"leader": 2, "winner": 1, "actions": 8, "partial": False},
                                 {"leader": 1, "winner": 1, "actions": 4, "partial": False},
                                 {"leader": 1, "winner": 1, "actions": 1, "partial": True}]
    hands = [value_counts(parse_cards(hand)) for hand in data["hands"]]
    assert summary["opened"] == natural_openers(hands, parse_gouji_record(data).rules)
    assert 1 not in summary["opened"]          # seat 1's 22 does not open (B "贴2的不算开点")
    assert (summary["complete"], summary["result"], summary["burns"], summary["men"]) == (False, None, [], [])
    assert summary["places"] == [None] * 6 and summary["game"] == "gouji"


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d.update(format="jipai-deal/2"), "format must be 'jipai-deal/1'"),
    (lambda d: d["hands"][0].append(d["hands"][1].pop()), "hands: seat 0 has 37 cards, the rules deal 36"),
    (lambda d: d["hands"][0].__setitem__(1, "3S"), "hands: too many 3♠ (5 dealt, 4 decks have 4)"),
    (lambda d: d["hands"].pop(), "hands: expected 6 hands in seat order"),
    (lambda d: d.update(rules="bridge"), "unknown gouji rules preset 'bridge'"),
    (lambda d: d.update(leader=6), "leader: a seat is a number from 0 to 5, not 6"),
    (lambda d: d["rounds"][1].update(leader=4), "round 2: leader must be seat 1 (winner), the record says 4"),
    (lambda d: d["rounds"][0]["actions"].__setitem__(1, [4, "pass"]), "round 1, action 2, seat 4: it is seat 3's turn"),
    (lambda d: d["rounds"][0]["actions"].append([2, "pass"]),
     "round 1, action 9, seat 2: the round is over (seat 1 won it)"),
    (lambda d: d["rounds"][0]["actions"].pop(), "round 1: the round is not over after its 7 actions"),
    (lambda d: d["rounds"][1]["actions"].__setitem__(1, [0, ["AH", "AS"]]),
     "round 2, action 2, seat 0: only 对头 seat 4 may answer a 够级 play; seat 0 does not hold A♥"),
    (lambda d: d["rounds"][1]["actions"].__setitem__(3, [5, "pass"]),
     "round 2, action 4, seat 5: only 对头 seat 4 may answer a 够级 play; declining to burn is not recorded"),
    (lambda d: d["rounds"][2]["actions"].__setitem__(0, [1, "pass"]), "round 3, action 1, seat 1: the leader must play"),
    (lambda d: d["rounds"][2]["actions"].__setitem__(0, [1, ["KH", "5S"]]),
     "round 3, action 1, seat 1: a play holds one rank besides jokers and 2s, not K 5"),
    (lambda d: d["rounds"][2]["actions"].__setitem__(0, [1, "pass", "x"]), "round 3, action 1: an action is"),
    (lambda d: d["rounds"][2].update(actions=[]), "round 3: actions must be a list holding at least the lead"),
    (lambda d: d.update(places=[0, 1, 2, 3, 4, 5]), "places: the hand is not over"),
    (lambda d: d.update(shangban=[{"seat": 0, "shown": ["3S", "3S"]}]),
     "shangban 1: seat 0 was not dealt those cards"),
    (lambda d: d.update(previous={"leader": 0, "places": [0, 1, 2, 3, 4, 5]}),
     "leader must be seat 5 (seat 5 was 大落 in the hand before), the record says 2"),
    (lambda d: d["exchanges"].append({"from": 3, "to": 0, "card": "3D", "paid": None}),
     "exchange 1: no more 买3 moves are due"),
])
def test_first_problem_in_words(change: Any, message: str) -> None:
    data = example_record()
    change(data)
    assert message in problem(data)


@pytest.mark.parametrize(("shows", "options", "message"), [
    ([(4, "3S 3S")], {}, "leader must be seat 4 (seat 4 showed 2 3s of one suit last (上班)), the record says 2"),
    ([(4, "3S 3S"), (5, "3C 3C 3C")], {}, "leader must be seat 5 (seat 5 showed 3 3s of one suit last"),  # 顶班
    ([(4, "3S 3S"), (5, "3D 3D")], {}, "shangban 2: a later show must show more cards than 2 to take over (顶班)"),
    ([(4, "3S 3H")], {}, "shangban 1: a show is two or more 3s of one suit"),
    ([(2, "3C 3C")], {}, "shangban 1: seat 2 was not dealt those cards"),
    ([(4, "4S 4S")], {"shangban_rank": 4}, "leader must be seat 4 (seat 4 showed 2 4s"),   # P "两个同一花色的四"
])
def test_shangban_names_the_leader(shows: list[tuple[int, str]], options: dict[str, Any], message: str) -> None:
    data = example_record()
    data["shangban"] = [{"seat": seat, "shown": cards.split()} for seat, cards in shows]
    data["rules"] = {"preset": "standard", **options}
    assert message in problem(data)


def test_shangban_of_the_leader_and_previous_hands() -> None:
    data = example_record()
    data["shangban"] = [{"seat": 2, "shown": ["3C"]}]
    assert "a show is two or more" in problem(data)
    data = example_record()
    data["previous"] = {"leader": 1, "places": [0, 1, 3, 4, 5, 2]}     # G "大落为…法定首发牌人"
    replay(parse_gouji_record(data))
    data["rules"] = {"preset": "standard", "next_hand_leader": "rotate"}
    replay(parse_gouji_record(data))                                    # K "逆时针轮流先抓牌、出牌": 1 + 1
    data["previous"]["leader"] = 0
    assert "leader must be seat 1 (seat 1 follows the previous first leader 0), the record says 2" in problem(data)


def test_exchanges_are_recomputed() -> None:
    data = next(d for d in (random_record(random.Random(seed), stop_after=3) for seed in range(50)) if d["exchanges"])
    replay(parse_gouji_record(data))
    first = data["exchanges"][0]
    wrong = copy.deepcopy(data)
    wrong["exchanges"][0]["from"] = (first["from"] + 1) % 6
    assert f"exchange 1: seat {first['from']} must sell a 3 to seat {first['to']}" in problem(wrong)
    wrong = copy.deepcopy(data)
    wrong["exchanges"] = []
    assert f"exchanges: missing the 买3 move of seat {first['from']} to seat {first['to']}" in problem(wrong)
    wrong = copy.deepcopy(data)
    wrong["exchanges"][0]["card"] = "4S"
    assert "exchange 1: seat" in problem(wrong) and "does not hold 4♠ to give" in problem(wrong)


def test_complete_records_and_places() -> None:
    data = random_record(random.Random(4))
    rep = replay(parse_gouji_record(data))
    assert rep.complete and verify_summary(rep)["places"] == data["places"]
    swapped = copy.deepcopy(data)
    swapped["places"] = data["places"][::-1]
    assert "places: the hand gives" in problem(swapped)
    after = copy.deepcopy(data)
    after["rounds"].append({"leader": 0, "actions": [[0, "pass"]]})
    assert f"round {len(data['rounds']) + 1}: the hand is over" in problem(after)


def test_unknown_fields_are_kept_and_shengji_reader_refuses_gouji() -> None:
    data = example_record()
    data["notes"] = "kept"
    assert parse_gouji_record(data).data["notes"] == "kept"
    with pytest.raises(JipaiError, match="this reads shengji records"):
        parse_record(data)


# -- positions -------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("text", "actions", "shown"), [
    ("0.0", 0, "1.0"), ("1.0", 0, "1.0"), ("1.3", 3, "1.3"), ("1.8", 8, "1.8"), ("2.0", 8, "2.0"),
    ("#0", 0, "1.0"), ("#8", 8, "1.8"), ("#9", 9, "2.1"), ("#13", 13, "3.1"), ("end", 13, "end"), ("3.1", 13, "3.1"),
])
def test_positions(text: str, actions: int, shown: str) -> None:
    record = parse_gouji_record(example_record())
    position = GoujiPosition.parse(text, record)
    assert (position.actions, str(position)) == (actions, shown)


@pytest.mark.parametrize("text", ["1.9", "5.0", "#14", "1,2", "１.0", "-1.0", "END", "#-1", "4.1", "4.0"])
def test_bad_positions(text: str) -> None:
    with pytest.raises(MalformedError):
        GoujiPosition.parse(text, parse_gouji_record(example_record()))


def test_the_moment_after_a_finished_last_round() -> None:
    data = example_record()
    data["rounds"].pop()
    record = parse_gouji_record(data)
    assert GoujiPosition.parse("3.0", record).actions == GoujiPosition.parse("2.4", record).actions == 12


def test_show_from_one_seat_hides_the_others() -> None:
    record = parse_gouji_record(example_record())
    text = show_text(record, GoujiPosition.parse("1.8", record), 4)
    assert "seat 4 (team 0, me): 3♠ 3♠ 3♠ 3♥" in text
    assert "seat 0 (team 0, 下手联邦): (36 cards hidden)" in text and "seat 5 (team 1, 下家): (36 cards hidden)" in text
    assert "seat 2 (team 0, 上手联邦): (34 cards hidden)" in text
    assert "seat 1 (team 1, 对头): (34 cards hidden)" in text
    assert "next: seat 1 (normal, leads)" in text
    whole = show_text(record, GoujiPosition.parse("end", record), None)
    assert "hidden" not in whole and "next: seat 2 (normal)" in whole


# -- the command line ------------------------------------------------------------------------------------------
def write(tmp_path: Path, name: str, data: dict[str, Any]) -> str:
    path = tmp_path / name
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return str(path)


def test_cli_verify_json_and_text(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = write(tmp_path, "good.json", random_record(random.Random(2)))
    assert main(["deal", "verify", "--json", good]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert list(summary) == ["id", "game", "complete", "rounds", "exchanges", "opened", "burns", "men", "places",
                             "result"]
    assert summary["complete"] and list(summary["result"]) == ["seat_points", "team_points", "chuan_san_hu"]
    assert main(["deal", "verify", good]) == 0
    assert "is valid (complete)" in capsys.readouterr().out
    broken = example_record()
    broken["rounds"][0]["actions"][1] = [4, "pass"]
    bad = write(tmp_path, "bad.json", broken)
    assert main(["deal", "verify", "--json", bad, good]) == 1
    out, err = capsys.readouterr()
    first = json.loads(out.splitlines()[0])
    assert first["error"] == "round 1, action 2, seat 4: it is seat 3's turn" and "id" in first
    assert "bad.json: round 1, action 2, seat 4: it is seat 3's turn" in err


def test_cli_show_and_track(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "example.json", example_record())
    assert main(["deal", "show", path, "--seat", "5", "--at", "#9"]) == 0
    out = capsys.readouterr().out
    assert "Position 2.1, seen from seat 5" in out and "seat 5 (team 1, me)" in out
    assert main(["deal", "show", path, "--seat", "6"]) == 2
    assert "a seat is a number from 0 to 5" in capsys.readouterr().err
    assert main(["deal", "show", path, "--at", "9.9"]) == 2
    capsys.readouterr()
    assert main(["deal", "track", path, "--seat", "0", "--at", "end"]) == 0      # tracking: test_gouji_tracking
    assert '"game": "gouji"' in capsys.readouterr().out


def test_the_docs_record_example_is_a_legal_round_and_track_is_documented() -> None:
    """docs/gouji.md: its example round is one the referee accepts (the yield is by the 88's 对头, after the
    seats between passed), and it documents `deal track` on Gouji records, which the CLI does."""
    doc = (Path(__file__).parents[2] / "docs" / "gouji.md").read_text(encoding="utf-8")
    actions_text = doc.split('"rounds": [{"leader": 2, "actions": ', 1)[1].split("}],", 1)[0]
    actions = json.loads(" ".join(actions_text.split()))
    reply = answer(json.dumps({"game": "gouji", "op": "next_actor", "leader": 2, "actions": actions}))
    assert reply["legal"] is True and reply["next"] == 2 and not reply["round_over"]
    assert "does not read Gouji records" not in doc and "`trainer deal track FILE --seat S" in doc
