"""Complete 双升 games played through the real Botzone 2024 judge, imported and checked against its verdicts.

`data/botzone-judge-2024.jsonl.gz` holds 100 match logs made by running the judge of the public
repository DylanWRh/Tractor-Project (`judge_step.py`, the 2024 Botzone Tractor judge) outside the
project, one step at a time as Botzone does, with every move chosen among the engine's legal plays
(random plays, throws that stand or fail, lenient off-suit pairs and tractors, all-one-suit last leads).
No code of the judge is in the project. Each line is `{"_id", "log", "judge"}`, `judge` being what the
judge itself said: the winner of every trick but the last (the seat its next request goes to), the
penalty at every lead (its `get_score` after the lead), the attackers' final score (`total_score` plus
the finish's `get_score`) and the multiplier its finish code gives the last lead as it stood.
"""
from __future__ import annotations

import gzip
import json
import random
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from trainer.engine.follow import forms_lead_shape
from trainer.engine.scoring import kitty_multiplier
from trainer.engine.trump import SUIT_NAMES
from trainer.imports.botzone import convert_log
from trainer.records import DealRecord, Position, parse_record, replay
from trainer.tracking.inference import KITTY, Inference, infer_json
from trainer.tracking.recount import recount
from trainer.tracking.tracker import public_events, tracker_for

DATA = Path(__file__).parent / "data" / "botzone-judge-2024.jsonl.gz"
PLAY_REQUEST = 202
"""Index of the first play request: the first deal request, 100 deal answers and the cover answer, each
answer followed by the judge's next output."""


def load_games() -> list[dict[str, Any]]:
    with gzip.open(DATA, "rt", encoding="utf-8") as handle:
        return [json.loads(line) for line in handle]


GAMES = load_games()


def imported(game: dict[str, Any]) -> dict[str, Any]:
    [record] = convert_log({"_id": game["_id"], "log": game["log"]})
    return record


def test_the_data_set() -> None:
    assert len(GAMES) == 100
    assert len({game["_id"] for game in GAMES}) == 100
    assert DATA.stat().st_size < 2_000_000


@pytest.mark.parametrize("game", GAMES, ids=[game["_id"] for game in GAMES])
def test_every_judge_game_imports_and_agrees_with_the_judge(game: dict[str, Any]) -> None:
    record = imported(game)
    assert record["source"] == {"kind": "botzone", "judge": "2024", "match": game["_id"]}
    rep = replay(parse_record(record))
    judge = game["judge"]
    assert rep.complete and rep.result is not None
    assert [trick.winner for trick in rep.tricks][:-1] == judge["winners"]
    assert [trick.penalty for trick in rep.tricks] == judge["penalties"]
    assert rep.result.attackers_score == judge["score"]
    last = rep.state.tricks[-1]
    assert last.lead is not None
    assert kitty_multiplier(last.lead, rep.record.rules) == judge["multiplier"]
    assert rep.result.kitty_multiplier in (0, judge["multiplier"])


def test_the_games_cover_what_the_botzone_rules_decide() -> None:
    seen: Counter[str] = Counter()
    for game in GAMES:
        record = parse_record(imported(game))
        rep = replay(record)
        ctx = record.ctx
        seen["no trump" if ctx.trump is None else "trump"] += 1
        seen["declared" if record.declarations else "not declared"] += 1
        for trick, played in zip(record.tricks, rep.state.tricks):
            if trick.attempt is not None:
                seen["failed throws"] += 1
                if len({card.index for card in trick.attempt}) < len(trick.attempt):
                    seen["failed throws holding a pair"] += 1
            lead = played.lead
            assert lead is not None
            for play in trick.plays[1:]:
                if all(ctx.suit_of[c.index] != lead.suit for c in play) and forms_lead_shape(lead, play, ctx):
                    seen["off-suit plays of the lead's shape"] += 1
        last = rep.state.tricks[-1]
        assert last.lead is not None and rep.result is not None
        if len(last.lead.units) > 1 and rep.result.kitty_multiplier and rep.result.kitty_points:
            seen["kitty bonus on a thrown last lead"] += 1
    for what, least in (("no trump", 5), ("trump", 5), ("declared", 5), ("not declared", 3), ("failed throws", 100),
                        ("failed throws holding a pair", 20), ("off-suit plays of the lead's shape", 20),
                        ("kitty bonus on a thrown last lead", 3)):
        assert seen[what] >= least, (what, seen)


# -- logs that do not hold a whole game ------------------------------------------------------------


@pytest.mark.parametrize("plays", [1, 4, 9, 50, 75])
def test_a_judge_log_cut_short_is_an_unfinished_record(plays: int) -> None:
    game = GAMES[plays]
    assert len(game["judge"]["penalties"]) * 4 > plays  # four plays a trick
    cut = game["log"][:PLAY_REQUEST + 2 * plays + 1]  # the answer of the last play and the judge's reply
    [record] = convert_log(cut)
    assert sum(len(trick["plays"]) for trick in record["tricks"]) == plays
    rep = replay(parse_record(record))
    assert not rep.complete
    done = plays // 4
    assert [trick.winner for trick in rep.tricks][:done] == game["judge"]["winners"][:done]
    assert [trick.penalty for trick in rep.tricks] == game["judge"]["penalties"][:len(rep.tricks)]


def one_seat(log: list[dict[str, Any]], seat: int) -> list[dict[str, Any]]:
    """The log as one player sees it: the requests to that seat and its own answers."""
    mine = []
    for entry in log:
        if "output" in entry:
            content = entry["output"].get("content", {})
            if entry["output"].get("command") == "request" and str(seat) not in content:
                continue
            entry = {**entry, "output": {**entry["output"], "content": {str(seat): content[str(seat)]}}} \
                if entry["output"].get("command") == "request" else entry
        elif str(seat) not in entry:
            continue
        mine.append(entry)
    return mine


@pytest.mark.parametrize("seat", range(4))
def test_a_one_seat_log_lacks_all_four_hands(seat: int) -> None:
    log = one_seat(GAMES[seat]["log"], seat)
    with pytest.raises(ValueError, match=rf"^the log lacks all four hands: it deals .*seat {seat} 25,? "):
        convert_log(log)


def test_a_judge_log_cut_in_the_deal_lacks_all_four_hands() -> None:
    pattern = r"^the log lacks all four hands: it deals seat 0 \d+, seat 1 \d+, seat 2 \d+, seat 3 \d+ cards " \
              r"\(a full deal gives each seat 25\)$"
    with pytest.raises(ValueError, match=pattern) as refused:
        convert_log(GAMES[0]["log"][:2 * 39])  # 39 cards dealt, each request answered
    assert sorted(int(n) for n in re.findall(r"seat \d (\d+)", str(refused.value))) == [9, 10, 10, 10]


# -- the tracker stays sound on the judge's games ---------------------------------------------------


def true_hands(record: DealRecord) -> list[list[dict[int, int]]]:
    """Every seat's real holding (face → copies) before each play, and at the end."""
    hands = [Counter(card.index for card in hand) for hand in record.playing_hands()]
    found = [[dict(hand) for hand in hands]]
    for trick in record.tricks:
        for index, play in enumerate(trick.plays):
            hands[(trick.leader + index) % 4].subtract(card.index for card in play)
            found.append([{f: c for f, c in hand.items() if c} for hand in hands])
    return found


@pytest.mark.parametrize("chunk", range(4))
def test_tier_1_and_tier_2_hold_the_true_hands(chunk: int) -> None:
    rng = random.Random(chunk)
    for number, game in enumerate(GAMES[chunk::4]):
        record = parse_record(imported(game))
        seat = number % 4
        ctx = record.ctx
        truth = true_hands(record)
        buried = Counter(card.index for card in record.buried)
        tracker = tracker_for(record, seat)
        events = list(public_events(record))
        spots = [Position(t, k) for t, trick in enumerate(record.tricks, start=1)
                 for k in range(1, len(trick.plays) + 1)]
        deep = set(rng.sample(range(len(events)), 5))
        for step, (event, position) in enumerate(zip(events, spots)):
            tracker.observe(event)
            snap = tracker.snapshot(position)
            held = truth[step + 1]
            for q in range(4):
                for suit in range(5):
                    in_suit = {f: c for f, c in held[q].items() if ctx.suit_of[f] == suit}
                    if snap.revealed_voids[q] >> suit & 1:
                        assert not in_suit, (game["_id"], str(position), q, suit)
                    if snap.no_pairs[q] >> suit & 1:
                        assert max(in_suit.values(), default=0) < 2, (game["_id"], str(position), q, suit)
                for face, copies in snap.constraints.caps[q].items():
                    assert held[q].get(face, 0) <= copies, (game["_id"], str(position), q, face)
                for face, copies in snap.constraints.returned[q].items():
                    assert held[q].get(face, 0) >= copies, (game["_id"], str(position), q, face)
                for face, copies in snap.constraints.declared[q].items():  # the banker may have buried them
                    assert held[q].get(face, 0) + buried.get(face, 0) * (q == record.banker) >= copies

            if step in deep:
                assert snap == recount(record, seat, position)
                tier2_holds_the_truth(snap, held, record)


def tier2_holds_the_truth(snap: Any, held: list[dict[int, int]], record: DealRecord) -> None:
    inference = Inference(snap)
    data = infer_json(snap)
    kitty = Counter(card.index for card in record.buried)
    ctx = record.ctx
    for q in inference.holders:
        real = kitty if q == KITTY else held[q]
        name = "kitty" if q == KITTY else str(q)
        for face in inference.faces:
            low, high = inference.bounds(q, face)
            assert low <= real.get(face, 0) <= high, (q, face)
        for suit in range(5):
            low, high = inference.suit_bounds(q, suit)
            assert low <= sum(c for f, c in real.items() if ctx.suit_of[f] == suit) <= high, (q, suit)
        for void in data["implied_voids"][name]:
            assert not any(ctx.suit_of[f] == SUIT_NAMES.index(void) for f in real if real[f]), (q, void)


def test_an_off_suit_play_of_the_leads_shape_reveals_no_void() -> None:
    found: Counter[str] = Counter()
    for game in GAMES:
        record = parse_record(imported(game))
        ctx = record.ctx
        truth = true_hands(record)
        tracker = tracker_for(record, 0)
        plays = [(trick, index) for trick in record.tricks for index in range(len(trick.plays))]
        for step, (event, (trick, index)) in enumerate(zip(public_events(record), plays)):
            tracker.observe(event)
            lead, seat = tracker.lead, (trick.leader + index) % 4
            assert lead is not None
            before = truth[step][seat]
            still_held = any(ctx.suit_of[f] == lead.suit for f in before)
            if not index or seat == 0 or not still_held or not forms_lead_shape(lead, event.cards, ctx) or any(
                    ctx.suit_of[c.index] == lead.suit for c in event.cards):
                continue
            snap = tracker.snapshot()
            assert not snap.revealed_voids[seat] >> lead.suit & 1  # it held led-suit cards: no void
            assert bool(snap.no_pairs[seat] >> lead.suit & 1) == (lead.pairs == 1)  # a pair lead: no pair held
            found["pair" if lead.pairs == 1 else "tractor"] += 1
    assert found["pair"] >= 10 and found["tractor"] >= 1, found
