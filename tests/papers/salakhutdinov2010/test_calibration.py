"""Salakhutdinov (2010): the AIS calibration rule on a small enumerable DBM, and the calibration's plumbing.

The pipeline's claim ``salakhutdinov2010/table1/ais_calibration`` runs on a
784-12-12 DBM trained on MNIST; here the same code (replicates, combination,
the claim's declaration and verdict) runs on a random 16-6-6 DBM in about a
second, with fixed seeds.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from bmrep.claims.core import Results, decide
from bmrep.claims.verdict import REPRODUCED
from bmrep.estimators.dbm_ais import data_base_biases
from bmrep.papers.salakhutdinov2010.claims import claims, stated_vs_spread
from bmrep.papers.salakhutdinov2010.evaluation import MIN_ESS_STDERR, reported_stderr
from bmrep.papers.salakhutdinov2010.exact_check import (
    ais_replicates,
    combine,
    exact_values,
    model_arrays,
    model_from_arrays,
)
from bmrep.seeds import rng as keyed_rng
from support.config_sections import ais_config, ais_settings, evaluation_config
from support.testsystems import random_dbm

SEED = 20261123
# 20 replicates (the spec's R) of a cheap AIS: 200 betas x 100 runs on the linear ladder (the final AIS's), float64
AIS = ais_config(n_betas=200, n_runs=100, dtype="float64", schedule="linear")
R = 20


@pytest.fixture(scope="module")
def small_dbm():
    """A 16-6-6 DBM with strong random couplings (weights N(0, 3^2)) and its AIS base from random data."""
    r = keyed_rng(SEED, "calibration-dbm")
    d = random_dbm(16, 6, 6, 3.0, r)
    X = (keyed_rng(SEED, "calibration-data").random((200, 16)) < 0.3).astype(np.float64)
    return d, data_base_biases(d, X), X


def calibration_claim():
    (claim,) = [c for c in claims({}) if c.id.endswith("/ais_calibration")]
    return claim


def test_ais_calibration_rule_on_a_small_enumerable_dbm(small_dbm):
    """R = 20 AIS replicates against exact enumeration: the claim's rule reproduces, and more tightly

    the mean error is within 3 s.e. (sd / sqrt(R)) of 0, as it must be for an AIS whose Jensen bias
    (-var/2) is small beside its s.e. (here var/2 ~ 0.002 nats, s.e. ~ 0.01)."""
    d, base, X = small_dbm
    reps = ais_replicates(d, base, AIS, SEED, range(R), "v_h2")
    # pool = 1: a Table 1 that pools one replicate (final_replicates = 1), so the claim judges each replicate
    res = combine(exact_values(d, X[:50], 30), [reps], AIS, "v_h2", pool=1)
    err = np.array([x["error"] for x in res["replicates"]])
    s = err.std(ddof=1) / math.sqrt(R)
    assert abs(err.mean()) <= 3 * s, f"mean error {err.mean():+.4f}, z = {err.mean() / s:+.2f}"
    assert err.var(ddof=1) / 2 < s  # the Jensen bias is small beside the s.e. (the test above is fair)
    row = decide(calibration_claim(), Results({"exact_check": res}, profile="default"))
    assert row.verdict == REPRODUCED and row.estimate.n == R
    assert row.estimate.value == pytest.approx(err.mean()) and row.estimate.std_error == pytest.approx(s)
    assert "ESS median" in row.details and "ratio to sd" in row.details
    assert res["max_bound_minus_ll"] <= 1e-9  # eq. (3) is a lower bound


def test_replicates_are_keyed_by_index_so_sharding_keeps_the_numbers(small_dbm):
    d, base, _ = small_dbm
    cfg = {**AIS, "n_betas": 20, "n_runs": 10}
    whole = ais_replicates(d, base, cfg, SEED, [0, 1, 2], "v_h2")
    parts = [ais_replicates(d, base, cfg, SEED, [2], "v_h2"), ais_replicates(d, base, cfg, SEED, [0, 1], "v_h2")]
    exact = {"log_z_exact": 1.0, "shape": list(d.shape)}
    a, b = combine(exact, [whole], cfg, "v_h2"), combine(exact, parts, cfg, "v_h2")
    assert [x["replicate"] for x in b["replicates"]] == [0, 1, 2]
    pd.testing.assert_frame_equal(pd.DataFrame(a["replicates"]), pd.DataFrame(b["replicates"]))
    assert len({x["log_z"] for x in a["replicates"]}) == 3  # independent streams per replicate
    assert a["replicates_pooled"]["n_runs"] == 30


def test_a_run_with_few_effective_samples_states_no_error():
    assert reported_stderr(0.2, MIN_ESS_STDERR) == 0.2
    assert math.isnan(reported_stderr(0.2, MIN_ESS_STDERR - 0.1))
    reps = [
        {"error": e, "ess": ess, "stderr": reported_stderr(0.1, ess), "delta_stderr": 0.1}
        for e, ess in [(0.3, 5.0), (-0.3, 8.0), (0.1, 50.0), (-0.1, 60.0)]
    ]
    out = stated_vs_spread(reps)
    sd = np.std([0.3, -0.3, 0.1, -0.1], ddof=1)
    assert "ESS median 29.0 (range 5.0-60.0)" in out and f"replicate sd of log Z {sd:.3f}" in out
    assert f"the 2 replicates with ESS >= 30) 0.100, ratio to sd {0.1 / sd:.2f}" in out
    assert "2 replicates with ESS < 30 state no error" in out


def test_the_cached_model_round_trips(small_dbm):
    d, base, _ = small_dbm
    d2, base2 = model_from_arrays(model_arrays(d, base))
    assert all(np.array_equal(x, y) for x, y in zip(d.params().values(), d2.params().values(), strict=True))
    assert all(np.array_equal(x, y) for x, y in zip(base, base2, strict=True))


def test_the_ladder_selection_table_is_the_replicates_errors(small_dbm):
    """Each row: R replicates of one candidate ladder against the exact log Z (mean, sd / sqrt(R)), on its own
    streams; the same call gives the same table, and the linear ladder's row is the replicates of that ladder."""
    from bmrep.models.exact import dbm as exact_dbm
    from bmrep.papers.salakhutdinov2010.evaluation import ais_replicates as batched_replicates
    from bmrep.papers.salakhutdinov2010.ladder_selection import selection_table

    d, base, _ = small_dbm
    exact = exact_dbm.log_partition(d)
    final = ais_config(n_betas=999, n_runs=20, dtype="float64", schedule="piecewise")
    sel = {"candidates": [{"schedule": "linear"}, {"schedule": "adaptive", "pilot": "linear"}], "n_betas": [60, 120],
           "n_replicates": 4}  # fmt: skip
    t = selection_table(d, base, exact, final, sel, SEED, "v_h2")
    assert list(t["schedule"]) == ["linear", "linear", "adaptive/linear", "adaptive/linear"]
    assert list(t["n_betas"]) == [60, 120, 60, 120] and set(t["n_runs"]) == {20}
    pd.testing.assert_frame_equal(t, selection_table(d, base, exact, final, sel, SEED, "v_h2"))
    keys = [("selection", "linear", 120, "replicate", j) for j in range(4)]
    reps = batched_replicates(d, ais_settings(**{**final, "schedule": "linear", "n_betas": 120}), base, SEED, keys)
    err = np.array([r.estimate for r in reps]) - exact
    row = t.iloc[1]
    assert row["mean_error"] == pytest.approx(err.mean()) and row["stderr"] == pytest.approx(err.std(ddof=1) / 2)
    assert (t["stderr"] > 0).all() and (t["mean_error"].abs() < 6 * t["stderr"] + 0.05).all()


def test_the_ladder_check_anneals_the_final_model_at_both_lengths(small_dbm):
    """One replicate at the profile's ladder and one 5x longer, both of the last snapshot, both near the exact log Z
    (a check that annealed another model, or only the base, would be off by nats)."""
    from bmrep.models.exact import dbm as exact_dbm
    from bmrep.papers.salakhutdinov2010.ladder_check import LONG_FACTOR, ladder_check

    d, _, X = small_dbm
    other = random_dbm(16, 6, 6, 3.0, keyed_rng(SEED, "another-dbm"))
    snaps = {k: np.stack([getattr(other, k), getattr(d, k)]) for k in ("W1", "W2", "b", "c1", "c2")}
    snaps["updates"] = np.array([0, 100])
    ev = evaluation_config(final_ais={**AIS, "n_betas": 40, "schedule": "linear"}, curve_train_subset=100)
    c = ladder_check("SAP", snaps, X, ev, SEED)
    assert c["n_betas"] == 40 and c["n_betas_long"] == 40 * LONG_FACTOR and c["repeat"] == 0
    assert c["long_minus_profile"] == pytest.approx(c["log_z_long"] - c["log_z"])
    exact = exact_dbm.log_partition(d)
    assert abs(c["log_z"] - exact) < 0.3 and abs(c["log_z_long"] - exact) < 0.3, (c, exact)
