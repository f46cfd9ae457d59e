"""Shared figure conventions: one style, and a caption line on every figure.

Every figure states its profile and repeat counts (``shared/spec``: "a
reduced figure is never mistaken for the paper-scale one"), via
:func:`caption` (:func:`configured` names the counts that are settings)
drawn at the bottom of the figure by :func:`finish`. Curves over repeats
are drawn with their standard-error band by :func:`band`.
"""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import matplotlib.ticker as mticker  # noqa: E402

from ..io import save_figure  # noqa: E402

STYLE = {
    "figure.dpi": 100,
    "font.size": 9,
    "axes.titlesize": 10,
    "axes.labelsize": 9,
    "legend.fontsize": 8,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "lines.linewidth": 1.4,
    "savefig.facecolor": "white",
}


def use_style() -> None:
    """Apply the project's matplotlib style (:data:`STYLE`) to the global rcParams."""
    plt.rcParams.update(STYLE)


def caption(profile: str, **counts) -> str:
    """``'profile: default; repeats: 10; updates: 20000'`` from keyword counts."""
    parts = [f"profile: {profile}"] + [f"{k.replace('_', ' ')}: {v}" for k, v in counts.items()]
    return "; ".join(parts)


def configured(cfg, *keys: str) -> dict:
    """Caption counts that state settings as configured, each named by its key without the ``n_`` prefix.

    ``caption(profile, **configured(cfg, "n_chains", "K"))`` reads ``'...; chains: 8; K: 100'``.
    """
    return {key.removeprefix("n_"): cfg[key] for key in keys}


def band(ax, x, mean, se, label, color=None, **line) -> str:
    """A mean curve with a shaded +-1 standard-error band; returns the curve's colour.

    ``line`` goes to ``ax.plot`` (markers); the band takes the curve's colour, so
    ``color=None`` follows the axes' colour cycle for both.
    """
    (curve,) = ax.plot(x, mean, color=color, label=label, **line)
    ax.fill_between(x, mean - se, mean + se, color=curve.get_color(), alpha=0.2, lw=0)
    return curve.get_color()


def plain_log(ax, axis: str, ticks=None) -> None:
    """Log-scale ``ax``'s ``axis`` ("x" or "y") labelled in plain numbers: at ``ticks``, else 1, 2 and 5 a decade.

    Matplotlib's default labels an axis spanning less than a decade at its minor ticks in scientific
    notation ("3x10^-1", "4x10^-1"), which overlap on a narrow panel; "0.2", "0.5", "1" are short and
    evenly spaced (with fewer than two in view the locator falls back to linear steps, "0.3", "0.4", ...).
    """
    getattr(ax, f"set_{axis}scale")("log")
    a = getattr(ax, f"{axis}axis")
    if ticks is not None:
        a.set_ticks(list(ticks))
    else:
        a.set_major_locator(mticker.LogLocator(subs=(1.0, 2.0, 5.0)))
    a.set_major_formatter(mticker.FormatStrFormatter("%g"))
    a.set_minor_formatter(mticker.NullFormatter())


def updates_ticks(ax, largest: float) -> None:
    """Tick labels in thousands (50k) on an axis of parameter updates that reaches 10000.

    At a figure's width six-digit labels (0, 25000, ..., 200000) run into each other.
    """
    if largest >= 10000:
        ax.xaxis.set_major_formatter(mticker.FuncFormatter(lambda x, _: f"{x / 1000:g}k"))


def finish(fig, path, caption_text: str) -> None:
    """Draw the caption under the axes and save ``fig`` atomically to ``path``."""
    # below everything already drawn (tick and axis labels reach below y = 0 in some layouts)
    lowest = fig.get_tightbbox(fig.canvas.get_renderer()).y0 / fig.get_figheight()
    fig.text(0.5, min(-0.01, lowest - 0.01), caption_text, ha="center", va="top", fontsize=7, color="0.3", wrap=True)
    save_figure(fig, path)
    plt.close(fig)


__all__ = [
    "use_style",
    "caption",
    "configured",
    "band",
    "plain_log",
    "updates_ticks",
    "finish",
]
