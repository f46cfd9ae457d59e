"""Exact quantities of small RBMs with ±1 visible and multivalued hidden units, by enumeration.

Yokoyama, Katsumata & Yasuda (2019): ``ln Z_s`` (eq. 4) and ``ln P_s(v)``
(eq. 5) over all ``2^n`` visible configurations, the exact log-likelihood
gradient (eqs. 11-13) and exact samples; the model is
:mod:`bmrep.models.multivalued`.
"""

from __future__ import annotations

import itertools

import numpy as np
from scipy.special import logsumexp

from .. import multivalued as mv

__all__ = ["all_visible_states", "log_partition", "log_marginal", "state_index", "exact_gradient", "sample_exact"]


def all_visible_states(n: int) -> np.ndarray:
    """All ``2^n`` configurations of ``n`` ±1 units, (2^n, n) float64."""
    if not 1 <= n <= 24:
        raise ValueError(f"enumeration needs 1 <= n <= 24 visible units, got {n}")
    return np.array(list(itertools.product((-1.0, 1.0), repeat=n)))


def log_partition(params, s, states: np.ndarray | None = None) -> np.ndarray:
    """Exact ``ln Z_s`` (eq. 4) by enumerating every visible configuration."""
    if states is None:
        states = all_visible_states(params["b"].shape[-1])
    return logsumexp(mv.log_unnormalized(params, states, s), axis=-1)


def log_marginal(params, s, states: np.ndarray | None = None) -> np.ndarray:
    """Exact ``ln P_s(v)`` (eq. 5) of every state in ``states`` (default: all 2^n)."""
    if states is None:
        states = all_visible_states(params["b"].shape[-1])
    lu = mv.log_unnormalized(params, states, s)
    return lu - logsumexp(lu, axis=-1, keepdims=True)


def state_index(v: np.ndarray) -> np.ndarray:
    """Row of :func:`all_visible_states` holding each ±1 vector of ``v`` (..., n)."""
    n = v.shape[-1]
    bits = (v > 0).astype(np.int64)
    return bits @ (1 << np.arange(n - 1, -1, -1))


def exact_gradient(params, v_data, s) -> dict:
    """Exact gradient of the mean log-likelihood, eqs. (11)-(13), by enumeration (single model)."""
    states = all_visible_states(params["b"].shape[-1])
    p = np.exp(log_marginal(params, s, states))
    ph_model = mv.psi(mv.hidden_field(params, states), s)
    ph_data = mv.psi(mv.hidden_field(params, v_data), s)
    n_data = v_data.shape[0]
    return {
        "b": v_data.mean(0) - p @ states,
        "c": ph_data.mean(0) - p @ ph_model,
        "W": v_data.T @ ph_data / n_data - (states * p[:, None]).T @ ph_model,
    }


def sample_exact(params, s, n_samples: int, rng: np.random.Generator) -> np.ndarray:
    """``n_samples`` independent draws from the exact marginal ``P_s(v)`` (enumeration)."""
    states = all_visible_states(params["b"].shape[-1])
    p = np.exp(log_marginal(params, s, states))
    idx = rng.choice(len(states), size=n_samples, p=p / p.sum())
    return states[idx]
