"""Claims of Brügge et al. (2013) on small constructed result tables: estimates and verdicts."""

import math

import numpy as np
import pandas as pd
import pytest

from bmrep.claims.core import Results, evaluate
from bmrep.papers.bruegge2013.claims import claims, rbm_median_first_change

SETTINGS = {"learning": {"k": 5}}


def slem_table(f2, f4, n=20, err=0.0):
    """Fig. 3 fractions: ``f2``/``f4`` map c to the 2x2 / 4x4 fraction."""
    rows = [
        {"size": s, "c": c, "fraction_T_better": f, "n_rbms": n, "max_stationarity_error": err}
        for s, fr in ((2, f2), (4, f4))
        for c, f in fr.items()
    ]
    return pd.DataFrame(rows)


def learning_runs(diffs):
    """learning_runs.csv: ``diffs`` maps (benchmark, algorithm, lr) to per-repeat T - G differences."""
    rows = []
    for (bench, alg, lr), d in diffs.items():
        for r, x in enumerate(d):
            base = -10.0 - r
            rows += [
                {
                    "benchmark": bench,
                    "algorithm": alg,
                    "lr": lr,
                    "operator": "G",
                    "repeat": r,
                    "max_ll": base,
                    "n_updates": 100,
                },
                {
                    "benchmark": bench,
                    "algorithm": alg,
                    "lr": lr,
                    "operator": "T",
                    "repeat": r,
                    "max_ll": base + x,
                    "n_updates": 100,
                },
            ]
    return pd.DataFrame(rows)


def autocorr_chains(taus):
    """autocorr_chains.csv: ``taus`` maps a benchmark to per-RBM (tau_G, tau_T), two equal chains each."""
    rows = [
        {"benchmark": b, "repeat": r, "chain": ch, "tau_ar_G": g, "tau_ar_T": t, "tau_int_G": g, "tau_int_T": t}
        for b, per in taus.items()
        for r, (g, t) in enumerate(per)
        for ch in range(2)
    ]
    return pd.DataFrame(rows)


def class_shard(changes_G, changes_T, first_G, first_T):
    return {
        "repeat": np.arange(len(changes_G)),
        "changes_G": np.asarray(changes_G),
        "changes_T": np.asarray(changes_T),
        "first_G": np.asarray(first_G, float),
        "first_T": np.asarray(first_T, float),
    }


def results(profile="default", **over):
    tables = {
        "slem": slem_table({1: 0.0, 5: 0.2, 10: 0.4}, {1: 0.0, 5: 0.9, 10: 1.0}),
        "learning_runs": learning_runs(
            {
                ("bas", "cd", 0.05): [0.5, 0.6, 0.4, 0.5],
                ("bas", "pt", 0.05): [0.1, 0.2, 0.1, 0.3],
                ("mnist", "cd", 0.05): [-1.0, -1.0, -1.0, -1.0],
            }
        ),
        "autocorr_chains": autocorr_chains(
            {"bas": [(10.0, 8.0), (12.0, 9.0), (11.0, 9.5)], "mnist500": [(10.0, 8.0), (10.0, 8.5), (10.0, 8.2)]}
        ),
        "table4": pd.DataFrame({"max_steps": [100, 100]}),
        # two shards of modes_0p1 (paired over 4 RBMs); modes_0p01 not run
        "classes_modes_0p1": [
            class_shard([1, 2], [5, 6], [[3, 4, np.nan], [5, np.inf, 7]], [[1, 1, 1], [2, 2, np.nan]]),
            class_shard([3, 1], [4, 4], [[9, 9, 9], [np.inf, np.inf, np.inf]], [[2, 3, 4], [np.inf, 1, 1]]),
        ],
    }
    tables.update(over)
    return Results(tables, settings=SETTINGS, profile=profile)


def decided(profile="default", **over):
    return {d.claim.id.split("/", 1)[1]: d for d in evaluate(claims(SETTINGS), results(profile, **over))}


def test_ids_kinds_and_generated_texts_follow_the_spec():
    cs = {c.id: c for c in claims(SETTINGS)}
    assert len(cs) == 14
    assert cs["bruegge2013/fig3_slem/stationary"].kind == "exact"
    assert cs["bruegge2013/table2/mnist500_gain"].decided_in == "paper"
    assert cs["bruegge2013/table2/mnist500_gain"].statement.endswith("in [10, 25] %")
    assert "> 0.5" in cs["bruegge2013/fig3_slem/4x4_fraction_rises"].statement
    assert "CD-5, lr 0.05" in cs["bruegge2013/table1/bars_stripes_cd5_t_beats_g"].statement
    assert {f"bruegge2013/table2/{b}_gain_positive" for b in ("bas", "modes_0p1", "modes_0p01", "mnist")} <= set(cs)
    assert {"bruegge2013/table3/table3_0.1_t_more_changes", "bruegge2013/table4/table4_0.01_t_changes_sooner"} <= set(
        cs
    )


def test_fig3_slem_claims():
    d = decided()
    assert d["fig3_slem/stationary"].verdict == "reproduced"
    # 2e-12 > 1e-12: an exact claim fails on the value alone
    bad = decided(slem=slem_table({1: 0.0}, {1: 0.0, 10: 1.0}, err=2e-12))
    assert bad["fig3_slem/stationary"].verdict == "not reproduced"
    e = d["fig3_slem/4x4_fraction_rises"].estimate
    assert e.value == pytest.approx(1.0) and e.std_error == 0.0 and e.n == 20
    assert d["fig3_slem/4x4_fraction_rises"].verdict == "reproduced"  # s = 0 with n >= 2: decided by d
    e = d["fig3_slem/larger_rbms_gain_more"].estimate
    assert e.value == pytest.approx(0.95 - 0.3)
    se = math.sqrt((0.9 * 0.1 / 20 + 0) / 4 + (0.2 * 0.8 / 20 + 0.4 * 0.6 / 20) / 4)
    assert e.std_error == pytest.approx(se) and e.n == 40
    assert d["fig3_slem/larger_rbms_gain_more"].verdict == "reproduced"
    # without c = 10 the rise is not run
    assert (
        decided(slem=slem_table({1: 0.0, 5: 0.1}, {1: 0.0, 5: 0.9}))["fig3_slem/4x4_fraction_rises"].verdict
        == "not run"
    )


def test_table1_claims():
    d = decided()
    e = d["table1/bars_stripes_cd5_t_beats_g"].estimate
    assert e.value == pytest.approx(0.5) and e.n == 4
    assert e.std_error == pytest.approx(np.std([0.5, 0.6, 0.4, 0.5], ddof=1) / 2)
    assert d["table1/bars_stripes_cd5_t_beats_g"].verdict == "reproduced"
    p = d["table1/t_better_in_most_settings"].estimate
    assert (p.value, p.n, p.successes) == (pytest.approx(2 / 3), 3, 2)
    assert d["table1/t_better_in_most_settings"].verdict == "inconclusive"  # Wilson interval of 2/3 spans 0.5
    # bas cd (0.5 +- 0.04) and bas pt (0.175 +- 0.048) are beyond 2 s.e. for T, mnist cd (-1, s.e. 0) for G
    assert "over >= 4 repeats: T ahead in 2, G ahead in 1, 0 within" in p.details
    assert "bas: T ahead in 2 of 2, " in p.details and "mnist: T ahead in 0 of 1, " in p.details  # per benchmark
    other_k = evaluate(
        claims({"learning": {"k": 1}}), Results(dict(results()), settings={"learning": {"k": 1}}, profile="default")
    )
    assert {c.claim.id: c.verdict for c in other_k}["bruegge2013/table1/bars_stripes_cd5_t_beats_g"] == "not run"


def test_table2_claims_over_rbms():
    d = decided()
    e = d["table2/bas_gain_positive"].estimate
    gains = 100 * (1 - np.array([8 / 10, 9 / 12, 9.5 / 11]))
    assert e.value == pytest.approx(gains.mean()) and e.n == 3
    assert e.std_error == pytest.approx(gains.std(ddof=1) / math.sqrt(3))
    assert d["table2/bas_gain_positive"].verdict == "reproduced"
    assert d["table2/mnist_gain_positive"].verdict == "not run"  # benchmark absent
    assert d["table2/mnist500_gain"].verdict == "not run"  # paper profile only
    p = decided("paper")["table2/mnist500_gain"]
    assert p.estimate.value == pytest.approx(100 * (1 - np.mean([0.8, 0.85, 0.82])))
    assert p.verdict == "reproduced"  # 18 +- 1.5 %, k(3) s well inside [10, 25]


def test_tables34_claims_paired_over_rbms():
    d = decided()
    e = d["table3/table3_0.1_t_more_changes"].estimate
    assert e.value == pytest.approx(np.mean([4, 4, 1, 3])) and e.n == 4
    assert d["table3/table3_0.01_t_more_changes"].verdict == "not run"
    # per-RBM medians, inf capped at max_steps = 100, NaN dropped
    g = [3.5, 7.0, 9.0, 100.0]
    t = [1.0, 2.0, 3.0, 1.0]
    e = d["table4/table4_0.1_t_changes_sooner"].estimate
    assert e.value == pytest.approx(np.mean(np.subtract(t, g))) and e.n == 4
    assert "censored at 100 steps" in e.details


def test_rbm_median_first_change():
    med = rbm_median_first_change(np.array([[1.0, np.inf, np.inf], [np.nan, 4.0, 2.0], [np.nan, np.nan, np.nan]]), 50)
    np.testing.assert_array_equal(med[:2], [50.0, 3.0])
    assert np.isnan(med[2])
