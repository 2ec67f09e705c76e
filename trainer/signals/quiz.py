"""Signal-convention quizzes (signals.md "Quiz kinds") as pure functions of a deal, a seat, a convention
set and a seed, so the web app, its tests and a survey ask the same questions.

The positions come from the moment detector (`trainer.signals.moments`) on real deals: a run replays a
deal from one seat and stops at that seat's signal moments. The kinds, each a question type
`signal:<kind>` (the skill a review or a daily queue files a mistake under):

- `respond` — partner (or, in no trump, an opponent) leads a single card: which of two of my cards do I
  play, one the convention allows and one it does not (answer kind `one_of`)?
- `interpret` — what did 对家's card on my lead say (the A, the K-ask, the 5-lead), what did the order
  of 对家's discards on my multi-card lead say, what does the banker's trump lead ask of me?
- `discard` — partner leads two or more cards of a side suit: in which order do I lay mine?
- `pass` — after partner signalled on my A: must I pass the suit now (the feedback names the exception)?
- `legal` — is a table behaviour around a play of the trick just ended (timing, "离开", chat like "555",
  or a public convention) a legal signal? Only the cards tell legally (seed 001 一); asked at trick ends.

Every question needs the convention as a counting question needs memory (training.md §1, docs/decisions.md
"Issue 22/23 (branch sigq)"): it shows the right answer beside wrong ones drawn so that no option value is
right more often than another where it is shown, in an order drawn from the seed; rules right more often
than the others where they may be are thinned (`KEPT`); a run never asks a question (type, subject,
answer: `question_key`) twice.

Every question keeps in its `fact` the op, the rule that decided it and the convention set
(`op:rule:set`), so feedback and review can name the rule and quote the convention.
"""
from __future__ import annotations

import dataclasses
import hashlib
import random
import tomllib
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import islice, permutations
from pathlib import Path
from typing import Any

from trainer.drills.definitions import DRILLS_DIR, Drill
from trainer.drills.explain import DecidingPlay
from trainer.drills.questions import RELATIVE, SUIT_WORDS, Question, question_key
from trainer.drills.runs import Asked, asked_again, position_after
from trainer.engine.cards import Card, parse_cards, pretty_cards
from trainer.engine.errors import MalformedError
from trainer.engine.rules import Rules
from trainer.engine.trump import TRUMP
from trainer.records import DealRecord, Position
from trainer.signals.conventions import Convention
from trainer.signals.moments import Moment, find_moments
from trainer.signals.reasons import reason_text
from trainer.signals.rules import discard_order, in_suit
from trainer.tracking.tracker import PlayEvent

QUIZ_KINDS = ("respond", "interpret", "discard", "pass", "legal")
QUESTION_TYPES = tuple(f"signal:{kind}" for kind in QUIZ_KINDS)
"""The question type (and review skill) of each quiz kind."""
MOMENT_KINDS = {"respond": "respond", "interpret": "interpret", "discard_order": "interpret",
                "opening": "interpret", "discard_play": "discard", "pass": "pass"}
"""The quiz kind that asks about each kind of moment."""

LEADER_OPTIONS = {14: ("has_other_A", "no_A", "cannot_tell"), 13: ("has_other_K", "no_K", "cannot_tell")}
"""What partner's card on my A or K lead can say. Partner playing the other A or K itself (and the 5-lead's
answer, the K or not) is on the table: never asked."""
MEANINGS = {
    "has_other_A": ("有另一张A", "holds the other A"),
    "no_A": ("没有A", "has no A"),
    "played_other_A": ("直接出了另一张A", "played the other A itself"),
    "has_other_K": ("有另一张K", "holds the other K"),
    "no_K": ("没有K", "has no K"),
    "played_other_K": ("出了K", "played the K"),
    "cannot_tell": ("无法判断（可能只是走分）", "cannot tell (it may be just points)"),
    "void": ("已断门", "void in the suit"),
    "yes": ("有A或已断门", "an A of the suit, or now void in it"),
    "no": ("既没有A也没断门", "neither an A nor void"),
    "holds_A": ("还有A", "still holds an A of the suit"),
}
"""What a partner's card or discards can say, in 中文 and English."""
REQUESTS = {
    "help_draw_trumps": ("帮庄吊主（可以先出几张大副牌）", "help draw trumps (a few top side cards first is fine)"),
    "strong_draw": ("全力吊主，不先出副牌", "draw trumps now, no side cards first"),
    "no_side_suits": ("不要再出副牌，全力助其吊主", "no more side suits: help draw trumps"),
    "none": ("没有要求", "nothing"),
}
"""What the banker's trump lead can ask (signals.md `opening_request`)."""
PASS_OPTIONS = {
    "pass": ("传：现在出该门小牌给对家", "Pass: lead a small card of the suit to partner now"),
    "keep": ("不传：有不传的理由（三(一)的九种情况之一）", "Keep: one of the nine exceptions lets me keep the suit"),
}
"""The pass decision: pass now, or keep the suit (one of the nine exceptions of seed 001 三(一), named in the
feedback)."""

LEGAL_RULE = ("合法信息是在出牌过程中传递的正常技巧的信息，或者是同伴间的某些公开约定。凡不是通过合法信息传递的牌情信息均属非法信息，"
              "如通过异常的表情、动作、手势、眼神、出牌速度和牌张摆向及利用密约打出的无道理出牌等。（种子001 一）",
              "Legal information is what the cards played tell by normal technique, or a partnership's public "
              "convention. Any other way of telling about the cards is illegal: unusual faces, movements, "
              "gestures, glances, the speed of play, how a card is laid down, or senseless plays by secret "
              "agreement (seed 001 一).")
"""Seed 001 一 (合法信息、非法信息), quoted in the feedback of every `legal` question."""
LEGAL_WAYS: tuple[tuple[str, str], ...] = (
    ("第{n}轮{who_zh}出{card}：按你们公开的约定（{name}），这张牌本身告诉对家有没有另一张A。",
     "Trick {n}: {who_en} played {card}; by your public convention ({name}) the card itself tells partner whether "
     "they hold the other A."),
    ("第{n}轮{who_zh}出{card}：垫牌的先后按你们公开的垫牌约定（{discard}）排好，顺序本身就是信号。",
     "Trick {n}: {who_en} played {card}, laying the discards in the order your public discard convention "
     "({discard}) gives: the order itself is the signal."),
    ("第{n}轮{who_zh}出{card}走分：没有大牌就给分，这是出牌本身的正常技巧。",
     "Trick {n}: {who_en} played {card} to give points: without a top card, giving points is normal technique "
     "told by the play itself."),
    ("第{n}轮{who_zh}出{card}：庄家按公开约定首引主牌要求清主，{who_zh}照约定跟出。",
     "Trick {n}: {who_en} played {card} as your public convention asks after the banker's trump-draw request."),
)
"""Table behaviours that are legal: public conventions and normal technique told by the cards (seed 001 一)."""
CHEATS: tuple[tuple[str, str], ...] = (
    ("第{n}轮{who_zh}出{card}之前故意拖延了很久，暗示手里没有A。",
     "Trick {n}: before playing {card}, {who_en} waited a long time on purpose to hint at having no A."),
    ("第{n}轮{who_zh}点了“离开”，让系统代出{card}，暗示手里有A。",
     "Trick {n}: {who_en} clicked “离开” (leave) so the system played {card}, to hint at holding the A."),
    ("第{n}轮{who_zh}出{card}之前在聊天框打了“555”。",
     "Trick {n}: {who_en} typed “555” in the chat before playing {card}."),
    ("第{n}轮{who_zh}把{card}横着放在桌上，让对家注意这一门。",
     "Trick {n}: {who_en} laid {card} sideways on the table so partner would notice the suit."),
    ("第{n}轮{who_zh}出{card}时皱眉叹气，看了对家一眼。",
     "Trick {n}: {who_en} frowned, sighed and glanced at partner while playing {card}."),
    ("第{n}轮{who_zh}按事先的密约出了毫无道理的{card}，表示手里有大王。",
     "Trick {n}: by a secret agreement {who_en} played a senseless {card} to say they hold the Big Joker."),
    ("第{n}轮{who_zh}飞快地出了{card}：出得快表示有A，出得慢表示没有。",
     "Trick {n}: {who_en} played {card} at once: fast means holding the A, slow means not."),
)
"""Table behaviours that are illegal information (seed 001 一): timing, “离开”, chat, gestures, secret agreements."""
LEGAL_OPTIONS = {"legal": ("合法：公开约定，靠出牌本身传递", "Legal: a public convention, told by the cards played"),
                 "illegal": ("非法信息（作弊）", "Illegal information (cheating)")}
SIGNAL_DRILLS_DIR = DRILLS_DIR / "signal_drills"
"""Where the signal drills of the curriculum live (信号: 应A, 看信号, 垫牌, 传牌, 复盘, 合法吗)."""
MAX_WRONG_ORDERS = 1
"""A discard question shows one right order and this many wrong ones."""
RESPOND_WRONG = 1
"""A respond question shows one card the convention allows and this many it does not."""
PRIOR = {"has_other_A": 1.0, "no_A": 1.0, "has_other_K": 1.0, "no_K": 1.0, "cannot_tell": 0.15,
         "help_draw_trumps": 0.1, "strong_draw": 1.0, "no_side_suits": 0.2, "none": 0.2}
"""Roughly how often each meaning or request is the right answer where it may be (bot deals under the shipped
sets): a question's distractor is drawn by it, so a rare answer is shown about as often wrong as right."""


@dataclass(frozen=True)
class SignalDrill(Drill):
    """A drill of signal quizzes: the quiz kinds it asks, at most `checkpoint_count` a run."""

    kinds: tuple[str, ...] = ()

    @classmethod
    def from_toml(cls, data: dict[str, Any], name: str) -> SignalDrill:
        """A signal drill from parsed TOML (`id`, `order`, `name`, `description`, `rules`, `kinds`, `count`,
        `cards_per_second`, `answer_seconds`); problems raise `MalformedError` naming the field."""
        def need(key: str) -> Any:
            if key not in data:
                raise MalformedError(f"drill {name}: missing {key!r}")
            return data[key]

        kinds = need("kinds")
        if not isinstance(kinds, list) or not kinds or any(kind not in QUIZ_KINDS for kind in kinds):
            raise MalformedError(f"drill {name}: kinds must list some of {', '.join(QUIZ_KINDS)}")
        if "legal" in kinds and len(kinds) > 1:
            raise MalformedError(f"drill {name}: the legal quiz is asked in a drill of its own")
        titles = need("name")
        return cls(id=need("id"), name={"zh": titles["zh"], "en": titles["en"]},
                   description=data.get("description", {"zh": "", "en": ""}),
                   rules=Rules.parse(data.get("rules", "standard")),
                   questions={f"signal:{kind}": 1.0 for kind in kinds}, checkpoints="signals",
                   checkpoint_count=int(data.get("count", 6)), moments=(),
                   cards_per_second=float(data.get("cards_per_second", 3.0)),
                   answer_seconds=int(data.get("answer_seconds", 60)), viewer="any",
                   order=int(data.get("order", 99)), kinds=tuple(kinds))


def load_signal_drills(folder: Path = SIGNAL_DRILLS_DIR) -> dict[str, SignalDrill]:
    """Every signal drill in `folder`, in curriculum order."""
    found = []
    for path in sorted(folder.glob("*.toml")):
        with path.open("rb") as handle:
            try:
                found.append(SignalDrill.from_toml(tomllib.load(handle), path.name))
            except tomllib.TOMLDecodeError as error:
                raise MalformedError(f"drill {path.name}: {error}") from None
    found.sort(key=lambda drill: (drill.order, drill.id))
    return {drill.id: drill for drill in found}


@dataclass(frozen=True)
class Spot:
    """A place a quiz can stop: the viewer, the plays made, the quiz kind and the moment it asks about."""

    kind: str
    seat: int
    plays: int
    moment: Moment


@dataclass(frozen=True, slots=True)
class SignalAsked:
    """A checkpoint's signal question and its position."""

    question: Question
    position: Position


def _starts(record: DealRecord) -> list[int]:
    """The plays made before each trick."""
    starts, plays = [], 0
    for trick in record.tricks:
        starts.append(plays)
        plays += len(trick.plays)
    return starts


def spots(record: DealRecord, convention: Convention) -> list[Spot]:
    """Every place a moment-based quiz can stop in the deal (those with an informative question only)."""
    starts = _starts(record)
    found = []
    for moment in find_moments(record, convention):
        start = starts[moment.trick - 1]
        if moment.kind in ("respond", "discard_play"):
            spot = Spot(MOMENT_KINDS[moment.kind], moment.seat, start + moment.index, moment)
        elif moment.kind == "pass":
            spot = Spot("pass", moment.seat, start, moment)
        elif moment.kind == "opening":
            spot = Spot("interpret", (moment.seat + 2) % 4, start + 1, moment)
        else:
            spot = Spot("interpret", moment.seat, start + moment.index + 1, moment)
        if build_question(spot, record, convention, random.Random(0)) is not None and _kept(spot, record):
            found.append(spot)
    return found


KEPT = {("respond", "no_A"): 0.6, ("interpret", "no_A"): 0.75, ("opening", "opening_level"): 0.3,
        ("discard_play", "order_two:yes"): 0.6, ("discard_play", "sum_all:no"): 0.3}
"""The share of the moments of a kind and rule (and, for a discard, its message) that are asked (the others
all): the answers right more often than the others where they may be (no A to answer with, the level-card
opening, a two-card discard saying yes) are thinned, so that neither the answer nor a card rank or an order
that goes with it is a good guess (training.md §1)."""


def _kept(spot: Spot, record: DealRecord) -> bool:
    """Whether a spot is asked (`KEPT`): a draw fixed by the deal and the spot, so every caller agrees."""
    moment = spot.moment
    message = moment.expected.get("message")
    label = moment.verdict.rule if message is None else f"{moment.verdict.rule}:{message}"
    share = KEPT.get((moment.kind, label), 1.0)
    digest = hashlib.sha256(f"{record.id}:{spot.seat}:{spot.plays}:{moment.kind}".encode()).digest()
    return int.from_bytes(digest[:4], "big") < share * 2**32


def plan_signal_run(drill: SignalDrill, record: DealRecord, seed: int, convention: Convention,
                    found: Sequence[Spot] | None = None) -> tuple[int, list[int]]:
    """The viewer seat and the checkpoints (plays made, ascending) of a run of `drill` on `record`: the
    seat with the most quiz spots of the drill's kinds (ties drawn from `seed`), at most
    `checkpoint_count` of them, drawn from `seed`, each asking a question the run has not asked before
    (type, subject and answer: `question_key`); for the legal quiz, trick ends from any seat. No spot: no
    checkpoints. `found` are the deal's spots under `convention`, when the caller has them."""
    rng = random.Random(seed)
    if drill.kinds == ("legal",):
        seat = rng.randrange(4)
        ends = dataclasses.replace(drill, checkpoints="trick_end").checkpoints_for(record, rng)
        return seat, _fresh(ends, lambda plays: _legal_at(record, seat, plays, seed, convention), len(ends))
    places: dict[int, set[int]] = {}
    mine = [spot for spot in (spots(record, convention) if found is None else found) if spot.kind in drill.kinds]
    for spot in mine:
        places.setdefault(spot.seat, set()).add(spot.plays)
    if not places:
        return rng.randrange(4), []
    seat = max(sorted(places), key=lambda s: (len(places[s]), rng.random()))
    order = rng.sample(sorted(places[seat]), len(places[seat]))
    return seat, _fresh(order, lambda plays: _spot_question(drill, record, seat, plays, seed, convention, mine),
                        drill.checkpoint_count)


def _fresh(order: Sequence[int], question: Callable[[int], Question], count: int) -> list[int]:
    """The first `count` of the checkpoints in `order` whose question is not one asked at an earlier of them
    (`question_key`), ascending."""
    chosen, asked = [], set()
    for plays in order:
        key = question_key(question(plays))
        if key not in asked:
            asked.add(key)
            chosen.append(plays)
            if len(chosen) == count:
                break
    return sorted(chosen)


def _spot_question(drill: SignalDrill, record: DealRecord, seat: int, plays: int, seed: int, convention: Convention,
                   found: Sequence[Spot]) -> Question:
    """The question after `plays` plays from `seat`: one of the spots of the drill's kinds there, and its
    question's options, drawn from (`seed`, `plays`)."""
    rng = random.Random(f"{seed}:{plays}")
    here = [spot for spot in found if spot.seat == seat and spot.plays == plays and spot.kind in drill.kinds]
    if not here:
        raise MalformedError(f"no signal moment for seat {seat} after {plays} plays")
    question = build_question(rng.choice(here), record, convention, rng)
    assert question is not None, "spots have questions"
    return question


def _legal_at(record: DealRecord, seat: int, plays: int, seed: int, convention: Convention) -> Question:
    """The legal quiz's question at the trick end after `plays` plays, drawn from (`seed`, `plays`)."""
    return legal_question(record, seat, plays, convention, random.Random(f"{seed}:{plays}"))


def signal_question(drill: SignalDrill, record: DealRecord, seat: int, plays: int, seed: int,
                    convention: Convention, position: Position, found: Sequence[Spot] | None = None) -> SignalAsked:
    """The question at the checkpoint after `plays` plays, from `seat`: one of the spots there (drawn from
    (`seed`, `plays`) when several kinds meet), or for the legal quiz an item made from the trick just
    ended. `found` are the deal's spots under `convention`, when the caller has them."""
    if drill.kinds == ("legal",):
        return SignalAsked(_legal_at(record, seat, plays, seed, convention), position)
    found = spots(record, convention) if found is None else found
    return SignalAsked(_spot_question(drill, record, seat, plays, seed, convention, found), position)


def signal_asked(drill: SignalDrill, record: DealRecord, seat: int, plays: int, seed: int,
                 convention: Convention, events: Sequence[PlayEvent], found: Sequence[Spot] | None = None) -> Asked:
    """The signal question at a checkpoint of a run (`signal_question`) with what `seat` knows there
    (`asked_again`): what the web run loop and `trainer drill sample` ask."""
    asked = signal_question(drill, record, seat, plays, seed, convention, position_after(record, plays), found)
    return asked_again(asked.question, record, seat, plays, events)


# -- the questions ------------------------------------------------------------------------------------

def _option(value: str, zh: str, en: str) -> dict[str, Any]:
    return {"value": value, "label": {"zh": zh, "en": en}}


def _cards_text(cards: Sequence[Card]) -> str:
    return " ".join(card.pretty for card in cards)


def _seat_words(seat: int, viewer: int) -> tuple[str, str]:
    """A seat named from the viewer for the start of a sentence: 你 / You, 对家 / Partner (对家), …"""
    if seat == viewer:
        return "你", "You"
    zh, en = RELATIVE[(seat - viewer) % 4]
    return zh, en[0].upper() + en[1:]


def _fact(op: str, rule: str, convention: Convention) -> str:
    return f"{op}:{rule}:{convention.name}"


def _suit_letter(card: Card, record: DealRecord) -> str | None:
    suit = record.ctx.suit_of[card.index]
    return None if suit == TRUMP else "SHCD"[suit]


def build_question(spot: Spot, record: DealRecord, convention: Convention, rng: random.Random) -> Question | None:
    """The question a spot asks, its options in an order drawn from `rng`; None when it would not be
    informative (a single option, or every option right)."""
    moment = spot.moment
    builder = {"respond": _respond, "interpret": _interpret, "discard_order": _reading, "opening": _opening,
               "discard_play": _discard, "pass": _pass}[moment.kind]
    return builder(spot, record, convention, rng)


def _respond(spot: Spot, record: DealRecord, convention: Convention, rng: random.Random) -> Question | None:
    moment, ctx = spot.moment, record.ctx
    lead = Card.parse(moment.request["lead"][0])
    held = sorted(set(in_suit(parse_cards(" ".join(moment.request["hand"])), ctx.suit_of[lead.index], ctx)),
                  key=lambda card: ctx.sort_key[card.index])
    allowed = {str(card) for card in moment.verdict.value}  # type: ignore[union-attr]
    held = [card for card in held if card.rank != 14]  # the A answers nothing: never an option
    right = [card for card in held if str(card) in allowed]
    wrong = [card for card in held if str(card) not in allowed]
    if not right or not wrong:
        return None
    shown = [rng.choice(right)] + rng.sample(wrong, min(RESPOND_WRONG, len(wrong)))
    rng.shuffle(shown)
    zh, en = _seat_words(_leader(record, spot), spot.seat)
    prompt = {"zh": f"{zh}出{lead.pretty}。按你的约定（{convention.name}），这几张里你出哪一张？",
              "en": f"{en} leads {lead.pretty}. Under your conventions ({convention.name}), which of these do you "
                    "play?"}
    options = [_option(str(card), card.pretty, card.pretty) for card in shown]
    return Question("signal:respond", "one_of", prompt, [str(card) for card in shown if str(card) in allowed],
                    _fact("respond", moment.verdict.rule, convention), suit=_suit_letter(lead, record), card=str(lead),
                    options=options)


def _leader(record: DealRecord, spot: Spot) -> int:
    """The seat that led the trick of the spot's moment."""
    return record.tricks[spot.moment.trick - 1].leader


def _interpret(spot: Spot, record: DealRecord, convention: Convention, rng: random.Random) -> Question | None:
    moment = spot.moment
    lead, play = Card.parse(moment.request["lead"][0]), Card.parse(moment.request["play"][0])
    meaning = str(moment.verdict.value)
    values = [value for value in LEADER_OPTIONS.get(lead.rank, ()) if not (
        value == "cannot_tell" and moment.request["leader"] == "opponent")]
    if meaning not in values:
        return None
    shown = _with_distractor(meaning, values, rng)
    if shown is None:
        return None
    zh, en = _seat_words(_leader(record, spot), spot.seat)
    no_trump = "（无主）" if moment.request["leader"] == "opponent" else ""
    prompt = {"zh": f"{zh}出{lead.pretty}{no_trump}，对家出{play.pretty}。按你的约定（{convention.name}），这张牌表示什么？",
              "en": f"{en} led {lead.pretty}{' (no trump)' if no_trump else ''}; partner played {play.pretty}. Under "
                    f"your conventions ({convention.name}), what does it say?"}
    options = [_option(value, *MEANINGS[value]) for value in shown]
    return Question("signal:interpret", "single", prompt, meaning, _fact("interpret", moment.verdict.rule, convention),
                    suit=_suit_letter(lead, record), card=str(lead), options=options)


def _with_distractor(answer: str, values: Sequence[str], rng: random.Random) -> list[str] | None:
    """`answer` and one other of `values`, drawn by `PRIOR` (how often each is right where it may be), in an
    order drawn from `rng`: a shown option is right about as often as the other, whichever it is."""
    others = [value for value in values if value != answer]
    if not others:
        return None
    shown = [answer, rng.choices(others, [PRIOR.get(value, 1.0) for value in others])[0]]
    rng.shuffle(shown)
    return shown


def _reading(spot: Spot, record: DealRecord, convention: Convention, rng: random.Random) -> Question | None:
    moment = spot.moment
    lead, play = parse_cards(" ".join(moment.request["lead"])), parse_cards(" ".join(moment.request["play"]))
    values = ["void", "holds_A", "no"] if convention.order_discards and len(lead) >= 3 else ["yes", "no"]
    meaning = str(moment.verdict.value)
    if meaning not in values or _both_aces(lead):
        return None
    laid_zh, laid_en = "、".join(card.pretty for card in play), ", then ".join(card.pretty for card in play)
    prompt = {"zh": f"你出{_cards_text(lead)}，对家依次垫出{laid_zh}。按你的约定（{convention.name}），这表示什么？",
              "en": f"You led {_cards_text(lead)}; partner laid {laid_en}. Under your conventions "
                    f"({convention.name}), what does it say?"}
    options = [_option(value, *MEANINGS[value]) for value in rng.sample(values, len(values))]
    return Question("signal:interpret", "single", prompt, meaning,
                    _fact("discard_order", moment.verdict.rule, convention), suit=_suit_letter(lead[0], record),
                    options=options)


def _both_aces(lead: Sequence[Card]) -> bool:
    """Whether partner led both As: then no discard can say "I hold the A", only a void (the hand shows it)."""
    return sum(card.rank == 14 for card in lead) == 2


def _opening(spot: Spot, record: DealRecord, convention: Convention, rng: random.Random) -> Question | None:
    moment, ctx = spot.moment, record.ctx
    lead = parse_cards(" ".join(moment.request["lead"]))
    request = moment.verdict.value or "none"
    if len(lead) != 1 or (request == "none" and ctx.suit_of[lead[0].index] != TRUMP):
        return None
    when_zh, when_en = ("首引", "opens with") if moment.trick == 1 else (f"第{moment.trick}轮出", f"leads in trick "
                                                                                                 f"{moment.trick}")
    prompt = {"zh": f"庄家（对家）{when_zh}{lead[0].pretty}。按你的约定（{convention.name}），这要求你做什么？",
              "en": f"The banker (partner) {when_en} {lead[0].pretty}. Under your conventions ({convention.name}), "
                    "what does it ask of you?"}
    shown = _with_distractor(request, list(REQUESTS), rng)
    assert shown is not None, "four requests"
    options = [_option(value, *REQUESTS[value]) for value in shown]
    return Question("signal:interpret", "single", prompt, request,
                    _fact("opening_request", moment.verdict.rule, convention), card=str(lead[0]), options=options)


def _order_value(order: Sequence[Card]) -> str:
    return ",".join(str(card) for card in order)


def _order_option(order: Sequence[Card]) -> dict[str, Any]:
    text = " → ".join(card.pretty for card in order)
    return _option(_order_value(order), text, text)


def _discard(spot: Spot, record: DealRecord, convention: Convention, rng: random.Random) -> Question | None:
    moment, ctx = spot.moment, record.ctx
    lead, hand = parse_cards(" ".join(moment.request["lead"])), parse_cards(" ".join(moment.request["hand"]))
    right = set(moment.verdict.orders)  # type: ignore[attr-defined]
    if not right or _both_aces(lead):
        return None
    suit = ctx.suit_of[lead[0].index]
    wrong = sorted(_wrong_orders(lead, hand, right, moment.played, convention, record),
                   key=lambda order: [ctx.sort_key[card.index] for card in order])
    if not wrong:
        return None
    chosen = [rng.choice(sorted(right, key=lambda o: [ctx.sort_key[c.index] for c in o]))]
    chosen += rng.sample(wrong, min(MAX_WRONG_ORDERS, len(wrong)))
    rng.shuffle(chosen)
    prompt = {"zh": f"对家出{_cards_text(lead)}，你不能用对子跟。按你的约定（{convention.name}），你依次出哪几张？",
              "en": f"Partner leads {_cards_text(lead)} and you cannot answer with a pair. Under your conventions "
                    f"({convention.name}), which cards do you lay, in which order?"}
    return Question("signal:discard", "one_of", prompt, [_order_value(order) for order in chosen if order in right],
                    _fact("discard_play", moment.verdict.rule, convention), suit="SHCD"[suit],
                    options=[_order_option(order) for order in chosen])


def _wrong_orders(lead: Sequence[Card], hand: Sequence[Card], right: set[tuple[Card, ...]], played: Sequence[Card],
                  convention: Convention, record: DealRecord) -> set[tuple[Card, ...]]:
    """Legal plays on the lead that do not tell the truth: other orders of the right cards, the play made,
    and right plays with one card swapped for another of the hand (each a play the follow rules allow:
    all the suit's cards when there are not more than led, no pair among them)."""
    ctx = record.ctx
    suit = ctx.suit_of[lead[0].index]
    held = in_suit(hand, suit, ctx)
    size = len(lead)
    pool = Counter(held if len(held) > size else hand)
    candidates: set[tuple[Card, ...]] = {tuple(played)} if len(played) == size else set()
    for order in sorted(right, key=lambda o: [ctx.sort_key[c.index] for c in o])[:4]:
        candidates.update(islice(permutations(order), 24))
        used = Counter(order)
        for index in range(size):
            for card in pool:
                if used[card] < pool[card] and card != order[index]:
                    candidates.add(order[:index] + (card,) + order[index + 1:])

    def legal(order: tuple[Card, ...]) -> bool:
        laid = in_suit(order, suit, ctx)
        if len(set(laid)) < len(laid) or Counter(order) - Counter(hand):
            return False
        return len(laid) == min(len(held), size)

    truth = discard_order(lead, next(iter(right)), "partner", ctx, convention).value
    return {order for order in candidates if order not in right and legal(order)
            and discard_order(lead, order, "partner", ctx, convention).value != truth}


def _pass(spot: Spot, record: DealRecord, convention: Convention, rng: random.Random) -> Question | None:
    moment = spot.moment
    verdict = moment.verdict
    if not moment.request.get("signalled_in"):
        return None
    letter = "SHCD"[verdict.suit]  # type: ignore[attr-defined]
    words = SUIT_WORDS[letter]
    answer = "pass" if verdict.must_pass else "keep"  # type: ignore[attr-defined]
    exception = verdict.exception  # type: ignore[attr-defined]
    rule = verdict.rule if exception is None else f"exception_{exception}"  # the feedback names which
    prompt = {"zh": f"你出{words[0]}A时对家给了信号，现在轮到你出牌。要传{words[0]}吗？",
              "en": f"Partner signalled on your A of {words[1]} and now you lead. Do you pass {words[1]} now?"}
    options = [_option(value, *PASS_OPTIONS[value]) for value in rng.sample(list(PASS_OPTIONS), len(PASS_OPTIONS))]
    return Question("signal:pass", "single", prompt, answer, _fact("pass", rule, convention), suit=letter,
                    options=options)


def legal_question(record: DealRecord, seat: int, plays: int, convention: Convention,
                   rng: random.Random) -> Question:
    """The legal quiz's question at the trick end after `plays` plays: a table behaviour with a card another
    seat played in the trick just ended, legal (`LEGAL_WAYS`) or not (`CHEATS`) as likely, drawn by `rng`."""
    position = position_after(record, plays)
    trick = record.tricks[position.trick - 1]
    player = rng.choice([k for k in range(len(trick.plays)) if (trick.leader + k) % 4 != seat] or [0])
    who = (trick.leader + player) % 4
    legal = rng.random() < 0.5
    zh, en = rng.choice(LEGAL_WAYS if legal else CHEATS)
    card = trick.plays[player][0]
    who_zh, who_en = _seat_words(who, seat)
    fields = {"n": position.trick, "card": card.pretty, "name": convention.name, "discard": convention.discard}
    prompt = {"zh": zh.format(who_zh=who_zh, **fields) + "这是合法的信号吗？",
              "en": en.format(who_en=who_en.lower() if who != seat else "you", **fields) + " Is this a legal signal?"}
    values = list(LEGAL_OPTIONS)
    rng.shuffle(values)
    return Question("signal:legal", "single", prompt, "legal" if legal else "illegal",
                    _fact("legal", "legal" if legal else "illegal", convention), card=str(card),
                    options=[_option(value, *LEGAL_OPTIONS[value]) for value in values])


# -- feedback -----------------------------------------------------------------------------------------

def convention_quote(convention: Convention, lang: str) -> str:
    """The convention set quoted: its name, description, signal cards and discard convention."""
    ranks = {" ".join(convention.rank_names(suit)) for suit in range(4)}
    cards = ranks.pop() if len(ranks) == 1 else "; ".join(
        f"{'♠♥♣♦'[suit]} {' '.join(convention.rank_names(suit))}" for suit in range(4))
    description = convention.description.get(lang, "")
    if lang == "zh":
        return f"你的约定 {convention.name}：{description}（信号牌 {cards}；垫牌 {convention.discard}）"
    return f"Your conventions {convention.name}: {description} (signal cards {cards}; discards {convention.discard})"


def deciding_plays(question: Question, viewer: int, events: Sequence[PlayEvent]) -> list[DecidingPlay]:
    """The plays that carried the signal a question is about, as `trainer.drills.explain` names them
    (`trick 3: seat 2 played 9♥`), from what `viewer` has seen (`events`, in play order): the lead of the
    trick asked in (and for a reading, the partner's answer on it); for a pass, the viewer's A of the suit
    and the partner's card on it; for the legal quiz, the play the item is about."""
    op = question.fact.split(":", 1)[0]
    if not events:
        return []
    if op == "pass":
        leads = {event.trick: event for event in reversed(events)}  # each trick's first play
        tricks = [trick for trick, event in sorted(leads.items()) if event.seat == viewer
                  and any(card.rank == 14 and str(card)[-1] == question.suit for card in event.cards)]
        if not tricks:
            return []
        trick, seats = tricks[-1], (viewer, (viewer + 2) % 4)
    else:
        trick = events[-1].trick
        seats = ()
    plays = [event for event in events if event.trick == trick]
    if op == "legal":
        chosen = [event for event in plays if question.card in {str(card) for card in event.cards}][:1]
    elif op in ("interpret", "discard_order"):
        chosen = [plays[0]] + [event for event in plays[1:] if event.seat == (viewer + 2) % 4]
    elif op == "pass":
        chosen = [event for event in plays if event.seat in seats]
    else:
        chosen = plays[:1]
    return [DecidingPlay(event.trick, event.seat, f"trick {event.trick}: seat {event.seat} played "
                                                  f"{pretty_cards(event.cards)}") for event in chosen]


def explain(question: Question, convention: Convention | None, lang: str) -> tuple[list[str], list[str]]:
    """Why the answer is right: the rule (its id and what it says) and the convention quoted; then the
    right answer's details. `convention` is the set the question was asked under (None: not known)."""
    op, rule, _name = question.fact.split(":", 2)
    decisive = []
    if op == "legal":
        verdict = ("合法：这是靠出牌本身传递的公开约定。", "Legal: a public convention the cards themselves tell.") if rule == "legal" \
            else ("非法：牌以外的信息都是作弊，从来不是约定。", "Illegal: information not told by the cards is cheating, never a "
                                                     "convention.")
        decisive = [verdict[lang != "zh"], LEGAL_RULE[lang != "zh"]]
        return decisive, []
    label = "规则" if lang == "zh" else "Rule"
    decisive.append(f"{label} {rule}: {reason_text(op, rule, lang)}")
    if convention is not None:
        decisive.append(convention_quote(convention, lang))
    account = []
    if question.kind == "one_of":
        labels = {option["value"]: option["label"][lang] for option in question.options}
        right = "、".join(labels[value] for value in question.answer) if lang == "zh" else " / ".join(
            labels[value] for value in question.answer)
        account.append(("每个对的答案：" if lang == "zh" else "Every right answer here: ") + right)
    return decisive, account
