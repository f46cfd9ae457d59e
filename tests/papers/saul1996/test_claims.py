"""saul1996 claims (spec section 1) on small constructed result tables: estimates and verdicts."""

import math

import numpy as np
import pandas as pd
import pytest

from bmrep.claims.core import Results, evaluate
from bmrep.claims.verdict import INCONCLUSIVE, NOT_REPRODUCED, REPRODUCED
from bmrep.papers.saul1996.claims import claims
from bmrep.papers.saul1996.fig2 import fig2_curve, fig2_table


def _fig5_shards(mf, uniform, gap):
    """Two shards of per-network arrays with the given relative errors and L_V - ln P(V)."""
    mf, uniform, gap = (np.asarray(x, float) for x in (mf, uniform, gap))
    exact = np.full(mf.size, -4.0)
    bound = exact + gap
    arrays = {
        "index": np.arange(mf.size),
        "exact": exact,
        "bound": bound,
        "mf_relative_error": mf,
        "uniform_relative_error": uniform,
        "n_sweeps": np.ones(mf.size, dtype=np.int64),
    }
    half = mf.size // 2
    return [{k: v[:half] for k, v in arrays.items()}, {k: v[half:] for k, v in arrays.items()}]


def _table2(mf, nn):
    """Table 2 rows of one dataset, one (mean field, nearest neighbour) pair per split."""
    rows = [
        {"algorithm": a, "error_rate": e}
        for m, n in zip(mf, nn, strict=True)
        for a, e in (("nearest neighbour", n), ("mean field", m))
    ]
    return pd.DataFrame(rows)


def _results(fig2=None, mf=None, uniform=None, gap=None, mf_err=(0.05,), nn_err=(0.07,)):
    mf = np.full(400, 0.016) if mf is None else np.asarray(mf, float)
    n = mf.size
    uniform = np.full(n, 0.226) if uniform is None else uniform
    gap = np.full(n, -1e-3) if gap is None else gap
    if fig2 is None:
        fig2 = fig2_table(*fig2_curve(np.linspace(0, 1, 5)))
    tables = {
        "fig2": fig2,
        "fig5_networks": _fig5_shards(mf, uniform, gap),
        "table2_toy": _table2(mf_err, nn_err),
        "table3_toy": pd.DataFrame({"digit": ["0", "all"], "score": [-0.4, -0.5]}),
    }
    return Results(tables, settings={"datasets": ["toy"]}, profile="default")


def _decided(results):
    return {d.claim.id: d for d in evaluate(claims(results.settings), results)}


def test_claim_ids_follow_the_spec():
    ids = [c.id for c in claims({"datasets": ["usps8", "mnist8"]})]
    assert ids == [
        "saul1996/fig2/exact_value", "saul1996/fig2/bound_minimum", "saul1996/fig2/bound_at_zero",
        "saul1996/fig5/mf_mean_error", "saul1996/fig5/uniform_rms_error", "saul1996/fig5/bound_holds",
        "saul1996/table2/usps8/mf_beats_nearest_neighbour", "saul1996/table2/usps8/mf_error_below_8pct",
        "saul1996/table2/mnist8/mf_beats_nearest_neighbour", "saul1996/table2/mnist8/mf_error_below_8pct",
    ]  # fmt: skip


def test_fig2_exact_claims_on_our_numbers_and_a_wrong_one():
    d = _decided(_results())
    names = ("exact_value", "bound_minimum", "bound_at_zero")
    assert [d[f"saul1996/fig2/{k}"].verdict for k in names] == [REPRODUCED] * 3
    fig2 = fig2_table(*fig2_curve(np.linspace(0, 1, 5)))
    fig2.loc[fig2["quantity"] == "min_bound", "value"] = 0.8195  # 0.820 to 3 decimals
    d = _decided(_results(fig2=fig2))
    assert d["saul1996/fig2/bound_minimum"].verdict == NOT_REPRODUCED
    assert d["saul1996/fig2/bound_minimum"].estimate.value == 0.8195
    assert d["saul1996/fig2/exact_value"].verdict == REPRODUCED


def test_fig5_mean_error_is_a_mean_over_networks_in_percent():
    rng = np.random.default_rng(0)
    mf = 0.016 + 0.001 * rng.standard_normal(400)
    est = _decided(_results(mf=mf))["saul1996/fig5/mf_mean_error"]
    assert est.estimate.value == pytest.approx(100 * mf.mean())
    assert est.estimate.std_error == pytest.approx(100 * mf.std(ddof=1) / math.sqrt(400))
    assert est.estimate.n == 400 and est.verdict == REPRODUCED
    far = _decided(_results(mf=mf + 0.01))["saul1996/fig5/mf_mean_error"]  # 2.6% is outside [1.2, 2.0]%
    assert far.verdict == NOT_REPRODUCED
    wide = _decided(_results(mf=[0.0, 0.036, 0.0, 0.036]))["saul1996/fig5/mf_mean_error"]
    assert wide.verdict == INCONCLUSIVE  # 4 networks with mean 1.8% and a large spread


def test_fig5_uniform_rms_error_with_delta_method_error():
    rng = np.random.default_rng(1)
    un = rng.choice([-1.0, 1.0], 400) * (0.226 + 0.01 * rng.standard_normal(400))
    est = _decided(_results(uniform=un))["saul1996/fig5/uniform_rms_error"]
    e2 = (100 * un) ** 2
    rms = math.sqrt(e2.mean())
    assert est.estimate.value == pytest.approx(100 * math.sqrt(np.mean(un**2)))
    assert est.estimate.std_error == pytest.approx(e2.std(ddof=1) / math.sqrt(400) / (2 * rms))
    assert est.verdict == REPRODUCED
    assert _decided(_results(uniform=1.2 * un))["saul1996/fig5/uniform_rms_error"].verdict == NOT_REPRODUCED


def test_fig5_bound_holds_is_exact_on_the_largest_gap():
    gap = np.full(400, -1e-3)
    assert _decided(_results(gap=gap))["saul1996/fig5/bound_holds"].verdict == REPRODUCED
    gap[123] = 1e-6
    bad = _decided(_results(gap=gap))["saul1996/fig5/bound_holds"]
    assert bad.verdict == NOT_REPRODUCED and bad.estimate.value == pytest.approx(1e-6)


def test_table_claims_with_one_split_are_inconclusive():
    d = _decided(_results(mf_err=(0.05,), nn_err=(0.07,)))
    order = d["saul1996/table2/toy/mf_beats_nearest_neighbour"]
    assert order.estimate.value == pytest.approx(-2.0) and order.estimate.n == 1
    assert order.verdict == INCONCLUSIVE and order.needed_repeats == 3
    below = d["saul1996/table2/toy/mf_error_below_8pct"]
    assert below.estimate.value == pytest.approx(5.0) and below.verdict == INCONCLUSIVE
    assert "-0.500" in below.details and "-0.511" in below.details


def test_table_claims_are_paired_over_splits():
    mf, nn = (0.040, 0.050, 0.045), (0.060, 0.065, 0.070)
    d = _decided(_results(mf_err=mf, nn_err=nn))
    order = d["saul1996/table2/toy/mf_beats_nearest_neighbour"]
    diff = 100 * (np.array(mf) - np.array(nn))
    assert order.estimate.value == pytest.approx(diff.mean())
    assert order.estimate.std_error == pytest.approx(diff.std(ddof=1) / math.sqrt(3))
    assert order.verdict == REPRODUCED
    assert d["saul1996/table2/toy/mf_error_below_8pct"].verdict == REPRODUCED
    worse = _decided(_results(mf_err=(0.10, 0.11, 0.12), nn_err=nn))
    assert worse["saul1996/table2/toy/mf_beats_nearest_neighbour"].verdict == NOT_REPRODUCED
    assert worse["saul1996/table2/toy/mf_error_below_8pct"].verdict == NOT_REPRODUCED


def test_table_claims_on_five_splits_paired_estimate_and_verdicts():
    """Five splits as the default profile runs: the MF - NN difference is paired, s over split differences."""
    mf = np.array([0.046, 0.052, 0.041, 0.049, 0.044])
    nn = np.array([0.065, 0.070, 0.061, 0.072, 0.066])  # each split's NN error moves with its MF error
    d = _decided(_results(mf_err=mf, nn_err=nn))
    order = d["saul1996/table2/toy/mf_beats_nearest_neighbour"]
    diff = 100 * (mf - nn)
    assert order.estimate.n == 5
    assert order.estimate.value == pytest.approx(diff.mean())
    assert order.estimate.std_error == pytest.approx(diff.std(ddof=1) / math.sqrt(5))
    # paired, not independent: the unpaired s would be larger than the paired one here
    unpaired = math.sqrt((100 * mf).var(ddof=1) / 5 + (100 * nn).var(ddof=1) / 5)
    assert order.estimate.std_error < unpaired
    assert order.verdict == REPRODUCED  # -2.04 +- 0.26 %, k(5) = 2.78
    below = d["saul1996/table2/toy/mf_error_below_8pct"]
    assert below.estimate.value == pytest.approx(100 * mf.mean()) and below.estimate.n == 5
    assert below.estimate.std_error == pytest.approx(100 * mf.std(ddof=1) / math.sqrt(5))
    assert below.verdict == REPRODUCED and "5 split(s)" in below.details
    # MF near 8% with a wide spread over five splits: one-sided claim undecided, needs more splits
    near = _decided(_results(mf_err=(0.06, 0.10, 0.07, 0.09, 0.075), nn_err=nn))
    undecided = near["saul1996/table2/toy/mf_error_below_8pct"]
    assert undecided.verdict == INCONCLUSIVE and undecided.needed_repeats > 5


def test_claim_text_carries_the_threshold_once():
    for c in claims({"datasets": ["toy"]}):
        assert "{" not in c.statement
        assert c.threshold.fields()["threshold"] in c.statement
