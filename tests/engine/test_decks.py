"""One, three and four decks (rules.md §3–§7, §9 presets one-deck, three-deck, four-deck): case tables
from seed 004 (泰坦尼克), seed 000 (the four-deck match rules), rbtying's multi-deck tests (their hands
rewritten in our notation) and the decisions on rules.md §11.

rbtying's cases are played at level 4 with ♠ trump (his test TRUMP): ♠ cards are then trump, ♠2 ♠3 ♠5
sit at consecutive positions (the level card 4 is skipped).
"""
from __future__ import annotations

import pytest

from trainer.engine import (Lead, RoundState, Rules, TrumpContext, check_throw, describe, follow_problem,
                            kitty_multiplier, legal_follows, level_result, parse_cards, trick_winner)
from trainer.engine.combos import face_counts


def context(preset: str, level: str = "2", trump: str = "H", **options: object) -> TrumpContext:
    """A trump context under a preset with some options set over it."""
    return TrumpContext.parse(level, trump, Rules.parse({"preset": preset, **options}))


def is_legal(preset: str, lead: str, hand: str, play: str, level: str = "2", trump: str = "H",
             **options: object) -> bool:
    """True when `play` from `hand` is a legal follow to `lead`."""
    ctx = context(preset, level, trump, **options)
    return follow_problem(Lead.of(parse_cards(lead), ctx), face_counts(parse_cards(hand)),
                          parse_cards(play), ctx) is None


def winner(preset: str, plays: list[str], level: str = "2", trump: str = "H", **options: object) -> int:
    """Index (lead first) of the play winning the trick so far."""
    return trick_winner([parse_cards(play) for play in plays], context(preset, level, trump, **options))


# -- sizes, steps and presets (§6, §7, §9) ---------------------------------------------------------

@pytest.mark.parametrize(("preset", "decks", "kitty", "hand", "step", "points"), [
    ("one-deck", 1, 6, 12, 20, 100),
    ("standard", 2, 8, 25, 40, 200),
    ("three-deck", 3, 6, 39, 60, 300),
    ("four-deck", 4, 8, 52, 80, 400),
])
def test_sizes_per_deck_count(preset: str, decks: int, kitty: int, hand: int, step: int, points: int) -> None:
    rules = Rules.parse(preset)
    assert (rules.decks, rules.kitty_size, rules.hand_size, rules.level_step, rules.total_points) == (
        decks, kitty, hand, step, points)


@pytest.mark.parametrize(("score", "expected"), [
    # seed 004: 0 分大光 +3, 不足 60 分小光 +2, 60–115 +1, 120 分上台, 180 +1, 240 +2 (three decks, step 60)
    (0, ("banker", 3)), (55, ("banker", 2)), (60, ("banker", 1)), (115, ("banker", 1)),
    (120, ("attackers", 0)), (180, ("attackers", 1)), (240, ("attackers", 2)),
    (-5, ("banker", 3)), (-60, ("banker", 4)),
])
def test_three_deck_level_steps(score: int, expected: tuple[str, int]) -> None:
    assert level_result(score, Rules.parse("three-deck")) == expected


@pytest.mark.parametrize(("preset", "score", "expected"), [
    ("one-deck", 15, ("banker", 2)), ("one-deck", 20, ("banker", 1)), ("one-deck", 40, ("attackers", 0)),
    ("one-deck", 60, ("attackers", 1)), ("one-deck", -20, ("banker", 4)),
    ("four-deck", 75, ("banker", 2)), ("four-deck", 80, ("banker", 1)), ("four-deck", 160, ("attackers", 0)),
    ("four-deck", 240, ("attackers", 1)), ("four-deck", -80, ("banker", 4)),
])
def test_level_steps_scale_with_decks(preset: str, score: int, expected: tuple[str, int]) -> None:
    assert level_result(score, Rules.parse(preset)) == expected


# -- combinations: triples, quads, 泰坦尼克 (§3) ----------------------------------------------------

@pytest.mark.parametrize(("cards", "level", "trump", "kind"), [
    # seed 004: at level 5 these are 泰坦尼克 — 333444, 444666, 副555 + 主555, 大王小王, AAA + 副5, 主5 + 小王
    ("3S 3S 3S 4S 4S 4S", "5", "H", "tractor"),
    ("4S 4S 4S 6S 6S 6S", "5", "H", "tractor"),
    ("5S 5S 5S 5H 5H 5H", "5", "H", "tractor"),
    ("BJ BJ BJ SJ SJ SJ", "5", "H", "tractor"),
    ("AH AH AH 5S 5S 5S", "5", "H", "tractor"),
    ("5H 5H 5H SJ SJ SJ", "5", "H", "tractor"),
    # … and these are not: 555666 at level 5 (two suits), 555555 with no trump (one shared position)
    ("5S 5S 5S 6S 6S 6S", "5", "H", "mixed"),
    ("5S 5S 5S 5H 5H 5H", "5", "none", "throw"),
    ("7S 7S 7S", "2", "H", "triple"),
    ("7S 7S 7S 7S", "2", "H", "quad"),
    ("7S 7S 7S 7S 8S 8S 8S 8S", "2", "H", "tractor"),
    ("7S 7S 7S 9S 9S", "2", "H", "throw"),
])
def test_triples_quads_and_titanic(cards: str, level: str, trump: str, kind: str) -> None:
    ctx = context("four-deck" if "7S 7S 7S 7S" in cards else "three-deck", level, trump)
    assert describe(parse_cards(cards), ctx)["kind"] == kind


def test_units_widest_first() -> None:
    """A throw's units: triples before pairs before singles, strongest first; a face's copies stay together."""
    answer = describe(parse_cards("3S AS KS KS KS QS QS"), context("three-deck"))
    assert answer["units"] == [["KS", "KS", "KS"], ["QS", "QS"], ["AS"], ["3S"]]


def test_one_deck_has_only_singles() -> None:
    ctx = context("one-deck")
    assert describe(parse_cards("AS KS"), ctx) == {"suit": "S", "kind": "throw", "units": [["AS"], ["KS"]]}


# -- seed 004's ladders (§4, three decks) ---------------------------------------------------------

TITANIC = "7S 7S 7S 8S 8S 8S"
"""A led 泰坦尼克 at level 2 with ♥ trump."""


@pytest.mark.parametrize(("hand", "play", "legal"), [
    # rung 1: 泰坦尼克 owed when held
    ("4S 4S 4S 5S 5S 5S 9S", "4S 4S 4S 5S 5S 5S", True),
    ("4S 4S 4S 5S 5S 5S 9S", "4S 4S 4S 5S 5S 9S", False),
    # rung 2: a tractor + any two, above two triples
    ("3S 3S 4S 4S 9S 9S 9S JS JS JS", "3S 3S 4S 4S 9S JS", True),
    ("3S 3S 4S 4S 9S 9S 9S JS JS JS", "9S 9S 9S JS JS JS", False),
    # rung 3: two triples, above triple + pair + single
    ("3S 3S 3S 9S 9S 9S JS JS KS", "3S 3S 3S 9S 9S 9S", True),
    ("3S 3S 3S 9S 9S 9S JS JS KS", "3S 3S 3S JS JS KS", False),
    # §11.1: ♠444 999 JJ A — two triples owed, not three loose pairs
    ("4S 4S 4S 9S 9S 9S JS JS AS", "4S 4S 4S 9S 9S 9S", True),
    ("4S 4S 4S 9S 9S 9S JS JS AS", "4S 4S 9S 9S JS JS", False),
    # rung 4: triple + pair + single, above triple + three singles
    ("3S 3S 3S JS JS 5S 6S KS", "3S 3S 3S JS JS 5S", True),
    ("3S 3S 3S JS JS 5S 6S KS", "3S 3S 3S 5S 6S KS", False),
    # rung 5: triple + three singles, above two pairs + two singles (the seed's order)
    ("3S 3S 3S 5S 9S JS KS", "3S 3S 3S 5S 9S JS", True),
    ("3S 3S 3S 5S 5S 9S 9S JS", "3S 3S 3S 5S 9S JS", False),
    # rung 6 and 7: pairs, then singles
    ("3S 3S 5S 5S 9S JS KS", "3S 3S 5S 5S 9S JS", True),
    ("3S 3S 5S 5S 9S JS KS", "3S 3S 5S 9S JS KS", False),
    ("3S 3S 5S 9S JS KS QS", "3S 3S 5S 9S JS KS", True),
    ("3S 3S 5S 9S JS KS QS", "3S 5S 9S JS KS QS", False),
])
def test_seed_004_titanic_ladder(hand: str, play: str, legal: bool) -> None:
    assert is_legal("three-deck", TITANIC, hand, play) is legal


@pytest.mark.parametrize(("hand", "play", "legal"), [
    # seed 004: 三同张 → 一副对子 + 一单张 → 三单张
    ("9S 9S 9S 3S 4S", "9S 9S 9S", True),
    ("9S 9S 9S 3S 4S", "9S 9S 3S", False),
    ("9S 9S 3S 4S", "9S 9S 3S", True),
    ("9S 9S 3S 4S", "9S 3S 4S", False),
    ("9S 3S 4S 5S", "9S 3S 4S", True),
])
def test_seed_004_triple_ladder(hand: str, play: str, legal: bool) -> None:
    assert is_legal("three-deck", "7S 7S 7S", hand, play) is legal


# Issue 21: the hand 33 444 999 K can make seed 004's second rung, 一副拖拉机 + 任意两张 (3344 + any two
# cards, a 4 or a 9 among them), which ranks above its two triples; a hand that cannot make a tractor
# owes the next rung it can make.
@pytest.mark.parametrize(("hand", "play", "legal"), [
    ("3S 3S 4S 4S 4S 9S 9S 9S KS", "3S 3S 4S 4S 9S 9S", True),
    ("3S 3S 4S 4S 4S 9S 9S 9S KS", "3S 3S 4S 4S 9S KS", True),
    ("3S 3S 4S 4S 4S 9S 9S 9S KS", "3S 3S 4S 4S 4S KS", True),
    ("3S 3S 4S 4S 4S 9S 9S 9S KS", "3S 3S 4S 4S 4S 9S", True),
    ("3S 3S 4S 4S 4S 9S 9S 9S KS", "4S 4S 4S 9S 9S 9S", False),
    ("3S 3S 4S 4S 4S 9S 9S 9S KS", "3S 3S 9S 9S 9S KS", False),
    # no two pairs at consecutive positions: the two triples are owed, not three pairs
    ("3S 3S 5S 5S 5S 9S 9S 9S KS", "5S 5S 5S 9S 9S 9S", True),
    ("3S 3S 5S 5S 5S 9S 9S 9S KS", "3S 3S 5S 5S 9S 9S", False),
    # a tractor and no triple: the tractor and any two
    ("3S 3S 4S 4S 9S 9S JS KS", "3S 3S 4S 4S 9S 9S", True),
    ("3S 3S 4S 4S 9S 9S JS KS", "3S 3S 4S 4S JS KS", True),
    ("3S 3S 4S 4S 9S 9S JS KS", "3S 3S 9S 9S JS KS", False),
    # a 3-pair tractor ranks with a 2-pair tractor + two: any 2-pair piece of it and any two
    ("3S 3S 4S 4S 5S 5S 9S KS", "4S 4S 5S 5S 9S KS", True),
    ("3S 3S 4S 4S 5S 5S 9S KS", "3S 3S 5S 5S 9S KS", False),
])
def test_seed_004_tractor_rung(hand: str, play: str, legal: bool) -> None:
    assert is_legal("three-deck", TITANIC, hand, play) is legal


def refusal(preset: str, lead: str, hand: str, play: str, level: str = "2", trump: str = "H",
            **options: object) -> str | None:
    """Why `play` from `hand` does not legally follow `lead` (None when it does)."""
    ctx = context(preset, level, trump, **options)
    return follow_problem(Lead.of(parse_cards(lead), ctx), face_counts(parse_cards(hand)), parse_cards(play), ctx)


@pytest.mark.parametrize(("hand", "play", "reason"), [
    # seed 004's 泰坦尼克 ladder: each refusal names the rung the hand can make, with the lead's six cards
    ("4S 4S 4S 5S 5S 5S 9S", "4S 4S 4S 5S 5S 9S", "a 2-triple tractor (holds 9♠ 5♠ 5♠ 5♠ 4♠ 4♠ 4♠)"),
    ("3S 3S 4S 4S 4S 9S 9S 9S KS", "4S 4S 4S 9S 9S 9S",
     "a 2-pair tractor and 2 other cards (holds K♠ 9♠ 9♠ 9♠ 4♠ 4♠ 4♠ 3♠ 3♠)"),
    ("9S 9S 9S JS JS JS 3S", "9S 9S JS JS 3S 9S", "2 triples (holds J♠ J♠ J♠ 9♠ 9♠ 9♠ 3♠)"),
    ("9S 9S 9S QS QS 3S KS", "9S 9S QS QS 3S KS",
     "a triple, a pair and 1 other card (holds K♠ Q♠ Q♠ 9♠ 9♠ 9♠ 3♠)"),
    ("3S 3S 3S 5S 9S JS KS", "3S 3S 5S 9S JS KS", "a triple and 3 other cards (holds K♠ J♠ 9♠ 5♠ 3♠ 3♠ 3♠)"),
    ("3S 3S 5S 5S 9S JS KS", "3S 3S 5S 9S JS KS", "2 pairs and 2 other cards (holds K♠ J♠ 9♠ 5♠ 5♠ 3♠ 3♠)"),
    ("3S 3S 5S 9S JS KS QS", "3S 5S 9S JS KS QS", "a pair and 4 other cards (holds K♠ Q♠ J♠ 9♠ 5♠ 3♠ 3♠)"),
])
def test_titanic_refusals_name_the_rung(hand: str, play: str, reason: str) -> None:
    played = " ".join(card.pretty for card in parse_cards(play))
    expected = f"must follow the tractor in ♠ with {reason} but played {played}"
    assert refusal("three-deck", TITANIC, hand, play) == expected


@pytest.mark.parametrize(("preset", "lead", "hand", "play", "reason"), [
    # the review's case: a triple led (♥ is trump), ♥QQQ 3 held — the triple is owed, three cards
    ("three-deck", "9H 9H 9H", "QH QH QH 3H 5C", "QH QH 3H",
     "must follow the triple in trump with a triple (holds Q♥ Q♥ Q♥ 3♥) but played Q♥ Q♥ 3♥"),
    # seed 004's triple ladder: 一副对子 + 一单张
    ("three-deck", "7S 7S 7S", "9S 9S 3S 4S", "9S 3S 4S",
     "must follow the triple in ♠ with a pair and 1 other card (holds 9♠ 9♠ 4♠ 3♠) but played 9♠ 3♠ 4♠"),
    # four decks: a led quad asks for a quad, then a 2-pair tractor, then two pairs, then a pair + two
    ("four-deck", "7S 7S 7S 7S", "9S 9S 9S 9S 3S 4S", "9S 9S 3S 4S",
     "must follow the quad in ♠ with a quad (holds 9♠ 9♠ 9♠ 9♠ 4♠ 3♠) but played 9♠ 9♠ 3♠ 4♠"),
    ("four-deck", "7S 7S 7S 7S", "9S 9S 10S 10S 3S", "9S 9S 10S 3S",
     "must follow the quad in ♠ with a 2-pair tractor (holds 10♠ 10♠ 9♠ 9♠ 3♠) but played 9♠ 9♠ 10♠ 3♠"),
    ("four-deck", "7S 7S 7S 7S", "9S 9S JS JS 3S", "9S 9S JS 3S",
     "must follow the quad in ♠ with 2 pairs (holds J♠ J♠ 9♠ 9♠ 3♠) but played 9♠ 9♠ J♠ 3♠"),
    ("four-deck", "7S 7S 7S 7S", "9S 9S JS 3S 4S", "9S JS 3S 4S",
     "must follow the quad in ♠ with a pair and 2 other cards (holds J♠ 9♠ 9♠ 4♠ 3♠) but played 9♠ J♠ 3♠ 4♠"),
    # two consecutive quads led (a quad tractor), answered with one quad and two pairs: both quads owed
    ("four-deck", "AS AS AS AS KS KS KS KS", "QS QS QS QS 9S 9S 9S 9S 3S 3S", "QS QS QS QS 9S 9S 3S 3S",
     "must follow the tractor in ♠ with 2 quads (holds Q♠ Q♠ Q♠ Q♠ 9♠ 9♠ 9♠ 9♠ 3♠ 3♠) "
     "but played Q♠ Q♠ Q♠ Q♠ 9♠ 9♠ 3♠ 3♠"),
    # a 2-pair tractor fills two of a led 3-triple tractor's triples and leaves the third to a triple held
    ("three-deck", "7S 7S 7S 8S 8S 8S 9S 9S 9S", "3S 3S 4S 4S JS JS JS KS KS KS AS", "3S 3S 4S 4S KS KS JS AS JS",
     "must follow the tractor in ♠ with a 2-pair tractor, a triple and 2 other cards (holds A♠ K♠ K♠ K♠ J♠ J♠ J♠ "
     "4♠ 4♠ 3♠ 3♠) but played 3♠ 3♠ 4♠ 4♠ K♠ K♠ J♠ A♠ J♠"),
    ("three-deck", "7S 7S 7S 8S 8S 8S 9S 9S 9S", "3S 3S 4S 4S JS JS JS KS KS KS AS", "3S 3S 4S 4S KS KS KS AS JS",
     None),
    # two consecutive quads led to ♠3344 999: a 2-pair tractor and the pair of the triple (the quads' 4 pairs)
    ("four-deck", "AS AS AS AS KS KS KS KS", "3S 3S 4S 4S 9S 9S 9S 5S 6S", "3S 3S 9S 9S 9S 5S 6S 4S",
     "must follow the tractor in ♠ with a 2-pair tractor, a pair and 2 other cards (holds 9♠ 9♠ 9♠ 6♠ 5♠ 4♠ 4♠ "
     "3♠ 3♠) but played 3♠ 3♠ 9♠ 9♠ 9♠ 5♠ 6♠ 4♠"),
])
def test_wide_refusals_name_the_rung(preset: str, lead: str, hand: str, play: str, reason: str | None) -> None:
    assert refusal(preset, lead, hand, play) == reason


# -- rbtying's multi-deck follow tests (level 4, ♠ trump) -----------------------------------------

RB = {"level": "4", "trump": "S"}


@pytest.mark.parametrize(("follow", "lead", "hand", "play", "legal"), [
    # test_legal_play_pairs: a pair led, ♠222 3 5 held — the triple must be broken unless protected
    ("strict", "3S 3S", "2S 2S 2S 3S 5S", "3S 5S", False),
    ("protect_longer", "3S 3S", "2S 2S 2S 3S 5S", "3S 5S", True),
    ("loose", "3S 3S", "2S 2S 2S 3S 5S", "3S 5S", True),
    # a triple led, ♠22 33 55 held: a pair and a single
    ("strict", "3S 3S 3S", "2S 2S 3S 3S 5S 5S", "2S 2S 5S", True),
    ("strict", "3S 3S 3S", "2S 2S 3S 3S 5S 5S", "2S 3S 5S", False),
    ("loose", "3S 3S 3S", "2S 2S 3S 3S 5S 5S", "2S 3S 5S", True),
    # a tractor led, ♠2222 33 55 held: a tractor is owed; the quad is not one
    ("strict", "2S 2S 3S 3S", "2S 2S 2S 2S 3S 3S 5S 5S", "2S 2S 2S 2S", False),
    ("strict", "2S 2S 3S 3S", "2S 2S 2S 2S 3S 3S 5S 5S", "2S 2S 3S 3S", True),
    ("strict", "2S 2S 3S 3S", "2S 2S 2S 2S 3S 3S 5S 5S", "3S 3S 5S 5S", True),
    ("protect_longer", "2S 2S 3S 3S", "2S 2S 2S 2S 3S 3S 5S 5S", "2S 2S 2S 2S", False),
    ("protect_longer", "2S 2S 3S 3S", "2S 2S 2S 2S 3S 3S 5S 5S", "2S 2S 3S 3S", True),
    ("protect_longer_tractor_on_tractor_only", "2S 2S 3S 3S", "2S 2S 2S 2S 3S 3S 5S 5S", "2S 2S 2S 2S", False),
    ("loose", "2S 2S 3S 3S", "2S 2S 2S 2S 3S 3S 5S 5S", "2S 2S 2S 2S", True),
    # ♠2222 3 55 held: no tractor can be made; a quad counts as two pairs
    ("strict", "2S 2S 3S 3S", "2S 2S 2S 2S 3S 5S 5S", "2S 2S 2S 2S", True),
    ("strict", "2S 2S 3S 3S", "2S 2S 2S 2S 3S 5S 5S", "2S 2S 5S 5S", True),
    ("strict", "2S 2S 3S 3S", "2S 2S 2S 2S 3S 5S 5S", "2S 2S 5S 3S", False),
    ("protect_longer", "2S 2S 3S 3S", "2S 2S 2S 2S 3S 5S 5S", "2S 2S 2S 2S", True),
    ("protect_longer", "2S 2S 3S 3S", "2S 2S 2S 2S 3S 5S 5S", "2S 2S 5S 5S", True),
    ("protect_longer", "2S 2S 3S 3S", "2S 2S 2S 2S 3S 5S 5S", "2S 2S 5S 3S", True),
    # a pair + a single led, ♠222 5 held
    ("strict", "2S 2S 3S", "2S 2S 2S 5S", "2S 2S 2S", True),
    ("strict", "2S 2S 3S", "2S 2S 2S 5S", "2S 2S 5S", True),
    ("protect_longer", "2S 2S 3S", "2S 2S 2S 5S", "2S 2S 2S", True),
    # test_protected_tuple: a triple led, ♠2222 5678 / ♠2222 55 678 held
    ("strict", "3S 3S 3S", "2S 2S 2S 2S 5S 6S 7S 8S", "6S 7S 8S", False),
    ("loose", "3S 3S 3S", "2S 2S 2S 2S 5S 6S 7S 8S", "6S 7S 8S", True),
    ("protect_longer", "3S 3S 3S", "2S 2S 2S 2S 5S 6S 7S 8S", "6S 7S 8S", True),
    ("strict", "3S 3S 3S", "2S 2S 2S 2S 5S 5S 6S 7S 8S", "5S 5S 6S", False),
    ("protect_longer", "3S 3S 3S", "2S 2S 2S 2S 5S 5S 6S 7S 8S", "5S 5S 6S", True),
    ("protect_longer_tractor_on_tractor_only", "3S 3S 3S", "2S 2S 2S 2S 5S 5S 6S 7S 8S", "5S 5S 6S", True),
    ("protect_longer", "3S 3S 3S", "2S 2S 2S 2S 5S 5S 6S 7S 8S", "6S 7S 8S", False),
    # test_protected_wider_tractor: a tractor led, ♠222 333 5678 held
    ("strict", "6S 6S 7S 7S", "2S 2S 2S 3S 3S 3S 5S 6S 7S 8S", "5S 6S 7S 8S", False),
    ("loose", "6S 6S 7S 7S", "2S 2S 2S 3S 3S 3S 5S 6S 7S 8S", "5S 6S 7S 8S", True),
    ("protect_longer", "6S 6S 7S 7S", "2S 2S 2S 3S 3S 3S 5S 6S 7S 8S", "5S 6S 7S 8S", True),
    ("tractor_on_tractor_only", "6S 6S 7S 7S", "2S 2S 2S 3S 3S 3S 5S 6S 7S 8S", "5S 6S 7S 8S", False),
    ("protect_longer_tractor_on_tractor_only", "6S 6S 7S 7S", "2S 2S 2S 3S 3S 3S 5S 6S 7S 8S",
     "5S 6S 7S 8S", True),
    # test_longer_tuple_guard_requires_enough_genuine_tuples: ♠222 55 6 held, a pair + a single led
    ("protect_longer", "3S 3S 5S", "2S 2S 2S 5S 5S 6S", "2S 2S 2S", False),
    ("protect_longer", "3S 3S 5S", "2S 2S 2S 5S 5S 6S", "5S 5S 2S", True),
    ("protect_longer", "3S 3S 5S", "2S 2S 2S 6S 7S 8S", "2S 2S 2S", True),
    # beyond rbtying's: a tuple lead answered by a tuple of one face (the follow rule's shortcut)
    # a pair led, ♠222 55 held: a pair of one face answers it, even one taken from the triple…
    ("strict", "3S 3S", "2S 2S 2S 5S 5S", "2S 2S", True),
    ("strict", "3S 3S", "2S 2S 2S 5S 5S", "5S 5S", True),
    ("loose", "3S 3S", "2S 2S 2S 5S 5S", "2S 2S", True),
    # …and under protect_longer too: it spares the triple from having to be broken, it does not forbid it
    ("protect_longer", "3S 3S", "2S 2S 2S 5S 5S", "2S 2S", True),
    ("protect_longer", "3S 3S", "2S 2S 2S 5S 5S", "5S 5S", True),
    ("protect_longer_tractor_on_tractor_only", "3S 3S", "2S 2S 2S 5S 5S", "2S 2S", True),
    # a triple and a quad led: a tuple of one face of the same width answers them
    ("strict", "3S 3S 3S", "2S 2S 2S 2S 5S 5S 5S", "5S 5S 5S", True),
    ("protect_longer", "3S 3S 3S", "2S 2S 2S 2S 5S 5S 5S", "2S 2S 2S", True),
    ("strict", "3S 3S 3S 3S", "5S 5S 5S 5S 6S", "5S 5S 5S 5S", True),
    # a pair of the trump suit does not answer a side-suit pair while the side suit is held
    ("strict", "3D 3D", "4D 6D 5S 5S", "5S 5S", False),
])
def test_multi_deck_follows(follow: str, lead: str, hand: str, play: str, legal: bool) -> None:
    assert is_legal("standard", lead, hand, play, follow=follow, decks=4, **RB) is legal


@pytest.mark.parametrize(("follow", "lead", "hand", "play", "legal"), [
    # test_protected_tractor_triple (♥ trump): a tractor + a single led in ♠, ♠3 5 10 J Q 6 888 held
    ("strict", "9S 9S 10S 10S KS", "3S 5S 10S JS QS 6S 8S 8S 8S", "3S 5S 10S JS QS", False),
    ("loose", "9S 9S 10S 10S KS", "3S 5S 10S JS QS 6S 8S 8S 8S", "3S 5S 10S JS QS", True),
    ("protect_longer", "9S 9S 10S 10S KS", "3S 5S 10S JS QS 6S 8S 8S 8S", "3S 5S 10S JS QS", True),
    ("strict", "9S 9S 10S 10S KS", "3S 5S 10S JS QS 6S 8S 8S 8S", "3S 6S 8S 8S 8S", True),
    ("protect_longer", "9S 9S 10S 10S KS", "3S 5S 10S JS QS 6S 8S 8S 8S", "3S 6S 8S 8S 8S", True),
    # test_longer_tuple_bypasses_genuine_false_positive
    ("protect_longer", "6S 6S 7S 7S 5S", "6S 6S 6S 8S 8S", "6S 6S 6S 8S 8S", True),
    ("protect_longer", "6S 6S 7S 7S 5S", "6S 6S 6S 8S 8S JS JS", "6S 6S 6S 8S 8S", False),
])
def test_rbtying_protected_side_suit(follow: str, lead: str, hand: str, play: str, legal: bool) -> None:
    assert is_legal("three-deck", lead, hand, play, level="4", trump="H", follow=follow) is legal


@pytest.mark.parametrize(("hand", "play", "legal"), [
    # test_triple_in_play_does_not_satisfy_pair_when_genuine_pair_available (♥ side suit, ♠ trump)
    ("KH KH 2H 2H 2H 5H 6H 7H 8H", "2H 2H 2H 5H 6H 7H", False),
    ("KH KH 2H 2H 2H 5H 6H 7H 8H", "2H 2H KH KH 5H 6H", True),
    ("2H 2H 2H 5H 6H 7H 8H 9H JH", "2H 2H 2H 5H 6H 7H", True),
])
def test_rbtying_triple_does_not_fill_pair_slot(hand: str, play: str, legal: bool) -> None:
    lead = "10H 10H JH JH QH QH"
    assert is_legal("three-deck", lead, hand, play, follow="protect_longer", bombs="allow", **RB) is legal


# -- four decks: quads as two pairs, seed 000's ladder and wider plays (§4, §5) ---------------------

@pytest.mark.parametrize(("lead", "hand", "play", "legal"), [
    # §11.3: ♠7788 led, ♠9999 3 4 held — the quad counts as two pairs and is owed
    ("7S 7S 8S 8S", "9S 9S 9S 9S 3S 4S", "9S 9S 9S 9S", True),
    ("7S 7S 8S 8S", "9S 9S 9S 9S 3S 4S", "9S 9S 3S 4S", False),
    # … but it does not stand in for an owed tractor
    ("7S 7S 8S 8S", "3S 3S 3S 3S 5S 5S 6S 6S", "5S 5S 6S 6S", True),
    ("7S 7S 8S 8S", "3S 3S 3S 3S 5S 5S 6S 6S", "3S 3S 3S 3S", False),
    # seed 000: 5 对连拖 → 4 对连拖加 1 对 → 3 对连拖加 2 对连拖 → 2 对连拖加 3 对 → 5 对
    ("3S 3S 4S 4S 5S 5S 6S 6S 7S 7S", "8S 8S 9S 9S 10S 10S JS JS KS KS AS",
     "8S 8S 9S 9S 10S 10S JS JS KS KS", True),
    ("3S 3S 4S 4S 5S 5S 6S 6S 7S 7S", "8S 8S 9S 9S 10S 10S JS JS KS KS AS",
     "8S 8S 9S 9S 10S 10S KS KS AS JS", False),
    # 若是三条也要拆掉: a triple gives up a pair
    ("3S 3S 4S 4S", "9S 9S 9S JS QS KS", "9S 9S JS QS", True),
    ("3S 3S 4S 4S", "9S 9S 9S JS QS KS", "9S JS QS KS", False),
])
def test_four_deck_follows(lead: str, hand: str, play: str, legal: bool) -> None:
    assert is_legal("four-deck", lead, hand, play) is legal


@pytest.mark.parametrize(("plays", "expected"), [
    # seed 000 4.A–C: 22223333 > 66778899, 222333 > 667788, 2222 > 7788 (level 10, ♥ trump)
    (["6S 6S 7S 7S 8S 8S 9S 9S", "2S 2S 2S 2S 3S 3S 3S 3S"], 1),
    (["6S 6S 7S 7S 8S 8S", "2S 2S 2S 3S 3S 3S"], 1),
    (["7S 7S 8S 8S", "2S 2S 2S 2S"], 1),
    (["7S 7S 8S 8S", "2S 2S 2S 2S", "3S 3S 3S 3S"], 2),
    (["7S 7S 8S 8S", "2S 2S 2S 2S", "AS AS KS KS"], 1),
    # §11.6 (issue 21): seed 000's 4条比2连拖大 compares plays of one suit, so a trump tractor ruff beats a
    # led-suit quad (it used to lose to it), played before or after it; a trump quad beats both
    (["7S 7S 8S 8S", "AH AH KH KH", "2S 2S 2S 2S"], 1),
    (["7S 7S 8S 8S", "2S 2S 2S 2S", "AH AH KH KH"], 2),
    (["7S 7S 8S 8S", "AH AH KH KH", "3H 3H 3H 3H"], 2),
    (["7S 7S 8S 8S", "2S 2S 2S 2S", "3H 3H 3H 3H"], 2),
    (["7S 7S 8S 8S", "3H 3H 3H 3H", "AH AH KH KH"], 1),
    # … and over a trump ruff, a higher trump tractor still overruffs
    (["7S 7S 8S 8S", "3H 3H 4H 4H", "AH AH KH KH"], 2),
    # a quad led is beaten only by a higher quad
    (["7S 7S 7S 7S", "AS AS KS KS"], 0),
    (["7S 7S 7S 7S", "9S 9S 9S 9S"], 1),
])
def test_four_deck_wider_plays(plays: list[str], expected: int) -> None:
    assert winner("four-deck", plays, level="10") == expected


@pytest.mark.parametrize(("bombs", "expected"), [("none", 1), ("allow", 2), ("allow_suit_following", 2)])
def test_four_deck_ruff_against_a_led_suit_quad(bombs: str, expected: int) -> None:
    """Issue 21 (the review's case, level 2, ♠ trump): ♥3344 led, ruffed by ♠3344, then ♥9999 — the ruff
    stands unless `bombs` makes the quad a bomb (a bomb of the led suit, legal under either bomb option)."""
    plays = ["3H 3H 4H 4H", "3S 3S 4S 4S", "9H 9H 9H 9H"]
    assert winner("four-deck", plays, trump="S", bombs=bombs) == expected


def test_wider_plays_only_under_the_four_deck_preset() -> None:
    """§11.6: seed 000's wider plays belong to the four-deck preset; elsewhere a 泰坦尼克 or a quad does
    not hold the led 3-pair or 2-pair tractor (two positions are not three), as in rbtying."""
    assert winner("three-deck", ["6S 6S 7S 7S 8S 8S", "2S 2S 2S 3S 3S 3S"], level="10") == 0
    assert winner("standard", ["7S 7S 8S 8S", "2S 2S 2S 2S"], level="10", decks=4) == 0
    assert winner("four-deck", ["7S 7S 8S 8S", "2S 2S 2S 2S"], level="10") == 1


# -- bombs (§9 `bombs`, rbtying's bomb tests) -------------------------------------------------------

@pytest.mark.parametrize(("bombs", "plays", "expected"), [
    ("allow", ["8S 8S 9S 9S", "2S 2S 2S 2S", "3S 5S 6S 7S", "3S 5S 6S 7S"], 1),
    ("allow", ["8S 8S 9S 9S", "2S 2S 2S 2S", "3S 3S 3S 3S", "5S 6S 7S 10S"], 2),
    ("none", ["8S 8S 9S 9S", "2S 2S 2S 2S", "3S 5S 6S 7S", "3S 5S 6S 7S"], 0),
    ("allow", ["8S 8S 9S", "2S 2S 2S", "3S 5S 6S", "3S 5S 6S"], 0),
    ("allow", ["7S 7S 7S 7S", "6S 6S 6S 6S"], 0),
    ("allow", ["7S 7S 7S 7S", "8S 8S 8S 8S"], 1),
])
def test_bombs_beat_tractors(bombs: str, plays: list[str], expected: int) -> None:
    assert winner("standard", plays, bombs=bombs, decks=4, **RB) == expected


def test_trump_bomb_beats_side_bomb() -> None:
    plays = ["8S 8S 9S 9S", "2S 2S 2S 2S", "3H 3H 3H 3H", "5S 6S 7S 10S"]
    assert winner("four-deck", plays, level="4", trump="H", bombs="allow") == 2


@pytest.mark.parametrize(("bombs", "hand", "play", "legal"), [
    ("allow", "2D 2D 2D 2D 3S", "2D 2D 2D 2D", True),
    ("allow_suit_following", "2D 2D 2D 2D 3S", "2D 2D 2D 2D", False),
    ("allow_suit_following", "2D 2D 2D 2D", "2D 2D 2D 2D", True),
    # rules.md §9: under allow_suit_following a trump bomb only from a follower void in the led suit
    # (rbtying's doc comment; his code and test_bomb_suit_following_trump_bomb_allowed let it through)
    ("allow_suit_following", "3H 3H 3H 3H 5S", "3H 3H 3H 3H", False),
    ("allow_suit_following", "3H 3H 3H 3H 5S", "3H 3H 3H 5S", True),
    ("allow_suit_following", "3H 3H 3H 3H 5D", "3H 3H 3H 3H", True),
    ("allow_suit_following", "2S 2S 2S 2S 3H 3H 3H 3H", "2S 2S 2S 2S", True),
    ("allow_suit_following", "2S 2S 2S 2S 2S 3H 3H 3H 3H", "3H 3H 3H 3H", False),
    ("allow", "3H 3H 3H 3H 5S", "3H 3H 3H 3H", True),
    ("allow", "2D 2D 2D 2D 2S 3S 5S 6S 7S", "2D 2D 2D 2D", True),
    ("none", "3H 3H 3H 3H 5S", "3H 3H 3H 3H", False),
    ("none", "3H 3H 3H 3H 5D", "3H 3H 3H 3H", True),
])
def test_bomb_suit_following(bombs: str, hand: str, play: str, legal: bool) -> None:
    assert is_legal("four-deck", "8S 8S 9S 9S", hand, play, level="4", trump="H", bombs=bombs) is legal


@pytest.mark.parametrize(("bombs", "hand", "bombs_listed"), [
    ("allow", "3H 3H 3H 3H 2D 2D 2D 2D 2D 5S 6S 7S 10S 10S", {"3H", "2D"}),
    ("allow_suit_following", "3H 3H 3H 3H 2D 2D 2D 2D 2D 5S 6S 7S 10S 10S", set()),
    ("allow_suit_following", "3H 3H 3H 3H 2D 2D 2D 2D 5D", {"3H", "2D"}),
    ("allow_suit_following", "2S 2S 2S 2S 3H 3H 3H 3H 5S", {"2S"}),
])
def test_legal_follows_lists_the_bombs_allowed(bombs: str, hand: str, bombs_listed: set[str]) -> None:
    """`legal_follows` offers exactly the bombs `follow_problem` accepts (4-card lead ♠8899)."""
    ctx = context("four-deck", "4", "H", bombs=bombs)
    lead = Lead.of(parse_cards("8S 8S 9S 9S"), ctx)
    held = face_counts(parse_cards(hand))
    listed = {str(play[0]) for play in legal_follows(lead, held, ctx) if len(set(play)) == 1}
    assert listed == bombs_listed
    for face in bombs_listed:
        assert follow_problem(lead, held, parse_cards(" ".join([face] * 4)), ctx) is None


@pytest.mark.parametrize(("bombs", "plays", "expected"), [
    # a bomb beats any non-bomb play; between bombs the higher face (trump above side). With at most
    # four decks every bomb has 4 cards, as the lead, so "wider beats narrower" never meets one trick.
    ("allow", ["8S 8S 9S 9S", "3H 3H 3H 3H"], 1),
    ("allow", ["8S 8S 9S 9S", "2D 2D 2D 2D"], 1),
    ("allow", ["7S 7S 7S 7S", "8S 8S 8S 8S", "6S 6S 6S 6S", "5S 5S 5S AS"], 1),
    ("allow", ["AS AS AS AS", "2S 2S 2S 2S"], 0),
    ("allow", ["AS AS KS KS", "2S 2S 2S 2S", "3H 3H 3H 3H", "AD AD AD AD"], 2),
    ("allow", ["AS AS KS KS", "2H 2H 2H 2H", "3H 3H 3H 3H", "4C 4C 4C 4C"], 3),
    ("allow_suit_following", ["8S 8S 9S 9S", "2S 2S 2S 2S", "3S 5S 6S 7S"], 1),
    ("allow_suit_following", ["8S 8S 9S 9S", "2S 2S 2S 2S", "3H 3H 3H 3H"], 2),
    ("none", ["8S 8S 9S 9S", "2D 2D 2D 2D"], 0),
])
def test_bomb_order(bombs: str, plays: list[str], expected: int) -> None:
    assert winner("four-deck", plays, level="4", trump="H", bombs=bombs) == expected


def test_void_off_suit_bomb_wins() -> None:
    """§11.9: under allow_suit_following a void player's off-suit bomb is legal and wins."""
    plays = ["8S 8S 9S 9S", "2D 2D 2D 2D", "3S 5S 6S 7S", "3S 5S 6S 7S"]
    assert winner("four-deck", plays, level="4", trump="H", bombs="allow_suit_following") == 1


# -- throws with triples (§4 throw check, §11.11) ---------------------------------------------------

@pytest.mark.parametrize(("lead", "others", "ok", "forced"), [
    # §11.11: ♠QQQ 33 thrown, KKK held elsewhere: the triple class is tested first → QQQ
    ("QS QS QS 3S 3S", ["KS KS KS", "4D", "5D"], False, "QS QS QS"),
    ("QS QS QS 3S 3S", ["4S 4S", "4D", "5D"], False, "3S 3S"),
    ("QS QS QS 3S 3S", ["KS KS", "4S 4S", "5D"], False, "3S 3S"),
    ("QS QS QS 3S 3S", ["KS AS 2S", "4D", "5D"], True, "QS QS QS 3S 3S"),
])
def test_throws_with_triples(lead: str, others: list[str], ok: bool, forced: str) -> None:
    ctx = context("three-deck")
    result = check_throw(parse_cards(lead), [face_counts(parse_cards(h)) for h in others], ctx)
    assert (result.ok, sorted(map(str, result.forced))) == (ok, sorted(forced.split()))


# -- kitty multipliers (§6, seed 004) ---------------------------------------------------------------

@pytest.mark.parametrize(("lead", "style", "multiplier"), [
    # seed 004: 444555 → 64, 445566 → 64, 4455 → 16, 555 → 8, AKQJ 10 9 8 77 → 4, AKQJ → 2, AAJJ → 4
    ("4S 4S 4S 5S 5S 5S", "power_cards", 64),
    ("4S 4S 5S 5S 6S 6S", "power_cards", 64),
    ("4S 4S 5S 5S", "power_cards", 16),
    ("5S 5S 5S", "power_cards", 8),
    ("AS KS QS JS 10S 9S 8S 7S 7S", "power_cards", 4),
    ("AS KS QS JS", "power_cards", 2),
    ("AS AS JS JS", "power_cards", 4),
    # §11.7: doubling and linear read a triple as width 3, a quad as width 4
    ("5S 5S 5S", "doubling", 8),
    ("5S 5S 5S 6S 6S 6S", "doubling", 16),
    ("5S 5S 5S", "linear", 6),
    ("5S 5S 5S 6S 6S 6S", "linear", 8),
])
def test_three_deck_kitty_multipliers(lead: str, style: str, multiplier: int) -> None:
    ctx = context("three-deck", kitty_multiplier=style)
    assert kitty_multiplier(Lead.of(parse_cards(lead), ctx), ctx.rules) == multiplier


def test_quad_kitty_multipliers() -> None:
    ctx = context("four-deck")
    quad = Lead.of(parse_cards("5S 5S 5S 5S"), ctx)
    assert [kitty_multiplier(quad, Rules.parse({"preset": "four-deck", "kitty_multiplier": style}))
            for style in ("doubling", "linear", "power_cards", "times_cards")] == [16, 8, 16, 8]


# -- a round with three decks ----------------------------------------------------------------------

def test_round_state_plays_a_titanic_trick() -> None:
    ctx = context("three-deck")
    hands = [parse_cards("7S 7S 7S 8S 8S 8S"), parse_cards("3S 3S 4S 4S 9S JS"),
             parse_cards("AS AS AS KS KS KS"), parse_cards("5S 6S 10S QS 2D 3D")]
    state = RoundState.start(ctx.rules, ctx, banker=0, hands=hands)
    state.lead(hands[0])
    for hand in hands[1:]:
        state.follow(hand)
    assert state.tricks[0].winner == 2
    assert state.points_won == [0, 0, 45, 0]


# -- the largest unit is the one with most cards (§5, §6) -----------------------------------------

def test_largest_unit_decides_a_throw_with_a_triple_and_a_tractor() -> None:
    """♠KKK 5566 (level 2, ♥ trump): the 2-pair tractor (4 cards) is the largest unit, not the triple.
    Of two ruffs, ♥555 8899 beats ♥AAA 3344 by its higher tractor though its triple is lower; the
    kitty multiplier is the tractor's."""
    ctx = context("three-deck")
    lead = parse_cards("KS KS KS 5S 5S 6S 6S")
    assert Lead.of(lead, ctx).units[Lead.of(lead, ctx).deciding].shape == (2, 2)
    high_triple = parse_cards("AH AH AH 3H 3H 4H 4H")
    high_tractor = parse_cards("5H 5H 5H 8H 8H 9H 9H")
    assert trick_winner([lead, high_triple, high_tractor], ctx) == 2
    assert trick_winner([lead, high_tractor, high_triple], ctx) == 1
    assert kitty_multiplier(Lead.of(lead, ctx), ctx.rules) == 16  # power_cards: 2 ** 4


@pytest.mark.parametrize(("follow", "lead", "hand", "play", "legal"), [
    # §11.2, four decks: a led quad → quad → 2-pair tractor → two pairs → a pair + two → singles
    ("strict", "KS KS KS KS", "9S 9S 9S 9S 3S 3S 4S 4S", "9S 9S 9S 9S", True),
    ("strict", "KS KS KS KS", "9S 9S 9S 9S 3S 3S 4S 4S", "3S 3S 4S 4S", False),
    ("strict", "KS KS KS KS", "3S 3S 4S 4S 9S 9S 9S JS", "3S 3S 4S 4S", True),
    ("strict", "KS KS KS KS", "3S 3S 4S 4S 9S 9S 9S JS", "9S 9S 9S JS", False),
    ("strict", "KS KS KS KS", "3S 3S 4S 4S 9S 9S 9S JS", "9S 9S 3S 3S", False),
    ("tractor_on_tractor_only", "KS KS KS KS", "3S 3S 4S 4S 9S 9S 9S JS", "9S 9S 3S 3S", True),
    ("tractor_on_tractor_only", "KS KS KS KS", "3S 3S 4S 4S 9S 9S 9S JS", "9S 9S 9S JS", False),
    # a led triple with four decks: a quad gives the triple
    ("strict", "KS KS KS", "9S 9S 9S 9S 3S 3S", "9S 9S 9S", True),
    ("strict", "KS KS KS", "9S 9S 9S 9S 3S 3S", "3S 3S 9S", False),
])
def test_four_deck_wide_leads(follow: str, lead: str, hand: str, play: str, legal: bool) -> None:
    assert is_legal("four-deck", lead, hand, play, follow=follow) is legal


@pytest.mark.parametrize(("lead", "hand", "play", "legal"), [
    # §11.1: a led 3-triple tractor asks first for the longest triple tractor (here a 泰坦尼克), then
    # for pairs: 泰坦尼克 + a pair + a single
    ("3S 3S 3S 4S 4S 4S 5S 5S 5S", "7S 7S 7S 8S 8S 8S 10S 10S JS JS QS",
     "7S 7S 7S 8S 8S 8S 10S 10S QS", True),
    ("3S 3S 3S 4S 4S 4S 5S 5S 5S", "7S 7S 7S 8S 8S 8S 10S 10S JS JS QS",
     "7S 7S 7S 8S 8S 8S 10S JS QS", False),
    ("3S 3S 3S 4S 4S 4S 5S 5S 5S", "7S 7S 7S 8S 8S 8S 10S 10S JS JS QS",
     "7S 7S 8S 8S 10S 10S JS JS QS", False),
    # a throw holding a triple: triple + pair + single before triple + singles
    ("7S 7S 7S 9S 9S AS", "3S 3S 3S 5S 5S 6S 8S", "3S 3S 3S 5S 5S 6S", True),
    ("7S 7S 7S 9S 9S AS", "3S 3S 3S 5S 5S 6S 8S", "3S 3S 3S 5S 6S 8S", False),
    # 泰坦尼克 + a single is followed like 泰坦尼克, one card more free
    ("7S 7S 7S 8S 8S 8S AS", "3S 3S 3S 9S 9S 9S JS QS", "3S 3S 3S 9S 9S 9S QS", True),
    ("7S 7S 7S 8S 8S 8S AS", "3S 3S 3S 9S 9S 9S JS QS", "3S 3S 3S 9S 9S JS QS", False),
])
def test_three_deck_unlisted_leads(lead: str, hand: str, play: str, legal: bool) -> None:
    assert is_legal("three-deck", lead, hand, play) is legal
