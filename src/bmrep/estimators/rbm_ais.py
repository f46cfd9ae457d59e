"""The tempered family of a binary RBM as an AIS model (Salakhutdinov & Murray 2008).

Carlson et al. (2016) eq. 2: ``f_beta(v, h) = exp(-beta E(v, h) + (1 - beta) a.v)``
with base logits ``a`` on v and a uniform base on h. The AIS state is the
chains of :class:`bmrep.sampling.tempered_rbm.TemperedRBMChains` (the same class
simulated tempering uses): ``log f`` with h summed out, and a transition at
``beta`` is one sweep h | v, v | h through an operator's compiled layer update.
:func:`rbm_annealing_model` hands the family to the driver
:func:`bmrep.estimators.ais.ais_log_weights` (and to RAISE).
"""

from __future__ import annotations

import numpy as np

from ..sampling.operators import Gibbs
from ..sampling.tempered_rbm import TemperedRBMChains
from .base import AnnealingModel, base_log_partition

__all__ = ["rbm_log_z_base", "rbm_annealing_model"]


def rbm_log_z_base(base_bias: np.ndarray, n_hidden: int) -> float:
    """``log Z`` at beta = 0 of the RBM family: Bernoulli(logits base_bias) on v, uniform on h."""
    return base_log_partition(base_bias, n_hidden)


def rbm_annealing_model(rbm, base_bias=None, *, operator=None, dtype=np.float64, n_threads: int = 1) -> AnnealingModel:
    """The RBM's tempered family as an :class:`~bmrep.estimators.base.AnnealingModel` for the driver.

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
        return TemperedRBMChains.from_base(
            model, n, streams, base_bias, dtype=dtype, operator=operator, n_threads=n_threads
        )

    def transition(state, beta):
        state.sweep(beta, delta=False)  # the AIS weights use log f (h summed out), not Delta
        return state

    def log_f_pair(state, b0, b1):
        return state.log_f_pair(b0, b1)

    return AnnealingModel(init_sample, transition, log_f_pair, rbm_log_z_base(base_bias, rbm.n_hidden))
