"""Verdicts against a practical margin: material, immaterial, undecided (and how many games would decide).

Owns the statistics that turn a paired interval into a verdict a rules
editor can act on:

- the interval's half-width, either for a fixed number of games (a normal
  interval with a small-sample t correction) or for play-until-decided, an
  *anytime-valid* confidence sequence (Waudby-Smith, Arnold, Wu, Ramdas and
  Howard 2021, "Time-uniform central limit theory", asymptotic normal-mixture
  boundary): it holds at every look at once, so looking after every batch and
  stopping when a verdict is reached does not raise the error rate;
- the verdict of one measure against its margin: *material* when the whole
  interval lies outside the margin, *immaterial* when it lies inside (two
  one-sided tests, each at the interval's level: equivalence shown),
  *undecided* otherwise;
- an estimate of how many games would decide an undecided measure, if the
  difference stays what it is now.

It does not collect the per-game differences (paired.py) nor pick margins
(settings.py).
"""
from __future__ import annotations

import functools
import math
from statistics import NormalDist

MATERIAL, IMMATERIAL, UNDECIDED, UNREACHABLE = "material", "immaterial", "undecided", "unreachable"
ORDER = {MATERIAL: 0, UNDECIDED: 1, IMMATERIAL: 2, UNREACHABLE: 3}
MAX_GAMES_ESTIMATE = 10_000_000  # past this, "games to decide" is reported as unknown (the effect sits on the margin)


def z_value(alpha: float) -> float:
    """The two-sided normal quantile for error `alpha`."""
    return NormalDist().inv_cdf(1 - alpha / 2)


def t_value(alpha: float, df: int) -> float:
    """Two-sided Student t quantile: exact (numerically) up to 60 degrees of freedom, then the
    Cornish-Fisher expansion of the normal quantile (error below 0.1% there)."""
    if df < 3:  # two or three games decide nothing
        return math.inf
    if df <= 60:
        return _t_exact(round(alpha, 12), df)
    z = z_value(alpha)
    g1 = (z ** 3 + z) / 4
    g2 = (5 * z ** 5 + 16 * z ** 3 + 3 * z) / 96
    g3 = (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / 384
    return z + g1 / df + g2 / df ** 2 + g3 / df ** 3


@functools.lru_cache(maxsize=4096)
def _t_exact(alpha: float, df: int) -> float:
    """The x with P(|T| > x) = alpha, by bisection on the t distribution's tail (Simpson's rule)."""
    c = math.exp(math.lgamma((df + 1) / 2) - math.lgamma(df / 2)) / math.sqrt(df * math.pi)

    def density(x: float) -> float:
        return c * (1 + x * x / df) ** (-(df + 1) / 2)

    def central(x: float, steps: int = 400) -> float:  # P(0 < T < x)
        h = x / steps
        total = density(0) + density(x)
        for k in range(1, steps):
            total += (4 if k % 2 else 2) * density(k * h)
        return total * h / 3
    lo, hi = 0.0, 2.0
    while 1 - 2 * central(hi) > alpha:
        lo, hi = hi, hi * 2
    for _ in range(50):
        mid = (lo + hi) / 2
        if 1 - 2 * central(mid) > alpha:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-6:
            break
    return hi


def fixed_half(sd: float, n: int, alpha: float) -> float:
    """Half-width of a (1 - alpha) interval of a mean of n paired differences, looked at once."""
    if n < 2:
        return math.inf
    return t_value(alpha, n - 1) * sd / math.sqrt(n)


def cs_rho2(alpha: float, t_star: float) -> float:
    """The mixture parameter that makes the confidence sequence tightest near `t_star` games."""
    a = -2 * math.log(alpha)
    return (a + math.log(a + 1)) / max(t_star, 1.0)


def sequence_half(sd: float, n: int, alpha: float, t_star: float) -> float:
    """Half-width of an asymptotic (1 - alpha) confidence sequence after n games (valid at every n at once)."""
    if n < 2:
        return math.inf
    r2 = cs_rho2(alpha, t_star)
    return sd * math.sqrt(2 * (n * r2 + 1) / (n * n * r2) * math.log(math.sqrt(n * r2 + 1) / alpha))


def judge(lo: float, hi: float, margin: float) -> str:
    """One measure: outside the margin, inside it, or neither yet."""
    if lo > margin or hi < -margin:
        return MATERIAL
    if -margin <= lo and hi <= margin:
        return IMMATERIAL
    return UNDECIDED


def games_to_decide(mean: float, sd: float, n: int, margin: float, alpha: float,
                    t_star: float | None = None) -> int | None:
    """How many games (in all, for each side) would decide this measure if its mean and spread stay as now.

    None when it cannot be told: the difference sits on the margin (or no spread is known yet).
    """
    gap = abs(abs(mean) - margin)
    if gap <= 1e-12 or not math.isfinite(sd) or sd <= 0:
        return None

    def half(k: int) -> float:
        return sequence_half(sd, k, alpha, t_star) if t_star else fixed_half(sd, k, alpha)
    if half(max(n, 2)) < gap:
        return max(n, 2)
    lo, hi = max(n, 2), max(n, 2) * 2
    while half(hi) >= gap:
        lo, hi = hi, hi * 2
        if hi > MAX_GAMES_ESTIMATE:
            return None
    while hi - lo > max(1, lo // 100):  # one percent is as precise as an estimate like this deserves
        mid = (lo + hi) // 2
        if half(mid) < gap:
            hi = mid
        else:
            lo = mid
    return hi


def combine(verdicts: list[str], estimates: list[int | None], heading_material: list[bool]) -> tuple[str, int | None]:
    """The verdict of one reading from its measures' verdicts.

    Material if any measure is; immaterial if all are; otherwise undecided, with the games that would decide
    it: the fewest that would show a measure now outside its margin to be material, or else the most that
    every measure needs to be shown inside.
    """
    if MATERIAL in verdicts:
        return MATERIAL, None
    if all(v == IMMATERIAL for v in verdicts):
        return IMMATERIAL, None
    open_ = [(e, h) for v, e, h in zip(verdicts, estimates, heading_material) if v == UNDECIDED]
    towards = [e for e, h in open_ if h and e is not None]
    if towards:
        return UNDECIDED, min(towards)
    if any(e is None for e, _h in open_):
        return UNDECIDED, None
    return UNDECIDED, max(e for e, _h in open_)


def ambiguity_verdict(reading_verdicts: list[str]) -> str:
    """One ambiguity from its readings: material if any is, immaterial if every reachable one is."""
    vs = set(reading_verdicts)
    if MATERIAL in vs:
        return MATERIAL
    if not vs or vs == {UNREACHABLE}:
        return UNREACHABLE
    if UNDECIDED in vs:
        return UNDECIDED
    return IMMATERIAL
