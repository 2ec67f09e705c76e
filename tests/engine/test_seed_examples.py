"""The worked examples of the seed texts (000, 002, 004), one case table per rule."""
from __future__ import annotations

import pytest

from trainer.engine import Combination, Lead, Rules, TrumpContext, check_throw, kitty_multiplier, parse_cards
from trainer.engine.combos import face_counts
from trainer.engine.follow import follow_problem
from trainer.engine.scoring import level_result
from trainer.engine.tricks import trick_winner


def cards(text: str):
    return parse_cards(text)


# -- tractors (rules.md §3; seeds 000 lines 239–241, 002, 004 "以下各例均不是拖拉机") -------------
@pytest.mark.parametrize(("level", "trump", "play"), [
    ("5", "H", "AH AH 5S 5S"),          # 主AA + 副55
    ("5", "H", "5S 5S 5H 5H"),          # 副55 + 主55
    ("5", "H", "5H 5H SJ SJ"),          # 主55 + 小王对
    ("5", "H", "SJ SJ BJ BJ"),          # 小王对 + 大王对
    ("A", "H", "KH KH AS AS"),          # level A: ♥KK + ♠AA
    ("5", "none", "SJ SJ 5C 5C"),       # no trump: SJ pair + any level pair
    ("5", "S", "4S 4S 6S 6S"),          # trump suit skips the level card
    ("5", "H", "4C 4C 6C 6C"),          # side suit skips the level card (连对跳过级牌)
    ("10", "S", "KD KD QD QD"),
    ("10", "S", "JD JD 9D 9D"),         # seed: JJ99 at level 10
    ("10", "S", "5D 5D 4D 4D 3D 3D"),   # 554433
    ("10", "S", "SJ SJ 10S 10S"),       # 一对小王带一对主10
    ("10", "S", "10S 10S 10H 10H"),     # 一对主10带一对副10
    ("10", "S", "10H 10H AS AS"),       # 一对副10带一对主A
    ("10", "S", "10S 10S 10H 10H AS AS"),  # 主10 副10 主A: three pairs
    ("A", "H", "SJ SJ AH AH"),          # seed 000: 小王与主A (level A)
    ("A", "H", "AH AH AS AS"),          # 主A与副A
])
def test_tractors(level, trump, play):
    combo = Combination.of(cards(play), TrumpContext.parse(level, trump))
    assert combo.kind == "tractor"


@pytest.mark.parametrize(("level", "trump", "play"), [
    ("5", "H", "4S 4S 5S 5S"),          # level 5: 4455 is no tractor (the 5s are trump)
    ("5", "H", "5S 5S 5C 5C"),          # 两对副级牌: the same position
    ("10", "S", "10H 10H 10C 10C"),     # 两对副10
    ("A", "H", "AS AS AC AC"),          # 两对副A不是
    ("10", "S", "AD AD 2D 2D"),         # AA22
    ("10", "S", "JD JD 10D 10D"),       # JJ1010 (10 is the level: trump)
    ("10", "S", "5D 5D 4D"),            # 554
    ("10", "S", "5D 4D 4D"),            # 544
    ("10", "S", "5D 5D 3D 3D"),         # 5533
    ("10", "S", "JD JD QD"),            # JJQ
    ("10", "H", "5S 5S SJ SJ"),         # 黑桃55一对小王: not adjacent
    ("10", "H", "3D 3D 4C 4C"),         # 方块33草花44: suits differ
    ("10", "S", "5C 5C 5D 5D"),         # 草花55方块55: equal, not a run
])
def test_not_tractors(level, trump, play):
    combo = Combination.of(cards(play), TrumpContext.parse(level, trump))
    assert combo.kind != "tractor"


# -- ruffs and over-ruffs (rules.md §5; seed 002 read at level J, ♥ trump) -------------------------
@pytest.mark.parametrize(("lead", "ruff", "ruffs"), [
    ("4D 4D 5D 5D KD AD", "2H 7H 7H 8H 8H 9H", True),    # 277889 毙 4455KA
    ("4D 4D 5D 5D AD AD", "2H 7H 7H 8H 8H 9H", False),   # but not 4455AA
    ("4D 4D 5D 5D 6D 6D", "7H 7H 8H 8H 9H 9H", True),    # 778899 毙 445566
    ("4D 4D 5D 5D AD AD", "7H 7H 8H 8H 9H 9H", True),    # and 4455AA
])
def test_seed_002_ruffs(lead, ruff, ruffs):
    ctx = TrumpContext.parse("J", "H")
    assert trick_winner([cards(lead), cards(ruff)], ctx) == (1 if ruffs else 0)


@pytest.mark.parametrize(("lead", "over", "wins"), [
    ("5D 4D 4D", "QH QH 2H", True),    # over 544, 10-10-K is beaten by QQ2 (the pair decides)
    ("5D 4D 3D", "QH QH 2H", False),   # over 543, it is not (the highest single decides: K > Q)
])
def test_seed_002_over_ruffs(lead, over, wins):
    ctx = TrumpContext.parse("J", "H")
    plays = [cards(lead), cards("10H 10H KH"), cards(over)]
    assert trick_winner(plays, ctx) == (2 if wins else 1)


@pytest.mark.parametrize(("lead", "first", "second", "winner"), [
    ("AD KD 5D 5D 4D 4D", "9H 9H 8H 8H 7H 2H", None, 1),   # seed 004: 998872 毙 AK5544
    ("AD AD 5D 5D 4D 4D", "9H 9H 8H 8H 7H 2H", None, 0),   # but not AA5544
    ("5D 4D 4D", "9H 7H 7H", "8H 8H 4H", 2),               # 977 over 544, 884 盖毙
    ("5D 6D 7D", "9H 7H 7H", "8H 8H 4H", 1),               # 977 over 567, 884 cannot
])
def test_seed_004_ruffs(lead, first, second, winner):
    ctx = TrumpContext.parse("J", "H")
    plays = [cards(lead), cards(first)] + ([cards(second)] if second else [])
    assert trick_winner(plays, ctx) == winner


def test_equal_cards_first_played_wins():
    ctx = TrumpContext.parse("5", "H")
    assert trick_winner([cards("AS"), cards("AS")], ctx) == 0
    assert trick_winner([cards("3S"), cards("5S"), cards("5C")], ctx) == 1   # two 副级牌: the first


def test_discard_never_wins():
    ctx = TrumpContext.parse("5", "H")
    assert trick_winner([cards("3S"), cards("AC")], ctx) == 0
    assert trick_winner([cards("3S 3S"), cards("AH KH")], ctx) == 0   # two trumps, not a pair


# -- throws (rules.md §4; seed 000 黑桃99844) -------------------------------------------------------
def test_seed_000_throw_pairs_tested_first():
    ctx = TrumpContext.parse("2", "H")
    others = [face_counts(cards(h)) for h in ("6S 6S", "3D", "4D")]
    result = check_throw(cards("9S 9S 8S 4S 4S"), others, ctx)
    assert not result.ok and sorted(map(str, result.forced)) == ["4S", "4S"]


def test_seed_000_throw_then_singles():
    ctx = TrumpContext.parse("2", "H")
    others = [face_counts(cards(h)) for h in ("10S 3S", "3D", "4D")]
    result = check_throw(cards("9S 9S 8S 4S 4S"), others, ctx)
    assert not result.ok and list(map(str, result.forced)) == ["8S"]


def test_throw_stands_when_nobody_beats():
    ctx = TrumpContext.parse("2", "H")
    others = [face_counts(cards(h)) for h in ("7S 6S", "3D 3H", "AC")]
    result = check_throw(cards("9S 9S 8S 4S 4S"), others, ctx)
    assert result.ok and sorted(map(str, result.forced)) == sorted("9S 9S 8S 4S 4S".split())


def test_throw_partner_counts_kitty_does_not():
    ctx = TrumpContext.parse("2", "H")
    lead = cards("AD KD KD")
    assert not check_throw(lead, [face_counts(cards("3C")), face_counts(cards("AD AD")), {}], ctx).ok
    assert check_throw(lead, [face_counts(cards("3C")), face_counts(cards("4D")), {}], ctx).ok


def test_records_example_throw_kd_qdqd():
    """records.md: ♦K ♦QQ fails because another seat holds ♦A ♦A; the pair class is tested first."""
    ctx = TrumpContext.parse("5", "H")
    result = check_throw(cards("KD QD QD"), [face_counts(cards("AD AD")), {}, {}], ctx)
    assert not result.ok and sorted(map(str, result.forced)) == ["QD", "QD"]


def test_equal_cards_never_beat_a_throw():
    ctx = TrumpContext.parse("2", "H")
    assert check_throw(cards("AS KS KS"), [face_counts(cards("KS AS")), {}, {}], ctx).ok


def test_throw_tractor_beaten_only_by_higher_tractor():
    ctx = TrumpContext.parse("2", "H")
    lead = cards("6S 6S 7S 7S AS")
    assert check_throw(lead, [face_counts(cards("9S 9S JS JS")), {}, {}], ctx).ok       # pairs, no run
    failed = check_throw(lead, [face_counts(cards("9S 9S 10S 10S")), {}, {}], ctx)
    assert not failed.ok and sorted(map(str, failed.forced)) == ["6S", "6S", "7S", "7S"]


# -- following (rules.md §4; seeds 000/002 有对必须出对) ---------------------------------------------
@pytest.mark.parametrize(("lead", "hand", "play", "legal"), [
    ("3S 3S", "9S 9S 4S 3H", "9S 4S", False),              # must follow a pair with a pair
    ("3S 3S", "9S 9S 4S 3H", "9S 9S", True),
    ("3S 3S", "9S 8S 4S 3H", "9S 4S", True),               # no pair: any two spades
    ("3S 3S", "9S 3H KH", "9S 3H", True),                  # short: all spades, then anything
    ("3S 3S", "9S 3H KH", "3H KH", False),                 # must play the spade
    ("3S 3S 4S 4S", "9S 9S JS JS 5S", "9S 9S JS JS", True),
    ("3S 3S 4S 4S", "9S 9S JS JS 5S", "9S 9S JS 5S", False),   # two pairs held: both
    ("3S 3S 4S 4S", "9S 9S 10S 10S 5S 5S", "9S 9S 5S 5S", False),  # tractor held: tractor
    ("3S 3S 4S 4S", "9S 9S 10S 10S 5S 5S", "10S 10S 9S 9S", True),
    ("3S 3S 4S 4S 5S 5S", "9S 9S 10S 10S 5S 5S 2S", "9S 9S 10S 10S 5S 5S", True),
    ("3S 3S 4S 4S 5S 5S", "9S 9S 10S 10S 5S 5S 2S", "9S 9S 10S 10S 5S 2S", False),
])
def test_follow_ladder(lead, hand, play, legal):
    ctx = TrumpContext.parse("2", "H")
    problem = follow_problem(Lead.of(cards(lead), ctx), face_counts(cards(hand)), cards(play), ctx)
    assert (problem is None) == legal, problem


def test_follow_reason_in_words():
    ctx = TrumpContext.parse("2", "H")
    problem = follow_problem(Lead.of(cards("3S 3S"), ctx), face_counts(cards("9S 9S 4S 3H")), cards("9S 4S"), ctx)
    assert problem == "must follow the pair in ♠ with a pair (holds 9♠ 9♠) but played 9♠ 4♠"
    # the cards held are named strongest first, whatever the hand's order
    problem = follow_problem(Lead.of(cards("AS KS JS"), ctx), face_counts(cards("4S QS 9H 8H")), cards("4S 9H 8H"), ctx)
    assert problem == "must play every ♠ card held (Q♠ 4♠) before discarding, but played 4♠ 9♥ 8♥"
    problem = follow_problem(Lead.of(cards("AH AH"), ctx), face_counts(cards("KH KH 3H 4S")), cards("KH 3H"), ctx)
    assert problem == "must follow the pair in trump with a pair (holds K♥ K♥) but played K♥ 3♥"
    problem = follow_problem(Lead.of(cards("3S 3S 4S 4S 5S 5S"), ctx), face_counts(cards("8S 8S 9S 9S 10S 10S QS QS")),
                             cards("8S 8S 9S 9S QS QS"), ctx)
    assert problem == ("must follow the tractor in ♠ with a 3-pair tractor (holds Q♠ Q♠ 10♠ 10♠ 9♠ 9♠ 8♠ 8♠) "
                       "but played 8♠ 8♠ 9♠ 9♠ Q♠ Q♠")


@pytest.mark.parametrize(("lead", "hand", "play", "reason"), [
    # a throw owing two pairs (AA QQ K: no tractor), answered with one: the rung names both pairs and the single
    ("AS AS QS QS KS", "9S 9S 7S 7S 5S 4S", "9S 9S 7S 5S 4S",
     "must follow the throw in ♠ with 2 pairs and 1 other card (holds 9♠ 9♠ 7♠ 7♠) but played 9♠ 9♠ 7♠ 5♠ 4♠"),
    # a throw of two tractors of different lengths (AAKKQQ + 8877): both pieces are named, not "and more"
    ("AS AS KS KS QS QS 8S 8S 7S 7S", "JS JS 10S 10S 9S 9S 5S 5S 4S 4S 3S 3S", "JS JS 10S 10S 9S 9S 5S 5S 3S 3S",
     "must follow the throw in ♠ with a 3-pair tractor and a 2-pair tractor (holds J♠ J♠ 10♠ 10♠ 9♠ 9♠ 5♠ 5♠ "
     "4♠ 4♠ 3♠ 3♠) but played J♠ J♠ 10♠ 10♠ 9♠ 9♠ 5♠ 5♠ 3♠ 3♠"),
    # a 3-pair tractor led to a hand holding a 2-pair tractor and a loose pair: that rung, not "3 pairs"
    ("3S 3S 4S 4S 5S 5S", "9S 9S 10S 10S QS QS 6S 7S", "9S 9S QS QS 6S 7S",
     "must follow the tractor in ♠ with a 2-pair tractor and a pair (holds Q♠ Q♠ 10♠ 10♠ 9♠ 9♠) "
     "but played 9♠ 9♠ Q♠ Q♠ 6♠ 7♠"),
    # a single led: one card, in the singular
    ("3S", "4S 5S 3H", "3H", "must follow ♠ with 1 ♠ card (holds 2), but played 3♥"),
])
def test_follow_refusal_texts(lead, hand, play, reason):
    ctx = TrumpContext.parse("2", "H")
    assert follow_problem(Lead.of(cards(lead), ctx), face_counts(cards(hand)), cards(play), ctx) == reason


@pytest.mark.parametrize(("lead", "tractors", "pairs"), [
    ("AS AS KS KS 9S 9S 3S", (2,), 3),      # a throw with a tractor and a pair: the pair is no tractor
    ("AS KS 9S 9S", (), 1),                 # a throw with one pair
    ("AS AS KS KS QS QS 8S 8S 7S 7S", (3, 2), 5),
])
def test_lead_tractors_of_a_throw(lead, tractors, pairs):
    found = Lead.of(cards(lead), TrumpContext.parse("2", "H"))
    assert (found.kind, found.tractors, found.pairs) == ("throw", tractors, pairs)


FOUR_PAIR_TRACTOR = "3S 3S 4S 4S 5S 5S 6S 6S"
FIVE_PAIR_TRACTOR = "3S 3S 4S 4S 5S 5S 6S 6S 7S 7S"


@pytest.mark.parametrize(("lead", "hand", "play", "legal"), [
    # rules.md §4 ladder: [4] > [3,2] > [3] > [2,2] > [2] > [], P (pairs) first
    (FOUR_PAIR_TRACTOR, "8S 8S 9S 9S 10S 10S QS QS KS KS", "8S 8S 9S 9S 10S 10S QS QS", True),   # [3]
    (FOUR_PAIR_TRACTOR, "8S 8S 9S 9S 10S 10S QS QS KS KS", "8S 8S 9S 9S QS QS KS KS", False),   # [2,2] < [3]
    (FOUR_PAIR_TRACTOR, "8S 8S 9S 9S QS QS KS KS AS", "8S 8S 9S 9S QS QS KS KS", True),         # [2,2]
    (FOUR_PAIR_TRACTOR, "8S 8S 9S 9S QS QS KS KS AS", "8S 8S 9S 9S QS QS KS AS", False),        # a pair short
    (FIVE_PAIR_TRACTOR, "8S 8S 9S 9S 10S 10S QS QS KS KS AS", "8S 8S 9S 9S 10S 10S QS QS KS KS", True),  # [3,2]
    (FIVE_PAIR_TRACTOR, "8S 8S 9S 9S 10S 10S JS JS KS KS AS AS",
     "8S 8S 9S 9S 10S 10S JS JS KS AS", False),                                                 # [4] + singles: P 4 < 5
    (FIVE_PAIR_TRACTOR, "8S 8S 9S 9S 10S 10S JS JS KS KS AS AS",
     "8S 8S 9S 9S 10S 10S JS JS AS AS", True),                                                  # [4] and P 5
])
def test_follow_tractor_pieces(lead, hand, play, legal):
    ctx = TrumpContext.parse("2", "H")
    problem = follow_problem(Lead.of(cards(lead), ctx), face_counts(cards(hand)), cards(play), ctx)
    assert (problem is None) == legal, problem


# -- kitty multiplier (seed 000 line 327, seed 004) -------------------------------------------------
@pytest.mark.parametrize(("lead", "style", "multiplier"), [
    ("5S", "doubling", 2), ("5S 5S", "doubling", 4), ("4S 4S 5S 5S", "doubling", 8),
    ("4S 4S 5S 5S 6S 6S", "doubling", 16),
    ("4S 4S 5S 5S 6S 6S", "power_cards", 64), ("4S 4S 5S 5S", "power_cards", 16),
    ("AS KS QS JS 10S 9S 8S 7S 7S", "doubling", 4),   # seed 004: a throw counts its largest unit, 77
    ("AS KS QS JS", "doubling", 2), ("AS AS JS JS", "doubling", 4),
])
def test_kitty_multiplier(lead, style, multiplier):
    ctx = TrumpContext.parse("3", "H")
    assert kitty_multiplier(Lead.of(cards(lead), ctx), Rules.parse({"kitty_multiplier": style})) == multiplier


# -- level table (rules.md §7) ------------------------------------------------------------------
@pytest.mark.parametrize(("score", "side", "levels"), [
    (0, "banker", 3), (5, "banker", 2), (35, "banker", 2), (40, "banker", 1), (75, "banker", 1),
    (80, "attackers", 0), (115, "attackers", 0), (120, "attackers", 1), (155, "attackers", 1),
    (160, "attackers", 2), (195, "attackers", 2), (200, "attackers", 3), (240, "attackers", 4),
    (-5, "banker", 3), (-35, "banker", 3), (-40, "banker", 4), (-75, "banker", 4), (-80, "banker", 5),
])
def test_level_table(score, side, levels):
    assert level_result(score, Rules()) == (side, levels)


# -- trick winners the mutation run found untested (docs/decisions.md, "Mutation testing") -----------
def winner_with(plays: list[str], level: str, trump: str, **options) -> int:
    return trick_winner([cards(play) for play in plays], TrumpContext.parse(level, trump, Rules.parse(options)))


COMPARE = ["largest_unit", "all_units", "highest_card", "unit_length", "lexicographic"]


# (plays, winner under each throw_compare in COMPARE's order); level 9, ♥ trump
@pytest.mark.parametrize(("plays", "expected"), [
    # a throw of singles ruffed twice: every unit is a single, so unit_length compares them all
    (["AS KS", "4H 3H", "6H 5H"], (2, 2, 2, 2, 2)),
    (["AS KS", "6H 3H", "6H 4H"], (1, 1, 1, 2, 2)),       # equal top single; the second single decides
    (["AS KS", "4H 3H"], (1, 1, 1, 1, 1)),
])
@pytest.mark.parametrize("compare", COMPARE)
def test_throw_of_singles_ruffed(plays, expected, compare):
    assert winner_with(plays, "9", "H", throw_compare=compare) == expected[COMPARE.index(compare)]


@pytest.mark.parametrize(("plays", "expected"), [
    (["AS AS 2S 2S 3S 3S"], 0),
    (["AS AS 2S 2S 3S 3S", "8S 8S 7S 7S 6S 6S"], 1),      # a higher ♠ tractor
    (["AS AS 2S 2S 3S 3S", "KS KS QS QS 9S 9S"], 0),      # three ♠ pairs, not a tractor
    (["AS AS 2S 2S 3S 3S", "9H 9H 8H 8H 7H 7H"], 1),      # a trump tractor ruffs
    (["AS AS 2S 2S 3S 3S", "JH JH 8H 8H 7H 7H"], 0),      # trump pairs, not a tractor
    (["AS AS 2S 2S 3S 3S KS", "9H 9H 8H 8H 7H 7H 3H"], 1),
])
def test_three_pair_wrapped_tractor_lead(plays, expected):
    # ace_two_wrap at level 5, ♥ trump: AA2233 is the lowest 3-pair ♠ tractor
    wrapped = Lead.of(cards("AS AS 2S 2S 3S 3S"), TrumpContext.parse("5", "H", Rules.parse({"ace_two_wrap": True})))
    assert wrapped.kind == "tractor"
    assert winner_with(plays, "5", "H", ace_two_wrap=True) == expected


@pytest.mark.parametrize(("other", "stands"), [("4S 4S 3S 3S", False), ("4S 3S 3S", True), ("QS QS", True)])
def test_a_thrown_wrapped_tractor_is_beaten_by_any_tractor_of_its_suit(other, stands):
    # ace_two_wrap: AA22 is the lowest ♠ tractor, so another seat's ♠4433 beats it (a pair alone does not)
    ctx = TrumpContext.parse("5", "H", Rules.parse({"ace_two_wrap": True}))
    others = [face_counts(cards(hand)) for hand in (other, "6D", "7D")]
    result = check_throw(cards("AS AS 2S 2S KS"), others, ctx)
    assert result.ok is stands
    assert result.forced == (cards("AS AS 2S 2S KS") if stands else cards("2S 2S AS AS"))
