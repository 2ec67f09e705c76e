"""Corner cases for every two-deck rules option of rules.md §9, one case table per option.

Every expected value is worked out by hand from rules.md (and the seed examples it quotes); the
comments say how. Unless a case says otherwise the hand is played at level 2 with ♥ trump, so ♠
is a plain side suit A > K > … > 3.
"""
from __future__ import annotations

import pytest

from trainer.engine import (JipaiError, Lead, RoundState, Rules, TrumpContext, check_throw, describe,
                            follow_problem, kitty_multiplier, level_result, next_banker, parse_cards,
                            throw_penalty, trick_winner)
from trainer.engine.combos import face_counts

# -- helpers ---------------------------------------------------------------------------------------


def rules_with(**options: object) -> Rules:
    """Standard rules with some options set over them."""
    return Rules.parse({"preset": "standard", **options})


def context(level: str = "2", trump: str = "H", **options: object) -> TrumpContext:
    return TrumpContext.parse(level, trump, rules_with(**options))


def kind(cards: str, level: str = "2", trump: str = "H", **options: object) -> str:
    """The referee's `kind` of a set of cards."""
    return describe(parse_cards(cards), context(level, trump, **options))["kind"]


def is_legal(lead: str, hand: str, play: str, level: str = "2", trump: str = "H", **options: object) -> bool:
    """True when `play` from `hand` is a legal follow to `lead`."""
    ctx = context(level, trump, **options)
    problem = follow_problem(Lead.of(parse_cards(lead), ctx), face_counts(parse_cards(hand)), parse_cards(play), ctx)
    return problem is None


def winner(plays: list[str], level: str = "2", trump: str = "H", **options: object) -> int:
    """Index (into plays, lead first) of the play winning the trick so far."""
    return trick_winner([parse_cards(play) for play in plays], context(level, trump, **options))


# -- Rules.parse: every option, every value, presets, errors ---------------------------------------

DEFAULTS = {
    "decks": 2, "fixed_twos": False, "ace_two_wrap": False, "hollow_tractors": "all", "follow": "strict",
    "throw_compare": "largest_unit", "throw_penalty": "none", "bombs": "none", "kitty_multiplier": "doubling",
    "levels": "standard", "no_declaration": "first_kitty_card", "level_tractors": "chain",
    "forced_play": "lowest_of_highest_class",
}
"""The bold values of the rules.md §9 option table."""

VALUES = {
    "decks": [1, 2, 3, 4],
    "fixed_twos": [False, True],
    "ace_two_wrap": [False, True],
    "hollow_tractors": ["all", "side_only", "none"],
    "follow": ["strict", "protect_longer", "tractor_on_tractor_only", "protect_longer_tractor_on_tractor_only",
               "loose", "lenient"],
    "throw_compare": ["largest_unit", "all_units", "highest_card", "unit_length", "lexicographic"],
    "throw_penalty": ["none", "per_card_10", "per_extra_card_10", "per_returned_card_10", "per_beaten_card_10",
                      "flat_10", "flat_5"],
    "bombs": ["none", "allow", "allow_suit_following"],
    "kitty_multiplier": ["doubling", "power_cards", "times_cards", "linear", "linear_throw3", "cards_in_lead"],
    "levels": ["standard", "seed001"],
    "no_declaration": ["first_kitty_card", "first_kitty_card_skip_jokers", "most_common_kitty_suit", "no_trump"],
    "level_tractors": ["chain", "jokers_only"],
    "forced_play": ["lowest_of_highest_class", "single_card"],
}
"""Every value of the rules.md §9 option table."""

PRESET_DIFFERENCES = {
    "standard": {},
    "competition": {"throw_penalty": "per_card_10", "kitty_multiplier": "linear_throw3",
                    "no_declaration": "no_trump", "levels": "seed001"},
    "competition-draft": {"throw_penalty": "per_extra_card_10", "levels": "seed001"},
    "fixed-twos": {"fixed_twos": True},
    "botzone": {"follow": "lenient", "level_tractors": "jokers_only", "throw_penalty": "per_beaten_card_10",
                "forced_play": "single_card", "kitty_multiplier": "cards_in_lead"},
    "one-deck": {"decks": 1},
    "three-deck": {"decks": 3, "kitty_multiplier": "power_cards"},
    "four-deck": {"decks": 4},
}
"""The rules.md §9 preset table: decks and differences from standard."""


def test_standard_is_the_default() -> None:
    parsed = Rules.parse("standard")
    for option, value in DEFAULTS.items():
        assert getattr(parsed, option) == value, option
    assert Rules.parse({"preset": "standard"}) == parsed


@pytest.mark.parametrize("option,value", [(o, v) for o, vs in VALUES.items() for v in vs])
def test_every_value_of_every_option_parses(option: str, value: object) -> None:
    parsed = Rules.parse({"preset": "standard", option: value})
    assert getattr(parsed, option) == value
    others = {o: v for o, v in DEFAULTS.items() if o != option}
    assert {o: getattr(parsed, o) for o in others} == others


def test_no_declaration_is_a_named_value_only() -> None:
    for value in VALUES["no_declaration"]:
        assert Rules.parse({"no_declaration": value}).no_declaration == value
    with pytest.raises(JipaiError, match="no_declaration"):
        Rules.parse({"no_declaration": "first_card"})


@pytest.mark.parametrize("preset", list(PRESET_DIFFERENCES))
def test_preset_values(preset: str) -> None:
    expected = DEFAULTS | PRESET_DIFFERENCES[preset]
    for spec in (preset, {"preset": preset}):
        parsed = Rules.parse(spec)
        assert {o: getattr(parsed, o) for o in expected} == expected


@pytest.mark.parametrize("preset,kitty", [("standard", 8), ("one-deck", 6), ("three-deck", 6), ("four-deck", 8)])
def test_kitty_size_follows_decks(preset: str, kitty: int) -> None:
    assert Rules.parse(preset).kitty_size == kitty


def test_option_set_over_a_preset_keeps_the_rest_of_the_preset() -> None:
    parsed = Rules.parse({"preset": "botzone", "follow": "strict"})
    assert parsed.follow == "strict"
    assert parsed.level_tractors == "jokers_only"
    assert parsed.kitty_multiplier == "cards_in_lead"
    parsed = Rules.parse({"preset": "competition", "levels": "standard"})
    assert (parsed.levels, parsed.throw_penalty) == ("standard", "per_card_10")


@pytest.mark.parametrize("spec,named", [
    ("nope", "nope"),
    ({"preset": "tournament"}, "tournament"),
    ({"preset": "standard", "colour": "red"}, "colour"),
    ({"follow_rule": "strict"}, "follow_rule"),
    ({"follow": "sloppy"}, "follow"),
    ({"throw_compare": "biggest"}, "throw_compare"),
    ({"throw_penalty": "per_card_20"}, "throw_penalty"),
    ({"kitty_multiplier": "tripling"}, "kitty_multiplier"),
    ({"levels": "seed000"}, "levels"),
    ({"hollow_tractors": "trump_only"}, "hollow_tractors"),
    ({"level_tractors": "none"}, "level_tractors"),
    ({"forced_play": "highest"}, "forced_play"),
    ({"decks": 5}, "decks"),
    ({"decks": 0}, "decks"),
])
def test_parse_errors_name_the_bad_field(spec: object, named: str) -> None:
    with pytest.raises(JipaiError) as caught:
        Rules.parse(spec)  # type: ignore[arg-type]
    assert named in str(caught.value)


def test_parse_error_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        Rules.parse("nope")


# -- follow (rules.md §4 Following) -----------------------------------------------------------------

STRICT_LIKE = ["strict", "protect_longer", "tractor_on_tractor_only", "protect_longer_tractor_on_tractor_only"]
"""With two decks the protect_longer / tractor_on_tractor_only variants only differ for 3+ decks."""

# (case, lead, hand, play, legal under strict, loose, lenient); level 2, ♥ trump.
FOLLOW_CASES = [
    # A pair led: a follower holding a pair must give it (有对必须出对) unless loose.
    ("pair_held_kept_back", "9S 9S", "KS KS 4S 3S 5H", "KS 4S", False, True, False),
    ("pair_held_given", "9S 9S", "KS KS 4S 3S 5H", "KS KS", True, True, True),
    ("pair_from_inside_a_tractor", "9S 9S", "KS KS QS QS 3S", "KS QS", False, True, False),
    ("pair_from_inside_a_tractor_given", "9S 9S", "KS KS QS QS 3S", "QS QS", True, True, True),
    ("no_pair_any_two", "9S 9S", "KS 4S 3S 5H 5H", "KS 3S", True, True, True),
    # Rule 1 holds in every variant: the led suit first, all of it when short.
    ("suit_held_but_discarded", "9S 9S", "KS 4S 3S 5H 5H", "KS 5H", False, False, False),
    ("short_all_spades_then_free", "9S 9S", "4S 5H 5H", "4S 5H", True, True, True),
    # ...except that lenient lets a follower without a ♠ pair answer with a pair of any suit (Botzone judge).
    ("short_but_spade_kept", "9S 9S", "4S 5H 5H", "5H 5H", False, False, True),
    ("off_suit_pair_no_spade_pair", "9S 9S", "KS 4S 3S 5C 5C", "5C 5C", False, False, True),
    ("off_suit_pair_with_spade_pair", "9S 9S", "KS KS 3S 5C 5C", "5C 5C", False, False, False),
    ("off_suit_two_singles", "9S 9S", "KS 4S 5C 6C", "5C 6C", False, False, False),
    ("off_suit_tractor_no_spade_tractor", "3S 3S 4S 4S", "KS KS 9S 9S 6C 6C 7C 7C", "6C 6C 7C 7C",
     False, False, True),
    ("off_suit_two_pairs_on_a_tractor", "3S 3S 4S 4S", "KS KS 9S 9S 6C 6C 8C 8C", "6C 6C 8C 8C",
     False, False, False),
    ("off_suit_shape_on_a_throw", "AS AS KS", "QS 8S 7S 5C 5C 4C", "5C 5C 4C", False, False, False),
    ("void_ruff", "9S 9S", "5H 5H 3D", "5H 3D", True, True, True),
    # A 2-pair tractor led.
    ("tractor_held_given", "3S 3S 4S 4S", "KS KS QS QS 9S 8S 5H", "KS KS QS QS", True, True, True),
    ("tractor_held_kept_back", "3S 3S 4S 4S", "KS KS QS QS 9S 8S 5H", "KS KS 9S 8S", False, True, False),
    ("tractor_held_two_loose_pairs", "3S 3S 4S 4S", "KS KS QS QS 9S 9S 4S", "KS KS 9S 9S", False, True, False),
    # Without a tractor the pairs are still owed (lenient too: a play not of the lead's shape takes the ladder).
    ("two_pairs_no_tractor_given", "3S 3S 4S 4S", "KS KS 9S 9S 8S 7S", "KS KS 9S 9S", True, True, True),
    ("two_pairs_no_tractor_kept_back", "3S 3S 4S 4S", "KS KS 9S 9S 8S 7S", "KS KS 9S 8S", False, True, False),
    ("one_pair_no_tractor_kept_back", "3S 3S 4S 4S", "KS KS 9S 8S 7S", "KS 9S 8S 7S", False, True, False),
    # A 3-pair tractor led, follower holds AAKK and 9988 (two 2-pair tractors): P = 3, T = [2].
    ("tractor3_aakk_99", "3S 3S 4S 4S 5S 5S", "AS AS KS KS 9S 9S 8S 8S 7S 6C", "AS AS KS KS 9S 9S", True, True, True),
    ("tractor3_aa_9988", "3S 3S 4S 4S 5S 5S", "AS AS KS KS 9S 9S 8S 8S 7S 6C", "AS AS 9S 9S 8S 8S", True, True, True),
    ("tractor3_two_pairs", "3S 3S 4S 4S 5S 5S", "AS AS KS KS 9S 9S 8S 8S 7S 6C", "AS AS KS KS 9S 8S",
     False, True, False),
    # A 4-pair tractor led, follower holds AAKKQQ and 9988: [3] beats [2, 2].
    ("tractor4_three_run_wins", "3S 3S 4S 4S 5S 5S 6S 6S", "AS AS KS KS QS QS 9S 9S 8S 8S",
     "AS AS KS KS QS QS 9S 9S", True, True, True),
    ("tractor4_two_twos_lose", "3S 3S 4S 4S 5S 5S 6S 6S", "AS AS KS KS QS QS 9S 9S 8S 8S",
     "AS AS KS KS 9S 9S 8S 8S", False, True, False),
    # A throw of two 2-pair tractors, follower holds AAKKQQ and 10-10-9-9: [2, 2] beats [2].
    ("two_tractors_led_two_given", "3S 3S 4S 4S 7S 7S 8S 8S", "AS AS KS KS QS QS 10S 10S 9S 9S",
     "AS AS KS KS 10S 10S 9S 9S", True, True, True),
    ("two_tractors_led_one_given", "3S 3S 4S 4S 7S 7S 8S 8S", "AS AS KS KS QS QS 10S 10S 9S 9S",
     "AS AS KS KS QS QS 9S 9S", False, True, False),
    # A throw ♠A ♠KK: its pair must be answered by a pair.
    ("throw_pair_answered", "AS KS KS", "QS QS 8S 7S", "QS QS 8S", True, True, True),
    ("throw_pair_kept_back", "AS KS KS", "QS QS 8S 7S", "QS 8S 7S", False, True, False),
]


@pytest.mark.parametrize("follow", STRICT_LIKE + ["loose", "lenient"])
@pytest.mark.parametrize("case,lead,hand,play,strict,loose,lenient", FOLLOW_CASES, ids=[c[0] for c in FOLLOW_CASES])
def test_follow_variants(follow: str, case: str, lead: str, hand: str, play: str, strict: bool, loose: bool,
                         lenient: bool) -> None:
    expected = {"loose": loose, "lenient": lenient}.get(follow, strict)
    assert is_legal(lead, hand, play, follow=follow) is expected


@pytest.mark.parametrize("follow,expected", [("strict", False), ("loose", True), ("lenient", False)])
def test_follow_trump_pair_with_off_suit_level_cards(follow: str, expected: bool) -> None:
    # Level 5, ♥ trump: ♠5 ♠5 are trump (副级牌), a trump pair that must answer a trump pair.
    assert is_legal("9H 9H", "5S 5S 3H 4H 6C", "3H 4H", level="5", follow=follow) is expected
    assert is_legal("9H 9H", "5S 5S 3H 4H 6C", "5S 5S", level="5", follow=follow)


def test_follow_wrong_count_or_missing_cards_is_illegal() -> None:
    assert not is_legal("9S 9S", "KS KS 4S", "KS")
    assert not is_legal("9S 9S", "KS KS 4S", "AS AS")


# -- throw_compare (rules.md §5, §9) ---------------------------------------------------------------

COMPARE = ["largest_unit", "all_units", "highest_card", "unit_length", "lexicographic"]

# (case, plays, winner under largest_unit, all_units, highest_card, unit_length, lexicographic); level 5,
# ♥ trump, so the 副级 pairs 5♠5♠ and 5♣5♣ are equal (the only equal pairs two decks allow).
THROW_COMPARE_CASES = [
    # ♠KK ♠Q stood; two ruffs. ♥JJ ♥3 has the higher pair, ♥99 ♥A the higher single and card.
    ("higher_pair_lower_single", ["KS KS QS", "9H 9H AH", "JH JH 3H"], (2, 1, 1, 2, 2)),
    # Equal pairs (副级 5♠5♠ and 5♣5♣): ties fall through to the single only lexicographically, and the
    # highest card is the small joker.
    ("equal_pairs_single_differs", ["KS KS QS", "5S 5S 3H", "5C 5C SJ"], (1, 1, 2, 1, 2)),
    # Two pairs and a single led: highest pairs tie (副级), the second pair differs (77 > 66).
    ("second_pair_differs", ["KS KS 9S 9S 3S", "5S 5S 6H 6H 4H", "5C 5C 7H 7H 3H"], (1, 1, 1, 2, 2)),
    # Every unit of the second ruff higher: all variants agree.
    ("every_unit_higher", ["KS KS QS", "9H 9H 4H", "JH JH AH"], (2, 2, 2, 2, 2)),
    # Followed in suit: ♠AA beats ♠KK but ♠3 does not beat ♠Q.
    ("in_suit_higher_pair_low_single", ["KS KS QS", "AS AS 3S"], (1, 0, 1, 1, 1)),
]


@pytest.mark.parametrize("compare", COMPARE)
@pytest.mark.parametrize("case,plays,expected", THROW_COMPARE_CASES, ids=[c[0] for c in THROW_COMPARE_CASES])
def test_throw_compare_variants(compare: str, case: str, plays: list[str], expected: tuple[int, ...]) -> None:
    assert winner(plays, level="5", throw_compare=compare) == expected[COMPARE.index(compare)]


@pytest.mark.parametrize("plays,all_units,largest_unit", [
    # Level 2, ♣ trump, ♠KK ♠Q ♠J stood. 6♣6♣2♣2♣ grouped as the pair 6♣6♣ and the singles 2♣ 2♣ beats
    # 5♣5♣ 2♠ A♣ on every unit (66 > 55, 主级 2♣ > 副级 2♠, 2♣ > A♣); as 2♣2♣ + 6♣ 6♣ it would not.
    (["KS KS QS JS", "5C 5C 2S AC", "6C 6C 2C 2C"], 2, 2),
    # The winner keeps its own most favourable grouping: SJSJ BJ 7♣ beats 2♣2♣ + 6♣ 6♣ on every unit
    # but not 6♣6♣ + 2♣ 2♣ (7♣ < 2♣), so 6♣6♣2♣2♣ holds under all_units.
    (["KS KS QS JS", "6C 6C 2C 2C", "SJ SJ BJ 7C"], 1, 2),
])
def test_all_units_takes_the_most_favourable_grouping(plays: list[str], all_units: int, largest_unit: int) -> None:
    assert winner(plays, trump="C", throw_compare="all_units") == all_units
    assert winner(plays, trump="C", throw_compare="largest_unit") == largest_unit


@pytest.mark.parametrize("compare", COMPARE)
@pytest.mark.parametrize("lead,ruff,expected", [
    # seed 002, read at level J: 主牌277889可毙副牌4455KA，但不能毙副牌4455AA；主牌778899可毙4455AA.
    ("4D 4D 5D 5D KD AD", "2H 7H 7H 8H 8H 9H", 1),
    ("4D 4D 5D 5D AD AD", "2H 7H 7H 8H 8H 9H", 0),
    ("4D 4D 5D 5D AD AD", "7H 7H 8H 8H 9H 9H", 1),
])
def test_ruff_must_hold_the_lead_structure(compare: str, lead: str, ruff: str, expected: int) -> None:
    assert winner([lead, ruff], level="J", throw_compare=compare) == expected


@pytest.mark.parametrize("lead,expected", [
    # seed 002: over 544, 10-10-K is beaten by QQ2; over 543, 10-10-K is not beaten by QQ2.
    ("5D 4D 4D", (2)),
    ("5D 4D 3D", (1)),
])
def test_seed002_deciding_unit(lead: str, expected: int) -> None:
    assert winner([lead, "10H 10H KH", "QH QH 2H"], level="J") == expected


# -- throw check, forced_play and throw_penalty (rules.md §4, §9) ----------------------------------

THROW = "KC KC QC 9C 9C 3C"
"""A club throw: pairs KK and 99, singles Q and 3 (6 cards)."""


@pytest.mark.parametrize("case,attempt,others,standard,single_card", [
    # Seed 000: 黑桃99844 → first the pairs (44), then the singles (8).
    ("seed000_single_beaten", "9S 9S 8S 4S 4S", ["10S", "3D", "4D"], "8S", "8S"),
    ("seed000_pair_beaten", "9S 9S 8S 4S 4S", ["5S 5S", "3D", "4D"], "4S 4S", "4S"),
    # single_card (Botzone 2024 judge): of the beaten units the one whose highest card is lowest, whatever
    # its width, and only its lowest card.
    ("seed000_all_beaten", "9S 9S 8S 4S 4S", ["3D", "10S 10S", "4D"], "4S 4S", "4S"),
    ("a_low_pair_before_a_higher_single", "QC 5C 5C", ["KC", "6C 6C", "4D"], "5C 5C", "5C"),
    ("a_tractor_gives_its_lowest_card", "KC 4C 4C 3C 3C", ["5C 5C 6C 6C", "AC", "4D"], "3C 3C 4C 4C", "3C"),
    ("equal_level_cards_in_suit_order", "BJ 2C 2S", ["2H", "3D", "4D"], "2S", "2S"),
    # ♣JJ (any other seat) beats the 99 pair and the single 3, not KK or Q.
    ("pair_and_single_beaten", THROW, ["JC JC", "4D", "5D"], "9C 9C", "3C"),
    ("equal_queen_does_not_beat", THROW, ["4D", "QC 10C 10C", "5D"], "9C 9C", "3C"),
    ("only_a_pair_beaten", "KC KC QC 9C 9C", ["10C 10C", "4D", "5D"], "9C 9C", "9C"),
])
def test_forced_play(case: str, attempt: str, others: list[str], standard: str, single_card: str) -> None:
    hands = [face_counts(parse_cards(hand)) for hand in others]
    for style, forced in (("lowest_of_highest_class", standard), ("single_card", single_card)):
        result = check_throw(parse_cards(attempt), hands, context(forced_play=style))
        assert not result.ok
        assert sorted(map(str, result.forced)) == sorted(forced.split()), style


@pytest.mark.parametrize("attempt,level,others", [
    ("AC QC", "2", ["QC 4D", "5D", "6D"]),               # the other ♣Q only ties the thrown ♣Q
    ("BJ 5S 5S", "5", ["5C 5C", "SJ 5D", "AH 4D"]),      # 副级 pair 5♣5♣ ties 5♠5♠; SJ alone no pair
])
def test_throw_stands_when_only_equal_cards_are_out(attempt: str, level: str, others: list[str]) -> None:
    hands = [face_counts(parse_cards(hand)) for hand in others]
    result = check_throw(parse_cards(attempt), hands, context(level))
    assert result.ok
    assert sorted(map(str, result.forced)) == sorted(attempt.split())


# penalty for THROW against ♣JJ: 6 cards tried, 99 forced (4 returned), 99 and 3 beaten (3 cards).
PENALTIES = {"none": 0, "per_card_10": 60, "per_extra_card_10": 50, "per_returned_card_10": 40,
             "per_beaten_card_10": 30, "flat_10": 10, "flat_5": 5}


@pytest.mark.parametrize("style,amount", PENALTIES.items())
def test_throw_penalty_function(style: str, amount: int) -> None:
    rules = rules_with(throw_penalty=style)
    ctx = TrumpContext.parse("2", "H", rules)
    hands = [face_counts(parse_cards(hand)) for hand in ("JC JC", "4D", "5D")]
    result = check_throw(parse_cards(THROW), hands, ctx)
    assert throw_penalty(rules, parse_cards(THROW), result.forced, result.beaten) == amount


def _throwing_state(rules: Rules, thrower: int) -> RoundState:
    """Banker seat 0. Unless the banker throws, trick 1 (♠ singles) is won by `thrower` with ♠A; then
    `thrower` leads THROW while its partner holds ♣JJ (teammates count in the throw check)."""
    hands = [["4D", "6D"], ["7D", "8D"], ["JD", "QD"], ["KD", "AD"]]
    hands[thrower] += THROW.split()
    hands[(thrower + 2) % 4] += ["JC", "JC"]
    if thrower != 0:
        for seat, spade in zip(range(4), ("3S", "4S", "5S", "6S")):
            hands[seat].append(spade)
        hands[thrower][-1] = "AS"
    ctx = TrumpContext.parse("2", "H", rules)
    state = RoundState.start(rules, ctx, banker=0, hands=[parse_cards(h) for h in hands])
    if thrower != 0:
        state.lead(parse_cards("3S"))
        for seat in (1, 2, 3):
            state.follow(parse_cards("AS" if seat == thrower else ("4S", "5S", "6S")[seat - 1]))
        assert state.tricks[0].winner == thrower
    return state


@pytest.mark.parametrize("thrower,sign", [(0, 1), (1, -1), (2, 1), (3, -1)])
@pytest.mark.parametrize("style,amount", PENALTIES.items())
def test_throw_penalty_sign_by_side(style: str, amount: int, thrower: int, sign: int) -> None:
    state = _throwing_state(rules_with(throw_penalty=style), thrower)
    result = state.lead(parse_cards(THROW))
    assert not result.ok
    assert sorted(map(str, state.tricks[-1].plays[0])) == ["9C", "9C"]
    assert state.penalties == sign * amount


# -- kitty_multiplier (rules.md §6, §9) -----------------------------------------------------------

KITTY = ["doubling", "linear", "linear_throw3", "power_cards", "times_cards", "cards_in_lead"]

KITTY_CASES = [
    # (lead, doubling, linear, linear_throw3, power_cards, times_cards, cards_in_lead)
    ("AS", (2, 2, 2, 2, 2, 1)),
    ("AS AS", (4, 4, 4, 4, 4, 2)),
    ("KS KS AS AS", (8, 6, 6, 16, 8, 4)),
    ("QS QS KS KS AS AS", (16, 8, 8, 64, 12, 6)),
    ("JS JS QS QS KS KS AS AS", (32, 10, 10, 64, 16, 8)),
    ("SJ SJ BJ BJ", (8, 6, 6, 16, 8, 4)),
    # Throws: the largest unit counts; linear_throw3 gives a throw of singles ×3.
    ("AS KS", (2, 2, 3, 2, 2, 2)),
    # cards_in_lead (Botzone judge): a thrown last lead goes by its largest unit, 2 × its cards.
    ("AS AS KS", (4, 4, 4, 4, 4, 4)),
    ("QS QS KS KS 9S 9S AS", (8, 6, 6, 16, 8, 8)),
    # seed 004: AKQJ 10 9 8 77 → the pair.
    ("AS KS QS JS 10S 9S 8S 7S 7S", (4, 4, 4, 4, 4, 4)),
]


@pytest.mark.parametrize("style", KITTY + ["times_width"])
@pytest.mark.parametrize("lead,expected", KITTY_CASES, ids=[c[0] for c in KITTY_CASES])
def test_kitty_multiplier(style: str, lead: str, expected: tuple[int, ...]) -> None:
    rules = rules_with(kitty_multiplier=style)
    ctx = TrumpContext.parse("2", "H", rules)
    column = KITTY.index("times_cards" if style == "times_width" else style)
    assert kitty_multiplier(Lead.of(parse_cards(lead), ctx), rules) == expected[column]


@pytest.mark.parametrize("style,multiplier", [("doubling", 2), ("linear_throw3", 3), ("cards_in_lead", 2),
                                              ("power_cards", 2)])
def test_kitty_bonus_counts_the_lead_not_the_ruff(style: str, multiplier: int) -> None:
    # Last trick: the banker throws ♠A ♠K (it stands, nobody else has spades); seat 1 ruffs with the
    # pair ♥3 ♥3 — its extra structure does not count. Attackers: ♠K 10 in the trick, kitty 15.
    rules = rules_with(kitty_multiplier=style)
    hands = [parse_cards(h) for h in ("AS KS", "3H 3H", "4D 6D", "7C 8C")]
    state = RoundState.start(rules, TrumpContext.parse("2", "H", rules), banker=0, hands=hands,
                             buried=parse_cards("10D 5D 4C 4C 6C 6C 7D 7D"))
    assert state.lead(parse_cards("AS KS")).ok
    for play in ("3H 3H", "4D 6D", "7C 8C"):
        state.follow(parse_cards(play))
    result = state.result()
    assert (result.attackers_points, result.kitty_points, result.kitty_multiplier) == (10, 15, multiplier)
    assert result.attackers_score == 10 + 15 * multiplier


def test_no_kitty_bonus_when_the_banker_side_wins_the_last_trick() -> None:
    hands = [parse_cards(h) for h in ("AS", "3S", "KS", "4S")]
    state = RoundState.start(Rules(), TrumpContext.parse("2", "H"), banker=0, hands=hands,
                             buried=parse_cards("10D 10D KD KD 5D 5D 10C 10C"))
    state.lead(parse_cards("AS"))
    for play in ("3S", "KS", "4S"):
        state.follow(parse_cards(play))
    result = state.result()
    assert (result.kitty_multiplier, result.attackers_score, result.side, result.levels) == (0, 0, "banker", 3)
    assert result.next_banker == 2


# -- levels (rules.md §7) --------------------------------------------------------------------------

# (attackers' score, standard, seed001) as (side banker next, levels up).
LEVEL_CASES = [
    (0, ("banker", 3), ("banker", 3)),
    (5, ("banker", 2), ("banker", 2)),
    (35, ("banker", 2), ("banker", 2)),
    (40, ("banker", 1), ("banker", 1)),
    (75, ("banker", 1), ("banker", 1)),
    (80, ("attackers", 0), ("attackers", 0)),
    (115, ("attackers", 0), ("attackers", 0)),
    (120, ("attackers", 1), ("attackers", 1)),
    (155, ("attackers", 1), ("attackers", 1)),
    (160, ("attackers", 2), ("attackers", 2)),
    (195, ("attackers", 2), ("attackers", 2)),
    (200, ("attackers", 3), ("attackers", 3)),
    (235, ("attackers", 3), ("attackers", 3)),
    (240, ("attackers", 4), ("attackers", 4)),
    (-5, ("banker", 3), ("banker", 4)),
    (-35, ("banker", 3), ("banker", 4)),
    (-40, ("banker", 4), ("banker", 5)),
    (-75, ("banker", 4), ("banker", 5)),
    (-80, ("banker", 5), ("banker", 6)),
    (-115, ("banker", 5), ("banker", 6)),
    (-120, ("banker", 6), ("banker", 7)),
]


@pytest.mark.parametrize("score,standard,seed001", LEVEL_CASES)
def test_levels(score: int, standard: tuple[str, int], seed001: tuple[str, int]) -> None:
    assert level_result(score, rules_with(levels="standard")) == standard
    assert level_result(score, rules_with(levels="seed001")) == seed001


@pytest.mark.parametrize("preset", ["competition", "competition-draft"])
def test_competition_presets_use_seed001_levels(preset: str) -> None:
    assert level_result(-5, Rules.parse(preset)) == ("banker", 4)
    assert level_result(80, Rules.parse(preset)) == ("attackers", 0)


@pytest.mark.parametrize("preset,score,expected", [
    # one deck: step 20, 40 to take over.
    ("one-deck", 0, ("banker", 3)), ("one-deck", 15, ("banker", 2)), ("one-deck", 20, ("banker", 1)),
    ("one-deck", 35, ("banker", 1)), ("one-deck", 40, ("attackers", 0)), ("one-deck", 60, ("attackers", 1)),
    # three decks: step 60, 120 to take over.
    ("three-deck", 55, ("banker", 2)), ("three-deck", 60, ("banker", 1)), ("three-deck", 115, ("banker", 1)),
    ("three-deck", 120, ("attackers", 0)), ("three-deck", 180, ("attackers", 1)),
    # four decks: step 80, 160 to take over.
    ("four-deck", 155, ("banker", 1)), ("four-deck", 160, ("attackers", 0)), ("four-deck", 240, ("attackers", 1)),
])
def test_level_step_scales_with_decks(preset: str, score: int, expected: tuple[str, int]) -> None:
    assert level_result(score, Rules.parse(preset)) == expected


@pytest.mark.parametrize("banker", range(4))
def test_next_banker(banker: int) -> None:
    assert next_banker(banker, "banker") == (banker + 2) % 4
    assert next_banker(banker, "attackers") == (banker + 1) % 4


# -- fixed_twos (rules.md §2, §3) -----------------------------------------------------------------

@pytest.mark.parametrize("cards,fixed,plain", [
    # Level 5, ♥ trump. Positions: BJ; SJ; 5♥; 5♠5♣5♦; [2♥; 2♠2♣2♦]; A♥ K♥ …
    ("2H 2H 2S 2S", "tractor", "mixed"),      # 主2 + 副2
    ("5D 5D 2H 2H", "tractor", "throw"),      # 副级 + 主2 (plain: ♥2 is the lowest trump)
    ("2S 2S AH AH", "tractor", "mixed"),      # 副2 + 主A
    ("5S 5S AH AH", "throw", "tractor"),      # 副级 + 主A: the 2s now sit between them
    ("2S 2S 2C 2C", "throw", "mixed"),        # two 副2 pairs share one position
    ("3S 3S 4S 4S", "tractor", "tractor"),    # side suits: nothing below ♠3 any more
    ("2S", "single", "single"),
])
def test_fixed_twos_tractors(cards: str, fixed: str, plain: str) -> None:
    assert kind(cards, level="5", fixed_twos=True) == fixed
    assert kind(cards, level="5", fixed_twos=False) == plain


@pytest.mark.parametrize("plays,fixed,plain", [
    (["2S", "2H"], 1, 1),   # 主2 > 副2 (plain: ♥2 ruffs ♠2)
    (["2H", "2S"], 0, 0),   # 副2 < 主2 (plain: ♠2 is off-suit)
    (["2H", "AH"], 0, 1),   # 主2 above 主A (plain: ♥2 is the lowest trump)
    (["2S", "2C"], 0, 0),   # equal 副2: the first played wins (plain: ♣2 off-suit)
    (["AH", "2D"], 1, 0),   # any 2 above the rest of the trump suit
    (["2H", "5D"], 1, 1),   # 副级牌 above 主2
    (["3S", "2S"], 1, 0),   # ♠2 is trump: it ruffs ♠3 (plain: the lowest spade)
])
def test_fixed_twos_order(plays: list[str], fixed: int, plain: int) -> None:
    assert winner(plays, level="5", fixed_twos=True) == fixed
    assert winner(plays, level="5", fixed_twos=False) == plain


def test_fixed_twos_change_the_led_suit() -> None:
    # ♠3 led at level 5: with fixed twos ♠2 is trump, so a follower holding ♠4 must play it.
    assert not is_legal("3S", "2S 4S", "2S", level="5", fixed_twos=True)
    assert is_legal("3S", "2S 4S", "4S", level="5", fixed_twos=True)
    assert is_legal("3S", "2S 4S", "2S", level="5", fixed_twos=False)


@pytest.mark.parametrize("cards", ["2H 2H 2S 2S", "2S 2S AH AH", "2S 2S 2C 2C", "SJ SJ 2H 2H", "AH AH KH KH",
                                   "3S 3S 4S 4S", "2S AS"])
def test_fixed_twos_do_nothing_at_level_two(cards: str) -> None:
    ctx_fixed, ctx_plain = context("2", "H", fixed_twos=True), context("2", "H")
    assert describe(parse_cards(cards), ctx_fixed) == describe(parse_cards(cards), ctx_plain)


def test_fixed_twos_at_level_two_kinds() -> None:
    assert kind("2H 2H 2S 2S", fixed_twos=True) == "tractor"   # 主级 + 副级
    assert kind("2S 2S AH AH", fixed_twos=True) == "tractor"   # 副级 + 主A
    assert winner(["2S", "2H"], fixed_twos=True) == 1
    assert winner(["AH", "2C"], fixed_twos=True) == 1


def test_fixed_twos_no_trump() -> None:
    # Level 5, no trump: BJ; SJ; all 5s; all 2s.
    assert kind("5S 5S 2D 2D", level="5", trump="none", fixed_twos=True) == "tractor"
    assert kind("2D 2D 2H 2H", level="5", trump="none", fixed_twos=True) == "throw"
    assert winner(["2S", "2H"], level="5", trump="none", fixed_twos=True) == 0
    assert winner(["2S", "5D"], level="5", trump="none", fixed_twos=True) == 1
    assert describe(parse_cards("2S"), context("5", "none", fixed_twos=True))["suit"] == "trump"
    assert describe(parse_cards("2S"), context("5", "none"))["suit"] == "S"


# -- ace_two_wrap (rules.md §3) -------------------------------------------------------------------

@pytest.mark.parametrize("cards,level,trump,wrapped,plain", [
    ("AS AS 2S 2S", "5", "H", "tractor", "throw"),
    ("AH AH 2H 2H", "5", "H", "throw", "throw"),      # the trump suit: never
    ("AS AS 2S 2S", "5", "none", "tractor", "throw"),   # no trump: ♠ is a side suit
    ("AS AS 2S 2S", "2", "H", "mixed", "mixed"),       # level 2: ♠2 is trump
    ("AS AS 2S 2S", "A", "H", "mixed", "mixed"),       # level A: ♠A is trump
])
def test_ace_two_wrap(cards: str, level: str, trump: str, wrapped: str, plain: str) -> None:
    assert kind(cards, level=level, trump=trump, ace_two_wrap=True) == wrapped
    assert kind(cards, level=level, trump=trump, ace_two_wrap=False) == plain


def test_ace_two_wrap_kitty_multiplier() -> None:
    # AA22 led last: a 2-pair tractor (×8) with the option, a throw of two pairs (×4) without.
    for wrap, expected in ((True, 8), (False, 4)):
        rules = rules_with(ace_two_wrap=wrap)
        lead = Lead.of(parse_cards("AS AS 2S 2S"), TrumpContext.parse("5", "H", rules))
        assert kitty_multiplier(lead, rules) == expected


# Regression: at commit dcf063a/222544c a lead holding the AA22 tractor crashed trick_winner (AssertionError:
# tricks._candidates ignored the wrap, so play_profile of the lead itself was None).
@pytest.mark.parametrize("plays,expected", [
    (["AS AS 2S 2S"], 0),                           # the lead alone is winning so far
    (["AS AS 2S 2S", "6D 6D 7D 7D"], 0),            # an off-suit discard never wins
    (["AS AS 2S 2S", "3H 3H 4H 4H"], 1),            # a trump tractor ruffs a side tractor
    (["AS AS 2S 2S KS", "3H 3H 4H 4H 6H"], 1),      # a throw: tractor AA22 + ♠K, ruffed by tractor + single
])
def test_ace_two_wrap_lead_in_a_trick(plays: list[str], expected: int) -> None:
    assert winner(plays, level="5", ace_two_wrap=True) == expected


def test_ace_two_wrap_lead_in_a_round() -> None:
    rules = rules_with(ace_two_wrap=True)
    hands = [parse_cards(h) for h in ("AS AS 2S 2S", "3H 3H 4H 4H", "6D 6D 7D 7D", "8C 8C 9C 9C")]
    state = RoundState.start(rules, TrumpContext.parse("5", "H", rules), banker=0, hands=hands)
    assert state.lead(parse_cards("AS AS 2S 2S")).ok
    for play in ("3H 3H 4H 4H", "6D 6D 7D 7D", "8C 8C 9C 9C"):
        state.follow(parse_cards(play))
    assert state.tricks[0].winner == 1


def test_ace_two_wrap_in_following() -> None:
    # ♠3344 led at level 5; the follower's AA22 is a tractor only with the option.
    lead, hand = "3S 3S 4S 4S", "AS AS 2S 2S 9S 9S 7S"
    assert is_legal(lead, hand, "AS AS 9S 9S", level="5")
    assert not is_legal(lead, hand, "AS AS 9S 9S", level="5", ace_two_wrap=True)
    assert is_legal(lead, hand, "AS AS 2S 2S", level="5", ace_two_wrap=True)


# -- hollow_tractors (rules.md §3, §9) -------------------------------------------------------------

@pytest.mark.parametrize("cards,all_,side_only,none", [
    ("4S 4S 6S 6S", "tractor", "tractor", "throw"),   # side suit, skipping the level 5
    ("4H 4H 6H 6H", "tractor", "throw", "throw"),     # trump suit, skipping 主级牌 5♥
    ("6S 6S 7S 7S", "tractor", "tractor", "tractor"),
    ("6H 6H 7H 7H", "tractor", "tractor", "tractor"),
])
def test_hollow_tractors(cards: str, all_: str, side_only: str, none: str) -> None:
    for value, expected in (("all", all_), ("side_only", side_only), ("none", none)):
        assert kind(cards, level="5", hollow_tractors=value) == expected, value


# -- level_tractors (rules.md §3, §9) --------------------------------------------------------------

@pytest.mark.parametrize("cards,level,trump,chain,jokers_only", [
    ("SJ SJ BJ BJ", "5", "H", "tractor", "tractor"),
    ("5H 5H SJ SJ", "5", "H", "tractor", "throw"),    # 主级 pair + SJ pair
    ("5S 5S 5H 5H", "5", "H", "tractor", "throw"),    # 副级 + 主级
    ("AH AH 5S 5S", "5", "H", "tractor", "throw"),    # 主AA + 副级 pair
    ("KH KH AH AH", "5", "H", "tractor", "tractor"),  # plain trump-suit tractor
    ("KH KH AS AS", "A", "H", "tractor", "throw"),    # level A: 主KK + 副AA
    ("SJ SJ 5D 5D", "5", "none", "tractor", "throw"),  # no trump: SJ pair + any L pair
    ("5S 5S 5C 5C", "5", "H", "throw", "throw"),      # two 副级 pairs: one position
])
def test_level_tractors(cards: str, level: str, trump: str, chain: str, jokers_only: str) -> None:
    assert kind(cards, level=level, trump=trump, level_tractors="chain") == chain
    assert kind(cards, level=level, trump=trump, level_tractors="jokers_only") == jokers_only


def test_level_tractors_in_following() -> None:
    # Trump tractor 9H9H10H10H led at level 5: 主AA + 副55 is a tractor only under chain, so under
    # jokers_only any two trump pairs satisfy strict.
    lead, hand = "9H 9H 10H 10H", "AH AH 5S 5S 8H 8H 3H"
    assert not is_legal(lead, hand, "AH AH 8H 8H", level="5")
    assert is_legal(lead, hand, "AH AH 5S 5S", level="5")
    assert is_legal(lead, hand, "AH AH 8H 8H", level="5", level_tractors="jokers_only")
    assert is_legal(lead, hand, "AH AH 5S 5S", level="5", level_tractors="jokers_only")
