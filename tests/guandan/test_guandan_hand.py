"""A 掼蛋 hand (guandan.md §3–§5): rounds, 接风, places, level gains with the A rule, 进贡/还贡/抗贡, rules."""
from __future__ import annotations

import pytest

from trainer.engine import IllegalPlayError, MalformedError, parse_cards
from trainer.guandan import (GuandanRules, HandState, Level, Reading, finish_kind, level_gain, return_reason,
                             tribute_plan)

STANDARD = GuandanRules()


def start(hands: list[str], leader: int = 0, level: str = "2", rules: GuandanRules = STANDARD) -> HandState:
    """A hand in play from short hands."""
    return HandState.start(rules, Level.parse(level), [parse_cards(hand) for hand in hands], leader)


def test_a_round_ends_when_the_others_pass_and_the_owner_leads() -> None:
    """[L] "After 3 consecutive passes, the last player to play leads next"."""
    state = start(["3S 4S", "5S 6S", "7S 8S", "9S 10S"])
    state.act(0, parse_cards("3S"))
    state.act(1, parse_cards("5S"))
    for seat in (2, 3, 0):
        state.act(seat, "pass")
    assert (state.leader, state.turn, state.round_no) == (1, 1, 2)
    assert state.rounds[0].winner == 1 and not state.rounds[0].jiefeng


def test_a_pass_does_not_bar_a_seat_from_the_rest_of_the_round() -> None:
    state = start(["3S 4S", "5S JS", "7S 8S", "9S 10S"])
    state.act(0, parse_cards("3S"))
    state.act(1, "pass")
    state.act(2, parse_cards("7S"))
    state.act(3, "pass")
    state.act(0, "pass")
    state.act(1, parse_cards("JS"))  # seat 1 passed before and plays again
    assert state.owner == 1 and state.turn == 2


def test_jiefeng_partner_leads_after_the_others_pass_a_finished_owner() -> None:
    """[W] "if the last player to have played emptied their hand, and both opponents pass, their teammate starts"."""
    state = start(["3S", "5S 6S", "7S 8S", "9S 10S"])
    state.act(0, parse_cards("3S"))
    assert state.places == (0,)
    state.act(1, "pass")
    state.act(2, "pass")  # the partner passes too: every seat still in must pass
    state.act(3, "pass")
    assert state.leader == 2 and state.rounds[-1].jiefeng and state.rounds[-1].winner == 0


def test_no_jiefeng_when_the_last_cards_are_beaten() -> None:
    """If X's last cards are beaten, the round goes on and X is skipped."""
    state = start(["3S", "5S 6S", "7S 8S", "9S 10S"])
    state.act(0, parse_cards("3S"))
    state.act(1, parse_cards("5S"))
    state.act(2, "pass")
    state.act(3, "pass")
    assert state.turn == 1 and state.leader == 1 and not state.rounds[-1].jiefeng  # seat 0 skipped


def test_the_hand_ends_when_a_team_is_out_first_and_second() -> None:
    """双下: both of a team 1st and 2nd; the hand ends at once, mid-round."""
    state = start(["3S", "5S 6S", "7S", "9S 10S"])
    state.act(0, parse_cards("3S"))
    for seat in (1, 2, 3):
        state.act(seat, "pass")
    state.act(2, parse_cards("7S"))
    assert state.over and state.places == (0, 2) and state.turn is None
    assert finish_kind(state.places) == "1-2"


def test_the_hand_ends_when_three_are_out() -> None:
    state = start(["3S", "4S", "5S 8S", "6S 9S"])
    state.act(0, parse_cards("3S"))
    state.act(1, parse_cards("4S"))
    state.act(2, parse_cards("5S"))
    state.act(3, parse_cards("6S"))
    state.act(2, "pass")
    state.act(3, parse_cards("9S"))
    assert state.over and state.places == (0, 1, 3)
    assert finish_kind(state.places) == "1-4"


@pytest.mark.parametrize(("seat", "action", "message"), [
    (1, parse_cards("5S"), "seat 0's turn"),
    (0, "pass", "leader must play"),
    (0, parse_cards("AS"), "does not hold"),
    (0, parse_cards("3S 4S"), "no 牌型"),
])
def test_illegal_actions_say_why(seat: int, action: object, message: str) -> None:
    state = start(["3S 4S", "5S 6S", "7S 8S", "9S 10S"])
    with pytest.raises(IllegalPlayError, match=message):
        state.act(seat, action)  # type: ignore[arg-type]


def test_a_follow_that_does_not_beat_is_refused() -> None:
    state = start(["KS KD", "5S 5D 6S", "7S 8S", "9S 10S"])
    state.act(0, parse_cards("KS KD"))
    with pytest.raises(IllegalPlayError, match=r"5S 5D \(pair of 5\) does not beat pair of K"):
        state.act(1, parse_cards("5S 5D"))


def test_a_declared_reading_is_kept_and_binds_the_follow() -> None:
    """55 88 + wild declared 555 88 can be beaten by 666 33; the undeclared one reads 888 55 (standard)."""
    hands = ["5S 5D 8S 8D 2H", "6S 6D 6C 3S 3D", "7S", "9S"]
    state = start(hands)
    state.act(0, parse_cards("5S 5D 8S 8D 2H"), Reading("full_house", 5, 5))
    assert state.act(1, parse_cards("6S 6D 6C 3S 3D")) == Reading("full_house", 6, 5)
    state = start(hands)
    assert state.act(0, parse_cards("5S 5D 8S 8D 2H")) == Reading("full_house", 8, 5)
    with pytest.raises(IllegalPlayError, match="does not beat"):
        state.act(1, parse_cards("6S 6D 6C 3S 3D"))


def test_undo_takes_back_plays_passes_and_round_ends() -> None:
    state = start(["3S", "5S 6S", "7S 8S", "9S 10S"])
    before = (state.hand(0), state.sizes, state.places, state.turn)
    state.act(0, parse_cards("3S"))
    for seat in (1, 2, 3):
        state.act(seat, "pass")
    assert state.leader == 2
    for _ in range(4):
        state.undo()
    assert (state.hand(0), state.sizes, state.places, state.turn) == before
    assert state.rounds == () and state.history == [] and state.top is None
    with pytest.raises(IndexError):
        state.undo()


# --- levels (§3.3), the seed's 第四条 -----------------------------------------------------------------


@pytest.mark.parametrize(("places", "kind", "gain"), [
    ([0, 2], "1-2", 3),  # [S] 双下 升3级
    ([0, 1, 2], "1-3", 2),  # [S] 对手有一家是下游 升2级
    ([0, 1, 3], "1-4", 1),  # [S] 赢家自己对门是下游 升1级
    ([1, 0, 3], "1-3", 2),
])
def test_level_gains(places: list[int], kind: str, gain: int) -> None:
    result = level_gain(places, (5, 5), 0)
    assert (result.kind, result.gain, result.winner) == (kind, gain, places[0] % 2)
    assert result.levels[places[0] % 2] == 5 + gain and result.levels[1 - places[0] % 2] == 5


@pytest.mark.parametrize(("start_level", "gain_places", "expected"), [
    (13, [0, 1, 2], 14),  # K + 2 = A
    (12, [0, 2], 14),  # Q + 3 = A
    (13, [0, 2], 14),  # stops at A
])
def test_levels_stop_at_ace(start_level: int, gain_places: list[int], expected: int) -> None:
    assert level_gain(gain_places, (start_level, 2), 0).levels[0] == expected


@pytest.mark.parametrize(("places", "a_result", "over"), [
    ([0, 2], "win", True),  # [S] 打家必须有一家是上游，且对家不是下游
    ([2, 1, 0], "win", True),
    ([0, 1, 3], "fail", False),  # the 上游's partner is 下游
    ([1, 3], "fail", False),  # a loss
])
def test_the_a_rule(places: list[int], a_result: str, over: bool) -> None:
    result = level_gain(places, (14, 9), 0)
    assert (result.a_result, result.match_over) == (a_result, over)
    assert result.a_failures == ((0, 0) if over else (1, 0))
    assert (result.next_level is None) is over


def test_the_third_failed_a_sends_the_team_back_to_2() -> None:
    """[S] 总计三次A打不过去，退到2重打."""
    result = level_gain([1, 3], (14, 9), 0, (2, 0))
    assert (result.a_result, result.levels, result.a_failures) == ("reset", (2, 12), (0, 0))
    assert (result.next_level, result.next_dajia) == (12, 1)
    own = level_gain([0, 1, 3], (14, 9), 0, (2, 0))
    assert (own.levels, own.next_level, own.next_dajia) == ((2, 9), 2, 0)


def test_a_limit_zero_never_falls_back() -> None:
    rules = GuandanRules.parse({"a_limit": 0})
    result = level_gain([1, 3], (14, 9), 0, (5, 0), rules)
    assert (result.a_result, result.levels, result.a_failures) == ("fail", (14, 12), (6, 0))


def test_a_team_at_a_winning_the_others_hand_gains_nothing_and_becomes_dajia() -> None:
    result = level_gain([0, 2], (14, 9), 1)
    assert (result.a_result, result.levels, result.next_level, result.next_dajia) == (None, (14, 9), 14, 0)
    assert not result.match_over


@pytest.mark.parametrize("places", [[0, 1], [0, 2, 1], [0, 0, 1], [0], [0, 1, 2, 3], [0, 5, 1]])
def test_impossible_finish_orders_are_malformed(places: list[int]) -> None:
    with pytest.raises(MalformedError):
        level_gain(places, (2, 2), None)


# --- 进贡 / 还贡 / 抗贡 (§4) ------------------------------------------------------------------------


def test_single_tribute_in_a_1_4_goes_to_the_partner() -> None:
    """The spec's record: previous 0, 3, 1 (a 1-4): seat 2 pays its partner seat 0 its BJ, and leads."""
    hands = [[], [], parse_cards("BJ 9S 4C"), []]
    plan = tribute_plan([0, 3, 1], hands, Level.parse("5"))
    assert plan.kind == "single" and plan.leader == 2
    assert [(t.payer, t.receiver, t.rank, [str(c) for c in t.cards]) for t in plan.tributes] == [(2, 0, 16, ["BJ"])]


def test_tribute_excludes_the_wild_but_not_other_level_cards() -> None:
    """[N] 最大的一张牌（红心级牌除外）: at 5, a 5H stays; 5S is due above the A."""
    hands = [[], [], [], parse_cards("5H 5S 5D AS")]
    plan = tribute_plan([0, 1, 2], hands, Level.parse("5"))
    assert [str(card) for card in plan.tributes[0].cards] == ["5S", "5D"] and plan.tributes[0].receiver == 0


def test_double_tribute_higher_card_to_the_first() -> None:
    """[N] 上游选择牌点较大的牌，搭档选择牌点较小的牌; 首圈由进贡给上游者领出."""
    hands = [[], parse_cards("KS 3D"), [], parse_cards("AS 4D")]
    plan = tribute_plan([0, 2], hands, Level.parse("2"))
    assert plan.kind == "double" and plan.leader == 3
    assert [(t.payer, t.receiver) for t in plan.tributes] == [(3, 0), (1, 2)]


def test_double_tribute_equal_cards_go_counter_clockwise() -> None:
    """按顺时针方向进贡 ([E] 贡左还右): the 上游's 下家 pays the 上游."""
    hands = [[], parse_cards("AS 3D"), [], parse_cards("AD 4D")]
    plan = tribute_plan([2, 0], hands, Level.parse("2"))
    assert [(t.payer, t.receiver) for t in plan.tributes] == [(3, 2), (1, 0)] and plan.leader == 3


@pytest.mark.parametrize(("places", "hands", "resist"), [
    ([0, 1, 2], [[], [], [], parse_cards("BJ BJ 3S")], (3,)),  # the single payer holds both
    ([0, 2], [[], parse_cards("BJ 3S"), [], parse_cards("BJ 4S")], (1, 3)),  # the two payers between them
])
def test_kanggong_when_the_payers_hold_both_big_jokers(places: list[int], hands: list, resist: tuple) -> None:
    """[N] 抓到两个大王，则抗贡; 首圈由上游领出牌."""
    plan = tribute_plan(places, hands, Level.parse("2"))
    assert (plan.kind, plan.tributes, plan.leader, plan.resist) == ("resist", (), places[0], resist)


def test_first_hand_has_no_tribute() -> None:
    assert tribute_plan(None, [[], [], [], []], Level.parse("2")).kind == "none"


def test_a_payer_with_only_wilds_is_malformed() -> None:
    with pytest.raises(MalformedError):
        tribute_plan([0, 1, 2], [[], [], [], parse_cards("2H")], Level.parse("2"))


@pytest.mark.parametrize(("hand", "card", "level", "rules", "expected"), [
    ("BJ 4C KS", "4C", "5", "standard", (True, "ok")),
    ("BJ 4C KS", "KS", "5", "standard", (False, "over_ten")),
    ("BJ 10C KS", "10C", "5", "standard", (True, "ok")),
    ("BJ 10C KS 4D", "10C", "10", "standard", (False, "over_ten")),  # 打到10则不超过9: a level 10 is not ≤ 10
    ("BJ QC KS", "QC", "5", "standard", (True, "lowest")),
    ("BJ QC KS", "KS", "5", "standard", (False, "not_lowest")),
    ("BJ 4C KS", "KS", "5", "pagat", (True, "ok")),
    ("BJ 4C KS", "9S", "5", "standard", (False, "not_in_hand")),
])
def test_return_card(hand: str, card: str, level: str, rules: str, expected: tuple[bool, str]) -> None:
    cards = parse_cards(hand)
    assert return_reason(cards, parse_cards(card)[0], Level.parse(level), GuandanRules.parse(rules)) == expected


# --- rules (§5) -------------------------------------------------------------------------------------


def test_presets() -> None:
    assert GuandanRules.parse("standard") == GuandanRules()
    assert GuandanRules.parse("jiangsu-club").wild_reading == "lowest"
    assert GuandanRules.parse("pagat").return_card == "any"
    assert GuandanRules.parse({"preset": "pagat", "wild_reading": "lowest"}).to_json() == \
        {"preset": "pagat", "wild_reading": "lowest"}
    assert GuandanRules.parse({"preset": "jiangsu-club"}).to_json() == "jiangsu-club"


@pytest.mark.parametrize(("spec", "field"), [
    ("tianjin", "tianjin"), ({"wild": "lowest"}, "wild"), ({"wild_reading": "middle"}, "wild_reading"),
    ({"a_limit": -1}, "a_limit"), ({"a_limit": "3"}, "a_limit"), ({"a_limit": True}, "a_limit"),
])
def test_bad_rules_name_the_field(spec: object, field: str) -> None:
    with pytest.raises(MalformedError, match=field):
        GuandanRules.parse(spec)  # type: ignore[arg-type]
