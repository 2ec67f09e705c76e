"""Questions: one tracking.md tier-1 field asked in words from the viewer's seat, graded exactly.

A `Question` is plain data (it is stored with each attempt): its type, the suit or card it is
about, the prompt in Chinese and English, the answer kind (`number`, `multi`, `single`), the
options, the exact answer, and the tracker fact that explains it.
"""
from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from trainer.engine.cards import Card
from trainer.tracking.tracker import Snapshot

SUIT_WORDS = {"S": ("黑桃♠", "♠ spades"), "H": ("红桃♥", "♥ hearts"), "C": ("梅花♣", "♣ clubs"),
              "D": ("方块♦", "♦ diamonds"), "trump": ("主牌", "trumps")}
RELATIVE = {1: ("下家", "next (下家)"), 2: ("对家", "partner (对家)"), 3: ("上家", "previous (上家)")}
YES_NO = [{"value": "yes", "label": {"zh": "是", "en": "yes"}}, {"value": "no", "label": {"zh": "否", "en": "no"}}]


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
        return str(given) == self.answer

    def answer_text(self, lang: str) -> str:
        """The right answer in words."""
        if self.kind == "number":
            return str(self.answer)
        labels = {o["value"]: o["label"][lang] for o in self.options}
        if self.kind == "multi":
            return "、".join(labels.get(v, v) for v in self.answer) or ("无" if lang == "zh" else "none")
        return labels.get(self.answer, self.answer)


def _face_option(name: str) -> dict[str, Any]:
    pretty = Card.parse(name).pretty
    return {"value": name, "label": {"zh": pretty, "en": pretty}}


def _seat_options(viewer: int) -> list[dict[str, Any]]:
    return [{"value": str((viewer + k) % 4), "label": {"zh": RELATIVE[k][0], "en": RELATIVE[k][1]}}
            for k in (1, 2, 3)]


Builder = Callable[[dict[str, Any], Snapshot, random.Random], Question | None]
QUESTION_TYPES: dict[str, Builder] = {}
"""Every question type by name."""


def question_type(name: str) -> Callable[[Builder], Builder]:
    """Register a question builder under `name`."""
    def register(builder: Builder) -> Builder:
        QUESTION_TYPES[name] = builder
        return builder
    return register


def _pick_suit(facts: dict[str, Any], rng: random.Random, usable: Callable[[dict[str, Any]], bool],
               side_only: bool = False) -> str | None:
    suits = [s for s, entry in facts["suits"].items() if usable(entry) and not (side_only and s == "trump")]
    return rng.choice(suits) if suits else None


@question_type("big_trumps_out")
def _big_trumps_out(facts: dict[str, Any], snap: Snapshot, rng: random.Random) -> Question:
    top = facts["trumps"]["top"]
    return Question("big_trumps_out", "multi", {"zh": "哪些大主还在外面？", "en": "Which big trumps are still out?"},
                    [name for name, copies in top.items() if copies >= 1], "trumps.top",
                    options=[_face_option(name) for name in top])


def _plain_number(name: str, zh: str, en: str, fact: str, value: Callable[[dict[str, Any]], int]) -> None:
    """Register a question whose answer is one number of the facts."""
    def build(facts: dict[str, Any], snap: Snapshot, rng: random.Random) -> Question:
        return Question(name, "number", {"zh": zh, "en": en}, value(facts), fact)
    QUESTION_TYPES[name] = build


_plain_number("trumps_unseen", "外面还有几张主？", "How many trumps are still out?", "trumps.unseen",
              lambda facts: facts["trumps"]["unseen"])
_plain_number("trumps_played", "已经出了几张主？", "How many trumps have been played?", "trumps.played",
              lambda facts: facts["trumps"]["played"])
_plain_number("constant_trumps_out", "外面还有几张常主（王和级牌）？",
              "How many jokers and level cards are still out?", "trumps.top",
              lambda facts: sum(facts["trumps"]["top"].values()))
_plain_number("attackers_score", "闲家现在有多少分？", "How many points do the attackers have?", "score",
              lambda facts: facts["score"]["attackers"])
_plain_number("to_take_over", "闲家还差多少分上台？", "How many more points do the attackers need to take over?",
              "score", lambda facts: facts["score"]["to_take_over"])


def _seats_with(name: str, key: str, zh: str, en: str) -> None:
    """Register a question asking which other seats have a suit listed under `key` (voids, no_pairs)."""
    def build(facts: dict[str, Any], snap: Snapshot, rng: random.Random) -> Question:
        suit = rng.choice(list(facts["suits"]))
        words = SUIT_WORDS[suit]
        return Question(name, "multi", {"zh": zh.format(words[0]), "en": en.format(words[1])},
                        [q for q, suits in facts[key].items() if suit in suits], key, suit=suit,
                        options=_seat_options(snap.seat))
    QUESTION_TYPES[name] = build


_seats_with("voids", "voids", "谁{}绝门了？", "Who is void in {}?")
_seats_with("no_pairs", "no_pairs", "谁已经表明{}没有对子？", "Who has shown to hold no pair in {}?")


def _suit_number(name: str, key: str, zh: str, en: str, field_name: str,
                 usable: Callable[[dict[str, Any]], bool] = lambda entry: True) -> None:
    def build(facts: dict[str, Any], snap: Snapshot, rng: random.Random) -> Question | None:
        suit = _pick_suit(facts, rng, usable)
        if suit is None:
            return None
        words = SUIT_WORDS[suit]
        return Question(name, "number", {"zh": zh.format(words[0]), "en": en.format(words[1])},
                        facts["suits"][suit][key], field_name, suit=suit)
    QUESTION_TYPES[name] = build


_suit_number("points_unplayed", "points_unplayed", "{}还剩几分没出？", "How many points of {} are not played yet?",
             "suits.points_unplayed")
_suit_number("points_unseen", "points_unseen", "{}外面还有几分（不算自己的）？",
             "How many points of {} are out (not in your hand)?", "suits.points_unseen")
_suit_number("suit_played", "played", "{}已经出了几张？", "How many {} have been played?", "suits.played")
_suit_number("suit_unseen", "unseen", "{}外面还有几张？", "How many {} are still out?", "suits.unseen")


@question_type("point_cards_out")
def _point_cards_out(facts: dict[str, Any], snap: Snapshot, rng: random.Random) -> Question | None:
    ctx = snap.ctx
    suit = _pick_suit(facts, rng, lambda entry: entry["points_unplayed"] > 0, side_only=True)
    if suit is None:
        return None
    faces = [str(Card.from_index(f)) for f in ctx.faces_by_suit[("S", "H", "C", "D").index(suit)]
             if Card.from_index(f).points]
    unseen = set(facts["suits"][suit]["unseen_cards"])
    words = SUIT_WORDS[suit]
    return Question("point_cards_out", "multi", {"zh": f"{words[0]}的哪些分牌还在外面？",
                                                 "en": f"Which point cards of {words[1]} are still out?"},
                    [f for f in faces if f in unseen], "suits.points_unseen", suit=suit,
                    options=[_face_option(f) for f in faces])


@question_type("live_pairs")
def _live_pairs(facts: dict[str, Any], snap: Snapshot, rng: random.Random) -> Question | None:
    suit = _pick_suit(facts, rng, lambda entry: entry["unseen"] >= 2)
    if suit is None:
        return None
    entry = facts["suits"][suit]
    faces = list(dict.fromkeys(entry["unseen_cards"]))
    words = SUIT_WORDS[suit]
    return Question("live_pairs", "multi", {"zh": f"{words[0]}哪些对子还可能在别人手里？",
                                            "en": f"Which pairs of {words[1]} could another player still hold?"},
                    entry["live_pairs"], "suits.live_pairs", suit=suit, options=[_face_option(f) for f in faces])


@question_type("live_tractor")
def _live_tractor(facts: dict[str, Any], snap: Snapshot, rng: random.Random) -> Question | None:
    suit = _pick_suit(facts, rng, lambda entry: entry["unseen"] >= 4)
    if suit is None:
        return None
    words = SUIT_WORDS[suit]
    return Question("live_tractor", "single", {"zh": f"别人还可能有{words[0]}拖拉机吗？",
                                               "en": f"Could another player still hold a tractor in {words[1]}?"},
                    "yes" if facts["suits"][suit]["live_tractors"] else "no", "suits.live_tractors", suit=suit,
                    options=YES_NO)


@question_type("top_in_play")
def _top_in_play(facts: dict[str, Any], snap: Snapshot, rng: random.Random) -> Question | None:
    suit = _pick_suit(facts, rng, lambda entry: bool(entry["top_in_play"]))
    if suit is None:
        return None
    entry = facts["suits"][suit]
    faces = list(dict.fromkeys([f for f in entry["unseen_cards"]] + list(entry["higher_than_mine"])))
    faces.sort(key=lambda name: snap.ctx.sort_key[Card.parse(name).index])
    words = SUIT_WORDS[suit]
    return Question("top_in_play", "multi", {"zh": f"{words[0]}现在最大的是哪张？", "en": f"What is the biggest {words[1]} left?"},
                    entry["top_in_play"], "suits.top_in_play", suit=suit, options=[_face_option(f) for f in faces])


@question_type("is_boss")
def _is_boss(facts: dict[str, Any], snap: Snapshot, rng: random.Random) -> Question | None:
    mine = [(suit, name, count) for suit, entry in facts["suits"].items() for name, count in entry["higher_than_mine"].items()]
    if not mine:
        return None
    suit, name, count = rng.choice(mine)
    pretty = Card.parse(name).pretty
    return Question("is_boss", "single", {"zh": f"你的{pretty}现在是最大的吗？", "en": f"Is your {pretty} the boss now?"},
                    "yes" if count == 0 else "no", "suits.higher_than_mine", suit=suit, card=name, options=YES_NO)


def make_question(kind: str, facts: dict[str, Any], snap: Snapshot, rng: random.Random) -> Question | None:
    """A question of type `kind` at this position, or None when it does not apply here."""
    return QUESTION_TYPES[kind](facts, snap, rng)
