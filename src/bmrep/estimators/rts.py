"""Rao-Blackwellized tempered sampling (RTS) and its non-Rao-Blackwellized variant (TS).

Carlson, Stinson, Pakman & Paninski (2016). Simulated tempering samples
``q(x, beta_k) ∝ f_k(x) r_k / Zhat_k`` (eq. 6) with inverse temperatures
``beta_1 = 0 < ... < beta_K = 1``. For the geometric family of eq. 2,
``log f_k(x) = beta_k Delta(x) + log p1(x)`` with ``Delta = log f - log p1``,
so the temperature conditional (eq. 7) is

    q(beta_k | x) = softmax_k( log r_k - log Zhat_k + beta_k Delta(x) ).

The Rao-Blackwellized marginal estimate (eq. 9) is ``c_k = mean_i q(beta_k |
x_i)`` and the partition functions follow from eq. 12:

    log Z_k^RTS = log Zhat_k + log r_1 - log r_k + log c_k - log c_1.

TS replaces ``c_k`` by bin counts plus 0.1 (sec. 4.3 and the Fig. 1 caption).

Everything here works on arrays of per-sample ``Delta`` values or on the
per-sweep ``(q(beta | x), k)`` the sampler emits (the temperature
conditional of eq. 7 and the sweeps live in
:mod:`bmrep.sampling.simulated_tempering`, the HMC transition in
:mod:`bmrep.sampling.hmc`), so the estimator can be checked on exact samples.
:func:`run_simulated_tempering` runs the sweeps into a :class:`TemperingStats`.
The standard error follows eq. 16 (delta method), with the covariance of
``c`` estimated from independent parallel chains.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
from scipy.special import logsumexp

from ..sampling.simulated_tempering import STRecord, run_tempering_sweeps
from .base import EstimateResult

__all__ = [
    "run_simulated_tempering",
    "rts_log_z",
    "ts_log_z",
    "rts_stderr",
    "TemperingStats",
    "partial_update",
    "InitialIterations",
    "initial_iterations",
    "stopping_rule_met",
    "uniform_log_prior",
    "exponential_log_prior",
]


def uniform_log_prior(K: int) -> np.ndarray:
    """``log r_k = -log K``."""
    if K < 2:
        raise ValueError(f"need K >= 2 inverse temperatures, got {K}")
    return np.full(int(K), -np.log(K))


def exponential_log_prior(betas: np.ndarray, rate: float) -> np.ndarray:
    """``r_k ∝ exp(rate * beta_k)`` (Carlson et al. sec. 4.4 uses rate 2), normalised."""
    lr = rate * np.asarray(betas, np.float64)
    return lr - logsumexp(lr)


def rts_log_z(log_c: np.ndarray, log_prior: np.ndarray, log_zhat: np.ndarray) -> np.ndarray:
    """Eq. 12: ``log Z_k = log Zhat_k + log r_1 - log r_k + log c_k - log c_1`` (k = 1 anchored at ``log_zhat[0]``)."""
    log_c = np.asarray(log_c, np.float64)
    log_prior = np.asarray(log_prior, np.float64)
    out = np.asarray(log_zhat, np.float64) + log_prior[0] - log_prior + log_c - log_c[0]
    out[0] = log_zhat[0]
    return out


def ts_log_z(counts: np.ndarray, log_prior: np.ndarray, log_zhat: np.ndarray, pseudo_count: float = 0.1) -> np.ndarray:
    """TS: eq. 12 with ``c_k`` from bin counts plus ``pseudo_count`` (0.1 in the paper)."""
    c = np.asarray(counts, np.float64) + pseudo_count
    return rts_log_z(np.log(c / c.sum()), log_prior, log_zhat)


def rts_stderr(chain_c: np.ndarray) -> np.ndarray:
    """Eq. 16: standard error of ``log Z_k^RTS`` from per-chain marginal estimates.

    ``chain_c`` (n_chains, K) holds each independent chain's average of
    ``q(beta_k | x)``; ``c = mean(chain_c)`` and its covariance is estimated
    as the between-chain covariance / n_chains (which accounts for the
    autocorrelation within chains).
    """
    chain_c = np.asarray(chain_c, np.float64)
    n = chain_c.shape[0]
    if n < 2:
        return np.full(chain_c.shape[1], np.nan)
    c = chain_c.mean(axis=0)
    dev = chain_c - c
    var = np.sum(dev**2, axis=0) / (n - 1) / n
    cov1 = np.sum(dev * dev[:, :1], axis=0) / (n - 1) / n
    v = var[0] / c[0] ** 2 + var / c**2 - 2 * cov1 / (c * c[0])
    return np.sqrt(np.maximum(v, 0.0))


@dataclass
class TemperingStats:
    """Sufficient statistics of a tempered run: per-chain sums of q(beta|x) and bin counts.

    Parameters
    ----------
    K, n_chains : int

    Notes
    -----
    Only ``O(n_chains K)`` numbers are stored (the point of RTS, sec. 3.3).
    """

    K: int
    n_chains: int
    q_sum: np.ndarray = field(init=False)
    counts: np.ndarray = field(init=False)
    n_samples: int = field(init=False, default=0)

    def __post_init__(self):
        self.q_sum = np.zeros((self.n_chains, self.K))
        self.counts = np.zeros((self.n_chains, self.K))

    def add(self, q: np.ndarray, k: np.ndarray) -> None:
        """Add one sample per chain: q (n_chains, K) conditional probabilities, k (n_chains,) sampled bins."""
        self.q_sum += q
        self.counts[np.arange(self.n_chains), k] += 1
        self.n_samples += 1

    @property
    def log_c(self) -> np.ndarray:
        c = self.q_sum.sum(axis=0)
        return np.log(c / c.sum())

    @property
    def c(self) -> np.ndarray:
        return np.exp(self.log_c)

    def rts(self, log_prior, log_zhat) -> np.ndarray:
        return rts_log_z(self.log_c, log_prior, log_zhat)

    def ts(self, log_prior, log_zhat, pseudo_count: float = 0.1) -> np.ndarray:
        return ts_log_z(self.counts.sum(axis=0), log_prior, log_zhat, pseudo_count)

    def stderr(self, rao_blackwell: bool = True) -> np.ndarray:
        """Eq. 16 from the between-chain spread of ``q`` averages (or of bin frequencies for TS)."""
        per_chain = self.q_sum if rao_blackwell else self.counts + 0.1 / self.n_chains
        return rts_stderr(per_chain / max(self.n_samples, 1))

    def result(self, log_prior, log_zhat, budget: float, method: str = "RTS") -> EstimateResult:
        """The RTS (eq. 12, error eq. 16) or TS (counts) estimate of log Z at beta = 1 as the result record.

        ``details["log_z"]`` and ``details["stderr"]`` hold the whole ladder (K,), e.g. to start MBAR from.
        """
        if method == "RTS":
            ladder = self.rts(log_prior, log_zhat)
        elif method == "TS":
            ladder = self.ts(log_prior, log_zhat)
        else:
            raise ValueError(f"method must be RTS or TS, got {method!r}")
        se = self.stderr(method == "RTS")
        details = {"n_samples": self.n_samples, "log_z": ladder, "stderr": se}
        return EstimateResult(float(ladder[-1]), float(se[-1]), method, float(budget), details)


def run_simulated_tempering(
    state, k: np.ndarray, *, stats: TemperingStats | None = None, **sweeps
) -> tuple[TemperingStats, np.ndarray, STRecord | None]:
    """Simulated tempering (Carlson et al. 2016, Algorithm 1) accumulating the RTS statistics of eq. 9.

    Runs :func:`bmrep.sampling.simulated_tempering.run_tempering_sweeps` on
    ``state`` and ``k`` with the keywords ``sweeps`` (``step``, ``betas``,
    ``log_prior``, ``log_zhat``, ``n_sweeps``, ``rng``, ``record``: all its
    keywords but ``observe``), every sweep's ``(q(beta | x), k)`` being added to
    ``stats`` (a new :class:`TemperingStats` if None).

    Returns
    -------
    stats, k, record
    """
    if stats is None:
        stats = TemperingStats(np.asarray(sweeps["betas"]).size, np.asarray(k).size)
    k, rec = run_tempering_sweeps(state, k, observe=stats.add, **sweeps)
    return stats, k, rec


def stopping_rule_met(c: np.ndarray, prior: np.ndarray, tol_factor: float = 0.1) -> bool:
    """Sec. 2.4: ``max_k |r_k - c_k| < tol_factor / K``."""
    c = np.asarray(c)
    return bool(np.max(np.abs(np.asarray(prior) - c)) < tol_factor / c.size)


def partial_update(log_zhat: np.ndarray, log_c: np.ndarray, log_prior: np.ndarray, alpha: float) -> np.ndarray:
    """Sec. 4.4: ``Zhat^(t+1) = Zhat^(t) (r_1 c_k / (r_k c_1))^alpha`` in log space (alpha = 1: eq. 12)."""
    if not 0 < alpha <= 1:
        raise ValueError(f"alpha must be in (0, 1], got {alpha}")
    full = rts_log_z(log_c, log_prior, log_zhat)
    return log_zhat + alpha * (full - log_zhat)


@dataclass
class InitialIterations:
    """History of the iterative initialisation (sec. 2.4, Fig. 1)."""

    log_zhat: list  # log Zhat used *after* each iteration (list of (K,) arrays)
    c: list  # c_k estimated in each iteration
    converged_at: int | None  # 1-based iteration at which the stopping rule held, or None
    final_log_zhat: np.ndarray = None


def initial_iterations(
    run_iteration: Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]],
    log_prior: np.ndarray,
    log_zhat0: np.ndarray,
    max_iterations: int,
    *,
    rao_blackwell: bool = True,
    stop: bool = True,
    tol_factor: float = 0.1,
) -> InitialIterations:
    """Iterate ``c <- sampling with Zhat``; ``Zhat <- eq. 12`` until ``max|r - c| < 0.1/K`` (sec. 2.4).

    Parameters
    ----------
    run_iteration : callable
        ``run_iteration(log_zhat) -> (q_sum (K,), counts (K,))``: a short
        tempered run with the current ``log_zhat`` (the caller keeps the
        chains' x between iterations and draws fresh uniform betas).
    rao_blackwell : bool
        Use eq. 9 (True) or bin counts + 0.1 (TS, the Fig. 1 comparison).
    stop : bool
        Stop at the first iteration meeting the rule (else run all).
    """
    log_zhat = np.asarray(log_zhat0, np.float64).copy()
    prior = np.exp(log_prior)
    hist_z, hist_c, converged = [], [], None
    for it in range(1, int(max_iterations) + 1):
        q_sum, counts = run_iteration(log_zhat)
        if rao_blackwell:
            c = np.asarray(q_sum, np.float64) / np.sum(q_sum)
            log_zhat = rts_log_z(np.log(c), log_prior, log_zhat)
        else:
            cc = np.asarray(counts, np.float64) + 0.1
            c = cc / cc.sum()
            log_zhat = ts_log_z(counts, log_prior, log_zhat)
        hist_z.append(log_zhat.copy())
        hist_c.append(c)
        if converged is None and stopping_rule_met(c, prior, tol_factor):
            converged = it
            if stop:
                break
    return InitialIterations(hist_z, hist_c, converged, log_zhat)
