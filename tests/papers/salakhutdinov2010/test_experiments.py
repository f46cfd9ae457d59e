"""Salakhutdinov (2010): the Figure 2 toy, Table 1 layout, sampling diagnostics, AIS schedules.

The claims are tested in test_claims.py (beside this file).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
import yaml
from sklearn.neighbors import NearestCentroid

from bmrep.estimators.dbm_ais import data_base_biases
from bmrep.models.dbm import DBM
from bmrep.models.exact import dbm as exact_dbm
from bmrep.papers.salakhutdinov2010.evaluation import estimate_log_z, replicated_log_z
from bmrep.papers.salakhutdinov2010.sampling import (
    count_switches,
    logistic_classifier,
    sample_sequences,
    temperature_trajectories,
)
from bmrep.papers.salakhutdinov2010.summaries import paired_differences, table1
from bmrep.papers.salakhutdinov2010.toy import fig2_toy, two_node_mrf
from bmrep.seeds import rng as keyed_rng
from support.config_sections import ais_settings, training_config
from support.testsystems import random_dbm

ROOT = Path(__file__).resolve().parents[3]
SEED = 20261121


def paper_cfg(profile="config"):
    return yaml.safe_load((ROOT / "config" / f"{profile}.yaml").read_text())["salakhutdinov2010"]


def test_two_node_mrf_matches_section_4_1():
    x, log_p, part = two_node_mrf(5.0, -5.0)
    assert {tuple(r): lp for r, lp in zip(x, log_p, strict=True)} == {
        (1, 1): 5.0,
        (-1, -1): 5.0,
        (1, -1): -5.0,
        (-1, 1): -5.0,
    }
    assert sorted(part) == [0, 1, 2, 3] and part[np.flatnonzero((x == [1, 1]).all(1))[0]] == 0


def test_fig2_toy_with_the_default_config():
    """The Figure 2 behaviour the claims test, over the default's 200 runs (3 long runs) and the pipeline seed."""
    cfg = {**paper_cfg()["fig2"], "n_long_runs": 3}
    traj, runs, occ = fig2_toy(cfg, SEED)
    assert len(runs) == 200 and (runs["n_updates"] == 100).all() and len(traj) == 100
    assert (runs["wang_landau_partitions"] == 4).mean() > 0.5
    assert runs["gibbs_left_start"].mean() < 0.1
    assert (runs["fpcd_data_tail"] >= 50).mean() > 0.5
    assert traj.columns.tolist() == ["update", "Gibbs", "FPCD", "Wang-Landau"] and traj["Gibbs"].iloc[0] in (3, 4)
    assert occ["run"].nunique() == 3 and occ["fraction"].between(0.20, 0.30).all()
    # eq. (6): the Wang-Landau weights estimate p(X_k) (two modes of mass ~1/2, two of ~2e-5), in every long run
    for _, g in occ.groupby("run"):
        np.testing.assert_allclose(np.log(g["wl_weight_fraction"]), np.log(g["exact_probability"]), atol=0.1)


def test_table1_keeps_norb_not_run():
    finals = [{"algorithm": "SAP", "test_bound": -90.0, "log_z": 300.0, "log_z_stderr": 0.1}]
    t = table1(finals, None)
    assert list(t["algorithm"]) == ["SAP", "FPCD", "Trans-SAP", "CAST", "SAP-50"]  # the control last, no paper value
    assert t["paper_mnist"].isna().tolist() == [False] * 4 + [True]
    assert t["norb_test_bound"].isna().all() and t["norb_status"].str.startswith("not run").all()
    assert t.loc[t.algorithm == "CAST", "mnist_status"].item().startswith("not run")
    assert t.loc[t.algorithm == "SAP", "mnist_test_bound"].item() == -90.0


def test_sampling_diagnostics_on_a_tiny_dbm():
    r = keyed_rng(SEED, "s10-sampling")
    d = DBM(r.normal(0, 1.0, (16, 6)), r.normal(0, 1.0, (6, 5)), r.normal(0, 0.5, 16), np.zeros(6), np.zeros(5))
    X = (r.random((200, 16)) < 0.5).astype(np.float32)
    y = r.integers(0, 3, 200)
    s = {
        "n_chains": 3,
        "burn_in": 10,
        "n_columns": 4,
        "gap": 5,
        "classify_every": 2,
        "n_betas": 5,
        "beta_min": 0.5,
        "gamma": 1.0,
        "trace_updates": 50,
    }
    out = sample_sequences(d, s, NearestCentroid().fit(X, y).predict, SEED)
    assert out["gibbs_images"].shape == (3, 4, 16) and out["ast_images"].shape == (3, 4, 16)
    assert out["gibbs_labels"].shape == (3, 10)
    assert out["k_trace"].size == 30 and out["k_trace"].max() < 5
    k = temperature_trajectories(d, {**s, "n_particles": 6}, SEED)
    assert k.shape == (6, 50) and np.unique(k[0]).size > 1 and k.max() < 5
    assert len({tuple(row) for row in k}) == 6  # independent particles
    np.testing.assert_array_equal(k, temperature_trajectories(d, {**s, "n_particles": 6}, SEED))
    assert count_switches(np.array([[0, 0, 1, 1, 0], [2, 2, 2, 2, 2]])).tolist() == [2, 0]
    assert "gibbs_column_switches" not in out  # gap 5 is not a multiple of classify_every 2
    out = sample_sequences(d, {**s, "gap": 4}, NearestCentroid().fit(X, y).predict, SEED)
    for name in ("gibbs", "ast"):  # labels at updates 2, 4, 6, ...; columns at 4, 8, ...
        assert out[f"{name}_column_switches"].tolist() == count_switches(out[f"{name}_labels"][:, 1::2]).tolist()


def _enumerable_dbm(key: str):
    """A random 20-12-10 DBM (all parameters N(0, 0.5^2)) drawn from the stream ``<key>-dbm``, the data base
    biases from 500 random binary vectors (stream ``<key>-data``), and its exact log Z by enumeration."""
    d = random_dbm(20, 12, 10, 0.5, keyed_rng(SEED, f"{key}-dbm"), bias_scale=0.5)
    data = (keyed_rng(SEED, f"{key}-data").random((500, 20)) < 0.3).astype(float)
    return d, data_base_biases(d, data), exact_dbm.log_partition(d)


def test_adaptive_ais_schedule_matches_exact_log_z_on_an_enumerable_dbm():
    """The Table 1 AIS with the adaptive ladder (pilot + constant-speed betas) on a random enumerable DBM:
    within 0.1 nats of exact and consistent with its stated error; the ladder it used is returned."""
    d, bases, exact = _enumerable_dbm("adaptive")
    cfg = {"n_betas": 1000, "n_runs": 100, "schedule": "adaptive", "pilot_fraction": 0.1, "uniform_mix": 0.1}
    for state in ("v_h2", "h1"):
        run = estimate_log_z(d, ais_settings(state, **cfg), bases, SEED, "adaptive-test")
        assert run.betas.size == 1000 and run.betas[0] == 0.0 and run.betas[-1] == 1.0
        assert abs(run.estimate - exact) < 0.1
        assert abs(run.estimate - exact) < 4 * run.stderr + 0.02
    # the piecewise ladder is the schema's default; an unknown schedule is an error
    piecewise = estimate_log_z(d, ais_settings(n_betas=101, n_runs=4), bases, SEED)
    assert np.allclose(np.diff(piecewise.betas)[-5:], 0.1 / 69)
    with pytest.raises(ValueError, match="schedule"):
        replace(ais_settings(**cfg), schedule="geometric")


def test_replicated_log_z_on_an_enumerable_dbm():
    """The final log Z from independent AIS replicates (spec, section 3): pooled estimate against the exact value,
    z-score with the replicates' spread as the error; replicates are independent (distinct estimates)."""
    d, bases, exact = _enumerable_dbm("replicated")
    ais = ais_settings(n_betas=300, n_runs=20, schedule="adaptive")
    z = replicated_log_z(d, ais, bases, 6, SEED, "replicated-test")
    reps = np.array(z["log_z_replicates"])
    assert z["n_replicates"] == 6 and np.unique(reps).size == 6
    assert z["log_z_stderr"] == pytest.approx(np.std(reps, ddof=1) / np.sqrt(6)) and z["log_z_stderr"] > 0
    assert abs(z["log_z"] - exact) / z["log_z_stderr"] < 4.0, (z["log_z"], exact, z["log_z_stderr"])
    # a replicate states its delta-method error only at ESS >= 30 (of 20 runs: never)
    assert all(np.isnan(s) for s in z["replicate_stated_stderr"])
    one = replicated_log_z(d, ais, bases, 1, SEED, "replicated-test")
    assert np.isnan(one["log_z_stderr"]) and one["log_z"] == pytest.approx(reps[0])


def test_table1_means_and_paired_differences_over_seeds():
    finals = [
        {"algorithm": a, "repeat": s, "test_bound": b + shift, "log_z": 1.0, "log_z_stderr": 0.1}
        for a, b in {"SAP": -90.0, "CAST": -88.0}.items()
        for s, shift in enumerate((-1.0, 0.0, 1.5 if a == "CAST" else 1.0))
    ]
    t = table1(finals, None).set_index("algorithm")
    assert t.loc["CAST", "n_seeds"] == 3 and t.loc["CAST", "mnist_test_bound"] == pytest.approx(-88.0 + 0.5 / 3)
    assert t.loc["SAP", "mnist_test_bound_stderr"] == pytest.approx(1.0 / np.sqrt(3))
    assert t.loc["FPCD", "n_seeds"] == 0 and t.loc["FPCD", "mnist_status"].startswith("not run")
    p = paired_differences(finals).set_index("pair")
    assert p.loc["CAST - SAP", "difference"] == pytest.approx(2.0 + 0.5 / 3)
    assert p.loc["CAST - SAP", "stderr"] == pytest.approx(np.std([0, 0, 0.5], ddof=1) / np.sqrt(3))
    assert p.loc["CAST - FPCD", "n_seeds"] == 0


def test_logistic_classifier_reads_noisy_prototypes():
    """The fixed classifier of the class-switch claim: 3 noisy binary prototypes, held-out accuracy > 0.95."""
    r = keyed_rng(SEED, "lr")
    protos = r.random((3, 30)) < 0.5
    y = r.integers(0, 3, 600)
    X = (protos[y] ^ (r.random((600, 30)) < 0.1)).astype(np.float32)
    predict = logistic_classifier(X[:400], y[:400], C=0.05, max_iter=200)
    assert (predict(X[400:]) == y[400:]).mean() > 0.95


def test_algorithms_share_minibatches_and_initial_chains_within_a_seed(monkeypatch):
    """Common random numbers (spec, section 3): per seed the four algorithms start from the same chains and
    draw the same minibatch order; another seed draws other ones."""
    import bmrep.papers.salakhutdinov2010.train as tr
    from bmrep.learning.dbm_training import TrainingHistory

    seen = []

    def spy(dbm, X, sampler, *, rng, **kw):  # the training loop's inputs, before any update
        c = sampler.chains  # all particles (CAST: slow and fast)
        seen.append((np.concatenate([c.v, c.h1, c.h2], axis=1).copy(), rng.permutation(X.shape[0])))
        return TrainingHistory()

    monkeypatch.setattr(tr, "train_dbm", spy)
    cfg = training_config()
    X = (np.random.default_rng(0).random((60, 16)) < 0.3).astype(np.float32)
    dbm0 = DBM.random(16, 8, 8, np.random.default_rng(1), scale=0.1).astype(np.float32)
    out = {}
    for repeat in (0, 1):
        for alg in ("SAP", "FPCD", "Trans-SAP", "CAST"):
            seen.clear()
            tr.train(alg, dbm0, X, cfg, SEED, repeat)
            (out[(alg, repeat)],) = seen
    for alg in ("FPCD", "Trans-SAP", "CAST"):
        for repeat in (0, 1):
            np.testing.assert_array_equal(out[(alg, repeat)][0], out[("SAP", repeat)][0])  # initial chains
            np.testing.assert_array_equal(out[(alg, repeat)][1], out[("SAP", repeat)][1])  # minibatch order
    assert not np.array_equal(out[("SAP", 0)][0], out[("SAP", 1)][0])
    assert not np.array_equal(out[("SAP", 0)][1], out[("SAP", 1)][1])
