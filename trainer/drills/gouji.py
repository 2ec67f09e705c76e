"""够级 drills (gouji.md §7): question types, each one §6 field asked from the viewer's seat with seats
named by relation and graded exactly; drill definitions (`game = "gouji"` in `drills/*.toml`); the plan
of a run (viewer seat, checkpoints) and the question at each checkpoint, pure functions of the drill,
the record and a seed.

Checkpoints (§7): before the viewer answers a 够级 play as 对头 (`duitou`), at each round end
(`round_end`), after a joker or a 2 is played (`jokers`), and at random actions (`random`). Weighting
follows X "记住对头和下家所发出的牌点及牌型": questions about a seat ask about the 对头 or the 下家 first.

>>> from trainer.drills.definitions import load_drills
>>> from trainer.gouji.randomplay import random_record
>>> from trainer.gouji.records import parse_gouji_record
>>> record = parse_gouji_record(random_record(random.Random(2)))
>>> drill = load_drills()["gouji-everything"]
>>> plan = plan_run(drill, record, 7)
>>> plan == plan_run(drill, record, 7), len(plan.checkpoints) > 0
(True, True)
"""
from __future__ import annotations

import random
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, replace
from typing import Any

from trainer.drills.along import snapshots_along
from trainer.drills.explain import DecidingPlay
from trainer.drills.gouji_priors import PRIORS
from trainer.drills.questions import Question, QuestionKey, drill_field, question_key, question_weights, rarely_zero
from trainer.engine.cards import Card, parse_cards, pretty_cards
from trainer.engine.errors import MalformedError
from trainer.gouji.facts import facts_json
from trainer.gouji.inference import infer_json
from trainer.gouji.plays import SMALL, TWO, VALUE_NAMES, VALUE_OF
from trainer.gouji.records import GoujiPosition, GoujiRecord
from trainer.gouji.rules import GoujiRules
from trainer.gouji.tracker import GoujiEvent, GoujiSnapshot, PlayView, public_events, tracker_for

GAME = "gouji"
CANDIDATES_PER_CHECKPOINT = 4
"""A plan tries this many candidate checkpoints per checkpoint it wants (many do not offer every memory part)."""
CHECKPOINT_KINDS = ("duitou", "round_end", "jokers", "random")
SIZE_SETTINGS = ("always", "ten", "never")
"""Whether the table shows other seats' card counts: always, at 10 or fewer (Q "等于或少于10张…应显示"),
or never (K "不报牌")."""
RANK_WORDS = {"BJ": ("大花（大王）", "big jokers (大花)"), "SJ": ("小花（小王）", "small jokers (小花)"),
              "2": ("钱（2）", "2s (钱)")}
RELATION_WORDS = {"下家": "next seat (下家)", "下手联邦": "next teammate (下手联邦)", "对头": "opposite (对头)",
                  "上手联邦": "previous teammate (上手联邦)", "上家": "previous seat (上家)"}
"""English for the relations of gouji.md §1 (the Chinese is the relation itself)."""
ASKED_RELATIONS = ("对头", "下家", "上家", "下手联邦", "上手联邦")
"""Seats asked about, the 对头 and the 下家 first (X "记住对头和下家所发出的牌点及牌型")."""


JOKER_RANKS = ("BJ", "SJ")


def _rank_words(rank: str) -> tuple[str, str]:
    return RANK_WORDS.get(rank, (rank, rank))


def rank_name(rank: str) -> str:
    """A rank of the §6 facts (`BJ`, `SJ`, `2`, `A` … `3`) as players name it: the jokers 大王 and 小王 as the
    cards name them (`Card.pretty`, which the web shows in the reader's language), the others as printed."""
    return Card.parse(rank).pretty if rank in JOKER_RANKS else rank


def position_words(at: str) -> dict[str, str]:
    """A position `R.K` as players say it, in Chinese and English: 第1轮第5手 / round 1, play 5; `R.0`, before
    round R's first play."""
    number, _, within = at.partition(".")
    if within == "0":
        return {"zh": f"第{number}轮开始前", "en": f"round {number}, before its first play"}
    return {"zh": f"第{number}轮第{within}手", "en": f"round {number}, play {within}"}


YES_NO = ("yes", "no")


def _yes_no(answer: bool) -> dict[str, Any]:
    return {"answer": "yes" if answer else "no",
            "options": [{"value": "yes", "label": {"zh": "是", "en": "yes"}},
                        {"value": "no", "label": {"zh": "否", "en": "no"}}]}


@dataclass(frozen=True)
class Context:
    """What a question is built from: the viewer's tier-1 facts, and tier 2 when a type needs it."""

    facts: dict[str, Any]
    snap: GoujiSnapshot
    _inference: list[dict[str, Any]]

    @property
    def inference(self) -> dict[str, Any]:
        """The tier-2 facts, computed once when first asked for."""
        if not self._inference:
            self._inference.append(infer_json(self.snap))
        return self._inference[0]

    def seat_of(self, relation: str) -> int:
        """The seat in `relation` to the viewer."""
        return next(int(q) for q, entry in self.facts["seats"].items() if entry["relation"] == relation)


def context(snap: GoujiSnapshot, at: str) -> Context:
    """The context of questions at one position."""
    return Context(facts_json(snap, at), snap, [])


Build = Callable[[Context, str], Question | None]
"""A question about one subject (a rank or a relation), or None when it does not apply."""


@dataclass(frozen=True)
class GoujiQuestionType:
    """How to ask one §6 field: its subjects and the question about one."""

    name: str
    subjects: tuple[str, ...]
    build: Build
    spread: int | None = None
    """How many memory parts (distances from the no-memory answer) the type asks about (`make_question`):
    below `NUMBER_SPREAD` a choice among that many answers, else a number; None: the type is asked wherever
    its answer differs from the opening's."""
    base: str = "table"
    """The no-memory answer: `table`, the answer with everything that left the table forgotten
    (`forgetful_snapshot`); `opening`, the answer at the first lead (the tier-2 types)."""
    clip: float | None = None
    """For a number type: the highest natural rate a memory part keeps for a subject in its round bucket
    (`clip_rate`); None: not clipped."""
    sign: int = 1
    """+1 when memory can only add to the no-memory answer (plays counted), −1 when it can only take away
    (cards still out)."""


def _number(name: str, fact: str, zh: str, en: str, value: Callable[[Context, str], int],
            applies: Callable[[Context, str], bool] = lambda c, s: True) -> Build:
    def build(ctx: Context, subject: str) -> Question | None:
        if not applies(ctx, subject):
            return None
        words = _rank_words(subject) if subject not in RELATION_WORDS else (subject, RELATION_WORDS[subject])
        return Question(name, "number", {"zh": zh.format(words[0]), "en": en.format(words[1])},
                        value(ctx, subject), fact, card=subject)
    return build


def _in_play(ctx: Context, relation: str) -> bool:
    return ctx.facts["seats"][str(ctx.seat_of(relation))]["out"] is None


def _yes_no_question(name: str, fact: str, zh: str, en: str, value: Callable[[Context, str], bool],
                     applies: Callable[[Context, str], bool] = lambda c, s: True) -> Build:
    def build(ctx: Context, subject: str) -> Question | None:
        if not applies(ctx, subject):
            return None
        words = (subject, RELATION_WORDS.get(subject, subject))
        return Question(name, "single", {"zh": zh.format(words[0]), "en": en.format(words[1])},
                        fact=fact, card=subject, **_yes_no(value(ctx, subject)))
    return build


GOUJI_RANKS = ("A", "K", "Q", "J", "10")
PLAIN_RANKS = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4")
"""The ranks asked about by count: not the 3s, held to the end (憋3) and so nearly always all still in hands."""
SET_PLAYED_RANKS = ("A", "K", "Q", "J")
"""The ranks whose 够级 sets played are asked: not the 10s (five of a kind), almost never played as a set."""
NUMBER_SPREAD = 6
"""A type with this spread or more is asked as a number (the no-memory answer is then right on 1 question in 8
at most); a smaller spread is asked as a choice among its `spread` possible answers (limit 1.5/k)."""
QUESTION_TYPES: dict[str, GoujiQuestionType] = {q.name: q for q in (
    GoujiQuestionType("sets_left", GOUJI_RANKS, _number(
        "sets_left", "gouji.max_sets_unseen", "外面最多还可能有几套{}的原版够级牌？",
        "At most how many original 够级 sets of {} could still be out?",
        lambda c, r: c.facts["gouji"][r]["max_sets_unseen"]), spread=3, sign=-1),
    GoujiQuestionType("sets_played", SET_PLAYED_RANKS, _number(
        "sets_played", "gouji.sets_played", "已经出了几套{}的够级牌？", "How many 够级 sets of {} have been played?",
        lambda c, r: c.facts["gouji"][r]["sets_played"]), spread=3),
    GoujiQuestionType("rank_unseen", PLAIN_RANKS, _number(
        "rank_unseen", "ranks.unseen", "外面还有几张{}（不算自己的）？", "How many {}s are still out (not in your hand)?",
        lambda c, r: c.facts["ranks"][r]["unseen"]), spread=NUMBER_SPREAD, clip=0.06, sign=-1),
    GoujiQuestionType("rank_in_hands", PLAIN_RANKS, _number(
        "rank_in_hands", "ranks.in_hands", "大家手里（连自己）还有几张{}？", "How many {}s are still in hands (yours too)?",
        lambda c, r: c.facts["ranks"][r]["in_hands"]), spread=NUMBER_SPREAD, clip=0.06, sign=-1),
    GoujiQuestionType("hua_qian_out", ("BJ", "SJ", "2"), _number(
        "hua_qian_out", "ranks.unseen", "外面还有几张{}？", "How many {} are still out?",
        lambda c, r: c.facts["ranks"][r]["unseen"]), spread=2, sign=-1),
    GoujiQuestionType("hua_qian_in_hands", ("BJ", "SJ", "2"), _number(
        "hua_qian_in_hands", "ranks.in_hands", "大家手里（连自己）还有几张{}？", "How many {} are still in hands (yours too)?",
        lambda c, r: c.facts["ranks"][r]["in_hands"]), spread=2, sign=-1),
    GoujiQuestionType("cards_left", ASKED_RELATIONS, _number(
        "cards_left", "hand_sizes", "{}还剩几张牌？", "How many cards does your {} hold?",
        lambda c, rel: c.facts["hand_sizes"][c.seat_of(rel)], _in_play), clip=0.06, sign=-1),
    GoujiQuestionType("jokers_shown", ASKED_RELATIONS, _number(
        "jokers_shown", "seats.shown", "{}已经出过几张花（大王、小王）？", "How many jokers has your {} played?",
        lambda c, rel: sum(c.facts["seats"][str(c.seat_of(rel))]["shown"][r] for r in ("BJ", "SJ"))), spread=2),
    GoujiQuestionType("gouji_plays", ASKED_RELATIONS, _number(
        "gouji_plays", "seats.gouji_plays", "{}已经出过几手够级牌？", "How many 够级 plays has your {} made?",
        lambda c, rel: len(c.facts["seats"][str(c.seat_of(rel))]["gouji_plays"])), spread=3),
    GoujiQuestionType("opened", ASKED_RELATIONS, _yes_no_question(
        "opened", "seats.opened", "{}开点了吗？", "Has your {} opened (开点)?",
        lambda c, rel: c.facts["seats"][str(c.seat_of(rel))]["opened"]), spread=2),
    GoujiQuestionType("higher_out", ("2", "A", "K", "Q", "J", "10"), _number(
        "higher_out", "higher_unseen", "比你的{}大的牌外面还有几张？", "How many cards above your {} are still out?",
        lambda c, r: c.facts["higher_unseen"][r], lambda c, r: c.facts["ranks"][r]["mine"] > 0)),
    GoujiQuestionType("can_hold_set", ASKED_RELATIONS, _yes_no_question(
        "can_hold_set", "inference.can_hold_set", "{}还可能有一套原版的Q够级牌吗？",
        "Could your {} still hold an original 够级 set of Qs?",
        lambda c, rel: "Q" in c.inference["can_hold_set"][str(c.seat_of(rel))], _in_play), spread=2, base="opening"),
    GoujiQuestionType("min_threes", ASKED_RELATIONS, _number(
        "min_threes", "inference.holdings", "{}手里至少有几张3？", "At least how many 3s does your {} hold?",
        lambda c, rel: c.inference["holdings"][str(c.seat_of(rel))]["3"][0], _in_play), spread=2, base="opening"),
)}
"""Every 够级 question type by name (gouji.md §7)."""


def count_shown(size: int, setting: str) -> int | None:
    """A seat's card count as a drill shows it (`hand_sizes`): always, at 10 or fewer, or never (K "不报牌")."""
    return size if setting == "always" or (setting == "ten" and size <= 10) else None


def make_question(kind: str, ctx: Context, rng: random.Random, opening: Context | None = None,
                  asked: Collection[QuestionKey] = (), hand_sizes: str = "never",
                  table: Context | None = None) -> Question | None:
    """A question of type `kind` here, or None when none applies. Without `opening`, the first subject that
    applies. With `opening` (the same seat's context at the first lead), only one the run has not `asked`
    (`question_key`), drawn so that the visible state does not give the answer (training.md §1):

    - a type with a `spread` k: each subject's *memory part* is its answer's distance from the no-memory
      answer (`base`: the answer in `table`, the context with what left the table forgotten, or the
      opening's). A choice (k < `NUMBER_SPREAD`) shows the k answers parts 0 … k−1 give, in order (a yes/no
      shuffled); one subject with a part below k is drawn and kept at its `acceptance`, so that for each
      subject in each round bucket every part, the one read off the table (0) too, comes up alike. A
      number is asked where the subjects offer k parts with k different answers (`_matching`), one part
      drawn uniformly among them, kept at its `clip_rate`;
    - the others (`cards_left`, `higher_out`): the first subject, relations in order and ranks drawn by
      `rng`, whose answer differs from the opening's, 0 giving way to other answers
      (`questions.rarely_zero`), never a card count the table shows (`count_shown` under `hand_sizes`),
      a clipped type's subject kept at its `clipped` rate."""
    qtype = QUESTION_TYPES[kind]
    if opening is not None and qtype.spread is not None:
        return _spread_question(qtype, ctx, rng, opening if qtype.base == "opening" else table or opening, asked)
    subjects = list(qtype.subjects)
    if subjects[0] not in RELATION_WORDS:
        rng.shuffle(subjects)
    found = []
    for subject in subjects:
        question = qtype.build(ctx, subject)
        if question is None:
            continue
        if opening is not None:
            trivial = qtype.build(opening, subject)
            if question.kind == "number" and trivial is not None and trivial.answer == question.answer \
                    or question_key(question) in asked \
                    or kind == "cards_left" and count_shown(question.answer, hand_sizes) is not None \
                    or qtype.clip is not None and table is not None \
                    and rng.random() >= clipped(qtype, ctx, table, subject):
                continue
        found.append(question)
        if opening is None:
            break
    if opening is not None:
        found = rarely_zero(found, rng)
    if not found:
        return None
    question = found[0]
    if question.kind == "single":
        question = replace(question, options=rng.sample(question.options, len(question.options)))
    return question


ROUND_BUCKETS = (1, 2, 4, 6, 9, 13, 18)
"""Upper ends of the round buckets the natural rates are counted in (`gouji_priors`; the last bucket is open)."""


def round_bucket(at: str) -> int:
    """The bucket of a position `R.K`'s round (the table shows the round number)."""
    number = int(at.partition(".")[0])
    return next((index for index, top in enumerate(ROUND_BUCKETS) if number <= top), len(ROUND_BUCKETS))


def memory_part(question: Question, base: Question, sign: int) -> int | None:
    """How far memory moves the answer from the no-memory one (`base`): for a yes/no 0 (the same) or 1; for
    a number `sign` × the difference, None when memory moved it the other way."""
    if question.kind == "single":
        return int(question.answer != base.answer)
    part = sign * (question.answer - base.answer)
    return part if part >= 0 else None


def _spread_question(qtype: GoujiQuestionType, ctx: Context, rng: random.Random, base_ctx: Context,
                     asked: Collection[QuestionKey]) -> Question | None:
    """`make_question` for a type with a spread k. A choice (k < `NUMBER_SPREAD`): a subject drawn among those
    whose memory part is below k, kept at its `acceptance`, so that every part comes up alike for each subject
    in each round bucket. A number: where its subjects offer at least k different parts with different
    answers (`_matching`), a part drawn uniformly among them and kept at its `clip_rate`."""
    spread = qtype.spread
    assert spread is not None
    draw = rng.random()
    if spread < NUMBER_SPREAD and draw >= max(acceptance(qtype, subject, ctx.facts["at"], part)
                                              for subject in qtype.subjects for part in seen_parts(qtype, subject,
                                                                                                   ctx.facts["at"])):
        return None
    by_part: dict[int, list[Question]] = {}
    for subject in qtype.subjects:
        question, base = qtype.build(ctx, subject), qtype.build(base_ctx, subject)
        if question is None or base is None:
            continue
        part = memory_part(question, base, qtype.sign)
        if part is None or spread < NUMBER_SPREAD and part >= spread:
            continue
        if question.kind == "number" and spread < NUMBER_SPREAD:
            values = sorted(base.answer + qtype.sign * step for step in range(spread))
            if values[0] < 0:
                continue
            question = replace(question, kind="single", answer=str(question.answer),
                               options=[{"value": str(v), "label": {"zh": str(v), "en": str(v)}} for v in values])
        if question_key(question) not in asked:
            by_part.setdefault(part, []).append(question)
    if spread >= NUMBER_SPREAD:
        by_part = _matching(by_part, rng)
        if len(by_part) < spread:
            return None
        part = rng.choice(sorted(by_part))
        question = by_part[part][0]
        return question if draw < clip_rate(qtype, question.card or "", ctx.facts["at"], part) else None
    found = [(part, question) for part, questions in sorted(by_part.items()) for question in questions]
    if not found:
        return None
    part, question = rng.choice(found)
    if draw >= acceptance(qtype, question.card or "", ctx.facts["at"], part):
        return None
    if question.options[0]["value"] in YES_NO:
        return replace(question, options=rng.sample(question.options, len(question.options)))
    return question


def clipped(qtype: GoujiQuestionType, ctx: Context, table: Context, subject: str) -> float:
    """How likely a subject of a clipped type asked by its first subject is kept (`clip_rate` of its memory
    part, its distance from the answer in `table`)."""
    question, base = qtype.build(ctx, subject), qtype.build(table, subject)
    if question is None or base is None:
        return 1.0
    part = memory_part(question, base, qtype.sign)
    return 1.0 if part is None else clip_rate(qtype, subject, ctx.facts["at"], part)


def clip_rate(qtype: GoujiQuestionType, subject: str, at: str, part: int) -> float:
    """1, or less where the memory part is common for the subject in its round bucket, so that no part keeps
    a natural rate above the type's `clip` (`gouji_priors.PRIORS`)."""
    counts = PRIORS.get((qtype.name, subject, round_bucket(at)), ())
    if qtype.clip is None or part >= len(counts) or not counts[part]:
        return 1.0
    return min(1.0, qtype.clip / (counts[part] / sum(counts)))


def seen_parts(qtype: GoujiQuestionType, subject: str, at: str) -> list[int]:
    """The memory parts below the spread that the natural rates saw for this subject in this round bucket
    (all of them when the bucket was not counted)."""
    assert qtype.spread is not None
    counts = PRIORS.get((qtype.name, subject, round_bucket(at)))
    if counts is None:
        return list(range(qtype.spread))
    return [part for part, count in enumerate(counts[:qtype.spread]) if count] or [0]


def acceptance(qtype: GoujiQuestionType, subject: str, at: str, part: int) -> float:
    """How likely a subject with memory part `part` is kept, so that among the questions asked about it in
    its round bucket every part 0 … k−1 comes up alike: the rarest part's natural rate over this part's
    (`gouji_priors.PRIORS`, counted over generated deals; half a count added to each)."""
    assert qtype.spread is not None
    counts = PRIORS.get((qtype.name, subject, round_bucket(at)), ())
    rates = [(counts[step] if step < len(counts) else 0) + 0.5 for step in range(qtype.spread)]
    return min(rates) / rates[part]


def _matching(by_part: dict[int, list[Question]], rng: random.Random) -> dict[int, list[Question]]:
    """Questions by memory part with no two parts and no two answers alike: a largest such choice (augmenting
    paths, parts in random order), so that neither the part nor the answer is over-represented."""
    owner: dict[Any, tuple[int, Question]] = {}

    def place(part: int, seen: set[Any]) -> bool:
        for question in rng.sample(by_part[part], len(by_part[part])):
            if question.answer in seen:
                continue
            seen.add(question.answer)
            if question.answer not in owner or place(owner[question.answer][0], seen):
                owner[question.answer] = (part, question)
                return True
        return False
    for part in rng.sample(sorted(by_part), len(by_part)):
        place(part, set())
    return {part: [question] for part, question in owner.values()}


def forgetful_snapshot(record: GoujiRecord, seat: int, actions: int, events: Sequence[GoujiEvent]
                       ) -> GoujiSnapshot:
    """What `seat` knows after `actions` actions with no memory: its own plays (its hand then and now) and the
    plays of the round on the table (the round of the last action), every earlier play of others forgotten,
    and a seat counted as opened only when it opened naturally or in that round."""
    tracker = tracker_for(record, seat)
    current = events[actions - 1].round if actions else 1
    before = tracker.view.opened
    for event in events[:actions]:
        if event.round < current:
            before = event.view.opened
        if event.seat == seat or event.round == current:
            tracker.observe(event)
    snap = tracker.snapshot()
    shown = snap.natural | snap.view.opened & ~before
    return snap._replace(view=snap.view._replace(opened=shown))


@dataclass(frozen=True)
class GoujiDrill:
    """One 够级 drill of the curriculum (the `Drill` of 升级, for six seats)."""

    id: str
    name: dict[str, str]
    description: dict[str, str]
    rules: GoujiRules
    questions: dict[str, float]
    checkpoint_kinds: tuple[str, ...]
    checkpoint_count: int
    cards_per_second: float
    answer_seconds: int
    hand_sizes: str
    order: int
    viewer: str = "any"
    game: str = GAME

    @classmethod
    def from_toml(cls, data: dict[str, Any], name: str) -> GoujiDrill:
        """A drill from parsed TOML; problems raise `MalformedError` naming the field."""
        def need(key: str) -> Any:
            return drill_field(data, key, name)

        questions = question_weights(data, name, QUESTION_TYPES, "够级 ")
        checkpoints = need("checkpoints")
        kinds = tuple(checkpoints.get("kinds", CHECKPOINT_KINDS))
        if not kinds or any(kind not in CHECKPOINT_KINDS for kind in kinds):
            raise MalformedError(f"drill {name}: checkpoints.kinds are among {', '.join(CHECKPOINT_KINDS)}")
        sizes = data.get("hand_sizes", "always")
        if sizes not in SIZE_SETTINGS:
            raise MalformedError(f"drill {name}: hand_sizes must be one of {', '.join(SIZE_SETTINGS)}")
        titles = need("name")
        return cls(id=need("id"), name={"zh": titles["zh"], "en": titles["en"]},
                   description=data.get("description", {"zh": "", "en": ""}),
                   rules=GoujiRules.parse(data.get("rules", "standard")), questions=questions,
                   checkpoint_kinds=kinds, checkpoint_count=int(checkpoints.get("count", 6)),
                   cards_per_second=float(data.get("cards_per_second", 3.0)),
                   answer_seconds=int(data.get("answer_seconds", 45)), hand_sizes=sizes,
                   order=int(data.get("order", 99)))

    def pick_type(self, rng: random.Random) -> str:
        """A question type drawn by the drill's weights."""
        kinds = list(self.questions)
        return rng.choices(kinds, weights=[self.questions[k] for k in kinds])[0]

    def candidates(self, record: GoujiRecord, seat: int, events: Sequence[GoujiEvent]) -> list[int]:
        """Every action count the drill's checkpoint kinds stop at (ascending, not the end of the hand)."""
        rules = record.rules
        found: set[int] = set()
        for count, event in enumerate(events, start=1):
            view = event.view
            if view.next is None:
                continue
            if "duitou" in self.checkpoint_kinds and view.mode == "gouji" and view.next == seat \
                    and view.top_seat is not None and rules.duitou(view.top_seat) == seat:
                found.add(count)
            if "round_end" in self.checkpoint_kinds and view.actions == 0:
                found.add(count)
            if "jokers" in self.checkpoint_kinds and any(v >= TWO for v in _values(event)):
                found.add(count)
        if "random" in self.checkpoint_kinds:
            found.update(range(1, len(events)))
        return sorted(found)


def _values(event: GoujiEvent) -> list[int]:
    return [VALUE_OF[card.index] for card in event.cards]


@dataclass(frozen=True, slots=True)
class GoujiPlan:
    """Where a 够级 run is watched from and where it stops (action counts, ascending)."""

    seat: int
    checkpoints: list[int]


def snapshot_after(record: GoujiRecord, seat: int, actions: int, events: Sequence[GoujiEvent]) -> GoujiSnapshot:
    """What `seat` knows after `actions` actions (the events made once per deal by the caller)."""
    tracker = tracker_for(record, seat)
    for event in events[:actions]:
        tracker.observe(event)
    return tracker.snapshot()


def snapshots_after(record: GoujiRecord, seat: int, counts: Sequence[int], events: Sequence[GoujiEvent]
                    ) -> list[GoujiSnapshot]:
    """What `seat` knows after each of `counts` actions (ascending), from one replay: `snapshot_after` of each."""
    tracker = tracker_for(record, seat)
    return snapshots_along(tracker, events, counts, lambda _actions: tracker.snapshot())


def position_after(record: GoujiRecord, actions: int) -> GoujiPosition:
    """The position `R.K` after `actions` actions."""
    return GoujiPosition.after(actions, record)


def plan_run(drill: GoujiDrill, record: GoujiRecord, seed: int, events: Sequence[GoujiEvent] | None = None
             ) -> GoujiPlan:
    """The viewer seat and up to `checkpoint_count` checkpoints drawn by `seed` among the drill's kinds,
    keeping, in order, those where one of its question types has an informative question the run has not
    asked (`question_at`, strict), so that `run_questions` asks exactly those."""
    rng = random.Random(seed)
    events = list(public_events(record)) if events is None else events
    seat = rng.randrange(record.rules.players)
    candidates = drill.candidates(record, seat, events)
    chosen = sorted(rng.sample(candidates, min(len(candidates), drill.checkpoint_count * CANDIDATES_PER_CHECKPOINT)))
    kept = _kept(drill, record, seat, seed, events, chosen)
    if not kept:
        kept = _kept(drill, record, seat, seed, events, candidates)
    return GoujiPlan(seat, kept)


def _kept(drill: GoujiDrill, record: GoujiRecord, seat: int, seed: int, events: Sequence[GoujiEvent],
          chosen: Sequence[int]) -> list[int]:
    """The first `checkpoint_count` of `chosen` (ascending) where the run would ask a question."""
    first, *snaps = snapshots_after(record, seat, [0, *chosen], events)
    opening = context(first, "1.0")
    kept: list[int] = []
    asked: set[QuestionKey] = set()
    for actions, snap in zip(chosen, snaps, strict=True):
        found = question_at(drill, record, seat, actions, seed, len(kept), events, snap, opening, asked, strict=True)
        if found is not None:
            kept.append(actions)
            asked.add(question_key(found.question))
        if len(kept) == drill.checkpoint_count:
            break
    return kept


def contexts_at(record: GoujiRecord, seat: int, actions: int, events: Sequence[GoujiEvent], snap: GoujiSnapshot
                ) -> tuple[Context, Context]:
    """The context of questions after `actions` actions (`snap`: what `seat` knows then) and its forgetful
    twin (`forgetful_snapshot`: the no-memory answers)."""
    at = str(position_after(record, actions))
    return context(snap, at), context(forgetful_snapshot(record, seat, actions, events), at)


@dataclass(frozen=True, slots=True)
class GoujiAsked:
    """A checkpoint's question with what it was computed from."""

    question: Question
    snapshot: GoujiSnapshot
    facts: dict[str, Any]
    position: GoujiPosition


def question_at(drill: GoujiDrill, record: GoujiRecord, seat: int, actions: int, seed: int, index: int,
                events: Sequence[GoujiEvent], snap: GoujiSnapshot | None = None,
                opening: Context | None = None, asked: Collection[QuestionKey] = (), strict: bool = False
                ) -> GoujiAsked | None:
    """The question at checkpoint `index` (after `actions` actions): a type drawn by the drill's weights
    from a generator seeded by (seed, index); when it has no informative question here, the drill's other
    types, heaviest first; when none has, None if `strict`, else the 对头's card count as it is (the A's count
    when the 对头 is out; `plan_run` keeps only checkpoints where one has, so a run never gets it). `snap` (what `seat` knows then) and
    `opening` (its context at the first lead) when the caller has them."""
    position = position_after(record, actions)
    if snap is None:
        snap = snapshot_after(record, seat, actions, events)
    ctx, table = contexts_at(record, seat, actions, events, snap)
    if opening is None:
        opening = context(snapshot_after(record, seat, 0, events), "1.0")
    rng = random.Random(f"{seed}:{index}")
    picked = drill.pick_type(rng)
    others = sorted((k for k in drill.questions if k != picked), key=lambda k: (-drill.questions[k], k))
    for kind in [picked, *others]:
        question = make_question(kind, ctx, rng, opening, asked, drill.hand_sizes, table)
        if question is not None:
            return GoujiAsked(question, snap, ctx.facts, position)
    if strict:
        return None
    fallback = QUESTION_TYPES["cards_left"].build(ctx, "对头") or QUESTION_TYPES["rank_unseen"].build(ctx, "A")
    assert fallback is not None
    return GoujiAsked(fallback, snap, ctx.facts, position)


def run_questions(drill: GoujiDrill, record: GoujiRecord, seat: int, checkpoints: Sequence[int], seed: int,
                  events: Sequence[GoujiEvent], count: int | None = None) -> list[GoujiAsked]:
    """The questions of a run at its first `count` checkpoints (all by default), in order: each the
    `question_at` of its checkpoint, never one asked before in the run (as `runs.run_questions` for 升级)."""
    chosen = list(checkpoints[:count] if count is not None else checkpoints)
    first, *snaps = snapshots_after(record, seat, [0, *chosen], events)
    opening = context(first, "1.0")
    found: list[GoujiAsked] = []
    for index, (actions, snap) in enumerate(zip(chosen, snaps, strict=True)):
        asked = question_at(drill, record, seat, actions, seed, index, events, snap, opening,
                            {question_key(a.question) for a in found})
        assert asked is not None
        found.append(asked)
    return found


def _lines() -> tuple[dict[str, list[str]], Callable[[str, str], None]]:
    lines: dict[str, list[str]] = {"zh": [], "en": []}

    def line(chinese: str, english: str) -> None:
        lines["zh"].append(chinese)
        lines["en"].append(english)
    return lines, line


def rank_lines(facts: dict[str, Any], rank: str) -> dict[str, list[str]]:
    """One rank's §6 counts in words (zh and en): total, played, mine, out, in hands, and its 够级 sets."""
    lines, line = _lines()
    entry, name = facts["ranks"][rank], rank_name(rank)
    line(f"{name}：共{entry['total']}张，已出{entry['played']}张，自己{entry['mine']}张，外面{entry['unseen']}张",
         f"{name}: {entry['total']} in the decks, {entry['played']} played, {entry['mine']} in your hand, "
         f"{entry['unseen']} out")
    line(f"手里（连自己）还有{entry['in_hands']}张 = 共{entry['total']} − 已出{entry['played']}",
         f"still in hands (yours too): {entry['in_hands']} = {entry['total']} − {entry['played']} played")
    if rank in facts["gouji"]:
        gouji = facts["gouji"][rank]
        line(f"{rank}的够级要{gouji['threshold']}张：外面最多{gouji['max_sets_unseen']}套；"
             f"已出{gouji['sets_played']}套够级（原版{gouji['original_played']}套）",
             f"a 够级 set of {rank} needs {gouji['threshold']}: at most {gouji['max_sets_unseen']} sets out; "
             f"{gouji['sets_played']} 够级 sets played ({gouji['original_played']} original)")
    return lines


def seat_lines(facts: dict[str, Any], seat: int, gouji_only: bool = False) -> dict[str, list[str]]:
    """What one seat has shown, in words (zh and en): its plays (only its 够级 plays with `gouji_only`), each
    with its position and its cards as players name them, its cards left, whether it opened."""
    lines, line = _lines()
    entry = facts["seats"][str(seat)]
    relation = entry["relation"]
    plays = entry["gouji_plays"] if gouji_only else entry["plays"]

    def shown(language: str, between: str, separator: str) -> str:
        return separator.join(f"{position_words(p['at'])[language]}{between}{pretty_cards(parse_cards(p['cards']))}"
                              for p in plays) or "—"
    line(f"{relation}（座位{seat}）出过：{shown('zh', ' ', '；')}",
         f"your {RELATION_WORDS.get(relation, relation)} (seat {seat}) played: {shown('en', ': ', '; ')}")
    line(f"还剩{facts['hand_sizes'][seat]}张", f"{facts['hand_sizes'][seat]} cards left")
    line("已开点" if entry["opened"] else "还没开点", "opened" if entry["opened"] else "not opened yet")
    return lines


DECIDING_MAX = 8
"""An explanation names at most this many deciding plays, the earliest (memory loses them first)."""
PLAIN_VALUES = {name: value for value, name in VALUE_NAMES.items()}
"""A rank's value (3 … 17) by the name the facts use."""


def _deciding_filter(question: Question, ctx: Context) -> Callable[[PlayView], bool]:
    """Which earlier plays decide `question`'s answer: the plays a counter has to have seen (the round on
    the table shows the rest)."""
    kind, subject, viewer = question.type, question.card or "", ctx.snap.seat
    if subject in RELATION_WORDS:
        seat = ctx.seat_of(subject)
        if kind in ("can_hold_set", "min_threes"):
            value = PLAIN_VALUES["Q" if kind == "can_hold_set" else "3"]
            return lambda play: any(VALUE_OF[card.index] == value for card in play.cards)
        if kind == "jokers_shown":
            return lambda play: play.seat == seat and any(VALUE_OF[card.index] >= SMALL for card in play.cards)
        if kind in ("gouji_plays", "opened"):
            return lambda play: play.seat == seat and play.gouji
        return lambda play: play.seat == seat
    value = PLAIN_VALUES[subject]
    if kind == "sets_played":
        return lambda play: play.gouji and play.base == value
    if kind == "higher_out":
        return lambda play: play.seat != viewer and any(VALUE_OF[card.index] > value for card in play.cards)
    others = kind not in ("rank_in_hands", "hua_qian_in_hands")
    return lambda play: (play.seat != viewer or not others) and any(VALUE_OF[card.index] == value
                                                                    for card in play.cards)


def deciding_plays(question: Question, ctx: Context, language: str) -> list[DecidingPlay]:
    """The plays that decide `question`'s answer, earliest first (at most `DECIDING_MAX`), each naming its 轮
    and the seat by relation in `language` (zh: 第3轮 对头出了K K K; en: round 3: your opposite (对头) played
    K K K): the earlier rounds' plays that count for it (`_deciding_filter`)."""
    current = int(ctx.facts["at"].partition(".")[0])  # the round on the table (`forgetful_snapshot`'s)
    wanted = _deciding_filter(question, ctx)
    found = []
    for play in ctx.snap.plays:
        if play.round >= current or not wanted(play):
            continue
        relation = ctx.snap.rules.relation(play.seat, ctx.snap.seat)
        cards = pretty_cards(play.cards)
        if language == "zh":
            line = f"第{play.round}轮 {'自己' if relation == 'me' else relation}出了{cards}"
        else:
            who = "you" if relation == "me" else f"your {RELATION_WORDS.get(relation, relation)}"
            line = f"round {play.round}: {who} played {cards}"
        found.append(DecidingPlay(play.round, play.seat, line))
    return found[:DECIDING_MAX]


def explain(question: Question, ctx: Context) -> dict[str, list[str]]:
    """Why the answer is right, in Chinese and English: the §6 counts it comes from, one line each."""
    facts, subject = ctx.facts, question.card or ""
    kind = question.type
    if kind in ("sets_left", "sets_played", "rank_unseen", "rank_in_hands", "hua_qian_out", "hua_qian_in_hands"):
        return rank_lines(facts, subject)
    lines, line = _lines()
    if kind == "higher_out":
        above = [(name, entry["unseen"]) for name, entry in facts["ranks"].items()]
        index = [name for name, _ in above].index(subject)
        parts = [f"{rank_name(name)}×{count}" for name, count in above[:index]]
        line(f"比{subject}大的外面还有：{'，'.join(parts)}，共{facts['higher_unseen'][subject]}张",
             f"out above {subject}: {', '.join(parts)}; {facts['higher_unseen'][subject]} in all")
    elif kind in ("cards_left", "jokers_shown", "gouji_plays", "opened"):
        return seat_lines(facts, ctx.seat_of(subject), gouji_only=kind == "gouji_plays")
    else:
        seat = ctx.seat_of(subject)
        bounds = ctx.inference["holdings"][str(seat)]
        wanted = "3" if kind == "min_threes" else "Q"
        low, high = bounds[wanted]
        line(f"按所有可能的分牌（手牌张数、憋3、买3、自然开点），{subject}有{low}到{high}张{wanted}",
             f"over every deal of the unseen cards that fits (hand sizes, 憋3, 买3, natural opening) your "
             f"{RELATION_WORDS[subject]} holds {low} to {high} {wanted}s")
    return lines


__all__ = ["GoujiDrill", "GoujiPlan", "GoujiAsked", "QUESTION_TYPES", "make_question", "plan_run", "question_at",
           "snapshot_after", "position_after", "context", "Context", "explain", "deciding_plays", "rank_lines", "seat_lines", "rank_name",
           "position_words"]
