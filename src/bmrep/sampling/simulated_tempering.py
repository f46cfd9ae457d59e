"""Simulated tempering (ST) over a ladder of K inverse temperatures; it emits per-sweep statistics.

Carlson et al. (2016) sec. 2.1 and Algorithm 1: a Gibbs sampler on
``q(x, beta_k) ∝ f_k(x) r_k / Zhat_k`` (eq. 6) alternating (i) a transition of
x that leaves ``f_{beta}`` invariant at each chain's current beta and (ii) a
draw of the chain's temperature from ``q(beta_k | x)`` (eq. 7). For the
geometric family of eq. 2, ``log f_k(x) = beta_k Delta(x) + log p1(x)`` with
``Delta = log f - log p1``, so

    q(beta_k | x) = softmax_k( log r_k - log Zhat_k + beta_k Delta(x) ).

Every sweep hands ``(q(beta | x), k)`` of all chains to an observer: the
estimators consume them (the Rao-Blackwellized marginals of eq. 9 in
:class:`bmrep.estimators.rts.TemperingStats`, through
:func:`bmrep.estimators.rts.run_simulated_tempering`).

The driver :func:`run_tempering_sweeps` is model-agnostic: a model gives
``step(state, chain_betas) -> Delta`` (one transition at per-chain betas,
returning ``Delta(x) = log f(x) - log p1(x)`` of the new states). For RBMs
:class:`bmrep.sampling.tempered_rbm.TemperedRBMChains` does it with the core's compiled layer updates:
x = (v, h), ``log f_beta(v, h) = beta Delta(v, h) + a.v`` with
``Delta = -E(v, h) - a.v`` (a = base logits), which is linear in beta, so
``q(beta | x)`` costs O(K) per chain. Temperature draws use one
``numpy.random.Generator`` (serial, so thread count does not matter).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy.special import logsumexp

from ._tempering import normalise_rows, sample_rows, shifted_logits
from .tempered_rbm import TemperedRBMChains

__all__ = [
    "log_temperature_conditional",
    "temperature_conditional",
    "sample_temperatures",
    "run_tempering_sweeps",
    "STRecord",
    "rbm_step",
]


def _temperature_logits(delta, betas, log_prior, log_zhat) -> np.ndarray:
    """Unnormalised ``log q(beta_k | x_i)`` of eq. 7: ``log r_k - log Zhat_k + beta_k Delta(x_i)``, (N, K)."""
    delta = np.asarray(delta, np.float64).reshape(-1, 1)
    return (np.asarray(log_prior, np.float64) - np.asarray(log_zhat, np.float64))[None, :] + delta * np.asarray(
        betas, np.float64
    )[None, :]


def log_temperature_conditional(
    delta: np.ndarray, betas: np.ndarray, log_prior: np.ndarray, log_zhat: np.ndarray
) -> np.ndarray:
    """``log q(beta_k | x_i)`` (eq. 7) for each sample i and temperature k: (N, K)."""
    a = _temperature_logits(delta, betas, log_prior, log_zhat)
    return a - logsumexp(a, axis=1, keepdims=True)


def temperature_conditional(
    delta: np.ndarray, betas: np.ndarray, log_prior: np.ndarray, log_zhat: np.ndarray
) -> np.ndarray:
    """``q(beta_k | x_i)`` (eq. 7) as probabilities (N, K); rows sum to 1 (one exp per entry).

    The softmax of :func:`_temperature_logits` (max-shifted), with the
    compiled passes of :mod:`bmrep.sampling._tempering` around numpy's exp:
    the same bits as the numpy expression, in a third of its time at K = 1000.
    """
    delta = np.ascontiguousarray(delta, np.float64).reshape(-1)
    betas = np.ascontiguousarray(betas, np.float64)
    offset = np.asarray(log_prior, np.float64) - np.asarray(log_zhat, np.float64)
    a = np.empty((delta.size, betas.size))
    shifted_logits(delta, betas, np.ascontiguousarray(np.broadcast_to(offset, betas.shape)), a)
    np.exp(a, out=a)
    normalise_rows(a)
    return a


def sample_temperatures(q: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One categorical draw per row of ``q`` (n, K) (probabilities, rows need not be normalised) by inverse CDF.

    Row i gets the number of its cumulative sums below ``u_i`` times the row
    total (``u_i = rng.random()``), clipped to ``K - 1``; compiled
    (:func:`bmrep.sampling._tempering.sample_rows`), numpy's row-wise cumsum
    was the slowest step of a K = 1000 sweep.
    """
    q = np.ascontiguousarray(q, np.float64)
    k = np.empty(q.shape[0], np.int64)
    sample_rows(q, rng.random(q.shape[0]), k)
    return k


@dataclass
class STRecord:
    """Per-sample records for TI, MBAR and bootstrap: ``delta`` and ``k`` of shape (n_sweeps, n_chains)."""

    delta: np.ndarray
    k: np.ndarray


def run_tempering_sweeps(
    state: Any,
    k: np.ndarray,
    *,
    step: Callable[[Any, np.ndarray], np.ndarray],
    betas: np.ndarray,
    log_prior: np.ndarray,
    log_zhat: np.ndarray,
    n_sweeps: int,
    rng: np.random.Generator,
    observe: Callable[[np.ndarray, np.ndarray], None] | None = None,
    record: bool = False,
) -> tuple[np.ndarray, STRecord | None]:
    """Run ``n_sweeps`` of simulated tempering (Algorithm 1 of Carlson et al. 2016).

    Parameters
    ----------
    state
        The chains' x (any object ``step`` understands); updated by ``step``.
    k : (n_chains,) int array
        Current temperature indices (updated copy is returned).
    step : callable
        ``step(state, betas[k]) -> Delta`` (n_chains,).
    betas, log_prior, log_zhat : (K,) arrays
    n_sweeps : int
    rng : numpy.random.Generator
        Source of the temperature draws.
    observe : callable, optional
        ``observe(q, k)`` after every sweep with ``q(beta | x)`` (n_chains, K)
        of eq. 7 and the drawn indices k (n_chains,), e.g.
        :meth:`bmrep.estimators.rts.TemperingStats.add`.
    record : bool
        Keep ``Delta`` and the drawn ``k`` of every sample.

    Returns
    -------
    k, record
    """
    betas = np.asarray(betas, np.float64)
    k = np.asarray(k, np.int64).copy()
    n_chains = k.size
    rec = STRecord(np.empty((n_sweeps, n_chains)), np.empty((n_sweeps, n_chains), np.int32)) if record else None
    for t in range(int(n_sweeps)):
        delta = np.asarray(step(state, betas[k]), np.float64)
        q = temperature_conditional(delta, betas, log_prior, log_zhat)
        k = sample_temperatures(q, rng)
        if observe is not None:
            observe(q, k)
        if rec is not None:
            rec.delta[t] = delta
            rec.k[t] = k
    return k, rec


def rbm_step(state: TemperedRBMChains, chain_betas: np.ndarray) -> np.ndarray:
    """The driver's ``step`` for RBM chains: one sweep, returns Delta."""
    return state.sweep(chain_betas)
