"""Figures of Salakhutdinov (2010): Figure 2, the three panels of Figure 4 and CAST's tempering diagnostic."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.ticker import FormatStrFormatter, MaxNLocator
from scipy import stats

from ...plotting.style import band, finish, updates_ticks, use_style

COLORS = {
    "Gibbs": "tab:blue",
    "FPCD": "tab:red",
    "Wang-Landau": "black",
    "SAP": "tab:blue",
    "Trans-SAP": "tab:green",
    "CAST": "black",
    "SAP-50": "tab:purple",
    "CAST-perchain": "tab:orange",
}


def plot_fig2(traj: pd.DataFrame, path, caption_text: str) -> None:
    """Partition index vs number of Gibbs updates (Figure 2)."""
    use_style()
    fig, ax = plt.subplots(figsize=(5.5, 3.0))
    offsets = {"Gibbs": -0.08, "FPCD": 0.08, "Wang-Landau": 0.0}
    for name in ("Gibbs", "FPCD", "Wang-Landau"):
        ax.step(
            traj["update"],
            traj[name] + offsets[name],
            where="post",
            color=COLORS[name],
            label=name,
            lw=1.2 if name != "Wang-Landau" else 1.0,
        )
    ax.set_yticks([1, 2, 3, 4], ["X1", "X2", "X3", "X4"])
    ax.set_ylim(0.5, 4.5)
    ax.set_xlabel("Number of Gibbs updates")
    ax.set_ylabel("Partition")
    ax.set_title("Mixing on the two-node MRF (Salakhutdinov 2010, Fig. 2)")
    # beside the axes: inside, every corner has the Wang-Landau trace under it
    ax.legend(loc="center left", bbox_to_anchor=(1.01, 0.5))
    finish(fig, path, caption_text)


def plot_bound_curves(curves: pd.DataFrame, path, caption_text: str) -> None:
    """Lower bound on the training log-likelihood vs parameter updates (Figure 4, right).

    Mean over seeds (column ``repeat``) with a band of +- one standard error over seeds.
    """
    use_style()
    fig, ax = plt.subplots(figsize=(5.0, 3.4))
    if "repeat" not in curves:
        curves = curves.assign(repeat=0)
    for alg, df in curves.groupby("algorithm", sort=False):
        g = df.groupby("update")["train_bound"]
        m, n = g.mean(), g.count()
        se = (g.std(ddof=1) / np.sqrt(n)).where(n > 1, 0.0)
        label = f"{alg} ({int(n.max())} seed{'s' if n.max() > 1 else ''})"
        band(ax, m.index, m.to_numpy(), se.to_numpy(), label, COLORS.get(alg), marker="o", ms=3)
    updates_ticks(ax, curves["update"].max())
    below = _focus_on_learning(ax, curves)
    ax.set_xlabel("Number of parameter updates" + (f"\n({below})" if below else ""))
    ax.set_ylabel("Lower bound on log-likelihood (nats)")
    ax.set_title("Training bound during learning (Fig. 4, right)")
    if below:  # the curves fill the focused axis: the legend goes beside it
        fig.set_size_inches(6.6, 3.6)
        ax.legend(loc="center left", bbox_to_anchor=(1.01, 0.5))
    else:
        ax.legend()
    finish(fig, path, caption_text)


def _focus_on_learning(ax, curves: pd.DataFrame, start: float = 0.1) -> str | None:
    """Fit the y-axis to the curves after the first ``start`` of training when the earlier points would take most of it.

    At the paper's schedule the pretrained start (about -175) and the first snapshot lie 30-70 nats below the
    rest, and an axis spanning them squeezes the curves Figure 4 compares (within about 20 nats of each other)
    into its top third. Returns the line that names the mean points left below the axis (None: all in view).
    """
    means = curves.groupby(["algorithm", "update"], sort=False)["train_bound"].mean().reset_index()
    late = means.loc[means["update"] >= start * means["update"].max(), "train_bound"]
    if late.empty:
        return None
    lo, hi, low = late.min(), late.max(), means["train_bound"].min()
    if hi - low <= 2.0 * (hi - lo):  # the early points take at most half the axis: keep them all in view
        return None
    pad = 0.1 * (hi - lo)
    ax.set_ylim(lo - pad, hi + pad)
    below = means[means["train_bound"] < lo - pad]
    return (f"below the axis: {len(below)} points of updates {below['update'].min():,}-{below['update'].max():,}, "
            f"the lowest {low:.1f}")  # fmt: skip


def _grid(images: np.ndarray, side: int) -> np.ndarray:
    """(rows, cols, D) images -> one mosaic with a 1-pixel gap."""
    r, c, _ = images.shape
    out = np.zeros((r * (side + 1) - 1, c * (side + 1) - 1))
    for i in range(r):
        for j in range(c):
            out[i * (side + 1) : i * (side + 1) + side, j * (side + 1) : j * (side + 1) + side] = images[i, j].reshape(
                side, side
            )
    return out


def plot_samples(gibbs: np.ndarray, ast: np.ndarray, path, caption_text: str, gap: int) -> None:
    """Gibbs vs adaptive-ST samples, chains by row, time by column (Figure 4, left)."""
    use_style()
    side = int(round(np.sqrt(gibbs.shape[-1])))
    fig, axes = plt.subplots(1, 2, figsize=(8, 4.2))
    for ax, imgs, title in ((axes[0], gibbs, "Gibbs sampler"), (axes[1], ast, "Adaptive simulated tempering")):
        ax.imshow(_grid(imgs, side), cmap="gray_r", vmin=0, vmax=1, interpolation="nearest")
        ax.set_title(title)
        ax.set_xlabel(f"columns {gap} Gibbs updates apart")
        ax.set_xticks([])
        ax.set_yticks([])
        ax.grid(False)
    finish(fig, path, caption_text)


def plot_temperature(k_trace: np.ndarray, n_betas: int, path, caption_text: str) -> None:
    """Temperature index of one adaptive-ST particle (Figure 4, middle); level 1 is beta = 1."""
    use_style()
    fig, ax = plt.subplots(figsize=(5.0, 3.0))
    ax.plot(np.arange(1, k_trace.size + 1), k_trace + 1, color="black", lw=0.8)
    ax.set_ylim(0.5, n_betas + 0.5)
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))  # levels are whole numbers (not 2.5, 17.5)
    ax.set_xlabel("Number of Gibbs updates")
    ax.set_ylabel("Temperature level k (1: beta = 1)")
    ax.set_title("Adaptive simulated tempering: one particle (Fig. 4, middle)")
    finish(fig, path, caption_text)


def _draw_mean(ax, x: float, err: np.ndarray, label: str) -> tuple[float, float, float]:
    """The errors' mean at ``x`` with the verdict's interval ± k(R) s (s = sd / sqrt(R), k the 97.5% t quantile).

    ``label`` is formatted with ``m``, ``s`` and ``k``; returns them.
    """
    n = err.size
    m = float(err.mean())
    s = float(err.std(ddof=1) / np.sqrt(n)) if n >= 2 else float("nan")
    k = float(stats.t.ppf(0.975, n - 1)) if n >= 2 else float("nan")
    ax.errorbar(
        [x],
        [m],
        yerr=[k * s if np.isfinite(s) else 0.0],
        marker="s",
        ms=6,
        capsize=4,
        color="black",
        ls="none",
        label=label.format(m=m, s=s, k=k),
    )
    return m, s, k


def _calibration_panel(ax, exact: dict, tolerance: float) -> None:
    """What ``ais_calibration`` judges, with the claim's band ±``tolerance``.

    With ``replicates_grouped`` (spec: the claim judges the estimate Table 1 makes, its replicates' runs pooled):
    each pool's error at the middle of its replicates, the pools' mean ± k(R) s (the verdict's interval), every
    replicate's error faint behind and their mean beside (the details' "one replicate"). Without it (a record made
    before pooling): the replicates and their mean.
    """
    reps = pd.DataFrame(exact["replicates"])
    err, se = reps["error"].to_numpy(), reps["stderr"].to_numpy()
    n = err.size
    x = np.arange(1, n + 1)
    grouped = exact.get("replicates_grouped") or {}
    pooled = np.asarray(grouped.get("errors") or [], dtype=float)
    ax.axhspan(-tolerance, tolerance, color="tab:green", alpha=0.12, label=f"claim: mean error in ±{tolerance} nats")
    ax.axhline(0.0, color="0.5", lw=0.8)
    gap = max(2, round(0.1 * n))  # the means sit beside the replicates, not among them
    ends = [n + gap]
    if pooled.size:
        size = int(grouped["pool"])
        centre = size * np.arange(pooled.size) + (size + 1) / 2
        ax.plot(x, err, marker="o", ms=2.5, mfc="none", color="0.6", ls="none", label="one replicate")
        ax.plot(centre, pooled, marker="o", ms=4, color="tab:red", ls="none",
                label=f"pool of {size} replicates ({grouped['n_runs']} runs): Table 1's estimate")  # fmt: skip
        _draw_mean(ax, ends[0], pooled, "pools: mean {m:+.3f} ± k s, s = {s:.3f}, k = {k:.2f}")
        ends.append(n + 2.4 * gap)
        one = float(err.mean())
        ax.plot([ends[1]], [one], marker="s", ms=5, color="0.5", ls="none", label=f"replicates: mean {one:+.3f}")
        ax.set_title(f"AIS calibration, DBM {'-'.join(map(str, exact['shape']))}: {pooled.size} pools of {size}")
    else:
        stated = np.isfinite(se)
        if stated.any():
            ax.errorbar(x[stated], err[stated], yerr=2 * se[stated], marker="o", ms=4, capsize=2, color="tab:red",
                        ls="none", label="replicate (±2 stated s.e., ESS >= 30)")  # fmt: skip
        if (~stated).any():
            ax.plot(x[~stated], err[~stated], marker="o", ms=4, mfc="white", color="tab:red", ls="none",
                    label="replicate, ESS < 30 (no stated s.e.)")  # fmt: skip
        _draw_mean(ax, ends[0], err, "mean {m:+.3f} ± k s, s = {s:.3f}, k = {k:.2f}")
        ax.set_title(f"AIS calibration, DBM {'-'.join(map(str, exact['shape']))}: {n} replicates")
    # every replicate numbered only while the numbers fit; otherwise a few whole-number ticks
    ticks = list(x) if n <= 12 else MaxNLocator(nbins=5, integer=True).tick_values(1, n)
    ticks = [t for t in ticks if 1 <= t <= n and (n <= 12 or t <= n - gap / 2)]  # clear of the means' labels
    labels = ["pools", "reps"] if pooled.size else ["mean"]
    ax.set_xticks([*ticks, *ends], [str(int(t)) for t in ticks] + labels, fontsize=8)
    ax.set_xlim(0, ends[-1] + gap)
    ax.set_xlabel(f"replicate ({exact['ais_runs']} runs x {exact['ais_betas']} betas, {exact['ais_schedule']})")
    ax.set_ylabel(r"AIS $\log Z$ - exact (nats)")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=1)


def plot_ais_exact_check(exact: dict, path, caption_text: str, tolerance: float, tol: float = 0.1) -> None:
    """AIS against exact log Z on the enumerable DBM: the calibration and its diagnostics.

    Left: what the claim judges (:func:`_calibration_panel`: the pools' errors,
    their mean with the verdict's interval mean ± k(R) s, k the 97.5% Student-t
    quantile, and the claim's band ±``tolerance``), every replicate's error
    behind. Then, if run: the running error of one run along beta
    (where it drifts; band ±``tol``) and one run's error at each number of
    betas and schedule (does slower annealing remove it).
    """
    use_style()
    prof, lad = pd.DataFrame(exact.get("beta_profile") or []), pd.DataFrame(exact.get("ladder") or [])
    n_panels = 1 + (not prof.empty) + (not lad.empty)
    fig, axes = plt.subplots(1, n_panels, figsize=(4.8 * n_panels, 3.6), squeeze=False)
    axes = list(axes[0])
    _calibration_panel(axes.pop(0), exact, tolerance)
    if not prof.empty:
        ax = axes.pop(0)
        ax.axhspan(-tol, tol, color="0.9", label=f"±{tol} nats")
        ax.plot(prof["beta"], prof["error"], marker="o", ms=3, color="black", label="one run, the calibration's AIS")
        ax.axhline(0.0, color="0.5", lw=0.8)
        ax.set_xlabel(r"inverse temperature $\beta_k$")
        ax.set_ylabel(r"AIS $\log Z_k$ - exact (nats)")
        ax.set_title("Running AIS error along the ladder")
        ax.legend(loc="lower left")
    if not lad.empty:
        ax = axes.pop(0)
        ax.axhspan(-tol, tol, color="0.9")
        ax.axhline(0.0, color="0.5", lw=0.8)
        styles = {"piecewise": ("black", "o", 0.93), "adaptive": ("tab:blue", "D", 1.07)}  # side by side
        for sched, g in lad.groupby("schedule", sort=False):
            color, marker, shift = styles.get(sched, ("0.4", "^", 1.0))
            ax.plot(g["n_betas"] * shift, g["error"], marker=marker, ms=4, color=color, label=f"{sched}, one run each")
        grouped = (exact.get("replicates_grouped") or {}).get("errors")
        errs = np.array(grouped or [r["error"] for r in exact["replicates"]])
        what = "pools'" if grouped else "replicates'"
        _draw_mean(ax, exact["ais_betas"], errs, f"the calibration's {what} mean ± k s ({exact['ais_schedule']})")
        ax.set_xscale("log")
        if lad["error"].abs().max() > 5.0:  # a failed short ladder is tens of nats off: keep the rest readable
            ax.set_yscale("symlog", linthresh=1.0)
            lo, hi = ax.get_ylim()
            ax.set_ylim(1.5 * lo, 1.5 * hi)  # room for the end markers on the log part
            ax.yaxis.set_major_formatter(FormatStrFormatter("%g"))  # "-10", "-1", "0", not "-10^1", "-10^0"
        ticks = sorted({*lad["n_betas"].astype(int), int(exact["ais_betas"])})
        ax.set_xticks(ticks, [f"{t // 1000}k" if t >= 1000 and t % 1000 == 0 else str(t) for t in ticks], fontsize=7)
        ax.minorticks_off()
        ax.set_xlabel(f"number of betas ({exact['ais_runs']} runs)")
        ax.set_ylabel(r"AIS $\log Z$ - exact (nats)")
        ax.set_title("Error vs annealing length")
        ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=1)
    finish(fig, path, caption_text)


def plot_cast_tempering(
    occupancy: pd.DataFrame,
    swaps: pd.DataFrame,
    path,
    caption_text: str,
    band_=(0.025, 0.1),
    noswap: pd.DataFrame | None = None,
    comparison: pd.DataFrame | None = None,
    first_reach: pd.DataFrame | None = None,
):
    """CAST's fast chains over training, one row per run (seed), then one per seed also run without swapping.

    Left: each level's share of the fast chains' visits per window of updates
    (the colour scale runs to twice the top of ``band_``, the spec's band for
    the second half of training). Middle: the shared Wang-Landau log-weights
    log g_k - log g_1 at every window's end, one line per level. Right: per
    swap, the fraction of fast chains that reached the lowest beta since the
    previous swap and the fraction of pairs swapped (a fresh beta = 1 state).
    ``noswap`` (occupancy rows of CAST-noswap) and ``comparison``
    (:func:`bmrep.papers.salakhutdinov2010.tempering.swap_comparison`) add
    a row per seed in ``comparison``: with against without swapping, the
    levels' shares over the second half, two levels' log-weights over training
    and every level's log-weight at the end. ``first_reach`` (CAST-perchain:
    :func:`bmrep.papers.salakhutdinov2010.tempering.first_reach_table`)
    marks the weights as per chain (their mean drawn in the middle) and adds,
    right, the fraction of fast chains whose own weights had let them reach
    the lowest beta by each update.
    """
    use_style()
    reps = sorted(occupancy["repeat"].unique())
    compared = [] if comparison is None else sorted(comparison["repeat"].unique())
    n_rows = len(reps) + len(compared)
    fig, axes = plt.subplots(n_rows, 3, figsize=(13.0, 2.8 * n_rows), squeeze=False, layout="constrained")
    K = int(occupancy["level"].max())
    colors = plt.cm.viridis(np.linspace(0, 1, K))
    for row, rep in zip(axes[: len(reps)], reps, strict=True):
        occ = occupancy[occupancy["repeat"] == rep]
        grid = occ.pivot(index="level", columns="window_end", values="fraction")
        ends = grid.columns.to_numpy()
        im = row[0].imshow(grid.to_numpy(), aspect="auto", origin="lower", cmap="viridis", vmin=0.0,
                           vmax=2 * band_[1], extent=(0, ends[-1], 0.5, K + 0.5), interpolation="nearest")  # fmt: skip
        row[0].grid(False)
        fig.colorbar(im, ax=row[0], label="share of visits", fraction=0.06, pad=0.02)
        row[0].set_ylabel(f"seed {rep}: level (1 = beta 1)")
        row[0].yaxis.set_major_locator(MaxNLocator(integer=True))  # levels are whole numbers (not 2.5, 5.0)
        lw = occ.pivot(index="window_end", columns="level", values="log_weight")
        for j, lev in enumerate(lw.columns):
            row[1].plot(lw.index, lw[lev], color=colors[j], lw=0.8)
        row[1].set_ylabel("log g_k - log g_1 (nats)")
        sw = swaps[swaps["repeat"] == rep]
        row[2].plot(sw["update"], sw["reached_min"] / sw["n_fast"], "o-", ms=2, lw=0.8, label="reached lowest beta")
        row[2].plot(sw["update"], sw["swapped"] / sw["n_fast"], "s-", ms=2, lw=0.8, label="swapped (fresh)")
        if first_reach is not None:
            _first_reach_line(row[2], first_reach[first_reach["repeat"] == rep], ends[-1])
        row[2].axhline(0.5, color="grey", lw=0.6, ls="--")
        row[2].set_ylim(-0.02, 1.02)
        for ax in row[1:]:
            ax.set_xlim(0, ends[-1])
        for ax in row:
            updates_ticks(ax, ends[-1])
        row[2].set_ylabel("fraction of fast chains")
    for row, rep in zip(axes[len(reps) :], compared, strict=True):
        _swap_comparison_row(row, rep, occupancy, noswap, comparison, band_)
    for ax in axes[len(reps) - 1]:
        ax.set_xlabel("Number of parameter updates")
    axes[0, 0].set_title("level occupancy per window")
    axes[0, 1].set_title(
        "shared Wang-Landau log-weights" if first_reach is None else "per-chain log-weights, mean over fast chains"
    )
    axes[0, 2].set_title("between consecutive swaps")
    axes[0, 2].legend(loc="best", fontsize="small")
    finish(fig, path, caption_text)


def _first_reach_line(ax, first: pd.DataFrame, end: int) -> None:
    """CAST-perchain: the fraction of fast chains that had reached the lowest beta at least once, by update."""
    t = np.sort(first.loc[first["first_update"] >= 0, "first_update"].to_numpy())
    n = len(first)
    x = np.concatenate([[0], t, [end]])
    y = np.concatenate([[0], np.arange(1, t.size + 1), [t.size]]) / max(n, 1)
    last = f", all by {t[-1]}" if t.size == n and n else f", {t.size} of {n}"
    ax.step(x, y, where="post", color="tab:red", lw=1.4, label=f"reached it once (own weights){last}")


def _swap_comparison_row(row, rep, occupancy, noswap, comparison, band_):
    """One seed's CAST fast chains with (solid) and without (dashed) swapping: the last row(s) of the figure."""
    cmp_ = comparison[comparison["repeat"] == rep].sort_values("level")
    levels = cmp_["level"].to_numpy()
    K = len(levels)
    width = 0.4
    row[0].axhspan(*band_, color="0.9", zorder=0, label=f"spec band {band_[0]}-{band_[1]}")
    row[0].axhline(1 / K, color="grey", lw=0.6, ls=":")
    row[0].bar(levels - width / 2, cmp_["share_swapping"], width, color="black", label="with swapping")
    row[0].bar(levels + width / 2, cmp_["share_noswap"], width, color="tab:orange", label="without swapping")
    row[0].set_xlim(0.3, K + 0.7)
    row[0].set_ylim(0, max(1.4 * band_[1], 1.3 * float(cmp_[["share_swapping", "share_noswap"]].max().max())))
    row[0].set_xlabel("level (1 = beta 1)")
    row[0].set_ylabel(f"seed {rep}: share, 2nd half")
    row[0].set_title(f"seed {rep}, with vs without swapping: occupancy", fontsize="medium")
    row[0].legend(loc="upper center", fontsize="x-small", ncol=3)
    shown = {K // 2: "tab:blue", K: "tab:red"}  # a middle level and beta_min: two colours, solid against dashed
    for occ, ls in ((occupancy, "-"), (noswap, "--")):
        lw = occ[occ["repeat"] == rep].pivot(index="window_end", columns="level", values="log_weight")
        for k, color in shown.items():
            label = f"level {k}" if ls == "-" else None
            row[1].plot(lw.index, lw[k], ls=ls, color=color, lw=1.4, label=label)
    row[1].plot([], [], "k-", label="with swapping")
    row[1].plot([], [], "k--", label="without")
    row[1].set_xlim(0, lw.index.max())
    updates_ticks(row[1], lw.index.max())
    row[1].set_xlabel("Number of parameter updates")
    row[1].set_ylabel("log g_k - log g_1 (nats)")
    row[1].set_title(f"log-weights of levels {K // 2} and {K} over training", fontsize="medium")
    row[1].legend(fontsize="x-small", ncol=2, loc="best")
    row[2].plot(levels, cmp_["log_weight_swapping"], "o-", color="black", ms=3, lw=1.0, label="with swapping")
    row[2].plot(levels, cmp_["log_weight_noswap"], "s--", color="tab:orange", ms=3, lw=1.0, label="without")
    d = cmp_["log_weight_difference"].to_numpy()[-1]
    row[2].set_title(f"log-weights at the end (level {K}: with - without = {d:+.1f} nats)", fontsize="medium")
    row[2].set_xlabel("level (1 = beta 1)")
    row[2].set_ylabel("log g_k - log g_1 (nats)")
    row[2].legend(fontsize="x-small", loc="best")
