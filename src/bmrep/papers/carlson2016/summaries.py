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


def fig3_bracket(truth_runs: pd.DataFrame) -> pd.DataFrame:
    """The truth bracket per model from its long runs (spec sec. 4, fig3).

    Parameters
    ----------
    truth_runs : DataFrame
        One row per run: ``model``, ``method`` (AIS or RAISE), ``estimate``.

    Returns
    -------
    DataFrame
        Per ``model``: ``A``, ``A_se``, ``A_n`` (mean of the AIS runs, its
        standard error over runs, their count), ``R``, ``R_se``, ``R_n``
        (RAISE), the point truth ``T = (A + R) / 2`` and the half-width
        ``h = (R - A) / 2``.
    """
    rows = []
    for model, g in truth_runs.groupby("model", sort=False):
        row = {"model": model}
        for end, method in (("A", "AIS"), ("R", "RAISE")):
            x = g.loc[g["method"] == method, "estimate"].to_numpy(np.float64)
            row[end] = float(x.mean()) if x.size else np.nan
            row[f"{end}_se"] = float(x.std(ddof=1) / np.sqrt(x.size)) if x.size > 1 else np.nan
            row[f"{end}_n"] = int(x.size)
        row["T"] = 0.5 * (row["A"] + row["R"])
        row["h"] = 0.5 * (row["R"] - row["A"])
        rows.append(row)
    return pd.DataFrame(rows)


def _with_spread(df: pd.DataFrame, by: list[str], truth) -> pd.DataFrame:
    """:func:`rmse_table` plus the spread over repeats and the runs' own stated error beside it."""
    out = rmse_table(df, by, truth)
    g = df.groupby(by)
    out["sd"] = g["estimate"].std(ddof=1).to_numpy()
    out["se"] = out["sd"] / np.sqrt(out["n"])
    if "stderr" in df.columns:  # the estimator's own error (delta method, ...): a diagnostic beside the repeats'
        out["stated_se"] = g["stderr"].mean().to_numpy()
        out["stated_over_sd"] = out["stated_se"] / out["sd"]
    return out


def fig3_summary(estimates: pd.DataFrame, bracket: pd.DataFrame) -> pd.DataFrame:
    """Fig. 3: per (model, method, sweeps) the mean, spread, bias and RMSE against the point truth T.

    Columns of :func:`rmse_table` (``truth`` is T) plus ``sd`` and ``se``
    over repeats, ``stated_se`` (the mean of the runs' own stated errors)
    and ``stated_over_sd``, and the model's bracket ``A``, ``R``, ``h``.
    """
    b = bracket.set_index("model")
    d = estimates.copy()
    d["T"] = d["model"].map(b["T"])
    out = _with_spread(d, ["model", "method", "sweeps"], "T")
    for c in ("A", "R", "h"):
        out[c] = out["model"].map(b[c])
    return out


def fig4_summary(estimates: pd.DataFrame, bracket: pd.DataFrame) -> pd.DataFrame:
    """Fig. 4: per (K, method) the mean, spread, bias and RMSE over independent runs against the truth T."""
    row = bracket.set_index("model").loc[estimates["model"].iloc[0]]
    out = _with_spread(estimates.dropna(subset=["estimate"]), ["K", "method"], float(row["T"]))
    out["h"] = float(row["h"])
    return out


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
