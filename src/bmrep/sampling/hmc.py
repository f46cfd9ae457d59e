"""Hamiltonian Monte Carlo for tempered continuous targets, with a step size per temperature.

Used for the Gaussian-mixture comparison of Carlson et al. (2016) sec. 4.1
(Fig. 2). The paper's adaptive tempered HMC (its Appendix E) is not in our
copy; this is a documented substitute: each chain makes one HMC transition
(``n_leapfrog`` leapfrog steps, identity mass matrix) at its own inverse
temperature, with the step size ``eps_k`` of its temperature ``k``. During
warm-up ``log eps_k`` follows a Robbins-Monro recursion towards the target
acceptance rate (Beskos et al. 2013 recommend about 0.65):

    log eps_k <- log eps_k + gamma_t (mean acceptance at k - target),

with ``gamma_t = adapt_rate / sqrt(t)``; after warm-up the step sizes are
frozen, so the sampler is a fixed, reversible, target-preserving kernel at
every temperature (adaptation during the measurement would break that).

The step size is jittered: at every transition each chain's ``eps_k`` is
multiplied by a factor drawn from ``U[1 - jitter, 1 + jitter]`` (``jitter =
0.2`` gives the U[0.8, 1.2] of shared spec section 4, Fig. 2; randomising
the step size against periodic trajectories is Neal 2011, "MCMC using
Hamiltonian dynamics", sec. 5.4.2). Without it a fixed ``eps_k`` times
``n_leapfrog`` can sit at half a period of a Gaussian temperature (on
N(0, s^2) the leapfrog map is a rotation, and ``eps = 2 s sin(pi / (2 L))``
makes L steps a half turn): the transition then maps x to -x whatever the
momentum, and the chain never mixes. A step size drawn independently of
the state keeps each transition reversible and target-preserving, so their
mixture is too.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

__all__ = ["TemperedHMC"]


class TemperedHMC:
    """Vectorised HMC over chains at per-chain inverse temperatures.

    Parameters
    ----------
    log_density : callable
        ``log_density(x (n, d), betas (n,)) -> (n,)`` tempered unnormalised log density.
    grad_log_density : callable
        ``grad(x, betas) -> (n, d)``.
    betas : (K,) array
        The ladder; step sizes are kept per entry.
    step_size : float
        Initial step size for every temperature.
    n_leapfrog : int
    target_accept : float
    adapt_rate : float
    jitter : float
        Each transition's step size is ``eps_k`` times U[1 - jitter, 1 + jitter]
        per chain (0: no jitter).
    """

    def __init__(
        self,
        log_density: Callable,
        grad_log_density: Callable,
        betas: np.ndarray,
        step_size: float = 0.2,
        n_leapfrog: int = 10,
        target_accept: float = 0.65,
        adapt_rate: float = 0.5,
        jitter: float = 0.2,
    ):
        if n_leapfrog < 1 or step_size <= 0:
            raise ValueError("n_leapfrog must be >= 1 and step_size > 0")
        if not 0 <= jitter < 1:
            raise ValueError(f"jitter must be in [0, 1), got {jitter}")
        self.log_density = log_density
        self.grad = grad_log_density
        self.betas = np.asarray(betas, np.float64)
        self.log_eps = np.full(self.betas.size, np.log(step_size))
        self.n_leapfrog = int(n_leapfrog)
        self.target_accept = float(target_accept)
        self.adapt_rate = float(adapt_rate)
        self.jitter = float(jitter)
        self.adapting = True
        self._t = 0
        self.accept_sum = np.zeros(self.betas.size)
        self.accept_n = np.zeros(self.betas.size)

    @property
    def step_sizes(self) -> np.ndarray:
        return np.exp(self.log_eps)

    def temperature_index(self, chain_betas: np.ndarray) -> np.ndarray:
        k = np.searchsorted(self.betas, chain_betas)
        k = np.clip(k, 0, self.betas.size - 1)
        if not np.allclose(self.betas[k], chain_betas):
            raise ValueError("chain betas must be on the ladder")
        return k

    def step(self, x: np.ndarray, chain_betas: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """One HMC transition per chain (in place on ``x``); returns the acceptance indicators.

        ``rng`` (the chains' keyed stream) draws the step-size jitter, the momenta and the accept decisions.
        """
        k = self.temperature_index(chain_betas)
        eps = np.exp(self.log_eps[k])
        if self.jitter > 0:
            eps = eps * rng.uniform(1.0 - self.jitter, 1.0 + self.jitter, size=eps.size)
        eps = eps[:, None]
        p0 = rng.standard_normal(x.shape)
        lp0 = self.log_density(x, chain_betas)
        q = x.copy()
        p = p0 + 0.5 * eps * self.grad(q, chain_betas)
        for i in range(self.n_leapfrog):
            q += eps * p
            if i < self.n_leapfrog - 1:
                p += eps * self.grad(q, chain_betas)
        p += 0.5 * eps * self.grad(q, chain_betas)
        lp1 = self.log_density(q, chain_betas)
        log_ratio = lp1 - lp0 - 0.5 * (p**2).sum(1) + 0.5 * (p0**2).sum(1)
        log_ratio = np.where(np.isfinite(log_ratio), log_ratio, -np.inf)
        accept = np.log(rng.random(x.shape[0])) < log_ratio
        x[accept] = q[accept]
        acc_prob = np.exp(np.minimum(log_ratio, 0.0))
        if self.adapting:
            self._t += 1
            gamma = self.adapt_rate / np.sqrt(self._t)
            s = np.bincount(k, weights=acc_prob, minlength=self.betas.size)
            n = np.bincount(k, minlength=self.betas.size)
            seen = n > 0
            self.log_eps[seen] += gamma * (s[seen] / n[seen] - self.target_accept)
        else:
            np.add.at(self.accept_sum, k, acc_prob)
            np.add.at(self.accept_n, k, 1)
        return accept

    def freeze(self) -> None:
        """End the warm-up: step sizes stay fixed from now on."""
        self.adapting = False
