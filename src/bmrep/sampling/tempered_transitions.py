"""Tempered transitions (Neal 1996), vectorised over independent chains.

A tempered transition from x moves the state up a ladder of inverse
temperatures ``1 = beta_0 > beta_1 > ... > beta_n`` and back down, and accepts
the end point with a Metropolis-Hastings probability (Neal 1996, section 3)::

    x^_0 = x;  x^_i ~ T^_i(x^_{i-1}),  i = 1..n     (up: forward sweeps)
    xv_{n-1} ~ Tv_n(x^_n);  xv_{i-1} ~ Tv_i(xv_i),  i = n-1..1  (down: reversed sweeps)

    a = prod_{i=0}^{n-1} p_{i+1}(x^_i) / p_i(x^_i)  *  prod_{i=0}^{n-1} p_i(xv_i) / p_{i+1}(xv_i),

with p_i ∝ exp(-beta_i E) and Tv_i the reversal of T^_i (for a block Gibbs
sweep: the same blocks in the opposite order). Accepting xv_0 with
probability min(1, a) leaves p_0 invariant. Used by Trans-SAP (Salakhutdinov
2010, NIPS; compared against CAST in Salakhutdinov 2010, ICML, Table 1).

References
----------
Neal, R. M. (1996). Sampling from multimodal distributions using tempered
transitions. Statistics and Computing 6, 353-366.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np


def tempered_transition(chains, ladder: np.ndarray, sweep: Callable, energy: np.ndarray, log_u: np.ndarray):
    """One tempered transition of every chain, in place.

    Parameters
    ----------
    chains
        States with ``copy()``, ``take(idx)`` and ``put(idx, other)`` (e.g.
        :class:`bmrep.sampling.dbm_gibbs.DBMChains`).
    ladder : array (n+1,)
        ``1 = beta_0 > beta_1 > ... > beta_n``.
    sweep : callable ``(chains, beta, reverse) -> energy``
        A sweep leaving ``exp(-beta E)`` invariant; ``reverse=True`` must be
        its reversal. Returns the new states' energies (float64).
    energy : array (n_chains,)
        E of the current states.
    log_u : array (n_chains,)
        Logs of one uniform per chain (from the chains' own streams).

    Returns
    -------
    accepted : bool array (n_chains,)
    energy : array (n_chains,)  energies of the states after the transition
    """
    ladder = np.asarray(ladder, dtype=np.float64)
    if ladder.ndim != 1 or ladder.size < 2 or ladder[0] != 1.0 or np.any(np.diff(ladder) >= 0):
        raise ValueError("the ladder must decrease strictly from beta_0 = 1")
    n = ladder.size - 1
    start = chains.copy()
    e0 = np.asarray(energy, dtype=np.float64)
    e = e0
    log_a = -(ladder[1] - ladder[0]) * e
    for i in range(1, n + 1):
        e = sweep(chains, ladder[i], False)
        if i < n:
            log_a = log_a - (ladder[i + 1] - ladder[i]) * e
    for i in range(n, 0, -1):
        e = sweep(chains, ladder[i], True)
        log_a = log_a - (ladder[i - 1] - ladder[i]) * e
    accepted = np.asarray(log_u) < np.minimum(log_a, 0.0)
    rejected = np.flatnonzero(~accepted)
    if rejected.size:
        chains.put(rejected, start.take(rejected))
    return accepted, np.where(accepted, e, e0)


__all__ = ["tempered_transition"]
