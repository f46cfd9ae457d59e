"""One simulated-tempering run with RTS estimates: initial iterations, then checkpoints (Carlson et al. 2016).

Sec. 2.4: the initial iterations refine ``Zhat`` by eq. 12 from short runs
that keep every chain's x and draw fresh uniform temperatures; the main run
then samples with the final ``Zhat`` and reads RTS (eq. 12, error eq. 16) and
TS at checkpoints (nested prefixes of one run). :class:`RTSRun` holds the
chains, the temperature stream and the current ``Zhat`` between those steps,
for any model: ``step(state, betas_of_chains) -> Delta`` advances ``state``
in place (:func:`bmrep.sampling.simulated_tempering.rbm_step`, an HMC step).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..sampling.simulated_tempering import STRecord
from .rts import InitialIterations, TemperingStats, initial_iterations, run_simulated_tempering

__all__ = ["RTSRun"]


@dataclass
class RTSRun:
    """Simulated tempering on ``n_chains`` chains with the RTS estimator (Algorithm 1, sec. 2.3-2.4).

    Attributes
    ----------
    state : object
        The chains' x, advanced in place by ``step``.
    step : callable
        ``step(state, betas_of_chains) -> Delta`` (one sweep at per-chain betas).
    betas, log_prior : ndarray (K,)
        The ladder (ascending, ``beta_1 = 0``) and the log prior r_k.
    n_chains : int
    rng : numpy.random.Generator
        The temperature stream (uniform restarts and the temperature moves).
    log_zhat : ndarray (K,)
        The current ``log Zhat`` (updated by :meth:`initial_iterations`).
    k : ndarray (n_chains,) or None
        The chains' temperature indices now (None before any sweep).
    """

    state: Any
    step: Callable
    betas: np.ndarray
    log_prior: np.ndarray
    n_chains: int
    rng: np.random.Generator
    log_zhat: np.ndarray
    k: np.ndarray | None = None

    def sweeps(self, n_sweeps: int, *, restart: bool = False, stats=None, record: bool = False):
        """``n_sweeps`` sweeps from the current (x, k); ``restart``: fresh uniform temperatures first.

        Returns ``(stats, record)`` of :func:`~bmrep.estimators.rts.run_simulated_tempering`.
        """
        if restart or self.k is None:
            self.k = self.rng.integers(0, self.betas.size, self.n_chains)
        stats, self.k, rec = run_simulated_tempering(
            self.state,
            self.k,
            step=self.step,
            betas=self.betas,
            log_prior=self.log_prior,
            log_zhat=self.log_zhat,
            n_sweeps=int(n_sweeps),
            rng=self.rng,
            stats=stats,
            record=record,
        )
        return stats, rec

    def initial_iterations(
        self, n_sweeps: int, max_iterations: int, *, rao_blackwell: bool = True, stop: bool = True
    ) -> InitialIterations:
        """Sec. 2.4: iterations of ``n_sweeps`` sweeps (fresh uniform temperatures each), ``Zhat`` by eq. 12.

        Leaves ``log_zhat`` at the final estimate and ``k`` at the last iteration's temperatures.
        """

        def one_iteration(log_zhat):
            self.log_zhat = log_zhat
            s, _ = self.sweeps(n_sweeps, restart=True)
            return s.q_sum.sum(axis=0), s.counts.sum(axis=0)

        start = np.asarray(self.log_zhat, np.float64)
        hist = initial_iterations(
            one_iteration, self.log_prior, start, max_iterations, rao_blackwell=rao_blackwell, stop=stop
        )
        self.log_zhat = hist.final_log_zhat
        return hist

    def run(self, checkpoints, *, record: bool = False, restart: bool = False):
        """The main run from the current (x, k), read at the sweep counts ``checkpoints``.

        Returns
        -------
        checkpoints : list of (sweeps, RTS record, TS record)
            :meth:`~bmrep.estimators.rts.TemperingStats.result` at each checkpoint.
        stats : TemperingStats
        record : STRecord or None
            Every sweep's (Delta, k) with ``record=True``.
        """
        if restart or self.k is None:
            self.k = self.rng.integers(0, self.betas.size, self.n_chains)
        stats = TemperingStats(self.betas.size, self.n_chains)
        out, records, done = [], [], 0
        for target in sorted(int(c) for c in checkpoints):
            stats, rec = self.sweeps(target - done, stats=stats, record=record)
            done = target
            if rec is not None:
                records.append(rec)
            lz, lp = self.log_zhat, self.log_prior
            out.append((done, stats.result(lp, lz, done, "RTS"), stats.result(lp, lz, done, "TS")))
        rec_all = None
        if record and records:
            rec_all = STRecord(np.concatenate([r.delta for r in records]), np.concatenate([r.k for r in records]))
        return out, stats, rec_all
