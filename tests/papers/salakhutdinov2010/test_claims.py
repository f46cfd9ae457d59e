"""Salakhutdinov (2010): the claim declarations on constructed result tables (stage imports: pipeline/)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from bmrep.claims.core import Results, evaluate
from bmrep.claims.verdict import INCONCLUSIVE, NOT_REPRODUCED, NOT_RUN, REPRODUCED
from bmrep.papers.salakhutdinov2010.claims import claims
from bmrep.papers.salakhutdinov2010.tempering import occupancy_table, swap_comparison, swap_table

ROOT = Path(__file__).resolve().parents[3]
SCRIPTS = ROOT / "workflow" / "scripts" / "salakhutdinov2010"
ALGS = ["SAP", "FPCD", "Trans-SAP", "CAST"]
COMMON = (-0.3, 0.0, 0.3)
# per algorithm, per seed
NOISE = ((0.1, -0.1, 0.0), (-0.1, 0.0, 0.1), (0.0, 0.1, -0.1), (0.0, -0.1, 0.1), (0.1, 0.0, -0.1))
# the final AIS, as evaluation.ais_settings records it in the calibration and in every Table 1 evaluation
AIS_SETTINGS = {"n_betas": 1000, "n_runs": 50, "state": "v_h2", "dtype": "float32", "schedule": "linear"}


def tables(
    bounds=None,
    wl=(1, 2, 3, 4),
    gibbs_leaves=False,
    fpcd_end=1,
    occupation=(0.25, 0.25, 0.25, 0.25),
    ais_errors=(0.05, -0.05, 0.1),
    pool_errors=(0.05, -0.05, 0.1),
    k_trace=None,
    gibbs_switches=(0, 1, 0, 0),
    ast_switches=(3, 4, 2, 5),
):
    """Result tables as the pipeline writes them: three seeds, one toy run, one traced particle.

    Seed s shifts every algorithm's bound by COMMON[s] (what common random numbers share) plus a
    small algorithm-specific NOISE term; both average to 0 over the seeds, so the means are ``bounds``.
    """
    bounds = bounds or {"SAP": -90.0, "FPCD": -89.5, "Trans-SAP": -89.0, "CAST": -88.0}
    n = 100
    wl_traj = np.resize(np.asarray(wl), n)
    gibbs = np.full(n, 4)
    if gibbs_leaves:
        gibbs[40] = 3
    fpcd = np.r_[np.full(30, 4), np.full(n - 30, 1)]
    fpcd[-1] = fpcd_end
    fig2 = pd.DataFrame({"update": np.arange(1, n + 1), "Gibbs": gibbs, "FPCD": fpcd, "Wang-Landau": wl_traj})
    occ = pd.DataFrame({"partition": [1, 2, 3, 4], "fraction": list(occupation)})
    away = np.flatnonzero(fpcd != 1)
    runs = pd.DataFrame(  # one run, the trajectories above
        {
            "run": [0],
            "n_updates": [n],
            "wang_landau_partitions": [np.unique(wl_traj).size],
            "gibbs_left_start": [bool(np.any(gibbs != 4))],
            "fpcd_data_tail": [n if away.size == 0 else n - 1 - away[-1]],
        }
    )
    finals = [
        {
            "algorithm": a,
            "repeat": s,
            "test_bound": b + COMMON[s] + NOISE[j][s],
            "log_z": 300.0,
            "log_z_stderr": 0.1,
            "replicate_ess": [50.0] * 5,
            "ais_runs": 100,
            "ais_settings": AIS_SETTINGS,
        }
        for j, (a, b) in enumerate(bounds.items())
        for s in range(3)
    ]
    curves = pd.DataFrame(
        [
            {
                "algorithm": a,
                "repeat": s,
                "update": u,
                "train_bound": bounds[a] + (0.5 if a == "SAP" else 0.1) * (-1) ** i,
            }
            for a in bounds
            for s in range(3)
            for i, u in enumerate(range(0, 900, 100))
        ]
    )
    exact = {
        "shape": [64, 8, 8],
        "n_updates": 100,
        "log_z_exact": 10.0,
        "mean_exact_test_ll": -40.0,
        "mean_test_bound": -41.0,
        "max_bound_minus_ll": -0.1,
        "ais_betas": 1000,
        "ais_runs": 50,
        "ais_schedule": AIS_SETTINGS["schedule"],
        "ais_settings": AIS_SETTINGS,
        "replicates": [
            {"replicate": i, "error": e, "ess": 40.0, "stderr": 0.02, "delta_stderr": 0.02}
            for i, e in enumerate(ais_errors)
        ],
        "replicates_grouped": {
            "pool": 5,
            "n_runs": 250,
            "n_groups": len(pool_errors),
            "errors": list(pool_errors),
            "error": np.mean(pool_errors),
            "stderr": np.std(pool_errors, ddof=1) / 2,
        },
    }
    sampling = {
        "k_trace": list(np.arange(1000) % 20) if k_trace is None else list(k_trace),
        "n_betas": 20,
        "classify_every": 10,
        "gibbs_switches": [9, 9, 9, 9],
        "ast_switches": [0, 0, 0, 0],
        "gibbs_column_switches": list(gibbs_switches),
        "ast_column_switches": list(ast_switches),
    }
    return {
        "fig2": fig2,
        "fig2_runs": runs,
        "fig2_occupation": occ,
        "finals": finals,
        "curves": curves,
        "exact_check": exact,
        "sampling": sampling,
    }


def decided(profile="default", **kw):
    return {c.claim.id.split("/", 1)[1]: c for c in evaluate(claims({}), Results(tables(**kw), profile=profile))}


def test_the_spec_claims_are_declared_with_their_kinds():
    kinds = {c.id: c.kind for c in claims({})}
    assert kinds == {
        **{
            f"salakhutdinov2010/fig2/{n}": "one-sided"
            for n in ("wang_landau_visits_all", "gibbs_stays", "fpcd_stays_in_data_mode")
        },
        "salakhutdinov2010/fig2/wang_landau_balanced": "all-of",
        "salakhutdinov2010/table1/ais_calibration": "interval",
        **{
            f"salakhutdinov2010/table1/{n}": "ordering"
            for n in (
                "fpcd_beats_sap",
                "transsap_beats_sap",
                "cast_beats_sap",
                "cast_beats_fpcd",
                "cast_beats_transsap",
            )
        },
        **{f"salakhutdinov2010/table1/table1_{a}": "interval" for a in ("sap", "fpcd", "transsap", "cast")},
        "salakhutdinov2010/table1/tempering_helps_cast": "ordering",
        "salakhutdinov2010/fig4/cast_more_stable_than_sap": "ordering",
        "salakhutdinov2010/fig4/adaptive_st_visits_all_levels": "one-sided",
        "salakhutdinov2010/fig4/adaptive_st_switches_class_more": "ordering",
    }
    texts = {c.id.rsplit("/", 1)[1]: c.statement for c in claims({})}
    assert texts["gibbs_stays"].endswith("within 100 updates < 0.1")
    assert texts["table1_cast"] == "CAST test bound on MNIST within -84.12 +- 2 nats"


def test_single_runs_give_the_estimates_with_n_1_and_seeds_give_n_3():
    d = decided()
    for name in ("fig2/wang_landau_visits_all", "fig2/fpcd_stays_in_data_mode", "fig4/adaptive_st_visits_all_levels"):
        assert (d[name].estimate.value, d[name].estimate.n) == (1.0, 1) and d[name].verdict == INCONCLUSIVE
    assert (d["fig2/gibbs_stays"].estimate.value, d["fig2/gibbs_stays"].estimate.n) == (0.0, 1)
    cast = d["table1/cast_beats_sap"]
    assert cast.estimate.value == pytest.approx(2.0) and cast.estimate.n == 3 and cast.verdict == REPRODUCED
    assert "trained for 800 updates" in cast.details
    assert d["table1/fpcd_beats_sap"].estimate.value == pytest.approx(0.5)
    assert d["table1/table1_sap"].verdict == NOT_RUN  # a paper-profile claim in the default profile
    assert d["fig2/wang_landau_balanced"].verdict == INCONCLUSIVE and len(d["fig2/wang_landau_balanced"].parts) == 4


def test_toy_claims_are_proportions_over_runs():
    t = tables()
    t["fig2_runs"] = pd.DataFrame(
        {
            "run": range(200),
            "n_updates": 100,
            "wang_landau_partitions": [4] * 190 + [3] * 10,
            "gibbs_left_start": [True] * 3 + [False] * 197,
            "fpcd_data_tail": [100] * 150 + [10] * 50,
        }
    )
    t["fig2_occupation"] = pd.DataFrame(
        {"run": np.repeat(range(10), 4), "partition": np.tile([1, 2, 3, 4], 10), "fraction": 0.25}
    )
    d = {c.claim.id.split("/", 1)[1]: c for c in evaluate(claims({}), Results(t, profile="default"))}
    assert (d["fig2/wang_landau_visits_all"].estimate.value, d["fig2/wang_landau_visits_all"].estimate.n) == (0.95, 200)
    assert d["fig2/gibbs_stays"].estimate.value == pytest.approx(0.015) and d["fig2/gibbs_stays"].verdict == REPRODUCED
    assert d["fig2/fpcd_stays_in_data_mode"].estimate.value == 0.75
    bal = d["fig2/wang_landau_balanced"]
    assert bal.verdict == REPRODUCED and all(est.n == 10 for _, est, *_ in bal.parts)


def test_toy_failures_are_visible_in_the_estimates():
    d = decided(wl=(4, 3), gibbs_leaves=True, fpcd_end=4, occupation=(0.5, 0.1, 0.2, 0.2))
    assert d["fig2/wang_landau_visits_all"].estimate.value == 0.0
    assert d["fig2/gibbs_stays"].estimate.value == 1.0
    assert d["fig2/fpcd_stays_in_data_mode"].estimate.value == 0.0
    parts = {label: est.value for label, est, *_ in d["fig2/wang_landau_balanced"].parts}
    assert parts == {"X1": 0.5, "X2": 0.1, "X3": 0.2, "X4": 0.2}


def test_orderings_are_paired_over_seeds():
    """The seeds' common shift cancels in the paired difference: s.e. from the algorithm-specific part only."""
    d = decided()
    row = d["table1/cast_beats_sap"]
    diffs = [NOISE[3][s] - NOISE[0][s] for s in range(3)]
    assert row.estimate.n == 3 and row.estimate.value == pytest.approx(2.0)
    assert row.estimate.std_error == pytest.approx(np.std(diffs, ddof=1) / np.sqrt(3))
    assert row.verdict == REPRODUCED


def test_a_missing_algorithm_is_not_run_and_paper_claims_decide_in_the_paper_profile():
    d = decided(bounds={"SAP": -90.0, "CAST": -85.0})
    assert d["table1/fpcd_beats_sap"].verdict == NOT_RUN and "FPCD" in d["table1/fpcd_beats_sap"].details
    p = decided(profile="paper")
    cast = p["table1/table1_cast"]  # -88.00 +- 0.21 over 3 seeds: -88 + 4.30 * 0.21 < -84.12 - 2
    assert cast.estimate.value == pytest.approx(-88.0) and cast.verdict == NOT_REPRODUCED
    stable = p["fig4/cast_more_stable_than_sap"]  # SAP swings by 0.5, CAST by 0.1: the last 3 of 9 checkpoints
    assert stable.estimate.value == pytest.approx(np.std([0.1, -0.1, 0.1], ddof=1) - np.std([0.5, -0.5, 0.5], ddof=1))


def _tempering_tables(shares, reached):
    """CAST's records as the cast_tempering job tabulates them: 20 windows of 50 updates, 50 fast chains."""
    K, W = len(shares), 20
    rec = {
        "window_end": np.arange(1, W + 1) * 50,
        "occupancy": np.tile(np.round(np.asarray(shares) * 50 * 50).astype(int), (W, 1)),
        "log_weights": np.zeros((W, K)),
        "betas": np.linspace(1, 0.9, K),
        "swap_update": np.arange(1, W + 1) * 50,
        "swap_reached_min": np.full(W, reached),
        "swap_swapped": np.full(W, 20),
    }
    return {"cast_occupancy": occupancy_table(rec, 0), "cast_swaps": swap_table(rec, 0, 50)}


def test_the_control_and_the_cast_rows_carry_the_tempering_records_and_the_deciding_seeds():
    """tempering_helps_cast is CAST minus SAP-50 paired over seeds; CAST rows show the fast chains' occupancy."""
    bounds = {"SAP": -90.0, "FPCD": -89.5, "Trans-SAP": -89.0, "CAST": -88.0, "SAP-50": -88.05}
    shares = np.r_[np.full(19, 0.05), 0.05]
    t = {**tables(bounds=bounds), **_tempering_tables(shares, reached=30)}
    row = {c.claim.id.split("/", 1)[1]: c for c in evaluate(claims({}), Results(t, profile="default"))}
    ctl = row["table1/tempering_helps_cast"]
    diffs = [-88.0 + NOISE[3][s] - (-88.05 + NOISE[4][s]) for s in range(3)]
    assert ctl.estimate.value == pytest.approx(np.mean(diffs)) and ctl.estimate.n == 3
    assert ctl.verdict == INCONCLUSIVE
    assert f"{ctl.needed_repeats} paired seeds decide it" in ctl.details  # the seeds that would decide it
    assert "trained for 800 updates (paper: 200000" in ctl.details and "early phase" in ctl.details
    for name in ("table1/tempering_helps_cast", "table1/cast_beats_sap"):
        assert "level shares 0.050-0.050 over updates 501-1000 (all 20 in [0.025, 0.1]: yes)" in row[name].details
        assert "beta_min between swaps median 60%" in row[name].details
    assert "level shares" not in row["table1/fpcd_beats_sap"].details
    skewed = {**t, **_tempering_tables(np.r_[np.full(19, 0.045), 0.145], reached=10)}
    row = {c.claim.id: c for c in evaluate(claims({}), Results(skewed, profile="default"))}
    assert "(all 20 in [0.025, 0.1]: NO)" in row["salakhutdinov2010/table1/cast_beats_sap"].details


def test_the_cast_rows_compare_with_and_without_swapping():
    """The CAST rows' details give the seeds trained without swaps too (cast_swap_comparison), when run."""
    shares = np.full(20, 0.05)
    t = {**tables(), **_tempering_tables(shares, reached=30)}
    noswap = _tempering_tables(np.r_[np.full(19, 0.04), 0.24], reached=0)["cast_occupancy"]
    noswap["log_weight"] = -0.25 * (noswap["level"] - 1)  # log g_20 - log g_1 = -4.75 without swaps
    t["cast_swap_comparison"] = swap_comparison(t["cast_occupancy"], noswap)
    row = {c.claim.id: c for c in evaluate(claims({}), Results(t, profile="default"))}
    details = row["salakhutdinov2010/table1/cast_beats_sap"].details
    assert "seed 0 without swapping (CAST-noswap, same streams): level shares 0.040-0.240" in details
    assert "log g_20 - log g_1 at the end 0.0 nats with swaps, -4.8 without" in details
    t["cast_swap_comparison"] = t["cast_swap_comparison"].iloc[:0]  # cast_noswap_seeds: 0
    row = {c.claim.id: c for c in evaluate(claims({}), Results(t, profile="default"))}
    assert "without swapping" not in row["salakhutdinov2010/table1/cast_beats_sap"].details


def test_adaptive_st_claims_read_the_sampling_summary():
    d = decided(k_trace=np.arange(1000) % 19)
    assert d["fig4/adaptive_st_visits_all_levels"].estimate.value == 0.0
    t = tables()  # 50 particles, 40 of which visit all 20 levels: a proportion over particles
    t["sampling"]["k_traces"] = [list(np.arange(1000) % (20 if i < 40 else 19)) for i in range(50)]
    t["sampling"]["classifier_test_accuracy"] = 0.916
    row = {c.claim.id.split("/", 1)[1]: c for c in evaluate(claims({}), Results(t, profile="default"))}
    visits = row["fig4/adaptive_st_visits_all_levels"]
    assert (visits.estimate.value, visits.estimate.n, visits.verdict) == (0.8, 50, REPRODUCED)
    assert "test accuracy 91.6% (spec: >= 90%)" in row["fig4/adaptive_st_switches_class_more"].details
    sw = d["fig4/adaptive_st_switches_class_more"]  # the column switches (the figure's spacing), 4 chains each
    assert sw.estimate.value == pytest.approx(3.5 - 0.25) and sw.estimate.n == 4 and sw.verdict == REPRODUCED
    assert "classes read at the figure's columns" in sw.details


def test_a_small_ais_ess_is_flagged_in_the_ordering_details():
    t = tables()
    for f in t["finals"]:
        if f["algorithm"] == "CAST":
            f["replicate_ess"] = [3.0] * 5
    row = {c.claim.id: c for c in evaluate(claims({}), Results(t, profile="default"))}
    details = row["salakhutdinov2010/table1/cast_beats_sap"].details
    assert "CAST -88.00 ± " in details and "over 3 seed(s)" in details and "AIS ESS 3.0 of 100 runs" in details
    assert "understate" in details and "3 paired seed(s)" in details
    assert "understate" not in row["salakhutdinov2010/table1/fpcd_beats_sap"].details


def test_the_calibration_is_not_run_when_table1_used_another_ais():
    """The calibration judges Table 1's instrument: a final evaluated with other AIS settings leaves it not run."""
    assert decided()["table1/ais_calibration"].verdict != NOT_RUN
    t = tables()
    t["finals"][2] = {**t["finals"][2], "ais_settings": {**AIS_SETTINGS, "n_betas": 2000}}
    row = {c.claim.id: c for c in evaluate(claims({}), Results(t, profile="default"))}
    res = row["salakhutdinov2010/table1/ais_calibration"]
    assert res.verdict == NOT_RUN and "Table 1 used others" in res.details
    assert "SAP seed 2" in res.details


def test_the_orderings_show_the_ladder_check():
    t = tables()
    t["ladder_check"] = pd.DataFrame(
        [
            {"algorithm": a, "repeat": 0, "n_betas": 1000, "n_betas_long": 5000, "log_z": 300.0,
             "log_z_long": 300.0 + shift, "long_minus_profile": shift}
            for a, shift in (("SAP", 0.5), ("FPCD", 0.1), ("Trans-SAP", 0.2), ("CAST", 1.0))
        ]
    )  # fmt: skip
    row = {c.claim.id: c for c in evaluate(claims({}), Results(t, profile="default"))}
    d = row["salakhutdinov2010/table1/cast_beats_sap"].details
    assert "ladder check (seed 0, one AIS replicate each, log Z at 1000 -> 5000 betas)" in d
    assert "CAST 300.00 -> 301.00 (+1.00), SAP 300.00 -> 300.50 (+0.50)" in d
    assert "the CAST - SAP gap in test bound would move by -0.50" in d
    d = {c.claim.id: c for c in evaluate(claims({}), Results(t, profile="paper"))}[
        "salakhutdinov2010/table1/table1_sap"
    ]
    assert (
        "ladder check (seed 0, one AIS replicate, log Z at 1000 -> 5000 betas): SAP 300.00 -> 300.50 (+0.50); "
        "its test bound would move by -0.50" in d.details
    )  # each Table 1 row states its own (issue 51)


def _one_seed(t, perchain=None):
    """``t`` cut to seed 0 (the schedule evidence run), each final with its own AIS and test-set errors."""
    t["finals"] = [
        {**f, "n_replicates": 5, "test_bound_stderr": 0.5, "test_sampling_stderr": 0.3, "log_z_stderr": 0.4}
        for f in t["finals"]
        if f["repeat"] == 0
    ]
    if perchain is not None:
        cast = next(f for f in t["finals"] if f["algorithm"] == "CAST")
        t["finals"].append({**cast, "algorithm": "CAST-perchain", "test_bound": cast["test_bound"] + perchain})
    t["curves"] = t["curves"][t["curves"]["repeat"] == 0]
    return t


def test_the_schedule_run_decides_table1_from_one_model_and_keeps_the_orderings_inconclusive():
    """One seed at the paper's schedule (profile "schedule"): each table1 row is decided from that model's own
    error (AIS replicates and test sampling, n = 5 replicates), the paper-profile claims are run, and the
    orderings and cast_more_stable_than_sap state their numbers but stay inconclusive (one seed)."""
    t = _one_seed(tables(bounds={"SAP": -87.0, "FPCD": -95.0, "Trans-SAP": -85.0, "CAST": -84.6}))
    p = {c.claim.id.split("/", 1)[1]: c for c in evaluate(claims({}), Results(t, profile="schedule"))}
    sap = p["table1/table1_sap"]
    # seed 0 shifts every bound by COMMON[0] = -0.3 plus NOISE: SAP -87.0 - 0.3 + 0.1 = -87.2, s.e. 0.5, k(5) 2.78
    assert (sap.verdict, sap.estimate.n) == (REPRODUCED, 5) and sap.estimate.value == pytest.approx(-87.2)
    assert sap.estimate.std_error == 0.5 and "one seed: this judges the seed-0 model" in sap.details
    assert p["table1/table1_fpcd"].verdict == NOT_REPRODUCED  # -95.4 +- 1.4 lies below -88.72
    assert p["table1/table1_cast"].verdict == INCONCLUSIVE  # -84.9: within 2 nats, but its 2.78 s.e. reaches -86.29
    for name in ("table1/cast_beats_sap", "fig4/cast_more_stable_than_sap"):
        assert p[name].verdict == INCONCLUSIVE and p[name].estimate.n == 1 and p[name].needed_repeats == 3
    assert "mean sd CAST 0.115, SAP 0.577" in p["fig4/cast_more_stable_than_sap"].details
    # in the default profile the paper's Table 1 rows stay not run
    assert decided()["table1/table1_sap"].verdict == NOT_RUN


def test_cast_perchain_is_reported_beside_cast_without_a_verdict_of_its_own():
    t = _one_seed(tables(), perchain=-1.5)
    p = {c.claim.id.split("/", 1)[1]: c for c in evaluate(claims({}), Results(t, profile="schedule"))}
    assert not [k for k in p if "perchain" in k]  # no claim of its own
    d = p["table1/table1_cast"].details
    assert "CAST with one Wang-Landau vector per fast chain" in d
    assert "CAST-perchain minus CAST -1.50 ± 0.71 nats over 1 seed(s) (one seed: the two models' own errors)" in d
    assert "CAST-perchain" not in p["table1/table1_sap"].details
    # its fast chains' level shares are stated beside it (issue 51: both variants against the band)
    t.update({k.replace("cast", "cast_perchain"): v for k, v in _tempering_tables([0.2] + [0.8 / 19] * 19, 10).items()})
    d = [c for c in evaluate(claims({}), Results(t, profile="schedule")) if c.claim.id.endswith("table1_cast")][0]
    assert (
        "CAST-perchain minus CAST -1.50 ± 0.71 nats over 1 seed(s) (one seed: the two models' own errors); its "
        "fast chains (one Wang-Landau vector each), second half of training: seed 0: level shares 0.042-0.200"
        in d.details
    )
    assert "(all 20 in [0.025, 0.1]: NO)" in d.details.split("CAST-perchain minus")[1]
