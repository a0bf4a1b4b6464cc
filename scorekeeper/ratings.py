"""The estimates ``score stats`` and ``score simulate`` print: each game's Plackett–Luce
ratings, and the Wilson interval of a win rate.

The ratings are openskill's Plackett–Luce model (``openskill.models.PlackettLuce()``
with its defaults), for what ``score stats`` rates: every player a team of one, ranked by
their place (ties shared), no scores, no weights. :func:`plackett_luce` is that model's
``rate`` step written out for this case, each float operation the one openskill 6 does,
in the same order, so every figure is the very float ``PlackettLuce.rate`` gives
(``tests/test_ratings.py`` compares them, bit for bit, over random sessions). Through
openskill's API each session cost about 47 µs (``rate`` deep-copies the ratings it is
given and draws a UUID for each copy) and importing openskill about 10 ms, most of a
``score stats`` run's own work beyond ``score show`` (docs/performance.md); written out
it costs about 4 µs and no import.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

MU = 25.0
"""A newcomer's mean (openskill's default ``mu``)."""
SIGMA = 25.0 / 3.0
"""A newcomer's standard deviation (``sigma``: a rating of mu - 3 sigma = 0)."""
BETA = 25.0 / 6.0
KAPPA = 0.0001
TAU = 25.0 / 300.0

Rating = tuple[float, float]
"""(mu, sigma)."""


def plackett_luce(ratings: Sequence[Rating], places: Sequence[int]) -> list[Rating]:
    """The players' ratings after a session in which they took ``places`` (1 best, ties
    shared), from ``ratings`` before it, in the same order: what openskill's
    ``PlackettLuce().rate([[r] for r in ratings], ranks=places)`` gives (with each
    rating's ``mu`` and ``sigma``). At least two players, as ``rate`` requires."""
    count = len(ratings)
    if count < 2 or len(places) != count:
        raise ValueError("a Plackett-Luce rating needs two players or more, one place each")
    tau_squared = TAU * TAU
    beta_squared = BETA**2
    # rate(): the sigmas widened by tau, the teams sorted by rank (a stable sort);
    # _calculate_team_ratings(): a team of one weighs 1.0; _c(): summed in that order
    order = sorted(range(count), key=places.__getitem__)
    ranks: list[int] = []
    mus: list[float] = []
    sigmas: list[float] = []
    variances: list[float] = []
    collective = 0.0
    for index in order:
        mu, sigma = ratings[index]
        sigma = math.sqrt(sigma * sigma + tau_squared)
        variance = (sigma * 1.0) ** 2
        ranks.append(int(places[index]))
        mus.append(mu)
        sigmas.append(sigma)
        variances.append(variance)
        collective += variance + beta_squared
    c = math.sqrt(collective)
    strengths = [math.exp(mu / c) for mu in mus]
    # _sum_q(): each q's sum over the players placed no better, added in their order
    sum_q = [0.0] * count
    for i, strength in enumerate(strengths):
        rank = ranks[i]
        for q in range(count):
            if rank >= ranks[q]:
                sum_q[q] += strength
    tied = [ranks.count(rank) for rank in ranks]  # _a()
    updated: list[Rating] = [(0.0, 0.0)] * count
    for i, strength in enumerate(strengths):  # _compute()
        omega = 0.0
        delta = 0.0
        rank = ranks[i]
        for q in range(count):
            share = strength / sum_q[q]
            if ranks[q] <= rank:
                delta += share * (1 - share) / tied[q]
                if q == i:
                    omega += (1 - share) / tied[q]
                else:
                    omega -= share / tied[q]
        variance = variances[i]
        omega *= variance / c
        delta *= variance / c**2
        delta *= math.sqrt(variance) / c  # openskill's default gamma
        sigma = sigmas[i]
        weight = sigma**2 / variance
        mu = mus[i] + weight * omega * 1.0
        sigma *= math.sqrt(max(1 - weight * delta * 1.0, KAPPA))
        # (openskill then moves tied players' mu by their average change: zero, since it
        # subtracts each updated mu from itself, and x + 0.0 is x)
        updated[order[i]] = (mu, sigma)
    return updated


def wilson_interval(successes: float, trials: int, z: float = 1.959964) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion (shared wins count fractionally)."""
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    # At p = 0 or 1 the bound is exactly 0 or 1; rounding must not move it off.
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= trials else min(1.0, centre + half)
    return (low, high)
