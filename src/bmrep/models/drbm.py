"""Discriminative RBM with multivalued hidden variables.

Yokoyama, Katsumata & Yasuda (2019), section 3.1. The class distribution of
eq. (22),

    P_s(t = 1_k | x) ∝ exp(b_k + sum_j ln phi_s(zeta_jk(x))),
    zeta_jk(x) = c_j + w2_jk + sum_i w1_ij x_i,

normalised by eq. (23), with the exact log-likelihood gradients of eqs.
(25)-(28). ``s = 1`` is the DRBM of Larochelle & Bengio (2008).

Parameters: ``{"b": (K,), "c": (m,), "W1": (n, m), "W2": (m, K)}``.
"""

from __future__ import annotations

import numpy as np
from scipy.special import log_softmax

from .multivalued import check_s, log_phi, psi, xavier_bound


def init_params(n_inputs: int, n_hidden: int, n_classes: int, rng: np.random.Generator) -> dict:
    """Xavier-uniform couplings (Glorot & Bengio 2010) and zero biases (section 3.2).

    Draw order: ``W1`` then ``W2``.
    """
    a1 = xavier_bound(n_inputs, n_hidden)
    a2 = xavier_bound(n_hidden, n_classes)
    return {
        "b": np.zeros(n_classes),
        "c": np.zeros(n_hidden),
        "W1": rng.uniform(-a1, a1, (n_inputs, n_hidden)),
        "W2": rng.uniform(-a2, a2, (n_hidden, n_classes)),
    }


def hidden_fields(params, x) -> np.ndarray:
    """``zeta_jk(x)`` for every class, shape (N, K, m) (definition under eq. 22)."""
    a = x @ params["W1"] + params["c"]
    return a[:, None, :] + params["W2"].T[None, :, :]


def class_log_probs(params, x, s, chunk: int = 1000) -> np.ndarray:
    """``ln P_s(1_k | x)`` of eq. (22) for each row of ``x``, shape (N, K)."""
    s = check_s(s)
    out = np.empty((x.shape[0], params["b"].shape[0]))
    for lo in range(0, x.shape[0], chunk):
        z = hidden_fields(params, x[lo : lo + chunk])
        out[lo : lo + chunk] = log_softmax(params["b"] + log_phi(z, s).sum(-1), axis=1)
    return out


def predict(params, x, s, chunk: int = 1000) -> np.ndarray:
    """The class of maximum probability under eq. (22)."""
    return class_log_probs(params, x, s, chunk).argmax(1)


def error_rate(params, x, y, s, chunk: int = 1000) -> float:
    """Misclassification rate of :func:`predict` on ``(x, y)``."""
    return float(np.mean(predict(params, x, s, chunk) != y))


def log_likelihood(params, x, y, s) -> float:
    """Mean conditional log-likelihood ``l_s^dagger`` of eq. (24)."""
    lp = class_log_probs(params, x, s)
    return float(lp[np.arange(len(y)), y].mean())


def gradient(params, x, y, s) -> dict:
    """Exact gradient of eq. (24) on the batch ``(x, y)``: eqs. (25)-(28).

    ``y`` holds integer labels 0..K-1 (the 1-of-K vectors ``t``).
    """
    s = check_s(s)
    n = x.shape[0]
    z = hidden_fields(params, x)  # (N, K, m)
    lp = log_softmax(params["b"] + log_phi(z, s).sum(-1), axis=1)
    p = np.exp(lp)  # (N, K)
    t = np.zeros_like(p)
    t[np.arange(n), y] = 1.0
    ps = psi(z, s)  # (N, K, m)
    d = t - p
    # psi at the true class minus its class expectation, eqs. (26)/(27)
    g_hidden = ps[np.arange(n), y] - np.einsum("nk,nkm->nm", p, ps)
    return {
        "b": d.mean(0),  # eq. (25)
        "c": g_hidden.mean(0),  # eq. (26)
        "W1": x.T @ g_hidden / n,  # eq. (27)
        "W2": np.einsum("nkm,nk->mk", ps, d) / n,  # eq. (28)
    }


def noisy_images(x_uint8: np.ndarray, sigma: float, rng: np.random.Generator) -> np.ndarray:
    """Additive white Gaussian noise on the 0..255 scale, clipped to [0, 255], then /255.

    Section 3.2, footnote 2 (sigma = 120 in the paper).
    """
    noisy = x_uint8.astype(np.float64) + rng.normal(0.0, sigma, x_uint8.shape)
    return np.clip(noisy, 0.0, 255.0) / 255.0


__all__ = [
    "init_params",
    "hidden_fields",
    "class_log_probs",
    "predict",
    "error_rate",
    "log_likelihood",
    "gradient",
    "noisy_images",
]
