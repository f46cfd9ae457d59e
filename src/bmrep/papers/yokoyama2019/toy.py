"""Fig. 4 of Yokoyama et al. (2019): the toy model of section 2.3.

Two visible units, ``|H|`` hidden units with values in ``X(s)``, no biases,
all couplings ``w``: the model correlation ``alpha_s(w)`` (eq. 19), the
log-likelihood ``l_s(w)`` of eq. (21) for data with correlation ``beta``,
and its maximiser ``|w*_s|``.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from scipy.optimize import brentq, minimize_scalar

from ...models import multivalued as mv
from .s_values import parse_s, s_label


def toy_alpha(w, s, n_hidden: int = 2) -> np.ndarray:
    """``alpha_s(w)`` of section 2.3: the model correlation <v1 v2> of eq. (19).

    ``(A - B)/(A + B)`` with ``A = exp(|H| ln phi_s(2w))``, ``B = 2^|H|``, i.e.
    ``tanh(|H| (ln phi_s(2w) - ln 2) / 2)``.
    """
    w = np.asarray(w, dtype=np.float64)
    return np.tanh(0.5 * n_hidden * (mv.log_phi(2.0 * w, s) - math.log(2.0)))


def toy_log_likelihood(w, s, beta: float, n_hidden: int = 2) -> np.ndarray:
    """``l_s(w)`` of eq. (21) for data with ``d1 = d2 = 0`` and correlation ``beta``."""
    a = toy_alpha(w, s, n_hidden)
    return 0.5 * (1 + beta) * np.log((1 + a) / 4) + 0.5 * (1 - beta) * np.log((1 - a) / 4)


def toy_w_star(s, beta: float, n_hidden: int = 2) -> float:
    """``|w*_s|`` solving ``alpha_s(w*) = beta`` (the maximiser of eq. 21)."""
    if not 0 < beta < 1:
        raise ValueError(f"beta must be in (0, 1), got {beta}")
    hi = 1.0
    while toy_alpha(hi, s, n_hidden) < beta:
        hi *= 2.0
    return brentq(lambda w: float(toy_alpha(w, s, n_hidden)) - beta, 0.0, hi, xtol=1e-14, rtol=1e-14)


def toy_table(s_values, beta: float, n_hidden: int, w_max: float, n_points: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Curves of Fig. 4 (alpha_s and l_s on a w grid) and the maximisers.

    The maximiser is found twice, as the root of ``alpha_s(w) = beta`` and by
    maximising eq. (21) numerically; both are reported.
    """
    w = np.linspace(-w_max, w_max, n_points)
    curves, stars = [], []
    for s in map(parse_s, s_values):
        curves.append(
            pd.DataFrame(
                {
                    "s": s_label(s),
                    "w": w,
                    "alpha": toy_alpha(w, s, n_hidden),
                    "loglik": toy_log_likelihood(w, s, beta, n_hidden),
                }
            )
        )
        root = toy_w_star(s, beta, n_hidden)
        opt = minimize_scalar(
            lambda x, s=s: -float(toy_log_likelihood(x, s, beta, n_hidden)),
            bounds=(0.0, 4 * root),
            method="bounded",
            options={"xatol": 1e-12},
        )
        stars.append(
            {
                "s": s_label(s),
                "beta": beta,
                "n_hidden": n_hidden,
                "w_star": root,
                "w_star_argmax": opt.x,
                "loglik_at_w_star": float(toy_log_likelihood(root, s, beta, n_hidden)),
            }
        )
    return pd.concat(curves, ignore_index=True), pd.DataFrame(stars)
