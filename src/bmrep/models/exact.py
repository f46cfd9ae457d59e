"""Exact quantities of small models by enumeration: the one place where states are enumerated.

* Binary RBMs (Carlson et al. 2016; Brügge et al. 2013): ``log Z`` by
  enumerating the smaller layer and summing the other one out analytically
  (``Z = sum_v exp(-F(v)) = sum_h exp(-F(h))``), in chunks and in the log
  domain, so layers of up to 25 units (2^25 states) are feasible and weights
  of magnitude 50+ neither overflow nor give NaN. The tempered family
  ``p_beta ∝ exp(-beta E + (1 - beta) a.v)`` of Carlson et al. (2016, eq. 2)
  is supported through ``beta`` and ``base_bias``.
* Two-layer DBMs (Salakhutdinov 2010): ``log Z`` by enumerating h1 with v and
  h2 summed out, ``log p(v)`` by enumerating h2, and the full joint table.
* RBMs with ±1 visible and multivalued hidden units (Yokoyama et al. 2019):
  ``ln Z_s`` (eq. 4), ``ln P_s(v)`` (eq. 5), the exact gradient (eqs. 11-13)
  and exact samples, by enumerating the visible configurations.
* Sigmoid belief networks (Saul et al. 1996): ``ln P(V)`` (eq. 8) by
  enumerating the hidden units.
"""

from __future__ import annotations

import itertools

import numpy as np
from scipy.special import logsumexp

from bmrep.models import multivalued as mv
from bmrep.models.dbm import DBM, base_logits, check_beta
from bmrep.models.rbm import (
    RBM,
    sigmoid,
    softplus,
    tempered_free_energy_h,
    tempered_free_energy_v,
    tempered_log_unnormalized,
)
from bmrep.models.sbn import SigmoidBeliefNetwork

MAX_ENUM_UNITS = 25
CHUNK_BITS = 15
DBM_MAX_ENUM_UNITS = 20
_DBM_CHUNK = 1 << 12

__all__ = [
    "all_states",
    "state_index",
    "log_partition",
    "log_prob_v",
    "mean_log_likelihood",
    "joint_probabilities",
    "sample_exact",
    "dbm_log_partition",
    "dbm_log_unnormalized_v",
    "dbm_log_prob_v",
    "dbm_joint_log_probabilities",
    "all_spin_states",
    "spin_state_index",
    "multivalued_log_partition",
    "multivalued_log_marginal",
    "multivalued_gradient",
    "multivalued_sample",
    "sbn_log_marginal",
]


# -- binary RBMs --------------------------------------------------------------
def all_states(n: int) -> np.ndarray:
    """All ``2^n`` binary vectors of length n, uint8 (2^n, n).

    Row k holds the binary digits of k, least significant bit last, so unit 0
    is the most significant digit.
    """
    if not 0 <= n <= MAX_ENUM_UNITS:
        raise ValueError(f"all_states: n must be in [0, {MAX_ENUM_UNITS}], got {n}")
    return _states_range(0, 2**n, n)


def _states_range(start: int, stop: int, n: int, dtype=np.uint8) -> np.ndarray:
    k = np.arange(start, stop, dtype=np.int64)
    shifts = np.arange(n - 1, -1, -1, dtype=np.int64)
    return ((k[:, None] >> shifts) & 1).astype(dtype)


def state_index(states) -> np.ndarray:
    """Inverse of :func:`all_states`: the integer whose binary digits a row holds."""
    s = np.asarray(states).astype(np.int64)
    n = s.shape[-1]
    return s @ (1 << np.arange(n - 1, -1, -1, dtype=np.int64))


def log_partition(rbm: RBM, beta: float = 1.0, base_bias=None) -> float:
    """Exact ``log Z_beta`` by enumerating the smaller layer (chunked, log domain).

    Parameters
    ----------
    rbm : RBM
    beta : float in [0, 1]
        Inverse temperature of the tempered family (Carlson et al. 2016, eq. 2).
    base_bias : array (n_visible,) or None
        Logits ``a`` of the base distribution on v (None: uniform).

    Returns
    -------
    float
        ``log sum_{v,h} exp(-beta E(v,h) + (1-beta) a.v)``.
    """
    n, m = rbm.n_visible, rbm.n_hidden
    if min(n, m) > MAX_ENUM_UNITS:
        raise ValueError(
            f"log_partition: smaller layer has {min(n, m)} units, more than {MAX_ENUM_UNITS} cannot be enumerated"
        )
    if n <= m:
        k, free = n, lambda s: tempered_free_energy_v(rbm, s, beta, base_bias)
    else:
        k, free = m, lambda s: tempered_free_energy_h(rbm, s, beta, base_bias)
    total = 2**k
    chunk = 2**CHUNK_BITS
    parts = []
    for start in range(0, total, chunk):
        states = _states_range(start, min(start + chunk, total), k, dtype=np.float64)
        parts.append(logsumexp(-free(states)))
    return float(logsumexp(parts))


def log_prob_v(rbm: RBM, V, log_z: float | None = None) -> np.ndarray:
    """Exact ``log p(v) = -F(v) - log Z`` per row of V."""
    if log_z is None:
        log_z = log_partition(rbm)
    return -rbm.free_energy_v(V) - log_z


def mean_log_likelihood(rbm: RBM, X, log_z: float | None = None) -> float:
    """Exact average log-likelihood ``mean_n log p(x_n)`` of a data set (nats)."""
    X = np.asarray(X)
    if X.ndim != 2 or X.shape[1] != rbm.n_visible:
        raise ValueError(f"data must have shape (n, {rbm.n_visible}), got {X.shape}")
    return float(np.mean(log_prob_v(rbm, X, log_z)))


def joint_probabilities(rbm: RBM, beta: float = 1.0, base_bias=None) -> np.ndarray:
    """``p_beta(v, h)`` over all ``2^(n+m)`` joint states (float64).

    Ordered as ``all_states(n_visible + n_hidden)`` with v the leading
    (most significant) digits, so index = v_index * 2^m + h_index.
    """
    n, m = rbm.n_visible, rbm.n_hidden
    if n + m > 22:
        raise ValueError(f"joint_probabilities: {n + m} units is too many to enumerate jointly (max 22)")
    s = all_states(n + m).astype(np.float64)
    logp = tempered_log_unnormalized(rbm, s[:, :n], s[:, n:], beta, base_bias)
    return np.exp(logp - logsumexp(logp))


def sample_exact(rbm: RBM, n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """``n`` independent exact samples (V, H) from a small RBM (float64 0/1 arrays).

    The smaller layer is drawn from its exact marginal (enumerated), the other
    from its conditional given it.
    """
    nv, nh = rbm.n_visible, rbm.n_hidden
    k = min(nv, nh)
    if k > 22:
        raise ValueError(f"sample_exact: smaller layer has {k} units, at most 22 supported")
    states = all_states(k).astype(np.float64)
    if nv <= nh:
        logp = -rbm.free_energy_v(states)
    else:
        logp = -rbm.free_energy_h(states)
    p = np.exp(logp - logsumexp(logp))
    cdf = np.cumsum(p)
    cdf /= cdf[-1]
    idx = np.minimum(np.searchsorted(cdf, rng.random(n), side="right"), len(cdf) - 1)
    S = states[idx]
    W = rbm.W.astype(np.float64)
    if nv <= nh:
        V = S
        H = (rng.random((n, nh)) < sigmoid(V @ W + rbm.c)).astype(np.float64)
    else:
        H = S
        V = (rng.random((n, nv)) < sigmoid(H @ W.T + rbm.b)).astype(np.float64)
    return V, H


# -- two-layer DBMs -------------------------------------------------------------
def _check_dbm_enum(n: int, what: str) -> None:
    if n > DBM_MAX_ENUM_UNITS:
        raise ValueError(f"exact enumeration over {what} needs 2^{n} states; at most 2^{DBM_MAX_ENUM_UNITS} are allowed")


def dbm_log_partition(dbm: DBM, beta: float = 1.0, base_bias=None) -> float:
    """Exact log Z of the tempered DBM by enumerating h1 (v and h2 summed out).

    ``log Z = logsumexp_h1 [(beta c1 + (1-beta) a1).h1 + sum_i softplus(beta (b + W1 h1)_i + (1-beta) a_i)
    + sum_k softplus(beta (c2 + h1 W2)_k + (1-beta) a2_k)]``; feasible for F1 <= 20.
    """
    beta = check_beta(beta)
    a, a1, a2 = base_logits(dbm, base_bias)
    D, F1, F2 = dbm.shape
    _check_dbm_enum(F1, "h1")
    W1, W2 = dbm.W1.astype(np.float64), dbm.W2.astype(np.float64)
    b, c1, c2 = (x.astype(np.float64) for x in (dbm.b, dbm.c1, dbm.c2))
    H = all_states(F1)
    parts = []
    for s in range(0, H.shape[0], _DBM_CHUNK):
        h1 = H[s:s + _DBM_CHUNK].astype(np.float64)
        t = (h1 @ (beta * c1 + (1.0 - beta) * a1) + softplus(beta * (h1 @ W1.T + b) + (1.0 - beta) * a).sum(axis=1)
             + softplus(beta * (h1 @ W2 + c2) + (1.0 - beta) * a2).sum(axis=1))
        parts.append(logsumexp(t))
    return float(logsumexp(parts))


def dbm_log_unnormalized_v(dbm: DBM, V) -> np.ndarray:
    """Exact ``log sum_{h1,h2} exp(-E(v, h1, h2))`` per row of V, enumerating h2 (F2 <= 20)."""
    V = np.atleast_2d(np.asarray(V, dtype=np.float64))
    D, F1, F2 = dbm.shape
    _check_dbm_enum(F2, "h2")
    W1, W2 = dbm.W1.astype(np.float64), dbm.W2.astype(np.float64)
    b, c1, c2 = (x.astype(np.float64) for x in (dbm.b, dbm.c1, dbm.c2))
    H2 = all_states(F2).astype(np.float64)
    base = V @ W1 + c1  # (n, F1)
    out = np.empty(V.shape[0])
    for i in range(V.shape[0]):
        t = H2 @ c2 + softplus(base[i] + H2 @ W2.T).sum(axis=1)
        out[i] = V[i] @ b + logsumexp(t)
    return out


def dbm_log_prob_v(dbm: DBM, V, log_z: float | None = None) -> np.ndarray:
    """Exact log p(v) per row of V (needs F1 <= 20 for log Z and F2 <= 20)."""
    if log_z is None:
        log_z = dbm_log_partition(dbm)
    return dbm_log_unnormalized_v(dbm, V) - log_z


def dbm_joint_log_probabilities(dbm: DBM, beta: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    """All joint states (v, h1, h2) as rows (ordered as ``all_states(D+F1+F2)``)
    and their exact log-probabilities under ``p_beta ∝ exp(-beta E)``.
    Only for tiny models (D + F1 + F2 <= 20)."""
    D, F1, F2 = dbm.shape
    _check_dbm_enum(D + F1 + F2, "(v, h1, h2)")
    X = all_states(D + F1 + F2).astype(np.float64)
    lp = -check_beta(beta) * dbm.energy(X[:, :D], X[:, D:D + F1], X[:, D + F1:])
    return X, lp - logsumexp(lp)


# -- multivalued RBMs (Yokoyama et al. 2019), visible units in {-1, +1} ------------
def all_spin_states(n: int) -> np.ndarray:
    """All ``2^n`` configurations of ``n`` ±1 units, (2^n, n) float64."""
    if not 1 <= n <= 24:
        raise ValueError(f"enumeration needs 1 <= n <= 24 visible units, got {n}")
    return np.array(list(itertools.product((-1.0, 1.0), repeat=n)))


def multivalued_log_partition(params, s, states: np.ndarray | None = None) -> np.ndarray:
    """Exact ``ln Z_s`` (eq. 4) by enumerating every visible configuration."""
    if states is None:
        states = all_spin_states(params["b"].shape[-1])
    return logsumexp(mv.log_unnormalized(params, states, s), axis=-1)


def multivalued_log_marginal(params, s, states: np.ndarray | None = None) -> np.ndarray:
    """Exact ``ln P_s(v)`` (eq. 5) of every state in ``states`` (default: all 2^n)."""
    if states is None:
        states = all_spin_states(params["b"].shape[-1])
    lu = mv.log_unnormalized(params, states, s)
    return lu - logsumexp(lu, axis=-1, keepdims=True)


def spin_state_index(v: np.ndarray) -> np.ndarray:
    """Row of :func:`all_spin_states` holding each ±1 vector of ``v`` (..., n)."""
    n = v.shape[-1]
    bits = (v > 0).astype(np.int64)
    return bits @ (1 << np.arange(n - 1, -1, -1))


def multivalued_gradient(params, v_data, s) -> dict:
    """Exact gradient of the mean log-likelihood, eqs. (11)-(13), by enumeration (single model)."""
    states = all_spin_states(params["b"].shape[-1])
    p = np.exp(multivalued_log_marginal(params, s, states))
    ph_model = mv.psi(mv.hidden_field(params, states), s)
    ph_data = mv.psi(mv.hidden_field(params, v_data), s)
    n_data = v_data.shape[0]
    return {
        "b": v_data.mean(0) - p @ states,
        "c": ph_data.mean(0) - p @ ph_model,
        "W": v_data.T @ ph_data / n_data - (states * p[:, None]).T @ ph_model,
    }


def multivalued_sample(params, s, n_samples: int, rng: np.random.Generator) -> np.ndarray:
    """``n_samples`` independent draws from the exact marginal ``P_s(v)`` (enumeration)."""
    states = all_spin_states(params["b"].shape[-1])
    p = np.exp(multivalued_log_marginal(params, s, states))
    idx = rng.choice(len(states), size=n_samples, p=p / p.sum())
    return states[idx]


# -- sigmoid belief networks (Saul et al. 1996) ------------------------------------
def sbn_log_marginal(net: SigmoidBeliefNetwork, values: np.ndarray, visible: np.ndarray, max_hidden: int = 20) -> np.ndarray:
    """Exact ``ln P(V)`` of eq. (8) by enumerating the ``2^|H|`` hidden states.

    Parameters
    ----------
    values : ndarray, shape (P, N) or (P, |V|)
        Evidence per pattern: either full-width rows (hidden entries ignored)
        or only the visible units' values, in unit order.
    visible : ndarray of bool, shape (N,)
        Which units are instantiated.
    max_hidden : int
        Refuse to enumerate more than ``2**max_hidden`` hidden states.
    """
    vis = np.asarray(visible, dtype=bool)
    if vis.shape != (net.n_units,):
        raise ValueError(f"visible must have shape ({net.n_units},)")
    hid = np.flatnonzero(~vis)
    if len(hid) > max_hidden:
        raise ValueError(f"{len(hid)} hidden units: exact enumeration of 2^{len(hid)} states refused")
    vals = np.atleast_2d(np.asarray(values, dtype=np.float64))
    if vals.shape[1] == net.n_units:
        vals = vals[:, vis]
    if vals.shape[1] != vis.sum():
        raise ValueError("values must have N or |V| columns")
    codes = np.arange(2 ** len(hid))
    hstates = ((codes[:, None] >> np.arange(len(hid))[None, :]) & 1).astype(np.float64)
    out = np.empty(len(vals))
    chunk = max(1, 2**22 // max(1, len(codes) * net.n_units))
    for a in range(0, len(vals), chunk):
        v = vals[a : a + chunk]
        s = np.empty((len(v), len(codes), net.n_units))
        s[:, :, vis] = v[:, None, :]
        s[:, :, hid] = hstates[None, :, :]
        lj = net.log_joint(s)
        m = lj.max(axis=1, keepdims=True)
        out[a : a + chunk] = m[:, 0] + np.log(np.exp(lj - m).sum(axis=1))
    return out
