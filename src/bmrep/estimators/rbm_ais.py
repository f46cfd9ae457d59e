"""The tempered family of a binary RBM as an AIS model (Salakhutdinov & Murray 2008).

Carlson et al. (2016) eq. 2: ``f_beta(v, h) = exp(-beta E(v, h) + (1 - beta) a.v)``
with base logits ``a`` on v and a uniform base on h. The AIS state is (v, h)
with h summed out of ``log f`` (:func:`rbm_tempered_log_f`); a transition at
``beta`` is one sweep h | v, v | h through an operator's compiled layer update.
:func:`rbm_annealing_model` hands the family to the driver
:func:`bmrep.estimators.ais.ais_log_weights` (and to RAISE).
"""

from __future__ import annotations

import numpy as np

from ..sampling.operators import Gibbs
from .base import base_log_partition

__all__ = ["RBMAnnealingState", "rbm_tempered_log_f", "rbm_log_z_base", "rbm_annealing_model"]


def _softplus(x: np.ndarray) -> np.ndarray:
    return np.logaddexp(0.0, x)


def rbm_log_z_base(base_bias: np.ndarray, n_hidden: int) -> float:
    """``log Z`` at beta = 0 of the RBM family: Bernoulli(logits base_bias) on v, uniform on h."""
    return base_log_partition(base_bias, n_hidden)


def rbm_tempered_log_f(v: np.ndarray, hidden_field: np.ndarray, b, base_bias, beta: float) -> np.ndarray:
    """``log sum_h f_beta(v, h)`` from the hidden pre-activation ``c + v W`` (Carlson et al. eq. 2).

    ``f_beta(v,h) = exp(-beta E(v,h) + (1-beta) base_bias.v)``, so with h
    summed out ``log f_beta(v) = beta b.v + (1-beta) base_bias.v +
    sum_j softplus(beta (c_j + v.W_j))`` (accumulated in float64).
    """
    v64 = np.asarray(v, np.float64)
    lin = v64 @ (beta * np.asarray(b, np.float64) + (1.0 - beta) * np.asarray(base_bias, np.float64))
    return lin + np.sum(_softplus(beta * np.asarray(hidden_field, np.float64)), axis=1)


class RBMAnnealingState:
    """Chains (v, h) of an RBM plus the cached hidden pre-activation ``c + v W``.

    The cache makes one AIS step cost the two matrix products of a Gibbs
    sweep: the field computed for the weight increment is reused to sample h.
    """

    def __init__(self, rbm, v: np.ndarray, h: np.ndarray, streams, base_bias, operator, n_threads: int = 1):
        self.rbm = rbm
        self.v = v
        self.h = h
        self.streams = streams
        self.base_bias = np.asarray(base_bias, dtype=v.dtype)
        self.operator = operator
        self.n_threads = int(n_threads)
        self._field = None
        self._terms = None

    @property
    def hidden_field(self) -> np.ndarray:
        if self._field is None:
            self._field = self.rbm.c + self.v @ self.rbm.W
            self._terms = None
        return self._field

    def _log_f_terms(self):
        """Per-state pieces of log f_beta that do not depend on beta (computed once per sweep).

        ``log f_beta(v) = beta (b.v + sum_j max(x_j, 0)) + (1 - beta) a.v + sum_j log1p(exp(-beta |x_j|))``
        with ``x = c + v W``: the same value as :func:`rbm_tempered_log_f`, with one
        exp and one log1p per unit and beta.
        """
        if self._terms is None:
            x = np.asarray(self.hidden_field, np.float64)
            v64 = np.asarray(self.v, np.float64)
            neg_abs = -np.abs(x)
            self._terms = (
                v64 @ np.asarray(self.rbm.b, np.float64) + np.maximum(x, 0.0).sum(axis=1),
                v64 @ np.asarray(self.base_bias, np.float64),
                neg_abs,
                np.empty_like(neg_abs),
            )
        return self._terms

    def log_f(self, beta: float) -> np.ndarray:
        """``log sum_h f_beta(v, h)`` of every chain (float64)."""
        lin, base, neg_abs, buf = self._log_f_terms()
        np.multiply(neg_abs, beta, out=buf)
        np.exp(buf, out=buf)
        np.log1p(buf, out=buf)
        return beta * lin + (1.0 - beta) * base + buf.sum(axis=1)

    def log_f_pair(self, beta_a: float, beta_b: float):
        return self.log_f(beta_a), self.log_f(beta_b)

    def set_visible(self, V: np.ndarray) -> None:
        """Put the chains' visible units at ``V`` (e.g. data points for RAISE)."""
        self.v[...] = V
        self._field = None
        self._terms = None

    def sweep(self, beta: float) -> RBMAnnealingState:
        """One sweep at ``beta``: h | v then v | h, through the core's compiled layer update."""
        n = self.v.shape[0]
        betas = np.full(n, beta, dtype=self.v.dtype)
        self.operator.update_layer(self.h, self.hidden_field, self.streams, betas=betas, n_threads=self.n_threads)
        vfield = self.rbm.b + self.h @ self.rbm.W.T
        self.operator.update_layer(
            self.v, vfield, self.streams, betas=betas, base_field=self.base_bias, n_threads=self.n_threads
        )
        self._field = None
        self._terms = None
        return self


def rbm_annealing_model(rbm, base_bias=None, *, operator=None, dtype=np.float64, n_threads: int = 1):
    """The RBM's tempered family as ``(init_sample, transition, log_f_pair, log_z_base)`` for the driver.

    ``init_sample(n, streams)`` draws v from the base Bernoullis (a layer
    update at beta = 0 samples exactly sigmoid(base_bias)) and h uniformly.
    """
    operator = Gibbs() if operator is None else operator
    base_bias = np.zeros(rbm.n_visible) if base_bias is None else np.asarray(base_bias, np.float64)
    if base_bias.shape != (rbm.n_visible,):
        raise ValueError(f"base_bias must have shape ({rbm.n_visible},), got {base_bias.shape}")
    model = rbm.astype(dtype) if hasattr(rbm, "astype") else rbm

    def init_sample(n, streams):
        if len(streams) != n:
            raise ValueError(f"need one stream per run: {len(streams)} streams for {n} runs")
        v = np.zeros((n, model.n_visible), dtype=dtype)
        h = np.zeros((n, model.n_hidden), dtype=dtype)
        zeros = np.zeros(n, dtype=dtype)
        operator.update_layer(
            v, np.zeros_like(v), streams, betas=zeros, base_field=base_bias.astype(dtype), n_threads=n_threads
        )
        operator.update_layer(h, np.zeros_like(h), streams, betas=zeros, n_threads=n_threads)
        return RBMAnnealingState(model, v, h, streams, base_bias.astype(dtype), operator, n_threads)

    def transition(state, beta):
        return state.sweep(beta)

    def log_f_pair(state, b0, b1):
        return state.log_f_pair(b0, b1)

    return init_sample, transition, log_f_pair, rbm_log_z_base(base_bias, rbm.n_hidden)
