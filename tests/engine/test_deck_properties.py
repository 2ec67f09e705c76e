"""Property tests over random deals of one, three and four decks (hypothesis chooses the seeds).

Cards are conserved, every deck holds 100 points, every random or bot-played deal verifies, every
answer the engine proposes is legal, and the wide ladder's search finds the same best rank as a brute
force over every subset of the hand.
"""
from __future__ import annotations

import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from trainer.bots.generate import generate_records
from trainer.bots.random import random_record
from trainer.engine import Lead, Rules, TrumpContext, full_deck, parse_cards
from trainer.engine.follow import _multisets, _wide_best, _wide_caps, _wide_rank, follow_problem, random_follow
from trainer.records import parse_record, replay, verify_summary

RULE_SPECS = [
    "one-deck", "three-deck", "four-deck",
    {"preset": "three-deck", "follow": "protect_longer"},
    {"preset": "three-deck", "follow": "tractor_on_tractor_only", "kitty_multiplier": "doubling"},
    {"preset": "four-deck", "follow": "protect_longer_tractor_on_tractor_only", "bombs": "allow"},
    {"preset": "four-deck", "bombs": "allow_suit_following", "throw_compare": "all_units"},
    {"preset": "standard", "decks": 4, "follow": "loose"},
    {"preset": "one-deck", "throw_penalty": "per_card_10"},
]
RULES = [Rules.parse(spec) for spec in RULE_SPECS]
SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow])


@settings(max_examples=40, **SETTINGS)
@given(seed=st.integers(0, 2**32 - 1), rules=st.sampled_from(RULES), throw_rate=st.sampled_from([0.0, 0.2]))
def test_random_deals_verify_and_conserve_cards(seed: int, rules: Rules, throw_rate: float) -> None:
    data = random_record(random.Random(seed), rules=rules, throw_rate=throw_rate)
    record = parse_record(data)
    dealt = Counter(card for hand in record.hands for card in hand) + Counter(record.kitty)
    assert dealt == Counter(full_deck(rules.decks))
    assert all(len(hand) == rules.hand_size for hand in record.hands) and len(record.kitty) == rules.kitty_size
    played = Counter(card for trick in record.tricks for play in trick.plays for card in play)
    assert played + Counter(record.buried) == dealt
    assert sum(card.points for card in dealt.elements()) == 100 * rules.decks
    summary = verify_summary(replay(record))
    assert summary["complete"]
    assert sum(trick["points"] for trick in summary["tricks"]) + sum(c.points for c in record.buried) == (
        100 * rules.decks)


@settings(max_examples=6, **SETTINGS)
@given(seed=st.integers(0, 2**16), preset=st.sampled_from(["one-deck", "three-deck", "four-deck"]))
def test_bot_deals_verify(seed: int, preset: str) -> None:
    for data in generate_records(Rules.parse(preset), seed, 2):
        record = parse_record(data)
        assert verify_summary(replay(record))["complete"]


@st.composite
def wide_positions(draw: st.DrawFn) -> tuple[Rules, TrumpContext, Lead, dict[int, int]]:
    """A lead holding a triple or a quad in ♠ and a follower's ♠ cards (level 2, ♥ trump)."""
    rules = draw(st.sampled_from([Rules.parse("three-deck"), Rules.parse("four-deck"),
                                  Rules.parse({"preset": "three-deck", "follow": "protect_longer"}),
                                  Rules.parse({"preset": "four-deck", "follow": "tractor_on_tractor_only"})]))
    ctx = TrumpContext.parse("2", "H", rules)
    ranks = ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
    lead_counts = draw(st.dictionaries(st.sampled_from(ranks), st.integers(1, rules.decks), min_size=1, max_size=3))
    if max(lead_counts.values()) < 3:
        lead_counts[next(iter(lead_counts))] = 3
    hand_counts = draw(st.dictionaries(st.sampled_from(ranks), st.integers(1, rules.decks), min_size=1, max_size=6))
    lead = Lead.of(parse_cards([f"{r}S" for r, c in lead_counts.items() for _ in range(c)]), ctx)
    hand = {parse_cards([f"{r}S"])[0].index: c for r, c in hand_counts.items()}
    return rules, ctx, lead, hand


@settings(max_examples=150, **SETTINGS)
@given(position=wide_positions())
def test_wide_ladder_search_matches_brute_force(position) -> None:
    rules, ctx, lead, hand = position
    if sum(hand.values()) <= lead.size:
        return
    protect = rules.follow.startswith("protect_longer")
    caps = _wide_caps(lead, ctx)
    if protect:
        # protected: a face counts only whole, as the tuple of all its copies
        brute = max(_wide_rank({f: c for f, c in chosen.items() if c == hand[f]}, caps, ctx, exact=True)
                    for chosen in _multisets(hand, lead.size))
    else:
        brute = max(_wide_rank(chosen, caps, ctx) for chosen in _multisets(hand, lead.size))
    assert _wide_best(hand, lead, lead.size, protect, ctx) == brute


@settings(max_examples=150, **SETTINGS)
@given(position=wide_positions(), seed=st.integers(0, 2**16))
def test_proposed_follows_are_legal(position, seed: int) -> None:
    rules, ctx, lead, hand = position
    hand = {**hand, **{card.index: rules.decks for card in parse_cards("3D 4D 6D 7D")}}
    play = random_follow(lead, hand, ctx, random.Random(seed))
    assert follow_problem(lead, hand, play, ctx) is None
