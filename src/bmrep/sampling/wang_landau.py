"""Wang-Landau adaptive weights: on general partitions, and for simulated tempering.

Wang-Landau (Salakhutdinov 2010, section 4, eqs. 4-5): the state space is split
into K disjoint sets X_k; the chain samples from

    p(x; g)  ∝  sum_k  p(x) / g_k  I(x in X_k)                       (eq. 4)

and after every move multiplies the weight of the set it is in,

    g_k  <-  g_k (1 + gamma_t I(x_{t+1} in X_k)).                   (eq. 5)

Asymptotically g_k / sum_i g_i -> p(X_k) (eq. 6), so the chain spends equal
time in every set. Weights are kept as ``log g``.

Adaptive simulated tempering (section 5, Algorithm 1) is Wang-Landau on the
partition {k} x X of the simulated-tempering state space, p(x, k) ∝
exp(-beta_k E(x)) / g_k: an x-move at fixed k (any kernel leaving p(x | k)
invariant, done by the caller), a Metropolis move of k to a neighbour, and the
update of g at the new k. :class:`AdaptiveTempering` holds the k's and weights
of many chains and does the k-move and the weight update, vectorised over
chains: one weight vector per chain (independent chains), or one vector shared
by all (CAST's fast chains, spec section 3: every chain's visit updates it).

References
----------
Wang, F. & Landau, D. P. (2001). Phys. Rev. Lett. 86, 2050.
Atchadé, Y. & Liu, J. (2004). The Wang-Landau algorithm in general state spaces.
Salakhutdinov, R. (2010). Learning deep Boltzmann machines using adaptive MCMC. ICML.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
from scipy.special import expit


def gamma_schedule(gamma0: float, t0: float | None = None) -> Callable[[int], float]:
    """Weight-adapting factor ``gamma_t = gamma0 * t0 / (t0 + t)`` (constant if ``t0`` is None)."""
    if not gamma0 > 0:
        raise ValueError(f"gamma0 must be > 0, got {gamma0}")
    if t0 is None:
        return lambda t: float(gamma0)
    if not t0 > 0:
        raise ValueError(f"gamma decay offset t0 must be > 0, got {t0}")
    return lambda t: float(gamma0) * float(t0) / (float(t0) + t)


def chain_uniforms(rngs: Sequence[np.random.Generator], size: int) -> np.ndarray:
    """``(len(rngs), size)`` uniforms, row i from chain i's own stream."""
    return np.stack([g.random(size) for g in rngs]) if len(rngs) else np.empty((0, size))


# -- Wang-Landau on a partition of an enumerable binary state space -----------
def partition_gibbs_sweep(
    index: int, log_p: np.ndarray, partition: np.ndarray, log_w: np.ndarray, n_bits: int, uniforms: np.ndarray
) -> int:
    """One systematic-scan Gibbs sweep over the bits of a state of an enumerable model.

    The state is the integer ``index`` (bit ``i`` of the index is unit ``i``);
    the target is ``p(x) exp(-log_w[partition(x)])``, i.e. eq. (4) with
    ``log_w = log g`` (and plain Gibbs with ``log_w = 0``; FPCD's fast weights
    enter as ``log_w = -fast``).

    Parameters
    ----------
    index : int
    log_p : array (2**n_bits,)  unnormalised log-probabilities of all states
    partition : int array (2**n_bits,)  set index of every state
    log_w : array (K,)
    uniforms : array (n_bits,)  one uniform per unit update
    """
    for i in range(n_bits):
        j = index ^ (1 << i)
        d = (log_p[j] - log_w[partition[j]]) - (log_p[index] - log_w[partition[index]])
        if uniforms[i] < expit(d):
            index = j
    return index


@dataclass
class WangLandauRun:
    """Trajectory of a Wang-Landau run: the set index after every update and the final ``log g``."""

    partitions: np.ndarray
    log_g: np.ndarray
    occupation: np.ndarray


def wang_landau_partitions(
    log_p: np.ndarray,
    partition: np.ndarray,
    start: int,
    n_updates: int,
    rng: np.random.Generator,
    gamma: Callable[[int], float],
    n_bits: int,
) -> WangLandauRun:
    """Wang-Landau (eqs. 4-5) on an enumerable binary model with an arbitrary partition.

    Each update is one Gibbs sweep under eq. (4) with the current weights,
    followed by ``log g_k += log(1 + gamma_t)`` for the set ``k`` of the new state.

    Returns
    -------
    WangLandauRun
        ``partitions[t]`` is the set after update t+1; ``occupation`` the
        fraction of updates spent in each set.
    """
    partition = np.asarray(partition, dtype=np.int64)
    K = int(partition.max()) + 1
    log_g = np.zeros(K)
    traj = np.empty(n_updates, dtype=np.int64)
    u = rng.random((n_updates, n_bits))
    x = int(start)
    for t in range(n_updates):
        x = partition_gibbs_sweep(x, log_p, partition, log_g, n_bits, u[t])
        k = partition[x]
        log_g[k] += np.log1p(gamma(t))
        traj[t] = k
    occ = np.bincount(traj, minlength=K) / max(n_updates, 1)
    return WangLandauRun(traj, log_g, occ)


# -- adaptive simulated tempering (Algorithm 1) ---------------------------------
@dataclass
class AdaptiveTempering:
    """k's and Wang-Landau weights of ``n_chains`` adaptive simulated-tempering chains.

    Joint target of chain i: ``p(x, k) ∝ exp(-beta_k E(x)) / g_{i,k}`` (eq. 10
    with w_k = 1/g_k). ``betas[0] = 1``; a sample of p(x) is a state with k = 0.
    With ``shared`` the chains have one weight vector g (``log_g`` has one
    row): all k-moves of a step use it, then every chain's new level k gets
    its factor (1 + gamma_t) of eq. (5), so g_k gains (1 + gamma_t)^m for m
    chains at level k.

    Attributes
    ----------
    betas : (K,) decreasing, betas[0] = 1
    k : (n_chains,) int  current temperature index of every chain
    log_g : (n_chains, K), or (1, K) if ``shared``  log Wang-Landau weights
    gamma : callable t -> gamma_t
    rngs : one Generator per chain (the k-move's proposal and acceptance)
    t : number of k-moves done
    adapt : bool  update the weights (False freezes them: a plain ST kernel)
    shared : bool  one weight vector for all chains
    """

    betas: np.ndarray
    k: np.ndarray
    log_g: np.ndarray
    gamma: Callable[[int], float]
    rngs: list
    t: int = 0
    adapt: bool = True
    n_accepted: np.ndarray = field(default=None)
    shared: bool = False

    @classmethod
    def create(
        cls, betas, n_chains: int, gamma: Callable[[int], float], rngs, log_g=None, k=None, shared: bool = False
    ):
        betas = np.asarray(betas, dtype=np.float64)
        if betas[0] != 1.0 or np.any(np.diff(betas) >= 0) or betas[-1] < 0:
            raise ValueError("betas must decrease strictly from 1 to a value >= 0")
        if len(rngs) != n_chains:
            raise ValueError(f"need one random stream per chain: {len(rngs)} != {n_chains}")
        K = len(betas)
        rows = 1 if shared else n_chains
        lg = np.zeros((rows, K)) if log_g is None else np.array(np.broadcast_to(log_g, (rows, K)), dtype=np.float64)
        kk = np.zeros(n_chains, dtype=np.int64) if k is None else np.array(k, dtype=np.int64)
        return cls(betas, kk, lg, gamma, list(rngs), 0, True, np.zeros(n_chains, dtype=np.int64), bool(shared))

    @property
    def n_chains(self) -> int:
        return self.k.shape[0]

    def chain_betas(self) -> np.ndarray:
        """The current inverse temperature of every chain."""
        return self.betas[self.k]

    def temperature_step(self, energy: np.ndarray, uniforms: np.ndarray | None = None) -> np.ndarray:
        """Algorithm 1, steps 4-5: Metropolis move of k, then the Wang-Landau update.

        Proposal q(k +- 1 | k) = 1/2 inside, q(1 | 0) = q(K-2 | K-1) = 1 at the
        ends. Acceptance ``min(1, p(x, k') q(k | k') g_k / (p(x, k) q(k' | k) g_k'))``
        with p(x, k) ∝ exp(-beta_k E(x)).

        Parameters
        ----------
        energy : (n_chains,)  E(x) of every chain's current state (float64)
        uniforms : (n_chains, 2) or None  drawn from the chains' streams if None

        Returns
        -------
        accepted : bool (n_chains,)
        """
        K = len(self.betas)
        n = self.n_chains
        if uniforms is None:
            uniforms = chain_uniforms(self.rngs, 2)
        k = self.k
        step = np.where(uniforms[:, 0] < 0.5, -1, 1)
        step = np.where(k == 0, 1, np.where(k == K - 1, -1, step))
        k_new = k + step
        log_q_fwd = np.where((k == 0) | (k == K - 1), 0.0, np.log(0.5))
        log_q_rev = np.where((k_new == 0) | (k_new == K - 1), 0.0, np.log(0.5))
        rows = np.zeros(n, dtype=np.int64) if self.shared else np.arange(n)
        log_a = (
            -(self.betas[k_new] - self.betas[k]) * np.asarray(energy, dtype=np.float64)
            + log_q_rev
            - log_q_fwd
            + self.log_g[rows, k]
            - self.log_g[rows, k_new]
        )
        acc = np.log(uniforms[:, 1]) < np.minimum(log_a, 0.0)
        self.k = np.where(acc, k_new, k)
        self.n_accepted += acc
        if self.adapt and self.shared:
            self.log_g[0] += np.bincount(self.k, minlength=K) * np.log1p(self.gamma(self.t))
        elif self.adapt:
            self.log_g[rows, self.k] += np.log1p(self.gamma(self.t))
        self.t += 1
        return acc

    def normalized_log_weights(self) -> np.ndarray:
        """``log g_k - log g_0`` per chain (one row if shared): estimates of ``log Z_k - log Z_0`` (eq. 6)."""
        return self.log_g - self.log_g[:, :1]


__all__ = [
    "gamma_schedule",
    "chain_uniforms",
    "partition_gibbs_sweep",
    "wang_landau_partitions",
    "WangLandauRun",
    "AdaptiveTempering",
]
