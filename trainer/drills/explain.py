"""Explanations of a question's answer: first what decides it, then the tracker's full account.

The deciding plays come first: each names its trick and seat ("trick 3: seat 1 ruffed ♥"), and the
web links each to that trick on the table (training.md §3). The deciding part then names the answer and the cards behind it ("No — A♦ is still out: one played in
trick 3, the other unseen") and gives counts as sums ("20 (K♠ K♠) + 5 (5♠) = 25"); the account
is the tracker's lines for the question's fact (`trainer.tracking.explain`). Lines are English
with seat numbers, like the tracker's; the web translates them (`trainer.web.quiz.localise`).

A sum line is `term (+|−) term … = total`, every term starting with its number (`36 in all`,
`4 (trick 2)`, `2 × 大王`), so a reader, or a test, can add it up.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
import dataclasses
from dataclasses import dataclass

from trainer.drills.decide_explain import DECISION_DECIDERS
from trainer.drills.questions import Question
from trainer.engine.cards import Card, pretty_cards
from trainer.engine.combos import TUPLE_NAMES
from trainer.engine.follow import suit_label
from trainer.engine.trump import SUIT_NAMES, TRUMP
from trainer.tracking.explain import explain, live_width
from trainer.tracking.facts import live_tractors, live_tuple_faces, top_faces, voids
from trainer.tracking.tracker import FACE_POINTS, PlayEvent, Snapshot


def _suit(question: Question) -> str:
    """The question's suit as the tracker's lines name it (♠ ♥ ♣ ♦ or trump)."""
    return suit_label(SUIT_NAMES.index(question.suit or "trump"))


@dataclass(frozen=True, slots=True)
class DecidingPlay:
    """A play that decides an answer: its `trick` (from 1), the `seat` that made it (absolute) and the
    line naming both (`trick 3: seat 1 ruffed ♥`)."""

    trick: int
    seat: int
    line: str


@dataclass(frozen=True, slots=True)
class Explanation:
    """Why an answer is right: the deciding `plays` and the `decisive` lines first (shown open), then
    the full `account` (shown collapsed). Iterating gives every line, the plays' first."""

    decisive: list[str]
    account: list[str]
    plays: list[DecidingPlay] = dataclasses.field(default_factory=list)

    def __iter__(self) -> Iterator[str]:
        return iter([play.line for play in self.plays] + self.decisive + self.account)


def explain_question(question: Question, snap: Snapshot, events: Sequence[PlayEvent]) -> Explanation:
    """The deciding plays, the deciding lines and the full account of `question`'s answer at this position."""
    decide = DECIDERS.get(question.type)
    where = _Where(snap, events)
    decisive = decide(question, where) if decide else []
    return Explanation(decisive, account_lines(question, snap, events), deciding_plays(question, where))


def account_lines(question: Question, snap: Snapshot, events: Sequence[PlayEvent]) -> list[str]:
    """The tracker's own lines (English, seat numbers) for the question's fact; for voids and
    no-pairs, one seat after another, about the suit asked only."""
    if question.fact in ("voids", "no_pairs"):
        return [line for k in (1, 2, 3) for line in seat_lines(question, snap, events, (snap.seat + k) % 4)]
    if question.fact.startswith("suits."):
        return explain(snap, events, question.fact, suit=question.suit)
    return explain(snap, events, question.fact)


def seat_lines(question: Question, snap: Snapshot, events: Sequence[PlayEvent], seat: int) -> list[str]:
    """The tracker's lines on why `seat` is void (or holds no pair) in the question's suit, the
    showing-out trick first; `nothing shown` when none."""
    label = _suit(question)
    keep = _seat_line_filter(question.fact, label)
    found = [line for line in explain(snap, events, question.fact, seat=seat) if keep(line)]
    return found or [f"seat {seat}: nothing shown in {label}"]


def _seat_line_filter(field: str, label: str) -> Callable[[str], bool]:
    """Of a seat's void / no-pair lines, those about the suit asked."""
    if field == "voids":
        played_out = f"no {label} card is unseen: every one is played, mine or known in the kitty"
        return lambda line: line.endswith((f"void in {label}", "has no cards left")) or line == played_out
    return lambda line: line.endswith(f"no {label} pair left")


def sum_line(terms: Sequence[tuple[int, str]]) -> str:
    """`terms` (number, label) as a sum with its total: `25 (trick 3) + 5 (trick 7) = 30`."""
    text = ""
    for number, label in terms:
        sign = ("−" if number < 0 else "") if not text else (" − " if number < 0 else " + ")
        text += f"{sign}{abs(number)}{' ' + label if label else ''}"
    total = sum(number for number, _label in terms)
    return f"{text} = {'−' if total < 0 else ''}{abs(total)}"


class _Where:
    """Where each copy of a face is, as the viewer knows it: played in which trick, mine, in the
    kitty, unseen."""

    def __init__(self, snap: Snapshot, events: Sequence[PlayEvent]) -> None:
        self.snap = snap
        self.events = events
        self.tricks: dict[int, list[int]] = {}
        for event in events:
            for card in event.cards:
                self.tricks.setdefault(card.index, []).append(event.trick)

    def places(self, face: int) -> list[str]:
        """One place per copy: `played in trick 3`, `in my hand`, `in the kitty`, `unseen`."""
        snap = self.snap
        return ([f"played in trick {t}" for t in self.tricks.get(face, [])] + ["in my hand"] * snap.mine[face]
                + ["in the kitty"] * snap.kitty_known[face] + ["unseen"] * snap.unseen[face])

    def copies(self, face: int) -> str:
        """Every copy of `face` in words: `both unseen`, `one played in trick 3, the other unseen`."""
        places = self.places(face)
        if len(places) == 1:
            return places[0]
        if len(set(places)) == 1:
            return f"both {places[0]}" if len(places) == 2 else f"all {len(places)} {places[0]}"
        if len(places) == 2:
            return f"one {places[0]}, the other {places[1]}"
        return ", ".join(f"{places.count(place)} {place}" for place in dict.fromkeys(places))

    def count_sum(self, faces: Sequence[int]) -> str:
        """How many of `faces` are unseen, as all copies minus the ones seen."""
        snap = self.snap
        total = sum(snap.ctx.rules.decks for _f in faces)
        terms = [(total, "in all"), (-sum(snap.played[f] for f in faces), "played"),
                 (-sum(snap.mine[f] for f in faces), "mine"),
                 (-sum(snap.kitty_known[f] for f in faces), "in the kitty")]
        return sum_line([terms[0]] + [term for term in terms[1:] if term[0]])

    def played_sum(self, faces: Sequence[int], none: str) -> str:
        """How many of `faces` are played, trick by trick."""
        wanted = set(faces)
        by_trick: dict[int, int] = {}
        for event in self.events:
            count = sum(card.index in wanted for card in event.cards)
            if count:
                by_trick[event.trick] = by_trick.get(event.trick, 0) + count
        if not by_trick:
            return f"{none}: 0"
        return sum_line([(count, f"(trick {trick})") for trick, count in by_trick.items()])

    def points_sum(self, counts: Sequence[int], faces: Sequence[int], none: str) -> str:
        """The points of the copies `counts` holds of `faces`, rank by rank: `20 (K♠ K♠) + 5 (5♠) = 25`."""
        held = [f for f in faces if counts[f] and FACE_POINTS[f]]
        if not held:
            return f"{none}: 0"
        return sum_line([(counts[f] * FACE_POINTS[f], f"({pretty_cards([Card.from_index(f)] * counts[f])})")
                         for f in sorted(held, key=lambda f: -FACE_POINTS[f])])

    def attackers_sum(self) -> str:
        """The attackers' score, trick by trick: points won, failed throws, the kitty bonus."""
        snap = self.snap
        terms: list[tuple[int, str]] = []
        plays: dict[int, list[PlayEvent]] = {}
        for event in self.events:
            plays.setdefault(event.trick, []).append(event)
            if event.attempt is not None and event.penalty:
                terms.append((event.penalty, f"(failed throw, trick {event.trick})"))
            trick = plays[event.trick]
            points = sum(c.points for e in trick for c in e.cards)
            if len(trick) == 4 and points and (trick[-1].winning - snap.banker) % 2:
                terms.append((points, f"(trick {event.trick})"))
        if snap.kitty_bonus:
            terms.append((snap.kitty_bonus, "(kitty)"))
        return sum_line(terms) if terms else "the attackers have no points yet: 0"


def _copies_of(where: _Where, faces: Sequence[int], out: Sequence[int]) -> list[str]:
    """A line per face: still out or not, and where every copy is."""
    return [f"{Card.from_index(f).pretty} is {'still' if f in out else 'not'} out: {where.copies(f)}" for f in faces]


def _big_trumps(question: Question, where: _Where) -> list[str]:
    faces = top_faces(where.snap.ctx)
    return _copies_of(where, faces, [f for f in faces if where.snap.unseen[f]])


def _point_cards(question: Question, where: _Where) -> list[str]:
    faces = [Card.parse(option["value"]).index for option in question.options]
    return _copies_of(where, faces, [f for f in faces if where.snap.unseen[f]])


def _constant_trumps(question: Question, where: _Where) -> list[str]:
    out = [f for f in top_faces(where.snap.ctx) if where.snap.unseen[f]]
    if not out:
        return ["every joker and level card is played or seen: 0"]
    return [sum_line([(where.snap.unseen[f], f"× {Card.from_index(f).pretty}") for f in out])]


def _higher(where: _Where, face: int) -> list[int]:
    ctx = where.snap.ctx
    return [f for f in ctx.faces_by_suit[ctx.suit_of[face]] if ctx.strength[f] > ctx.strength[face]]


def _is_boss(question: Question, where: _Where) -> list[str]:
    face = Card.parse(question.card or "").index
    higher = _higher(where, face)
    out = [f for f in higher if where.snap.unseen[f]]
    if not out:
        return ([f"Yes — no card higher than {Card.from_index(face).pretty} is out: 0"]
                + [f"{Card.from_index(f).pretty}: {where.copies(f)}" for f in higher])
    return [f"No — {Card.from_index(out[0]).pretty} is still out: {where.copies(out[0])}",
            sum_line([(where.snap.unseen[f], f"({Card.from_index(f).pretty})") for f in out])]


def _top_in_play(question: Question, where: _Where) -> list[str]:
    best = [Card.parse(name).index for name in str(question.answer).split("/")]  # one option: a strength class
    if not best:
        return []
    return ([f"The biggest {_suit(question)} left: {pretty_cards(Card.from_index(f) for f in best)}"]
            + [f"{Card.from_index(f).pretty}: {where.copies(f)}" for f in best]
            + [f"{Card.from_index(f).pretty} is gone: {where.copies(f)}" for f in _higher(where, best[0])])


def _pairs_line(label: str, live: Sequence[int], width: int = 2) -> str:
    unit = TUPLE_NAMES[width]
    if not live:
        return f"No {label} {unit} can still be out"
    return f"{unit.capitalize()}s that could still be out: {pretty_cards(Card.from_index(f) for f in live)}"


def _width(question: Question) -> int:
    """The tuple width a live-tuple question is about (its fact's)."""
    return live_width(question.fact.removeprefix("suits."))


def _live_faces(question: Question, where: _Where, in_tractor: bool = False) -> list[int]:
    snap = where.snap
    suit = SUIT_NAMES.index(question.suit or "trump")
    unseen_by_suit = [sum(snap.unseen[f] for f in snap.ctx.faces_by_suit[s]) for s in range(5)]
    return live_tuple_faces(snap, suit, [voids(snap, q, unseen_by_suit) for q in range(4)], _width(question),
                            in_tractor)


def _live_pairs(question: Question, where: _Where) -> list[str]:
    width = _width(question)
    faces = [Card.parse(option["value"]).index for option in question.options]
    live = _live_faces(question, where)
    lines = [_pairs_line(_suit(question), live, width)]
    lines += [f"{Card.from_index(f).pretty}: {where.copies(f)}" for f in faces if f not in live]
    if not live and any(where.snap.unseen[f] >= width for f in faces):
        lines += [line for line in explain(where.snap, where.events, question.fact, suit=question.suit)
                  if line.startswith("seat ")]
    return lines


def _live_tractor(question: Question, where: _Where) -> list[str]:
    label = _suit(question)
    width = _width(question)
    live = _live_faces(question, where, in_tractor=True)
    runs = live_tractors(live, where.snap.ctx)
    if runs:
        return ["Yes — a tractor could still be out: " + " / ".join(pretty_cards(map(Card.parse, run)) for run in runs)]
    return [f"No — no two adjacent {label} {TUPLE_NAMES[width]}s could still be out", _pairs_line(label, live, width)]


def _seats(question: Question, where: _Where) -> list[str]:
    label = _suit(question)
    seats = [int(q) for q in question.answer]
    if not seats:
        return [f"Nobody is known to be void in {label}" if question.type == "voids"
                else f"Nobody has shown to hold no {label} pair"]
    shown = [seat_lines(question, where.snap, where.events, q)[0] for q in seats]
    head = f"Void in {label}" if question.type == "voids" else f"Shown to hold no {label} pair"
    return [f"{head}: " + ", ".join(f"seat {q}" for q in seats)] + list(dict.fromkeys(shown))


def _suit_faces(question: Question, where: _Where) -> list[int]:
    return where.snap.ctx.faces_by_suit[SUIT_NAMES.index(question.suit or "trump")]


def _unplayed(where: _Where) -> list[int]:
    snap = where.snap
    return [0 if snap.kitty_revealed else snap.ctx.rules.decks - snap.played[f] for f in range(54)]


def _to_take_over(question: Question, where: _Where) -> list[str]:
    threshold = 2 * where.snap.ctx.rules.level_step
    return [where.attackers_sum(), sum_line([(threshold, ""), (question.answer - threshold, "")])]


DECIDERS: dict[str, Callable[[Question, _Where], list[str]]] = {
    "trumps_unseen": lambda q, w: [w.count_sum(_suit_faces(q, w))],
    "trumps_played": lambda q, w: [w.played_sum(_suit_faces(q, w), "no trump played yet")],
    "suit_unseen": lambda q, w: [w.count_sum(_suit_faces(q, w))],
    "suit_played": lambda q, w: [w.played_sum(_suit_faces(q, w), f"no {_suit(q)} card played yet")],
    "points_unplayed": lambda q, w: [w.points_sum(_unplayed(w), _suit_faces(q, w),
                                                  f"no {_suit(q)} point card is left to play")],
    "points_unseen": lambda q, w: [w.points_sum(w.snap.unseen, _suit_faces(q, w),
                                                f"no {_suit(q)} point card is unseen")],
    "constant_trumps_out": _constant_trumps,
    "big_trumps_out": _big_trumps,
    "point_cards_out": _point_cards,
    "is_boss": _is_boss,
    "top_in_play": _top_in_play,
    **{kind: _live_pairs for kind in ("live_pairs", "live_triples", "live_quads")},
    **{kind: _live_tractor for kind in ("live_tractor", "live_triple_tractor", "live_quad_tractor")},
    "voids": _seats,
    "no_pairs": _seats,
    "attackers_score": lambda q, w: [w.attackers_sum()],
    "to_take_over": _to_take_over,
    **DECISION_DECIDERS,
}
"""The deciding lines of every question type."""


# -- the deciding plays ------------------------------------------------------------------------------

MAX_PLAYS = 8
"""The most deciding plays an explanation names (the earliest: the ones memory loses first)."""


def _plays_line(trick: int, seat: int, verb: str, what: str) -> DecidingPlay:
    return DecidingPlay(trick, seat, f"trick {trick}: seat {seat} {verb} {what}")


def _follows(events: Sequence[PlayEvent]) -> Iterator[tuple[PlayEvent, bool]]:
    """Every play with whether it leads its trick."""
    previous = None
    for event in events:
        yield event, previous is None or previous.trick != event.trick
        previous = event


def _off_suit(where: _Where, suit: int, ruffs: bool = True, discards: bool = True) -> list[DecidingPlay]:
    """The plays that show something about `suit` off its own lead: a seat following a `suit` lead
    with other cards (`ruffed ♥` with trumps, else `showed out of ♥`), and (`discards`) `suit` cards
    laid on another suit's lead (`ruffed ♠` when `suit` is trump, else `discarded 5♥`)."""
    ctx = where.snap.ctx
    label = suit_label(suit)
    found = []
    for event, leads in _follows(where.events):
        if leads:
            continue
        suits = [ctx.suit_of[card.index] for card in event.cards]
        if event.lead.suit == suit and any(s != suit for s in suits):
            trumped = suit != TRUMP and all(s in (suit, TRUMP) for s in suits)
            if trumped and ruffs:
                found.append(_plays_line(event.trick, event.seat, "ruffed", label))
            elif not trumped:
                found.append(_plays_line(event.trick, event.seat, "showed out of", label))
        elif event.lead.suit != suit and suit in suits and discards:
            if suit == TRUMP:
                found.append(_plays_line(event.trick, event.seat, "ruffed", suit_label(event.lead.suit)))
            else:
                laid = [card for card, s in zip(event.cards, suits, strict=True) if s == suit]
                found.append(_plays_line(event.trick, event.seat, "discarded", pretty_cards(laid)))
    return found


def _card_plays(where: _Where, faces: Sequence[int]) -> list[DecidingPlay]:
    """The plays that laid any of `faces` (`played A♦ A♦`)."""
    wanted = set(faces)
    found = []
    for event in where.events:
        laid = [card for card in event.cards if card.index in wanted]
        if laid:
            found.append(_plays_line(event.trick, event.seat, "played", pretty_cards(laid)))
    return found


def _first_per_seat(plays: list[DecidingPlay], seats: Sequence[int]) -> list[DecidingPlay]:
    """Of `plays`, the first of each of `seats` (the play that showed it)."""
    first: dict[int, DecidingPlay] = {}
    for play in sorted(plays, key=lambda play: play.trick):
        first.setdefault(play.seat, play)
    return sorted((first[q] for q in seats if q in first), key=lambda play: play.trick)


def _pair_breaks(where: _Where, suit: int) -> list[DecidingPlay]:
    """The plays that answered a `suit` lead holding a pair without a `suit` pair (`showed no ♥ pair`)."""
    ctx = where.snap.ctx
    found = []
    for event, leads in _follows(where.events):
        if leads or event.lead.suit != suit or not event.lead.pairs:
            continue
        faces = [card.index for card in event.cards if ctx.suit_of[card.index] == suit]
        if not any(faces.count(face) >= 2 for face in faces):
            found.append(_plays_line(event.trick, event.seat, "showed no pair of", suit_label(suit)))
    return found


def _point_tricks(where: _Where) -> list[DecidingPlay]:
    """The tricks the attackers won with points in them (`won 20 points`), by the seat that won each."""
    snap = where.snap
    plays: dict[int, list[PlayEvent]] = {}
    found = []
    for event in where.events:
        plays.setdefault(event.trick, []).append(event)
        trick = plays[event.trick]
        points = sum(c.points for e in trick for c in e.cards)
        if len(trick) == 4 and points and (trick[-1].winning - snap.banker) % 2:
            found.append(_plays_line(event.trick, trick[-1].winning, "won", f"{points} points"))
    return found


def _suit_index(question: Question) -> int:
    return SUIT_NAMES.index(question.suit or "trump")


def _suit_point_faces(question: Question, where: _Where) -> list[int]:
    return [f for f in _suit_faces(question, where) if FACE_POINTS[f]]


PLAY_FINDERS: dict[str, Callable[[Question, _Where], list[DecidingPlay]]] = {
    "trumps_unseen": lambda q, w: _off_suit(w, TRUMP),
    "trumps_played": lambda q, w: _off_suit(w, TRUMP),
    "suit_unseen": lambda q, w: _off_suit(w, _suit_index(q)),
    "suit_played": lambda q, w: _off_suit(w, _suit_index(q)),
    "points_unplayed": lambda q, w: _card_plays(w, _suit_point_faces(q, w)),
    "points_unseen": lambda q, w: _card_plays(w, _suit_point_faces(q, w)),
    "constant_trumps_out": lambda q, w: _card_plays(w, top_faces(w.snap.ctx)),
    "big_trumps_out": lambda q, w: _card_plays(w, top_faces(w.snap.ctx)),
    "point_cards_out": lambda q, w: _card_plays(w, [Card.parse(o["value"]).index for o in q.options]),
    "is_boss": lambda q, w: _card_plays(w, _higher(w, Card.parse(q.card or "").index)),
    "top_in_play": lambda q, w: _card_plays(w, _higher(w, Card.parse(str(q.answer).split("/")[0]).index)),
    **{kind: lambda q, w: _card_plays(w, [Card.parse(o["value"]).index for o in q.options])
       for kind in ("live_pairs", "live_triples", "live_quads")},
    **{kind: lambda q, w: _pair_breaks(w, _suit_index(q)) + _off_suit(w, _suit_index(q), discards=False)
       for kind in ("live_tractor", "live_triple_tractor", "live_quad_tractor")},
    "voids": lambda q, w: _first_per_seat(_off_suit(w, _suit_index(q), discards=False), [int(s) for s in q.answer]),
    "no_pairs": lambda q, w: _first_per_seat(_pair_breaks(w, _suit_index(q)) + _off_suit(w, _suit_index(q),
                                                                                        discards=False),
                                             [int(s) for s in q.answer]),
    "attackers_score": lambda q, w: _point_tricks(w),
    "to_take_over": lambda q, w: _point_tricks(w),
}
"""The deciding plays of every question type."""


def deciding_plays(question: Question, where: _Where) -> list[DecidingPlay]:
    """The plays that decide `question`'s answer, in play order, at most `MAX_PLAYS`."""
    find = PLAY_FINDERS.get(question.type)
    found = sorted(find(question, where), key=lambda play: play.trick) if find else []
    return found[:MAX_PLAYS]
