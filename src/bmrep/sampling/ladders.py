"""Ladders of inverse temperatures ``beta_min = beta_0 < ... < beta_K = 1``: the one place they are made.

Every ladder here is ascending (index 0 the base or the hottest level, the
last index beta = 1); a caller that walks from beta = 1 down (the DBM
samplers' tempered transitions and adaptive simulated tempering of
Salakhutdinov 2010) reverses it explicitly (``linear_betas(n, beta_min)[::-1]``).

Uniform (:func:`linear_betas`), the piecewise schedule of Salakhutdinov &
Murray (2008) (:func:`piecewise_betas`), and a ladder at equal thermodynamic
length built from a pilot run (:func:`adaptive_betas`), for AIS and RAISE
(:mod:`bmrep.estimators.ais`, :mod:`bmrep.estimators.reverse_ais`), simulated
tempering (Carlson et al. 2016), parallel tempering (Bruegge et al. 2013).
It sits in the sampling layer so that a training job (CAST, Trans-SAP, PT)
takes its ladder from here without depending on the estimators.
"""

from __future__ import annotations

import numpy as np

__all__ = ["linear_betas", "piecewise_betas", "fixed_betas", "FIXED_SCHEDULES", "adaptive_betas", "check_betas"]


def linear_betas(n_betas: int, beta_min: float = 0.0) -> np.ndarray:
    """``n_betas`` inverse temperatures uniform on [beta_min, 1], ascending, both ends included.

    With ``beta_min > 0`` (a ladder below the target only, Salakhutdinov 2010's
    tempering samplers) the steps are counted down from beta = 1:
    ``np.linspace(1, beta_min, n)[::-1]``, which can differ in the last bit of
    an interior value from ``np.linspace(beta_min, 1, n)``; it keeps the
    ladders those samplers have always used (and their results) bit for bit.
    """
    if n_betas < 2:
        raise ValueError(f"need at least 2 inverse temperatures, got {n_betas}")
    if not 0.0 <= beta_min < 1.0:
        raise ValueError(f"beta_min must be in [0, 1), got {beta_min}")
    if beta_min == 0.0:
        return np.linspace(0.0, 1.0, int(n_betas))
    return np.linspace(1.0, float(beta_min), int(n_betas))[::-1].copy()


def piecewise_betas(n_betas: int) -> np.ndarray:
    """The Salakhutdinov & Murray (2008) schedule scaled to ``n_betas`` values.

    Their 14500 betas are uniform with spacing 1e-3 on [0, 0.5], 1e-4 on
    [0.5, 0.9] and 1e-5 on [0.9, 1]: fractions 500/14500, 4000/14500 and
    10000/14500 of the points. ``piecewise_betas(14501)`` reproduces it.
    """
    if n_betas < 4:
        return linear_betas(n_betas)
    n = int(n_betas) - 1
    n1 = max(1, int(round(n * 500 / 14500)))
    n2 = max(1, int(round(n * 4000 / 14500)))
    n3 = max(1, n - n1 - n2)
    return np.concatenate(
        [
            np.linspace(0.0, 0.5, n1, endpoint=False),
            np.linspace(0.5, 0.9, n2, endpoint=False),
            np.linspace(0.9, 1.0, n3 + 1),
        ]
    )


FIXED_SCHEDULES = ("linear", "piecewise")


def fixed_betas(schedule: str, n_betas: int) -> np.ndarray:
    """The ladder of ``n_betas`` betas on [0, 1] of a schedule fixed in advance: ``linear`` or ``piecewise``.

    ``linear`` is :func:`linear_betas` (uniform in beta), ``piecewise`` the
    Salakhutdinov & Murray (2008) ladder :func:`piecewise_betas`.

    Why a DBM's final AIS is linear (Salakhutdinov 2010, config ``evaluation.final_ais``):
    the tempered family of a trained DBM can cross a first-order transition
    (on the 784-12-12 selection DBM near beta = 0.62, where the exact sd of
    d log f / d beta peaks at 27 against 7-10 elsewhere). Past it the AIS
    chains lag in the metastable phase, and the cost of annealing is set by
    the variance *times the relaxation time* there (the friction of Sivak &
    Crooks 2012, Phys. Rev. Lett. 108, 190602), not by the variance alone
    that :func:`adaptive_betas` equalises: a pilot whose chains are all still
    metastable reports the small within-phase spread and thins the ladder
    where it needs most steps. The piecewise ladder spends 69% of its steps
    on [0.9, 1] and 3% on [0, 0.5]. Without a measure of the relaxation,
    uniform spacing keeps the sweeps where the transition happens to lie;
    the number of betas it needs was measured on that DBM (config/README.md).
    """
    if schedule == "linear":
        return linear_betas(n_betas)
    if schedule == "piecewise":
        return piecewise_betas(n_betas)
    raise ValueError(f"a fixed ladder is one of {', '.join(FIXED_SCHEDULES)}, got {schedule!r}")


def adaptive_betas(pilot_betas: np.ndarray, step_sd: np.ndarray, n_betas: int, uniform_mix: float = 0.1) -> np.ndarray:
    """A ladder of ``n_betas`` inverse temperatures at equal thermodynamic length, from a pilot run.

    For a small step the AIS log-weight increment from ``beta`` to
    ``beta + d`` has standard deviation about ``d * s(beta)`` with
    ``s(beta)^2 = Var_beta[d/dbeta log f_beta(x)]``; under perfect transitions
    the increments are independent and, with ``n(beta)`` betas per unit
    beta, ``Var(log w) ~ int s^2 / n dbeta``; at fixed ``K = int n`` this is
    smallest, ``(int s dbeta)^2 / K``, for ``n`` proportional to ``s``: the
    constant-speed schedule that spends equal amounts of ``s(beta) dbeta`` per
    step (cf. Gelman & Meng 1998 on path sampling; Grosse, Maddison &
    Salakhutdinov 2013 on AIS schedules). The variance of log w also sets
    the downward bias of log Z (about half of it for near-Gaussian weights). ``s`` is estimated on each interval of a
    pilot ladder from the spread over runs of its increments,
    ``s_k = step_sd[k] / (beta_{k+1} - beta_k)``; the pilot's runs, lagging
    behind equilibrium where the chains mix slowly, measure the spread that
    the main run will meet. The density of betas is
    ``(1 - uniform_mix) * s / int s + uniform_mix`` (the uniform part keeps
    steps everywhere, where the pilot saw little spread), and the betas are
    its quantiles, linear within each pilot interval. Endpoints are kept.

    Any schedule fixed before the main run leaves AIS unbiased in Z, so the
    pilot must use random numbers independent of the main run.
    """
    pilot_betas = check_betas(pilot_betas)
    step_sd = np.asarray(step_sd, dtype=np.float64)
    if step_sd.shape != (pilot_betas.size - 1,):
        raise ValueError(
            f"step_sd must have one entry per pilot step ({pilot_betas.size - 1}), got shape {step_sd.shape}"
        )
    if not np.all(np.isfinite(step_sd)) or np.any(step_sd < 0):
        raise ValueError("step_sd must be finite and non-negative")
    if not 0.0 < uniform_mix <= 1.0:
        raise ValueError(f"uniform_mix must lie in (0, 1], got {uniform_mix}")
    if n_betas < 2:
        raise ValueError(f"need at least 2 inverse temperatures, got {n_betas}")
    width = np.diff(pilot_betas)
    span = pilot_betas[-1] - pilot_betas[0]
    mass = step_sd / step_sd.sum() if step_sd.sum() > 0 else width / span  # share of length per pilot interval
    mass = (1.0 - uniform_mix) * mass + uniform_mix * width / span
    cum = np.concatenate([[0.0], np.cumsum(mass)])
    cum /= cum[-1]
    betas = np.interp(np.linspace(0.0, 1.0, int(n_betas)), cum, pilot_betas)
    betas[0], betas[-1] = pilot_betas[0], pilot_betas[-1]
    return check_betas(betas)


def check_betas(betas: np.ndarray, increasing: bool = True) -> np.ndarray:
    """Check an annealing schedule and return it as a float64 array.

    ``betas`` must be a 1-d array of at least 2 values in [0, 1], strictly
    monotone (increasing for AIS, decreasing for reverse annealing), else a
    ValueError is raised.
    """
    betas = np.asarray(betas, dtype=np.float64)
    if betas.ndim != 1 or betas.size < 2:
        raise ValueError("betas must be a 1-d array of at least 2 inverse temperatures")
    if np.any(betas < 0) or np.any(betas > 1):
        raise ValueError("inverse temperatures must lie in [0, 1]")
    d = np.diff(betas)
    if increasing and np.any(d <= 0):
        raise ValueError("betas must be strictly increasing")
    if not increasing and np.any(d >= 0):
        raise ValueError("betas must be strictly decreasing")
    return betas
