"""Bots: legal, deterministic, blind to hidden cards, and playing the basic conventions."""
from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from trainer.bots.bury import choose_burial
from trainer.bots.dealing import Declaration, choose_declaration, deal_hand, fallback_trump
from trainer.bots.generate import generate_records, record_text
from trainer.bots.heuristic import HeuristicBot, RandomBot
from trainer.bots.play import play_hand
from trainer.cli import main
from trainer.engine import Card, Rules, TrumpContext, parse_cards
from trainer.engine.follow import Lead, follow_problem, random_follow
from trainer.engine.round import RoundState
from trainer.records import DealRecord, parse_record, replay
from trainer.tracking.tracker import PlayEvent


@pytest.mark.parametrize("rules", ["standard", "competition", "fixed-twos", "botzone",
                                   {"preset": "standard", "follow": "loose"}])
def test_generated_deals_verify(rules):
    for record in generate_records(Rules.parse(rules), seed=3, count=10):
        rep = replay(parse_record(json.loads(json.dumps(record))))
        assert rep.complete


def test_random_bots_deals_verify():
    for record in generate_records(Rules(), seed=4, count=8, bots="random"):
        assert replay(parse_record(record)).complete


def test_same_seed_same_bytes_any_jobs():
    one = [record_text(r) for r in generate_records(Rules(), seed=11, count=10)]
    again = [record_text(r) for r in generate_records(Rules(), seed=11, count=10, jobs=2)]
    other = [record_text(r) for r in generate_records(Rules(), seed=12, count=10)]
    assert one == again
    assert one != other


def test_game_progression_follows_the_level_change():
    records = generate_records(Rules(), seed=7, count=8)
    for before, after in zip(records, records[1:]):
        result = replay(parse_record(before)).result
        assert after["banker"] == result.next_banker
        if result.side == "banker":
            assert int(after["level"].replace("J", "11").replace("Q", "12").replace("K", "13")
                       .replace("A", "14")) >= int(before["level"].replace("J", "11").replace("Q", "12")
                                                  .replace("K", "13").replace("A", "14"))


def test_first_hand_banker_is_the_first_declarer():
    record = generate_records(Rules(), seed=5, count=1)[0]
    assert record["declarations"][0]["seat"] == record["banker"]
    last = record["declarations"][-1]["cards"][0]
    assert record["trump"] == ("none" if last in ("SJ", "BJ") else last[-1])


def test_declaration_ladder():
    level = 5
    hand = parse_cards("5H 5H AH KH QH 9H 8H 3C")
    single = Declaration(1, (Card.parse("5S"),))
    overturn = choose_declaration(0, hand, level, single, partner_declared=False)
    assert overturn is not None and overturn.strength == 2 and str(overturn.cards[0]) == "5H"
    assert choose_declaration(0, hand, level, Declaration(1, tuple(parse_cards("5S 5S"))), False) is None
    jokers = choose_declaration(0, parse_cards("SJ SJ 5C 5D AS AH AC 5S"), level, Declaration(1, tuple(parse_cards("5S 5S"))), False)
    assert jokers is not None and jokers.trump is None and jokers.strength == 3


@pytest.mark.parametrize(("style", "kitty", "trump"), [
    ("first_kitty_card", "SJ 3H 4C 5D 6S 7H 8C 9D", None),
    ("first_kitty_card", "3H SJ 4C 5D 6S 7H 8C 9D", "H"),
    ("first_kitty_card_skip_jokers", "SJ 3H 4C 5D 6S 7H 8C 9D", "H"),
    ("most_common_kitty_suit", "3H 4C 5C 6C 7H 8C 9D 10D", "C"),
    ("no_trump", "3H 4C 5C 6C 7H 8C 9D 10D", None),
])
def test_fallback_trump(style, kitty, trump):
    found = fallback_trump(parse_cards(kitty), Rules.parse({"no_declaration": style}))
    assert (found.letter if found else None) == trump


def test_weak_trumps_bury_no_points_and_keep_aces_and_pairs():
    ctx = TrumpContext.parse("2", "S")
    hand = parse_cards("2S 3S 4S 5S AH AH 8H 8H 9H 3H 4H 6D 7D 9D KD 10D 3D 3C 4C 5C 6C 8C 9C JC QC "
                       "KC QD JD 10C 7C 5D 6H 7H")
    assert len(hand) == 33
    buried = choose_burial(hand, ctx)
    assert len(buried) == 8
    assert not any(ctx.is_trump(c) or c.rank == 14 or str(c) == "8H" or c.points for c in buried)


def test_strong_trumps_keep_tractors_and_aces():
    ctx = TrumpContext.parse("2", "S")
    hand = parse_cards("BJ SJ 2S 2S 2H 2C AS KS KS QS JS 10S 9S 8S 7S 6S AH 3H 3H 4H 4H KC "
                       "AC QC 7C 6D 4D 3D 9D 10D 8C 9C JC")
    assert len(hand) == 33
    buried = choose_burial(hand, ctx)
    assert not any(ctx.is_trump(c) or c.rank == 14 or str(c) in ("3H", "4H") for c in buried)


def _bot(hand: str, seat: int = 2, banker: int = 0, level: str = "2", trump: str = "S") -> HeuristicBot:
    ctx = TrumpContext.parse(level, trump)
    return HeuristicBot(seat, ctx, banker, parse_cards(hand))


def _lead_event(bot: HeuristicBot, seat: int, cards: str) -> None:
    played = tuple(parse_cards(cards))
    bot.observe(PlayEvent(1, seat, played, Lead.of(played, bot.ctx), winning=seat))


def test_signal_on_partners_ace_with_the_other_ace():
    """signals.md: partner leads ♥A, I hold ♥A 9 7 → ♥9 (basic_89JQ)."""
    bot = _bot("AH 9H 7H 3S 4S 5C 6C 7C 8D 9D")
    _lead_event(bot, 0, "AH")
    _lead_event(bot, 1, "3H")
    assert [str(c) for c in bot.follow()] == ["9H"]


def test_no_signal_without_the_other_ace():
    bot = _bot("QH 9H 7H 5H 3S 4S 5C 6C 7C 8D")
    _lead_event(bot, 0, "AH")
    _lead_event(bot, 1, "3H")
    played = bot.follow()
    assert len(played) == 1 and played[0].rank not in (8, 9, 11, 12)
    assert str(played[0]) == "5H"  # the A holds the trick: feed points (走分)


def test_reads_the_partners_signal_and_passes_the_suit():
    bot = _bot("AH 6H 4H KS QS 3C 4C 5D 6D 7D", seat=0)
    _lead_event(bot, 0, "AH")
    for seat, card in ((1, "3H"), (2, "9H"), (3, "5H")):
        bot.observe(PlayEvent(1, seat, (Card.parse(card),), bot.tracker.lead, winning=0))
    assert 1 in bot.partner_has_ace
    led = bot.lead()
    assert len(led) == 1 and led[0].suit is not None and led[0].suit.letter == "H" and led[0].rank < 14


def test_ruffs_when_void_and_the_opponents_win_points():
    bot = _bot("3S 4S 9C 8C 7C 6D 5D 4D", seat=2, banker=1)
    _lead_event(bot, 1, "KH")
    assert bot.tracker.trick.winning == 1
    played = bot.follow()
    assert len(played) == 1 and bot.ctx.is_trump(played[0])


def test_cashes_a_boss_ace_and_throws_only_when_sure():
    bot = _bot("AC QC QC 3S 4S 6D 7D 8D", seat=0)
    assert [str(c) for c in bot.lead()] == ["AC"]      # QQ could be beaten by an unseen KK: no throw
    sure = _bot("AC AC KC 3S 4S 6D 7D 8D", seat=0)
    assert sorted(str(c) for c in sure.lead()) == ["AC", "AC", "KC"]   # nothing unseen beats any unit


@pytest.mark.parametrize("kind", [HeuristicBot, RandomBot])
def test_bots_cannot_reach_other_hands(kind, reachable):
    deal = deal_hand(random.Random(1), Rules(), 2)
    ctx = TrumpContext(2, deal.trump, Rules())
    bot = kind(1, ctx, 0, list(deal.hands[1]))
    objects = reachable(bot)
    assert not any(isinstance(item, (DealRecord, RoundState)) for item in objects)
    assert sum(bot.tracker.mine) == 25
    others = [c for seat in (0, 2, 3) for c in deal.hands[seat]]
    assert sum(bot.tracker.unseen) == len(others) + 8


def test_play_hand_result_matches_replay():
    record, result = play_hand(random.Random(2), Rules(), 2, None, ["heuristic", "random"] * 2)
    assert replay(parse_record(record)).result == result


def test_generate_command(tmp_path, capsys):
    assert main(["deal", "generate", "--seed", "9", "--count", "3", "--out", str(tmp_path / "a")]) == 0
    assert main(["deal", "generate", "--seed", "9", "--count", "3", "--out", str(tmp_path / "b"), "--jobs", "2"]) == 0
    first = sorted(p.read_bytes() for p in (tmp_path / "a").iterdir())
    assert first == sorted(p.read_bytes() for p in (tmp_path / "b").iterdir()) and len(first) == 3
    assert main(["deal", "verify", *map(str, sorted((tmp_path / "a").iterdir()))]) == 0
    for name in ("one-deck", "three-deck", "four-deck"):
        runs = [tmp_path / f"{name}-{run}" for run in (1, 2)]
        for out in runs:
            assert main(["deal", "generate", "--rules", name, "--seed", "4", "--count", "2", "--out", str(out)]) == 0
        assert sorted(p.read_bytes() for p in runs[0].iterdir()) == sorted(p.read_bytes() for p in runs[1].iterdir())
        assert main(["deal", "verify", *map(str, sorted(runs[0].iterdir()))]) == 0
    assert main(["deal", "generate", "--rules", "nonsense", "--out", str(tmp_path / "c")]) == 2
    assert "nonsense" in capsys.readouterr().err


def kept_after_burial(hand, ctx):
    """The banker's cards left after `choose_burial`."""
    kept = list(hand)
    for card in choose_burial(hand, ctx):
        kept.remove(card)
    return kept


def side_cards(cards, letter, ctx):
    """The side-suit cards of one printed suit."""
    return [c for c in cards if c.suit is not None and c.suit.letter == letter and not ctx.is_trump(c)]


def test_strong_trumps_void_a_short_suit():
    ctx = TrumpContext.parse("2", "S")
    hand = parse_cards("BJ SJ 2S 2S 2H 2C AS KS KS QS JS 10S 9S 8S 7S 6S AH AH 3H 4H 5H 6H 7H 9H KH "
                       "AC QC 7C 6D 4D 3D 9D 10D")
    assert not side_cards(kept_after_burial(hand, ctx), "D", ctx)


def test_burial_keeps_a_non_signal_card_in_a_suit_without_an_ace():
    ctx = TrumpContext.parse("2", "S")
    hand = parse_cards("BJ SJ 2S 2H AS KS QS JS 10S 9S AH AH KH 3H 4H 6H 7H AD KD QD 3D "
                       "8C 9C JC 3C 4C 6C 7C 10C 5C AC QC KC")
    kept = kept_after_burial(hand, ctx)
    for letter in "HCD":
        left = side_cards(kept, letter, ctx)
        if left and not any(c.rank == 14 for c in left):
            assert any(c.rank not in (8, 9, 11, 12) for c in left), letter


class _NeverTractorFirst(random.Random):
    """A random source whose guesses never put a tractor first: shuffles sort the weakest pair first."""

    def random(self) -> float:
        return 0.99

    def shuffle(self, x) -> None:
        x.sort()


def test_random_follow_falls_back_to_the_legal_plays():
    # ♠KK♠QQ led; the follower must play its ♠99♠88 tractor, which a guess starting with ♠4 never finds
    ctx = TrumpContext.parse("2", "H")
    lead = Lead.of(parse_cards("KS KS QS QS"), ctx)
    hand = {}
    for card in parse_cards("9S 9S 8S 8S 4S 4S 6S AD"):
        hand[card.index] = hand.get(card.index, 0) + 1
    rng = _NeverTractorFirst(1)
    play = random_follow(lead, hand, ctx, rng)
    assert follow_problem(lead, hand, play, ctx) is None
    assert sorted(str(card) for card in play) == ["8S", "8S", "9S", "9S"]


class _TractorFirst(_NeverTractorFirst):
    """A random source whose guesses take the tractor first (`random` below 0.7) and otherwise the
    weakest pairs first."""

    def random(self) -> float:
        return 0.5


def _no_fallback(*_: object) -> None:
    raise AssertionError("random_follow listed the legal plays: its guesses never found one")


@pytest.mark.parametrize(("lead", "hand", "pairs", "source"), [
    # a pair led to ♠99 and eight singles: a guess takes the pair first (a random two would find it 1 time in 45)
    ("KS KS", "9S 9S 3S 4S 5S 6S 7S 8S 10S JS AD", ["9S", "9S"], random.Random),
    # a tractor led to ♠4466 8899: with the tractor taken first the first guess is legal (the weakest
    # pairs, 44 and 66, would never be)
    ("KS KS QS QS", "9S 9S 8S 8S 4S 4S 6S 6S 3S AD", ["8S", "8S", "9S", "9S"], _TractorFirst),
])
def test_random_follow_guesses_pairs_first(monkeypatch, lead, hand, pairs, source):
    """The random bot's guess takes as many pairs as the lead asks for (a tractor first when it asks for
    one), then singles: legal at once, without listing the legal plays."""
    from trainer.engine import follow

    monkeypatch.setattr(follow, "legal_follows", _no_fallback)
    ctx = TrumpContext.parse("2", "H")
    led = Lead.of(parse_cards(lead), ctx)
    held = Counter(card.index for card in parse_cards(hand))
    for seed in range(40):
        play = random_follow(led, dict(held), ctx, source(seed))
        assert follow_problem(led, dict(held), play, ctx) is None
        assert sorted(str(card) for card in play) == pairs


def test_reads_the_partners_answer_to_an_opponents_ace_in_no_trump():
    """signals.md nt_opponent_A: my partner's ♥9 on an opponent's ♥A says he holds the other A, so when an
    opponent leads ♥ again with my partner last to play, a signalling attacker feeds points (走分)."""
    from trainer.signals.conventions import find_convention

    def play(bot: HeuristicBot, trick: int, seat: int, card: str, winning: int) -> None:
        bot.observe(PlayEvent(trick, seat, (Card.parse(card),), bot.tracker.lead, winning=winning))

    plays = []
    for convention in (find_convention("basic_89JQ"), None):
        ctx = TrumpContext.parse("2", None)
        bot = HeuristicBot(0, ctx, 1, parse_cards("10H 7H 3H 3S 4S 5C 6C 7C 8D 9D"), convention=convention)
        _lead_event(bot, 3, "AH")
        play(bot, 1, 0, "3H", 3)
        play(bot, 1, 1, "4H", 3)
        play(bot, 1, 2, "9H", 3)
        played = tuple(parse_cards("JH"))
        bot.observe(PlayEvent(2, 3, played, Lead.of(played, ctx), winning=3))
        plays.append([str(c) for c in bot.follow()])
        assert (1 in bot.partner_has_ace) == (convention is not None)
    assert plays == [["10H"], ["7H"]]
