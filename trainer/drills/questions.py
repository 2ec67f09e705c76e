"""Questions: one tracking.md tier-1 field asked in words from the viewer's seat, graded exactly.

A `Question` is plain data (it is stored with each attempt): its type, the suit or card it is
about, the prompt in Chinese and English, the answer kind (`number`, `single` or `multi`), the
options, the exact answer, and the tracker fact that explains it.

A question is *informative* when its answer differs from the trivial one: the same question
answered at the opening of play from the same seat (what a player who tracked nothing would
say), and for a multi choice also neither "none" nor "all options". Checkpoints ask only
informative questions (`make_question` with `opening`), and for the counts and the top card only those
the answer flattening keeps (`kept`: given what a player without memory sees, a common answer is asked no
more often than a rare one; shares measured by `trainer.drills.flatten`); docs/decisions.md gives the rule
per type.
"""
from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable, Collection
from dataclasses import asdict, dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import Any, NamedTuple

from trainer.engine.cards import Card
from trainer.engine.combos import TUPLE_NAMES
from trainer.engine.errors import MalformedError
from trainer.engine.trump import SUIT_NAMES
from trainer.tracking.facts import top_faces, tractor_key, tuple_key
from trainer.tracking.tracker import Snapshot

ANSWER_KINDS = ("number", "single", "multi", "one_of")
"""How a question is answered: a typed number, one option (radio), any set of options (checkboxes), or one
option (radio) of several right ones (`one_of`: the answer is the list of right options)."""
SUIT_WORDS = {"S": ("黑桃♠", "♠ spades"), "H": ("红桃♥", "♥ hearts"), "C": ("梅花♣", "♣ clubs"),
              "D": ("方块♦", "♦ diamonds"), "trump": ("主牌", "trumps")}
RELATIVE = {1: ("下家", "next (下家)"), 2: ("对家", "partner (对家)"), 3: ("上家", "previous (上家)")}
SIDE_SUITS = ("S", "H", "C", "D")


@dataclass(frozen=True)
class Question:
    """One question at one position, with its exact answer."""

    type: str
    kind: str
    prompt: dict[str, str]
    answer: Any
    fact: str
    suit: str | None = None
    card: str | None = None
    options: list[dict[str, Any]] = field(default_factory=list)
    seat: int | None = None
    """The seat a question is about (`max_trumps`), absolute; None for the others."""
    trick: int | None = None
    """The trick a question is about (a flash's: what that trick changed), by number; None for the others."""

    def __post_init__(self) -> None:
        if self.kind not in ANSWER_KINDS:
            raise ValueError(f"question {self.type}: answer kind {self.kind!r} is not one of {', '.join(ANSWER_KINDS)}")

    def to_json(self) -> dict[str, Any]:
        """The question as JSON-ready data."""
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Question:
        """A question stored with `to_json`."""
        return cls(**data)

    def grade(self, given: Any) -> bool:
        """True only if `given` equals the exact answer (sets compared as sets)."""
        if self.kind == "number":
            try:
                return int(str(given).strip()) == self.answer
            except ValueError:
                return False
        if self.kind == "multi":
            values = given if isinstance(given, (list, tuple, set)) else [given] if given else []
            return {str(v) for v in values} == set(self.answer)
        if self.kind == "one_of":
            return str(given) in self.answer
        return str(given) == self.answer

    def answer_text(self, lang: str) -> str:
        """The right answer in words."""
        if self.kind == "number":
            return str(self.answer)
        labels = {o["value"]: o["label"][lang] for o in self.options}
        if self.kind == "multi":
            return "、".join(labels.get(v, v) for v in self.answer) or ("无" if lang == "zh" else "none")
        if self.kind == "one_of" and isinstance(self.answer, list):
            return ("或" if lang == "zh" else " or ").join(labels.get(v, v) for v in self.answer)
        return labels.get(self.answer, self.answer)

    def answer_position(self) -> int | None:
        """Where the answer stands among the options of a single choice (0 = first), else None."""
        if self.kind != "single":
            return None
        return [o["value"] for o in self.options].index(self.answer)


Subject = tuple[str | None, str | None]
"""What a question is about: (suit, card), either may be None."""


@dataclass(frozen=True)
class QuestionType:
    """How to ask one tracker field: the subjects it can be about here, in tiers (the first tier with
    an informative subject is asked), and the question about one subject."""

    name: str
    subjects: Callable[[dict[str, Any], Snapshot], list[list[Subject]]]
    build: Callable[[dict[str, Any], Snapshot, Subject], Question]
    asked_if: Callable[[Question, Question], bool] | None = None
    """When a question is worth asking, given the same question at the opening (None: `informative`)."""

    def worth_asking(self, question: Question, trivial: Question) -> bool:
        """Whether `question` may be asked, `trivial` being the same question at the opening."""
        return (self.asked_if or informative)(question, trivial)


QUESTION_TYPES: dict[str, QuestionType] = {}
"""Every question type by name."""


def _register(name: str, subjects: Callable[[dict[str, Any], Snapshot], list[list[Subject]]],
              build: Callable[[dict[str, Any], Snapshot, Subject], Question],
              asked_if: Callable[[Question, Question], bool] | None = None) -> None:
    QUESTION_TYPES[name] = QuestionType(name, subjects, build, asked_if)


def _face_option(name: str) -> dict[str, Any]:
    pretty = Card.parse(name).pretty
    return {"value": name, "label": {"zh": pretty, "en": pretty}}


def _seat_options(viewer: int) -> list[dict[str, Any]]:
    return [{"value": str((viewer + k) % 4), "label": {"zh": RELATIVE[k][0], "en": RELATIVE[k][1]}}
            for k in (1, 2, 3)]


def _prompt(zh: str, en: str, suit: str | None = None) -> dict[str, str]:
    """A prompt with `{}` filled by the suit's name in each language."""
    if suit is None:
        return {"zh": zh, "en": en}
    return {"zh": zh.format(SUIT_WORDS[suit][0]), "en": en.format(SUIT_WORDS[suit][1])}


def _no_subject(facts: dict[str, Any], snap: Snapshot) -> list[list[Subject]]:
    return [[(None, None)]]


def _suits(usable: Callable[[dict[str, Any]], bool] = lambda entry: True, side_only: bool = False,
           width: int = 1) -> Callable[[dict[str, Any], Snapshot], list[list[Subject]]]:
    """Subjects: the suits whose facts are `usable` (side suits only if `side_only`), all in one tier (no suit
    first: a suit asked because it was just shown void would be a tell); none when the decks hold fewer than
    `width` copies of a face (no pair with one deck, no triple with two)."""
    def subjects(facts: dict[str, Any], snap: Snapshot) -> list[list[Subject]]:
        if snap.ctx.rules.decks < width:
            return []
        return [[(s, None) for s, entry in facts["suits"].items()
                 if usable(entry) and not (side_only and s == "trump")]]
    return subjects


# -- numbers -----------------------------------------------------------------------------------------

def _number(name: str, zh: str, en: str, fact: str, value: Callable[[dict[str, Any]], int],
            asked: Callable[[int], bool] = lambda answer: True) -> None:
    """Register a question whose answer is one number of the facts, asked only where `asked` holds of it."""
    def subjects(facts: dict[str, Any], snap: Snapshot) -> list[list[Subject]]:
        return [[(None, None)]] if asked(value(facts)) else []
    _register(name, subjects, lambda facts, snap, subject: Question(name, "number", _prompt(zh, en),
                                                                    value(facts), fact))


_number("trumps_unseen", "外面还有几张主？", "How many trumps are still out?", "trumps.unseen",
        lambda facts: facts["trumps"]["unseen"])
_number("trumps_played", "已经出了几张主？", "How many trumps have been played?", "trumps.played",
        lambda facts: facts["trumps"]["played"])
_number("constant_trumps_out", "外面还有几张常主（王和级牌）？", "How many jokers and level cards are still out?",
        "trumps.top", lambda facts: sum(facts["trumps"]["top"].values()))
_number("attackers_score", "闲家现在有多少分？", "How many points do the attackers have?", "score",
        lambda facts: facts["score"]["attackers"])
_number("to_take_over", "闲家还差多少分上台？", "How many more points do the attackers need to take over?",
        "score", lambda facts: facts["score"]["to_take_over"], asked=lambda needed: needed > 0)


def _suit_number(name: str, key: str, zh: str, en: str, fact: str) -> None:
    """Register a question whose answer is one number of a suit's facts."""
    def build(facts: dict[str, Any], snap: Snapshot, subject: Subject) -> Question:
        suit = subject[0]
        return Question(name, "number", _prompt(zh, en, suit), facts["suits"][suit][key], fact, suit=suit)
    _register(name, _suits(), build)


_suit_number("points_unplayed", "points_unplayed", "{}还剩几分没出？", "How many points of {} are not played yet?",
             "suits.points_unplayed")
_suit_number("points_unseen", "points_unseen", "{}外面还有几分（不算自己的）？",
             "How many points of {} are out (not in your hand)?", "suits.points_unseen")
_suit_number("suit_played", "played", "{}已经出了几张？", "How many {} have been played?", "suits.played")
_suit_number("suit_unseen", "unseen", "{}外面还有几张？", "How many {} are still out?", "suits.unseen")


BOSS_RANK = 12
"""`is_boss` asks about a side-suit card of rank Q or above (training.md §1)."""
YES_NO_OPTIONS = [{"value": "yes", "label": {"zh": "是", "en": "yes"}}, {"value": "no", "label": {"zh": "否", "en": "no"}}]


def _my_tops(facts: dict[str, Any], snap: Snapshot) -> list[list[Subject]]:
    """Per suit the card a player would hope is boss: the highest the viewer holds there (fewest higher
    cards), of rank Q or above in a side suit, any rank in trumps; once a higher card has fallen (before,
    the answer is the opening's: nothing to count) and while fewer higher cards are out than there are
    decks (a card with more above it is not one a player hopes is boss)."""
    subjects = []
    for suit, entry in facts["suits"].items():
        held = entry["higher_than_mine"]
        if not held:
            continue
        top = min(held, key=lambda name: held[name])
        face = Card.parse(top).index
        fallen = any(snap.played[f] for f in snap.ctx.faces_by_suit[snap.ctx.suit_of[face]]
                     if snap.ctx.strength[f] > snap.ctx.strength[face])
        if fallen and held[top] < snap.ctx.rules.decks and (suit == "trump" or Card.parse(top).rank >= BOSS_RANK):
            subjects.append((suit, top))
    return [subjects]


def _is_boss(facts: dict[str, Any], snap: Snapshot, subject: Subject) -> Question:
    suit, name = subject
    pretty = Card.parse(name or "").pretty
    return Question("is_boss", "single", {"zh": f"你的{pretty}现在是最大的吗？", "en": f"Is your {pretty} the boss now?"},
                    "yes" if facts["suits"][suit]["higher_than_mine"][name] == 0 else "no", "suits.higher_than_mine",
                    suit=suit, card=name, options=list(YES_NO_OPTIONS))


def _was_not_boss(question: Question, trivial: Question) -> bool:
    """`is_boss` is asked about a card that was not the boss at the opening: then yes and no both come up."""
    return trivial.answer == "no"


_register("is_boss", _my_tops, _is_boss, _was_not_boss)


# -- multi choice ------------------------------------------------------------------------------------

def _big_trumps_out(facts: dict[str, Any], snap: Snapshot, subject: Subject) -> Question:
    top = facts["trumps"]["top"]
    return Question("big_trumps_out", "multi", _prompt("哪些大主还在外面？", "Which big trumps are still out?"),
                    [name for name, copies in top.items() if copies >= 1], "trumps.top",
                    options=[_face_option(name) for name in top])


_register("big_trumps_out", _no_subject, _big_trumps_out)


def _seats_with(name: str, key: str, zh: str, en: str) -> None:
    """Register a question asking which other seats have a suit listed under `key` (voids, no_pairs)."""
    def build(facts: dict[str, Any], snap: Snapshot, subject: Subject) -> Question:
        suit = subject[0]
        return Question(name, "multi", _prompt(zh, en, suit), [q for q, suits in facts[key].items() if suit in suits],
                        key, suit=suit, options=_seat_options(snap.seat))
    _register(name, _suits(), build)


_seats_with("voids", "voids", "谁{}绝门了？", "Who is void in {}?")
_seats_with("no_pairs", "no_pairs", "谁已经表明{}没有对子？", "Who has shown to hold no pair in {}?")


def _point_cards_out(facts: dict[str, Any], snap: Snapshot, subject: Subject) -> Question:
    suit = subject[0] or ""
    faces = [str(Card.from_index(f)) for f in snap.ctx.faces_by_suit[SIDE_SUITS.index(suit)]
             if Card.from_index(f).points]
    unseen = set(facts["suits"][suit]["unseen_cards"])
    return Question("point_cards_out", "multi", _prompt("{}的哪些分牌还在外面？", "Which point cards of {} are still out?",
                                                        suit),
                    [f for f in faces if f in unseen], "suits.points_unseen", suit=suit,
                    options=[_face_option(f) for f in faces])


_register("point_cards_out", _suits(side_only=True), _point_cards_out)


def _unseen_faces(facts: dict[str, Any], suit: str) -> list[dict[str, Any]]:
    return [_face_option(f) for f in dict.fromkeys(facts["suits"][suit]["unseen_cards"])]


TUPLE_WORDS = {2: ("对子", "pairs"), 3: ("三张", "triples"), 4: ("四张", "quads")}
"""Tuples of each width as the prompts name them (三张 = 三同张, three copies of a face)."""
TRACTOR_WORDS = {2: ("拖拉机", "tractor"), 3: ("泰坦尼克（三张连）", "泰坦尼克 (run of triples)"),
                 4: ("四张连", "run of quads")}


def _live_tuples(width: int) -> None:
    """Register `live_pairs` / `live_triples` / `live_quads`: which faces of a suit another seat could
    still hold `width` copies of; asked only where the decks have that many copies."""
    name = tuple_key(width)
    zh_tuple, en_tuple = TUPLE_WORDS[width]

    def build(facts: dict[str, Any], snap: Snapshot, subject: Subject) -> Question:
        suit = subject[0] or ""
        return Question(name, "multi", _prompt("{}哪些" + zh_tuple + "还可能在别人手里？",
                                               f"Which {en_tuple} of {{}} could another player still hold?", suit),
                        facts["suits"][suit][name], f"suits.{name}", suit=suit, options=_unseen_faces(facts, suit))
    _register(name, _suits(lambda entry: entry["unseen"] >= width, width=width), build)


def _live_tractor(width: int) -> None:
    """Register `live_tractor` (pairs), `live_triple_tractor` and `live_quad_tractor`: which faces could
    still make another seat's tractor of tuples of `width`."""
    name = "live_tractor" if width == 2 else f"live_{TUPLE_NAMES[width]}_tractor"
    key = tractor_key(width)
    zh_tuple, en_tuple = TUPLE_WORDS[width]
    zh_tractor, en_tractor = TRACTOR_WORDS[width]

    def build(facts: dict[str, Any], snap: Snapshot, subject: Subject) -> Question:
        suit = subject[0] or ""
        return Question(name, "multi", _prompt("{}哪些" + zh_tuple + "还可能连成别人的" + zh_tractor + "？",
                                               f"Which {en_tuple} of {{}} could still make another player's "
                                               f"{en_tractor}?", suit),
                        [face for run in facts["suits"][suit][key] for face in run], f"suits.{key}",
                        suit=suit, options=_unseen_faces(facts, suit))
    _register(name, _suits(lambda entry: entry["unseen"] >= 2 * width, width=width), build)


for _width in (2, 3, 4):
    _live_tuples(_width)
    _live_tractor(_width)


# -- single choice -----------------------------------------------------------------------------------

def strength_classes(snap: Snapshot, suit: str) -> list[list[str]]:
    """The faces of a suit grouped by strength, strongest first (the off-suit level cards are one group)."""
    ctx = snap.ctx
    groups: list[list[str]] = []
    last = None
    for face in ctx.faces_by_suit[SUIT_NAMES.index(suit)]:
        if ctx.strength[face] != last:
            groups.append([])
            last = ctx.strength[face]
        groups[-1].append(str(Card.from_index(face)))
    return groups


def _top_in_play(facts: dict[str, Any], snap: Snapshot, subject: Subject) -> Question:
    suit = subject[0] or ""
    top = facts["suits"][suit]["top_in_play"][0]
    classes = strength_classes(snap, suit)
    options = [{"value": "/".join(group), "label": {"zh": "/".join(Card.parse(f).pretty for f in group),
                                                    "en": "/".join(Card.parse(f).pretty for f in group)}}
               for group in classes]
    answer = next("/".join(group) for group in classes if top in group)
    return Question("top_in_play", "single", _prompt("{}现在最大的是哪张？", "What is the biggest {} left?", suit),
                    answer, "suits.top_in_play", suit=suit, options=options)


_register("top_in_play", _suits(lambda entry: bool(entry["top_in_play"])), _top_in_play)


# -- drill files ------------------------------------------------------------------------------------

def drill_field(data: dict[str, Any], key: str, name: str) -> Any:
    """A required field of drill file `name`; `MalformedError` naming it when it is missing."""
    if key not in data:
        raise MalformedError(f"drill {name}: missing {key!r}")
    return data[key]


def question_weights(data: dict[str, Any], name: str, known: Collection[str], game: str = "") -> dict[str, float]:
    """The `questions` table of drill file `name` (type = positive weight, every type in `known`)."""
    questions = drill_field(data, "questions", name)
    if not isinstance(questions, dict) or not questions:
        raise MalformedError(f"drill {name}: questions must be a table of type = weight")
    for kind, weight in questions.items():
        if kind not in known:
            raise MalformedError(f"drill {name}: unknown {game}question type {kind!r}")
        if not isinstance(weight, (int, float)) or weight <= 0:
            raise MalformedError(f"drill {name}: weight of {kind!r} must be a positive number")
    return dict(questions)


# -- asking ------------------------------------------------------------------------------------------

def informative(question: Question, trivial: Question) -> bool:
    """True when `question`'s answer is not the trivial one: not `trivial`'s answer (the same question
    at the opening), and for a multi choice neither none nor every option."""
    if question.kind == "multi":
        answer = set(question.answer)
        return answer != set(trivial.answer) and bool(answer) and answer != {o["value"] for o in question.options}
    return question.answer != trivial.answer


ZERO_KEPT = 0.25
"""How often a number question whose every candidate subject answers 0 is still asked (training.md §1: 0 is
the common answer of the counts late in a deal; docs/decisions.md)."""


def rarely_zero(questions: list[Question], rng: random.Random) -> list[Question]:
    """Number questions answering 0 give way to the others; when all answer 0 they are asked only with
    probability `ZERO_KEPT` (else none: the checkpoint asks another type), so 0 is not over-represented."""
    if not questions or questions[0].kind != "number":
        return questions
    others = [q for q in questions if q.answer != 0]
    if others:
        return others
    return questions if rng.random() < ZERO_KEPT else []


QuestionKey = tuple[str, str | None, str | None, int | None, int | None, Any]
"""What makes two questions of a run the same question: type, subject (suit, card, seat, trick) and answer."""


def question_key(question: Question) -> QuestionKey:
    """The question's type, subject and answer (a list as a sorted tuple): a run never asks one twice."""
    answer = tuple(sorted(question.answer)) if isinstance(question.answer, list) else question.answer
    return (question.type, question.suit, question.card, question.seat, question.trick, answer)


class Table(NamedTuple):
    """What the table shows at a checkpoint without memory: the plays of the trick on it and of the trick
    before it (the last-trick look), as (seat, card), and the voids those tricks show, as (seat, suit)."""

    now: tuple[tuple[int, Card], ...] = ()
    last: tuple[tuple[int, Card], ...] = ()
    voids: frozenset[tuple[int, str]] = frozenset()


TABLE_COUNTS: dict[str, tuple[bool, bool, bool]] = {
    "trumps_played": (False, False, False), "suit_played": (False, False, False),
    "trumps_unseen": (True, True, False), "suit_unseen": (True, True, False),
    "constant_trumps_out": (True, True, False), "points_unplayed": (True, False, True),
    "points_unseen": (True, True, True),
}
"""Counts the table can give away: (from the opening value down, other seats' cards only, points not cards)."""


def table_shows(question: Question, plays: tuple[tuple[int, Card], ...], snap: Snapshot) -> int:
    """The cards (or points) of a count's subject among `plays` (another seat's only, where the count is of
    the cards out of the viewer's hand: `TABLE_COUNTS`); 0 for a type the table cannot give away."""
    rule = TABLE_COUNTS.get(question.type)
    if rule is None:
        return 0
    _from_opening, others, points = rule
    ctx = snap.ctx
    if question.type == "constant_trumps_out":
        faces = set(top_faces(ctx))
    else:
        faces = set(ctx.faces_by_suit[SUIT_NAMES.index(question.suit or "trump")])
    return sum(card.points if points else 1 for seat, card in plays
               if card.index in faces and not (others and seat == snap.seat))


def shown_on_table(question: Question, trivial: Question, table: Table, snap: Snapshot) -> bool:
    """True when the table gives the answer away (training.md §1): a voids question whose every seat failed
    to follow in the trick on the table or the last trick; a count equal to what those tricks show (the
    opening value less the cards or points of the subject on the table, or, for a played count, those
    alone), over the trick alone or with the last trick."""
    if question.type == "voids":
        return set(question.answer) <= {str(q) for q, suit in table.voids if suit == question.suit}
    rule = TABLE_COUNTS.get(question.type)
    if rule is None:
        return False
    values = {table_shows(question, table.now, snap), table_shows(question, table.now + table.last, snap)}
    if rule[0]:
        values = {trivial.answer - value for value in values}
    return question.answer in values


# -- answer flattening (training.md §1) --------------------------------------------------------------

FLATTENED = ("trumps_unseen", "trumps_played", "constant_trumps_out", "attackers_score", "to_take_over",
             "points_unplayed", "points_unseen", "suit_played", "suit_unseen", "max_trumps", "top_in_play")
"""The types whose answers are flattened: the counts and the top card, whose natural answers given what a
player sees without memory (how far the deal has gone, the opening value, the suit, their own top card) are
few and predictable."""
PHASES = 8
"""How finely the deal's progress (the cards still in hands, which the hand sizes show) is cut into cells."""
SHARES_FILE = Path(__file__).resolve().parents[2] / "drills" / "flatten.json"
"""The keep probabilities per cell and coded answer, made by `python -m trainer.drills.flatten`."""


def phase_of(snap: Snapshot) -> int:
    """How far the deal has gone, as a player sees it from the hand sizes: 0 (near the end) … PHASES − 1."""
    start = 4 * snap.ctx.rules.hand_size
    return min(PHASES - 1, PHASES * sum(snap.hand_sizes) // start)


POINT_COUNTS = ("attackers_score", "to_take_over", "points_unplayed", "points_unseen")
"""Counts of points (multiples of 5): their cells hold the opening value to within 10 (a card count's to within 2)."""


def answer_cell(question: Question, trivial: Question, snap: Snapshot, table: Table) -> tuple[str, tuple[str, ...]] | None:
    """Where a question stands among those a player without memory cannot tell apart, and its answer coded as
    such a player could guess it: (cell, codes). The cell is the type, the decks, trumps or a side suit, the
    phase (`phase_of`) and the opening value (to within 10 points or 2 cards), or for `top_in_play` the rank
    of the viewer's own top card of the suit. The codes are the answer itself (`=`) and, for a count the
    table can give away, the answer less what the table (the trick and the last one) shows of it (`~`); the
    top card's rank. None for a type that is not flattened."""
    if question.type not in FLATTENED:
        return None
    side = "none" if question.suit is None else "trump" if question.suit == "trump" else "side"
    cell = [question.type, str(snap.ctx.rules.decks), side, str(phase_of(snap))]
    if question.type == "top_in_play":
        suit = question.suit or ""
        mine = [Card.from_index(f) for f in snap.ctx.faces_by_suit[SUIT_NAMES.index(suit)] if snap.mine[f]]
        cell.append(_rank(mine[0]) if mine else "-")
        return "|".join(cell), ("=" + _rank(Card.parse(question.answer.split("/")[0])),)
    cell.append(str(trivial.answer // (10 if question.type in POINT_COUNTS else 2)))
    rule = TABLE_COUNTS.get(question.type)
    if rule is None:
        return "|".join(cell), (f"={question.answer}",)
    shown = table_shows(question, table.now + table.last, snap)
    return "|".join(cell), (f"={question.answer}", f"~{question.answer + shown if rule[0] else question.answer - shown}")


def _rank(card: Card) -> str:
    """A card's rank as a code (`BJ`, `SJ`, `2` … `A`)."""
    name = str(card)
    return name if name in ("BJ", "SJ") else name[:-1]


@cache
def keep_shares() -> dict[str, dict[str, float]]:
    """Per cell, the probability that a question of each coded answer is kept (`SHARES_FILE`)."""
    return json.loads(SHARES_FILE.read_text(encoding="utf-8"))["cells"]


def _draw(question: Question, snap: Snapshot) -> float:
    """A number in [0, 1) fixed by the question and the position, so a checkpoint keeps the same every time."""
    answer = tuple(sorted(question.answer)) if isinstance(question.answer, list) else question.answer
    named = (question.type, question.suit, question.card, answer)
    digest = hashlib.sha256(f"{named}:{snap.seat}:{snap.trick.number}:{snap.hand_sizes}"
                            .encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2 ** 64


def kept(question: Question, trivial: Question, snap: Snapshot, table: Table = Table()) -> bool:
    """Whether the answer flattening keeps `question` (`trivial` the same at the opening): with the least
    probability its cell gives its codes (`keep_shares`; a common answer is kept less often, so that among the
    questions asked no answer is right much more often than the others, the trivial one neither more nor
    less), always for a type, cell or answer the shares do not list."""
    found = answer_cell(question, trivial, snap, table)
    if found is None:
        return True
    cell, codes = found
    shares = keep_shares().get(cell, {})
    return _draw(question, snap) < min(shares.get(code, 1.0) for code in codes)


def candidates(kind: str, facts: dict[str, Any], snap: Snapshot, opening: dict[str, Any], table: Table = Table(),
               asked: Collection[QuestionKey] = ()) -> list[tuple[Question, Question]]:
    """The questions of type `kind` a checkpoint may ask, each with its trivial one (the same at the opening):
    the first tier of subjects with an informative subject whose answer the table does not give away
    (`shown_on_table`, `table` what the trick on the table and the last one show) and that is not a question
    already `asked` in the run (`question_key`)."""
    qtype = QUESTION_TYPES[kind]
    for tier in qtype.subjects(facts, snap):
        pairs = [(qtype.build(facts, snap, subject), qtype.build(opening, snap, subject)) for subject in tier]
        pairs = [(q, trivial) for q, trivial in pairs
                 if qtype.worth_asking(q, trivial) and not shown_on_table(q, trivial, table, snap)
                 and question_key(q) not in asked]
        if pairs:
            return pairs
    return []


def make_question(kind: str, facts: dict[str, Any], snap: Snapshot, rng: random.Random,
                  opening: dict[str, Any] | None = None, table: Table = Table(),
                  asked: Collection[QuestionKey] = ()) -> Question | None:
    """A question of type `kind` at this position, or None when it does not apply here. With `opening`
    (the same seat's facts at the opening of play) one of the informative ones (`candidates`) drawn by `rng`,
    and only if the answer flattening keeps it (`kept`: given what a player sees without memory, common
    answers are asked no more often than rare ones; a drawn question not kept leaves the checkpoint to
    another type, so each candidate is asked with the probability its shares were measured for). A single choice's options come in an order
    shuffled by `rng`, so the answer's place says nothing."""
    qtype = QUESTION_TYPES[kind]
    if opening is None:
        tier = next((tier for tier in qtype.subjects(facts, snap) if tier), [])
        questions = [qtype.build(facts, snap, subject) for subject in tier]
        if not questions:
            return None
        question = rng.choice(questions)
    else:
        found = candidates(kind, facts, snap, opening, table, asked)
        if not found:
            return None
        question, trivial = rng.choice(found)
        if not kept(question, trivial, snap, table):
            return None
    if question.kind == "single":
        question = replace(question, options=rng.sample(question.options, len(question.options)))
    return question


def trivial_question(question: Question, opening: dict[str, Any], snap: Snapshot) -> Question:
    """The same question answered as a player who tracked nothing would: at the opening of play
    (`opening`, the same seat's facts at 1.0)."""
    subject = (question.suit, question.card if question.seat is None else str(question.seat))
    return QUESTION_TYPES[question.type].build(opening, snap, subject)
