"""Estimates for claim metrics: means, paired differences, proportions, bootstraps.

Every standard error comes from independent repeats (spec, "Deciding"):
``sd / sqrt(n)`` over per-repeat values (over paired differences for a paired
ordering), or a seeded bootstrap over the repeats (>= 1000 resamples) when the
estimate is not a mean (an RMSE, a ratio, a slope, a median).
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from .core import Estimate

BOOTSTRAP_RESAMPLES = 2000
# A fixed stream: the bootstrap of a claim is part of the claim's definition,
# so the same results always give the same standard error.
BOOTSTRAP_SEED = 20261123


def _values(values) -> np.ndarray:
    x = np.asarray(values, dtype=np.float64).ravel()
    if x.size == 0:
        raise ValueError("an estimate needs at least one repeat")
    return x


def mean_estimate(values, details: str = "") -> Estimate:
    """Mean over independent repeats, s = sd / sqrt(n) (NaN s for n = 1)."""
    x = _values(values)
    s = float(x.std(ddof=1) / math.sqrt(x.size)) if x.size >= 2 else math.nan
    return Estimate(float(x.mean()), s, int(x.size), details)


def paired_difference(a, b, details: str = "") -> Estimate:
    """Mean of ``a - b`` over repeats paired by position (A and B share a repeat)."""
    a, b = _values(a), _values(b)
    if a.shape != b.shape:
        raise ValueError(f"paired repeats differ in number: {a.size} vs {b.size}")
    return mean_estimate(a - b, details)


def independent_difference(a, b, details: str = "") -> Estimate:
    """``mean(a) - mean(b)`` from two independent samples: s^2 = s_a^2/n_a + s_b^2/n_b."""
    ea, eb = mean_estimate(a), mean_estimate(b)
    s = math.sqrt(ea.std_error**2 + eb.std_error**2)
    return Estimate(ea.value - eb.value, s, min(ea.n, eb.n), details)


def proportion_estimate(successes: int, trials: int, details: str = "") -> Estimate:
    """A fraction of ``trials`` (runs, seeds, settings), decided by its Wilson interval."""
    if trials < 1:
        raise ValueError("a proportion needs at least one trial")
    return Estimate(successes / trials, math.nan, int(trials), details, successes=float(successes))


def proportion_difference(pa: float, na: int, pb: float, nb: int, details: str = "") -> Estimate:
    """``pa - pb`` of two independent proportions, binomial s.e. sqrt(pa qa / na + pb qb / nb).

    Decided as a one-sided or ordering claim on the difference, with n the
    smaller of the two trial counts.
    """
    s = math.sqrt(pa * (1 - pa) / na + pb * (1 - pb) / nb)
    return Estimate(pa - pb, s, int(min(na, nb)), details)


def bootstrap_estimate(
    repeats, statistic: Callable[[np.ndarray], float], details: str = "", seed: int = BOOTSTRAP_SEED
) -> Estimate:
    """``statistic`` of the repeats with a seeded bootstrap standard error over them.

    ``repeats`` is an array whose first axis indexes independent repeats;
    resampling draws whole repeats with replacement.
    """
    x = np.asarray(repeats, dtype=np.float64)
    n = x.shape[0]
    value = float(statistic(x))
    if n < 2:
        return Estimate(value, math.nan, n, details)
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, n, size=(BOOTSTRAP_RESAMPLES, n))
    boot = np.array([statistic(x[i]) for i in idx], dtype=np.float64)
    return Estimate(value, float(boot.std(ddof=1)), n, details)


def log_log_slope(x, y_repeats, details: str = "") -> Estimate:
    """Slope of log(mean over repeats of y) on log x, bootstrap s over the repeats.

    ``y_repeats`` has shape (n_repeats, len(x)); a trend claim is one-sided
    on this slope.
    """
    lx = np.log(np.asarray(x, dtype=np.float64))

    def slope(y):
        return float(np.polyfit(lx, np.log(y.mean(axis=0)), 1)[0])

    return bootstrap_estimate(np.asarray(y_repeats, dtype=np.float64), slope, details)


def repeat_rmse(err: np.ndarray) -> np.ndarray:
    """RMSE over the first axis (repeats), ignoring NaN (an estimator that failed in a repeat)."""
    return np.sqrt(np.nanmean(np.square(err), axis=0))


__all__ = [
    "mean_estimate",
    "paired_difference",
    "independent_difference",
    "proportion_estimate",
    "proportion_difference",
    "bootstrap_estimate",
    "log_log_slope",
    "repeat_rmse",
]
