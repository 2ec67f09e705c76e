"""`trainer signals check`: every op of signals.md, from the seeds' examples (seed 001 牌例1–4, 四.3) and the
spec's statements, one case per line: the request, then the answer expected."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from trainer.referee import answer
from trainer.signals.referee import OPS

REPO = Path(__file__).resolve().parents[2]
SETS = ("allowed",)


def ask(request: dict) -> dict:
    """The referee's answer to one request (defaults: level 2, trump D)."""
    return answer(json.dumps({"level": "2", "trump": "D", **request}), OPS)


def same(got: dict, expected: dict) -> bool:
    """Answers compare with sets order-free (`allowed`, `orders` as a set of lists)."""
    if set(got) != set(expected):
        return False
    for key, value in expected.items():
        if key in SETS:
            if sorted(got[key]) != sorted(value) or len(set(got[key])) != len(got[key]):
                return False
        elif key == "orders":
            if sorted(map(tuple, got[key])) != sorted(map(tuple, value)) or len(set(map(tuple, got[key]))) != len(
                    got[key]):
                return False
        elif got[key] != value:
            return False
    return True


def R(lead, hand, leader="partner", role="helper", **extra):
    return {"op": "respond", "lead": [lead], "leader": leader, "role": role, "hand": hand.split(), **extra}


def A(allowed, rule):
    return {"allowed": allowed.split(), "rule": rule}


PARTNER_AAKQ = "AH AH KH QH 6H 3H".split()

RESPOND = [
    # the spec's example, and seed 001 牌例1 (帮家 A×1098× gives the 8 or the 9)
    ({**R("AH", "AH 9H 7H 5H 3H"), "trump": "S"}, A("9H", "answer_A")),
    (R("AH", "AH 10H 9H 8H 3H"), A("9H 8H", "answer_A")),
    (R("AH", "AH 9H 8H 5S 7C"), A("9H 8H", "answer_A")),  # other suits in hand are ignored
    # AKK10: the helper 极长 in the suit (8 cards or more, docs/decisions.md) may skip the signal and play
    # the 10 (seed 000 5.2.5); an attacker may not; with 7 cards or fewer the helper answers as anyone
    (R("AH", "AH KH KH 10H 9H 7H 6H 3H"), A("9H 10H", "skip_signal_10")),
    (R("AH", "AH KH KH 10H 9H 7H 6H 3H", role="attacker"), A("9H", "answer_A")),
    (R("AH", "AH KH KH 10H 7H 6H 4H 3H"), A("10H", "skip_signal_10")),
    (R("AH", "AH KH KH 10H 9H 7H 3H"), A("9H", "answer_A")),
    (R("AH", "AH KH KH 10H 9H 3H"), A("9H", "answer_A")),
    (R("AH", "AH KH KH 10H 7H 6H 3H"), A("KH 10H 7H 6H 3H", "has_A_no_signal_card")),
    (R("AH", "AH 7H 5H"), A("7H 5H", "has_A_no_signal_card")),
    (R("AH", "AH"), A("AH", "has_A_no_signal_card")),
    # without the A: never a signal card, points are fine (走分)
    (R("AH", "10H 9H 7H"), A("10H 7H", "no_A")),
    (R("AH", "KH 9H QH 5H"), A("KH 5H", "no_A")),
    (R("AH", "9H 8H"), A("9H 8H", "only_signal_cards")),
    (R("AH", "9H 7H", seen=["AH"]), A("9H 7H", "not_an_ask")),
    (R("AH", "3S 4C"), A("", "void")),
    ({**R("AS", "AS 9S 3S"), "trump": "S"}, A("AS 9S 3S", "no_convention")),
    (R("AH", "AH 9H 3H", leader="opponent"), A("AH 9H 3H", "no_convention")),
    # no trump: an attacker with the other A signals on an opponent's A too (seed 000 5.3.1, 8.3.1)
    ({**R("AH", "AH 9H 3H", leader="opponent", role="attacker"), "trump": "none"}, A("9H", "nt_opponent_A")),
    ({**R("AH", "AH KH KH 10H 9H", leader="opponent", role="attacker"), "trump": "none"}, A("9H", "nt_opponent_A")),
    ({**R("AH", "9H 3H", leader="opponent", role="attacker"), "trump": "none"}, A("3H", "no_A")),
    ({**R("AH", "AH 9H 3H", leader="opponent", role="helper"), "trump": "none"}, A("AH 9H 3H", "no_convention")),
    # effective suits: at level 9 the ♥9 is trump, so it is no ♥ signal
    ({**R("AH", "AH 9H 7H"), "level": "9"}, A("7H", "has_A_no_signal_card")),
    ({**R("AH", "AH 2H 4H"), "level": "5", "rules": {"fixed_twos": True}, "conventions": {"signal_ranks": "mid_246JQ"}},
     A("4H", "answer_A")),
    ({**R("AH", "AH 7H 3H"), "conventions": {"signal_ranks": "basic_7up"}}, A("7H", "answer_A")),
    ({**R("AH", "AH 7H 3H"), "conventions": {"signal_ranks": ["3", "J"]}}, A("3H", "answer_A")),
    ({**R("AH", "AH 7H 3H"), "conventions": {"signal_ranks": {"S": "odd", "H": "even", "C": "odd", "D": "odd"}}},
     A("7H 3H", "has_A_no_signal_card")),
    # the K-ask (seed 001 牌例2–4): 庄家 AAK×10× / AAKQ××
    (R("KH", "KH 9H 8H 4H"), A("9H 8H", "ask_K")),
    (R("KH", "KH 10H 8H 4H"), A("10H 8H", "ask_K")),
    (R("KH", "KH 10H 8H 4H", partner_holding=PARTNER_AAKQ), A("KH 10H 8H", "ask_K_promote_Q")),
    (R("KH", "KH 10H 4H", partner_holding=PARTNER_AAKQ), A("KH 10H", "ask_K_promote_Q")),
    (R("KH", "KH 4H 3H"), A("4H 3H", "has_K_no_signal_card")),
    (R("KH", "KH"), A("KH", "has_K_no_signal_card")),
    (R("KH", "9H 4H 10H"), A("4H 10H", "no_K")),
    (R("KH", "9H"), A("9H", "only_signal_cards")),
    (R("KH", "9H 4H", seen=["KH"]), A("9H 4H", "not_an_ask")),
    (R("KH", "AH 9H 4H"), A("AH 9H 4H", "no_convention")),
    (R("KH", "9H 4H", seen=["AH"]), A("9H 4H", "no_convention")),
    ({**R("KH", "KH 9H 4H"), "level": "A"}, A("KH 9H 4H", "no_convention")),
    # the 5-lead (seed 001 升级信号牌 2.B): a K is required
    (R("5H", "KH 9H 3H"), A("KH", "five_lead_K")),
    (R("5H", "KH KH 9H"), A("KH", "five_lead_K")),
    (R("5H", "9H 3H"), A("9H 3H", "five_lead_no_K")),
    (R("5H", "KH 9H", seen=["AH"]), A("KH 9H", "no_convention")),
    (R("7H", "KH 9H 3H"), A("KH 9H 3H", "no_convention")),
]


def I(lead, play, hand, leader="me", role="banker", **extra):
    return {"op": "interpret", "lead": [lead], "play": [play], "leader": leader, "role": role, "hand": hand.split(),
            **extra}


def M(meaning, rule):
    return {"meaning": meaning, "rule": rule}


INTERPRET = [
    ({**I("AH", "9H", "KH 10H 6H 4H"), "level": "9", "trump": "S"}, M("void", "void")),  # the spec's example
    (I("AH", "9H", "KH 10H 6H 4H"), M("has_other_A", "answer_A")),  # seed 001 牌例1
    (I("AH", "QH", "KH 6H"), M("has_other_A", "answer_A")),
    (I("AH", "10H", "KH 6H"), M("cannot_tell", "skip_signal_10")),
    # the 10 is AKK10 only from a helper holding 8 ♥ or more: 24 ♥ − 15 in my hand − the A led leaves 8
    (I("AH", "10H", "KH QH QH JH JH 9H 9H 8H 8H 7H 7H 6H 6H 5H 5H"), M("cannot_tell", "skip_signal_10")),
    (I("AH", "10H", "KH QH QH JH JH 9H 9H 8H 8H 7H 7H 6H 6H 5H 5H 4H"), M("no_A", "no_A")),
    (I("AH", "10H", "KH QH QH JH JH 9H 9H 8H 8H 7H 7H 6H 6H 5H 5H", seen=["4H"]), M("no_A", "no_A")),
    (I("AH", "10H", "KH 6H", role="attacker"), M("no_A", "no_A")),
    (I("AH", "7H", "KH 6H"), M("no_A", "no_A")),
    (I("AH", "AH", "KH 6H"), M("played_other_A", "played_asked_card")),
    (I("AH", "3C", "KH 6H"), M("void", "void")),
    (I("AH", "9H", "AH 6H"), M("no_meaning", "not_an_ask")),
    (I("AH", "9H", "6H", seen=["AH"]), M("no_meaning", "not_an_ask")),
    (I("AS", "9S", "6S", trump="S"), M("no_meaning", "no_convention")),
    (I("AH", "7H", "KH 6H", conventions={"signal_ranks": "basic_7up"}), M("has_other_A", "answer_A")),
    # the K-ask: I hold both As (seed 001 牌例2–4)
    (I("KH", "9H", "AH AH 10H 6H"), M("has_other_K", "ask_K")),
    (I("KH", "10H", "AH AH 6H"), M("cannot_tell", "ask_K_points")),
    (I("KH", "KH", "AH AH 6H"), M("played_other_K", "played_asked_card")),
    (I("KH", "4H", "AH AH 6H"), M("no_K", "no_K")),
    (I("KH", "4C", "AH AH 6H"), M("void", "void")),
    (I("KH", "9H", "AH AH 6H", seen=["KH"]), M("no_meaning", "not_an_ask")),
    (I("KH", "9H", "AH 6H"), M("no_meaning", "no_convention")),
    # the 5-lead
    (I("5H", "KH", "AH AH 6H"), M("played_other_K", "five_lead_K")),
    (I("5H", "9H", "AH AH 6H"), M("no_K", "five_lead_no_K")),
    (I("5H", "9S", "AH AH 6H"), M("void", "void")),
    (I("5H", "KH", "AH 6H"), M("no_meaning", "no_convention")),
    # no trump, an opponent's A: my partner (an attacker) signals the other A
    (I("AH", "9H", "6H", leader="opponent", role="attacker", trump="none"), M("has_other_A", "nt_opponent_A")),
    (I("AH", "10H", "6H", leader="opponent", role="attacker", trump="none"), M("no_A", "no_A")),
    (I("AH", "AH", "6H", leader="opponent", role="attacker", trump="none"), M("played_other_A", "played_asked_card")),
    (I("AH", "9H", "6H", leader="opponent", role="helper", trump="none"), M("no_meaning", "no_convention")),
    (I("AH", "9H", "6H", leader="opponent", role="attacker"), M("no_meaning", "no_convention")),
]


def O(lead, play, **extra):
    return {"op": "discard_order", "lead": lead.split(), "play": play.split(), **extra}


EVEN, ODD, BIG = ({"conventions": {"discard": name}} for name in ("even_sum", "odd_sum", "big_on_top"))

DISCARD_ORDER = [
    # seed 001 四.3 小在上, its examples
    (O("KS KS", "8S 7S"), M("yes", "order_two")),
    (O("KS KS", "7S 8S"), M("no", "order_two")),
    (O("AS KS", "10S 8S"), M("yes", "order_two")),
    (O("AS KS", "8S 10S"), M("no", "order_two")),
    (O("AS QS QS", "10S 7S 5S"), M("void", "order_three_plus")),
    (O("AS QS QS", "7S 10S 5S"), M("holds_A", "order_three_plus")),
    (O("AS QS QS", "5S 7S 10S"), M("no", "order_three_plus")),
    (O("KS KS", "7S 7C"), M("no", "order_two")),  # a tie is never "smallest last"
    (O("KS KS", "8S BJ"), M("no", "order_two")),  # fillers count by value (BJ 16)
    (O("KS KS", "8S 3H"), M("yes", "order_two")),
    (O("AS QS QS", "9S 9C 5S"), M("holds_A", "order_three_plus")),
    # 大在上 mirrors it
    (O("KS KS", "7S 8S", **BIG), M("yes", "order_two")),
    (O("KS KS", "8S 7S", **BIG), M("no", "order_two")),
    (O("AS QS QS", "5S 7S 10S", **BIG), M("void", "order_three_plus")),
    (O("AS QS QS", "7S 5S 10S", **BIG), M("holds_A", "order_three_plus")),
    (O("AS QS QS", "10S 7S 5S", **BIG), M("no", "order_three_plus")),
    # the sum conventions (seed 001 四.3 点数之和)
    (O("KS KS", "8S 10S", **EVEN), M("yes", "sum_all")),
    (O("AS KS", "10S 8S", **EVEN), M("yes", "sum_all")),
    (O("AS KS", "7S 10S", **EVEN), M("no", "sum_all")),
    (O("AS QS QS", "10S 8S 6S", **EVEN), M("yes", "sum_all")),
    (O("AS KS", "7S 10S", **ODD), M("yes", "sum_all")),
    (O("KS KS", "7S 10C", **EVEN), M("yes", "sum_others_only")),  # 四.3(2) 例1: one ♠, only the 10 counts
    (O("KS KS", "8S 7C", **EVEN), M("no", "sum_others_only")),  # 例2
    (O("KS KS", "8S 7C", **ODD), M("yes", "sum_others_only")),
    # no signal
    (O("KS KS", "8S 8S"), M("no_meaning", "pair_in_play")),
    (O("KS KS", "8S 7S", leader="opponent"), M("no_meaning", "not_partner_lead")),
    (O("KD KD", "8D 7D"), M("no_meaning", "not_side_suit")),
    (O("KS KS", "8C 7C"), M("no_meaning", "void_before")),
    ({**O("KH KH", "8H 7H"), "level": "8", "trump": "S"}, M("yes", "order_two")),  # the 8♥ laid is a trump filler
]


def P(lead, hand, **extra):
    return {"op": "discard_play", "lead": lead.split(), "hand": hand.split(), **extra}


def Q(message, orders, rule):
    return {"message": message, "orders": [order.split() for order in orders], "rule": rule}


DISCARD_PLAY = [
    ({**P("KS KS", "AS 8S 7S 5C"), "trump": "H"}, Q("yes", ["8S 7S"], "order_two")),  # the spec's example
    (P("KS KS", "8S 7S 5C"), Q("yes", ["8S 7S"], "order_two")),  # void after the play
    (P("KS KS", "9S 8S 7S"), Q("no", ["8S 9S", "7S 9S", "7S 8S"], "order_two")),
    (P("AS QS QS", "10S 7S 5S"), Q("void", ["10S 7S 5S"], "order_three_plus")),
    (P("AS QS QS", "AS 10S 7S 5S"), Q("holds_A", ["7S 10S 5S"], "order_three_plus")),  # seed 例4, keeps the A
    (P("KS KS", "8S 6C 4D"), Q("yes", ["8S 6C", "8S 4D"], "order_two")),
    (P("KS KS", "8S 6C 4D", **EVEN), Q("yes", ["8S 6C", "6C 8S", "8S 4D", "4D 8S"], "sum_others_only")),
    (P("KS KS", "8S 7C 4D", **ODD), Q("yes", ["8S 7C", "7C 8S"], "sum_others_only")),
    (P("KS KS", "AS 9S 8S", **EVEN), Q("yes", [], "sum_all")),  # 9+8 is odd: nothing tells the truth
    (P("KS KS", "AS 10S 8S", **EVEN), Q("yes", ["10S 8S", "8S 10S"], "sum_all")),
    (P("AS QS QS", "10S 7S 5S", **BIG), Q("void", ["5S 7S 10S"], "order_three_plus")),
    (P("AS KS", "QS QS"), Q("yes", [], "order_two")),  # a pair would be laid: no signal can be made
    (P("KS KS", "8S 8S 3S"), Q("no_meaning", [], "must_follow_pair")),
    (P("KD KD", "8D 7D"), Q("no_meaning", [], "not_side_suit")),
    (P("KS KS", "8C 7C"), Q("no_meaning", [], "void_before")),
]


def S(hand, signalled=("H",), **extra):
    return {"op": "pass", "suit": "H", "signalled_in": list(signalled), "hand": hand.split(), **extra}


def PASS(must, exception, rule, suit="H"):
    return {"suit": suit, "must_pass": must, "exception": exception, "rule": rule}


SMALL = "9H 6H 3H 8S 7C"
PASS_CASES = [
    (S("QH QH 9S 7C"), PASS(False, 2, "exception")),  # the spec's example (seed 001 三(一)2: A、QQ)
    (S(SMALL), PASS(True, None, "pass")),
    (S("8S 7C"), PASS(False, 1, "exception")),
    (S("7H 7H 6H 6H 3H 8S"), PASS(False, 3, "exception")),  # 三(一)3: A、33、44
    (S("QH 10H 7H 7H 6H 6H 3H"), PASS(False, 3, "exception")),
    ({**S("4H 4H 2H 2H 8S"), "level": "3"}, PASS(False, 3, "exception")),  # the level rank is skipped
    ({**S("4H 4H 2H 2H 8S"), "level": "3", "rules": {"hollow_tractors": "none"}}, PASS(True, None, "pass")),
    (S("9H 6H 3H AS 7C"), PASS(False, 4, "exception")),  # 三(一)4: another suit's top card first
    (S("9H 6H 3H KS 7C", played=["AS", "AS"]), PASS(False, 4, "exception")),
    (S("9H 6H 3H KS 7C", played=["AS"]), PASS(True, None, "pass")),
    ({**S("QH JH 9H 8H 7H 6H 4H 3H 2H"), "level": "K"}, PASS(False, 5, "exception")),
    ({**S("QH JH 9H 8H 7H 6H 4H 3H"), "level": "K"}, PASS(True, None, "pass")),
    (S("QH JH 9H 8H 7H 6H 4H 3H 2H"), PASS(True, None, "pass")),  # at level 2 the ♥2 is trump: 8 ♥ left
    (S(SMALL, partner_void_in=["S"]), PASS(False, 6, "exception")),
    (S(SMALL, partner_void_in=["H", "D"]), PASS(True, None, "pass")),  # not another side suit
    (S(SMALL, partner_won_trick=True), PASS(False, 7, "exception")),
    (S(SMALL, partner_discarded=["4H"]), PASS(False, 8, "exception")),
    (S(SMALL, partner_discarded=["4S"]), PASS(True, None, "pass")),
    (S(SMALL, opponents_discarded=["KH", "10H"]), PASS(False, 9, "exception")),
    (S(SMALL, opponents_discarded=["KH"]), PASS(True, None, "pass")),
    (S("QH QH 8S", partner_won_trick=True), PASS(False, 2, "exception")),  # several: the lowest number
    (S("9C 5C 9H 6H 8S", signalled=("C", "H")), PASS(True, None, "pass", "C")),  # 三(三): the first suit
    (S("QC QC 9H 6H 8S", signalled=("C", "H")), PASS(False, 2, "exception", "C")),
    # no signal (三(二))
    (S("9H 8S", signalled=()), PASS(False, None, "no_signal_last_card")),
    (S("KH 4H 8S", signalled=(), opponents_discarded=["KH"]), PASS(False, None, "no_signal_K_discarded")),
    (S("QH 4H 8S", signalled=(), opponents_discarded=["KH"]), PASS(False, None, "no_signal")),
    (S("KH 4H 8S", signalled=()), PASS(False, None, "no_signal")),
]


def OP(lead, trick=1, role="banker", **extra):
    return {"op": "opening_request", "lead": lead.split(), "trick": trick, "leader_role": role, **extra}


def REQ(request, rule):
    return {"request": request, "rule": rule}


OPENING = [
    ({**OP("2S"), "trump": "H"}, REQ("strong_draw", "opening_level")),  # the spec's example
    (OP("QD"), REQ("help_draw_trumps", "opening_JQA")),  # seed 001 四.2: 首引用J、Q、A
    (OP("JD"), REQ("help_draw_trumps", "opening_JQA")),
    (OP("AD"), REQ("help_draw_trumps", "opening_JQA")),
    (OP("KD"), REQ(None, "none")),
    (OP("QD", trick=2), REQ(None, "none")),
    (OP("2D", trick=9), REQ("no_side_suits", "midhand_level")),  # seed 000 经验③
    (OP("2S", trick=9), REQ("no_side_suits", "midhand_level")),
    (OP("QD", role="helper"), REQ(None, "none")),
    (OP("2D", role="attacker"), REQ(None, "none")),
    (OP("QD QD"), REQ(None, "none")),
    (OP("BJ"), REQ(None, "none")),
    (OP("AS"), REQ(None, "none")),
    (OP("AS", trump="none"), REQ(None, "none")),
    (OP("2C", trump="none"), REQ("strong_draw", "opening_level")),
    (OP("AD", level="A"), REQ("strong_draw", "opening_level")),
    # rule 2's fields: a later level card asks only as a switch by a banker holding a side card, 3+ tricks left
    (OP("2D", trick=9, switch=True, side_left=True, tricks_left=3), REQ("no_side_suits", "midhand_level")),
    (OP("2D", trick=9, switch=False), REQ(None, "none")),  # the banker was leading trumps already
    (OP("2S", trick=20, side_left=False), REQ(None, "none")),  # only trumps left: no choice, no request
    (OP("2D", trick=23, tricks_left=2), REQ(None, "none")),  # the last tricks
    (OP("2D", trick=24, tricks_left=0, switch=False, side_left=False), REQ(None, "none")),
    (OP("QD", trick=9, switch=True), REQ(None, "none")),  # the fields make no request of their own
    # trick 1 has no previous lead: the fields do not touch the opening lead
    (OP("2D", switch=False, side_left=False, tricks_left=0), REQ("strong_draw", "opening_level")),
    (OP("QD", switch=False), REQ("help_draw_trumps", "opening_JQA")),
]

CASES = RESPOND + INTERPRET + DISCARD_ORDER + DISCARD_PLAY + PASS_CASES + OPENING


@pytest.mark.parametrize("request_, expected", CASES, ids=[f"{r['op']}-{n}" for n, (r, _) in enumerate(CASES)])
def test_op_answers_as_specified(request_, expected):
    got = ask(request_)
    assert same(got, expected), (request_, got)


ERRORS = [
    ({"op": "signal"}, "unknown op"),
    (R("AH", "AH 9H", conventions={"signal_ranks": "basic_8"}), "unknown set"),
    (R("AH", "AH 9H", conventions={"signal_ranks": ["8", "10"]}), "10 is a point card"),
    (R("AH", "AH 9H", conventions={"signal_ranks": ["8", "A"]}), "A is the card"),
    (R("AH", "AH 9H", conventions={"signal_ranks": {"S": "odd", "H": "odd", "C": "odd"}}), "all four suits"),
    (O("KS KS", "8S 7S", conventions={"discard": "sideways"}), "discard: unknown convention"),
    (R("AH", "AH 9H", leader="me"), "leader"),
    (I("AH", "9H", "6H", leader="partner"), "leader"),
    (R("AH", "AH 9H", role="dealer"), "role"),
    (R("AH", "AH 9H", rules={"fixd_twos": True}), "unknown rules option"),
    (R("AH", "AH 9H", rules="three-deck"), "two decks"),
    (R("AH", "AH 9H", rules={"decks": 1}), "two decks"),
    ({"op": "respond", "lead": ["AH"], "leader": "partner", "role": "helper"}, "missing field 'hand'"),
    (R("AH", "AH 9X"), "not a card"),
    ({**R("AH", "AH 9H"), "lead": ["AH", "KH"]}, "exactly one card"),
    ({**I("AH", "9H", "6H"), "play": ["9H", "8H"]}, "exactly one card"),
    (R("AH", "AH AH 9H"), "3 copies"),
    (R("AH", "AH 9H", seen=["AH"]), "3 copies"),
    (R("KH", "KH 9H", partner_holding=["KH", "KH"]), "3 copies"),
    (R("KH", "9H", partner_holding=["AH", "QH"]), "must include the led card"),
    (I("AH", "AH", "AH"), "3 copies"),
    (O("KS", "8S"), "two or more cards"),
    (O("KS QH", "8S 7S"), "all of one suit"),
    (O("KS KS", "8S 7S 6S"), "as many as the lead"),
    (O("KS KS", "KS 7S"), "3 copies"),
    (P("AS KS QS", "8S 3C"), "cannot make a play"),
    (P("KS KS", "KS 8S 3C"), "3 copies"),
    (OP("QD", trick=0), "trick"),
    (OP("QD", trick=True), "trick"),
    (OP("", trick=1), "at least one card"),
    (OP("2D", trick=9, switch="yes"), "switch: expected true or false"),
    (OP("2D", trick=9, side_left=1), "side_left: expected true or false"),
    (OP("2D", trick=9, tricks_left=-1), "tricks_left"),
    (OP("2D", trick=9, tricks_left=True), "tricks_left"),
    (S(SMALL, signalled=("D",)), "not a side suit"),
    ({**S(SMALL), "suit": "X"}, "not a side suit"),
    ({**S(SMALL), "partner_won_trick": "yes"}, "true or false"),
]


@pytest.mark.parametrize("request_, words", ERRORS, ids=[f"error-{n}" for n in range(len(ERRORS))])
def test_bad_requests_get_an_error(request_, words):
    got = ask(request_)
    assert set(got) == {"error"} and words in got["error"], got


def test_level_and_trump_are_required():
    request = R("AH", "AH 9H")
    assert "missing field 'level'" in answer(json.dumps({**request, "trump": "S"}), OPS)["error"]
    assert "missing field 'trump'" in answer(json.dumps({**request, "level": "2"}), OPS)["error"]


def test_unknown_extra_fields_are_ignored():
    assert ask({**R("AH", "AH 9H 3H"), "comment": "牌例1", "extra": [1, 2]}) == {"allowed": ["9H"], "rule": "answer_A"}


def test_command_answers_every_line_in_order_even_after_bad_ones():
    requests = [json.dumps({"level": "2", "trump": "D", **RESPOND[1][0]}), "not json", "[1]", "\xff",
                json.dumps({"level": "2", "trump": "D", **OPENING[1][0]}), json.dumps({"op": "combo", "cards": ["AS"]})]
    done = subprocess.run([sys.executable, "-m", "trainer", "signals", "check"], cwd=REPO, capture_output=True,
                          input="\n".join(requests).encode("utf-8", "surrogateescape") + b"\n\xff\xfe\n", check=True)
    lines = [json.loads(line) for line in done.stdout.decode().splitlines()]
    assert len(lines) == 7
    assert same(lines[0], RESPOND[1][1]) and lines[4] == OPENING[1][1]
    assert all(set(lines[n]) == {"error"} for n in (1, 2, 3, 5, 6))
    assert "unknown op 'combo'" in lines[5]["error"]
