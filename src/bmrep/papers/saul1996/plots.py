"""Figures of Saul, Jaakkola & Jordan (1996): Figure 2, Figure 5, Table 1 as a heat map."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from ...plotting.style import finish, use_style


def plot_fig2(curve: pd.DataFrame, numbers: dict, path, caption_text: str) -> None:
    """The bound (20) on <ln(1+e^z)>, z ~ N(0,1), against xi, with the exact value (Figure 2)."""
    use_style()
    fig, ax = plt.subplots(figsize=(4.2, 3.2))
    ax.plot(curve["xi"], curve["bound"], label="bound, eq. (20)")
    ax.axhline(numbers["exact"], color="k", ls="--", lw=1, label=f"exact = {numbers['exact']:.3f}")
    ax.plot([numbers["xi_star"]], [numbers["min_bound"]], "o", ms=4, label=f"min = {numbers['min_bound']:.3f}")
    ax.plot([0.0], [numbers["xi0_bound"]], "s", ms=4, label=f"xi = 0: {numbers['xi0_bound']:.3f}")
    ax.set_xlabel(r"$\xi$")
    ax.set_ylabel(r"bound on $\langle \ln(1+e^z) \rangle$")
    ax.set_title("Figure 2: z ~ N(0, 1)")
    ax.legend(loc="upper center")
    finish(fig, path, caption_text)


def plot_fig5(mf_rel: np.ndarray, uniform_rel: np.ndarray, summary: pd.DataFrame, path, caption_text: str) -> None:
    """Histograms of the relative error in ln P(V): mean field (top), uniform (bottom), as Figure 5."""
    use_style()
    s = summary.set_index("statistic")["value"]
    fig, (a, b) = plt.subplots(2, 1, figsize=(4.6, 5.4))
    a.hist(mf_rel, bins=np.linspace(0, max(0.08, float(np.max(mf_rel)) * 1.01), 41), color="C0")
    a.set_title(f"mean field approximation (mean {100 * s['mean_mf_relative_error']:.2f}%; paper 1.6%)")
    a.set_xlabel("relative error in log-likelihood")
    lo, hi = min(-1.0, float(np.min(uniform_rel))), max(1.5, float(np.max(uniform_rel)))
    b.hist(uniform_rel, bins=np.linspace(lo, hi, 51), color="C1")
    b.set_title(f"uniform approximation (RMS {100 * s['rms_uniform_relative_error']:.1f}%; paper 22.6%)")
    b.set_xlabel("relative error in log-likelihood")
    for ax in (a, b):
        ax.set_ylabel("networks")
    fig.tight_layout()
    finish(fig, path, caption_text)


def plot_confusion(table1: pd.DataFrame, path, title: str, caption_text: str) -> None:
    """Table 1 as a heat map: row = true digit, column = assigned digit, counts annotated."""
    use_style()
    C = table1[[f"pred_{d}" for d in range(10)]].to_numpy()
    fig, ax = plt.subplots(figsize=(4.6, 4.2))
    frac = C / np.maximum(C.sum(1, keepdims=True), 1)
    ax.imshow(frac, cmap="Blues", vmin=0, vmax=1)
    ax.grid(False)
    for i in range(10):
        for j in range(10):
            if C[i, j]:
                ax.text(
                    j,
                    i,
                    str(C[i, j]),
                    ha="center",
                    va="center",
                    fontsize=6,
                    color="white" if frac[i, j] > 0.5 else "black",
                )
    ax.set_xticks(range(10))
    ax.set_yticks(range(10))
    ax.set_xlabel("classified as")
    ax.set_ylabel("true digit")
    ax.set_title(title)
    finish(fig, path, caption_text)
