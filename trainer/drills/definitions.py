"""Drill definitions (`drills/*.toml`) and the plan of one run: viewer seat and checkpoints.

A drill names itself in 中文 and English and sets the rules preset, the question types with
weights, where to stop (the end of every trick, random plays, or named moments), the replay
speed, the answer time limit and the viewer's seat (banker, attacker or any).
"""
from __future__ import annotations

import random
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from trainer.drills.gouji import GoujiDrill
from trainer.drills.questions import QUESTION_TYPES, drill_field, question_weights
from trainer.engine.errors import MalformedError
from trainer.engine.rules import Rules
from trainer.engine.trump import TRUMP
from trainer.records import DealRecord

DRILLS_DIR = Path(__file__).resolve().parents[2] / "drills"
CHECKPOINT_KINDS = ("trick_end", "random_plays", "moments")
MOMENTS = ("first_trick", "first_trump_lead", "first_ruff", "halfway", "before_last_trick")
VIEWERS = ("any", "banker", "attacker")
MODES = ("replay", "running", "flash")
"""How a drill asks (training.md §5): at checkpoints of a replay, one quantity after every trick (连续数), or
what one trick shown at once changed (闪记)."""
RUNNING_QUANTITIES = ("trumps_unseen", "attackers_score", "points_unplayed")
"""What a running count may keep (the question types it asks after every trick; `points_unplayed` of one suit)."""
FLASH_TYPES = ("flash_trumps", "flash_points", "flash_voids")
"""What a flash may ask about its trick: the trumps that fell, the points in it, who showed a void."""


@dataclass(frozen=True)
class Drill:
    """One drill of the curriculum."""

    id: str
    name: dict[str, str]
    description: dict[str, str]
    rules: Rules
    questions: dict[str, float]
    checkpoints: str
    checkpoint_count: int
    moments: tuple[str, ...]
    cards_per_second: float
    answer_seconds: int
    viewer: str
    order: int
    game: str = "shengji"
    mode: str = "replay"
    stop_at_miss: bool = True
    """A running count stops at the first miss (else it goes on to the end of the deal)."""

    @classmethod
    def from_toml(cls, data: dict[str, Any], name: str) -> Drill:
        """A drill from parsed TOML; problems raise `MalformedError` naming the field."""
        def need(key: str) -> Any:
            return drill_field(data, key, name)

        mode = data.get("mode", "replay")
        if mode not in MODES:
            raise MalformedError(f"drill {name}: mode must be one of {', '.join(MODES)}")
        questions = question_weights(data, name, {"replay": QUESTION_TYPES, "running": RUNNING_QUANTITIES,
                                                  "flash": FLASH_TYPES}[mode])
        if mode == "running" and len(questions) != 1:
            raise MalformedError(f"drill {name}: a running count keeps one quantity (one question type)")
        checkpoints = need("checkpoints")
        kind = checkpoints.get("kind", "trick_end")
        if kind not in CHECKPOINT_KINDS:
            raise MalformedError(f"drill {name}: checkpoints.kind must be one of {', '.join(CHECKPOINT_KINDS)}")
        moments = tuple(checkpoints.get("moments", ()))
        for moment in moments:
            if moment not in MOMENTS:
                raise MalformedError(f"drill {name}: unknown moment {moment!r}")
        viewer = data.get("viewer", "any")
        if viewer not in VIEWERS:
            raise MalformedError(f"drill {name}: viewer must be one of {', '.join(VIEWERS)}")
        titles = need("name")
        return cls(id=need("id"), name={"zh": titles["zh"], "en": titles["en"]},
                   description=data.get("description", {"zh": "", "en": ""}),
                   rules=Rules.parse(data.get("rules", "standard")), questions=questions,
                   checkpoints=kind, checkpoint_count=int(checkpoints.get("count", 6)), moments=moments,
                   cards_per_second=float(data.get("cards_per_second", 2.0)),
                   answer_seconds=int(data.get("answer_seconds", 60)), viewer=viewer, order=int(data.get("order", 99)),
                   mode=mode, stop_at_miss=bool(data.get("stop_at_miss", True)))

    def choose_viewer(self, record: DealRecord, rng: random.Random) -> int:
        """The seat the run is watched from."""
        if self.viewer == "banker":
            return record.banker
        if self.viewer == "attacker":
            return rng.choice([(record.banker + 1) % 4, (record.banker + 3) % 4])
        return rng.randrange(4)

    def checkpoints_for(self, record: DealRecord, rng: random.Random) -> list[int]:
        """Where the run stops, as counts of plays made (ascending, no repeats)."""
        ends, plays = [], 0
        for trick in record.tricks:
            plays += len(trick.plays)
            ends.append(plays)
        if self.checkpoints == "trick_end":
            chosen = ends[:-1] if len(ends) > 1 else ends
            count = min(self.checkpoint_count, len(chosen))
            return sorted({chosen[(i + 1) * len(chosen) // (count + 1)] for i in range(count)})
        if self.checkpoints == "random_plays":
            return sorted(rng.sample(range(1, plays), min(self.checkpoint_count, plays - 1)))
        found = {moment_position(record, moment) for moment in self.moments}
        return sorted(p for p in found if p)

    def pick_type(self, rng: random.Random) -> str:
        """A question type drawn by the drill's weights."""
        kinds = list(self.questions)
        return rng.choices(kinds, weights=[self.questions[k] for k in kinds])[0]


def moment_position(record: DealRecord, moment: str) -> int | None:
    """Plays made at a named moment of the deal, or None when it does not happen."""
    ctx = record.ctx
    plays = 0
    ends = []
    for trick in record.tricks:
        first = plays
        lead_suit = ctx.suit_of[trick.plays[0][0].index]
        plays += len(trick.plays)
        ends.append(plays)
        if moment == "first_trump_lead" and lead_suit == TRUMP:
            return plays
        if moment == "first_ruff" and lead_suit != TRUMP:
            for index, play in enumerate(trick.plays[1:], start=1):
                if all(ctx.suit_of[c.index] == TRUMP for c in play):
                    return first + index + 1
    if moment == "first_trick" and ends:
        return ends[0]
    if moment == "halfway" and len(ends) > 1:
        return ends[len(ends) // 2 - 1]
    if moment == "before_last_trick" and len(ends) > 1:
        return ends[-2]
    return None


def load_drills(folder: Path = DRILLS_DIR, game: str | None = None) -> dict[str, Any]:
    """Every drill in `folder` (of one `game` when given: shengji or gouji), in curriculum order: `Drill`s,
    and `GoujiDrill`s for `game = "gouji"`."""
    drills = []
    for path in sorted(folder.glob("*.toml")):
        with path.open("rb") as handle:
            try:
                data = tomllib.load(handle)
            except tomllib.TOMLDecodeError as error:
                raise MalformedError(f"drill {path.name}: {error}") from None
        if data.get("game") == "gouji":
            drills.append(GoujiDrill.from_toml(data, path.name))
        else:
            drills.append(Drill.from_toml(data, path.name))
    drills.sort(key=lambda drill: (drill.order, drill.id))
    return {drill.id: drill for drill in drills if game is None or drill.game == game}
