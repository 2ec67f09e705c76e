"""Rounds and turns of a 够级 hand (gouji.md §3.4–3.7): walks, 够级 mode, yields, burns, 闷, places, 开点."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from trainer.engine import IllegalPlayError, parse_cards
from trainer.gouji import GoujiRules, HandState

FILLER = "3C 4C 4D"
"""Low cards every seat keeps, so nobody finishes or is left with only 3s by accident."""


def start(hands: Sequence[str], leader: int, filler: str = FILLER, **options: Any) -> HandState:
    """A hand in play from short hands (each with `filler` added), natural opening off unless asked."""
    rules = GoujiRules.parse({"natural_open": False, **options})
    return HandState.start(rules, [parse_cards(f"{hand} {filler}") for hand in hands], leader)


def run(state: HandState, *actions: tuple[int, str]) -> None:
    for seat, action in actions:
        state.act(seat, action if action in ("pass", "yield") else parse_cards(action))


# -- the worked example of gouji.md §5 ----------------------------------------------------------------------------
def example() -> HandState:
    return start(["KH", "JS JH KS KD 2C 2D", "5S 5D", "", "8H 8C AH AS", ""], leader=2)


def test_round_one_of_the_record_example() -> None:
    state = example()
    run(state, (2, "5S 5D"), (3, "pass"), (4, "8H 8C"), (5, "pass"), (0, "pass"), (1, "JS JH"))
    # seat 3 has passed and is not seat 1's 对头: only 2 and 4 act (J "过牌者除“对头牌”外，这一轮再无权发牌")
    assert state.turn.actor == 2
    run(state, (2, "pass"))
    assert state.turn.actor == 4 and state.turn.mode == "normal"
    run(state, (4, "pass"))
    assert state.turn.leading and state.turn.actor == 1 and state.round_no == 2
    assert [(r.leader, r.winner, r.actions) for r in state.rounds] == [(2, 1, 8)]


def test_round_two_of_the_record_example() -> None:
    state = example()
    run(state, (2, "5S 5D"), (3, "pass"), (4, "8H 8C"), (5, "pass"), (0, "pass"), (1, "JS JH"), (2, "pass"),
        (4, "pass"), (1, "KS KD"))
    # KK is 够级: only 对头 4 answers (J "除“烧牌”或“无头”外，只有对头才有资格上牌"), the rest may burn first
    assert state.turn.actor == 4 and state.turn.mode == "gouji" and state.turn.may_burn == (0, 2, 3, 5)
    with pytest.raises(IllegalPlayError, match="only 对头 seat 4 may answer a 够级 play; declining"):
        state.act(5, "pass")
    run(state, (4, "AH AS"), (1, "2C 2D"))
    assert state.turn.actor == 4
    run(state, (4, "pass"))           # K "活牌后由对门负责扣牌": the 对头's pass ends the round
    assert state.turn.leading and state.turn.actor == 1
    assert not state.has_opened(1)    # 22 is not original: no 开点 (B "贴2的不算开点", H)


def test_an_original_gouji_play_left_standing_opens() -> None:   # H "无人接牌，使得自己获得出牌权，则该玩家开点"
    state = start(["", "KS KD", "", "", "", ""], leader=1)
    run(state, (1, "KS KD"), (4, "pass"))
    assert state.opened_seats() == [1]


def test_the_leader_must_play_and_only_the_leader_leads() -> None:
    state = example()
    with pytest.raises(IllegalPlayError, match="the leader must play"):
        state.act(2, "pass")
    with pytest.raises(IllegalPlayError, match="seat 2 leads this round"):
        state.act(3, parse_cards("4C"))


def test_out_of_turn_in_a_normal_walk() -> None:
    state = example()
    run(state, (2, "5S 5D"))
    with pytest.raises(IllegalPlayError, match="it is seat 3's turn"):
        state.act(4, parse_cards("8H 8C"))


def test_a_play_must_beat_the_top() -> None:
    state = example()
    run(state, (2, "5S 5D"), (3, "pass"))
    with pytest.raises(IllegalPlayError, match="4♣ 4♦ does not beat 5♠ 5♦"):
        state.act(4, parse_cards("4C 4D"))
    with pytest.raises(IllegalPlayError, match="does not hold 9♠"):
        state.act(4, parse_cards("9S 9S"))


# -- 让牌 (J "持牌人对上两家过牌的对头牌…可声明让牌，即让下两家先上牌") ----------------------------------------------------
def test_yield_then_nobody_beats_and_the_yielder_acts_again() -> None:
    state = start(["", "", "5S 5D", "", "", "6S 6D"], leader=2)
    run(state, (2, "5S 5D"), (3, "pass"), (4, "pass"))
    assert state.turn.actor == 5 and state.turn.may_yield
    run(state, (5, "yield"))
    assert state.turn.actor == 0
    run(state, (0, "pass"), (1, "pass"))
    # "如下家均声明过牌，再由持牌人确定上牌或扣牌": the yielder acts again, beat or pass, no second yield
    assert state.turn.actor == 5 and not state.turn.may_yield
    with pytest.raises(IllegalPlayError, match="acts again"):
        state.act(5, "yield")
    run(state, (5, "6S 6D"))
    # a new walk from 5: 0 and 1 have passed, 2 is 5's 对头 and may yield (0 and 1 passed)
    assert state.turn.actor == 2 and state.owner == 5 and state.turn.may_yield


def test_yield_then_a_beat_counts_the_yielder_as_passed() -> None:   # J "对让牌人顺的牌，唯有对头才有上牌权"
    state = start(["6S 6D", "", "5S 5D", "", "", ""], leader=2)
    run(state, (2, "5S 5D"), (3, "pass"), (4, "pass"), (5, "yield"), (0, "6S 6D"))
    assert state.has_passed(5)
    # walk from 0: 1, 2, 对头 3 (passed but 对头), 4 passed, 5 passed (the yielder)
    run(state, (1, "pass"), (2, "pass"), (3, "pass"))
    assert state.turn.leading and state.turn.actor == 0


def test_yield_needs_the_seats_between_to_have_passed() -> None:
    state = start(["", "", "5S 5D", "6S 6D", "", ""], leader=2)
    run(state, (2, "5S 5D"), (3, "6S 6D"), (4, "pass"))
    with pytest.raises(IllegalPlayError, match="only the top's 对头 may yield"):
        state.act(5, "yield")
    run(state, (5, "pass"))
    assert state.turn.actor == 0 and state.turn.may_yield   # 0 is 3's 对头; 4 and 5 passed


def test_no_yield_on_a_gouji_play() -> None:
    state = start(["", "", "KS KD", "", "", ""], leader=2)
    run(state, (2, "KS KD"))
    with pytest.raises(IllegalPlayError, match="no yielding"):
        state.act(5, "yield")


# -- 烧牌 (J "烧牌的条件是：首先用能盖住所发够级牌的牌将其灭掉，然后每次所发牌中必须挂一小花或大花…") --------------------------
def test_a_burn_is_made_before_the_duitou_and_starts_a_run() -> None:
    state = start(["AS AH SJ 9S", "KS KD", "", "", "", ""], leader=1, filler="3C")
    run(state, (1, "KS KD"), (0, "AS AH"))
    assert [(b.by, b.of, b.round, b.counter, b.success) for b in state.burns] == [(0, 1, 1, False, None)]
    assert state.runs[0] and state.turn.actor == 3      # the burner's 对头 answers now
    run(state, (3, "pass"))
    with pytest.raises(IllegalPlayError, match="every play but the last holds a joker"):
        state.act(0, parse_cards("9S"))
    run(state, (0, "SJ 9S"), (3, "pass"), (0, "3C"))   # out with the run intact: 烧牌成功
    assert state.burns[0].success is True and state.out[0].place == 1


def test_a_burn_beaten_by_the_burners_duitou_is_void() -> None:    # Q "烧牌者被对头杀死视为无效烧牌"
    state = start(["AS AH SJ 9S", "KS KD", "", "2S 2D 5S", "", ""], leader=1, filler="3C")
    run(state, (1, "KS KD"), (0, "AS AH"), (3, "2S 2D"))
    assert state.burns[0].success is False and not state.runs[0]
    run(state, (0, "pass"), (3, "5S"), (4, "pass"), (5, "pass"), (0, "9S"))   # seat 0 plays on freely now
    assert state.owner == 0


def test_a_burn_needs_jokers_for_the_rest() -> None:
    state = start(["AS AH SJ 9S 7S", "KS KD", "", "", "", ""], leader=1)
    with pytest.raises(IllegalPlayError, match="only 对头 seat 4 may answer a 够级 play; as a burn it needs 3 "
                                               "jokers for 9 7 4 3, holds 1"):
        run(state, (1, "KS KD"), (0, "AS AH"))


def test_a_seat_that_passed_may_not_burn() -> None:                # B "过牌不得烧牌"
    state = start(["", "5S 5D", "AS AH", "KS KD", "", ""], leader=1, filler="3C 4C")
    run(state, (1, "5S 5D"), (2, "pass"), (3, "KS KD"))
    assert state.turn.actor == 0 and state.turn.may_burn == (1, 4, 5)
    with pytest.raises(IllegalPlayError, match="a seat that passed this round may not burn"):
        state.act(2, parse_cards("AS AH"))


def test_passed_seat_is_not_offered_a_burn() -> None:
    state = start(["AS AH", "5S 5D", "6S 6D", "KS KD", "", ""], leader=1)
    run(state, (1, "5S 5D"), (2, "6S 6D"), (3, "KS KD"))
    assert state.turn.actor == 0 and state.turn.may_burn == (1, 2, 4, 5)
    state.undo()
    run(state, (3, "pass"), (4, "pass"), (5, "pass"), (0, "pass"), (1, "pass"))
    assert state.turn.leading


def test_counter_burn() -> None:                                   # B "反烧加2分": burning a play of a burn run
    state = start(["AS AH SJ", "KS KD", "SJ SJ BJ", "", "", ""], leader=1, filler="3C")
    run(state, (1, "KS KD"), (0, "AS AH"), (2, "SJ SJ"))
    assert [(b.by, b.of, b.counter) for b in state.burns] == [(0, 1, False), (2, 0, True)]
    assert state.burns[0].success is False and state.burns[1].success is None


# -- 憋3 / 闷, places, end -----------------------------------------------------------------------------------------
def test_a_play_leaving_only_threes_beaten_is_men_and_last() -> None:   # B "手中除了3以外的最后的一手牌被封杀后即为憋3"
    state = start(["3S 3H 9S", "", "", "", "", "10S"], leader=0, filler="")
    run(state, (0, "9S"), (1, "pass"), (2, "pass"), (3, "pass"), (4, "pass"), (5, "10S"))
    assert state.out[0].how == "men" and state.out[0].place == 6          # H "第一个被闷的人…“大落”"
    assert [(m.seat, m.by) for m in state.men] == [(0, 5)]
    assert state.out[5].place == 1 and state.hand_size(0) == 2            # the 闷 seat keeps its 3s


def test_threes_are_led_as_the_whole_hand() -> None:              # T "最后一手牌必须是3…不是最后一手牌时不许出3"
    state = start(["3S 3H 9S", "", "", "", "", ""], leader=0, filler="5C")
    with pytest.raises(IllegalPlayError, match="3s go out last"):
        state.act(0, parse_cards("3S 3H"))
    state = start(["3S 3H 9S", "", "", "", "", ""], leader=0, filler="")
    run(state, (0, "9S"), (1, "pass"), (2, "pass"), (3, "pass"), (4, "pass"), (5, "pass"), (0, "3S 3H"))
    assert state.out[0].how == "finished" and state.out[0].place == 1


def test_second_men_is_er_luo() -> None:             # H "第二个被闷的人将成为本局牌的“二落”"
    state = HandState.start(GoujiRules.parse({"natural_open": False, "luanchan": "none"}), [parse_cards(t) for t in ["3S 9S", "3H 10H", "JS 5C 5D", "5H 5C",
                                                                  "5S 5D", "6S 6D"]], 0)
    run(state, (0, "9S"), (1, "10H"), (2, "JS"))
    assert [(m.seat, m.by) for m in state.men] == [(0, 1), (1, 2)]
    assert (state.out[0], state.out[1]) == ((6, "men"), (5, "men"))
    assert state.places == (None, None, None, None, 1, 0)


def test_a_play_leaving_threes_that_stands_leads_them_out() -> None:
    state = start(["3S 9S", "", "", "", "", ""], leader=0, filler="")
    run(state, (0, "9S"), (1, "pass"), (2, "pass"), (3, "pass"), (4, "pass"), (5, "pass"), (0, "3S"))
    assert state.out[0] == (1, "finished") and state.men == ()


def test_end_when_one_team_is_left_and_middle_places_by_cards_left() -> None:
    state = start(["5S", "", "6S", "", "7S", ""], leader=0, filler="", luanchan="none")
    run(state, (0, "5S"), (1, "pass"), (2, "6S"))
    assert state.turn.actor == 3                        # seat 0 is 头科, seat 2 二科
    run(state, (3, "pass"), (4, "7S"))
    assert state.over and state.turn.actor is None
    # seats 1, 3, 5 hold 3, 3, 3 cards: lower seat first (G "依次类推")
    assert state.places == (0, 2, 4, 1, 3, 5)


def test_last_one_plays_on() -> None:
    state = start(["5S", "", "6S", "", "7S", ""], leader=0, filler="", luanchan="none", end="last_one")
    run(state, (0, "5S"), (1, "pass"), (2, "6S"), (3, "pass"), (4, "7S"))
    assert not state.over and state.turn.actor == 5


def test_jiefeng_and_luanchan() -> None:          # D "下家接风后将获得发牌权"; B 第十条 "其余四人…按顺序发牌"
    rules = GoujiRules.parse({"natural_open": False})
    state = HandState.start(rules, [parse_cards(t) for t in
                                    ["KH", "AH", "5S 5D 3C 4C", "3C 4C", "6S 6D 3C 4C", "KS KD 3C 4C"]], 0)
    run(state, (0, "KH"), (1, "AH"))
    assert state.active == 4 and state.turn.mode == "luanchan"
    run(state, (2, "pass"), (3, "pass"), (4, "pass"), (5, "pass"))
    assert state.turn.leading and state.turn.actor == 2              # 1 is out: 接风 by the next seat
    run(state, (2, "5S 5D"), (3, "pass"), (4, "6S 6D"))
    assert state.turn.actor == 5
    run(state, (5, "KS KD"))                          # a 够级 play in 乱缠: answered by the walk, no burns
    assert state.turn.actor == 2 and state.turn.mode == "luanchan" and state.turn.may_burn == ()
    run(state, (2, "pass"))
    assert state.turn.actor == 3                      # in 乱缠 a pass declines only the current top


def test_kaidian_closes_once_there_is_a_touke() -> None:          # H "若一局中已经产生头科，则不能再开点"
    hands = [parse_cards(t) for t in ["5S 5D", "KS KD 4C", "4D", "4H", "4S", "4C"]]
    for closes, opened in (("touke", []), ("erke", [1])):
        rules = GoujiRules.parse({"natural_open": False, "kaidian_closes": closes})
        state = HandState.start(rules, hands, 0)
        run(state, (0, "5S 5D"), (1, "KS KD"), (4, "pass"))
        assert state.opened_seats() == opened


def test_natural_opening() -> None:                 # H "手中没有任意够级牌，则可以判定该人自动开点"
    hands = [parse_cards(t) for t in ["KS", "KS KD", "10S 10S 10H 10H", "10S 10S 10H 10H 10D",
                                      "JS JH JD", "AS"]]
    state = HandState.start(GoujiRules(), hands, 0)
    assert state.opened_seats() == [0, 2, 4, 5]


def test_two_kill_one_event() -> None:
    state = start(["", "BJ", "", "", "BJ BJ", ""], leader=1, two_kill_one=True)
    run(state, (1, "BJ"), (4, "BJ BJ"))
    assert [(k.by, k.of) for k in state.kills] == [(4, 1)]


def test_undo_restores_everything() -> None:
    state = example()
    before = dict(state.__dict__), [list(f) for f in state.faces]
    run(state, (2, "5S 5D"), (3, "pass"), (4, "8H 8C"))
    for _ in range(3):
        state.undo()
    assert state.__dict__ == before[0] and state.faces == before[1]


def test_a_gouji_play_whose_duitou_is_out_is_answered_by_the_walk() -> None:   # J "除“烧牌”或“无头”外"
    rules = GoujiRules.parse({"natural_open": False})
    hands = [parse_cards(t) for t in ["KS KD 5S 6D 3C", "AS AH 3C", "3C 4C", "9S", "3C 4D 6C", "3C 4H"]]
    state = HandState.start(rules, hands, 3)
    run(state, (3, "9S"), (4, "pass"), (5, "pass"), (0, "pass"), (1, "pass"), (2, "pass"))
    assert state.out[3] == (1, "finished") and state.turn.leading and state.turn.actor == 4   # 接风
    run(state, (4, "4D"), (5, "pass"), (0, "5S"), (1, "pass"), (2, "pass"), (4, "pass"))
    assert state.turn.leading and state.turn.actor == 0
    run(state, (0, "KS KD"))
    assert state.turn.mode == "normal" and state.turn.actor == 1 and state.turn.may_burn == ()   # 无头
    run(state, (1, "AS AH"))
    assert state.turn.mode == "gouji" and state.turn.actor == 4 and state.turn.may_burn == (0, 2, 5)


def test_luanchan_counts_the_seats_left_a_men_seat_included() -> None:
    """B 第十条 "四人乱缠。头科、二科产生后…" is read by its title, four seats left (decisions.md, issue 21): a
    头科 and a 闷 seat leave four, and 乱缠 starts without a 二科; a 头科 alone starts it only under `five`."""
    hands = ["3S 9S", "10H", "5S 5D 3C", "6S 6D 3C", "7S 7D 3C", "8S 8D 3C"]
    state = HandState.start(GoujiRules.parse({"natural_open": False}), [parse_cards(t) for t in hands], 0)
    run(state, (0, "9S"), (1, "10H"))               # 10H finishes seat 1 (头科) and makes seat 0 闷 (大落)
    assert state.places == (1, None, None, None, None, 0) and state.active == 4
    assert state.turn.mode == "luanchan" and state.turn.actor == 2
    for luanchan, mode in (("four", "normal"), ("five", "luanchan")):
        state = HandState.start(GoujiRules.parse({"natural_open": False, "luanchan": luanchan}),
                                [parse_cards(t) for t in ["9S 4S 3S", "10H", *hands[2:]]], 0)
        run(state, (0, "9S"), (1, "10H"))           # seat 1 is 头科, five seats are left
        assert state.active == 5 and state.turn.mode == mode


def test_under_activity_a_seat_that_has_not_opened_cannot_be_touke() -> None:
    """H "如果某人未开点，则该人不能走头科": seat 0 goes out first without opening and is 二科; seat 1 opens later
    (opening stays possible: no 头科 yet, H "若一局中已经产生头科，则不能再开点") and is 头科."""
    hands = ["9S 3S", "KS KD 3H", "3C 4C 4D", "3C 4C 4D", "3C 4C 4D", "3C 4C 4D"]
    actions = [(0, "9S"), (1, "pass"), (2, "pass"), (3, "pass"), (4, "pass"), (5, "pass"), (0, "3S"),
               (1, "pass"), (2, "pass"), (3, "pass"), (4, "pass"), (5, "pass"), (1, "KS KD"), (4, "pass")]
    places = {}
    for preset in ("activity", "standard"):
        state = HandState.start(GoujiRules.parse({"preset": preset, "natural_open": False}),
                                [parse_cards(t) for t in hands], 0)
        run(state, *actions)
        places[preset] = (state.places[:2], state.opened_seats())
        if preset == "activity":
            run(state, (1, "3H"))
            assert state.places[:2] == (1, 0)
    assert places == {"activity": ((None, 0), [1]), "standard": ((0, None), [])}
    assert GoujiRules.parse("activity").touke_needs_kaidian and not GoujiRules().touke_needs_kaidian


def test_touke_left_free_goes_to_an_opener_at_the_end() -> None:
    """With `touke_needs_kaidian`, when the hand ends with 头科 still free, the opener left takes it before a
    seat with fewer cards; the other places left go by cards left, as always."""
    hands = ["8C", "KS KD 4C 5C 5D", "6C", "4D", "7C", "4H 4S 4S"]
    rules = GoujiRules.parse({"preset": "activity", "biesan": False, "natural_open": False, "luanchan": "none"})
    state = HandState.start(rules, [parse_cards(t) for t in hands], 1)
    run(state, (1, "KS KD"), (4, "pass"), (1, "4C"), (2, "6C"))   # seat 1 opens; seat 2 goes out unopened
    assert state.opened_seats() == [1] and state.places[:2] == (None, 2)
    run(state, (3, "pass"), (4, "7C"), (5, "pass"), (0, "8C"))    # team 0 is out: seats 1 (2 cards), 3 (1), 5 (3)
    assert state.over and state.places == (1, 2, 4, 0, 3, 5)
