"""The base distribution p1 of Carlson et al. (2016): independent Bernoullis on the visible units."""

from __future__ import annotations

import numpy as np

from ...estimators.base import data_marginal_base_bias, uniform_base_bias


def base_bias_for(kind: str, X: np.ndarray, pseudo_count: float = 1.0) -> np.ndarray:
    """Logits of the base distribution p1 (sec. 2 and 4.2 of the paper).

    Parameters
    ----------
    kind : {"data", "uniform"}
        ``"data"``: the training data's marginals (Salakhutdinov & Murray 2008);
        ``"uniform"``: p(v_i = 1) = 1/2.
    X : ndarray, shape (n, n_visible)
        Binary training data.
    pseudo_count : float
        Added to the counts of ones and zeros for the data marginals.
    """
    if kind == "data":
        return data_marginal_base_bias(X, pseudo_count)
    if kind == "uniform":
        return uniform_base_bias(X.shape[1])
    raise ValueError(f"base must be 'data' or 'uniform', got {kind!r}")
