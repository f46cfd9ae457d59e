"""Fig. 2, Fig. 4 (middle) and the AIS calibration as a reader sees them: legends off the data, labels apart."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

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


def _exact_record(n_replicates=320, pool=5, seed=0):
    """An exact-check record as ``combine`` writes it: replicates and their pools (consecutive blocks)."""
    rng = np.random.default_rng(seed)
    err = rng.normal(-6.0, 4.0, n_replicates)
    pooled = err[: n_replicates // pool * pool].reshape(-1, pool).max(axis=1)  # a pool sits above its replicates
    return {
        "replicates": [{"error": float(e), "stderr": float("nan")} for e in err],
        "replicates_grouped": {"pool": pool, "n_runs": 50 * pool, "n_groups": pooled.size,
                               "errors": [float(e) for e in pooled]},  # fmt: skip
        "shape": [784, 12, 12], "ais_runs": 50, "ais_betas": 15000, "ais_schedule": "linear",
    }  # fmt: skip


def test_calibration_panel_shows_the_pools_the_claim_judges_and_labels_that_do_not_overlap(monkeypatch, tmp_path):
    exact = _exact_record()
    fig = _drawn(monkeypatch, lambda: plots.plot_ais_exact_check(exact, tmp_path / "f.png", "caption", 0.3))
    ax = fig.axes[0]
    renderer = fig.canvas.get_renderer()
    lo, hi = ax.get_xlim()
    labels = [t for t in ax.get_xticklabels() if t.get_text() and lo <= t.get_position()[0] <= hi]
    boxes = sorted((t.get_window_extent(renderer) for t in labels), key=lambda b: b.x0)
    assert 4 <= len(boxes) <= 12  # a few numbers and the two means, not 320 labels
    assert all(a.x1 < b.x0 for a, b in zip(boxes[:-1], boxes[1:], strict=True)), [t.get_text() for t in labels]
    # the verdict's marker is the pools' mean (what ais_calibration judges), not the replicates'
    pools = np.mean(exact["replicates_grouped"]["errors"])
    verdict = [c for c in ax.containers if str(c.get_label()).startswith("pools: mean")]
    assert len(verdict) == 1
    assert verdict[0].lines[0].get_ydata()[0] == pytest.approx(pools)
    reps = np.mean([r["error"] for r in exact["replicates"]])
    assert abs(pools - reps) > 1.0  # the record tells the two apart
    assert "64 pools of 5" in ax.get_title()


def _curves(start: float, updates, rise) -> pd.DataFrame:
    """Two algorithms x two seeds: the bound ``start`` at update 0, then ``rise(i)`` at the i-th later update."""
    rows = []
    for alg, shift in (("SAP", 0.0), ("CAST", -2.0)):
        for rep in (0, 1):
            for i, u in enumerate(updates):
                b = start if u == 0 else rise(i) + shift + 0.3 * rep
                rows.append({"algorithm": alg, "repeat": rep, "update": u, "train_bound": b})
    return pd.DataFrame(rows)


def test_fig4_right_fits_the_axis_to_learning_when_the_start_would_squeeze_it(monkeypatch, tmp_path):
    # the schedule run's shape: a pretrained start 60 nats below curves that end within a few nats of each other
    curves = _curves(-177.5, range(0, 200001, 4000), lambda i: -120 + 15 * (1 - np.exp(-i / 8)))
    fig = _drawn(monkeypatch, lambda: plots.plot_bound_curves(curves, tmp_path / "f.png", "caption"))
    ax = fig.axes[0]
    y0, y1 = ax.get_ylim()
    means = curves.groupby(["algorithm", "update"])["train_bound"].mean()
    late = means[means.index.get_level_values("update") >= 20000]
    assert late.min() - 2 < y0 < late.min() and y1 > late.max()  # the learning fills the axis; the start is off it
    below = means[means < y0]
    last = below.index.get_level_values("update").max()
    assert f"below the axis: {below.size} points of updates 0-{last:,}, the lowest -177.5" in ax.get_xlabel()
    renderer = fig.canvas.get_renderer()
    assert ax.get_legend().get_window_extent(renderer).x0 > ax.get_window_extent(renderer).x1  # off the curves


def test_fig4_right_keeps_every_point_in_view_when_the_start_is_near(monkeypatch, tmp_path):
    # the default's shape (3000 updates, a snapshot every 1000): start -133, then -121 to -103
    curves = _curves(-133.0, [0, 1000, 2000, 3000], lambda i: [-133.0, -119.0, -110.0, -105.0][i])
    fig = _drawn(monkeypatch, lambda: plots.plot_bound_curves(curves, tmp_path / "f.png", "caption"))
    ax = fig.axes[0]
    y0, y1 = ax.get_ylim()
    assert y0 < -133.0 and y1 > curves["train_bound"].max()
    assert ax.get_xlabel() == "Number of parameter updates"


def test_error_vs_annealing_length_labels_its_symlog_axis_in_plain_numbers(monkeypatch, tmp_path):
    # short ladders tens of nats off put the panel on a symlog axis (the default's calibration DBM)
    exact = _exact_record()
    exact["ladder"] = [{"schedule": s, "n_betas": n, "error": e} for s, errs in
                       (("linear", [-13.0, -12.5, -11.0, -3.0]), ("adaptive", [-18.0, -15.0, -12.0, -1.2]))
                       for n, e in zip([300, 1000, 3000, 10000], errs, strict=True)]  # fmt: skip
    fig = _drawn(monkeypatch, lambda: plots.plot_ais_exact_check(exact, tmp_path / "f.png", "caption", 0.3))
    ax = fig.axes[-1]
    assert ax.get_yscale() == "symlog"
    lo, hi = ax.get_ylim()
    texts = [t.get_text() for t in ax.get_yticklabels() if lo <= t.get_position()[1] <= hi]
    assert {"-10", "-1", "0"} <= set(texts), texts
    assert not any("^" in t or "$" in t for t in texts), texts  # no mathtext powers
