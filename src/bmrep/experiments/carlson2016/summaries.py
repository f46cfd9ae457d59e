"""Bias and RMSE tables of Carlson et al. (2016)'s aggregating jobs (Figs. 2-4)."""

from __future__ import annotations

import numpy as np
import pandas as pd


def rmse_table(df: pd.DataFrame, by: list[str], truth) -> pd.DataFrame:
    """Mean, bias and RMSE of ``estimate`` against ``truth`` per group.

    Parameters
    ----------
    df : DataFrame
        One row per estimate, with the ``by`` columns and ``estimate``.
    by : list of str
        The grouping columns.
    truth : str or float
        A column name or one number.

    Returns
    -------
    DataFrame
        The ``by`` columns, ``mean``, ``truth``, ``bias``, ``n``, ``rmse``.
    """
    d = df.copy()
    d["truth"] = d[truth] if isinstance(truth, str) else float(truth)
    d["err"] = d["estimate"] - d["truth"]
    g = d.groupby(by)
    out = g.agg(mean=("estimate", "mean"), truth=("truth", "first"), bias=("err", "mean"), n=("err", "size"))
    out["rmse"] = g["err"].apply(lambda e: float(np.sqrt(np.mean(np.square(e)))))
    return out.reset_index()


def fig2_rmse(estimates: pd.DataFrame) -> pd.DataFrame:
    """Fig. 2: per (n_samples, method), the RMSE over repeats against the exact log Z of the mixture.

    Beside :func:`rmse_table`'s columns: ``sd`` (of the estimates over
    repeats), ``bias_se`` (sd / sqrt(n)), ``rmse_se`` (delta method: the
    standard error of the mean squared error over 2 RMSE) and ``stated_se``
    (the mean of the estimators' own standard errors, NaN for TI), so the
    stated errors can be read against the repeats' spread.
    """
    by = ["n_samples", "method"]
    out = rmse_table(estimates, by, "exact")
    d = estimates.assign(err=estimates["estimate"] - estimates["exact"])
    d["sq"] = d["err"] ** 2
    g = d.groupby(by)
    extra = pd.DataFrame({"sd": g["err"].std(ddof=1), "sq_sd": g["sq"].std(ddof=1), "n_ok": g["err"].count()})
    extra["stated_se"] = g["stderr"].mean() if "stderr" in d else np.nan
    out = out.merge(extra.reset_index(), on=by)
    out["bias_se"] = out["sd"] / np.sqrt(out["n_ok"])
    out["rmse_se"] = out["sq_sd"] / np.sqrt(out["n_ok"]) / (2 * out["rmse"])
    return out.drop(columns=["sq_sd", "n_ok"])


def fig3_summary(estimates: pd.DataFrame, truth: pd.DataFrame) -> pd.DataFrame:
    """Fig. 3: mean, sd, bias and RMSE per (model, method, sweeps) against each model's reference value."""
    ref = truth[truth["method"] == "truth"].set_index("model")["estimate"]
    d = estimates.copy()
    d["truth"] = d["model"].map(ref)
    out = rmse_table(d, ["model", "method", "sweeps"], "truth")
    out["sd"] = d.groupby(["model", "method", "sweeps"])["estimate"].std(ddof=1).to_numpy()
    return out


def fig4_rmse(estimates: pd.DataFrame, truth: float) -> pd.DataFrame:
    """Fig. 4: bootstrap RMSE per (K, method) against the reference log Z of Fig. 3."""
    return rmse_table(estimates.dropna(subset=["estimate"]), ["K", "method"], float(truth))


def exact_check_summary(table: pd.DataFrame) -> pd.DataFrame:
    """The exact check per (weight scale, method): mean error over replicates with its standard error.

    Parameters
    ----------
    table : DataFrame
        One row per (``weight_scale``, ``replicate``, ``method``) with ``error``
        and the estimator's own ``stderr``.

    Returns
    -------
    DataFrame
        ``weight_scale``, ``method``, ``n``, ``mean_error``, ``sd`` (over
        replicates), ``se`` (sd / sqrt(n)), ``stated`` (mean stated standard
        error; NaN for TI) and ``stated_over_sd``.
    """
    g = table.groupby(["weight_scale", "method"], sort=False)
    out = g.agg(n=("error", "size"), mean_error=("error", "mean"), sd=("error", "std"), stated=("stderr", "mean"))
    out["se"] = out["sd"] / np.sqrt(out["n"])
    out["stated_over_sd"] = out["stated"] / out["sd"]
    return out.reset_index()
