"""Figures 2, 3, 4 and 6 of Yokoyama, Katsumata & Yasuda (2019)."""

from __future__ import annotations

import matplotlib.pyplot as plt
import pandas as pd

from ...plotting.style import band, finish, use_style

S_ORDER = ["1", "2", "4", "inf"]
S_COLORS = {"1": "tab:blue", "2": "tab:orange", "4": "tab:green", "inf": "tab:red"}


def _label(s: str) -> str:
    return r"$s=\infty$" if s == "inf" else f"$s={s}$"


def _s_sorted(values):
    return sorted(values, key=lambda s: S_ORDER.index(s) if s in S_ORDER else float(s))


def plot_curves_by_R(table: pd.DataFrame, ylabel: str, title: str, path, caption_text: str) -> None:
    """Figs. 2/3: mean (± s.e.m. band) of a per-epoch curve, one panel per R, one line per s."""
    use_style()
    r_values = sorted(table["R"].unique())
    fig, axes = plt.subplots(1, len(r_values), figsize=(4.2 * len(r_values), 3.4), squeeze=False)
    for ax, R, letter in zip(axes[0], r_values, "abcdefgh", strict=False):
        sub = table[table["R"] == R]
        for s in _s_sorted(sub["s"].unique()):
            d = sub[sub["s"] == s]
            band(ax, d["epoch"], d["mean"], d["sem"].fillna(0), _label(s), S_COLORS.get(s))
        ax.set_xlabel("epoch (full-batch CD-1 updates)")
        ax.set_ylabel(ylabel)
        ax.set_title(f"({letter}) R = {R}")
        ax.legend()
    fig.suptitle(title)
    fig.tight_layout()
    finish(fig, path, caption_text)


def plot_toy(curves: pd.DataFrame, stars: pd.DataFrame, beta: float, path, caption_text: str) -> None:
    """Fig. 4: (a) alpha_s(w) with the level beta; (b) l_s(w) of eq. (21) with the maximisers."""
    use_style()
    fig, (a, b) = plt.subplots(1, 2, figsize=(8.4, 3.4))
    for s in _s_sorted(curves["s"].unique()):
        d = curves[curves["s"] == s]
        a.plot(d["w"], d["alpha"], color=S_COLORS.get(s), label=_label(s))
        b.plot(d["w"], d["loglik"], color=S_COLORS.get(s), label=_label(s))
        w = float(stars.loc[stars["s"] == s, "w_star"].iloc[0])
        b.axvline(w, color=S_COLORS.get(s), ls=":", lw=0.8)
        b.axvline(-w, color=S_COLORS.get(s), ls=":", lw=0.8)
    a.axhline(beta, color="0.4", ls="--", lw=0.8, label=rf"$\beta={beta}$")
    a.set_xlabel("$w$")
    a.set_ylabel(r"$\alpha_s(w)$")
    a.set_title(r"(a) $\alpha_s(w)$, $|H|=2$")
    a.legend()
    b.set_xlabel("$w$")
    b.set_ylabel("$l_s(w)$")
    b.set_title(rf"(b) log-likelihood, $\beta={beta}$ (dotted: $\pm|w^*_s|$)")
    b.legend()
    fig.tight_layout()
    finish(fig, path, caption_text)


def plot_drbm(table: pd.DataFrame, path, caption_text: str) -> None:
    """Fig. 6: (a) training and (b) noisy-test misclassification rate vs epoch, per s."""
    use_style()
    fig, axes = plt.subplots(1, 2, figsize=(8.4, 3.4))
    for ax, metric, title in zip(
        axes, ("train_error", "test_error"), ("(a) training error", "(b) test error (noisy, sigma = 120)"), strict=True
    ):
        sub = table[table["metric"] == metric]
        for s in _s_sorted(sub["s"].unique()):
            d = sub[sub["s"] == s]
            band(ax, d["epoch"], d["mean"], d["sem"].fillna(0), _label(s), S_COLORS.get(s), marker="o", ms=3)
        ax.set_xscale("symlog", linthresh=1)
        ax.set_xlabel("epoch (10 minibatch updates each)")
        ax.set_ylabel("misclassification rate")
        ax.set_title(title)
        ax.legend()
    fig.tight_layout()
    finish(fig, path, caption_text)
