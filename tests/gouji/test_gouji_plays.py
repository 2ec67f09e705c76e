"""Plays, 够级 thresholds and beating (gouji.md §3.1–3.3), one case table per seed statement."""
from __future__ import annotations

import pytest

from trainer.engine import IllegalPlayError, parse_cards
from trainer.gouji import GoujiRules, Play, analyse, beats, opens

STANDARD = GoujiRules()


def play(text: str, rules: GoujiRules = STANDARD) -> Play:
    return Play.of(parse_cards(text), rules)


# -- §3.1 plays: one rank, jokers and 2s anywhere (J "所发（顺）牌必须是同一点数…花、钱例外") -----------------
@pytest.mark.parametrize(("cards", "base"), [
    ("3S 3H", 3), ("5S 5S 5H 5D 5C", 5), ("8S 8S 8H 8H 8D 8C 8C", 8),   # H "33，55555，8888888"
    ("BJ", None), ("SJ BJ SJ", None),                                   # jokers only: no base
    ("2S 2H", 15), ("BJ 2S", 15),                                       # 2s alone are the base
    ("BJ SJ 2S 2D 9S 9H", 9),                                           # D "大小王2可同时挂牌"
])
def test_valid_plays_and_their_base(cards: str, base: int | None) -> None:
    assert play(cards).base == base


@pytest.mark.parametrize("cards", ["5S 6S", "KS QS 2S", "BJ 4S 5S", "AS AH KS"])
def test_two_ranks_make_no_play(cards: str) -> None:
    with pytest.raises(IllegalPlayError, match="one rank"):
        play(cards)


def test_no_cards_make_no_play() -> None:
    assert analyse((), STANDARD) == "a play needs at least one card"


def test_attach_twos_false_refuses_a_2_with_a_rank() -> None:          # H "贴钱 “2”不可以贴"
    rules = GoujiRules.parse("activity")
    with pytest.raises(IllegalPlayError, match="attach_twos"):
        play("2S 9S 9H", rules)
    assert play("2S 2H SJ", rules).base == 15 and play("SJ 9S", rules).base == 9


def test_threes_go_alone_under_biesan() -> None:                       # B "底牌必须为3"
    with pytest.raises(IllegalPlayError, match="憋3"):
        play("3S 3H SJ")
    with pytest.raises(IllegalPlayError, match="憋3"):
        play("3S 2H")
    assert play("3S 3H SJ", GoujiRules.parse("paodekuai")).base == 3


# -- §3.2 够级牌 (J "1 张大、小花及钱，2 张A，2 张K，3 张Q，4 张J，5 张10 为法定最低…够级牌") -------------------
@pytest.mark.parametrize(("cards", "gouji", "original"), [
    ("BJ", True, False), ("SJ", True, False), ("2S", True, False),
    ("AS AH", True, True), ("KS KD", True, True), ("QS QH QD", True, True), ("JS JH JD JC", True, True),
    ("10S 10H 10D 10C 10S", True, True),
    # C "不够级的级牌(4张10，3J，2Q，1K，1A)": the biggest sets that are not 够级
    ("10S 10H 10D 10C", False, False), ("JS JH JD", False, False), ("QS QH", False, False),
    ("KS", False, False), ("AS", False, False),
    ("9S 9S 9H 9H 9D 9D 9C 9C", False, False),                         # 9s never are
    ("2S JS JH JD", True, False),                                       # an attached 2 counts toward t(J)
    ("SJ 4S", True, False),                                             # a joker makes any set 够级
    ("QS QS QH QH QD QD", True, True),                                  # H "张数…高于…均视作够级牌"
])
def test_gouji_thresholds(cards: str, gouji: bool, original: bool) -> None:
    made = play(cards)
    assert (made.gouji, made.original) == (gouji, original)


# -- §3.3 beating by the sorted key ----------------------------------------------------------------------------
@pytest.mark.parametrize(("top", "over", "result"), [
    ("4S 4H 4D", "6S 6H 6D", True),                     # O "上家发出3个4，你正好有3个6"
    ("AS AH AD AC", "2S 2H 2D 2C", True),               # C "用4个2打4个A"
    ("2S 2H", "SJ SJ", True),                           # C "用2个虎打2个2"
    ("4S 4H", "3S 3H", False),                          # 3s beat nothing
    ("4S", "4H", False),                                # equal is not higher
    ("5S 5H", "6S", False), ("5S", "6S 6H", False),     # H "同样张数的牌才允许比较大小"
    ("BJ", "BJ", False), ("BJ 4S", "BJ 5S", False),     # J "大花挂任何牌时，发牌均为死牌"
    ("SJ SJ 8S 8H 8D", "BJ BJ 9S 9H 9D", True),         # H "用2个大花带3个9大过"
    ("SJ SJ 8S 8H 8D", "BJ BJ BJ 9S 9H", True),         # H "也可以用3个花带2个9大过"
    ("SJ SJ 8S 8H 8D", "BJ SJ SJ 9S 9H", False),        # J "大花不得少于小花数量"
    ("SJ 8S 8H", "BJ 8S 8D", False),                    # J "须由大花挂高于小花所挂牌一点以上的牌"
    ("SJ 8S 8H", "BJ 9S 9D", True),
    ("9S 9H 9D", "2S 9S 9H", False),                    # J "钱贴牌时…视为该牌中的普通一员"
    ("10S 10H 10D 10C 10S", "2S JS JH JD JC", True),
    ("KS", "AS", True), ("AS", "2S", True), ("2S", "SJ", True), ("SJ", "BJ", True),  # H's order
])
def test_beats(top: str, over: str, result: bool) -> None:
    assert beats(play(over), play(top), STANDARD) is result


@pytest.mark.parametrize(("top", "over", "result"), [
    ("BJ", "BJ BJ", True),                              # B 第九条 "两个大花可以杀一个大花"
    ("BJ 8S 8H", "BJ BJ 9S 9H", True),
    ("BJ 8S 8H", "BJ BJ 8S 8D", False),                 # the rests must beat too
    ("BJ BJ", "BJ BJ BJ", False),                       # two per big joker
    ("BJ 8S", "BJ BJ", False),                          # one rest empty, the other not
    ("SJ", "BJ", True),
])
def test_two_kill_one(top: str, over: str, result: bool) -> None:
    rules = GoujiRules.parse({"two_kill_one": True})
    assert beats(play(over, rules), play(top, rules), rules) is result
    if top.startswith("BJ"):
        assert not beats(play(over), play(top), STANDARD)


# -- §3.7 what opens ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("cards", "original", "karamay"), [
    ("KS KH", True, True), ("QS QH QD", True, True),
    ("2S", False, True), ("2S KS KH", False, True),     # K "单点2或够级牌挂2…都算开点"; B "贴2的不算开点"
    ("SJ", False, True), ("SJ 9S", False, True),        # K "小花或挂小花都算开点"; H "挂花的牌…不开点"
    ("BJ", False, False), ("BJ KS KH", False, False),   # K "大花或挂大花不算开点"
    ("KS", False, False), ("9S 9H 9D 9C 9S", False, False),
])
def test_what_opens(cards: str, original: bool, karamay: bool) -> None:
    assert opens(play(cards), STANDARD) is original
    assert opens(play(cards), GoujiRules.parse({"kaidian": "karamay"})) is karamay
