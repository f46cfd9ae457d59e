"""Bias, RMSE, coverage and CPU cost per (model, estimator, budget) of the calibration study (issue 23).

Every standard error is over the independent replicates: the bias's and the
CPU seconds' sd / sqrt(R); the RMSE's by the delta method (the standard error
of the mean squared error over 2 RMSE); the coverage's binomial
sqrt(p (1 - p) / R).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from . import METHODS

BY = ["model", "method", "sweeps"]
# Published test log-likelihoods of MNIST models (shown beside ours, not claimed; issue 23 item 5).
PUBLISHED = [
    {"model": "RBM 784-500, CD-25", "test_log_likelihood": -86.34,
     "source": "Salakhutdinov & Murray (2008), AIS estimate"},
    {"model": "DBM 784-500-1000", "test_log_likelihood": -84.62,
     "source": "Salakhutdinov & Hinton (2009), AIS estimate"},
]  # fmt: skip


def calibration_summary(table: pd.DataFrame) -> pd.DataFrame:
    """One row per (model, method, sweeps) from the replicates' table.

    Parameters
    ----------
    table : DataFrame
        The shards' rows (:data:`bmrep.experiments.calibration.replicates.COLUMNS`).

    Returns
    -------
    DataFrame
        ``model``, ``method``, ``sweeps``, ``n`` (replicates), ``exact``,
        ``bias``, ``bias_se``, ``sd`` (of log Z over replicates), ``rmse``,
        ``rmse_se``, ``stated_se`` (mean stated error; NaN for TI),
        ``se_ratio`` (mean stated error over the replicates' sd),
        ``coverage``, ``coverage_se`` (NaN where no error is stated),
        ``jensen_gap`` (``-sd^2/2`` for AIS, ``+sd^2/2`` for RAISE, else NaN),
        ``cpu_seconds``, ``cpu_seconds_se``; methods in :data:`METHODS` order.
    """
    rows = []
    for (model, method, sweeps), g in table.groupby(BY, sort=False):
        e = g["error"].to_numpy(np.float64)
        n = e.size
        sd = float(e.std(ddof=1)) if n > 1 else np.nan
        rmse = float(np.sqrt(np.mean(e**2)))
        cov = g["covered"].to_numpy(np.float64)
        cov = cov[np.isfinite(cov)]
        p = float(cov.mean()) if cov.size else np.nan
        cpu = g["cpu_seconds"].to_numpy(np.float64)
        stated = float(g["stderr"].mean()) if np.isfinite(g["stderr"]).any() else np.nan
        sign = {"AIS": -1.0, "RAISE": 1.0}.get(method)
        rows.append({
            "model": model, "method": method, "sweeps": int(sweeps), "n": n, "exact": float(g["exact"].iloc[0]),
            "bias": float(e.mean()), "bias_se": sd / np.sqrt(n), "sd": sd,
            "rmse": rmse, "rmse_se": float(np.square(e).std(ddof=1) / np.sqrt(n) / (2 * rmse)) if n > 1 else np.nan,
            "stated_se": stated, "se_ratio": stated / sd if sd > 0 else np.nan,
            "coverage": p, "coverage_se": float(np.sqrt(p * (1 - p) / cov.size)) if cov.size else np.nan,
            "jensen_gap": sign * sd**2 / 2 if sign is not None else np.nan,
            "cpu_seconds": float(cpu.mean()),
            "cpu_seconds_se": float(cpu.std(ddof=1) / np.sqrt(n)) if n > 1 else np.nan,
        })  # fmt: skip
    out = pd.DataFrame(rows)
    order = {m: i for i, m in enumerate(METHODS)}
    out["_m"] = out["method"].map(order)
    return out.sort_values(["model", "_m", "sweeps"], kind="stable").drop(columns="_m").reset_index(drop=True)


def likelihood_table(models: list[dict]) -> pd.DataFrame:
    """Our trained models' exact test log-likelihoods beside published values (shown, not claimed).

    Parameters
    ----------
    models : list of dict
        The trained models' metadata (:func:`bmrep.experiments.calibration.models.build_model`).

    Returns
    -------
    DataFrame
        ``model``, ``test_log_likelihood``, ``train_log_likelihood``,
        ``source`` (ours: the training budget that produced it, exact log Z).
    """
    rows = []
    for m in models:
        t = m["training"]
        rows.append({
            "model": f"RBM 784-{m['n_hidden']}, {t['rule'].upper()}-{t['k']} (this run)",
            "test_log_likelihood": m["test_log_likelihood"], "train_log_likelihood": m["train_log_likelihood"],
            "source": f"{t['n_updates']} updates of batch {t['batch_size']}, lr {t['learning_rate']:g}; exact log Z",
        })  # fmt: skip
    rows += [{**p, "train_log_likelihood": np.nan} for p in PUBLISHED]
    return pd.DataFrame(rows, columns=["model", "test_log_likelihood", "train_log_likelihood", "source"])
