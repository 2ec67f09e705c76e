"""Glicko-2 ratings (Glickman, "Example of the Glicko-2 system", 2012): a rating, its deviation (RD)
and its volatility, updated from the games of one rating period.

Pure and small: the daily drill rates a player against a position (win = a right answer), as Lichess
rates puzzles. The worked example of the paper (r' 1464.06, RD' 151.52, σ' 0.05999) is a test:

>>> player = Glicko(1500, 200, 0.06)
>>> after = player.update([(Glicko(1400, 30), 1.0), (Glicko(1550, 100), 0.0), (Glicko(1700, 300), 0.0)])
>>> round(after.rating, 2), round(after.deviation, 2), round(after.volatility, 6)
(1464.05, 151.52, 0.059996)
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

SCALE = 173.7178
"""Glicko-2's factor between the Glicko scale (1500 ± …) and its own."""
TAU = 0.5
"""The system constant: how much the volatility may change (the paper suggests 0.3–1.2)."""
EPSILON = 0.000001
"""The convergence tolerance of the volatility iteration."""
MIN_DEVIATION = 45.0
"""The deviation never falls below this, so a rating keeps following the player (as Lichess does)."""
MAX_DEVIATION = 350.0
"""A new rating's deviation, and the most it grows to."""


@dataclass(frozen=True, slots=True)
class Glicko:
    """A rating on the Glicko scale: rating, deviation (RD), volatility (σ)."""

    rating: float = 1500.0
    deviation: float = MAX_DEVIATION
    volatility: float = 0.06

    def expected(self, opponent: Glicko) -> float:
        """The expected score against `opponent` (0 … 1)."""
        mu, mu_j, phi_j = (self.rating - 1500) / SCALE, (opponent.rating - 1500) / SCALE, opponent.deviation / SCALE
        return _e(mu, mu_j, _g(phi_j))

    def update(self, games: Sequence[tuple[Glicko, float]], tau: float = TAU) -> Glicko:
        """The rating after one period with `games` (opponent, score 1 win / 0.5 draw / 0 loss); no
        games: only the deviation grows."""
        mu, phi, sigma = (self.rating - 1500) / SCALE, self.deviation / SCALE, self.volatility
        if not games:
            return Glicko(self.rating, min(math.sqrt(phi**2 + sigma**2) * SCALE, MAX_DEVIATION), sigma)
        terms = []
        for opponent, score in games:
            mu_j, g_j = (opponent.rating - 1500) / SCALE, _g(opponent.deviation / SCALE)
            terms.append((g_j, _e(mu, mu_j, g_j), score))
        v = 1 / sum(g**2 * e * (1 - e) for g, e, _s in terms)
        delta = v * sum(g * (s - e) for g, e, s in terms)
        sigma_new = _volatility(delta, phi, v, sigma, tau)
        phi_star = math.sqrt(phi**2 + sigma_new**2)
        phi_new = 1 / math.sqrt(1 / phi_star**2 + 1 / v)
        mu_new = mu + phi_new**2 * sum(g * (s - e) for g, e, s in terms)
        return Glicko(mu_new * SCALE + 1500, phi_new * SCALE, sigma_new)

    def floored(self) -> Glicko:
        """The same rating with the deviation kept between `MIN_DEVIATION` and `MAX_DEVIATION`."""
        return Glicko(self.rating, min(max(self.deviation, MIN_DEVIATION), MAX_DEVIATION), self.volatility)


def _g(phi: float) -> float:
    return 1 / math.sqrt(1 + 3 * phi**2 / math.pi**2)


def _e(mu: float, mu_j: float, g_j: float) -> float:
    return 1 / (1 + math.exp(-g_j * (mu - mu_j)))


def _volatility(delta: float, phi: float, v: float, sigma: float, tau: float) -> float:
    """The new volatility: the root of f by the Illinois algorithm (step 5 of the paper)."""
    a = math.log(sigma**2)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta**2 - phi**2 - v - ex) / (2 * (phi**2 + v + ex) ** 2) - (x - a) / tau**2

    big_a = a
    if delta**2 > phi**2 + v:
        big_b = math.log(delta**2 - phi**2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2)


def after_game(player: Glicko, opponent: Glicko, won: bool) -> Glicko:
    """`player` after one game against `opponent`, won or lost (the deviation floored)."""
    return player.update([(opponent, 1.0 if won else 0.0)]).floored()


def play(player: Glicko, position: Glicko, right: bool) -> tuple[Glicko, Glicko]:
    """One answer as one game: the player and the position after it (the player wins when right)."""
    return after_game(player, position, right), after_game(position, player, not right)
