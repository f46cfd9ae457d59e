"""Bias, RMSE, coverage and CPU cost per (model, estimator, budget) of the calibration study (issue 23).

Every standard error is over the independent replicates: the bias's and the
CPU seconds' sd / sqrt(R); the RMSE's by the delta method (the standard error
of the mean squared error over 2 RMSE); the coverage's binomial
sqrt(p (1 - p) / R). RAISE is shown beside a corrected RAISE
(:func:`corrected_raise`), and :func:`which_estimator` says in one sentence
which estimator this run's numbers recommend at each budget.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from . import CORRECTED_RAISE, COVERAGE_Z, METHODS

BY = ["model", "method", "sweeps"]
TRUSTED_COVERAGE = 0.85  # the coverage claims' threshold (papers/calibration/claims.py): an error bar to be trusted
# Published test log-likelihoods of MNIST models (shown beside ours, not claimed; issue 23 item 5).
PUBLISHED = [
    {"model": "RBM 784-500, CD-25", "test_log_likelihood": -86.34,
     "source": "Salakhutdinov & Murray (2008), AIS estimate"},
    {"model": "DBM 784-500-1000", "test_log_likelihood": -84.62,
     "source": "Salakhutdinov & Hinton (2009), AIS estimate"},
]  # fmt: skip


def chain_jensen_gap(stderr, n_chains: int):
    """RAISE's expected error from its chains' own Jensen gaps: ``n_chains * se^2 / 2`` (elementwise).

    RAISE's log Z is the mean over its ``n_chains`` chains of each chain's own
    log estimate (Burda et al. 2015; spec section 4), not the log of a mean, so
    every chain keeps the gap ``E[log p_hat] - log E[p_hat] ~ -var/2`` of its
    own reverse-AIS weight (here in 1/Z, hence +). With ``se`` the stated error
    (the chains' spread / sqrt(n_chains)), a chain's variance is
    ``n_chains * se^2``: the second-order prediction of the bias (spec section 6,
    "Decided after measurement": not exact, so shown, not claimed).
    """
    return int(n_chains) * np.square(np.asarray(stderr, np.float64)) / 2


def against_exact(table: pd.DataFrame) -> pd.DataFrame:
    """``table`` (columns estimate, stderr, exact) with ``error`` = estimate - exact and ``covered`` set, in place.

    ``covered`` is 1 where the error lies within :data:`COVERAGE_Z` stated standard errors, 0 where not,
    NaN where the estimator states no error (its coverage is then not measured, rather than 0).
    """
    table["error"] = table["estimate"] - table["exact"]
    ok = np.isfinite(table["stderr"].to_numpy())
    table["covered"] = np.where(ok, (table["error"].abs() <= COVERAGE_Z * table["stderr"]).astype(float), np.nan)
    return table


def corrected_raise(table: pd.DataFrame, n_chains: int) -> pd.DataFrame:
    """RAISE's replicates with each chain's Jensen gap taken off: log Z - n_chains se^2 / 2 (:func:`chain_jensen_gap`).

    The stated error is RAISE's own; ``error`` and ``covered`` are recomputed
    against the exact value. Returns rows with ``method`` = ``RAISE-corrected``.
    """
    r = table[table["method"] == "RAISE"].copy()
    r["method"] = CORRECTED_RAISE
    r["estimate"] = r["estimate"] - chain_jensen_gap(r["stderr"], n_chains)
    return against_exact(r)


def with_corrected_raise(table: pd.DataFrame, n_chains: int) -> pd.DataFrame:
    """The replicates' table with the :func:`corrected_raise` rows added after RAISE's."""
    return pd.concat([table, corrected_raise(table, n_chains)], ignore_index=True)


def calibration_summary(table: pd.DataFrame, n_chains: int) -> pd.DataFrame:
    """One row per (model, method, sweeps) from the replicates' table.

    Parameters
    ----------
    table : DataFrame
        The shards' rows (:data:`bmrep.papers.calibration.replicates.COLUMNS`),
        with the corrected RAISE's (:func:`with_corrected_raise`) if it is to be shown.
    n_chains : int
        Chains per estimate (RAISE's per-chain Jensen gap).

    Returns
    -------
    DataFrame
        ``model``, ``method``, ``sweeps``, ``n`` (replicates), ``exact``,
        ``bias``, ``bias_se``, ``sd`` (of log Z over replicates), ``rmse``,
        ``rmse_se``, ``stated_se`` (mean stated error; NaN for TI),
        ``se_ratio`` (mean stated error over the replicates' sd),
        ``coverage``, ``coverage_se`` (NaN where no error is stated),
        ``jensen_gap`` (the error Jensen's inequality predicts: ``-sd^2/2``
        for AIS, unbiased in Z; for RAISE each chain's own gap,
        ``n_chains * mean(se^2) / 2`` (:func:`chain_jensen_gap`); else NaN),
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
        if method == "AIS":
            gap = -(sd**2) / 2
        elif method == "RAISE":
            gap = float(np.mean(chain_jensen_gap(g["stderr"], n_chains)))
        else:
            gap = np.nan
        rows.append({
            "model": model, "method": method, "sweeps": int(sweeps), "n": n, "exact": float(g["exact"].iloc[0]),
            "bias": float(e.mean()), "bias_se": sd / np.sqrt(n), "sd": sd,
            "rmse": rmse, "rmse_se": float(np.square(e).std(ddof=1) / np.sqrt(n) / (2 * rmse)) if n > 1 else np.nan,
            "stated_se": stated, "se_ratio": stated / sd if sd > 0 else np.nan,
            "coverage": p, "coverage_se": float(np.sqrt(p * (1 - p) / cov.size)) if cov.size else np.nan,
            "jensen_gap": gap,
            "cpu_seconds": float(cpu.mean()),
            "cpu_seconds_se": float(cpu.std(ddof=1) / np.sqrt(n)) if n > 1 else np.nan,
        })  # fmt: skip
    out = pd.DataFrame(rows)
    order = {m: i for i, m in enumerate(METHODS)}
    out["_m"] = out["method"].map(order)
    return out.sort_values(["model", "_m", "sweeps"], kind="stable").drop(columns="_m").reset_index(drop=True)


def which_estimator(summary: pd.DataFrame, models) -> str:
    """One sentence: at each budget, the most accurate estimator whose error bar can be trusted on ``models``.

    Trusted: it states an error and its +-2 s.e. interval covers the exact
    value in at least :data:`TRUSTED_COVERAGE` of the replicates on every one
    of ``models`` at that budget; of those, the lowest mean RMSE over the
    models. An estimator without a stated error that is more accurate still
    is named beside it.
    """
    d = summary[summary["model"].isin(list(models))]
    parts = []
    for sweeps, g in d.groupby("sweeps", sort=True):
        per = g.groupby("method", sort=False).agg(rmse=("rmse", "mean"), cov=("coverage", "min"))
        trusted = per[per["cov"] >= TRUSTED_COVERAGE]
        if trusted.empty:
            parts.append(f"at {int(sweeps)} sweeps no estimator's error bar covers the truth often enough")
            continue
        best = trusted["rmse"].idxmin()
        text = (f"at {int(sweeps)} sweeps per chain trust {best} (RMSE {per.loc[best, 'rmse']:.3f} nats, "
                f"its +-2 s.e. covering at least {per.loc[best, 'cov']:.0%} of replicates)")  # fmt: skip
        better = per[(per["rmse"] < per.loc[best, "rmse"]) & per["cov"].isna()]
        if not better.empty:
            m = better["rmse"].idxmin()
            text += f"; {m} is more accurate (RMSE {per.loc[m, 'rmse']:.3f}) but states no error"
        parts.append(text)
    if not parts:
        return "No trained model was run, so no estimator is recommended."
    return f"On the trained models ({', '.join(models)}), " + "; ".join(parts) + "."


def likelihood_table(models: list[dict]) -> pd.DataFrame:
    """Our trained models' exact test log-likelihoods beside published values (shown, not claimed).

    Parameters
    ----------
    models : list of dict
        The trained models' metadata (:func:`bmrep.papers.calibration.models.build_model`).

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
