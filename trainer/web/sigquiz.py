"""Signal conventions on the web: the player's convention set (`/signals`, a per-user setting) and the
signal-convention quizzes (信号: 应A, 看信号, 垫牌, 传牌, 复盘, 合法吗) run by the drill loop.

The convention sets are the `drills/signals/*.toml` files (`trainer.signals.conventions`), loaded once at
start: a malformed file stops the app with the file, the field and why.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from flask import Blueprint, Flask, current_app, flash, g, request, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from sqlmodel import col, func, select

from trainer.drills.questions import Question
from trainer.drills.runs import Asked, position_after
from trainer.engine.cards import Suit
from trainer.signals.conventions import CONVENTIONS_DIR, Convention, load_conventions
from trainer.signals.pool import player_seed
from trainer.signals.quiz import SIGNAL_DRILLS_DIR, SignalDrill, Spot, load_signal_drills, \
    plan_signal_run, signal_asked, signal_question, spots
from trainer.web.auth import login_required
from trainer.web.db import get_session, store
from trainer.web.dealdata import DealData, DealKey, deal_cache
from trainer.web.display import preset_label
from trainer.web.drills import open_run, settings
from trainer.web.library import _visible
from trainer.web.memo import Memo
from trainer.web.models import Deal, DrillRun
from trainer.web.quiz import lang
from trainer.web.responses import go, render_page, wants_fragment

bp = Blueprint("signals", __name__)

DEFAULT_SET = "basic_89JQ"
DISCARD_LABELS = {
    "small_on_top": _l("small on top (小在上): the smallest card laid last says yes"),
    "big_on_top": _l("big on top (大在上): the biggest card laid last says yes"),
    "even_sum": _l("even sum (偶数): an even sum of the values says yes"),
    "odd_sum": _l("odd sum (奇数): an odd sum of the values says yes"),
}
"""The discard conventions in words."""


def init_app(app: Flask) -> None:
    """Load the convention sets (`SIGNALS_DIR`, default `drills/signals/`; a malformed file raises
    `ConventionFileError` naming the file, the field and why) and add the signal drills
    (`SIGNAL_DRILLS_DIR`, default `drills/signal_drills/`) to the curriculum."""
    app.extensions["jipai_conventions"] = load_conventions(Path(app.config.get("SIGNALS_DIR") or CONVENTIONS_DIR))
    folder = Path(app.config.get("SIGNAL_DRILLS_DIR") or SIGNAL_DRILLS_DIR)
    app.extensions["jipai_drills"].update(load_signal_drills(folder))
    app.extensions["jipai_signal_spots"] = Memo(app.config.get("DEAL_CACHE_SIZE", 512))


def conventions() -> dict[str, Convention]:
    """The app's convention sets by name."""
    return current_app.extensions["jipai_conventions"]


def chosen_set() -> str:
    """The name of the signed-in user's convention set (the default when theirs is no longer there)."""
    name = settings().signals
    return name if name in conventions() else DEFAULT_SET if DEFAULT_SET in conventions() else next(iter(conventions()))


def convention_view(convention: Convention, lang: str) -> dict[str, Any]:
    """What the settings page shows about a set: its name, description, signal ranks (per suit when they
    differ), discard convention and optional conventions."""
    ranks = [(suit.symbol, " ".join(convention.rank_names(suit))) for suit in Suit]
    same = len({text for _symbol, text in ranks}) == 1
    extras = [label for flag, label in (("k_ask", _("K-ask (单K找K)")), ("five_lead", _("5-lead (出5要K)")),
                                        ("opening_request", _("opening-lead trump-draw request (首引清主)")))
              if getattr(convention, flag)]
    return {"name": convention.name, "description": convention.description.get(lang, ""),
            "ranks": [("", ranks[0][1])] if same else ranks, "discard": str(DISCARD_LABELS[convention.discard]),
            "extras": extras}


@bp.route("/signals", methods=("GET", "POST"))
@login_required
def settings_page() -> Any:
    """The convention sets, the player's chosen one ticked; a POST of `signals` (a set's name) chooses it."""
    error = None
    if request.method == "POST":
        name = request.form.get("signals", "")
        if name in conventions():
            mine = settings()
            mine.signals = name
            store(mine)
            if not wants_fragment():
                flash(_("Your signal conventions are now %(name)s.", name=name))
                return go(url_for("signals.settings_page"))
        else:
            error = _("Choose one of the convention sets.")
    language = lang()
    views = [convention_view(convention, language) for convention in conventions().values()]
    return render_page("signals/settings.html", "signals/_settings.html", 422 if error else 200, sets=views,
                       chosen=chosen_set(), error=error, saved=request.method == "POST" and error is None)


# -- the quizzes in the run loop ---------------------------------------------------------------------

def deal_spots(deal_pk: int, data: DealData, convention: Convention) -> list[Spot]:
    """The quiz spots of a deal under a set, remembered by the process (a deal never changes once stored)."""
    memo: Memo[tuple[int, str], list[Spot]] = current_app.extensions["jipai_signal_spots"]
    return memo.get_or_make((deal_pk, convention.name), lambda: spots(data.record, convention))


def run_convention(run: DrillRun) -> Convention:
    """The convention set a signal run grades against: the one chosen when it started."""
    return conventions().get(run.signals or "") or conventions().get(DEFAULT_SET) or Convention()


def _candidates(drill: SignalDrill, name: str) -> list[tuple[DealKey, int]]:
    """The complete deals visible to the user under the drill's rules, those the bots played under the
    set `name` first (its pool, `trainer.signals.pool`), then those played under another set, then the
    rest; each group the least drilled first, ties in the player's own order of the pool (drawn from
    `player_seed`: another for another player, the same every time for one); each with its group (0, 1
    or 2)."""
    played_under = Deal.record[("source", "signals", "name")].as_string()
    group = sa.case((played_under == name, 0), (played_under.is_not(None), 1), else_=2)
    runs = (select(func.count()).select_from(DrillRun)
            .where(DrillRun.user_id == g.user.id, DrillRun.deal_pk == Deal.pk).scalar_subquery())
    shuffle = (sa.cast(col(Deal.pk), sa.BigInteger) * 2654435761 + player_seed(g.user.id, name)) % 2147483647
    query = (select(Deal.pk, Deal.id, Deal.created, group)
             .where(_visible(g.user.id), col(Deal.complete).is_(True), Deal.rules == drill.rules.preset,
                    col(Deal.custom_rules).is_(False), Deal.game == drill.game)
             .order_by(group, runs, shuffle, col(Deal.pk)).limit(CANDIDATES))
    return [((pk, deal_id, created), rank) for pk, deal_id, created, rank in get_session().exec(query).all()
            if pk is not None]


def draw_seed(key: str, name: str) -> int:
    """The seed of the signed-in player's next draw for `key` (a drill id or a question type) under the set
    `name`: the player's own (`player_seed`), moved on by every run the player has started, so one
    player's draws come back the same and two players' differ."""
    done = get_session().exec(select(func.count()).select_from(DrillRun).where(DrillRun.user_id == g.user.id)).one()
    return player_seed(g.user.id, name, key, done)


ENOUGH = 3
"""Starting a run takes the first candidate deal with this many questions (else the one with the most)."""
CANDIDATES = 24
"""How many deals starting a signal run reads at most (a drill's kind may be missing from many deals)."""


@dataclass(frozen=True, slots=True)
class Planned:
    """A planned signal run: its deal (cache key), the viewer seat, the checkpoints and the convention set."""

    deal: DealKey
    seat: int
    checkpoints: list[int]
    signals: str


def plan_run(drill: SignalDrill, seed: int) -> Planned | None:
    """Plan a signal run under the player's convention set: the first candidate deal (`_candidates`) with
    `ENOUGH` signal spots of the drill's kinds at one seat (else the candidate with the most, among the
    deals played under the set when there are some), watched from that seat, seat and checkpoints drawn
    from `seed`; None when no candidate has a spot."""
    name = chosen_set()
    convention = conventions()[name]
    best: Planned | None = None
    best_group = 0
    for key, group in _candidates(drill, name):
        if best is not None and group > best_group:  # a deal played under the set beats one with more spots
            break
        data = deal_cache().get(get_session(), key)
        if drill.rules != data.record.rules:
            continue
        seat, checkpoints = plan_signal_run(drill, data.record, seed, convention, deal_spots(key[0], data, convention))
        if checkpoints and (best is None or len(checkpoints) > len(best.checkpoints)):
            best, best_group = Planned(key, seat, checkpoints, name), group
        if best and len(best.checkpoints) >= min(drill.checkpoint_count, ENOUGH):
            break
    return best


def start_run(drill: SignalDrill) -> Any:
    """Start a signal run under the player's convention set (`plan_run`), drawn from the player's own
    seed (`draw_seed`)."""
    seed = draw_seed(drill.id, chosen_set())
    best = plan_run(drill, seed)
    if best is not None:
        return open_run(DrillRun(user_id=g.user.id, drill_id=drill.id, deal_pk=best.deal[0], seat=best.seat,
                                 seed=seed, checkpoints=best.checkpoints, signals=best.signals))
    flash(_("No complete deal under the %(rules)s rules in your library has a signal moment for this drill. "
            "Generate some in the deal library first.", rules=preset_label(drill.rules.preset)))
    return go(url_for("drills.index"))


def kind_drill(question_type: str) -> SignalDrill | None:
    """A one-question drill of one signal quiz kind (`signal:respond`), made from the first curriculum signal
    drill that asks it (its rules); None when none does."""
    kind = question_type.removeprefix("signal:")
    for drill in current_app.extensions["jipai_drills"].values():
        if isinstance(drill, SignalDrill) and kind in drill.kinds:
            return dataclasses.replace(drill, kinds=(kind,), questions={question_type: 1.0}, checkpoint_count=1)
    return None


def fresh_question(question_type: str, seed: int) -> tuple[Planned, Question] | None:
    """A fresh position and question of one signal quiz kind for the daily training, planned as a signal
    run of that kind is (`plan_run`: the deal from the player's order of the pool, the moment in it
    from `seed`); None when no deal has one."""
    drill = kind_drill(question_type)
    planned = plan_run(drill, seed) if drill is not None else None
    if drill is None or planned is None:
        return None
    data = deal_cache().get(get_session(), planned.deal)
    plays = planned.checkpoints[0]
    convention = conventions()[planned.signals]
    asked = signal_question(drill, data.record, planned.seat, plays, seed, convention,
                            position_after(data.record, plays), deal_spots(planned.deal[0], data, convention))
    return planned, asked.question


def question_at(run: DrillRun, drill: SignalDrill, data: DealData, index: int) -> Asked:
    """The signal question at checkpoint `index` of `run` (a pure function of the run and the deal), with
    what the viewer knows there (the run loop's hooks grade the answer from it)."""
    plays = run.checkpoints[index]
    convention = run_convention(run)
    return signal_asked(drill, data.record, run.seat, plays, run.seed, convention, data.events,
                        deal_spots(run.deal_pk, data, convention))
