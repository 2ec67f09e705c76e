"""The skill family of each question type (training.md §4): trumps, points, pairs, voids, top, decisions,
signals, gouji, guandan. `trainer drill sample` prints it with every question; the daily session balances
its questions over them.

>>> family_of("voids"), family_of("signal:respond"), family_of("sets_left", "gouji")
('voids', 'signals', 'gouji')
"""
from __future__ import annotations

FAMILIES: dict[str, tuple[str, ...]] = {
    "trumps": ("trumps_unseen", "trumps_played", "constant_trumps_out", "big_trumps_out"),
    "points": ("attackers_score", "to_take_over", "points_unplayed", "points_unseen", "point_cards_out"),
    "pairs": ("live_pairs", "live_triples", "live_quads", "live_tractor", "live_triple_tractor", "live_quad_tractor"),
    "voids": ("voids", "no_pairs", "suit_played", "suit_unseen"),
    "top": ("is_boss", "top_in_play"),
    "decisions": ("throw_safe", "who_beats", "who_ruffs", "max_trumps", "must_hold"),
}
"""The 升级 question types of each family."""
FLASH_FAMILIES = {"flash_trumps": "trumps", "flash_points": "points", "flash_voids": "voids"}
"""The family of each flash question type (闪记, training.md §5; not replay skills, so not in `FAMILIES`)."""
FAMILY_OF = {**{kind: family for family, kinds in FAMILIES.items() for kind in kinds}, **FLASH_FAMILIES}
ALL_FAMILIES = (*FAMILIES, "signals", "gouji", "guandan")
"""Every family a question can have (training.md §4)."""


def family_of(question_type: str, game: str = "shengji") -> str:
    """The family of a question type: `signals` for a signal quiz, the game's name for a 够级 (or 掼蛋) type,
    else the 升级 family (`FAMILIES`: every 升级 type must be listed there)."""
    if question_type.startswith("signal:"):
        return "signals"
    if game != "shengji":
        return game
    return FAMILY_OF[question_type]
