"""Exact one-sweep transition matrices of layer-wise operators on small RBMs.

A sweep updates all hidden units given v, then all visible units given the
new h (Brügge et al. 2013, Def. 1: ``T = T_h T_v``). Within a layer the units
are conditionally independent, so the layer's transition matrix is the
Kronecker product of the units' 2x2 matrices, whose off-diagonal entries are
``operator.flip_probabilities`` (the same per-unit probabilities as the
compiled kernels). States are ordered as
:func:`bmrep.models.exact.rbm.joint_probabilities` (v leading, then h).
"""

from __future__ import annotations

import numpy as np
from scipy.special import expit

from bmrep.models.exact import all_states
from bmrep.models.exact.rbm import joint_probabilities
from bmrep.models.rbm import RBM


def _layer_kernels(operator, p_on: np.ndarray) -> np.ndarray:
    """Per-condition layer matrices: p_on (N, n) -> K (N, 2^n, 2^n), unit 0 most significant."""
    N, n = p_on.shape
    q0 = operator.flip_probabilities(np.zeros_like(p_on), p_on)  # 0 -> 1
    q1 = operator.flip_probabilities(np.ones_like(p_on), p_on)  # 1 -> 0
    M = np.empty((N, n, 2, 2))
    M[:, :, 0, 0] = 1.0 - q0
    M[:, :, 0, 1] = q0
    M[:, :, 1, 0] = q1
    M[:, :, 1, 1] = 1.0 - q1
    K = np.ones((N, 1, 1))
    for j in range(n):
        a = K.shape[1]
        K = (K[:, :, None, :, None] * M[:, j, None, :, None, :]).reshape(N, 2 * a, 2 * a)
    return K


def sweep_transition_matrix(rbm: RBM, operator, beta: float = 1.0, base_bias=None) -> np.ndarray:
    """Exact transition matrix of one sweep (hidden, then visible) over all joint states.

    Parameters
    ----------
    rbm : RBM (n_visible + n_hidden <= 12)
    operator : Gibbs, FlipTheState or Blend
    beta, base_bias : tempered conditionals (Carlson et al. 2016, eq. 2)

    Returns
    -------
    P : ndarray (2^(n+m), 2^(n+m)), rows sum to 1;
        ``P[(v,h), (v',h')] = K_h(h -> h' | v) K_v(v -> v' | h')``.
    """
    n, m = rbm.n_visible, rbm.n_hidden
    if n + m > 12:
        raise ValueError(f"sweep_transition_matrix: {n + m} units give a matrix too large (max 12 units)")
    W = rbm.W.astype(np.float64)
    b = rbm.b.astype(np.float64)
    c = rbm.c.astype(np.float64)
    a = np.zeros(n) if base_bias is None else np.asarray(base_bias, dtype=np.float64)
    V = all_states(n).astype(np.float64)
    H = all_states(m).astype(np.float64)
    KH = _layer_kernels(operator, expit(beta * (V @ W + c)))  # [v, h, h']
    KV = _layer_kernels(operator, expit(beta * (H @ W.T + b) + (1.0 - beta) * a))  # [h', v, v']
    P = np.einsum("vhk,kvw->vhwk", KH, KV)
    return P.reshape(2 ** (n + m), 2 ** (n + m))


def stationary_check(rbm: RBM, P: np.ndarray, beta: float = 1.0, base_bias=None) -> float:
    """``max |p P - p|`` for the exact joint distribution p of ``rbm`` (0 if p is invariant)."""
    p = joint_probabilities(rbm, beta, base_bias)
    return float(np.max(np.abs(p @ P - p)))


def slem(P: np.ndarray) -> float:
    """Second largest eigenvalue modulus of a stochastic matrix (Brügge et al. 2013, sec. 4.1)."""
    mods = np.sort(np.abs(np.linalg.eigvals(P)))[::-1]
    return float(mods[1]) if len(mods) > 1 else 0.0


__all__ = ["sweep_transition_matrix", "stationary_check", "slem"]
