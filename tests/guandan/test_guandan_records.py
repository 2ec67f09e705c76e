"""掼蛋 records (guandan.md §6): parse, validate by replay, write, round trip, and the verify summary."""
from __future__ import annotations

import copy
import json
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trainer.engine import IllegalPlayError, MalformedError, parse_cards
from trainer.engine.trump import parse_level
from trainer.guandan import GuandanRules, finish_kind, level_gain
from trainer.guandan.bots import generate_records
from trainer.guandan.records import (InvalidRecordError, Position, parse_guandan_record, replay, result_json,
                                     verify_summary)
from trainer.guandan.tracker import track

Builder = Callable[..., dict[str, Any]]
"""The `build` fixture (conftest.py): a record around chosen cards."""

STANDARD = GuandanRules()
RECORDS = generate_records(STANDARD, seed=11, count=6)


def verified(data: dict[str, Any]) -> dict[str, Any]:
    """The verify summary of a record object."""
    return verify_summary(replay(parse_guandan_record(data)))


def broken(data: dict[str, Any], match: str, error: type[Exception] = InvalidRecordError) -> None:
    """The record fails to verify with a message matching `match`."""
    with pytest.raises(error, match=match):
        replay(parse_guandan_record(data))


def later() -> dict[str, Any]:
    """A generated record of a hand after the first (it has `previous` and a tribute)."""
    return copy.deepcopy(next(r for r in RECORDS if "previous" in r and r["tribute"]["kind"] in ("single", "double")))


def test_generated_records_verify_and_are_complete() -> None:
    for data in RECORDS:
        summary = verified(data)
        assert summary["complete"] and summary["game"] == "guandan"
        assert summary["places"] == data["places"]
        assert summary["result"]["kind"] == finish_kind(data["places"])


def test_generation_is_deterministic_for_a_seed() -> None:
    assert generate_records(STANDARD, seed=11, count=6) == RECORDS
    assert generate_records(STANDARD, seed=12, count=1) != RECORDS[:1]


def test_hands_follow_one_another_through_the_match() -> None:
    """Each later hand is played at the level of the previous 上游's team, which is its 打家 (§4.1)."""
    for before, after in zip(RECORDS, RECORDS[1:]):
        levels = (parse_level(before["levels"][0]), parse_level(before["levels"][1]))
        result = level_gain(before["places"], levels, before["dajia"], tuple(before.get("a_failures", [0, 0])))
        if not result.match_over:
            assert after["previous"] == {"places": before["places"]}
            assert after["dajia"] == result.next_dajia == before["places"][0] % 2
            assert after["level"] == result_json(result)["next_level"]


def test_round_trip_keeps_every_field() -> None:
    for data in RECORDS:
        record = parse_guandan_record(json.loads(json.dumps(data)))
        assert record.to_json() == data
        assert json.loads(record.dumps()) == data
        data_extra = dict(data, notes="kept")
        assert parse_guandan_record(data_extra).to_json()["notes"] == "kept"


def test_cards_are_conserved_through_tribute() -> None:
    data = later()
    record = parse_guandan_record(data)
    dealt = Counter(card for hand in record.hands for card in hand)
    playing = Counter(card for hand in record.playing_hands() for card in hand)
    assert dealt == playing and sum(dealt.values()) == 108
    assert [len(hand) for hand in record.playing_hands()] == [27] * 4


def test_ambiguous_plays_store_their_reading() -> None:
    """Writers store `as` for every play with more than one reading."""
    from trainer.guandan import Level, readings

    for data in RECORDS:
        level = Level.parse(data["level"])
        for rnd in data["rounds"]:
            for action in rnd["actions"]:
                if action[1] != "pass":
                    many = len(readings(parse_cards(action[1]), level)) > 1
                    assert (len(action) == 3) is many


def test_the_first_problem_names_round_action_and_seat() -> None:
    data = copy.deepcopy(RECORDS[0])
    rnd = data["rounds"][0]
    seat = rnd["actions"][1][0]
    rnd["actions"][1] = [seat, "pass"] if rnd["actions"][1][1] != "pass" else rnd["actions"][1]
    rnd["actions"][0], rnd["actions"][1] = rnd["actions"][1], rnd["actions"][0]
    broken(data, r"^round 1, action 1, seat \d: ", IllegalPlayError)


def test_a_play_that_does_not_beat_is_reported() -> None:
    data = copy.deepcopy(RECORDS[0])
    for number, rnd in enumerate(data["rounds"], start=1):
        actions = rnd["actions"]
        plays = [i for i, a in enumerate(actions) if a[1] != "pass"]
        if len(plays) >= 2 and len(actions[plays[0]]) == 2 and len(actions[plays[1]]) == 2:
            first, second = plays[0], plays[1]
            lead, follow = actions[first][1], actions[second][1]
            if len(lead) == len(follow) and len(lead) == 1:
                break
    else:
        pytest.skip("no single answered by a single in this record")
    # swap the two singles' cards between their seats' hands and the plays: the lower one then follows
    seat_a, seat_b = actions[first][0], actions[second][0]
    hands = data["hands"]
    hands[seat_a].remove(lead[0])
    hands[seat_b].append(lead[0])
    hands[seat_b].remove(follow[0])
    hands[seat_a].append(follow[0])
    actions[first][1], actions[second][1] = follow, lead
    with pytest.raises((IllegalPlayError, InvalidRecordError)):
        replay(parse_guandan_record(data))


@pytest.mark.parametrize(("change", "match"), [
    (lambda d: d.update(format="jipai-deal/2"), "format"),
    (lambda d: d.update(game="gouji"), "guandan"),
    (lambda d: d.pop("hands"), "missing field 'hands'"),
    (lambda d: d["hands"][0].__setitem__(0, "ZZ"), "hands, seat 0"),
    (lambda d: d["hands"][0].append(d["hands"][1].pop()), "seat 0 has 28 cards"),
    (lambda d: d["hands"][0].__setitem__(0, d["hands"][1][0]), "too many|missing"),
    (lambda d: d.update(level="K") if d["level"] != "K" else d.update(level="Q"), "level"),
    (lambda d: d.update(dajia=1 - d["dajia"]), "dajia"),
    (lambda d: d.update(dajia=True), "dajia"),
    (lambda d: d.update(levels=["2"]), "levels"),
    (lambda d: d.update(leader=(d["leader"] + 1) % 4), "leader"),
    (lambda d: d["tribute"].update(kind="resist"), "tribute, kind"),
    (lambda d: d["tribute"]["exchanges"][0].update(returned="BJ"), "tribute"),
    (lambda d: d["tribute"]["exchanges"].pop(), "tribute, exchanges"),
    (lambda d: d.update(places=list(reversed(d["places"]))), "places"),
    (lambda d: d["rounds"].append({"leader": 0, "actions": [[0, ["3S"]]]}), "the hand is over"),
    (lambda d: d["rounds"][0]["actions"].pop(), "round 1"),
    (lambda d: d["rounds"][1].update(leader=(d["rounds"][1]["leader"] + 1) % 4), "round 2: leader must be"),
    (lambda d: d.update(rules="tianjin"), "preset"),
    (lambda d: d["rounds"][0]["actions"][0].append({"as": {"type": "quad", "rank": "5"}}), "quad"),
])
def test_broken_records_are_refused(change: Any, match: str) -> None:
    data = later()
    change(data)
    with pytest.raises((InvalidRecordError, IllegalPlayError), match=match):
        replay(parse_guandan_record(data))


def test_a_wrong_tribute_card_is_refused() -> None:
    data = later()
    exchange = data["tribute"]["exchanges"][0]
    payer = data["hands"][exchange["from"]]
    lower = next(card for card in payer if card[:-1] not in (exchange["card"][:-1], data["level"]) and card
                 not in ("SJ", "BJ"))
    exchange["card"] = lower
    broken(data, "must pay")


def test_a_partial_record_verifies_incomplete() -> None:
    data = copy.deepcopy(RECORDS[0])
    del data["places"]
    data["rounds"] = data["rounds"][:3]
    data["rounds"][-1]["actions"] = data["rounds"][-1]["actions"][:1]
    summary = verified(data)
    assert not summary["complete"] and summary["result"] is None
    assert summary["rounds"][-1]["partial"] and summary["rounds"][-1]["actions"] == 1


def test_a_first_hand_has_no_tribute_and_a_free_leader() -> None:
    first = copy.deepcopy(RECORDS[0])
    assert first["dajia"] is None and "previous" not in first and "tribute" not in first
    assert verified(first)["tribute"] == {"kind": "none", "exchanges": [], "leader": first["leader"]}


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from(["standard", "jiangsu-club", "pagat"]),
       st.sampled_from(["random", "heuristic"]))
def test_random_deals_verify_and_round_trip(seed: int, preset: str, bots: str) -> None:
    """Property: every generated hand verifies, conserves its cards, its places give a consistent level
    change, and its record round-trips."""
    rules = GuandanRules.parse(preset)
    for data in generate_records(rules, seed, 2, bots):
        rep = replay(parse_guandan_record(data))
        state = rep.state
        played = sum(len(step.action) for _, step in state.history if step.action != "pass")
        assert played + sum(state.sizes) == 108
        assert all(state.sizes[seat] == 0 for seat in state.places)
        assert len(state.places) == 2 or (len(state.places) == 3 and state.places[0] % 2 != state.places[1] % 2)
        result = rep.result
        assert result is not None and result.winner == state.places[0] % 2
        loser = 1 - result.winner
        assert result.levels[loser] in (rep.record.levels[loser], 2)
        assert parse_guandan_record(json.loads(json.dumps(data))).to_json() == data


def test_the_specs_example_record(build: Builder) -> None:
    """guandan.md §6: previous 0, 3, 1 (a 1-4) so seat 2 pays its partner its BJ and gets 4C back; seat 2
    leads 33, nobody beats seat 3's 99; seat 3 leads 88 5C 5D + the wild 5H declared as 555 88."""
    data = build({0: "4C", 2: "BJ 3S 3D", 3: "9S 9H 8S 8D 5H 5C 5D"}, [
        {"leader": 2, "actions": [[2, ["3S", "3D"]], [3, ["9S", "9H"]], [0, "pass"], [1, "pass"], [2, "pass"]]},
        {"leader": 3, "actions": [[3, ["8S", "8D", "5H", "5C", "5D"], {"as": {"type": "full_house", "rank": "5"}}],
                                  [0, "pass"]]},
    ], levels=["5", "3"], dajia=0, level="5", previous={"places": [0, 3, 1]},
        tribute={"kind": "single", "exchanges": [{"from": 2, "to": 0, "card": "BJ", "returned": "4C"}]}, leader=2)
    assert data["hands"][0][1] == "BJ"  # the other big joker is seat 0's, so seat 2 cannot resist
    summary = verified(data)
    assert summary["tribute"] == {"kind": "single", "leader": 2, "exchanges": data["tribute"]["exchanges"]}
    assert summary["rounds"] == [
        {"leader": 2, "winner": 3, "actions": 5, "partial": False, "jiefeng": False},
        {"leader": 3, "winner": 3, "actions": 2, "partial": True, "jiefeng": False}]
    assert not summary["complete"] and summary["result"] is None and summary["level"] == "5"
    data["tribute"]["exchanges"][0]["returned"] = "BJ"  # a BJ is no card of 10 or lower
    broken(data, "tribute, exchange 1: seat 0 returns BJ but holds a card of 10 or lower")


def test_the_specs_error_line(build: Builder) -> None:
    """`round 3, action 2, seat 1: … (pair_run to Q) does not beat pair_run to K` (here in round 1)."""
    data = build({0: "JS JD QS QD KS KD", 1: "10S 10D JC JH QC QH"},
                 [{"leader": 0, "actions": [[0, ["JS", "JD", "QS", "QD", "KS", "KD"]],
                                            [1, ["10S", "10D", "JC", "JH", "QC", "QH"]]]}])
    broken(data, r"^round 1, action 2, seat 1: 10S 10D JC JH QC QH \(pair_run to Q\) does not beat pair_run to K$",
           IllegalPlayError)


def test_a_double_tribute_record(build: Builder) -> None:
    """After a 1-2 (0, 2) both losers pay: seat 1's BJ to the 上游 seat 0, seat 3's SJ to seat 2 (二游);
    the payer of the 上游 (seat 1) leads."""
    data = build({0: "4C", 1: "BJ 7S", 2: "3C", 3: "SJ"},
                 [{"leader": 1, "actions": [[1, ["7S"]], [2, "pass"], [3, "pass"], [0, "pass"]]}],
                 levels=["5", "2"], dajia=0, level="5", previous={"places": [0, 2]}, leader=1,
                 tribute={"kind": "double", "exchanges": [{"from": 1, "to": 0, "card": "BJ", "returned": "4C"},
                                                          {"from": 3, "to": 2, "card": "SJ", "returned": "3C"}]})
    assert "BJ" not in data["hands"][3] and data["hands"][1].count("BJ") == 1
    summary = verified(data)
    assert summary["tribute"]["kind"] == "double" and summary["rounds"][0]["winner"] == 1
    swapped = copy.deepcopy(data)
    swapped["tribute"]["exchanges"].reverse()
    broken(swapped, "seat 1 pays seat 0, the record says seat 3 to seat 2")
    data["leader"] = data["rounds"][0]["leader"] = 3
    broken(data, "leader: §4.3 gives seat 1")


def test_a_resist_record(build: Builder) -> None:
    """[N] 抗贡: the 下游 (seat 3 after 0, 1, 2) holds both BJ; nobody pays and the 上游 leads."""
    data = build({0: "7S", 3: "BJ BJ"}, [{"leader": 0, "actions": [[0, ["7S"]]]}], levels=["4", "2"], dajia=0,
                 level="4", previous={"places": [0, 1, 2]}, leader=0, tribute={"kind": "resist", "exchanges": []})
    summary = verified(data)
    assert summary["tribute"] == {"kind": "resist", "exchanges": [], "leader": 0}
    record = parse_guandan_record(data)
    assert track(record, 1, Position.parse("end", record))["resist"] == [3]
    data["tribute"] = {"kind": "single", "exchanges": []}
    broken(data, "tribute, kind: §4.2 gives resist")


@pytest.mark.parametrize(("rules", "ok"), [("jiangsu-club", True), ("standard", False)])
def test_undeclared_wild_plays_read_by_the_rules(build: Builder, rules: str, ok: bool) -> None:
    """[S] "否则只当小牌用": undeclared, 55 88 + wild is 555 88 under jiangsu-club (666 33 beats it), and
    888 55 under standard (666 33 does not)."""
    data = build({0: "5S 5D 8S 8D 2H", 1: "6S 6D 6C 3S 3D"},
                 [{"leader": 0, "actions": [[0, ["5S", "5D", "8S", "8D", "2H"]], [1, ["6S", "6D", "6C", "3S", "3D"]]]}],
                 rules=rules)
    if ok:
        assert verified(data)["rounds"][0]["winner"] == 1
    else:
        broken(data, r"round 1, action 2, seat 1: .*full_house of 6\) does not beat full_house of 8", IllegalPlayError)


def test_more_copies_of_a_face_than_two_decks_hold_is_malformed(build: Builder) -> None:
    data = build({0: "5S 5S"}, [{"leader": 0, "actions": [[0, ["5S", "5S", "5S"]]]}])
    with pytest.raises(InvalidRecordError, match="round 1, action 1: 3 copies of 5S"):
        parse_guandan_record(data)


def test_jiefeng_rounds_follow_a_finished_owner() -> None:
    """接风 in generated deals: the owner went out with its top and its partner leads the next round."""
    seen = 0
    for data in generate_records(STANDARD, seed=3, count=12):
        summary = verified(data)
        rounds = summary["rounds"]
        for before, after in zip(rounds, rounds[1:]):
            if before["jiefeng"]:
                seen += 1
                assert after["leader"] == (before["winner"] + 2) % 4 and before["winner"] in data["places"]
            else:
                assert after["leader"] == before["winner"]
    assert seen


@pytest.mark.parametrize(("text", "actions"), [("0.0", 0), ("1.0", 0), ("1.2", 2), ("#3", 3), ("2.1", None)])
def test_positions(text: str, actions: int | None) -> None:
    record = parse_guandan_record(RECORDS[0])
    first = len(record.rounds[0].actions)
    assert Position.parse(text, record).actions == (first + 1 if actions is None else actions)
    total = sum(len(rnd.actions) for rnd in record.rounds)
    assert Position.parse("end", record).actions == total


@pytest.mark.parametrize("text", ["1.99", "999.0", "#9999", "x", "1.", "-1.0", "１.0"])
def test_bad_positions_are_malformed(text: str) -> None:
    with pytest.raises(MalformedError, match="position"):
        Position.parse(text, parse_guandan_record(RECORDS[0]))
