"""The counting modes in the run loop (training.md §5): what a running count's or a flash's answer stores
beside the attempt (the best streak per quantity, the flash time and level per player) and what their pages
show (the streak and best, the flash time, the trick flashed).

`trainer.web.drills` calls these where a run's mode matters; the questions themselves come from
`trainer.drills.modes` through `DealData`, as every drill's do.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from sqlmodel import Session, col, select

from trainer.drills.modes import FlashState, mode_of, next_flash, stops_at, streak
from trainer.drills.speed import FLASH_WINDOW, Paced, flash_level
from trainer.web.dealdata import DealData
from trainer.web.models import Attempt, DrillRun, FlashLevel, RunningBest, utcnow

FLASH_HISTORY = 50
"""How many of a player's last flashes the flash level is computed from (enough for every F among them to
have its last 10 at F or shorter)."""


def flash_state(db: Session, user_id: int, lock: bool = False) -> tuple[FlashLevel | None, FlashState]:
    """The player's stored flash row (None: none yet) and their flash time; `lock` reads it for update."""
    query = select(FlashLevel).where(FlashLevel.user_id == user_id)
    row = db.exec(query.with_for_update() if lock else query).first()
    return row, FlashState() if row is None else FlashState(row.ms, row.in_row)


def _earlier(db: Session, attempt: Attempt) -> list[Attempt]:
    """The run's attempts before `attempt`, in checkpoint order."""
    return list(db.exec(select(Attempt).where(Attempt.run_id == attempt.run_id, Attempt.checkpoint < attempt.checkpoint)
                        .order_by(col(Attempt.checkpoint))).all())


def answered_rows(db: Session, run: DrillRun, drill: Any, attempt: Attempt) -> list[Any]:
    """The rows a mode's answer updates, read and written inside the answer's transaction: a running count's
    best streak of its quantity (when this answer's streak beats it); a flash's next F and the player's flash
    level over their last flashes. Nothing for a replay drill."""
    if mode_of(drill) == "running":
        length = streak([*_earlier(db, attempt), attempt])
        best = db.exec(select(RunningBest).where(RunningBest.user_id == run.user_id,
                                                 RunningBest.quantity == attempt.question_type)
                       .with_for_update()).first()
        if best is None:
            best = RunningBest(user_id=run.user_id, quantity=attempt.question_type, best=0)
        if length <= best.best:
            return []
        best.best, best.reached = length, utcnow()
        return [best]
    if mode_of(drill) == "flash":
        row, state = flash_state(db, run.user_id, lock=True)
        after = next_flash(state, attempt.correct)
        shown = db.exec(select(Attempt.flash_ms, Attempt.correct)
                        .where(Attempt.user_id == run.user_id, col(Attempt.flash_ms).is_not(None))
                        .order_by(col(Attempt.id).desc()).limit(FLASH_HISTORY)).all()
        flashes = [Paced(ms, right) for ms, right in reversed(shown) if ms is not None]
        row = row or FlashLevel(user_id=run.user_id, ms=after.ms)
        row.ms, row.in_row = after.ms, after.in_row
        row.level = flash_level([*flashes, Paced(attempt.flash_ms or state.ms, attempt.correct)])
        return [row]
    return []


def stopped(drill: Any, attempt: Attempt | None) -> bool:
    """Whether a run ends at the answered checkpoint: a running count's miss when it stops at the first miss."""
    return attempt is not None and stops_at(drill, attempt.correct)


def page_context(db: Session, run: DrillRun, drill: Any, data: DealData, attempt: Attempt | None,
                 end: int | None) -> dict[str, Any]:
    """What a mode's page shows beside the question: a running count's streak so far and best for its
    quantity; a flash's time F and the trick it flashes (the one ending at `end`, the next checkpoint), or at a
    checkpoint the trick it asks about; no last-trick look. Nothing for a replay drill."""
    if mode_of(drill) == "running":
        asked = next(iter(drill.questions))
        best = db.get(RunningBest, (run.user_id, asked))
        done = list(db.exec(select(Attempt).where(Attempt.run_id == run.id).order_by(col(Attempt.checkpoint))).all())
        return {"streak": streak(done), "best": best.best if best else 0,
                "longest": max((streak(done[:n]) for n in range(len(done) + 1)), default=0)}
    if mode_of(drill) == "flash":
        row, state = flash_state(db, run.user_id)
        shown = run.cursor if run.cursor in run.checkpoints or end is None else end
        return {"flash_ms": state.ms, "flash_level": row.level if row else None, "flash_window": FLASH_WINDOW,
                "flash_trick": replace(data.table(run.seat, shown, shown, drill), last_trick=[])}
    return {}
