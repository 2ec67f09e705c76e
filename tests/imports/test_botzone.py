"""Botzone 双升 log import: hand-made Botzone-style logs made from random legal deals, converted back.

The encoder below is written from records.md "Imports" (card ids 0–107, `id % 54`, rank
`[A,2,…,10,J,Q,K][(id % 54) // 4]`, suit `[S,H,C,D]` for the 2024 judge and `[H,D,S,C]` for the
2023 judge; the two copies of a face are `id` and `id + 54`), not from the importer, and it shapes
the log as the Botzone judge does: one card delivered per deal request, bids as deal responses,
the kitty delivered at "cover", plays answered one request at a time with the judge's `history`
(which lists a failed throw as the play it was reduced to, and lists cards in its own order).
"""
from __future__ import annotations

import copy
import random
import re
from collections import Counter
from typing import Any

import pytest

from trainer.bots.random import random_record
from trainer.engine import Rules
from trainer.imports.botzone import convert_log
from trainer.records import parse_record, replay

BOTZONE = Rules.parse("botzone")
ORDERS = {"2024": "SHCD", "2023": "HDSC"}
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
SEEDS = range(24)

# -- the encoder -----------------------------------------------------------------------------------


def face_id(card: str, judge: str) -> int:
    """The id (0–53) of a face under a judge version."""
    if card in ("SJ", "BJ"):
        return 52 if card == "SJ" else 53
    return RANKS.index(card[:-1]) * 4 + ORDERS[judge].index(card[-1])


def read_id(card_id: int, judge: str) -> str:
    """The card an id stands for under a judge version, straight from records.md."""
    face = card_id % 54
    if face >= 52:
        return "SJ" if face == 52 else "BJ"
    return RANKS[face // 4] + ORDERS[judge][face % 4]


def take(pool: list[int], card: str, judge: str) -> int:
    """Remove and return an id of `card` from `pool`."""
    for index, card_id in enumerate(pool):
        if card_id % 54 == face_id(card, judge):
            return pool.pop(index)
    raise AssertionError(f"{card} not in the pool")


def request(seat: int, body: dict[str, Any], display: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"output": {"command": "request", "content": {str(seat): body}, "display": display or {}},
            "verdict": "OK", "time": 1}


def answer(seat: int, response: Any) -> dict[str, Any]:
    return {str(seat): {"verdict": "OK", "response": response, "time": 2, "memory": 30}}


def bid_letter(card: str) -> str:
    return "n" if card in ("SJ", "BJ") else card[-1].lower()


def encode(record: dict[str, Any], judge: str) -> list[dict[str, Any]]:
    """A Botzone-style match log of a record, with ids read the way `judge` reads them."""
    deck = list(range(108))
    hands = [[take(deck, card, judge) for card in hand] for hand in record["hands"]]
    kitty = [take(deck, card, judge) for card in record["kitty"]]
    assert not deck
    level = {"10": "0"}.get(record["level"], record["level"]) if judge == "2023" else record["level"]
    banking: dict[str, Any] = {"banker": -1, "called": -1, "snatched": -1, "major": ""}

    # each declaration is made by its seat on the first deal request after it holds the cards
    # and after the declaration before it
    bids: dict[int, list[int]] = {}
    last = -1
    for declaration in record.get("declarations", []):
        seat = declaration["seat"]
        held, shown = list(hands[seat]), []
        for card in declaration["cards"]:
            shown.append(take(held, card, judge))
        round_ = max(hands[seat].index(card_id) for card_id in shown)
        while round_ * 4 + seat <= last:
            round_ += 1
        last = round_ * 4 + seat
        bids[last] = shown

    def shared() -> dict[str, Any]:
        return {"level": level, "banking": dict(banking)}

    log: list[dict[str, Any]] = []
    for round_ in range(25):
        for seat in range(4):
            log.append(request(seat, {"stage": "deal", "deliver": [hands[seat][round_]], "global": shared()}))
            bid = bids.get(round_ * 4 + seat, [])
            log.append(answer(seat, bid))
            if bid:
                key = "called" if banking["called"] == -1 else "snatched"
                banking.update({key: seat, "banker": seat, "major": bid_letter(read_id(bid[0], judge))})
    banker = record["banker"]
    banking.update(banker=banker, major="n" if record["trump"] == "none" else record["trump"].lower())
    log.append(request(banker, {"stage": "cover", "deliver": kitty, "global": shared()}))
    pool = hands[banker] + kitty
    log.append(answer(banker, [take(pool, card, judge) for card in record["buried"]]))
    held = [list(hand) for hand in hands]
    held[banker] = pool

    history: list[Any] = [[], [], banker, banker]
    log.append(request(banker, {"stage": "play", "history": copy.deepcopy(history), "global": shared()}))
    tricks = record["tricks"]
    for number, trick in enumerate(tricks):
        leader = trick["leader"]
        for index, play in enumerate(trick["plays"]):
            seat = (leader + index) % 4
            played = [take(held[seat], card, judge) for card in play]
            sent = played
            if index == 0 and "attempt" in trick:
                spare = list(played) + list(held[seat])
                sent = [take(spare, card, judge) for card in trick["attempt"]]
            log.append(answer(seat, sent))
            history[1].append(sorted(played))  # the judge lists the cards in its own order
            shown = {"event": {"currplayer": seat, "action": "play", "poker": sorted(played)}}
            if index < 3:
                log.append(request((seat + 1) % 4, {"stage": "play", "history": copy.deepcopy(history),
                                                    "global": shared()}, shown))
            elif number + 1 < len(tricks):
                winner = tricks[number + 1]["leader"]
                history = [history[1], [], leader, winner]
                log.append(request(winner, {"stage": "play", "history": copy.deepcopy(history),
                                            "global": shared()}, shown))
    log.append({"output": {"command": "finish", "content": {str(s): 0 for s in range(4)},
                           "display": {"score": 0}}})
    return log


# -- what a round trip must give back --------------------------------------------------------------


def relabel(record: dict[str, Any], written: str, read: str) -> dict[str, Any]:
    """The record a log written under one judge version reads as under the other."""
    def cards(values: list[str]) -> list[str]:
        return [read_id(face_id(card, written), read) for card in values]

    out = copy.deepcopy(record)
    out["hands"] = [cards(hand) for hand in record["hands"]]
    out["kitty"], out["buried"] = cards(record["kitty"]), cards(record["buried"])
    for trick in out["tricks"]:
        trick["plays"] = [cards(play) for play in trick["plays"]]
        if "attempt" in trick:
            trick["attempt"] = cards(trick["attempt"])
    for declaration in out.get("declarations", []):
        declaration["cards"] = cards(declaration["cards"])
    return out


def assert_same_deal(got: dict[str, Any], want: dict[str, Any]) -> None:
    for key in ("format", "level", "trump", "banker", "hands", "kitty", "buried"):
        assert got[key] == want[key], key
    assert got["rules"] == "botzone"
    assert got.get("declarations", []) == want.get("declarations", [])
    assert len(got["tricks"]) == len(want["tricks"])
    for number, (mine, theirs) in enumerate(zip(got["tricks"], want["tricks"]), start=1):
        assert mine["leader"] == theirs["leader"], number
        assert mine.get("attempt") == theirs.get("attempt"), number
        assert len(mine["plays"]) == len(theirs["plays"]), number
        for index, (a, b) in enumerate(zip(mine["plays"], theirs["plays"])):
            assert Counter(a) == Counter(b), (number, index)
            if not (index == 0 and "attempt" in theirs):  # a forced play is listed in the judge's order
                assert a == b, (number, index)


def suited_declaration(record: dict[str, Any]) -> bool:
    return any(card not in ("SJ", "BJ") for d in record.get("declarations", []) for card in d["cards"])


def botzone_record(seed: int) -> dict[str, Any]:
    return random_record(random.Random(seed), rules=BOTZONE, throw_rate=0.3)


@pytest.mark.parametrize("judge", ["2024", "2023"])
@pytest.mark.parametrize("seed", SEEDS)
def test_round_trip(seed: int, judge: str) -> None:
    record = botzone_record(seed)
    [got] = convert_log(encode(record, judge))
    chosen = got["source"]["judge"]
    assert got["source"]["kind"] == "botzone"
    if suited_declaration(record):
        assert chosen == judge  # the declarations tell the versions apart
    want = record if chosen == judge else relabel(record, judge, chosen)
    assert_same_deal(got, want)
    assert replay(parse_record(got)).complete


def test_the_seeds_cover_failed_throws_no_trump_and_both_kinds_of_declaration() -> None:
    records = [botzone_record(seed) for seed in SEEDS]
    assert any("attempt" in trick for r in records for trick in r["tricks"])
    assert any(r["trump"] == "none" for r in records)
    assert any(suited_declaration(r) for r in records)
    assert any(not suited_declaration(r) for r in records)


def test_no_declaration_prefers_2024_when_both_readings_keep_the_rules() -> None:
    seed = next(s for s in SEEDS if botzone_record(s)["trump"] == "none")
    record = botzone_record(seed)
    [got] = convert_log(encode(record, "2024"))
    assert got["source"]["judge"] == "2024"
    assert_same_deal(got, record)


def test_a_wrapped_log_with_player_names_and_text_responses() -> None:
    record = botzone_record(4)  # a single ♠K declared, then ♥K ♥K overturns it
    log = encode(record, "2023")
    for entry in log:
        for value in entry.values():
            if isinstance(value, dict) and "response" in value:
                value["response"] = str(value["response"])  # simple-interaction bots answer text
    wrapped = {"_id": "65f0c0ffee", "log": log,
               "players": [{"name": "alpha"}, {"bot": "beta"}, {"nick": "gamma"}, "delta"]}
    [got] = convert_log(wrapped)
    assert got["players"] == ["alpha", "beta", "gamma", "delta"]
    assert got["source"] == {"kind": "botzone", "judge": "2023", "match": "65f0c0ffee"}
    assert_same_deal(got, record)


def test_ten_as_level_reads_from_the_judges_zero() -> None:
    seed = next(s for s in range(200) if random_record(random.Random(s), rules=BOTZONE, stop_after=0)["level"] == "10")
    record = botzone_record(seed)
    log = encode(record, "2023")
    assert log[0]["output"]["content"]["0"]["global"]["level"] == "0"
    [got] = convert_log(log)
    assert got["level"] == "10"


def test_an_unfinished_log_is_an_unfinished_record() -> None:
    record = botzone_record(5)
    log = encode(record, "2024")
    for plays in (11, 13, 17):
        cut = 202 + 2 * plays  # the deal and cover (202 entries), then each request and its answer
        [got] = convert_log(log[:cut])
        assert sum(len(t["plays"]) for t in got["tricks"]) == plays
        assert not replay(parse_record(got)).complete


# -- errors ----------------------------------------------------------------------------------------


def test_a_log_without_all_four_hands() -> None:
    log = encode(botzone_record(1), "2024")
    with pytest.raises(ValueError, match=r"^the log lacks all four hands: .*seat 3 12 cards"):
        convert_log(log[:2 * (4 * 12 + 3)])
    with pytest.raises(ValueError, match="^the log lacks all four hands"):
        convert_log([])


def test_a_log_that_stops_before_the_kitty_is_buried() -> None:
    log = encode(botzone_record(1), "2024")
    with pytest.raises(ValueError, match="stops before the banker buries the kitty"):
        convert_log(log[:201])


def revoke(seed: int, judge: str) -> tuple[list[dict[str, Any]], int, int] | None:
    """A log where one follower plays a card of another suit while holding the led side suit,
    with the trick and seat of the bad play; None when the deal has no such moment."""
    record = botzone_record(seed)
    if not suited_declaration(record):
        return None
    trump, level = record["trump"], record["level"]

    def suit(card: str) -> str:
        return "T" if card in ("SJ", "BJ") or card[:-1] == level or card[-1] == trump else card[-1]

    dealt = [list(hand) for hand in record["hands"]]
    banker = record["banker"]
    dealt[banker] = list((Counter(dealt[banker]) + Counter(record["kitty"]) - Counter(record["buried"])).elements())
    log = encode(record, judge)
    answers = [entry for entry in log[203:] if "output" not in entry]
    for number, trick in enumerate(record["tricks"], start=1):
        lead = trick["plays"][0]
        for index, play in enumerate(trick["plays"]):
            seat = (trick["leader"] + index) % 4
            led = suit(lead[0])
            if index and len(lead) == 1 and led != "T" and suit(play[0]) == led:
                other = next((c for c in dealt[seat] if suit(c) != led), None)
                if other is not None:
                    response = answers[(number - 1) * 4 + index][str(seat)]
                    pool = list(range(108))
                    response["response"] = [take(pool, other, judge)]
                    return log, number, seat
            for card in play:
                dealt[seat].remove(card)
    return None


def test_a_log_whose_play_breaks_the_rules() -> None:
    for seed in range(50):
        found = revoke(seed, "2023")
        if found:
            break
    assert found, "no seed gives a revoke to test"
    log, number, seat = found
    with pytest.raises(ValueError, match=rf"^the log breaks the botzone rules: trick {number}, seat {seat}: "
                                         r"[a-z].* "):
        convert_log(log)


def test_a_play_out_of_turn() -> None:
    log = encode(botzone_record(2), "2024")
    [(key, body)] = log[204]["output"]["content"].items()  # the judge asks the wrong seat for the 2nd play
    wrong = str((int(key) + 2) % 4)
    log[204]["output"]["content"] = {wrong: body}
    log[205] = {wrong: log[205][key]}
    with pytest.raises(ValueError, match=r"^the log breaks the botzone rules: trick 1, seat \d: plays out of turn"):
        convert_log(log)


@pytest.mark.parametrize("data", [42, "[1, 2]", None, {"matches": []}, {"log": "x"}])
def test_not_a_log(data: object) -> None:
    with pytest.raises(ValueError, match=r"must be a JSON list of judge and player entries"):
        convert_log(data)


def test_entries_that_are_not_objects() -> None:
    with pytest.raises(ValueError, match=r"^log entry 0: expected a JSON object, not int$"):
        convert_log([7])


@pytest.mark.parametrize("bad", [108, -1, 150, "12", True, 3.5])
def test_garbage_card_ids(bad: object) -> None:
    log = encode(botzone_record(4), "2024")
    log[10]["output"]["content"]["1"]["deliver"] = [bad]
    with pytest.raises(ValueError, match=rf"^log entry 10, the cards delivered to seat 1: {re.escape(repr(bad))} "
                                         r"is not a Botzone card id \(an integer from 0 to 107\)$"):
        convert_log(log)


def test_garbage_in_a_response() -> None:
    log = encode(botzone_record(4), "2024")
    log[205][next(iter(log[205]))]["response"] = [999]
    with pytest.raises(ValueError, match=r"^log entry 205, seat \d's response: 999 is not a Botzone card id"):
        convert_log(log)


def test_a_card_id_dealt_twice() -> None:
    log = encode(botzone_record(4), "2024")
    log[2]["output"]["content"]["1"]["deliver"] = list(log[0]["output"]["content"]["0"]["deliver"])
    with pytest.raises(ValueError, match=r"^the log deals card id \d+ more than once$"):
        convert_log(log)


def test_an_unknown_trump() -> None:
    log = encode(botzone_record(4), "2024")
    for entry in log:
        for body in entry.get("output", {}).get("content", {}).values():
            if isinstance(body, dict):
                body["global"]["banking"]["major"] = "x"
    with pytest.raises(ValueError, match=r"trump suit \(banking.major\) is 'x'"):
        convert_log(log)


def test_a_judge_version_can_be_forced() -> None:
    record = botzone_record(1)  # no trump, no declaration: the log alone cannot tell
    [got] = convert_log(encode(record, "2023"), judge="2023")
    assert got["source"]["judge"] == "2023"
    assert_same_deal(got, record)
    with pytest.raises(ValueError, match="unknown Botzone judge version '2025'"):
        convert_log(encode(record, "2023"), judge="2025")


# -- what the judge shows of a failed throw --------------------------------------------------------


def failed_throw(seed: int) -> tuple[dict[str, Any], int]:
    """A record with a failed throw, and the number (from 1) of the play that attempted it."""
    record = botzone_record(seed)
    plays = 0
    for trick in record["tricks"]:
        if "attempt" in trick and len(trick["attempt"]) > 1:
            return record, plays + 1
        plays += len(trick["plays"])
    raise AssertionError("no failed throw")


def test_the_display_stands_in_for_a_missing_history() -> None:
    record, _ = failed_throw(0)
    log = encode(record, "2024")
    for entry in log:
        for body in entry.get("output", {}).get("content", {}).values():
            if isinstance(body, dict):
                body.pop("history", None)
    [got] = convert_log(log)
    assert_same_deal(got, record)


def test_a_log_cut_right_after_a_failed_throw() -> None:
    record, play = failed_throw(2)
    log = encode(record, "2024")
    [got] = convert_log(log[:202 + 2 * play])  # the throw is answered; the judge never shows the result
    last = got["tricks"][-1]
    want = record["tricks"][len(got["tricks"]) - 1]
    assert list(last) == ["leader", "attempt", "plays"]
    assert last["attempt"] == want["attempt"] and Counter(last["plays"][0]) == Counter(want["plays"][0])


# -- a log the judge ended early -------------------------------------------------------------------


def test_a_play_the_judge_refused_is_left_out() -> None:
    record = botzone_record(5)
    log = encode(record, "2024")[:202 + 2 * 9]  # nine plays answered
    seat = int(next(iter(log[-1])))
    errors = [None] * 4
    errors[seat] = "ILLEGAL_MOVE"
    log.append({"output": {"command": "finish", "content": {str(s): 0 for s in range(4)},
                           "display": {"currplayer": seat, "error": errors}}})
    [got] = convert_log(log)
    assert sum(len(t["plays"]) for t in got["tricks"]) == 8
    assert got["source"]["stopped"] == f"seat {seat}: ILLEGAL_MOVE"


def test_an_answer_with_a_bad_verdict_ends_the_deal() -> None:
    record = botzone_record(5)
    log = encode(record, "2024")
    [(key, value)] = log[202 + 2 * 6 - 1].items()  # the sixth play
    value["verdict"] = "TLE"
    del value["response"]
    [got] = convert_log(log)
    assert sum(len(t["plays"]) for t in got["tricks"]) == 5
    assert got["source"]["stopped"] == f"seat {key}: TLE"


@pytest.mark.parametrize("text", ["12 ٣", "12 " + "7" * 5000, "12 +3"])
def test_card_ids_as_text_take_only_plain_ascii_numbers(text: str) -> None:
    log = encode(botzone_record(4), "2024")
    log[10]["output"]["content"]["1"]["deliver"] = text
    with pytest.raises(ValueError, match=r"^log entry 10, the cards delivered to seat 1: .{1,40} is not a Botzone card id"):
        convert_log(log)
