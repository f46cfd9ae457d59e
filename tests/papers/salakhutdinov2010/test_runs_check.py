"""Salakhutdinov (2010): Table 1's runs check and the calibration's pools of Table 1's size.

Table 1 pools ``final_replicates`` AIS replicates' runs into one log Z. The
calibration states the error of such pools against the exact log Z
(``replicates_grouped``), and the runs check pools many more replicates of a
final model's AIS to see whether Table 1's pool sits below them (a Jensen
bias of few runs). Here both run on a random 16-6-6 DBM against exact
enumeration, with fixed seeds.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from bmrep.claims.core import Results, decide
from bmrep.estimators.ais import grouped_log_mean_exp, log_mean_exp
from bmrep.estimators.dbm_ais import data_base_biases
from bmrep.models.exact import dbm as exact_dbm
from bmrep.papers.salakhutdinov2010.claims import claims
from bmrep.papers.salakhutdinov2010.claims_ais import runs_check_details
from bmrep.papers.salakhutdinov2010.evaluation import independent_replicates, train_subset
from bmrep.papers.salakhutdinov2010.exact_check import ais_replicates, combine, exact_values
from bmrep.papers.salakhutdinov2010.runs_check import runs_check
from bmrep.seeds import rng as keyed_rng
from support.config_sections import ais_config, ais_settings, evaluation_config
from support.testsystems import random_dbm

SEED = 20261129
AIS = ais_config(n_betas=100, n_runs=50, dtype="float64", schedule="linear")


@pytest.fixture(scope="module")
def small_dbm():
    """A 16-6-6 DBM with strong random couplings (weights N(0, 3^2)) and random binary data."""
    d = random_dbm(16, 6, 6, 3.0, keyed_rng(SEED, "runs-check-dbm"))
    X = (keyed_rng(SEED, "runs-check-data").random((200, 16)) < 0.3).astype(np.float64)
    return d, X


def test_grouped_log_mean_exp_pools_disjoint_blocks_of_rows():
    rows = keyed_rng(SEED, "rows").normal(0.0, 3.0, (7, 5))
    got = grouped_log_mean_exp(rows, 3)
    assert got.shape == (2,)  # the seventh row is a remainder: dropped
    assert got[0] == pytest.approx(log_mean_exp(rows[:3].ravel()))
    assert got[1] == pytest.approx(log_mean_exp(rows[3:6].ravel()))
    assert grouped_log_mean_exp(rows, 1) == pytest.approx([log_mean_exp(r) for r in rows])
    assert grouped_log_mean_exp(rows, 8).size == 0


def test_the_calibration_states_the_error_of_table1s_pool(small_dbm):
    """``replicates_grouped``: pools of ``pool`` replicates in replicate order, whatever the sharding."""
    d, X = small_dbm
    base = data_base_biases(d, X)
    exact = exact_values(d, X[:50], 30)
    parts = [ais_replicates(d, base, AIS, SEED, [2, 3], "v_h2"), ais_replicates(d, base, AIS, SEED, [0, 1], "v_h2")]
    res = combine(exact, parts, AIS, "v_h2", pool=2)
    g = res["replicates_grouped"]
    by_rep = {int(r): w for p in parts for r, w in zip(p["replicate"], p["log_weights"], strict=True)}
    want = [log_mean_exp(np.concatenate([by_rep[0], by_rep[1]])), log_mean_exp(np.concatenate([by_rep[2], by_rep[3]]))]
    assert g["errors"] == pytest.approx([w - exact["log_z_exact"] for w in want])
    assert (g["pool"], g["n_runs"], g["n_groups"]) == (2, 100, 2)
    assert g["error"] == pytest.approx(np.mean(g["errors"]))
    assert g["stderr"] == pytest.approx(np.std(g["errors"], ddof=1) / math.sqrt(2))
    assert "replicates_grouped" not in combine(exact, parts, AIS, "v_h2")  # no pool given: not stated
    (claim,) = [c for c in claims({}) if c.id.endswith("/ais_calibration")]
    details = decide(claim, Results({"exact_check": res}, profile="default")).details
    stated = "pooled 2 replicates at a time as Table 1 pools them (100 runs, 2 disjoint groups): mean error"
    assert f"{stated} {g['error']:+.3f}" in details


def test_the_runs_check_pools_more_replicates_of_the_final_model(small_dbm):
    """Its replicates are the final AIS's on their own streams, pooled all together and in Table 1's pools; the big
    pool is near the exact log Z of the last snapshot (annealing the other snapshot would be off by nats)."""
    d, X = small_dbm
    other = random_dbm(16, 6, 6, 1.0, keyed_rng(SEED, "another-dbm"))
    snaps = {k: np.stack([getattr(other, k), getattr(d, k)]) for k in ("W1", "W2", "b", "c1", "c2")}
    snaps["updates"] = np.array([0, 100])
    ev = evaluation_config(final_ais=AIS, curve_train_subset=100, final_replicates=2)
    c = runs_check("SAP", snaps, X, ev, 6, SEED)
    assert (c["n_replicates"], c["pool"], c["n_runs"], len(c["log_z_pools"])) == (6, 2, 50, 3)
    base = data_base_biases(d, train_subset(X, ev["curve_train_subset"], SEED))
    reps = independent_replicates(d, ais_settings(**AIS), base, 6, SEED, "runs-check", 0)
    rows = np.stack([r.log_weights for r in reps])
    assert c["log_z_replicates"] == pytest.approx([r.estimate for r in reps])
    assert c["log_z_pooled"] == pytest.approx(log_mean_exp(rows.ravel()))
    assert c["log_z_pools"] == pytest.approx(list(grouped_log_mean_exp(rows, 2)))
    assert c["pools_minus_pooled"] == pytest.approx(np.mean(c["log_z_pools"]) - c["log_z_pooled"])
    se = np.std(c["log_z_replicates"], ddof=1) / math.sqrt(c["n_replicates"])
    z, z_other = ((c["log_z_pooled"] - exact_dbm.log_partition(m)) / se for m in (d, other))
    assert abs(z) < 4, f"pooled log Z off the exact one by z = {z:+.2f}"
    assert abs(z_other) > 20, z_other  # the test can tell the two snapshots apart


def test_the_runs_check_states_how_table1s_bound_would_move():
    check = {
        "algorithm": "SAP", "repeat": 0, "n_runs": 50, "n_replicates": 20, "pool": 5, "log_z_pooled": 101.5,
        "ess_pooled": 12.0, "log_z_pools": [100.9, 101.2, 101.0, 101.3], "pools_minus_pooled": -0.4,
        "replicates_minus_pooled": -1.1,
    }  # fmt: skip
    finals = [{"algorithm": "SAP", "repeat": 0, "log_z": 101.0, "n_replicates": 5}]
    out = runs_check_details([check], finals, "SAP")
    assert "log Z 101.00 (Table 1, 5 replicates pooled) -> 101.50 (1000 runs pooled, ESS 12.0; +0.50)" in out
    assert "its test bound would move by -0.50" in out
    assert "pools of 5 replicates (Table 1's size) sit -0.40 from the 1000-run pool (mean of 4)" in out
    assert runs_check_details([check], finals, "CAST") == "" and runs_check_details([], finals, "SAP") == ""


def test_the_schedule_runs_table1_rows_state_their_runs_check():
    """Wired as the claims rule reads it (``runs_checks``): each table1 row states its own model's runs check."""
    from bmrep.claims.core import evaluate
    from papers.salakhutdinov2010.test_claims import _one_seed, tables

    t = _one_seed(tables())
    sap = next(f for f in t["finals"] if f["algorithm"] == "SAP")
    t["runs_checks"] = [
        {
            "algorithm": "SAP", "repeat": 0, "n_runs": 50, "n_replicates": 20, "pool": 5,
            "log_z_pooled": sap["log_z"] + 0.5, "ess_pooled": 9.0, "log_z_pools": [300.1, 300.2, 300.3, 300.2],
            "pools_minus_pooled": -0.3, "replicates_minus_pooled": -0.9,
        }
    ]  # fmt: skip
    p = {c.claim.id.split("/", 1)[1]: c for c in evaluate(claims({}), Results(t, profile="schedule"))}
    assert "runs check (seed 0, 20 more AIS replicates of 50 runs)" in p["table1/table1_sap"].details
    assert "so its test bound would move by -0.50" in p["table1/table1_sap"].details
    assert "runs check" not in p["table1/table1_cast"].details  # CAST has none here
