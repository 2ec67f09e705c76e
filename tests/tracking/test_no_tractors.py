"""The no-tractor fact (docs/decisions.md): when following a tractor shows that the follower holds no tractor
of the suit, for two decks and for three and four, worked out from rules.md §4 by hand; the tracker's helper
and the recount's own reading must both give it."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from trainer.engine.cards import Card, parse_cards
from trainer.engine.combos import face_counts, pair_structure
from trainer.engine.follow import Lead, follow_verdict, legal_follows
from trainer.engine.rules import Rules
from trainer.engine.trump import TrumpContext
from trainer.tracking.recount import _shown_tractorless
from trainer.tracking.tracker import shows_no_pair, shows_no_tractor


def context(**options) -> TrumpContext:
    return TrumpContext.parse("2", "H", Rules.parse({"preset": "standard", **options}))


CASES = [
    # (options, lead, play, shown): level 2, ♥ trump
    # two pairs that are not adjacent on a 2-pair tractor: a held tractor gives T = [2] over [] (same P)
    ({}, "AS AS KS KS", "QS QS 9S 9S", True),
    # 3 and 4 are adjacent: the play is itself a tractor, nothing is shown
    ({}, "AS AS KS KS", "4S 4S 3S 3S", False),
    # ♠QQ JJ is itself a tractor
    ({}, "AS AS KS KS", "QS QS JS JS", False),
    # with ♠2 the level card (trump), ♠3 and ♠4 remain adjacent, ♠4 and ♠6 are not
    ({}, "AS AS KS KS", "6S 6S 4S 4S", True),
    # fewer pairs than led: no pair is left (no_pairs), so no tractor either
    ({}, "AS AS KS KS", "QS QS 9S 8S", True),
    # a 3-pair tractor answered with a 2-pair tractor and a pair: another tractor could not add to T
    ({}, "AS AS KS KS QS QS", "JS JS 10S 10S 8S 8S", False),
    # a throw holding a tractor (a stood throw; its tractor unit asks for a tractor) answered with pairs
    ({}, "AS AS KS KS QS", "JS JS 9S 9S 7S", True),
    # trumps: the off-suit level pairs share a position, so ♠2♠2 ♣2♣2 is no tractor, and BJ BJ SJ SJ led
    ({}, "BJ BJ SJ SJ", "2S 2S 2C 2C", True),
    # lenient and tractor_on_tractor_only judge a play all of the led suit by the same ladder
    ({"follow": "lenient"}, "AS AS KS KS", "QS QS 9S 9S", True),
    ({"follow": "tractor_on_tractor_only"}, "AS AS KS KS", "QS QS 9S 9S", True),
    # loose owes no structure: any play is legal from any hand
    ({"follow": "loose"}, "AS AS KS KS", "QS QS 9S 9S", False),
    # three and four decks, pairs and pair tractors led, strict: more cards never excuse a play, and any
    # two adjacent positions with two copies each would give T = [2]
    ({"decks": 3}, "AS AS KS KS", "QS QS 9S 9S", True),
    ({"decks": 4}, "AS AS KS KS", "QS QS 9S 9S", True),
    # a quad counts as two pairs but is one position: P = 2, T = [] — a held tractor would outrank it
    ({"decks": 4}, "AS AS KS KS", "QS QS QS QS", True),
    # protect_longer: triples kept whole excuse the pairs (see the test below): nothing is inferred
    ({"decks": 3, "follow": "protect_longer"}, "AS AS KS KS", "QS QS 9S 9S", False),
    # a wide lead (泰坦尼克) follows seed 004's ladder: not inferred (decisions.md)
    ({"decks": 3}, "AS AS AS KS KS KS", "QS QS 9S 9S 7S 5S", False),
]


@pytest.mark.parametrize("options, lead, play, shown", CASES)
def test_a_tractor_lead_shows_no_tractor_exactly_when_the_rules_would_have_forced_one(options, lead, play, shown):
    ctx = context(**options)
    led = Lead.of(parse_cards(lead), ctx)
    assert led.tractors
    cards = parse_cards(play)
    assert shows_no_tractor(led, cards, ctx) is shown
    assert _shown_tractorless(led, cards, ctx) is shown


def test_protect_longer_lets_a_holder_of_adjacent_triples_play_pairs_that_are_not_adjacent():
    # rules.md §4 protect_longer: a follower is never required to take a slot's cards out of a wider tuple;
    # ♠777 666 is a tractor of triples, kept whole, so ♠QQ 99 is legal and shows nothing
    ctx = context(decks=3, follow="protect_longer")
    lead, play = Lead.of(parse_cards("AS AS KS KS"), ctx), parse_cards("QS QS 9S 9S")
    assert follow_verdict(lead, face_counts(parse_cards("QS QS 9S 9S 7S 7S 7S 6S 6S 6S")), play, ctx) is None
    # without protect_longer the same hand owes the pairs 77 66 as a tractor
    strict = context(decks=3)
    assert follow_verdict(lead, face_counts(parse_cards("QS QS 9S 9S 7S 7S 7S 6S 6S 6S")), play, strict) is not None


PROPERTY_RULES = [{}, {"follow": "lenient"}, {"follow": "tractor_on_tractor_only"}, {"hollow_tractors": "none"},
                  {"ace_two_wrap": True}, {"decks": 3}, {"decks": 4}, {"decks": 3, "follow": "protect_longer"},
                  {"decks": 4, "follow": "protect_longer_tractor_on_tractor_only"}]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(PROPERTY_RULES), st.sampled_from("23456789TJQKA"), st.randoms(use_true_random=False))
def test_what_a_follow_shows_is_true_of_the_hand_it_came_from(options, level, rng):
    """Random ♠ hands answering a random ♠ tractor lead with every legal play all of ♠: whenever the play
    is said to show no tractor (no pair), the hand left holds none; the tracker and the recount agree."""
    rules = Rules.parse({"preset": "standard", **options})
    ctx = TrumpContext.parse("10" if level == "T" else level, "H", rules)
    spades = ctx.faces_by_suit[0]
    top = rng.randrange(len(spades) - 1)
    high, low = spades[top], spades[top + 1]
    lead_cards = [Card.from_index(high)] * 2 + [Card.from_index(low)] * 2
    lead = Lead.of(lead_cards, ctx)
    if not lead.tractors:  # the two faces are not adjacent here (a hollow level rank, …)
        return
    copies = {face: rules.decks - (2 if face in (high, low) else 0) for face in spades}
    pool = [face for face, count in copies.items() for _ in range(count)]
    hand = face_counts(Card.from_index(face) for face in rng.sample(pool, rng.randrange(4, 11)))
    for play in legal_follows(lead, hand, ctx):
        if any(ctx.suit_of[card.index] != 0 for card in play):
            continue
        left = dict(hand)
        for card in play:
            left[card.index] -= 1
        pairs, runs = pair_structure(left, ctx)
        tractorless = shows_no_tractor(lead, play, ctx)
        assert tractorless is _shown_tractorless(lead, play, ctx)
        if tractorless:
            assert not runs, ([str(c) for c in play], hand)
        if shows_no_pair(lead, play, ctx):
            assert pairs == 0, ([str(c) for c in play], hand)
