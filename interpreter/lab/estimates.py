"""Uncertainty of one configuration's numbers: a mean's standard error and 95% interval.

Owns the two intervals `simulate` and `compare` print beside every mean: for
a mean of per-game numbers (turns, decisions, a spec's measure) the t
interval from the running sum and sum of squares, and for a share (a seat's
win share, the stall rate) the Wilson score interval, which stays honest
when the share is 0 or 1 or the games are few. Comparing two configurations
is paired.py's job.
"""
from __future__ import annotations

import math

from .verdicts import t_value, z_value

LEVEL = 0.95


def mean_estimate(total: float, squares: float, n: int, level: float = LEVEL) -> dict:
    """{mean, sd, se, ci95} of n numbers from their sum and sum of squares (None where n is too small)."""
    if n <= 0:
        return {"mean": None, "sd": None, "se": None, "ci95": None}
    mean = total / n
    if n < 2:
        return {"mean": mean, "sd": None, "se": None, "ci95": None}
    var = max(0.0, (squares - total * total / n) / (n - 1))
    sd = math.sqrt(var)
    se = sd / math.sqrt(n)
    t = t_value(1 - level, n - 1)
    ci = [mean - t * se, mean + t * se] if math.isfinite(t) else None
    return {"mean": mean, "sd": sd, "se": se, "ci95": ci}


def share_estimate(successes: float, n: int, level: float = LEVEL) -> dict:
    """{mean, se, ci95} of a share (successes may be fractional: a shared win credits each winner 1/k)."""
    if n <= 0:
        return {"mean": None, "se": None, "ci95": None}
    p = successes / n
    z = z_value(1 - level)
    se = math.sqrt(max(p * (1 - p), 0.0) / n)
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z / denom * math.sqrt(max(p * (1 - p), 0.0) / n + z * z / (4 * n * n))
    return {"mean": p, "se": se, "ci95": [max(0.0, centre - half), min(1.0, centre + half)]}
