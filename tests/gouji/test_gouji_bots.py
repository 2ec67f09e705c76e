"""够级 bots: the heuristic plays like people (lowest set first, jokers kept for 够级 plays, answers as 对头,
burns when it can go out, avoids 憋3, leaves teammates' plays alone); generated deals verify and do not
depend on `--jobs`; heuristic teams beat random teams."""
from __future__ import annotations

import json
import random

from trainer.bots.generate import record_text
from trainer.cli import main
from trainer.engine import parse_cards
from trainer.gouji import GoujiRules, HandState
from trainer.gouji.bots import HeuristicBot, RandomBot, burn_order, record_hand
from trainer.gouji.generate import HANDS_PER_GAME, generate_gouji_records
from trainer.gouji.records import parse_gouji_record, replay, result_of, verify_summary

FILLER = "4S 4H 5S 5H 6S 6H 7S 7H 8S 8H"
"""Cards that keep a hand above the end-game size, two of each low rank."""


def table(hands: dict[int, str], leader: int = 0, rules: GoujiRules | None = None) -> HandState:
    """A hand in play from a few hands by seat (others hold one 3 and filler)."""
    texts = [hands.get(seat, f"3D {FILLER}") for seat in range(6)]
    return HandState.start(rules or GoujiRules(), [parse_cards(text) for text in texts], leader)


def bot(seat: int) -> HeuristicBot:
    return HeuristicBot(seat, random.Random(0))


def names(cards) -> list[str]:
    return sorted(str(card) for card in cards)


def test_leads_its_lowest_set_first():
    state = table({0: "3S 9H 9S KH 5S 5D " + FILLER.replace("4S 4H ", "").replace("5S 5H ", "")})
    assert names(bot(0).act(state)) == ["5D", "5S"]


def test_the_last_set_before_the_threes_carries_its_joker():
    """Avoid 憋3 (K "出3前一把牌被打称为被定或憋3"): the last set goes out with a BJ, which nothing beats."""
    state = table({0: "3S 3H 9S 9H BJ"})
    assert names(bot(0).act(state)) == ["9H", "9S", "BJ"]


def test_does_not_top_a_teammate():
    state = table({2: f"3S 5S 5D {FILLER}", 4: f"3C 9S 9H {FILLER}"}, leader=2)
    state.act(2, parse_cards("5S 5D"))
    state.act(3, "pass")
    assert bot(4).act(state) == "pass"


def test_keeps_jokers_for_gouji_plays_but_answers_as_duitou():
    """Outside 够级 mode a joker is not spent on 99; as 对头 of a KK (够级) it answers with its jokers."""
    state = table({1: f"3S 9S 9H {FILLER}", 2: f"3S SJ SJ {FILLER}"}, leader=1)
    state.act(1, parse_cards("9S 9H"))
    assert bot(2).act(state) == "pass"
    state = table({0: f"3S KS KH {FILLER}", 3: f"3S SJ SJ {FILLER}"}, leader=0)
    state.act(0, parse_cards("KS KH"))
    assert state.turn.mode == "gouji" and state.turn.actor == 3
    assert names(bot(3).act(state)) == ["SJ", "SJ"]


def test_burns_an_opponents_gouji_play_when_it_can_go_out_behind_it():
    """J "烧牌的条件…每次所发牌中必须挂一小花或大花": AA over KK leaves BJ and a 3, which can go out."""
    state = table({0: f"3S KS KH {FILLER}", 1: "3H AS AH BJ"}, leader=0)
    state.act(0, parse_cards("KS KH"))
    assert 1 in burn_order(state)
    assert names(bot(1).burn(state)) == ["AH", "AS"]
    assert state.burns[-1].by == 1 and state.runs[1]


def test_burns_a_teammate_only_to_go_out_behind_it():
    """X "你的联邦只需烧你一套牌即可争到对手前面": a teammate burns to go out (AA leaves BJ and a 3); with more
    ranks left it does not, while no opponent is close to going out; without jokers nobody can burn."""
    state = table({0: f"3S KS KH {FILLER}", 2: "3H AS AH BJ", 1: f"3C AC AD {FILLER}"}, leader=0)
    state.act(0, parse_cards("KS KH"))
    assert bot(1).burn(state) is None
    assert names(bot(2).burn(state)) == ["AH", "AS"] and state.burns[-1].by == 2
    state = table({0: f"3S KS KH {FILLER}", 2: "3H AS AH BJ SJ 9S 9H 8S 8H"}, leader=0)
    state.act(0, parse_cards("KS KH"))
    assert bot(2).burn(state) is None


def test_a_burn_that_would_leave_only_threes_needs_a_big_joker():
    """J allows the burn that leaves one set (只剩一手牌), but a beaten play before the 3s is 闷 (憋3)."""
    state = table({0: f"3S KS KH {FILLER}", 1: "3H 3C AS AH"}, leader=0)
    state.act(0, parse_cards("KS KH"))
    assert bot(1).burn(state) is None
    state = table({0: f"3S KS KH {FILLER}", 1: "3H 3C AS BJ"}, leader=0)
    state.act(0, parse_cards("KS KH"))
    assert names(bot(1).burn(state)) == ["AS", "BJ"]


def test_keeps_its_jokers_for_a_burn_it_is_close_to():
    """A hand close to a legal burn (99 and KK beside BJ and 3s) does not spend its joker on a plain A in the
    end game."""
    state = table({1: f"3S AS {FILLER}", 2: "3H BJ 9S 9H KS KD"}, leader=1)
    state.act(1, parse_cards("AS"))
    assert bot(2).act(state) == "pass"


def test_yields_to_a_teammate_still_to_act_that_holds_fewer_cards():
    """J 让牌 "即不想过牌，又不原意立即上牌时": as 对头 of seat 0's 55, with seats 1 and 2 passed, seat 3 yields
    so that its teammate seat 5 (fewer cards) plays first; when nobody beats, it beats after all."""
    state = table({0: f"3S 5S 5D {FILLER}", 3: "3C 9S 9H 4H 4S", 5: "3H 8S 8H 4D"}, leader=0)
    state.act(0, parse_cards("5S 5D"))
    state.act(1, "pass")
    state.act(2, "pass")
    assert state.turn.may_yield and bot(3).act(state) == "yield"
    state.act(4, "pass")
    state.act(5, "pass")
    assert state.turn.actor == 3 and names(bot(3).act(state)) == ["9H", "9S"]


def test_does_not_yield_to_a_teammate_holding_more_cards_nor_without_a_beat():
    state = table({0: f"3S 5S 5D {FILLER}", 3: "3C 9S 9H 4D"}, leader=0)
    state.act(0, parse_cards("5S 5D"))
    state.act(1, "pass")
    state.act(2, "pass")
    assert state.turn.may_yield and names(bot(3).act(state)) == ["9H", "9S"]
    state = table({0: f"3S 5S 5D {FILLER}", 3: "3C 4D", 5: "3H 8S"}, leader=0)
    state.act(0, parse_cards("5S 5D"))
    state.act(1, "pass")
    state.act(2, "pass")
    assert state.turn.may_yield and bot(3).act(state) == "pass"          # 真过: nothing to beat with


def test_burn_order_puts_the_owners_teammates_first():
    """J "发够级牌者的联邦可先于其他人烧牌"."""
    state = table({0: f"3S KS KH {FILLER}"}, leader=0)
    state.act(0, parse_cards("KS KH"))
    assert burn_order(state) == [2, 4, 1, 5]


def test_a_play_that_would_leave_only_threes_is_not_made_unprotected():
    state = table({1: f"3S 9S 9H {FILLER}", 2: "3H 3C QS QH"}, leader=1)
    state.act(1, parse_cards("9S 9H"))
    assert bot(2).act(state) == "pass"


def test_generated_deals_verify_and_chain_the_leader():
    records = generate_gouji_records(GoujiRules(), seed=5, count=HANDS_PER_GAME + 2)
    for record in records:
        assert replay(parse_gouji_record(json.loads(record_text(record)))).complete
    second = records[1]
    assert second["previous"]["places"] == records[0]["places"]
    assert second["leader"] == records[0]["places"][-1]          # the previous 大落 leads (G)


def test_generated_deals_yield_and_burn_and_verify():
    """Seed 003's techniques need 让牌 and 烧牌 to be seen (X "判断出是真过还是让牌"): over 60 generated deals at
    least one yield in three deals and one burn in five, and every deal verifies complete."""
    records = generate_gouji_records(GoujiRules(), seed=1, count=60)
    yields = sum(1 for record in records for round_ in record["rounds"] for action in round_["actions"]
                 if action[1] == "yield")
    replays = [replay(parse_gouji_record(json.loads(record_text(record)))) for record in records]
    assert all(rep.complete for rep in replays)
    burns = sum(len(verify_summary(rep)["burns"]) for rep in replays)
    assert yields >= 20 and burns >= 12


def test_same_seed_same_bytes_any_jobs():
    one = [record_text(r) for r in generate_gouji_records(GoujiRules.parse("karamay"), seed=8, count=9)]
    two = [record_text(r) for r in generate_gouji_records(GoujiRules.parse("karamay"), seed=8, count=9, jobs=2)]
    assert one == two


def test_random_bots_play_legal_deals_under_every_preset():
    for preset in ("standard", "activity", "bisai", "paodekuai"):
        record, state = record_hand(random.Random(preset), GoujiRules.parse(preset), ["random"] * 6, 1)
        assert state.over and replay(parse_gouji_record(record)).complete


def test_heuristic_teams_beat_random_teams():
    """Over 40 seeded deals, seats swapped every deal, the heuristic team scores more in at least 3 of 4."""
    wins = 0
    for n in range(40):
        kinds = ["heuristic", "random"] * 3 if n % 2 == 0 else ["random", "heuristic"] * 3
        _, state = record_hand(random.Random(f"match:{n}"), GoujiRules(), kinds, n % 6)
        points = result_of(state)["seat_points"]
        mine = sum(p for seat, p in enumerate(points) if seat % 2 == n % 2)
        wins += mine > sum(points) - mine
    assert wins >= 30


def test_generate_cli_for_gouji(tmp_path, capsys):
    assert main(["deal", "generate", "--game", "gouji", "--seed", "2", "--count", "2", "--out", str(tmp_path),
                 "--bots", "random"]) == 0
    assert "wrote 2 deals" in capsys.readouterr().out
    assert main(["deal", "verify", *map(str, sorted(tmp_path.iterdir()))]) == 0
    assert main(["deal", "generate", "--game", "gouji", "--rules", "nonsense", "--out", str(tmp_path)]) == 2
    assert "gouji rules preset" in capsys.readouterr().err


def test_a_random_bot_takes_only_legal_actions():
    state = table({0: f"3S KS KH {FILLER}"}, leader=0)
    action = RandomBot(0, random.Random(1)).act(state)
    assert action != "pass" and state.history[-1][1] == 0
