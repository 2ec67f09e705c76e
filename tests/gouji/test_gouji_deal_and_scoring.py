"""买3 (gouji.md §2.2) and results (§3.8), from the seed statements."""
from __future__ import annotations

import pytest

from trainer.engine import IllegalPlayError
from trainer.gouji import GoujiRules, buy_threes
from trainer.gouji.scoring import hand_result

STANDARD = GoujiRules()


def buys(threes: list[int], leader: int = 0, pay: dict[int, dict[int, int]] | None = None,
         rules: GoujiRules = STANDARD) -> list[tuple[int, int, int | None]]:
    counts = [[0] * 18 for _ in threes]
    for seat, n in enumerate(threes):
        counts[seat][3] = n
        for value, copies in (pay or {}).get(seat, {}).items():
            counts[seat][value] = copies
    return [(e.seller, e.buyer, e.paid) for e in buy_threes(counts, leader, rules)]


def test_the_duitou_sells_first_for_a_2() -> None:        # K "用单2或单花向对门买3"; B "先2、再小王、后大王"
    assert buys([0, 1, 1, 3, 1, 1], pay={0: {15: 1, 16: 1}}) == [(3, 0, 15)]


def test_a_teammate_gives_when_the_duitou_has_no_spare() -> None:   # K "如对门没多余的3，则由联邦送3"
    assert buys([0, 1, 1, 1, 2, 1], pay={0: {15: 2}}) == [(4, 0, None)]
    assert buys([0, 1, 2, 1, 2, 1]) == [(2, 0, None)]               # k+2 before k+4


def test_other_opponents_sell_last_next_seat_first() -> None:       # B "先对头、再联邦、后对方"
    assert buys([0, 2, 1, 1, 1, 2], pay={0: {16: 1, 17: 1}}) == [(1, 0, 16)]
    assert buys([0, 1, 1, 1, 1, 2], pay={0: {17: 1}}) == [(5, 0, 17)]
    assert buys([0, 1, 1, 1, 1, 3]) == [(5, 0, None)]               # nothing to pay: the seller gives (赠)


def test_buyers_in_play_order_from_the_first_leader() -> None:
    # seats 1 and 4 buy; from leader 2 the order is 4 then 1; seat 4's 对头 is 1 (no 3s), so its teammate 0 sells;
    # seat 1's 对头 is 4, who holds the 3 it just got: then teammates 3, 5, then opponents 2, 0.
    assert buys([2, 0, 2, 1, 0, 1], leader=2) == [(0, 4, None), (2, 1, None)]
    assert buys([2, 0, 2, 1, 0, 1], leader=0) == [(2, 1, None), (0, 4, None)]


def test_no_buying_without_biesan() -> None:
    assert buys([0, 0, 4, 4, 4, 4], rules=GoujiRules.parse("paodekuai")) == []


def test_nobody_to_sell() -> None:
    with pytest.raises(IllegalPlayError, match="no seat holds two 3s"):
        buys([0, 1, 1, 1, 1, 1])


# -- §3.8 results ----------------------------------------------------------------------------------------------
def test_the_spec_example() -> None:
    assert hand_result([0, 1, 2, 3, 4, 5], STANDARD) == {
        "seat_points": [4, 2, 0, 0, -2, -4], "team_points": [2, 0], "chuan_san_hu": False}


def test_chuan_san_hu_is_worth_8() -> None:                        # Q "“串三户”获胜一方积8分"
    result = hand_result([0, 2, 4, 1, 3, 5], STANDARD)
    assert result == {"seat_points": [4, 0, 2, -2, 0, -4], "team_points": [8, 0], "chuan_san_hu": True}
    karamay = hand_result([1, 3, 5, 0, 2, 4], GoujiRules.parse("karamay"))   # K "堵三家得分不翻倍"
    assert karamay["team_points"] == [0, 3] and karamay["chuan_san_hu"] is True


def test_team_total_sum_keeps_negatives() -> None:                # B, D; Q "只记正分，不记负分"
    assert hand_result([0, 1, 2, 3, 4, 5], GoujiRules.parse("bisai"))["team_points"] == [9, 6]
    assert hand_result([5, 4, 3, 2, 1, 0], GoujiRules.parse({"team_total": "sum"}))["team_points"] == [-2, 2]


def test_karamay_events() -> None:                 # K "让对方不开点…获得1分，对方得-1分"; "烧牌成功得1分，对方得-1分"
    rules = GoujiRules.parse("karamay")
    base = hand_result([0, 1, 2, 3, 4, 5], rules)["seat_points"]
    result = hand_result([0, 1, 2, 3, 4, 5], rules, opened=[0, 1, 4], burns=[(2, 5, False), (2, 4, False)],
                         men=[(5, 0), (3, 1)])
    # pairs (0,3): 0 opened; (1,4): both; (2,5): neither. Burn of a teammate (2 of 4) and 闷 by a teammate (1 of 3)
    # score nothing (K "联邦之间烧牌互不得分", "被联邦定或憋3不计分")
    extra = [a - b for a, b in zip(result["seat_points"], base)]
    assert extra == [1 + 1, 0, 1, -1, 0, -1 - 1]


def test_activity_pairs_are_worth_2() -> None:      # H "没有开点的人－2分，同时对家+2分"
    result = hand_result([0, 1, 2, 3, 4, 5], GoujiRules.parse("activity"), opened=[3], men=[(0, 1)])
    assert result["seat_points"] == [4 - 2 - 1, 2 + 1, 0, 0 + 2, -2, -4]


def test_bisai_counts_plus_points_only() -> None:   # B 第十一条 "打点加1分…烧牌加1分…反烧加2分…鳖三加1分…二杀一加1分"
    result = hand_result([0, 1, 2, 3, 4, 5], GoujiRules.parse("bisai"), opened=[0],
                         burns=[(1, 0, False), (3, 2, True)], men=[(4, 5)], kills=[2])
    assert result["seat_points"] == [5 + 1, 4 + 1, 3 + 1, 2 + 2, 1, 0 + 1]
