"""Reverse annealed importance sampling (RAISE) from data: an upward-biased log Z.

Burda, Grosse & Salakhutdinov (2015); Carlson et al. (2016) sec. 3.2. A
reverse chain starts at a data point ``x_K = v`` and moves down the ladder
with the reversed transitions ``x_{k-1} ~ T~_k(. | x_k)``, k = K, ..., 1.
With the forward-AIS weight formula evaluated on that path,

    A = log Z_0 + sum_{k=1}^{K} [log f_k(x_{k-1}) - log f_{k-1}(x_{k-1})],

the ratio of forward to reverse path densities gives an unbiased estimate of
the annealing model's probability of the data point (the law of ``x_K`` after
forward AIS with a last transition at beta_K, a normalised distribution, so
``sum_v E[p^(v)] = 1`` exactly), ``p^(v) = exp(-F(v) - A)`` (Burda et al.
eq. 9), so
``log p^(v) = -F(v) - A`` is a stochastic lower bound on ``log p(v)`` and

    log Z_RAISE = mean_i [ -F(v_i) - log p^(v_i) ] = mean_i A_i     (one run per point)

is biased upwards (the upper half of the AIS/RAISE sandwich). With several
runs per point the per-point ``log p^`` is the log-mean-exp over runs.

Any model plugs in through the driver interface of :mod:`bmrep.estimators.ais`:
``init_state`` is the data-initialised state, ``transition`` must be the
*reversal* of the forward transition ``T_k`` with respect to the density the
weights use, ``T~_k(x | x') = T_k(x' | x) f_k(x) / f_k(x')``, and ``log_f``
is the same tempered family.

For an RBM the weights sum h out, so the state the weights see is v alone and
the forward transition "h ~ p_k(h | v), then v' ~ p_k(v | h)" is a kernel on v
(it ignores the old h). That kernel is reversible with respect to
``f_k(v) = sum_h f_k(v, h)``, since ``f_k(v) T_k(v' | v) = sum_h f_k(v, h)
p_k(v' | h)`` is symmetric in (v, v'): its reversal is the same sweep, h | v
then v | h. The order "v | h then h | v" is the reversal of the sweep on the
joint state (v, h) with the joint weights ``f_k(v, h)``; with the summed-out
weights it would draw v from the h of the previous (higher) beta, a mixed
kernel that is nobody's reversal (sum_v E[p^(v)] = 0.93 instead of 1 on a
4x3 RBM with two steps; ``tests/estimators/test_ais.py`` checks the identity by
enumeration).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import numpy as np

from ..sampling.ladders import check_betas
from .ais import log_mean_exp
from .annealing import anneal
from .base import EstimateResult
from .dbm_ais import dbm_annealing_model
from .rbm_ais import rbm_annealing_model

__all__ = ["raise_log_weights", "raise_log_partition", "raise_estimate", "dbm_reverse_log_weights", "reverse_log_z"]


def raise_log_weights(
    betas: np.ndarray,
    *,
    init_state: Any,
    transition: Callable,
    log_z_base: float,
    log_f: Callable | None = None,
    log_f_pair: Callable | None = None,
    checkpoint=None,
) -> tuple[np.ndarray, Any]:
    """Per-run ``A = log Z_0 + reverse-path log weight`` (see module docstring).

    Parameters
    ----------
    betas : array
        Increasing inverse temperatures ``0 = beta_0 < ... < beta_K = 1``; the
        chain visits them in reverse, making one reversed transition at each
        of ``beta_K, ..., beta_1``.
    init_state
        Chains initialised at data points.
    checkpoint : bmrep.learning.checkpoint.Checkpoint, optional
        Save the reverse pass every ``checkpoint.every`` steps and resume from
        a saved one, bit-identically (:func:`bmrep.estimators.annealing.anneal`).

    Returns
    -------
    A : ndarray (n_runs,)
        Per-run upward-biased log Z contributions; ``-F(v) - A`` is the
        run's ``log p^(v)``.
    state
        The final state (at beta_0).
    """
    betas = check_betas(betas)
    acc, state = anneal(
        betas[::-1].copy(),
        init_state,
        log_f=log_f,
        log_f_pair=log_f_pair,
        transition=transition,
        transition_first=True,
        checkpoint=checkpoint,
    )
    return acc + float(log_z_base), state


def raise_estimate(A: np.ndarray, point_index: np.ndarray | None = None, n_betas: int = 0) -> EstimateResult:
    """Combine per-run ``A`` into log Z_RAISE (mean over points of per-point estimates).

    With ``point_index`` (which data point each run started from) the
    per-point estimate is ``-logmeanexp_runs(-A)`` (``log p^`` averaged in
    probability space); otherwise every run is its own point. The stated
    error is the standard error of the mean over points.
    """
    A = np.asarray(A, np.float64)
    if point_index is None:
        per_point = A
    else:
        point_index = np.asarray(point_index)
        per_point = np.array([-log_mean_exp(-A[point_index == p]) for p in np.unique(point_index)])
    se = float(np.std(per_point, ddof=1) / np.sqrt(per_point.size)) if per_point.size > 1 else float("nan")
    return EstimateResult(
        float(np.mean(per_point)), se, "RAISE", float(max(n_betas - 1, 0)), {"n_points": int(per_point.size)}
    )


def raise_log_partition(
    rbm,
    V: np.ndarray,
    betas: np.ndarray,
    streams,
    base_bias: np.ndarray | None = None,
    *,
    operator=None,
    dtype=np.float64,
    n_threads: int = 1,
    checkpoint=None,
) -> EstimateResult:
    """RAISE estimate of an RBM's log Z from data points ``V`` (one run per row).

    The reverse chain makes one sweep (h | v then v | h, the forward AIS
    transition, which is its own reversal on v) at each of ``beta_K, ...,
    beta_1`` (Burda et al. 2015, sec. 3; see the module docstring).

    Returns the estimate (upward biased) with the per-run ``log p^(v)``
    (stochastic lower bounds on the data log-likelihoods) in
    ``details["log_p_hat"]``. ``checkpoint`` makes the reverse pass resumable
    (:func:`raise_log_weights`; off by default).
    """
    V = np.asarray(V)
    if V.ndim != 2 or V.shape[1] != rbm.n_visible:
        raise ValueError(f"V must have shape (n, {rbm.n_visible})")
    if len(streams) != V.shape[0]:
        raise ValueError(f"need one stream per data point: {len(streams)} streams for {V.shape[0]} points")
    init_sample, transition, log_f_pair, log_z0 = rbm_annealing_model(
        rbm, base_bias, operator=operator, dtype=dtype, n_threads=n_threads
    )
    state = init_sample(V.shape[0], streams)  # allocates arrays and the model cast; v is overwritten below
    state.set_visible(V)
    # The weights sum h out, so the reverse kernel is the forward sweep itself (h | v then v | h: reversible
    # on v, see the module docstring); its first step draws h | v, so no h is drawn for the data here.
    A, state = raise_log_weights(
        betas,
        init_state=state,
        transition=transition,
        log_f_pair=log_f_pair,
        log_z_base=log_z0,
        checkpoint=checkpoint,
    )
    free_energy = np.asarray(rbm.free_energy_v(np.asarray(V, np.float64)), np.float64)
    result = raise_estimate(A, n_betas=len(betas))
    return replace(result, details={**result.details, "log_p_hat": -free_energy - A})


def dbm_reverse_log_weights(
    dbm, chains, betas: np.ndarray, streams, base_bias=None, *, state: str = "v_h2", dtype=np.float64
) -> np.ndarray:
    """Reverse AIS on a DBM (the reverse half of bidirectional Monte Carlo, Grosse, Ghahramani & Adams 2015).

    Each run starts from one state of ``chains`` (a :class:`bmrep.sampling.dbm_gibbs.DBMChains`, ideally
    samples of the DBM at beta = 1) and moves down the forward AIS ladder ``betas`` of
    :func:`bmrep.estimators.dbm_ais.dbm_annealing_model` (the same family, base and ``state``: over {v, h2}
    with h1 summed out, or over h1). The forward sweep is its own reversal on that state (module docstring:
    with h1 summed out the DBM is an RBM between h1 and (v, h2); with v and h2 summed out, between h1 and
    them), so the reverse chain makes the forward sweep at ``beta_K, ..., beta_1``.

    Returns the per-run ``A`` (:func:`raise_log_weights`); from exact samples ``E[exp(-A)] = 1/Z``, so
    :func:`reverse_log_z` is an estimate of log Z biased **upwards** (Jensen), where forward AIS is biased
    downwards: together they bracket log Z when the starting states are exact samples.
    """
    init_sample, transition, log_f_pair, log_z0 = dbm_annealing_model(dbm, base_bias, dtype=dtype, state=state)
    n = chains.v.shape[0]
    # init_sample allocates the tempered chains (drawing from the base); the samples replace those states
    st = init_sample(n, streams).load(chains)
    A, _ = raise_log_weights(
        betas, init_state=st, transition=transition, log_f_pair=log_f_pair, log_z_base=float(log_z0)
    )
    return A


def reverse_log_z(A: np.ndarray) -> float:
    """The reverse (upper) estimate of log Z from reverse-AIS runs ``A``: ``-log mean exp(-A)``."""
    return -log_mean_exp(-np.asarray(A, np.float64))
