"""掼蛋 plays and readings (guandan.md §2), one test per example of the spec and the seed's 第五、六条."""
from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trainer.engine import Card, IllegalPlayError, MalformedError, Suit, full_deck, parse_cards
from trainer.guandan import Level, Reading, beats, choose, play_problem, reading_of, readings
from trainer.guandan.plays import beat_reason, strength


def read(cards: str, level: str = "2") -> list[str]:
    """The readings of `cards` at `level`, strongest first, as text."""
    return [str(r) for r in readings(parse_cards(cards), Level.parse(level))]


def first(cards: str, level: str = "2") -> Reading:
    """The strongest reading of `cards`."""
    return readings(parse_cards(cards), Level.parse(level))[0]


@pytest.mark.parametrize(("cards", "level", "expected"), [
    ("7D", "2", ["single of 7"]),
    ("BJ", "2", ["single of BJ"]),
    ("SJ SJ", "2", ["pair of SJ"]),
    ("BJ BJ", "2", ["pair of BJ"]),
    ("SJ BJ", "2", []),  # SJ BJ is not a pair
    ("10S 10D 10C", "2", ["triple of 10"]),
    ("8S 8D 8C 5S 5D", "2", ["full_house of 8"]),  # [S] 三带两 88855
    ("8S 8D 8C SJ SJ", "2", ["full_house of 8"]),  # open point (2): a joker pair
    ("AS 2D 3S 4S 5D", "9", ["straight to 5"]),  # [S] A-2-3-4-5
    ("10S JD QS KS AD", "9", ["straight to A"]),  # [S] 10-J-Q-K-A
    ("3S 3D 4S 4D 5C 5C", "9", ["pair_run to 5"]),  # [S] 334455
    ("AS AD KS KD QS QC", "9", ["pair_run to A"]),  # [S] the largest, AAKKQQ
    ("AS AD 2S 2D 3S 3C", "9", ["pair_run to 3"]),  # [S] the smallest, AA2233
    ("3S 3D 3C 4S 4D 4C", "9", ["triple_run to 4"]),  # [S] 333444
    ("AS AD AC 2S 2D 2C", "9", ["triple_run to 2"]),  # [L] the lowest 钢板
    ("KS KD KC KH", "9", ["4-card bomb of K"]),
    ("9S 10H JS QS KS", "2", ["straight to K"]),
    ("9S 10H JS QS KS", "9", ["straight to K"]),  # the level 9 keeps its natural place in runs
    ("10S JS QS KS AS", "9", ["straight_flush to A"]),  # natural: only a straight flush
    ("AS 2S 3S 4S 5S", "9", ["straight_flush to 5"]),
    ("SJ SJ BJ BJ", "9", ["joker_bomb"]),
])
def test_natural_readings(cards: str, level: str, expected: list[str]) -> None:
    assert read(cards, level) == expected


@pytest.mark.parametrize("cards", [
    "3S 4D",  # two ranks
    "JS QS KS AS 2S",  # no wrap: K A 2 is no run
    "3S 4S 5S 6S 7S 8S",  # [S] 不可超过五张
    "3S 3D 4S 4D 5C 5C 6S 6S",  # [S] 不可超过3对
    "3S 3D 3C 4S 4D 4C 5S 5D 5C",  # [S] 不可超过2个
    "8S 8D 8C 5S",  # 三带一 is not offered
    "8S 8D 8C 5S 6S",  # 三带两 with two singles
    "SJ SJ BJ",  # three jokers
    "SJ SJ SJ BJ BJ",
    "QS KS AS SJ BJ",  # jokers never in runs
    "SJ 5S",  # a joker pairs only with its own kind
    "5S BJ",
    "BJ BJ 5S 5D",  # nor makes a bomb with other cards
    "SJ SJ 5S 5D 6S",  # a 三带两's pair of jokers needs a triple
])
def test_no_reading(cards: str) -> None:
    assert read(cards) == []


@pytest.mark.parametrize(("cards", "level", "expected"), [
    ("KS KD KC 2H", "2", ["4-card bomb of K"]),  # KKK + a wild
    ("KS KD 2H 2H", "2", ["4-card bomb of K"]),  # KK + two wilds
    ("KS KD KC KH KS KD KC KH 2H 2H", "2", ["10-card bomb of K"]),  # eight K + two wilds
    ("KS KD KC KH KS KD KC KH 2H", "2", ["9-card bomb of K"]),
    ("5S 6S 7S 8S 2H", "2", ["straight_flush to 9", "straight_flush to 8", "straight to 9", "straight to 8"]),
    ("2H", "2", ["single of 2"]),  # a wild alone is a level card
    ("2H 2H", "2", ["pair of 2"]),
    ("7S 2H", "2", ["pair of 7"]),
    ("SJ 2H", "2", []),  # a wild never stands for a joker
    ("SJ SJ BJ 2H", "2", []),  # nor joins 天炸
    ("3S 3D 3C 2H 2H", "2", ["5-card bomb of 3", "full_house of 3"]),  # bomb or 三带两
    ("5S 5D 6S 6D 2H 2H", "2", ["pair_run to 7", "triple_run to 6", "pair_run to 6"]),  # the 5566WW tie
    ("2S 2D 2C 2H", "2", ["4-card bomb of 2"]),  # an LH in a bomb of L stands for itself
])
def test_wild_readings(cards: str, level: str, expected: list[str]) -> None:
    assert read(cards, level) == expected


def test_two_pairs_and_a_wild_read_both_ways() -> None:
    """[S] "与两对牌配成三带两时…否则只当小牌用": 55 88 + wild is 555 88 or 888 55."""
    assert read("5S 5D 8S 8D 2H", "2") == ["full_house of 8", "full_house of 5"]


def test_bombs_of_the_level_stop_at_eight() -> None:
    """The two wilds are two of L's eight cards: a bomb of L holds at most 8."""
    assert read("9S 9D 9C 9S 9D 9C 9H 9H", "9") == ["8-card bomb of 9"]


def test_level_order_puts_the_level_above_the_ace() -> None:
    """[W] at 7: 2 < … < 6 < 8 < … < A < 7 < SJ < BJ."""
    level = Level.parse("7")
    ranks = [level.rank_lv(rank) for rank in (2, 6, 8, 14, 7, 15, 16)]
    assert ranks == sorted(ranks)
    assert [str(Card(r, None)) if r > 14 else r for r in level.ranks_high_first()[:4]] == ["BJ", "SJ", 7, 14]


@pytest.mark.parametrize(("play", "top", "level", "expected"), [
    ("9S 9D 9C 9C", "AS AD AC AH", "9", True),  # [L] at level 9, 9999 beats AAAA
    ("AS AD AC AH", "9S 9D 9C 9C", "9", False),
    ("3S 3D 3C 3H 3S", "AS AD AC AH", "2", True),  # 5 cards beat 4
    ("AS 2S 3S 4S 5S", "AS AD AC AH AS", "9", True),  # straight flush over a bomb of 5
    ("3S 3D 3C 3H 3S 3D", "10S JS QS KS AS", "9", True),  # a bomb of 6 over a straight flush
    ("SJ SJ BJ BJ", "KS KD KC KH KS KD KC KH 2H 2H", "2", True),  # 天炸 over everything
    ("9D 10D JD QD KD", "9S 10S JS QS KS", "2", False),  # equal straight flushes: suit never counts
    ("10D JD QD KD AD", "9S 10S JS QS KS", "2", True),
    ("3S 4S 5S 6S 7S", "KS", "2", True),  # any bomb over any non-bomb
    ("AS AD", "KS", "2", False),  # another type
    ("KS KD", "KS KD", "2", False),  # equal never beats
    ("2S", "AS", "2", True),  # the level card above A
    ("SJ", "2S", "2", True),
    ("8S 8D 8C 3S 3D", "7S 7D 7C AS AD", "2", True),  # 三带两 compares the triple only
    ("10S 10D JS JD QS QD", "JS JD QS QD KS KD", "2", False),  # the spec's pair_run to Q vs to K
    ("AS 2D 3S 4S 5D", "2S 3D 4S 5S 6D", "9", False),  # A-2-3-4-5 is the lowest straight
])
def test_beating(play: str, top: str, level: str, expected: bool) -> None:
    lv = Level.parse(level)
    assert beats(first(play, level), first(top, level), lv) is expected


def test_bomb_classes_in_the_seeds_order() -> None:
    """[S] 第六条: 天炸 > 10 > 9 > 8 > 7 > 6 > 同花顺 > 5 > 4."""
    level = Level.parse("2")
    plays = ["SJ SJ BJ BJ", "KS KD KC KH KS KD KC KH 2H 2H", "KS KD KC KH KS KD KC KH 2H",
             "4S 4D 4C 4H 4S 4D 4C 4H", "4S 4D 4C 4H 4S 4D 4C", "4S 4D 4C 4H 4S 4D", "3S 4S 5S 6S 7S",
             "AS AD AC AH AS", "AS AD AC AH"]
    classes = [first(play).bomb_class for play in plays]
    assert classes == sorted(classes, reverse=True) and len(set(classes)) == len(classes)
    assert all(beats(first(high), first(low), level) for high, low in zip(plays, plays[1:]))


def test_undeclared_reading_highest_beats_the_top_when_it_can() -> None:
    """standard: an undeclared 55 88 + wild answering 777 33 takes 888 55; leading, the strongest."""
    level = Level.parse("2")
    options = readings(parse_cards("5S 5D 8S 8D 2H"), level)
    top = first("7S 7D 7C 3S 3D")
    assert str(choose(options, top, level, "highest")) == "full_house of 8"
    assert str(choose(options, None, level, "highest")) == "full_house of 8"
    weak_top = first("4S 4D 4C 3S 3D")
    assert str(choose(options, weak_top, level, "lowest")) == "full_house of 5"


def test_undeclared_reading_highest_takes_a_beating_reading_over_a_stronger_one() -> None:
    """3 3 3 + two wilds against a 三带两 of 2s: the bomb is strongest and beats; against a bomb of 4
    the 5-card bomb is taken."""
    level = Level.parse("2")
    options = readings(parse_cards("3S 3D 3C 2H 2H"), level)
    assert str(choose(options, first("AS AD AC AH"), level, "highest")) == "5-card bomb of 3"


def test_jiangsu_club_reads_the_smaller_card() -> None:
    """[S] "否则只当小牌用": lowest reads 55 88 + wild as 555 88."""
    level = Level.parse("2")
    assert str(reading_of(parse_cards("5S 5D 8S 8D 2H"), level, wild_reading="lowest")) == "full_house of 5"


def test_declared_reading_must_be_one_of_the_cards() -> None:
    level = Level.parse("2")
    cards = parse_cards("5S 5D 8S 8D 2H")
    assert str(reading_of(cards, level, declared=Reading("full_house", 5, 5))) == "full_house of 5"
    with pytest.raises(IllegalPlayError, match="cannot be read as full_house of 9"):
        reading_of(cards, level, declared=Reading("full_house", 9, 5))
    with pytest.raises(IllegalPlayError, match="no 牌型"):
        reading_of(parse_cards("3S 4D"), level)


def test_play_problem_in_words() -> None:
    level = Level.parse("2")
    assert play_problem(first("10S 10D JS JD QS QD"), first("JS JD QS QD KS KD"), level) == \
        "pair_run to Q does not beat pair_run to K"
    assert play_problem(first("AS AD"), first("KS KD KC"), level) == "pair of A is another type than triple of K"
    assert play_problem(first("AS"), first("3S 3D 3C 3H"), level) == "single of A is no bomb, so cannot beat " \
        "4-card bomb of 3"
    assert play_problem(first("3S 3D 3C 3H"), None, level) is None
    assert beat_reason(first("3S 3D 3C 3H"), first("4S 4D 4C 4H"), level) == "smaller_bomb"


def test_reading_round_trips_through_json() -> None:
    reading = Reading("full_house", 5, 5)
    assert reading.to_json() == {"type": "full_house", "rank": "5"}
    assert Reading.from_json(reading.to_json(), 5) == reading
    assert Reading.from_json({"type": "joker_bomb", "rank": None}, 4) == Reading("joker_bomb", None, 4)
    for bad in ({"type": "quad", "rank": "5"}, {"type": "pair", "rank": "11"}, ["pair"], {"rank": "5"}):
        with pytest.raises(MalformedError):
            Reading.from_json(bad, 2)


DECK = full_deck(2)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(range(108)), min_size=1, max_size=10, unique=True),
       st.sampled_from(["2", "5", "9", "A"]))
def test_readings_are_sorted_and_each_beats_only_weaker(picks: list[int], level_name: str) -> None:
    """Readings come strongest first, each distinct; beating agrees with strength within a type."""
    level = Level.parse(level_name)
    cards = [DECK[i] for i in picks]
    found = readings(cards, level)
    keys = [strength(r, level) for r in found]
    assert keys == sorted(keys, reverse=True) and len(set(found)) == len(found)
    for reading in found:
        assert reading.size == len(cards)
        assert not beats(reading, reading, level)


def natural_readings(cards: list[Card]) -> set[Reading]:
    """An independent classifier of cards read as they are (every card its own face; §2.1)."""
    n = len(cards)
    ranks = sorted(card.rank for card in cards)
    jokers = [card for card in cards if card.is_joker]
    counts = sorted(Counter(ranks).values())
    found: set[Reading] = set()
    if n == 1:
        found.add(Reading("single", ranks[0], 1))
    if n == 2 and ranks[0] == ranks[1]:
        found.add(Reading("pair", ranks[0], 2))
    if n == 4 and ranks == [15, 15, 16, 16]:
        found.add(Reading("joker_bomb", None, 4))
    if jokers and n != 5:
        return found
    if n == 3 and counts == [3]:
        found.add(Reading("triple", ranks[0], 3))
    if 4 <= n <= 10 and counts == [n]:
        found.add(Reading("bomb", ranks[0], n))
    if n == 5 and counts == [2, 3]:
        triple = next(rank for rank in ranks if ranks.count(rank) == 3)
        if triple < 15:
            found.add(Reading("full_house", triple, 5))
    if jokers:
        return found
    for kind, length, width in (("straight", 5, 1), ("pair_run", 3, 2), ("triple_run", 2, 3)):
        if n != length * width:
            continue
        for ace in (1, 14):
            positions = sorted(ace if rank == 14 else rank for rank in ranks)
            wanted = sorted(p for p in range(positions[0], positions[0] + length) for _ in range(width))
            if positions == wanted:
                top = positions[-1]
                if kind == "straight" and len({card.suit for card in cards}) == 1:
                    found.add(Reading("straight_flush", top, 5))
                else:
                    found.add(Reading(kind, top, n))
    return found


NON_JOKERS = [Card.from_index(i) for i in range(52)]


@st.composite
def shaped_cards(draw: st.DrawFn) -> tuple[list[Card], str]:
    """Cards likely to form shapes: a few ranks in a row, two suits, jokers and the two wilds."""
    level = draw(st.sampled_from(["2", "7", "A"]))
    low = draw(st.integers(1, 10))
    ranks = [14 if r == 1 else r for r in range(low, low + 5)]
    suits = draw(st.lists(st.sampled_from(list(Suit)), min_size=1, max_size=2, unique=True))
    pool = [Card(rank, suit) for rank in ranks for suit in suits] * 2 + [Card(15), Card(15), Card(16), Card(16)]
    wild = Level.parse(level).wild
    pool = [card for card in pool if card is not wild] + [wild, wild]
    picks = draw(st.lists(st.integers(0, len(pool) - 1), min_size=1, max_size=10, unique=True))
    return [pool[i] for i in picks], level


@settings(max_examples=250, deadline=None)
@given(shaped_cards())
def test_readings_equal_every_substitution_of_the_wilds(case: tuple[list[Card], str]) -> None:
    """Property (§2.2): the readings of a play are exactly the natural readings of the plays its wilds
    could stand for (each wild any non-joker card), with a play made only of wilds read as level cards."""
    cards, level_name = case
    level = Level.parse(level_name)
    wilds = [card for card in cards if level.is_wild(card)]
    rest = [card for card in cards if not level.is_wild(card)]
    if not rest:
        expected = {Reading(("single", "pair")[len(wilds) - 1], level.rank, len(wilds))}
    else:
        expected = set()
        stand_ins = [()] if not wilds else [(a,) for a in NON_JOKERS] if len(wilds) == 1 else \
            [(a, b) for i, a in enumerate(NON_JOKERS) for b in NON_JOKERS[i:]]
        for stand_in in stand_ins:
            expected |= natural_readings(rest + list(stand_in))
    assert set(readings(cards, level)) == expected
