"""Tracking with one, three and four decks: hand-made positions with exact expected facts.

Each deal is built like test_facts_handmade's base deal, scaled to the decks: level 2, no trump,
banker 0. Seat 0 holds every non-level spade, seat 1 the hearts, seat 2 the clubs, seat 3 the
diamonds; the jokers and level cards are shared out below and the rest is the kitty, which the
banker buries as it came. Every expected value is worked out from tracking.md and rules.md.
"""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from trainer.engine import Card, Rules
from trainer.engine.follow import Lead
from trainer.engine.trump import TrumpContext
from trainer.bots.random import random_record
from trainer.cli import main
from trainer.engine.combos import face_counts
from trainer.records import FORMAT, Position, load_record, parse_record, replay, state_at
from trainer.tracking.facts import facts_json
from trainer.tracking.inference import infer_json
from trainer.tracking.recount import _proved_caps, recount
from trainer.tracking.tracker import no_legal_holder, public_events, shows_no_pair, throw_caps, track

ALL_RANKS = "A K Q J 10 9 8 7 6 5 4 3 2".split()
RANKS = [rank for rank in ALL_RANKS if rank != "2"]
"""The ranks of a side suit at level 2, strongest first."""
PRESET = {1: "one-deck", 2: "standard", 3: "three-deck", 4: "four-deck"}


def extras(decks: int, level: str) -> tuple[list[str], ...]:
    """The jokers and level cards each seat holds, then the kitty (6 cards with 1 or 3 decks, 8 with 4)."""
    if decks == 1:
        return [], [], [], [], ["BJ", "SJ"] + [level + suit for suit in "SHCD"]
    return (["BJ"] * decks, ["SJ"] * decks, [level + "S"] * decks, [level + "H"] * decks,
            [level + "C"] * decks + [level + "D"] * decks)


def c(text: str) -> list[str]:
    return text.split()


def suit_cards(suit: str, decks: int, level: str = "2") -> list[str]:
    return [rank + suit for rank in ALL_RANKS if rank != level for _ in range(decks)]


def make(decks: int, tricks: list[dict], level: str = "2", trump: str = "none"):
    *held, kitty = extras(decks, level)
    hands = [suit_cards(suit, decks, level) + extra for suit, extra in zip("SHCD", held, strict=True)]
    data = {"format": FORMAT, "rules": PRESET[decks], "level": level, "trump": trump, "banker": 0,
            "hands": hands, "kitty": kitty, "buried": list(kitty), "tricks": tricks}
    record = parse_record(data)
    replay(record)
    return record


def facts(record, seat: int, at: str) -> dict:
    position = Position.parse(at, record)
    return facts_json(track(record, seat, position), str(position))


def points_of(card: str) -> int:
    return Card.parse(card).points


def assert_invariants(f: dict, decks: int) -> None:
    plays = f["trick"]["plays"]
    table = 0 if len(plays) == 4 else sum(points_of(card) for play in plays for card in play)
    assert sum(f["points_won"]) + table + f["score"]["unplayed"] == 100 * decks
    assert sum(s["points_unplayed"] for s in f["suits"].values()) == f["score"]["unplayed"]


def test_one_deck_has_only_singles():
    # 12 cards a hand: seat 0 the 12 spades; the kitty BJ SJ and the four 2s
    record = make(1, [{"leader": 0, "plays": [c("AS"), c("AH"), c("AC"), c("AD")]}])
    f = facts(record, 1, "1.0")
    assert f["hand_sizes"] == [12, 12, 12, 12]
    assert f["score"] == {"attackers": 0, "banker_side": 0, "unplayed": 100, "to_take_over": 40}
    spades = f["suits"]["S"]
    assert spades["unseen"] == 12 and spades["points_unseen"] == 25
    assert spades["live_pairs"] == [] and spades["live_tractors"] == []
    assert "live_triples" not in spades and "live_quads" not in spades
    assert f["trumps"]["top"] == {"BJ": 1, "SJ": 1, "2S": 1, "2H": 1, "2C": 1, "2D": 1}
    after = facts(record, 1, "1.4")
    assert after["points_won"] == [0, 0, 0, 0] and after["suits"]["S"]["top_in_play"] == ["KS"]
    assert_invariants(after, 1)


def test_three_deck_counts_and_live_triples_at_the_start():
    record = make(3, [])
    f = facts(record, 1, "1.0")
    assert f["hand_sizes"] == [39, 39, 39, 39]
    assert f["score"] == {"attackers": 0, "banker_side": 0, "unplayed": 300, "to_take_over": 120}
    spades = f["suits"]["S"]
    every = [rank + "S" for rank in RANKS]
    assert spades["unseen"] == 36 and spades["points_unseen"] == 75
    assert spades["higher_than_mine"] == {}
    # three unseen copies of every spade, and any other seat may hold them
    assert spades["live_pairs"] == every and spades["live_triples"] == every
    assert spades["live_tractors"] == [every] and spades["live_triple_tractors"] == [every]
    assert "live_quads" not in spades
    hearts = f["suits"]["H"]
    assert hearts["mine"] == 36 and hearts["live_pairs"] == [] and hearts["live_triples"] == []
    assert hearts["higher_than_mine"]["AH"] == 0
    assert f["trumps"]["unseen"] == 15  # 3 BJ, 3 2S, 3 2H, 3 2C, 3 2D; the SJs are seat 1's
    assert f["trumps"]["top"] == {"BJ": 3, "SJ": 0, "2S": 3, "2H": 3, "2C": 3, "2D": 3}
    assert_invariants(f, 3)


def test_live_titanics_follow_seed_004s_examples():
    """Seed 004 at level 5: 444666, 副5 主5, 大王小王, AAA 副5 and 主5 小王 are 泰坦尼克, 555666 is not. Seat 2
    holds the clubs and ♠555; ♥ is trump, so every triple of a run below is still out for seat 2."""
    record = make(3, [], level="5", trump="H")
    f = facts(record, 2, "1.0")
    spades = [rank + "S" for rank in ALL_RANKS if rank != "5"]
    # the 5s are trumps: 4 and 6 are neighbours (444666)
    assert f["suits"]["S"]["live_triple_tractors"] == [spades]
    trumps = ["BJ", "SJ", "5H", "5C", "5D"] + [rank + "H" for rank in ALL_RANKS if rank != "5"]
    # 大王小王, 主5 小王, 副5 主5, AAA 副5 in one run (副5 ♣ ♦ share a position; seat 2's ♠555 are not out);
    # the ♠ side suit holds no 5, so 555666 is never one run
    assert f["suits"]["trump"]["live_triples"] == trumps
    assert f["suits"]["trump"]["live_triple_tractors"] == [trumps]
    assert f["suits"]["trump"]["live_tractors"] == [trumps]
    assert f["trumps"]["top"] == {"BJ": 3, "SJ": 3, "5H": 3, "5S": 0, "5C": 3, "5D": 3}


def test_three_deck_triple_lead_reveals_voids_and_narrows_live_triples():
    # seat 0 leads ♠AAA; the others have no spade and discard three cards of their suit
    record = make(3, [{"leader": 0, "plays": [c("AS AS AS"), c("3H 3H 3H"), c("3C 3C 3C"), c("3D 3D 3D")]}])
    f = facts(record, 1, "1.4")
    assert f["revealed_voids"] == {"0": [], "1": ["S"], "2": ["S"], "3": ["S"]}
    # no heart is unseen by seat 1: every other seat is void in hearts too
    assert f["voids"] == {"0": ["H"], "2": ["S", "H"], "3": ["S", "H"]}
    spades = f["suits"]["S"]
    rest = [rank + "S" for rank in RANKS[1:]]
    assert spades["played"] == 3 and spades["unseen"] == 33
    # only seat 0 (36 cards left) can hold a spade triple now; the kitty never makes one live
    assert spades["live_triples"] == rest and spades["live_triple_tractors"] == [rest]
    assert f["hand_sizes"] == [36, 36, 36, 36]
    assert f["points_won"] == [0, 0, 0, 0]  # no point card in the trick
    # clubs: 3C 3C 3C played, so ♣3 has no live pair; the rest are three copies each
    assert f["suits"]["C"]["live_triples"] == [rank + "C" for rank in RANKS[:-1]]
    assert_invariants(f, 3)


def test_three_deck_discards_on_a_pair_show_voids_not_pairlessness():
    # trick 1 ♠AAA, trick 2 ♠KK, both answered by discards of the followers' own suits
    tricks = [{"leader": 0, "plays": [c("AS AS AS"), c("3H 3H 3H"), c("3C 3C 3C"), c("3D 3D 3D")]},
              {"leader": 0, "plays": [c("KS KS"), c("4H 4H"), c("4C 4C"), c("4D 4D")]}]
    record = make(3, tricks)
    f = facts(record, 2, "2.4")
    # the discards were of other suits: voids, not no-pair facts
    assert f["no_pairs"] == {"0": [], "1": [], "3": []}
    assert f["suits"]["S"]["live_pairs"][0] == "QS" and "KS" not in f["suits"]["S"]["live_pairs"]
    assert f["points_won"] == [20, 0, 0, 0]
    assert f["score"]["unplayed"] == 280 and f["score"]["to_take_over"] == 120
    assert_invariants(f, 3)


def test_four_deck_quads_and_their_tractors():
    record = make(4, [{"leader": 0, "plays": [c("AS AS AS AS"), c("3H 3H 3H 3H"), c("3C 3C 3C 3C"),
                                              c("3D 3D 3D 3D")]}])
    start = facts(record, 2, "1.0")
    every = [rank + "S" for rank in RANKS]
    spades = start["suits"]["S"]
    assert spades["live_quads"] == every and spades["live_quad_tractors"] == [every]
    assert spades["live_triples"] == every and spades["live_pairs"] == every
    assert start["score"]["to_take_over"] == 160 and start["hand_sizes"] == [52] * 4
    after = facts(record, 2, "1.4")
    rest = every[1:]
    assert after["suits"]["S"]["live_quads"] == rest
    assert after["suits"]["H"]["live_quads"] == [rank + "H" for rank in RANKS[:-1]]
    assert after["suits"]["H"]["unseen"] == 44 and after["suits"]["H"]["points_unseen"] == 100
    assert_invariants(after, 4)


def test_four_deck_tier2_capacities_reach_four_copies():
    record = make(4, [{"leader": 0, "plays": [c("AS AS AS AS"), c("3H 3H 3H 3H"), c("3C 3C 3C 3C"),
                                              c("3D 3D 3D 3D")]}])
    inf = infer_json(track(record, 1, Position.parse("1.4", record)))
    # seats 2 and 3 showed they have no spade: the 44 spades left lie with seat 0 and the 8-card kitty
    assert inf["holdings"]["0"]["KS"] == [0, 4] and inf["holdings"]["kitty"]["KS"] == [0, 4]
    assert inf["holdings"]["2"]["KS"] == [0, 0]
    assert inf["suit_counts"]["0"]["S"] == [36, 44] and inf["suit_counts"]["kitty"]["S"] == [0, 8]
    assert inf["suit_counts"]["0"]["trump"] == [0, 12]
    assert "KS" in inf["can_hold_pair"]["0"] and "KS" not in inf["can_hold_pair"]["2"]
    # the banker knows the buried cards and holds every spade left: no kitty holder, no spade elsewhere
    banker = infer_json(track(record, 0, Position.parse("1.4", record)))
    assert "kitty" not in banker["holdings"]
    assert banker["suit_counts"]["1"]["S"] == [0, 0] and banker["holdings"]["2"]["KC"] == [0, 4]


@pytest.mark.parametrize("decks", [1, 3, 4])
def test_recount_agrees_with_the_observer(decks):
    width = {1: 1, 3: 3, 4: 4}[decks]
    tricks = [{"leader": 0, "plays": [["AS"] * width, ["3H"] * width, ["3C"] * width, ["3D"] * width]},
              {"leader": 0, "plays": [["KS"] * width, ["4H"] * width, ["4C"] * width, ["4D"] * width]}]
    record = make(decks, tricks)
    for at in ("1.0", "1.1", "1.2", "1.3", "1.4", "2.1", "2.4", "end"):
        position = Position.parse(at, record)
        for seat in range(4):
            observed = facts_json(track(record, seat, position), at)
            assert observed == facts_json(recount(record, seat, position), at), (at, seat)
            assert_invariants(observed, decks)


@pytest.mark.parametrize("lead, caps", [
    # a single A and a triple of 9: nothing of spades above the ace; two at most of a face above the 9s
    ("AS 9S 9S 9S", {"AS": 2, "KS": 2, "QS": 2, "JS": 2, "10S": 2}),
    # the lowest pair (Q) caps the faces above it at one, the triple of 9 the others at two
    ("AS QS QS 9S 9S 9S", {"AS": 1, "KS": 1, "QS": 2, "JS": 2, "10S": 2}),
    # a single Q: no card above it
    ("QS 9S 9S 9S", {"AS": 0, "KS": 0, "QS": 2, "JS": 2, "10S": 2}),
])
def test_a_standing_throw_with_a_triple_caps_the_others(lead, caps):
    ctx = TrumpContext.parse("2", "none", Rules.parse("three-deck"))
    throw = Lead.of([Card.parse(card) for card in lead.split()], ctx)
    expected = {Card.parse(card).index: cap for card, cap in caps.items()}
    assert throw_caps(throw, ctx) == expected
    assert _proved_caps(throw, ctx) == expected


@pytest.mark.parametrize("lead, play, shown", [
    ("9S 9S 9S", "KS QS 3S", True),      # a pair (or triple) held would have been owed
    ("9S 9S 9S", "KS KS 3S", False),     # as many pairs as the lead: nothing shown
    ("9S 9S", "KS 3S", True),
    ("KS KS QS QS", "AS AS 3S 4S", True),  # a second pair would have been owed
])
def test_three_deck_fewer_pairs_than_the_lead_shows_no_pair(lead, play, shown):
    ctx = TrumpContext.parse("2", "none", Rules.parse("three-deck"))
    cards = [Card.parse(card) for card in play.split()]
    assert shows_no_pair(Lead.of([Card.parse(card) for card in lead.split()], ctx), cards, ctx) is shown


@pytest.mark.parametrize("follow, shown", [("strict", True), ("protect_longer", False)])
def test_under_protect_longer_singles_on_a_pair_leave_room_for_a_triple(follow, shown):
    # a follower keeping ♠QQQ need not break it for the pair slot (rules.md §4 protect_longer): playing
    # two singles then proves no pair outside a wider tuple, so no_pairs (no pair at all) is not shown
    ctx = TrumpContext.parse("2", "none", Rules.parse({"preset": "three-deck", "follow": follow}))
    lead = Lead.of([Card.parse("9S"), Card.parse("9S")], ctx)
    assert shows_no_pair(lead, [Card.parse("KS"), Card.parse("3S")], ctx) is shown


DECK_DEALS = Path(__file__).parents[1] / "data" / "decks"
LIVE_KEYS = {1: ["live_pairs", "live_tractors"], 3: ["live_pairs", "live_triples", "live_tractors",
                                                     "live_triple_tractors"],
             4: ["live_pairs", "live_triples", "live_quads", "live_tractors", "live_triple_tractors",
                 "live_quad_tractors"]}


@pytest.mark.parametrize("preset", ["one-deck", "three-deck", "four-deck"])
def test_deal_track_on_a_bot_deal_of_each_deck_count(capsys, preset):
    """`deal track --tier 2` on tests/data/decks/: the live keys of the deck count, the counts and points
    conserved, and every tier-2 bound holding the seat's (or the kitty's) real cards."""
    path = DECK_DEALS / f"{preset}.json"
    record = load_record(path)
    decks = record.rules.decks
    spots = [Position(number, k) for number, trick in enumerate(record.tricks, start=1)
             for k in range(len(trick.plays) + 1)][::9] + [Position.parse("end", record)]
    for position in spots:
        state = state_at(record, position)
        for seat in range(4):
            at = str(position)
            assert main(["deal", "track", str(path), "--seat", str(seat), "--at", at, "--tier", "2"]) == 0
            f = json.loads(capsys.readouterr().out)
            for entry in f["suits"].values():
                assert [key for key in entry if key.startswith("live_")] == LIVE_KEYS[decks]
            if position.is_end:
                continue
            assert_invariants(f, decks)
            for name, entry in f["suits"].items():
                faces = record.ctx.faces_by_suit[("S", "H", "C", "D", "trump").index(name)]
                known = 0 if seat != record.banker else sum(1 for card in record.buried if card.index in faces)
                assert entry["played"] + entry["mine"] + entry["unseen"] + known == decks * len(faces)
            truth = {str(q): dict(state.hands[q]) for q in range(4)}
            truth["kitty"] = {card.index: sum(1 for c in record.buried if c is card) for card in record.buried}
            for holder, holdings in f["inference"]["holdings"].items():
                for card, (low, high) in holdings.items():
                    assert low <= truth[holder].get(Card.parse(card).index, 0) <= high, (at, seat, holder, card)


@pytest.mark.parametrize("spec", ["three-deck", "four-deck", {"preset": "four-deck", "follow": "tractor_on_tractor_only"},
                                  {"preset": "three-deck", "follow": "protect_longer"}])
def test_the_no_pair_shortcut_agrees_with_the_engine(spec):
    """The tracker decides a lead of pairs and singles by counting pairs; on every such answer with
    fewer pairs in random deals the engine refuses the play to every holder of a further pair too."""
    rules = Rules.parse(spec)
    checked = 0
    for seed in range(12):
        record = parse_record(random_record(random.Random(seed), rules, throw_rate=0.1))
        ctx = record.ctx
        for event in public_events(record):
            lead = event.lead
            in_suit = [card for card in event.cards if ctx.suit_of[card.index] == lead.suit]
            if event.cards == lead.cards or len(in_suit) < lead.size or not lead.pairs:
                continue
            fewer = sum(copies // 2 for copies in face_counts(in_suit).values()) < lead.pairs
            assert shows_no_pair(lead, in_suit, ctx) is (fewer and no_legal_holder(lead, in_suit, ctx))
            checked += fewer
    assert checked >= 20


def triple_lead_answered(follow: str, seat1_spades: list[str]):
    """A four-deck deal (level 2, no trump) whose first trick is ♠555 led by seat 0 and answered by seat 1
    with ♠K Q 9 out of `seat1_spades`; seats 2 and 3 hold no ♠ and discard."""
    *held, kitty = extras(4, "2")
    hands = [suit_cards(suit, 4) + extra for suit, extra in zip("SHCD", held, strict=True)]
    hearts = ["3H"] * 4 + ["4H"] * 3
    for card in seat1_spades:
        hands[0].remove(card)
    for card in hearts:
        hands[1].remove(card)
    hands[0] += hearts
    hands[1] += seat1_spades
    plays = [["5S"] * 3, ["KS", "QS", "9S"], ["AC", "KC", "QC"], ["AD", "KD", "QD"]]
    data = {"format": FORMAT, "rules": {"preset": "four-deck", "follow": follow}, "level": "2", "trump": "none",
            "banker": 0, "hands": hands, "kitty": kitty, "buried": list(kitty),
            "tricks": [{"leader": 0, "plays": plays}]}
    record = parse_record(data)
    replay(record)
    return record


@pytest.mark.parametrize("follow, seat1_spades, pairless", [
    # protect_longer (rules.md §4): a held quad is never made to give a triple or a pair, so a hand holding
    # ♠8888 may answer ♠555 with three singles — the play proves no ♠ pair is missing from seat 1's hand
    ("protect_longer", ["KS", "QS", "9S", "8S", "8S", "8S", "8S"], False),
    # strict: any held pair (a quad gives one, or a triple) is owed, so the same singles prove seat 1 has none
    ("strict", ["KS", "QS", "9S", "7S", "6S", "4S", "3S"], True),
])
def test_a_quad_kept_whole_under_protect_longer_is_no_pairlessness(follow, seat1_spades, pairless):
    """Issue 21 (a mutant of the tracker's width test survived): the fact is stated from the rule above,
    not from the helper the tracker and the recount share; seats 2 and 3 discarded and show voids instead."""
    record = triple_lead_answered(follow, seat1_spades)
    for seat in (0, 2, 3):
        shown = facts(record, seat, "1.4")["no_pairs"]
        assert ("S" in shown["1"]) is pairless, (seat, shown)
        assert recount(record, seat, Position.parse("1.4", record)).no_pairs[1] == (1 if pairless else 0)
