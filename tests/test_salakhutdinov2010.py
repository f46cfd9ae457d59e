"""Salakhutdinov (2010): the Figure 2 toy claims, Table 1 layout, sampling diagnostics, claim builder."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import yaml

from bmrep.estimators.dbm_ais import data_base_biases
from bmrep.experiments.salakhutdinov2010 import (
    claims,
    count_switches,
    drift_onset,
    estimate_log_z,
    fig2_claim_values,
    fig2_toy,
    nearest_mean_classifier,
    sample_sequences,
    table1,
    temperature_trajectory,
    two_node_mrf,
)
from bmrep.models.dbm import DBM
from bmrep.models.exact import dbm as exact_dbm
from bmrep.seeds import rng as keyed_rng

ROOT = Path(__file__).resolve().parents[1]
SEED = 20261121


def paper_cfg(profile="config"):
    return yaml.safe_load((ROOT / "config" / f"{profile}.yaml").read_text())["salakhutdinov2010"]


def test_two_node_mrf_matches_section_4_1():
    x, log_p, part = two_node_mrf(5.0, -5.0)
    assert {tuple(r): lp for r, lp in zip(x, log_p)} == {(1, 1): 5.0, (-1, -1): 5.0, (1, -1): -5.0, (-1, 1): -5.0}
    assert sorted(part) == [0, 1, 2, 3] and part[np.flatnonzero((x == [1, 1]).all(1))[0]] == 0


def test_fig2_toy_claims_with_the_default_config():
    """The spec's Figure 2 claims, evaluated exactly as the pipeline does (default settings, pipeline seed)."""
    cfg = paper_cfg()["fig2"]
    traj, occ = fig2_toy(cfg, SEED)
    v = fig2_claim_values(traj, occ)
    assert v["wl_partitions_visited"] == 4
    assert v["gibbs_start_only"]
    assert v["fpcd_final"] == 1 and v["fpcd_stays"]
    assert all(0.20 <= o <= 0.30 for o in v["long_occupation"])
    # eq. (6): the Wang-Landau weights estimate p(X_k) (two modes of mass ~1/2, two of ~2e-5)
    np.testing.assert_allclose(np.log(occ["wl_weight_fraction"]), np.log(occ["exact_probability"]), atol=0.1)


def test_table1_keeps_norb_not_run():
    finals = [{"algorithm": "SAP", "test_bound": -90.0, "log_z": 300.0, "log_z_stderr": 0.1}]
    t = table1(finals, None)
    assert list(t["algorithm"]) == ["SAP", "FPCD", "Trans-SAP", "CAST"]
    assert t["norb_test_bound"].isna().all() and t["norb_status"].str.startswith("not run").all()
    assert t.loc[t.algorithm == "CAST", "mnist_status"].item().startswith("not run")
    assert t.loc[t.algorithm == "SAP", "mnist_test_bound"].item() == -90.0


def test_sampling_diagnostics_on_a_tiny_dbm():
    r = keyed_rng(SEED, "s10-sampling")
    d = DBM(r.normal(0, 1.0, (16, 6)), r.normal(0, 1.0, (6, 5)), r.normal(0, 0.5, 16), np.zeros(6), np.zeros(5))
    X = (r.random((200, 16)) < 0.5).astype(np.float32)
    y = r.integers(0, 3, 200)
    s = {"n_chains": 3, "burn_in": 10, "n_columns": 4, "gap": 5, "classify_every": 2, "n_betas": 5, "beta_min": 0.5,
         "gamma": 1.0, "trace_updates": 50}
    out = sample_sequences(d, s, nearest_mean_classifier(X, y), SEED)
    assert out["gibbs_images"].shape == (3, 4, 16) and out["ast_images"].shape == (3, 4, 16)
    assert out["gibbs_labels"].shape == (3, 10)
    assert out["k_trace"].size == 30 and out["k_trace"].max() < 5
    k = temperature_trajectory(d, s, SEED)
    assert k.size == 50 and np.unique(k).size > 1
    assert count_switches(np.array([[0, 0, 1, 1, 0], [2, 2, 2, 2, 2]])).tolist() == [2, 0]
    assert "gibbs_column_switches" not in out  # gap 5 is not a multiple of classify_every 2
    out = sample_sequences(d, {**s, "gap": 4}, nearest_mean_classifier(X, y), SEED)
    for name in ("gibbs", "ast"):  # labels at updates 2, 4, 6, ...; columns at 4, 8, ...
        assert out[f"{name}_column_switches"].tolist() == count_switches(out[f"{name}_labels"][:, 1::2]).tolist()


def claim_inputs(wl_visited=4, ais_error=0.05, **exact_extra):
    """Fig. 2 values and an exact-check record as :func:`claims` takes them (a passing toy unless changed)."""
    v = {"wl_partitions_visited": wl_visited, "gibbs_partitions_visited": 1, "gibbs_start_only": True,
         "fpcd_final": 1, "fpcd_stays": True, "fpcd_first_entry": 5, "long_occupation": [0.25, 0.25, 0.25, 0.25]}
    exact = {"shape": [784, 8, 8], "log_z_exact": 10.0, "log_z_ais": 10.0 + ais_error, "log_z_ais_stderr": 0.02,
             "abs_error": abs(ais_error), "mean_exact_test_ll": -100.0, "mean_test_bound": -101.0,
             "max_bound_minus_ll": -0.1, "ais_betas": 100, "ais_runs": 10, **exact_extra}
    return v, exact


def test_claim_builder_reports_failures_and_not_run():
    v, exact = claim_inputs(wl_visited=3)
    sampling = {"gibbs_switches": [0, 1], "ast_switches": [3, 4], "classify_every": 10}
    rows = claims(v, [{"algorithm": "SAP", "test_bound": -90.0, "log_z_stderr": 0.1}], sampling,
                  np.arange(1000) % 20, 20, exact, "smoke")
    status = {r.claim: r.status for r in rows}
    assert status["Wang-Landau visits all 4 partitions within 100 updates"] == "fail"
    assert status["AIS log Z within 0.1 nats of the exact value on an enumerable DBM"] == "pass"
    assert status["CAST bound >= SAP bound on the test set"] == "not run"
    assert status["the adaptive-ST particle visits all 20 temperature levels within 1000 updates"] == "pass"
    assert status["Gibbs samples switch digit class less often than adaptive-ST samples"] == "pass"


def test_drift_onset_is_where_the_running_error_leaves_the_band_for_good():
    prof = [{"beta": b, "error": e} for b, e in [(0.0, 0.0), (0.5, 0.2), (0.7, 0.05), (0.8, -0.3), (1.0, -1.0)]]
    assert drift_onset(prof) == 0.8
    assert drift_onset(prof[:3]) is None
    assert drift_onset([{"beta": 0.0, "error": 0.5}]) == 0.0


def test_exact_check_diagnostics_reach_the_claim_details():
    v, exact = claim_inputs(ais_error=-0.5, beta_profile=[{"beta": 0.0, "error": 0.0}, {"beta": 0.9, "error": -0.5}],
                            ladder=[{"n_betas": 1000, "error": -0.5, "stderr": 0.02}], ais_ess=3.25,
                            replicates=[{"error": e} for e in (0.05, -0.3, 0.2)],
                            replicates_pooled={"n_runs": 30, "error": 0.04, "stderr": 0.05, "ess": 4.5})
    sampling = {"gibbs_switches": [0], "ast_switches": [3], "classify_every": 10}
    rows = claims(v, [], sampling, np.arange(1000) % 20, 20, exact, "smoke")
    row = next(r for r in rows if r.claim.startswith("AIS log Z"))
    assert row.status == "fail"  # the replicates are a diagnostic: the claim's own run decides
    assert "beta = 0.900" in row.details and "1000: -0.500 ± 0.020" in row.details
    assert "ESS 3.2" in row.details
    assert "3 replicates of the claim's AIS" in row.details and "errors from -0.300 to +0.200, sd 0.257" in row.details
    assert "1 of 3 within 0.1" in row.details and "all 30 replicate runs pooled: error +0.040 ± 0.050" in row.details


def test_adaptive_ais_schedule_matches_exact_log_z_on_an_enumerable_dbm():
    """The Table 1 AIS with the adaptive ladder (pilot + constant-speed betas) on a random enumerable DBM:
    within 0.1 nats of exact and consistent with its stated error; the ladder it used is returned."""
    r = keyed_rng(SEED, "adaptive-dbm")
    d = DBM(r.normal(0, 0.5, (20, 12)), r.normal(0, 0.5, (12, 10)), r.normal(0, 0.5, 20), r.normal(0, 0.5, 12),
            r.normal(0, 0.5, 10))
    bases = data_base_biases(d, (keyed_rng(SEED, "adaptive-data").random((500, 20)) < 0.3).astype(float))
    exact = exact_dbm.log_partition(d)
    cfg = {"n_betas": 1000, "n_runs": 100, "schedule": "adaptive", "pilot_fraction": 0.1, "uniform_mix": 0.1}
    for state in ("v_h2", "h1"):
        run = estimate_log_z(d, cfg, bases, SEED, "adaptive-test", state=state)
        assert run.betas.size == 1000 and run.betas[0] == 0.0 and run.betas[-1] == 1.0
        assert abs(run.log_z - exact) < 0.1
        assert abs(run.log_z - exact) < 4 * run.stderr + 0.02
    # the piecewise ladder is the default; an unknown schedule is an error
    assert np.allclose(np.diff(estimate_log_z(d, {"n_betas": 101, "n_runs": 4}, bases, SEED).betas)[-5:], 0.1 / 69)
    with pytest.raises(ValueError, match="schedule"):
        estimate_log_z(d, {**cfg, "schedule": "geometric"}, bases, SEED)


def test_cast_vs_sap_details_flag_a_small_ais_ess():
    v, exact = claim_inputs()
    sampling = {"gibbs_switches": [0], "ast_switches": [3], "classify_every": 10}

    def row(ess_cast):
        finals = [{"algorithm": "SAP", "test_bound": -90.0, "log_z_stderr": 0.1, "ess": 60.0, "ais_runs": 100},
                  {"algorithm": "CAST", "test_bound": -89.0, "log_z_stderr": 0.2, "ess": ess_cast, "ais_runs": 100}]
        rows = claims(v, finals, sampling, np.arange(1000) % 20, 20, exact, "smoke")
        return next(r for r in rows if r.claim.startswith("CAST bound"))

    assert row(50.0).status == "pass" and "understate" not in row(50.0).details
    assert "CAST -89.00 (log Z ± 0.20, AIS ESS 3.0 of 100 runs)" in row(3.0).details
    assert "understate" in row(3.0).details
