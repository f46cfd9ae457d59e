"""Figure 2 of Saul, Jaakkola & Jordan (1996): the bound (20) on <ln(1+e^z)>, z ~ N(0,1)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...meanfield.logistic_bound import (
    gaussian_cgf,
    gaussian_softplus_bound,
    gaussian_softplus_expectation,
    minimise_softplus_bound,
)
from .paper_numbers import PAPER_FIG2


def fig2_curve(xi: np.ndarray, mean: float = 0.0, std: float = 1.0) -> tuple[pd.DataFrame, dict]:
    """Eq. (20) for z ~ N(mean, std^2) on a grid of xi, and the three numbers of Figure 2.

    Returns
    -------
    curve : DataFrame with columns ``xi``, ``bound``, ``exact``
    numbers : dict with ``exact``, ``min_bound``, ``xi_star``, ``xi0_bound``
    """
    xi = np.asarray(xi, dtype=np.float64)
    exact = gaussian_softplus_expectation(mean, std)
    xi_star, best = minimise_softplus_bound(mean, lambda t: gaussian_cgf(t, mean, std))
    numbers = {
        "exact": exact,
        "min_bound": best,
        "xi_star": xi_star,
        "xi0_bound": float(gaussian_softplus_bound(0.0, mean, std)),
    }
    curve = pd.DataFrame({"xi": xi, "bound": gaussian_softplus_bound(xi, mean, std), "exact": exact})
    return curve, numbers


def fig2_table(curve: pd.DataFrame, numbers: dict) -> pd.DataFrame:
    """Figure 2's result table: the three numbers beside the paper's, then the curve.

    Columns ``quantity`` (``exact``, ``min_bound``, ``xi0_bound``, then
    ``bound_curve`` per grid point), ``xi``, ``value``, ``paper_value``.
    """
    xi_of = {"exact": np.nan, "min_bound": numbers["xi_star"], "xi0_bound": 0.0}
    rows = [{"quantity": k, "xi": xi_of[k], "value": numbers[k], "paper_value": PAPER_FIG2[k]} for k in PAPER_FIG2]
    points = curve.assign(quantity="bound_curve", paper_value=np.nan).rename(columns={"bound": "value"})
    return pd.concat([pd.DataFrame(rows), points[["quantity", "xi", "value", "paper_value"]]])
