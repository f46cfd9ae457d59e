"""Fig. 2 and Fig. 4 (middle) as a reader sees them: the legend off the traces, temperature levels as whole numbers."""

from __future__ import annotations

import numpy as np
import pandas as pd

from bmrep.papers.salakhutdinov2010 import plots


def _drawn(monkeypatch, draw):
    """Run ``draw`` with ``finish`` replaced by one that keeps the drawn figure; return it."""
    kept = {}

    def keep(fig, path, caption_text):
        fig.canvas.draw()
        kept["fig"] = fig

    monkeypatch.setattr(plots, "finish", keep)
    draw()
    return kept["fig"]


def test_fig2_legend_lies_beside_the_axes_not_on_the_traces(monkeypatch, tmp_path):
    # a Wang-Landau trace that visits every partition across the whole run, as the paper's does
    rng = np.random.default_rng(0)
    updates = np.arange(1, 101)
    traj = pd.DataFrame({"update": updates, "Gibbs": 4, "FPCD": np.where(updates < 10, 4, 1),
                         "Wang-Landau": rng.integers(1, 5, updates.size)})  # fmt: skip
    fig = _drawn(monkeypatch, lambda: plots.plot_fig2(traj, tmp_path / "f.png", "caption"))
    ax = fig.axes[0]
    renderer = fig.canvas.get_renderer()
    legend, axes_box = ax.get_legend().get_window_extent(renderer), ax.get_window_extent(renderer)
    assert legend.x0 > axes_box.x1  # wholly right of the plotting area
    assert legend.y0 >= axes_box.y0 and legend.y1 <= axes_box.y1


def test_fig4_middle_levels_are_whole_numbers_from_1_to_the_top(monkeypatch, tmp_path):
    k = np.concatenate([np.arange(20), np.arange(19, -1, -1)])  # level index 0..19 up and back
    fig = _drawn(monkeypatch, lambda: plots.plot_temperature(k, 20, tmp_path / "f.png", "caption"))
    ax = fig.axes[0]
    lo, hi = ax.get_ylim()
    ticks = [t for t in ax.get_yticks() if lo <= t <= hi]
    assert ticks and all(float(t).is_integer() for t in ticks), ticks
    assert lo < 1 <= min(ticks) and max(ticks) <= 20 < hi  # level 1 (beta = 1) and level 20 inside the axis
    line = ax.get_lines()[0]
    assert line.get_ydata().min() == 1 and line.get_ydata().max() == 20
