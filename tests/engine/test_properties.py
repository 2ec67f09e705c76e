"""Property tests of the engine over random-legal deals (hypothesis chooses the seeds).

The checks do not trust the engine to grade itself where rules.md gives a simple answer: card
strength, effective suits, tractor adjacency, points, the level table and the simple kitty
multipliers are recomputed here from the text of rules.md by a small independent oracle that reads
the record's card strings.
"""
from __future__ import annotations

import copy
import hashlib
import json
import os
import random
from collections import Counter
from itertools import islice

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from trainer.bots.random import random_record
from trainer.engine import Card, Combination, IllegalPlayError, JipaiError, Lead, RoundState, Rules, TrumpContext
from trainer.engine.follow import follow_problem, legal_follows, legal_leads, random_follow
from trainer.engine.tricks import trick_winner
from trainer.records import DealRecord, Position, parse_record, record_id, replay, state_at, verify_summary

# -- rules under test ------------------------------------------------------------------------------

RULE_SPECS = [
    "standard",
    {"follow": "loose"},
    {"fixed_twos": True},
    "competition",
    "botzone",
    {"hollow_tractors": "none"},
    {"hollow_tractors": "side_only"},
    {"ace_two_wrap": True},
    {"follow": "tractor_on_tractor_only", "fixed_twos": True},
    {"preset": "competition-draft", "throw_penalty": "per_returned_card_10", "kitty_multiplier": "times_cards"},
    {"throw_penalty": "flat_5", "kitty_multiplier": "power_cards"},
    {"follow": "lenient"},
    {"follow": "protect_longer_tractor_on_tractor_only", "throw_compare": "unit_length"},
    {"throw_compare": "lexicographic", "ace_two_wrap": True, "hollow_tractors": "side_only"},
    {"throw_compare": "all_units", "forced_play": "single_card"},
    {"throw_compare": "highest_card", "level_tractors": "jokers_only"},
]
RULES = [Rules.parse(spec) for spec in RULE_SPECS]
STRICT_FAMILY = ("strict", "protect_longer", "tractor_on_tractor_only", "protect_longer_tractor_on_tractor_only")

seeds = st.integers(min_value=0, max_value=2**32 - 1)
rule_sets = st.sampled_from(RULES)
throw_rates = st.sampled_from([0.0, 0.1, 0.4])

SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow])
SCALE = float(os.environ.get("JIPAI_PROPERTY_SCALE", "1"))
"""Multiplies every test's example count: `JIPAI_PROPERTY_SCALE=20` for a long bug hunt."""


def examples(count: int) -> int:
    return max(1, round(count * SCALE))


FOLLOW_CAP = 200


def make(seed: int, rules: Rules, throw_rate: float = 0.1, stop_after: int | None = None) -> dict:
    return random_record(random.Random(seed), rules=rules, throw_rate=throw_rate, stop_after=stop_after)


# -- an independent oracle of rules.md §1–§3, on card strings ------------------------------------

RANK_OF = {"2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "10": 10,
           "J": 11, "Q": 12, "K": 13, "A": 14}
SUITS = "SHCD"
FULL_DECK = Counter({**{rank + suit: 2 for rank in RANK_OF for suit in SUITS}, "SJ": 2, "BJ": 2})
assert sum(FULL_DECK.values()) == 108


def split(card: str) -> tuple[int, str | None]:
    if card == "BJ":
        return 16, None
    if card == "SJ":
        return 15, None
    return RANK_OF[card[:-1]], card[-1]


def card_points(card: str) -> int:
    rank, _ = split(card)
    return {5: 5, 10: 10, 13: 10}.get(rank, 0)


def points_of(cards) -> int:
    return sum(card_points(str(c)) for c in cards)


class Oracle:
    """Effective suit, strength and tractor adjacency straight from rules.md §2–§3."""

    def __init__(self, level: str, trump: str, rules: Rules) -> None:
        self.level = RANK_OF[level]
        self.trump = None if trump == "none" else trump
        self.rules = rules
        self.fixed2 = rules.fixed_twos and self.level != 2
        self.positions: dict[str, tuple[str, int]] = {}
        self._build_positions()

    def suit(self, card: str) -> str:
        """'T' for trump, else the printed suit letter."""
        return "T" if self.strength(card)[0] else split(card)[1]

    def strength(self, card: str) -> tuple[int, int]:
        """(is trump, value): higher beats; equal values are equal cards."""
        rank, suit = split(card)
        if rank == 16:
            return 1, 100
        if rank == 15:
            return 1, 99
        if rank == self.level:
            return 1, 98 if suit == self.trump else 97
        if self.fixed2 and rank == 2:
            return 1, 96 if suit == self.trump else 95
        if suit == self.trump:
            return 1, rank
        return 0, rank

    def _build_positions(self) -> None:
        rules, level, trump = self.rules, self.level, self.trump
        side_hollow = rules.hollow_tractors in ("all", "side_only")
        trump_hollow = rules.hollow_tractors == "all"
        chain = rules.level_tractors == "chain"
        # side suits: A..2 without L (and fixed 2s); a skipped rank leaves a hole unless hollow
        for suit in SUITS:
            if suit == trump:
                continue
            pos = 0
            for rank in range(14, 1, -1):
                if rank == level or (self.fixed2 and rank == 2):
                    pos += 0 if side_hollow else 1
                    continue
                self.positions[_name(rank, suit)] = (suit, pos)
                pos += 1
        # trump: BJ; SJ; L of T; other Ls (shared); [2 of T; other 2s (shared)]; the rest of T
        groups: list[list[str]] = [["BJ"], ["SJ"]]
        if trump is not None:
            groups.append([_name(level, trump)])
            groups.append([_name(level, s) for s in SUITS if s != trump])
        else:
            groups.append([_name(level, s) for s in SUITS])
        if self.fixed2:
            if trump is not None:
                groups.append([_name(2, trump)])
                groups.append([_name(2, s) for s in SUITS if s != trump])
            else:
                groups.append([_name(2, s) for s in SUITS])
        pos = 0
        for index, group in enumerate(groups):
            if index >= 2 and not chain:
                pos += 1  # jokers_only: no tractor through level cards (or fixed 2s)
            for card in group:
                self.positions[card] = ("T", pos)
            pos += 1
        if trump is not None:
            if not chain:
                pos += 1
            for rank in range(14, 1, -1):
                if rank == level or (self.fixed2 and rank == 2):
                    pos += 0 if trump_hollow else 1
                    continue
                self.positions[_name(rank, trump)] = ("T", pos)
                pos += 1
        # rules.md is silent on whether 副级牌 + the top of T (K when L is A) stay a tractor when
        # hollow tractors are off in trump: the oracle has no opinion there
        self.undecided_top = level == 14 and trump is not None and not trump_hollow and chain

    def adjacent(self, a: str, b: str) -> bool | None:
        """True when pairs of faces a and b sit at consecutive positions (a 2-pair tractor);
        None when rules.md leaves it open."""
        (sa, pa), (sb, pb) = self.positions[a], self.positions[b]
        if sa != sb:
            return False
        if self.undecided_top and sa == "T" and {pa, pb} == {self._other_levels_position(),
                                                             self._top_rest_position()}:
            return None
        if abs(pa - pb) == 1:
            return True
        if self.rules.ace_two_wrap and sa != "T" and {split(a)[0], split(b)[0]} == {14, 2}:
            return True
        return False

    def _other_levels_position(self) -> int:
        others = [s for s in SUITS if s != self.trump]
        return self.positions[_name(self.level, others[0])][1]

    def _top_rest_position(self) -> int:
        return self.positions[_name(13, self.trump)][1]


def _name(rank: int, suit: str) -> str:
    return {11: "J", 12: "Q", 13: "K", 14: "A"}.get(rank, str(rank)) + suit


def oracle_of(record: dict) -> Oracle:
    return Oracle(record["level"], record["trump"], Rules.parse(record["rules"]))


def pairs_in(cards) -> int:
    return sum(copies // 2 for copies in Counter(map(str, cards)).values())


def submultisets(counts: Counter, size: int) -> int:
    """Distinct sub-multisets of `counts` with `size` cards."""
    ways = [1] + [0] * size
    for copies in counts.values():
        new = [0] * (size + 1)
        for total in range(size + 1):
            if ways[total]:
                for take in range(min(copies, size - total) + 1):
                    new[total + take] += ways[total]
        ways = new
    return ways[size]


def is_single_combination(cards: list[str], oracle: Oracle) -> bool | None:
    """A tuple, or pairs at consecutive positions (rules.md §3); None when the oracle has no opinion."""
    counts = Counter(cards)
    if len(counts) == 1:
        return True
    if any(copies != 2 for copies in counts.values()):
        return False
    faces = list(counts)
    if len({oracle.suit(face) for face in faces}) != 1:
        return False
    # the faces must form a chain of adjacent positions (with ace_two_wrap, a side A may sit below the 2)
    ordered = sorted(faces, key=lambda face: oracle.positions[face][1])
    orders = [ordered]
    if oracle.rules.ace_two_wrap and split(ordered[0])[0] == 14:
        orders.append(ordered[1:] + ordered[:1])
    verdicts = []
    for order in orders:
        links = [oracle.adjacent(x, y) for x, y in zip(order, order[1:])]
        verdicts.append(False if False in links else None if None in links else True)
    return True if True in verdicts else None if None in verdicts else False


# -- helpers over states ---------------------------------------------------------------------------

def start_state(record: DealRecord) -> RoundState:
    return RoundState.start(record.rules, record.ctx, record.banker, record.playing_hands(), record.buried)


def apply(state: RoundState, record: DealRecord, trick_index: int, play_index: int) -> None:
    trick = record.tricks[trick_index]
    play = trick.plays[play_index]
    if play_index == 0:
        state.lead(list(trick.attempt if trick.attempt is not None else play))
    else:
        state.follow(list(play))


def all_moves(record: DealRecord) -> list[tuple[int, int]]:
    return [(t, i) for t, trick in enumerate(record.tricks) for i in range(len(trick.plays))]


def state_after(record: DealRecord, count: int) -> RoundState:
    state = start_state(record)
    for t, i in all_moves(record)[:count]:
        apply(state, record, t, i)
    return state


def hand_strings(hand: Counter) -> Counter:
    assert all(copies >= 0 for copies in hand.values()), f"negative copies in a hand: {hand}"
    return Counter({str(Card.from_index(face)): copies for face, copies in hand.items() if copies})


def snapshot(state: RoundState):
    return ([hand_strings(hand) for hand in state.hands], list(state.points_won), state.penalties,
            len(state.tricks),
            [(t.leader, [[str(c) for c in play] for play in t.plays],
              None if t.attempt is None else [str(c) for c in t.attempt], t.penalty, t.winning)
             for t in state.tricks])


def multiset(cards) -> Counter:
    return Counter(str(c) for c in cards)


def cards_of(strings) -> list[Card]:
    return [Card.parse(s) for s in strings]


# == 1. every generated record is valid and complete ===============================================

@settings(max_examples=examples(150), **SETTINGS)
@given(seed=seeds, rules=rule_sets, throw_rate=throw_rates)
def test_generated_records_replay_and_are_complete(seed, rules, throw_rate):
    data = make(seed, rules, throw_rate)
    record = parse_record(data)
    rep = replay(record)
    assert rep.complete and rep.result is not None
    assert rep.state.is_over
    # independent: each seat plays exactly its 25 playing cards; every trick has four plays of one size
    played = [Counter() for _ in range(4)]
    for trick in data["tricks"]:
        assert len(trick["plays"]) == 4
        assert len({len(play) for play in trick["plays"]}) == 1
        for index, play in enumerate(trick["plays"]):
            played[(trick["leader"] + index) % 4].update(play)
    dealt = [Counter(hand) for hand in data["hands"]]
    dealt[data["banker"]] += Counter(data["kitty"])
    dealt[data["banker"]] -= Counter(data["buried"])
    assert played == dealt
    assert all(sum(hand.values()) == 25 for hand in played)


@settings(max_examples=examples(80), **SETTINGS)
@given(seed=seeds, rules=rule_sets, where=st.floats(min_value=0, max_value=1))
def test_cut_records_replay_as_unfinished(seed, rules, where):
    full = make(seed, rules, 0.2)
    total = sum(len(t["plays"]) for t in full["tricks"])
    cut = min(int(where * total), total - 1)
    data = make(seed, rules, 0.2, stop_after=cut)
    rep = replay(parse_record(data))
    assert not rep.complete and rep.result is None
    summary = verify_summary(rep)
    assert summary["complete"] is False
    assert summary["kitty_multiplier"] is None and summary["attackers_score"] is None
    assert summary["result"] is None
    assert sum(len(t["plays"]) for t in data["tricks"]) == cut
    for number, trick in enumerate(summary["tricks"], start=1):
        assert trick["partial"] == (len(data["tricks"][number - 1]["plays"]) < 4)
    # the same seed makes the same deal: the cut record is a prefix of the whole one
    assert data["hands"] == full["hands"] and data["buried"] == full["buried"]
    for short, whole in zip(data["tricks"], full["tricks"]):
        assert short["plays"] == whole["plays"][:len(short["plays"])]


# == 2. cards are conserved ========================================================================

@settings(max_examples=examples(80), **SETTINGS)
@given(seed=seeds, rules=rule_sets, throw_rate=throw_rates)
def test_cards_are_conserved_at_every_play(seed, rules, throw_rate):
    data = make(seed, rules, throw_rate)
    assert sum((Counter(h) for h in data["hands"]), Counter(data["kitty"])) == FULL_DECK
    record = parse_record(data)
    state = start_state(record)
    buried = Counter(data["buried"])
    expected_hands = [Counter(hand) for hand in data["hands"]]
    expected_hands[data["banker"]] += Counter(data["kitty"])
    expected_hands[data["banker"]] -= buried

    def check() -> None:
        hands = [hand_strings(hand) for hand in state.hands]
        assert hands == expected_hands
        on_table = Counter()
        for trick in state.tricks:
            for play in trick.plays:
                on_table.update(multiset(play))
        total = sum(hands, Counter()) + on_table + Counter(map(str, state.buried))
        assert total == FULL_DECK

    check()
    for number, trick in enumerate(data["tricks"]):
        for index, play in enumerate(trick["plays"]):
            apply(state, record, number, index)
            expected_hands[(trick["leader"] + index) % 4] -= Counter(play)
            # the engine records exactly the recorded play (a failed throw's forced part only)
            assert multiset(state.tricks[-1].plays[-1]) == Counter(play)
            check()
    assert not any(expected_hands)


@settings(max_examples=examples(60), **SETTINGS)
@given(seed=seeds, rules=rule_sets, where=st.floats(min_value=0, max_value=1), data=st.data())
def test_positions_name_the_right_moment(seed, rules, where, data):
    record = parse_record(make(seed, rules, 0.3))
    number = min(int(where * len(record.tricks)), len(record.tricks) - 1) + 1
    plays = data.draw(st.integers(min_value=0, max_value=len(record.tricks[number - 1].plays)))
    position = Position.parse(f"{number}.{plays}", record)
    before = sum(len(t.plays) for t in record.tricks[:number - 1]) + plays
    assert snapshot(state_at(record, position)) == snapshot(state_after(record, before))
    if plays == 4 and number < len(record.tricks):
        assert snapshot(state_at(record, Position.parse(f"{number + 1}.0", record))) == snapshot(
            state_at(record, position))
    assert snapshot(state_at(record, Position.parse("0.0", record))) == snapshot(start_state(record))
    assert snapshot(state_at(record, Position.parse("end", record))) == snapshot(
        state_after(record, len(all_moves(record))))


# == 3. points add up, the summary is consistent ===================================================

def expected_levels(score: int, rules: Rules) -> tuple[str, int]:
    """rules.md §7 for two decks (step 40), read off the table."""
    if score >= 80:
        return "attackers", (score - 80) // 40
    if score >= 40:
        return "banker", 1
    if score >= 5:
        return "banker", 2
    if score >= 0:
        return "banker", 3
    extra = 1 if rules.levels == "seed001" else 0
    return "banker", 3 + extra + (-score) // 40


def expected_penalty(rules: Rules, attempt: list[str], forced: list[str]) -> int | None:
    return {"none": 0, "per_card_10": 10 * len(attempt), "per_extra_card_10": 10 * (len(attempt) - 1),
            "per_returned_card_10": 10 * (len(attempt) - len(forced)), "flat_10": 10, "flat_5": 5,
            }.get(rules.throw_penalty)


def expected_multiplier(lead: list[str], rules: Rules, oracle: Oracle) -> int | None:
    """rules.md §6/§9 for a last lead of singles, of pairs and singles without a tractor, or one
    pair tractor; None for shapes the oracle does not grade."""
    counts = Counter(lead)
    pairs = [card for card, copies in counts.items() if copies == 2]
    links = [oracle.adjacent(a, b) for a in pairs for b in pairs if a < b]
    if None in links:
        return None
    if not pairs:
        width, length = 1, 1
    elif not any(links):
        width, length = 2, 1
    elif len(counts) == len(pairs) and is_single_combination(lead, oracle) is True:
        width, length = 2, len(pairs)
    else:
        return None
    cards = width * length
    style = rules.kitty_multiplier
    if style == "doubling":
        return 2 if width == 1 else 2 ** (length + 1)
    if style in ("linear", "linear_throw3"):
        if style == "linear_throw3" and width == 1 and len(lead) > 1:
            return 3
        return 2 if width == 1 else 2 * (length + 1)
    if style == "power_cards":
        return min(2 ** cards, 64)
    if style == "times_cards":
        return 2 * cards
    if style == "cards_in_lead":  # a throw goes by its largest unit
        return len(lead) if len(counts) == 1 or length > 1 else 2 * cards
    return None


@settings(max_examples=examples(150), **SETTINGS)
@given(seed=seeds, rules=rule_sets, throw_rate=throw_rates)
def test_points_add_up_and_summary_is_consistent(seed, rules, throw_rate):
    data = make(seed, rules, throw_rate)
    rep = replay(parse_record(data))
    summary = verify_summary(rep)
    banker = data["banker"]
    buried_points = sum(card_points(c) for c in data["buried"])

    assert sum(rep.state.points_won) + buried_points == 200
    assert summary["kitty_points"] == buried_points
    trick_points = [sum(card_points(c) for play in t["plays"] for c in play) for t in data["tricks"]]
    assert [t["points"] for t in summary["tricks"]] == trick_points
    assert sum(trick_points) + buried_points == 200
    attacker_tricks = sum(p for p, t in zip(trick_points, summary["tricks"]) if (t["winner"] - banker) % 2)
    assert summary["attackers_points"] == attacker_tricks
    for seat in range(4):
        assert rep.state.points_won[seat] == sum(p for p, t in zip(trick_points, summary["tricks"])
                                                 if t["winner"] == seat)

    # penalties: per failed throw, credited to the thrower's opponents
    penalties = 0
    for raw, trick, replayed in zip(data["tricks"], summary["tricks"], rep.tricks):
        assert trick["failed_throw"] == ("attempt" in raw)
        if "attempt" in raw:
            size = expected_penalty(rules, raw["attempt"], raw["plays"][0])
            thrower_attacks = (raw["leader"] - banker) % 2 == 1
            engine = replayed.penalty
            if size is not None:
                assert engine == (-size if thrower_attacks else size)
            else:
                assert engine <= 0 if thrower_attacks else engine >= 0
            penalties += engine
        else:
            assert replayed.penalty == 0
    assert summary["penalties"] == penalties
    if rules.throw_penalty == "none":
        assert penalties == 0

    # kitty bonus
    last = data["tricks"][-1]
    last_winner = summary["tricks"][-1]["winner"]
    multiplier = summary["kitty_multiplier"]
    if (last_winner - banker) % 2 == 0:
        assert multiplier == 0
    else:
        assert multiplier > 0
        expected = expected_multiplier(last["plays"][0], rules, oracle_of(data))
        if expected is not None:
            assert multiplier == expected
    score = summary["attackers_score"]
    assert score == summary["attackers_points"] + summary["kitty_points"] * multiplier + summary["penalties"]
    side, levels = expected_levels(score, rules)
    assert summary["result"]["side"] == side
    assert summary["result"]["levels"] == levels
    assert summary["result"]["next_banker"] == ((banker + 2) % 4 if side == "banker" else (banker + 1) % 4)
    # each trick's winner leads the next
    for before, after in zip(summary["tricks"], summary["tricks"][1:]):
        assert after["leader"] == before["winner"]


# == 4. the winner leads next; single and pair tricks go to the oracle's winner ====================

@settings(max_examples=examples(120), **SETTINGS)
@given(seed=seeds, rules=rule_sets, throw_rate=throw_rates)
def test_winner_leads_next_trick(seed, rules, throw_rate):
    data = make(seed, rules, throw_rate)
    rep = replay(parse_record(data))
    oracle = oracle_of(data)
    assert data["tricks"][0]["leader"] == data["banker"]
    for number in range(1, len(data["tricks"])):
        assert data["tricks"][number]["leader"] == rep.tricks[number - 1].winner
    for raw, summary in zip(data["tricks"], rep.tricks):
        winner = oracle_winner(raw["plays"], oracle)
        if winner is not None:
            assert summary.winner == (raw["leader"] + winner) % 4, (raw, summary)


def oracle_winner(plays: list[list[str]], oracle: Oracle) -> int | None:
    """rules.md §5 for a lead that is one single, pair or pair tractor: index of the winning play;
    None for other leads (throws) and shapes the oracle does not grade."""
    lead = plays[0]
    if is_single_combination(lead, oracle) is not True:
        return None
    if oracle.rules.ace_two_wrap and any(split(c)[0] in (14, 2) for c in lead) and len(set(lead)) > 1:
        return None  # the strength of a wrapped AA22 is not fixed by rules.md
    led = oracle.suit(lead[0])
    shape = sorted(Counter(lead).values())

    def top(play: list[str]) -> tuple[int, int]:
        return max(oracle.strength(c) for c in play)

    best, best_top = 0, top(lead)
    for index, play in enumerate(plays[1:], start=1):
        if len({oracle.suit(c) for c in play}) != 1 or oracle.suit(play[0]) not in (led, "T"):
            continue
        if sorted(Counter(play).values()) != shape:
            continue
        verdict = is_single_combination(play, oracle)
        if verdict is None or (oracle.rules.ace_two_wrap and len(set(play)) > 1
                               and any(split(c)[0] in (14, 2) for c in play)):
            return None
        if verdict and top(play) > best_top:
            best, best_top = index, top(play)
    return best


@settings(max_examples=examples(300), **SETTINGS)
@given(rules=rule_sets, rng=st.randoms(use_true_random=False), size=st.sampled_from([1, 2, 4, 6]))
def test_trick_winner_matches_rules_for_simple_leads(rules, rng, size):
    """Synthetic tricks: a single, pair or tractor led, answered by combinations and random cards."""
    level = rng.choice(list(RANK_OF))
    trump = rng.choice(["S", "H", "C", "D", "none"])
    ctx = TrumpContext.parse(level, trump, rules)
    oracle = Oracle(level, trump, rules)
    faces = sorted(FULL_DECK)
    links = [(a, b) for a in faces for b in faces if a != b and oracle.adjacent(a, b)]
    combos = {1: [[f] for f in faces], 2: [[f, f] for f in faces],
              4: [[a, a, b, b] for a, b in links if a < b],
              6: [[a, a, b, b, c, c] for a, b in links for b2, c in links
                  if b2 == b and c != a and is_single_combination([a, a, b, b, c, c], oracle) is True]}
    if not combos[size]:
        return
    remaining = FULL_DECK.copy()
    lead = rng.choice(combos[size])
    remaining -= Counter(lead)
    led = oracle.suit(lead[0])
    plays = [lead]
    for _ in range(3):
        fitting = [c for c in combos[size] if not Counter(c) - remaining and oracle.suit(c[0]) in (led, "T")]
        if fitting and rng.random() < 0.7:
            play = rng.choice(fitting)
        else:
            play = rng.sample(list(remaining.elements()), size)
        rng.shuffle(play)
        remaining -= Counter(play)
        plays.append(play)
    expected = oracle_winner(plays, oracle)
    if expected is None:
        return
    cards = [cards_of(play) for play in plays]
    assert trick_winner(cards, ctx) == expected, plays
    # the state's running winner (kept play by play) agrees
    state = RoundState.start(rules, ctx, banker=0, hands=cards)
    state.lead(cards[0])
    for play in cards[1:]:
        state.follow(play)
        assert state.tricks[-1].winning == trick_winner(state.tricks[-1].plays, ctx)
    assert state.tricks[-1].winner == expected


@settings(max_examples=examples(50), **SETTINGS)
@given(seed=seeds, rules=rule_sets, data=st.data())
def test_a_wrong_leader_is_refused(seed, rules, data):
    record = make(seed, rules)
    number = data.draw(st.integers(min_value=0, max_value=len(record["tricks"]) - 1))
    wrong = data.draw(st.sampled_from([s for s in range(4) if s != record["tricks"][number]["leader"]]))
    bad = copy.deepcopy(record)
    bad["tricks"][number]["leader"] = wrong
    with pytest.raises(JipaiError):
        replay(parse_record(bad))


# == 5. legal plays are accepted, illegal ones refused =============================================

def tractor_rank(cards: list[str], k: int, oracle: Oracle) -> tuple[int, tuple[int, ...]]:
    """(P, T) of rules.md §4 for cards of one suit against a lead of one k-pair tractor (two decks):
    P = pairs that fill the lead's pairs; T = the tractor pieces that fit its k slots, longest first.
    With one tractor unit the lexicographically best T is greedy: the longest piece that fits, then
    the longest piece that fits what is left, and so on."""
    faces = [card for card, copies in Counter(cards).items() if copies >= 2]
    positions = sorted({oracle.positions[face][1] for face in faces})
    runs: list[int] = []
    for index, position in enumerate(positions):
        if index and position == positions[index - 1] + 1:
            runs[-1] += 1
        else:
            runs.append(1)
    runs = [run for run in runs if run >= 2]
    pieces: list[int] = []
    room = k
    while runs and room >= 2:
        longest = max(runs)
        piece = min(longest, room)
        pieces.append(piece)
        runs.remove(longest)
        if longest - piece >= 2:
            runs.append(longest - piece)
        room -= piece
    return min(len(faces), k), tuple(pieces)


def check_follows(lead_cards: list[Card], hand: Counter, state_ctx, oracle: Oracle, rng: random.Random) -> None:
    """Every enumerated follow is legal by rule 1 and the structure rules; mutations are refused."""
    ctx = state_ctx
    lead = Lead.of(lead_cards, ctx)
    n = len(lead_cards)
    lead_strings = [str(c) for c in lead_cards]
    led = oracle.suit(lead_strings[0])
    held_all = hand_strings(hand)
    held = Counter({c: k for c, k in held_all.items() if oracle.suit(c) == led})
    off = held_all - held
    h = sum(held.values())
    follows = list(islice(legal_follows(lead, hand, ctx), FOLLOW_CAP + 1))
    assert follows, "a follower always has a legal play"
    follow_rule = ctx.rules.follow
    lead_pairs = pairs_in(lead_strings)
    held_pairs = [c for c, k in held.items() if k >= 2]
    need_pairs = min(len(held_pairs), lead_pairs)
    lead_is_2_tractor = (n == 4 and len(set(lead_strings)) == 2 and lead_pairs == 2
                         and oracle.adjacent(*sorted(set(lead_strings))) is True)
    tractor_known = all(oracle.adjacent(a, b) is not None for a in held_pairs for b in held_pairs if a != b)
    holds_2_tractor = any(oracle.adjacent(a, b) for a in held_pairs for b in held_pairs if a != b)
    structured = h > n and follow_rule != "loose"  # lenient takes the ladder for plays not of the lead's shape
    lead_one_unit = bool(lead_pairs) and len(set(lead_strings)) == lead_pairs and is_single_combination(
        lead_strings, oracle) is True

    def lenient_shape(cards: list[str]) -> bool:
        """A lenient follow of another suit that forms the lead's one-unit shape (rules.md §4)."""
        return (follow_rule == "lenient" and lead_one_unit and len({oracle.suit(c) for c in cards}) == 1
                and oracle.suit(cards[0]) != led and pairs_in(cards) == lead_pairs == len(set(cards))
                and is_single_combination(cards, oracle) is not False)

    def is_2_tractor(cards: list[str]) -> bool:
        faces = [c for c, k in Counter(cards).items() if k == 2]
        return any(oracle.adjacent(a, b) for a in faces for b in faces if a != b)

    # a lead of one k-pair tractor: the whole (P, T) ladder of rules.md §4 is graded here
    tractor_k = None
    if (structured and lead_pairs >= 2 and len(set(lead_strings)) == lead_pairs
            and is_single_combination(lead_strings, oracle) is True and not oracle.rules.ace_two_wrap
            and not (oracle.undecided_top and led == "T")):
        tractor_k = lead_pairs
        best_rank = tractor_rank(list(held.elements()), tractor_k, oracle)

    seen = set()
    shape_plays = 0
    for play in follows[:FOLLOW_CAP]:
        strings = [str(c) for c in play]
        key = tuple(sorted(strings))
        assert key not in seen, "legal_follows lists a multiset twice"
        seen.add(key)
        assert len(play) == n
        assert not Counter(strings) - held_all, "a legal follow uses a card not held"
        if h and lenient_shape(strings):  # only by a follower who cannot make the shape in the led suit
            assert not (lead_pairs == 1 and held_pairs), (lead_strings, sorted(held.elements()), strings)
            assert not (lead_is_2_tractor and holds_2_tractor), (lead_strings, sorted(held.elements()), strings)
            assert follow_problem(lead, hand, play, ctx) is None
            shape_plays += 1
            continue
        assert sum(1 for c in strings if oracle.suit(c) == led) == min(h, n)
        assert follow_problem(lead, hand, play, ctx) is None
        if structured:
            assert min(pairs_in(strings), lead_pairs) == need_pairs, (lead_strings, sorted(held.elements()), strings)
            if lead_is_2_tractor and holds_2_tractor and tractor_known:
                assert is_2_tractor(strings), (lead_strings, sorted(held.elements()), strings)
            if tractor_k:
                assert tractor_rank(strings, tractor_k, oracle) == best_rank, (
                    lead_strings, sorted(held.elements()), strings, best_rank)

    complete = len(follows) <= FOLLOW_CAP
    if complete:
        if h <= n:
            assert len(follows) - shape_plays == submultisets(off, n - h)
        elif follow_rule == "loose" or lead_pairs == 0:
            assert len(follows) == submultisets(held, n)
        else:
            assert len(follows) - shape_plays <= submultisets(held, n)

    # random n-card sets of the led suit: structure violations must be refused
    if h > n:
        pool = list(held.elements())
        for _ in range(20):
            pick = rng.sample(pool, n)
            problem = follow_problem(lead, hand, cards_of(pick), ctx)
            if follow_rule == "loose" or lead_pairs == 0:
                assert problem is None, (lead_strings, pick, problem)
            if structured and min(pairs_in(pick), lead_pairs) < need_pairs:
                assert problem is not None, (lead_strings, sorted(pool), pick)
            if (structured and lead_is_2_tractor and holds_2_tractor
                    and tractor_known and not is_2_tractor(pick)):
                assert problem is not None, (lead_strings, sorted(pool), pick)
            if tractor_k:
                legal = tractor_rank(pick, tractor_k, oracle) == best_rank
                assert (problem is None) == legal, (lead_strings, sorted(pool), pick, best_rank, problem)
            if complete and problem is None:
                assert tuple(sorted(pick)) in seen, "follow_problem accepts a play legal_follows misses"

    # mutations of one legal play
    play = [str(c) for c in rng.choice(follows[:FOLLOW_CAP])]
    rest = held_all - Counter(play)
    in_suit = [i for i, c in enumerate(play) if oracle.suit(c) == led]
    off_left = [c for c in rest.elements() if oracle.suit(c) != led]
    if in_suit and off_left:  # swap a led-suit card for an off-suit card: rule 1 is broken
        swapped = list(play)
        swapped[rng.choice(in_suit)] = rng.choice(off_left)
        assert lenient_shape(swapped) or follow_problem(lead, hand, cards_of(swapped), ctx) is not None, (
            lead_strings, play, swapped)
    if rest:
        longer = play + [rng.choice(list(rest.elements()))]
        assert follow_problem(lead, hand, cards_of(longer), ctx) is not None
    assert follow_problem(lead, hand, cards_of(play[:-1]), ctx) is not None
    missing = [c for c in FULL_DECK if held_all[c] == 0]
    same_suit_missing = [c for c in missing if oracle.suit(c) == oracle.suit(play[0])]
    foreign = list(play)
    foreign[0] = rng.choice(same_suit_missing or missing)
    assert follow_problem(lead, hand, cards_of(foreign), ctx) is not None

    # the random player's choice is legal too
    assert follow_problem(lead, hand, random_follow(lead, hand, ctx, rng), ctx) is None


def check_leads(state: RoundState, oracle: Oracle, rng: random.Random) -> None:
    """Every enumerated lead is one combination the engine accepts as such; bad leads are refused."""
    seat = state.next_leader
    held = hand_strings(state.hands[seat])
    before = snapshot(state)
    leads = list(legal_leads(state.hands[seat], state.ctx))
    keys = [tuple(sorted(map(str, lead))) for lead in leads]
    assert len(keys) == len(set(keys)), "legal_leads lists a lead twice"
    for lead, key in zip(leads, keys):
        assert not Counter(key) - held
        assert len({oracle.suit(c) for c in key}) == 1
        assert is_single_combination(list(key), oracle) is not False, key
        result = state.lead(lead)
        assert result.ok, f"a single combination {key} was treated as a failed throw"
        assert state.tricks[-1].attempt is None and state.tricks[-1].penalty == 0
        assert multiset(state.tricks[-1].plays[0]) == Counter(key)
        assert state.next_seat == (seat + 1) % 4
        state.undo()
        assert snapshot(state) == before
    # completeness: every single, every pair and every 2-pair tractor held is offered
    offered = set(keys)
    for card, copies in held.items():
        assert (card,) in offered
        if copies == 2:
            assert (card, card) in offered
    pairs = [c for c, k in held.items() if k == 2]
    for a in pairs:
        for b in pairs:
            if a < b and oracle.adjacent(a, b):
                assert tuple(sorted([a, a, b, b])) in offered, f"tractor {a}{a}{b}{b} not offered"

    # refused leads leave the state untouched
    by_suit: dict[str, list[str]] = {}
    for card in held:
        by_suit.setdefault(oracle.suit(card), []).append(card)
    bad_leads = [[]]
    if len(by_suit) >= 2:
        first, second = rng.sample(sorted(by_suit), 2)
        bad_leads.append([rng.choice(by_suit[first]), rng.choice(by_suit[second])])
    missing = [c for c in FULL_DECK if held[c] == 0]
    bad_leads.append([rng.choice(missing)])
    for bad in bad_leads:
        with pytest.raises(IllegalPlayError):
            state.lead(cards_of(bad))
        assert snapshot(state) == before


@settings(max_examples=examples(200), **SETTINGS)
@given(seed=seeds, rules=rule_sets, where=st.floats(min_value=0, max_value=1), rng=st.randoms(use_true_random=False))
def test_legal_plays_at_random_positions(seed, rules, where, rng):
    data = make(seed, rules, 0.2)
    record = parse_record(data)
    oracle = oracle_of(data)
    moves = all_moves(record)
    count = min(int(where * len(moves)), len(moves) - 1)
    state = state_after(record, count)
    before = snapshot(state)
    trick = state.current_trick
    if trick is None:
        check_leads(state, oracle, rng)
    else:
        seat = state.next_seat
        check_follows(list(trick.lead.cards), state.hands[seat], state.ctx, oracle, rng)
        # through the state: a legal follow is taken, an illegal one is refused and changes nothing
        follows = list(islice(legal_follows(trick.lead, state.hands[seat], state.ctx), 50))
        state.follow(rng.choice(follows))
        state.undo()
        assert snapshot(state) == before
        with pytest.raises(IllegalPlayError):
            state.follow(list(trick.lead.cards) + list(trick.lead.cards))
        assert snapshot(state) == before
    assert snapshot(state) == before


@settings(max_examples=examples(150), **SETTINGS)
@given(seed=seeds, rules=rule_sets, rng=st.randoms(use_true_random=False),
       mode=st.sampled_from(["combination", "tractor", "throw"]))
def test_follows_against_structured_leads(seed, rules, rng, mode):
    """Synthetic positions: a pair, tractor or throw from one dealt hand, answered by another
    (for tractors, by the seat holding the most pairs of the led suit)."""
    data = make(seed, rules, 0.0, stop_after=0)
    record = parse_record(data)
    oracle = oracle_of(data)
    hands = [Counter(card.index for card in hand) for hand in record.playing_hands()]
    leader = rng.randrange(4)
    leads = [lead for lead in legal_leads(hands[leader], record.ctx) if len(lead) >= 2]
    tractors = [lead for lead in leads if len(set(lead)) >= 2]
    if mode == "throw" or not leads:
        suit = rng.choice(sorted({oracle.suit(c) for c in hand_strings(hands[leader])}))
        pool = [c for c in hand_strings(hands[leader]).elements() if oracle.suit(c) == suit]
        lead = cards_of(rng.sample(pool, rng.randint(1, min(6, len(pool)))))
    else:
        lead = rng.choice(tractors if mode == "tractor" and tractors else leads)
    led = oracle.suit(str(lead[0]))
    others = [seat for seat in range(4) if seat != leader]
    if mode == "tractor":
        def led_pairs(seat: int) -> int:
            return sum(1 for c, k in hand_strings(hands[seat]).items() if k == 2 and oracle.suit(c) == led)
        follower = max(others, key=lambda seat: (led_pairs(seat), rng.random()))
    else:
        follower = rng.choice(others)
    check_follows(lead, hands[follower], record.ctx, oracle, rng)


@settings(max_examples=examples(150), **SETTINGS)
@given(rules=rule_sets, rng=st.randoms(use_true_random=False), extra=st.integers(min_value=0, max_value=24),
       length=st.sampled_from([2, 2, 3]), pairs=st.integers(min_value=0, max_value=3))
def test_follows_against_tractor_leads(rules, rng, extra, length, pairs):
    """Synthetic hands: a 2- or 3-pair tractor led, the follower holding a tractor of that suit,
    more pairs of it and other cards."""
    level = rng.choice(list(RANK_OF))
    trump = rng.choice(["S", "H", "C", "D", "none"])
    ctx = TrumpContext.parse(level, trump, rules)
    oracle = Oracle(level, trump, rules)
    faces = sorted(FULL_DECK)
    links = [(a, b) for a in faces for b in faces if a < b and oracle.adjacent(a, b)]
    chains = [[a, b] for a, b in links]
    if length == 3:
        at: dict[tuple[str, int], list[str]] = {}
        for face in faces:
            at.setdefault(oracle.positions[face], []).append(face)
        chains = [[a, b, c] for (suit, pos), tops in at.items() for a in tops
                  for b in at.get((suit, pos + 1), []) for c in at.get((suit, pos + 2), [])
                  if is_single_combination([a, a, b, b, c, c], oracle) is True]
    lead_faces = rng.choice(chains)
    suit = oracle.suit(lead_faces[0])
    lead = cards_of([face for face in lead_faces for _ in range(2)])
    rest = FULL_DECK - multiset(lead)
    theirs = [(c, d) for c, d in links if oracle.suit(c) == suit and rest[c] == 2 and rest[d] == 2]
    hand = Counter()
    if theirs:
        c, d = rng.choice(theirs)
        hand.update([c, c, d, d])
    for _ in range(pairs):
        spare = [face for face, copies in (rest - hand).items() if copies == 2 and oracle.suit(face) == suit]
        if spare:
            hand.update([rng.choice(spare)] * 2)
    pool = list((rest - hand).elements())
    same = [card for card in pool if oracle.suit(card) == suit]
    hand.update(rng.sample(same, min(len(same), rng.randint(0, 6))))
    pool = list((rest - hand).elements())
    hand.update(rng.sample(pool, max(0, len(lead) - sum(hand.values())) + extra))  # hands are never short
    check_follows(lead, Counter({Card.parse(card).index: k for card, k in hand.items()}), ctx, oracle, rng)


def test_legal_leads_offers_tractors_through_every_off_suit_level_pair():
    # level 5, ♠ trump: ♠55 + ♦55 and ♦55 + ♠AA are tractors (rules.md §3: 副55 + 主55, 主AA + 副55)
    ctx = TrumpContext.parse("5", "S", "standard")
    hand = Counter(card.index for card in cards_of("5H 5H 5D 5D 5S 5S AS AS".split()))
    for tractor in ("5S 5S 5D 5D", "5D 5D AS AS"):
        assert Combination.of(cards_of(tractor.split()), ctx).kind == "tractor"
    offered = {tuple(sorted(map(str, lead))) for lead in legal_leads(hand, ctx)}
    assert ("5D", "5D", "5S", "5S") in offered
    assert ("5D", "5D", "AS", "AS") in offered


def test_legal_leads_offers_the_wrapped_ace_two_tractor():
    ctx = TrumpContext.parse("5", "H", {"ace_two_wrap": True})
    assert Combination.of(cards_of("AS AS 2S 2S".split()), ctx).kind == "tractor"
    hand = Counter(card.index for card in cards_of("AS AS KS KS 2S 2S".split()))
    offered = {tuple(sorted(map(str, lead))) for lead in legal_leads(hand, ctx)}
    assert ("2S", "2S", "AS", "AS") in offered


def oracle_throw(throw: list[str], others: list[Counter], oracle: Oracle):
    """(ok, class of the forced play, strength of the forced unit) for throws of pairs and singles."""
    counts = Counter(throw)
    suit = oracle.suit(throw[0])
    units = {1: [c for c, k in counts.items() if k == 1], 2: [c for c, k in counts.items() if k == 2]}

    def beaten(card: str, width: int) -> bool:
        return any(copies >= width and oracle.suit(c) == suit and oracle.strength(c) > oracle.strength(card)
                   for hand in others for c, copies in hand.items())

    beaten_units = [(w, c) for w in (1, 2) for c in units[w] if beaten(c, w)]
    if not beaten_units:
        return True, None, None
    width = max(w for w, _ in beaten_units)
    return False, width, min(oracle.strength(c) for c in units[width])


@settings(max_examples=examples(200), **SETTINGS)
@given(seed=seeds, rules=rule_sets, where=st.floats(min_value=0, max_value=1), rng=st.randoms(use_true_random=False))
def test_throws_at_random_positions(seed, rules, where, rng):
    data = make(seed, rules, 0.0)
    record = parse_record(data)
    oracle = oracle_of(data)
    moves = [m for m in all_moves(record) if m[1] == 0]
    trick_number = min(int(where * len(moves)), len(moves) - 1)
    state = state_after(record, 4 * trick_number)
    assert state.current_trick is None
    seat = state.next_leader
    held = hand_strings(state.hands[seat])
    by_suit: dict[str, list[str]] = {}
    for card in held.elements():
        by_suit.setdefault(oracle.suit(card), []).append(card)
    choices = [cards for cards in by_suit.values() if len(cards) >= 2]
    if not choices:
        return
    pool = rng.choice(choices)
    throw = rng.sample(pool, rng.randint(2, min(len(pool), 7)))
    counts = Counter(throw)
    pairs = [c for c, k in counts.items() if k == 2]
    if len(counts) == 1 or any(oracle.adjacent(a, b) is not False for a in pairs for b in pairs if a != b):
        return  # a single combination, or a throw holding a tractor: not judged by this oracle
    others = [hand_strings(state.hands[(seat + k) % 4]) for k in (1, 2, 3)]
    ok, width, lowest = oracle_throw(throw, others, oracle)
    before = snapshot(state)
    result = state.lead(cards_of(throw))
    forced = [str(c) for c in state.tricks[-1].plays[0]]
    assert result.ok == ok, (throw, others)
    if ok:
        assert Counter(forced) == counts
        assert state.tricks[-1].attempt is None and state.penalties == before[2]
    else:
        assert state.tricks[-1].attempt is not None
        if rules.forced_play == "lowest_of_highest_class":
            assert len(forced) == width and len(set(forced)) == 1 and counts[forced[0]] == width, (throw, forced)
            assert oracle.strength(forced[0]) == lowest, (throw, forced)
        else:
            assert len(forced) == 1 and forced[0] in counts
        size = expected_penalty(rules, throw, forced)
        if size is not None:
            attacker = (seat - record.banker) % 2 == 1
            assert state.penalties - before[2] == (-size if attacker else size)
    assert hand_strings(state.hands[seat]) == held - Counter(forced)
    state.undo()
    assert snapshot(state) == before


# == 6. undo restores the exact previous state =====================================================

@settings(max_examples=examples(150), **SETTINGS)
@given(seed=seeds, rules=rule_sets, where=st.floats(min_value=0, max_value=1),
       steps=st.integers(min_value=1, max_value=6))
def test_undo_restores_the_previous_state(seed, rules, where, steps):
    data = make(seed, rules, 0.4)
    record = parse_record(data)
    moves = all_moves(record)
    count = min(int(where * len(moves)), len(moves))
    state = state_after(record, count)
    before = snapshot(state)
    ahead = moves[count:count + steps]
    trail = [before]
    for t, i in ahead:
        apply(state, record, t, i)
        trail.append(snapshot(state))
    for expected in reversed(trail[:-1]):
        state.undo()
        assert snapshot(state) == expected
    # and the same plays redone reach the same states
    for (t, i), expected in zip(ahead, trail[1:]):
        apply(state, record, t, i)
        assert snapshot(state) == expected
    if count == 0:
        fresh = start_state(record)
        with pytest.raises(IllegalPlayError):
            fresh.undo()


# == 7. records round-trip; ids =====================================================================

json_scalars = st.none() | st.booleans() | st.integers(min_value=-10**6, max_value=10**6) | st.text(max_size=8)
json_values = st.one_of(json_scalars, st.lists(json_scalars, max_size=3),
                        st.dictionaries(st.text(max_size=5), json_scalars | st.lists(json_scalars, max_size=2),
                                        max_size=3))
extra_keys = st.text(min_size=1, max_size=8).filter(
    lambda k: k not in {"format", "id", "rules", "level", "trump", "banker", "hands", "kitty", "buried",
                        "declarations", "tricks", "players", "source", "notes"})


def spell_oddly(card: str, rng: random.Random) -> str:
    """The same card in another accepted spelling (records.md: case-insensitive, T for 10, symbols)."""
    if card in ("BJ", "SJ"):
        return rng.choice([card, card.lower(), "大王" if card == "BJ" else "小王"])
    rank, suit = card[:-1], card[-1]
    rank = rng.choice(["T", "t", "10"]) if rank == "10" else rng.choice([rank, rank.lower()])
    suit = rng.choice([suit, suit.lower(), "♠♥♣♦"["SHCD".index(suit)]])
    return rank + suit


@settings(max_examples=examples(60), **SETTINGS)
@given(seed=seeds, rules=rule_sets, extras=st.dictionaries(extra_keys, json_values, max_size=3),
       trick_extra=json_values, rng=st.randoms(use_true_random=False))
def test_records_round_trip(seed, rules, extras, trick_extra, rng):
    data = make(seed, rules, 0.3)
    data.update(extras)
    data["players"] = ["东", "南", "西", "北"]
    marked = rng.randrange(len(data["tricks"]))
    data["tricks"][marked]["x-note"] = trick_extra
    # cards inside a play keep the order they were laid: shuffle some, they must survive as laid
    for trick in data["tricks"]:
        for play in trick["plays"]:
            rng.shuffle(play)
    original = copy.deepcopy(data)
    record = parse_record(data)
    out = record.to_json()
    assert out == original, "to_json changed a canonical record"
    again = parse_record(json.loads(json.dumps(out, ensure_ascii=False)))
    assert again.to_json() == out
    for key, value in extras.items():
        assert again.to_json()[key] == value
    assert again.to_json()["tricks"][marked]["x-note"] == trick_extra
    replay(again)  # still a valid deal

    # other spellings of the same cards read back to the canonical record
    odd = copy.deepcopy(original)
    odd["hands"] = [[spell_oddly(c, rng) for c in hand] for hand in odd["hands"]]
    odd["kitty"] = [spell_oddly(c, rng) for c in odd["kitty"]]
    odd["buried"] = [spell_oddly(c, rng) for c in odd["buried"]]
    for trick in odd["tricks"]:
        trick["plays"] = [[spell_oddly(c, rng) for c in play] for play in trick["plays"]]
        if "attempt" in trick:
            trick["attempt"] = [spell_oddly(c, rng) for c in trick["attempt"]]
    assert parse_record(odd).to_json() == original

    # record_id: SHA-256 of the record without id, sorted keys, compact, not ASCII-escaped
    body = json.dumps(original, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    expected = hashlib.sha256(body.encode("utf-8")).hexdigest()[:16]
    assert record_id(original) == expected
    assert record.id == expected
    with_id = dict(original, id="whatever-id")
    assert record_id(with_id) == expected
    assert parse_record(with_id).id == "whatever-id"
    reordered = dict(reversed(list(original.items())))
    assert record_id(reordered) == expected
    changed = dict(original, banker=(original["banker"] + 1) % 4)
    assert record_id(changed) != expected
