"""The spec's verdict rule: an estimate, its standard error and n -> a verdict.

Implements "Claims, verdicts and the replication summary" of
``shared/spec/replication-targets.md``: interval, one-sided, ordering and trend
claims are decided on ``d +- k(n) s`` with ``k(n)`` the 97.5% Student-t
quantile on ``n - 1`` degrees of freedom; proportions use the 95% Wilson score
interval; exact claims are decided on ``d`` alone and are never inconclusive.
Bounds are inclusive. An inconclusive row carries ``needed_repeats``: the
smallest ``n'`` with ``k(n') sd / sqrt(n') <= m`` (``m`` the distance from
``d`` to the boundary that would decide it), or ``None`` when ``m = 0`` or
``n' > 10**6`` (shown as "> 10^6": too small an effect to decide).
"""

from __future__ import annotations

import math

REPRODUCED = "reproduced"
NOT_REPRODUCED = "not reproduced"
INCONCLUSIVE = "inconclusive"
NOT_RUN = "not run"
VERDICTS = (REPRODUCED, NOT_REPRODUCED, INCONCLUSIVE, NOT_RUN)
MAX_REPEATS = 10**6
# n = 1 cannot estimate a spread: the spec asks for 3 repeats then.
SINGLE_RUN_NEEDS = 3


def k_factor(n: int) -> float:
    """97.5% quantile of Student's t with ``n - 1`` degrees of freedom (n >= 2)."""
    if n < 2:
        raise ValueError(f"k(n) needs n >= 2, got {n}")
    # imported here, not at the top: every Snakemake parse imports this module (report.smk reads the papers'
    # titles through claims.summary) and scipy.stats alone takes about 2 s to import
    from scipy import stats

    return float(stats.t.ppf(0.975, n - 1))


def wilson_interval(successes: float, trials: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """95% Wilson score interval of a proportion (sensible at 0 and 1)."""
    if trials < 1:
        raise ValueError("a proportion needs at least one trial")
    p = successes / trials
    denom = 1.0 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def needed_repeats_t(sd: float, margin: float) -> int | None:
    """Smallest ``n'`` with ``k(n') sd / sqrt(n') <= margin``; None if none <= 10**6."""
    if margin <= 0 or not math.isfinite(margin):
        return None
    if sd == 0:
        return 2
    ok = lambda n: k_factor(n) * sd / math.sqrt(n) <= margin  # noqa: E731
    if not ok(MAX_REPEATS):
        return None
    lo, hi = 2, MAX_REPEATS  # ok(n) is monotone in n: bisect
    while lo < hi:
        mid = (lo + hi) // 2
        if ok(mid):
            hi = mid
        else:
            lo = mid + 1
    return lo


def needed_trials_wilson(fraction: float, clears) -> int | None:
    """Smallest trial count whose Wilson interval at ``fraction`` satisfies ``clears``."""
    n = 1
    while n <= MAX_REPEATS:
        if clears(*wilson_interval(fraction * n, n)):
            lo = max(1, n // 2)  # the doubling overshot by at most 2x: scan back
            for m in range(lo, n + 1):
                if clears(*wilson_interval(fraction * m, m)):
                    return m
        n *= 2
    return None


def decide_interval(d: float, s: float, n: int, lo: float, hi: float, *, exact: bool = False):
    """Verdict for ``theta in [lo, hi]``; returns ``(verdict, needed_repeats)``."""
    if not math.isfinite(d):
        return NOT_REPRODUCED, None
    if exact or (n >= 2 and s == 0):
        return (REPRODUCED if lo <= d <= hi else NOT_REPRODUCED), None
    if n < 2 or not math.isfinite(s):
        return INCONCLUSIVE, SINGLE_RUN_NEEDS
    ks = k_factor(n) * s
    if lo <= d - ks and d + ks <= hi:
        return REPRODUCED, None
    if d + ks < lo or d - ks > hi:
        return NOT_REPRODUCED, None
    # The nearer bound decides: inside, d must clear both; outside, the one crossed.
    margin = min(d - lo, hi - d) if lo <= d <= hi else (lo - d if d < lo else d - hi)
    return INCONCLUSIVE, needed_repeats_t(s * math.sqrt(n), margin)


def decide_one_sided(d: float, s: float, n: int, t: float, above: bool, *, exact: bool = False):
    """Verdict for ``theta > t`` (``above``) or ``theta < t``; ``(verdict, needed)``."""
    if not math.isfinite(d):
        return NOT_REPRODUCED, None
    diff = (d - t) if above else (t - d)
    if exact:
        # A stated bound is met on the boundary (inclusive).
        return (REPRODUCED if diff >= 0 else NOT_REPRODUCED), None
    if n >= 2 and s == 0:
        # All repeats equal: both rows of the spec's table hold at d = t
        # (0 >= 0 and 0 <= -0); the statement is strict (A better than B), so
        # a tie, e.g. 0 switches against 0, does not reproduce it.
        return (REPRODUCED if diff > 0 else NOT_REPRODUCED), None
    if n < 2 or not math.isfinite(s):
        return INCONCLUSIVE, SINGLE_RUN_NEEDS
    ks = k_factor(n) * s
    if diff >= ks:
        return REPRODUCED, None
    if diff <= -ks:
        return NOT_REPRODUCED, None
    return INCONCLUSIVE, needed_repeats_t(s * math.sqrt(n), abs(diff))


def decide_proportion(successes: float, trials: int, lo: float, hi: float):
    """Verdict for a proportion claimed to lie in ``[lo, hi]`` (one-sided: lo=0 or hi=1)."""
    w_lo, w_hi = wilson_interval(successes, trials)
    if lo <= w_lo and w_hi <= hi:
        return REPRODUCED, None
    if w_hi < lo or w_lo > hi:
        return NOT_REPRODUCED, None
    fraction = successes / trials
    if lo <= fraction <= hi:
        need = needed_trials_wilson(fraction, lambda a, b: lo <= a and b <= hi)
    else:
        need = needed_trials_wilson(fraction, lambda a, b: b < lo or a > hi)
    return INCONCLUSIVE, need


def combine_all_of(parts: list[tuple[str, int | None]]):
    """All-of: reproduced if every part is, not reproduced if any part is not."""
    verdicts = [v for v, _ in parts]
    if any(v == NOT_REPRODUCED for v in verdicts):
        return NOT_REPRODUCED, None
    if verdicts and all(v == REPRODUCED for v in verdicts):
        return REPRODUCED, None
    if any(v == NOT_RUN for v in verdicts) and not any(v == INCONCLUSIVE for v in verdicts):
        return NOT_RUN, None
    needs = [n for v, n in parts if v == INCONCLUSIVE]
    if any(n is None for n in needs):
        return INCONCLUSIVE, None
    counts = [n for n in needs if isinstance(n, int)]
    return INCONCLUSIVE, max(counts) if counts else needs[0]  # "n/a" only when no part can be decided by repeats


__all__ = [
    "k_factor",
    "wilson_interval",
    "needed_repeats_t",
    "needed_trials_wilson",
    "decide_interval",
    "decide_one_sided",
    "decide_proportion",
    "combine_all_of",
]
