"""Parallel tempering (replica exchange) for RBMs with any layer-wise operator.

``t-PT_k`` in the notation of Brügge, Fischer & Igel (2013, sec. 4.2): ``t``
tempered copies of the RBM at inverse temperatures uniform in [0, 1], ``k``
sweeps of an operator (Gibbs G or flip-the-state T, or their blend) in every
tempered chain, then swaps of neighbouring temperatures (Desjardins et al.
2010; Cho et al. 2010).

The tempered family is the core's (``bmrep.models.rbm``)::

    p_beta(v, h)  ∝  exp(-beta E(v, h) + (1 - beta) a.v),

with base logits ``a`` (zeros: uniform). With ``Delta(x) = -E(x) - a.v``
(:func:`bmrep.models.rbm.tempered_delta`, the sign convention of every
tempering method here) the log-density is ``beta Delta(x) + a.v``, so
exchanging the states of two chains at ``beta_i`` and ``beta_j`` is accepted
with probability ``min(1, exp((beta_i - beta_j) (Delta(x_j) - Delta(x_i))))``
(Metropolis), which leaves the product distribution ``prod_k p_{beta_k}`` invariant.

A sampler runs ``n_replicas`` independent PT ladders at once; chain
``r * t + k`` of the flat state arrays is replica r at temperature k (betas
ascending, the last is 1), and each has its own random stream, so results do
not depend on the number of threads. Swap decisions use one extra generator.
Training an RBM with PT chains: :class:`bmrep.learning.negative_phases.PTChains`.
"""

from __future__ import annotations

import numpy as np

from ..models.exact import all_states
from ..models.rbm import RBM, tempered_delta
from . import _swaps
from .transition_matrix import sweep_transition_matrix


def swap_log_acceptance(beta_i, beta_j, d_i, d_j) -> np.ndarray:
    """Log Metropolis ratio for exchanging states x_i (at beta_i) and x_j (at beta_j).

    ``log [p_i(x_j) p_j(x_i) / (p_i(x_i) p_j(x_j))] = (beta_i - beta_j)(Delta_j - Delta_i)``
    with ``d = Delta(x)`` of :func:`bmrep.models.rbm.tempered_delta`.
    """
    return (np.asarray(beta_i) - np.asarray(beta_j)) * (np.asarray(d_j) - np.asarray(d_i))


def swap_probability(beta_i, beta_j, d_i, d_j) -> np.ndarray:
    """``min(1, exp(swap_log_acceptance))`` without overflow."""
    return np.exp(np.minimum(swap_log_acceptance(beta_i, beta_j, d_i, d_j), 0.0))


class ParallelTempering:
    """``n_replicas`` persistent PT ladders with a given operator.

    Parameters
    ----------
    operator : object with ``sweep(rbm, v, h, streams, betas=..., base_bias=..., n_sweeps=...)``
        Gibbs, FlipTheState or Blend from :mod:`bmrep.sampling.operators`.
    betas : array_like, shape (t,)
        Inverse temperatures, ascending, last = 1 (see :func:`bmrep.sampling.ladders.linear_betas`).
    k : int
        Sweeps in every tempered chain between swap rounds.
    n_replicas : int
        Independent ladders; each yields one beta = 1 sample per step.
    streams : ChainStreams
        ``n_replicas * t`` streams, stream ``r * t + k`` for replica r at
        temperature k.
    swap_rng : numpy.random.Generator
        Draws the swap decisions.
    v0 : ndarray (n_replicas * t, n_visible), optional
        Initial visible states (default: all chains drawn uniformly from
        their own streams).
    base_bias : ndarray, optional
        Base logits ``a`` of the tempered family (default uniform).

    Notes
    -----
    One :meth:`step`: ``k`` sweeps (hidden then visible) of every chain at its
    own beta, then Metropolis swaps of the neighbouring pairs (0,1), (1,2),
    ..., (t-2, t-1) in this order, each with the states as left by the
    previous swap. Each move leaves ``prod_k p_{beta_k}`` invariant; the exact
    matrix of one step is :func:`pt_transition_matrix`.
    """

    def __init__(
        self,
        operator,
        betas,
        k,
        n_replicas,
        n_visible,
        n_hidden,
        streams,
        swap_rng,
        v0=None,
        base_bias=None,
        dtype=np.float64,
    ):
        betas = np.asarray(betas, dtype=np.float64)
        if betas.ndim != 1 or betas.size < 2:
            raise ValueError(f"betas must be a 1-d array of >= 2 values, got shape {betas.shape}")
        if np.any(np.diff(betas) <= 0) or betas[0] < 0 or betas[-1] != 1.0:
            raise ValueError(f"betas must be strictly ascending in [0, 1] and end at 1, got {betas}")
        if int(k) < 1:
            raise ValueError(f"k (sweeps between swaps) must be >= 1, got {k}")
        if int(n_replicas) < 1:
            raise ValueError(f"n_replicas must be >= 1, got {n_replicas}")
        self.operator = operator
        self.betas = betas
        self.t = betas.size
        self.k = int(k)
        self.n_replicas = int(n_replicas)
        n_chains = self.n_replicas * self.t
        if len(streams) != n_chains:
            raise ValueError(f"need n_replicas * t = {n_chains} streams, got {len(streams)}")
        self.streams = streams
        self.swap_rng = swap_rng
        self.base_bias = None if base_bias is None else np.asarray(base_bias, dtype=np.float64)
        self.chain_betas = np.tile(betas, self.n_replicas).astype(dtype)
        if v0 is None:
            v0 = streams.bernoulli(0.5, n_visible, dtype=dtype)
        v0 = np.array(v0, dtype=dtype)
        if v0.shape != (n_chains, n_visible):
            raise ValueError(f"v0 must have shape ({n_chains}, {n_visible}), got {v0.shape}")
        self.v = np.ascontiguousarray(v0)
        self.h = np.zeros((n_chains, n_hidden), dtype=dtype)
        self._ladder_start = np.arange(self.n_replicas)[:, None] * self.t  # row of each ladder's first chain
        self.n_proposed = np.zeros(self.t - 1, dtype=np.int64)
        self.n_accepted = np.zeros(self.t - 1, dtype=np.int64)

    @property
    def acceptance_rates(self) -> np.ndarray:
        """Fraction of accepted swaps per neighbouring pair so far."""
        return self.n_accepted / np.maximum(self.n_proposed, 1)

    def step(self, rbm: RBM, n_steps: int = 1) -> None:
        """``n_steps`` rounds of (k sweeps, then neighbour swaps)."""
        rbm = rbm.astype(self.v.dtype)
        for _ in range(int(n_steps)):
            self.operator.sweep(
                rbm, self.v, self.h, self.streams, betas=self.chain_betas, base_bias=self.base_bias, n_sweeps=self.k
            )
            self._swap(rbm)

    def _swap(self, rbm: RBM) -> None:
        R, t = self.n_replicas, self.t
        d = tempered_delta(rbm, self.v, self.h, self.base_bias).reshape(R, t)
        u = self.swap_rng.random((R, t - 1))
        # Pair (i, i+1) sees at position i the state that started the round at some j <= i (the swaps
        # run in order), and at i+1 its own: the probabilities of all those cases at once, with
        # swap_probability's own arithmetic; the compiled loop only follows which case occurs.
        p = swap_probability(self.betas[:-1, None], self.betas[1:, None], d[:, None, :], d[:, 1:, None])
        pos = np.empty((R, t), dtype=np.int_)
        accepted = np.zeros(t - 1, dtype=np.int_)
        _swaps.swap_round(np.ascontiguousarray(p), u, pos, accepted)
        self.n_proposed += R
        self.n_accepted += accepted
        if accepted.any():
            rows = (self._ladder_start + pos).ravel()
            self.v[...], self.h[...] = np.take(self.v, rows, axis=0), np.take(self.h, rows, axis=0)

    def get_state(self) -> dict:
        """The chains, swap counts, streams and swap generator: all that :meth:`step` changes (checkpoints)."""
        return {
            "v": self.v.copy(),
            "h": self.h.copy(),
            "n_proposed": self.n_proposed.copy(),
            "n_accepted": self.n_accepted.copy(),
            "streams": self.streams.get_state(),
            "swap_rng": self.swap_rng.bit_generator.state,
        }

    def set_state(self, state) -> None:
        """Restore :meth:`get_state`'s values in place."""
        self.v[...], self.h[...] = state["v"], state["h"]
        self.n_proposed[...], self.n_accepted[...] = state["n_proposed"], state["n_accepted"]
        self.streams.set_state(state["streams"])
        self.swap_rng.bit_generator.state = dict(state["swap_rng"])

    def samples(self) -> tuple[np.ndarray, np.ndarray]:
        """Current beta = 1 states (copies), shapes (n_replicas, n_visible), (n_replicas, n_hidden)."""
        top = np.arange(self.n_replicas) * self.t + (self.t - 1)
        return self.v[top].copy(), self.h[top].copy()

    def negative_phase(self, rbm: RBM) -> tuple[np.ndarray, np.ndarray]:
        """One PT step, then the beta = 1 samples: the model samples of a gradient step."""
        self.step(rbm, 1)
        return self.samples()


def swap_transition_matrix(rbm: RBM, beta_i: float, beta_j: float, base_bias=None) -> np.ndarray:
    """Exact matrix of one Metropolis swap between two chains, over the product space.

    States of the product space are ``x_i * N + x_j`` with x indexing the
    joint RBM states of :func:`bmrep.models.exact.rbm.joint_probabilities`.
    """
    n, m = rbm.n_visible, rbm.n_hidden
    S = all_states(n + m).astype(np.float64)
    d = tempered_delta(rbm, S[:, :n], S[:, n:], base_bias)
    N = d.size
    p = swap_probability(beta_i, beta_j, d[:, None], d[None, :])  # (x_i, x_j)
    A = np.zeros((N * N, N * N))
    src = np.arange(N)[:, None] * N + np.arange(N)[None, :]
    dst = np.arange(N)[None, :] * N + np.arange(N)[:, None]  # (x_j, x_i)
    A[src.ravel(), dst.ravel()] += p.ravel()
    A[src.ravel(), src.ravel()] += 1.0 - p.ravel()
    return A


def pt_transition_matrix(rbm: RBM, operator, betas, k: int) -> np.ndarray:
    """Exact matrix of one PT step of two temperatures (uniform base).

    ``kron(P_{beta_0}^k, P_{beta_1}^k) @ Swap``: ``k`` sweeps of ``operator``
    in each chain (the core's exact one-sweep matrices), then one swap.
    Only two temperatures (the product space has ``4^(n+m)`` states).
    """
    betas = np.asarray(betas, dtype=np.float64)
    if betas.size != 2:
        raise ValueError("the exact PT matrix is built for two temperatures")
    P0 = np.linalg.matrix_power(sweep_transition_matrix(rbm, operator, beta=float(betas[0])), int(k))
    P1 = np.linalg.matrix_power(sweep_transition_matrix(rbm, operator, beta=float(betas[1])), int(k))
    return np.kron(P0, P1) @ swap_transition_matrix(rbm, betas[0], betas[1])


__all__ = [
    "swap_log_acceptance",
    "swap_probability",
    "ParallelTempering",
    "swap_transition_matrix",
    "pt_transition_matrix",
]
