"""The calibration study's RMSE figures as a reader sees them: x tick labels plain, apart and where the data is."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest

from bmrep.papers.calibration import plots

# CPU seconds per run as the default's calibration study measures them (docs/results/default): each panel
# spans less than a decade, where matplotlib's default labels read "3x10^-1", "4x10^-1" and overlapped.
CPU_RANGES = {"random_784x10_w0.1": (0.262, 0.696), "random_784x10_w0.5": (0.262, 0.700),
              "trained_784x10": (0.266, 1.54), "trained_784x20": (0.383, 1.93)}  # fmt: skip
METHODS = ["AIS", "RAISE", "RTS", "TS", "MBAR"]


def _summary() -> pd.DataFrame:
    rows = []
    for i, (model, (lo, hi)) in enumerate(CPU_RANGES.items()):
        budgets = [1000] if model.startswith("random") else [1000, 3000]
        for j, method in enumerate(METHODS):
            for b in budgets:
                cpu = np.exp(np.log(lo) + (np.log(hi) - np.log(lo)) * (j + b / 3000 - 1 / 3) / len(METHODS))
                rmse = 0.1 / (1 + j) * (1000 / b) ** 0.5
                rows.append({"model": model, "method": method, "sweeps": b, "exact": 150.0 + i, "rmse": rmse,
                             "rmse_se": 0.01, "cpu_seconds": cpu})  # fmt: skip
    return pd.DataFrame(rows)


def _drawn_figure(monkeypatch, tmp_path, x):
    """Draw ``plot_rmse``'s figure and return it (its ``finish`` saves and closes it)."""
    kept = {}

    def keep(fig, path, caption_text):
        fig.canvas.draw()
        kept["fig"] = fig

    monkeypatch.setattr(plots, "finish", keep)
    plots.plot_rmse(_summary(), x, tmp_path / "rmse.png", "caption")
    return kept["fig"]


def _x_labels(ax):
    """The x tick labels drawn inside the axis, major and minor: (text, position, window box)."""
    lo, hi = ax.get_xlim()
    renderer = ax.figure.canvas.get_renderer()
    out = []
    for tick in ax.xaxis.get_major_ticks() + ax.xaxis.get_minor_ticks():
        text = tick.label1.get_text()
        if tick.label1.get_visible() and text and lo <= tick.get_loc() <= hi:
            out.append((text, tick.get_loc(), tick.label1.get_window_extent(renderer)))
    return out


@pytest.mark.parametrize("x", ["cpu_seconds", "sweeps"])
def test_x_tick_labels_are_plain_numbers_that_do_not_overlap(monkeypatch, tmp_path, x):
    fig = _drawn_figure(monkeypatch, tmp_path, x)
    axes = [ax for ax in fig.axes if ax.get_title()]
    assert len(axes) == len(CPU_RANGES)
    for ax in axes:
        labels = _x_labels(ax)
        assert labels, f"{ax.get_title()}: no x tick label in view"
        for (t1, _, b1), (t2, _, b2) in itertools.combinations(labels, 2):
            assert not b1.overlaps(b2), f"{ax.get_title()}: x tick labels {t1!r} and {t2!r} overlap"
        for text, loc, _ in labels:
            assert "$" not in text and float(text) == pytest.approx(loc), f"{ax.get_title()}: {text!r} at {loc}"
        if x == "cpu_seconds":
            assert len(labels) >= 2, f"{ax.get_title()}: one label gives no scale: {[t for t, _, _ in labels]}"


def test_sweeps_axis_is_labelled_at_the_budgets(monkeypatch, tmp_path):
    fig = _drawn_figure(monkeypatch, tmp_path, "sweeps")
    shown = {ax.get_title().split(" ")[0]: [t for t, _, _ in _x_labels(ax)] for ax in fig.axes if ax.get_title()}
    assert shown == {m: ["1000"] if m.startswith("random") else ["1000", "3000"] for m in CPU_RANGES}
