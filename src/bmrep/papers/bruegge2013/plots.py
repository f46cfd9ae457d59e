"""Figures of Brügge, Fischer & Igel (2013): Fig. 3 (both panels) and Fig. 4."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from ...plotting.style import finish, use_style

SIZE_STYLE = {2: dict(color="black", ls="-"), 3: dict(color="tab:red", ls="--"), 4: dict(color="tab:blue", ls=":")}


def fig3_slem(fractions, path, caption_text: str) -> None:
    """Fraction of RBMs with SLEM(T) < SLEM(G) against the weight bound c (Fig. 3, top)."""
    use_style()
    fig, ax = plt.subplots(figsize=(5, 3.2))
    for size, d in fractions.groupby("size"):
        d = d.sort_values("c")
        ax.plot(
            d["c"], d["fraction_T_better"], marker="o", ms=3, label=f"{size}x{size}", **SIZE_STYLE.get(int(size), {})
        )
    ax.set_xlabel("c (weights U[-c, c])")
    ax.set_ylabel("fraction SLEM(T) < SLEM(G)")
    ax.set_ylim(-0.03, 1.03)
    ax.legend(title="RBM")
    finish(fig, path, caption_text)


def fig3_learning(
    updates, curves_G, curves_T, path, caption_text: str, max_ll: float | None = None, title: str = ""
) -> None:
    """Mean log-likelihood curves of G and T with their difference T - G in an inset (Fig. 3, bottom)."""
    use_style()
    fig, ax = plt.subplots(figsize=(5, 3.4))
    mg, mt = np.mean(curves_G, axis=0), np.mean(curves_T, axis=0)
    ax.plot(updates, mg, color="black", label="G")
    ax.plot(updates, mt, color="tab:red", ls="--", label="T")
    if max_ll is not None:
        ax.axhline(max_ll, color="0.5", ls=":", lw=1, label="maximum possible")
    ax.set_xlabel("parameter updates")
    ax.set_ylabel("mean log-likelihood")
    ax.set_title(title)
    ax.legend(loc="lower right")
    ins = ax.inset_axes([0.45, 0.35, 0.5, 0.3])
    ins.plot(updates, mt - mg, color="tab:red")
    ins.axhline(0, color="0.4", lw=0.8)
    ins.set_title("T - G", fontsize=7)
    ins.tick_params(labelsize=6)
    finish(fig, path, caption_text)


def fig4_acf(acf_G, acf_T, path, caption_text: str) -> None:
    """Mean autocorrelation function of the energy under G (solid) and T (dotted) (Fig. 4)."""
    use_style()
    fig, ax = plt.subplots(figsize=(5, 3.2))
    lags = np.arange(np.shape(acf_G)[1])
    ax.plot(lags, np.nanmean(acf_G, axis=0), color="black", ls="-", label="G")
    ax.plot(lags, np.nanmean(acf_T, axis=0), color="tab:red", ls=":", label="T")
    ax.set_xlabel("lag (sweeps)")
    ax.set_ylabel("R(lag) of the energy")
    ax.legend()
    finish(fig, path, caption_text)
