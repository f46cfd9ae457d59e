"""The calibration study (issue 23): models, the matched-budget estimator adapter, shards and the summary."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from bmrep.models.exact import rbm as exact
from bmrep.models.rbm import RBM
from bmrep.papers.calibration import estimators as est
from bmrep.papers.calibration.models import build_model, model_name, parse_model_name
from bmrep.papers.calibration.replicates import replicate_shard
from bmrep.papers.calibration.summary import calibration_summary, which_estimator, with_corrected_raise
from support.testsystems import random_rbm

RUN = {"n_chains": 100, "dtype": "float64", "K": 20, "init": "flat", "init_iterations": 2, "init_sweeps": 20,
       "mbar_max_samples": 5000}  # fmt: skip


def small_model(seed=4, n=10, m=6, scale=1.0):
    """An enumerable RBM as the calibration jobs store it (base p1 and RAISE's points from exact samples)."""
    from bmrep.estimators.base import data_marginal_base_bias

    rng = np.random.default_rng(seed)
    rbm = random_rbm(n, m, scale, rng, bias_scale=scale)
    V, _ = exact.sample_exact_hidden_blocks(rbm, 1100, rng, chunk_bits=3)
    arrays = {**rbm.params(), "base_bias": data_marginal_base_bias(V[:1000], 1.0), "raise_data": V[1000:]}
    return arrays, exact.log_partition(rbm)


def test_model_names_round_trip():
    assert model_name("trained", 20) == "trained_784x20" and model_name("random", 10, 0.5) == "random_784x10_w0.5"
    assert parse_model_name("random_784x10_w0.5") == ("random", 10, 0.5)
    kind, h, s = parse_model_name("trained_784x25")
    assert (kind, h) == ("trained", 25) and np.isnan(s)
    for bad in ("trained_784x20_w0.5", "random_784x20", "rbm_784x20"):
        with pytest.raises(ValueError):
            parse_model_name(bad)


def test_random_model_has_exact_log_z_and_base():
    settings = {"n_chains": 10, "base_pseudo_count": 1.0, "exact_chunk_bits": 2, "training": {}}
    arrays, meta = build_model("random_784x3_w0.5", settings, 7)
    rbm = RBM(arrays["W"], arrays["b"], arrays["c"])
    assert meta["log_z"] == pytest.approx(exact.log_partition(rbm, layer="hidden", chunk_bits=15), rel=1e-13)
    assert arrays["raise_data"].shape == (10, 784) and set(np.unique(arrays["raise_data"])) <= {0.0, 1.0}
    assert np.all(np.isfinite(arrays["base_bias"])) and meta["weight_scale"] == 0.5
    again, _ = build_model("random_784x3_w0.5", settings, 7)
    np.testing.assert_array_equal(arrays["W"], again["W"])  # keyed by (seed, name)


def test_tempered_budget_counts_every_sweep(monkeypatch):
    """RTS's matched budget includes the initial iterations (carlson2016 rule: RTS continues, it does not restart)."""
    arrays, _ = small_model()
    rbm = RBM(arrays["W"], arrays["b"], arrays["c"])
    seen = {}
    real = est.budget_tempered_run

    def spy(*a, **k):
        run = real(*a, **k)
        seen["n_sweeps"] = run.n_sweeps
        return run

    monkeypatch.setattr(est, "budget_tempered_run", spy)
    rows = est.run_group(rbm, arrays["base_bias"], arrays["raise_data"], "tempered", 150, RUN, 1, ("t",))
    assert seen["n_sweeps"] == 150
    assert [r["method"] for r in rows] == ["RTS", "TS", "TI-riemann", "TI-trapezoid", "TI-trapezoid-corrected",
                                            "TI-RB", "MBAR"]  # fmt: skip
    assert all(r["cpu_seconds"] > 0 for r in rows)
    with pytest.raises(ValueError, match="initial sweeps"):
        est.run_group(rbm, arrays["base_bias"], arrays["raise_data"], "tempered", 40, RUN, 1, ("t",))


def test_annealed_budget_is_the_number_of_transitions(monkeypatch):
    """AIS at B sweeps runs on B + 2 betas (B transitions), RAISE on B + 1 (B reversed sweeps)."""
    arrays, _ = small_model()
    rbm = RBM(arrays["W"], arrays["b"], arrays["c"])
    n_betas = {}
    real = est.piecewise_betas

    def spy(n):
        n_betas.setdefault("calls", []).append(n)
        return real(n)

    monkeypatch.setattr(est, "piecewise_betas", spy)
    est.run_group(rbm, arrays["base_bias"], arrays["raise_data"], "AIS", 77, RUN, 1, ("a",))
    est.run_group(rbm, arrays["base_bias"], arrays["raise_data"], "RAISE", 77, RUN, 1, ("r",))
    assert n_betas["calls"] == [79, 78]


def test_estimators_match_exact_log_z_on_an_enumerable_rbm():
    """Mean error over 10 independent replicates within 4 standard errors of zero (AIS, RAISE, RTS, TS, MBAR).

    The Jensen gaps (var/2) are far below these standard errors at this size.
    """
    arrays, log_z = small_model()
    df = pd.concat(
        [replicate_shard("small", arrays, log_z, g, [300], range(10), RUN, 11) for g in ("AIS", "RAISE", "tempered")]
    )
    for method in ("AIS", "RAISE", "RTS", "TS", "MBAR"):
        e = df.loc[df["method"] == method, "error"].to_numpy()
        assert e.size == 10
        z = e.mean() / (e.std(ddof=1) / np.sqrt(e.size))
        assert abs(z) < 4, (method, e.mean(), z)
    assert df.loc[df["method"].str.startswith("TI"), "covered"].isna().all()
    stated = df[df["method"].isin(["AIS", "RTS"])]
    np.testing.assert_array_equal(stated["covered"], (stated["error"].abs() <= 2 * stated["stderr"]).astype(float))


def test_replicates_do_not_depend_on_sharding():
    arrays, log_z = small_model()
    whole = replicate_shard("small", arrays, log_z, "AIS", [50, 80], [0, 1, 2], RUN, 3)
    parts = pd.concat([replicate_shard("small", arrays, log_z, "AIS", [50, 80], [r], RUN, 3) for r in (2, 0, 1)])
    key = ["sweeps", "replicate"]
    a = whole.sort_values(key).reset_index(drop=True)
    b = parts.sort_values(key).reset_index(drop=True)
    np.testing.assert_array_equal(a["estimate"], b["estimate"])
    assert a["estimate"].nunique() == 6  # independent replicates and budgets, not one run repeated


def test_summary_on_a_constructed_table():
    rng = np.random.default_rng(0)
    e_ais = rng.normal(-0.1, 0.2, 40)
    rows = [{"model": "m", "group": "AIS", "method": "AIS", "sweeps": 100, "replicate": i, "estimate": 5 + e,
             "stderr": 0.3, "exact": 5.0, "error": e, "covered": float(abs(e) <= 0.6), "cpu_seconds": 1.0 + i % 2}
            for i, e in enumerate(e_ais)]  # fmt: skip
    rows += [{"model": "m", "group": "tempered", "method": "TI-RB", "sweeps": 100, "replicate": i, "estimate": 5.2,
              "stderr": np.nan, "exact": 5.0, "error": 0.2, "covered": np.nan, "cpu_seconds": 2.0}
             for i in range(40)]  # fmt: skip
    s = calibration_summary(pd.DataFrame(rows), n_chains=100).set_index("method")
    a = s.loc["AIS"]
    assert a["bias"] == pytest.approx(e_ais.mean()) and a["rmse"] == pytest.approx(np.sqrt(np.mean(e_ais**2)))
    assert a["sd"] == pytest.approx(e_ais.std(ddof=1)) and a["jensen_gap"] == pytest.approx(-(e_ais.var(ddof=1)) / 2)
    assert a["coverage"] == pytest.approx(np.mean(np.abs(e_ais) <= 0.6)) and a["cpu_seconds"] == pytest.approx(1.5)
    assert a["se_ratio"] == pytest.approx(0.3 / e_ais.std(ddof=1))
    t = s.loc["TI-RB"]
    assert t["rmse"] == pytest.approx(0.2) and np.isnan(t["coverage"]) and np.isnan(t["jensen_gap"])
    assert list(s.index) == ["AIS", "TI-RB"]  # the estimators' order, not alphabetical


def test_corrected_raise_takes_each_chains_gap_off_and_the_summary_shows_the_prediction():
    rng = np.random.default_rng(1)
    e = rng.normal(0.3, 0.05, 30)
    se = 0.07 + 0.01 * (np.arange(30) % 3)
    rows = pd.DataFrame({"model": "m", "group": "RAISE", "method": "RAISE", "sweeps": 100, "replicate": range(30),
                         "estimate": 5 + e, "stderr": se, "exact": 5.0, "error": e,
                         "covered": (np.abs(e) <= 2 * se).astype(float), "cpu_seconds": 1.0})  # fmt: skip
    full = with_corrected_raise(rows, n_chains=100)
    c = full[full["method"] == "RAISE-corrected"]
    np.testing.assert_allclose(c["error"], e - 100 * se**2 / 2)
    np.testing.assert_array_equal(c["covered"], (np.abs(e - 100 * se**2 / 2) <= 2 * se).astype(float))
    assert len(full) == 60 and (full[full["method"] == "RAISE"]["error"] == e).all()  # RAISE's own rows untouched
    s = calibration_summary(full, n_chains=100).set_index("method")
    assert list(s.index) == ["RAISE", "RAISE-corrected"]
    assert s.loc["RAISE", "jensen_gap"] == pytest.approx(100 * np.mean(se**2) / 2)  # each chain's gap, not var/2
    assert s.loc["RAISE-corrected", "bias"] == pytest.approx(np.mean(e - 100 * se**2 / 2))


def test_which_estimator_names_the_most_accurate_trusted_one_per_budget():
    s = pd.DataFrame([
        {"model": "t", "method": "AIS", "sweeps": 1000, "rmse": 0.10, "coverage": 0.97},
        {"model": "t", "method": "RTS", "sweeps": 1000, "rmse": 0.09, "coverage": 0.80},  # better, untrusted
        {"model": "t", "method": "TI-RB", "sweeps": 1000, "rmse": 0.05, "coverage": np.nan},
        {"model": "t", "method": "AIS", "sweeps": 3000, "rmse": 0.06, "coverage": 0.96},
        {"model": "t", "method": "RTS", "sweeps": 3000, "rmse": 0.04, "coverage": 0.95},
        {"model": "r", "method": "RTS", "sweeps": 1000, "rmse": 0.01, "coverage": 0.99},  # not a trained model
    ])  # fmt: skip
    text = which_estimator(s, ["t"])
    assert text.startswith("On the trained models (t), at 1000 sweeps per chain trust AIS (RMSE 0.100")
    assert "TI-RB is more accurate (RMSE 0.050) but states no error" in text
    assert "at 3000 sweeps per chain trust RTS (RMSE 0.040" in text and text.count(".") >= 1
