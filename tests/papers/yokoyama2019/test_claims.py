"""Claims of Yokoyama et al. (2019) (bmrep.papers.yokoyama2019.claims) on constructed result tables.

The tables go through CSV and ``bmrep.io.load_tables`` as in the claims
rule, so the s column arrives as the pipeline's reader gives it.
"""

import math

import numpy as np
import pandas as pd
import pytest

from bmrep.claims.core import Results, evaluate
from bmrep.io import load_tables
from bmrep.papers.yokoyama2019.claims import PAPER_W_STAR, claims

FULL = [1, 2, 4, "inf"]
KLD = {"1": 0.30, "2": 0.25, "4": 0.22, "inf": 0.20}  # decreasing in s, as the paper's Fig. 2b
LOGLIK = {"1": -0.50, "2": -0.52, "4": -0.53, "inf": -0.55}
TRAIN = {"1": 0.00, "inf": 0.02}  # s = inf: higher training error ...
TEST = {"1": 0.40, "inf": 0.35}  # ... and lower test error (Fig. 6)


def _label(s) -> str:
    return "inf" if str(s) == "inf" else str(int(s))


def _tables(
    tmp_path, kld_s, toy_s, drbm_s=(1, "inf"), kld=KLD, n_exp=5, beta=0.6, n_hidden=2, w_shift=None, R_values=(0, 5)
):
    """Final-epoch tables as the figure rules write them, rows in the configured s order.

    Each experiment has a large offset shared by its s values (the paired
    design): only a paired comparison sees the small differences between s.
    """
    offset = np.linspace(-0.5, 0.5, n_exp)

    def wiggle(e, s):  # a small spread of the paired differences
        return 1e-4 * math.sin(7 * e + 3 * list(KLD).index(_label(s)))

    rows = [
        {"R": R, "experiment": e, "s": _label(s), "epoch": 60, "kld": kld[_label(s)] + offset[e] + wiggle(e, s),
         "loglik": LOGLIK[_label(s)] + offset[e] + wiggle(e, s)}
        for R in R_values for s in kld_s for e in range(n_exp)
    ]  # fmt: skip
    stars = [
        {"s": _label(s), "beta": beta, "n_hidden": n_hidden,
         "w_star": PAPER_W_STAR[float(s)] + (w_shift or {}).get(_label(s), 1e-6)}
        for s in toy_s
    ]  # fmt: skip
    drbm = [
        {"experiment": e, "s": _label(s), "epoch": 3, "train_error": TRAIN[_label(s)] + 0.1 * offset[e] + wiggle(e, s),
         "test_error": TEST[_label(s)] + 0.1 * offset[e] + wiggle(e, s)}
        for s in drbm_s for e in range(n_exp)
    ]  # fmt: skip
    paths = {}
    for name, frame in (("kld_final", rows), ("w_star", stars), ("drbm_final", drbm)):
        paths[name] = tmp_path / f"{name}_{'_'.join(map(_label, kld_s))}_{'_'.join(map(_label, toy_s))}.csv"
        pd.DataFrame(frame).to_csv(paths[name], index=False)
    return load_tables(paths)


def _decide(tables, toy_s, profile="default"):
    settings = {"toy": {"s_values": list(toy_s)}}
    return {d.claim.id: d for d in evaluate(claims(settings), Results(tables, settings=settings, profile=profile))}


def _verdicts(decided):
    return {k: d.verdict for k, d in decided.items()}


def test_claim_ids_follow_the_spec():
    ids = [c.id for c in claims({"toy": {"s_values": FULL}})]
    assert ids == [
        "yokoyama2019/fig2/kld_binary_above_continuous",
        "yokoyama2019/fig2/kld_decreases_with_s",
        "yokoyama2019/fig3/loglik_binary_above_continuous",
        "yokoyama2019/fig4/w_star_s1",
        "yokoyama2019/fig4/w_star_s2",
        "yokoyama2019/fig4/w_star_s4",
        "yokoyama2019/fig4/w_star_sinf",
        "yokoyama2019/fig6/test_error_continuous_below_binary",
        "yokoyama2019/fig6/train_error_continuous_above_binary",
    ]
    # one w* claim per configured s value that the paper reports (it has no s = 3)
    ids = [c.id for c in claims({"toy": {"s_values": [3, "inf"]}})]
    assert [i for i in ids if "/fig4/" in i] == ["yokoyama2019/fig4/w_star_sinf"]


def test_paper_direction_is_reproduced_and_estimates_are_paired_differences(tmp_path):
    decided = _decide(_tables(tmp_path, FULL, FULL), FULL)
    assert set(_verdicts(decided).values()) == {"reproduced"}, _verdicts(decided)
    est = decided["yokoyama2019/fig2/kld_binary_above_continuous"].estimate
    assert est.n == 5 and est.value == pytest.approx(KLD["1"] - KLD["inf"], abs=1e-3)
    # the experiment offsets (spread 0.5) cancel in the paired difference
    assert est.std_error < 1e-3
    assert "R = 5" in est.details and "epoch 60" in est.details
    test = decided["yokoyama2019/fig6/test_error_continuous_below_binary"].estimate
    assert test.value == pytest.approx(100 * (TEST["inf"] - TEST["1"]), abs=0.1)  # in %
    parts = decided["yokoyama2019/fig2/kld_decreases_with_s"].parts
    assert [p[0] for p in parts] == ["KLD(1) - KLD(2)", "KLD(2) - KLD(4)", "KLD(4) - KLD(inf)"]
    w = decided["yokoyama2019/fig4/w_star_s2"]
    assert w.estimate.value == pytest.approx(0.7834 + 1e-6) and w.claim.kind == "exact"


def test_results_against_the_paper_are_not_reproduced(tmp_path):
    rising = {"1": 0.20, "2": 0.25, "4": 0.22, "inf": 0.30}
    tables = _tables(tmp_path, FULL, FULL, kld=rising, w_shift={"4": 2e-4})
    verdicts = _verdicts(_decide(tables, FULL))
    assert verdicts["yokoyama2019/fig2/kld_binary_above_continuous"] == "not reproduced"
    assert verdicts["yokoyama2019/fig2/kld_decreases_with_s"] == "not reproduced"
    assert verdicts["yokoyama2019/fig4/w_star_s4"] == "not reproduced"  # 0.8943 is not 0.8941 to 4 decimals
    assert verdicts["yokoyama2019/fig4/w_star_s2"] == "reproduced"


@pytest.mark.parametrize("kld", [KLD, {"1": 0.30, "2": 0.20, "4": 0.25, "inf": 0.10}], ids=["monotone", "2-4 swapped"])
@pytest.mark.parametrize("subset", [[1, "inf"], ["inf", 1], [4, "inf", 1, 2], ["inf", 2, 1, 4]])
def test_subset_or_shuffled_s_values_give_the_full_lists_verdicts(tmp_path, kld, subset):
    """Claims sort and match s by value: the config's order and extra s values do not change a verdict."""
    full = _verdicts(_decide(_tables(tmp_path, FULL, FULL, kld=kld, w_shift={"inf": 3e-4}), FULL))
    decided = _decide(_tables(tmp_path, subset, subset, kld=kld, w_shift={"inf": 3e-4}), subset)
    part = _verdicts(decided)
    labels = [p[0] for p in decided["yokoyama2019/fig2/kld_decreases_with_s"].parts]
    assert labels == (
        ["KLD(1) - KLD(inf)"] if len(subset) == 2 else ["KLD(1) - KLD(2)", "KLD(2) - KLD(4)", "KLD(4) - KLD(inf)"]
    )
    assert full["yokoyama2019/fig4/w_star_sinf"] == "not reproduced"  # so that matching by position would show
    assert set(part) <= set(full)
    same_pairs = {k: v for k, v in part.items() if k != "yokoyama2019/fig2/kld_decreases_with_s" or len(subset) == 4}
    assert same_pairs == {k: full[k] for k in same_pairs}
    if len(subset) == 2:  # the all-of claim then has the one part KLD(1) - KLD(inf)
        assert part["yokoyama2019/fig2/kld_decreases_with_s"] == "reproduced"


def test_w_star_not_run_with_our_value_when_beta_or_h_differ(tmp_path):
    for changes in ({"beta": 0.5}, {"n_hidden": 3}):
        decided = _decide(_tables(tmp_path, FULL, FULL, **changes), FULL)
        row = decided["yokoyama2019/fig4/w_star_s1"]
        assert row.verdict == "not run"
        assert f"{PAPER_W_STAR[1.0] + 1e-6:.6f}" in row.details and "beta = 0.6, |H| = 2" in row.details


def test_kld_claims_not_run_without_R5_or_without_s_inf(tmp_path):
    verdicts = _verdicts(_decide(_tables(tmp_path, FULL, FULL, R_values=(0,)), FULL))
    assert verdicts["yokoyama2019/fig2/kld_binary_above_continuous"] == "not run"
    assert verdicts["yokoyama2019/fig3/loglik_binary_above_continuous"] == "not run"
    verdicts = _verdicts(_decide(_tables(tmp_path, [1, 2, 4], FULL), FULL))
    assert verdicts["yokoyama2019/fig2/kld_binary_above_continuous"] == "not run"
    assert verdicts["yokoyama2019/fig2/kld_decreases_with_s"] == "reproduced"


def test_one_experiment_is_inconclusive_but_w_star_is_decided(tmp_path):
    tables = _tables(tmp_path, FULL, FULL, n_exp=1)
    decided = _decide(tables, FULL)
    assert decided["yokoyama2019/fig6/test_error_continuous_below_binary"].verdict == "inconclusive"
    assert decided["yokoyama2019/fig6/test_error_continuous_below_binary"].needed_repeats == 3
    assert decided["yokoyama2019/fig4/w_star_s1"].verdict == "reproduced"  # exact: never inconclusive
