"""Figures 1-5 of Carlson, Stinson, Pakman & Paninski (2016) from the result tables."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.ticker import NullFormatter

from .style import finish, use_style

__all__ = ["plot_fig1", "plot_fig2", "plot_fig3", "plot_fig4", "plot_fig5"]


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


def _half_width(ax, h: float, rmse) -> None:
    """The truth bracket's half-width h on an RMSE panel (named only, if far below every RMSE shown)."""
    h = abs(float(h))
    label = f"bracket half-width h = {h:.2g}"
    if h >= 0.1 * float(np.nanmin(rmse)):
        ax.axhline(h, color="k", ls=":", lw=1, label=label)
    else:  # a line there would stretch the log axis by decades
        ax.plot([], [], color="k", ls=":", lw=1, label=f"{label} (below the axis)")
    ax.legend(fontsize=7)


def plot_fig3(summary: pd.DataFrame, bracket: pd.DataFrame, path, caption_text: str) -> None:
    """Mean (+- s.e. band over repeats) and RMSE against T of RTS, AIS, RAISE vs Gibbs sweeps, one row per model.

    The truth bracket [A, R] is drawn as a band with its midpoint T dashed;
    on the RMSE panel the half-width h marks what the truth cannot resolve.
    """
    use_style()
    models = list(dict.fromkeys(summary["model"]))
    fig, axes = plt.subplots(len(models), 2, figsize=(10, 3.4 * len(models)), squeeze=False)
    b = bracket.set_index("model")
    for i, model in enumerate(models):
        sub = summary[summary["model"] == model]
        ax_m, ax_r = axes[i]
        A, R = float(b.loc[model, "A"]), float(b.loc[model, "R"])
        ax_m.axhspan(min(A, R), max(A, R), color="0.85", label="truth bracket [A, R]")
        ax_m.axhline(0.5 * (A + R), color="k", ls="--", lw=1, label="T = (A + R) / 2")
        for m in ["RTS", "AIS", "RAISE"]:
            s = sub[sub["method"] == m].sort_values("sweeps")
            (line,) = ax_m.plot(s["sweeps"], s["mean"], "o-", label=m)
            ax_m.fill_between(s["sweeps"], s["mean"] - s["se"], s["mean"] + s["se"], color=line.get_color(), alpha=0.25)
            ax_r.plot(s["sweeps"], s["rmse"], "o-", color=line.get_color(), label=m)
        _half_width(ax_r, b.loc[model, "h"], sub["rmse"])
        for ax in (ax_m, ax_r):
            ax.set_xscale("log")
            ax.set_xlabel("Gibbs sweeps per chain")
            ax.legend(fontsize=7)
        ax_r.set_yscale("log")
        ax_r.yaxis.set_minor_formatter(NullFormatter())  # labelled minor ticks crowd into the left panel
        ax_m.set_ylabel(f"RBM {model}: mean log Z (+- s.e.)")
        ax_r.set_ylabel("RMSE against T")
    finish(fig, path, caption_text)


def plot_fig4(summary: pd.DataFrame, path, caption_text: str) -> None:
    """RMSE over independent runs against the truth T vs number of temperatures K (bracket half-width dotted)."""
    use_style()
    fig, ax = plt.subplots(figsize=(5.5, 4))
    _rmse_panel(ax, summary, "K", ["RTS", "TS", "MBAR", "TI", "TI-RB"], "RMSE against T")
    _half_width(ax, summary["h"].iloc[0], summary["rmse"])
    ax.set_xscale("log")
    ax.set_xlabel("number of temperatures K")
    finish(fig, path, caption_text)


def plot_fig5(df: pd.DataFrame, path, caption_text: str) -> None:
    """Mean train / validation log-likelihood during training, from the running RTS estimate and AIS checkpoints.

    AIS points carry +- one standard error over their replicates; a dashed
    line shows a tracker whose log Z stays at the first record's.
    """
    use_style()
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.plot(df["iteration"], df["train_rts"], label="Train-RTS")
    ax.plot(df["iteration"], df["valid_rts"], label="Validation-RTS")
    # frozen tracker: the mean -F(v) moves with training, its log Z stays at the first record's
    frozen = df["train_rts"] + df["log_z_rts"] - df["log_z_rts"].iloc[0]
    ax.plot(df["iteration"], frozen, color="0.5", ls="--", lw=1, label="Train, log Z frozen")
    a = df.dropna(subset=["train_ais"])
    se = a["log_z_ais_se"] if "log_z_ais_se" in a.columns else None
    ax.errorbar(a["iteration"], a["train_ais"], yerr=se, fmt="o", capsize=3, label="Train-AIS")
    ax.errorbar(a["iteration"], a["valid_ais"], yerr=se, fmt="s", capsize=3, label="Validation-AIS")
    ax.set_xlabel("iteration (parameter update)")
    ax.set_ylabel("mean log-likelihood (nats)")
    ax.legend(fontsize=7)
    finish(fig, path, caption_text)
