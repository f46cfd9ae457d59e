"""RBM with visible units in {-1, +1} and multivalued hidden units.

Yokoyama, Katsumata & Yasuda (2019), "Restricted Boltzmann machine with
multivalued hidden variables" (arXiv:1811.12587). Hidden units take values in
``X(s) = {(2k - s)/s : k = 0..s}`` (eq. 1); ``s = inf`` means ``X = [-1, 1]``.
The energy is eq. (2), the marginal of ``v`` is eq. (5),

    P_s(v) ∝ exp(b.v + sum_j ln phi_s(lambda_j(v))),  lambda_j = c_j + sum_i w_ij v_i,

with ``phi_s`` of eqs. (6)/(7) and ``psi_s = d ln phi_s / dx`` of eq. (14).
``s = 1`` is the ordinary ±1 RBM (``ln phi_1(x) = ln 2 cosh x``).

Parameters are kept in a dict ``{"b": (n,), "c": (m,), "W": (n, m)}`` or a
batch of independent models ``{"b": (B, n), "c": (B, m), "W": (B, n, m)}``;
every function here accepts both (leading batch axes broadcast). Exact
quantities by enumeration (``ln Z_s``, ``ln P_s(v)``, the exact gradient and
exact samples) are in :mod:`bmrep.models.exact.multivalued`.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.special import expit

from . import _multivalued

INF = math.inf


def check_s(s) -> float:
    """Validate the hidden-state resolution ``s`` (integer >= 1 or ``inf``)."""
    s = float(s)
    if math.isinf(s) and s > 0:
        return s
    if s < 1 or s != int(s):
        raise ValueError(f"s must be an integer >= 1 or inf, got {s}")
    return s


def hidden_levels(s: int) -> np.ndarray:
    """The sample space ``X(s) = {(2k - s)/s : k = 0..s}`` of eq. (1) (finite s)."""
    s = check_s(s)
    if math.isinf(s):
        raise ValueError("X(inf) = [-1, 1] is continuous")
    s = int(s)
    return (2.0 * np.arange(s + 1) - s) / s


def _elementwise(kernel, x, s) -> np.ndarray:
    s = check_s(s)
    x = np.asarray(x, dtype=np.float64)
    flat = np.ascontiguousarray(x.reshape(-1, x.shape[-1]) if x.ndim >= 1 else x.reshape(1, 1))
    out = np.empty_like(flat)
    kernel(flat, s, out)
    return out.reshape(x.shape)


def log_phi(x, s) -> np.ndarray:
    """``ln phi_s(x)``, eq. (6) (eq. (7) for ``s = inf``), stable for all ``x``.

    ``phi_s(x) = sum_{h in X(s)} 2/(s+1) e^{xh} = 2 sinh((s+1)x/s) / ((s+1) sinh(x/s))``
    is evaluated as ``ln 2 + g((s+1)|x|/s) - g(|x|/s)`` with
    ``g(a) = ln(sinh(a)/a)`` (a series near 0, ``a + ln(1 - e^{-2a}) - ln 2a``
    elsewhere), so neither ``x -> 0`` nor ``|x| -> inf`` loses precision or
    overflows.
    """
    return _elementwise(_multivalued.log_phi, x, s)


def psi(x, s) -> np.ndarray:
    """``psi_s(x) = d ln phi_s(x) / dx`` of eq. (14): the mean of ``h`` given field ``x``.

    Written with the Langevin function ``L(y) = coth y - 1/y`` as
    ``((s+1)/s) L((s+1)x/s) - L(x/s)/s`` (``L(x)`` for ``s = inf``): the
    ``1/x`` poles of eq. (14) cancel analytically.
    """
    return _elementwise(_multivalued.psi, x, s)


def hidden_field(params, v) -> np.ndarray:
    """``lambda_j(v) = c_j + sum_i w_ij v_i`` (eq. 5); ``v`` is (..., N, n)."""
    return np.matmul(v, params["W"]) + params["c"][..., None, :]


def visible_field(params, h) -> np.ndarray:
    """``xi_i(h) = b_i + sum_j w_ij h_j`` (eq. 8); ``h`` is (..., N, m)."""
    return np.matmul(h, np.swapaxes(params["W"], -1, -2)) + params["b"][..., None, :]


def log_unnormalized(params, v, s) -> np.ndarray:
    """``b.v + sum_j ln phi_s(lambda_j(v))``, the log of eq. (5) times ``Z_s``."""
    return np.einsum("...ni,...i->...n", v, params["b"]) + log_phi(hidden_field(params, v), s).sum(-1)


def kl_per_unit(log_p_true, log_p_model) -> np.ndarray:
    """KLD of eq. (16): ``sum_v P(v) ln(P(v)/Q(v)) / |V|`` from full log tables."""
    n = math.log2(log_p_true.shape[-1])
    p = np.exp(log_p_true)
    return (p * (log_p_true - log_p_model)).sum(-1) / n


def sample_hidden(lam, s, rng: np.random.Generator) -> np.ndarray:
    """Draw ``h ~ P_s(h | v)`` of eq. (9) given the fields ``lam``, compiled.

    One uniform per unit is taken from ``rng`` in C order; the compiled kernel
    maps it through the inverse CDF (categorical over ``X(s)``, or the
    continuous inverse CDF of section 2 for ``s = inf``), so the result does
    not depend on the number of threads.
    """
    s = check_s(s)
    lam = np.asarray(lam, dtype=np.float64)
    flat = np.ascontiguousarray(lam.reshape(-1, lam.shape[-1]))
    u = rng.random(flat.shape)
    out = np.empty_like(flat)
    _multivalued.sample_hidden(flat, s, u, out)
    return out.reshape(lam.shape)


def sample_visible(xi, rng: np.random.Generator) -> np.ndarray:
    """Draw ``v ~ P(v | h)`` of eq. (8): ``P(v_i = +1) = sigmoid(2 xi_i)``."""
    xi = np.asarray(xi, dtype=np.float64)
    return np.where(rng.random(xi.shape) < expit(2.0 * xi), 1.0, -1.0)


def cd_gradient(params, v_data, s, k: int, rngs) -> dict:
    """CD-k estimate of the log-likelihood gradient, eqs. (11)-(13).

    The data term uses the exact conditional mean ``psi_s(lambda)``; the model
    term runs ``k`` blocked Gibbs sweeps (eqs. 8, 9) from each data point and
    uses the final visible sample with its conditional hidden mean (the usual
    Rao-Blackwellised CD statistic).

    Parameters
    ----------
    params : dict
        ``b`` (..., n), ``c`` (..., m), ``W`` (..., n, m); leading axes index
        independent models.
    v_data : ndarray (..., N, n)
        ±1 training data (full batch).
    s : int or inf
    k : int
        Gibbs sweeps.
    rngs : Generator or sequence of Generators
        One stream per model of the batch (so a model's result does not
        depend on which models share its batch).
    """
    batch = params["b"].shape[:-1]
    gens = [rngs] if isinstance(rngs, np.random.Generator) else list(rngs)
    if len(gens) != int(np.prod(batch, dtype=int)):
        raise ValueError(f"need one generator per model ({int(np.prod(batch, dtype=int))}), got {len(gens)}")
    ph0 = psi(hidden_field(params, v_data), s)
    v = v_data
    for _ in range(k):
        lam = hidden_field(params, v).reshape((-1,) + v_data.shape[-2:-1] + params["c"].shape[-1:])
        h = np.stack([sample_hidden(lam[b], s, g) for b, g in enumerate(gens)]).reshape(batch + lam.shape[1:])
        xi = visible_field(params, h).reshape((-1,) + v_data.shape[-2:])
        v = np.stack([sample_visible(xi[b], g) for b, g in enumerate(gens)]).reshape(batch + xi.shape[1:])
    ph1 = psi(hidden_field(params, v), s)
    n_data = v_data.shape[-2]
    return {
        "b": (v_data.sum(-2) - v.sum(-2)) / n_data,
        "c": (ph0.sum(-2) - ph1.sum(-2)) / n_data,
        "W": (np.matmul(np.swapaxes(v_data, -1, -2), ph0) - np.matmul(np.swapaxes(v, -1, -2), ph1)) / n_data,
    }


def xavier_bound(n_in: int, n_out: int) -> float:
    """Half-width ``sqrt(6 / (n_in + n_out))`` of the Xavier uniform init, eq. (15)."""
    return math.sqrt(6.0 / (n_in + n_out))


def random_rbm(n: int, m: int, rng: np.random.Generator, bias_sd: float = 0.1) -> dict:
    """The generative RBM of section 2.2: ``b, c ~ N(0, bias_sd^2)``, ``W`` Xavier (eq. 15).

    Draw order: ``b``, ``c``, ``W``.
    """
    b = rng.normal(0.0, bias_sd, n)
    c = rng.normal(0.0, bias_sd, m)
    a = xavier_bound(n, m)
    return {"b": b, "c": c, "W": rng.uniform(-a, a, (n, m))}


__all__ = [
    "check_s",
    "hidden_levels",
    "log_phi",
    "psi",
    "hidden_field",
    "visible_field",
    "log_unnormalized",
    "kl_per_unit",
    "sample_hidden",
    "sample_visible",
    "cd_gradient",
    "xavier_bound",
    "random_rbm",
]
