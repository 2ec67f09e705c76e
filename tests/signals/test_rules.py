"""The pure rules module: reasons in both languages for every rule id, and properties over random hands."""
from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from trainer.engine.cards import Card, full_deck
from trainer.engine.trump import TRUMP, TrumpContext
from trainer.signals.conventions import DISCARDS, RANK_SETS, Convention
from trainer.signals.reasons import REASONS
from trainer.signals.rules import discard_order, discard_play, in_suit, interpret, respond

ENUMS = {
    "respond": "void no_convention not_an_ask answer_A skip_signal_10 has_A_no_signal_card no_A only_signal_cards "
               "nt_opponent_A ask_K ask_K_promote_Q has_K_no_signal_card no_K five_lead_K five_lead_no_K",
    "interpret": "no_convention not_an_ask void played_asked_card answer_A skip_signal_10 no_A nt_opponent_A ask_K "
                 "ask_K_points no_K five_lead_K five_lead_no_K",
    "discard_order": "order_two order_three_plus sum_all sum_others_only pair_in_play void_before not_side_suit "
                     "not_partner_lead",
    "discard_play": "order_two order_three_plus sum_all sum_others_only void_before not_side_suit must_follow_pair",
    "pass": "pass exception no_signal_last_card no_signal_K_discarded no_signal",
    "opening_request": "opening_JQA opening_level midhand_level none",
}


def test_every_rule_id_has_a_reason_in_english_and_chinese():
    expected = {(op, rule) for op, rules in ENUMS.items() for rule in rules.split()}
    assert set(REASONS) == expected
    for english, chinese in REASONS.values():
        assert english[0].isupper() and english.endswith(".")
        assert any("\u4e00" <= ch <= "\u9fff" for ch in chinese)


conventions = st.builds(lambda ranks, discard: Convention.parse({"signal_ranks": ranks, "discard": discard}),
                        st.sampled_from(sorted(RANK_SETS)), st.sampled_from(DISCARDS))


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32), conventions, st.sampled_from(["2", "7", "9", "A"]), st.sampled_from(["S", "H", "none"]))
def test_respond_allows_only_cards_of_the_suit_and_the_partner_reads_them_right(seed, convention, level, trump):
    rng = random.Random(seed)
    ctx = TrumpContext.parse(level, trump)
    deck = full_deck()
    rng.shuffle(deck)
    lead, hand = deck[0], deck[1:14]
    verdict = respond(lead, "partner", rng.choice(["helper", "attacker", "banker"]), hand, (), None, ctx, convention)
    held = in_suit(hand, ctx.suit_of[lead.index], ctx)
    assert set(verdict.allowed) <= set(held) and (verdict.allowed or not held)
    assert verdict.reason("zh") and verdict.reason("en")
    if verdict.rule == "answer_A":  # the leader reads every allowed card as "has the other A"
        leader_hand = deck[14:27]  # both As of the suit are the lead and mine, so none is here
        for card in verdict.allowed:
            assert interpret(lead, "me", "attacker", card, leader_hand, (), ctx, convention).value == "has_other_A"
    if verdict.rule == "no_A":
        assert not any(convention.is_signal(card, ctx) for card in verdict.allowed)


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32), conventions, st.integers(2, 4))
def test_every_listed_discard_order_says_the_message(seed, convention, size):
    rng = random.Random(seed)
    ctx = TrumpContext.parse("2", "D")
    suit = rng.choice([0, 1, 2])
    faces = [card for card in full_deck() if ctx.suit_of[card.index] == suit]
    rng.shuffle(faces)
    lead = faces[:size]
    others = [card for card in full_deck() if ctx.suit_of[card.index] != suit]
    hand = faces[size:size + rng.randint(1, 5)] + rng.sample(others, 3)
    result = discard_play(lead, hand, ctx, convention)
    for order in result.orders:
        assert len(order) == size and discard_order(lead, order, "partner", ctx, convention).value == result.message
        assert discard_order(lead, order, "partner", ctx, convention).rule == result.rule
    assert len(set(result.orders)) == len(result.orders)
    if result.message in ("yes", "holds_A", "void") and len(in_suit(hand, suit, ctx)) > size:
        assert any(card.rank == 14 for card in in_suit(hand, suit, ctx))


def test_a_trump_lead_has_no_discard_signal():
    ctx = TrumpContext.parse("2", "S")
    lead = [Card.parse("KS"), Card.parse("KS")]
    assert discard_play(lead, [Card.parse("8S"), Card.parse("7S")], ctx, Convention()).rule == "not_side_suit"
    assert ctx.suit_of[lead[0].index] == TRUMP
