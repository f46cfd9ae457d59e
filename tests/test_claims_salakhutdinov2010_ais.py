"""Salakhutdinov (2010): the AIS exact check's diagnostics as the calibration claim's details state them."""

from __future__ import annotations

from bmrep.claims.salakhutdinov2010_ais import drift_onset, exact_diagnostics


def test_exact_check_diagnostics_reach_the_details():
    prof = [{"beta": b, "error": e} for b, e in [(0.0, 0.0), (0.5, 0.2), (0.7, 0.05), (0.8, -0.3), (1.0, -1.0)]]
    assert drift_onset(prof) == 0.8 and drift_onset(prof[:3]) is None
    assert drift_onset([{"beta": 0.0, "error": 0.5}]) == 0.0
    out = exact_diagnostics(
        {
            "beta_profile": prof,
            "ladder": [{"n_betas": 1000, "error": -0.5, "stderr": 0.02}],
            "replicates_pooled": {"n_runs": 30, "error": 0.04, "stderr": float("nan"), "ess": 4.5},
        }
    )
    assert "beta = 0.800" in out and "piecewise ladder 1000: -0.500" in out
    assert "all 30 replicate runs pooled: error +0.040 (ESS 4.5, no stated s.e.: ESS < 30)" in out
