"""The tables of Brügge et al. (2013) from the shards: Fig. 3 (top) fractions and Tables 1 to 4."""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

from .common import BENCHMARK_LABELS, OPERATOR_NAMES


def slem_fractions(df: pd.DataFrame) -> pd.DataFrame:
    """Fraction of RBMs with SLEM(T) < SLEM(G) per (size, c) (Fig. 3 top)."""
    d = df.assign(t_better=df["slem_T"] < df["slem_G"])
    out = d.groupby(["size", "c"]).agg(
        fraction_T_better=("t_better", "mean"),
        n_rbms=("rbm", "size"),
        mean_slem_G=("slem_G", "mean"),
        mean_slem_T=("slem_T", "mean"),
        max_stationarity_error=("stationarity_error", "max"),
    )
    return out.reset_index()


def table1(runs: pd.DataFrame, alpha: float = 0.05) -> pd.DataFrame:
    """Median over repeats of the maximum log-likelihood, G vs T, Wilcoxon signed-rank test (Table 1).

    ``runs`` has columns benchmark, algorithm, lr, operator, repeat, max_ll
    (and optionally n_updates).
    The test pairs G and T by repeat (two-sided); ``significant`` marks
    p < alpha (the paper's star).
    """
    rows = []
    for (bench, alg, lr), d in runs.groupby(["benchmark", "algorithm", "lr"], sort=False):
        w = d.pivot(index="repeat", columns="operator", values="max_ll").dropna()
        g, t = w["G"].to_numpy(), w["T"].to_numpy()
        diff = t - g
        p = float(stats.wilcoxon(t, g).pvalue) if np.any(diff != 0) else 1.0
        rows.append(
            {
                "benchmark": bench,
                "algorithm": alg,
                "lr": lr,
                "n_repeats": len(w),
                "n_updates": int(d["n_updates"].max()) if "n_updates" in d else None,
                "median_max_ll_G": float(np.median(g)),
                "median_max_ll_T": float(np.median(t)),
                "median_diff_T_minus_G": float(np.median(diff)),
                "wilcoxon_p": p,
                "significant": bool(p < alpha),
                "T_at_least_G": bool(np.median(t) >= np.median(g)),
            }
        )
    return pd.DataFrame(rows)


def table2(per_chain: pd.DataFrame) -> pd.DataFrame:
    """Mean tau_G, tau_T over RBMs (the mean over each RBM's chains first) and gain = 1 - tau_T / tau_G (Table 2)."""
    rows = []
    for bench, d in per_chain.groupby("benchmark", sort=False):
        per_rbm = d.groupby("repeat")[["tau_ar_G", "tau_ar_T", "tau_int_G", "tau_int_T"]].mean()
        m = per_rbm.mean()
        rbm_gain = 1 - per_rbm["tau_ar_T"] / per_rbm["tau_ar_G"]
        rows.append(
            {
                "benchmark": bench,
                "label": BENCHMARK_LABELS.get(bench, bench),
                "n_rbms": len(per_rbm),
                "n_chains": len(d),
                "tau_G": m["tau_ar_G"],
                "tau_T": m["tau_ar_T"],
                "gain_percent": 100 * (1 - m["tau_ar_T"] / m["tau_ar_G"]),
                "rbms_with_positive_gain": int((rbm_gain > 0).sum()),
                "tau_int_G": m["tau_int_G"],
                "tau_int_T": m["tau_int_T"],
                "gain_int_percent": 100 * (1 - m["tau_int_T"] / m["tau_int_G"]),
            }
        )
    return pd.DataFrame(rows)


def quartiles(x: np.ndarray) -> tuple[float, float, float]:
    """25%, 50% and 75% quantiles, inverted-CDF: no interpolation, so censored (inf) values stay ordered."""
    q = np.quantile(x, [0.25, 0.5, 0.75], method="inverted_cdf")
    return float(q[0]), float(q[1]), float(q[2])


def table3(runs: dict[str, dict]) -> pd.DataFrame:
    """Class changes in one chain per RBM: quartiles over RBMs (Table 3)."""
    rows = []
    for bench, d in runs.items():
        for name in OPERATOR_NAMES:
            q25, q50, q75 = quartiles(d[f"changes_{name}"])
            rows.append(
                {
                    "benchmark": bench,
                    "label": BENCHMARK_LABELS[bench],
                    "operator": name,
                    "n_rbms": len(d["repeat"]),
                    "q25": q25,
                    "median": q50,
                    "q75": q75,
                }
            )
    return pd.DataFrame(rows)


def table4(runs: dict[str, dict], max_steps: int) -> pd.DataFrame:
    """Steps before the first class change: quartiles over all starts of all RBMs (Table 4).

    Ambiguous starts are dropped; a chain without a change within
    ``max_steps`` counts as ``inf`` (reported as its fraction ``censored``).
    """
    rows = []
    for bench, d in runs.items():
        for name in OPERATOR_NAMES:
            x = np.asarray(d[f"first_{name}"], dtype=np.float64).ravel()
            x = x[~np.isnan(x)]
            q25, q50, q75 = quartiles(x)
            rows.append(
                {
                    "benchmark": bench,
                    "label": BENCHMARK_LABELS[bench],
                    "operator": name,
                    "n_rbms": len(d["repeat"]),
                    "n_starts": len(x),
                    "q25": q25,
                    "median": q50,
                    "q75": q75,
                    "censored": float(np.mean(np.isinf(x))),
                    "max_steps": int(max_steps),
                }
            )
    return pd.DataFrame(rows)


def merge_shards(benches, shards) -> dict[str, dict]:
    """Concatenate the class-change shards (dicts of per-RBM arrays) of each benchmark, in order.

    ``benches`` names the benchmark of each shard; the result maps a
    benchmark to one dict of arrays over all its RBMs (the input of
    :func:`table3` and :func:`table4`).
    """
    runs = {}
    for bench, d in zip(benches, shards, strict=True):
        prev = runs.setdefault(bench, {k: [] for k in d})
        for k, v in d.items():
            prev[k].append(v)
    return {b: {k: np.concatenate(v) for k, v in d.items()} for b, d in runs.items()}
