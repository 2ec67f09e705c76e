"""Hand-made positions with exact expected tracking facts (tracking.md tier 1, some of tier 2).

Every record is written by hand as a `jipai-deal/1` object, validated by `replay`, and every
expected value below is worked out from tracking.md / rules.md, not taken from the program.

Most deals start from a *base deal* (level L, the level cards in the kitty): seat 0 holds the
24 non-level spades + BJ, seat 1 the hearts + BJ, seat 2 the clubs + SJ, seat 3 the diamonds
+ SJ, the kitty the eight level cards; `swap` then moves single cards between holders.
"""
from __future__ import annotations

import dataclasses
import functools

import pytest

from trainer.records import FORMAT, Position, parse_record, replay
from trainer.tracking.facts import facts_json
from trainer.engine import Card
from trainer.tracking.inference import Inference, InconsistentError, infer_json
from trainer.tracking.recount import recount
from trainer.tracking.tracker import track

RANKS = "A K Q J 10 9 8 7 6 5 4 3 2".split()
ALL_SUITS = ["S", "H", "C", "D", "trump"]
KITTY = "kitty"
POINTS = {"5": 5, "10": 10, "K": 10}


# -- helpers -------------------------------------------------------------------------------------
def c(text: str) -> list[str]:
    """A list of cards from text."""
    return text.split()


def both(suit: str, ranks: str) -> list[str]:
    """Two copies of each rank of `suit`, in the order given (strongest first when written so)."""
    return [rank + suit for rank in ranks.split() for _ in range(2)]


def side(suit: str, level: str) -> list[str]:
    """All 24 cards of `suit` but the level rank, two copies each, strongest first."""
    return both(suit, " ".join(rank for rank in RANKS if rank != level))


def base(level: str = "2") -> tuple[list[list[str]], list[str]]:
    hands = [side("S", level) + ["BJ"], side("H", level) + ["BJ"],
             side("C", level) + ["SJ"], side("D", level) + ["SJ"]]
    kitty = [level + suit for suit in "SHCD" for _ in range(2)]
    return hands, kitty


def swap(hands: list[list[str]], kitty: list[str], a: str, holder_a, b: str, holder_b) -> None:
    """Exchange card `a` held by `holder_a` with card `b` held by `holder_b` (seat or KITTY)."""
    def pile(holder):
        return kitty if holder == KITTY else hands[holder]
    pile(holder_a).remove(a)
    pile(holder_b).remove(b)
    pile(holder_a).append(b)
    pile(holder_b).append(a)


def trick(leader: int, *plays: str, attempt: str | None = None) -> dict:
    out: dict = {"leader": leader}
    if attempt is not None:
        out["attempt"] = c(attempt)
    out["plays"] = [c(play) for play in plays]
    return out


def make(hands, kitty, buried, tricks, *, level="2", trump="none", banker=0, rules="standard", declarations=()):
    data = {"format": FORMAT, "rules": rules, "level": level, "trump": trump, "banker": banker,
            "hands": [list(hand) for hand in hands], "kitty": list(kitty), "buried": list(buried),
            "tricks": tricks}
    if declarations:
        data["declarations"] = [{"seat": seat, "cards": c(cards)} for seat, cards in declarations]
    record = parse_record(data)
    replay(record)          # every hand-made record must be legal
    return record


def facts(record, seat: int, at: str) -> dict:
    position = Position.parse(at, record)
    return facts_json(track(record, seat, position), str(position))


def inference(record, seat: int, at: str) -> dict:
    return infer_json(track(record, seat, Position.parse(at, record)))


def card_points(card: str) -> int:
    return POINTS.get(card[:-1], 0) if card not in ("BJ", "SJ") else 0


def assert_invariants(f: dict) -> None:
    """tracking.md's invariants that can be read off the JSON alone. At `end` of a complete deal
    `score.unplayed` is 0 by its own definition, so the points sum then falls short by the kitty's
    points (the spec's invariant cannot hold there; see the kitty-turned-over decision)."""
    plays = f["trick"]["plays"]
    table = 0 if len(plays) == 4 else sum(card_points(card) for play in plays for card in play)
    if not (f["at"] == "end" and not any(f["hand_sizes"])):
        assert sum(f["points_won"]) + table + f["score"]["unplayed"] == 200
    assert sum(s["points_unplayed"] for s in f["suits"].values()) == f["score"]["unplayed"]
    assert f["trumps"]["unseen"] == f["suits"]["trump"]["unseen"] == len(f["trumps"]["unseen_cards"])


def empty_suit(played: int) -> dict:
    return {"played": played, "mine": 0, "unseen": 0, "points_unplayed": 0, "points_unseen": 0,
            "top_unplayed": [], "top_in_play": [], "top_unseen": [], "unseen_cards": [],
            "higher_than_mine": {}, "live_pairs": [], "live_tractors": []}


# -- scenario A: the base deal at level 2, no trump, before the first lead --------------------------
# Banker 0 picks up the eight 2s and buries AS AS KS 10S 5S 2H 2C 2D (25 of the 50 spade points).
# Banker's hand: KS QS QS JS JS 10S 9S 9S 8S 8S 7S 7S 6S 6S 5S 4S 4S 3S 3S (19 spades)
#                + BJ 2S 2S 2H 2C 2D (6 trumps).
@functools.cache
def deal_a():
    hands, kitty = base("2")
    return make(hands, kitty, c("AS AS KS 10S 5S 2H 2C 2D"), [])


BANKER_SPADES_A = c("KS QS QS JS JS 10S 9S 9S 8S 8S 7S 7S 6S 6S 5S 4S 4S 3S 3S")


def test_key_order_top_level_and_nested():
    f = facts(deal_a(), 1, "0.0")
    assert list(f) == ["seat", "at", "level", "trump", "trumps", "suits", "voids", "revealed_voids", "no_pairs",
                       "no_tractors", "points_won", "score", "hand_sizes", "trick"]
    assert (f["seat"], f["at"], f["level"], f["trump"]) == (1, "1.0", "2", "none")
    assert list(f["trumps"]) == ["played", "mine", "unseen", "unseen_cards", "top"]
    assert list(f["trumps"]["top"]) == ["BJ", "SJ", "2S", "2H", "2C", "2D"]
    assert list(f["suits"]) == ["S", "H", "C", "D", "trump"]
    for entry in f["suits"].values():
        assert list(entry) == ["played", "mine", "unseen", "points_unplayed", "points_unseen", "top_unplayed",
                               "top_in_play", "top_unseen", "unseen_cards", "higher_than_mine", "live_pairs",
                               "live_tractors"]
    assert list(f["voids"]) == ["0", "2", "3"]
    assert list(f["revealed_voids"]) == ["0", "1", "2", "3"]
    assert list(f["no_pairs"]) == ["0", "2", "3"]
    assert list(f["score"]) == ["attackers", "banker_side", "unplayed", "to_take_over"]
    assert list(f["trick"]) == ["leader", "plays", "winning"]
    assert list(facts(deal_a(), 0, "0.0")["voids"]) == ["1", "2", "3"]


def test_key_order_with_a_trump_suit():
    f = facts(deal_l5(), 2, "0.0")
    assert (f["level"], f["trump"]) == ("5", "H")
    assert list(f["suits"]) == ["S", "C", "D", "trump"]          # the trump suit has no entry of its own
    assert list(f["trumps"]["top"]) == ["BJ", "SJ", "5H", "5S", "5C", "5D"]


def test_start_non_banker_trumps():
    f = facts(deal_a(), 1, "0.0")
    assert f["trumps"] == {
        "played": 0, "mine": 1, "unseen": 11,
        "unseen_cards": c("BJ SJ SJ 2S 2S 2H 2H 2C 2C 2D 2D"),
        "top": {"BJ": 1, "SJ": 2, "2S": 2, "2H": 2, "2C": 2, "2D": 2}}


def test_start_banker_trumps_leave_out_the_buried_cards():
    f = facts(deal_a(), 0, "0.0")
    # 12 trumps: mine BJ 2S 2S 2H 2C 2D, buried 2H 2C 2D, unseen BJ SJ SJ
    assert f["trumps"] == {
        "played": 0, "mine": 6, "unseen": 3, "unseen_cards": c("BJ SJ SJ"),
        "top": {"BJ": 1, "SJ": 2, "2S": 0, "2H": 0, "2C": 0, "2D": 0}}
    assert f["suits"]["trump"] == {
        "played": 0, "mine": 6, "unseen": 3, "points_unplayed": 0, "points_unseen": 0,
        "top_unplayed": ["BJ"], "top_in_play": ["BJ"], "top_unseen": ["BJ"], "unseen_cards": c("BJ SJ SJ"),
        "higher_than_mine": {"BJ": 0, "2S": 3, "2H": 3, "2C": 3, "2D": 3},
        "live_pairs": ["SJ"], "live_tractors": []}


def test_start_banker_spades_know_the_buried_cards():
    f = facts(deal_a(), 0, "0.0")
    assert f["suits"]["S"] == {
        "played": 0, "mine": 19, "unseen": 0,
        "points_unplayed": 50,            # kitty included
        "points_unseen": 0,
        "top_unplayed": ["AS"],           # both AS are in the kitty: unplayed
        "top_in_play": ["KS"],            # ... but not in play for the banker
        "top_unseen": [],
        "unseen_cards": [],
        "higher_than_mine": {face: 0 for face in c("KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S")},
        "live_pairs": [], "live_tractors": []}
    # hearts: all 24 unseen for the banker
    hearts = side("H", "2")
    assert f["suits"]["H"] == {
        "played": 0, "mine": 0, "unseen": 24, "points_unplayed": 50, "points_unseen": 50,
        "top_unplayed": ["AH"], "top_in_play": ["AH"], "top_unseen": ["AH"], "unseen_cards": hearts,
        "higher_than_mine": {}, "live_pairs": hearts[::2], "live_tractors": [hearts[::2]]}
    # no spade is unseen for the banker: every other seat is void in spades (exhaustion)
    assert f["voids"] == {"1": ["S"], "2": ["S"], "3": ["S"]}
    assert f["revealed_voids"] == {"0": [], "1": [], "2": [], "3": []}


def test_start_non_banker_spades_include_the_buried_cards():
    f = facts(deal_a(), 2, "0.0")
    spades = side("S", "2")
    assert f["suits"]["S"] == {
        "played": 0, "mine": 0, "unseen": 24, "points_unplayed": 50, "points_unseen": 50,
        "top_unplayed": ["AS"], "top_in_play": ["AS"], "top_unseen": ["AS"], "unseen_cards": spades,
        "higher_than_mine": {}, "live_pairs": spades[::2], "live_tractors": [spades[::2]]}
    # seat 2 holds all 24 clubs: the others are void in clubs by exhaustion; spades stay open
    assert f["voids"] == {"0": ["C"], "1": ["C"], "3": ["C"]}
    assert f["suits"]["C"]["higher_than_mine"] == {face: 0 for face in side("C", "2")[::2]}
    assert f["trumps"]["top"] == {"BJ": 2, "SJ": 1, "2S": 2, "2H": 2, "2C": 2, "2D": 2}
    # no trump: SJ + the level cards (one shared position) make a tractor
    assert f["suits"]["trump"]["live_pairs"] == c("BJ 2S 2H 2C 2D")
    assert f["suits"]["trump"]["live_tractors"] == []          # BJ alone (SJ: one unseen copy)
    assert_invariants(f)


def test_start_trumps_tractor_sj_with_level_cards():
    f = facts(deal_a(), 1, "0.0")
    assert f["suits"]["trump"]["live_pairs"] == c("SJ 2S 2H 2C 2D")
    assert f["suits"]["trump"]["live_tractors"] == [c("SJ 2S 2H 2C 2D")]
    assert f["suits"]["trump"]["higher_than_mine"] == {"BJ": 0}


def test_start_misc_fields():
    f = facts(deal_a(), 3, "0.0")
    assert f["points_won"] == [0, 0, 0, 0]
    assert f["score"] == {"attackers": 0, "banker_side": 0, "unplayed": 200, "to_take_over": 80}
    assert f["hand_sizes"] == [25, 25, 25, 25]
    assert f["trick"] == {"leader": 0, "plays": [], "winning": None}
    assert f["no_pairs"] == {"0": [], "1": [], "2": []}
    assert facts(deal_a(), 3, "1.0") == f
    # a record without tricks: `end` is the same moment, the deal is not complete (no kitty turned over)
    at_end = facts(deal_a(), 3, "end")
    assert at_end["at"] == "end"
    assert {k: v for k, v in at_end.items() if k != "at"} == {k: v for k, v in f.items() if k != "at"}


# -- scenario L5: level 5, ♥ trump ----------------------------------------------------------------
# base deal at level 5 (kitty: the eight 5s, buried as they are); seat 2's 3C ↔ seat 0's 9S.
@functools.cache
def deal_l5():
    hands, kitty = base("5")
    swap(hands, kitty, "3C", 2, "9S", 0)
    return make(hands, kitty, list(kitty), [], level="5", trump="H")


def test_level5_heart_trump_non_banker():
    f = facts(deal_l5(), 2, "0.0")
    trump_cards = c("BJ BJ SJ 5H 5H 5S 5S 5C 5C 5D 5D") + both("H", "A K Q J 10 9 8 7 6 4 3 2")
    assert f["trumps"] == {"played": 0, "mine": 1, "unseen": 35, "unseen_cards": trump_cards,
                           "top": {"BJ": 2, "SJ": 1, "5H": 2, "5S": 2, "5C": 2, "5D": 2}}
    spades = both("S", "A K Q J 10") + ["9S"] + both("S", "8 7 6 4 3 2")
    clubs_mine = c("AC KC QC JC 10C 9C 8C 7C 6C 4C 3C 2C")
    diamonds = side("D", "5")
    assert f["suits"] == {
        "S": {"played": 0, "mine": 1, "unseen": 23, "points_unplayed": 40, "points_unseen": 40,
              "top_unplayed": ["AS"], "top_in_play": ["AS"], "top_unseen": ["AS"], "unseen_cards": spades,
              "higher_than_mine": {"9S": 10},
              "live_pairs": c("AS KS QS JS 10S 8S 7S 6S 4S 3S 2S"),
              # the 9 (one unseen copy) splits the run; 6-4 is consecutive (the 5 is trump)
              "live_tractors": [c("AS KS QS JS 10S"), c("8S 7S 6S 4S 3S 2S")]},
        "C": {"played": 0, "mine": 23, "unseen": 1, "points_unplayed": 40, "points_unseen": 0,
              "top_unplayed": ["AC"], "top_in_play": ["AC"], "top_unseen": ["3C"], "unseen_cards": ["3C"],
              "higher_than_mine": {face: (1 if face == "2C" else 0) for face in clubs_mine},   # only 2C < 3C
              "live_pairs": [], "live_tractors": []},
        "D": {"played": 0, "mine": 0, "unseen": 24, "points_unplayed": 40, "points_unseen": 40,
              "top_unplayed": ["AD"], "top_in_play": ["AD"], "top_unseen": ["AD"], "unseen_cards": diamonds,
              "higher_than_mine": {}, "live_pairs": diamonds[::2], "live_tractors": [diamonds[::2]]},
        "trump": {"played": 0, "mine": 1, "unseen": 35, "points_unplayed": 80, "points_unseen": 80,
                  "top_unplayed": ["BJ"], "top_in_play": ["BJ"], "top_unseen": ["BJ"],
                  "unseen_cards": trump_cards, "higher_than_mine": {"SJ": 2},
                  "live_pairs": c("BJ 5H 5S 5C 5D AH KH QH JH 10H 9H 8H 7H 6H 4H 3H 2H"),
                  # BJ stands alone (SJ has one unseen copy); 主5, 副5 (shared), then ♥A… form one run
                  "live_tractors": [c("5H 5S 5C 5D AH KH QH JH 10H 9H 8H 7H 6H 4H 3H 2H")]}}
    assert f["voids"] == {"0": [], "1": [], "3": []}
    assert_invariants(f)


def test_level5_heart_trump_banker():
    f = facts(deal_l5(), 0, "0.0")
    # banker: BJ + 23 spades + 3C, the eight 5s buried and known
    assert f["trumps"]["top"] == {"BJ": 1, "SJ": 2, "5H": 0, "5S": 0, "5C": 0, "5D": 0}
    assert (f["trumps"]["played"], f["trumps"]["mine"], f["trumps"]["unseen"]) == (0, 1, 27)
    trump = f["suits"]["trump"]
    assert (trump["points_unplayed"], trump["points_unseen"]) == (80, 40)   # the eight buried 5s: 40
    assert trump["top_unplayed"] == ["BJ"]
    assert f["suits"]["S"]["points_unplayed"] == 40
    assert f["suits"]["S"]["points_unseen"] == 0
    assert f["suits"]["S"]["higher_than_mine"]["AS"] == 0
    assert f["suits"]["C"]["unseen"] == 23
    # seat 0 gave one 9S to seat 2: that spade is unseen for the banker, so nobody is void in ♠
    assert f["suits"]["S"]["unseen"] == 1
    assert f["suits"]["S"]["unseen_cards"] == ["9S"]
    assert f["voids"] == {"1": [], "2": [], "3": []}


# -- scenario B: plays, ruffs, revealed voids, points --------------------------------------------
# Level 2, no trump, banker 0, buried = the eight 2s. Swaps: seat 0 AS ↔ seat 1 AH,
# seat 0 KS KS ↔ seat 2 KC KC, seat 0 5S ↔ seat 3 5D.
#  1. 0: QS QS | 1: AS 3H (void) | 2: KS KS (wins) | 3: 5S 3D (void)      → seat 2, 25 points
#  2. 2: 10C   | 3: SJ (ruff, wins) | 0: KC | 1: 4H                         → seat 3, 20 points
#  3. 3: AD    | 0: 5D   (the record stops here)
@functools.cache
def deal_b():
    hands, kitty = base("2")
    swap(hands, kitty, "AS", 0, "AH", 1)
    swap(hands, kitty, "KS", 0, "KC", 2)
    swap(hands, kitty, "KS", 0, "KC", 2)
    swap(hands, kitty, "5S", 0, "5D", 3)
    tricks = [trick(0, "QS QS", "AS 3H", "KS KS", "5S 3D"),
              trick(2, "10C", "SJ", "KC", "4H"),
              trick(3, "AD", "5D")]
    return make(hands, kitty, list(kitty), tricks)


def test_trick_field_at_every_kind_of_position():
    record = deal_b()
    assert facts(record, 1, "1.0")["trick"] == {"leader": 0, "plays": [], "winning": None}
    assert facts(record, 1, "1.1")["trick"] == {"leader": 0, "plays": [["QS", "QS"]], "winning": 0}
    assert facts(record, 1, "1.3")["trick"] == {"leader": 0, "plays": [["QS", "QS"], ["AS", "3H"], ["KS", "KS"]],
                                                 "winning": 2}
    assert facts(record, 1, "1.4")["trick"] == {
        "leader": 0, "plays": [["QS", "QS"], ["AS", "3H"], ["KS", "KS"], ["5S", "3D"]], "winning": 2}
    assert facts(record, 1, "2.0")["trick"] == {"leader": 2, "plays": [], "winning": None}
    assert facts(record, 1, "2.1")["trick"] == {"leader": 2, "plays": [["10C"]], "winning": 2}
    assert facts(record, 1, "2.2")["trick"] == {"leader": 2, "plays": [["10C"], ["SJ"]], "winning": 3}
    assert facts(record, 1, "2.4")["trick"] == {"leader": 2, "plays": [["10C"], ["SJ"], ["KC"], ["4H"]],
                                                 "winning": 3}
    assert facts(record, 1, "3.0")["trick"] == {"leader": 3, "plays": [], "winning": None}
    assert facts(record, 1, "3.2")["trick"] == {"leader": 3, "plays": [["AD"], ["5D"]], "winning": 3}


@pytest.mark.parametrize(("at", "won", "score", "sizes"), [
    ("1.0", [0, 0, 0, 0], [0, 0, 200, 80], [25, 25, 25, 25]),
    ("1.3", [0, 0, 0, 0], [0, 0, 180, 80], [23, 23, 23, 25]),     # KS KS on the table
    ("1.4", [0, 0, 25, 0], [0, 25, 175, 80], [23, 23, 23, 23]),
    ("2.1", [0, 0, 25, 0], [0, 25, 165, 80], [23, 23, 22, 23]),
    ("2.4", [0, 0, 25, 20], [20, 25, 155, 60], [22, 22, 22, 22]),
    ("3.1", [0, 0, 25, 20], [20, 25, 155, 60], [22, 22, 22, 21]),
    ("3.2", [0, 0, 25, 20], [20, 25, 150, 60], [21, 22, 22, 21]),
])
def test_points_won_score_hand_sizes(at, won, score, sizes):
    for seat in range(4):
        f = facts(deal_b(), seat, at)
        assert f["points_won"] == won
        assert f["score"] == dict(zip(["attackers", "banker_side", "unplayed", "to_take_over"], score))
        assert f["hand_sizes"] == sizes
        assert_invariants(f)


def test_revealed_voids_and_voids_by_failing_to_follow():
    record = deal_b()
    f = facts(record, 1, "2.4")
    assert f["revealed_voids"] == {"0": [], "1": ["S", "C"], "2": [], "3": ["S", "C"]}
    assert f["voids"] == {"0": [], "2": [], "3": ["S", "C"]}
    assert facts(record, 1, "2.1")["revealed_voids"] == {"0": [], "1": ["S"], "2": [], "3": ["S"]}
    assert facts(record, 1, "2.2")["revealed_voids"] == {"0": [], "1": ["S"], "2": [], "3": ["S", "C"]}
    # the banker holds the other 18 spades: none is unseen, so every other seat is void in ♠ (exhaustion)
    banker = facts(record, 0, "2.4")
    assert banker["revealed_voids"] == f["revealed_voids"]
    assert banker["voids"] == {"1": ["S", "C"], "2": ["S"], "3": ["S", "C"]}
    assert banker["suits"]["S"]["unseen"] == 0


def test_all_suits_of_a_non_banker_mid_trick():
    f = facts(deal_b(), 1, "3.2")
    assert f["trumps"] == {"played": 1, "mine": 1, "unseen": 10,
                           "unseen_cards": c("BJ SJ 2S 2S 2H 2H 2C 2C 2D 2D"),
                           "top": {"BJ": 1, "SJ": 1, "2S": 2, "2H": 2, "2C": 2, "2D": 2}}
    spades = c("AS JS JS 10S 10S 9S 9S 8S 8S 7S 7S 6S 6S 5S 4S 4S 3S 3S")
    clubs = c("AC AC KC QC QC JC JC 10C 9C 9C 8C 8C 7C 7C 6C 6C 5C 5C 4C 4C 3C 3C")
    diamonds = c("AD KD KD QD QD JD JD 10D 10D 9D 9D 8D 8D 7D 7D 6D 6D 5D 4D 4D 3D")
    assert f["suits"] == {
        "S": {"played": 6, "mine": 0, "unseen": 18, "points_unplayed": 25, "points_unseen": 25,
              "top_unplayed": ["AS"], "top_in_play": ["AS"], "top_unseen": ["AS"], "unseen_cards": spades,
              "higher_than_mine": {}, "live_pairs": c("JS 10S 9S 8S 7S 6S 4S 3S"),
              "live_tractors": [c("JS 10S 9S 8S 7S 6S"), c("4S 3S")]},
        "H": {"played": 2, "mine": 21, "unseen": 1, "points_unplayed": 50, "points_unseen": 0,
              "top_unplayed": ["AH"], "top_in_play": ["AH"], "top_unseen": ["AH"], "unseen_cards": ["AH"],
              "higher_than_mine": {"AH": 0, "KH": 1, "QH": 1, "JH": 1, "10H": 1, "9H": 1, "8H": 1, "7H": 1,
                                   "6H": 1, "5H": 1, "4H": 1, "3H": 1},
              "live_pairs": [], "live_tractors": []},
        "C": {"played": 2, "mine": 0, "unseen": 22, "points_unplayed": 30, "points_unseen": 30,
              "top_unplayed": ["AC"], "top_in_play": ["AC"], "top_unseen": ["AC"], "unseen_cards": clubs,
              "higher_than_mine": {}, "live_pairs": c("AC QC JC 9C 8C 7C 6C 5C 4C 3C"),
              "live_tractors": [c("QC JC"), c("9C 8C 7C 6C 5C 4C 3C")]},
        "D": {"played": 3, "mine": 0, "unseen": 21, "points_unplayed": 45, "points_unseen": 45,
              "top_unplayed": ["AD"], "top_in_play": ["AD"], "top_unseen": ["AD"], "unseen_cards": diamonds,
              "higher_than_mine": {}, "live_pairs": c("KD QD JD 10D 9D 8D 7D 6D 4D"),
              "live_tractors": [c("KD QD JD 10D 9D 8D 7D 6D")]},
        "trump": {"played": 1, "mine": 1, "unseen": 10, "points_unplayed": 0, "points_unseen": 0,
                  "top_unplayed": ["BJ"], "top_in_play": ["BJ"], "top_unseen": ["BJ"],
                  "unseen_cards": c("BJ SJ 2S 2S 2H 2H 2C 2C 2D 2D"), "higher_than_mine": {"BJ": 0},
                  # four level-card pairs share one position: no tractor
                  "live_pairs": c("2S 2H 2C 2D"), "live_tractors": []}}
    assert f["voids"] == {"0": [], "2": [], "3": ["S", "C"]}
    assert f["no_pairs"] == {"0": [], "2": [], "3": []}
    assert_invariants(f)


def test_t4_is_the_next_t0_but_for_the_trick():
    for seat in range(4):
        done = facts(deal_b(), seat, "1.4")
        nxt = facts(deal_b(), seat, "2.0")
        assert {**done, "at": "-", "trick": None} == {**nxt, "at": "-", "trick": None}


def test_end_of_an_unfinished_record_is_its_last_play():
    record = deal_b()
    for seat in range(4):
        at_end = facts(record, seat, "end")
        last = facts(record, seat, "3.2")
        assert at_end["at"] == "end"
        assert {k: v for k, v in at_end.items() if k != "at"} == {k: v for k, v in last.items() if k != "at"}
        assert at_end["score"]["unplayed"] == 150      # nothing turned over, no kitty bonus


# -- scenario C: no pairs, and the kitty never makes a pair live ------------------------------------
# Level 2, no trump, banker 0 who buries KS KS (+ six 2s).
#  1. 0: QS QS | 1: 3H 3H (void) | 2: 9S 7S (three single spades, no pair) | 3: AS AS (wins)
#  2. 3: 4S    | 0: 6D (void)    | 1: 4H                                   | 2: 3S
def hands_c():
    hands = [
        c("QS QS KS KS BJ") + both("D", "A K Q J 10 9 8 7 6 5"),
        side("H", "2") + ["BJ"],
        both("C", "A K Q J 10 9 8 7 6 5") + c("4C 9S 7S 3S SJ"),
        both("S", "A J 10") + c("9S") + both("S", "8") + c("7S") + both("S", "6 5 4") + c("3S")
        + c("3C 3C 4C 4D 4D 3D 3D SJ"),
    ]
    kitty = c("2S 2S 2H 2H 2C 2C 2D 2D")
    return hands, kitty


@functools.cache
def deal_c(rules="standard"):
    hands, kitty = hands_c()
    tricks = [trick(0, "QS QS", "3H 3H", "9S 7S", "AS AS"),
              trick(3, "4S", "6D", "4H", "3S")]
    rules_value = {"preset": "standard", "follow": "loose"} if rules == "loose" else rules
    return make(hands, kitty, c("KS KS 2S 2S 2H 2H 2C 2C"), tricks, rules=rules_value)


def test_no_pairs_after_a_pair_answered_with_two_singles():
    f = facts(deal_c(), 3, "2.4")
    assert f["no_pairs"] == {"0": [], "1": [], "2": ["S"]}
    assert f["revealed_voids"] == {"0": ["S"], "1": ["S"], "2": [], "3": []}
    # two ♠K are unseen (buried, unknown to seat 3): seat 2 is not void in ♠
    assert f["voids"] == {"0": ["S"], "1": ["S"], "2": []}
    assert f["suits"]["S"] == {
        "played": 8, "mine": 14, "unseen": 2, "points_unplayed": 50, "points_unseen": 20,
        "top_unplayed": ["KS"], "top_in_play": ["KS"], "top_unseen": ["KS"], "unseen_cards": ["KS", "KS"],
        "higher_than_mine": {face: 2 for face in c("JS 10S 9S 8S 7S 6S 5S 4S 3S")},
        # ♠K ♠K could only be a pair in the kitty or in seat 2, who showed no pair: not live
        "live_pairs": [], "live_tractors": []}
    assert facts(deal_c(), 3, "1.2")["no_pairs"] == {"0": [], "1": [], "2": []}
    assert facts(deal_c(), 3, "1.3")["no_pairs"] == {"0": [], "1": [], "2": ["S"]}
    assert facts(deal_c(), 0, "1.4")["no_pairs"] == {"1": [], "2": ["S"], "3": []}


def test_no_pairs_not_under_loose_follow():
    f = facts(deal_c("loose"), 3, "2.4")
    assert f["no_pairs"] == {"0": [], "1": [], "2": []}
    assert f["revealed_voids"] == {"0": ["S"], "1": ["S"], "2": [], "3": []}
    assert f["suits"]["S"]["live_pairs"] == ["KS"]
    assert f["suits"]["S"]["live_tractors"] == []


def test_banker_top_in_play_and_runs_of_live_pairs():
    f = facts(deal_c(), 0, "2.4")
    # banker: no spade left in hand, KS KS buried; unseen: seat 3's 14 spades
    assert f["suits"]["S"] == {
        "played": 8, "mine": 0, "unseen": 14, "points_unplayed": 50, "points_unseen": 30,
        "top_unplayed": ["KS"], "top_in_play": ["JS"], "top_unseen": ["JS"],
        "unseen_cards": c("JS JS 10S 10S 9S 8S 8S 7S 6S 6S 5S 5S 4S 3S"),
        "higher_than_mine": {},
        "live_pairs": c("JS 10S 8S 6S 5S"),
        "live_tractors": [c("JS 10S"), c("6S 5S")]}
    assert f["voids"] == {"1": ["S"], "2": [], "3": []}
    assert f["trumps"] == {"played": 0, "mine": 3, "unseen": 3, "unseen_cards": c("BJ SJ SJ"),
                           "top": {"BJ": 1, "SJ": 2, "2S": 0, "2H": 0, "2C": 0, "2D": 0}}
    assert_invariants(f)


# -- scenario D: a complete deal; the attackers win the last trick -----------------------------------
# Level 2, no trump, banker 0. Seat 0 AS ↔ seat 1 AH. The banker buries KS KS 10S 10S 5S 5S 4S 4S
# (50 points) and keeps the eight 2s.
#  1.    0: BJ | 1: BJ | 2: SJ | 3: SJ                         → 0
#  2–5.  0: 2S 2S / 2H 2H / 2C 2C / 2D 2D; the others discard 33 44 66 77 of their suit → 0
#  6.    0: 3S | 1: AS | 2: 8C | 3: 8D                         → 1
#  7.    1: AH | 2: 9C | 3: 9D | 0: AH                         → 1
#  8–21. 1 leads KH KH QH QH JH JH 10H 10H 9H 9H 8H 8H 5H 5H, the others discard  → 1
# Points: seat 1 wins all 150 points in play; the kitty's 50 count double (single lead).
HEARTS_D = c("KH KH QH QH JH JH 10H 10H 9H 9H 8H 8H 5H 5H")
CLUBS_D = c("AC AC KC KC QC QC JC JC 10C 10C 9C 8C 5C 5C")
DIAMONDS_D = c("AD AD KD KD QD QD JD JD 10D 10D 9D 8D 5D 5D")
SPADES_D = c("AS QS QS JS JS 9S 9S 8S 8S 7S 7S 6S 6S 3S")


@functools.cache
def deal_d():
    hands, kitty = base("2")
    swap(hands, kitty, "AS", 0, "AH", 1)
    tricks = [trick(0, "BJ", "BJ", "SJ", "SJ")]
    for level_card, low in (("2S", "3"), ("2H", "4"), ("2C", "6"), ("2D", "7")):
        tricks.append(trick(0, f"{level_card} {level_card}", f"{low}H {low}H", f"{low}C {low}C", f"{low}D {low}D"))
    tricks.append(trick(0, "3S", "AS", "8C", "8D"))
    tricks.append(trick(1, "AH", "9C", "9D", "AH"))
    for h, cl, d, s in zip(HEARTS_D, CLUBS_D, DIAMONDS_D, SPADES_D):
        tricks.append(trick(1, h, cl, d, s))
    assert len(tricks) == 21
    return make(hands, kitty, c("KS KS 10S 10S 5S 5S 4S 4S"), tricks)


def test_complete_deal_end_full_object():
    f = facts(deal_d(), 1, "end")
    assert f == {
        "seat": 1, "at": "end", "level": "2", "trump": "none",
        "trumps": {"played": 12, "mine": 0, "unseen": 0, "unseen_cards": [],
                   "top": {"BJ": 0, "SJ": 0, "2S": 0, "2H": 0, "2C": 0, "2D": 0}},
        # played = cards played in tricks: the 8 buried spades are kitty known, not played
        "suits": {"S": empty_suit(16), "H": empty_suit(24), "C": empty_suit(24), "D": empty_suit(24),
                  "trump": empty_suit(12)},
        "voids": {"0": ALL_SUITS, "2": ALL_SUITS, "3": ALL_SUITS},
        "revealed_voids": {"0": ["H"], "1": ["trump"], "2": ["S", "H", "trump"], "3": ["S", "H", "trump"]},
        "no_pairs": {"0": [], "2": [], "3": []},
        "no_tractors": {"0": [], "2": [], "3": []},
        "points_won": [0, 150, 0, 0],
        "score": {"attackers": 250, "banker_side": 0, "unplayed": 0, "to_take_over": 0},
        "hand_sizes": [0, 0, 0, 0],
        "trick": {"leader": 1, "plays": [["5H"], ["5C"], ["5D"], ["3S"]], "winning": 1}}
    banker = facts(deal_d(), 0, "end")
    assert banker["score"] == f["score"]
    assert banker["suits"] == f["suits"]
    assert banker["voids"] == {"1": ALL_SUITS, "2": ALL_SUITS, "3": ALL_SUITS}


def test_complete_deal_last_play_before_the_kitty_is_turned_over():
    f = facts(deal_d(), 1, "21.4")
    assert f["points_won"] == [0, 150, 0, 0]
    assert f["score"] == {"attackers": 150, "banker_side": 0, "unplayed": 50, "to_take_over": 0}
    buried = c("KS KS 10S 10S 5S 5S 4S 4S")
    assert f["suits"]["S"] == {
        "played": 16, "mine": 0, "unseen": 8, "points_unplayed": 50, "points_unseen": 50,
        "top_unplayed": ["KS"], "top_in_play": ["KS"], "top_unseen": ["KS"], "unseen_cards": buried,
        "higher_than_mine": {},
        # every hand is empty: pairs in the kitty are never live
        "live_pairs": [], "live_tractors": []}
    assert f["voids"] == {"0": ALL_SUITS, "2": ALL_SUITS, "3": ALL_SUITS}
    assert_invariants(f)
    # the banker knows the kitty: nothing is unseen, but it is not played either
    banker = facts(deal_d(), 0, "21.4")
    assert banker["suits"]["S"]["unseen"] == 0
    assert banker["suits"]["S"]["points_unplayed"] == 50
    assert banker["suits"]["S"]["top_unplayed"] == ["KS"]
    assert banker["suits"]["S"]["top_in_play"] == []
    assert banker["score"]["unplayed"] == 50


def test_complete_deal_last_trick_mid_way():
    f = facts(deal_d(), 1, "21.3")
    assert f["points_won"] == [0, 135, 0, 0]
    assert f["score"] == {"attackers": 135, "banker_side": 0, "unplayed": 50, "to_take_over": 0}
    assert f["hand_sizes"] == [1, 0, 0, 0]
    assert f["trick"] == {"leader": 1, "plays": [["5H"], ["5C"], ["5D"]], "winning": 1}
    assert_invariants(f)


def test_live_pairs_need_a_seat_with_two_cards():
    f = facts(deal_d(), 1, "20.4")
    # unseen ♠: the 8 buried + seat 0's last 3S; seats 2 and 3 showed ♠ voids, seat 0 holds one card
    assert f["hand_sizes"] == [1, 1, 1, 1]
    assert f["voids"] == {"0": ["H", "trump"], "2": ["S", "H", "trump"], "3": ["S", "H", "trump"]}
    spades = f["suits"]["S"]
    assert spades["unseen_cards"] == c("KS KS 10S 10S 5S 5S 4S 4S 3S")
    assert (spades["live_pairs"], spades["live_tractors"]) == ([], [])
    assert facts(deal_d(), 1, "21.0") == {**f, "at": "21.0",
                                          "trick": {"leader": 1, "plays": [], "winning": None}}


def test_void_by_an_empty_hand():
    f = facts(deal_d(), 2, "21.1")
    # seat 1 has played its last card; seat 0 still holds 3S, seat 3 holds 5D; the kitty 8 spades
    assert f["hand_sizes"] == [1, 0, 1, 1]
    assert (f["suits"]["S"]["unseen"], f["suits"]["D"]["unseen"]) == (9, 1)
    assert f["revealed_voids"] == {"0": ["H"], "1": ["trump"], "2": ["S", "H", "trump"], "3": ["S", "H", "trump"]}
    assert f["voids"] == {"0": ["H", "C", "trump"],
                          "1": ["S", "H", "C", "D", "trump"],
                          "3": ["S", "H", "C", "trump"]}


def test_exhausted_trumps_make_everyone_void_without_revealing():
    banker = facts(deal_d(), 0, "1.4")
    # the four jokers are out, the banker holds all eight 2s
    assert banker["trumps"] == {"played": 4, "mine": 8, "unseen": 0, "unseen_cards": [],
                                "top": {"BJ": 0, "SJ": 0, "2S": 0, "2H": 0, "2C": 0, "2D": 0}}
    assert banker["revealed_voids"] == {"0": [], "1": [], "2": [], "3": []}
    assert banker["voids"] == {"1": ["trump"], "2": ["trump"], "3": ["trump"]}
    trump = banker["suits"]["trump"]
    assert (trump["top_unplayed"], trump["top_in_play"], trump["top_unseen"]) == (
        c("2S 2H 2C 2D"), c("2S 2H 2C 2D"), [])
    assert trump["higher_than_mine"] == {"2S": 0, "2H": 0, "2C": 0, "2D": 0}
    seat1 = facts(deal_d(), 1, "1.4")
    assert seat1["trumps"] == {"played": 4, "mine": 0, "unseen": 8,
                               "unseen_cards": c("2S 2S 2H 2H 2C 2C 2D 2D"),
                               "top": {"BJ": 0, "SJ": 0, "2S": 2, "2H": 2, "2C": 2, "2D": 2}}
    trump = seat1["suits"]["trump"]
    # all faces of the top strength are listed
    assert (trump["top_unplayed"], trump["top_in_play"], trump["top_unseen"]) == (
        c("2S 2H 2C 2D"), c("2S 2H 2C 2D"), c("2S 2H 2C 2D"))
    assert trump["live_pairs"] == c("2S 2H 2C 2D")
    assert trump["live_tractors"] == []
    assert seat1["voids"] == {"0": [], "2": [], "3": []}


# -- scenario E: failed throws under "competition" (throw_penalty per_card_10) ------------------------
# Level 2, no trump, banker 0, buried = the 2s. Seat 0 AS ↔ seat 1 AH.
#  1. 0 tries KS KS QS: seat 1's AS beats the single → forced QS | 1: AS (wins) | 2: 3C | 3: 3D
#  2. 1 tries KH KH QH: seat 0's AH beats the single → forced QH | 2: 4C | 3: 4D | 0: AH (wins)
#  3. 0: KS KS (the returned pair) | 1: 3H 3H  (the record stops)
@functools.cache
def deal_e(rules="competition"):
    hands, kitty = base("2")
    swap(hands, kitty, "AS", 0, "AH", 1)
    tricks = [trick(0, "QS", "AS", "3C", "3D", attempt="KS KS QS"),
              trick(1, "QH", "4C", "4D", "AH", attempt="KH KH QH"),
              trick(0, "KS KS", "3H 3H")]
    return make(hands, kitty, list(kitty), tricks, rules=rules)


def test_failed_throw_attempt_from_t1_on():
    record = deal_e()
    assert facts(record, 2, "1.0")["trick"] == {"leader": 0, "plays": [], "winning": None}
    assert facts(record, 2, "1.1")["trick"] == {"leader": 0, "attempt": ["KS", "KS", "QS"], "plays": [["QS"]],
                                                 "winning": 0}
    assert facts(record, 2, "1.4")["trick"] == {"leader": 0, "attempt": ["KS", "KS", "QS"],
                                                 "plays": [["QS"], ["AS"], ["3C"], ["3D"]], "winning": 1}
    assert facts(record, 2, "2.0")["trick"] == {"leader": 1, "plays": [], "winning": None}
    assert facts(record, 2, "2.1")["trick"] == {"leader": 1, "attempt": ["KH", "KH", "QH"], "plays": [["QH"]],
                                                 "winning": 1}
    assert facts(record, 2, "3.2")["trick"] == {"leader": 0, "plays": [["KS", "KS"], ["3H", "3H"]], "winning": 0}


@pytest.mark.parametrize(("at", "score"), [
    ("1.0", [0, 0, 200, 80]),
    ("1.1", [30, 0, 200, 50]),      # banker side failed 3 cards: +30 for the attackers
    ("1.4", [30, 0, 200, 50]),
    ("2.0", [30, 0, 200, 50]),
    ("2.1", [0, 0, 200, 80]),       # an attacker failed 3 cards: −30
    ("3.2", [0, 0, 180, 80]),       # KS KS on the table
])
def test_failed_throw_penalty_counts_from_t1(at, score):
    for seat in range(4):
        f = facts(deal_e(), seat, at)
        assert f["score"] == dict(zip(["attackers", "banker_side", "unplayed", "to_take_over"], score))
        assert f["points_won"] == [0, 0, 0, 0]
        assert_invariants(f)


def test_failed_throw_no_penalty_under_standard():
    for at in ("1.1", "2.0", "2.1", "3.2"):
        assert facts(deal_e("standard"), 3, at)["score"]["attackers"] == 0


def test_failed_throw_returned_cards_are_not_played():
    f = facts(deal_e(), 2, "1.1")
    spades = f["suits"]["S"]
    assert (spades["played"], spades["mine"], spades["unseen"]) == (1, 0, 23)
    assert spades["unseen_cards"].count("KS") == 2
    assert spades["top_unplayed"] == ["AS"]
    assert f["hand_sizes"] == [24, 25, 25, 25]


# -- tier 2 ----------------------------------------------------------------------------------------
def test_tier2_returned_cards_are_certain_for_the_thrower():
    inf = inference(deal_e(), 2, "1.1")
    assert inf["holdings"]["0"]["KS"] == [2, 2]
    assert inf["certain"]["0"].count("KS") == 2
    for holder in ("1", "3", "kitty"):
        assert inf["holdings"][holder]["KS"] == [0, 0]
    inf = inference(deal_e(), 3, "2.1")
    assert inf["certain"]["0"].count("KS") == 2
    assert inf["certain"]["1"].count("KH") == 2
    assert inf["holdings"]["1"]["KH"] == [2, 2]
    # once played, the returned cards are gone
    inf = inference(deal_e(), 2, "3.2")
    assert "KS" not in inf["holdings"]["0"]
    assert "KS" not in inf["certain"]["0"]
    assert inf["certain"]["1"].count("KH") == 2


def test_tier2_revealed_void_holds_nothing_of_the_suit():
    inf = inference(deal_e(), 1, "1.4")
    spade_faces = c("AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S")      # every spade face has an unseen copy
    for seat in ("2", "3"):
        for face in spade_faces:
            assert inf["holdings"][seat][face] == [0, 0], (seat, face)
        assert inf["suit_counts"][seat]["S"] == [0, 0]
        assert not [card for card in inf["certain"][seat] if card.endswith("S") and card != "SJ"]
    assert inf["holdings"]["0"]["AS"] == [0, 1]
    assert inf["holdings"]["kitty"]["AS"] == [0, 1]
    assert inf["certain"]["2"] == []


def test_tier2_kitty_holder_only_for_a_non_banker():
    non_banker = inference(deal_e(), 1, "1.4")
    assert list(non_banker) == ["holdings", "can_hold_pair", "certain", "implied_voids", "suit_counts"]
    assert list(non_banker["holdings"]) == ["0", "2", "3", "kitty"]
    assert list(non_banker["suit_counts"]) == ["0", "2", "3", "kitty"]
    banker = inference(deal_e(), 0, "1.4")
    assert list(banker["holdings"]) == ["1", "2", "3"]
    for field in ("can_hold_pair", "certain", "implied_voids", "suit_counts"):
        assert "kitty" not in banker[field]


def test_tier2_no_pair_seat_and_kitty():
    inf = inference(deal_c(), 3, "2.4")
    assert inf["holdings"]["0"]["KS"] == [0, 0]
    assert inf["holdings"]["1"]["KS"] == [0, 0]
    assert inf["holdings"]["2"]["KS"] == [0, 1]       # no pair of ♠ in seat 2
    assert inf["holdings"]["kitty"]["KS"] == [1, 2]   # so at least one ♠K is buried
    assert "KS" not in inf["can_hold_pair"]["2"]
    assert "KS" in inf["can_hold_pair"]["kitty"]
    assert inf["certain"]["kitty"].count("KS") == 1


# -- the from-scratch recount agrees with the observer on every hand-made position --------------------
def every_position(record):
    yield "0.0"
    for number, recorded in enumerate(record.tricks, start=1):
        for plays in range(len(recorded.plays) + 1):
            yield f"{number}.{plays}"
    yield "end"


@pytest.mark.parametrize("name", ["a", "l5", "b", "c", "c-loose", "d", "e", "e-standard", "f", "h", "i"])
def test_recount_agrees_with_the_observer(name):
    record = {"a": deal_a, "l5": deal_l5, "b": deal_b, "c": deal_c, "c-loose": lambda: deal_c("loose"),
              "d": deal_d, "e": deal_e, "e-standard": lambda: deal_e("standard"), "f": deal_f, "h": deal_h,
              "i": deal_i}[name]()
    for at in every_position(record):
        position = Position.parse(at, record)
        for seat in range(4):
            observed = facts_json(track(record, seat, position), at)
            assert observed == facts_json(recount(record, seat, position), at), (at, seat)
            assert_invariants(observed)


# -- scenario F: declarations (tier 2) ---------------------------------------------------------------
# Base deal at level 2; seat 0's 3S ↔ one 2H of the kitty, seat 3's 3D ↔ the other 2H. Banker 0 and
# seat 3 each declared their 2H (♥ trump); the banker buries the kitty as it is (3S 3D and six 2s).
@functools.cache
def deal_f():
    hands, kitty = base("2")
    swap(hands, kitty, "3S", 0, "2H", KITTY)
    swap(hands, kitty, "3D", 3, "2H", KITTY)
    return make(hands, kitty, list(kitty), [trick(0, "AS", "AH", "AC", "AD")], trump="H",
                declarations=[(0, "2H"), (3, "2H")])


def test_tier2_declared_cards_stay_with_the_declarer():
    inf = inference(deal_f(), 1, "1.0")
    # seat 3 still holds its 2H; the banker's is in the banker's hand or buried: both copies are placed
    assert inf["holdings"]["3"]["2H"] == [1, 1]
    assert inf["holdings"]["2"]["2H"] == [0, 0]
    assert inf["holdings"]["0"]["2H"] == [0, 1]
    assert inf["holdings"]["kitty"]["2H"] == [0, 1]
    assert inf["certain"]["3"] == ["2H"]
    assert inf["certain"]["0"] == inf["certain"]["kitty"] == inf["certain"]["2"] == []
    assert "2H" not in inf["can_hold_pair"]["3"]
    # the banker sees its own declaration as its own card: seat 3's 2H is the only one unseen
    banker = inference(deal_f(), 0, "1.0")
    assert banker["holdings"]["3"]["2H"] == [1, 1]
    assert banker["holdings"]["1"]["2H"] == banker["holdings"]["2"]["2H"] == [0, 0]
    # seat 3 sees the banker's declaration: held by the banker or buried, never by seats 1 and 2
    seat3 = inference(deal_f(), 3, "1.0")
    assert seat3["holdings"]["0"]["2H"] == seat3["holdings"]["kitty"]["2H"] == [0, 1]
    assert seat3["holdings"]["1"]["2H"] == seat3["holdings"]["2"]["2H"] == [0, 0]
    # trumps: seat 3 holds SJ? unknown; its 2H for sure
    assert inf["suit_counts"]["3"]["trump"][0] == 1


# -- scenario G: throws that stood (tier 2 caps and implied voids) -----------------------------------
# Base deal at level 2, no trump, banker 0; trick 1 is only the banker's throw, which stands.
@functools.cache
def deal_g(lead: str, buried: str | None = None, swaps: tuple[tuple[str, int, str, int], ...] = ()):
    hands, kitty = base("2")
    for a, holder_a, b, holder_b in swaps:
        swap(hands, kitty, a, holder_a, b, holder_b)
    return make(hands, kitty, c(buried) if buried else list(kitty), [trick(0, lead)])


def test_tier2_a_standing_throw_caps_the_other_seats():
    inf = inference(deal_g("KS 9S 9S"), 1, "1.1")
    # no ♠ above the single K; one copy at most above the pair of 9s; nothing proved at or below the 9
    for seat in ("2", "3"):
        holds = inf["holdings"][seat]
        assert (holds["AS"], holds["KS"], holds["QS"], holds["JS"], holds["10S"]) == ([0, 0], [0, 1], [0, 1],
                                                                                       [0, 1], [0, 1])
        assert (holds["8S"], holds["3S"]) == ([0, 2], [0, 2])
        assert "QS" not in inf["can_hold_pair"][seat] and "8S" in inf["can_hold_pair"][seat]
    # the thrower and the kitty are not bound
    for holder in ("0", "kitty"):
        assert (inf["holdings"][holder]["AS"], inf["holdings"][holder]["QS"]) == ([0, 2], [0, 2])
    # seat 1 holds every ♥: tier 1 lists the seats as void in ♥ (exhaustion), tier 2 adds the kitty
    assert inf["implied_voids"] == {"0": [], "2": [], "3": [], "kitty": ["H"]}
    # the banker threw: its own view has no unseen ♠ at all
    assert "AS" not in inference(deal_g("KS 9S 9S"), 0, "1.1")["holdings"]["2"]


def test_tier2_the_lowest_pair_of_a_throw_sets_the_pair_cap():
    inf = inference(deal_g("KS QS QS 9S 9S"), 1, "1.1")
    for seat in ("2", "3"):
        holds = inf["holdings"][seat]
        assert (holds["AS"], holds["JS"], holds["10S"], holds["8S"]) == ([0, 0], [0, 1], [0, 1], [0, 2])


def test_tier2_pairs_inside_a_thrown_tractor_prove_nothing():
    inf = inference(deal_g("KS 9S 9S 8S 8S"), 1, "1.1")
    for seat in ("2", "3"):
        holds = inf["holdings"][seat]
        assert (holds["AS"], holds["KS"], holds["QS"], holds["7S"]) == ([0, 0], [0, 1], [0, 2], [0, 2])


def test_tier2_a_thrown_pair_of_level_cards_caps_only_stronger_trumps():
    # the banker picks up the 2s and buries eight spades, then throws BJ and a pair of ♣2
    record = deal_g("BJ 2C 2C", buried="KS KS 10S 10S 5S 5S 4S 4S")
    inf = inference(record, 1, "1.1")
    for seat in ("2", "3"):
        holds = inf["holdings"][seat]
        assert holds["SJ"] == [0, 1]                      # stronger than ♣2: one copy at most
        assert holds["2S"] == holds["2H"] == holds["2D"] == [0, 2]     # as strong as ♣2: not bound
    assert inf["holdings"]["0"]["SJ"] == inf["holdings"]["kitty"]["SJ"] == [0, 2]


def test_tier2_implied_voids_beyond_tier_one():
    # seat 1 holds the other 3S: after the banker's AS 3S stood, no ♠ is left that seats 2 or 3 may hold
    record = deal_g("AS 3S", swaps=(("3S", 0, "3H", 1),))
    f = facts(record, 1, "1.1")
    assert f["voids"] == {"0": [], "2": [], "3": []}
    inf = inference(record, 1, "1.1")
    assert inf["implied_voids"] == {"0": [], "2": ["S"], "3": ["S"], "kitty": []}
    assert inf["suit_counts"]["2"]["S"] == inf["suit_counts"]["3"]["S"] == [0, 0]
    # 21 unseen ♠ between the banker's 23 cards and the 8 buried
    assert (inf["suit_counts"]["0"]["S"], inf["suit_counts"]["kitty"]["S"]) == ([13, 21], [0, 8])
    # before the throw nothing is implied
    assert inference(record, 1, "1.0")["implied_voids"] == {"0": [], "2": [], "3": [], "kitty": []}


# -- scenario H: the banker declared a card it showed again in a failed throw -----------------------------
# Base deal at level 2; seat 0's 3S ↔ a 2H of the kitty, seat 0's 4S ↔ seat 1's 4H. The banker declared
# its 2H (♥ trump) and tries 2H 4H: seat 1's hearts beat the 4H, so the 4H is played and the 2H returned.
@functools.cache
def deal_h():
    hands, kitty = base("2")
    swap(hands, kitty, "3S", 0, "2H", KITTY)
    swap(hands, kitty, "4S", 0, "4H", 1)
    return make(hands, kitty, list(kitty), [trick(0, "4H", attempt="2H 4H")], trump="H", declarations=[(0, "2H")])


def test_tier2_a_returned_card_also_satisfies_the_declaration():
    inf = inference(deal_h(), 1, "1.1")
    # the banker holds its returned 2H, which is also its declared one: the other 2H can be anywhere
    assert inf["holdings"]["0"]["2H"] == [1, 2]
    assert inf["holdings"]["2"]["2H"] == inf["holdings"]["3"]["2H"] == inf["holdings"]["kitty"]["2H"] == [0, 1]


# -- scenario I: two failed throws by one seat ------------------------------------------------------------
# Base deal at level 2, no trump; seat 0's AS and 3S ↔ seat 1's AH and 3H. Seat 1's AS beats both throws.
#  1. 0 tries KS KS QS → forced QS | 1: 3S | 2: 3C | 3: 3D        (seat 0 wins; KS KS returned)
#  2. 0 tries KS JS JS → forced KS | 1: AS | 2: 4C | 3: 4D        (a KS and JS JS returned)
@functools.cache
def deal_i():
    hands, kitty = base("2")
    swap(hands, kitty, "AS", 0, "AH", 1)
    swap(hands, kitty, "3S", 0, "3H", 1)
    return make(hands, kitty, list(kitty), [trick(0, "QS", "3S", "3C", "3D", attempt="KS KS QS"),
                                            trick(0, "KS", "AS", "4C", "4D", attempt="KS JS JS")])


def test_tier2_cards_known_from_two_failed_throws():
    # after the second throw seat 0 still holds one of the two KS it showed, and the JS pair it showed
    inf = inference(deal_i(), 2, "2.1")
    assert inf["holdings"]["0"]["KS"] == [1, 1]
    assert inf["holdings"]["0"]["JS"] == [2, 2]
    assert inf["certain"]["0"] == ["KS", "JS", "JS"]
    assert inference(deal_i(), 2, "1.4")["holdings"]["0"]["KS"] == [2, 2]


# -- known cards and the limits of a seat (positions made from a real snapshot) ----------------------------
def _snapshot_with(record, seat: int, at: str, **changes):
    parts = ("returned", "caps", "declared")
    snap = track(record, seat, Position.parse(at, record))
    constraints = dataclasses.replace(snap.constraints, **{k: v for k, v in changes.items() if k in parts})
    return snap._replace(constraints=constraints, **{k: v for k, v in changes.items() if k not in parts})


def _face(card: str) -> int:
    return Card.parse(card).index


@pytest.mark.parametrize("limit", [{"no_pairs": (0, 0, 1, 0)}, {"caps": ({}, {}, {_face("QS"): 1}, {})}])
def test_tier2_a_known_card_counts_against_the_seats_limit(limit):
    # seat 2 is known to hold one QS and can hold one at most (no ♠ pair shown, or a throw's cap)
    snap = _snapshot_with(deal_a(), 1, "1.0", returned=({}, {}, {_face("QS"): 1}, {}), **limit)
    data = infer_json(snap)
    assert data["holdings"]["2"]["QS"] == [1, 1]
    assert data["holdings"]["0"]["QS"] == data["holdings"]["3"]["QS"] == data["holdings"]["kitty"]["QS"] == [0, 1]
    assert data["certain"]["2"] == ["QS"]


# -- impossible positions: the constraints admit no distribution -------------------------------------
@pytest.mark.parametrize(("record", "seat", "at", "changes", "message"), [
    # seat 3 showed a ♠ void but is said to hold a returned AS
    (deal_b, 1, "2.4", {"returned": ({}, {}, {}, {_face("AS"): 1})}, "seat 3 must hold 1 of AS but can hold 0"),
    # a pair of QS returned to a seat that showed no ♠ pair; one returned QS where a throw proved none
    (deal_a, 1, "1.0", {"returned": ({}, {}, {_face("QS"): 2}, {}), "no_pairs": (0, 0, 1, 0)},
     "seat 2 must hold 2 of QS but can hold 1"),
    (deal_a, 1, "1.0", {"returned": ({}, {}, {_face("QS"): 1}, {}), "caps": ({}, {}, {_face("QS"): 0}, {})},
     "seat 2 must hold 1 of QS but can hold 0"),
    # three copies of QS known in two hands
    (deal_a, 1, "1.0", {"returned": ({}, {}, {_face("QS"): 2}, {_face("QS"): 1})}, "known cards exceed"),
    # seat 3 and seat 2 hold the two 2H: no copy left for the banker's declaration
    (deal_f, 1, "1.0", {"returned": ({}, {}, {_face("2H"): 1}, {})}, "known cards exceed"),
    (deal_a, 1, "1.0", {"hand_sizes": (25, 25, 26, 25)}, "hand sizes disagree"),
    (deal_a, 1, "1.0", {"revealed_voids": (0, 0, 31, 31)}, "no distribution"),
])
def test_tier2_an_impossible_position_is_refused(record, seat, at, changes, message):
    snap = _snapshot_with(record(), seat, at, **changes)
    with pytest.raises(InconsistentError, match=message):
        Inference(snap)


def test_to_take_over_stops_at_zero_once_the_attackers_have_enough():
    """Seat 1's side wins every trick of deal D from trick 7: the need falls to 0 and stays there."""
    needs = []
    for number in range(6, 22):
        f = facts(deal_d(), 1, f"{number}.4")
        needs.append((f["score"]["attackers"], f["score"]["to_take_over"]))
    assert all(need == max(80 - attackers, 0) for attackers, need in needs)
    assert needs[0][1] > 0 and needs[-1] == (150, 0)


# -- no_tractors ---------------------------------------------------------------------------------
@functools.cache
def deal_tractor_led(lead: str = "AS AS KS KS", follow: str = "QS QS 9S 9S", moved: str = "QS QS 9S 9S 6S 6S"):
    """Seat 0 (banker, the spades) leads a ♠ tractor; seat 2 holds the ♠ `moved` (for as many of its low
    clubs) and answers with `follow`; seats 1 and 3 hold no ♠ and discard their own low cards."""
    hands, kitty = base("2")
    for spade, club in zip(c(moved), c("3C 3C 4C 4C 5C 5C 6C 6C")):
        swap(hands, kitty, spade, 0, club, 2)
    size = len(c(lead))
    hearts, diamonds = both("H", "3 4 5")[:size], both("D", "3 4 5")[:size]
    tricks = [trick(0, lead, " ".join(hearts), follow, " ".join(diamonds))]
    return make(hands, kitty, c("2S 2S 2H 2H 2C 2C 2D 2D"), tricks)


def test_no_tractors_after_a_tractor_answered_with_pairs_that_are_not_adjacent():
    # ♠AAKK led; seat 2 holds ♠QQ 99 66 and plays QQ 99. Had it kept any ♠ tractor it would have owed one
    # (rules.md §4: P = 2 either way, and T = [2] outranks []), so it holds none now; it played 2 pairs for
    # the lead's 2, so it is not shown pairless (it still holds ♠66)
    f = facts(deal_tractor_led(), 1, "1.4")
    assert f["no_pairs"] == {"0": [], "2": [], "3": []}
    assert f["no_tractors"] == {"0": [], "2": ["S"], "3": []}
    assert facts(deal_tractor_led(), 1, "1.2")["no_tractors"] == {"0": [], "2": [], "3": []}
    assert facts(deal_tractor_led(), 0, "1.4")["no_tractors"] == {"1": [], "2": ["S"], "3": []}
    # the banker sees ♠66 as the only unseen ♠: a live pair, and no tractor (seats 1 and 3 are void)
    banker = facts(deal_tractor_led(), 0, "1.4")["suits"]["S"]
    assert (banker["live_pairs"], banker["live_tractors"]) == (["6S"], [])


def test_a_tractor_answered_with_a_shorter_tractor_shows_no_tractor_only_if_pairs_were_short():
    # ♠AAKKQQ led; seat 2 holds ♠JJ 10 10 88 66 and plays JJ 10 10 88: three pairs and the 2-pair tractor
    # the 3-pair one had room for. A hand with a further tractor elsewhere (♠55 66 with ♠66 kept) could
    # not add to T (2 + 2 > 3), so the play was legal from it: nothing is shown
    record = deal_tractor_led("AS AS KS KS QS QS", "JS JS 10S 10S 8S 8S", "JS JS 10S 10S 8S 8S 6S 6S")
    f = facts(record, 1, "1.4")
    assert f["no_tractors"] == {"0": [], "2": [], "3": []}
    assert f["no_pairs"] == {"0": [], "2": [], "3": []}
    # answered with two pairs and singles from a hand of ♠JJ 10 10 8 6: fewer pairs than led, so no pair
    # is left (no_pairs), and then no tractor either
    short = deal_tractor_led("AS AS KS KS QS QS", "JS JS 10S 10S 8S 6S", "JS JS 10S 10S 8S 6S")
    f = facts(short, 1, "1.4")
    assert f["no_pairs"] == {"0": [], "2": ["S"], "3": []}
    assert f["no_tractors"] == {"0": [], "2": ["S"], "3": []}


def test_live_tractors_leave_out_a_seat_shown_to_hold_no_tractor():
    # at 1.0 of the base deal seat 1 sees every ♠ unseen; with seats 2 and 3 known void in ♠ only seat 0
    # can hold ♠ pairs. Shown to hold no ♠ tractor, seat 0 still makes every ♠ pair live, but no tractor
    hands, kitty = base("2")
    record = make(hands, kitty, c("2S 2S 2H 2H 2C 2C 2D 2D"), [])
    snap = track(record, 1, Position.parse("1.0", record))
    spades_void = snap._replace(revealed_voids=(0, 0, 1, 1))
    full = facts_json(spades_void, "1.0")["suits"]["S"]
    assert full["live_tractors"] == [[card for card in side("S", "2")[::2]]]
    shown = facts_json(spades_void._replace(no_tractors=(1, 0, 0, 0)), "1.0")
    assert shown["suits"]["S"]["live_pairs"] == full["live_pairs"] and shown["suits"]["S"]["live_tractors"] == []
    assert shown["no_tractors"] == {"0": ["S"], "2": [], "3": []}
    # seat 2 shown so changes nothing: it is void anyway, seat 0 can still hold a tractor
    assert facts_json(spades_void._replace(no_tractors=(0, 0, 1, 0)), "1.0")["suits"]["S"] == full
