"""Exact quantities of small two-layer DBMs by enumeration (Salakhutdinov 2010, eqs. 1-2).

``log Z`` of the tempered family of :mod:`bmrep.models.dbm` by enumerating h1
with v and h2 summed out, ``log p(v)`` by enumerating h2, and the joint
table of tiny models; the ground truth of the AIS and bound checks.
"""

from __future__ import annotations

import numpy as np
from scipy.special import logsumexp

from bmrep.special import softplus_sum_

from ..dbm import DBM, base_logits, check_beta
from . import all_states

MAX_DBM_ENUM_UNITS = 20
_CHUNK = 1 << 12

__all__ = ["log_partition", "log_unnormalized_v", "log_prob_v", "joint_log_probabilities"]


def _check_enum(n: int, what: str) -> None:
    if n > MAX_DBM_ENUM_UNITS:
        raise ValueError(
            f"exact enumeration over {what} needs 2^{n} states; at most 2^{MAX_DBM_ENUM_UNITS} are allowed"
        )


def log_partition(dbm: DBM, beta: float = 1.0, base_bias=None) -> float:
    """Exact log Z of the tempered DBM by enumerating h1 (v and h2 summed out).

    ``log Z = logsumexp_h1 [(beta c1 + (1-beta) a1).h1 + sum_i softplus(beta (b + W1 h1)_i + (1-beta) a_i)
    + sum_k softplus(beta (c2 + h1 W2)_k + (1-beta) a2_k)]``; feasible for F1 <= 20.
    """
    beta = check_beta(beta)
    a, a1, a2 = base_logits(dbm, base_bias)
    D, F1, F2 = dbm.shape
    _check_enum(F1, "h1")
    W1, W2 = dbm.W1.astype(np.float64), dbm.W2.astype(np.float64)
    b, c1, c2 = (x.astype(np.float64) for x in (dbm.b, dbm.c1, dbm.c2))
    H = all_states(F1)
    parts = []
    for s in range(0, H.shape[0], _CHUNK):
        h1 = H[s : s + _CHUNK].astype(np.float64)
        t = (
            h1 @ (beta * c1 + (1.0 - beta) * a1)
            + softplus_sum_(beta * (h1 @ W1.T + b) + (1.0 - beta) * a)
            + softplus_sum_(beta * (h1 @ W2 + c2) + (1.0 - beta) * a2)
        )
        parts.append(logsumexp(t))
    return float(logsumexp(parts))


def log_unnormalized_v(dbm: DBM, V) -> np.ndarray:
    """Exact ``log sum_{h1,h2} exp(-E(v, h1, h2))`` per row of V, enumerating h2 (F2 <= 20)."""
    V = np.atleast_2d(np.asarray(V, dtype=np.float64))
    D, F1, F2 = dbm.shape
    _check_enum(F2, "h2")
    W1, W2 = dbm.W1.astype(np.float64), dbm.W2.astype(np.float64)
    b, c1, c2 = (x.astype(np.float64) for x in (dbm.b, dbm.c1, dbm.c2))
    H2 = all_states(F2).astype(np.float64)
    base = V @ W1 + c1  # (n, F1)
    out = np.empty(V.shape[0])
    for i in range(V.shape[0]):
        t = H2 @ c2 + softplus_sum_(base[i] + H2 @ W2.T)
        out[i] = V[i] @ b + logsumexp(t)
    return out


def log_prob_v(dbm: DBM, V, log_z: float | None = None) -> np.ndarray:
    """Exact log p(v) per row of V (needs F1 <= 20 for log Z and F2 <= 20)."""
    if log_z is None:
        log_z = log_partition(dbm)
    return log_unnormalized_v(dbm, V) - log_z


def joint_log_probabilities(dbm: DBM, beta: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    """All joint states (v, h1, h2) and their exact log-probabilities under ``p_beta ∝ exp(-beta E)``.

    The states are rows ordered as ``all_states(D+F1+F2)``. Only for tiny
    models (D + F1 + F2 <= 20).
    """
    D, F1, F2 = dbm.shape
    _check_enum(D + F1 + F2, "(v, h1, h2)")
    X = all_states(D + F1 + F2).astype(np.float64)
    lp = -check_beta(beta) * dbm.energy(X[:, :D], X[:, D : D + F1], X[:, D + F1 :])
    return X, lp - logsumexp(lp)
