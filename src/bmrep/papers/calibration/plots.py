"""Figures of the calibration study (issue 23): RMSE against sweeps and CPU seconds, and the coverage table."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from ...plotting.style import finish, plain_log, use_style

MARKERS = {"AIS": "o", "RAISE": "v", "RAISE-corrected": "*", "RTS": "s", "TS": "D", "TI-riemann": "<",
           "TI-trapezoid": ">", "TI-trapezoid-corrected": "^", "TI-RB": "P", "MBAR": "X"}  # fmt: skip


def _panels(models):
    """One panel per model and a last slot for the legend (kept off the data)."""
    n = len(models) + 1
    cols = min(n, 3)
    rows = -(-n // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(4.2 * cols, 3.4 * rows), squeeze=False)
    axes = axes.ravel()
    for ax in axes[len(models) :]:
        ax.set_axis_off()
    return fig, axes[: len(models)], axes[len(models)]


def plot_rmse(summary: pd.DataFrame, x: str, path, caption_text: str, note: str | None = None) -> None:
    """RMSE of log Z against exact (+- its standard error over replicates), one panel per model, log-log.

    Parameters
    ----------
    summary : DataFrame
        :func:`bmrep.papers.calibration.summary.calibration_summary`'s table.
    x : {"sweeps", "cpu_seconds"}
        The abscissa: Gibbs sweeps per chain, or the mean CPU seconds of one run.
    note : str, optional
        A sentence drawn above the panels (the run's recommendation,
        :func:`~bmrep.papers.calibration.summary.which_estimator`).
    """
    use_style()
    models = list(dict.fromkeys(summary["model"]))
    fig, axes, legend_ax = _panels(models)
    for ax, model in zip(axes, models, strict=True):
        sub = summary[summary["model"] == model]
        for method, g in sub.groupby("method", sort=False):
            g = g.sort_values("sweeps")
            ax.errorbar(g[x], g["rmse"], yerr=g["rmse_se"], marker=MARKERS.get(method, "o"), ms=4, capsize=2,
                        label=method)  # fmt: skip
        # plain numbers on x (at the budgets themselves on the sweeps axis: the spec's 10^3 and 3x10^3)
        plain_log(ax, "x", sorted(set(sub["sweeps"])) if x == "sweeps" else None)
        ax.set_yscale("log")
        ax.set_title(f"{model} (log Z = {sub['exact'].iloc[0]:.2f})")
        ax.set_xlabel("Gibbs sweeps per chain" if x == "sweeps" else "CPU seconds per run")
        ax.set_ylabel("RMSE of log Z (nats)")
    legend_ax.legend(*axes[0].get_legend_handles_labels(), loc="center", fontsize=8, title="estimator")
    if note:
        fig.suptitle(note, fontsize=9, wrap=True)
    fig.tight_layout()
    finish(fig, path, caption_text)


def plot_coverage(summary: pd.DataFrame, path, caption_text: str) -> None:
    """Coverage of the reported +-2 s.e. interval, per (model, budget) and estimator, as a coloured table."""
    use_style()
    d = summary[np.isfinite(summary["coverage"])]
    methods = list(dict.fromkeys(d["method"]))
    rows = list(dict.fromkeys(zip(d["model"], d["sweeps"], strict=True)))
    grid = np.full((len(rows), len(methods)), np.nan)
    for i, (model, sweeps) in enumerate(rows):
        for j, m in enumerate(methods):
            v = d[(d["model"] == model) & (d["sweeps"] == sweeps) & (d["method"] == m)]["coverage"]
            if len(v):
                grid[i, j] = float(v.iloc[0])
    fig, ax = plt.subplots(figsize=(1.2 * len(methods) + 3, 0.4 * len(rows) + 1.5))
    im = ax.imshow(grid, cmap="RdYlGn", vmin=0.5, vmax=1.0, aspect="auto")
    for i in range(len(rows)):
        for j in range(len(methods)):
            if np.isfinite(grid[i, j]):
                ax.text(j, i, f"{grid[i, j]:.2f}", ha="center", va="center", fontsize=7)
    ax.set_xticks(range(len(methods)), methods)
    ax.set_yticks(range(len(rows)), [f"{m} @ {s}" for m, s in rows], fontsize=7)
    ax.grid(False)
    fig.colorbar(im, ax=ax, label="coverage (nominal 0.95)")
    ax.set_title("fraction of replicates whose estimate +- 2 s.e. covers the exact log Z")
    fig.tight_layout()
    finish(fig, path, caption_text)
