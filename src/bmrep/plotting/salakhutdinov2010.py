"""Figures of Salakhutdinov (2010): Figure 2 and the three panels of Figure 4."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from .style import finish, use_style

COLORS = {
    "Gibbs": "tab:blue",
    "FPCD": "tab:red",
    "Wang-Landau": "black",
    "SAP": "tab:blue",
    "Trans-SAP": "tab:green",
    "CAST": "black",
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
    ax.legend(loc="center right")
    finish(fig, path, caption_text)


def plot_bound_curves(curves: pd.DataFrame, path, caption_text: str) -> None:
    """Lower bound on the training log-likelihood vs parameter updates (Figure 4, right)."""
    use_style()
    fig, ax = plt.subplots(figsize=(5.0, 3.4))
    for alg, df in curves.groupby("algorithm", sort=False):
        df = df.sort_values("update")
        ax.errorbar(
            df["update"],
            df["train_bound"],
            yerr=df["log_z_stderr"],
            marker="o",
            ms=3,
            capsize=2,
            color=COLORS.get(alg),
            label=alg,
        )
    ax.set_xlabel("Number of parameter updates")
    ax.set_ylabel("Lower bound on log-likelihood (nats)")
    ax.set_title("Training bound during learning (Fig. 4, right)")
    ax.legend()
    finish(fig, path, caption_text)


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
    ax.set_ylim(0, n_betas + 1)
    ax.set_xlabel("Number of Gibbs updates")
    ax.set_ylabel("Temperature level k")
    ax.set_title("Adaptive simulated tempering: one particle (Fig. 4, middle)")
    finish(fig, path, caption_text)


def plot_ais_exact_check(exact: dict, path, caption_text: str, tol: float = 0.1) -> None:
    """AIS against exact log Z on the enumerable DBM, in up to three panels.

    Where along beta the running estimate drifts (left), how the final error
    changes with the number of betas (middle) and, if the check ran
    replicates, the spread of the claim's estimator at the claim's scale
    (right).
    """
    use_style()
    reps, pooled = exact.get("replicates") or [], exact.get("replicates_pooled")
    if reps:
        fig, (ax0, ax1, ax2) = plt.subplots(1, 3, figsize=(14.0, 3.6), gridspec_kw={"width_ratios": [1.0, 1.0, 0.8]})
    else:
        fig, (ax0, ax1) = plt.subplots(1, 2, figsize=(9.0, 3.4))
    prof = pd.DataFrame(exact["beta_profile"])
    ax0.axhspan(-tol, tol, color="0.9", label=f"±{tol} nats")
    ax0.plot(
        prof["beta"],
        prof["error"],
        marker="o",
        ms=3,
        color="black",
        label=f"{exact['ais_runs']} runs x {exact['ais_betas']} betas ({exact.get('ais_schedule', 'piecewise')})",
    )
    ax0.axhline(0.0, color="0.5", lw=0.8)
    ax0.set_xlabel(r"inverse temperature $\beta_k$")
    ax0.set_ylabel(r"AIS $\log Z_k$ - exact (nats)")
    ax0.set_title("Running AIS error along the ladder")
    ax0.legend(loc="lower left")
    lad = pd.DataFrame(exact["ladder"])
    ax1.axhspan(-tol, tol, color="0.9")
    if not lad.empty:
        if "schedule" not in lad:
            lad["schedule"] = "piecewise"
        styles = {
            "piecewise": ("black", "o", 0.93),
            "adaptive": ("tab:blue", "D", 1.07),
        }  # side by side at each n_betas
        for sched, g in lad.groupby("schedule", sort=False):
            color, marker, shift = styles.get(sched, ("0.4", "^", 1.0))
            ax1.errorbar(
                g["n_betas"] * shift,
                g["error"],
                yerr=2 * g["stderr"],
                marker=marker,
                ms=4,
                capsize=3,
                color=color,
                label=f"{sched} ladder, independent runs (±2 s.e.)",
            )
    claim_err = exact["log_z_ais"] - exact["log_z_exact"]
    ax1.errorbar(
        [exact["ais_betas"] * 0.85],
        [claim_err],
        yerr=[2 * exact["log_z_ais_stderr"]],
        marker="s",
        ms=5,
        capsize=3,
        color="tab:red",
        ls="none",
        label=f"the claim's run ({exact['ais_betas']} betas, {exact.get('ais_schedule', 'piecewise')}, drawn left)",
    )
    ax1.axhline(0.0, color="0.5", lw=0.8)
    ax1.set_xscale("log")
    ax1.set_xlabel("number of betas")
    ax1.set_ylabel(r"AIS $\log Z$ - exact (nats)")
    ax1.set_title(f"Error vs annealing length, DBM {'-'.join(map(str, exact['shape']))}")
    ax1.legend(loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=1)  # below the axes: the error bars span the panel
    if reps:
        err = np.array([r["error"] for r in reps])
        se = np.array([r["stderr"] for r in reps])
        ax2.axhspan(-tol, tol, color="0.9")
        ax2.axhline(0.0, color="0.5", lw=0.8)
        ax2.errorbar(
            [0],
            [claim_err],
            yerr=[2 * exact["log_z_ais_stderr"]],
            marker="s",
            ms=5,
            capsize=3,
            color="tab:red",
            ls="none",
            label="the claim's run",
        )
        x = np.arange(1, err.size + 1)
        ax2.errorbar(
            x,
            err,
            yerr=2 * se,
            marker="o",
            ms=4,
            mfc="white",
            capsize=2,
            color="tab:red",
            ls="none",
            label=f"{err.size} replicates (independent streams)",
        )
        labels = ["claim"] + [str(i) for i in x]
        if pooled:
            ax2.errorbar(
                [err.size + 2],
                [pooled["error"]],
                yerr=[2 * pooled["stderr"]],
                marker="*",
                ms=9,
                capsize=3,
                color="black",
                ls="none",
                label=f"all replicate runs pooled ({pooled['n_runs']})",
            )
            labels += ["", "pooled"]
        ax2.set_xticks(np.arange(len(labels)), labels, fontsize=7)
        ax2.set_xlabel("run (±2 s.e.)")
        ax2.set_ylabel(r"AIS $\log Z$ - exact (nats)")
        ax2.set_title(f"Claim's scale: {sum(np.abs(err) <= tol)} of {err.size} replicates within ±{tol}")
        ax2.legend(loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=1)
    finish(fig, path, caption_text)
