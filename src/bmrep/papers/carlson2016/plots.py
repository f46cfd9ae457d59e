"""Figures 1-5 of Carlson, Stinson, Pakman & Paninski (2016) from the result tables."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.ticker import NullFormatter

from ...plotting.style import band, finish, plain_log, use_style

__all__ = ["plot_fig1", "plot_fig2", "plot_fig3", "plot_fig4", "plot_fig5", "plot_exact_check"]


def _mean_se(df: pd.DataFrame, by: list[str], value: str) -> pd.DataFrame:
    """Mean and standard error (sd / sqrt(n)) of ``value`` over the rows of each ``by`` group."""
    g = df.groupby(by)[value]
    out = g.agg(["mean", "std", "count"]).reset_index()
    out["se"] = (out["std"] / np.sqrt(out["count"])).fillna(0.0)
    return out


def plot_fig1(
    df: pd.DataFrame, main: pd.DataFrame, path, caption_text: str, iterations=(1, 2, 4, 6, 8), seed: int | None = None
) -> None:
    """Fig. 1: one seed's log Zhat_k and log c_k per iteration (RB, TS) and, over all seeds, the errors.

    Columns 1-2: with (RB) and without (TS) Rao-Blackwellization for one
    seed (the first, unless ``seed``), as in the paper. Column 3, mean +- s.e.
    over seeds: the RMS error of log Zhat_k over k against exact, and the
    stopping statistic ``K max_k |r_k - c_k|`` (the rule stops below 0.1).
    Column 4: the error of log Z_K (beta = 1) against the sweeps per chain,
    through the initial iterations and the RB chains' main run (``main``,
    :func:`bmrep.papers.carlson2016.fig1.fig1_seed`), mean +- s.e. over
    seeds, and every seed's error after the iterations and after the main run.
    """
    use_style()
    fig, axes = plt.subplots(2, 4, figsize=(17, 6.5))
    seeds = sorted(df["seed"].unique())
    one = df[df["seed"] == (seeds[0] if seed is None else seed)]
    its = [i for i in iterations if i <= df["iteration"].max()]
    colors = plt.cm.viridis(np.linspace(0, 0.9, len(its)))
    K = int(df["k"].max())
    for col, variant in enumerate(["RB", "TS"]):
        sub = one[one["variant"] == variant]
        ax_z, ax_c = axes[0, col], axes[1, col]
        ex = sub[sub["iteration"] == sub["iteration"].min()]
        ax_z.plot(ex["k"], ex["exact"], "k--", lw=2, label="exact")
        for it, colr in zip(its, colors, strict=True):
            s = sub[sub["iteration"] == it]
            ax_z.plot(s["k"], s["log_zhat"], color=colr, label=f"iteration {it}")
            ax_c.plot(s["k"], np.log(s["c"]), color=colr, label=f"iteration {it}")
        ax_c.axhline(-np.log(K), color="k", ls="--", lw=1, label="log r_k")
        name = "with RB" if variant == "RB" else "without RB (TS)"
        ax_z.set_title(f"log Zhat_k, {name}, seed {int(sub['seed'].iloc[0])}")
        ax_c.set_title(f"log c_k, {name}")
        ax_c.set_xlabel("k")
        ax_z.legend(fontsize=7)
    err = (
        df.assign(sq=(df["log_zhat"] - df["exact"]) ** 2)
        .groupby(["seed", "variant", "iteration"])["sq"]
        .mean()
        .pow(0.5)
        .rename("rms")
        .reset_index()
    )
    stop = (
        df.assign(dev=K * (df["c"] - 1.0 / K).abs())  # uniform prior r_k = 1/K
        .groupby(["seed", "variant", "iteration"])["dev"]
        .max()
        .reset_index()
    )
    ax_e, ax_s = axes[0, 2], axes[1, 2]
    for variant in ("RB", "TS"):
        e = _mean_se(err[err["variant"] == variant], ["iteration"], "rms")
        band(ax_e, e["iteration"], e["mean"], e["se"], variant, marker="o", ms=3)
        st = _mean_se(stop[stop["variant"] == variant], ["iteration"], "dev")
        band(ax_s, st["iteration"], st["mean"], st["se"], variant, marker="o", ms=3)
    ax_s.axhline(0.1, color="k", ls="--", lw=1, label="stopping rule (0.1)")
    ax_e.set_title(f"RMS error of log Zhat_k, {len(seeds)} seeds")
    ax_s.set_title(f"K max_k |r_k - c_k|, {len(seeds)} seeds")
    ax_e.set_ylabel("nats (mean +- s.e.)")
    ax_s.set_ylabel("mean +- s.e.")
    ax_s.set_xlabel("iteration")
    for ax in (ax_e, ax_s):
        plain_log(ax, "y")
        ax.legend(fontsize=7)
    _fig1_log_z_k(axes[0, 3], axes[1, 3], df, main, len(seeds))
    fig.tight_layout()
    finish(fig, path, caption_text)


def _fig1_log_z_k(ax_t, ax_d, df: pd.DataFrame, main: pd.DataFrame, n_seeds: int) -> None:
    """Fig. 1, column 4: log Z_K's error through the initial iterations and the main run, and per seed."""
    K, n_it = int(df["k"].max()), int(df["iteration"].max())
    per_it = int((main["sweeps"] - main["main_sweeps"]).iloc[0]) // n_it
    last = df[df["k"] == K].assign(err=lambda d: d["log_zhat"] - d["exact"], sweeps=lambda d: d["iteration"] * per_it)
    for variant, label in (("RB", "initial iterations, RB"), ("TS", "initial iterations, TS")):
        e = _mean_se(last[last["variant"] == variant], ["sweeps"], "err")
        band(ax_t, e["sweeps"], e["mean"], e["se"], label, marker="o", ms=3)
    m = _mean_se(main.assign(err=main["log_z"] - main["exact"]), ["sweeps"], "err")
    band(ax_t, m["sweeps"], m["mean"], m["se"], "main run (RTS, Zhat frozen)", marker="s", ms=4, color="k")
    ax_t.axhline(0.0, color="0.5", lw=1)
    ax_t.axvline(n_it * per_it, color="0.5", ls=":", lw=1)
    # the first iterations err by nats, the later ones and the main run by tenths: scale to the latter
    late = last[last["iteration"] > n_it // 2].groupby(["variant", "iteration"])["err"].mean()
    shown = np.concatenate([late.to_numpy(), m["mean"] - m["se"], m["mean"] + m["se"], [0.0]])
    lo, hi = float(shown.min()), float(shown.max())
    pad = 0.25 * max(hi - lo, 0.05)
    ax_t.set_ylim(lo - pad, hi + pad)
    ax_t.text(0.02, 0.02, "first iterations off scale", transform=ax_t.transAxes, fontsize=7, color="0.4")
    ax_t.set_title(f"log Z_K - exact, {n_seeds} seeds")
    ax_t.set_xlabel("sweeps per chain")
    ax_t.set_ylabel("nats (mean +- s.e.)")
    ax_t.legend(fontsize=7)
    final = main[main["main_sweeps"] == main["main_sweeps"].max()]
    groups = [final["init_log_z"] - final["exact"], final["log_z"] - final["exact"]]
    ax_d.boxplot(groups, showmeans=True)
    ax_d.set_xticks([1, 2], [f"after {n_it} iterations", f"+ main run of {int(final['main_sweeps'].iloc[0])}"])
    ax_d.axhline(0.0, color="0.5", lw=1)
    ax_d.set_title("log Z_K - exact per seed")
    ax_d.set_ylabel("nats")


def _rmse_panel(ax, df, x, methods, ylabel, logy=True):
    for m in methods:
        s = df[df["method"] == m].sort_values(x)
        if len(s):
            ax.plot(s[x], s["rmse"], "o-", label=m)
    if logy:
        ax.set_yscale("log")
    ax.set_ylabel(ylabel)
    ax.legend(fontsize=7)


FIG2_METHODS = ("RTS", "MBAR", "TI Riemann", "TI trap", "TI trap corrected", "TI-RB")


def plot_fig2(rmse: pd.DataFrame, reference: pd.DataFrame, path, caption_text: str) -> None:
    """Fig. 2: RMSE of log Z and mean error vs number of samples, mean +- s.e. over repeats.

    Left: RMSE with its standard error (delta method over repeats). Right:
    mean estimate minus log Z with its standard error; dashed, in the same
    colour, each TI rule's own bias (the rule on the reference runs'
    integrand minus log Z), where TI converges instead of to 0.
    """
    use_style()
    fig, (ax_r, ax_b) = plt.subplots(1, 2, figsize=(11, 4.2))
    rule_bias = (reference["rule_value"] - reference["exact"]).groupby(reference["method"]).mean()
    for m in FIG2_METHODS:
        s = rmse[rmse["method"] == m].sort_values("n_samples")
        if s.empty:
            continue
        color = band(ax_r, s["n_samples"], s["rmse"], s["rmse_se"], m, marker="o", ms=3)
        band(ax_b, s["n_samples"], s["bias"], s["bias_se"], m, color=color, marker="o", ms=3)
        if m in rule_bias:
            ax_b.axhline(rule_bias[m], color=color, ls="--", lw=1)
    ax_b.axhline(0.0, color="k", lw=0.8)
    for ax in (ax_r, ax_b):
        plain_log(ax, "x", sorted(rmse["n_samples"].unique()))
        ax.set_xlabel("number of samples")
    plain_log(ax_r, "y")
    ax_r.set_ylabel("RMSE of log Z (nats)")
    ax_b.set_ylabel("mean estimate - log Z (nats)")
    ax_r.legend(fontsize=7)
    ax_b.set_title("dashed: each TI rule's bias (reference runs)", fontsize=8)
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


def plot_exact_check(summary: pd.DataFrame, path, caption_text: str) -> None:
    """Exact check: mean error (+- one standard error over replicates) of every estimator, per weight scale.

    ``summary`` is :func:`bmrep.papers.carlson2016.summaries.exact_check_summary`'s
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
