"""The deciding lines of the decision questions (`trainer.drills.decide_explain`) in the reader's language,
seats named from the viewer's chair (`trainer.web.quiz.localise` asks here first)."""
from __future__ import annotations

import re
from collections.abc import Callable

from trainer.web.extensions import gettext as _


def _places(text: str, seat: Callable[[int], str]) -> str:
    """`seat 1, the kitty` with each holder named."""
    names = [seat(int(part[5:])) if part.startswith("seat ") else _("the kitty") for part in text.split(", ")]
    return _(", ").join(names)


def decision_line(line: str, seat: Callable[[int], str]) -> str | None:
    """One deciding line of a decision question translated, or None when `line` is not one."""
    def match(pattern: str) -> re.Match[str] | None:
        return re.fullmatch(pattern, line)

    if m := match(r"Safe: no seat can beat any part of (.+)"):
        return _("Safe: no one can beat any part of %(cards)s", cards=m.group(1))
    if m := match(r"Not safe: seat (\d) could beat (.+) with (.+)"):
        return _("Not safe: %(seat)s could beat %(unit)s with %(cards)s", seat=seat(int(m.group(1))),
                 unit=m.group(2), cards=m.group(3))
    if m := match(r"(\S+) could be with: ((?:seat \d|the kitty)(?:, (?:seat \d|the kitty))*)"):
        return _("%(card)s could be with: %(places)s", card=m.group(1), places=_places(m.group(2), seat))
    if m := match(r"Could beat (\S+): ((?:seat \d)(?:, seat \d)*)"):
        return _("Could beat %(card)s: %(seats)s", card=m.group(1), seats=_places(m.group(2), seat))
    if m := match(r"No seat can beat (\S+)"):
        return _("No one can beat %(card)s", card=m.group(1))
    if m := match(r"Could ruff (\S+): ((?:seat \d)(?:, seat \d)*)"):
        return _("Could ruff %(suit)s: %(seats)s", suit=m.group(1), seats=_places(m.group(2), seat))
    if m := match(r"No seat can ruff (\S+)"):
        return _("No one can ruff %(suit)s", suit=m.group(1))
    if m := match(r"seat (\d) must still hold a (\S+) card"):
        return _("%(seat)s must still hold a %(suit)s card", seat=seat(int(m.group(1))), suit=m.group(2))
    if m := match(r"seat (\d) can hold no trump"):
        return _("%(seat)s can hold no trump", seat=seat(int(m.group(1))))
    if m := match(r"seat (\d) cannot be void in (\S+) and hold a trump at once"):
        return _("%(seat)s cannot be void in %(suit)s and hold a trump at once", seat=seat(int(m.group(1))),
                 suit=m.group(2))
    if m := match(r"seat (\d): (\d+) cards in hand, (\d+) trumps out, the most it could hold: (\d+)"):
        return _("%(seat)s: %(hand)s cards in hand, %(out)s trumps out, the most it could hold: %(n)s",
                 seat=seat(int(m.group(1))), hand=m.group(2), out=m.group(3), n=m.group(4))
    if m := match(r"(\S+): seat (\d) holds it in every consistent distribution"):
        return _("%(card)s: %(seat)s holds it however the unseen cards lie", card=m.group(1),
                 seat=seat(int(m.group(2))))
    if m := match(r"(\S+): no seat is certain to hold it"):
        return _("%(card)s: no one is certain to hold it", card=m.group(1))
    return None
