"""carlson2016 experiments: the exact-model check, small end-to-end runs and the claim logic."""

import numpy as np
import pandas as pd
import pytest

from bmrep.experiments import carlson2016 as ex
from bmrep.models.exact import rbm as exact
from bmrep.models.rbm import RBM

SEED = 20261121


def test_exact_model_check_small():
    df = ex.exact_model_check(dict(n_visible=8, n_hidden=6, weight_scales=[1.0, 3.0], n_chains=40, sweeps=400, K=20, z_max=3.0), SEED)
    assert set(df["method"]) >= {"AIS", "RAISE", "RTS", "TS", "MBAR", "TI-RB"}
    zs = df.dropna(subset=["z"])["z"].abs()
    assert len(zs) == 10 and zs.max() < 4.0, df


def test_fig1_on_an_enumerable_rbm():
    r = np.random.default_rng(0)
    rbm = RBM(r.normal(0, 0.5, (30, 5)), r.normal(0, 1, 30), r.normal(0, 1, 5))
    bb = ex.base_bias_for("data", (r.random((200, 30)) < 0.4).astype(float))
    df = ex.fig1_initial_iterations(rbm, bb, dict(K=20, n_chains=30, sweeps_per_iteration=30, n_iterations=6, final_sweeps=200), SEED)
    rb = df[(df["variant"] == "RB") & (df["stage"] == "initial")]
    conv = rb["converged_at"].iloc[0]
    assert 1 <= conv <= 6
    np.testing.assert_allclose(rb[rb["iteration"] == 1]["exact"].to_numpy()[-1], exact.log_partition(rbm, 1.0, bb))
    final = df[(df["variant"] == "RB") & (df["stage"] == "final") & (df["k"] == 20)].iloc[0]
    assert abs(final["log_zhat"] - final["exact"]) < 0.2


def test_fig3_and_fig4_pieces_run_and_agree_with_exact():
    r = np.random.default_rng(1)
    rbm = RBM(r.normal(0, 0.3, (40, 8)), r.normal(0, 1, 40), r.normal(0, 1, 8))
    X = (r.random((300, 40)) < 0.3).astype(float)
    bb = ex.base_bias_for("data", X)
    lz = exact.log_partition(rbm)
    s = dict(n_chains=20, sweeps=[150, 300], dtype="float64", K=20, init="ais", init_iterations=3, init_sweeps=20, truth_sweeps=400)
    rows = pd.concat([ex.fig3_repeat(rbm, bb, X, s, m, 0, SEED, "toy") for m in ("RTS", "AIS", "RAISE")])
    assert list(rows["sweeps"].unique()) == [150, 300]
    z = (rows["estimate"] - lz) / rows["stderr"]
    assert np.all(np.abs(z) < 4.0), rows
    truth, curve = ex.fig3_truth(rbm, bb, s, SEED, "toy")
    assert abs(truth.set_index("method").loc["truth", "estimate"] - lz) < 0.1 and curve.size == 20
    s4 = dict(n_chains=10, dtype="float64", burn_in=10, init_iterations=0, init_sweeps=10, n_sweeps=60, subset_size=300, n_bootstrap=4, n_bootstrap_mbar=1, mbar_max_K=10)
    d4 = ex.fig4_temperatures(rbm, bb, 10, s4, SEED, (np.linspace(0, 1, 20), curve))
    assert set(d4["method"]) == {"RTS", "TS", "TI", "TI-RB", "MBAR"}
    assert (d4["method"] == "MBAR").sum() == 1


def test_frames_roundtrip(tmp_path):
    df = pd.DataFrame({"method": ["RTS", "AIS"], "estimate": [1.5, 2.5], "repeat": [0, 1]})
    ex.save_frame(tmp_path / "a.npz", df)
    back = ex.load_frames([tmp_path / "a.npz"])
    pd.testing.assert_frame_equal(back, df, check_dtype=False)


def _tables(rts_rmse_small=0.1, ais_bias=-0.5, raise_bias=0.5, gap=0.3, conv=3):
    exact_check = pd.DataFrame({"weight_scale": [1.0, 1.0], "method": ["AIS", "TI-RB"], "estimate": [1.0, 1.1], "stderr": [0.1, np.nan], "exact": [1.0, 1.0], "z": [0.0, np.nan]})
    fig1 = pd.DataFrame({"variant": ["RB"] * 2, "stage": ["initial", "final"], "iteration": [1, 2], "k": [2, 2], "log_zhat": [5.2, 5.01],
                         "exact": [5.0, 5.0], "converged_at": [conv, conv], "c": [0.5, 0.5], "beta": [1.0, 1.0]})
    fig2 = pd.DataFrame({"n_samples": [100, 100, 200, 200], "method": ["RTS", "MBAR"] * 2, "rmse": [1.0, 1.0, 0.5, 0.4]})
    fig3 = pd.DataFrame({"model": ["m"] * 6, "method": ["RTS", "AIS", "RAISE"] * 2, "sweeps": [10, 10, 10, 20, 20, 20],
                         "rmse": [rts_rmse_small, 0.5, 0.5, 0.05, 0.2, 0.2], "bias": [0.0, ais_bias, raise_bias, 0.0, ais_bias, raise_bias],
                         "n": [5] * 6, "truth": [1.0] * 6})
    fig4 = pd.DataFrame({"K": [10, 100, 10, 100], "method": ["RTS", "RTS", "TI", "TI"], "rmse": [0.2, 0.25, 3.0, 0.3]})
    fig5 = pd.DataFrame({"train_rts": [-90.0, -80.0], "train_ais": [-90.0 + gap, np.nan]})
    return exact_check, fig1, fig2, fig3, fig4, fig5


SETTINGS = {"exact_check": {"z_max": 3.0}}


def test_claims_pass_and_fail_from_the_tables():
    claims = ex.evaluate_claims(*_tables(), SETTINGS, "smoke")
    assert [c.status for c in claims] == ["pass"] * len(claims)
    bad = ex.evaluate_claims(*_tables(rts_rmse_small=0.9, ais_bias=0.1, gap=1.5, conv=-1), SETTINGS, "smoke")
    status = {c.claim: c.status for c in bad}
    assert status["RBM m: RTS RMSE < AIS RMSE at the smallest matched budget"] == "fail"
    assert status["RBM m: mean AIS below truth and mean RAISE above truth (the sandwich)"] == "fail"
    assert status["RTS-tracked log-likelihood within 1 nat of the AIS checkpoint at every checkpoint"] == "fail"
    assert status["with Rao-Blackwellization the stopping rule max|r_k - c_k| < 0.1/K is met within 10 iterations"] == "fail"


def test_bad_settings_are_rejected():
    with pytest.raises(ValueError):
        ex.base_bias_for("gaussian", np.zeros((3, 4)))
