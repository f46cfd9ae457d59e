"""Convergence rates of exact transition matrices (Brügge et al. 2013, sec. 4.1/5.1, Fig. 3 top)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...models.rbm import RBM
from ...progress import track
from ...sampling.operators import Blend
from ...sampling.transition_matrix import (
    slem,
    stationary_check,
    sweep_transition_matrix,
)
from ...seeds import rng as keyed_rng
from .common import PAPER
from .operators import OPERATORS


def uniform_weight_rbm(n: int, c: float, rng: np.random.Generator) -> RBM:
    """N x n RBM with weights U[-c, c] and zero biases (sec. 4.1)."""
    return RBM(rng.uniform(-c, c, size=(n, n)), np.zeros(n), np.zeros(n))


def slem_study(size: int, c_values, n_rbms: int, seed: int, blend_alpha: float | None = 0.5) -> pd.DataFrame:
    """SLEM of G, T (and the blend) for ``n_rbms`` random RBMs per c (sec. 4.1).

    Returns
    -------
    pandas.DataFrame
        One row per RBM: size, c, rbm, slem_G, slem_T[, slem_blend] and the
        largest stationarity error ``max |pP - p|`` over the operators.
    """
    ops = dict(OPERATORS)
    if blend_alpha is not None:
        ops["blend"] = Blend(blend_alpha)
    rows = []
    for c in track(c_values, f"weight scales c, {size}x{size} RBMs"):
        g = keyed_rng(seed, PAPER, "fig3_slem", int(size), int(c))
        for i in range(int(n_rbms)):
            rbm = uniform_weight_rbm(int(size), float(c), g)
            row = {"size": int(size), "c": int(c), "rbm": i}
            err = 0.0
            for name, op in ops.items():
                P = sweep_transition_matrix(rbm, op)
                row[f"slem_{name}"] = slem(P)
                err = max(err, stationary_check(rbm, P))
            row["stationarity_error"] = err
            rows.append(row)
    return pd.DataFrame(rows)
