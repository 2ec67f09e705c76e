"""Questions on the web: their names, reading an answer from a form, answers and explanations in
the reader's language, with seats named from the viewer's chair.

The tracker explains its facts in English with seat numbers (`trainer.tracking.explain`), and
`trainer.drills.explain` puts the lines that decide a question's answer first; the web shows those
lines translated, phrase by phrase, and with 下家/对家/上家 for the seats.
"""
from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from typing import Any

from flask import current_app
from flask_babel import get_locale

from trainer.drills.gouji import QUESTION_TYPES as GOUJI_QUESTION_TYPES
from trainer.drills.questions import QUESTION_TYPES, Question
from trainer.drills.explain import DecidingPlay, Explanation, explain_question
from trainer.signals import quiz as signal_quiz
from trainer.tracking.tracker import PlayEvent, Snapshot
from trainer.web.decision_text import decision_line
from trainer.web.extensions import gettext as _
from trainer.web.extensions import lazy_gettext as _l

QUESTION_LABELS = {
    "trumps_unseen": _l("Trumps still out"),
    "trumps_played": _l("Trumps played"),
    "big_trumps_out": _l("Big trumps still out"),
    "constant_trumps_out": _l("Jokers and level cards out"),
    "points_unplayed": _l("Points left in a suit"),
    "points_unseen": _l("Points out in a suit"),
    "suit_played": _l("Cards of a suit played"),
    "suit_unseen": _l("Cards of a suit still out"),
    "point_cards_out": _l("Point cards still out"),
    "live_pairs": _l("Live pairs"),
    "live_tractor": _l("Live tractor"),
    "live_triples": _l("Live triples"),
    "live_triple_tractor": _l("Live 泰坦尼克 (run of triples)"),
    "live_quads": _l("Live quads"),
    "live_quad_tractor": _l("Live run of quads"),
    "voids": _l("Voids"),
    "top_in_play": _l("Biggest card left"),
    "is_boss": _l("Is my card the boss"),
    "attackers_score": _l("Attackers' points"),
    "to_take_over": _l("Points to take over"),
    "no_pairs": _l("Shown to hold no pair"),
    "throw_safe": _l("Is the throw safe"),
    "who_beats": _l("Who can still beat my card"),
    "who_ruffs": _l("Who can still ruff"),
    "max_trumps": _l("Most trumps a seat can hold"),
    "must_hold": _l("Who must hold a card"),
}
"""A name for every question type of `trainer.drills.questions`, as the summary and review show it."""
assert set(QUESTION_LABELS) == set(QUESTION_TYPES), "name every question type"
GOUJI_QUESTION_LABELS = {
    "sets_left": _l("够级 sets that could still be out (剩几套)"),
    "sets_played": _l("够级 sets played (出了几套)"),
    "rank_unseen": _l("Cards of a rank still out (还剩几张)"),
    "rank_in_hands": _l("Cards of a rank still in hands"),
    "hua_qian_out": _l("Jokers and 2s still out (花和钱)"),
    "hua_qian_in_hands": _l("Jokers and 2s still in hands"),
    "cards_left": _l("Cards left in a hand (剩几张)"),
    "jokers_shown": _l("Jokers a seat has played"),
    "gouji_plays": _l("够级 plays a seat has made"),
    "opened": _l("Has the opposite seat opened (开点)"),
    "higher_out": _l("Cards above mine still out (压得住吗)"),
    "can_hold_set": _l("Can the opposite seat still hold a set"),
    "min_threes": _l("Fewest 3s a seat holds"),
}
"""A name for every 够级 question type of `trainer.drills.gouji`."""
assert set(GOUJI_QUESTION_LABELS) == set(GOUJI_QUESTION_TYPES), "name every 够级 question type"
FLASH_LABELS = {"flash_trumps": _l("Flash: trumps in the trick"), "flash_points": _l("Flash: points in the trick"),
                "flash_voids": _l("Flash: who showed a void")}
"""The flash (闪记) question types by name (`trainer.drills.modes`)."""
SIGNAL_LABELS = {
    "signal:respond": _l("Signals: answer the A (应A)"),
    "signal:interpret": _l("Signals: read the signal (看信号)"),
    "signal:discard": _l("Signals: discard order (垫牌)"),
    "signal:pass": _l("Signals: pass the suit (传牌)"),
    "signal:legal": _l("Signals: legal or cheating"),
}
"""A name for every signal quiz kind's question type (`trainer.signals.quiz`)."""
assert set(SIGNAL_LABELS) == set(signal_quiz.QUESTION_TYPES), "name every signal quiz kind"

SUIT_KEYS = ("S", "H", "C", "D", "trump")


def lang() -> str:
    """The UI language's code for question texts: zh or en."""
    return "en" if str(get_locale() or "zh").startswith("en") else "zh"


def question_label(kind: str) -> str:
    """A question type's name in the current language."""
    label = (QUESTION_LABELS.get(kind) or GOUJI_QUESTION_LABELS.get(kind) or SIGNAL_LABELS.get(kind)
             or FLASH_LABELS.get(kind))
    return str(label) if label is not None else kind


def suit_name(key: str | None) -> str:
    """A suit key (S H C D trump) as players name it: ♠ 黑桃 … 主牌."""
    names = {"S": _("♠ spades"), "H": _("♥ hearts"), "C": _("♣ clubs"), "D": _("♦ diamonds"), "trump": _("trumps")}
    return names.get(key or "", key or "")


class AnswerError(ValueError):
    """A form that does not hold an answer of the question's kind (said in words)."""


def read_answer(question: Question, values: Sequence[str]) -> Any:
    """The answer in a form's `answer` values: a number (`number`), a list of option values in option
    order (`multi`, checkboxes), or one option value (`single`, a radio); `AnswerError` when it is not one."""
    if question.kind == "number":
        text = values[0].strip() if values else ""
        if not re.fullmatch(r"[-−]?\d{1,4}", text):
            raise AnswerError(_("Type a number."))
        return int(text.replace("−", "-"))
    allowed = [option["value"] for option in question.options]
    if question.kind == "multi":
        chosen = set(values)
        return [value for value in allowed if value in chosen]
    if len(values) != 1 or values[0] not in allowed:
        raise AnswerError(_("Choose one answer."))
    return values[0]


def answer_text(question: Question, answer: Any, lang: str) -> str:
    """`answer` (the exact one or the one given) in words."""
    return dataclasses.replace(question, answer=answer).answer_text(lang)


# -- explanations ------------------------------------------------------------------------------------

def explanation(question: Question, snap: Snapshot, events: Sequence[PlayEvent]) -> Explanation:
    """The deciding lines and the full account of `question`'s answer, translated, seats named from
    the viewer (`trainer.drills.explain`); for a signal quiz, the plays that carried the signal, the rule
    and the convention set quoted (`trainer.signals.quiz.deciding_plays`, `explain`)."""
    if question.type in SIGNAL_LABELS:
        name = question.fact.split(":")[-1]
        decisive, account = signal_quiz.explain(question, current_app.extensions["jipai_conventions"].get(name),
                                                lang())
        return Explanation(decisive, account,
                           _localised_plays(signal_quiz.deciding_plays(question, snap.seat, events), snap.seat))
    raw = explain_question(question, snap, events)
    return Explanation([localise(line, snap.seat) for line in raw.decisive],
                       [localise(line, snap.seat) for line in raw.account], _localised_plays(raw.plays, snap.seat))


def _localised_plays(plays: Sequence[DecidingPlay], viewer: int) -> list[DecidingPlay]:
    """Deciding plays with their lines in the current language, seats named from `viewer`."""
    return [dataclasses.replace(play, line=deciding_play(play.line, viewer)) for play in plays]


def deciding_play(line: str, viewer: int) -> str:
    """A deciding play's line (`trick 3: seat 1 ruffed ♥`, `trainer.drills.explain`) in the current
    language, the seat named from `viewer`: 第3轮 下家毙了♥."""
    m = re.fullmatch(r"trick (\d+): seat (\d) (ruffed|showed out of|discarded|played|won|showed no pair of) (.*)", line)
    if m is None:
        return localise(line, viewer)
    n, seat, verb, what = int(m.group(1)), seat_word(int(m.group(2)), viewer), m.group(3), m.group(4)
    if verb == "won":
        return _("trick %(n)d: %(seat)s won %(points)s points", n=n, seat=seat, points=what.split()[0])
    words = {"ruffed": _("trick %(n)d: %(seat)s ruffed %(what)s"),
             "showed out of": _("trick %(n)d: %(seat)s showed out of %(what)s"),
             "discarded": _("trick %(n)d: %(seat)s discarded %(what)s"),
             "played": _("trick %(n)d: %(seat)s played %(what)s"),
             "showed no pair of": _("trick %(n)d: %(seat)s showed no %(what)s pair")}
    if verb in ("ruffed", "showed out of", "showed no pair of"):  # a suit (♥ or trump), else cards
        what = _suit_word(what, adjective=verb == "showed no pair of")
    return words[verb] % {"n": n, "seat": seat, "what": what}


def seat_word(seat: int, viewer: int) -> str:
    """A seat named from the viewer: 自己, 下家, 对家, 上家."""
    return (_("Me (自己)"), _("Next (下家)"), _("Partner (对家)"), _("Previous (上家)"))[(seat - viewer) % 4]


def _suit_word(label: str, adjective: bool = True) -> str:
    """A suit label of the tracker's lines (♠ ♥ ♣ ♦ or `trump`) for a sentence: "trump cards", "void in trumps"."""
    if label != "trump":
        return label
    return _("trump") if adjective else _("trumps")


def _trick_list(text: str) -> str:
    """`trick 2 大王 5♥; trick 5 …` (or `none`) translated."""
    if text == "none":
        return _("none")
    parts = []
    for part in text.split("; "):
        match = re.fullmatch(r"trick (\d+) (.*)", part)
        parts.append(_("trick %(n)s: %(cards)s", n=match.group(1), cards=match.group(2)) if match else part)
    return "; ".join(parts)


def _cards_or_none(text: str) -> str:
    return _("none") if text == "none" else text


def _what(text: str) -> str:
    if text == "trumps":
        return _("trumps")
    match = re.fullmatch(r"(\S+) point cards \(5, 10, K\)", text)
    if match:
        return _("%(suit)s point cards (5, 10, K)", suit=_suit_word(match.group(1)))
    match = re.fullmatch(r"(\S+) cards", text)
    if match:
        return _("%(suit)s cards", suit=_suit_word(match.group(1)))
    return text


def _where(part: str) -> str:
    match = re.fullmatch(r"played: (.*)", part)
    if match:
        return _("played: %(tricks)s", tricks=_trick_list(match.group(1)))
    match = re.fullmatch(r"(mine|kitty|unseen) ×(\d+)", part)
    if match:
        words = {"mine": _("in my hand ×%(n)s"), "kitty": _("in the kitty ×%(n)s"), "unseen": _("unseen ×%(n)s")}
        return words[match.group(1)] % {"n": match.group(2)}
    return part


def _reason(part: str) -> str:
    match = re.fullmatch(r"void in (\S+)", part)
    if match:
        return _("void in %(suit)s", suit=_suit_word(match.group(1), adjective=False))
    match = re.fullmatch(r"shown to hold no (\S+) pair", part)
    if match:
        return _("shown to hold no %(suit)s pair", suit=_suit_word(match.group(1)))
    match = re.fullmatch(r"(\d+) card\(s\) left", part)
    if match:
        return _("%(n)s card(s) left", n=match.group(1))
    return part


def _place(text: str) -> str:
    """Where one copy of a card is (`played in trick 3`, `in my hand`, `in the kitty`, `unseen`), translated."""
    if match := re.fullmatch(r"played in trick (\d+)", text):
        return _("played in trick %(n)s", n=match.group(1))
    words = {"in my hand": _("in my hand"), "in the kitty": _("in the kitty"), "unseen": _("unseen")}
    return words.get(text, text)


def _copies(text: str) -> str | None:
    """Every copy of a card in words (`trainer.drills.explain`), translated; None if `text` is not that."""
    places = r"(played in trick \d+|in my hand|in the kitty|unseen)"
    if re.fullmatch(places, text):
        return _place(text)
    if match := re.fullmatch(rf"both {places}", text):
        return _("both %(place)s", place=_place(match.group(1)))
    if match := re.fullmatch(rf"all (\d+) {places}", text):
        return _("all %(n)s %(place)s", n=match.group(1), place=_place(match.group(2)))
    if match := re.fullmatch(rf"one {places}, the other {places}", text):
        return _("one %(first)s, the other %(second)s", first=_place(match.group(1)), second=_place(match.group(2)))
    parts = [re.fullmatch(rf"(\d+) {places}", part) for part in text.split(", ")]
    if all(parts):
        return _(", ").join(_("%(n)s %(place)s", n=m.group(1), place=_place(m.group(2))) for m in parts if m)
    return None


def _term(term: str) -> str:
    """One term of a sum (`36 in all`, `5 played`, `4 (trick 2)`, `20 (K♠ K♠)`, `2 × 大王`), translated."""
    match = re.fullmatch(r"(−?\d+)(?: (.*))?", term)
    if not match or match.group(2) is None:
        return term
    n, label = match.groups()
    words = {"in all": _("%(n)s in all"), "played": _("%(n)s played"), "mine": _("%(n)s mine"),
             "in the kitty": _("%(n)s in the kitty"), "(kitty)": _("%(n)s (kitty)")}
    if label in words:
        return words[label] % {"n": n}
    if found := re.fullmatch(r"\(trick (\d+)\)", label):
        return _("%(n)s (trick %(trick)s)", n=n, trick=found.group(1))
    if found := re.fullmatch(r"\(failed throw, trick (\d+)\)", label):
        return _("%(n)s (failed throw, trick %(trick)s)", n=n, trick=found.group(1))
    if found := re.fullmatch(r"\((.*)\)", label):
        return _("%(n)s (%(cards)s)", n=n, cards=found.group(1))
    return term


def _sum(line: str) -> str | None:
    """A sum line (`36 in all − 5 played = 31`) with every term translated; None if `line` is not one."""
    match = re.fullmatch(r"(−?\d+(?: .*)?) = (−?\d+)", line)
    if not match:
        return None
    pieces = re.split(r" ([+−]) ", match.group(1))
    return " ".join(_term(piece) if i % 2 == 0 else piece for i, piece in enumerate(pieces)) + f" = {match.group(2)}"


def _decisive(line: str, viewer: int) -> str | None:
    """A deciding line of `trainer.drills.explain` translated, or None if `line` is not one."""
    def match(pattern: str) -> re.Match[str] | None:
        return re.fullmatch(pattern, line)

    if (decided := decision_line(line, lambda seat: seat_word(seat, viewer))) is not None:
        return decided
    if (summed := _sum(line)) is not None:
        return summed
    if m := match(r"(No — )?(\S+) is (still|not) out: (.*)"):
        copies = _copies(m.group(4)) or m.group(4)
        if m.group(3) == "not":
            return _("%(card)s is not out: %(copies)s", card=m.group(2), copies=copies)
        if m.group(1):
            return _("No — %(card)s is still out: %(copies)s", card=m.group(2), copies=copies)
        return _("%(card)s is still out: %(copies)s", card=m.group(2), copies=copies)
    if m := match(r"(\S+) is gone: (.*)"):
        return _("%(card)s is gone: %(copies)s", card=m.group(1), copies=_copies(m.group(2)) or m.group(2))
    if (m := match(r"(\S+): (.*)")) and (copies := _copies(m.group(2))) is not None:
        return _("%(card)s: %(copies)s", card=m.group(1), copies=copies)
    if m := match(r"Yes — no card higher than (\S+) is out: 0"):
        return _("Yes — no card higher than %(card)s is out", card=m.group(1)) + ": 0"
    if m := match(r"The biggest (\S+) left: (.*)"):
        return _("The biggest %(suit)s left: %(cards)s", suit=_suit_word(m.group(1), adjective=False), cards=m.group(2))
    if m := match(r"Pairs that could still be out: (.*)"):
        return _("Pairs that could still be out: %(cards)s", cards=m.group(1))
    if m := match(r"Triples that could still be out: (.*)"):
        return _("Triples that could still be out: %(cards)s", cards=m.group(1))
    if m := match(r"Quads that could still be out: (.*)"):
        return _("Quads that could still be out: %(cards)s", cards=m.group(1))
    if m := match(r"No (\S+) pair can still be out"):
        return _("No %(suit)s pair can still be out", suit=_suit_word(m.group(1)))
    if m := match(r"No (\S+) triple can still be out"):
        return _("No %(suit)s triple can still be out", suit=_suit_word(m.group(1)))
    if m := match(r"No (\S+) quad can still be out"):
        return _("No %(suit)s quad can still be out", suit=_suit_word(m.group(1)))
    if m := match(r"Yes — a tractor could still be out: (.*)"):
        return _("Yes — a tractor could still be out: %(cards)s", cards=m.group(1))
    if m := match(r"No — no two adjacent (\S+) pairs could still be out"):
        return _("No — no two adjacent %(suit)s pairs could still be out", suit=_suit_word(m.group(1)))
    if m := match(r"No — no two adjacent (\S+) triples could still be out"):
        return _("No — no two adjacent %(suit)s triples could still be out", suit=_suit_word(m.group(1)))
    if m := match(r"No — no two adjacent (\S+) quads could still be out"):
        return _("No — no two adjacent %(suit)s quads could still be out", suit=_suit_word(m.group(1)))
    if m := match(r"Nobody is known to be void in (\S+)"):
        return _("Nobody is known to be void in %(suit)s", suit=_suit_word(m.group(1), adjective=False))
    if m := match(r"Nobody has shown to hold no (\S+) pair"):
        return _("Nobody has shown to hold no %(suit)s pair", suit=_suit_word(m.group(1)))
    if m := match(r"(Void in (\S+)|Shown to hold no (\S+) pair): (seat \d(?:, seat \d)*)"):
        seats = _(", ").join(seat_word(int(q), viewer) for q in re.findall(r"\d", m.group(4)))
        if m.group(2):
            return _("Void in %(suit)s: %(seats)s", suit=_suit_word(m.group(2), adjective=False), seats=seats)
        return _("Shown to hold no %(suit)s pair: %(seats)s", suit=_suit_word(m.group(3)), seats=seats)
    if m := match(r"(.+): 0"):
        return _zero(m.group(1))
    return None


def _zero(text: str) -> str | None:
    """Why a count is 0 (`no trump played yet`, `no ♠ point card is left to play`, …), translated."""
    fixed = {"no trump played yet": _("no trump played yet: 0"),
             "every joker and level card is played or seen": _("every joker and level card is played or seen: 0"),
             "the attackers have no points yet": _("the attackers have no points yet: 0")}
    if text in fixed:
        return fixed[text]
    if m := re.fullmatch(r"no (\S+) card played yet", text):
        return _("no %(suit)s card played yet: 0", suit=_suit_word(m.group(1)))
    if m := re.fullmatch(r"no (\S+) point card is left to play", text):
        return _("no %(suit)s point card is left to play: 0", suit=_suit_word(m.group(1)))
    if m := re.fullmatch(r"no (\S+) point card is unseen", text):
        return _("no %(suit)s point card is unseen: 0", suit=_suit_word(m.group(1)))
    return None


def localise(line: str, viewer: int) -> str:
    """One line of `trainer.tracking.explain` in the current language, seats named from `viewer`."""
    def seat(text: str) -> str:
        return seat_word(int(text), viewer)

    def match(pattern: str) -> re.Match[str] | None:
        return re.fullmatch(pattern, line)

    if (decisive := _decisive(line, viewer)) is not None:
        return decisive
    if m := match(r"(.+): (\d+) in all"):
        return _("%(what)s: %(n)s in all", what=_what(m.group(1)), n=m.group(2))
    if m := match(r"(played|mine|kitty|unseen) \((\d+)\): (.*)"):
        words = {"played": _("played (%(n)s): %(cards)s"), "mine": _("in my hand (%(n)s): %(cards)s"),
                 "kitty": _("in the kitty (%(n)s): %(cards)s"), "unseen": _("unseen (%(n)s): %(cards)s")}
        cards = _trick_list(m.group(3)) if m.group(1) == "played" else _cards_or_none(m.group(3))
        return words[m.group(1)] % {"n": m.group(2), "cards": cards}
    if m := match(r"(\S+) faces with two unseen copies: (.*)"):
        return _("%(suit)s faces with two unseen copies: %(cards)s", suit=_suit_word(m.group(1)),
                 cards=_cards_or_none(m.group(2)))
    if m := match(r"(\S+) faces with three unseen copies: (.*)"):
        return _("%(suit)s faces with three unseen copies: %(cards)s", suit=_suit_word(m.group(1)),
                 cards=_cards_or_none(m.group(2)))
    if m := match(r"(\S+) faces with four unseen copies: (.*)"):
        return _("%(suit)s faces with four unseen copies: %(cards)s", suit=_suit_word(m.group(1)),
                 cards=_cards_or_none(m.group(2)))
    if m := match(r"seat (\d): could hold one"):
        return _("%(seat)s: could hold one", seat=seat(m.group(1)))
    if m := match(r"seat (\d): (.*), cannot hold a (pair|triple|quad)"):
        reasons = "; ".join(_reason(part) for part in m.group(2).split("; "))
        words = {"pair": _("%(seat)s: %(reasons)s, cannot hold a pair"),
                 "triple": _("%(seat)s: %(reasons)s, cannot hold a triple"),
                 "quad": _("%(seat)s: %(reasons)s, cannot hold a quad")}
        return words[m.group(3)] % {"seat": seat(m.group(1)), "reasons": reasons}
    if line == "the kitty never makes a pair live":
        return _("the kitty never makes a pair live")
    if line == "the kitty never makes a triple live":
        return _("the kitty never makes a triple live")
    if line == "the kitty never makes a quad live":
        return _("the kitty never makes a quad live")
    if m := match(r"trick (\d+): seat (\d) played (.*) on the (\S+) lead (.*): void in (\S+)"):
        return _("trick %(n)s: %(seat)s played %(cards)s on the %(suit)s lead %(lead)s: void in %(void)s",
                 n=m.group(1), seat=seat(m.group(2)), cards=m.group(3), suit=_suit_word(m.group(4)), lead=m.group(5),
                 void=_suit_word(m.group(6), adjective=False))
    if m := match(r"trick (\d+): seat (\d) answered (.*) with (.*): no (\S+) pair left"):
        return _("trick %(n)s: %(seat)s answered %(lead)s with %(cards)s: no %(suit)s pair left",
                 n=m.group(1), seat=seat(m.group(2)), lead=m.group(3), cards=m.group(4), suit=_suit_word(m.group(5)))
    if m := match(r"no (\S+) card is unseen: every one is played, mine or known in the kitty"):
        return _("no %(suit)s card is unseen: every one is played, in my hand or known in the kitty",
                 suit=_suit_word(m.group(1)))
    if m := match(r"seat (\d) has no cards left"):
        return _("%(seat)s has no cards left", seat=seat(m.group(1)))
    if m := match(r"seat (\d): nothing shown in (\S+)"):
        return _("%(seat)s: nothing shown in %(suit)s", seat=seat(m.group(1)),
                 suit=_suit_word(m.group(2), adjective=False))
    if line == "nothing shown yet":
        return _("nothing shown yet")
    if m := match(r"trick (\d+): seat (\d) \((attackers|banker side)\) won (\d+) \((.*)\)"):
        side = _("attackers") if m.group(3) == "attackers" else _("banker side")
        cards = _("no point cards") if m.group(5) == "no point cards" else m.group(5)
        return _("trick %(n)s: %(seat)s (%(side)s) won %(points)s (%(cards)s)", n=m.group(1), seat=seat(m.group(2)),
                 side=side, points=m.group(4), cards=cards)
    if m := match(r"trick (\d+): failed throw, ([+-]\d+) to the attackers"):
        return _("trick %(n)s: failed throw, %(points)s to the attackers", n=m.group(1), points=m.group(2))
    if m := match(r"kitty bonus ([+-]\d+) to the attackers"):
        return _("kitty bonus %(points)s to the attackers", points=m.group(1))
    if line == "no trick finished yet":
        return _("no trick finished yet")
    m = match(r"(\S+): (.*)")
    if m and all(re.fullmatch(r"played: .*|(mine|kitty|unseen) ×\d+", part) for part in m.group(2).split(", ")):
        return f"{m.group(1)}: " + _(", ").join(_where(part) for part in m.group(2).split(", "))
    return re.sub(r"\bseat (\d)\b", lambda found: seat(found.group(1)), line)

