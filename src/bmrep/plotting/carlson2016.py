"""Figures 1-5 of Carlson, Stinson, Pakman & Paninski (2016) from the result tables."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from .style import finish, use_style

__all__ = ["plot_fig1", "plot_fig2", "plot_fig3", "plot_fig4", "plot_fig5", "plot_exact_check"]


def plot_fig1(df: pd.DataFrame, path, caption_text: str, iterations=(1, 2, 4, 6, 8)) -> None:
    """Log Zhat_k and log c_k per iteration, with (RB) and without (TS) Rao-Blackwellization."""
    use_style()
    fig, axes = plt.subplots(2, 2, figsize=(9, 6), sharex=True)
    its = [i for i in iterations if i <= df["iteration"].max()]
    colors = plt.cm.viridis(np.linspace(0, 0.9, len(its)))
    for col, variant in enumerate(["RB", "TS"]):
        sub = df[(df["variant"] == variant) & (df.get("stage", "initial") == "initial")]
        ax_z, ax_c = axes[0, col], axes[1, col]
        ex = sub[sub["iteration"] == sub["iteration"].min()]
        ax_z.plot(ex["k"], ex["exact"], "k--", lw=2, label="exact")
        for it, colr in zip(its, colors, strict=True):
            s = sub[sub["iteration"] == it]
            ax_z.plot(s["k"], s["log_zhat"], color=colr, label=f"iteration {it}")
            ax_c.plot(s["k"], np.log(s["c"]), color=colr, label=f"iteration {it}")
        K = sub["k"].max()
        ax_c.axhline(-np.log(K), color="k", ls="--", lw=1, label="log r_k")
        name = "with" if variant == "RB" else "without"
        ax_z.set_title(f"log Zhat_k {name} Rao-Blackwellization")
        ax_c.set_title(f"log c_k {name} Rao-Blackwellization")
        ax_c.set_xlabel("k")
        ax_z.legend(fontsize=7)
    finish(fig, path, caption_text)


def _rmse_panel(ax, df, x, methods, ylabel, logy=True):
    for m in methods:
        s = df[df["method"] == m].sort_values(x)
        if len(s):
            ax.plot(s[x], s["rmse"], "o-", label=m)
    if logy:
        ax.set_yscale("log")
    ax.set_ylabel(ylabel)
    ax.legend(fontsize=7)


def plot_fig2(rmse: pd.DataFrame, path, caption_text: str) -> None:
    """RMSE of log Z vs number of samples on the Gaussian mixture."""
    use_style()
    fig, ax = plt.subplots(figsize=(5.5, 4))
    _rmse_panel(
        ax, rmse, "n_samples", ["RTS", "MBAR", "TI Riemann", "TI trap", "TI trap corrected", "TI-RB"], "RMSE of log Z"
    )
    ax.set_xlabel("number of samples")
    finish(fig, path, caption_text)


def plot_fig3(summary: pd.DataFrame, path, caption_text: str) -> None:
    """Mean and RMSE of RTS, AIS, RAISE vs Gibbs sweeps, one row of panels per model."""
    use_style()
    models = list(dict.fromkeys(summary["model"]))
    fig, axes = plt.subplots(len(models), 2, figsize=(9, 3.4 * len(models)), squeeze=False)
    for i, model in enumerate(models):
        sub = summary[summary["model"] == model]
        ax_m, ax_r = axes[i]
        for m in ["RTS", "AIS", "RAISE"]:
            s = sub[sub["method"] == m].sort_values("sweeps")
            ax_m.errorbar(s["sweeps"], s["mean"], yerr=s["sd"], fmt="o-", capsize=3, label=m)
            ax_r.plot(s["sweeps"], s["rmse"], "o-", label=m)
        ax_m.axhline(sub["truth"].iloc[0], color="k", ls="--", label="truth")
        for ax in (ax_m, ax_r):
            ax.set_xscale("log")
            ax.set_xlabel("Gibbs sweeps per chain")
            ax.legend(fontsize=7)
        ax_r.set_yscale("log")
        ax_m.set_ylabel(f"RBM {model}: estimator mean")
        ax_r.set_ylabel("estimator RMSE")
    finish(fig, path, caption_text)


def plot_fig4(rmse: pd.DataFrame, path, caption_text: str) -> None:
    """Bootstrap RMSE vs number of temperatures K."""
    use_style()
    fig, ax = plt.subplots(figsize=(5.5, 4))
    _rmse_panel(ax, rmse, "K", ["RTS", "TS", "MBAR", "TI", "TI-RB"], "estimator RMSE")
    ax.set_xscale("log")
    ax.set_xlabel("number of temperatures K")
    finish(fig, path, caption_text)


def plot_fig5(df: pd.DataFrame, path, caption_text: str) -> None:
    """Mean train / validation log-likelihood during training: running RTS and AIS checkpoints."""
    use_style()
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.plot(df["iteration"], df["train_rts"], label="Train-RTS")
    ax.plot(df["iteration"], df["valid_rts"], label="Validation-RTS")
    a = df.dropna(subset=["train_ais"])
    ax.plot(a["iteration"], a["train_ais"], "o", label="Train-AIS")
    ax.plot(a["iteration"], a["valid_ais"], "s", label="Validation-AIS")
    ax.set_xlabel("iteration (parameter update)")
    ax.set_ylabel("mean log-likelihood (nats)")
    ax.legend(fontsize=7)
    finish(fig, path, caption_text)


def plot_exact_check(summary: pd.DataFrame, path, caption_text: str) -> None:
    """Exact check: mean error (+- one standard error over replicates) of every estimator, per weight scale.

    ``summary`` is :func:`bmrep.experiments.carlson2016.summaries.exact_check_summary`'s
    table; TI rules' errors are against the same rule on the exact integrand.
    """
    use_style()
    methods = list(dict.fromkeys(summary["method"]))
    scales = list(dict.fromkeys(summary["weight_scale"]))
    fig, ax = plt.subplots(figsize=(8, 4))
    x = np.arange(len(methods))
    width = 0.6 / max(len(scales), 1)
    for j, s in enumerate(scales):
        sub = summary[summary["weight_scale"] == s].set_index("method").reindex(methods)
        offset = (j - (len(scales) - 1) / 2) * width
        ax.errorbar(x + offset, sub["mean_error"], yerr=sub["se"], fmt="o", capsize=3, label=f"weights N(0, {s:g}^2)")
    ax.axhline(0.0, color="k", lw=1)
    ax.set_xticks(x, methods, rotation=30, ha="right")
    ax.set_ylabel("mean error of log Z (nats)")
    ax.legend(fontsize=7)
    finish(fig, path, caption_text)
